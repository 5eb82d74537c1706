//! Depth-first proof-number search (df-pn, Nagai 2002) over the top of the tree.
//!
//! Alpha-beta commits to a move until that move is proven or refuted. Near the root a
//! wrong first try can cost as much as the rest of the proof together (on 6x6 one
//! wrong move at the first jump took more than a quarter of all nodes), so the first
//! plies of the game, where positions have the most stones, are searched by df-pn
//! instead: it works on the child whose proof looks cheapest *so far* and switches as
//! soon as another one looks cheaper. Below a stone threshold every position is handed
//! to the alpha-beta prover whole, so df-pn's bookkeeping stays small.
//!
//! In negamax form, for a node `n` whose side to move is `M`:
//! `pn(n)`, the work still needed to prove that `M` wins, is the least `dn(c)` of its
//! children (one child lost for the opponent is enough), and `dn(n)`, the work to prove
//! that `M` loses, is the sum of the children's `pn(c)` (every child must be won by the
//! opponent). A new child starts at `dn =` its mover's number of moves, so the search
//! starts with the moves that leave the opponent the fewest replies, like the
//! alpha-beta ordering, and at `pn =` half the jumps `M` keeps there (at least 1): the
//! more moves a child leaves `M`, the more of them a proof that the opponent wins it
//! must refute, so `M` is first tried as the loser where it keeps few. Against `pn = 1`
//! this halves the 6x7 proof (41.9 M nodes to 23.2 M) and takes a quarter off 6x6
//! (1.84 M to 1.32 M) and 300 6x6 middle games (10.5 M to 8.2 M); half the jumps
//! did better than all of them, a third or two fifths.
//!
//! Where the node's moves are ordered by the engine's evaluation (high in the tree, see
//! [`ordering`](super::ordering)), both first numbers are also scaled by how much the
//! evaluation likes the child for `M`: per [`EVAL_DOUBLING`] units in `M`'s favour `dn`
//! is halved and `pn` doubled (at most sixteenfold), the other way round against. This
//! takes a quarter off 7x7 endgames of 34 stones, half off 8x8 ones of 38 and a fifth
//! off the 6x6 and 6x7 starts, changes nothing where df-pn covers only the root, and
//! costs 14% on the 7x7 opening after d4 (`docs/solved.md`).
//!
//! Proven nodes go to the shared table; unproven numbers are kept apart
//! ([`numbers`](super::numbers)). The game tree is acyclic (every move takes a
//! stone), so the cycle problems of df-pn do not arise; transpositions only make the numbers
//! overestimate, which costs time, never correctness: a node is declared won or lost
//! only from children the table holds as proven.

use crate::rules::{Bitboard, Move, MoveList};

use super::node::Node;
use super::ordering::order;
use super::prover::{Proof, Prover};
use super::tt::{Key, Stored};
use super::{InterruptReason, Interrupted, SolverConfig};

/// The numbers of unproven nodes (a table of their own, which the threads of a proof
/// share, see [`numbers`](super::numbers)) take about this share of the table's memory
/// together: a quarter.
pub(super) const NUMBERS_SHARE: usize = 4;

/// The share of the board that may be empty at a df-pn node, in percent, when the
/// configuration leaves it to the solver: the bigger the proof looks
/// ([`estimated_nodes`](super::estimated_nodes) of its root), the more of its top df-pn
/// covers.
///
/// df-pn saves most where a wrong first try costs most, high in a big proof; its nodes
/// cost about twice alpha-beta's, which small proofs do not earn back. From one thread
/// on 6x7 (root guessed at 1.5e7 nodes), 7x7 after d4 (5.4e8) and the 4 x 12
/// horizontal middle gap (8.0e7), at 45 / 50 / 55 percent: 26 / 25 / 28 s, 262 / 189 /
/// 178 s and 160 / - / 109 s; on 1,250 middle games of 6x6 to 7x7 (each guessed below
/// 1e7) 50 took 10-14% more time than 45.
pub(super) fn automatic_percent(estimated_nodes: f64) -> u32 {
    if estimated_nodes >= 5e7 {
        55
    } else if estimated_nodes >= 1e7 {
        50
    } else {
        45
    }
}

