//! A whole run: resume state, seed, openings, the engines' first start, worker threads,
//! and on the main thread the reports, game records, SPRT and the stop decision.

use std::collections::{HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use crossbeam_channel::RecvTimeoutError;
use thiserror::Error;

use super::cli::{self, CliError, Invocation};
use super::config::{Config, TournamentKind};
use super::game::GameRecord;
use super::json::{self, GameJson, JsonError, RunInfo, Summary};
use super::openings::{Openings, OpeningsError};
use super::output;
use super::pgn;
use super::report;
use super::schedule::{Pending, Schedule};
use super::sprt::Decision;
use super::standings::Standings;
use super::state::{self, StateFile};
use super::worker::{self, Shared};
use crate::client::{self, Dialect, Engine, EngineSpec, StartError};

/// The most characters of an engine's `id name` used as its name.
const MAX_NAME_CHARS: usize = 64;

/// A run that could not be carried out.
#[derive(Debug, Error)]
pub enum RunError {
    /// The command line stored in a state file is not valid.
    #[error(transparent)]
    Cli(#[from] CliError),
    /// The openings cannot be used.
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    /// An engine did not start.
    #[error(transparent)]
    Start(#[from] StartError),
    /// A JSON or state file cannot be read or written.
    #[error(transparent)]
    Json(#[from] JsonError),
    /// A file cannot be written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        source: io::Error,
    },
    /// The schedule has more games than can be counted.
    #[error("the schedule has too many games to count")]
    ScheduleTooLong,
    /// A state file of another tournament.
    #[error("the state file was made by a different tournament:\n  file: {file}\n  now:  {now}")]
    OtherTournament {
        /// The file's fingerprint.
        file: String,
        /// This run's fingerprint.
        now: String,
    },
    /// `-resume <file>` alone, and the file does not exist.
    #[error(
        "state file {} does not exist: give the whole command line to start the run",
        .0.display()
    )]
    NoStateFile(std::path::PathBuf),
    /// The command line stored in a state file is not a run.
    #[error("the state file {} holds no run", .0.display())]
    NoRunInStateFile(std::path::PathBuf),
    /// Files given to `merge` come from different tournaments.
    #[error("{path} was made by a different tournament than {first}:\n  {theirs}\n  {ours}")]
    MergeMismatch {
        /// The file that does not match.
        path: String,
        /// The first file.
        first: String,
        /// The fingerprint of `path`.
        theirs: String,
        /// The fingerprint of `first`.
        ours: String,
    },
    /// `merge` was given no file.
    #[error("merge needs at least one file")]
    NothingToMerge,
    /// The rules named in a file cannot be read.
    #[error("the rules of the files: {0}")]
    Variant(String),
}

/// Why a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Every scheduled game was played.
    Completed,
    /// An SPRT crossed a bound.
    Sprt(&'static str, Decision),
    /// Ctrl-C (or SIGTERM, SIGHUP).
    Interrupted,
}

/// What a run produced.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// Engine names, in command-line order.
    pub names: Vec<String>,
    /// Every finished game (those resumed included), by game number.
    pub records: Vec<GameRecord>,
    /// Their tallies.
    pub standings: Standings,
    /// Why the run ended.
    pub stop: Stop,
    /// The seed used.
    pub seed: u64,
}

fn say(out: &mut dyn Write, text: &str) {
    // A closed output must not end a tournament whose results still go to files.
    let _ = writeln!(out, "{text}");
    let _ = out.flush();
}

/// Plays the tournament `config` asks for, printing progress to `out`; stops early when
/// `interrupt` is raised.
pub fn run(
    config: Config,
    out: &mut dyn Write,
    interrupt: &AtomicBool,
) -> Result<RunReport, RunError> {
    let (mut setup, pending) = set_up(config, out, interrupt)?;
    let progress = play(&mut setup, pending, out, interrupt)?;
    finish(setup, progress, out)
}

/// A run ready to play its first game.
struct SetUp {
    config: Config,
    seed: u64,
    openings: Openings,
    names: Vec<String>,
    dialects: Vec<Dialect>,
    info: RunInfo,
    /// The games of the state file.
    resumed: Vec<GameRecord>,
    outputs: Outputs,
}

/// Where the games stand.
struct Progress {
    records: Vec<GameRecord>,
    standings: Standings,
    stop: Stop,
    played_now: u64,
    to_play: u64,
}

