//! Time use under overload (issue 11, item 1): two referee runs at once, each playing
//! two games at a time, so four engines share the machine's cores at a clock of one
//! second plus ten milliseconds a move. No engine may lose on time. Ignored: it takes
//! minutes and means something only in a release build (tests/README.md has the
//! command). Set `KONANE_ENGINE` to measure another build of the engine (the release
//! of commit 87e0942 lost 165 of 200 such games on a machine loaded to 25-44), and
//! `KONANE_OVERLOAD_GAMES` for the games of each run (default 100).

// Test reports (seeds, measurements) go to the test harness's output.
#![allow(clippy::print_stdout, clippy::print_stderr)]
// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;

use std::time::Duration;

use konane::referee::{Clock, Summary, Termination};

mod scratch;
use scratch::scratch;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

/// The clock of every game, as the referee reads it: one second plus 10 ms a move.
const TIME_CONTROL: &str = "1+0.01";

/// Random plies before the engines take over (the referee plays them, off the clock).
const OPENING_PLIES: usize = 4;

fn engine() -> String {
    std::env::var("KONANE_ENGINE").unwrap_or_else(|_| env!("CARGO_BIN_EXE_konane").to_string())
}

fn games() -> u32 {
    std::env::var("KONANE_OVERLOAD_GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(100)
}

/// Starts one referee run writing its summary to `json`.
fn start_run(json: &Path, seed: u32) -> std::process::Child {
    let log = std::fs::File::create(json.with_extension("log")).expect("a log file");
    let engine = engine();
    let line = format!(
        "-engine cmd={engine} name=a -engine cmd={engine} name=b -each tc={TIME_CONTROL} \
         -games {} -openings plies={OPENING_PLIES} -concurrency 2 -seed {seed} \
         -ratinginterval 0 -json {}",
        games(),
        json.display()
    );
    Command::new(REFEREE)
        .args(line.split_whitespace())
        .stdout(log.try_clone().expect("a log file"))
        .stderr(log)
        .spawn()
        .expect("the referee starts")
}

/// The lowest clock either side had left after a move (before its increment), over
/// every game, replayed on the referee's own clocks: zero for a move that used the
/// whole clock.
fn lowest_clock(summary: &Summary) -> Duration {
    let start = Clock::new(TIME_CONTROL.parse().expect("a time control"));
    let mut lowest = start.remaining();
    for game in &summary.games {
        let mut clocks = [start; 2];
        for (ply, &ms) in game.move_ms.iter().enumerate().skip(OPENING_PLIES) {
            let clock = &mut clocks[ply % 2];
            let elapsed = Duration::from_millis(ms);
            lowest = lowest.min(clock.remaining().saturating_sub(elapsed));
            if clock.charge(elapsed, Duration::ZERO).is_err() {
                break;
            }
        }
    }
    lowest
}

#[test]
#[ignore = "minutes of play on a loaded machine: see tests/README.md"]
fn no_time_forfeit_with_four_engines_on_the_cores() {
    let dir = scratch("overload");
    let paths = [dir.join("a.json"), dir.join("b.json")];
    let runs: Vec<_> = paths
        .iter()
        .zip([1, 2])
        .map(|(path, seed)| start_run(path, seed))
        .collect();
    for (mut run, path) in runs.into_iter().zip(&paths) {
        let status = run.wait().expect("the referee ends");
        if !status.success() {
            let log = std::fs::read_to_string(path.with_extension("log")).unwrap_or_default();
            let tail: Vec<&str> = log.lines().rev().take(5).collect();
            panic!("the referee failed ({status}): {tail:?}");
        }
    }
    let mut forfeits = 0;
    let mut played = 0;
    let mut lowest = Duration::MAX;
    for path in &paths {
        let text = std::fs::read_to_string(path).expect("the referee wrote its summary");
        let summary: Summary = serde_json::from_str(&text).expect("a referee summary");
        played += summary.games.len();
        for game in &summary.games {
            if game.termination == Termination::TimeForfeit {
                println!("game {}: {}", game.game, game.detail);
                forfeits += 1;
            }
        }
        lowest = lowest.min(lowest_clock(&summary));
    }
    let _ = std::fs::remove_dir_all(&dir);
    let lowest_ms = lowest.as_millis();
    println!("{played} games, {forfeits} time forfeits, lowest clock left {lowest_ms} ms");
    assert_eq!(forfeits, 0, "{forfeits} of {played} games lost on time");
    assert!(!lowest.is_zero(), "a move used the whole clock");
}
