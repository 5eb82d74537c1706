//! The referee against engines that abuse it: floods, endless lines, bytes that are not
//! text, control characters, answers out of turn, crashes hidden by a child; and the
//! referee's own inputs: output paths, state files, huge schedules and durations,
//! arguments that are not UTF-8. Nothing may panic it, grow its memory without bound,
//! or be lost on resume.

// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod referee_support;

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use konane::referee::Termination;
use referee_support::{
    FAKE, REFEREE, args, assert_all, assert_none_left, check_replay, run, scratch, try_run, variant,
};

/// The referee's resident memory now, and the most it has held, in KiB.
fn memory_kib(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// Runs the referee binary on `line` to its end, sampling its memory; returns the
/// output and the highest resident size seen, in MiB.
fn run_binary_measured(line: &str, dir: &Path) -> (Output, u64) {
    let mut child = spawn_binary(line, dir);
    let mut peak_kib = 0;
    while child.try_wait().ok().flatten().is_none() {
        if let Some((_, hwm)) = memory_kib(child.id()) {
            peak_kib = peak_kib.max(hwm);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().expect("the referee ends");
    (output, peak_kib / 1024)
}

fn spawn_binary(line: &str, dir: &Path) -> Child {
    Command::new(REFEREE)
        .args(args(line, dir))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the referee starts")
}

fn json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).expect("a JSON summary");
    serde_json::from_str(&text).expect("valid JSON")
}

/// The terminations of the games of a JSON summary.
fn terminations(summary: &serde_json::Value) -> Vec<String> {
    summary["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| g["termination"].as_str().unwrap_or("?").to_string())
        .collect()
}

// ---- Item 7: memory stays flat whatever an engine writes. ----

#[test]
fn an_endless_line_is_cut_and_memory_stays_flat() {
    let dir = scratch("endless");
    // 200 MiB without a line end at its first go; the referee must not keep it.
    let (output, peak_mib) = run_binary_measured(
        "-engine cmd=@ name=Endless arg=--fault arg=endless arg=--fault-bytes arg=209715200 \
         -engine cmd=@ name=Good -each st=2 -games 2 -board 4x4 -grace 0.1 \
         -json @dir/out.json",
        &dir,
    );
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(peak_mib < 24, "the referee grew to {peak_mib} MiB");
    let summary = json(&dir.join("out.json"));
    for g in summary["games"].as_array().expect("games") {
        assert_eq!(g["winner"], "Good", "{g}");
    }
}

#[test]
fn an_engine_flooding_info_lines_loses_by_flood() {
    let dir = scratch("flood");
    let (output, peak_mib) = run_binary_measured(
        "-engine cmd=@ name=Flooder arg=--fault arg=flood \
         -engine cmd=@ name=Good -each depth=1 -games 2 -board 4x4 -grace 0.1 -watchdog 20 \
         -json @dir/out.json",
        &dir,
    );
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(peak_mib < 24, "the referee grew to {peak_mib} MiB");
    let summary = json(&dir.join("out.json"));
    assert_eq!(terminations(&summary), ["flood", "flood"], "{summary}");
}

#[test]
fn an_engine_flooding_while_its_opponent_thinks_loses_by_flood() {
    let dir = scratch("flood-idle");
    let (output, peak_mib) = run_binary_measured(
        "-engine cmd=@ name=Flooder arg=--flood-idle \
         -engine cmd=@ name=Slow arg=--think-ms arg=300 -each depth=1 -games 2 -board 6x6 \
         -grace 0.1 -json @dir/out.json",
        &dir,
    );
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(peak_mib < 24, "the referee grew to {peak_mib} MiB");
    let summary = json(&dir.join("out.json"));
    assert_eq!(terminations(&summary), ["flood", "flood"], "{summary}");
    for g in summary["games"].as_array().expect("games") {
        assert_eq!(g["winner"], "Slow", "{g}");
    }
}

// ---- Item 14: what an engine writes never breaks the referee. ----

#[test]
fn bytes_that_are_not_utf8_are_an_unreadable_move() {
    let dir = scratch("bad-utf8");
    let (report, _) = run(
        "-engine cmd=@ name=Bad arg=--fault arg=bad-utf8 -engine cmd=@ name=Good \
         -each depth=1 -games 2 -board 4x4 -grace 0.1",
        &dir,
    );
    assert_all(&report, "Good", Termination::IllegalMove);
    for r in &report.records {
        assert!(r.detail.contains('\u{fffd}'), "{}", r.detail);
    }
}

#[test]
fn a_second_bestmove_is_never_taken_for_the_next_answer() {
    let dir = scratch("double");
    // The stray second answer is an illegal move; were it read as the answer to the
    // next go, the engine would lose by an illegal move.
    let (report, _) = run(
        "-engine cmd=@ name=Double arg=--fault arg=double -engine cmd=@ name=Slow \
         arg=--think-ms arg=50 -each depth=1 -games 4 -board 6x6 -grace 0.1",
        &dir,
    );
    for r in &report.records {
        assert_eq!(r.termination, Termination::Normal, "{}", r.detail);
        check_replay(r, variant("6x6"));
    }
}

#[test]
fn a_bestmove_before_go_is_never_taken_for_the_answer() {
    let dir = scratch("early");
    let (report, _) = run(
        "-engine cmd=@ name=Early arg=--fault arg=early arg=--play arg=random \
         -engine cmd=@ name=Good -each depth=1 -games 4 -board 6x6 -grace 0.1",
        &dir,
    );
    for r in &report.records {
        assert_eq!(r.termination, Termination::Normal, "{}", r.detail);
        check_replay(r, variant("6x6"));
    }
}

/// Seeded junk before every answer: long lines, control characters, invalid UTF-8.
fn noisy_match(seeds: std::ops::Range<u64>, games: u32) {
    for seed in seeds {
        let dir = scratch("noise");
        let (report, _) = run(
            &format!(
                "-engine cmd=@ name=Noisy arg=--noise arg={seed} arg=--play arg=random \
                 -engine cmd=@ name=Quiet arg=--noise arg={} -each depth=1 -games {games} \
                 -board 6x6 -grace 0.1 -seed {seed} -pgnout @dir/games.pgn",
                seed + 1000
            ),
            &dir,
        );
        assert_eq!(report.records.len(), games as usize);
        for r in &report.records {
            assert_eq!(
                r.termination,
                Termination::Normal,
                "seed {seed}: {}",
                r.detail
            );
            check_replay(r, variant("6x6"));
        }
        let pgn = std::fs::read_to_string(dir.join("games.pgn")).expect("a PGN file");
        assert_clean_pgn(&pgn);
    }
}

#[test]
fn seeded_junk_between_answers_changes_no_game() {
    noisy_match(0..3, 4);
}

/// The long version: `cargo test --test referee_robust -- --ignored` (about half a minute).
#[test]
#[ignore = "a soak of about half a minute"]
fn seeded_junk_soak() {
    noisy_match(100..300, 10);
}

// ---- Item 9: engine text is cleaned before it reaches a file or the screen. ----

/// No control character in the text and balanced comment braces.
fn assert_clean_pgn(pgn: &str) {
    let controls: Vec<char> = pgn
        .chars()
        .filter(|c| c.is_control() && *c != '\n')
        .collect();
    assert!(
        controls.is_empty(),
        "control characters {controls:?} in {pgn}"
    );
    let mut depth = 0;
    for c in pgn.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        assert!((0..=1).contains(&depth), "unbalanced braces in {pgn}");
    }
    assert_eq!(depth, 0, "unbalanced braces in {pgn}");
}

#[test]
fn engine_names_and_scores_reach_pgn_and_terminal_clean() {
    let dir = scratch("sanitise");
    let mut line = args(
        "-engine cmd=@ arg=--score -engine cmd=@ name=Good -each depth=1 -games 2 \
         -board 4x4 -grace 0.1 -pgnout @dir/games.pgn",
        &dir,
    );
    // After `arg=--score`: the injected score, then a name with ESC and BEL.
    line.insert(3, "arg=}1-0 {x".to_string());
    line.insert(4, "arg=--name".to_string());
    line.insert(5, "arg=Evil\u{1b}[2J\u{7}Name".to_string());
    let output = Command::new(REFEREE)
        .args(&line)
        .output()
        .expect("the referee runs");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let terminal = String::from_utf8_lossy(&output.stdout);
    assert!(
        !terminal.contains('\u{1b}') && !terminal.contains('\u{7}'),
        "{terminal}"
    );
    assert!(terminal.contains("Evil"), "{terminal}");
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).expect("a PGN file");
    assert_clean_pgn(&pgn);
    assert!(!pgn.contains("}1-0"), "{pgn}");
}

