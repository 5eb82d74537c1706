//! The static evaluation: who is better placed, from the side to move's point of view.
//!
//! Konane is lost by the side that runs out of moves, so the evaluation counts
//! mobility: the jumps each side has and the stones of each side that can jump (a side
//! whose moves all belong to one or two stones is closer to running out than its move
//! count says), plus what the surroundings of each square, stone or empty, say about
//! the moves to come: the [`patterns`] of the squares one and two steps from it. The
//! weights of all three were fitted together to the solver's verdicts on 6x6 to 7x7
//! positions (`scripts/tune-patterns`); the fit is kept because matches showed it plays
//! better than the two hand-set mobility terms before it (README, "Strength").

use crate::rules::{Bitboard, Phase, Position};

use super::patterns::{self, LINEAR};
use super::score::{MATE_BOUND, Score};

/// The evaluation and the terms it is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// Legal moves of the side to move (0: it has lost).
    pub own_moves: u64,
    /// Jumps of the side to move (its legal moves once the removals are over).
    pub own_jumps: u64,
    /// Jumps the opponent would have if it were to move.
    pub their_moves: u64,
    /// Stones of the side to move that can jump.
    pub own_movable: u32,
    /// Stones of the opponent that could jump.
    pub their_movable: u32,
    /// The jump-count term, with the value of having the move.
    pub moves: Score,
    /// The movable-stones term.
    pub movable: Score,
    /// The square-pattern term.
    pub patterns: Score,
    /// The sum, from the side to move's point of view.
    pub total: Score,
}

/// The evaluation of `pos`.
#[inline]
#[must_use]
pub fn evaluate<B: Bitboard>(pos: &Position<B>) -> Evaluation {
    let side = pos.side_to_move();
    let own = pos.mobility(side);
    let theirs = pos.mobility(side.opponent());
    let own_moves = if pos.phase() == Phase::Jumping {
        own.moves
    } else {
        pos.count_moves()
    };
    let [own_jump, their_jump, own_stone, their_stone, tempo] = LINEAR;
    let moves = own.moves as Score * own_jump + theirs.moves as Score * their_jump + tempo;
    let movable =
        own.movable_stones as Score * own_stone + theirs.movable_stones as Score * their_stone;
    let patterns = patterns::score(pos);
    Evaluation {
        own_moves,
        own_jumps: own.moves,
        their_moves: theirs.moves,
        own_movable: own.movable_stones,
        their_movable: theirs.movable_stones,
        moves,
        movable,
        patterns,
        total: (moves + movable + patterns).clamp(-MATE_BOUND + 1, MATE_BOUND - 1),
    }
}
