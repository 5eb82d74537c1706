//! The JSON summary written by `-json`, which is also an input of `merge` (as are the
//! state files of `-resume`, JSON Lines of the same records, see [`state`](super::state)): players with their tallies, every game with its moves, the
//! first-player rate, the SPRT, and the run's settings.

use std::io;
use std::path::Path;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::config::SprtConfig;
use super::game::{GameRecord, PlayedMove, Termination};
use super::openings::StartPosition;
use super::output;
use super::report;
use super::sprt::{Decision, SprtStatus};
use super::standings::Standings;
use crate::rules::{Color, Variant};

/// Format version written in every file.
pub const VERSION: u32 = 1;

/// The settings a file was made with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunInfo {
    /// The format version the file was written in (this module's `VERSION`).
    pub version: u32,
    /// Everything that decides which games are played and how; runs and shards whose
    /// fingerprints differ cannot be combined.
    pub fingerprint: String,
    /// The seed of the openings.
    pub seed: u64,
    /// Board size.
    pub board: String,
    /// Opening rule.
    pub opening: String,
    /// Multi-jump rule.
    pub multijump: String,
    /// Engine names in command-line order.
    pub engines: Vec<String>,
    /// Games in the whole schedule (all shards).
    pub scheduled_games: u64,
    /// `i/n` when the run was one shard.
    pub shard: Option<String>,
    /// The command line, so `-resume <file>` alone can continue the run.
    pub args: Vec<String>,
}

/// One player's line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerJson {
    /// Name.
    pub name: String,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games lost.
    pub losses: u64,
    /// Fraction of games won.
    pub score: f64,
    /// Elo difference against its opponents (null when infinite).
    pub elo: Option<f64>,
    /// 95% margin of `elo` (null when infinite).
    pub elo_margin: Option<f64>,
    /// Games won as black (first player).
    pub wins_as_black: u64,
    /// Games played as black.
    pub games_as_black: u64,
    /// Losses that were not normal, by termination.
    pub losses_by_fault: std::collections::BTreeMap<String, u64>,
}

/// One game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameJson {
    /// Game number in the whole schedule.
    pub game: u64,
    /// Round.
    pub round: u32,
    /// Colour-swapped pair.
    pub pair: u64,
    /// Black's (the first player's) name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The winner's name.
    pub winner: String,
    /// `black` or `white`.
    pub winner_side: Side,
    /// `normal`, `illegal move`, `time forfeit`, `crash`, `stall` or `flood`.
    pub termination: Termination,
    /// What happened, in a sentence.
    pub detail: String,
    /// `startpos` or the start position text.
    pub opening: String,
    /// Every move from the start position, in canonical text.
    pub moves: Vec<String>,
    /// Thinking time of each move in milliseconds.
    pub move_ms: Vec<u64>,
}

/// How often the first player won.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FirstPlayerJson {
    /// Games won by black.
    pub wins: u64,
    /// Games counted.
    pub games: u64,
    /// `wins / games`.
    pub rate: f64,
}

/// The state of one SPRT.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtJson {
    /// Log-likelihood ratio.
    pub llr: f64,
    /// Lower bound.
    pub lower: f64,
    /// Upper bound.
    pub upper: f64,
    /// `continue`, `H0` or `H1`.
    pub decision: String,
}

/// Both SPRTs and their settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtSummary {
    /// `elo0`.
    pub elo0: f64,
    /// `elo1`.
    pub elo1: f64,
    /// `alpha`.
    pub alpha: f64,
    /// `beta`.
    pub beta: f64,
    /// Over single games.
    pub binomial: SprtJson,
    /// Over colour-swapped pairs.
    pub pairs: SprtJson,
}

/// A whole file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Settings.
    pub referee: RunInfo,
    /// Tallies per player.
    #[serde(default)]
    pub players: Vec<PlayerJson>,
    /// Every finished game, by number.
    pub games: Vec<GameJson>,
    /// Black's wins.
    #[serde(default)]
    pub first_player: Option<FirstPlayerJson>,
    /// The SPRTs, when asked for.
    #[serde(default)]
    pub sprt: Option<SprtSummary>,
    /// Whether every scheduled game (of this shard) was played.
    #[serde(default)]
    pub complete: bool,
}

/// A file that cannot be used.
#[derive(Debug, Error)]
pub enum JsonError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        source: io::Error,
    },
    /// The text is not a summary.
    #[error("{path}: not a referee JSON file: {reason}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
}

/// A colour as JSON writes it: `black` or `white`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Black, the first player.
    Black,
    /// White.
    White,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::Black => Side::Black,
            Color::White => Side::White,
        }
    }
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::Black => Color::Black,
            Side::White => Color::White,
        }
    }
}

