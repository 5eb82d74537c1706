//! The proof search: a boolean negamax over wins and losses with a table of proven
//! results.
//!
//! Konane has no draws, so every node is a win or a loss for the side to move, and a
//! null-window alpha-beta search degenerates into this: a node is won when some move
//! leads to a node lost for the opponent (the search of the node stops at the first
//! such move), and lost when every move leads to a won one. Proven results go to the
//! table and are final. Each result carries the number of plies to the end along the
//! line the proof found (winner: its first winning move; loser: the reply that lasts
//! longest), which becomes the mate distance.

use std::mem::take;
use std::sync::atomic::Ordering as AtomicOrdering;
use std::time::{Duration, Instant};

use crate::rules::{Bitboard, Color, Move, MoveList, Phase, Position};

use super::dfpn::automatic_percent;
use super::node::Node;
use super::numbers::NumberTable;
use super::ordering::{History, Scored, order};
use super::regions::{Kind, Region, Regions};
use super::symmetry::Symmetries;
use super::team::Team;
use super::tt::{Hint, Key, Stored, Table};
use super::values::Values;
use super::{
    InterruptReason, Interrupted, SolveLimits, SolveProgress, SolverConfig, estimated_nodes,
};

/// A proven result of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Proof {
    /// Whether the side to move wins.
    pub win: bool,
    /// Plies to the end of the game along the proof's line.
    pub plies: u8,
}

/// How often the search looks at the clock, the stop flags and the node limit: about
/// every this long. Nodes cost from well under a microsecond (small boards) to
/// hundreds of microseconds (16x16 under `turning`), so the number of nodes between
/// two looks adapts to the measured rate (see [`Prover::check`]).
const CHECK_PERIOD: Duration = Duration::from_micros(500);

/// Nodes between the first two looks, before the rate is known.
const FIRST_CHECK_INTERVAL: u64 = 64;

/// The most nodes between two looks, however fast nodes are.
const MAX_CHECK_INTERVAL: u64 = 1 << 14;

/// Plies below its entry point at which the alpha-beta search puts off moves into
/// nodes another thread is searching (see [`team`](super::team)): deeper down the
/// subtrees are too small for the wait to pay.
const DEFER_PLIES: usize = 6;

/// Most children of a node the enhanced transposition cutoff looks up.
const ETC_MOVES: usize = 64;

/// Most stones a node may have for the game values to be tried on it, and most stones
/// one of its regions both sides can move in may have: bigger regions cost more to value
/// than to search.
const VALUE_MAX_STONES: u32 = 40;
const VALUE_REGION_STONES: u32 = 12;

/// Most new positions valued for one node before the node is searched instead.
const VALUE_BUDGET: usize = 50_000;

/// Spare-move balances stay well inside `i8` (negating one must not overflow).
const MAX_SPARES: i32 = 100;

/// One proof search over one variant, borrowing the solver's table.
pub(super) struct Prover<'a, B: Bitboard> {
    pub(super) table: &'a Table,
    /// What this solve's threads share.
    pub(super) team: &'a Team<'a>,
    pub(super) sym: &'a Symmetries,
    regions: Regions<B>,
    /// The regions' game values, when the configuration asks for them.
    values: Option<Values<B>>,
    pub(super) config: SolverConfig,
    /// Positions with at most this many empty squares per hundred squares of the board
    /// are df-pn nodes (the configuration's share, or the one chosen for this root).
    pub(super) top_percent: u32,
    limits: &'a SolveLimits<'a>,
    progress: &'a mut dyn FnMut(&SolveProgress),
    pub(super) history: &'a mut History,
    /// Proof and disproof numbers of the unproven nodes of the proof-number search.
    pub(super) top: &'a NumberTable,
    lists: Vec<MoveList<B>>,
    scored: Vec<Vec<Scored<B>>>,
    split: Vec<Region<B>>,
    /// Nodes searched so far.
    pub nodes: u64,
    next_check: u64,
    /// Nodes between two looks at the limits (see [`CHECK_PERIOD`]).
    check_interval: u64,
    /// Nodes already added to the team's count.
    reported_nodes: u64,
    started: Instant,
    last_check: Instant,
    last_report: Instant,
    /// The ply at which the alpha-beta search was entered last (for [`DEFER_PLIES`]).
    pub(super) alpha_beta_root: usize,
    /// The df-pn nodes this thread is searching below, from the root's child down:
    /// with several threads, once another thread proves one of them, this thread's
    /// search below it is wasted and ends ([`InterruptReason::Superseded`]).
    pub(super) path: Vec<Key>,
    /// Counts of how the search used its tools, for measurements.
    pub stats: Stats,
}

