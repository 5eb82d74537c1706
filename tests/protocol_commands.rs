//! Transcripts against the real engine binary: the handshake, options, positions,
//! perft, queries, the shell helpers and the one-shot argument mode. Searches are in
//! `protocol_search.rs`, hostile input in `protocol_hostile.rs`.

// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod engine_driver;

use std::collections::BTreeMap;

use engine_driver::{Engine, Rng, assert_one_error, start_after, variant};
use konane::rules::{AnyPosition, Bitboard, Color, MoveList, Position};
use konane::with_position;

const START_8X8: &str = "bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb b";
const AFTER_D5_D4: &str =
    "bwbwbwbw/wbwbwbwb/bwbwbwbw/wbw1wbwb/bwb1bwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb b";

/// What `d` says about the current position.
#[derive(Debug)]
struct Board {
    text: String,
    rules: String,
    side: String,
    phase: String,
    legal: Vec<String>,
}

fn board(engine: &mut Engine) -> Board {
    let out = engine.ask("d");
    let field = |name: &str| -> String {
        match out.iter().find_map(|l| l.strip_prefix(name)) {
            Some(value) => value.to_string(),
            None => engine.fail(&format!("'d' printed no '{name}' line: {out:?}")),
        }
    };
    let legal_line = field("Legal moves (");
    let (count, list) = legal_line
        .split_once("): ")
        .unwrap_or_else(|| engine.fail(&format!("bad legal moves line '{legal_line}'")));
    let legal: Vec<String> = if count == "0" {
        Vec::new()
    } else {
        list.split(' ').map(str::to_string).collect()
    };
    assert_eq!(count.parse::<usize>().unwrap(), legal.len(), "{legal_line}");
    Board {
        text: field("Position: "),
        rules: field("Rules: "),
        side: field("Side to move: "),
        phase: field("Phase: "),
        legal,
    }
}

/// One `option ...` line read by the UCI grammar.
#[derive(Debug, PartialEq, Eq)]
struct OptionLine {
    name: String,
    kind: String,
    default: Option<String>,
    min: Option<i64>,
    max: Option<i64>,
    vars: Vec<String>,
}

/// Reads `option name <id> type <t> [default <x>] [min <x>] [max <x>] [var <x>]...`
/// strictly, and checks that the fields fit the type.
fn parse_option(line: &str) -> Result<OptionLine, String> {
    let words: Vec<&str> = line.split(' ').collect();
    if words.len() < 4 || words[0] != "option" || words[1] != "name" {
        return Err(format!("not 'option name ...': '{line}'"));
    }
    let type_at = words
        .iter()
        .position(|&w| w == "type")
        .ok_or_else(|| format!("no 'type' in '{line}'"))?;
    if type_at == 2 {
        return Err(format!("empty option name in '{line}'"));
    }
    let name = words[2..type_at].join(" ");
    let kind = words
        .get(type_at + 1)
        .ok_or_else(|| format!("no type after 'type' in '{line}'"))?
        .to_string();
    let mut option = OptionLine {
        name,
        kind: kind.clone(),
        default: None,
        min: None,
        max: None,
        vars: Vec::new(),
    };
    let mut rest = &words[type_at + 2..];
    while let [key, value, tail @ ..] = rest {
        let number = || {
            value
                .parse::<i64>()
                .map_err(|_| format!("'{value}' is not a number in '{line}'"))
        };
        match *key {
            "default" => option.default = Some((*value).to_string()),
            "min" => option.min = Some(number()?),
            "max" => option.max = Some(number()?),
            "var" => option.vars.push((*value).to_string()),
            other => return Err(format!("unexpected '{other}' in '{line}'")),
        }
        rest = tail;
    }
    if !rest.is_empty() {
        return Err(format!("dangling word {rest:?} in '{line}'"));
    }
    let fits = match kind.as_str() {
        "spin" => match (&option.default, option.min, option.max) {
            (Some(d), Some(min), Some(max)) => d
                .parse::<i64>()
                .is_ok_and(|d| min <= d && d <= max && option.vars.is_empty()),
            _ => false,
        },
        "check" => matches!(option.default.as_deref(), Some("true" | "false")),
        "combo" => option
            .default
            .as_ref()
            .is_some_and(|d| option.vars.contains(d)),
        "string" => option.default.is_some(),
        "button" => option.default.is_none() && option.vars.is_empty(),
        _ => false,
    };
    if fits {
        Ok(option)
    } else {
        Err(format!("the fields do not fit type '{kind}' in '{line}'"))
    }
}

