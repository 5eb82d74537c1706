//! The recursive search below the root: negamax alpha-beta with principal variation
//! search, the transposition table, killer and history move ordering, and extensions
//! of nodes with few moves and of singular table moves.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crate::rules::{Bitboard, Move, MoveList, Position};

use super::control::SearchControl;
use super::eval::evaluate;
use super::ordering::{History, Killers, OrderBy, pick_next, score_moves};
use super::pruning::{futile, late_move_reduction, may_be_futile};
use super::score::{
    INFINITY, MATE, MATE_BOUND, MAX_PLY, Score, from_table, is_proven, mated_at, to_table,
};
use super::time::Budget;
use super::tt::{Bound, Hit, TranspositionTable};

/// How often (in nodes) the clock and the stop flag are looked at.
const CHECK_EVERY: u64 = 2048;

/// A node whose side to move has at most this many moves is searched one ply deeper
/// (below the root): Konane is lost by running out of moves, so a side that is close to
/// it is where a game is decided, and a forced move costs nothing to look past. Three
/// rather than one (only forced moves, before) kept more of the solver-labelled wins at
/// `go nodes 100000` (6x6 96.2% -> 97.0%, 6x7 97.0% -> 98.0%, 7x7 99.0% -> 100%, and
/// on fresh sets too) and played no worse (README, "Accuracy against the solver");
/// two, and four or more, kept fewer on 6x6.
pub const EXTENSION_MOVES: usize = 3;

/// Nodes at least this many plies from the horizon order their moves by the replies
/// each leaves (see [`OrderBy::count_replies`]); nearer it the count costs more than a
/// better order saves.
const REPLY_COUNT_DEPTH: i32 = 2;

/// Nodes at least this many plies from the horizon look for a singular table move
/// (see [`Worker::is_singular`]): a position won by one move only is where a search
/// short of depth throws a win away. From 8 plies the 6x6 to 7x7 sets kept more wins at
/// `go nodes 100000` (fresh 6x6 positions: 43 misses of 8,000 -> 26) for 1.3 times the
/// bench's nodes; from 6 plies the test cost 2.4 times the nodes and kept fewer (37
/// misses). README, "Singular extensions".
const SINGULAR_DEPTH: i32 = 8;

/// How far below the table's bound every other move must stay, in evaluation units
/// per ply of depth, for the table's move to count as singular.
const SINGULAR_MARGIN: Score = 4;

/// Whether a table entry searched to `stored` plies answers a search to `wanted`.
///
/// In play (`selective`) a deeper search is as good as the one asked for, and better.
/// An exact search takes only a search to the same depth, or a proven result that
/// ends within `wanted` plies: a deeper score would graft the result of another depth
/// onto this tree, and the value would no longer be that of a fixed-depth minimax,
/// which is what the minimax tests check.
fn exact_enough(stored: u8, wanted: i32, score: Score, selective: bool) -> bool {
    let stored = i32::from(stored);
    if selective {
        return stored >= wanted;
    }
    stored == wanted || (is_proven(score) && stored >= wanted && MATE - score.abs() <= wanted)
}

/// Per-ply scratch space.
struct Frame<B> {
    moves: MoveList<B>,
    scores: Vec<i32>,
    tried: Vec<u16>,
    pv: Vec<Move<B>>,
}

impl<B: Bitboard> Default for Frame<B> {
    /// An empty frame; it allocates nothing until used.
    fn default() -> Frame<B> {
        Frame {
            moves: MoveList::default(),
            scores: Vec::new(),
            tried: Vec::new(),
            pv: Vec::new(),
        }
    }
}

/// The limits a worker stops at, besides the stop flag.
#[derive(Clone, Copy, Debug)]
pub(super) struct Stops {
    /// The deadlines of the search.
    pub budget: Budget,
    /// `go nodes`.
    pub nodes: Option<u64>,
    /// Search every move to full depth: the value is then that of a plain minimax.
    pub exact: bool,
}

impl Stops {
    /// No limit: for helper threads, which stop when the main thread is done.
    pub const NONE: Stops = Stops {
        budget: Budget {
            soft: None,
            hard: None,
        },
        nodes: None,
        exact: false,
    };
}

