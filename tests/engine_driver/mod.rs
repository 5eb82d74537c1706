//! Drives the real `konane` binary through its text protocol, for the `protocol_*`
//! integration tests.
//!
//! Every read has a timeout, so a hung engine fails the test instead of hanging CI;
//! every failure prints the transcript (what was sent, what came back, what the engine
//! wrote to stderr); the child is killed when the driver is dropped.

// Each test binary uses a different part of the driver.
#![allow(dead_code)]
// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use konane::rules::{AnyPosition, BoardSize, MultiJump, Opening, Variant};

/// How long any single wait may take before the engine counts as hung. Generous: the
/// machine running the tests may be busy, and a healthy engine answers in milliseconds.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// What the next read found.
#[derive(Debug, PartialEq, Eq)]
pub enum Next {
    /// A line of output, without its end of line.
    Line(String),
    /// Nothing arrived in time.
    Timeout,
    /// The engine closed its output.
    Closed,
}

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    closed: bool,
    stderr: Arc<Mutex<Vec<u8>>>,
    transcript: Vec<String>,
}

impl Engine {
    /// Starts the engine reading protocol lines from its standard input.
    pub fn start() -> Engine {
        Engine::spawn(&[], true)
    }

    /// Starts the engine in one-shot mode: each argument is one protocol line.
    pub fn with_args(args: &[&str]) -> Engine {
        Engine::spawn(args, false)
    }

    fn spawn(args: &[&str], piped_input: bool) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_konane"))
            .args(args)
            .stdin(if piped_input {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("cannot start the konane binary");
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut stderr_pipe = child.stderr.take().expect("stderr is piped");
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut line = Vec::new();
            loop {
                line.clear();
                match reader.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        if line.last() == Some(&b'\n') {
                            line.pop();
                        }
                        let text = String::from_utf8(line.clone()).unwrap_or_else(|_| {
                            format!("<not UTF-8: {:?}>", String::from_utf8_lossy(&line))
                        });
                        if sender.send(text).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n) = stderr_pipe.read(&mut buffer) {
                if n == 0 {
                    return;
                }
                sink.lock().unwrap().extend_from_slice(&buffer[..n]);
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines,
            closed: false,
            stderr,
            transcript: Vec::new(),
        }
    }

    /// Fails the test, showing the transcript so far.
    #[track_caller]
    pub fn fail(&self, message: &str) -> ! {
        let shown: Vec<&String> = self.transcript.iter().rev().take(80).collect();
        let mut text = String::new();
        for line in shown.into_iter().rev() {
            let mut line = line.clone();
            if line.len() > 300 {
                let mut cut = 300;
                while !line.is_char_boundary(cut) {
                    cut -= 1;
                }
                line.truncate(cut);
                line.push_str("...");
            }
            text.push_str(&line);
            text.push('\n');
        }
        let stderr = String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned();
        panic!(
            "{message}\n--- transcript (last 80 lines; '>' sent, '<' received) ---\n{text}--- stderr ---\n{stderr}"
        );
    }

    /// Sends one line (an end of line is added).
    #[track_caller]
    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.write(&bytes);
    }

