//! Scores: centipawn-like evaluations and proven wins and losses.
//!
//! A score is from the side to move's point of view. A proven result is `MATE - plies`
//! for a win in `plies` half-moves from the root and `-(MATE - plies)` for a loss, so
//! a quicker win scores higher and a later loss scores higher.

/// A score from the side to move's point of view.
pub type Score = i32;

/// The score of winning now (the opponent to move has no legal move at the root).
pub const MATE: Score = 32_000;

/// Deeper than any game lasts: a 16x16 game has at most 256 plies.
pub const MAX_PLY: usize = 260;

/// Every score at least this large in absolute value is a proven result.
pub const MATE_BOUND: Score = MATE - MAX_PLY as Score;

/// Larger than any score: the initial window.
pub const INFINITY: Score = MATE + 1;

/// The score of the side to move losing at `ply` from the root.
#[must_use]
pub const fn mated_at(ply: usize) -> Score {
    -MATE + ply as Score
}

/// The score of a position proven won (`wins`) or lost by the side to move, the game
/// ending `plies` plies from now.
#[must_use]
pub fn proven(wins: bool, plies: u32) -> Score {
    let plies = plies.min(MAX_PLY as u32) as Score;
    if wins { MATE - plies } else { -MATE + plies }
}

/// Whether `score` is a proven win or loss.
#[must_use]
pub const fn is_proven(score: Score) -> bool {
    score.abs() >= MATE_BOUND
}

/// The score to store in the table: a proven result counted from the node (`ply` below
/// the root) instead of from the root, so it stays right wherever the node recurs.
#[must_use]
pub const fn to_table(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score + ply as Score
    } else if score <= -MATE_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// The inverse of [`to_table`] for a node `ply` below the root.
#[must_use]
pub const fn from_table(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score - ply as Score
    } else if score <= -MATE_BOUND {
        score + ply as Score
    } else {
        score
    }
}

/// The score as UCI prints it: `cp <x>`, or `mate <n>` with `n` the number of own moves
/// to the end, negative when losing.
#[must_use]
pub fn uci(score: Score) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        // Lost at the root itself (no legal move) is `mate 0`.
        format!("mate {}", -((MATE + score) / 2))
    } else {
        format!("cp {score}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_counts_own_moves() {
        assert_eq!(uci(MATE - 1), "mate 1", "we move, they have no move");
        assert_eq!(uci(MATE - 3), "mate 2");
        assert_eq!(
            uci(mated_at(2)),
            "mate -1",
            "we move once, then have no move"
        );
        assert_eq!(uci(mated_at(4)), "mate -2");
        assert_eq!(uci(mated_at(0)), "mate 0", "no legal move now");
        assert_eq!(uci(proven(true, 1)), "mate 1");
        assert_eq!(uci(proven(true, 5)), "mate 3");
        assert_eq!(uci(proven(false, 0)), "mate 0");
        assert_eq!(uci(proven(false, 4)), "mate -2");
        assert_eq!(uci(35), "cp 35");
    }

    #[test]
    fn table_scores_are_counted_from_the_node() {
        let at_root = MATE - 7;
        let stored = to_table(at_root, 3);
        assert_eq!(stored, MATE - 4);
        assert_eq!(from_table(stored, 5), MATE - 9);
        assert_eq!(from_table(to_table(-at_root, 3), 3), -at_root);
        assert_eq!(to_table(120, 9), 120);
    }
}