// ---- Item 10: an engine's own exit is a crash, and none of its processes survive. ----

#[test]
fn a_crash_hidden_by_a_child_holding_the_output_is_a_crash() {
    let dir = scratch("hidden-crash");
    std::fs::create_dir_all(dir.join("pids")).expect("writable");
    let (report, _) = run(
        "-engine cmd=@ name=Crasher arg=--fault arg=crash arg=--spawn-child \
         arg=--pid-dir arg=@dir/pids -engine cmd=@ name=Good -each depth=1 -games 2 \
         -board 4x4 -grace 0.1 -watchdog 8",
        &dir,
    );
    assert_all(&report, "Good", Termination::Crash);
    assert_none_left(&dir);
}

#[test]
fn helpers_that_leave_the_process_group_are_ended_too() {
    let dir = scratch("setsid");
    std::fs::create_dir_all(dir.join("pids")).expect("writable");
    let output = Command::new(REFEREE)
        .args(args(
            "-engine cmd=@ name=Escaper arg=--setsid-child arg=--fault arg=crash arg=--pid-dir arg=@dir/pids \
             -engine cmd=@ name=Good -each depth=1 -games 2 -board 4x4 -grace 0.1",
            &dir,
        ))
        .output()
        .expect("the referee runs");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert_none_left(&dir);
}