/// Everything before the first game: the state file, seed, openings and schedule, the
/// output paths, the engines' first start, the output files.
fn set_up(
    config: Config,
    out: &mut dyn Write,
    interrupt: &AtomicBool,
) -> Result<(SetUp, Pending), RunError> {
    let (config, resumed) = with_resume(config)?;
    if let Some(contents) = &resumed {
        for w in &contents.warnings {
            say(out, &format!("Warning: state file: {w}"));
        }
    }
    let resumed = resumed.map(|c| (c.info, c.games));
    let seed = config
        .seed
        .or(resumed.as_ref().map(|(info, _)| info.seed))
        .unwrap_or_else(rand::random);
    say(out, &format!("Seed: {seed}"));
    let openings = Openings::new(&config.openings, config.variant, seed)?;
    let full = Schedule::new(
        config.engines.len(),
        config.tournament,
        config.games,
        config.rounds,
    )
    .ok_or(RunError::ScheduleTooLong)?;
    let scheduled = full.len();
    let done: HashSet<u64> = resumed
        .iter()
        .flat_map(|(_, games)| games.iter().map(|g| g.game))
        .collect();
    let pending = Pending::new(full, config.shard, done);
    if let Some(path) = &config.json_out {
        output::check(path).map_err(|source| RunError::Io {
            path: path.display().to_string(),
            source,
        })?;
    }
    let (names, dialects) = probe(&config, interrupt)?;
    let info = run_info(&config, &names, seed, scheduled);
    let mut records = Vec::new();
    if let Some((old, games)) = &resumed {
        if old.fingerprint != info.fingerprint {
            return Err(RunError::OtherTournament {
                file: old.fingerprint.clone(),
                now: info.fingerprint,
            });
        }
        records.extend(games.iter().map(GameJson::to_record));
        say(
            out,
            &format!("Resuming: {} games already played", records.len()),
        );
    }
    say(out, &header(&config, &names, pending.left(), scheduled));
    let outputs = Outputs::open(&config, &info)?;
    let setup = SetUp {
        config,
        seed,
        openings,
        names,
        dialects,
        info,
        resumed: records,
        outputs,
    };
    Ok((setup, pending))
}

