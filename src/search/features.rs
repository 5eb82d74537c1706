//! The features of a position that an evaluation can weigh, for fitting weights to
//! exact data (`scripts/tune`): for each side, the jumps it has, the stones that can
//! jump, the jumps the opponent cannot take away at once ("safe"), the jumps that wait
//! only for one of its own stones to move ("potential"), its stones that the opponent
//! can capture now, and its stones with no enemy stone next to them (which cannot move
//! until one arrives); and the move itself (tempo).
//!
//! The search does not compute them all: [`evaluate`](super::eval::evaluate) weighs the
//! jumps, the movable stones and the tempo ([`ENGINE_WEIGHTS`]) and adds the stone
//! [`patterns`](super::patterns), which see what the other features count and more.
//! Fits of all of these features without the patterns did not play better (see
//! [`ENGINE_WEIGHTS`]).

use crate::rules::{Bitboard, Direction, Position};

use super::patterns::LINEAR;
use super::score::Score;

/// The features the evaluation weighs, each counted for the side to move ("own") and
/// for its opponent ("their"), as if each were to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// Jump moves (jump paths under the turning rule) of the side to move.
    OwnJumps,
    /// Jump moves the opponent would have.
    TheirJumps,
    /// Stones of the side to move that can jump.
    OwnMovable,
    /// Stones of the opponent that could jump.
    TheirMovable,
    /// First jumps of the side to move whose stone the opponent cannot capture now and
    /// whose jumped stone cannot move away now.
    OwnSafe,
    /// The same for the opponent.
    TheirSafe,
    /// Jumps of the side to move blocked only by one of its own stones on the landing
    /// square: they open when that stone moves.
    OwnPotential,
    /// The same for the opponent.
    TheirPotential,
    /// Stones of the side to move that the opponent could capture now.
    OwnAttacked,
    /// Stones of the opponent that the side to move can capture now.
    TheirAttacked,
    /// Stones of the side to move with no enemy stone next to them.
    OwnIsolated,
    /// Stones of the opponent with no stone of the side to move next to them.
    TheirIsolated,
    /// Always 1: the value of having the move.
    Tempo,
}

/// Number of features.
pub const FEATURES: usize = 13;

impl Feature {
    /// Every feature, in the order of [`Features`] and [`ENGINE_WEIGHTS`].
    pub const ALL: [Feature; FEATURES] = [
        Feature::OwnJumps,
        Feature::TheirJumps,
        Feature::OwnMovable,
        Feature::TheirMovable,
        Feature::OwnSafe,
        Feature::TheirSafe,
        Feature::OwnPotential,
        Feature::TheirPotential,
        Feature::OwnAttacked,
        Feature::TheirAttacked,
        Feature::OwnIsolated,
        Feature::TheirIsolated,
        Feature::Tempo,
    ];

    /// A short name, for tables and tuning output.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Feature::OwnJumps => "own jumps",
            Feature::TheirJumps => "their jumps",
            Feature::OwnMovable => "own movable",
            Feature::TheirMovable => "their movable",
            Feature::OwnSafe => "own safe",
            Feature::TheirSafe => "their safe",
            Feature::OwnPotential => "own potential",
            Feature::TheirPotential => "their potential",
            Feature::OwnAttacked => "own attacked",
            Feature::TheirAttacked => "their attacked",
            Feature::OwnIsolated => "own isolated",
            Feature::TheirIsolated => "their isolated",
            Feature::Tempo => "tempo",
        }
    }
}

/// The value of each feature of a position, in the order of [`Feature::ALL`].
pub type Features = [i32; FEATURES];

