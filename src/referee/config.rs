//! What a run of the referee was asked to do, as plain values (read from the command
//! line by [`cli`](super::cli)).

use std::path::PathBuf;
use std::time::Duration;

use crate::client::EngineSpec;
use crate::rules::Variant;

/// Who plays whom.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TournamentKind {
    /// Everyone plays everyone (a plain match when there are two engines).
    #[default]
    RoundRobin,
    /// The first engine plays each of the others.
    Gauntlet,
}

impl TournamentKind {
    /// The name used on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            TournamentKind::RoundRobin => "round-robin",
            TournamentKind::Gauntlet => "gauntlet",
        }
    }
}

/// In which order lines of an openings file are used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OpeningOrder {
    /// From the first line on, starting again after the last.
    #[default]
    Sequential,
    /// Shuffled with the seed.
    Random,
}

/// Where the start positions come from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpeningsConfig {
    /// `file=`: position texts (or `startpos`), one a line.
    pub file: Option<PathBuf>,
    /// `order=`.
    pub order: OpeningOrder,
    /// `plies=`: random legal moves played from the start (or from each file line).
    pub plies: u32,
}

/// Which games count towards the SPRT's stopping decision.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SprtModel {
    /// Whichever of the two tests crosses a bound first stops the match.
    #[default]
    Both,
    /// Only the binomial test over single games.
    Binomial,
    /// Only the trinomial test over colour-swapped pairs.
    Pairs,
}

/// `-sprt elo0= elo1= alpha= beta= [model=]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtConfig {
    /// Elo difference of the null hypothesis.
    pub elo0: f64,
    /// Elo difference of the alternative hypothesis.
    pub elo1: f64,
    /// Chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Chance of accepting H0 when H1 holds.
    pub beta: f64,
    /// Which test may stop the match.
    pub model: SprtModel,
}

/// `-shard i/n`: play the colour-swapped pairs whose index is `index` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Zero-based (`-shard 1/4` is index 0).
    pub index: u32,
    /// Number of shards.
    pub count: u32,
}

/// How long the referee waits for engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// For `ugiok`/`uciok` (each attempt) and for `readyok`.
    pub startup: Duration,
    /// For a `bestmove` when no clock or move time limits the engine.
    pub watchdog: Duration,
    /// Between `quit` and killing the engine.
    pub grace: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            startup: Duration::from_secs(10),
            watchdog: Duration::from_secs(60),
            grace: Duration::from_secs(1),
        }
    }
}

/// A tournament to play.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The engines, in command-line order.
    pub engines: Vec<EngineSpec>,
    /// Round-robin or gauntlet.
    pub tournament: TournamentKind,
    /// Games per pairing and round (even: one colour-swapped pair per opening).
    pub games: u32,
    /// How often the whole schedule is repeated.
    pub rounds: u32,
    /// Games played at once.
    pub concurrency: u32,
    /// Board size and rules, sent to every engine and used for judging.
    pub variant: Variant,
    /// Start positions.
    pub openings: OpeningsConfig,
    /// The seed for random openings; chosen at random (and printed) when not given.
    pub seed: Option<u64>,
    /// `-pgnout`.
    pub pgn_out: Option<PathBuf>,
    /// `-json`.
    pub json_out: Option<PathBuf>,
    /// `-sprt`.
    pub sprt: Option<SprtConfig>,
    /// Standings are printed every this many games (and at the end).
    pub rating_interval: u32,
    /// `-resume`: the state file read at the start and written after every game.
    pub resume: Option<PathBuf>,
    /// `-shard`.
    pub shard: Option<Shard>,
    /// `-event`: the PGN Event tag.
    pub event: String,
    /// Waits for engines.
    pub timeouts: Timeouts,
    /// `-debug`: echo all engine traffic and engine stderr.
    pub debug: bool,
    /// The arguments as given, kept in the state file so `-resume <file>` alone can
    /// continue a run.
    pub args: Vec<String>,
}

/// `merge`: combine the JSON files of shards (or of separate runs of one schedule).
#[derive(Clone, Debug, PartialEq)]
pub struct MergeConfig {
    /// The files to combine.
    pub inputs: Vec<PathBuf>,
    /// Where to write the combined JSON.
    pub json_out: Option<PathBuf>,
    /// Where to write the combined PGN.
    pub pgn_out: Option<PathBuf>,
    /// An SPRT to evaluate on the combined games.
    pub sprt: Option<SprtConfig>,
}
