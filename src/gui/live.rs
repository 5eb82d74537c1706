//! An engine the page talks to: one thread per engine process that does the handshake,
//! then passes `position`/`go` jobs to the engine and every line of its output back,
//! as it comes, tagged with the job it belongs to.
//!
//! The process code is the referee's ([`EngineProcess`]); what differs is that the GUI
//! streams `info` lines while a search runs and may replace a job before it ends.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, TryRecvError};
use tokio::sync::mpsc::{self, error::TrySendError};

use super::info::{EngineOption, parse_option};
use crate::client::{self, Dialect, EngineLine, EngineProcess, EngineSpec, GoLimits, RecvError};
use crate::rules::Variant;

/// Set when the server shuts down: every engine thread then kills its process.
pub static SHUTDOWN: AtomicBool = AtomicBool::new(false);

/// Engine processes started and not yet ended.
static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// How long the handshake (each of `ugi` and `uci`) and `isready` may take.
const STARTUP: Duration = Duration::from_secs(10);
/// How long an engine waiting for its output is left before its thread looks at new
/// jobs again.
const POLL: Duration = Duration::from_millis(20);
/// Between `quit` and killing the process.
const GRACE: Duration = Duration::from_millis(300);

/// Engine processes still running.
#[must_use]
pub fn running() -> usize {
    RUNNING.load(Ordering::SeqCst)
}

/// Sets [`SHUTDOWN`] and waits up to `wait` for every engine process to end.
pub fn shut_down(wait: Duration) {
    SHUTDOWN.store(true, Ordering::SeqCst);
    let until = Instant::now() + wait;
    while running() > 0 && Instant::now() < until {
        thread::sleep(Duration::from_millis(10));
    }
}

/// What a session asks of its engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Job {
    /// Search: `position` and `go` lines; output is tagged with `serial`.
    Go {
        /// The session's number for this job.
        serial: u64,
        /// The `position ...` line.
        position: String,
        /// What to ask for.
        go: GoLine,
    },
    /// Send `stop` if a search runs.
    Stop,
    /// `setoption name <0> value <1>` (sent between searches).
    SetOption(String, String),
}

/// The `go` of a job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoLine {
    /// Limits, spelled in the engine's dialect.
    Limits(GoLimits),
    /// A line sent as it is (`go infinite`, `go solve movetime 1000`).
    Text(String),
}

/// What the engine thread reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// The handshake is done.
    Ready {
        /// `id name`, if given.
        id_name: Option<String>,
        /// The options announced.
        options: Vec<EngineOption>,
    },
    /// A line of output during job `serial` (its `bestmove` included).
    Line {
        /// The job.
        serial: u64,
        /// The line as printed.
        text: String,
        /// Time since its `go` was sent.
        elapsed: Duration,
    },
    /// The engine could not be started or is gone; the thread has ended.
    Failed(String),
}

/// Where reports go: the session's channel, with the slot they come from.
pub type Reports = mpsc::Sender<(usize, u64, Report)>;

/// A running engine thread; dropping it ends the engine.
pub struct LiveEngine {
    jobs: Sender<Job>,
}

impl LiveEngine {
    /// Starts `spec` for `variant` with `extra` options after the user's; reports go to
    /// `reports` tagged with `slot` and `incarnation`.
    #[must_use]
    pub fn start(
        spec: EngineSpec,
        label: String,
        variant: Variant,
        extra: Vec<(String, String)>,
        reports: Reports,
        slot: usize,
        incarnation: u64,
    ) -> LiveEngine {
        let (jobs, job_queue) = crossbeam_channel::unbounded();
        let spawned = thread::Builder::new().name(format!("gui {label}")).spawn({
            let reports = reports.clone();
            move || {
                let send = |r: Report| deliver(&reports, (slot, incarnation, r));
                let mut options = spec.options.clone();
                options.extend(extra);
                run(&spec, &label, variant, &options, &job_queue, &send);
            }
        });
        if let Err(e) = spawned {
            let _ = reports.try_send((slot, incarnation, Report::Failed(e.to_string())));
        }
        LiveEngine { jobs }
    }

    /// Queues a job (a gone engine has already reported its failure).
    pub fn send(&self, job: Job) {
        let _ = self.jobs.send(job);
    }
}

/// Sends a report, waiting while the session's queue is full (so a flood of output
/// slows the engine's thread instead of growing memory); false when the session is
/// gone or the server shuts down.
fn deliver(reports: &Reports, report: (usize, u64, Report)) -> bool {
    let mut item = report;
    loop {
        match reports.try_send(item) {
            Ok(()) => return true,
            Err(TrySendError::Closed(_)) => return false,
            Err(TrySendError::Full(back)) => {
                if SHUTDOWN.load(Ordering::SeqCst) {
                    return false;
                }
                item = back;
                thread::sleep(Duration::from_millis(5));
            }
        }
    }
}

/// Counts a process as running from its start to its end.
struct Running;

impl Running {
    fn new() -> Running {
        RUNNING.fetch_add(1, Ordering::SeqCst);
        Running
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.fetch_sub(1, Ordering::SeqCst);
    }
}

