//! Finding good moves: evaluation, alpha-beta with a transposition table, move
//! ordering, time management, and the exact solver. Depends on [`crate::rules`] only.

mod alphabeta;
mod control;
mod endgame;
pub mod eval;
pub mod features;
mod ordering;
pub mod patterns;
mod pruning;
mod root;
pub mod score;
pub mod skill;
pub mod solver;
pub mod time;
mod tt;
mod zeroed;

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crate::rules::{Bitboard, Move, Position};

pub use alphabeta::EXTENSION_MOVES;
pub use control::SearchControl;
pub use endgame::{proven_line, proven_result};
pub use root::{Iteration, SearchResult};
pub use skill::Skill;
pub use tt::TranspositionTable;

use alphabeta::{Shared, Stops, Worker};
use ordering::History;
use root::Root;
use score::MAX_PLY;
use solver::Solver;
use time::{TimeControl, budget, moves_left};

/// What one `go` asks for.
#[derive(Clone, Debug, Default)]
pub struct SearchParams<B> {
    /// Stop after this many plies.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// How time is given.
    pub time: TimeControl,
    /// Time kept back per move for the move to reach the clock (`MoveOverhead`).
    pub overhead: Duration,
    /// How many best lines to report (`MultiPV`).
    pub multipv: usize,
    /// Search only these root moves (`searchmoves`); empty for all.
    pub searchmoves: Vec<Move<B>>,
    /// Search every move to the full depth, for a value equal to plain minimax.
    pub exact: bool,
    /// Play below full strength (`Skill Level`); `None` for full strength.
    pub skill: Option<Skill>,
}

/// The search's long-lived state: the table and each thread's history, and the exact
/// solver with its own table, kept from move to move.
pub struct Searcher {
    tt: TranspositionTable,
    histories: Vec<History>,
    solver: Solver,
}

/// Default size of the solver's table, MB.
pub const SOLVER_HASH_MB: usize = 64;

impl Searcher {
    /// A searcher with a table of `hash_megabytes` MB and a solver table of
    /// [`SOLVER_HASH_MB`].
    #[must_use]
    pub fn new(hash_megabytes: usize) -> Searcher {
        Searcher {
            tt: TranspositionTable::new(hash_megabytes),
            histories: vec![History::default()],
            solver: Solver::new(SOLVER_HASH_MB),
        }
    }

    /// Replaces the solver's table by one of `megabytes` MB (its proofs are lost).
    pub fn resize_solver(&mut self, megabytes: usize) {
        // Free the old table first, as `resize` does.
        self.solver = Solver::new(0);
        self.solver = Solver::new(megabytes);
        self.solver.set_threads(self.histories.len());
    }

    /// The exact solver (for `go solve`).
    pub fn solver(&mut self) -> &mut Solver {
        &mut self.solver
    }

    /// Searches with `threads` threads from now on (Lazy SMP: helpers search the same
    /// tree and share what they find through the table); the solver (`go solve`, the
    /// endgame switch) proves with as many.
    pub fn set_threads(&mut self, threads: usize) {
        self.histories.resize_with(threads.max(1), History::default);
        self.solver.set_threads(threads);
    }

    /// Replaces the table by one of `megabytes` MB (its contents are lost).
    pub fn resize(&mut self, megabytes: usize) {
        // Free the old table first, so that two large tables never coexist.
        self.tt = TranspositionTable::new(0);
        self.tt = TranspositionTable::new(megabytes);
    }

    /// Forgets everything learned (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.histories.iter_mut().for_each(History::clear);
        self.solver.clear();
    }

    /// Searches `pos` within `params`, telling `report` of every finished line, until
    /// a limit is reached or `control` says stop. Returns at once, with no move, when
    /// there is no legal move.
    pub fn search<B: Bitboard>(
        &mut self,
        pos: &Position<B>,
        params: &SearchParams<B>,
        control: &SearchControl,
        report: &mut dyn FnMut(&Iteration<'_, B>),
    ) -> SearchResult<B> {
        if let Some(skill) = params.skill {
            return skill::search(self, pos, params, skill, control, report);
        }
        let mut moves = pos.legal_moves().as_slice().to_vec();
        if !params.searchmoves.is_empty() {
            moves.retain(|m| params.searchmoves.contains(m));
        }
        if moves.is_empty() {
            return SearchResult {
                best: None,
                ponder: None,
                score: score::mated_at(0),
                depth: 0,
                nodes: 0,
            };
        }
        self.tt.new_search();
        let geo = pos.geometry();
        let squares = geo.width() * geo.height();
        let budget = budget(
            params.time,
            params.overhead,
            moves_left(squares, pos.empty().count() as usize),
        );
        let plain_search = !params.searchmoves.is_empty() || params.multipv > 1 || params.exact;
        if let Some(nodes) = endgame::node_budget(params.time, budget).filter(|_| !plain_search) {
            let deadline = budget
                .hard
                .filter(|_| !control.pondering())
                .map(|hard| Instant::now() + hard / 2);
            if let Some(result) =
                endgame::try_solve(&mut self.solver, pos, nodes, deadline, control, report)
            {
                return result;
            }
        }
        let stops = Stops {
            budget,
            nodes: params.nodes,
            exact: params.exact,
        };
        let max_depth = params.depth.unwrap_or(MAX_PLY as u32);
        let shared = Shared::new(&self.tt, control);
        #[expect(
            clippy::expect_used,
            reason = "a searcher keeps one history per thread, and has at least one thread"
        )]
        let (main_history, helper_histories) = self
            .histories
            .split_first_mut()
            .expect("there is always a main thread");
        std::thread::scope(|scope| {
            for (i, history) in helper_histories.iter_mut().enumerate() {
                let (shared, moves) = (&shared, &moves);
                scope.spawn(move || {
                    let helper_stops = Stops {
                        exact: params.exact,
                        ..Stops::NONE
                    };
                    let mut worker = Worker::new(shared, false, history, helper_stops);
                    let mut root = Root {
                        worker: &mut worker,
                        budget: Stops::NONE.budget,
                        // Every other helper runs one ply ahead, so the threads do not
                        // all search the same depth at the same time.
                        first_depth: 1 + (i as u32 % 2),
                        max_depth,
                        multipv: 1,
                    };
                    root.run(pos, moves, &mut |_| {});
                });
            }
            let mut worker = Worker::new(&shared, true, main_history, stops);
            let mut root = Root {
                worker: &mut worker,
                budget,
                first_depth: 1,
                max_depth,
                multipv: params.multipv.max(1),
            };
            let result = root.run(pos, &moves, report);
            shared.done.store(true, Ordering::Relaxed);
            result
        })
    }
}
