//! Moves as the engine handles them: what a move does to the board.

use super::bitboard::Bitboard;

/// A legal move, stored as its effect on the board.
///
/// A jump moves the stone on `from` to `to` (the same square after a loop under the
/// turning rule) and removes the stones in `captured`. A removal takes the mover's own
/// stone off `from`: it is stored with `to == from` and `captured` holding just that
/// square, so that playing any move is the same three XORs.
///
/// Under the turning rule two different jump paths can have the same effect; the move
/// list holds that effect once, and its text is that of the first path in generation
/// order (see [`Geometry::move_text`](super::Geometry)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move<B> {
    from: u8,
    to: u8,
    captured: B,
}

impl<B: Bitboard> Move<B> {
    /// A jump from `from` to `to` removing `captured` (not empty).
    #[inline(always)]
    #[must_use]
    pub fn jump(from: usize, to: usize, captured: B) -> Move<B> {
        debug_assert!(!captured.is_empty() && !captured.has(from));
        Move {
            from: from as u8,
            to: to as u8,
            captured,
        }
    }

    /// The removal of the mover's own stone on `square`.
    #[inline]
    #[must_use]
    pub fn removal(square: usize) -> Move<B> {
        Move {
            from: square as u8,
            to: square as u8,
            captured: B::single(square),
        }
    }

    /// The square the stone leaves (or, for a removal, the square emptied).
    #[inline(always)]
    #[must_use]
    pub fn from(self) -> usize {
        usize::from(self.from)
    }

    /// The square the stone lands on.
    #[inline(always)]
    #[must_use]
    pub fn to(self) -> usize {
        usize::from(self.to)
    }

    /// The squares emptied besides `from` (for a removal: `from` itself).
    #[inline(always)]
    #[must_use]
    pub fn captured(self) -> B {
        self.captured
    }

    /// Whether this is an opening removal rather than a jump.
    #[inline(always)]
    #[must_use]
    pub fn is_removal(self) -> bool {
        self.captured.has(self.from())
    }

    /// The squares whose occupancy the move flips.
    #[inline(always)]
    #[must_use]
    pub fn toggled(self) -> B {
        // For a removal `from == to`, so the first two terms cancel; for a loop back to
        // its start square they cancel too, and the stone stays where it was.
        B::single(self.from()) ^ B::single(self.to()) ^ self.captured
    }

    /// A 16-bit summary (`from`, `to`) for transposition tables. It names the move
    /// exactly under the straight rule; under the turning rule it is a hint that picks
    /// the first move of the list with these squares.
    #[inline]
    #[must_use]
    pub fn key(self) -> u16 {
        u16::from(self.from) | (u16::from(self.to) << 8)
    }
}

/// The most moves a list holds. Straight-rule positions never come near it; a position
/// built by hand for the turning rule on a large board could have far more jump paths
/// than any machine can enumerate, and generation stops here and says so.
pub const MAX_MOVES: usize = 4096;

/// A list of moves with a hard cap of [`MAX_MOVES`].
#[derive(Clone, Debug, Default)]
pub struct MoveList<B> {
    moves: Vec<Move<B>>,
    overflowed: bool,
}

impl<B: Bitboard> MoveList<B> {
    /// An empty list with room for a typical position.
    #[must_use]
    pub fn new() -> MoveList<B> {
        MoveList {
            moves: Vec::with_capacity(64),
            overflowed: false,
        }
    }

    /// Empties the list, keeping its memory.
    #[inline]
    pub fn clear(&mut self) {
        self.moves.clear();
        self.overflowed = false;
    }

    /// Appends `m`; returns `false` (and marks the list overflowed) when it is full.
    #[inline(always)]
    pub fn push(&mut self, m: Move<B>) -> bool {
        if self.moves.len() < MAX_MOVES {
            self.moves.push(m);
            true
        } else {
            self.overflowed = true;
            false
        }
    }

    /// Whether generation stopped early because the list was full.
    #[inline]
    #[must_use]
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// The moves.
    #[inline(always)]
    #[must_use]
    pub fn as_slice(&self) -> &[Move<B>] {
        &self.moves
    }

    /// The moves, for reordering in place.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move<B>] {
        &mut self.moves
    }

    /// Number of moves.
    #[inline(always)]
    #[must_use]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether there is no move.
    #[inline(always)]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move<B>> {
        self.moves.iter()
    }
}

impl<'a, B: Bitboard> IntoIterator for &'a MoveList<B> {
    type Item = &'a Move<B>;
    type IntoIter = std::slice::Iter<'a, Move<B>>;

    fn into_iter(self) -> Self::IntoIter {
        self.moves.iter()
    }
}
