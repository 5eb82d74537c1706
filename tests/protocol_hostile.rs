//! Hostile input against the real engine binary: huge lines, control bytes, invalid
//! UTF-8, absurd numbers, floods of junk. After each, the engine must still answer
//! `isready`, must not have crashed, and must have said at most one line per line of
//! junk.

// Test reports (seeds, measurements) go to the test harness's output.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod engine_driver;

use std::time::Duration;

use engine_driver::{Engine, Rng, assert_one_error};

/// Fails unless the engine is alive and answers `isready` with nothing before it.
#[track_caller]
fn still_ready(engine: &mut Engine) {
    let out = engine.sync();
    if !out.is_empty() {
        engine.fail(&format!("unexpected output before readyok: {out:?}"));
    }
    if !engine.is_running() {
        engine.fail("the engine is not running");
    }
}

/// Fails if an output line carries control characters (other than none at all).
#[track_caller]
fn assert_printable(engine: &Engine, lines: &[String]) {
    for line in lines {
        if line.chars().any(char::is_control) {
            engine.fail(&format!("control characters in output line {line:?}"));
        }
    }
}

#[test]
fn a_200_kb_line_gets_one_short_error() {
    let mut engine = Engine::start();
    let mut line = b"x".repeat(200 * 1024);
    line.push(b'\n');
    engine.send_raw(&line);
    let out = engine.sync();
    assert_one_error(&engine, "200 KB of x", &out, &["unknown command"]);
    assert!(
        out[0].len() < 200,
        "the error quotes only a little: {}",
        out[0].len()
    );

    // 200 KB of words after a real command: the command's parser copes.
    let words = "d5 ".repeat(70_000);
    for prefix in [
        "position startpos moves ",
        "go ",
        "setoption name ",
        "position fen ",
    ] {
        let mut line = prefix.as_bytes().to_vec();
        line.extend_from_slice(words.as_bytes());
        line.push(b'\n');
        engine.send_raw(&line);
        let mut out = Vec::new();
        if prefix == "go " {
            // A search: wait for its bestmove, since isready mid-search is answered at
            // once.
            engine.send("stop");
            out = engine.until_bestmove();
        }
        out.extend(engine.sync());
        let said: Vec<&String> = out
            .iter()
            .filter(|l| !l.starts_with("info depth") && !l.starts_with("bestmove"))
            .collect();
        // One line each: an error, or for `go` one warning naming the skipped words.
        assert_eq!(said.len(), 1, "{prefix}...: {said:?}");
        let kind = if prefix == "go " { "warning" } else { "error" };
        assert!(
            said[0].starts_with(&format!("info string {kind}: ")),
            "{said:?}"
        );
        assert!(said[0].len() < 1000, "{}", said[0].len());
        still_ready(&mut engine);
    }
}

#[test]
fn a_line_over_the_one_mib_cap_is_dropped_with_one_error() {
    let mut engine = Engine::start();
    let mut line = b"position startpos moves ".to_vec();
    line.extend(std::iter::repeat_n(b'a', 2 << 20));
    line.push(b'\n');
    engine.send_raw(&line);
    let out = engine.sync();
    assert_one_error(&engine, "2 MB line", &out, &["too long"]);
    // The cap is exactly 1 MiB: a line of 1 MiB is read, one byte more is not.
    for (length, needle) in [(1 << 20, "unknown command"), ((1 << 20) + 1, "too long")] {
        let mut line = vec![b'z'; length];
        line.push(b'\n');
        engine.send_raw(&line);
        let out = engine.sync();
        assert_one_error(&engine, "line at the cap", &out, &[needle]);
    }
    // The line after a long one is read normally.
    let mut bytes = vec![b'y'; 3 << 20];
    bytes.extend_from_slice(b"\nquery p1turn\n");
    engine.send_raw(&bytes);
    let out = engine.sync();
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!(out[1], "response true");
}