    /// Sends bytes as they are (no end of line added), in one write.
    #[track_caller]
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).into_owned();
        self.transcript
            .push(format!("> [{} raw bytes] {shown:?}", bytes.len()));
        self.write(bytes);
    }

    #[track_caller]
    fn write(&mut self, bytes: &[u8]) {
        let result = match self.stdin.as_mut() {
            Some(stdin) => stdin.write_all(bytes).and_then(|()| stdin.flush()),
            None => self.fail("writing after the input was closed"),
        };
        if let Err(e) = result {
            self.fail(&format!("cannot write to the engine: {e}"));
        }
    }

    /// Closes the engine's input (end of input).
    pub fn close_input(&mut self) {
        self.transcript.push("> <end of input>".into());
        self.stdin = None;
    }

    /// The next line, waiting at most `timeout`.
    pub fn next(&mut self, timeout: Duration) -> Next {
        if self.closed {
            return Next::Closed;
        }
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(format!("< {line}"));
                Next::Line(line)
            }
            Err(RecvTimeoutError::Timeout) => Next::Timeout,
            Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                self.transcript.push("< <end of output>".into());
                Next::Closed
            }
        }
    }

    /// The next line; fails the test when none comes within [`TIMEOUT`].
    #[track_caller]
    pub fn line(&mut self) -> String {
        match self.next(TIMEOUT) {
            Next::Line(line) => line,
            Next::Timeout => self.fail(&format!("no output within {TIMEOUT:?}")),
            Next::Closed => self.fail("the engine closed its output"),
        }
    }

    /// Lines up to and including the first that satisfies `done`; fails the test when
    /// it does not come within `timeout` in all.
    #[track_caller]
    pub fn read_until_within(
        &mut self,
        timeout: Duration,
        mut done: impl FnMut(&str) -> bool,
    ) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next(left) {
                Next::Line(line) => {
                    let finished = done(&line);
                    lines.push(line);
                    if finished {
                        return lines;
                    }
                }
                Next::Timeout => self.fail(&format!(
                    "the expected line did not come within {timeout:?}"
                )),
                Next::Closed => self.fail("the engine closed its output before the expected line"),
            }
        }
    }

    /// [`read_until_within`](Self::read_until_within) with the default timeout.
    #[track_caller]
    pub fn read_until(&mut self, done: impl FnMut(&str) -> bool) -> Vec<String> {
        self.read_until_within(TIMEOUT, done)
    }

    /// Lines up to and including `bestmove ...`.
    #[track_caller]
    pub fn until_bestmove(&mut self) -> Vec<String> {
        self.read_until(|l| l.starts_with("bestmove"))
    }

    /// Sends `isready` and returns the lines that came before `readyok`.
    #[track_caller]
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends `line`, then `isready`, and returns what `line` printed.
    #[track_caller]
    pub fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.sync()
    }

    /// Sends `line` and `isready` and fails unless `line` printed nothing.
    #[track_caller]
    pub fn silent(&mut self, line: &str) {
        let out = self.ask(line);
        if !out.is_empty() {
            self.fail(&format!("'{line}' should print nothing, printed {out:?}"));
        }
    }

    /// Everything that arrives within `period` (which must pass in full).
    pub fn collect_for(&mut self, period: Duration) -> Vec<String> {
        let deadline = Instant::now() + period;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return lines;
            }
            match self.next(left) {
                Next::Line(line) => lines.push(line),
                Next::Timeout => return lines,
                Next::Closed => {
                    std::thread::sleep(left);
                    return lines;
                }
            }
        }
    }

    /// Every line until the engine closes its output; fails the test if that takes
    /// longer than `timeout`.
    #[track_caller]
    pub fn read_to_end_within(&mut self, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next(left) {
                Next::Line(line) => lines.push(line),
                Next::Closed => return lines,
                Next::Timeout => self.fail(&format!(
                    "the engine still writes or waits after {timeout:?}"
                )),
            }
        }
    }

    /// [`read_to_end_within`](Self::read_to_end_within) with the default timeout.
    #[track_caller]
    pub fn read_to_end(&mut self) -> Vec<String> {
        self.read_to_end_within(TIMEOUT)
    }

    /// Waits for the process to exit, at most `timeout`; fails the test if it does not.
    #[track_caller]
    pub fn wait_exit_within(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.transcript.push(format!("< <exited: {status}>"));
                    return status;
                }
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                Ok(None) => self.fail(&format!("the engine did not exit within {timeout:?}")),
                Err(e) => self.fail(&format!("cannot wait for the engine: {e}")),
            }
        }
    }

    /// Waits for the process to exit and fails the test unless it exits with status 0.
    #[track_caller]
    pub fn expect_clean_exit(&mut self) {
        let status = self.wait_exit_within(TIMEOUT);
        if !status.success() {
            self.fail(&format!("the engine exited with {status}"));
        }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// What the engine wrote to stderr so far.
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Fails unless `lines` is exactly one `info string error: ...` line containing every
/// one of `needles`.
#[track_caller]
pub fn assert_one_error(engine: &Engine, what: &str, lines: &[String], needles: &[&str]) {
    let ok = lines.len() == 1
        && lines[0].starts_with("info string error: ")
        && needles.iter().all(|n| lines[0].contains(n));
    if !ok {
        engine.fail(&format!(
            "'{what}' should give one 'info string error:' line containing {needles:?}, gave {lines:?}"
        ));
    }
}

/// A score as `info` reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// `score cp <x>`.
    Cp(i64),
    /// `score mate <n>`.
    Mate(i64),
}

/// One `info depth ...` line, read strictly in the documented field order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: Option<u32>,
    pub score: Score,
    pub nodes: u64,
    pub nps: u64,
    pub time: u64,
    pub hashfull: u32,
    pub pv: Vec<String>,
}