fn handshake(engine: &mut Engine, greeting: &str, ok: &str) -> Vec<OptionLine> {
    engine.send(greeting);
    let out = engine.read_until(|l| l == ok);
    let version = concat!("id name konane ", env!("CARGO_PKG_VERSION"));
    assert_eq!(out[0], version, "{out:?}");
    assert!(
        out[1].starts_with("id author ") && out[1].len() > "id author ".len(),
        "{out:?}"
    );
    out[2..out.len() - 1]
        .iter()
        .map(|l| parse_option(l).unwrap_or_else(|e| engine.fail(&e)))
        .collect()
}

#[test]
fn ugi_names_the_engine_announces_every_option_and_ends_with_ugiok() {
    let mut engine = Engine::start();
    let options = handshake(&mut engine, "ugi", "ugiok");
    let by_name: BTreeMap<&str, &OptionLine> =
        options.iter().map(|o| (o.name.as_str(), o)).collect();
    assert_eq!(by_name.len(), options.len(), "an option is announced twice");
    let expect = |name: &str, kind: &str, default: Option<&str>| {
        let o = by_name
            .get(name)
            .unwrap_or_else(|| panic!("option {name} is not announced: {options:?}"));
        assert_eq!(o.kind, kind, "{o:?}");
        assert_eq!(o.default.as_deref(), default, "{o:?}");
    };
    expect("Hash", "spin", Some("16"));
    expect("Clear Hash", "button", None);
    expect("Threads", "spin", Some("1"));
    expect("MoveOverhead", "spin", Some("10"));
    expect("Ponder", "check", Some("false"));
    expect("MultiPV", "spin", Some("1"));
    expect("BoardSize", "string", Some("8x8"));
    expect("Opening", "combo", Some("diagonal"));
    expect("MultiJump", "combo", Some("straight"));
    assert_eq!(by_name["Opening"].vars, ["diagonal", "centre", "any"]);
    assert_eq!(by_name["MultiJump"].vars, ["straight", "turning"]);
    assert_eq!(by_name["Hash"].min, Some(1));
    assert_eq!(by_name["MultiPV"].min, Some(1));
    assert_eq!(by_name["Threads"].min, Some(1));
    assert_eq!(by_name["MoveOverhead"].min, Some(0));
    // The handshake is repeatable and nothing else was printed around it.
    assert!(engine.sync().is_empty());
}

#[test]
fn uci_is_an_alias_answered_with_uciok() {
    let mut engine = Engine::start();
    let ugi = handshake(&mut engine, "ugi", "ugiok");
    let uci = handshake(&mut engine, "uci", "uciok");
    assert_eq!(ugi, uci, "both dialects announce the same options");
}

#[test]
fn option_lines_are_read_by_the_uci_grammar() {
    // The checker itself must be able to fail.
    for bad in [
        "option name Hash type spin default 16 min 1",
        "option name Hash type spin default 99 min 1 max 10",
        "option name X type combo default c var a var b",
        "option name X type check default maybe",
        "option name type spin default 1 min 1 max 2",
        "option name X type button default 1",
        "option name X type frob default 1",
    ] {
        assert!(parse_option(bad).is_err(), "{bad}");
    }
    assert_eq!(
        parse_option("option name Clear Hash type button")
            .unwrap()
            .name,
        "Clear Hash"
    );
}

#[test]
fn isready_is_answered_readyok_and_unknown_words_before_a_command_are_skipped() {
    let mut engine = Engine::start();
    assert!(engine.sync().is_empty());
    // UCI: unknown tokens are skipped until a known command.
    engine.send("joho isready");
    assert_eq!(engine.line(), "readyok");
    engine.send("debug on");
    engine.send("debug off");
    assert!(engine.sync().is_empty(), "debug prints nothing");
}

#[test]
fn every_unknown_command_gets_exactly_one_error_line() {
    let mut engine = Engine::start();
    for line in [
        "hello",
        "isreadyy",
        "positoin startpos",
        "Uci",
        "GO depth 3",
        "x y z",
    ] {
        let out = engine.ask(line);
        assert_one_error(&engine, line, &out, &["unknown command"]);
    }
    for (line, needle) in [
        ("query", "query"),
        ("query foo", "foo"),
        ("setoption", "setoption"),
        ("setoption name", "setoption"),
        ("setoption value 3", "setoption"),
        ("bench ten", "bench"),
        ("position", "position"),
    ] {
        let out = engine.ask(line);
        assert_one_error(&engine, line, &out, &[needle]);
    }
}

