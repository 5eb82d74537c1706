//! Matches between small fake engines (`src/bin/fake-engine.rs`) that play legal
//! moves or misbehave: every game must be credited to the right side with the right
//! reason, the match must finish, and no engine process may be left behind.

mod referee_support;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use konane::referee::sprt::Decision;
use konane::referee::{RunReport, Stop, Termination};
use konane::rules::{AnyPosition, Color, Opening, Variant};
use referee_support::{
    FAKE, REFEREE, args, assert_all, assert_none_left, check_replay, run, scratch, try_run, variant,
};

#[test]
fn a_legal_match_finishes_with_every_move_judged() {
    let dir = scratch("legal");
    let (report, out) = run(
        "-engine cmd=@ name=First -engine cmd=@ name=Random arg=--play arg=random \
         -each depth=1 -games 8 -board 6x6 -openings plies=3 -seed 11 -concurrency 2 \
         -pgnout @dir/games.pgn -json @dir/summary.json -ratinginterval 4",
        &dir,
    );
    assert_eq!(report.stop, Stop::Completed);
    assert_eq!(report.records.len(), 8);
    let numbers: Vec<u64> = report.records.iter().map(|r| r.number).collect();
    assert_eq!(numbers, (1..=8).collect::<Vec<_>>());
    for r in &report.records {
        assert_eq!(r.termination, Termination::Normal, "{}", r.detail);
        check_replay(r, variant("6x6"));
    }
    for pair in report.records.chunks(2) {
        assert_eq!(
            pair[0].opening, pair[1].opening,
            "a pair shares its opening"
        );
        assert_eq!(pair[0].black, pair[1].white, "a pair swaps colours");
    }
    assert!(out.contains("Seed: 11"), "{out}");
    assert!(out.contains("Finished game 8 of 8"), "{out}");
    assert!(out.contains("Score of First vs Random: "), "{out}");
    assert!(out.contains("Elo difference: "), "{out}");
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).expect("a PGN file");
    assert_eq!(pgn.matches("[Event ").count(), 8);
    for tag in [
        "[BoardSize \"6x6\"]",
        "[MultiJump \"straight\"]",
        "[FEN \"",
        "[Termination \"normal\"]",
    ] {
        assert!(pgn.contains(tag), "no {tag} in the PGN");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).expect("JSON"))
            .expect("valid JSON");
    let wins: u64 = json["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| p["wins"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(wins, 8);
    let game = &json["games"][0];
    assert_eq!(game["termination"], "normal");
    assert_eq!(
        game["moves"].as_array().map(Vec::len),
        Some(report.records[0].moves.len())
    );
    assert!(
        game["opening"]
            .as_str()
            .is_some_and(|o| o.ends_with(" w") || o.ends_with(" b"))
    );
}

#[test]
fn an_engine_that_crashes_at_its_first_go_loses_every_game_by_crash() {
    let dir = scratch("crash");
    let (report, out) = run(
        "-engine cmd=@ name=Good arg=--pid-dir arg=@dir/pids \
         -engine cmd=@ name=Crasher arg=--fault arg=crash arg=--pid-dir arg=@dir/pids \
         -each depth=1 -games 4 -board 4x4 -grace 0.2",
        &{
            std::fs::create_dir_all(dir.join("pids")).ok();
            dir.clone()
        },
    );
    assert_eq!(report.records.len(), 4);
    assert_all(&report, "Good", Termination::Crash);
    assert_eq!(report.standings.players[1].losses_by[3], 4);
    assert!(out.contains("Losses by fault: Crasher: 4 crash"), "{out}");
    assert_none_left(&dir);
}

#[test]
fn an_engine_that_never_answers_go_stalls_under_a_depth_limit() {
    let dir = scratch("hang-depth");
    std::fs::create_dir_all(dir.join("pids")).ok();
    let started = Instant::now();
    let (report, _) = run(
        "-engine cmd=@ name=Hanger arg=--fault arg=hang arg=--fault-at arg=2 \
         arg=--spawn-child arg=--pid-dir arg=@dir/pids \
         -engine cmd=@ name=Good arg=--pid-dir arg=@dir/pids \
         -each depth=3 -games 2 -board 4x4 -watchdog 0.3 -grace 0.2",
        &dir,
    );
    assert_all(&report, "Good", Termination::Stall);
    for r in &report.records {
        // The second go of each process hangs: one move each was made before it.
        assert!(r.detail.contains("watchdog"), "{}", r.detail);
        check_replay(r, variant("4x4"));
    }
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_none_left(&dir);
}

