//! Playing below full strength, the way a weaker player does: `Skill Level`,
//! `UCI_LimitStrength` and `UCI_Elo`.
//!
//! A weakened search looks less far ahead (a depth cap that grows with the level) and
//! keeps several candidate lines (an internal MultiPV). It then picks one of them at
//! random, each with a weight that falls off exponentially with how much worse its score
//! is than the best one's (a softmax with a temperature that shrinks as the level
//! rises). So a low level plays a plausible move that a deeper look would reject, never
//! a move outside its short list of good ones, and a level near the top nearly always
//! plays its best line.
//!
//! The Elo of each level comes from referee matches (the ladder in the README); the
//! anchor is the depth-4 mobility baseline engine (`examples/baseline.rs`) at 1000
//! Elo, on 8x8 at 100,000 nodes a move.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::rules::{Bitboard, Move, Position};

use super::score::Score;
use super::{Iteration, SearchControl, SearchParams, SearchResult, Searcher};

/// Full strength: the search as it is without this module.
pub const MAX_LEVEL: u32 = 20;

/// The top of the strength scale (see [`Skill::strength`]).
const FULL_STRENGTH: f64 = 20.0;

/// The strength of each level below [`MAX_LEVEL`]. Matches measured the Elo of the
/// scale at 0, 5, 10, 15, 19 and full strength (in the commit that placed the levels,
/// with the evaluation of its day); each level sits where the curve through those points
/// gave it an even share.
const STRENGTH: [f64; MAX_LEVEL as usize] = [
    0.0, 1.27, 2.54, 3.81, 5.09, 6.51, 7.94, 9.36, 10.42, 11.19, 11.95, 12.72, 13.49, 14.25, 15.02,
    15.82, 16.61, 17.41, 18.2, 19.0,
];

/// Elo of each level from 0 to [`MAX_LEVEL`], on the scale where the baseline engine
/// has 1000: every level measured, fitted to all the matches of `scripts/ladder` at
/// once (the README's ladder). Where the fit put a level a few Elo below the one under
/// it (within the margin of their match), the two are pooled at their mean and split
/// by one Elo, so that the ladder rises and each value names one level.
pub const LADDER: [i32; MAX_LEVEL as usize + 1] = [
    443, 444, 679, 733, 873, 940, 941, 1060, 1234, 1266, 1281, 1366, 1419, 1506, 1620, 1621, 1790,
    1880, 1967, 1973, 2174,
];

/// Lowest `UCI_Elo`: that of level 0.
pub const MIN_ELO: i32 = LADDER[0];
/// Highest `UCI_Elo`: that of full strength.
pub const MAX_ELO: i32 = LADDER[MAX_LEVEL as usize];

/// The level whose measured Elo is nearest to `elo` (the lower one on a tie).
#[must_use]
pub fn level_for_elo(elo: i32) -> u32 {
    (0..=MAX_LEVEL)
        .min_by_key(|&level| (LADDER[level as usize] - elo).abs())
        .unwrap_or(MAX_LEVEL)
}

/// How far below full strength to play, and where the randomness comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    level: u32,
    seed: Option<u64>,
}

impl Skill {
    /// A level from 0 (weakest) below [`MAX_LEVEL`]; `None` at full strength, which
    /// needs no weakening. With a `seed` the choice depends on the seed and the
    /// position only, so matches replay exactly; without one it is random.
    #[must_use]
    pub fn new(level: u32, seed: Option<u64>) -> Option<Skill> {
        (level < MAX_LEVEL).then_some(Skill { level, seed })
    }

    /// The level.
    #[must_use]
    pub fn level(self) -> u32 {
        self.level
    }

    /// Where the level sits on the search's strength scale, from 0.0 (weakest) to
    /// 20.0 (full strength, never reached here): the parameters below grow or shrink
    /// evenly along it, and [`STRENGTH`] spaces the levels so that each is about the
    /// same measured step.
    fn strength(self) -> f64 {
        STRENGTH[self.level as usize]
    }

    /// The deepest iteration: 1 ply at the bottom of the scale, one more every two
    /// units.
    #[must_use]
    pub fn depth(self) -> u32 {
        1 + (self.strength() / 2.0) as u32
    }

    /// How many of the best root moves the choice is made among: 8 at the bottom of
    /// the scale, one fewer every five units.
    #[must_use]
    pub fn candidates(self) -> usize {
        4 + ((FULL_STRENGTH - self.strength()) / 5.0) as usize
    }

    /// The softmax temperature, in score units (those of `info score cp`: one jump more
    /// than the opponent is worth about 80): how much worse than the best a candidate
    /// may be and still be chosen often (a candidate `temperature` worse is chosen `e`
    /// times less often than the best). 300 at the bottom of the scale, falling evenly
    /// towards 0 at full strength.
    #[must_use]
    pub fn temperature(self) -> f64 {
        15.0 * (FULL_STRENGTH - self.strength())
    }

