//! Transcripts of searches against the real engine binary: `info` and `bestmove`
//! lines, `stop`, `isready`, `ponderhit` and `quit` during a search, commands queued
//! behind a search, the end of input, `go` parameters and time limits.
//!
//! Timing assertions measure wall time on the test's side, which can only be longer
//! than the engine's own: lower bounds are exact, upper bounds leave room for a busy
//! machine (see each test).

// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod engine_driver;

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use engine_driver::{
    Engine, Info, Score, assert_one_error, check_bestmove, parse_info, start_after, variant,
};
use konane::rules::{AnyPosition, Bitboard, Position};
use konane::with_position;

/// Tests that measure time take this lock, so they do not compete with each other
/// for the two cores of a small machine.
static TIMING: Mutex<()> = Mutex::new(());

fn timing() -> MutexGuard<'static, ()> {
    TIMING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Answers that must be immediate (`readyok` mid-search, `bestmove` after `stop`)
/// take the engine well under a millisecond. Every one must come within [`HANG`]: a
/// lost or deferred command takes far longer, since the searches here run until
/// stopped. The typical one (the median of several) must come within [`PROMPT`]: a
/// busy shared machine can stall one answer for a second, not most of them.
const PROMPT: Duration = Duration::from_millis(200);
/// See [`PROMPT`].
const HANG: Duration = Duration::from_secs(5);

#[track_caller]
fn assert_prompt(engine: &Engine, what: &str, samples: &mut [Duration]) {
    samples.sort();
    let median = samples[samples.len() / 2];
    if samples.iter().any(|&t| t >= HANG) || median >= PROMPT {
        engine.fail(&format!(
            "{what}: answered after {samples:?}; every answer must take under {HANG:?}, the median under {PROMPT:?}"
        ));
    }
}

fn start_8x8() -> AnyPosition {
    AnyPosition::start(variant("8x8", "diagonal", "straight"))
}

fn infos(engine: &Engine, lines: &[String]) -> Vec<Info> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| parse_info(l).unwrap_or_else(|e| engine.fail(&e)))
        .collect()
}

/// Fails unless every move of the line is legal in turn from `position`.
fn check_pv(engine: &Engine, position: &AnyPosition, pv: &[String]) {
    let mut at = *position;
    for (i, m) in pv.iter().enumerate() {
        if !at.legal_move_texts().contains(m) {
            engine.fail(&format!("pv move {} '{m}' of {pv:?} is not legal", i + 1));
        }
        at.play_text(m).unwrap();
    }
}

/// Sends `go` (already written by the caller) and waits for its first `info depth`.
fn first_info(engine: &mut Engine) {
    let out = engine.read_until(|l| l.starts_with("info depth"));
    if out.iter().any(|l| l.starts_with("bestmove")) {
        engine.fail("the search ended before it was told to");
    }
}

#[test]
fn piped_go_depth_8_prints_every_iteration_and_one_bestmove_then_exits() {
    let mut engine = Engine::start();
    engine.send_raw(b"position startpos\ngo depth 8\n");
    engine.close_input();
    let out = engine.read_to_end();
    engine.expect_clean_exit();
    let (last, rest) = out.split_last().expect("some output");
    assert!(
        rest.iter().all(|l| l.starts_with("info depth ")),
        "only info lines before bestmove: {out:?}"
    );
    let infos = infos(&engine, rest);
    let depths: Vec<u32> = infos.iter().map(|i| i.depth).collect();
    assert_eq!(depths, (1..=8).collect::<Vec<_>>(), "{out:?}");
    let position = start_8x8();
    for pair in infos.windows(2) {
        assert!(pair[0].nodes <= pair[1].nodes, "nodes only grow: {out:?}");
        assert!(pair[0].time <= pair[1].time, "time only grows: {out:?}");
    }
    for info in &infos {
        assert!(
            info.seldepth >= info.depth.min(info.pv.len() as u32),
            "{info:?}"
        );
        assert!(info.multipv.is_none(), "no multipv field with MultiPV 1");
        check_pv(&engine, &position, &info.pv);
    }
    let (best, ponder) = check_bestmove(&engine, last, &position, false);
    assert_eq!(ponder, None);
    assert_eq!(
        best,
        infos.last().unwrap().pv[0],
        "bestmove is the last pv's move"
    );
}

