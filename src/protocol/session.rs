//! The session: owns the position and the options, runs commands, and is the only
//! writer of output.
//!
//! While the searcher thread works (a search, perft or bench), the session keeps
//! reading: `isready` is answered at once, `stop` and `ponderhit` reach the job through
//! its control flags, `quit` stops it; every other command waits in order and runs
//! when the job is over, so nothing is lost or applied half-way. A `stop` also ends the
//! queued jobs sent before it as soon as each starts, and a `ponderhit` sent after a
//! queued `go` waits for it: both are meant for the latest `go` the GUI sent.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::Arc;
use std::time::Duration;

use crossbeam_channel::{Receiver, never, select};

use crate::engine::{Engine, Event, GoRequest, Job, JobSettings};
use crate::rules::{AnyPosition, Color};
use crate::search::SearchControl;
use crate::search::eval::evaluate;
use crate::with_position;

use super::command::{Bench, Command, CommandError, Dialect, Go, Query, Start};
use super::options::{Change, Options};

/// One line of input as the reader hands it over.
pub type Input = Result<Command, CommandError>;

/// A job the searcher is running.
struct Busy {
    control: Arc<SearchControl>,
    /// Only `stop` ends it: `go infinite`, `go ponder`, or a `go` with no limit.
    endless: bool,
}

/// The protocol state machine, writing to `W`.
pub struct Session<W: Write> {
    out: W,
    options: Options,
    position: AnyPosition,
    engine: Engine,
    busy: Option<Busy>,
    waiting: VecDeque<Command>,
    input_closed: bool,
    quitting: bool,
}

impl<W: Write> Session<W> {
    /// A session with default options, the 8x8 start position, and a searcher thread.
    pub fn new(out: W) -> io::Result<Session<W>> {
        let options = Options::default();
        Ok(Session {
            out,
            position: AnyPosition::start(options.variant()),
            engine: Engine::start(options.hash_mb)?,
            options,
            busy: None,
            waiting: VecDeque::new(),
            input_closed: false,
            quitting: false,
        })
    }

    /// Runs commands from `input` until `quit`, or until the input ends and all the
    /// work asked for is done. Fails only when output cannot be written.
    pub fn run(mut self, input: Receiver<Input>) -> io::Result<()> {
        let mut input = input;
        loop {
            if self.busy.is_none() {
                if self.quitting || (self.input_closed && self.waiting.is_empty()) {
                    return Ok(());
                }
                if let Some(command) = self.waiting.pop_front() {
                    self.execute(command)?;
                    continue;
                }
            } else if let Some(signal) = self.take_signal_for_running_job() {
                self.signal(&signal);
                continue;
            }
            let events = self.engine.events().clone();
            select! {
                recv(input) -> line => match line {
                    Ok(Ok(command)) => self.receive(command)?,
                    Ok(Err(error)) => self.error(&error.to_string())?,
                    Err(_) => {
                        self.input_closed = true;
                        input = never();
                        if let Some(busy) = self.busy.as_ref().filter(|b| b.endless) {
                            busy.control.stop();
                        }
                    }
                },
                recv(events) -> event => match event {
                    Ok(Event::Line(line)) => self.say(&line)?,
                    Ok(Event::Finished(last)) => {
                        if let Some(line) = last {
                            self.say(&line)?;
                        }
                        self.busy = None;
                    }
                    Err(_) => return Err(io::Error::other("the searcher thread is gone")),
                },
            }
        }
    }