fn run(
    spec: &EngineSpec,
    label: &str,
    variant: Variant,
    options: &[(String, String)],
    jobs: &Receiver<Job>,
    send: &dyn Fn(Report) -> bool,
) {
    let _running = Running::new();
    let mut process = match EngineProcess::spawn(&spec.process, label, false) {
        Ok(p) => p,
        Err(e) => {
            send(Report::Failed(format!(
                "{label} could not be started ({}): {e}",
                spec.process.cmd.display()
            )));
            return;
        }
    };
    match handshake(&mut process, spec.dialect, variant, options) {
        Ok((ready, dialect)) => {
            if send(ready) {
                serve(&mut process, label, dialect, jobs, send);
            }
        }
        Err(why) => {
            send(Report::Failed(format!("{label} {why}")));
        }
    }
    if SHUTDOWN.load(Ordering::SeqCst) {
        process.kill();
    } else {
        process.quit(GRACE);
    }
}

fn handshake(
    process: &mut EngineProcess,
    dialect: Option<Dialect>,
    variant: Variant,
    options: &[(String, String)],
) -> Result<(Report, Dialect), String> {
    let attempts = match dialect {
        Some(d) => vec![d],
        None => vec![Dialect::Ugi, Dialect::Uci],
    };
    let gone = |_| "exited during the handshake".to_string();
    let (mut id_name, mut announced) = (None, Vec::new());
    let mut answered = None;
    for d in attempts {
        process.send(d.hello()).map_err(gone)?;
        let deadline = Instant::now() + STARTUP;
        loop {
            let line = match process.recv(deadline, &SHUTDOWN) {
                Ok(line) => line.text,
                Err(RecvError::Timeout) => break,
                Err(e) => return Err(format!("stopped during the handshake: {e}")),
            };
            match client::parse_line(&line) {
                EngineLine::IdName(name) => id_name = Some(name),
                EngineLine::HelloOk(replied) => {
                    answered = Some(replied);
                    break;
                }
                _ => announced.extend(parse_option(&line)),
            }
        }
        if answered.is_some() {
            break;
        }
    }
    let Some(dialect) = answered else {
        return Err(format!(
            "did not finish the handshake: no 'ugiok' or 'uciok' within {} s",
            STARTUP.as_secs()
        ));
    };
    let rules = [
        ("BoardSize".to_string(), variant.size.to_string()),
        ("Opening".to_string(), variant.opening.to_string()),
        ("MultiJump".to_string(), variant.multi_jump.to_string()),
    ];
    for (name, value) in rules.iter().chain(options) {
        process
            .send(&client::set_option(name, value))
            .map_err(gone)?;
    }
    process.send("isready").map_err(gone)?;
    let deadline = Instant::now() + STARTUP;
    loop {
        match process.recv(deadline, &SHUTDOWN) {
            Ok(line) if client::parse_line(&line.text) == EngineLine::ReadyOk => break,
            Ok(_) => {}
            Err(e) => return Err(format!("did not answer 'isready': {e}")),
        }
    }
    Ok((
        Report::Ready {
            id_name,
            options: announced,
        },
        dialect,
    ))
}

/// Runs jobs until the session drops its [`LiveEngine`], the engine fails, or the
/// server shuts down.
fn serve(
    process: &mut EngineProcess,
    label: &str,
    dialect: Dialect,
    jobs: &Receiver<Job>,
    send: &dyn Fn(Report) -> bool,
) {
    // The job whose output is being read, and when its `go` was sent.
    let mut current: Option<(u64, Instant)> = None;
    let mut waiting: VecDeque<Job> = VecDeque::new();
    let mut stop_sent = false;
    loop {
        loop {
            let job = match jobs.try_recv() {
                Ok(job) => job,
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => return,
            };
            let is_go = matches!(job, Job::Go { .. });
            if current.is_some() && (is_go || job == Job::Stop) && !stop_sent {
                // A new job or an explicit stop ends the running search first; its
                // `bestmove` still comes, tagged with the old job.
                stop_sent = true;
                if process.send("stop").is_err() {
                    send(Report::Failed(format!("{label} closed its input")));
                    return;
                }
            }
            if is_go {
                // Only the newest search is still wanted.
                waiting.retain(|j| !matches!(j, Job::Go { .. }));
            }
            if job != Job::Stop {
                waiting.push_back(job);
            }
        }
        while current.is_none() {
            let Some(job) = waiting.pop_front() else {
                break;
            };
            let sent = match job {
                Job::Go {
                    serial,
                    position,
                    go,
                } => {
                    stop_sent = false;
                    let go = match go {
                        GoLine::Limits(limits) => client::go_command(dialect, &limits),
                        GoLine::Text(text) => text,
                    };
                    current = Some((serial, Instant::now()));
                    process.send(&position).and_then(|()| process.send(&go))
                }
                Job::SetOption(name, value) => process.send(&client::set_option(&name, &value)),
                Job::Stop => Ok(()),
            };
            if sent.is_err() {
                send(Report::Failed(format!("{label} closed its input")));
                return;
            }
        }
        match process.recv(Instant::now() + POLL, &SHUTDOWN) {
            Ok(line) => {
                let Some((serial, started)) = current else {
                    continue;
                };
                let is_best = matches!(client::parse_line(&line.text), EngineLine::BestMove(_));
                let report = Report::Line {
                    serial,
                    elapsed: line.at.saturating_duration_since(started),
                    text: line.text,
                };
                if !send(report) {
                    return;
                }
                if is_best {
                    current = None;
                }
            }
            Err(RecvError::Timeout) => {}
            Err(RecvError::Interrupted) => return,
            Err(RecvError::Closed) => {
                send(Report::Failed(format!("{label} exited")));
                return;
            }
            Err(RecvError::Flood(flood)) => {
                send(Report::Failed(format!("{label} {flood}")));
                return;
            }
        }
    }
}