#[test]
fn option_names_are_case_insensitive() {
    let mut engine = Engine::start();
    engine.silent("setoption name boardsize value 6x6");
    engine.silent("setoption name MULTIJUMP value turning");
    engine.silent("setoption name opening value Centre");
    assert_eq!(board(&mut engine).rules, "6x6 centre turning");
    engine.silent("setoption name hash value 2");
    engine.silent("setoption name move overhead value 100");
    engine.silent("setoption name moveoverhead value 0");
    engine.silent("setoption name PONDER value TRUE");
    engine.silent("setoption name multipv value 1");
    engine.silent("setoption name threads value 1");
    engine.silent("setoption name clear hash");
    // The Hash value is visible in the error that keeps it.
    let out = engine.ask("setoption name Hash value 0");
    assert_one_error(&engine, "Hash 0", &out, &["Hash", "stays 2"]);
}

#[test]
fn bad_option_values_give_one_error_and_keep_the_old_value() {
    let mut engine = Engine::start();
    engine.silent("setoption name BoardSize value 6x6");
    engine.silent("setoption name Hash value 4");
    for (line, needles) in [
        (
            "setoption name BoardSize value 40x40",
            &["BoardSize", "40x40", "stays 6x6"][..],
        ),
        ("setoption name BoardSize value 1x8", &["stays 6x6"]),
        ("setoption name BoardSize value 17", &["stays 6x6"]),
        ("setoption name BoardSize value 8y8", &["stays 6x6"]),
        ("setoption name BoardSize value", &["stays 6x6"]),
        (
            "setoption name Opening value sideways",
            &["Opening", "sideways", "stays diagonal"],
        ),
        (
            "setoption name MultiJump value diagonal",
            &["stays straight"],
        ),
        ("setoption name Hash value -5", &["Hash", "-5", "stays 4"]),
        (
            "setoption name Hash value 99999999999999999999",
            &["Hash", "stays 4"],
        ),
        ("setoption name Hash value 1e9", &["Hash", "stays 4"]),
        ("setoption name Hash value", &["Hash", "stays 4"]),
        ("setoption name MultiPV value 0", &["MultiPV", "stays 1"]),
        ("setoption name Threads value 0", &["Threads", "stays 1"]),
        ("setoption name MoveOverhead value -1", &["MoveOverhead"]),
        (
            "setoption name Ponder value maybe",
            &["Ponder", "stays false"],
        ),
        ("setoption name NoSuchOption value 1", &["NoSuchOption"]),
        ("setoption name Hash Size value 1", &["Hash Size"]),
    ] {
        let out = engine.ask(line);
        assert_one_error(&engine, line, &out, needles);
    }
    let b = board(&mut engine);
    assert_eq!(b.rules, "6x6 diagonal straight");
    assert_eq!(b.text, "bwbwbw/wbwbwb/bwbwbw/wbwbwb/bwbwbw/wbwbwb b");
}

/// `Threads` above the processors the engine may use starts no more search threads than
/// processors (more would only crowd out the threads that answer `stop`), and says so.
#[cfg(target_os = "linux")]
#[test]
fn threads_beyond_the_processors_are_not_started() {
    let processors = std::thread::available_parallelism().map_or(1, usize::from);
    let mut engine = Engine::start();
    let out = engine.ask("setoption name Threads value 64");
    let said: Vec<&String> = out.iter().filter(|l| l.contains("Threads: 64")).collect();
    if processors < 64 {
        assert_eq!(
            said.len(),
            1,
            "one line should say the threads are capped: {out:?}"
        );
        assert!(
            said[0].starts_with("info string warning")
                && said[0].ends_with(&format!("searching with {processors}")),
            "{said:?}"
        );
    } else {
        assert!(
            out.is_empty(),
            "nothing to say with {processors} processors: {out:?}"
        );
    }
    engine.send("go infinite");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let tasks =
        std::fs::read_dir(format!("/proc/{}/task", engine.pid())).map_or(0, |dir| dir.count());
    engine.send("stop");
    engine.until_bestmove();
    // The main, input and searcher threads, and one search helper per other processor.
    let most = 3 + processors.min(64) - 1;
    assert!(
        (3..=most).contains(&tasks),
        "{tasks} threads with {processors} processors (at most {most})"
    );
}