#[test]
fn control_bytes_nul_and_invalid_utf8_get_one_printable_error_each() {
    let mut engine = Engine::start();
    let lines: [&[u8]; 10] = [
        b"\x00",
        b"is\x00ready",
        b"\x01\x02\x03\x7f",
        b"\xff\xfe\xfd",
        b"\xc3\x28 \xe2\x82",
        b"\x1b[2J\x1b[31mred",
        b"position startpos moves d5\x1b[31m",
        b"setoption name Hash\x1b[0m value 3",
        b"position fen bwbw/wb\x07wb/bwbw/wbwb b",
        b"setoption name BoardSize value 8\x08x8",
    ];
    for line in lines {
        let mut bytes = line.to_vec();
        bytes.push(b'\n');
        engine.send_raw(&bytes);
        let out = engine.sync();
        assert_one_error(&engine, &String::from_utf8_lossy(line), &out, &[]);
        assert_printable(&engine, &out);
    }
    // A carriage return before the newline is dropped; tabs, form feeds and vertical
    // tabs separate words like spaces.
    engine.send_raw(b"isready\r\n");
    assert_eq!(engine.line(), "readyok");
    engine.send_raw(b"\tquery\x0cp1turn\x0b\n");
    assert_eq!(engine.line(), "response true");
    still_ready(&mut engine);
}

#[test]
fn absurd_numbers_are_refused_or_clamped_never_obeyed_blindly() {
    let mut engine = Engine::start();
    for (line, needle) in [
        ("setoption name Hash value 1e9", "Hash"),
        ("setoption name Hash value 99999999999999999999", "Hash"),
        ("setoption name Hash value -99999999999999999999", "Hash"),
        ("setoption name MultiPV value 4294967297", "MultiPV"),
        (
            "setoption name MoveOverhead value 99999999999",
            "MoveOverhead",
        ),
        ("setoption name Threads value 1000000", "Threads"),
        ("go perft 99999999999999999999", "perft"),
        ("bench 0", "bench"),
        (
            "setoption name BoardSize value 99999999999999999999x8",
            "BoardSize",
        ),
        ("setoption name BoardSize value 0x0", "BoardSize"),
    ] {
        let out = engine.ask(line);
        assert_one_error(&engine, line, &out, &[needle]);
    }
    // Huge search limits clamp (with a warning) and the search obeys stop.
    for line in [
        "go depth 99999999999999999999",
        "go nodes 99999999999999999999",
        "go movetime 99999999999999999999",
        "go wtime 99999999999999999999 btime 99999999999999999999 movestogo 99999999999999999999",
        "go mate 99999999999999999999",
    ] {
        engine.send(line);
        engine.read_until(|l| l.starts_with("info depth"));
        engine.send("stop");
        engine.until_bestmove();
        still_ready(&mut engine);
    }
    engine.send("go nodes -1");
    let out = engine.until_bestmove();
    assert!(
        out.iter().any(|l| l.starts_with("info string warning: ")),
        "{out:?}"
    );
    still_ready(&mut engine);
}

#[test]
fn a_hash_size_the_machine_cannot_give_is_refused_not_fatal() {
    // The largest Hash the option allows (64 GiB) is more memory than this machine has
    // (checked below, so the test never makes a big machine allocate it for real).
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let kib = |key: &str| -> Option<u64> {
        meminfo
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
    };
    let overcommit = std::fs::read_to_string("/proc/sys/vm/overcommit_memory").unwrap_or_default();
    let (Some(ram), Some(swap)) = (kib("MemTotal:"), kib("SwapTotal:")) else {
        eprintln!("skipped: no /proc/meminfo");
        return;
    };
    if ram + swap >= 60 << 20 || overcommit.trim() == "1" {
        eprintln!("skipped: this machine could grant a 64 GiB table");
        return;
    }
    let mut engine = Engine::start();
    engine.silent("setoption name Hash value 2");
    let out = engine.ask("setoption name Hash value 65536");
    assert_one_error(&engine, "Hash 65536", &out, &["Hash", "65536"]);
    // The old table is kept: the value reported is the old one.
    let out = engine.ask("setoption name Hash value 0");
    assert_one_error(&engine, "Hash 0", &out, &["stays 2"]);
    engine.send("go depth 4");
    engine.until_bestmove();
    still_ready(&mut engine);
}