#[test]
fn info_lines_report_proven_results_as_mate_in_own_moves() {
    // Exact results from the rules alone, by plain negamax over the whole game tree.
    const WIN: i32 = 1000;
    fn solve<B: Bitboard>(position: &Position<B>, known: &mut HashMap<u64, i32>) -> i32 {
        // WIN - plies for a win in `plies`, -(WIN - plies) for a loss.
        if let Some(&v) = known.get(&position.hash()) {
            return v;
        }
        let moves = position.legal_moves();
        let value = moves
            .iter()
            .map(|&m| {
                let v = -solve(&position.after(m), known);
                if v > 0 { v - 1 } else { v + 1 }
            })
            .max()
            .unwrap_or(-WIN);
        known.insert(position.hash(), value);
        value
    }
    fn as_mate(value: i32) -> i64 {
        let plies = i64::from(WIN - value.abs());
        if value > 0 {
            (plies + 1) / 2
        } else {
            -(plies / 2)
        }
    }
    let mut engine = Engine::start();
    let cases: [(&str, &str, &str, &[&str]); 5] = [
        ("4x4", "centre", "straight", &[]),
        ("4x4", "diagonal", "straight", &["a4"]),
        ("4x4", "diagonal", "turning", &["d1", "c1"]),
        ("5x4", "any", "straight", &["c4"]),
        ("4x5", "diagonal", "turning", &[]),
    ];
    let mut signs = Vec::new();
    for (size, opening, jump, moves) in cases {
        engine.silent(&format!("setoption name BoardSize value {size}"));
        engine.silent(&format!("setoption name Opening value {opening}"));
        engine.silent(&format!("setoption name MultiJump value {jump}"));
        engine.silent(&format!("position startpos moves {}", moves.join(" ")));
        let position = start_after(variant(size, opening, jump), moves);
        let expected = as_mate(with_position!(position, p => solve(&p, &mut HashMap::new())));
        signs.push(expected.signum());
        engine.send("go depth 60");
        let out = engine.until_bestmove();
        let infos = infos(&engine, &out);
        let last = infos.last().unwrap_or_else(|| engine.fail("no info line"));
        assert_eq!(
            last.score,
            Score::Mate(expected),
            "{size} {opening} {jump} after {moves:?}: {out:?}"
        );
        check_pv(&engine, &position, &last.pv);
        check_bestmove(&engine, out.last().unwrap(), &position, false);
    }
    assert!(
        signs.contains(&1) && signs.contains(&-1),
        "the cases cover won and lost positions: {signs:?}"
    );
}

#[test]
fn isready_during_a_search_is_answered_at_once_without_ending_it() {
    let _t = timing();
    let mut engine = Engine::start();
    let position = start_after(variant("8x8", "diagonal", "straight"), &["d5", "d4"]);
    engine.send("position startpos moves d5 d4");
    let mut ready = Vec::new();
    let mut stopped = Vec::new();
    for _ in 0..3 {
        engine.send("go infinite");
        first_info(&mut engine);
        for _ in 0..3 {
            let asked = Instant::now();
            engine.send("isready");
            let out = engine.read_until(|l| l == "readyok");
            ready.push(asked.elapsed());
            if out.iter().any(|l| l.starts_with("bestmove")) {
                engine.fail("isready ended the search");
            }
            let later = engine.collect_for(Duration::from_millis(100));
            if later.iter().any(|l| l.starts_with("bestmove")) {
                engine.fail("isready ended the search");
            }
        }
        // By now iterations take tens of milliseconds or more: a stop honoured only
        // between iterations would show.
        let asked = Instant::now();
        engine.send("stop");
        let out = engine.until_bestmove();
        stopped.push(asked.elapsed());
        check_bestmove(&engine, out.last().unwrap(), &position, false);
        assert!(engine.sync().is_empty(), "exactly one bestmove");
    }
    assert_prompt(&engine, "readyok mid-search", &mut ready);
    assert_prompt(&engine, "bestmove after stop", &mut stopped);
}

