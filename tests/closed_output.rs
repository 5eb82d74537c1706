//! Every binary with its standard output and error both a pipe whose reader is gone
//! (`konane-solve ... 2>&1 | head -0`): a clear exit status, never a panic (status
//! 101), which `println!` and `eprintln!` would make of the failed write.

// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

/// The exit status of `program args` writing into a pipe nobody reads.
fn status_unread(program: &str, args: &[&str]) -> Option<i32> {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    Command::new(program)
        .args(args)
        .stdout(writer.try_clone().expect("a second writer"))
        .stderr(writer)
        .status()
        .expect("the program runs")
        .code()
}

#[test]
fn konane_solve_fails_with_status_2() {
    let solve = env!("CARGO_BIN_EXE_konane-solve");
    for args in [
        &["--size", "5x5", "--split", "2", "--list"][..],
        &["--size", "4x4"][..],
        &["--help"][..],
        &["--bogus"][..],
    ] {
        assert_eq!(status_unread(solve, args), Some(2), "{args:?}");
    }
}

#[test]
fn the_engine_referee_and_gui_fail_with_their_own_statuses() {
    let engine = env!("CARGO_BIN_EXE_konane");
    // Status 1: the output was refused; 2: a usage error.
    assert_eq!(status_unread(engine, &["--help"]), Some(1));
    assert_eq!(status_unread(engine, &["--bogus"]), Some(2));
    let referee = env!("CARGO_BIN_EXE_referee");
    for args in [&[][..], &["-help"][..], &["-bogus"][..]] {
        assert_eq!(status_unread(referee, args), Some(2), "referee {args:?}");
    }
    let gui = env!("CARGO_BIN_EXE_konane-gui");
    for args in [&["--help"][..], &["--bogus"][..]] {
        assert_eq!(status_unread(gui, args), Some(2), "konane-gui {args:?}");
    }
}