/// A line of junk: random bytes, random words, misspelt commands, or real commands
/// with broken arguments (then `true`), each of which must give exactly one error.
fn junk(rng: &mut Rng) -> (Vec<u8>, bool) {
    const WORDS: [&str; 24] = [
        "isreadyy", "uciok", "readyok", "positon", "startpos", "fen", "moves", "depth", "10", "-1",
        "name", "value", "Hash", "bestmove", "info", "string", "e4", "d5d3", "goo", "stopp",
        "quitt", "ugiok", "\u{fffd}", "\u{202e}",
    ];
    const BROKEN: [&str; 12] = [
        "position fen ",
        "position startpos moves zz ",
        "position startpos moves d5 d5 ",
        "setoption name ",
        "setoption name Hash value ",
        "setoption name BoardSize value ",
        "setoption name Opening value ",
        "go perft ",
        "go depth ",
        "go movetime ",
        "query ",
        "bench ",
    ];
    let mut line = Vec::new();
    let kind = rng.below(4);
    match kind {
        0 => {
            for _ in 0..rng.below(60) {
                // Any byte but the end of line.
                let mut b = rng.below(256) as u8;
                if b == b'\n' {
                    b = b'?';
                }
                line.push(b);
            }
        }
        1 => {
            for _ in 0..=rng.below(8) {
                line.extend_from_slice(rng.pick(&WORDS).as_bytes());
                line.push(*rng.pick(b" \t\x0c"));
            }
        }
        2 => {
            line.extend_from_slice(rng.pick(&BROKEN).as_bytes());
            // A broken argument: a word that is never a valid value or move.
            line.extend_from_slice(rng.pick(&["x", "\u{1}", "-", "1e", "\u{fffd}q"]).as_bytes());
            line.extend_from_slice(rng.pick(&["", " 7", " zz", " \u{7f}"]).as_bytes());
        }
        _ => {
            for _ in 0..=rng.below(10) {
                let len = 1 + rng.below(6);
                for _ in 0..len {
                    line.push(b'!' + rng.below(94) as u8);
                }
                line.push(b' ');
            }
        }
    }
    (line, kind == 2)
}

/// Whether the engine reads `line` as a command word somewhere (so it is not junk).
fn has_command_word(line: &str) -> bool {
    line.split(char::is_whitespace)
        .any(konane::protocol::is_command_word)
}

#[test]
fn thousands_of_junk_lines_get_at_most_one_line_each_and_the_engine_stays_ready() {
    let mut engine = Engine::start();
    let mut rng = Rng::new(20_251_129);
    let mut sent = 0;
    let mut batch = Vec::new();
    let mut expected = Vec::new();
    while sent < 3000 {
        let (line, broken_command) = junk(&mut rng);
        let text = String::from_utf8_lossy(&line).into_owned();
        if !broken_command && has_command_word(&text) {
            continue;
        }
        // Each junk line is followed by `isready`, so what it printed is known exactly.
        batch.extend_from_slice(&line);
        batch.extend_from_slice(b"\nisready\n");
        let blank = text.trim_end_matches('\r').trim().is_empty();
        expected.push((text, usize::from(!blank)));
        sent += 1;
        if batch.len() > 32 * 1024 {
            engine.send_raw(&batch);
            batch.clear();
        }
    }
    engine.send_raw(&batch);
    for (text, lines) in &expected {
        let mut out = engine.read_until_within(Duration::from_secs(30), |l| l == "readyok");
        out.pop();
        if out.len() != *lines || !out.iter().all(|l| l.starts_with("info string error: ")) {
            engine.fail(&format!(
                "junk {text:?} should give {lines} error line(s), gave {out:?}"
            ));
        }
        assert_printable(&engine, &out);
    }
    still_ready(&mut engine);
    engine.send("quit");
    engine.read_to_end();
    engine.expect_clean_exit();
}

#[test]
fn junk_during_a_search_neither_stops_nor_breaks_it() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    engine.read_until(|l| l.starts_with("info depth"));
    let mut rng = Rng::new(7);
    let mut errors = 0;
    for _ in 0..300 {
        let (line, _) = junk(&mut rng);
        if has_command_word(&String::from_utf8_lossy(&line)) {
            continue;
        }
        let mut bytes = line;
        bytes.push(b'\n');
        engine.send_raw(&bytes);
        errors += 1;
    }
    let out = engine.collect_for(Duration::from_millis(300));
    assert!(!out.iter().any(|l| l.starts_with("bestmove")), "{out:?}");
    assert!(
        out.iter()
            .filter(|l| l.starts_with("info string error"))
            .count()
            <= errors,
        "{out:?}"
    );
    engine.send("stop");
    engine.until_bestmove();
    still_ready(&mut engine);
}

#[test]
fn the_engine_survives_its_output_being_closed() {
    // A GUI that goes away: the engine must end, not spin or panic.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_konane"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    {
        use std::io::Write;
        let stdin = child.stdin.as_mut().unwrap();
        // The engine may already be gone, so writes may fail.
        let _ = stdin.write_all(b"ugi\ngo depth 6\nisready\n");
        let _ = stdin.flush();
    }
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("the engine kept running with nobody reading its output");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut stderr = String::new();
    use std::io::Read;
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(status.success(), "{status}: {stderr}");
}