#[test]
fn stop_written_together_with_go_is_never_lost() {
    let mut engine = Engine::start();
    let position = start_8x8();
    for go in [
        "go infinite",
        "go depth 200",
        "go",
        "go ponder",
        "go movetime 100000",
    ] {
        let mut times = Vec::new();
        for _ in 0..5 {
            let asked = Instant::now();
            engine.send_raw(format!("{go}\nstop\n").as_bytes());
            let out = engine.until_bestmove();
            times.push(asked.elapsed());
            check_bestmove(&engine, out.last().unwrap(), &position, false);
        }
        assert_prompt(&engine, &format!("'{go}' then 'stop'"), &mut times);
    }
    // Two searches and their stops in one write: each stop ends its own search, the
    // second one although its go was still queued when it arrived.
    let mut times = Vec::new();
    for _ in 0..5 {
        engine.send_raw(b"go infinite\nstop\ngo depth 200\nstop\nponderhit\n");
        engine.until_bestmove();
        let asked = Instant::now();
        engine.until_bestmove();
        times.push(asked.elapsed());
    }
    assert_prompt(&engine, "a queued go's stop", &mut times);
    assert!(engine.sync().is_empty(), "exactly one bestmove per go");
}

#[test]
fn after_a_jobs_last_line_the_engine_is_idle() {
    // A GUI that answers bestmove at once must find the engine free: its commands run
    // in order, and readyok comes after their output (not "at once, mid-search").
    let mut engine = Engine::start();
    for round in 0..30 {
        let go = if round % 3 == 2 {
            "go perft 2"
        } else {
            "go depth 1"
        };
        engine.send(go);
        engine.read_until(|l| l.starts_with("bestmove") || l.starts_with("Nodes searched"));
        engine.send_raw(b"query p1turn\nisready\n");
        let out = engine.read_until(|l| l == "readyok");
        assert_eq!(out, ["response true", "readyok"], "round {round}");
    }
}

#[test]
fn go_infinite_waits_for_stop_even_when_the_search_has_finished() {
    let mut engine = Engine::start();
    // On 4x4 the search proves the result in milliseconds.
    engine.silent("setoption name BoardSize value 4x4");
    engine.send("go infinite");
    let mut out = engine.read_until(|l| l.contains(" score mate "));
    out.extend(engine.collect_for(Duration::from_millis(400)));
    assert!(
        !out.iter().any(|l| l.starts_with("bestmove")),
        "bestmove waits for stop: {out:?}"
    );
    engine.send("stop");
    let out = engine.until_bestmove();
    let position = AnyPosition::start(variant("4x4", "diagonal", "straight"));
    check_bestmove(&engine, out.last().unwrap(), &position, false);
    // `go depth` on the same board does not wait.
    engine.send("go depth 40");
    engine.until_bestmove();
    assert!(engine.sync().is_empty());
}