#[test]
fn a_refused_multipv_keeps_the_old_number_of_lines() {
    let mut engine = Engine::start();
    engine.silent("setoption name MultiPV value 3");
    let out = engine.ask("setoption name MultiPV value 0");
    assert_one_error(&engine, "MultiPV 0", &out, &["MultiPV"]);
    engine.send("go depth 2");
    let out = engine.until_bestmove();
    let at_depth_2: Vec<u32> = out
        .iter()
        .filter_map(|l| engine_driver::parse_info(l).ok())
        .filter(|i| i.depth == 2)
        .map(|i| i.multipv.expect("multipv is shown when more than one line"))
        .collect();
    assert_eq!(at_depth_2, [1, 2, 3], "{out:?}");
}

#[test]
fn changing_a_rule_option_resets_the_position_to_the_new_start() {
    let mut engine = Engine::start();
    engine.silent("position startpos moves d5 d4");
    assert_eq!(board(&mut engine).text, AFTER_D5_D4);
    engine.silent("setoption name Opening value centre");
    let b = board(&mut engine);
    assert_eq!(b.text, START_8X8);
    assert_eq!(b.rules, "8x8 centre straight");
    let mut legal = b.legal.clone();
    legal.sort();
    assert_eq!(legal, ["d5", "e4"]);

    engine.silent("position startpos moves d5 d4");
    engine.silent("setoption name MultiJump value turning");
    assert_eq!(board(&mut engine).text, START_8X8);

    engine.silent("position startpos moves e4");
    engine.silent("setoption name BoardSize value 4x6");
    let b = board(&mut engine);
    assert_eq!(b.text, "bwbw/wbwb/bwbw/wbwb/bwbw/wbwb b");
    assert_eq!(b.rules, "4x6 centre turning");

    // Setting a rule option to the value it already has resets too.
    engine.silent("position startpos moves b3");
    engine.silent("setoption name BoardSize value 4x6");
    assert_eq!(board(&mut engine).text, "bwbw/wbwb/bwbw/wbwb/bwbw/wbwb b");
}

#[test]
fn a_rule_that_leaves_black_no_first_move_is_warned_about() {
    let mut engine = Engine::start();
    engine.silent("setoption name BoardSize value 3x5");
    let out = engine.ask("setoption name Opening value centre");
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with("info string warning: ") && out[0].contains("no legal first move"),
        "{out:?}"
    );
    assert_eq!(engine.ask("query gameover"), ["response true"]);
    assert_eq!(engine.ask("query result"), ["response p2win"]);
}

#[test]
fn position_startpos_plays_the_moves_given() {
    let mut engine = Engine::start();
    let b = board(&mut engine);
    assert_eq!(b.text, START_8X8);
    assert_eq!(b.side, "black (p1)");
    assert_eq!(b.phase, "black removal");
    engine.silent("position startpos moves d5");
    let b = board(&mut engine);
    assert_eq!(b.side, "white (p2)");
    assert_eq!(b.phase, "white removal");
    let mut legal = b.legal.clone();
    legal.sort();
    assert_eq!(legal, ["c5", "d4", "d6", "e5"]);
    engine.silent("position startpos moves d5 d4");
    let b = board(&mut engine);
    assert_eq!(b.text, AFTER_D5_D4);
    assert_eq!(b.phase, "jumping");
    let mut legal = b.legal.clone();
    legal.sort();
    assert_eq!(legal, ["b5d5", "d7d5", "f5d5"]);
    engine.silent("position startpos");
    assert_eq!(board(&mut engine).text, START_8X8);
    engine.silent("position startpos moves");
    assert_eq!(board(&mut engine).text, START_8X8);
}

#[test]
fn position_fen_takes_the_board_size_from_the_text() {
    let mut engine = Engine::start();
    engine.silent(&format!("position fen {AFTER_D5_D4} moves d7d5"));
    let b = board(&mut engine);
    assert_eq!(
        b.text,
        "bwbwbwbw/wbw1wbwb/bwb1bwbw/wbwbwbwb/bwb1bwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb w"
    );
    assert_eq!(b.side, "white (p2)");
    let expected = start_after(
        variant("8x8", "diagonal", "straight"),
        &["d5", "d4", "d7d5"],
    );
    let mut legal = b.legal.clone();
    legal.sort();
    let mut want = expected.legal_move_texts();
    want.sort();
    assert_eq!(legal, want);

    // A 5x3 board from its text, under the current rule options.
    engine.silent("setoption name MultiJump value turning");
    engine.silent("position fen 1wbwb/2wbw/bwbwb b");
    let b = board(&mut engine);
    assert_eq!(b.rules, "5x3 diagonal turning");
    assert_eq!(b.text, "1wbwb/2wbw/bwbwb b");
    // A wide board: two-digit runs of empty squares.
    let wide = format!("{}/{} b", "bw".repeat(8), "wb".repeat(8));
    engine.silent(&format!("position fen {wide}"));
    assert_eq!(board(&mut engine).rules, "16x2 diagonal turning");
    engine.silent("position fen b15/16 b");
    let b = board(&mut engine);
    assert_eq!(b.text, "b15/16 b");
    assert!(b.legal.is_empty());
}

