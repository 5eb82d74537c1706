//! The messages a page sends over its WebSocket, read with serde. Every value is
//! checked before use; a message that does not parse is answered with an error.

use std::time::Duration;

use serde::Deserialize;

use crate::client::TimeControl;

/// Longest text one message may carry (an imported PGN or JSON file), in bytes; the
/// WebSocket refuses larger messages before they are read.
pub const MAX_MESSAGE: usize = 8 << 20;

/// Highest `MultiPV` the page may ask for.
pub const MAX_MULTIPV: u32 = 16;

/// One message from the page.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Intent {
    /// Start a new game.
    New(NewGame),
    /// Play a move (the text of one of the legal moves the server listed).
    Move {
        /// Move text.
        text: String,
    },
    /// Show the position after `ply` moves.
    Goto {
        /// Plies from the start.
        ply: usize,
    },
    /// Take back the last move (and the engine's reply before it).
    Takeback,
    /// Play on from the position shown, dropping the moves after it.
    Continue,
    /// Make the thinking engine move now, and stop analysing or solving.
    Stop,
    /// Start or stop the analysis engine.
    Analyse {
        /// On or off.
        on: bool,
        /// Index of the engine.
        engine: usize,
        /// Lines to show.
        multipv: u32,
    },
    /// Prove each legal move of the position shown a win or a loss.
    Solve {
        /// Index of the engine.
        engine: usize,
    },
    /// Start again the engines that failed, and play on if a failure ended the game.
    Restart,
    /// Read a referee PGN or JSON file.
    Import {
        /// The file's text.
        text: String,
    },
    /// Open game `index` of the last import.
    Load {
        /// Index in the import.
        index: usize,
    },
    /// Ask for the game as PGN.
    Export,
}

/// Who plays one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideSpec {
    /// Index of the engine, or `None` for a person.
    pub engine: Option<usize>,
    /// Strength level, when the engine offers one.
    pub level: Option<i64>,
}

/// How long engines think.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum LimitSpec {
    /// A fixed time for each engine move.
    Movetime {
        /// Milliseconds.
        ms: u64,
    },
    /// A clock for both sides (people too): base and increment in milliseconds.
    Clock {
        /// Time at the start.
        base_ms: u64,
        /// Time added after each move.
        inc_ms: u64,
    },
    /// A fixed depth.
    Depth {
        /// Plies.
        depth: u32,
    },
    /// A fixed number of nodes.
    Nodes {
        /// Nodes.
        nodes: u64,
    },
}

/// A limit that was checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Fixed time per engine move.
    Movetime(Duration),
    /// Both sides on a clock.
    Clock(TimeControl),
    /// Fixed depth.
    Depth(u32),
    /// Fixed nodes.
    Nodes(u64),
}

impl LimitSpec {
    /// The limit, or why it is refused.
    pub fn check(self) -> Result<Limit, String> {
        let hour = 3_600_000;
        match self {
            LimitSpec::Movetime { ms } if (10..=hour).contains(&ms) => {
                Ok(Limit::Movetime(Duration::from_millis(ms)))
            }
            LimitSpec::Movetime { .. } => Err("time per move must be 0.01 s to 1 hour".into()),
            LimitSpec::Clock { base_ms, inc_ms }
                if (1000..=10 * hour).contains(&base_ms) && inc_ms <= 60_000 =>
            {
                Ok(Limit::Clock(TimeControl {
                    moves: None,
                    base: Duration::from_millis(base_ms),
                    increment: Duration::from_millis(inc_ms),
                }))
            }
            LimitSpec::Clock { .. } => {
                Err("a clock needs 1 s to 10 hours and an increment up to 60 s".into())
            }
            LimitSpec::Depth { depth } if (1..=128).contains(&depth) => Ok(Limit::Depth(depth)),
            LimitSpec::Depth { .. } => Err("depth must be 1 to 128".into()),
            LimitSpec::Nodes { nodes } if (1..=1_000_000_000_000).contains(&nodes) => {
                Ok(Limit::Nodes(nodes))
            }
            LimitSpec::Nodes { .. } => Err("nodes must be 1 to 10^12".into()),
        }
    }
}

/// A new game as the page's form describes it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// `WxH`.
    pub board: String,
    /// `diagonal`, `centre` or `any`.
    pub opening: String,
    /// `straight` or `turning`.
    pub multijump: String,
    /// Who plays black.
    pub black: SideSpec,
    /// Who plays white.
    pub white: SideSpec,
    /// How long engines think.
    pub limit: LimitSpec,
    /// Position text, or empty for the start position.
    #[serde(default)]
    pub start: String,
}

/// Reads a message.
pub fn parse(text: &str) -> Result<Intent, String> {
    serde_json::from_str(text).map_err(|e| format!("bad message: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_read_and_checked() {
        assert_eq!(
            parse(r#"{"type":"move","text":"d5"}"#),
            Ok(Intent::Move { text: "d5".into() })
        );
        let new = parse(
            r#"{"type":"new","board":"6x6","opening":"diagonal","multijump":"straight",
                "black":{"engine":null},"white":{"engine":0,"level":3},
                "limit":{"kind":"clock","base_ms":60000,"inc_ms":500}}"#,
        )
        .unwrap();
        let Intent::New(game) = new else {
            panic!("{new:?}")
        };
        assert_eq!(
            game.white,
            SideSpec {
                engine: Some(0),
                level: Some(3)
            }
        );
        assert!(matches!(game.limit.check(), Ok(Limit::Clock(_))));
        for bad in [
            "",
            "{}",
            r#"{"type":"move"}"#,
            r#"{"type":"goto","ply":-1}"#,
            r#"{"type":"move","text":"d5","extra":1}"#,
        ] {
            assert!(parse(bad).unwrap_err().starts_with("bad message"), "{bad}");
        }
    }

    #[test]
    fn absurd_limits_are_refused() {
        assert!(LimitSpec::Movetime { ms: 0 }.check().is_err());
        assert!(LimitSpec::Depth { depth: 0 }.check().is_err());
        assert!(
            LimitSpec::Clock {
                base_ms: 10,
                inc_ms: 0
            }
            .check()
            .is_err()
        );
        assert!(LimitSpec::Nodes { nodes: u64::MAX }.check().is_err());
        assert_eq!(LimitSpec::Depth { depth: 3 }.check(), Ok(Limit::Depth(3)));
    }
}