#[test]
fn ponder_waits_for_ponderhit_then_searches_under_its_limits() {
    let _t = timing();
    let mut engine = Engine::start();
    engine.silent("setoption name Ponder value true");
    // The GUI ponders on the position after the move it expects.
    engine.silent("position startpos moves d5 d4");
    engine.send("go ponder movetime 300");
    let out = engine.collect_for(Duration::from_millis(700));
    assert!(
        !out.iter().any(|l| l.starts_with("bestmove")),
        "no deadline applies while pondering: {out:?}"
    );
    let hit = Instant::now();
    engine.send("ponderhit");
    let out = engine.until_bestmove();
    let took = hit.elapsed();
    // movetime 300 less the 10 ms MoveOverhead counts from ponderhit: at least 290 ms.
    assert!(
        took >= Duration::from_millis(250) && took < HANG,
        "bestmove {took:?} after ponderhit"
    );
    let position = start_after(variant("8x8", "diagonal", "straight"), &["d5", "d4"]);
    let (_, reply) = check_bestmove(&engine, out.last().unwrap(), &position, true);
    assert!(
        reply.is_some(),
        "a deep search knows the expected reply: {out:?}"
    );

    // Pondering on a small board: the search ends early but bestmove waits.
    engine.silent("setoption name BoardSize value 4x4");
    engine.send("go ponder depth 20");
    let out = engine.collect_for(Duration::from_millis(300));
    assert!(!out.iter().any(|l| l.starts_with("bestmove")), "{out:?}");
    engine.send("ponderhit");
    let out = engine.until_bestmove();
    let position = AnyPosition::start(variant("4x4", "diagonal", "straight"));
    check_bestmove(&engine, out.last().unwrap(), &position, true);

    // `stop` ends pondering too (the ponder move was not played).
    engine.send("go ponder");
    let out = engine.collect_for(Duration::from_millis(100));
    assert!(!out.iter().any(|l| l.starts_with("bestmove")), "{out:?}");
    engine.send("stop");
    let out = engine.until_bestmove();
    check_bestmove(&engine, out.last().unwrap(), &position, true);
    assert!(engine.sync().is_empty());
}

#[test]
fn the_ponder_option_adds_a_legal_expected_reply_to_bestmove() {
    let mut engine = Engine::start();
    engine.silent("position startpos moves d5 d4");
    let position = start_after(variant("8x8", "diagonal", "straight"), &["d5", "d4"]);
    engine.send("go depth 5");
    let out = engine.until_bestmove();
    let (_, none) = check_bestmove(&engine, out.last().unwrap(), &position, false);
    assert_eq!(none, None);
    engine.silent("setoption name Ponder value true");
    engine.send("go depth 5");
    let out = engine.until_bestmove();
    let (best, reply) = check_bestmove(&engine, out.last().unwrap(), &position, true);
    let reported = infos(&engine, &out);
    let pv = &reported.last().unwrap().pv;
    assert_eq!(Some(&best), pv.first());
    assert_eq!(
        reply.as_ref(),
        pv.get(1),
        "the ponder move is the pv's second"
    );
}

#[test]
fn quit_during_a_search_exits_promptly() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    first_info(&mut engine);
    let asked = Instant::now();
    engine.send("quit");
    engine.read_to_end_within(Duration::from_secs(5));
    let status = engine.wait_exit_within(Duration::from_secs(5));
    assert!(status.success(), "{status}");
    assert!(asked.elapsed() < HANG, "{:?}", asked.elapsed());

    // Also while a perft runs.
    let mut engine = Engine::start();
    engine.send("go perft 30");
    std::thread::sleep(Duration::from_millis(100));
    let asked = Instant::now();
    engine.send("quit");
    engine.read_to_end_within(Duration::from_secs(5));
    assert!(engine.wait_exit_within(Duration::from_secs(5)).success());
    assert!(asked.elapsed() < HANG, "{:?}", asked.elapsed());
}

#[test]
fn end_of_input_stops_an_endless_search_prints_bestmove_and_exits() {
    let position = start_8x8();
    for go in ["go infinite", "go", "go ponder", "go searchmoves e4 d5"] {
        let mut engine = Engine::start();
        engine.send(go);
        first_info(&mut engine);
        engine.close_input();
        let out = engine.read_to_end_within(Duration::from_secs(5));
        let last = out.last().unwrap_or_else(|| engine.fail("no bestmove"));
        check_bestmove(&engine, last, &position, false);
        assert_eq!(
            out.iter().filter(|l| l.starts_with("bestmove")).count(),
            1,
            "{out:?}"
        );
        engine.expect_clean_exit();
    }
    // A `go` queued behind another, with no limit of its own, ends at once too.
    let mut engine = Engine::start();
    engine.send_raw(b"go depth 3\ngo infinite\n");
    engine.close_input();
    let out = engine.read_to_end_within(Duration::from_secs(5));
    assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 2);
    engine.expect_clean_exit();
}

