//! From a line of input to a [`Command`], with nom.
//!
//! Unknown tokens are skipped as UCI asks: a line that starts with words the engine does
//! not know is read from its first known command on, and unknown words inside `go` are
//! skipped (with a warning). A line with no known command at all is an error.

use std::time::Duration;

use nom::bytes::complete::{take_till1, take_while};
use nom::character::complete::{digit1, one_of};
use nom::combinator::{all_consuming, opt, recognize};
use nom::sequence::preceded;
use nom::{IResult, Parser};
use thiserror::Error;

use crate::dialect::Dialect;
use crate::engine::GoRequest;

/// Where `position` starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The start position of the current rules (`position startpos`).
    StartPos,
    /// A position text (`position fen <board> <side>`).
    Text(String),
}

/// What `go` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Go {
    /// `go perft <depth>`.
    Perft(usize),
    /// A search; `warnings` lists the tokens that were skipped.
    Search {
        /// The limits.
        request: GoRequest,
        /// Unknown or clamped parameters, to tell the user about.
        warnings: Vec<String>,
    },
}

/// The `query` questions of UGI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// Is the game over?
    GameOver,
    /// Is it black's (player 1's) turn?
    P1Turn,
    /// Who won, if anyone?
    Result,
}

/// What `bench` measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bench {
    /// Searches to this depth.
    Search(u32),
    /// Perft over the bench positions.
    Perft,
}

/// One line of input, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `ugi` or `uci`: identify and list the options.
    Hello(Dialect),
    /// `debug on|off` (accepted, changes nothing).
    Debug(bool),
    /// `isready`.
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option name (case is ignored).
        name: String,
        /// The value, empty when none was given.
        value: String,
    },
    /// `uginewgame` or `ucinewgame`.
    NewGame,
    /// `position startpos|fen <text> [moves ...]`.
    Position {
        /// Where to start.
        start: Start,
        /// Moves to play from there.
        moves: Vec<String>,
    },
    /// `go ...`.
    Go(Go),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: draw the board.
    Display,
    /// `eval`: the static evaluation and its terms.
    Eval,
    /// `bench [depth]` or `bench perft`.
    Bench(Bench),
    /// `query gameover|p1turn|result`.
    Query(Query),
}

impl Command {
    /// Roughly the memory the command holds, in bytes: what a queue of waiting
    /// commands is bounded by.
    #[must_use]
    pub fn weight(&self) -> usize {
        let text = |t: &str| t.len() + std::mem::size_of::<String>();
        let words = |ws: &[String]| ws.iter().map(|w| text(w)).sum::<usize>();
        std::mem::size_of::<Command>()
            + match self {
                Command::SetOption { name, value } => text(name) + text(value),
                Command::Position { start, moves } => {
                    words(moves)
                        + match start {
                            Start::StartPos => 0,
                            Start::Text(t) => text(t),
                        }
                }
                Command::Go(Go::Search { request, warnings }) => {
                    words(&request.search_moves) + words(warnings)
                }
                _ => 0,
            }
    }
}

/// A line that is not a command the engine can carry out.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CommandError {
    /// No known command on the line.
    #[error("unknown command '{0}'")]
    Unknown(String),
    /// A command's arguments are wrong.
    #[error("{command}: {message}")]
    Arguments {
        /// The command.
        command: &'static str,
        /// What is wrong.
        message: String,
    },
    /// The line was longer than the reader keeps.
    #[error("line of {0} bytes is too long; ignored")]
    TooLong(usize),
}

/// Deepest `go perft` accepted.
pub const MAX_PERFT_DEPTH: usize = 64;
/// Deepest `go depth` and `bench` searched; larger values are clamped.
pub const MAX_DEPTH: u32 = 255;

const KEYWORDS: [&str; 16] = [
    "ugi",
    "uci",
    "debug",
    "isready",
    "setoption",
    "uginewgame",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "bench",
    "query",
];

/// Whether `word` is a command word: the first known word of a line is its command.
#[must_use]
pub fn is_command_word(word: &str) -> bool {
    KEYWORDS.contains(&word)
}

/// Text of a token fit to quote in a one-line message.
fn quoted(token: &str) -> String {
    let shown: String = token
        .chars()
        .take(32)
        .flat_map(char::escape_debug)
        .collect();
    if token.chars().count() > 32 {
        format!("{shown}...")
    } else {
        shown
    }
}