/// The event loop: workers play the games; this thread reports and records each one,
/// and raises the halt on an SPRT decision, an interrupt or a file that cannot be
/// written.
fn play(
    setup: &mut SetUp,
    pending: Pending,
    out: &mut dyn Write,
    interrupt: &AtomicBool,
) -> Result<Progress, RunError> {
    let config = &setup.config;
    let to_play = pending.left();
    let scheduled = setup.info.scheduled_games;
    let workers = u64::from(config.concurrency).min(to_play);
    let queue = Mutex::new(pending);
    let halt = AtomicBool::new(false);
    let shared = Shared {
        specs: &config.engines,
        names: &setup.names,
        dialects: &setup.dialects,
        variant: config.variant,
        timeouts: config.timeouts,
        openings: &setup.openings,
        queue: &queue,
        halt: &halt,
        debug: config.debug,
    };
    let mut progress = Progress {
        standings: Standings::new(&setup.names, &setup.resumed),
        records: std::mem::take(&mut setup.resumed),
        stop: Stop::Completed,
        played_now: 0,
        to_play,
    };
    let mut failure = None;
    let (sender, receiver) = crossbeam_channel::unbounded();
    thread::scope(|scope| {
        for _ in 0..workers {
            let sender = sender.clone();
            let shared = &shared;
            scope.spawn(move || worker::run(shared, &sender));
        }
        drop(sender);
        loop {
            match receiver.recv_timeout(Duration::from_millis(50)) {
                Ok(record) => {
                    say(out, &report::game_line(&record, scheduled));
                    if let Err(e) = setup.outputs.game(&record, config) {
                        failure = Some(e);
                        halt.store(true, Ordering::SeqCst);
                        break;
                    }
                    if progress.record(record, config, out) {
                        halt.store(true, Ordering::SeqCst);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if interrupt.load(Ordering::SeqCst) && !halt.load(Ordering::SeqCst) {
                progress.stop = Stop::Interrupted;
                halt.store(true, Ordering::SeqCst);
            }
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(progress),
    }
}

impl Progress {
    /// Counts a finished game, prints the standings when due; `true` when an SPRT has
    /// just decided the match.
    fn record(&mut self, record: GameRecord, config: &Config, out: &mut dyn Write) -> bool {
        self.played_now += 1;
        self.standings.add(&record);
        self.records.push(record);
        // The last game's standings come with the final report.
        let interval = u64::from(config.rating_interval);
        if interval > 0
            && self.played_now.is_multiple_of(interval)
            && self.played_now < self.to_play
        {
            say(
                out,
                &report::standings_block(&self.standings, config.sprt.as_ref()),
            );
        }
        if let Some(sprt) = &config.sprt {
            let (binomial, pairs) = report::sprt_statuses(sprt, &self.standings);
            if self.stop == Stop::Completed
                && let Some((test, decision)) = report::sprt_verdict(sprt, &binomial, &pairs)
            {
                self.stop = Stop::Sprt(test, decision);
                return true;
            }
        }
        false
    }
}

/// The final report, the reason the run ended and the JSON summary.
fn finish(setup: SetUp, progress: Progress, out: &mut dyn Write) -> Result<RunReport, RunError> {
    let SetUp {
        config,
        seed,
        names,
        info,
        ..
    } = setup;
    let Progress {
        mut records,
        standings,
        stop,
        played_now,
        to_play,
    } = progress;
    records.sort_by_key(|r| r.number);
    say(out, "");
    say(out, &report::final_block(&standings, config.sprt.as_ref()));
    match stop {
        Stop::Sprt(test, decision) => {
            if let Some(sprt) = &config.sprt {
                say(out, &report::sprt_stop_line(sprt, test, decision));
            }
        }
        Stop::Interrupted => {
            let resume = match &config.resume {
                Some(path) => format!("; continue with -resume {}", path.display()),
                None => String::new(),
            };
            say(
                out,
                &format!("Interrupted after {played_now} of {to_play} games{resume}"),
            );
        }
        Stop::Completed => say(out, "Finished: every scheduled game was played"),
    }
    if let Some(path) = &config.json_out {
        let complete = stop == Stop::Completed;
        let summary = Summary::build(info, &standings, &records, config.sprt.as_ref(), complete);
        json::save(path, &summary)?;
    }
    Ok(RunReport {
        names,
        records,
        standings,
        stop,
        seed,
    })
}

/// `Match on 8x8 diagonal straight: A (tc=10+0.1) vs B (tc=10+0.1), 20 games to play of
/// 20 scheduled`.
fn header(config: &Config, names: &[String], to_play: u64, scheduled: u64) -> String {
    let players: Vec<String> = names
        .iter()
        .zip(&config.engines)
        .map(|(name, spec)| format!("{name} ({})", spec.limits))
        .collect();
    let (kind, joiner) = if names.len() == 2 {
        ("Match", " vs ")
    } else if config.tournament == TournamentKind::Gauntlet {
        ("Gauntlet", ", ")
    } else {
        ("Round-robin", ", ")
    };
    let shard = config
        .shard
        .map(|s| format!(" (shard {}/{})", s.index + 1, s.count))
        .unwrap_or_default();
    format!(
        "{kind} on {}: {}, {to_play} games to play{shard} of {scheduled} scheduled",
        config.variant,
        players.join(joiner)
    )
}

/// The state file's settings and games, when `-resume` names a file that exists; with
/// `-resume <file>` alone, the command line stored in the file.
fn with_resume(config: Config) -> Result<(Config, Option<state::Contents>), RunError> {
    let Some(path) = config.resume.clone() else {
        return Ok((config, None));
    };
    if !path.exists() {
        if config.engines.is_empty() {
            return Err(RunError::NoStateFile(path));
        }
        return Ok((config, None));
    }
    let contents = state::load(&path)?;
    let config = if config.engines.is_empty() {
        match cli::parse(&contents.info.args)? {
            Invocation::Run(mut stored) => {
                stored.resume = Some(path);
                *stored
            }
            _ => return Err(RunError::NoRunInStateFile(path)),
        }
    } else {
        config
    };
    Ok((config, Some(contents)))
}

/// The name an engine goes by before it has said its own.
fn provisional_name(spec: &EngineSpec) -> String {
    spec.name.clone().unwrap_or_else(|| {
        spec.process.cmd.file_name().map_or_else(
            || spec.process.cmd.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    })
}

/// Starts every engine once, together, to learn its protocol and name (and to fail
/// early, naming the engine, when one cannot be started); then stops them.
fn probe(config: &Config, interrupt: &AtomicBool) -> Result<(Vec<String>, Vec<Dialect>), RunError> {
    let results: Vec<Result<(String, Dialect), StartError>> = thread::scope(|scope| {
        let handles: Vec<_> = config
            .engines
            .iter()
            .map(|spec| {
                scope.spawn(move || {
                    let label = provisional_name(spec);
                    let engine = Engine::start(
                        spec,
                        &label,
                        None,
                        config.variant,
                        config.timeouts.startup,
                        config.debug,
                        interrupt,
                    )?;
                    let name = spec
                        .name
                        .clone()
                        .or_else(|| {
                            engine
                                .id_name()
                                .filter(|n| !n.is_empty())
                                .map(|n| client::shorten(n, MAX_NAME_CHARS).into_owned())
                        })
                        .unwrap_or(label);
                    let dialect = engine.dialect();
                    engine.quit(config.timeouts.grace);
                    Ok((name, dialect))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Err(StartError::Interrupted)))
            .collect()
    });
    let mut names = Vec::new();
    let mut dialects = Vec::new();
    for r in results {
        let (name, dialect) = r?;
        names.push(name);
        dialects.push(dialect);
    }
    Ok((unique(names), dialects))
}

/// Names made distinct: a repeated name gets ` (2)`, ` (3)`...
fn unique(names: Vec<String>) -> Vec<String> {
    let mut seen: HashMap<String, u32> = HashMap::new();
    names
        .into_iter()
        .map(|n| {
            let count = seen.entry(n.clone()).or_insert(0);
            *count += 1;
            if *count == 1 {
                n
            } else {
                format!("{n} ({count})")
            }
        })
        .collect()
}

/// The run's settings as written in JSON and state files.
fn run_info(config: &Config, names: &[String], seed: u64, scheduled: u64) -> RunInfo {
    let engines: Vec<String> = config
        .engines
        .iter()
        .zip(names)
        .map(|(e, name)| {
            format!(
                "{name}: {} {:?} {:?} {}",
                e.process.cmd.display(),
                e.process.args,
                e.options,
                e.limits
            )
        })
        .collect();
    let openings = &config.openings;
    let fingerprint = format!(
        "v{} {} games={} rounds={} variant={} openings=[file={} order={:?} plies={}] seed={seed} engines=[{}]",
        json::VERSION,
        config.tournament.name(),
        config.games,
        config.rounds,
        config.variant,
        openings
            .file
            .as_ref()
            .map_or_else(|| "none".to_string(), |f| f.display().to_string()),
        openings.order,
        openings.plies,
        engines.join("; ")
    );
    RunInfo {
        version: json::VERSION,
        fingerprint,
        seed,
        board: config.variant.size.to_string(),
        opening: config.variant.opening.to_string(),
        multijump: config.variant.multi_jump.to_string(),
        engines: names.to_vec(),
        scheduled_games: scheduled,
        shard: config.shard.map(|s| format!("{}/{}", s.index + 1, s.count)),
        args: config.args.clone(),
    }
}

/// The files written as games finish: PGN and the state file.
struct Outputs {
    pgn: Option<(File, String)>,
    state: Option<StateFile>,
}

impl Outputs {
    fn open(config: &Config, info: &RunInfo) -> Result<Outputs, RunError> {
        let pgn = match &config.pgn_out {
            Some(path) => Some((append(path)?, path.display().to_string())),
            None => None,
        };
        let state = match &config.resume {
            Some(path) => Some(StateFile::open(path, info)?),
            None => None,
        };
        Ok(Outputs { pgn, state })
    }

    fn game(&mut self, record: &GameRecord, config: &Config) -> Result<(), RunError> {
        if let Some((file, path)) = &mut self.pgn {
            let text = pgn::game(record, &config.event, config.variant);
            file.write_all(text.as_bytes())
                .and_then(|()| file.flush())
                .map_err(|source| RunError::Io {
                    path: path.clone(),
                    source,
                })?;
        }
        if let Some(state) = &mut self.state {
            state.append(GameJson::from_record(record))?;
        }
        Ok(())
    }
}

/// Opens a file for appending, creating it if needed.
pub(crate) fn append(path: &Path) -> Result<File, RunError> {
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|source| RunError::Io {
            path: path.display().to_string(),
            source,
        })
}