/// Reads `info depth <d> seldepth <d> [multipv <k>] score cp <x>|mate <n> nodes <n>
/// nps <n> time <ms> hashfull <permille> pv <moves>`.
pub fn parse_info(line: &str) -> Result<Info, String> {
    let words: Vec<&str> = line.split(' ').collect();
    let mut at = 0;
    let mut word = |expected: &str| -> Result<(), String> {
        match words.get(at) {
            Some(w) if *w == expected => {
                at += 1;
                Ok(())
            }
            other => Err(format!(
                "expected '{expected}', found {other:?} in '{line}'"
            )),
        }
    };
    word("info")?;
    word("depth")?;
    let number = |at: &mut usize| -> Result<i64, String> {
        let w = words
            .get(*at)
            .ok_or_else(|| format!("missing number in '{line}'"))?;
        *at += 1;
        w.parse()
            .map_err(|_| format!("'{w}' is not a number in '{line}'"))
    };
    let depth = number(&mut at)?;
    let expect = |at: &mut usize, expected: &str| -> Result<(), String> {
        if words.get(*at) == Some(&expected) {
            *at += 1;
            Ok(())
        } else {
            Err(format!(
                "expected '{expected}' at word {at}, found {:?} in '{line}'",
                words.get(*at)
            ))
        }
    };
    expect(&mut at, "seldepth")?;
    let seldepth = number(&mut at)?;
    let multipv = if words.get(at) == Some(&"multipv") {
        at += 1;
        Some(number(&mut at)? as u32)
    } else {
        None
    };
    expect(&mut at, "score")?;
    let kind = words.get(at).copied();
    at += 1;
    let value = number(&mut at)?;
    let score = match kind {
        Some("cp") => Score::Cp(value),
        Some("mate") => Score::Mate(value),
        other => return Err(format!("score kind {other:?} in '{line}'")),
    };
    expect(&mut at, "nodes")?;
    let nodes = number(&mut at)?;
    expect(&mut at, "nps")?;
    let nps = number(&mut at)?;
    expect(&mut at, "time")?;
    let time = number(&mut at)?;
    expect(&mut at, "hashfull")?;
    let hashfull = number(&mut at)?;
    expect(&mut at, "pv")?;
    let pv: Vec<String> = words[at..].iter().map(|w| (*w).to_string()).collect();
    let non_negative = [depth, seldepth, nodes, nps, time, hashfull];
    if non_negative.iter().any(|&n| n < 0) || hashfull > 1000 {
        return Err(format!("a field is out of range in '{line}'"));
    }
    if pv.is_empty() || pv.iter().any(String::is_empty) {
        return Err(format!("empty pv or empty move in '{line}'"));
    }
    Ok(Info {
        depth: depth as u32,
        seldepth: seldepth as u32,
        multipv,
        score,
        nodes: nodes as u64,
        nps: nps as u64,
        time: time as u64,
        hashfull: hashfull as u32,
        pv,
    })
}

/// The rules with these option values.
pub fn variant(size: &str, opening: &str, multi_jump: &str) -> Variant {
    Variant {
        size: size.parse::<BoardSize>().expect("a board size"),
        opening: opening.parse::<Opening>().expect("an opening rule"),
        multi_jump: multi_jump.parse::<MultiJump>().expect("a multi-jump rule"),
    }
}

/// The position after playing `moves` from the start of `variant`.
pub fn start_after(variant: Variant, moves: &[&str]) -> AnyPosition {
    let mut position = AnyPosition::start(variant);
    for m in moves {
        position.play_text(m).expect("a legal move");
    }
    position
}

/// Fails unless `line` is a legal `bestmove` for `position`, in the two-token form (or
/// four with `ponder` when `ponder_allowed`), and returns the move and the ponder move.
#[track_caller]
pub fn check_bestmove(
    engine: &Engine,
    line: &str,
    position: &AnyPosition,
    ponder_allowed: bool,
) -> (String, Option<String>) {
    let words: Vec<&str> = line.split(' ').collect();
    let shape_ok = words.first() == Some(&"bestmove")
        && (words.len() == 2 || (ponder_allowed && words.len() == 4 && words[2] == "ponder"));
    if !shape_ok {
        engine.fail(&format!("malformed bestmove line '{line}'"));
    }
    let best = words[1].to_string();
    if !position.legal_move_texts().contains(&best) {
        engine.fail(&format!(
            "bestmove '{best}' is not a legal move of {position} (legal: {:?})",
            position.legal_move_texts()
        ));
    }
    let ponder = words.get(3).map(|p| (*p).to_string());
    if let Some(reply) = &ponder {
        let mut after = *position;
        after.play_text(&best).expect("checked legal above");
        if !after.legal_move_texts().contains(reply) {
            engine.fail(&format!("ponder move '{reply}' is not legal after {best}"));
        }
    }
    (best, ponder)
}

/// A small deterministic random number generator (SplitMix64), so that the junk the
/// tests send is the same on every run.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}
