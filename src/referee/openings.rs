//! Start positions: the standard start, lines of an openings file, and random legal
//! plies from a seed. Opening `k` is a pure function of the configuration and `k`, so
//! shards and resumed runs play the same openings.

use std::fs;
use std::path::PathBuf;

use thiserror::Error;

use super::config::{OpeningOrder, OpeningsConfig};
use crate::rules::{AnyPosition, Variant};

/// The position a pair of games starts from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum StartPosition {
    /// The variant's start (`position startpos`).
    Standard,
    /// A position text (`position fen <text>`).
    Text(String),
}

impl StartPosition {
    /// `startpos` or the position text, as written in game records.
    #[must_use]
    pub fn label(&self) -> &str {
        match self {
            StartPosition::Standard => "startpos",
            StartPosition::Text(t) => t,
        }
    }

    /// Reads a label written by [`label`](Self::label).
    #[must_use]
    pub fn from_label(label: &str) -> StartPosition {
        match label.trim() {
            "startpos" => StartPosition::Standard,
            text => StartPosition::Text(text.to_string()),
        }
    }

    /// The position text to send with `position fen`, or `None` for `startpos`.
    #[must_use]
    pub fn fen(&self) -> Option<&str> {
        match self {
            StartPosition::Standard => None,
            StartPosition::Text(t) => Some(t),
        }
    }

    /// The position text, also of the standard start (for a PGN's `FEN` tag).
    #[must_use]
    pub fn text(&self, variant: Variant) -> String {
        match self {
            StartPosition::Standard => AnyPosition::start(variant).to_string(),
            StartPosition::Text(t) => t.clone(),
        }
    }

    /// The position under `variant`'s rules.
    pub fn position(&self, variant: Variant) -> Result<AnyPosition, OpeningsError> {
        match self {
            StartPosition::Standard => Ok(AnyPosition::start(variant)),
            StartPosition::Text(text) => {
                AnyPosition::from_text(text, variant.opening, variant.multi_jump).map_err(|e| {
                    OpeningsError::Position {
                        text: text.clone(),
                        reason: e.to_string(),
                    }
                })
            }
        }
    }
}

/// Openings that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OpeningsError {
    /// The file could not be read.
    #[error("cannot read openings file {path}: {reason}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        reason: String,
    },
    /// The file holds no position.
    #[error("openings file {0} holds no position")]
    Empty(PathBuf),
    /// A line is not a playable position for the chosen rules.
    #[error("openings file {path}, line {line}: {reason}")]
    Line {
        /// The file.
        path: PathBuf,
        /// One-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A position text is not valid.
    #[error("opening '{text}': {reason}")]
    Position {
        /// The text.
        text: String,
        /// What is wrong.
        reason: String,
    },
}

/// The openings of a tournament.
#[derive(Clone, Debug)]
pub struct Openings {
    base: Vec<StartPosition>,
    order: Vec<usize>,
    plies: u32,
    seed: u64,
    variant: Variant,
}

impl Openings {
    /// Reads and checks the openings file, if any, and prepares the order.
    pub fn new(
        config: &OpeningsConfig,
        variant: Variant,
        seed: u64,
    ) -> Result<Openings, OpeningsError> {
        let base = match &config.file {
            None => vec![StartPosition::Standard],
            Some(path) => read_file(path, variant)?,
        };
        let mut order: Vec<usize> = (0..base.len()).collect();
        if config.order == OpeningOrder::Random {
            let mut rng = SplitMix64(seed);
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i + 1));
            }
        }
        Ok(Openings {
            base,
            order,
            plies: config.plies,
            seed,
            variant,
        })
    }

    /// Opening number `index`: the file's lines in turn (or the start), then `plies`
    /// random legal moves chosen so that the side to move always has a move left.
    #[must_use]
    pub fn get(&self, index: u64) -> StartPosition {
        let pick = self.order[(index % self.order.len() as u64) as usize];
        let base = &self.base[pick];
        if self.plies == 0 {
            return base.clone();
        }
        let Ok(mut position) = base.position(self.variant) else {
            // Every file line was checked when read.
            return base.clone();
        };
        let mut rng = SplitMix64(self.seed ^ SplitMix64(index).next());
        for _ in 0..self.plies {
            let playable: Vec<AnyPosition> = position
                .legal_move_texts()
                .iter()
                .filter_map(|m| {
                    let mut next = position;
                    next.play_text(m).ok()?;
                    next.outcome().is_none().then_some(next)
                })
                .collect();
            if playable.is_empty() {
                break;
            }
            position = playable[rng.below(playable.len())];
        }
        StartPosition::Text(position.to_string())
    }
}

fn read_file(path: &PathBuf, variant: Variant) -> Result<Vec<StartPosition>, OpeningsError> {
    let text = fs::read_to_string(path).map_err(|e| OpeningsError::Read {
        path: path.clone(),
        reason: e.to_string(),
    })?;
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |reason: String| OpeningsError::Line {
            path: path.clone(),
            line: i + 1,
            reason,
        };
        let start = StartPosition::from_label(line);
        let position = start.position(variant).map_err(|e| bad(e.to_string()))?;
        if position.variant().size != variant.size {
            return Err(bad(format!(
                "the board is {} but the tournament plays {}",
                position.variant().size,
                variant.size
            )));
        }
        if position.outcome().is_some() {
            return Err(bad("the side to move has no legal move".to_string()));
        }
        positions.push(start);
    }
    if positions.is_empty() {
        return Err(OpeningsError::Empty(path.clone()));
    }
    Ok(positions)
}

/// A small generator whose output never changes between versions of the crate or of
/// its dependencies, so a seed always names the same openings.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0); the bias is below 2^-40 for any board.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random(plies: u32, seed: u64) -> Openings {
        let config = OpeningsConfig {
            plies,
            ..OpeningsConfig::default()
        };
        Openings::new(&config, Variant::default(), seed).unwrap()
    }

    #[test]
    fn no_openings_means_the_standard_start() {
        assert_eq!(random(0, 1).get(5), StartPosition::Standard);
    }

    #[test]
    fn random_openings_are_a_function_of_seed_and_index() {
        let a = random(4, 7);
        let b = random(4, 7);
        assert_eq!(a.get(3), b.get(3));
        let texts: std::collections::HashSet<_> = (0..20).map(|i| a.get(i)).collect();
        assert!(
            texts.len() > 5,
            "20 random openings gave {} positions",
            texts.len()
        );
        let StartPosition::Text(text) = a.get(0) else {
            panic!("a random opening is a position text")
        };
        // Four plies: two removals and two jumps leave four empty squares.
        let empty: usize = text
            .split(' ')
            .next()
            .unwrap()
            .chars()
            .filter_map(|c| c.to_digit(10))
            .map(|d| d as usize)
            .sum();
        assert_eq!(empty, 4);
    }
}