/// The weights [`evaluate`](super::eval::evaluate) gives the features: those of the
/// jumps, the movable stones and the tempo fitted with the square patterns
/// ([`LINEAR`]), nothing for the rest; the evaluation adds the patterns' score.
///
/// Fits of all these features without the patterns did not beat the two hand-set
/// terms before them (100 a jump, 25 a stone that can jump): on 6x6 they gave
/// `[108, -92, 114, -109, -50, 22, 45, -51, -64, 33, 51, -44, 220]` (held-out log loss
/// 0.477 against 0.502), which scored 126-130 against those weights on 8x8 at 100 ms a
/// move (256 games; the pair SPRT for +50 Elo accepted "no gain") and kept fewer 6x6
/// wins at `go nodes 100000` (91.4% against 95.2%); see the README's accuracy table.
/// Computing all features costs about a tenth of the search's speed.
pub const ENGINE_WEIGHTS: [Score; FEATURES] = [
    LINEAR[0], LINEAR[1], LINEAR[2], LINEAR[3], 0, 0, 0, 0, 0, 0, 0, 0, LINEAR[4],
];

/// What one side's stones can do, direction by direction.
struct Side<B> {
    /// Per direction, the stones that can jump that way now.
    open: [B; 4],
    /// Stones that can jump.
    movable: B,
    /// Enemy stones this side can capture now.
    targets: B,
    /// Stones with an enemy stone next to them.
    in_contact: B,
    /// Jumps blocked only by an own stone on the landing square.
    potential: u32,
}

impl<B: Bitboard> Side<B> {
    /// The lanes of the side with stones `own` against `enemy` on `pos`'s board.
    #[inline(always)]
    fn new(pos: &Position<B>, own: B, enemy: B) -> Side<B> {
        let geo = pos.geometry();
        let empty = pos.empty();
        let mut side = Side {
            open: [B::EMPTY; 4],
            movable: B::EMPTY,
            targets: B::EMPTY,
            in_contact: B::EMPTY,
            potential: 0,
        };
        for dir in Direction::ALL {
            let step = geo.step(dir);
            let from = geo.jump_from(dir);
            let facing = own & enemy.shifted(-step);
            let open = from & facing & empty.shifted(-2 * step);
            side.open[dir.index()] = open;
            side.movable |= open;
            side.targets |= open.shifted(step);
            side.potential += (from & facing & own.shifted(-2 * step)).count();
            // Squares with a neighbour that way: those with two squares of room, and
            // the ones a step further (no wrap-around from one rank to the next).
            side.in_contact |= facing & (from | from.shifted(step));
        }
        side
    }

    /// First jumps that the opponent cannot take away with its next move: the jumping
    /// stone is not among its `threatened` stones and the jumped stone cannot move.
    #[inline(always)]
    fn safe(&self, pos: &Position<B>, threatened: B, enemy_movable: B) -> u32 {
        let geo = pos.geometry();
        Direction::ALL
            .iter()
            .map(|&dir| {
                let step = geo.step(dir);
                (self.open[dir.index()] & !threatened & !enemy_movable.shifted(-step)).count()
            })
            .sum()
    }
}

