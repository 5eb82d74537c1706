//! The session: owns the position and the options, runs commands, and is the only
//! writer of output.
//!
//! While the searcher thread works (a search, perft or bench), the session keeps
//! reading: `isready` is answered at once, `stop` and `ponderhit` reach the job through
//! its control flags, `quit` stops it; every other command waits in order (within the
//! bounds of [`Backlog`]) and runs when the job is over, so nothing is applied
//! half-way. A `stop` also ends the queued jobs sent before it as soon as each starts,
//! and a `ponderhit` sent after a queued `go` waits for it: both are meant for the
//! latest `go` the GUI sent.
//!
//! A search's answer is due by its hard deadline, and at once after `stop` or `quit`:
//! if the searcher has not answered by then, the session prints the `bestmove` the
//! search keeps ready and drops whatever that job says afterwards.

use std::io::{self, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, at, never, select};

use crate::dialect::Dialect;
use crate::engine::{Engine, Event, GoRequest, Job, JobId, JobSettings, answer_due};
use crate::prompt;
use crate::rules::{AnyPosition, Color};
use crate::search::SearchControl;
use crate::search::eval::evaluate;
use crate::search::time::OverheadLearner;
use crate::with_position;

use super::backlog::{self, Backlog};
use super::command::{Bench, Command, CommandError, Go, Query, Start};
use super::options::{Change, Options};

/// One line of input as the reader hands it over.
pub type Input = Result<Command, CommandError>;

/// How long after `stop` or `quit` a search may take to answer before the session
/// answers for it: nothing. The move ready is the best of the last finished iteration,
/// which is what the searcher would answer too, and on a loaded machine each wait for
/// a timer is one more wait for the scheduler.
const STOP_GRACE: Duration = Duration::ZERO;

/// The same for a solve, which says why it ended without a proof before it answers:
/// the solver looks at the stop flag about every half millisecond of its own time, so
/// this lets an unhurried solver give its own reason, and keeps `stop` answered within
/// a few milliseconds when it is slow (the session then gives the reason itself).
const SOLVE_STOP_GRACE: Duration = Duration::from_millis(2);

/// How long past its hard deadline a search may take to answer before the session
/// answers for it.
const DEADLINE_GRACE: Duration = Duration::from_millis(5);

/// Longest error message printed: messages quote input, which may be a megabyte.
const MAX_MESSAGE: usize = 400;

/// A job the searcher is running.
struct Busy {
    job: JobId,
    control: Arc<SearchControl>,
    /// Only `stop` ends it: `go infinite`, `go ponder`, or a `go` with no limit.
    endless: bool,
    /// For a search: when its answer is due, counted from the start of its clock.
    due: Option<Duration>,
    /// When the session answers for the search if the searcher has not.
    answer_by: Option<Instant>,
    /// Whether the move is played on the engine's clock (its time teaches the
    /// overhead learner).
    timed: bool,
    /// Whether it is a solve (`go solve`).
    solve: bool,
}

/// The protocol state machine, writing to `W`.
pub struct Session<W: Write> {
    out: W,
    options: Options,
    position: AnyPosition,
    engine: Engine,
    busy: Option<Busy>,
    waiting: Backlog,
    input_closed: bool,
    quitting: bool,
    overhead: OverheadLearner,
    /// In one-shot mode, where refusals go instead of the output.
    script_errors: Option<Box<dyn Write>>,
    /// In one-shot mode: a line was refused.
    refused: bool,
}