#[test]
fn moves_may_list_every_landing_square_and_use_dashes_or_crosses() {
    let mut engine = Engine::start();
    for spelling in ["d7d5", "d7-d5", "d7xd5", "D7D5", "d7X-d5"] {
        let out = engine.ask(&format!("position startpos moves d5 d4 {spelling}"));
        if spelling == "d7X-d5" {
            // Two separators in a row are not in the move grammar.
            assert_one_error(&engine, spelling, &out, &["move 3", "d7X-d5"]);
            continue;
        }
        assert!(out.is_empty(), "{spelling}: {out:?}");
        assert_eq!(board(&mut engine).side, "white (p2)", "{spelling}");
    }
    // A double jump along a file, written with its middle landing square too
    // (`d7d5d3` for `d7d3`): found by seeded random play on 8x8.
    let mut rng = Rng::new(99);
    let mut found = false;
    for _ in 0..200 {
        let mut position = AnyPosition::start(variant("8x8", "diagonal", "straight"));
        let mut moves: Vec<String> = Vec::new();
        while let Some(m) = {
            let legal = position.legal_move_texts();
            (!legal.is_empty()).then(|| rng.pick(&legal).clone())
        } {
            let b = m.as_bytes();
            let file_double =
                b.len() == 4 && b[0] == b[2] && (i32::from(b[1]) - i32::from(b[3])).abs() == 4;
            if file_double {
                let middle = format!("{}{}", b[0] as char, ((b[1] + b[3]) / 2) as char);
                let spelled = format!("{}{middle}{}", &m[..2], &m[2..]);
                engine.silent(&format!(
                    "position startpos moves {} {spelled}",
                    moves.join(" ")
                ));
                position.play_text(&m).unwrap();
                assert_eq!(board(&mut engine).text, position.to_string(), "{spelled}");
                found = true;
                break;
            }
            position.play_text(&m).unwrap();
            moves.push(m);
        }
        if found {
            break;
        }
    }
    assert!(found, "random play found no double jump to spell out");
}

#[test]
fn unreadable_positions_and_illegal_moves_are_refused_and_the_old_position_kept() {
    let mut engine = Engine::start();
    engine.silent("position startpos moves d5 d4");
    for (line, needles) in [
        ("position startpos moves d5 d4 zz", &["move 3", "zz"][..]),
        ("position startpos moves d5 d5", &["move 2", "d5"]),
        ("position startpos moves c3", &["move 1", "c3"]),
        (
            "position startpos moves d5 d4 b5d5 b5d5",
            &["move 4", "b5d5"],
        ),
        ("position startpos moves d5 d4 a1a3", &["move 3", "a1a3"]),
        ("position startpos moves d5 d4 d7d5 q9", &["move 4", "q9"]),
        ("position startpos d5", &["moves"]),
        ("position fen bwbw/wbwb/bwbw/wbw b", &["rank"]),
        ("position fen bwbq/wbwb/bwbw/wbwb b", &["'q'"]),
        (
            "position fen bwbw/wbwb/bwbw/wbwb x",
            &["side to move", "'x'"],
        ),
        ("position fen bwbw/wbwb/bwbw/wbwb w", &["impossible"]),
        ("position fen bwbw/wbwb/bwbw/wbwb", &["position fen"]),
        ("position fen", &["position fen"]),
        (
            "position fen bwbw/wbwb/bwbw/wbwb b moves a4 a4",
            &["move 2"],
        ),
        ("position fen b/w b", &["position"]),
        ("position fen wbwb/bwbw/wbwb/bwbw b", &["position"]),
        (
            "position fen bwbwbwbwbwbwbwbwb/wbwbwbwbwbwbwbwbw b",
            &["position"],
        ),
        ("position sideways", &["sideways"]),
    ] {
        let out = engine.ask(line);
        assert_one_error(&engine, line, &out, needles);
        assert_eq!(board(&mut engine).text, AFTER_D5_D4, "after '{line}'");
    }
}

