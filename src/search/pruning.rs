//! How selective the search is: which nodes it does not search at all (reverse
//! futility pruning). None of it applies to an exact search, whose value must be that
//! of plain minimax.

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
}