/// How often the search used each of its tools.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Table probes that found the node.
    pub table_hits: u64,
    /// Nodes won on the spot: a move left the opponent without a reply.
    pub quick_wins: u64,
    /// Nodes replaced by a smaller one by the region analysis.
    pub reductions: u64,
    /// Region analyses run.
    pub analyses: u64,
    /// Analyses that found two or more regions both sides can move in.
    pub multi_mixed: u64,
    /// Analyses that found one-sided regions.
    pub one_sided: u64,
    /// Nodes decided by the sum of their regions' game values.
    pub valued: u64,
    /// Nodes whose regions were too costly to value.
    pub unvalued: u64,
    /// Nodes won after a search of their moves.
    pub won: u64,
    /// Of those, nodes won by the first move tried.
    pub won_first: u64,
    /// Nodes lost after a search of all their moves.
    pub lost: u64,
    /// Nodes spent on moves that failed at nodes that were won in the end (a failure
    /// inside a failure counts at both levels).
    pub wasted: u64,
    /// Nodes expanded by the proof-number search (the rest are alpha-beta nodes).
    pub pn_nodes: u64,
    /// Nodes won because the table already held a lost child (enhanced transposition
    /// cutoff).
    pub etc_wins: u64,
}

impl<'a, B: Bitboard> Prover<'a, B> {
    /// A search of positions of `pos`'s variant.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        table: &'a Table,
        team: &'a Team<'a>,
        sym: &'a Symmetries,
        history: &'a mut History,
        pos: &Position<B>,
        config: SolverConfig,
        limits: &'a SolveLimits<'a>,
        progress: &'a mut dyn FnMut(&SolveProgress),
    ) -> Prover<'a, B> {
        let now = Instant::now();
        Prover {
            table,
            team,
            sym,
            regions: Regions::new(pos.geometry()),
            values: config.game_values.then(|| Values::new(pos.geometry())),
            config,
            top_percent: config
                .proof_number_percent
                .unwrap_or_else(|| automatic_percent(estimated_nodes(pos))),
            limits,
            progress,
            history,
            top: team.numbers,
            lists: Vec::new(),
            scored: Vec::new(),
            split: Vec::new(),
            nodes: 0,
            next_check: limits
                .node_limit
                .map_or(FIRST_CHECK_INTERVAL, |n| n.min(FIRST_CHECK_INTERVAL)),
            check_interval: FIRST_CHECK_INTERVAL,
            reported_nodes: 0,
            started: now,
            last_check: now,
            last_report: now,
            alpha_beta_root: 0,
            path: Vec::new(),
            stats: Stats::default(),
        }
    }

    /// The node of a real position (no spare moves).
    pub fn node(&self, pos: Position<B>) -> Node<B> {
        Node::new(pos, 0, self.sym)
    }

    /// When the search started.
    pub fn started(&self) -> Instant {
        self.started
    }

    /// Table fill, per thousand.
    pub fn table_permille(&self) -> u32 {
        self.table.permille()
    }

    /// The move the table remembers for `node` (a winning move, or the loser's longest
    /// reply), if it still holds the node and the move is a board move.
    pub fn remembered_move(&self, node: &Node<B>, moves: &MoveList<B>) -> Option<Move<B>> {
        let (key, s) = node.key(self.sym);
        let hint = self.table.probe(key)?.hint?;
        let (from, to) = Node::<B>::hint_squares(hint, s, self.sym)?;
        moves
            .iter()
            .copied()
            .find(|m| m.from() == from && m.to() == to)
    }

    /// The moves of `node`'s position in the order the search tries them.
    pub fn ordered_moves(&self, node: &Node<B>) -> Vec<Move<B>> {
        let list = node.pos.legal_moves();
        let mut scored = Vec::new();
        if let Some(m) = order(
            node,
            &list,
            self.history,
            &self.config,
            self.sym,
            &mut scored,
        ) {
            let mut all: Vec<Move<B>> = vec![m];
            all.extend(list.iter().copied().filter(|&x| x != m));
            return all;
        }
        scored.iter().map(|s| s.mv).collect()
    }

    /// The child of `node` after `m`.
    pub fn child(&self, node: &Node<B>, m: Move<B>) -> Node<B> {
        node.child(m, self.sym)
    }

    fn interrupted(&self, reason: InterruptReason) -> Interrupted {
        Interrupted {
            reason,
            nodes: self.nodes,
            elapsed: self.started.elapsed(),
        }
    }

    /// Adds this thread's new nodes to the team's count; returns the team's total.
    pub(super) fn report_nodes(&mut self) -> u64 {
        let new = self.nodes - self.reported_nodes;
        self.reported_nodes = self.nodes;
        self.team.nodes.fetch_add(new, AtomicOrdering::Relaxed) + new
    }

    /// Looks at the limits, and reports progress about once a second.
    ///
    /// The clock decides how often: the interval in nodes doubles while looks come
    /// sooner than [`CHECK_PERIOD`] and halves when they come later, so a stop or a
    /// deadline is noticed within about a millisecond on every board and rule.
    #[cold]
    fn check(&mut self) -> Result<(), Interrupted> {
        let now = Instant::now();
        let since = now.duration_since(self.last_check);
        self.last_check = now;
        if since < CHECK_PERIOD / 2 {
            self.check_interval = (self.check_interval * 2).min(MAX_CHECK_INTERVAL);
        } else if since > CHECK_PERIOD {
            self.check_interval = (self.check_interval / 2).max(1);
        }
        let total = self.report_nodes();
        self.next_check = self.nodes + self.check_interval;
        if let Some(limit) = self.limits.node_limit {
            // With one thread the total is this thread's count, and the limit exact.
            let left = limit.saturating_sub(total);
            self.next_check = self.next_check.min(self.nodes + left.max(1));
        }
        if self.limits.stop.load(AtomicOrdering::Relaxed)
            || self.team.done.load(AtomicOrdering::Relaxed)
        {
            return Err(self.interrupted(InterruptReason::Stopped));
        }
        if self.superseded() {
            return Err(self.interrupted(InterruptReason::Superseded));
        }
        if self.limits.node_limit.is_some_and(|n| total >= n) {
            return Err(self.interrupted(InterruptReason::NodeLimit));
        }
        if self.limits.deadline.is_some_and(|d| now >= d) {
            return Err(self.interrupted(InterruptReason::Deadline));
        }
        if now.duration_since(self.last_report).as_secs() >= 1 {
            self.last_report = now;
            let report = SolveProgress {
                nodes: total,
                elapsed: now.duration_since(self.started),
                table_permille: self.table.permille(),
            };
            (self.progress)(&report);
        }
        Ok(())
    }

    /// The proof the table holds for `key`, if it holds one.
    #[inline(always)]
    pub(super) fn table_proof(&self, key: Key) -> Option<Proof> {
        self.table.probe(key).map(|stored| Proof {
            win: stored.win,
            plies: stored.plies,
        })
    }

    /// Whether another thread has proven a node of this thread's df-pn path (the
    /// table holds only proven nodes).
    fn superseded(&self) -> bool {
        self.team.parallel() && self.path.iter().any(|&key| self.table.probe(key).is_some())
    }

    /// Counts a node and looks at the limits every so often.
    #[inline(always)]
    pub(super) fn count_node(&mut self) -> Result<(), Interrupted> {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check()?;
        }
        Ok(())
    }

    /// The error for a position with too many moves to list.
    pub(super) fn too_many_moves(&self) -> Interrupted {
        self.interrupted(InterruptReason::TooManyMoves)
    }

    /// Proves whether the side to move at `node` wins, by alpha-beta alone.
    pub fn search(&mut self, node: &Node<B>, ply: usize) -> Result<Proof, Interrupted> {
        let (key, s) = node.key(self.sym);
        self.search_keyed(node, key, s, ply)
    }

    /// [`search`](Self::search) for a node whose key (through symmetry `s`) is known.
    pub(super) fn search_keyed(
        &mut self,
        node: &Node<B>,
        key: Key,
        s: usize,
        ply: usize,
    ) -> Result<Proof, Interrupted> {
        self.count_node()?;
        if let Some(proof) = self.table_proof(key) {
            self.stats.table_hits += 1;
            return Ok(proof);
        }
        let before = self.nodes;
        if self.values.is_some()
            && node.pos.phase() == Phase::Jumping
            && node.pos.occupied().count() <= VALUE_MAX_STONES
            && let Some(win) = self.by_game_values(node)
        {
            let proof = Proof {
                win,
                plies: u8::from(win),
            };
            let stored = Stored {
                win,
                plies: proof.plies,
                hint: None,
            };
            self.table.store(key, stored, self.nodes - before);
            return Ok(proof);
        }
        if self.config.regions
            && node.pos.phase() == Phase::Jumping
            && let Some(smaller) = self.reduce(node)
        {
            self.stats.reductions += 1;
            let proof = self.search(&smaller, ply)?;
            let stored = Stored {
                win: proof.win,
                plies: proof.plies,
                hint: None,
            };
            self.table.store(key, stored, self.nodes - before);
            return Ok(proof);
        }
        let mut moves = self.take_scored(ply);
        let mut list = take(&mut self.lists[ply]);
        node.pos.generate(&mut list);
        if list.overflowed() {
            self.lists[ply] = list;
            self.put_scored(ply, moves);
            return Err(self.too_many_moves());
        }
        let spare = node.mover_has_spare();
        if list.is_empty() && !spare {
            self.lists[ply] = list;
            self.put_scored(ply, moves);
            return Ok(Proof {
                win: false,
                plies: 0,
            });
        }
        let quick = order(
            node,
            &list,
            self.history,
            &self.config,
            self.sym,
            &mut moves,
        );
        self.lists[ply] = list;
        let result = match quick {
            Some(m) => {
                self.stats.quick_wins += 1;
                Ok((
                    Proof {
                        win: true,
                        plies: 1,
                    },
                    Some(Node::<B>::hint_of(m, s, self.sym)),
                ))
            }
            None => self.search_moves(node, &mut moves, spare, s, ply),
        };
        self.put_scored(ply, moves);
        let (proof, hint) = result?;
        let stored = Stored {
            win: proof.win,
            plies: proof.plies,
            hint,
        };
        self.table.store(key, stored, self.nodes - before);
        Ok(proof)
    }

    /// The buffer for the ordered moves of a node at `ply` (and the move list beside
    /// it ready), taken out of the prover until the caller puts it back
    /// ([`put_scored`](Self::put_scored)): the buffers are reused from node to node.
    pub(super) fn take_scored(&mut self, ply: usize) -> Vec<Scored<B>> {
        while self.lists.len() <= ply {
            self.lists.push(MoveList::new());
            self.scored.push(Vec::new());
        }
        take(&mut self.scored[ply])
    }

    /// Gives back the buffer [`take_scored`](Self::take_scored) took for `ply`.
    pub(super) fn put_scored(&mut self, ply: usize, buffer: Vec<Scored<B>>) {
        self.scored[ply] = buffer;
    }

    /// Searches the children of `node` in order: the board moves, then the spare move.
    fn search_moves(
        &mut self,
        node: &Node<B>,
        moves: &mut [Scored<B>],
        spare: bool,
        s: usize,
        ply: usize,
    ) -> Result<(Proof, Option<Hint>), Interrupted> {
        let white = node.pos.side_to_move() == Color::White;
        let mut longest: Option<(u8, Hint)> = None;
        let mut keys = [None; ETC_MOVES];
        if self.config.etc
            && let Some(result) = self.transposition_cutoff(moves, s, &mut keys)
        {
            self.stats.etc_wins += 1;
            return Ok(result);
        }
        let start = self.nodes;
        // With several threads, near the entry point: first the moves no other thread
        // is searching, then the ones put off (bit i of `deferred`: move i).
        let marking = self.team.parallel() && ply < self.alpha_beta_root + DEFER_PLIES;
        let mut deferred = 0u64;
        for pass in [false, true] {
            for (i, scored) in moves.iter().enumerate() {
                let key = keys.get(i).copied().flatten();
                let put_off = i < 64 && deferred & (1 << i) != 0;
                if pass != put_off {
                    continue;
                }
                if marking
                    && !pass
                    && let Some((k, _)) = key
                    && self.team.workers(k) > 0
                {
                    deferred |= 1 << i;
                    continue;
                }
                let before = self.nodes;
                let reply = match key {
                    Some((key, ks)) if marking => {
                        self.team.enter(key);
                        let reply = self.search_keyed(&scored.child, key, ks, ply + 1);
                        self.team.leave(key);
                        reply?
                    }
                    Some((key, ks)) => self.search_keyed(&scored.child, key, ks, ply + 1)?,
                    None => self.search(&scored.child, ply + 1)?,
                };
                let hint = Node::<B>::hint_of(scored.mv, s, self.sym);
                if !reply.win {
                    self.history.reward(white, scored.mv, self.nodes - before);
                    self.stats.won += 1;
                    self.stats.won_first += u64::from(i == 0);
                    self.stats.wasted += before - start;

                    return Ok((won(reply), Some(hint)));
                }
                if longest.is_none_or(|(p, _)| reply.plies > p) {
                    longest = Some((reply.plies, hint));
                }
            }
            if deferred == 0 {
                break;
            }
        }
        if spare {
            let reply = self.search(&node.spare_child(), ply + 1)?;
            if !reply.win {
                return Ok((won(reply), Some(Hint::Spare)));
            }
            if longest.is_none_or(|(p, _)| reply.plies > p) {
                longest = Some((reply.plies, Hint::Spare));
            }
        }
        self.stats.lost += 1;
        #[expect(
            clippy::expect_used,
            reason = "callers search only nodes that are not over, so some move was tried"
        )]
        let (plies, hint) = longest.expect("a node that is not over has a move");
        Ok((
            Proof {
                win: false,
                plies: plies.saturating_add(1),
            },
            Some(hint),
        ))
    }

    /// A win found in the table without search: a child already proven lost. Leaves
    /// the children's keys in `keys` for their searches.
    fn transposition_cutoff(
        &mut self,
        moves: &[Scored<B>],
        s: usize,
        keys: &mut [Option<(Key, usize)>; ETC_MOVES],
    ) -> Option<(Proof, Option<Hint>)> {
        for (slot, scored) in keys.iter_mut().zip(moves) {
            let key = scored.child.key(self.sym);
            self.table.prefetch(key.0);
            *slot = Some(key);
        }
        for (key, scored) in keys.iter().zip(moves) {
            let Some(stored) = key.and_then(|(k, _)| self.table.probe(k)) else {
                continue;
            };
            if !stored.win {
                let proof = won(Proof {
                    win: false,
                    plies: stored.plies,
                });
                return Some((proof, Some(Node::<B>::hint_of(scored.mv, s, self.sym))));
            }
        }
        None
    }

    /// Whether the side to move wins `node`, from the game values of its regions, when
    /// it has two or more regions both sides can move in and none is too big to value.
    /// The positions valued count as nodes.
    fn by_game_values(&mut self, node: &Node<B>) -> Option<bool> {
        let occupied = node.pos.occupied();
        let mut split = take(&mut self.split);
        self.regions.split(occupied, &mut split);
        let mut mixed = 0;
        let mut small = true;
        for region in &split {
            if region.kind == Kind::Mixed {
                mixed += 1;
                small &= (occupied & region.squares).count() <= VALUE_REGION_STONES;
            }
        }
        let mut result = None;
        if mixed >= 2
            && small
            && let Some(values) = self.values.as_mut()
        {
            let (answer, searched) = values.mover_wins(
                occupied,
                &split,
                i32::from(node.spares),
                node.pos.side_to_move(),
                VALUE_BUDGET,
            );
            self.nodes += searched as u64;
            result = answer;
            if result.is_some() {
                self.stats.valued += 1;
            } else {
                self.stats.unvalued += 1;
            }
        }
        self.split = split;
        result
    }

    /// The node with dead stones dropped and one-sided regions folded into spare
    /// moves, or `None` when the analysis finds nothing to drop.
    fn reduce(&mut self, node: &Node<B>) -> Option<Node<B>> {
        self.stats.analyses += 1;
        let occupied = node.pos.occupied();
        let mut split = take(&mut self.split);
        let live = self.regions.split(occupied, &mut split);
        let mut removed = occupied & !live;
        let mut spares = i32::from(node.spares);
        let mixed = split.iter().filter(|r| r.kind == Kind::Mixed).count();
        self.stats.multi_mixed += u64::from(mixed > 1);
        self.stats.one_sided += u64::from(mixed < split.len());
        for region in &split {
            if let Kind::Only(colour) = region.kind {
                let stones = occupied & region.squares;
                if let Some(run) = self.regions.longest_run(stones, colour) {
                    removed |= stones;
                    spares += match colour {
                        Color::Black => i32::from(run),
                        Color::White => -i32::from(run),
                    };
                }
            }
        }
        self.split = split;
        if removed.is_empty() || spares.abs() > MAX_SPARES {
            return None;
        }
        let pos = Position::new(
            node.pos.geometry(),
            occupied & !removed,
            node.pos.side_to_move(),
        )
        .ok()?;
        Some(Node::new(pos, spares as i8, self.sym))
    }
}

/// The result of a node won by moving to a node with result `reply` (a loss).
#[inline(always)]
fn won(reply: Proof) -> Proof {
    Proof {
        win: true,
        plies: reply.plies.saturating_add(1),
    }
}