/// The features of `pos`, in the order of [`Feature::ALL`].
#[inline]
#[must_use]
pub fn features<B: Bitboard>(pos: &Position<B>) -> Features {
    let colour = pos.side_to_move();
    let own = pos.stones(colour);
    let their = pos.stones(colour.opponent());
    let us = Side::new(pos, own, their);
    let them = Side::new(pos, their, own);
    let count = |n: u64| i32::try_from(n).unwrap_or(i32::MAX);
    [
        count(pos.mobility(colour).moves),
        count(pos.mobility(colour.opponent()).moves),
        us.movable.count() as i32,
        them.movable.count() as i32,
        us.safe(pos, them.targets, them.movable) as i32,
        them.safe(pos, us.targets, us.movable) as i32,
        us.potential as i32,
        them.potential as i32,
        them.targets.count() as i32,
        us.targets.count() as i32,
        (own & !us.in_contact).count() as i32,
        (their & !them.in_contact).count() as i32,
        1,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{AnyPosition, MultiJump, Opening};
    use crate::search::eval::evaluate;
    use crate::search::patterns;
    use crate::with_position;

    fn features_of(text: &str) -> Features {
        let pos = AnyPosition::from_text(text, Opening::Diagonal, MultiJump::Straight)
            .expect("test positions are legal");
        with_position!(pos, p => features(&p))
    }

    fn get(f: &Features, feature: Feature) -> i32 {
        f[feature as usize]
    }

    #[test]
    fn jumps_and_movable_stones_agree_with_move_generation() {
        for text in [
            "bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbw1wb/bwb1b1bw/wbwb2wb/bwbw1wbw/wbwbwbwb b",
            "2bwbwbw/2wbwbwb/b1b2wbw/2w2bwb/1w1wbwbw/1b1bwbwb/5wbw/w3w2b b",
            "bwb2w1w/wbwbw3/bwbwbwb1/wbwb3b/bw1w4/4w3/bwb1bwb1/wbw2b2 w",
        ] {
            let pos = AnyPosition::from_text(text, Opening::Diagonal, MultiJump::Straight)
                .expect("test positions are legal");
            with_position!(pos, p => {
                let f = features(&p);
                let side = p.side_to_move();
                let own = p.mobility(side);
                let theirs = p.mobility(side.opponent());
                assert_eq!(get(&f, Feature::OwnJumps) as u64, own.moves, "{text}");
                assert_eq!(get(&f, Feature::TheirJumps) as u64, theirs.moves, "{text}");
                assert_eq!(get(&f, Feature::OwnMovable) as u32, own.movable_stones, "{text}");
                assert_eq!(get(&f, Feature::TheirMovable) as u32, theirs.movable_stones, "{text}");
            });
        }
    }

    #[test]
    fn a_jump_waiting_for_an_own_stone_to_move_is_potential() {
        // White to move: a1 and c1 face black b1, each with the other on its landing
        // square. Black b1 can jump c1 to d1; black a6 touches no white stone.
        let f = features_of("b5/6/6/6/6/wbw3 w");
        assert_eq!(get(&f, Feature::OwnPotential), 2);
        assert_eq!(get(&f, Feature::OwnJumps), 0);
        assert_eq!(get(&f, Feature::TheirJumps), 1);
        assert_eq!(get(&f, Feature::OwnAttacked), 1, "black can capture c1");
        assert_eq!(get(&f, Feature::TheirAttacked), 0);
        assert_eq!(
            get(&f, Feature::TheirSafe),
            1,
            "white can neither capture b1 nor move c1"
        );
        assert_eq!(get(&f, Feature::TheirIsolated), 1, "a6");
        assert_eq!(get(&f, Feature::OwnIsolated), 0);
        assert_eq!(get(&f, Feature::Tempo), 1);
    }

    #[test]
    fn a_jump_the_opponent_can_answer_is_not_safe() {
        // Black to move: b1 can jump white c1 to d1, but c1 can itself jump b1 to a1:
        // not safe. Black f1 jumps white e1 to d1, and e1 can jump nothing (beyond f1
        // is off the board): safe.
        let f = features_of("6/6/6/6/6/1bw1wb b");
        assert_eq!(get(&f, Feature::OwnJumps), 2);
        assert_eq!(get(&f, Feature::OwnSafe), 1);
        assert_eq!(get(&f, Feature::OwnAttacked), 1, "white c1 can capture b1");
    }

    #[test]
    fn the_evaluation_is_the_engine_weights_sum_plus_the_patterns() {
        let text = "2bwbwbw/2wbwbwb/b1b2wbw/2w2bwb/1w1wbwbw/1b1bwbwb/5wbw/w3w2b b";
        let pos = AnyPosition::from_text(text, Opening::Diagonal, MultiJump::Straight)
            .expect("test position is legal");
        with_position!(pos, p => {
            let total = evaluate(&p).total;
            let sum: Score = ENGINE_WEIGHTS.iter().zip(features(&p)).map(|(w, x)| w * x).sum();
            assert_eq!(total, sum + patterns::score(&p));
        });
    }
}
