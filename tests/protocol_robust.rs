//! The engine under abuse: a closed output, huge tables, a flood of queued commands,
//! huge values, and answers that must come on time whatever the search is doing.
//! Bounds on time here are generous (seconds where the engine needs milliseconds), so
//! that a busy machine does not fail them; each failed by seconds or for ever before
//! the engine was fixed.

// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod engine_driver;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use engine_driver::Engine;

/// A 16x16 turning middle game: far too big to solve, slow to search.
const BIG: &str = "setoption name BoardSize value 16x16";

fn big_middle_game(engine: &mut Engine) {
    engine.silent(BIG);
    engine.silent("setoption name MultiJump value turning");
    engine.silent("position startpos moves h9 h8 h11h9 f10h10");
    engine.sync();
}

/// Starts the engine, sends `lines`, reads one line of output, then closes the output
/// (keeping the input open, as a shell pipe into `head -1` does): the engine must end.
fn closed_output_ends(lines: &str) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_konane"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("cannot start the konane binary");
    let mut stdin = child.stdin.take().expect("piped");
    stdin.write_all(lines.as_bytes()).expect("the engine reads");
    stdin.flush().expect("the engine reads");
    let mut reader = BufReader::new(child.stdout.take().expect("piped"));
    let mut first = String::new();
    reader.read_line(&mut first).expect("one line comes");
    drop(reader);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(status) = child.try_wait().expect("can wait") {
            assert!(status.success(), "{lines:?}: {status}");
            return;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{lines:?}: the engine kept its job running with its output closed");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_closed_output_ends_an_endless_search_at_once() {
    closed_output_ends("go infinite\n");
    closed_output_ends("go ponder\n");
    closed_output_ends("go\n");
}

#[test]
fn a_closed_output_ends_a_long_job_at_once() {
    let big =
        format!("{BIG}\nsetoption name MultiJump value turning\nposition startpos moves h9 h8\n");
    closed_output_ends(&format!("{big}go depth 200\n"));
    // A solve prints its progress about once a second, and never ends on this board.
    closed_output_ends(&format!("{big}go solve\n"));
}

/// Sets `option` to 4096 MB and checks that `readyok` comes well within a match
/// runner's start-up wait, then that `job` still runs on the new table.
fn a_4096_mb_table_is_ready_at_once(option: &str, job: &str) {
    let mut engine = Engine::start();
    engine.sync();
    let started = Instant::now();
    engine.silent(&format!("setoption name {option} value 4096"));
    engine.sync();
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(5),
        "{option}: readyok after {took:?}"
    );
    engine.silent("setoption name BoardSize value 4x4");
    engine.send("position startpos");
    engine.send(job);
    engine.until_bestmove();
    engine.silent("setoption name Clear Hash");
    engine.sync();
}

#[test]
fn the_largest_common_table_is_ready_at_once() {
    a_4096_mb_table_is_ready_at_once("Hash", "go depth 8");
}

#[test]
fn the_largest_common_solver_table_is_ready_at_once() {
    a_4096_mb_table_is_ready_at_once("SolverHash", "go solve");
}

#[test]
fn position_floods_during_a_search_are_bounded_and_refused() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    engine.read_until(|l| l.starts_with("info depth"));
    let line = format!("position startpos moves {}\n", "d5 ".repeat(330_000));
    let floods = 30;
    for _ in 0..floods {
        engine.send_raw(line.as_bytes());
    }
    engine.send("isready");
    let out = engine.read_until(|l| l == "readyok");
    let refused = out
        .iter()
        .filter(|l| l.starts_with("info string error: too much is queued"))
        .count();
    assert!(refused >= floods - 3, "{refused} of {floods} refused");
    #[cfg(target_os = "linux")]
    {
        let status = std::fs::read_to_string(format!("/proc/{}/status", engine.pid()))
            .expect("the engine runs");
        let rss_kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .expect("VmRSS is a number");
        assert!(rss_kb < 400 * 1024, "the engine grew to {rss_kb} kB");
    }
    engine.send("stop");
    engine.until_bestmove();
    engine.sync();
}

#[test]
fn huge_values_and_move_texts_are_quoted_shortened() {
    let mut engine = Engine::start();
    let huge = "q".repeat(500_000);
    for line in [
        format!("setoption name Opening value {huge}"),
        format!("setoption name BoardSize value {huge}"),
        format!("position startpos moves d5 {huge}"),
        format!("go depth 1 searchmoves {huge}"),
    ] {
        engine.send(&line);
        let out = if line.starts_with("go") {
            engine.until_bestmove()
        } else {
            engine.sync()
        };
        let error = out
            .iter()
            .find(|l| l.starts_with("info string error"))
            .unwrap_or_else(|| engine.fail("no error line"));
        assert!(error.len() < 600, "an error of {} bytes", error.len());
    }
}

/// Sends `go_line` on a big turning middle game, waits `before_stop` (then sends
/// `stop` if given), and returns how long after the `go` (or the `stop`) `bestmove`
/// came.
fn answer_time(threads: u32, go_line: &str, stop_after: Option<Duration>) -> Duration {
    let mut engine = Engine::start();
    // With more threads than processors the engine says it starts fewer.
    engine.ask(&format!("setoption name Threads value {threads}"));
    big_middle_game(&mut engine);
    engine.send(go_line);
    let mut since = Instant::now();
    if let Some(wait) = stop_after {
        std::thread::sleep(wait);
        engine.send("stop");
        since = Instant::now();
    }
    engine.until_bestmove();
    let took = since.elapsed();
    engine.sync();
    took
}

#[test]
fn a_solve_answers_by_its_movetime() {
    let took = answer_time(1, "go solve movetime 300", None);
    assert!(
        took < Duration::from_millis(1200),
        "bestmove after {took:?}"
    );
}

#[test]
fn stop_ends_a_solve_and_its_fallback_search_at_once() {
    let took = answer_time(1, "go solve", Some(Duration::from_millis(300)));
    assert!(
        took < Duration::from_millis(700),
        "bestmove {took:?} after stop"
    );
}

/// `Threads 64` starts no more search threads than there are processors, so `stop` is
/// answered as promptly as with one thread; the bound (issue 11's 10 ms) holds only on
/// an otherwise idle machine, where no other program takes the processors.
#[test]
#[ignore = "needs an idle machine: see tests/README.md"]
fn stop_is_answered_at_once_with_64_threads() {
    let took = answer_time(64, "go infinite", Some(Duration::from_millis(500)));
    assert!(
        took < Duration::from_millis(10),
        "bestmove {took:?} after stop"
    );
}