#[test]
fn commands_sent_during_a_search_are_applied_after_it_in_order() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    first_info(&mut engine);
    engine.send("setoption name BoardSize value 6x6");
    engine.send("position startpos moves d3");
    engine.send("d");
    engine.send("query p1turn");
    engine.send("setoption name MultiPV value 2");
    // Nothing of the above shows before the search ends.
    let out = engine.collect_for(Duration::from_millis(200));
    assert!(out.iter().all(|l| l.starts_with("info depth")), "{out:?}");
    engine.send("stop");
    engine.send("go depth 2");
    let out = engine.until_bestmove();
    assert!(
        out[..out.len() - 1]
            .iter()
            .all(|l| l.starts_with("info depth")),
        "{out:?}"
    );
    check_bestmove(&engine, out.last().unwrap(), &start_8x8(), false);
    // Then the queued commands run, in order.
    let out = engine.until_bestmove();
    let position_line = out
        .iter()
        .position(|l| l.starts_with("Position: "))
        .unwrap_or_else(|| engine.fail(&format!("no 'd' output: {out:?}")));
    assert_eq!(
        out[position_line],
        "Position: bwbwbw/wbwbwb/bwbwbw/wbw1wb/bwbwbw/wbwbwb w"
    );
    let response = out.iter().position(|l| l == "response false");
    assert!(response > Some(position_line), "{out:?}");
    let searched = infos(&engine, &out);
    assert!(
        searched.iter().any(|i| i.multipv == Some(2)),
        "the queued go ran with MultiPV 2: {out:?}"
    );
    let six = start_after(variant("6x6", "diagonal", "straight"), &["d3"]);
    check_bestmove(&engine, out.last().unwrap(), &six, false);
    assert!(engine.sync().is_empty());
}

#[test]
fn a_go_sent_during_a_search_waits_and_gets_its_own_bestmove() {
    let mut engine = Engine::start();
    let position = start_8x8();
    engine.send("go movetime 300");
    first_info(&mut engine);
    engine.send("go depth 3");
    let first = engine.until_bestmove();
    let second = engine.until_bestmove();
    let depths: Vec<u32> = infos(&engine, &second).iter().map(|i| i.depth).collect();
    assert_eq!(
        depths,
        [1, 2, 3],
        "the second go ran in full: {first:?} {second:?}"
    );
    check_bestmove(&engine, first.last().unwrap(), &position, false);
    check_bestmove(&engine, second.last().unwrap(), &position, false);
    assert!(engine.sync().is_empty(), "two gos, two bestmoves");

    // A stop ends the running search and the queued one (as soon as it starts): each
    // still gets its bestmove, at once.
    engine.send("go infinite");
    first_info(&mut engine);
    engine.send("go infinite");
    let asked = Instant::now();
    engine.send("stop");
    engine.until_bestmove();
    engine.until_bestmove();
    assert!(asked.elapsed() < HANG, "{:?}", asked.elapsed());
    assert!(engine.sync().is_empty(), "two gos, two bestmoves");
}

#[test]
fn malformed_go_parameters_get_one_error_and_no_search() {
    let mut engine = Engine::start();
    for line in [
        "go depth ten",
        "go movetime",
        "go nodes x",
        "go wtime",
        "go p1time 1.5",
        "go depth 5 movetime abc",
        "go movestogo",
        "go mate mate",
        "go depth --3",
        "go perft",
    ] {
        let out = engine.ask(line);
        assert_one_error(&engine, line, &out, &["go: "]);
    }
    let out = engine.collect_for(Duration::from_millis(300));
    assert!(out.is_empty(), "no search was started: {out:?}");
}