// ---- Item 8: output paths are checked first and written safely. ----

fn two_engines(extra: &str) -> String {
    format!("-engine cmd=@ name=A -engine cmd=@ name=B -each depth=1 -games 2 -board 4x4 {extra}")
}

#[test]
fn a_bad_json_path_is_refused_before_the_first_game() {
    let dir = scratch("bad-json");
    let output = spawn_binary(&two_engines("-json @dir/missing/out.json"), &dir)
        .wait_with_output()
        .expect("the referee ends");
    assert_eq!(output.status.code(), Some(2));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(!text.contains("Finished game"), "games were played: {text}");
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(error.contains("missing/out.json"), "{error}");
}

#[test]
fn a_link_planted_at_the_temporary_name_is_not_followed() {
    let dir = scratch("planted");
    let victim = dir.join("victim");
    std::fs::write(&victim, "precious").expect("writable");
    std::os::unix::fs::symlink(&victim, dir.join("out.json.tmp")).expect("a link");
    let (report, _) = run(&two_engines("-json @dir/out.json"), &dir);
    assert_eq!(report.records.len(), 2);
    assert_eq!(
        std::fs::read_to_string(&victim).expect("the victim"),
        "precious"
    );
    assert!(json(&dir.join("out.json"))["games"].is_array());
}

#[test]
fn a_link_at_the_json_path_is_written_through_and_kept() {
    let dir = scratch("json-link");
    let target = dir.join("real.json");
    std::os::unix::fs::symlink(&target, dir.join("out.json")).expect("a link");
    run(&two_engines("-json @dir/out.json"), &dir);
    let meta = std::fs::symlink_metadata(dir.join("out.json")).expect("the link");
    assert!(meta.file_type().is_symlink(), "the link was replaced");
    assert!(json(&target)["games"].is_array());
}

#[test]
fn a_fifo_at_the_json_path_is_written_into_not_replaced() {
    let dir = scratch("json-fifo");
    let fifo = dir.join("out.json");
    let c_path = std::ffi::CString::new(fifo.as_os_str().as_bytes()).expect("no NUL");
    // SAFETY: mkfifo reads a NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    let reader_path = fifo.clone();
    let reader = std::thread::spawn(move || std::fs::read_to_string(reader_path));
    run(&two_engines("-json @dir/out.json"), &dir);
    // Checked first: a replaced FIFO would leave the reader waiting for ever.
    let meta = std::fs::symlink_metadata(&fifo).expect("the FIFO");
    assert!(
        !meta.file_type().is_file(),
        "the FIFO was replaced by a file"
    );
    let text = reader.join().expect("the reader").expect("read the FIFO");
    assert!(text.contains("\"games\""), "{text}");
}

