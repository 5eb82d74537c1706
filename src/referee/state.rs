//! The `-resume` state file: JSON Lines, a header with the run's settings and then one
//! line per finished game, appended as each game ends. Appending keeps the cost of a
//! game constant however long the tournament.
//!
//! The file is the record of a tournament, so reading it is strict: an exact repeat of
//! a game line is dropped with a warning; a line that contradicts an earlier one about
//! the same game, names a game outside the schedule, or cannot be read is refused with
//! an error that names the line. Only a last line without its line end (cut short by
//! a crash) is skipped, and it is removed before anything is appended.

use std::collections::HashMap;
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

/// What a state file holds.
#[derive(Clone, Debug)]
pub struct Contents {
    /// The run's settings.
    pub info: RunInfo,
    /// The games, each once, in the order of the file.
    pub games: Vec<GameJson>,
    /// Lines that were dropped, one sentence each.
    pub warnings: Vec<String>,
}

/// Reads a state file (see the module's notes for what is refused).
pub fn load(path: &Path) -> Result<Contents, JsonError> {
    let text = fs::read_to_string(path).map_err(io_error(path))?;
    parse(&text).map_err(|reason| JsonError::Format {
        path: path.display().to_string(),
        reason,
    })
}

/// Reads the text of a state file.
pub fn parse(text: &str) -> Result<Contents, String> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l))
        .collect();
    let mut info: Option<RunInfo> = None;
    let mut games: Vec<GameJson> = Vec::new();
    let mut seen: HashMap<u64, (usize, usize)> = HashMap::new();
    let mut warnings = Vec::new();
    for (k, &(number, line)) in lines.iter().enumerate() {
        let entry = match serde_json::from_str::<Entry>(line) {
            Ok(entry) => entry,
            // Only a last line without its line end can have been cut short by a crash.
            Err(_) if k + 1 == lines.len() && k > 0 && !text.ends_with('\n') => continue,
            Err(e) => return Err(format!("line {number}: {e}")),
        };
        match (entry, &info) {
            (Entry::Referee(r), None) if k == 0 => info = Some(r),
            (Entry::Game(g), Some(info)) => {
                if g.game == 0 || g.game > info.scheduled_games {
                    return Err(format!(
                        "line {number}: game {} is outside the schedule of {} games",
                        g.game, info.scheduled_games
                    ));
                }
                match seen.get(&g.game) {
                    Some(&(first, index)) if games[index] == g => warnings.push(format!(
                        "line {number} repeats game {} of line {first}: counted once",
                        g.game
                    )),
                    Some(&(first, _)) => {
                        return Err(format!(
                            "line {number}: game {} differs from line {first}",
                            g.game
                        ));
                    }
                    None => {
                        seen.insert(g.game, (number, games.len()));
                        games.push(g);
                    }
                }
            }
            _ => return Err(format!("line {number}: out of place")),
        }
    }
    let info = info.ok_or("no header line")?;
    Ok(Contents {
        info,
        games,
        warnings,
    })
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