fn token(input: &str) -> IResult<&str, &str> {
    // Words are separated by any whitespace (form feeds and vertical tabs too), the
    // same test that ends a word, so no whitespace character can hide the rest of a line.
    preceded(
        take_while(char::is_whitespace),
        take_till1(char::is_whitespace),
    )
    .parse(input)
}

fn tokens(input: &str) -> Vec<&str> {
    let mut rest = input;
    let mut out = Vec::new();
    while let Ok((next, t)) = token(rest) {
        out.push(t);
        rest = next;
    }
    out
}

/// A whole number with an optional sign, clamped to the `i64` range.
fn integer(text: &str) -> Option<i64> {
    let parsed: IResult<&str, &str> =
        all_consuming(recognize((opt(one_of("+-")), digit1))).parse(text);
    let (_, digits) = parsed.ok()?;
    Some(digits.parse::<i64>().unwrap_or(if digits.starts_with('-') {
        i64::MIN
    } else {
        i64::MAX
    }))
}

/// Reads one line. `Ok(None)` for a blank line.
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    let words = tokens(line);
    let Some(&first) = words.first() else {
        return Ok(None);
    };
    let Some(start) = words.iter().position(|w| KEYWORDS.contains(w)) else {
        return Err(CommandError::Unknown(quoted(first)));
    };
    let (name, args) = (words[start], &words[start + 1..]);
    let command = match name {
        "ugi" => Command::Hello(Dialect::Ugi),
        "uci" => Command::Hello(Dialect::Uci),
        "debug" => Command::Debug(args.first() != Some(&"off")),
        "isready" => Command::IsReady,
        "setoption" => set_option(args)?,
        "uginewgame" | "ucinewgame" => Command::NewGame,
        "position" => position(args)?,
        "go" => Command::Go(go(args)?),
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "d" => Command::Display,
        "eval" => Command::Eval,
        "bench" => bench(args)?,
        "query" => query(args)?,
        other => return Err(CommandError::Unknown(quoted(other))),
    };
    Ok(Some(command))
}

fn arguments(command: &'static str, message: impl Into<String>) -> CommandError {
    CommandError::Arguments {
        command,
        message: message.into(),
    }
}

fn set_option(args: &[&str]) -> Result<Command, CommandError> {
    if args.first() != Some(&"name") || args.len() < 2 {
        return Err(arguments(
            "setoption",
            "expected 'setoption name <name> [value <value>]'",
        ));
    }
    let value_at = args
        .iter()
        .position(|&w| w == "value")
        .unwrap_or(args.len());
    if value_at == 1 {
        return Err(arguments("setoption", "the option name is missing"));
    }
    let value = args.get(value_at + 1..).unwrap_or(&[]).join(" ");
    Ok(Command::SetOption {
        name: args[1..value_at].join(" "),
        value,
    })
}

fn position(args: &[&str]) -> Result<Command, CommandError> {
    let (start, rest) = match args.first() {
        Some(&"startpos") => (Start::StartPos, &args[1..]),
        Some(&"fen") => {
            if args.len() < 3 || args[2] == "moves" {
                return Err(arguments(
                    "position",
                    "expected 'position fen <board> <side> [moves ...]'",
                ));
            }
            (Start::Text(format!("{} {}", args[1], args[2])), &args[3..])
        }
        Some(other) => {
            return Err(arguments(
                "position",
                format!("expected 'startpos' or 'fen', found '{}'", quoted(other)),
            ));
        }
        None => return Err(arguments("position", "expected 'startpos' or 'fen'")),
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&"moves", moves)) => moves.iter().map(|m| (*m).to_string()).collect(),
        Some((other, _)) => {
            return Err(arguments(
                "position",
                format!("expected 'moves', found '{}'", quoted(other)),
            ));
        }
    };
    Ok(Command::Position { start, moves })
}

fn query(args: &[&str]) -> Result<Command, CommandError> {
    match args.first() {
        Some(&"gameover") => Ok(Command::Query(Query::GameOver)),
        Some(&"p1turn") => Ok(Command::Query(Query::P1Turn)),
        Some(&"result") => Ok(Command::Query(Query::Result)),
        other => Err(arguments(
            "query",
            format!(
                "expected gameover, p1turn or result, found '{}'",
                quoted(other.unwrap_or(&""))
            ),
        )),
    }
}