#[test]
fn an_engine_that_never_answers_go_on_a_clock_loses_on_time() {
    let dir = scratch("hang-clock");
    std::fs::create_dir_all(dir.join("pids")).ok();
    let (report, _) = run(
        "-engine cmd=@ name=Hanger arg=--fault arg=hang arg=--pid-dir arg=@dir/pids tc=0.2 \
         -engine cmd=@ name=Good tc=10 -games 2 -board 4x4 -grace 0.2",
        &dir,
    );
    assert_all(&report, "Good", Termination::TimeForfeit);
    assert_none_left(&dir);
}

#[test]
fn a_bestmove_after_the_move_time_loses_on_time() {
    let dir = scratch("late");
    let (report, _) = run(
        "-engine cmd=@ name=Late arg=--fault arg=late arg=--fault-ms arg=400 st=0.05 timemargin=50 \
         -engine cmd=@ name=Good depth=1 -games 2 -board 4x4 -grace 0.2",
        &dir,
    );
    assert_all(&report, "Good", Termination::TimeForfeit);
}

#[test]
fn a_clock_that_runs_out_loses_and_increments_keep_one_alive() {
    let dir = scratch("clock");
    // 60 ms a move against 0.3 s for the game: out of time at the fifth move (earlier
    // on a loaded machine, where sleeps overshoot, never later).
    let (report, _) = run(
        "-engine cmd=@ name=Slow arg=--think-ms arg=60 tc=0.3 \
         -engine cmd=@ name=Fast tc=10 -games 2 -board 8x8 -grace 0.2",
        &dir,
    );
    assert_all(&report, "Fast", Termination::TimeForfeit);
    for r in &report.records {
        let slow_moves = r.moves.len() / 2;
        assert!(
            (1..=5).contains(&slow_moves),
            "game {}: {} moves",
            r.number,
            r.moves.len()
        );
        assert!(r.detail.contains("Slow"), "{}", r.detail);
    }
    // With a 0.25 s increment a 50 ms thinker gains time on every move.
    let (report, _) = run(
        "-engine cmd=@ name=Slow arg=--think-ms arg=50 tc=0.5+0.25 \
         -engine cmd=@ name=Fast tc=10 -games 2 -board 6x6 -grace 0.2",
        &dir,
    );
    assert_all_normal(&report);
}

fn assert_all_normal(report: &RunReport) {
    for r in &report.records {
        assert_eq!(
            r.termination,
            Termination::Normal,
            "game {}: {}",
            r.number,
            r.detail
        );
    }
}

#[test]
fn an_illegal_move_loses_and_names_the_move() {
    let dir = scratch("illegal");
    let (report, _) = run(
        "-engine cmd=@ name=Good -engine cmd=@ name=Cheat arg=--fault arg=illegal arg=--fault-at arg=2 \
         -each depth=1 -games 2 -board 6x6 -grace 0.2",
        &dir,
    );
    assert_all(&report, "Good", Termination::IllegalMove);
    for r in &report.records {
        assert!(r.detail.starts_with("Cheat ("), "{}", r.detail);
        assert!(r.detail.contains("played '"), "{}", r.detail);
        check_replay(r, variant("6x6"));
    }
}

#[test]
fn garbage_output_loses_as_an_unreadable_move() {
    let dir = scratch("garbage");
    let (report, _) = run(
        "-engine cmd=@ name=Garbage arg=--fault arg=garbage -engine cmd=@ name=Good \
         -each depth=1 -games 2 -board 4x4 -grace 0.2",
        &dir,
    );
    assert_all(&report, "Good", Termination::IllegalMove);
    assert!(
        report.records[0].detail.contains("!!garbage!!"),
        "{}",
        report.records[0].detail
    );
}