impl GameJson {
    /// The JSON form of a record.
    #[must_use]
    pub fn from_record(r: &GameRecord) -> GameJson {
        GameJson {
            game: r.number,
            round: r.round,
            pair: r.pair,
            black: r.black.clone(),
            white: r.white.clone(),
            winner: r.winner_name().to_string(),
            winner_side: r.winner.into(),
            termination: r.termination,
            detail: r.detail.clone(),
            opening: r.opening.label().to_string(),
            moves: r.moves.iter().map(|m| m.text.clone()).collect(),
            move_ms: r.moves.iter().map(|m| m.ms).collect(),
        }
    }

    /// The record again (move depths and scores are not kept in JSON).
    #[must_use]
    pub fn to_record(&self) -> GameRecord {
        GameRecord {
            number: self.game,
            round: self.round,
            pair: self.pair,
            black: self.black.clone(),
            white: self.white.clone(),
            winner: self.winner_side.into(),
            termination: self.termination,
            detail: self.detail.clone(),
            opening: StartPosition::from_label(&self.opening),
            moves: self
                .moves
                .iter()
                .enumerate()
                .map(|(i, text)| PlayedMove {
                    text: text.clone(),
                    ms: self.move_ms.get(i).copied().unwrap_or(0),
                    ..PlayedMove::default()
                })
                .collect(),
        }
    }
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// The player lines and first-player rate of `standings`.
#[must_use]
pub fn players(standings: &Standings) -> (Vec<PlayerJson>, FirstPlayerJson) {
    let players = standings
        .players
        .iter()
        .map(|p| PlayerJson {
            name: p.name.clone(),
            games: p.score.games(),
            wins: p.score.wins,
            losses: p.score.losses,
            score: p.score.fraction(),
            elo: finite(p.score.elo()),
            elo_margin: finite(p.score.elo_margin()),
            wins_as_black: p.as_black.wins,
            games_as_black: p.as_black.games(),
            losses_by_fault: Termination::ALL
                .iter()
                .zip(p.losses_by)
                .filter(|(t, n)| t.is_fault() && *n > 0)
                .map(|(t, n)| (t.to_string(), n))
                .collect(),
        })
        .collect();
    let f = standings.first_player;
    let first = FirstPlayerJson {
        wins: f.wins,
        games: f.games,
        rate: f.rate(),
    };
    (players, first)
}

impl RunInfo {
    /// The variant these settings name.
    pub fn variant(&self) -> Result<Variant, String> {
        Ok(Variant {
            size: self.board.parse().map_err(|e| format!("{e}"))?,
            opening: self.opening.parse().map_err(|e| format!("{e}"))?,
            multi_jump: self.multijump.parse().map_err(|e| format!("{e}"))?,
        })
    }
}

/// Writes a file whole and safely (see [`output`]), so an interrupted write never
/// leaves half a summary.
pub fn save(path: &Path, summary: &Summary) -> Result<(), JsonError> {
    let io_error = |source| JsonError::Io {
        path: path.display().to_string(),
        source,
    };
    let text = serde_json::to_string_pretty(summary).map_err(|e| io_error(io::Error::other(e)))?;
    output::write_whole(path, (text + "\n").as_bytes()).map_err(io_error)
}

fn sprt_json(status: &SprtStatus) -> SprtJson {
    SprtJson {
        llr: status.llr,
        lower: status.lower,
        upper: status.upper,
        decision: match status.decision() {
            Decision::Continue => "continue",
            Decision::AcceptH0 => "H0",
            Decision::AcceptH1 => "H1",
        }
        .to_string(),
    }
}

impl Summary {
    /// The summary of `records` (sorted by game number) played under `info`.
    #[must_use]
    pub fn build(
        info: RunInfo,
        standings: &Standings,
        records: &[GameRecord],
        sprt: Option<&SprtConfig>,
        complete: bool,
    ) -> Summary {
        let (players, first) = players(standings);
        let mut games: Vec<GameJson> = records.iter().map(GameJson::from_record).collect();
        games.sort_by_key(|g| g.game);
        let sprt = sprt.filter(|_| standings.players.len() == 2).map(|config| {
            let (binomial, pairs) = report::sprt_statuses(config, standings);
            SprtSummary {
                elo0: config.elo0,
                elo1: config.elo1,
                alpha: config.alpha,
                beta: config.beta,
                binomial: sprt_json(&binomial),
                pairs: sprt_json(&pairs),
            }
        });
        Summary {
            referee: info,
            players,
            games,
            first_player: Some(first),
            sprt,
            complete,
        }
    }
}