/// How far the evaluation moves a child's first numbers: a child the evaluation puts
/// this many units better for the node's mover starts with half the disproof number
/// and twice the proof number (a quarter and four times for twice as many units, and
/// so on up to [`MAX_EVAL_DOUBLINGS`]). Of 256, 512, 1024 and 2048, 1024 costs the 7x7
/// opening after d4 least (14% more nodes, against 61% and 128% for 512 and 256, which
/// do better on small proofs); 2048 did worse than 1024 on every other proof measured
/// (`docs/solved.md`, "What each technique is worth").
const EVAL_DOUBLING: f64 = 1024.0;

/// The most the evaluation halves or doubles a child's first numbers, in powers of 2.
const MAX_EVAL_DOUBLINGS: f64 = 4.0;

/// The numbers a child starts with before any search: the disproof number is the
/// `replies` it leaves the opponent, the proof number half the jumps (`own`) the node's mover
/// keeps there (or 1, without [`mobility_numbers`](SolverConfig::mobility_numbers)),
/// both at least 1; with [`eval_numbers`](SolverConfig::eval_numbers), the one scaled
/// down and the other up by how much the evaluation likes the child for the mover.
fn first_numbers(
    own: u32,
    replies: u32,
    evaluation: Option<i64>,
    config: &SolverConfig,
) -> (u64, u64) {
    let pn = if config.mobility_numbers {
        u64::from((own / 2).max(1))
    } else {
        1
    };
    let dn = u64::from(replies.max(1));
    match evaluation {
        Some(evaluation) if config.eval_numbers => {
            let doublings =
                (evaluation as f64 / EVAL_DOUBLING).clamp(-MAX_EVAL_DOUBLINGS, MAX_EVAL_DOUBLINGS);
            let factor = doublings.exp2();
            let scaled = |n: u64, by: f64| ((n as f64 * by).round() as u64).max(1);
            (scaled(pn, factor), scaled(dn, 1.0 / factor))
        }
        _ => (pn, dn),
    }
}

/// Proof and disproof numbers this large mean "proven impossible".
pub(super) const INF: u64 = u64::MAX / 4;

/// A child of a df-pn node.
struct Child<B: Bitboard> {
    mv: Move<B>,
    node: Node<B>,
    key: Key,
    sym: usize,
    /// The proof and disproof numbers the child starts with ([`first_numbers`]).
    first: (u64, u64),
    leaf: bool,
    /// The child's proof, once there is one.
    proof: Option<Proof>,
    /// The numbers the child's search last returned here: what this node goes by when
    /// the table has lost the child's entry (see [`Prover::numbers`]).
    last: Option<(u64, u64)>,
}

/// The numbers of a node, and its proof's length once proven.
#[derive(Clone, Copy, Debug)]
struct Numbers {
    pn: u64,
    dn: u64,
    /// The proof, once there is one.
    proof: Option<Proof>,
}

