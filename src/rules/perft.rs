//! Perft: counting the move sequences of a given length, the standard test of a move
//! generator. The last ply is counted without making its moves (bulk counting).

use std::sync::atomic::{AtomicBool, Ordering};

use thiserror::Error;

use super::bitboard::Bitboard;
use super::moves::{MAX_MOVES, MoveList};
use super::position::Position;

/// Why a perft count did not finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum PerftError {
    /// A position on the way had more jump paths than a move list holds.
    #[error("a position in the tree has more than {MAX_MOVES} legal moves; perft cannot count it")]
    TooManyMoves,
    /// The stop flag was raised.
    #[error("perft stopped before it finished")]
    Stopped,
}

/// A perft counter with one reusable move list per ply.
pub struct Perft<'a, B> {
    lists: Vec<MoveList<B>>,
    stop: &'a AtomicBool,
}

impl<'a, B: Bitboard> Perft<'a, B> {
    /// A counter that gives up with [`PerftError::Stopped`] once `stop` is raised.
    #[must_use]
    pub fn new(stop: &'a AtomicBool) -> Perft<'a, B> {
        Perft {
            lists: Vec::new(),
            stop,
        }
    }

    /// Number of move sequences of `depth` plies from `pos` (a game that ends earlier
    /// contributes nothing).
    pub fn count(&mut self, pos: &Position<B>, depth: usize) -> Result<u64, PerftError> {
        while self.lists.len() <= depth {
            self.lists.push(MoveList::new());
        }
        self.count_at(pos, depth)
    }

    /// Perft of each legal move of `pos` at `depth - 1`, as `(move text, count)` in
    /// generation order (Stockfish's `go perft` "divide"). Under the turning rule two
    /// paths with the same effect are listed apart, each with its own text.
    pub fn divide(
        &mut self,
        pos: &Position<B>,
        depth: usize,
    ) -> Result<Vec<(String, u64)>, PerftError> {
        let depth = depth.max(1);
        let mut list = MoveList::new();
        pos.generate_paths(&mut list);
        if list.overflowed() {
            return Err(PerftError::TooManyMoves);
        }
        let geo = pos.geometry();
        let mut lines = Vec::with_capacity(list.len());
        for (i, &m) in list.iter().enumerate() {
            // The k-th copy of an effect is the k-th path with that effect.
            let copy = list.as_slice()[..i].iter().filter(|&&o| o == m).count();
            let text = match geo.move_paths(m, copy + 1).get(copy) {
                Some(path) => geo.path_text(path),
                None => geo.move_text(m),
            };
            lines.push((text, self.count(&pos.after(m), depth - 1)?));
        }
        Ok(lines)
    }

    fn count_at(&mut self, pos: &Position<B>, depth: usize) -> Result<u64, PerftError> {
        match depth {
            0 => Ok(1),
            1 => {
                let n = pos.count_moves();
                if n > MAX_MOVES as u64 {
                    return Err(PerftError::TooManyMoves);
                }
                Ok(n)
            }
            _ => {
                if self.stop.load(Ordering::Relaxed) {
                    return Err(PerftError::Stopped);
                }
                let mut list = std::mem::take(&mut self.lists[depth]);
                pos.generate_paths(&mut list);
                let mut total = 0;
                let result = if list.overflowed() {
                    Err(PerftError::TooManyMoves)
                } else {
                    list.iter().try_for_each(|&m| {
                        total += self.count_at(&pos.after(m), depth - 1)?;
                        Ok(())
                    })
                };
                self.lists[depth] = list;
                result.map(|()| total)
            }
        }
    }
}