fn perft_lines(engine: &mut Engine, line: &str) -> (BTreeMap<String, u64>, u64) {
    engine.send(line);
    let out = engine.read_until(|l| l.starts_with("Nodes searched: ") || l.starts_with("info"));
    let n = out.len();
    if n < 2 || !out[n - 2].is_empty() {
        engine.fail(&format!(
            "perft output does not end with a blank line and the total: {out:?}"
        ));
    }
    let total: u64 = out[n - 1]
        .strip_prefix("Nodes searched: ")
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| engine.fail(&format!("bad total line {:?}", out[n - 1])));
    let mut counts = BTreeMap::new();
    for l in &out[..n - 2] {
        let (mv, count) = l
            .split_once(": ")
            .unwrap_or_else(|| engine.fail(&format!("bad perft line '{l}'")));
        let count: u64 = count
            .parse()
            .unwrap_or_else(|_| engine.fail(&format!("bad count in '{l}'")));
        assert!(!mv.contains(' '), "{l}");
        assert!(counts.insert(mv.to_string(), count).is_none(), "{mv} twice");
    }
    assert_eq!(counts.values().sum::<u64>(), total, "{out:?}");
    (counts, total)
}

/// Perft divide computed with the rules library, move by move (no bulk counting).
/// Perft counts move sequences: under the turning rule two paths with the same effect
/// (a loop run either way round) are two moves, so this walks `generate_paths`, not
/// `legal_moves` (which lists each effect once).
fn library_divide(position: &AnyPosition, depth: usize) -> BTreeMap<String, u64> {
    fn count<B: Bitboard>(position: &Position<B>, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut paths = MoveList::default();
        position.generate_paths(&mut paths);
        paths
            .iter()
            .map(|&m| count(&position.after(m), depth - 1))
            .sum()
    }
    with_position!(position, p => {
        let mut paths = MoveList::default();
        p.generate_paths(&mut paths);
        let mut divide = BTreeMap::new();
        for &m in paths.iter() {
            let previous = divide.insert(p.move_text(m), count(&p.after(m), depth - 1));
            assert!(previous.is_none(), "two paths with one text");
        }
        divide
    })
}

#[test]
fn go_perft_prints_stockfish_divide_output() {
    let mut engine = Engine::start();
    engine.silent("position startpos moves d5 d4");
    engine.send("go perft 3");
    let out = engine.read_until(|l| l.starts_with("Nodes searched"));
    assert_eq!(
        out,
        [
            "b5d5: 31",
            "d7d5: 33",
            "f5d5: 39",
            "",
            "Nodes searched: 103"
        ]
    );
    engine.silent("position startpos");
    for (depth, total) in [(1, 4), (2, 12), (3, 28), (4, 172), (5, 892)] {
        let (_, n) = perft_lines(&mut engine, &format!("go perft {depth}"));
        assert_eq!(n, total, "perft {depth}");
    }
    assert!(engine.sync().is_empty());
}

#[test]
fn go_perft_follows_the_board_size_and_the_multi_jump_rule() {
    let mut engine = Engine::start();
    engine.silent("setoption name BoardSize value 6x6");
    for (depth, total) in [(1, 4), (4, 156), (5, 668)] {
        let (_, n) = perft_lines(&mut engine, &format!("go perft {depth}"));
        assert_eq!(n, total, "6x6 perft {depth}");
    }
    let straight = perft_lines(&mut engine, "go perft 7");
    let six = variant("6x6", "diagonal", "straight");
    assert_eq!(straight.0, library_divide(&AnyPosition::start(six), 7));
    engine.silent("setoption name MultiJump value turning");
    let turning = perft_lines(&mut engine, "go perft 7");
    let six_turning = variant("6x6", "diagonal", "turning");
    assert_eq!(
        turning.0,
        library_divide(&AnyPosition::start(six_turning), 7)
    );
    assert!(
        turning.1 > straight.1,
        "turning allows more jumps: {} vs {}",
        turning.1,
        straight.1
    );
    // 8x8 turning from a fen, and a rectangle under the `any` opening.
    engine.silent("setoption name BoardSize value 8x8");
    engine.silent(&format!("position fen {AFTER_D5_D4} moves d7d5 f4d4"));
    let eight = start_after(
        variant("8x8", "diagonal", "turning"),
        &["d5", "d4", "d7d5", "f4d4"],
    );
    assert_eq!(
        perft_lines(&mut engine, "go perft 4").0,
        library_divide(&eight, 4)
    );
    engine.silent("setoption name Opening value any");
    engine.silent("setoption name BoardSize value 5x3");
    let rect = AnyPosition::start(variant("5x3", "any", "turning"));
    assert_eq!(
        perft_lines(&mut engine, "go perft 4").0,
        library_divide(&rect, 4)
    );
}

