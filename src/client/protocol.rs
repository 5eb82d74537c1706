//! The text the referee writes to engines and reads back, as pure functions: UGI by
//! default, UCI spellings for engines that only answer `uci`.

use std::fmt::Write as _;
use std::time::Duration;

use crate::dialect::Dialect;
use crate::rules::Color;

/// Time on one side's clock, as sent with `go`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockReading {
    /// Time left.
    pub time: Duration,
    /// Increment per move.
    pub increment: Duration,
}

/// What one `go` asks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GoLimits {
    /// Both clocks, black's first, when the mover plays on a clock.
    pub clocks: Option<[ClockReading; 2]>,
    /// Moves left in the mover's period.
    pub moves_to_go: Option<u32>,
    /// Fixed time for this move.
    pub move_time: Option<Duration>,
    /// Depth limit.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
}

/// The `setoption` line for one option.
#[must_use]
pub fn set_option(name: &str, value: &str) -> String {
    format!("setoption name {name} value {value}")
}

/// The `position` line: `startpos` or `fen <text>`, then the moves played since.
#[must_use]
pub fn position_command(start: Option<&str>, moves: &[String]) -> String {
    let mut line = match start {
        None => "position startpos".to_string(),
        Some(text) => format!("position fen {text}"),
    };
    if !moves.is_empty() {
        line.push_str(" moves");
        for m in moves {
            line.push(' ');
            line.push_str(m);
        }
    }
    line
}

/// The `go` line for `limits` in `dialect`.
#[must_use]
pub fn go_command(dialect: Dialect, limits: &GoLimits) -> String {
    let mut line = String::from("go");
    let mut add = |key: &str, value: u128| {
        // Writing to a String cannot fail.
        let _ = write!(line, " {key} {value}");
    };
    if let Some(clocks) = limits.clocks {
        for side in [Color::Black, Color::White] {
            add(
                dialect.clock_keys(side).0,
                clocks[side.index()].time.as_millis(),
            );
        }
        for side in [Color::Black, Color::White] {
            add(
                dialect.clock_keys(side).1,
                clocks[side.index()].increment.as_millis(),
            );
        }
        if let Some(n) = limits.moves_to_go {
            add("movestogo", n.into());
        }
    }
    if let Some(t) = limits.move_time {
        add("movetime", t.as_millis());
    }
    if let Some(d) = limits.depth {
        add("depth", d.into());
    }
    if let Some(n) = limits.nodes {
        add("nodes", n.into());
    }
    line
}

/// A line an engine printed, as far as the referee cares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineLine {
    /// `id name <name>`.
    IdName(String),
    /// `ugiok` or `uciok`.
    HelloOk(Dialect),
    /// `readyok`.
    ReadyOk,
    /// `bestmove <move> [ponder <move>]`; the move is `None` when the line has no move
    /// or says `0000` / `(none)`.
    BestMove(Option<String>),
    /// `info ...`: the search's depth and score, when given.
    Info {
        /// `depth N`.
        depth: Option<u32>,
        /// `score cp N`, `score mate N`, ... kept as text.
        score: Option<String>,
    },
    /// Anything else.
    Other,
}

/// Reads one line of engine output.
#[must_use]
pub fn parse_line(line: &str) -> EngineLine {
    let mut tokens = line.split_whitespace();
    match tokens.next() {
        Some("id") if tokens.next() == Some("name") => {
            EngineLine::IdName(tokens.collect::<Vec<_>>().join(" "))
        }
        Some("ugiok") => EngineLine::HelloOk(Dialect::Ugi),
        Some("uciok") => EngineLine::HelloOk(Dialect::Uci),
        Some("readyok") => EngineLine::ReadyOk,
        Some("bestmove") => EngineLine::BestMove(
            tokens
                .next()
                .filter(|m| *m != "0000" && *m != "(none)")
                .map(str::to_string),
        ),
        Some("info") => parse_info(tokens),
        _ => EngineLine::Other,
    }
}

fn parse_info<'a>(tokens: impl Iterator<Item = &'a str>) -> EngineLine {
    let tokens: Vec<&str> = tokens.collect();
    let mut depth = None;
    let mut score = None;
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i] {
            // Everything after `string` is free text.
            "string" => break,
            "depth" => depth = tokens.get(i + 1).and_then(|d| d.parse().ok()),
            "score" => {
                // Only a score the referee can vouch for goes into game records.
                score = match (tokens.get(i + 1), tokens.get(i + 2)) {
                    (Some(&kind @ ("cp" | "mate")), Some(value))
                        if value.parse::<i64>().is_ok() =>
                    {
                        Some(format!("{kind} {value}"))
                    }
                    _ => None,
                };
            }
            _ => {}
        }
        i += 1;
    }
    EngineLine::Info { depth, score }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clocks() -> GoLimits {
        GoLimits {
            clocks: Some([
                ClockReading {
                    time: ms(9_000),
                    increment: ms(100),
                },
                ClockReading {
                    time: ms(8_000),
                    increment: ms(200),
                },
            ]),
            moves_to_go: Some(12),
            ..GoLimits::default()
        }
    }

    #[test]
    fn ugi_clocks_name_black_p1() {
        assert_eq!(
            go_command(Dialect::Ugi, &clocks()),
            "go p1time 9000 p2time 8000 p1inc 100 p2inc 200 movestogo 12"
        );
    }

    #[test]
    fn uci_clocks_name_black_btime() {
        assert_eq!(
            go_command(Dialect::Uci, &clocks()),
            "go btime 9000 wtime 8000 binc 100 winc 200 movestogo 12"
        );
    }

    #[test]
    fn fixed_limits_are_spelled_out() {
        let limits = GoLimits {
            move_time: Some(ms(250)),
            depth: Some(3),
            nodes: Some(1000),
            ..GoLimits::default()
        };
        assert_eq!(
            go_command(Dialect::Ugi, &limits),
            "go movetime 250 depth 3 nodes 1000"
        );
    }

    #[test]
    fn positions_list_the_moves_since_the_start() {
        assert_eq!(position_command(None, &[]), "position startpos");
        let moves = vec!["d5".to_string(), "d4".to_string()];
        assert_eq!(
            position_command(Some("bwbw/wbwb/bwbw/wbwb b"), &moves),
            "position fen bwbw/wbwb/bwbw/wbwb b moves d5 d4"
        );
    }

    #[test]
    fn engine_lines_are_read() {
        assert_eq!(
            parse_line("bestmove d7d5 ponder c5"),
            EngineLine::BestMove(Some("d7d5".into()))
        );
        assert_eq!(parse_line("bestmove 0000"), EngineLine::BestMove(None));
        assert_eq!(parse_line("bestmove (none)"), EngineLine::BestMove(None));
        assert_eq!(parse_line("bestmove"), EngineLine::BestMove(None));
        assert_eq!(
            parse_line("id name Foo Bar 2"),
            EngineLine::IdName("Foo Bar 2".into())
        );
        assert_eq!(parse_line("  uciok "), EngineLine::HelloOk(Dialect::Uci));
        assert_eq!(
            parse_line("info depth 7 seldepth 9 score cp -35 nodes 100 pv d5"),
            EngineLine::Info {
                depth: Some(7),
                score: Some("cp -35".into())
            }
        );
        assert_eq!(parse_line("bestmovex"), EngineLine::Other);
        for odd in ["score }1-0 nodes", "score cp 1}", "score wdl 1", "score cp"] {
            assert_eq!(
                parse_line(&format!("info depth 2 {odd}")),
                EngineLine::Info {
                    depth: Some(2),
                    score: None
                },
                "{odd}"
            );
        }
    }
}
