//! Measures how long the engine takes to answer `stop`, `quit` and the end of a
//! `movetime`, as a GUI sees it, on middle games of several boards, both multi-jump
//! rules and several thread counts (issue 11: every answer within 10 ms).
//!
//! ```text
//! cargo build --release && cargo run --release --example latency -- [options]
//!
//! options:
//!   --engine PATH      the engine binary (default target/release/konane)
//!   --boards LIST      board sizes (default 6x6,8x8,12x12,16x16)
//!   --threads LIST     thread counts (default 1,2,8,64)
//!   --repeat N         measurements of each kind per board, rule and thread count (default 3)
//!   --think MS         how long a search runs before `stop`/`quit` (default 200)
//!   --kinds LIST       what to measure (default stop,quit,movetime,solve-stop,solve-movetime)
//! ```
//!
//! Kinds: `stop` after `go infinite`, `quit` after `go infinite` (until the process has
//! exited), `movetime` (`go movetime`, the time past it), `solve stop` (`stop` during
//! `go solve`) and `solve movetime` (`go solve movetime`, the time past it). The time
//! runs from the moment the command is written to the moment the answer is read, so it
//! includes the pipes and this program's own wake-up (its reading thread is the
//! referee's, which asks for prompt wake-ups as the engine's threads do).

// A developer's tool run by hand: its output is written with the printing macros.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::thread;
use std::time::{Duration, Instant};

use konane::client::{EngineProcess, Line, ProcessSpec};

/// How long any answer may take before the measurement gives up on the engine.
const GIVE_UP: Duration = Duration::from_secs(30);

/// Nodes of each search that plays the moves leading to the measured middle game.
const SETUP_NODES: u32 = 2_000;

struct Options {
    engine: String,
    boards: Vec<String>,
    threads: Vec<u32>,
    repeat: usize,
    think: Duration,
    kinds: Vec<Kind>,
}

/// Never raised: the measurements are not interrupted.
static NEVER: AtomicBool = AtomicBool::new(false);

/// A running engine, through the client the referee uses: its reader thread stamps each
/// line with the time it was read (and asks for prompt wake-ups, see `konane::prompt`:
/// a reader that woke late would be measured, not the engine).
struct Engine {
    process: EngineProcess,
}

impl Engine {
    fn start(path: &str) -> Result<Engine, String> {
        let spec = ProcessSpec {
            cmd: path.into(),
            args: Vec::new(),
            dir: None,
        };
        let process = EngineProcess::spawn(&spec, "engine", false)
            .map_err(|e| format!("cannot start {path}: {e}"))?;
        Ok(Engine { process })
    }

    /// Writes one line; returns when it was written.
    fn send(&mut self, line: &str) -> Result<Instant, String> {
        self.process
            .send(line)
            .map_err(|e| format!("the engine stopped reading: {e}"))?;
        Ok(Instant::now())
    }

    /// Reads until a line starting with `word`; returns it, with when it was read.
    fn until(&mut self, word: &str) -> Result<Line, String> {
        let deadline = Instant::now() + GIVE_UP;
        loop {
            let line = self
                .process
                .recv(deadline, &NEVER)
                .map_err(|e| format!("waiting for {word}: {e}"))?;
            if line.text.split_whitespace().next() == Some(word) {
                return Ok(line);
            }
        }
    }

    fn sync(&mut self) -> Result<(), String> {
        self.send("isready")?;
        self.until("readyok").map(drop)
    }

    /// Sets the board, rule and threads and plays a middle game by short searches.
    fn middle_game(&mut self, board: &str, rule: &str, threads: u32) -> Result<(), String> {
        self.send("ugi")?;
        self.until("ugiok")?;
        self.send(&format!("setoption name BoardSize value {board}"))?;
        self.send(&format!("setoption name MultiJump value {rule}"))?;
        self.send(&format!("setoption name Threads value {threads}"))?;
        let squares: usize = board
            .split('x')
            .filter_map(|n| n.parse::<usize>().ok())
            .product();
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..squares / 6 {
            let listed = moves.join(" ");
            self.send(&format!("position startpos moves {listed}"))?;
            self.send(&format!("go nodes {SETUP_NODES}"))?;
            let line = self.until("bestmove")?;
            match line.text.split_whitespace().nth(1) {
                Some(m) if m != "0000" => moves.push(m.to_string()),
                _ => break,
            }
        }
        self.send(&format!("position startpos moves {}", moves.join(" ")))?;
        self.sync()
    }
}

/// One kind of measurement: what is sent, and how the answer's lateness is read.
#[derive(Clone, Copy)]
enum Kind {
    Stop,
    Quit,
    MoveTime,
    SolveStop,
    SolveMoveTime,
}

impl Kind {
    const ALL: [Kind; 5] = [
        Kind::Stop,
        Kind::Quit,
        Kind::MoveTime,
        Kind::SolveStop,
        Kind::SolveMoveTime,
    ];