#[test]
fn negative_and_absurd_go_numbers_are_clamped_with_a_warning() {
    let mut engine = Engine::start();
    let position = start_8x8();
    let run = |engine: &mut Engine, line: &str, warnings: usize| -> Vec<String> {
        engine.send(line);
        let out = engine.until_bestmove();
        let said: Vec<&String> = out
            .iter()
            .filter(|l| l.starts_with("info string warning: "))
            .collect();
        assert_eq!(said.len(), warnings, "'{line}': {out:?}");
        check_bestmove(engine, out.last().unwrap(), &position, false);
        out
    };
    run(&mut engine, "go wtime -50 btime -50", 2);
    run(&mut engine, "go p1time -1 p1inc -1", 2);
    run(&mut engine, "go movetime -5", 1);
    run(&mut engine, "go nodes -1", 1);
    let out = run(&mut engine, "go depth -3", 1);
    assert!(out[0].contains("depth"), "{out:?}");
    let depths: Vec<u32> = infos(&engine, &out).iter().map(|i| i.depth).collect();
    assert_eq!(depths, [1], "depth clamps to 1");
    let out = run(&mut engine, "go depth 0", 1);
    assert_eq!(infos(&engine, &out).len(), 1);
    // movestogo 0 is ignored, not an error.
    run(&mut engine, "go movestogo 0 depth 2", 0);
    // mate n searches to depth 2n - 1.
    let out = run(&mut engine, "go mate 2", 0);
    assert_eq!(infos(&engine, &out).last().unwrap().depth, 3, "{out:?}");
    // Unknown words inside go are skipped with a warning; the rest is obeyed.
    let out = run(&mut engine, "go depth 2 frobnicate", 1);
    assert_eq!(infos(&engine, &out).last().unwrap().depth, 2, "{out:?}");
    // A huge depth is clamped (with a warning) and searched until stopped.
    engine.send("go depth 99999999999999999999");
    let out = engine.read_until(|l| l.starts_with("info depth"));
    assert!(
        out[0].starts_with("info string warning: ") && out[0].contains("255"),
        "{out:?}"
    );
    engine.send("stop");
    let out = engine.until_bestmove();
    check_bestmove(&engine, out.last().unwrap(), &position, false);
    assert!(engine.sync().is_empty());
}

/// Sends `go` up to three times and returns the wall time of each attempt, stopping
/// at the first that takes at most `within`. Every attempt must also take at least
/// `at_least` (the engine's own plan; time seen here can only be longer) and less than
/// `never_over` (far over any plan: an engine ignoring the limit, or reading the wrong
/// clock). Timing on a shared machine is noisy in one direction: a busy moment can
/// delay one reply, but an engine that overshoots overshoots every time. So the
/// requirement itself (`within`) must hold for one of three attempts.
fn timed_go(
    engine: &mut Engine,
    go: &str,
    position: &AnyPosition,
    at_least: Duration,
    within: Duration,
    never_over: Duration,
) -> Vec<Duration> {
    let mut times = Vec::new();
    for _ in 0..3 {
        let asked = Instant::now();
        engine.send(go);
        let out = engine.until_bestmove();
        let took = asked.elapsed();
        // No iteration need have finished: on a busy machine a short clock may run
        // out first, and then the move kept ready is played on time.
        check_bestmove(engine, out.last().unwrap(), position, false);
        times.push(took);
        if took < at_least || took >= never_over {
            engine.fail(&format!(
                "'{go}' took {took:?}: outside {at_least:?}..{never_over:?}"
            ));
        }
        if took <= within {
            return times;
        }
    }
    engine.fail(&format!(
        "'{go}' never answered within {within:?}: {times:?}"
    ));
}

