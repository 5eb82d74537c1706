//! The text the referee writes to engines and reads back, as pure functions: UGI by
//! default, UCI spellings for engines that only answer `uci`.

use std::fmt::Write as _;
use std::time::Duration;

use super::info::{SearchInfo, read_info};
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
    /// `info ...`, read in full.
    Info(SearchInfo),
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
        Some("info") => EngineLine::Info(read_info(tokens)),
        _ => EngineLine::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::Score;

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
        let EngineLine::Info(info) =
            parse_line("info depth 7 seldepth 9 score cp -35 nodes 100 pv d5")
        else {
            panic!("an info line")
        };
        assert_eq!((info.depth, info.score), (Some(7), Some(Score::Cp(-35))));
        assert_eq!(info.pv, ["d5"]);
        assert_eq!(parse_line("bestmovex"), EngineLine::Other);
        assert_eq!(parse_line("infox depth 2"), EngineLine::Other);
        // Only a score the referee can vouch for goes into game records.
        for odd in ["score }1-0 nodes", "score cp 1}", "score wdl 1", "score cp"] {
            let EngineLine::Info(info) = parse_line(&format!("info depth 2 {odd}")) else {
                panic!("an info line: {odd}")
            };
            assert_eq!((info.depth, info.score), (Some(2), None), "{odd}");
        }
    }
}