impl<B: Bitboard> Prover<'_, B> {
    /// Whether `node` is searched by alpha-beta rather than df-pn (which does not
    /// know spare moves, so nodes with any go to alpha-beta too).
    fn below_top(&self, node: &Node<B>) -> bool {
        let board = node.pos.geometry().board().count();
        node.spares != 0 || node.pos.empty().count() * 100 > self.top_percent * board
    }

    /// Proves whether the side to move at `node` wins: df-pn over the first plies of
    /// the game (see [`proof_number_percent`](super::SolverConfig::proof_number_percent)),
    /// alpha-beta below.
    pub fn prove(&mut self, node: &Node<B>) -> Result<Proof, Interrupted> {
        let (key, s) = node.key(self.sym);
        if self.below_top(node) {
            self.alpha_beta_root = 0;
            return self.search_keyed(node, key, s, 0);
        }
        loop {
            match self.mid(node, key, s, INF, INF, 0) {
                Ok(Numbers {
                    proof: Some(proof), ..
                }) => return Ok(proof),
                Ok(_) => {}
                // The node another thread proved has since left the table: start again.
                Err(e) if e.reason == InterruptReason::Superseded => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// The numbers of a child: proven (seen here or in the table), searched before
    /// (in the numbers table, which transpositions and other threads update too; or,
    /// if the table has lost them, as the child's search last returned them here), or
    /// first estimates.
    ///
    /// The fallback matters: two children whose entries share a full bucket can evict
    /// each other, and with first estimates in their place the node would send the
    /// search into one child (which returns at once, its true numbers being past the
    /// threshold), then into the other, whose entry that store evicted, and so on for
    /// ever. A 7x7 proof did (the removal c7 under `any`, with df-pn over 55% of the
    /// board), after 450 M nodes.
    fn numbers(&self, child: &mut Child<B>) -> Numbers {
        if child.proof.is_none() {
            child.proof = self.table_proof(child.key);
        }
        if let Some(proof) = child.proof {
            return with_proof(proof);
        }
        match self.top.get(child.key).or(child.last) {
            Some((pn, dn)) => Numbers {
                pn,
                dn,
                proof: None,
            },
            None => Numbers {
                pn: child.first.0,
                dn: child.first.1,
                proof: None,
            },
        }
    }

    /// Searches `node` until its proof number reaches `th_pn` or its disproof number
    /// reaches `th_dn`, or it is proven.
    fn mid(
        &mut self,
        node: &Node<B>,
        key: Key,
        s: usize,
        th_pn: u64,
        th_dn: u64,
        ply: usize,
    ) -> Result<Numbers, Interrupted> {
        self.count_node()?;
        self.stats.pn_nodes += 1;
        let before = self.nodes;
        if let Some(proof) = self.table_proof(key) {
            return Ok(with_proof(proof));
        }
        let mut list = MoveList::new();
        node.pos.generate(&mut list);
        if list.overflowed() {
            return Err(self.too_many_moves());
        }
        let mut scored = self.take_scored(ply);
        let quick = order(
            node,
            &list,
            self.history,
            &self.config,
            self.sym,
            &mut scored,
        );
        if list.is_empty() || quick.is_some() {
            self.put_scored(ply, scored);
            let win = quick.is_some();
            let hint = quick.map(|m| Node::<B>::hint_of(m, s, self.sym));
            let plies = u8::from(win);
            self.table.store(key, Stored { win, plies, hint }, 1);
            return Ok(with_proof(Proof { win, plies }));
        }
        let mut children: Vec<Child<B>> = scored
            .iter()
            .map(|c| {
                let (key, sym) = c.child.key(self.sym);
                Child {
                    mv: c.mv,
                    node: c.child,
                    key,
                    sym,
                    first: first_numbers(c.own, c.replies, c.evaluation, &self.config),
                    leaf: self.below_top(&c.child),
                    proof: None,
                    last: None,
                }
            })
            .collect();
        self.put_scored(ply, scored);
        loop {
            // The child with the least disproof number, and the one that looks least
            // to this thread when every other thread working in a child multiplies its
            // number (virtual proof numbers, see `team`). The node's own numbers stay
            // the true ones.
            let mut exact = Choice::default();
            let mut seen = Choice::default();
            let mut dn = 0u64;
            // Every unproven child's entries are read below, and a big table keeps
            // few of them in the processor's caches between two rounds: asking for all
            // of them first lets their memory fetches overlap.
            for child in children.iter().filter(|c| c.proof.is_none()) {
                self.table.prefetch(child.key);
                self.top.prefetch(child.key);
            }
            for (i, child) in children.iter_mut().enumerate() {
                let n = self.numbers(child);
                exact.offer(i, n.dn);
                let workers = self.team.workers(child.key);
                seen.offer(i, n.dn.saturating_mul(1 + workers).min(INF));
                dn = (dn + n.pn).min(INF);
            }
            let pn = exact.dn;
            if pn == 0 || dn == 0 {
                self.top.remove(key);
                let proof =
                    self.store_proven(key, s, &children, pn == 0, exact.best, self.nodes - before);
                return Ok(with_proof(proof));
            }
            if pn >= th_pn || dn >= th_dn {
                self.top.store(key, (pn, dn));
                return Ok(Numbers {
                    pn,
                    dn,
                    proof: None,
                });
            }
            // Threads spread out only where the node looks lost for its mover (every
            // child must be refuted there, so no thread's work is wasted); where it
            // looks won, one child will do, and they follow the best one together.
            if pn < dn {
                seen = exact;
            }
            // The child that looks best, unless it is beyond this node's threshold (it
            // would return at once, and the search would pick it again for ever).
            let seen_dn = self.numbers(&mut children[seen.best]).dn;
            let Choice {
                best,
                dn: _,
                second: second_dn,
            } = if seen_dn < th_pn { seen } else { exact };
            let child_pn = self.numbers(&mut children[best]).pn;
            let child = &children[best];
            let (child_node, child_key, child_sym) = (child.node, child.key, child.sym);
            if child.leaf {
                self.alpha_beta_root = ply + 1;
                self.team.enter(child_key);
                self.path.push(child_key);
                let proof = self.search_keyed(&child_node, child_key, child_sym, ply + 1);
                self.path.pop();
                self.team.leave(child_key);
                children[best].proof = Some(proof.or_else(|e| self.proven_instead(child_key, e))?);
                continue;
            }
            // Stay below this node's thresholds, and give the child a little more than
            // it takes to overtake the runner-up (the 1 + epsilon trick of Pawlewicz
            // and Lew), so the search does not flip between two close children.
            let th_dn_child = th_pn.min(second_dn.saturating_add(second_dn / 4 + 1));
            let th_pn_child = (th_dn - dn).saturating_add(child_pn).min(INF);
            self.team.enter(child_key);
            self.path.push(child_key);
            let numbers = self.mid(
                &child_node,
                child_key,
                child_sym,
                th_pn_child,
                th_dn_child,
                ply + 1,
            );
            self.path.pop();
            self.team.leave(child_key);
            let numbers = numbers.or_else(|e| self.proven_instead(child_key, e).map(with_proof))?;
            children[best].proof = numbers.proof;
            children[best].last = Some((numbers.pn, numbers.dn));
        }
    }

    /// The proof of a child whose search another thread's proof cut short
    /// ([`InterruptReason::Superseded`]), when the child is the node that thread
    /// proved; otherwise the interruption goes on up.
    fn proven_instead(&self, key: Key, e: Interrupted) -> Result<Proof, Interrupted> {
        if e.reason != InterruptReason::Superseded {
            return Err(e);
        }
        self.table_proof(key).ok_or(e)
    }

    /// Stores a node df-pn has proven: won through child `best`, or lost (every child
    /// is won by the opponent; the one with the longest proof is the hint).
    fn store_proven(
        &mut self,
        key: Key,
        s: usize,
        children: &[Child<B>],
        win: bool,
        best: usize,
        nodes: u64,
    ) -> Proof {
        let plies = |c: &Child<B>| c.proof.map_or(0, |p| p.plies);
        #[expect(
            clippy::expect_used,
            reason = "df-pn proves a node lost only after expanding its children"
        )]
        let (plies, mv) = if win {
            (plies(&children[best]), children[best].mv)
        } else {
            children
                .iter()
                .map(|c| (plies(c), c.mv))
                .max_by_key(|&(p, _)| p)
                .expect("a lost node that is not over has children")
        };
        let stored = Stored {
            win,
            plies: plies.saturating_add(1),
            hint: Some(Node::<B>::hint_of(mv, s, self.sym)),
        };
        self.table.store(key, stored, nodes.max(1));
        Proof {
            win,
            plies: stored.plies,
        }
    }
}

