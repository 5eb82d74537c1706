//! The static evaluation: who is better placed, from the side to move's point of view.
//!
//! Konane is lost by the side that runs out of moves, so the evaluation starts from
//! mobility: the moves the side to move has against the moves the opponent would have.
//! Terms are added only where a match shows they gain strength.

use crate::rules::{Bitboard, Position};

use super::score::{MATE_BOUND, Score};

/// Score of one move more than the opponent.
const MOVE: Score = 100;

/// The evaluation and the terms it is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// Legal moves of the side to move.
    pub own_moves: u64,
    /// Jumps the opponent would have if it were to move.
    pub their_moves: u64,
    /// The mobility term.
    pub mobility: Score,
    /// The sum, from the side to move's point of view.
    pub total: Score,
}

/// The evaluation of `pos`, whose side to move has `own_moves` legal moves (already
/// counted by the caller, which needs the count to see a lost position).
#[inline]
#[must_use]
pub fn evaluate_with<B: Bitboard>(pos: &Position<B>, own_moves: u64) -> Evaluation {
    let their_moves = pos.count_jumps(pos.side_to_move().opponent());
    let mobility = (own_moves as Score - their_moves as Score) * MOVE;
    let total = mobility.clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
    Evaluation {
        own_moves,
        their_moves,
        mobility,
        total,
    }
}

/// The evaluation of `pos`.
#[must_use]
pub fn evaluate<B: Bitboard>(pos: &Position<B>) -> Evaluation {
    evaluate_with(pos, pos.count_moves())
}