// ---- Item 11: a state file is the record of the tournament. ----

/// Plays a 6-game match with a state file, then returns its lines.
fn state_lines(dir: &Path) -> Vec<String> {
    run(&two_engines_six("-resume @dir/state.jsonl"), dir);
    std::fs::read_to_string(dir.join("state.jsonl"))
        .expect("a state file")
        .lines()
        .map(str::to_string)
        .collect()
}

fn two_engines_six(extra: &str) -> String {
    format!(
        "-engine cmd=@ name=A -engine cmd=@ name=B arg=--play arg=random -each depth=1 \
         -games 6 -board 4x4 {extra}"
    )
}

fn write_lines(path: &Path, lines: &[String]) {
    std::fs::write(path, lines.join("\n") + "\n").expect("writable");
}

#[test]
fn a_repeated_game_line_is_counted_once() {
    let dir = scratch("dup-state");
    let mut lines = state_lines(&dir);
    assert_eq!(lines.len(), 7, "a header and six games");
    lines.insert(3, lines[2].clone());
    write_lines(&dir.join("state.jsonl"), &lines);
    let (report, out) = run(&two_engines_six("-resume @dir/state.jsonl"), &dir);
    assert_eq!(report.records.len(), 6);
    for p in &report.standings.players {
        assert_eq!(p.score.games(), 6, "{}", p.name);
    }
    assert!(out.contains("line 4"), "no warning naming the line: {out}");
}

#[test]
fn conflicting_or_out_of_range_game_lines_are_refused_by_line() {
    let dir = scratch("bad-state");
    let lines = state_lines(&dir);
    let mut conflicting = lines.clone();
    conflicting.push(lines[2].replace("\"detail\":\"", "\"detail\":\"changed: "));
    let mut out_of_range = lines.clone();
    out_of_range.push(lines[2].replace("\"game\":2,", "\"game\":99,"));
    for (bad, line_no) in [(conflicting, 8), (out_of_range, 8)] {
        assert_ne!(bad[7], lines[2], "the line was changed");
        write_lines(&dir.join("state.jsonl"), &bad);
        let e = try_run(&two_engines_six("-resume @dir/state.jsonl"), &dir)
            .expect_err("refused")
            .to_string();
        assert!(e.contains(&format!("line {line_no}")), "{e}");
    }
}

#[test]
fn a_corrupt_line_that_was_completed_is_refused_and_nothing_appended() {
    let dir = scratch("corrupt-state");
    let mut lines = state_lines(&dir);
    lines.truncate(4);
    lines.push("{\"game\": garbage".to_string());
    write_lines(&dir.join("state.jsonl"), &lines);
    let before = std::fs::read(dir.join("state.jsonl")).expect("the file");
    let e = try_run(&two_engines_six("-resume @dir/state.jsonl"), &dir)
        .expect_err("refused")
        .to_string();
    assert!(e.contains("line 5"), "{e}");
    assert_eq!(
        std::fs::read(dir.join("state.jsonl")).expect("the file"),
        before
    );
}

#[test]
fn a_line_cut_short_by_a_crash_is_replaced_and_the_file_stays_readable() {
    let dir = scratch("cut-state");
    let lines = state_lines(&dir);
    let mut text = lines[..4].join("\n") + "\n";
    text.push_str(&lines[4][..lines[4].len() / 2]);
    std::fs::write(dir.join("state.jsonl"), text).expect("writable");
    let (report, _) = run(&two_engines_six("-resume @dir/state.jsonl"), &dir);
    assert_eq!(report.records.len(), 6);
    let (report, out) = run(&two_engines_six("-resume @dir/state.jsonl"), &dir);
    assert_eq!(report.records.len(), 6);
    assert!(out.contains("6 games already played"), "{out}");
}

// ---- Item 12: huge schedules and durations. ----

