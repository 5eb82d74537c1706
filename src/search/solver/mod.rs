//! The exact solver: proves who wins a position with perfect play, and how.
//!
//! Konane has no draws: every position is a win or a loss for the side to move. The
//! solver proves which:
//!
//! - the first plies of the game (positions with few empty squares) by depth-first
//!   proof-number search (`dfpn`), which never sinks its effort into one move while
//!   another looks cheaper to prove, its first guesses of the cost taken from the
//!   mobility and the engine's evaluation of each child;
//! - everything below by a boolean alpha-beta search (`prover`): a node is won at the
//!   first move to a lost node, lost when every move leads to a won one, with moves
//!   tried in the order of the engine's evaluation of where they lead high in the tree
//!   and of the replies they leave the opponent (fewest first) lower down (`ordering`),
//!   and the table looked up for every child before any is searched (enhanced
//!   transposition cutoff);
//! - both share one table of proven results (`tt`) keyed on the occupancy itself
//!   (stones never change colour, so occupancy and side to move are the whole state),
//!   folded by the board symmetries that preserve the rules (`symmetry`);
//! - with several threads ([`Solver::set_threads`]), every thread proves the root
//!   over the one lock-free table, steering around the nodes the others work in
//!   (`team` says how, and why this rather than splitting the tree);
//! - optionally, dead stones are dropped and regions of the board that only one side
//!   can ever move in are counted as spare moves (`regions`, combinatorial game
//!   theory); on the boards measured this costs more than it saves, so it is off;
//! - optionally, a node whose board has fallen apart into two or more small regions both
//!   sides can move in is decided by adding up the regions' game values (`games` does
//!   the arithmetic of canonical forms, `values` finds each region's value once); also
//!   off, for the same reason.
//!
//! A proof too big for one machine can be cut into independent jobs and merged
//! ([`split`]); one too big for one table can be grown piece by piece into a file, each
//! piece a solve with a budget of nodes ([`grow`]). `docs/solved.md` has the
//! measurements and the solved boards.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use konane::rules::{AnyPosition, BoardSize, Variant};
//! use konane::search::solver::{SolveLimits, Solver};
//!
//! let variant = Variant { size: BoardSize::new(4, 4).unwrap(), ..Variant::default() };
//! let stop = AtomicBool::new(false);
//! let mut solver = Solver::new(16);
//! let line = solver
//!     .solve_any(&AnyPosition::start(variant), &SolveLimits::new(&stop), &mut |_| {})
//!     .unwrap();
//! // 4x4 is a win for the second player, white.
//! assert!(!line.side_to_move_wins);
//! assert!(line.mate <= 0);
//! ```
//!
//! # Using it from the protocol and the playing search
//!
//! `go solve`: run [`Solver::solve_any`] (or [`Solver::solve`]) on the searcher thread
//! with the `stop` flag and any `movetime` deadline in [`SolveLimits`]; report each
//! [`SolveProgress`] as an `info` line, then the final `score mate` from
//! [`SolvedLine::mate`], the `pv`, and `bestmove` (a position without moves has no
//! best move). In a normal search, ask [`can_solve_quickly`] with the nodes the
//! search can spare, and if it says yes, solve with that budget as
//! [`SolveLimits::node_limit`]; an [`Interrupted`] result just means "play on with the
//! normal search". Keep one [`Solver`] for the whole game: its table carries over
//! between solves of positions of one variant.
//!
//! # Mate distances
//!
//! [`SolveResult::mate`] counts as UCI does: `n > 0` when the side to move wins, `n < 0`
//! when it loses, and `|n|` is the number of moves the side to move makes along the
//! proven line. A win by one move that leaves the opponent without a reply is `mate 1`;
//! a position where the side to move has no legal move is `mate 0` (lost: a mate score
//! is never 0 for a win), one where every move allows such a win is `mate -1`. The
//! line is the proof's line, not necessarily the shortest win or the longest defence:
//! the winner plays the winning move the proof found, the loser the reply whose proof
//! took the most plies.

