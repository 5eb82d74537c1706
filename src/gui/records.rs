//! Games in and out: the PGN the referee writes (read and written with its own
//! writer, [`referee::pgn`](crate::referee::pgn)) and its `-json` summary. Every move
//! read is checked with the rules core; a game stops at its first illegal move.

use serde::Serialize;

use crate::referee::{GameRecord, PlayedMove, StartPosition, Summary, Termination, pgn};
use crate::rules::{AnyPosition, Color, MultiJump, Opening, Variant};

/// Most games one import keeps.
pub const MAX_GAMES: usize = 10_000;

/// A game read from a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ImportedGame {
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The rules.
    #[serde(skip)]
    pub variant: Variant,
    /// The start position's text, `None` for the variant's start.
    pub start: Option<String>,
    /// The moves, canonical, each checked.
    pub moves: Vec<String>,
    /// `1-0`, `0-1` or `*`, and how the game ended.
    pub result: String,
    /// Why the moves stop early, when one was not legal.
    pub problem: Option<String>,
}

impl ImportedGame {
    /// One line for the page's list of games.
    #[must_use]
    pub fn label(&self, index: usize) -> String {
        format!(
            "{}. {} - {} ({}, {}, {} moves){}",
            index + 1,
            self.black,
            self.white,
            self.variant.size,
            self.result,
            self.moves.len(),
            if self.problem.is_some() { " !" } else { "" }
        )
    }
}

/// Reads a referee PGN file or `-json` summary (told apart by a leading `{`).
pub fn import(text: &str) -> Result<Vec<ImportedGame>, String> {
    let games = if text.trim_start().starts_with('{') {
        import_json(text)?
    } else {
        import_pgn(text)?
    };
    if games.is_empty() {
        return Err("no game found in the text".into());
    }
    Ok(games)
}

fn import_json(text: &str) -> Result<Vec<ImportedGame>, String> {
    let summary: Summary =
        serde_json::from_str(text).map_err(|e| format!("not a referee JSON file: {e}"))?;
    let variant = summary.referee.variant()?;
    Ok(summary
        .games
        .iter()
        .take(MAX_GAMES)
        .map(|g| {
            let start = StartPosition::from_label(&g.opening)
                .fen()
                .map(str::to_string);
            let result = pgn::result_token(Color::from(g.winner_side));
            checked(
                g.black.clone(),
                g.white.clone(),
                variant,
                start,
                &g.moves,
                format!("{result} ({})", g.detail),
            )
        })
        .collect())
}

fn checked(
    black: String,
    white: String,
    variant: Variant,
    start: Option<String>,
    moves: &[String],
    result: String,
) -> ImportedGame {
    let mut game = ImportedGame {
        black,
        white,
        variant,
        start,
        moves: Vec::new(),
        result,
        problem: None,
    };
    let position = match &game.start {
        None => Ok(AnyPosition::start(variant)),
        Some(text) => AnyPosition::from_text(text, variant.opening, variant.multi_jump),
    };
    let mut position = match position {
        Ok(p) if p.variant().size == variant.size => p,
        Ok(_) => {
            game.problem = Some("the start position is not of the board size given".into());
            return game;
        }
        Err(e) => {
            game.problem = Some(format!("start position: {e}"));
            return game;
        }
    };
    for (i, text) in moves.iter().enumerate() {
        match position.play_text(text) {
            Ok(canonical) => game.moves.push(canonical),
            Err(e) => {
                game.problem = Some(format!("move {}: {e}", i + 1));
                break;
            }
        }
    }
    game
}

/// One game's tags and move words, as read from PGN.
#[derive(Default)]
struct PgnGame {
    tags: Vec<(String, String)>,
    words: Vec<String>,
}

impl PgnGame {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Reads `[Name "value"]` (with `\"` and `\\` escapes).
fn tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        value.push(if c == '\\' { chars.next()? } else { c });
    }
    Some((name.to_string(), value))
}

fn split_games(text: &str) -> Result<Vec<PgnGame>, String> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut in_comment = false;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if !in_comment && line.starts_with('[') {
            if !game.words.is_empty() {
                games.push(std::mem::take(&mut game));
                if games.len() >= MAX_GAMES {
                    return Ok(games);
                }
            }
            let parsed = tag(line).ok_or_else(|| format!("line {}: bad tag '{line}'", n + 1))?;
            game.tags.push(parsed);
            continue;
        }
        let mut word = String::new();
        for c in line.chars() {
            match c {
                '{' if !in_comment => in_comment = true,
                '}' if in_comment => in_comment = false,
                ';' if !in_comment => break,
                _ if in_comment => {}
                c if c.is_whitespace() => game.words.extend(take_word(&mut word)),
                c => word.push(c),
            }
        }
        game.words.extend(take_word(&mut word));
    }
    if !game.words.is_empty() || !game.tags.is_empty() {
        games.push(game);
    }
    Ok(games)
}

/// The word collected so far, without a move number in front.
fn take_word(word: &mut String) -> Option<String> {
    let w = std::mem::take(word);
    let bare = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    let is_number = bare.is_empty();
    (!is_number).then(|| bare.to_string())
}