#[test]
fn a_slow_starter_plays_normally() {
    let dir = scratch("slow-start");
    let (report, _) = run(
        "-engine cmd=@ name=Sleepy arg=--startup-ms arg=300 -engine cmd=@ name=Good \
         -each depth=1 -games 2 -board 4x4 -startuptimeout 3 -grace 0.2",
        &dir,
    );
    assert_eq!(report.records.len(), 2);
    assert_all_normal(&report);
}

#[test]
fn an_engine_that_never_finishes_the_handshake_is_named() {
    let dir = scratch("no-handshake");
    std::fs::create_dir_all(dir.join("pids")).ok();
    let started = Instant::now();
    let error = try_run(
        "-engine cmd=@ name=Mute arg=--no-handshake arg=--pid-dir arg=@dir/pids \
         -engine cmd=@ name=Good -each depth=1 -startuptimeout 0.2 -grace 0.2",
        &dir,
    )
    .expect_err("a mute engine cannot play");
    let message = error.to_string();
    assert!(message.contains("'Mute'"), "{message}");
    assert!(
        message.contains("ugi") && message.contains("uci"),
        "{message}"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_none_left(&dir);
}

#[test]
fn a_uci_only_engine_is_spoken_to_in_uci() {
    let dir = scratch("uci");
    let (report, _) = run(
        "-engine cmd=@ name=Uci arg=--uci-only tc=5 -engine cmd=@ name=Ugi tc=5 \
         -games 2 -board 6x6 -startuptimeout 1 -grace 0.2",
        &dir,
    );
    assert_all_normal(&report);
}

#[test]
fn no_readyok_loses_by_stall() {
    let dir = scratch("no-readyok");
    let (report, _) = run(
        "-engine cmd=@ name=Good -engine cmd=@ name=Deaf arg=--no-readyok \
         -each depth=1 -games 2 -board 4x4 -startuptimeout 0.2 -grace 0.2",
        &dir,
    );
    assert_all(&report, "Good", Termination::Stall);
    assert!(
        report.records[0].detail.contains("readyok"),
        "{}",
        report.records[0].detail
    );
}

#[test]
fn the_binomial_sprt_stops_a_one_sided_match() {
    // Every game is won by Good. elo1 = 200: p1 = 0.7597, each win adds
    // ln(0.7597 / 0.5) = 0.41836 and 2.94444 / 0.41836 = 7.04: the eighth game decides.
    let dir = scratch("sprt");
    let (report, out) = run(
        "-engine cmd=@ name=Good -engine cmd=@ name=Crasher arg=--fault arg=crash \
         -each depth=1 -games 100 -board 4x4 -grace 0.2 \
         -sprt elo0=0 elo1=200 alpha=0.05 beta=0.05 model=binomial",
        &dir,
    );
    assert_eq!(report.stop, Stop::Sprt("binomial SPRT", Decision::AcceptH1));
    assert_eq!(report.records.len(), 8);
    assert!(out.contains("H1 was accepted"), "{out}");
    assert!(
        out.contains("Match stopped by the binomial SPRT: H1 accepted"),
        "{out}"
    );
    // The other way round, the pair test accepts H0.
    let (report, _) = run(
        "-engine cmd=@ name=Crasher arg=--fault arg=crash -engine cmd=@ name=Good \
         -each depth=1 -games 100 -board 4x4 -grace 0.2 \
         -sprt elo0=0 elo1=200 model=pairs",
        &dir,
    );
    assert_eq!(report.stop, Stop::Sprt("pair SPRT", Decision::AcceptH0));
    assert!(report.records.len() < 100);
}

#[test]
fn a_tournament_reports_a_rank_table_and_crosstable() {
    let dir = scratch("tournament");
    let (report, out) = run(
        "-engine cmd=@ name=A -engine cmd=@ name=B arg=--play arg=random \
         -engine cmd=@ name=C arg=--play arg=greedy -each depth=1 -games 2 -rounds 2 \
         -board 5x5 -opening any -tournament round-robin",
        &dir,
    );
    assert_eq!(report.records.len(), 12);
    for r in &report.records {
        check_replay(
            r,
            Variant {
                opening: Opening::Any,
                ..variant("5x5")
            },
        );
    }
    assert!(out.contains("Rank Name"), "{out}");
    assert!(out.contains("Crosstable"), "{out}");
    let (report, _) = run(
        "-engine cmd=@ name=A -engine cmd=@ name=B -engine cmd=@ name=C \
         -each depth=1 -games 2 -board 4x4 -tournament gauntlet",
        &dir,
    );
    assert_eq!(report.records.len(), 4);
    assert!(
        report
            .records
            .iter()
            .all(|r| r.black == "A" || r.white == "A")
    );
}

#[test]
fn openings_from_a_file_are_each_played_with_both_colours() {
    let dir = scratch("openings-file");
    let after_c4_d4 = {
        let mut p = AnyPosition::start(variant("6x6"));
        p.play_text("c4").expect("a legal first removal on 6x6");
        p.play_text("d4").expect("a legal reply on 6x6");
        p.to_string()
    };
    std::fs::write(
        dir.join("openings.txt"),
        format!("# two openings\nstartpos\n\n{after_c4_d4}\n"),
    )
    .expect("writable");
    let (report, _) = run(
        "-engine cmd=@ name=A -engine cmd=@ name=B -each depth=1 -games 4 -board 6x6 \
         -openings file=@dir/openings.txt",
        &dir,
    );
    let labels: Vec<&str> = report.records.iter().map(|r| r.opening.label()).collect();
    assert_eq!(
        labels,
        [
            "startpos",
            "startpos",
            after_c4_d4.as_str(),
            after_c4_d4.as_str()
        ]
    );
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "bwbw/wbwb/bwbw/wbwb b\n").expect("writable");
    let error = try_run(
        "-engine cmd=@ -engine cmd=@ -each depth=1 -board 6x6 -openings file=@dir/bad.txt",
        &dir,
    )
    .expect_err("a 4x4 opening on a 6x6 board");
    assert!(error.to_string().contains("line 1"), "{error}");
}

