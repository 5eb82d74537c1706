//! The shell interface: one-shot argument mode stops at the first refused line, with
//! its error on standard error and a non-zero exit status; `--help` and `--version`.

// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::ffi::OsStr;
use std::process::{Command, Output};

/// Runs the engine with `args` (no input) and returns what it did.
fn run<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_konane"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("cannot run the konane binary")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Checks that `args` stop at a refused line: nothing on the output, one error naming
/// `needle` on standard error, exit status 1.
#[track_caller]
fn refused(args: &[&str], needle: &str) {
    let out = run(args);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stdout} / {stderr}");
    assert_eq!(stdout, "", "{args:?}: nothing after the refused line runs");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(
        stderr.contains("error") && stderr.contains(needle),
        "{args:?}: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn a_bad_position_text_stops_the_script_with_status_1() {
    refused(&["position fen xx", "go perft 1"], "position");
}

#[test]
fn a_bad_move_list_stops_the_script_with_status_1() {
    refused(&["position startpos moves z9", "go perft 1"], "z9");
    refused(&["position startpos moves d5 d5", "d"], "d5");
}

#[test]
fn an_unknown_command_or_bad_option_stops_the_script() {
    refused(&["frobnicate", "query p1turn"], "frobnicate");
    refused(
        &["setoption name BoardSize value 40x40", "go perft 1"],
        "BoardSize",
    );
    refused(&["setoption name Nonsense value 1", "d"], "Nonsense");
}

#[test]
fn unplayable_searchmoves_stop_the_script() {
    refused(
        &["position startpos moves d5 d4", "go depth 2 searchmoves z9"],
        "z9",
    );
}

#[test]
fn lines_before_the_refused_one_run_and_print() {
    let out = run(&["query p1turn", "go perft 0", "query p1turn"]);
    assert_eq!(text(&out.stdout), "response true\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("perft depth"));
}

#[test]
fn a_script_that_runs_through_exits_0() {
    let out = run(&["position startpos moves d5 d4", "go perft 1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).ends_with("Nodes searched: 3\n"));
    assert_eq!(text(&out.stderr), "");
}

#[test]
fn help_and_version_print_and_exit_0() {
    for flag in ["--help", "-h"] {
        let out = run(&[flag]);
        assert!(out.status.success());
        let help = text(&out.stdout);
        assert!(
            help.contains("Usage") && help.contains("protocol.md"),
            "{help}"
        );
    }
    for flag in ["--version", "-V"] {
        let out = run(&[flag]);
        assert!(out.status.success());
        assert_eq!(
            text(&out.stdout),
            format!("konane {}\n", env!("CARGO_PKG_VERSION"))
        );
    }
    let out = run(&["--frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--frobnicate"));
}

#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_refused_not_a_panic() {
    use std::os::unix::ffi::OsStrExt;
    let out = run(&[OsStr::from_bytes(b"\xff"), OsStr::new("query p1turn")]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains("unknown command"), "{stderr}");
    assert_eq!(text(&out.stdout), "");
}