#[test]
fn go_perft_refuses_depths_out_of_range() {
    let mut engine = Engine::start();
    for line in [
        "go perft 0",
        "go perft -1",
        "go perft 65",
        "go perft x",
        "go perft",
        "go perft 99999999999999999999",
    ] {
        let out = engine.ask(line);
        assert_one_error(&engine, line, &out, &["go: "]);
    }
}

#[test]
fn one_shot_arguments_run_as_protocol_lines_then_exit() {
    let mut engine = Engine::with_args(&["position startpos moves d5 d4", "go perft 3"]);
    let out = engine.read_to_end();
    assert_eq!(
        out,
        [
            "b5d5: 31",
            "d7d5: 33",
            "f5d5: 39",
            "",
            "Nodes searched: 103"
        ]
    );
    engine.expect_clean_exit();

    let mut engine = Engine::with_args(&["query p1turn", "isready"]);
    let out = engine.read_to_end();
    assert_eq!(out, ["response true", "readyok"]);
    engine.expect_clean_exit();

    // An open-ended search in one-shot mode has nobody to stop it: it ends at once.
    let mut engine = Engine::with_args(&["position startpos moves d5", "go infinite"]);
    let out = engine.read_to_end();
    let position = start_after(variant("8x8", "diagonal", "straight"), &["d5"]);
    engine_driver::check_bestmove(&engine, out.last().unwrap(), &position, false);
    engine.expect_clean_exit();
}

#[test]
fn one_shot_words_that_start_no_command_continue_the_previous_line() {
    // `konane bench perft` and `konane go perft 3` read as one line each, as typed in a
    // shell; a word that starts a command begins the next line.
    let mut engine = Engine::with_args(&[
        "position", "startpos", "moves", "d5", "d4", "go", "perft", "3",
    ]);
    let out = engine.read_to_end();
    assert_eq!(
        out,
        [
            "b5d5: 31",
            "d7d5: 33",
            "f5d5: 39",
            "",
            "Nodes searched: 103"
        ]
    );
    engine.expect_clean_exit();
    let mut engine = Engine::with_args(&["position", "fen", "b3/4/4/2w1", "b", "query", "result"]);
    assert_eq!(engine.read_to_end(), ["response p2win"]);
    engine.expect_clean_exit();
}

#[test]
fn queries_are_answered_with_exactly_two_tokens() {
    let mut engine = Engine::start();
    let ask = |engine: &mut Engine, q: &str| -> String {
        let out = engine.ask(&format!("query {q}"));
        assert_eq!(out.len(), 1, "query {q}: {out:?}");
        let words: Vec<&str> = out[0].split(' ').collect();
        assert_eq!(words.len(), 2, "{out:?}");
        assert_eq!(words[0], "response", "{out:?}");
        words[1].to_string()
    };
    assert_eq!(ask(&mut engine, "gameover"), "false");
    assert_eq!(ask(&mut engine, "p1turn"), "true");
    assert_eq!(ask(&mut engine, "result"), "none");
    engine.silent("position startpos moves d5");
    assert_eq!(ask(&mut engine, "p1turn"), "false");
    assert_eq!(ask(&mut engine, "gameover"), "false");
    // Black to move with no move: white (p2) has won.
    engine.silent("position fen b3/4/4/2w1 b");
    assert_eq!(ask(&mut engine, "gameover"), "true");
    assert_eq!(ask(&mut engine, "p1turn"), "true");
    assert_eq!(ask(&mut engine, "result"), "p2win");
    engine.silent("position fen b3/4/4/2w1 w");
    assert_eq!(ask(&mut engine, "gameover"), "true");
    assert_eq!(ask(&mut engine, "p1turn"), "false");
    assert_eq!(ask(&mut engine, "result"), "p1win");

    // Whole games played to the end by seeded random moves, on several boards.
    let mut rng = Rng::new(0x6b6f_6e61_6e65);
    for (size, opening, jump) in [
        ("4x4", "diagonal", "straight"),
        ("6x6", "any", "turning"),
        ("8x8", "diagonal", "straight"),
        ("5x7", "diagonal", "turning"),
    ] {
        engine.silent(&format!("setoption name BoardSize value {size}"));
        engine.silent(&format!("setoption name Opening value {opening}"));
        engine.silent(&format!("setoption name MultiJump value {jump}"));
        for _ in 0..3 {
            let mut position = AnyPosition::start(variant(size, opening, jump));
            let mut moves = Vec::new();
            loop {
                let legal = position.legal_move_texts();
                if legal.is_empty() {
                    break;
                }
                let m = rng.pick(&legal).clone();
                position.play_text(&m).unwrap();
                moves.push(m);
            }
            let winner = match position.outcome().expect("the game is over").winner() {
                Color::Black => "p1win",
                Color::White => "p2win",
            };
            engine.silent(&format!("position startpos moves {}", moves.join(" ")));
            assert_eq!(ask(&mut engine, "gameover"), "true", "{moves:?}");
            assert_eq!(ask(&mut engine, "result"), winner, "{moves:?}");
            // One move earlier the game was still on.
            let before = moves[..moves.len() - 1].join(" ");
            engine.silent(&format!("position startpos moves {before}"));
            assert_eq!(ask(&mut engine, "gameover"), "false");
            assert_eq!(ask(&mut engine, "result"), "none");
        }
    }
}

