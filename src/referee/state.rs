//! The `-resume` state file: JSON Lines, a header with the run's settings and then one
//! line per finished game, appended as each game ends. Appending keeps the cost of a
//! game constant however long the tournament; a line cut short by a crash is skipped
//! when the file is read back.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::json::{GameJson, JsonError, RunInfo};

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Entry {
    Referee(RunInfo),
    Game(GameJson),
}

/// A state file open for appending.
pub struct StateFile {
    file: File,
    path: String,
}

fn io_error(path: &Path) -> impl Fn(io::Error) -> JsonError + '_ {
    move |source| JsonError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// Whether `text` is a state file rather than a JSON summary.
#[must_use]
pub fn looks_like_state(text: &str) -> bool {
    text.trim_start().starts_with("{\"referee\":")
}

/// Reads a state file: its settings and its games (a last line cut short is skipped).
pub fn load(path: &Path) -> Result<(RunInfo, Vec<GameJson>), JsonError> {
    let text = fs::read_to_string(path).map_err(io_error(path))?;
    parse(&text).map_err(|reason| JsonError::Format {
        path: path.display().to_string(),
        reason,
    })
}

/// Reads the text of a state file.
pub fn parse(text: &str) -> Result<(RunInfo, Vec<GameJson>), String> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut info = None;
    let mut games = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        match serde_json::from_str::<Entry>(line) {
            Ok(Entry::Referee(r)) if i == 0 => info = Some(r),
            Ok(Entry::Game(g)) if i > 0 => games.push(g),
            Ok(_) => return Err(format!("line {}: out of place", i + 1)),
            // Only the last line can have been cut short by a crash.
            Err(_) if i + 1 == lines.len() && i > 0 => {}
            Err(e) => return Err(format!("line {}: {e}", i + 1)),
        }
    }
    let info = info.ok_or("no header line")?;
    Ok((info, games))
}

/// Cuts a last line that a crash left without its line end, so appended lines start on
/// a line of their own.
fn drop_partial_line(path: &Path) -> io::Result<()> {
    let bytes = fs::read(path)?;
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        return Ok(());
    }
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    OpenOptions::new()
        .write(true)
        .open(path)?
        .set_len(keep as u64)
}

impl StateFile {
    /// Opens `path` for appending; a new file gets `info` as its header.
    pub fn open(path: &Path, info: &RunInfo) -> Result<StateFile, JsonError> {
        let fresh = !path.exists();
        if !fresh {
            drop_partial_line(path).map_err(io_error(path))?;
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io_error(path))?;
        let mut state = StateFile {
            file,
            path: path.display().to_string(),
        };
        if fresh {
            state.write(&Entry::Referee(info.clone()))?;
        }
        Ok(state)
    }

    /// Appends a finished game.
    pub fn append(&mut self, game: GameJson) -> Result<(), JsonError> {
        self.write(&Entry::Game(game))
    }

    fn write(&mut self, entry: &Entry) -> Result<(), JsonError> {
        let fail = |source| JsonError::Io {
            path: self.path.clone(),
            source,
        };
        let mut line = serde_json::to_string(entry).map_err(|e| fail(io::Error::other(e)))?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(fail)
    }
}
