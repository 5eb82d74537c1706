//! Shared by the referee tests: running the referee (in process or as its binary) on
//! the fake engine (`src/bin/fake-engine.rs`), scratch directories, and checks that
//! every game is credited rightly and no process is left behind.

#![allow(dead_code)]
// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use konane::referee::{self, GameRecord, Invocation, RunError, RunReport, Termination};
use konane::rules::Variant;

#[path = "../scratch/mod.rs"]
mod scratch_folder;
// Each test file includes this module; not all of them need a scratch folder.
#[allow(unused_imports)]
pub use scratch_folder::scratch;

pub const FAKE: &str = env!("CARGO_BIN_EXE_fake-engine");
pub const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

static NEVER: AtomicBool = AtomicBool::new(false);

/// Splits a command line; `cmd=@` becomes the fake engine and `@dir` the scratch dir.
pub fn args(line: &str, dir: &Path) -> Vec<String> {
    line.split_whitespace()
        .map(|t| {
            t.replace("cmd=@", &format!("cmd={FAKE}"))
                .replace("@dir", &dir.display().to_string())
        })
        .collect()
}

pub fn try_run(line: &str, dir: &Path) -> Result<(RunReport, String), RunError> {
    let Invocation::Run(config) =
        referee::parse_command_line(&args(line, dir)).expect("a valid command line")
    else {
        panic!("not a run: {line}")
    };
    let mut out = Vec::new();
    let report = referee::run(*config, &mut out, &NEVER)?;
    Ok((report, String::from_utf8_lossy(&out).into_owned()))
}

pub fn run(line: &str, dir: &Path) -> (RunReport, String) {
    try_run(line, dir).unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// Whether a process is running (a zombie is not).
pub fn alive(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z'),
        Err(_) => false,
    }
}

/// Asserts that every process recorded in `dir/pids` has ended.
pub fn assert_none_left(dir: &Path) {
    let pids: Vec<String> = std::fs::read_dir(dir.join("pids"))
        .expect("the engines recorded their ids")
        .filter_map(|e| Some(e.ok()?.file_name().to_string_lossy().into_owned()))
        .collect();
    assert!(!pids.is_empty(), "no engine recorded its id");
    // A killed process ends when it is next scheduled: give a busy machine a moment.
    let started = Instant::now();
    while pids.iter().any(|p| alive(p)) && started.elapsed() < Duration::from_secs(3) {
        std::thread::sleep(Duration::from_millis(10));
    }
    let left: Vec<String> = pids
        .iter()
        .filter(|p| alive(p))
        .map(|p| std::fs::read_to_string(format!("/proc/{p}/stat")).unwrap_or_default())
        .collect();
    assert!(left.is_empty(), "processes left behind: {left:?}");
}

/// Replays a record with the rules core: every move legal, the loser of a normal game
/// without a move.
pub fn check_replay(r: &GameRecord, variant: Variant) {
    let mut p = r.opening.position(variant).expect("a valid opening");
    for m in &r.moves {
        p.play_text(&m.text)
            .unwrap_or_else(|e| panic!("game {}: {} is illegal: {e}", r.number, m.text));
    }
    if r.termination == Termination::Normal {
        assert_eq!(
            p.outcome().map(|o| o.winner()),
            Some(r.winner),
            "game {}",
            r.number
        );
    } else {
        assert_eq!(
            p.side_to_move(),
            r.winner.opponent(),
            "game {}: the loser was to move",
            r.number
        );
    }
}

pub fn variant(size: &str) -> Variant {
    Variant {
        size: size.parse().expect("a board size"),
        ..Variant::default()
    }
}

/// Every game was won by `winner`, ending with `termination`.
pub fn assert_all(report: &RunReport, winner: &str, termination: Termination) {
    for r in &report.records {
        assert_eq!(r.winner_name(), winner, "game {}: {}", r.number, r.detail);
        assert_eq!(
            r.termination, termination,
            "game {}: {}",
            r.number, r.detail
        );
    }
}