/// The child with the least disproof number so far, and the runner-up's number.
#[derive(Clone, Copy)]
struct Choice {
    best: usize,
    dn: u64,
    second: u64,
}

impl Default for Choice {
    fn default() -> Choice {
        Choice {
            best: 0,
            dn: INF,
            second: INF,
        }
    }
}

impl Choice {
    /// Considers child `i` with disproof number `dn`.
    #[inline]
    fn offer(&mut self, i: usize, dn: u64) {
        if dn < self.dn {
            self.second = self.dn;
            self.dn = dn;
            self.best = i;
        } else if dn < self.second {
            self.second = dn;
        }
    }
}

fn proven(win: bool) -> Numbers {
    if win {
        Numbers {
            pn: 0,
            dn: INF,
            proof: None,
        }
    } else {
        Numbers {
            pn: INF,
            dn: 0,
            proof: None,
        }
    }
}

fn with_proof(proof: Proof) -> Numbers {
    Numbers {
        proof: Some(proof),
        ..proven(proof.win)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{AnyPosition, BoardSize, Opening, Position, Variant};
    use crate::search::solver::numbers::NumberTable;
    use crate::search::solver::ordering::History;
    use crate::search::solver::symmetry::Symmetries;
    use crate::search::solver::team::Team;
    use crate::search::solver::tt::Table;
    use crate::search::solver::{SolveLimits, SolveProgress, SolverConfig, estimated_nodes};
    use std::sync::atomic::AtomicBool;

    /// The evaluation halves one first number and doubles the other per
    /// [`EVAL_DOUBLING`] units in the mover's favour, up to the cap; switched off, or
    /// without an evaluation, the numbers are the mobility ones.
    #[test]
    fn the_evaluation_scales_a_childs_first_numbers() {
        let on = SolverConfig::default();
        let off = SolverConfig {
            eval_numbers: false,
            ..on
        };
        let unit = EVAL_DOUBLING as i64;
        assert_eq!(first_numbers(8, 6, None, &on), (4, 6));
        assert_eq!(first_numbers(8, 6, Some(unit), &off), (4, 6));
        assert_eq!(first_numbers(8, 6, Some(0), &on), (4, 6));
        // Good for the mover: cheaper to prove the child lost, dearer to prove it won.
        assert_eq!(first_numbers(8, 6, Some(unit), &on), (8, 3));
        assert_eq!(first_numbers(8, 6, Some(-unit), &on), (2, 12));
        assert_eq!(first_numbers(8, 6, Some(-2 * unit), &on), (1, 24));
        let cap = MAX_EVAL_DOUBLINGS.exp2() as u64;
        assert_eq!(first_numbers(8, 6, Some(100 * unit), &on), (4 * cap, 1));
        assert_eq!(first_numbers(8, 6, Some(-100 * unit), &on), (1, 6 * cap));
        // Never below 1.
        assert_eq!(first_numbers(0, 0, Some(3 * unit), &on), (8, 1));
    }

    fn position(w: usize, h: usize, moves: &[&str]) -> Position<u64> {
        let variant = Variant {
            size: BoardSize::new(w, h).unwrap(),
            opening: Opening::Any,
            ..Variant::default()
        };
        let mut pos = AnyPosition::start(variant);
        for mv in moves {
            pos.play_text(mv).unwrap();
        }
        match pos {
            AnyPosition::Small(p) => p,
            _ => unreachable!("boards of at most 64 squares"),
        }
    }

    #[test]
    fn bigger_proofs_get_more_of_their_top_by_df_pn() {
        let share =
            |w, h, moves: &[&str]| automatic_percent(estimated_nodes(&position(w, h, moves)));
        assert_eq!(share(6, 6, &[]), 45);
        assert_eq!(share(6, 7, &[]), 50);
        assert_eq!(share(7, 7, &["d4"]), 55);
        // A middle game of 6x6, as the playing search hands the solver.
        assert_eq!(share(6, 6, &["a6", "b6", "a4a6", "b4b6"]), 45);
    }

    /// Searches a 6x6 middle game as one of `threads` threads whose df-pn path holds a
    /// node the table has as proven (as when another thread has just proven it).
    fn search_below_proven_node(threads: usize) -> (Result<Proof, Interrupted>, Option<Proof>) {
        let pos = position(6, 6, &["a6", "b6", "a4a6", "b4b6"]);
        let table = Table::new(16);
        let numbers = NumberTable::new(1 << 20);
        let team = Team::new(threads, &numbers);
        let sym = Symmetries::new(pos.geometry(), true);
        let mut history = History::new();
        let stop = AtomicBool::new(false);
        let limits = SolveLimits {
            stop: &stop,
            deadline: None,
            node_limit: None,
        };
        let mut quiet = |_: &SolveProgress| {};
        let config = SolverConfig::default();
        let mut prover = Prover::new(
            &table,
            &team,
            &sym,
            &mut history,
            &pos,
            config,
            &limits,
            &mut quiet,
        );
        let proven = prover.node(position(6, 6, &["a6", "b6", "a4a6"]));
        let (key, _) = proven.key(&sym);
        let stored = Stored {
            win: true,
            plies: 3,
            hint: None,
        };
        table.store(key, stored, 1);
        prover.path.push(key);
        let root = prover.node(pos);
        let result = prover.search(&root, 0);
        let instead = result
            .err()
            .and_then(|e| prover.proven_instead(key, e).ok());
        (result, instead)
    }

    #[test]
    fn a_thread_stops_below_a_node_another_thread_proved() {
        let (result, instead) = search_below_proven_node(2);
        assert_eq!(
            result.map_err(|e| e.reason),
            Err(InterruptReason::Superseded)
        );
        let proof = Proof {
            win: true,
            plies: 3,
        };
        assert_eq!(instead, Some(proof));
        // One thread has no other thread to wait for: it proves the position.
        let (result, instead) = search_below_proven_node(1);
        assert!(result.is_ok());
        assert_eq!(instead, None);
    }
}
