//! Move ordering for the proof search.
//!
//! At a node the side to move wins, one winning move ends the search of the node, so
//! the order of moves decides the size of the proof. Moves that leave the opponent few
//! replies come first (a move leaving none wins on the spot), then moves that keep many
//! moves for the mover, then moves that have won often elsewhere (history).
//!
//! High in the tree, where at least [`EVAL_ORDER_PERCENT`] of the board is still
//! occupied and a wrong first try costs a big subtree, the engine's evaluation of the
//! position after the move (fitted to the solver's verdicts) takes the lead: moves come
//! in the order of the evaluation from the mover's side less [`REPLY_WEIGHT`] for each
//! reply left to the opponent, then by history. Lower down the subtrees are too small
//! for the evaluation's cost. On 8x8 endgames of 35 to 36 stones this cuts proofs to
//! between a seventh and two fifths of their nodes (`docs/solved.md`, "What each
//! technique is worth").

use crate::rules::{Bitboard, Move, MoveList, Position};
use crate::search::eval::evaluate;

use super::SolverConfig;
use super::node::Node;
use super::symmetry::Symmetries;

/// Nodes with at least this share of the board occupied, in percent, order their moves
/// by the evaluation (when [`SolverConfig::eval_ordering`] is on). Lower, more of the
/// proof is ordered well but each ordered node evaluates every child: from 30 rather
/// than 37, 8x8 endgames of 33 to 38 stones take 15-20% fewer nodes in the same time
/// or 6% less, 7x7 endgames of 34 stones 10% fewer in 7% more time, the 7x7 opening
/// after d4 2% fewer; from 25, 8x8 endgames take 21% fewer nodes but 15% more time
/// (`docs/solved.md`, "What each technique is worth").
const EVAL_ORDER_PERCENT: u32 = 30;

/// What one reply left to the opponent costs a move in the evaluation's units, when
/// moves are ordered by the evaluation: a move's key is the evaluation from the mover's
/// side less this for each reply. Of 0, 16, 64, 128, 256 and 512, 128 gave the smallest
/// proofs over 8x8 endgames, 6x6, 5x7 and a 4 x 11 setup together.
const REPLY_WEIGHT: i64 = 128;

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
    /// The evaluation of the child from the mover's side, where the node's moves are
    /// ordered by it.
    pub evaluation: Option<i64>,
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

/// Whether the moves of `pos` are ordered by the evaluation: when the configuration
/// asks for it and at least [`EVAL_ORDER_PERCENT`] of the board is occupied.
fn ordered_by_evaluation<B: Bitboard>(pos: &Position<B>, config: &SolverConfig) -> bool {
    let squares = pos.geometry().board().count();
    config.eval_ordering && pos.occupied().count() * 100 >= EVAL_ORDER_PERCENT * squares
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
    let by_evaluation = ordered_by_evaluation(&node.pos, config);
    for &mv in list {
        let next = node.child(mv, sym);
        let child = &next.pos;
        // The evaluation counts both sides' moves on its way (from the opponent's
        // side, the one to move in the child), so where it is computed its counts
        // are taken rather than counted again.
        let evaluated = by_evaluation.then(|| evaluate(child));
        let replies = evaluated.map_or_else(|| child.count_moves(), |e| e.own_moves);
        if replies == 0 && !opponent_spare {
            return Some(mv);
        }
        let own = evaluated.map_or_else(|| child.count_jumps(me), |e| e.their_moves);
        let mut score = 0i64;
        let mut evaluation = None;
        if let Some(evaluated) = evaluated {
            let for_mover = -i64::from(evaluated.total);
            evaluation = Some(for_mover);
            let reply_cost = if config.mobility_ordering {
                REPLY_WEIGHT * replies as i64
            } else {
                0
            };
            score = (for_mover - reply_cost) << 24;
        } else if config.mobility_ordering {
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
            evaluation,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::AnyPosition;
    use crate::search::solver::test_support::{any_opening_variants, random_position};
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    /// The evaluation of the position after `mv` from the mover's side.
    fn for_mover(pos: &Position<u64>, mv: Move<u64>) -> i64 {
        -i64::from(evaluate(&pos.after(mv)).total)
    }

    /// The key each move should be ordered by: the evaluation from the mover's side
    /// less the reply cost, or minus the replies alone, before the history.
    fn expected_key(pos: &Position<u64>, mv: Move<u64>, by_evaluation: bool) -> i64 {
        let replies = pos.after(mv).count_moves() as i64;
        if by_evaluation {
            for_mover(pos, mv) - REPLY_WEIGHT * replies
        } else {
            -replies
        }
    }

    /// High in the tree moves come in the order of the evaluation less the replies,
    /// lower down in the order of the replies; switched off, the replies throughout.
    #[test]
    fn moves_come_by_evaluation_high_in_the_tree_and_by_replies_below() {
        let mut rng = StdRng::seed_from_u64(5);
        let history = History::new();
        let mut scored = Vec::new();
        let (mut high, mut low) = (0, 0);
        for variant in any_opening_variants(&[(8, 8), (6, 6), (7, 5)]) {
            let AnyPosition::Small(start) = AnyPosition::start(variant) else {
                unreachable!("small boards")
            };
            let sym = Symmetries::new(start.geometry(), true);
            let squares = start.geometry().board().count();
            for stones in (squares / 4..squares - 2).step_by(3) {
                let pos = random_position(start, stones, &mut rng);
                let node = Node::new(pos, 0, &sym);
                let list = pos.legal_moves();
                for eval_ordering in [true, false] {
                    let config = SolverConfig {
                        eval_ordering,
                        history: false,
                        ..SolverConfig::default()
                    };
                    if order(&node, &list, &history, &config, &sym, &mut scored).is_some() {
                        continue;
                    }
                    let by_evaluation = ordered_by_evaluation(&pos, &config);
                    high += usize::from(by_evaluation);
                    low += usize::from(!by_evaluation);
                    let keys: Vec<i64> = scored
                        .iter()
                        .map(|s| expected_key(&pos, s.mv, by_evaluation))
                        .collect();
                    assert!(keys.is_sorted_by(|a, b| a >= b), "{pos}: {keys:?}");
                    assert_eq!(scored.len(), list.len());
                    for s in &scored {
                        let expected = by_evaluation.then(|| for_mover(&pos, s.mv));
                        assert_eq!(s.evaluation, expected);
                    }
                }
            }
        }
        assert!(
            high >= 20 && low >= 20,
            "{high} ordered by evaluation, {low} not"
        );
    }
}