#[test]
fn a_huge_schedule_starts_at_once_with_flat_memory() {
    let dir = scratch("huge");
    let mut child = spawn_binary(
        &two_engines("-rounds 20000000 -resume @dir/state.jsonl -ratinginterval 0"),
        &dir,
    );
    // Wait until a few games are recorded, then interrupt.
    let started = Instant::now();
    let mut peak_kib = 0;
    loop {
        if let Some((_, hwm)) = memory_kib(child.id()) {
            peak_kib = peak_kib.max(hwm);
        }
        let games = std::fs::read_to_string(dir.join("state.jsonl"))
            .map_or(0, |t| t.lines().count().saturating_sub(1));
        if games >= 4 || child.try_wait().ok().flatten().is_some() {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no game in a minute"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = libc::pid_t::try_from(child.id()).expect("a pid fits");
    // SAFETY: sends SIGINT to our own child process.
    unsafe {
        libc::kill(pid, libc::SIGINT);
    }
    let output = child.wait_with_output().expect("the referee ends");
    assert_eq!(output.status.code(), Some(130), "{output:?}");
    assert!(
        peak_kib / 1024 < 24,
        "the referee grew to {} MiB",
        peak_kib / 1024
    );
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("of 40000000 scheduled"), "{text}");
}

#[test]
fn durations_beyond_the_range_are_refused_before_any_game() {
    let dir = scratch("durations");
    for extra in [
        "-each st=10000000000000000000",
        "-each tc=10000000000000000000+1",
        "-each tc=1+10000000000000000000",
        "-each timemargin=18446744073709551615",
        "-watchdog 1e30",
        "-watchdog 10000000000000000000",
        "-startuptimeout 10000000000000000000",
        "-grace 10000000000000000000",
    ] {
        let output = spawn_binary(&two_engines(extra), &dir)
            .wait_with_output()
            .expect("the referee ends");
        let error = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{extra}: {error}");
        assert!(!error.contains("panicked"), "{extra}: {error}");
        assert!(
            String::from_utf8_lossy(&output.stdout).is_empty(),
            "{extra}: something was played"
        );
    }
}

// ---- Items 6 and 13: arguments and messages. ----

#[test]
fn an_argument_that_is_not_utf8_is_refused_without_a_panic() {
    for program in [REFEREE, FAKE] {
        let output = Command::new(program)
            .arg(OsStr::from_bytes(b"-engine\xff"))
            .output()
            .expect("it runs");
        let error = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{program}: {error}");
        assert!(error.contains("UTF-8"), "{program}: {error}");
    }
}

#[test]
fn a_system_error_is_said_once() {
    let dir = scratch("os-error");
    let output = spawn_binary(&two_engines("-pgnout @dir"), &dir)
        .wait_with_output()
        .expect("the referee ends");
    let error = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{error}");
    assert_eq!(error.matches("os error").count(), 1, "{error}");
}

#[test]
fn a_missing_working_directory_is_named_as_such() {
    let dir = scratch("no-dir");
    let output = spawn_binary(
        "-engine cmd=@ dir=/nonexistent/place -engine cmd=@ -each depth=1",
        &dir,
    )
    .wait_with_output()
    .expect("the referee ends");
    let error = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{error}");
    assert!(error.contains("working directory"), "{error}");
}

#[test]
fn ctrl_c_during_start_up_exits_130() {
    let dir = scratch("ctrl-c-startup");
    let child = spawn_binary(
        "-engine cmd=@ arg=--startup-ms arg=5000 -engine cmd=@ -each depth=1",
        &dir,
    );
    std::thread::sleep(Duration::from_millis(300));
    let pid = libc::pid_t::try_from(child.id()).expect("a pid fits");
    // SAFETY: sends SIGINT to our own child process.
    unsafe {
        libc::kill(pid, libc::SIGINT);
    }
    let output = child.wait_with_output().expect("the referee ends");
    assert_eq!(output.status.code(), Some(130), "{output:?}");
}

#[test]
fn a_line_over_the_limit_is_cut_with_one_warning() {
    let dir = scratch("cut-warning");
    let output = spawn_binary(
        "-engine cmd=@ name=Noisy arg=--noise arg=1 -engine cmd=@ name=Quiet -each depth=1 \
         -games 2 -board 6x6 -grace 0.1",
        &dir,
    )
    .wait_with_output()
    .expect("the referee ends");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let error = String::from_utf8_lossy(&output.stderr);
    // One process of the noisy engine plays both games.
    assert_eq!(
        error.matches("wrote a line longer than 16 KiB").count(),
        1,
        "{error}"
    );
}