fn bench(args: &[&str]) -> Result<Command, CommandError> {
    match args.first() {
        None => Ok(Command::Bench(Bench::Search(crate::bench::SEARCH_DEPTH))),
        Some(&"perft") => Ok(Command::Bench(Bench::Perft)),
        Some(word) => match integer(word) {
            Some(depth) if depth >= 1 => Ok(Command::Bench(Bench::Search(
                depth.min(i64::from(MAX_DEPTH)) as u32,
            ))),
            _ => Err(arguments(
                "bench",
                format!(
                    "expected a depth from 1 to {MAX_DEPTH} or 'perft', found '{}'",
                    quoted(word)
                ),
            )),
        },
    }
}

/// The value after a `go` keyword: a whole number, or an error naming the keyword.
fn go_number(args: &[&str], i: usize) -> Result<i64, CommandError> {
    let key = args[i];
    let value = args
        .get(i + 1)
        .ok_or_else(|| arguments("go", format!("'{key}' needs a number")))?;
    integer(value).ok_or_else(|| {
        arguments(
            "go",
            format!("'{key}' needs a number, found '{}'", quoted(value)),
        )
    })
}

fn millis(value: i64) -> Duration {
    Duration::from_millis(value.max(0) as u64)
}

fn go(args: &[&str]) -> Result<Go, CommandError> {
    if args.first() == Some(&"perft") {
        let depth = go_number(args, 0)?;
        if !(1..=MAX_PERFT_DEPTH as i64).contains(&depth) {
            return Err(arguments(
                "go",
                format!("perft depth must be from 1 to {MAX_PERFT_DEPTH}, not {depth}"),
            ));
        }
        return Ok(Go::Perft(depth as usize));
    }
    let mut request = GoRequest::default();
    let mut warnings = Vec::new();
    let mut unknown = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        match key {
            "infinite" => request.infinite = true,
            "solve" => request.solve = true,
            "ponder" => request.ponder = true,
            "searchmoves" => {
                let end = args[i + 1..]
                    .iter()
                    .position(|w| is_go_keyword(w))
                    .map_or(args.len(), |p| i + 1 + p);
                request.search_moves = args[i + 1..end].iter().map(|m| (*m).to_string()).collect();
                i = end;
                continue;
            }
            _ => match GoNumber::named(key) {
                Some(number) => {
                    let value = go_number(args, i)?;
                    if let Some(warning) = number.apply(value, &mut request) {
                        warnings.push(format!("go: {key} {value} {warning}"));
                    }
                    i += 2;
                    continue;
                }
                None => unknown.push(key),
            },
        }
        i += 1;
    }
    if !unknown.is_empty() {
        // One line however many words were skipped: a line of junk gets one reply.
        const SHOWN: usize = 5;
        let mut list: Vec<String> = unknown
            .iter()
            .take(SHOWN)
            .map(|w| format!("'{}'", quoted(w)))
            .collect();
        if unknown.len() > SHOWN {
            list.push(format!("and {} more", unknown.len() - SHOWN));
        }
        warnings.push(format!("go: unknown words skipped: {}", list.join(" ")));
    }
    Ok(Go::Search { request, warnings })
}

/// Whether `word` is a `go` keyword (so it ends a `searchmoves` list).
fn is_go_keyword(word: &str) -> bool {
    matches!(word, "infinite" | "ponder" | "searchmoves" | "solve")
        || GoNumber::named(word).is_some()
}

/// The `go` keywords followed by a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GoNumber {
    /// A side's clock (`p1time`/`btime`, `p2time`/`wtime`), by colour index.
    Time(usize),
    /// A side's increment, by colour index.
    Increment(usize),
    MovesToGo,
    MoveTime,
    Depth,
    Nodes,
    Mate,
}

impl GoNumber {
    fn named(word: &str) -> Option<GoNumber> {
        Some(match word {
            "p1time" | "btime" => GoNumber::Time(0),
            "p2time" | "wtime" => GoNumber::Time(1),
            "p1inc" | "binc" => GoNumber::Increment(0),
            "p2inc" | "winc" => GoNumber::Increment(1),
            "movestogo" => GoNumber::MovesToGo,
            "movetime" => GoNumber::MoveTime,
            "depth" => GoNumber::Depth,
            "nodes" => GoNumber::Nodes,
            "mate" => GoNumber::Mate,
            _ => return None,
        })
    }