fn game_moves(report: &RunReport) -> Vec<(u64, Color, Vec<String>)> {
    report
        .records
        .iter()
        .map(|r| {
            (
                r.number,
                r.winner,
                r.moves.iter().map(|m| m.text.clone()).collect(),
            )
        })
        .collect()
}

#[test]
fn shards_merge_into_the_whole_tournament() {
    let dir = scratch("shards");
    let base = "-engine cmd=@ name=A -engine cmd=@ name=B arg=--play arg=random \
                -engine cmd=@ name=C arg=--play arg=greedy -each depth=1 -games 2 -rounds 2 \
                -board 5x5 -openings plies=2 -seed 5";
    let (whole, _) = run(base, &dir);
    for i in 1..=3 {
        run(
            &format!("{base} -shard {i}/3 -json @dir/shard{i}.json"),
            &dir,
        );
    }
    let merge: Vec<String> = args(
        "merge -json @dir/all.json @dir/shard1.json @dir/shard2.json @dir/shard3.json",
        &dir,
    );
    let output = Command::new(REFEREE)
        .args(&merge)
        .output()
        .expect("the referee runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    assert!(
        text.contains("Merged 12 games of 12 scheduled from 3 files"),
        "{text}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("all.json")).expect("JSON"))
            .expect("valid JSON");
    assert_eq!(json["complete"], true);
    let merged: Vec<(u64, Vec<String>)> = json["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| {
            let moves = g["moves"].as_array().expect("moves");
            (
                g["game"].as_u64().unwrap_or(0),
                moves
                    .iter()
                    .filter_map(|m| m.as_str().map(str::to_string))
                    .collect(),
            )
        })
        .collect();
    let expected: Vec<(u64, Vec<String>)> = game_moves(&whole)
        .into_iter()
        .map(|(n, _, m)| (n, m))
        .collect();
    assert_eq!(
        merged, expected,
        "the shards played the same games as one run"
    );
}

