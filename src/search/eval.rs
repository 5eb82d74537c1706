//! The static evaluation: who is better placed, from the side to move's point of view.
//!
//! Konane is lost by the side that runs out of moves, so the evaluation counts
//! mobility: the moves the side to move has against the moves the opponent would have,
//! and the stones of each side that can move at all. A side whose moves all belong to
//! one or two stones is closer to running out than its move count says. Each term and
//! weight was kept because a match showed it gains strength (see the commit history).
//! More features, and the tool that fits weights to them, are in
//! [`features`](super::features); none has yet beaten these two terms in play.

use crate::rules::{Bitboard, Phase, Position};

use super::score::{MATE_BOUND, Score};

/// Score of one move more than the opponent.
pub const MOVE: Score = 100;
/// Score of one more stone that can move than the opponent has.
pub const MOVABLE_STONE: Score = 25;

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
    /// The move-count term.
    pub moves: Score,
    /// The movable-stones term.
    pub movable: Score,
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
    let moves = (own.moves as Score - theirs.moves as Score) * MOVE;
    let movable = (own.movable_stones as Score - theirs.movable_stones as Score) * MOVABLE_STONE;
    Evaluation {
        own_moves,
        own_jumps: own.moves,
        their_moves: theirs.moves,
        own_movable: own.movable_stones,
        their_movable: theirs.movable_stones,
        moves,
        movable,
        total: (moves + movable).clamp(-MATE_BOUND + 1, MATE_BOUND - 1),
    }
}
