//! A seeded protocol fuzzer: real commands mutated (words dropped, doubled, swapped,
//! replaced by hostile ones, bytes inserted, lines cut) and random bytes, sent in
//! batches to the real engine, searches included. Whatever comes, the engine must not
//! panic, must answer every `go` that starts a search with exactly one `bestmove`, and
//! must stay ready.
//!
//! `cargo test --test protocol_fuzz` runs a few thousand lines; the soak
//! `KONANE_FUZZ_LINES=200000 cargo test --release --test protocol_fuzz -- --ignored`
//! runs as many as asked, with a seed per run (`KONANE_FUZZ_SEED`) it prints.

// Test reports (seeds, measurements) go to the test harness's output.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod engine_driver;

use std::time::Duration;

use engine_driver::{Engine, Rng};
use konane::protocol::{Command, Go, parse};

/// Well-formed lines the mutations start from.
const TEMPLATES: [&str; 24] = [
    "position startpos moves d5 d4 d7d5",
    "position startpos moves e4 e5 c5e5",
    "position fen bwbwbw/wbwbwb/bwbwbw/wbwbwb/bwbwbw/wbwbwb b moves c4 c3",
    "position fen b3/4/4/2w1 b",
    "go depth 3",
    "go movetime 20",
    "go nodes 3000",
    "go p1time 200 p2time 200 p1inc 5 p2inc 5",
    "go btime 100 wtime 100 movestogo 3",
    "go infinite",
    "go ponder p1time 100 p2time 100",
    "go mate 2",
    "go depth 2 searchmoves d7d5 b5d5",
    "go solve movetime 30",
    "stop",
    "ponderhit",
    "isready",
    "setoption name MultiPV value 3",
    "setoption name Ponder value true",
    "setoption name MoveOverhead value 10",
    "setoption name BoardSize value 6x6",
    "setoption name MultiJump value turning",
    "setoption name Opening value any",
    "query result",
];

/// Words a mutation puts in.
const HOSTILE: [&str; 22] = [
    "-1",
    "0",
    "99999999999999999999",
    "1e9",
    "-9223372036854775808",
    "\u{0}",
    "\u{1b}[2J",
    "\u{fffd}",
    "\u{202e}",
    "moves",
    "fen",
    "startpos",
    "value",
    "name",
    "depth",
    "movetime",
    "infinite",
    "searchmoves",
    "a1",
    "p16",
    "d5d3d1",
    "16x16",
];

/// A mutated copy of a template, or random bytes.
fn hostile_line(rng: &mut Rng) -> Vec<u8> {
    if rng.below(8) == 0 {
        return (0..rng.below(80))
            .map(|_| match rng.below(256) as u8 {
                b'\n' => b'?',
                b => b,
            })
            .collect();
    }
    let mut words: Vec<String> = rng
        .pick(&TEMPLATES)
        .split(' ')
        .map(str::to_string)
        .collect();
    for _ in 0..rng.below(4) {
        let at = rng.below(words.len().max(1));
        match rng.below(5) {
            0 if words.len() > 1 => {
                words.remove(at);
            }
            1 => {
                let word = words[at].clone();
                words.insert(at, word);
            }
            2 => {
                let other = rng.below(words.len());
                words.swap(at, other);
            }
            3 => words.insert(at, (*rng.pick(&HOSTILE)).to_string()),
            _ => words[at] = (*rng.pick(&HOSTILE)).to_string(),
        }
    }
    let mut line = words.join(" ").into_bytes();
    if rng.below(10) == 0 {
        line.truncate(rng.below(line.len() + 1));
    }
    if rng.below(10) == 0 {
        let at = rng.below(line.len() + 1);
        line.insert(at, [0xff, 0xc3, b'\t', b'\r', 0x0c][rng.below(5)]);
    }
    line
}

/// What the engine will do with `line`: `None` to leave it out of the run (it would
/// end the engine, or start long or chatty jobs that prove nothing here), else whether
/// it starts a search (and so owes one `bestmove`).
fn classify(line: &[u8]) -> Option<bool> {
    let text = String::from_utf8_lossy(line);
    let text = text.strip_suffix('\r').unwrap_or(&text);
    match parse(text) {
        Ok(Some(Command::Go(Go::Search { .. }))) => Some(true),
        Ok(Some(
            Command::Quit | Command::Bench(_) | Command::Go(Go::Perft(_)) | Command::Hello(_),
        )) => None,
        // Tables and threads are tested elsewhere; here they would only slow the run.
        Ok(Some(Command::SetOption { name, .. }))
            if ["hash", "solverhash", "threads"]
                .iter()
                .any(|n| name.replace(' ', "").eq_ignore_ascii_case(n)) =>
        {
            None
        }
        _ => Some(false),
    }
}

/// Sends `lines` hostile lines from `seed` in batches, each ended by `stop`, and checks
/// after each batch that every search was answered once.
fn fuzz(seed: u64, lines: usize) {
    let mut engine = Engine::start();
    let mut rng = Rng::new(seed);
    let mut owed = 0usize;
    let mut answered = 0usize;
    let mut sent = 0;
    while sent < lines {
        let mut batch = Vec::new();
        for _ in 0..40 {
            let line = hostile_line(&mut rng);
            let Some(search) = classify(&line) else {
                continue;
            };
            owed += usize::from(search);
            batch.extend_from_slice(&line);
            batch.push(b'\n');
            sent += 1;
        }
        batch.extend_from_slice(b"stop\n");
        engine.send_raw(&batch);
        while answered < owed {
            let line =
                engine.read_until_within(Duration::from_secs(30), |l| l.starts_with("bestmove"));
            answered += 1;
            if let Some(bad) = line.iter().find(|l| l.contains("panicked")) {
                engine.fail(&format!("seed {seed}: {bad}"));
            }
        }
    }
    engine.send("stop");
    let late = engine.sync();
    if late.iter().any(|l| l.starts_with("bestmove")) {
        engine.fail(&format!(
            "seed {seed}: more bestmoves than searches: {late:?}"
        ));
    }
    assert!(engine.is_running(), "seed {seed}");
    assert!(
        !engine.stderr().contains("panicked"),
        "seed {seed}: {}",
        engine.stderr()
    );
    engine.send("quit");
    engine.read_to_end();
    engine.expect_clean_exit();
}

#[test]
fn thousands_of_mutated_lines_never_break_the_engine() {
    fuzz(20_261_130, 3000);
}

#[test]
#[ignore = "a long soak: see tests/README.md"]
fn soak_with_many_mutated_lines() {
    let lines = std::env::var("KONANE_FUZZ_LINES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100_000);
    let seed = std::env::var("KONANE_FUZZ_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_secs())
        });
    println!("fuzz seed {seed}, {lines} lines");
    fuzz(seed, lines);
}