    /// A command as it arrives: urgent ones act at once, the rest wait for the job.
    fn receive(&mut self, command: Command) -> io::Result<()> {
        let Some(busy) = &self.busy else {
            return self.execute(command);
        };
        match command {
            Command::IsReady => self.say("readyok"),
            // `stop` ends every job asked for before it: the running one now, and a
            // queued `go` as soon as it starts (the GUI may well have seen the running
            // job's bestmove already, and then the stop is meant for that `go`).
            Command::Stop => {
                busy.control.stop();
                if self.waiting.iter().any(starts_job) {
                    self.waiting.push_back(command);
                }
                Ok(())
            }
            // `ponderhit` is for the latest ponder search: a queued one if any.
            Command::PonderHit if self.waiting.iter().any(starts_job) => {
                self.waiting.push_back(command);
                Ok(())
            }
            Command::PonderHit => {
                busy.control.ponderhit();
                Ok(())
            }
            Command::Quit => {
                busy.control.stop();
                self.quitting = true;
                Ok(())
            }
            Command::Debug(_) => Ok(()),
            other => {
                self.waiting.push_back(other);
                Ok(())
            }
        }
    }

    /// Passes `stop` or `ponderhit` to the running job.
    fn signal(&self, command: &Command) {
        if let Some(busy) = &self.busy {
            match command {
                Command::Stop => busy.control.stop(),
                Command::PonderHit => busy.control.ponderhit(),
                _ => {}
            }
        }
    }

    /// A queued `stop` or `ponderhit` that belongs to the running job: one that no
    /// job-starting command precedes in the queue.
    fn take_signal_for_running_job(&mut self) -> Option<Command> {
        let next_job = self
            .waiting
            .iter()
            .position(starts_job)
            .unwrap_or(self.waiting.len());
        let at = self
            .waiting
            .iter()
            .take(next_job)
            .position(|c| matches!(c, Command::Stop | Command::PonderHit))?;
        self.waiting.remove(at)
    }

