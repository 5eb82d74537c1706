//! A position: which squares hold stones, and whose turn it is.

use std::fmt;

use thiserror::Error;

use super::bitboard::Bitboard;
use super::geometry::Geometry;
use super::moves::Move;
use super::square::{Direction, Square};
use super::variant::{Color, Variant};

/// What kind of move the side to move makes, read from the board alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The board is full: black removes one of its stones.
    BlackRemoval,
    /// One square is empty: white removes a stone next to it.
    WhiteRemoval,
    /// Two or more squares are empty: every move is a jump.
    Jumping,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::BlackRemoval => "black removal",
            Phase::WhiteRemoval => "white removal",
            Phase::Jumping => "jumping",
        })
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side named won: the other side had no legal move.
    Win(Color),
}

impl Outcome {
    /// The winner.
    #[must_use]
    pub fn winner(self) -> Color {
        match self {
            Outcome::Win(c) => c,
        }
    }
}

/// A position that the rules cannot produce.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ImpossiblePosition {
    /// A full board is always black's removal.
    #[error("impossible position: on a full board black is to move")]
    FullBoardWhiteToMove,
    /// One empty square is always white's removal.
    #[error("impossible position: with one empty square white is to move")]
    OneGapBlackToMove,
    /// The first removal must be a black stone allowed by the opening rule.
    #[error(
        "impossible position: black may not open by removing {square} under the {opening} opening rule"
    )]
    FirstRemoval {
        /// The square emptied by black's removal.
        square: Square,
        /// The opening rule in force.
        opening: super::variant::Opening,
    },
    /// After the two removals the gap is two adjacent squares and black moves.
    #[error("impossible position: two empty squares must be neighbours, with black to move")]
    OpeningGap,
}

/// A Konane position of a board that fits the bitboard `B`.
///
/// Stones never change colour and always stay on squares of their colour, so the set of
/// occupied squares and the side to move are the whole state. The position is a small
/// `Copy` value; its [`Geometry`] is shared.
#[derive(Clone, Copy)]
pub struct Position<B: Bitboard> {
    geo: &'static Geometry<B>,
    occupied: B,
    side: Color,
    hash: u64,
}

impl<B: Bitboard> Position<B> {
    /// The start position of `geo`'s variant: every square filled, black to move.
    #[must_use]
    pub fn start(geo: &'static Geometry<B>) -> Position<B> {
        Position::new_unchecked(geo, geo.board(), Color::Black)
    }

    /// A position from its occupied squares and side to move, checked against the
    /// rules of the opening (the only part of a game that leaves a trace the board can
    /// be checked against).
    pub fn new(
        geo: &'static Geometry<B>,
        occupied: B,
        side: Color,
    ) -> Result<Position<B>, ImpossiblePosition> {
        let occupied = occupied & geo.board();
        let empty = geo.board() & !occupied;
        match (empty.count(), side) {
            (0, Color::White) => return Err(ImpossiblePosition::FullBoardWhiteToMove),
            (1, Color::Black) => return Err(ImpossiblePosition::OneGapBlackToMove),
            (1, Color::White) => Self::check_first_removal(geo, empty.lowest())?,
            (2, _) => {
                let black_gap = empty & geo.squares_of(Color::Black);
                let white_gap = empty & geo.squares_of(Color::White);
                let adjacent = !black_gap.is_empty()
                    && !white_gap.is_empty()
                    && Direction::ALL
                        .iter()
                        .any(|&d| geo.neighbour(black_gap.lowest(), d) == Some(white_gap.lowest()));
                if side != Color::Black || !adjacent {
                    return Err(ImpossiblePosition::OpeningGap);
                }
                Self::check_first_removal(geo, black_gap.lowest())?;
            }
            _ => {}
        }
        Ok(Position::new_unchecked(geo, occupied, side))
    }

    /// The same stones with the other side to move, for asking who wins when the other
    /// player starts (a game's outcome class), or `None` outside the jumping phase, where
    /// the empty squares decide whose turn it is. With two empty squares and white to
    /// move, the result is a position no game reaches; play from it follows the rules.
    #[must_use]
    pub fn with_other_side_to_move(&self) -> Option<Position<B>> {
        (self.phase() == Phase::Jumping)
            .then(|| Position::new_unchecked(self.geo, self.occupied, self.side.opponent()))
    }

    fn check_first_removal(geo: &Geometry<B>, gap: usize) -> Result<(), ImpossiblePosition> {
        if geo.first_removals().has(gap) {
            Ok(())
        } else {
            Err(ImpossiblePosition::FirstRemoval {
                square: geo.square(gap),
                opening: geo.variant().opening,
            })
        }
    }