mod bucket;
mod dfpn;
mod estimate;
mod fold;
mod games;
pub mod grow;
mod node;
mod numbers;
mod ordering;
mod prover;
mod pv;
mod regions;
pub mod split;
mod symmetry;
mod team;
#[cfg(test)]
mod test_support;
mod tt;
mod values;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::rules::{AnyPosition, Bitboard, Move, Position, Variant};
use crate::with_position;

pub use estimate::{can_solve_quickly, estimated_nodes};
pub use prover::Stats as SolveStats;

use node::Node;
use numbers::NumberTable;
use ordering::History;
use prover::{Proof, Prover};
use symmetry::Symmetries;
use team::Team;
use tt::Table;

/// The most threads a solve uses (more are clamped, as [`Solver::set_threads`] says).
pub const MAX_THREADS: usize = 256;

/// Which of the solver's techniques are switched on (all, by default). Switching one
/// off never changes a result, only the work it takes: this is for measurements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverConfig {
    /// Fold positions by the board symmetries that preserve the rules.
    pub symmetry: bool,
    /// Drop dead stones and fold one-sided regions into spare moves. Off by default:
    /// on the boards measured it costs more than it saves (see `docs/solved.md`).
    pub regions: bool,
    /// Decide a node whose board has fallen apart into two or more small regions both
    /// sides can move in by adding up the regions' combinatorial game values
    /// (`values`) instead of searching it. Off by default: on the boards measured the
    /// analysis at every node costs more than the sums save (see `docs/solved.md`).
    pub game_values: bool,
    /// Try moves that leave the opponent the fewest replies first.
    pub mobility_ordering: bool,
    /// High in the tree, order moves by the engine's evaluation of the position they
    /// lead to (less a cost per reply they leave, with `mobility_ordering`).
    pub eval_ordering: bool,
    /// Prefer moves that have won elsewhere.
    pub history: bool,
    /// Before searching a node's moves, look all its children up in the table
    /// (enhanced transposition cutoff).
    pub etc: bool,
    /// Start the proof number of a proof-number search child at half the jumps the
    /// node's mover keeps there (at least 1) rather than at 1: the more moves a child
    /// leaves the mover, the harder it is to prove that the opponent wins it.
    pub mobility_numbers: bool,
    /// Scale a proof-number search child's first numbers by the engine's evaluation of
    /// it, where moves are ordered by the evaluation (`eval_ordering`): a child that
    /// looks good for the node's mover starts with a smaller disproof number and a
    /// larger proof number, so the search tries the moves the evaluation likes first
    /// and doubts the ones it dislikes.
    pub eval_numbers: bool,
    /// Search the first plies of the game by proof-number search, the rest by
    /// alpha-beta: positions with at most this many empty squares per hundred squares
    /// of the board are df-pn nodes; 0 for alpha-beta alone. `None` (the default)
    /// lets each solve choose by how big its proof looks: 45 for proofs guessed below
    /// ten million nodes (every solve the playing search starts), 50 up to fifty
    /// million, 55 above.
    pub proof_number_percent: Option<u32>,
}

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig {
            symmetry: true,
            regions: false,
            game_values: false,
            mobility_ordering: true,
            eval_ordering: true,
            history: true,
            etc: true,
            mobility_numbers: true,
            eval_numbers: true,
            proof_number_percent: None,
        }
    }
}

/// When a solve must give up.
#[derive(Clone, Copy, Debug)]
pub struct SolveLimits<'a> {
    /// Raised by another thread to stop the solve.
    pub stop: &'a AtomicBool,
    /// Give up at this moment.
    pub deadline: Option<Instant>,
    /// Give up after this many nodes.
    pub node_limit: Option<u64>,
}