    /// The index of the candidate to play among `scores` (best first, not empty), for
    /// a `draw` uniform in `[0, 1)`: each candidate's weight is
    /// `exp((score - best) / temperature)`.
    #[must_use]
    pub fn choose(self, scores: &[Score], draw: f64) -> usize {
        let Some(&best) = scores.first() else {
            return 0;
        };
        let temperature = self.temperature();
        let weights: Vec<f64> = scores
            .iter()
            .map(|&s| (f64::from(s - best) / temperature).exp())
            .collect();
        let mut left = draw * weights.iter().sum::<f64>();
        for (i, w) in weights.iter().enumerate() {
            if left < *w {
                return i;
            }
            left -= w;
        }
        // Rounding can leave a sliver past the last weight: it belongs to the last.
        scores.len() - 1
    }

    fn rng<B: Bitboard>(self, pos: &Position<B>) -> StdRng {
        match self.seed {
            Some(seed) => StdRng::seed_from_u64(seed ^ pos.hash()),
            None => rand::make_rng(),
        }
    }
}

/// One candidate root move of the last finished iteration.
struct Candidate<B> {
    depth: u32,
    score: Score,
    mv: Move<B>,
    reply: Option<Move<B>>,
}

/// Searches `pos` as `searcher.search` does, weakened to `skill`: no deeper than its
/// depth, with its candidate lines, then one of them chosen (see the module docs).
/// `report` sees the lines the caller's own `MultiPV` asks for, of the whole search;
/// the move played may be another.
pub(super) fn search<B: Bitboard>(
    searcher: &mut Searcher,
    pos: &Position<B>,
    params: &SearchParams<B>,
    skill: Skill,
    control: &SearchControl,
    report: &mut dyn FnMut(&Iteration<'_, B>),
) -> SearchResult<B> {
    let shown = params.multipv.max(1);
    let weakened = SearchParams {
        depth: Some(params.depth.map_or(skill.depth(), |d| d.min(skill.depth()))),
        multipv: shown.max(skill.candidates()),
        skill: None,
        ..params.clone()
    };
    let mut last: Vec<Candidate<B>> = Vec::new();
    let mut result = searcher.search(pos, &weakened, control, &mut |it| {
        let Some(&mv) = it.pv.first() else { return };
        if last.first().is_some_and(|c| c.depth != it.depth) {
            last.clear();
        }
        last.push(Candidate {
            depth: it.depth,
            score: it.score,
            mv,
            reply: it.pv.get(1).copied(),
        });
        if it.multipv <= shown {
            report(it);
        }
    });
    last.truncate(skill.candidates());
    let scores: Vec<Score> = last.iter().map(|c| c.score).collect();
    if let Some(chosen) = last.get(skill.choose(&scores, skill.rng(pos).random::<f64>())) {
        result.best = Some(chosen.mv);
        result.ponder = chosen.reply;
        result.score = chosen.score;
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(level: u32) -> Skill {
        Skill::new(level, Some(1)).expect("below full strength")
    }

    #[test]
    fn full_strength_needs_no_weakening() {
        assert_eq!(Skill::new(MAX_LEVEL, None), None);
        assert!(Skill::new(MAX_LEVEL - 1, None).is_some());
    }

    #[test]
    fn higher_levels_look_deeper_with_less_noise() {
        for l in 1..MAX_LEVEL {
            let (lower, higher) = (level(l - 1), level(l));
            assert!(higher.depth() >= lower.depth());
            assert!(higher.candidates() <= lower.candidates());
            assert!(higher.temperature() < lower.temperature());
        }
        assert_eq!(level(0).depth(), 1);
    }

    #[test]
    fn choice_follows_the_weights() {
        let skill = level(10);
        let t = skill.temperature();
        // Two equal candidates share the draws half and half.
        assert_eq!(skill.choose(&[50, 50], 0.49), 0);
        assert_eq!(skill.choose(&[50, 50], 0.51), 1);
        // One `t` worse: weight 1/e, so it takes the draws above e/(1+e).
        let worse = 50 - t as Score;
        let split = 1.0 / (1.0 + (-1.0f64).exp());
        assert_eq!(skill.choose(&[50, worse], split - 0.01), 0);
        assert_eq!(skill.choose(&[50, worse], split + 0.01), 1);
        assert_eq!(skill.choose(&[50, worse, worse], 0.999_999), 2);
        assert_eq!(skill.choose(&[], 0.5), 0);
    }

    #[test]
    fn a_proven_win_is_not_given_away() {
        let win = super::super::score::proven(true, 3);
        for l in 0..MAX_LEVEL {
            assert_eq!(level(l).choose(&[win, 300, 200], 0.999), 0);
        }
    }

    #[test]
    fn lower_levels_spread_their_choice_wider() {
        // The share of draws that pick a move 100 worse than the best.
        let share = |l: u32| {
            (0..1000)
                .filter(|i| level(l).choose(&[0, -100], f64::from(*i) / 1000.0) == 1)
                .count()
        };
        assert!(share(0) > share(10));
        assert!(share(10) > share(19));
    }

    #[test]
    fn elo_maps_to_the_nearest_level() {
        assert_eq!(level_for_elo(MIN_ELO), 0);
        assert_eq!(level_for_elo(MIN_ELO - 500), 0);
        assert_eq!(level_for_elo(MAX_ELO), MAX_LEVEL);
        for l in 0..=MAX_LEVEL {
            assert_eq!(level_for_elo(LADDER[l as usize]), l);
        }
        assert!(LADDER.windows(2).all(|w| w[0] < w[1]));
    }
}
