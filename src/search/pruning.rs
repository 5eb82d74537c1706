//! How selective the search is: which moves it looks at less deeply (late move
//! reductions) and which nodes it does not search at all (reverse futility pruning).
//! None of it applies to an exact search, whose value must be that of plain minimax.

use std::sync::LazyLock;

use super::ordering::KILLER;
use super::score::{Score, is_proven};

/// Reverse futility pruning: a node this close to the horizon whose static evaluation
/// beats beta by this much per ply left is taken as a cutoff without a search.
const FUTILITY_MARGIN: Score = 120;
/// Deepest node (plies from the horizon) that reverse futility pruning applies to.
const FUTILITY_DEPTH: i32 = 4;

/// Whether a node `depth` plies from the horizon, off the principal variation, is
/// close enough to it to be pruned unsearched against `beta`. A proven `beta` is never
/// assumed reached: a mistaken proof would be believed.
#[must_use]
pub fn may_be_futile(depth: i32, beta: Score) -> bool {
    depth <= FUTILITY_DEPTH && !is_proven(beta)
}

/// Whether such a node, whose static evaluation is `eval`, beats `beta` by so much
/// that it is taken to fail high without a search.
#[must_use]
pub fn futile(depth: i32, eval: Score, beta: Score) -> bool {
    eval - FUTILITY_MARGIN * depth >= beta
}

/// Largest depth and move index the reduction table tells apart.
const TABLE_SIZE: usize = 64;

/// The reduction by depth and move index, `1 + ln(depth) ln(index) / 2`: it grows with
/// both, since a late move far from the horizon is the least likely to be best, and
/// each ply saved there saves the most.
static REDUCTION: LazyLock<[[u8; TABLE_SIZE]; TABLE_SIZE]> = LazyLock::new(|| {
    let mut table = [[0; TABLE_SIZE]; TABLE_SIZE];
    for (depth, row) in table.iter_mut().enumerate().skip(1) {
        for (index, r) in row.iter_mut().enumerate().skip(1) {
            let ln = |x: usize| (x as f64).ln();
            *r = (1.0 + ln(depth) * ln(index) / 2.0) as u8;
        }
    }
    table
});

/// Ordering score worth one ply less of reduction (up to two; a score this far below
/// zero, one more). Away from the horizon the score is a quarter of the history less
/// 2,000 a reply the move leaves (`ordering`), so a move that often refuted its
/// siblings' lines elsewhere is reduced less and one that leaves the opponent many
/// replies more: both say how likely the move is to matter here.
const HISTORY_PER_PLY: i32 = 16_000;

/// How much shallower to look first at the `index`-th move (ordering score `order`,
/// from 0) of a node `depth` plies from the horizon (late move reductions): late moves
/// of a well-ordered list rarely turn out best, and one that does is searched again at
/// full depth. The first two moves, killers and the moves of principal variation nodes
/// are not reduced; moves with a high history score are reduced less (those with a
/// very low one more), and a reduced search is at least one ply deep.
#[must_use]
pub fn late_move_reduction(depth: i32, index: usize, order: i32, pv_node: bool) -> i32 {
    if pv_node || depth < 3 || index < 2 || order >= KILLER {
        return 0;
    }
    let row = &REDUCTION[(depth as usize).min(TABLE_SIZE - 1)];
    let by_history = (order / HISTORY_PER_PLY).clamp(-2, 2);
    (i32::from(row[index.min(TABLE_SIZE - 1)]) - by_history).clamp(0, depth - 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;

    #[test]
    fn a_lead_of_the_margin_per_ply_left_is_futile() {
        assert!(futile(2, 100 + 2 * FUTILITY_MARGIN, 100));
        assert!(!futile(2, 99 + 2 * FUTILITY_MARGIN, 100));
        assert!(
            !futile(3, 100 + 2 * FUTILITY_MARGIN, 100),
            "more plies, more margin"
        );
    }

    #[test]
    fn nothing_is_futile_far_from_the_horizon_or_against_a_proof() {
        assert!(may_be_futile(1, 0));
        assert!(may_be_futile(FUTILITY_DEPTH, 0));
        assert!(!may_be_futile(FUTILITY_DEPTH + 1, 0));
        assert!(!may_be_futile(1, MATE - 10));
        assert!(!may_be_futile(1, -(MATE - 10)));
    }

    #[test]
    fn late_moves_far_from_the_horizon_are_reduced_most() {
        assert_eq!(late_move_reduction(8, 1, 0, false), 0, "second move");
        assert_eq!(late_move_reduction(2, 10, 0, false), 0, "near the horizon");
        assert_eq!(
            late_move_reduction(8, 10, 0, true),
            0,
            "principal variation"
        );
        assert_eq!(late_move_reduction(8, 10, KILLER, false), 0, "killer");
        assert_eq!(late_move_reduction(3, 2, 0, false), 1);
        let base = late_move_reduction(10, 10, 0, false);
        assert_eq!(
            late_move_reduction(10, 10, HISTORY_PER_PLY, false),
            base - 1,
            "a good history reduces less"
        );
        assert_eq!(
            late_move_reduction(10, 10, 5 * HISTORY_PER_PLY, false),
            base - 2,
            "by two plies at most"
        );
        assert_eq!(
            late_move_reduction(10, 10, -2 * HISTORY_PER_PLY, false),
            base + 2,
            "a bad history reduces more"
        );
        assert_eq!(
            late_move_reduction(3, 2, HISTORY_PER_PLY, false),
            0,
            "a good late move near the horizon is not reduced"
        );
        let r = |depth, index| late_move_reduction(depth, index, 0, false);
        assert!(
            r(12, 20) > r(6, 20) && r(12, 20) > r(12, 4),
            "grows with both"
        );
        for depth in 3..100 {
            for index in 2..100 {
                assert!(r(depth, index) <= depth - 2, "at least one ply is left");
                assert!(r(depth, index) >= r(depth, index - 1));
            }
        }
    }
}