    /// Puts `value` into `request`, clamped to what the keyword allows; the warning
    /// to give when it was not taken as sent.
    fn apply(self, value: i64, request: &mut GoRequest) -> Option<String> {
        let max_depth = i64::from(MAX_DEPTH);
        let used = match self {
            GoNumber::Time(side) => {
                let used = value.max(0);
                request.time[side] = Some(millis(used));
                used
            }
            GoNumber::Increment(side) => {
                let used = value.max(0);
                request.increment[side] = millis(used);
                used
            }
            GoNumber::MoveTime => {
                let used = value.max(0);
                request.move_time = Some(millis(used));
                used
            }
            GoNumber::Depth => {
                let used = value.clamp(1, max_depth);
                request.depth = Some(used as u32);
                used
            }
            GoNumber::Nodes => {
                let used = value.max(1);
                request.nodes = Some(used as u64);
                used
            }
            // `mate n`: search until a win in n moves is found; depth 2n - 1 is where
            // such a win shows.
            GoNumber::Mate => {
                let used = value.clamp(1, (max_depth + 1) / 2);
                request.depth = Some((used * 2 - 1) as u32);
                used
            }
            GoNumber::MovesToGo => {
                // 0 is what some GUIs send for "no periods": ignored quietly.
                request.moves_to_go = (value > 0).then(|| value.min(i64::from(u32::MAX)) as u32);
                return (value < 0).then(|| "is negative; ignored".to_string());
            }
        };
        (used != value).then(|| format!("is out of range; taken as {used}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        parse(line)
            .unwrap_or_else(|e| panic!("{line}: {e}"))
            .expect("a command")
    }

    fn err(line: &str) -> String {
        parse(line).unwrap_err().to_string()
    }

    #[test]
    fn greetings_pick_the_dialect() {
        assert_eq!(ok("ugi"), Command::Hello(Dialect::Ugi));
        assert_eq!(ok("  uci  "), Command::Hello(Dialect::Uci));
    }

    #[test]
    fn unknown_words_before_a_command_are_skipped() {
        assert_eq!(ok("joho debug on"), Command::Debug(true));
        assert_eq!(err("hello there"), "unknown command 'hello'");
        assert_eq!(parse("   ").unwrap(), None);
    }

    #[test]
    fn setoption_names_and_values_may_have_spaces() {
        assert_eq!(
            ok("setoption name Move Overhead value 100"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: "100".into()
            }
        );
        assert_eq!(
            ok("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: String::new()
            }
        );
        assert!(parse("setoption value 3").is_err());
    }

    #[test]
    fn positions_read_start_text_and_moves() {
        assert_eq!(
            ok("position startpos moves d5 d4"),
            Command::Position {
                start: Start::StartPos,
                moves: vec!["d5".into(), "d4".into()]
            }
        );
        assert_eq!(
            ok("position fen bwbw/wbwb/bwbw/wbwb b"),
            Command::Position {
                start: Start::Text("bwbw/wbwb/bwbw/wbwb b".into()),
                moves: vec![]
            }
        );
        assert_eq!(
            err("position fen bwbw/wbwb/bwbw/wbwb"),
            "position: expected 'position fen <board> <side> [moves ...]'"
        );
        assert_eq!(
            err("position startpos d5"),
            "position: expected 'moves', found 'd5'"
        );
    }

    #[test]
    fn go_reads_both_clock_spellings() {
        let Command::Go(Go::Search { request, warnings }) =
            ok("go p1time 1000 p2time 2000 p1inc 10 winc 20 movestogo 5")
        else {
            panic!("not a search");
        };
        assert!(warnings.is_empty());
        assert_eq!(request.time, [Some(millis(1000)), Some(millis(2000))]);
        assert_eq!(request.increment, [millis(10), millis(20)]);
        assert_eq!(request.moves_to_go, Some(5));
        let Command::Go(Go::Search { request, .. }) = ok("go btime 7 wtime 9") else {
            panic!("not a search");
        };
        assert_eq!(
            request.time,
            [Some(millis(7)), Some(millis(9))],
            "btime is black's"
        );
    }

    #[test]
    fn go_clamps_absurd_numbers_and_refuses_words() {
        let Command::Go(Go::Search { request, warnings }) =
            ok("go wtime -50 depth 99999999999999999999999 nodes 0 frobnicate")
        else {
            panic!("not a search");
        };
        assert_eq!(request.time[1], Some(Duration::ZERO));
        assert_eq!(request.depth, Some(MAX_DEPTH));
        assert_eq!(request.nodes, Some(1));
        assert_eq!(
            warnings,
            [
                "go: wtime -50 is out of range; taken as 0",
                "go: depth 9223372036854775807 is out of range; taken as 255",
                "go: nodes 0 is out of range; taken as 1",
                "go: unknown words skipped: 'frobnicate'"
            ]
        );
        let Command::Go(Go::Search { request, warnings }) = ok("go mate 200 movestogo 0") else {
            panic!("not a search");
        };
        assert_eq!(request.depth, Some(255));
        assert_eq!(request.moves_to_go, None);
        assert_eq!(warnings, ["go: mate 200 is out of range; taken as 128"]);
        let junk = format!("go depth 3 {}", "x ".repeat(10_000));
        let Command::Go(Go::Search { request, warnings }) = ok(&junk) else {
            panic!("not a search");
        };
        assert_eq!(request.depth, Some(3));
        assert_eq!(
            warnings,
            ["go: unknown words skipped: 'x' 'x' 'x' 'x' 'x' and 9995 more"]
        );
        assert_eq!(
            err("go depth ten"),
            "go: 'depth' needs a number, found 'ten'"
        );
        assert_eq!(err("go movetime"), "go: 'movetime' needs a number");
        assert_eq!(
            err("go perft 0"),
            "go: perft depth must be from 1 to 64, not 0"
        );
        assert_eq!(ok("go perft 3"), Command::Go(Go::Perft(3)));
    }

    #[test]
    fn an_unknown_go_keyword_is_skipped_not_taken_as_another() {
        let Command::Go(Go::Search { request, warnings }) = ok("go matte 3 depth 4") else {
            panic!("not a search");
        };
        assert_eq!(request.depth, Some(4), "'matte 3' is not 'mate 3'");
        assert_eq!(warnings, ["go: unknown words skipped: 'matte' '3'"]);
        let Command::Go(Go::Search { request, .. }) = ok("go mate 3") else {
            panic!("not a search");
        };
        assert_eq!(request.depth, Some(5));
    }

    #[test]
    fn the_weight_of_a_command_counts_its_text() {
        let small = ok("position startpos moves d5 d4");
        let big = ok(&format!("position startpos moves {}", "d5 ".repeat(10_000)));
        assert!(big.weight() > 10_000 * 2, "{}", big.weight());
        assert!(small.weight() * 50 < big.weight(), "{}", small.weight());
        assert!(ok("isready").weight() > 0);
    }

    #[test]
    fn go_solve_takes_time_and_node_limits() {
        let Command::Go(Go::Search { request, warnings }) = ok("go solve movetime 500 nodes 9")
        else {
            panic!("not a search");
        };
        assert!(request.solve && warnings.is_empty());
        assert_eq!(request.move_time, Some(millis(500)));
        assert_eq!(request.nodes, Some(9));
    }

    #[test]
    fn searchmoves_run_to_the_next_keyword() {
        let Command::Go(Go::Search { request, .. }) =
            ok("go searchmoves d7d5 b5d5 depth 3 infinite")
        else {
            panic!("not a search");
        };
        assert_eq!(request.search_moves, ["d7d5", "b5d5"]);
        assert_eq!(request.depth, Some(3));
        assert!(request.infinite);
        let Command::Go(Go::Search { request, .. }) = ok("go searchmoves d7d5 infinite") else {
            panic!("not a search");
        };
        assert_eq!(request.search_moves, ["d7d5"]);
        assert!(request.infinite, "infinite ends the move list");
    }

    #[test]
    fn every_kind_of_whitespace_separates_words() {
        assert_eq!(ok("\u{c}query\u{b}p1turn"), Command::Query(Query::P1Turn));
        assert_eq!(ok("isready\u{a0}\u{2003}junk"), Command::IsReady);
        assert!(parse("\u{b}\u{85}junk").is_err(), "not a blank line");
        assert_eq!(parse("\u{c}\u{b}\u{2028} ").unwrap(), None);
    }

    #[test]
    fn hostile_tokens_are_quoted_safely() {
        let e = err("\u{1}\u{7f}garbage");
        assert!(
            !e.contains('\u{1}') && e.starts_with("unknown command"),
            "{e}"
        );
        let long = "x".repeat(200_000);
        assert!(err(&long).len() < 80);
    }
}
