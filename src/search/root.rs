//! The root of the search: iterative deepening, aspiration windows, MultiPV, and the
//! decision when to stop.

use std::time::{Duration, Instant};

use crate::rules::{Bitboard, Move, Position};

use super::alphabeta::Worker;
use super::score::{INFINITY, MATE, MAX_PLY, Score, is_proven};
use super::time::{Budget, worth_starting};

/// Half-width of the first aspiration window.
const ASPIRATION: Score = 60;

/// One line of the search's output: a finished iteration of one principal variation.
#[derive(Clone, Debug)]
pub struct Iteration<'a, B> {
    /// Nominal depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Which line (1 = best) when several are asked for.
    pub multipv: usize,
    /// Score of the line.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// Permille of the table used by this search.
    pub hashfull: u32,
    /// The line itself, from the root.
    pub pv: &'a [Move<B>],
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<B> {
    /// The move to play; `None` only when there is no legal move.
    pub best: Option<Move<B>>,
    /// The expected reply, when known.
    pub ponder: Option<Move<B>>,
    /// Score of the best move.
    pub score: Score,
    /// Last depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// A root move and what the last iterations said of it.
#[derive(Clone, Debug)]
struct RootMove<B> {
    mv: Move<B>,
    score: Score,
    previous: Score,
    pv: Vec<Move<B>>,
}

/// The iterative deepening driver for one search.
pub(super) struct Root<'w, 'a, B: Bitboard> {
    pub worker: &'w mut Worker<'a, B>,
    pub budget: Budget,
    pub first_depth: u32,
    pub max_depth: u32,
    pub multipv: usize,
}

impl<B: Bitboard> Root<'_, '_, B> {
    /// Searches `pos` over `moves` (its legal moves, maybe narrowed by `searchmoves`),
    /// telling `report` of every finished line.
    pub fn run(
        &mut self,
        pos: &Position<B>,
        moves: &[Move<B>],
        report: &mut dyn FnMut(&Iteration<'_, B>),
    ) -> SearchResult<B> {
        let mut root: Vec<RootMove<B>> = moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INFINITY,
                previous: -INFINITY,
                pv: vec![mv],
            })
            .collect();
        let lines = self.multipv.clamp(1, root.len().max(1));
        let mut completed = 0;
        // How long the last two iterations took, for deciding whether another fits.
        let mut last = Duration::ZERO;
        for depth in self.first_depth..=self.max_depth.min(MAX_PLY as u32 - 2) {
            let began = Instant::now();
            for line in 0..lines {
                self.search_line(pos, &mut root, line, depth as i32);
                if self.worker.stopped() {
                    break;
                }
            }
            if self.worker.stopped() {
                break;
            }
            root[..lines].sort_by_key(|r| std::cmp::Reverse(r.score));
            for (i, r) in root[..lines].iter().enumerate() {
                report(&self.iteration(depth, i + 1, r));
            }
            completed = depth;
            self.worker.allow_stop();
            for r in &mut root {
                r.previous = r.score;
            }
            let before_last = std::mem::replace(&mut last, began.elapsed());
            if self.should_end_after(depth, root[0].score, last, before_last) {
                break;
            }
        }
        let best = &root[0];
        SearchResult {
            best: Some(best.mv),
            ponder: best
                .pv
                .get(1)
                .copied()
                .or_else(|| self.table_reply(pos, best.mv)),
            // Interrupted before the best move got a new score: the last one stands.
            score: if best.score > -INFINITY {
                best.score
            } else {
                best.previous
            },
            depth: completed,
            nodes: self.worker.total_nodes(),
        }
    }

    fn iteration<'r>(&self, depth: u32, multipv: usize, r: &'r RootMove<B>) -> Iteration<'r, B> {
        Iteration {
            depth,
            seldepth: self.worker.seldepth as u32,
            multipv,
            score: r.score,
            nodes: self.worker.total_nodes(),
            elapsed: self.worker.started.elapsed(),
            hashfull: self.worker.tt().hashfull(),
            pv: &r.pv,
        }
    }

    /// Whether to start no further iteration after finishing `depth` with `score`, the
    /// last iteration having taken `last` and the one before it `before_last`.
    fn should_end_after(
        &mut self,
        depth: u32,
        score: Score,
        last: Duration,
        before_last: Duration,
    ) -> bool {
        let control = self.worker.control();
        if control.stopped() {
            return true;
        }
        // A proven result within the depth searched is exact: deeper search cannot
        // change it (every line to that depth was looked at).
        let plies_to_end = (MATE - score.abs()) as u32;
        if is_proven(score) && depth >= plies_to_end {
            return true;
        }
        if control.pondering() {
            return false;
        }
        let elapsed = control.clock_elapsed();
        // A fixed time per move (soft deadline equal to the hard one) is spent in full:
        // time saved there is not kept for later, and an unfinished iteration can still
        // find a better move. On a clock, an iteration that cannot end is time lost.
        let on_clock = self.budget.soft != self.budget.hard;
        self.budget.soft.is_some_and(|soft| elapsed >= soft)
            || (on_clock && !worth_starting(elapsed, last, before_last, self.budget.hard))
    }

    /// Searches line `line` (the moves from `line` on) to `depth` with an aspiration
    /// window around its last score.
    fn search_line(
        &mut self,
        pos: &Position<B>,
        root: &mut [RootMove<B>],
        line: usize,
        depth: i32,
    ) {
        let previous = root[line].previous;
        let mut delta = ASPIRATION;
        let (mut alpha, mut beta) = if depth >= 4 && !is_proven(previous) && previous > -INFINITY {
            (previous - delta, previous + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = self.search_moves(pos, &mut root[line..], depth, alpha, beta);
            if self.worker.stopped() {
                return;
            }
            if score <= alpha && alpha > -INFINITY {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta && beta < INFINITY {
                beta = (score + delta).min(INFINITY);
            } else {
                return;
            }
            delta *= 2;
            if delta > 8 * ASPIRATION {
                (alpha, beta) = (-INFINITY, INFINITY);
            }
        }
    }

    /// The table's move in the position after `mv`, if it is legal there: the reply to
    /// ponder on when the principal variation stops at the root move (as it does when
    /// the clock interrupts the re-search after an aspiration window failed high, which
    /// leaves only the zero-window probe's result).
    fn table_reply(&self, pos: &Position<B>, mv: Move<B>) -> Option<Move<B>> {
        let child = pos.after(mv);
        let key = self.worker.tt().probe(child.hash())?.move_key?;
        child.legal_moves().iter().copied().find(|m| m.key() == key)
    }

    /// Principal variation search over `moves`, which are sorted best first on return.
    fn search_moves(
        &mut self,
        pos: &Position<B>,
        moves: &mut [RootMove<B>],
        depth: i32,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
        for m in moves.iter_mut() {
            m.score = -INFINITY;
        }
        let mut best = -INFINITY;
        for (i, root_move) in moves.iter_mut().enumerate() {
            let child = pos.after(root_move.mv);
            let worker = &mut *self.worker;
            let score = if i == 0 {
                -worker.search(&child, depth - 1, 1, -beta, -alpha)
            } else {
                let probe = -worker.search(&child, depth - 1, 1, -alpha - 1, -alpha);
                if probe > alpha && probe < beta {
                    -worker.search(&child, depth - 1, 1, -beta, -alpha)
                } else {
                    probe
                }
            };
            if worker.stopped() {
                break;
            }
            if i == 0 || score > alpha {
                root_move.score = score;
                root_move.pv.truncate(1);
                root_move.pv.extend_from_slice(worker.child_pv());
            } else {
                // Only known to be no better than the best: keep it below the others.
                root_move.score = -INFINITY;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        // Stable, so among equals the previous order (and the first move) stays first.
        moves.sort_by_key(|r| std::cmp::Reverse(r.score));
        best
    }
}