fn import_pgn(text: &str) -> Result<Vec<ImportedGame>, String> {
    split_games(text)?
        .into_iter()
        .enumerate()
        .map(|(i, g)| {
            let which = |e: String| format!("game {}: {e}", i + 1);
            let board = g.tag("BoardSize").unwrap_or("8x8");
            let variant = Variant {
                size: board.parse().map_err(|e| which(format!("{e}")))?,
                opening: g
                    .tag("Opening")
                    .map_or(Ok(Opening::default()), str::parse)
                    .map_err(|e| which(format!("{e}")))?,
                multi_jump: g
                    .tag("MultiJump")
                    .map_or(Ok(MultiJump::default()), str::parse)
                    .map_err(|e| which(format!("{e}")))?,
            };
            let results = ["1-0", "0-1", "*", "1/2-1/2"];
            let moves: Vec<String> = g
                .words
                .iter()
                .filter(|w| !results.contains(&w.as_str()))
                .cloned()
                .collect();
            let result = g.tag("Result").unwrap_or("*").to_string();
            let result = match g.tag("Termination") {
                Some(t) => format!("{result} ({t})"),
                None => result,
            };
            Ok(checked(
                g.tag("Black").unwrap_or("?").to_string(),
                g.tag("White").unwrap_or("?").to_string(),
                variant,
                g.tag("FEN").map(str::to_string),
                &moves,
                result,
            ))
        })
        .collect()
}

/// A game played on the page, for export.
pub struct ExportedGame<'a> {
    /// Black's and white's names.
    pub names: [String; 2],
    /// The rules.
    pub variant: Variant,
    /// The start position.
    pub start: &'a AnyPosition,
    /// The moves with their thinking times.
    pub moves: Vec<(String, u64)>,
    /// The winner and why, when the game is over.
    pub result: Option<(Color, String)>,
}

/// The game in the referee's PGN; an unfinished game has the result `*`.
#[must_use]
pub fn export(game: &ExportedGame<'_>) -> String {
    let [black, white] = game.names.clone();
    let record = GameRecord {
        number: 1,
        round: 1,
        pair: 0,
        black,
        white,
        // Replaced by `*` below when the game is not over.
        winner: game.result.as_ref().map_or(Color::Black, |(w, _)| *w),
        termination: Termination::Normal,
        detail: game
            .result
            .as_ref()
            .map_or_else(|| "unfinished".to_string(), |(_, why)| why.clone()),
        opening: StartPosition::Text(game.start.to_string()),
        moves: game
            .moves
            .iter()
            .map(|(text, ms)| PlayedMove {
                text: text.clone(),
                ms: *ms,
                ..PlayedMove::default()
            })
            .collect(),
    };
    let text = pgn::game(&record, "konane-gui", game.variant);
    if game.result.is_some() {
        return text;
    }
    let token = pgn::result_token(record.winner);
    let text = text.replace(&format!("[Result \"{token}\"]"), "[Result \"*\"]");
    match text.trim_end().strip_suffix(token) {
        Some(body) => format!("{body}*\n\n"),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::BoardSize;

    fn six() -> Variant {
        Variant {
            size: BoardSize::new(6, 6).unwrap(),
            ..Variant::default()
        }
    }

    #[test]
    fn exported_games_read_back() {
        let start = AnyPosition::start(six());
        let game = ExportedGame {
            names: ["Ann \"A\"".into(), "konane".into()],
            variant: six(),
            start: &start,
            moves: vec![("c4".into(), 10), ("c3".into(), 20), ("e4c4".into(), 30)],
            result: None,
        };
        let text = export(&game);
        assert!(
            text.contains("[Result \"*\"]") && text.trim_end().ends_with('*'),
            "{text}"
        );
        let read = import(&text).unwrap();
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].black, "Ann \"A\"");
        assert_eq!(read[0].moves, vec!["c4", "c3", "e4c4"]);
        assert_eq!(read[0].variant, six());
        assert_eq!(read[0].problem, None);
        let finished = export(&ExportedGame {
            result: Some((Color::Black, "white has no legal move".into())),
            ..game
        });
        assert!(finished.contains("[Result \"0-1\"]"), "{finished}");
    }

    #[test]
    fn an_illegal_move_stops_the_game_and_is_reported() {
        let text = "[BoardSize \"6x6\"]\n[Result \"0-1\"]\n\n1. c4 {x} c3 2. a1a3 0-1\n";
        let read = import(text).unwrap();
        assert_eq!(read[0].moves, vec!["c4", "c3"]);
        assert!(read[0].problem.as_deref().unwrap().starts_with("move 3:"));
    }

    #[test]
    fn junk_is_refused_with_a_reason() {
        assert!(import("").is_err());
        assert!(
            import("{ not json")
                .unwrap_err()
                .contains("not a referee JSON")
        );
        assert!(import("[Bad tag\n1. d5").unwrap_err().contains("bad tag"));
        assert!(
            import("[BoardSize \"99x3\"]\n1. a1")
                .unwrap_err()
                .contains("game 1")
        );
    }
}