impl<'a> SolveLimits<'a> {
    /// No limit but the stop flag.
    #[must_use]
    pub fn new(stop: &'a AtomicBool) -> SolveLimits<'a> {
        SolveLimits {
            stop,
            deadline: None,
            node_limit: None,
        }
    }
}

/// A progress report, sent about once a second during a solve.
#[derive(Clone, Copy, Debug)]
pub struct SolveProgress {
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the solve started.
    pub elapsed: Duration,
    /// Table fill, per thousand (UCI's `hashfull`).
    pub table_permille: u32,
}

/// Why a solve ended without a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InterruptReason {
    /// The stop flag was raised.
    Stopped,
    /// The deadline passed.
    Deadline,
    /// The node limit was reached.
    NodeLimit,
    /// A position on the way had more jump paths than a move list holds (only
    /// hand-made turning-rule positions on large boards come near that).
    TooManyMoves,
    /// Another thread proved a node above this thread's search (internal to parallel
    /// proofs: the solver never returns it).
    Superseded,
}

/// A solve that ended without a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("solve interrupted ({reason:?}) after {nodes} nodes in {elapsed:?}")]
pub struct Interrupted {
    /// Why.
    pub reason: InterruptReason,
    /// Nodes searched until then.
    pub nodes: u64,
    /// Time spent until then.
    pub elapsed: Duration,
}

/// A proven result.
#[derive(Clone, Debug)]
pub struct SolveResult<B> {
    /// Whether the side to move wins with perfect play.
    pub side_to_move_wins: bool,
    /// The first move of [`pv`](Self::pv): a winning move, or the loser's longest
    /// defence found; `None` when the side to move has no move. (If the limits stopped
    /// the line before its first move, the table's move for the position, or any legal
    /// move.)
    pub best_move: Option<Move<B>>,
    /// The proven line, to the end of the game unless the limits cut its search short
    /// (see [`line_complete`](Self::line_complete)).
    pub pv: Vec<Move<B>>,
    /// Whether [`pv`](Self::pv) reaches the end of the game. The verdict is proven
    /// either way: only the search for the line, after the proof, was stopped.
    pub line_complete: bool,
    /// Plies to the end of the game along the proven line: the length of
    /// [`pv`](Self::pv) when it is complete, else the length the proof recorded.
    pub plies_to_end: u32,
    /// Nodes searched to prove the result (without the line).
    pub proof_nodes: u64,
    /// Nodes searched in all, the line included.
    pub nodes: u64,
    /// Time taken in all.
    pub elapsed: Duration,
    /// Table fill at the end, per thousand.
    pub table_permille: u32,
    /// How the search used its tools.
    pub stats: SolveStats,
}

impl<B> SolveResult<B> {
    /// The UCI mate score (see the module notes): positive when the side to move wins,
    /// its absolute value the side to move's own moves along the line.
    #[must_use]
    pub fn mate(&self) -> i32 {
        mate_score(self.side_to_move_wins, self.plies_to_end as usize)
    }
}

fn mate_score(wins: bool, plies: usize) -> i32 {
    let plies = i32::try_from(plies).unwrap_or(i32::MAX - 1);
    if wins { (plies + 1) / 2 } else { -(plies / 2) }
}

/// A proven verdict without its line (see [`Solver::prove`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proven {
    /// Whether the side to move wins with perfect play.
    pub side_to_move_wins: bool,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// How the search used its tools.
    pub stats: SolveStats,
}

/// A proven result of an [`AnyPosition`], with moves as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolvedLine {
    /// Whether the side to move wins with perfect play.
    pub side_to_move_wins: bool,
    /// The UCI mate score, see [`SolveResult::mate`].
    pub mate: i32,
    /// The canonical text of the best move, if the side to move has a move.
    pub best_move: Option<String>,
    /// The proven line, as canonical move texts.
    pub pv: Vec<String>,
    /// Whether the line reaches the end of the game (see
    /// [`SolveResult::line_complete`]).
    pub line_complete: bool,
    /// Nodes searched to prove the result.
    pub proof_nodes: u64,
    /// Nodes searched in all.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// Table fill at the end, per thousand.
    pub table_permille: u32,
    /// How the search used its tools.
    pub stats: SolveStats,
}