    fn new_unchecked(geo: &'static Geometry<B>, occupied: B, side: Color) -> Position<B> {
        let mut pos = Position {
            geo,
            occupied,
            side,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    /// The hash computed from scratch (the stored one is kept up to date move by move).
    #[must_use]
    pub fn compute_hash(&self) -> u64 {
        let keys = self.geo.keys();
        let mut hash = self.geo.variant_key();
        for sq in self.occupied.squares() {
            hash ^= keys.square(sq);
        }
        if self.side == Color::White {
            hash ^= keys.white_to_move();
        }
        hash
    }

    /// The variant's fixed facts.
    #[inline(always)]
    #[must_use]
    pub fn geometry(&self) -> &'static Geometry<B> {
        self.geo
    }

    /// The rules this position is played under.
    #[inline]
    #[must_use]
    pub fn variant(&self) -> Variant {
        self.geo.variant()
    }

    /// The side to move.
    #[inline(always)]
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Squares holding a stone.
    #[inline(always)]
    #[must_use]
    pub fn occupied(&self) -> B {
        self.occupied
    }

    /// Empty squares of the board.
    #[inline(always)]
    #[must_use]
    pub fn empty(&self) -> B {
        self.geo.board() & !self.occupied
    }

    /// The stones of `colour`.
    #[inline(always)]
    #[must_use]
    pub fn stones(&self, colour: Color) -> B {
        self.occupied & self.geo.squares_of(colour)
    }

    /// The Zobrist hash of the position (rules included).
    #[inline(always)]
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Which kind of move is due.
    #[inline]
    #[must_use]
    pub fn phase(&self) -> Phase {
        match self.empty().count() {
            0 => Phase::BlackRemoval,
            1 => Phase::WhiteRemoval,
            _ => Phase::Jumping,
        }
    }

    /// Plays `m`, which must be legal here (as generated for this position): the fast
    /// path for search.
    #[inline(always)]
    pub fn play_unchecked(&mut self, m: Move<B>) {
        self.hash = self.hash_after(m);
        self.occupied ^= m.toggled();
        self.side = self.side.opponent();
    }

    /// The [`hash`](Self::hash) of the position after `m` (legal here), without
    /// playing it: enough to fetch the child's table entry ahead of time.
    #[inline(always)]
    #[must_use]
    pub fn hash_after(&self, m: Move<B>) -> u64 {
        let keys = self.geo.keys();
        let mut hash = self.hash ^ keys.white_to_move();
        for sq in m.toggled().squares() {
            hash ^= keys.square(sq);
        }
        hash
    }

    /// Takes back `m`, the move that led to this position.
    #[inline(always)]
    pub fn undo(&mut self, m: Move<B>) {
        // Playing a move flips the same squares and the side to move: it is its own inverse.
        self.play_unchecked(m);
    }

    /// The position after `m` (legal here), leaving `self` as it is.
    #[inline(always)]
    #[must_use]
    pub fn after(&self, m: Move<B>) -> Position<B> {
        let mut next = *self;
        next.play_unchecked(m);
        next
    }

    /// Whether the side to move has lost: it has no legal move.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        (!self.has_legal_move()).then(|| Outcome::Win(self.side.opponent()))
    }
}

impl<B: Bitboard> PartialEq for Position<B> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.geo, other.geo)
            && self.occupied == other.occupied
            && self.side == other.side
    }
}

impl<B: Bitboard> Eq for Position<B> {}

impl<B: Bitboard> fmt::Debug for Position<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} [{}])", self, self.variant())
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::{AnyPosition, Color, Variant};
    use crate::with_position;

    #[test]
    fn the_other_side_to_move_is_given_only_in_the_jumping_phase() {
        let mut pos = AnyPosition::start(Variant::default());
        with_position!(pos, p => assert!(p.with_other_side_to_move().is_none()));
        pos.play_text("d5").expect("a legal removal");
        with_position!(pos, p => assert!(p.with_other_side_to_move().is_none()));
        pos.play_text("d4").expect("a legal removal");
        with_position!(pos, p => {
            let q = p.with_other_side_to_move().expect("two gaps: the jumping phase");
            assert_eq!(q.side_to_move(), Color::White);
            assert_eq!(q.occupied(), p.occupied());
            assert_eq!(q.hash(), q.compute_hash());
            assert_ne!(q.hash(), p.hash());
            let back = q.with_other_side_to_move().expect("still the jumping phase");
            assert_eq!(back.side_to_move(), Color::Black);
            assert_eq!(back.hash(), p.hash());
        });
    }
}