    fn execute(&mut self, command: Command) -> io::Result<()> {
        match command {
            Command::Hello(dialect) => self.hello(dialect),
            Command::IsReady => self.say("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, &value),
            Command::NewGame => self.run_blocking(Job::Clear),
            Command::Position { start, moves } => self.set_position(&start, &moves),
            Command::Go(Go::Perft(depth)) => {
                let control = Arc::new(SearchControl::new(false));
                let job = Job::Perft {
                    position: self.position,
                    depth,
                    control: Arc::clone(&control),
                };
                self.start(job, control, false);
                Ok(())
            }
            Command::Go(Go::Search { request, warnings }) => {
                for warning in warnings {
                    self.say(&format!("info string warning: {warning}"))?;
                }
                self.go(request);
                Ok(())
            }
            Command::Bench(kind) => {
                let control = Arc::new(SearchControl::new(false));
                let job = match kind {
                    Bench::Search(depth) => Job::BenchSearch {
                        depth,
                        control: Arc::clone(&control),
                    },
                    Bench::Perft => Job::BenchPerft {
                        control: Arc::clone(&control),
                    },
                };
                self.start(job, control, false);
                Ok(())
            }
            Command::Display => self.display(),
            Command::Eval => self.eval(),
            Command::Query(query) => self.query(query),
            Command::Quit => {
                self.quitting = true;
                Ok(())
            }
            // Nothing runs: stop and ponderhit have nothing to act on.
            Command::Stop | Command::PonderHit | Command::Debug(_) => Ok(()),
        }
    }

    fn say(&mut self, line: &str) -> io::Result<()> {
        if line.chars().any(char::is_control) {
            // Error messages quote what the GUI sent; its control bytes (escape
            // sequences, NUL, a lone CR) must not reach a terminal or a log raw.
            let mut shown = String::with_capacity(line.len() + 16);
            for c in line.chars() {
                if c.is_control() {
                    shown.extend(c.escape_debug());
                } else {
                    shown.push(c);
                }
            }
            writeln!(self.out, "{shown}")?;
        } else {
            writeln!(self.out, "{line}")?;
        }
        self.out.flush()
    }

    fn error(&mut self, message: &str) -> io::Result<()> {
        self.say(&format!("info string error: {message}"))
    }

    fn start(&mut self, job: Job, control: Arc<SearchControl>, endless: bool) {
        // Nobody is left to send `stop`, or it came already: everything still queued
        // was sent after this job.
        let stop_sent = self.waiting.iter().any(|c| matches!(c, Command::Stop));
        if stop_sent || (endless && self.input_closed) {
            control.stop();
        }
        self.engine.send(job);
        self.busy = Some(Busy { control, endless });
    }

    /// Runs a job to its end before reading on (resizing or clearing the table), so
    /// that a following `isready` is answered only when it is done.
    fn run_blocking(&mut self, job: Job) -> io::Result<()> {
        self.engine.send(job);
        loop {
            match self.engine.events().recv() {
                Ok(Event::Line(line)) => self.say(&line)?,
                Ok(Event::Finished(last)) => {
                    return match last {
                        Some(line) => self.say(&line),
                        None => Ok(()),
                    };
                }
                Err(_) => return Err(io::Error::other("the searcher thread is gone")),
            }
        }
    }

    fn go(&mut self, request: GoRequest) {
        // A search with no limit of its own may run for hours on a big board: at the
        // end of input it is stopped like `go infinite`, not waited for. A solve ends
        // with its proof, so it is waited for (`stop` or Ctrl-C end it sooner).
        let own_clock = request.time[self.position.side_to_move().index()];
        let limited = request.solve
            || request.depth.is_some()
            || request.nodes.is_some()
            || request.move_time.is_some()
            || own_clock.is_some();
        let endless = request.infinite || request.ponder || !limited;
        let control = Arc::new(SearchControl::new(request.ponder));
        let settings = JobSettings {
            overhead: Duration::from_millis(self.options.move_overhead_ms),
            multipv: self.options.multipv,
            show_ponder: self.options.ponder,
            skill: self.options.skill(),
        };
        let job = Job::Search {
            position: self.position,
            request,
            settings,
            control: Arc::clone(&control),
        };
        self.start(job, control, endless);
    }

    fn hello(&mut self, dialect: Dialect) -> io::Result<()> {
        self.say(concat!("id name konane ", env!("CARGO_PKG_VERSION")))?;
        self.say("id author the konane developers")?;
        for line in Options::announce() {
            self.say(&line)?;
        }
        self.say(match dialect {
            Dialect::Ugi => "ugiok",
            Dialect::Uci => "uciok",
        })
    }

    fn set_option(&mut self, name: &str, value: &str) -> io::Result<()> {
        let before = self.options.clone();
        match self.options.set(name, value) {
            Ok(Change::Hash) => self.resize_table("Hash", before, |o| o.hash_mb, Job::SetHash),
            Ok(Change::SolverHash) => self.resize_table(
                "SolverHash",
                before,
                |o| o.solver_hash_mb,
                Job::SetSolverHash,
            ),
            Ok(Change::ClearHash) => self.run_blocking(Job::Clear),
            Ok(Change::Rules) => {
                self.position = AnyPosition::start(self.options.variant());
                if self.position.outcome().is_some() {
                    let warning = format!(
                        "info string warning: under these rules ({}) black has no legal first move and loses at once",
                        self.options.variant()
                    );
                    self.say(&warning)?;
                }
                Ok(())
            }
            Ok(Change::Threads) => self.run_blocking(Job::SetThreads(self.options.threads)),
            Ok(Change::Other) => Ok(()),
            Err(e) => self.error(&e.to_string()),
        }
    }

    /// Gives a table option's new size to the searcher, or refuses a size the system
    /// cannot give and goes back to the options as they were `before`. `size` reads
    /// the option's value in MB.
    fn resize_table(
        &mut self,
        name: &str,
        before: Options,
        size: fn(&Options) -> usize,
        job: fn(usize) -> Job,
    ) -> io::Result<()> {
        let asked = size(&self.options);
        if memory_available(asked) {
            return self.run_blocking(job(asked));
        }
        let kept = size(&before);
        self.options = before;
        self.error(&format!(
            "option {name}: the system cannot give {asked} MB; the value stays {kept}"
        ))
    }

    fn set_position(&mut self, start: &Start, moves: &[String]) -> io::Result<()> {
        match self.build_position(start, moves) {
            Ok(position) => {
                self.position = position;
                Ok(())
            }
            Err(message) => self.error(&format!("position: {message}; the position is unchanged")),
        }
    }

    fn build_position(&self, start: &Start, moves: &[String]) -> Result<AnyPosition, String> {
        let mut position = match start {
            Start::StartPos => AnyPosition::start(self.options.variant()),
            Start::Text(text) => {
                AnyPosition::from_text(text, self.options.opening, self.options.multi_jump)
                    .map_err(|e| e.to_string())?
            }
        };
        for (i, text) in moves.iter().enumerate() {
            position
                .play_text(text)
                .map_err(|e| format!("move {} of the list: {e}", i + 1))?;
        }
        Ok(position)
    }

    fn display(&mut self) -> io::Result<()> {
        let pos = self.position;
        let moves = pos.legal_move_texts();
        let side = side_name(pos.side_to_move());
        let mut lines = vec![
            pos.diagram(),
            format!("Position: {pos}"),
            format!("Rules: {}", pos.variant()),
            format!("Side to move: {side}"),
            format!("Phase: {}", pos.phase()),
            format!("Hash: {:016x}", pos.hash()),
        ];
        if moves.is_empty() {
            lines.push(format!("Legal moves (0): none; {side} has lost"));
        } else {
            lines.push(format!(
                "Legal moves ({}): {}",
                moves.len(),
                moves.join(" ")
            ));
        }
        for line in lines {
            write!(self.out, "{line}")?;
            if !line.ends_with('\n') {
                writeln!(self.out)?;
            }
        }
        self.out.flush()
    }

    fn eval(&mut self) -> io::Result<()> {
        let pos = self.position;
        let e = with_position!(pos, p => evaluate(&p));
        let side = side_name(pos.side_to_move());
        if pos.outcome().is_some() {
            return self.say(&format!("{side} has no legal move and has lost"));
        }
        for line in [
            format!("Evaluation for the side to move, {side}:"),
            format!(
                "  jumps            {:>4} against {:>4}  {:>+6}",
                e.own_jumps, e.their_moves, e.moves
            ),
            format!(
                "  movable stones   {:>4} against {:>4}  {:>+6}",
                e.own_movable, e.their_movable, e.movable
            ),
            format!("  total                              {:>+6}", e.total),
        ] {
            self.say(&line)?;
        }
        Ok(())
    }

    fn query(&mut self, query: Query) -> io::Result<()> {
        let pos = self.position;
        let answer = match query {
            Query::GameOver => pos.outcome().is_some().to_string(),
            Query::P1Turn => (pos.side_to_move() == Color::Black).to_string(),
            Query::Result => match pos.outcome().map(|o| o.winner()) {
                Some(Color::Black) => "p1win".into(),
                Some(Color::White) => "p2win".into(),
                None => "none".into(),
            },
        };
        self.say(&format!("response {answer}"))
    }
}

/// Whether the system will lend `megabytes` MB at all. Building the table with less
/// memory than it needs aborts the process, so the engine asks with a fallible
/// reservation first (address space only: nothing is touched). Under an overcommitting
/// kernel this can say yes to more than the machine has.
fn memory_available(megabytes: usize) -> bool {
    let Some(bytes) = megabytes.checked_mul(1 << 20) else {
        return false;
    };
    let mut probe: Vec<u8> = Vec::new();
    probe.try_reserve_exact(bytes).is_ok()
}

/// Whether `command` hands the searcher a job that `stop` ends.
fn starts_job(command: &Command) -> bool {
    matches!(command, Command::Go(_) | Command::Bench(_))
}

fn side_name(colour: Color) -> &'static str {
    match colour {
        Color::Black => "black (p1)",
        Color::White => "white (p2)",
    }
}