/// What a solve left known about a position ([`Solver::known`]), for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    /// The table holds its result.
    Proven {
        /// Whether the side to move wins.
        side_to_move_wins: bool,
    },
    /// Its proof-number search did not finish: the work it guessed was left to show
    /// that the side to move wins (`prove`) and that it loses (`disprove`), both at
    /// least 1, in the units of df-pn's first numbers (about one leaf each).
    Numbers {
        /// The proof number.
        prove: u64,
        /// The disproof number.
        disprove: u64,
    },
}

/// The solver: a table of proven results and the search that fills it.
///
/// The table survives between solves of positions of the same variant (proven results
/// never go stale), so solving the positions of one game one after the other reuses
/// earlier work. It is cleared when the variant changes.
pub struct Solver {
    table: Table,
    /// The df-pn numbers of unproven nodes, each solve's own (see
    /// [`numbers`](numbers)), about a quarter of `table`'s size.
    numbers: NumberTable,
    /// What move ordering has learnt, one per thread: each thread's own, so that the
    /// threads' searches differ.
    histories: Vec<History>,
    /// The variant of the table's positions, and its symmetries.
    variant: Option<(Variant, Symmetries)>,
    config: SolverConfig,
    /// Whether each solve goes on from the df-pn numbers of the solves before
    /// ([`Solver::set_carry_numbers`]).
    carry_numbers: bool,
}

// The protocol moves the solver into its searcher thread.
const _: fn() = || {
    fn send<T: Send>() {}
    send::<Solver>();
};

impl Solver {
    /// A solver with a table of about `table_megabytes` MB and every technique on.
    #[must_use]
    pub fn new(table_megabytes: usize) -> Solver {
        Solver::with_config(table_megabytes, SolverConfig::default())
    }

    /// A solver with the given techniques (for measurements).
    #[must_use]
    pub fn with_config(table_megabytes: usize, config: SolverConfig) -> Solver {
        let table = Table::new(table_megabytes);
        Solver {
            numbers: NumberTable::new(table.bytes() / dfpn::NUMBERS_SHARE),
            table,
            histories: vec![History::new()],
            variant: None,
            config,
            carry_numbers: false,
        }
    }

    /// Whether each solve starts from the df-pn numbers the solves before it left
    /// (`true`) or afresh (`false`, the default). Numbers only steer the search, so
    /// either way every result is the same; carrying them pays when the solves are
    /// parts of one proof ([`grow`]'s pieces: on the 6x7 start a grown proof took 13.5
    /// M, 14.2 M and 10.7 M nodes with pieces of 0.1 M, 1 M and 4 M nodes, against 16.8
    /// M, 21.7 M and 14.4 M without), and would only mislead solves of unrelated
    /// positions.
    pub fn set_carry_numbers(&mut self, on: bool) {
        self.carry_numbers = on;
    }

    /// Whether solves carry df-pn's numbers ([`set_carry_numbers`](Self::set_carry_numbers)).
    #[must_use]
    pub fn carries_numbers(&self) -> bool {
        self.carry_numbers
    }

    /// Solves with `threads` threads from now on (1 to [`MAX_THREADS`]; other values
    /// are clamped into that range). Each thread keeps its own move-ordering history
    /// (512 KB); all share the table.
    pub fn set_threads(&mut self, threads: usize) {
        self.histories
            .resize_with(threads.clamp(1, MAX_THREADS), History::new);
    }

    /// Whether moves high in the tree are ordered by the evaluation
    /// ([`SolverConfig::eval_ordering`]).
    #[must_use]
    pub fn eval_ordering(&self) -> bool {
        self.config.eval_ordering
    }

    /// Switches the ordering by the evaluation for the next solves. Safe at any time:
    /// the order of moves never changes what the table holds.
    pub fn set_eval_ordering(&mut self, on: bool) {
        self.config.eval_ordering = on;
    }

