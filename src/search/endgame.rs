//! Perfect endgames: a position small enough to prove within the search's means goes
//! to the exact solver first, so the engine plays proven wins instead of guessing. A
//! proven loss is left to the normal search (see [`try_solve`]).

use std::time::Instant;

use crate::rules::{Bitboard, Position};

use super::SearchControl;
use super::root::{Iteration, SearchResult};
use super::score::proven;
use super::solver::{SolveLimits, SolveResult, Solver, can_solve_quickly};
use super::time::{Budget, TimeControl};

/// Solver nodes a second assumed when thinking time becomes a node budget: the low
/// end of what the solver does on this machine's endgames (1.5 to 2 million), so that
/// the budget is about what fits before the deadline of half the move.
const SOLVER_NODES_PER_SECOND: f64 = 1.5e6;

/// The most nodes the switch ever gives the solver, however long the move: a few
/// seconds of silence at most before the normal search starts reporting. Positions
/// that need more are left to the normal search, which proves them when they shrink.
const MAX_SOLVER_NODES: u64 = 4_000_000;

/// The nodes the solver may spend before the normal search of a move on the clock:
/// half of the soft deadline's worth, at most [`MAX_SOLVER_NODES`]. Searches with a fixed depth or node count, and
/// `go infinite`, do not use the solver: they are plain alpha-beta searches.
#[must_use]
pub(super) fn node_budget(time: TimeControl, budget: Budget) -> Option<u64> {
    match time {
        TimeControl::Unlimited => None,
        TimeControl::MoveTime(_) | TimeControl::Clock(_) => budget
            .soft
            .map(|soft| (soft.as_secs_f64() * 0.5 * SOLVER_NODES_PER_SECOND) as u64)
            .map(|nodes| nodes.min(MAX_SOLVER_NODES)),
    }
}

/// Solves `pos` if it looks provable within `nodes` nodes (and before `deadline`),
/// reporting the proven line as one iteration; `None` (play on with the normal
/// search) when it does not look small enough, the proof does not come in time, or
/// the proof is a loss: the proof's losing move is merely the one whose refutation
/// took longest, while the normal search plays for the mobility that gives a
/// fallible opponent the most chances to go wrong.
pub(super) fn try_solve<B: Bitboard>(
    solver: &mut Solver,
    pos: &Position<B>,
    nodes: u64,
    deadline: Option<Instant>,
    control: &SearchControl,
    report: &mut dyn FnMut(&Iteration<'_, B>),
) -> Option<SearchResult<B>> {
    if !can_solve_quickly(pos, nodes) {
        return None;
    }
    let limits = SolveLimits {
        node_limit: Some(nodes),
        deadline,
        ..SolveLimits::new(control.stop_flag())
    };
    // The switch keeps the order by replies: with the evaluation's order, which makes
    // its proofs smaller, play did not pass a non-regression test (docs/solved.md,
    // "Endgames in play").
    let ordering = solver.eval_ordering();
    solver.set_eval_ordering(false);
    let proof = solver.solve(pos, &limits, &mut |_| {});
    solver.set_eval_ordering(ordering);
    let proof = proof.ok().filter(|proof| proof.side_to_move_wins)?;
    report(&proven_line(&proof));
    Some(proven_result(&proof))
}

/// A proof as a search's one finished line: its length in plies as the depth, the
/// proven result as a mate score.
#[must_use]
pub fn proven_line<B: Bitboard>(proof: &SolveResult<B>) -> Iteration<'_, B> {
    Iteration {
        depth: proof.plies_to_end,
        seldepth: proof.plies_to_end,
        multipv: 1,
        score: proven(proof.side_to_move_wins, proof.plies_to_end),
        nodes: proof.nodes,
        elapsed: proof.elapsed,
        hashfull: proof.table_permille,
        pv: &proof.pv,
    }
}

/// A proof as a search's result: the proven line's first move, and its second as the
/// expected reply.
#[must_use]
pub fn proven_result<B: Bitboard>(proof: &SolveResult<B>) -> SearchResult<B> {
    SearchResult {
        best: proof.best_move,
        ponder: proof.pv.get(1).copied(),
        score: proven(proof.side_to_move_wins, proof.plies_to_end),
        depth: proof.plies_to_end,
        nodes: proof.nodes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn only_moves_on_the_clock_use_the_solver() {
        let soft = Budget {
            soft: Some(Duration::from_millis(200)),
            hard: Some(Duration::from_millis(600)),
        };
        let none = Budget {
            soft: None,
            hard: None,
        };
        assert_eq!(node_budget(TimeControl::Unlimited, none), None);
        assert_eq!(node_budget(TimeControl::Unlimited, soft), None);
        let movetime = TimeControl::MoveTime(Duration::from_millis(200));
        assert_eq!(node_budget(movetime, soft), Some(150_000));
        assert_eq!(node_budget(movetime, none), None);
        let an_hour = Budget {
            soft: Some(Duration::from_secs(3600)),
            hard: Some(Duration::from_secs(3600)),
        };
        let long = TimeControl::MoveTime(Duration::from_secs(3600));
        assert_eq!(node_budget(long, an_hour), Some(MAX_SOLVER_NODES));
    }

    #[test]
    fn only_proven_wins_replace_the_normal_search() {
        use crate::rules::{AnyPosition, BoardSize, Variant};
        let start = |w, h| match AnyPosition::start(Variant {
            size: BoardSize::new(w, h).unwrap(),
            ..Variant::default()
        }) {
            AnyPosition::Small(p) => p,
            _ => unreachable!("small boards"),
        };
        let mut solver = Solver::new(1);
        let control = SearchControl::new(false);
        let mut reported = 0;
        // 5x5 is a first-player win, 4x4 a second-player win (black moves first).
        let won = try_solve(
            &mut solver,
            &start(5, 5),
            100_000,
            None,
            &control,
            &mut |_| {
                reported += 1;
            },
        );
        assert!(won.is_some_and(|r| r.score > 0 && r.best.is_some()));
        let lost = try_solve(
            &mut solver,
            &start(4, 4),
            100_000,
            None,
            &control,
            &mut |_| {
                reported += 1;
            },
        );
        assert!(lost.is_none());
        assert_eq!(reported, 1, "only the win is reported");
        // The switch's own order does not leak into `go solve`'s.
        assert!(solver.eval_ordering());
    }
}