/// What all the threads of one search share.
pub(super) struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a TranspositionTable,
    /// The protocol's stop and ponderhit flags.
    pub control: &'a SearchControl,
    /// Raised when the main thread is done, to end the helper threads.
    pub done: AtomicBool,
    /// Nodes searched by the helper threads so far.
    pub helper_nodes: AtomicU64,
}

impl<'a> Shared<'a> {
    /// Shared state for a search over `tt` controlled by `control`.
    pub fn new(tt: &'a TranspositionTable, control: &'a SearchControl) -> Shared<'a> {
        Shared {
            tt,
            control,
            done: AtomicBool::new(false),
            helper_nodes: AtomicU64::new(0),
        }
    }
}

/// One thread's search state.
pub(super) struct Worker<'a, B: Bitboard> {
    shared: &'a Shared<'a>,
    /// The main thread reports, keeps the clock and decides; helpers only fill the table.
    main: bool,
    history: &'a mut History,
    killers: Killers,
    frames: Vec<Frame<B>>,
    stops: Stops,
    /// Nodes visited by this thread.
    nodes: u64,
    /// Of them, how many were added to the shared helper count.
    published: u64,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// When the search began (for nps; deadlines use the control's clock).
    pub started: Instant,
    stopped: bool,
    /// Deadlines and node limits only apply once a first iteration gave a move.
    may_stop: bool,
    /// Whether the search may be selective: reduce and prune moves and take deeper
    /// table results (off for an exact search, whose value is that of plain minimax).
    selective: bool,
}