    /// How many threads a solve uses.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.histories.len()
    }

    /// Forgets every proven result and what move ordering has learnt.
    pub fn clear(&mut self) {
        self.table.clear();
        self.numbers.clear();
        self.histories.fill_with(History::new);
    }

    /// The table's size in bytes.
    #[must_use]
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// How full the table is, in slots per thousand (sampled, like UCI's hashfull).
    #[must_use]
    pub fn table_permille(&self) -> u32 {
        self.table.permille()
    }

    /// What the last solve left known about `pos` (a position of the table's variant;
    /// `None` for any other): its result if the table holds it as proven, else the
    /// df-pn numbers that solve gave it if its proof-number search reached it, else
    /// nothing. Read it before the next solve, which starts the numbers afresh (unless
    /// they are carried, [`set_carry_numbers`](Self::set_carry_numbers)).
    #[must_use]
    pub fn known(&self, pos: &AnyPosition) -> Option<Known> {
        let (variant, sym) = self.variant.as_ref()?;
        if pos.variant() != *variant {
            return None;
        }
        with_position!(pos, p => {
            let (key, _) = Node::new(*p, 0, sym).key(sym);
            match self.table.probe(key) {
                Some(stored) => Some(Known::Proven {
                    side_to_move_wins: stored.win,
                }),
                None => self
                    .numbers
                    .get(key)
                    .map(|(prove, disprove)| Known::Numbers { prove, disprove }),
            }
        })
    }

    /// Makes the table the one of `pos`'s variant (a new variant clears it; before the
    /// first solve the table is empty already, and writing over it would only have the
    /// kernel back all of its pages at once).
    fn prepare<B: Bitboard>(&mut self, pos: &Position<B>) {
        let variant = pos.variant();
        if self
            .variant
            .as_ref()
            .is_none_or(|(known, _)| *known != variant)
        {
            if self.variant.is_some() {
                self.table.clear();
                self.numbers.clear();
                self.histories.fill_with(History::new);
            }
            let sym = Symmetries::new(pos.geometry(), self.config.symmetry);
            self.variant = Some((variant, sym));
        }
    }

    /// Proves `pos` with every thread, then hands the main thread's search and the
    /// proof to `finish` (for the line), with the nodes the helper threads searched.
    fn with_proof<B: Bitboard, T>(
        &mut self,
        pos: &Position<B>,
        limits: &SolveLimits<'_>,
        progress: &mut dyn FnMut(&SolveProgress),
        finish: impl FnOnce(&mut Prover<'_, B>, Proof, u64) -> T,
    ) -> Result<T, Interrupted> {
        self.prepare(pos);
        #[expect(clippy::expect_used, reason = "`prepare` has just set the variant")]
        let (_, sym) = self.variant.as_ref().expect("prepare sets the variant");
        if !self.carry_numbers {
            self.numbers.next_solve();
        }
        let team = Team::new(self.histories.len(), &self.numbers);
        #[expect(
            clippy::expect_used,
            reason = "a solver keeps one history per thread, and has at least one thread"
        )]
        let (main_history, helper_histories) = self
            .histories
            .split_first_mut()
            .expect("a solver has at least one thread");
        let (table, config) = (&self.table, self.config);
        let mut main = Prover::new(
            table,
            &team,
            sym,
            main_history,
            pos,
            config,
            limits,
            progress,
        );
        let root = main.node(*pos);
        let (first, helper_nodes) = std::thread::scope(|scope| {
            let helpers: Vec<_> = helper_histories
                .iter_mut()
                .map(|history| {
                    let team = &team;
                    scope.spawn(move || {
                        let mut quiet = |_: &SolveProgress| {};
                        let mut helper =
                            Prover::new(table, team, sym, history, pos, config, limits, &mut quiet);
                        let root = helper.node(*pos);
                        if helper.prove(&root).is_ok() {
                            team.proved.store(true, Ordering::Relaxed);
                            team.done.store(true, Ordering::Relaxed);
                        }
                        helper.nodes
                    })
                })
                .collect();
            let first = main.prove(&root);
            team.done.store(true, Ordering::Relaxed);
            let helper_nodes: u64 = helpers
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .sum();
            (first, helper_nodes)
        });
        // The helpers are done; the main search goes on alone (for the line).
        team.done.store(false, Ordering::Relaxed);
        let proof = match first {
            Ok(proof) => proof,
            // A helper proved the root first: the table holds its proof, so the main
            // search finds it at once (and searches on alone if it was overwritten).
            Err(e)
                if e.reason == InterruptReason::Stopped
                    && team.proved.load(Ordering::Relaxed)
                    && !limits.stop.load(Ordering::Relaxed) =>
            {
                main.prove(&root).map_err(|e| Interrupted {
                    nodes: e.nodes + helper_nodes,
                    ..e
                })?
            }
            Err(e) => {
                return Err(Interrupted {
                    nodes: e.nodes + helper_nodes,
                    ..e
                });
            }
        };
        Ok(finish(&mut main, proof, helper_nodes))
    }

    /// Proves whether the side to move at `pos` wins, without finding the line: the
    /// cheapest question the solver answers.
    pub fn prove<B: Bitboard>(
        &mut self,
        pos: &Position<B>,
        limits: &SolveLimits<'_>,
        progress: &mut dyn FnMut(&SolveProgress),
    ) -> Result<Proven, Interrupted> {
        self.with_proof(pos, limits, progress, |prover, proof, helper_nodes| {
            Proven {
                side_to_move_wins: proof.win,
                nodes: prover.nodes + helper_nodes,
                elapsed: prover.started().elapsed(),
                stats: prover.stats,
            }
        })
    }

    /// Proves whether the side to move at `pos` wins, and finds the proven line.
    /// `progress` hears about the search about once a second.
    pub fn solve<B: Bitboard>(
        &mut self,
        pos: &Position<B>,
        limits: &SolveLimits<'_>,
        progress: &mut dyn FnMut(&SolveProgress),
    ) -> Result<SolveResult<B>, Interrupted> {
        self.with_proof(pos, limits, progress, |prover, proof, helper_nodes| {
            let proof_nodes = prover.nodes + helper_nodes;
            let root = prover.node(*pos);
            let (pv, stopped) = pv::principal_line(prover, *pos, proof);
            let line_complete = stopped.is_none();
            // Stopped before the line's first move: the table's move, or any move, so
            // that the caller always has a move to play.
            let best_move = pv.first().copied().or_else(|| {
                let moves = pos.legal_moves();
                prover
                    .remembered_move(&root, &moves)
                    .or_else(|| moves.as_slice().first().copied())
            });
            SolveResult {
                side_to_move_wins: proof.win,
                best_move,
                plies_to_end: if line_complete {
                    pv.len() as u32
                } else {
                    u32::from(proof.plies)
                },
                line_complete,
                pv,
                proof_nodes,
                nodes: prover.nodes + helper_nodes,
                elapsed: prover.started().elapsed(),
                table_permille: prover.table_permille(),
                stats: prover.stats,
            }
        })
    }

    /// [`solve`](Self::solve) for a position of any board size, with moves as text.
    pub fn solve_any(
        &mut self,
        pos: &AnyPosition,
        limits: &SolveLimits<'_>,
        progress: &mut dyn FnMut(&SolveProgress),
    ) -> Result<SolvedLine, Interrupted> {
        with_position!(pos, p => {
            let result = self.solve(p, limits, progress)?;
            let mut line_pos = *p;
            let pv = result
                .pv
                .iter()
                .map(|&m| {
                    let text = line_pos.move_text(m);
                    line_pos.play_unchecked(m);
                    text
                })
                .collect();
            Ok(SolvedLine {
                side_to_move_wins: result.side_to_move_wins,
                mate: result.mate(),
                best_move: result.best_move.map(|m| p.move_text(m)),
                pv,
                line_complete: result.line_complete,
                proof_nodes: result.proof_nodes,
                nodes: result.nodes,
                elapsed: result.elapsed,
                table_permille: result.table_permille,
                stats: result.stats,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::BoardSize;

    fn start(width: usize, height: usize) -> AnyPosition {
        AnyPosition::start(Variant {
            size: BoardSize::new(width, height).unwrap(),
            ..Variant::default()
        })
    }

    /// The positions after each move of `pos`.
    fn children(pos: &AnyPosition) -> Vec<AnyPosition> {
        pos.legal_move_texts()
            .iter()
            .map(|m| {
                let mut child = *pos;
                child.play_text(m).unwrap();
                child
            })
            .collect()
    }

    #[test]
    fn a_solve_leaves_its_results_and_its_numbers_known() {
        let stop = AtomicBool::new(false);
        let mut solver = Solver::new(16);
        let root = start(4, 4);
        assert_eq!(solver.known(&root), None, "nothing before the first solve");
        let line = solver
            .solve_any(&root, &SolveLimits::new(&stop), &mut |_| {})
            .unwrap();
        let wins = line.side_to_move_wins;
        assert_eq!(
            solver.known(&root),
            Some(Known::Proven {
                side_to_move_wins: wins
            })
        );
        let mut after = root;
        after.play_text(&line.pv[0]).unwrap();
        assert_eq!(
            solver.known(&after),
            Some(Known::Proven {
                side_to_move_wins: !wins
            }),
            "the line's first move leads where the table holds the other result"
        );
        assert_eq!(solver.known(&start(5, 4)), None, "another variant");

        // A solve its budget stops leaves df-pn's numbers on the children it searched.
        let root = start(6, 6);
        let limits = SolveLimits {
            node_limit: Some(5_000),
            ..SolveLimits::new(&stop)
        };
        assert!(solver.solve_any(&root, &limits, &mut |_| {}).is_err());
        let children: Vec<Known> = children(&root)
            .iter()
            .filter_map(|child| solver.known(child))
            .collect();
        assert!(
            children.iter().any(|known| matches!(
                known,
                Known::Numbers { prove, disprove } if *prove >= 1 && *disprove >= 1
            )),
            "{children:?}"
        );
    }

    #[test]
    fn carried_numbers_outlive_the_next_solve() {
        let stop = AtomicBool::new(false);
        let root = start(6, 6);
        let budget = SolveLimits {
            node_limit: Some(5_000),
            ..SolveLimits::new(&stop)
        };
        let other = AnyPosition::from_text(
            "b5/6/6/6/6/w5 b",
            crate::rules::Opening::Diagonal,
            crate::rules::MultiJump::Straight,
        )
        .unwrap();
        for carry in [false, true] {
            let mut solver = Solver::new(16);
            solver.set_carry_numbers(carry);
            assert!(solver.solve_any(&root, &budget, &mut |_| {}).is_err());
            let estimated: Vec<AnyPosition> = children(&root)
                .into_iter()
                .filter(|child| matches!(solver.known(child), Some(Known::Numbers { .. })))
                .collect();
            assert!(!estimated.is_empty());
            let line = solver
                .solve_any(&other, &SolveLimits::new(&stop), &mut |_| {})
                .unwrap();
            assert!(!line.side_to_move_wins, "black has no move");
            let still = estimated
                .iter()
                .filter(|child| matches!(solver.known(child), Some(Known::Numbers { .. })))
                .count();
            let expected = if carry { estimated.len() } else { 0 };
            assert_eq!(still, expected, "carry {carry}");
        }
    }

    #[test]
    fn mate_scores_count_own_moves() {
        assert_eq!(mate_score(false, 0), 0);
        assert_eq!(mate_score(true, 1), 1);
        assert_eq!(mate_score(false, 2), -1);
        assert_eq!(mate_score(true, 3), 2);
        assert_eq!(mate_score(false, 4), -2);
    }
}