    fn name(self) -> &'static str {
        match self {
            Kind::Stop => "stop",
            Kind::Quit => "quit",
            Kind::MoveTime => "movetime",
            Kind::SolveStop => "solve-stop",
            Kind::SolveMoveTime => "solve-movetime",
        }
    }

    fn from_name(name: &str) -> Result<Kind, String> {
        Kind::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or(format!("unknown kind {name}"))
    }

    /// How late the answer came on `engine`, set up at a middle game.
    fn measure(self, engine: &mut Engine, think: Duration) -> Result<Duration, String> {
        let ms = think.as_millis();
        match self {
            Kind::Stop | Kind::SolveStop => {
                let go = if matches!(self, Kind::Stop) {
                    "go infinite"
                } else {
                    "go solve"
                };
                engine.send(go)?;
                thread::sleep(think);
                let sent = engine.send("stop")?;
                let answer = engine.until("bestmove")?;
                engine.sync()?;
                Ok(answer.at.saturating_duration_since(sent))
            }
            Kind::MoveTime | Kind::SolveMoveTime => {
                let go = if matches!(self, Kind::MoveTime) {
                    format!("go movetime {ms}")
                } else {
                    format!("go solve movetime {ms}")
                };
                let sent = engine.send(&go)?;
                let answer = engine.until("bestmove")?;
                engine.sync()?;
                Ok(answer
                    .at
                    .saturating_duration_since(sent)
                    .saturating_sub(think))
            }
            Kind::Quit => {
                engine.send("go infinite")?;
                thread::sleep(think);
                let sent = engine.send("quit")?;
                loop {
                    if engine.process.exited() {
                        return Ok(sent.elapsed());
                    }
                    if sent.elapsed() > GIVE_UP {
                        return Err("the engine did not exit after quit".into());
                    }
                    thread::sleep(Duration::from_micros(200));
                }
            }
        }
    }
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        engine: "target/release/konane".into(),
        boards: ["6x6", "8x8", "12x12", "16x16"].map(String::from).to_vec(),
        threads: vec![1, 2, 8, 64],
        repeat: 3,
        think: Duration::from_millis(200),
        kinds: Kind::ALL.to_vec(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        let number = |v: &str| v.parse::<u64>().map_err(|e| format!("{flag} {v}: {e}"));
        match flag.as_str() {
            "--engine" => options.engine = value,
            "--boards" => options.boards = value.split(',').map(String::from).collect(),
            "--threads" => {
                options.threads = value
                    .split(',')
                    .map(|t| number(t).map(|t| t as u32))
                    .collect::<Result<_, _>>()?;
            }
            "--repeat" => options.repeat = number(&value)? as usize,
            "--think" => options.think = Duration::from_millis(number(&value)?),
            "--kinds" => {
                options.kinds = value
                    .split(',')
                    .map(Kind::from_name)
                    .collect::<Result<_, _>>()?;
            }
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(options)
}

/// The lateness of every measurement of `kind` at one board, rule and thread count.
fn measure_all(
    options: &Options,
    kind: Kind,
    board: &str,
    rule: &str,
    threads: u32,
) -> Result<Vec<Duration>, String> {
    let mut engine = Engine::start(&options.engine)?;
    engine.middle_game(board, rule, threads)?;
    let mut taken = Vec::new();
    for _ in 0..options.repeat {
        if matches!(kind, Kind::Quit) && engine.process.exited() {
            engine = Engine::start(&options.engine)?;
            engine.middle_game(board, rule, threads)?;
        }
        taken.push(kind.measure(&mut engine, options.think)?);
    }
    Ok(taken)
}

fn run(options: &Options) -> Result<(), String> {
    println!("kind            threads  board  rule      median ms  max ms");
    let mut worst = Duration::ZERO;
    for &kind in &options.kinds {
        for &threads in &options.threads {
            for board in &options.boards {
                for rule in ["straight", "turning"] {
                    let mut taken = measure_all(options, kind, board, rule, threads)?;
                    taken.sort();
                    let median = taken[taken.len() / 2];
                    let max = taken[taken.len() - 1];
                    worst = worst.max(max);
                    println!(
                        "{:<15} {threads:>7}  {board:<5}  {rule:<8}  {:>9.1}  {:>6.1}",
                        kind.name(),
                        median.as_secs_f64() * 1e3,
                        max.as_secs_f64() * 1e3,
                    );
                }
            }
        }
    }
    println!("worst: {:.1} ms", worst.as_secs_f64() * 1e3);
    Ok(())
}

fn main() -> ExitCode {
    // This thread writes the commands and watches for the engine's exit after `quit`:
    // if it woke late on a busy machine, its own delay would be measured as the engine's.
    konane::prompt::answer_promptly();
    let result = parse_options().and_then(|options| {
        if options.repeat == 0 {
            return Err("--repeat must be at least 1".into());
        }
        run(&options)
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("latency: {e}");
            ExitCode::FAILURE
        }
    }
}