impl<'a, B: Bitboard> Worker<'a, B> {
    /// A worker of the search `shared`, with its own history; the `main` one decides
    /// when to stop, the others search until it is done.
    pub fn new(
        shared: &'a Shared<'a>,
        main: bool,
        history: &'a mut History,
        stops: Stops,
    ) -> Worker<'a, B> {
        Worker {
            shared,
            main,
            history,
            killers: Killers::default(),
            frames: (0..=MAX_PLY).map(|_| Frame::default()).collect(),
            stops,
            nodes: 0,
            published: 0,
            seldepth: 0,
            started: Instant::now(),
            stopped: false,
            may_stop: false,
            selective: !stops.exact,
        }
    }

    /// Whether the search was interrupted; its last result is then incomplete.
    #[must_use]
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Lets deadlines and node limits stop the search (once a move is known).
    pub fn allow_stop(&mut self) {
        self.may_stop = true;
    }

    /// The shared flags.
    pub fn control(&self) -> &SearchControl {
        self.shared.control
    }

    /// The table.
    pub fn tt(&self) -> &TranspositionTable {
        self.shared.tt
    }

    /// Nodes searched by all threads (exact for this one, as last published for helpers).
    pub fn total_nodes(&self) -> u64 {
        self.nodes + self.shared.helper_nodes.load(Ordering::Relaxed)
    }

    /// The principal variation found below the root move just searched.
    pub fn child_pv(&self) -> &[Move<B>] {
        &self.frames[1].pv
    }

    /// Looks at the flag, the clock and the node count; true when the search must end.
    pub fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        let control = self.shared.control;
        if !self.main {
            let fresh = self.nodes - self.published;
            self.shared.helper_nodes.fetch_add(fresh, Ordering::Relaxed);
            self.published = self.nodes;
            self.stopped = control.stopped() || self.shared.done.load(Ordering::Relaxed);
            return self.stopped;
        }
        let hard_passed = || {
            !control.pondering()
                && self
                    .stops
                    .budget
                    .hard
                    .is_some_and(|hard| control.clock_elapsed() >= hard)
        };
        let out_of_nodes = self.stops.nodes.is_some_and(|n| self.total_nodes() >= n);
        self.stopped = control.stopped() || (self.may_stop && (out_of_nodes || hard_passed()));
        self.stopped
    }

    /// How much shallower to look first at the `index`-th move (ordering score
    /// `order`) of a node `depth` plies from the horizon; see [`late_move_reduction`].
    fn reduction(&self, depth: i32, index: usize, order: i32, pv_node: bool) -> i32 {
        if self.selective {
            late_move_reduction(depth, index, order, pv_node)
        } else {
            0
        }
    }

    /// Whether the table's move at `pos` is singular, and so worth a ply more: the
    /// table holds a lower bound (or an exact score) for `pos` from nearly this depth,
    /// and every other move, searched to half the depth, stays below that bound less
    /// [`SINGULAR_MARGIN`] a ply. Proven scores are left alone: nothing is uncertain
    /// about them.
    fn is_singular(
        &mut self,
        pos: &Position<B>,
        moves: &[Move<B>],
        hit: Hit,
        depth: i32,
        ply: usize,
    ) -> bool {
        if depth < SINGULAR_DEPTH
            || hit.bound == Bound::Upper
            || i32::from(hit.depth) < depth - 3
            || hit.score.abs() >= MATE_BOUND
            || moves.len() < 2
        {
            return false;
        }
        let Some(key) = hit.move_key else {
            return false;
        };
        let target = hit.score - SINGULAR_MARGIN * depth;
        for &m in moves {
            if m.key() == key {
                continue;
            }
            let child = pos.after(m);
            let score = -self.search(&child, depth / 2 - 1, ply + 1, -target, -target + 1);
            if self.stopped || score >= target {
                return false;
            }
        }
        true
    }

    /// The value of `pos` searched `depth` plies deep, `ply` plies below the root,
    /// within the window (`alpha`, `beta`).
    pub fn search(
        &mut self,
        pos: &Position<B>,
        depth: i32,
        ply: usize,
        mut alpha: Score,
        mut beta: Score,
    ) -> Score {
        let pv_node = beta - alpha > 1;
        self.frames[ply].pv.clear();
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) && self.check_stop() {
            return 0;
        }
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        // No line from here can beat a quicker result found elsewhere.
        alpha = alpha.max(mated_at(ply));
        beta = beta.min(MATE - ply as Score - 1);
        if alpha >= beta {
            return alpha;
        }

        if depth <= 0 || ply >= MAX_PLY - 1 {
            let eval = evaluate(pos);
            if eval.own_moves == 0 {
                return mated_at(ply);
            }
            return eval.total;
        }

        let hash = pos.hash();
        let table_hit = self.shared.tt.probe(hash);
        let table_move = table_hit.and_then(|hit| hit.move_key);
        if let Some(hit) = table_hit {
            let score = from_table(hit.score, ply);
            if !pv_node && exact_enough(hit.depth, depth, hit.score, self.selective) {
                match hit.bound {
                    Bound::Exact => return score,
                    Bound::Lower if score >= beta => return score,
                    Bound::Upper if score <= alpha => return score,
                    _ => {}
                }
            }
        }

        if self.selective && !pv_node && may_be_futile(depth, beta) {
            let eval = evaluate(pos);
            if eval.own_moves > 0 && futile(depth, eval.total, beta) {
                return eval.total;
            }
        }

        // The frame is taken out while its moves are searched (the children use the
        // frames below it) and put back before returning, keeping its memory.
        let mut frame = std::mem::take(&mut self.frames[ply]);
        pos.generate(&mut frame.moves);
        if frame.moves.is_empty() {
            self.frames[ply] = frame;
            return mated_at(ply);
        }
        // The table keys results by the depth asked for, before any extension.
        let asked_depth = depth;
        let depth = if frame.moves.len() <= EXTENSION_MOVES {
            depth + 1
        } else {
            depth
        };

        if depth > 1 {
            // Every child will probe the table: start fetching their buckets now, so the
            // memory latency overlaps the ordering instead of stalling each child's probe.
            for &m in frame.moves.as_slice() {
                self.shared.tt.prefetch(pos.hash_after(m));
            }
        }
        let side = pos.side_to_move();
        let order_by = OrderBy {
            table_move,
            killers: self.killers.at(ply),
            history: self.history,
            count_replies: depth >= REPLY_COUNT_DEPTH,
        };
        score_moves(pos, frame.moves.as_slice(), &mut frame.scores, &order_by);
        frame.tried.clear();

        let singular = self.selective
            && ply > 0
            && table_hit.is_some_and(|hit| {
                self.is_singular(pos, frame.moves.as_slice(), hit, asked_depth, ply)
            });

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_key = None;
        for i in 0..frame.moves.len() {
            pick_next(frame.moves.as_mut_slice(), &mut frame.scores, i);
            let m = frame.moves.as_slice()[i];
            let child = pos.after(m);
            let score = if i == 0 {
                let extension = i32::from(singular && Some(m.key()) == table_move);
                -self.search(&child, depth - 1 + extension, ply + 1, -beta, -alpha)
            } else {
                let reduction = self.reduction(depth, i, frame.scores[i], pv_node);
                let mut probe =
                    -self.search(&child, depth - 1 - reduction, ply + 1, -alpha - 1, -alpha);
                if reduction > 0 && probe > alpha {
                    probe = -self.search(&child, depth - 1, ply + 1, -alpha - 1, -alpha);
                }
                if probe > alpha && probe < beta {
                    -self.search(&child, depth - 1, ply + 1, -beta, -alpha)
                } else {
                    probe
                }
            };
            if self.stopped {
                self.frames[ply] = frame;
                return 0;
            }
            if score > best {
                best = score;
                best_key = Some(m.key());
                if score > alpha {
                    alpha = score;
                    frame.pv.clear();
                    frame.pv.push(m);
                    frame.pv.extend_from_slice(&self.frames[ply + 1].pv);
                    if score >= beta {
                        self.killers.record(ply, m.key());
                        self.history.update(side, m.key(), &frame.tried, depth);
                        break;
                    }
                }
            }
            frame.tried.push(m.key());
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let depth_stored = asked_depth.clamp(0, i32::from(u8::MAX)) as u8;
        self.shared
            .tt
            .store(hash, best_key, to_table(best, ply), depth_stored, bound);
        self.frames[ply] = frame;
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_takes_a_deeper_table_result_and_an_exact_search_does_not() {
        assert!(exact_enough(7, 5, 40, true), "deeper answers in play");
        assert!(exact_enough(5, 5, 40, true));
        assert!(!exact_enough(4, 5, 40, true), "shallower never answers");
        assert!(
            !exact_enough(7, 5, 40, false),
            "deeper is another tree's value"
        );
        assert!(exact_enough(5, 5, 40, false));
    }

    /// Asks whether the table's move `a4a2` is singular at the position of a 6x6
    /// game, for a table entry of `score`, `bound` and `stored` depth at `depth`.
    fn singular_with(score: Score, bound: Bound, stored: u8, depth: i32) -> bool {
        use crate::rules::{AnyPosition, MultiJump, Opening};
        let text = "bw1wbw/wb1bwb/bw2b1/wb2wb/1w1wbw/1bwbwb b";
        let Ok(AnyPosition::Small(pos)) =
            AnyPosition::from_text(text, Opening::Diagonal, MultiJump::Straight)
        else {
            unreachable!("a small board")
        };
        let tt = TranspositionTable::new(1);
        let control = SearchControl::new(false);
        let shared = Shared::new(&tt, &control);
        let mut history = History::default();
        let mut worker = Worker::new(&shared, true, &mut history, Stops::NONE);
        let moves = pos.legal_moves();
        let table_move = pos.parse_move("a4a2").unwrap();
        let hit = Hit {
            move_key: Some(table_move.key()),
            score,
            depth: stored,
            bound,
        };
        worker.is_singular(&pos, moves.as_slice(), hit, depth, 1)
    }

    #[test]
    fn a_table_move_far_above_every_other_is_singular() {
        // No other move comes near +2000 in a search of 4 plies; all come above -2000.
        assert!(singular_with(2000, Bound::Lower, 10, 10));
        assert!(singular_with(2000, Bound::Exact, 7, 10));
        assert!(!singular_with(-2000, Bound::Lower, 10, 10));
        // Only a lower bound or an exact score, from nearly this depth, and not near the
        // horizon or for a proven result.
        assert!(!singular_with(2000, Bound::Upper, 10, 10));
        assert!(!singular_with(2000, Bound::Lower, 6, 10));
        assert!(!singular_with(2000, Bound::Lower, 10, SINGULAR_DEPTH - 1));
        assert!(!singular_with(MATE - 20, Bound::Lower, 10, 10));
    }

    #[test]
    fn an_exact_search_takes_a_deeper_proof_only_when_it_ends_within_the_depth() {
        assert!(exact_enough(9, 5, MATE - 3, false));
        assert!(exact_enough(9, 5, -(MATE - 5), false));
        assert!(
            !exact_enough(9, 5, MATE - 7, false),
            "ends beyond the depth asked"
        );
    }
}