impl<W: Write> Drop for Session<W> {
    /// A session that ends (its output closed, or `quit`) leaves no job running.
    fn drop(&mut self) {
        if let Some(busy) = &self.busy {
            busy.control.stop();
        }
    }
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
            waiting: Backlog::default(),
            input_closed: false,
            quitting: false,
            overhead: OverheadLearner::default(),
            script_errors: None,
            refused: false,
        })
    }

    /// Runs commands from `input` until `quit`, or until the input ends and all the
    /// work asked for is done. Fails only when output cannot be written (the running
    /// job is then stopped).
    pub fn run(mut self, input: Receiver<Input>) -> io::Result<()> {
        prompt::answer_promptly();
        let mut input = input;
        loop {
            if self.busy.is_none() {
                if self.quitting || (self.input_closed && self.waiting.is_empty()) {
                    return Ok(());
                }
                if let Some(command) = self.waiting.pop() {
                    self.execute(command)?;
                    continue;
                }
            } else if let Some(signal) = self.take_signal_for_running_job() {
                self.signal(&signal);
                continue;
            }
            let events = self.engine.events().clone();
            let timer = self.answer_timer();
            select! {
                recv(input) -> line => match line {
                    Ok(Ok(command)) => self.receive(command)?,
                    Ok(Err(error)) => self.error(&error.to_string())?,
                    Err(_) => {
                        self.input_closed = true;
                        input = never();
                        if self.busy.as_ref().is_some_and(|b| b.endless) {
                            self.stop_job();
                        }
                    }
                },
                recv(events) -> event => self.event(event)?,
                recv(timer) -> _ => self.answer_for_searcher()?,
            }
        }
    }

    /// One-shot mode: runs `lines` in order, each to its end, and stops at the first
    /// that is refused, which is reported on `errors` (not the output). No `stop` can
    /// come, so an endless search is stopped at once. Returns whether every line ran.
    pub fn run_script(mut self, lines: Vec<Input>, errors: Box<dyn Write>) -> io::Result<bool> {
        self.script_errors = Some(errors);
        self.input_closed = true;
        for line in lines {
            match line {
                Ok(Command::Quit) => break,
                Ok(command) => self.execute(command)?,
                Err(error) => self.error(&error.to_string())?,
            }
            while self.busy.is_some() && !self.refused {
                let timer = self.answer_timer();
                let events = self.engine.events().clone();
                select! {
                    recv(events) -> event => self.event(event)?,
                    recv(timer) -> _ => self.answer_for_searcher()?,
                }
            }
            if self.refused {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn answer_timer(&self) -> Receiver<Instant> {
        match self.busy.as_ref().and_then(|b| b.answer_by) {
            Some(when) => at(when),
            None => never(),
        }
    }

    /// What the searcher sent; lines of jobs already answered for are dropped.
    fn event(&mut self, event: Result<Event, crossbeam_channel::RecvError>) -> io::Result<()> {
        let current = self.busy.as_ref().map(|b| b.job);
        match event {
            Ok(Event::Line(job, line)) if Some(job) == current => self.say(&line),
            Ok(Event::Finished(job, last)) if Some(job) == current => {
                if let Some(line) = last {
                    self.say(&line)?;
                }
                self.job_answered();
                Ok(())
            }
            Ok(_) => Ok(()),
            Err(_) => Err(io::Error::other("the searcher thread is gone")),
        }
    }

    /// The running job's last line is out: the session is free.
    fn job_answered(&mut self) {
        if let Some(busy) = self.busy.take()
            && busy.timed
        {
            // Time past the deadline was not planned either (the process was not
            // running, most likely): it counts as lag, like the time the GUI saw and
            // the engine did not.
            let own = busy.control.clock_elapsed();
            self.overhead
                .finish_move(busy.due.map_or(own, |due| own.min(due)));
        }
    }

    /// The search's answer is due and the searcher has not given it: stops the search
    /// and prints the move it has ready.
    fn answer_for_searcher(&mut self) -> io::Result<()> {
        let Some(busy) = self.busy.as_mut() else {
            return Ok(());
        };
        let why = if busy.control.stopped() {
            "stopped"
        } else {
            "out of time"
        };
        busy.control.stop();
        busy.answer_by = None;
        let solve = busy.solve;
        match busy.control.ready() {
            Some(line) => {
                if solve {
                    self.say(&format!(
                        "info string solve ended without a proof ({why}); playing the move ready"
                    ))?;
                }
                self.say(&line)?;
                self.job_answered();
                Ok(())
            }
            // Nothing offered yet (cannot happen for a search, whose first legal move
            // is offered when it is sent): wait for the searcher.
            None => Ok(()),
        }
    }

    /// Stops the running job; a search's answer is then due at once.
    fn stop_job(&mut self) {
        if let Some(busy) = self.busy.as_mut() {
            busy.control.stop();
            // Only a search has an answer ready to give.
            if busy.control.ready().is_some() {
                let grace = if busy.solve {
                    SOLVE_STOP_GRACE
                } else {
                    STOP_GRACE
                };
                let soon = Instant::now() + grace;
                busy.answer_by = Some(busy.answer_by.map_or(soon, |t| t.min(soon)));
            }
        }
    }

    /// The pondered move was played: the search's clock, and its deadline, start now.
    fn ponderhit_job(&mut self) {
        if let Some(busy) = self.busy.as_mut() {
            busy.control.ponderhit();
            busy.answer_by = busy.due.map(|due| Instant::now() + due + DEADLINE_GRACE);
        }
    }

    /// A command as it arrives: urgent ones act at once, the rest wait for the job.
    fn receive(&mut self, command: Command) -> io::Result<()> {
        if self.busy.is_none() {
            return self.execute(command);
        }
        match command {
            Command::IsReady => self.say("readyok"),
            // `stop` ends every job asked for before it: the running one now, and a
            // queued `go` as soon as it starts (the GUI may well have seen the running
            // job's bestmove already, and then the stop is meant for that `go`).
            Command::Stop => {
                self.stop_job();
                if self.waiting.iter().any(starts_job) {
                    self.queue(command)?;
                }
                Ok(())
            }
            // `ponderhit` is for the latest ponder search: a queued one if any.
            Command::PonderHit if self.waiting.iter().any(starts_job) => self.queue(command),
            Command::PonderHit => {
                self.ponderhit_job();
                Ok(())
            }
            Command::Quit => {
                self.stop_job();
                self.quitting = true;
                Ok(())
            }
            Command::Debug(_) => Ok(()),
            other => self.queue(other),
        }
    }

    /// Keeps `command` for when the job is over, or refuses it when too much waits.
    fn queue(&mut self, command: Command) -> io::Result<()> {
        match self.waiting.push(command) {
            Ok(()) => Ok(()),
            Err(backlog::Full) => self.error(&format!(
                "too much is queued while a job runs (at most {} commands, {} MiB); the command is dropped",
                backlog::MAX_COMMANDS,
                backlog::MAX_BYTES >> 20
            )),
        }
    }

    /// Passes `stop` or `ponderhit` to the running job.
    fn signal(&mut self, command: &Command) {
        match command {
            Command::Stop => self.stop_job(),
            Command::PonderHit => self.ponderhit_job(),
            _ => {}
        }
    }

    /// A queued `stop` or `ponderhit` that belongs to the running job: one that no
    /// job-starting command precedes in the queue.
    fn take_signal_for_running_job(&mut self) -> Option<Command> {
        let next_job = self
            .waiting
            .iter()
            .position(starts_job)
            .unwrap_or(usize::MAX);
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
            Command::NewGame => {
                self.overhead.reset();
                self.run_blocking(Job::Clear)
            }
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
                self.go(request)
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
        writeln!(self.out, "{}", printable(line))?;
        self.out.flush()
    }

    /// Reports a refused line: as an `info string error` line, or in one-shot mode on
    /// the error output, which ends the script.
    fn error(&mut self, message: &str) -> io::Result<()> {
        let mut message = printable(message);
        if message.len() > MAX_MESSAGE {
            let mut cut = MAX_MESSAGE;
            while !message.is_char_boundary(cut) {
                cut -= 1;
            }
            message.truncate(cut);
            message.push_str("...");
        }
        if let Some(errors) = self.script_errors.as_mut() {
            self.refused = true;
            writeln!(errors, "konane: error: {message}")?;
            return errors.flush();
        }
        self.say(&format!("info string error: {message}"))
    }

    fn start(&mut self, job: Job, control: Arc<SearchControl>, endless: bool) {
        self.start_timed(job, control, endless, None, false, false);
    }

    fn start_timed(
        &mut self,
        job: Job,
        control: Arc<SearchControl>,
        endless: bool,
        due: Option<Duration>,
        timed: bool,
        solve: bool,
    ) {
        // Nobody is left to send `stop`, or it came already: everything still queued
        // was sent after this job.
        let stop_sent = self.waiting.iter().any(|c| matches!(c, Command::Stop));
        let started = Instant::now();
        let job = self.engine.send(job);
        self.busy = Some(Busy {
            job,
            answer_by: due
                .filter(|_| !control.pondering())
                .map(|due| started + due + DEADLINE_GRACE),
            control,
            endless,
            due,
            timed,
            solve,
        });
        if stop_sent || (endless && self.input_closed) {
            self.stop_job();
        }
    }

    /// Runs a job to its end before reading on (resizing or clearing the table), so
    /// that a following `isready` is answered only when it is done.
    fn run_blocking(&mut self, job: Job) -> io::Result<()> {
        let id = self.engine.send(job);
        loop {
            match self.engine.events().recv() {
                Ok(Event::Line(job, line)) if job == id => self.say(&line)?,
                Ok(Event::Finished(job, last)) if job == id => {
                    return match last {
                        Some(line) => self.say(&line),
                        None => Ok(()),
                    };
                }
                Ok(_) => {}
                Err(_) => return Err(io::Error::other("the searcher thread is gone")),
            }
        }
    }

    fn go(&mut self, request: GoRequest) -> io::Result<()> {
        if self.script_errors.is_some() && !self.search_moves_playable(&request)? {
            return Ok(());
        }
        // A search with no limit of its own may run for hours on a big board: at the
        // end of input it is stopped like `go infinite`, not waited for. A solve ends
        // with its proof, so it is waited for (`stop` or Ctrl-C end it sooner).
        let side = self.position.side_to_move().index();
        let own_clock = request.time[side];
        let limited = request.solve
            || request.depth.is_some()
            || request.nodes.is_some()
            || request.move_time.is_some()
            || own_clock.is_some();
        let endless = request.infinite || request.ponder || !limited;
        let timed = own_clock.is_some() && !request.ponder && !request.solve;
        match own_clock.filter(|_| timed) {
            Some(remaining) => self.overhead.start_move(remaining, request.increment[side]),
            None => self.overhead.forget_move(),
        }
        let overhead = self
            .overhead
            .overhead(Duration::from_millis(self.options.move_overhead_ms));
        let due = answer_due(&self.position, &request, overhead);
        let control = Arc::new(SearchControl::new(request.ponder));
        // A move is ready from the start, in case the searcher is slow to begin.
        if let Some(first) = self.position.legal_move_texts().first() {
            control.offer(format!("bestmove {first}"));
        }
        let settings = JobSettings {
            overhead,
            multipv: self.options.multipv,
            show_ponder: self.options.ponder,
            skill: self.options.skill(),
        };
        let solve = request.solve;
        let job = Job::Search {
            position: self.position,
            request,
            settings,
            control: Arc::clone(&control),
        };
        self.start_timed(job, control, endless, due, timed, solve);
        Ok(())
    }

    /// In one-shot mode a `searchmoves` list must be playable as given: a script gets
    /// no answer about moves it did not ask about.
    fn search_moves_playable(&mut self, request: &GoRequest) -> io::Result<bool> {
        for text in &request.search_moves {
            let mut position = self.position;
            if let Err(e) = position.play_text(text) {
                self.error(&format!("go: searchmoves: {e}"))?;
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn hello(&mut self, dialect: Dialect) -> io::Result<()> {
        self.say(concat!("id name konane ", env!("CARGO_PKG_VERSION")))?;
        self.say("id author the konane developers")?;
        for line in Options::announce() {
            self.say(&line)?;
        }
        self.say(dialect.hello_ok())
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
            Ok(Change::Threads) => self.set_threads(),
            Ok(Change::Other) => Ok(()),
            Err(e) => self.error(&e.to_string()),
        }
    }

    /// Gives the searcher the `Threads` asked for, but no more than the processors the
    /// engine may run on: more search threads than processors only take turns on them,
    /// with each other and with the threads that read `stop` and write `bestmove`. On a
    /// crowded processor Linux's scheduler let those wait up to a quarter of a second
    /// (64 threads on 2 processors), and Lazy SMP gains nothing from threads that wait.
    fn set_threads(&mut self) -> io::Result<()> {
        let asked = self.options.threads;
        let processors = std::thread::available_parallelism().map_or(asked, usize::from);
        if asked > processors {
            self.say(&format!(
                "info string warning: option Threads: {asked} threads, but this machine lets the engine use {processors} processors; searching with {processors}"
            ))?;
        }
        self.run_blocking(Job::SetThreads(asked.min(processors)))
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
            format!("  square patterns                    {:>+6}", e.patterns),
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

/// `line` with its control characters escaped: error messages quote what the GUI sent,
/// and its escape sequences, NULs or lone CRs must not reach a terminal or a log raw.
fn printable(line: &str) -> String {
    if !line.chars().any(char::is_control) {
        return line.to_string();
    }
    let mut shown = String::with_capacity(line.len() + 16);
    for c in line.chars() {
        if c.is_control() {
            shown.extend(c.escape_debug());
        } else {
            shown.push(c);
        }
    }
    shown
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