#[test]
fn new_game_commands_print_nothing() {
    let mut engine = Engine::start();
    engine.silent("uginewgame");
    engine.silent("ucinewgame");
    engine.silent("position startpos moves d5");
    engine.silent("uginewgame");
    // A new game keeps the position: the GUI sends `position` next.
    assert_eq!(board(&mut engine).side, "white (p2)");
}

#[test]
fn d_draws_the_board_and_eval_explains_the_score() {
    let mut engine = Engine::start();
    engine.silent("setoption name BoardSize value 4x4");
    let out = engine.ask("d");
    let drawing: Vec<&String> = out.iter().take(5).collect();
    assert_eq!(
        drawing,
        [
            " 4  b w b w",
            " 3  w b w b",
            " 2  b w b w",
            " 1  w b w b",
            "    a b c d"
        ]
    );
    engine.silent("position startpos moves d1 c1");
    let out = engine.ask("eval");
    assert!(
        out[0].starts_with("Evaluation for the side to move"),
        "{out:?}"
    );
    assert!(
        out.iter().any(|l| l.trim_start().starts_with("total")),
        "{out:?}"
    );
    engine.silent("position fen b3/4/4/2w1 b");
    let out = engine.ask("eval");
    assert_eq!(out, ["black (p1) has no legal move and has lost"]);
    // A lost position in the removal phase says so too.
    engine.silent("setoption name BoardSize value 3x5");
    engine.ask("setoption name Opening value centre");
    let out = engine.ask("eval");
    assert_eq!(out, ["black (p1) has no legal move and has lost"]);
}

#[test]
fn bench_ends_with_nodes_and_nps_and_its_node_count_repeats() {
    let mut engine = Engine::start();
    let mut nodes = Vec::new();
    for _ in 0..2 {
        engine.send("bench 3");
        let out = engine.read_until(|l| !l.starts_with("info string"));
        let last = out.last().unwrap();
        let words: Vec<&str> = last.split(' ').collect();
        let ok = words.len() == 4
            && words[1] == "nodes"
            && words[3] == "nps"
            && words[0].parse::<u64>().is_ok()
            && words[2].parse::<u64>().is_ok();
        if !ok {
            engine.fail(&format!(
                "bench should end with '<nodes> nodes <nps> nps': {last}"
            ));
        }
        nodes.push(words[0].to_string());
        engine.silent("ucinewgame");
    }
    assert_eq!(nodes[0], nodes[1], "bench is deterministic");
    // The bench leaves the position and options alone.
    assert_eq!(board(&mut engine).text, START_8X8);
}

#[test]
fn quit_and_end_of_input_end_the_process_cleanly() {
    let mut engine = Engine::start();
    engine.send("isready");
    engine.send("quit");
    assert_eq!(engine.read_to_end(), ["readyok"]);
    engine.expect_clean_exit();

    let mut engine = Engine::start();
    engine.send("query p1turn");
    engine.close_input();
    assert_eq!(engine.read_to_end(), ["response true"]);
    engine.expect_clean_exit();

    // Work asked for before the end of input is finished first.
    let mut engine = Engine::start();
    engine.send("position startpos moves d5 d4");
    engine.send("go perft 4");
    engine.send("d");
    engine.close_input();
    let out = engine.read_to_end();
    assert!(out.contains(&"Nodes searched: 837".to_string()), "{out:?}");
    assert!(
        out.last().unwrap().starts_with("Legal moves (3)"),
        "{out:?}"
    );
    engine.expect_clean_exit();
}
