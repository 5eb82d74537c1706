//! Move ordering for the proof search.
//!
//! At a node the side to move wins, one winning move ends the search of the node, so
//! the order of moves decides the size of the proof. Moves that leave the opponent few
//! replies come first (a move leaving none wins on the spot), then moves that keep many
//! moves for the mover, then moves that have won often elsewhere (history).

use crate::rules::{Bitboard, Move, MoveList};

use super::SolverConfig;
use super::node::Node;
use super::symmetry::Symmetries;

/// A move with the node it leads to and its ordering score (higher first).
#[derive(Clone, Copy)]
pub(super) struct Scored<B: Bitboard> {
    pub score: i64,
    pub mv: Move<B>,
    pub child: Node<B>,
    /// The opponent's moves after this one.
    pub replies: u32,
    /// The mover's jumps after this one.
    pub own: u32,
}

/// How often each move (by side, start and landing square) has won a node.
pub(super) struct History {
    counts: Vec<u32>,
}

impl History {
    pub fn new() -> History {
        History {
            counts: vec![0; 2 << 16],
        }
    }

    #[inline(always)]
    fn index<B: Bitboard>(white: bool, m: Move<B>) -> usize {
        (usize::from(white) << 16) | usize::from(m.key())
    }

    /// Records that `m` won a node after `nodes` nodes of search below it.
    #[inline]
    pub fn reward<B: Bitboard>(&mut self, white: bool, m: Move<B>, nodes: u64) {
        let slot = &mut self.counts[Self::index(white, m)];
        let bonus = 64 - nodes.leading_zeros();
        *slot = slot.saturating_add(bonus);
    }

    #[inline(always)]
    fn get<B: Bitboard>(&self, white: bool, m: Move<B>) -> u32 {
        self.counts[Self::index(white, m)]
    }
}

/// Scores the moves of `list` into `out`, best first. Returns a move after which the
/// opponent cannot move at all (a win on the spot) as soon as it meets one.
pub(super) fn order<B: Bitboard>(
    node: &Node<B>,
    list: &MoveList<B>,
    history: &History,
    config: &SolverConfig,
    sym: &Symmetries,
    out: &mut Vec<Scored<B>>,
) -> Option<Move<B>> {
    out.clear();
    let me = node.pos.side_to_move();
    let white = me == crate::rules::Color::White;
    let opponent_spare = node.opponent_has_spare();
    for &mv in list {
        let next = node.child(mv, sym);
        let child = &next.pos;
        let replies = child.count_moves();
        if replies == 0 && !opponent_spare {
            return Some(mv);
        }
        let own = child.count_jumps(me);
        let mut score = 0i64;
        if config.mobility_ordering {
            score = -((replies as i64) << 40) + ((own as i64) << 24);
        }
        if config.history {
            score += i64::from(history.get(white, mv).min((1 << 24) - 1));
        }
        out.push(Scored {
            score,
            mv,
            child: next,
            replies: replies as u32,
            own: own as u32,
        });
    }
    // Lists are short; a stable insertion sort keeps generation order among equals.
    for i in 1..out.len() {
        let item = out[i];
        let mut j = i;
        while j > 0 && out[j - 1].score < item.score {
            out[j] = out[j - 1];
            j -= 1;
        }
        out[j] = item;
    }
    None
}