#[test]
fn go_movetime_500_answers_between_450_and_600_ms() {
    let _t = timing();
    let mut engine = Engine::start();
    engine.silent("position startpos moves d5 d4");
    let position = start_after(variant("8x8", "diagonal", "straight"), &["d5", "d4"]);
    // The engine plans 490 ms (500 less the 10 ms MoveOverhead).
    let ms = Duration::from_millis;
    timed_go(
        &mut engine,
        "go movetime 500",
        &position,
        ms(450),
        ms(600),
        ms(2500),
    );
}

#[test]
fn clock_limits_read_each_sides_clock_and_never_run_out() {
    let _t = timing();
    let ms = Duration::from_millis;
    let mut engine = Engine::start();
    // Black (p1) to move with a short clock against white's 100 s: black's clock
    // rules. With white's, the engine would plan seconds (the never_over bound).
    engine.silent("position startpos moves d5 d4");
    let black = start_after(variant("8x8", "diagonal", "straight"), &["d5", "d4"]);
    for (go, clock_ms) in [
        ("go btime 100 wtime 100000", 100),
        ("go p1time 100 p2time 100000", 100),
        ("go p1time 1000 p2time 1000 p1inc 10 p2inc 10", 1000),
        ("go btime 300 wtime 300 movestogo 1", 300),
    ] {
        // Never past the clock (the engine plans at most a share of it less the overhead).
        timed_go(&mut engine, go, &black, ms(0), ms(clock_ms), ms(2500));
    }
    // White to move: white's clock (p2time / wtime) rules.
    engine.silent("position startpos moves d5");
    let white = start_after(variant("8x8", "diagonal", "straight"), &["d5"]);
    for go in ["go wtime 100 btime 100000", "go p2time 100 p1time 100000"] {
        timed_go(&mut engine, go, &white, ms(0), ms(100), ms(2500));
    }
}

#[test]
fn go_nodes_and_searchmoves_limit_the_search() {
    let mut engine = Engine::start();
    engine.silent("position startpos moves d5 d4");
    let position = start_after(variant("8x8", "diagonal", "straight"), &["d5", "d4"]);
    engine.send("go nodes 3000");
    let out = engine.until_bestmove();
    check_bestmove(&engine, out.last().unwrap(), &position, false);
    let reported = infos(&engine, &out);
    assert!(
        reported.iter().all(|i| i.nodes <= 3000 + 2048),
        "the node limit holds (checked every 2048 nodes): {out:?}"
    );
    engine.send("go depth 4 searchmoves f5d5");
    let out = engine.until_bestmove();
    assert_eq!(out.last().unwrap(), "bestmove f5d5");
    engine.send("go depth 4 searchmoves zz b5d5");
    let out = engine.until_bestmove();
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string error: ") && l.contains("zz")),
        "{out:?}"
    );
    assert_eq!(out.last().unwrap(), "bestmove b5d5");
}

#[test]
fn no_legal_move_gives_bestmove_0000_and_says_why() {
    let mut engine = Engine::start();
    engine.silent("setoption name Ponder value true");
    engine.silent("position fen b3/4/4/2w1 b");
    engine.send("go depth 5");
    let out = engine.until_bestmove();
    assert_eq!(
        out,
        [
            "info string black (p1) has no legal move and has lost",
            "bestmove 0000"
        ]
    );
    engine.silent("position fen b3/4/4/2w1 w");
    engine.send("go infinite");
    let out = engine.collect_for(Duration::from_millis(200));
    assert!(out.is_empty(), "bestmove waits for stop: {out:?}");
    engine.send("stop");
    let out = engine.until_bestmove();
    assert_eq!(
        out,
        [
            "info string white (p2) has no legal move and has lost",
            "bestmove 0000"
        ]
    );
    // The same at the very start, under rules that leave black no first move.
    engine.silent("setoption name BoardSize value 3x5");
    engine.ask("setoption name Opening value centre");
    engine.send("go movetime 100");
    assert_eq!(engine.until_bestmove().last().unwrap(), "bestmove 0000");
}