#[test]
fn resume_plays_only_the_games_not_yet_in_the_state_file() {
    let dir = scratch("resume");
    let line = "-engine cmd=@ name=A -engine cmd=@ name=B arg=--play arg=random \
                -each depth=1 -games 2 -rounds 4 -board 5x5 -openings plies=2 -seed 9 \
                -resume @dir/state.jsonl";
    let (whole, _) = run(line, &dir);
    assert_eq!(whole.records.len(), 8);
    // Keep the header and three games, and half of a fourth as a crash would.
    let state = dir.join("state.jsonl");
    let text = std::fs::read_to_string(&state).expect("a state file");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 9);
    let cut = format!(
        "{}\n{}",
        lines[..4].join("\n"),
        &lines[4][..lines[4].len() / 2]
    );
    std::fs::write(&state, cut).expect("writable");
    let (resumed, out) = run("-resume @dir/state.jsonl", &dir);
    assert!(out.contains("Resuming: 3 games already played"), "{out}");
    assert!(out.contains("5 games to play of 8 scheduled"), "{out}");
    assert_eq!(game_moves(&resumed), game_moves(&whole));
    // A different tournament cannot continue this one.
    let error = try_run(&line.replace("-seed 9", "-seed 10"), &dir).expect_err("another seed");
    assert!(
        error.to_string().contains("different tournament"),
        "{error}"
    );
}

#[test]
fn ctrl_c_ends_the_match_cleanly_and_leaves_no_process() {
    let dir = scratch("ctrl-c");
    std::fs::create_dir_all(dir.join("pids")).ok();
    let line = "-engine cmd=@ name=Hanger arg=--fault arg=hang arg=--spawn-child \
                arg=--pid-dir arg=@dir/pids -engine cmd=@ name=Good arg=--pid-dir arg=@dir/pids \
                -each depth=1 -games 4 -board 4x4 -watchdog 60 -grace 0.2 -resume @dir/state.jsonl";
    let child = Command::new(REFEREE)
        .args(args(line, &dir))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the referee starts");
    // Wait until the game is under way: the probe's engines and the game's are started.
    let started = Instant::now();
    while std::fs::read_dir(dir.join("pids")).map_or(0, Iterator::count) < 5 {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the engines never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    let pid = libc::pid_t::try_from(child.id()).expect("a pid fits");
    // SAFETY: sends SIGINT to our own child process.
    unsafe {
        libc::kill(pid, libc::SIGINT);
    }
    let interrupted = Instant::now();
    let output = child.wait_with_output().expect("the referee ends");
    assert!(
        interrupted.elapsed() < Duration::from_secs(5),
        "took {:?}",
        interrupted.elapsed()
    );
    assert_eq!(output.status.code(), Some(130));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("Interrupted after 0 of 4 games; continue with -resume"),
        "{text}"
    );
    assert_none_left(&dir);
}

#[test]
fn the_binary_names_a_mute_engine_and_fails() {
    let dir = scratch("binary-error");
    let output = Command::new(REFEREE)
        .args(args(
            "-engine cmd=@ name=Mute arg=--no-handshake -engine cmd=@ -each depth=1 \
             -startuptimeout 0.2 -grace 0.1",
            &dir,
        ))
        .output()
        .expect("the referee runs");
    assert_eq!(output.status.code(), Some(2));
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("engine 'Mute' did not finish the handshake"),
        "{error}"
    );
    let output = Command::new(REFEREE)
        .args([
            "-engine",
            "cmd=/nonexistent/engine",
            "depth=1",
            "-engine",
            "cmd=x",
            "depth=1",
        ])
        .output()
        .expect("the referee runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("could not be started"));
}

#[test]
fn an_engine_that_cannot_be_started_again_loses_its_games_by_crash() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("once");
    // A shell script engine that starts once (the referee's first check), then fails.
    let script = dir.join("once.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\nif [ -e started ]; then exit 1; fi\n: > started\nexec {FAKE} \"$@\"\n"),
    )
    .expect("writable");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let (report, _) = run(
        "-engine cmd=./once.sh dir=@dir name=Once -engine cmd=@ name=Good \
         -each depth=1 -games 4 -board 4x4 -grace 0.2",
        &dir,
    );
    assert_eq!(report.records.len(), 4);
    assert_all(&report, "Good", Termination::Crash);
    for r in &report.records {
        assert!(r.detail.contains("could not be restarted"), "{}", r.detail);
        assert!(r.moves.is_empty());
    }
}
