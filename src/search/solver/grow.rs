//! Proofs grown piece by piece: a proof-number tree over the top of the game whose
//! leaves are proven by the solver within a node budget each, kept in a file so that a
//! proof can run for days, be stopped and go on where it stopped.
//!
//! A position too big for one solve fills its table long before it is proven (the 4 x
//! 15 and 7x7 proofs in `docs/solved.md` did), and a fixed split ([`split`](super::split))
//! proves whole levels the proof never needs. Here the cutting is left to the proof
//! itself, in the way of Allis's PN² search: the tree starts as the root alone; each
//! round picks the *most-proving* leaf by the proof and disproof numbers of the tree,
//! and gives it to the solver with a budget of nodes (a *piece*). A leaf proven within
//! its budget is a result for good; one that is not is *expanded*: its children, one
//! of each set of mirror images, become leaves of their own. The solver's table is kept
//! from piece to piece, and so are its df-pn numbers, so the children of a leaf that ran
//! out of budget start from what its piece found. Proven leaves, expanded positions and
//! the estimates below are all the tree holds ([`TreeFile`]): the numbers and the
//! minimax above them are computed again from those, and a file written by one run is
//! read by the next.
//!
//! The numbers are each position's own, for its side to move (negamax): `prove` is the
//! work left to show that the mover wins, `disprove` that it loses. A proven leaf has
//! `0` and infinity; a leaf not yet given to the solver has `1` to prove it (one winning
//! move might do) and its number of moves to disprove it (every move must be refuted),
//! the mobility guess of the solver's own proof-number search. A leaf whose parent's
//! piece did not fit starts from what that piece left instead, as in PN²: the numbers
//! its proof-number search gave the leaf. A leaf the table proved (one of those
//! children, or any other a piece reached by another path) is proven at once, right
//! after the piece, while the table still holds its proof (a solve the table
//! answers for next to nothing): left for its turn in the tree, it would be proven
//! again from nothing whenever the table lost it, to later pieces or with the run's
//! end. Such a solve gets a tenth of a piece's budget: the table may have kept the
//! leaf's own entry but lost the proofs below it to later pieces, and proving it
//! again is then a piece's work, better done when the tree picks it. Should that fail
//! (the budget spent, its line cut short, the run stopped), the leaf keeps numbers
//! that make it look as good as decided, so that its turn comes soon; one that did not
//! fit is not taken up again in the run. An expanded position takes the smallest
//! `disprove` of its children as its `prove` and the sum of their `prove` as its
//! `disprove`.
//! Positions reached by several paths (the tree is a graph) are one node, so their
//! numbers count in every parent, which over-counts shared work but never decides
//! anything wrongly: a position is decided only by proven results.
//!
//! What a tree holds are facts about positions, whatever its root: this position did
//! not fit a piece, that one is proven with this line. So the facts of one tree can be
//! *grafted* onto another of the same rules ([`ProofTree::graft`]): a subtree grown
//! alone (on another machine, or before the question grew) then counts, position by
//! position, wherever the tree meets it, instead of being proven again. A proof
//! grafted onto a position the tree had expanded decides it; the grafted tree's pieces,
//! nodes and time are kept beside the tree's own ([`GraftRecord`]).

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::rules::{AnyPosition, Color, Variant};
use crate::with_position;

use super::fold::Fold;
use super::split::{check_line, moves_by_estimate, parse_variant, read_position};
use super::{InterruptReason, Known, SolveLimits, SolvedLine, Solver};

/// The format name written into every tree file, checked when one is read.
pub const TREE_FORMAT: &str = "konane-solve-tree-1";

/// The most positions a tree may hold: the tree is in memory, each position with its
/// text. A proof that needs more should use larger pieces.
pub const MAX_TREE_POSITIONS: usize = 2_000_000;

/// A proof number that cannot be reached: the position is decided the other way.
const INFINITE: u64 = u64::MAX;

/// The largest finite proof number (sums stop there).
const LARGEST: u64 = u64::MAX - 1;

/// The numbers that make a leaf look as good as decided: the proof number of a leaf
/// the solver's table holds as lost for its mover, the disproof number of one it holds
/// as won (the other number is 1), and the most a leaf's estimate may be. Far beyond
/// any proof's numbers, far enough below [`LARGEST`] that sums of a few million of them
/// stay finite.
const SETTLED: u64 = 1 << 40;

/// A tree as it is kept in a file: what the proof has established, from which the rest
/// is computed again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TreeFile {
    /// [`TREE_FORMAT`].
    pub format: String,
    /// The board, as `WxH`.
    pub size: String,
    /// The opening rule.
    pub opening: String,
    /// The multi-jump rule.
    pub multi_jump: String,
    /// The root position's text (its side to move included, also where the side was set
    /// by hand).
    pub root: String,
    /// The positions given to the solver that did not fit their piece, whose children
    /// are in the tree.
    pub expanded: Vec<String>,
    /// The positions the solver proved.
    pub proven: Vec<ProvenPiece>,
    /// The leaves whose first numbers came from the solver, not from their moves
    /// (absent from files of the first trees, which had none).
    #[serde(default)]
    pub estimates: Vec<Estimate>,
    /// Pieces given to the solver so far, proven or not.
    pub pieces: u64,
    /// Nodes the solver searched so far.
    pub nodes: u64,
    /// Wall-clock seconds spent so far.
    pub seconds: f64,
    /// The trees grafted onto this one, with the work they had cost (absent from files
    /// of trees that never had one).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grafts: Vec<GraftRecord>,
}

impl TreeFile {
    /// The root the file names, read under the rules it names (a root whose side was
    /// set by hand, two empty squares with white to move, included).
    pub fn root_position(&self) -> Result<AnyPosition, TreeError> {
        let corrupt = |why: String| TreeError::Corrupt(why);
        let variant =
            parse_variant(&self.size, &self.opening, &self.multi_jump).map_err(corrupt)?;
        read_position(&self.root, variant).map_err(corrupt)
    }
}

/// A tree grafted onto another, and what growing it had cost (its own counts; the
/// trees grafted onto it have records of their own).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GraftRecord {
    /// Its root's text.
    pub root: String,
    /// Pieces given to the solver.
    pub pieces: u64,
    /// Nodes the solver searched.
    pub nodes: u64,
    /// Wall-clock seconds spent.
    pub seconds: f64,
}

/// What [`ProofTree::graft`] added to a tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Grafted {
    /// Positions the tree had not expanded before.
    pub expanded: usize,
    /// Positions the tree had not proven before.
    pub proven: usize,
}

/// A position the solver proved within its piece.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProvenPiece {
    /// Its text.
    pub position: String,
    /// Whether its side to move wins.
    pub side_to_move_wins: bool,
    /// The proven line from it, as move texts.
    pub pv: Vec<String>,
    /// Nodes its piece searched.
    pub nodes: u64,
}

impl ProvenPiece {
    /// `pos` as the solver proved it, `line` being the solve's complete line.
    fn solved(pos: &AnyPosition, line: SolvedLine) -> ProvenPiece {
        ProvenPiece {
            position: pos.to_string(),
            side_to_move_wins: line.side_to_move_wins,
            pv: line.pv,
            nodes: line.nodes,
        }
    }
}

/// A leaf's first numbers as the solver left them (see the module notes), for its side
/// to move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Estimate {
    /// Its text.
    pub position: String,
    /// The work guessed to show that its side to move wins.
    pub prove: u64,
    /// The work guessed to show that its side to move loses.
    pub disprove: u64,
}

/// Why a tree file cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TreeError {
    /// The file is not a tree of this format, or says something impossible.
    #[error("not a usable tree: {0}")]
    Corrupt(String),
    /// The file is the tree of another position or rule set.
    #[error("the tree is of {file}, not of {asked}")]
    OtherRoot {
        /// The file's root and rules.
        file: String,
        /// The root and rules asked for.
        asked: String,
    },
    /// A tree to graft is of other rules than this tree's.
    #[error("the tree to graft is of {file}, not of the rules of {asked}")]
    OtherRules {
        /// The grafted file's root and rules.
        file: String,
        /// This tree's root and rules.
        asked: String,
    },
    /// The tree has grown to [`MAX_TREE_POSITIONS`].
    #[error("the tree holds {MAX_TREE_POSITIONS} positions; go on with larger pieces")]
    Full,
}

/// How a round of growing ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Growth {
    /// The root is proven.
    Proven(Verdict),
    /// [`PieceLimits::max_pieces`] pieces were given; the tree is as far as they got.
    PieceLimit,
    /// The solver stopped first (the stop flag, the deadline, or a position with too
    /// many moves for it); the tree is as far as the pieces before got.
    Interrupted(InterruptReason),
}

/// The proven result of the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the root's side to move wins.
    pub side_to_move_wins: bool,
    /// The proven line from the root to the end of the game: through the tree (the
    /// winner's first winning move, the loser's longest defence), then the line of a
    /// proven leaf.
    pub pv: Vec<String>,
}

/// What one piece did, for progress reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceReport {
    /// The position given to the solver.
    pub position: AnyPosition,
    /// Its distance from the root along the path that chose it.
    pub depth: usize,
    /// `Some(wins)` when proven, `None` when it did not fit and was expanded.
    pub side_to_move_wins: Option<bool>,
    /// Nodes the piece searched.
    pub nodes: u64,
    /// The open leaves proven from the table right after the piece.
    pub taken_up: TakenUp,
    /// How full the solver's table was then, in slots per thousand.
    pub table_permille: u32,
    /// How long it took, the taking up included.
    pub elapsed: Duration,
}

/// Open leaves of the tree that the solver's table had proven (mostly the children
/// of a piece that did not fit), proven again at once (from the table, so mostly for
/// next to nothing) and kept in the tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TakenUp {
    /// How many were proven.
    pub positions: usize,
    /// How many did not fit [`PieceLimits::take_up_nodes`] and were left for their
    /// turn as pieces (none of them is tried again in the run).
    pub given_up: usize,
    /// Nodes their solves searched.
    pub nodes: u64,
}

/// How big each piece is, and how many to give at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceLimits {
    /// The solver's node budget for one leaf.
    pub piece_nodes: u64,
    /// The budget for proving again a leaf the table proved (see the module notes).
    pub take_up_nodes: u64,
    /// Stop after this many pieces in this round (`None`: no limit).
    pub max_pieces: Option<u64>,
}

impl PieceLimits {
    /// Pieces of `piece_nodes` nodes, at most `max_pieces` of them, taking up a leaf
    /// the table proved with a tenth of that.
    #[must_use]
    pub fn new(piece_nodes: u64, max_pieces: Option<u64>) -> PieceLimits {
        PieceLimits {
            piece_nodes,
            take_up_nodes: (piece_nodes / 10).max(1),
            max_pieces,
        }
    }
}

/// One position of the tree.
struct TreeNode {
    /// The first member of its class of mirror images that the tree met.
    position: AnyPosition,
    /// Its side to move's number of moves (the first disproof number of a leaf).
    moves: u64,
    /// The numbers the solver left it with, which it has instead while a leaf (see the
    /// module notes).
    estimate: Option<(u64, u64)>,
    /// The moves from `position` to each class of children (one move a class) and the
    /// class's node, once expanded.
    children: Option<Vec<(String, usize)>>,
    /// The nodes that have this one among their children.
    parents: Vec<usize>,
    /// Its proof and disproof numbers, for its side to move (see the module notes).
    numbers: (u64, u64),
}

/// A proof tree (see the module notes).
pub struct ProofTree {
    root: AnyPosition,
    fold: Fold,
    /// The root is node 0.
    nodes: Vec<TreeNode>,
    /// Node index by class (see [`Fold::class`]).
    index: HashMap<String, usize>,
    /// Proven leaves by node index, with the position the solver proved (a member of
    /// the node's class) and its result.
    proven: HashMap<usize, (AnyPosition, ProvenPiece)>,
    /// Open leaves whose take-up did not fit its budget in this run, left for their
    /// turn as pieces (not kept in the file).
    given_up: HashSet<usize>,
    pieces: u64,
    solver_nodes: u64,
    seconds: f64,
    /// The trees grafted onto this one, by root (see [`ProofTree::graft`]).
    grafts: Vec<GraftRecord>,
}

/// How reading a tree's facts treats a fact that clashes with what the tree holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Clash {
    /// The tree's own file: a file written by [`ProofTree::to_file`] has no clash, so
    /// one is corruption.
    Refuse,
    /// Another tree's facts, its file already read whole by
    /// [`from_file`](ProofTree::from_file) (every line replayed there, so not again):
    /// a proof wins over an expansion, and an estimate of a position that is no open
    /// leaf here is dropped.
    Graft,
}

impl ProofTree {
    /// A tree of `root` alone.
    #[must_use]
    pub fn new(root: AnyPosition) -> ProofTree {
        let mut tree = ProofTree {
            root,
            fold: Fold::new(&root),
            nodes: Vec::new(),
            index: HashMap::new(),
            proven: HashMap::new(),
            given_up: HashSet::new(),
            pieces: 0,
            solver_nodes: 0,
            seconds: 0.0,
            grafts: Vec::new(),
        };
        tree.node_of(root);
        tree
    }

    /// The tree a file holds, checked: its rules and root must be those of `root`,
    /// every position a position of those rules, every proven line legal and ending
    /// in a loss of the side its verdict says loses.
    pub fn from_file(file: &TreeFile, root: AnyPosition) -> Result<ProofTree, TreeError> {
        let corrupt = |why: String| TreeError::Corrupt(why);
        if file.format != TREE_FORMAT {
            return Err(corrupt(format!(
                "format '{}' is not {TREE_FORMAT}",
                file.format
            )));
        }
        let file_root = file.root_position()?;
        let variant = file_root.variant();
        if file_root != root {
            return Err(TreeError::OtherRoot {
                file: describe(&file_root),
                asked: describe(&root),
            });
        }
        let mut tree = ProofTree::new(root);
        tree.pieces = file.pieces;
        tree.solver_nodes = file.nodes;
        tree.seconds = seconds_or_zero(file.seconds);
        tree.add_facts(file, variant, Clash::Refuse)?;
        for record in &file.grafts {
            tree.record_graft(record.clone());
        }
        Ok(tree)
    }

    /// Adds the facts of `file`, the tree of another position of the same rules (or of
    /// this one, grown elsewhere): every position it expanded and every proof it holds
    /// (each line checked to the end of the game), with its estimates of positions that
    /// are open leaves here. A proof of a position this tree expanded decides it; a
    /// position this tree proved stays as it is. The file's counts are recorded beside
    /// the tree's own, replacing an earlier record of the same root, so grafting a tree
    /// again as it grows counts only what it learned since; so are the records of the
    /// trees grafted onto it, but for one of this tree's own root (this tree grafted
    /// onto the file's earlier), whose work this tree's counts already hold.
    ///
    /// The whole file is checked (as [`from_file`](Self::from_file) checks a tree's
    /// own) before any of it is added, so a file refused leaves the tree as it was
    /// (short of [`TreeError::Full`], which ends the tree's growth anyway).
    pub fn graft(&mut self, file: &TreeFile) -> Result<Grafted, TreeError> {
        let file_root = file.root_position()?;
        let variant = file_root.variant();
        if variant != self.root.variant() {
            return Err(TreeError::OtherRules {
                file: describe(&file_root),
                asked: describe(&self.root),
            });
        }
        ProofTree::from_file(file, file_root)?;
        let grafted = self.add_facts(file, variant, Clash::Graft)?;
        self.record_graft(GraftRecord {
            root: file.root.clone(),
            pieces: file.pieces,
            nodes: file.nodes,
            seconds: file.seconds,
        });
        // A record of this tree's own root is this tree's work, grafted onto the file's
        // tree earlier and already in this tree's counts.
        let own_root = self.root.to_string();
        for record in file.grafts.iter().filter(|r| r.root != own_root) {
            self.record_graft(record.clone());
        }
        Ok(grafted)
    }

    /// Adds the expansions, proofs and estimates `file` holds (see [`Clash`] for what
    /// clashes with the tree's own), and says how many expansions and proofs were new.
    fn add_facts(
        &mut self,
        file: &TreeFile,
        variant: Variant,
        clash: Clash,
    ) -> Result<Grafted, TreeError> {
        let corrupt = |why: String| TreeError::Corrupt(why);
        let mut added = Grafted::default();
        for text in &file.expanded {
            let pos = read_position(text, variant).map_err(corrupt)?;
            let node = self.node_of(pos);
            if self.is_open_leaf(node) {
                self.expand(node)?;
                added.expanded += 1;
            }
        }
        for piece in &file.proven {
            let pos = read_position(&piece.position, variant).map_err(corrupt)?;
            if clash == Clash::Refuse {
                check_line(&pos, piece.side_to_move_wins, &piece.pv).map_err(corrupt)?;
            }
            let node = self.node_of(pos);
            if clash == Clash::Refuse && self.nodes[node].children.is_some() {
                return Err(corrupt(format!(
                    "'{}' is both proven and expanded",
                    piece.position
                )));
            }
            if !self.proven.contains_key(&node) {
                self.prove(node, pos, piece.clone());
                added.proven += 1;
            }
        }
        for estimate in &file.estimates {
            let pos = read_position(&estimate.position, variant).map_err(corrupt)?;
            let numbers = (estimate.prove, estimate.disprove);
            if ![numbers.0, numbers.1]
                .iter()
                .all(|n| (1..=SETTLED).contains(n))
            {
                return Err(corrupt(format!(
                    "the estimate {}/{} of '{}' is not two numbers from 1 to {SETTLED}",
                    numbers.0, numbers.1, estimate.position
                )));
            }
            let open_leaf = self
                .index
                .get(&self.fold.class(&pos))
                .copied()
                .filter(|&n| self.is_open_leaf(n));
            let node = match (open_leaf, clash) {
                (Some(node), _) => node,
                (None, Clash::Graft) => continue,
                (None, Clash::Refuse) => {
                    return Err(corrupt(format!(
                        "'{}' has an estimate but is not an open leaf of the tree",
                        estimate.position
                    )));
                }
            };
            if clash == Clash::Refuse || self.nodes[node].estimate.is_none() {
                self.nodes[node].estimate = Some(numbers);
                self.update(node);
            }
        }
        Ok(added)
    }

    /// Keeps `record` (its seconds made a time a file may hold), in place of an
    /// earlier record of the same root.
    fn record_graft(&mut self, mut record: GraftRecord) {
        record.seconds = seconds_or_zero(record.seconds);
        match self.grafts.iter_mut().find(|r| r.root == record.root) {
            Some(known) => *known = record,
            None => self.grafts.push(record),
        }
    }

    /// What the tree holds, to be written to a file.
    #[must_use]
    pub fn to_file(&self) -> TreeFile {
        let variant = self.root.variant();
        // Each list in the order of its texts: a tree read back numbers its nodes in
        // another order.
        // A proof grafted onto an expanded position decides it: the file keeps only the
        // proof, and the leaves only that expansion had are not read back.
        let kept_expanded =
            |node: usize| self.nodes[node].children.is_some() && !self.proven.contains_key(&node);
        let mut read_back: HashSet<usize> = HashSet::from([0]);
        let mut expanded: Vec<String> = Vec::new();
        for node in (0..self.nodes.len()).filter(|&n| kept_expanded(n)) {
            expanded.push(self.nodes[node].position.to_string());
            read_back.extend(self.children_of(node));
        }
        expanded.sort();
        let mut proven: Vec<ProvenPiece> = self
            .proven
            .values()
            .map(|(_, piece)| piece.clone())
            .collect();
        proven.sort_by(|a, b| a.position.cmp(&b.position));
        let mut estimates: Vec<Estimate> = self
            .nodes
            .iter()
            .enumerate()
            .filter(|&(node, _)| self.is_open_leaf(node) && read_back.contains(&node))
            .filter_map(|(_, here)| {
                here.estimate.map(|(prove, disprove)| Estimate {
                    position: here.position.to_string(),
                    prove,
                    disprove,
                })
            })
            .collect();
        estimates.sort_by(|a, b| a.position.cmp(&b.position));
        TreeFile {
            format: TREE_FORMAT.to_string(),
            size: variant.size.to_string(),
            opening: variant.opening.to_string(),
            multi_jump: variant.multi_jump.to_string(),
            root: self.root.to_string(),
            expanded,
            proven,
            estimates,
            pieces: self.pieces,
            nodes: self.solver_nodes,
            seconds: self.seconds,
            grafts: self.grafts.clone(),
        }
    }

    /// The root position.
    #[must_use]
    pub fn root(&self) -> &AnyPosition {
        &self.root
    }

    /// Positions in the tree.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.nodes.len()
    }

    /// Pieces given to the solver so far, over every run.
    #[must_use]
    pub fn pieces(&self) -> u64 {
        self.pieces
    }

    /// Nodes the solver searched so far, over every run.
    #[must_use]
    pub fn solver_nodes(&self) -> u64 {
        self.solver_nodes
    }

    /// Wall-clock seconds spent growing, over every run.
    #[must_use]
    pub fn seconds(&self) -> f64 {
        self.seconds
    }

    /// The trees grafted onto this one, with what they had cost.
    #[must_use]
    pub fn grafts(&self) -> &[GraftRecord] {
        &self.grafts
    }

    /// The root's proof and disproof numbers (0 and infinity, `u64::MAX`, once
    /// decided).
    #[must_use]
    pub fn root_numbers(&self) -> (u64, u64) {
        self.nodes[0].numbers
    }

    /// The root's numbers by colour: the work the tree still sees to show that black
    /// wins, and that white wins (0 and infinity, `u64::MAX`, once decided).
    #[must_use]
    pub fn root_numbers_by_colour(&self) -> (u64, u64) {
        by_colour(self.nodes[0].position.side_to_move(), self.root_numbers())
    }

    /// Whether the tree decides the root (without finding its line).
    fn root_decided(&self) -> bool {
        let (prove, disprove) = self.root_numbers();
        prove == 0 || disprove == 0
    }

    /// The root's verdict and line, once the tree decides it.
    #[must_use]
    pub fn verdict(&self) -> Option<Verdict> {
        if !self.root_decided() {
            return None;
        }
        Some(Verdict {
            side_to_move_wins: self.root_numbers().0 == 0,
            pv: self.line(0, &mut HashMap::new()),
        })
    }

    /// Grows the tree until the root is proven or a limit stops it: each piece is the
    /// most-proving leaf given to `solver` with `pieces.piece_nodes` nodes (and what is
    /// left of `limits`), the pieces carrying df-pn's numbers from one to the next
    /// ([`Solver::set_carry_numbers`], set back as it was at the end). `after_piece`
    /// hears of every piece with the tree as it is then (to report it, or to write the
    /// tree to a file); an error it returns ends the growth with that error.
    pub fn grow<E: From<TreeError>>(
        &mut self,
        solver: &mut Solver,
        pieces: PieceLimits,
        limits: &SolveLimits<'_>,
        after_piece: &mut dyn FnMut(&ProofTree, &PieceReport) -> Result<(), E>,
    ) -> Result<Growth, E> {
        let carried = solver.carries_numbers();
        solver.set_carry_numbers(true);
        let growth = self.grow_pieces(solver, pieces, limits, after_piece);
        solver.set_carry_numbers(carried);
        growth
    }

    /// [`grow`](Self::grow), with the solver as it is.
    fn grow_pieces<E: From<TreeError>>(
        &mut self,
        solver: &mut Solver,
        pieces: PieceLimits,
        limits: &SolveLimits<'_>,
        after_piece: &mut dyn FnMut(&ProofTree, &PieceReport) -> Result<(), E>,
    ) -> Result<Growth, E> {
        let started = Instant::now();
        let seconds_before = self.seconds;
        let piece_limits = SolveLimits {
            node_limit: Some(pieces.piece_nodes),
            ..*limits
        };
        let take_up_limits = SolveLimits {
            node_limit: Some(pieces.take_up_nodes),
            ..*limits
        };
        let mut given = 0;
        loop {
            if let Some(verdict) = self.verdict() {
                return Ok(Growth::Proven(verdict));
            }
            if pieces.max_pieces.is_some_and(|most| given >= most) {
                return Ok(Growth::PieceLimit);
            }
            let (leaf, depth) = self.most_proving();
            // The descent keeps to undecided nodes, so the leaf is not proven yet.
            debug_assert!(!self.proven.contains_key(&leaf), "a proven leaf chosen");
            let pos = self.nodes[leaf].position;
            let piece_started = Instant::now();
            let (side_to_move_wins, nodes) =
                match solver.solve_any(&pos, &piece_limits, &mut |_| {}) {
                    // A proof whose line the budget cut short is not kept: every line in
                    // the tree reaches the end of the game, as a file's reader checks.
                    Ok(line) if line.line_complete => {
                        let result = (Some(line.side_to_move_wins), line.nodes);
                        self.prove(leaf, pos, ProvenPiece::solved(&pos, line));
                        result
                    }
                    Ok(line) => (None, line.nodes),
                    Err(e) if e.reason == InterruptReason::NodeLimit => (None, e.nodes),
                    Err(e) => {
                        self.solver_nodes += e.nodes;
                        self.seconds = seconds_before + started.elapsed().as_secs_f64();
                        return Ok(Growth::Interrupted(e.reason));
                    }
                };
            if side_to_move_wins.is_none() {
                self.expand(leaf)?;
                self.estimate_children(leaf, solver);
            }
            let taken_up = self.take_up_leaves(solver, &take_up_limits);
            given += 1;
            self.pieces += 1;
            self.solver_nodes += nodes + taken_up.nodes;
            self.seconds = seconds_before + started.elapsed().as_secs_f64();
            let report = PieceReport {
                position: pos,
                depth,
                side_to_move_wins,
                nodes,
                taken_up,
                table_permille: solver.table_permille(),
                elapsed: piece_started.elapsed(),
            };
            after_piece(self, &report)?;
        }
    }

    /// The node of `pos`'s class, added as a leaf if the tree does not have it yet.
    fn node_of(&mut self, pos: AnyPosition) -> usize {
        let class = self.fold.class(&pos);
        if let Some(&node) = self.index.get(&class) {
            return node;
        }
        let moves = with_position!(pos, p => p.legal_moves().as_slice().len()) as u64;
        self.nodes.push(TreeNode {
            position: pos,
            moves,
            estimate: None,
            children: None,
            parents: Vec::new(),
            numbers: (1, moves.max(1)),
        });
        self.index.insert(class, self.nodes.len() - 1);
        self.nodes.len() - 1
    }

    /// Records the solver's proof of `node` (`pos` is the member of its class proven).
    fn prove(&mut self, node: usize, pos: AnyPosition, piece: ProvenPiece) {
        self.proven.insert(node, (pos, piece));
        self.update(node);
    }

    /// Adds the children of `node` to the tree, one of each class, those whose proofs
    /// look cheapest first.
    fn expand(&mut self, node: usize) -> Result<(), TreeError> {
        if self.nodes[node].children.is_some() {
            return Ok(());
        }
        let mut children: Vec<(String, usize)> = Vec::new();
        for (text, child) in moves_by_estimate(&self.nodes[node].position) {
            let child = self.node_of(child);
            if children.iter().all(|&(_, known)| known != child) {
                children.push((text, child));
                self.nodes[child].parents.push(node);
            }
        }
        self.nodes[node].children = Some(children);
        if self.nodes.len() > MAX_TREE_POSITIONS {
            return Err(TreeError::Full);
        }
        self.update(node);
        Ok(())
    }

    /// `node`'s children in the tree (none while it is a leaf).
    fn children_of(&self, node: usize) -> Vec<usize> {
        self.nodes[node]
            .children
            .iter()
            .flatten()
            .map(|&(_, child)| child)
            .collect()
    }

    /// Gives the leaves among `node`'s children the numbers the solver's last solve
    /// (the piece that did not fit) left them: those it proved look settled, those its
    /// proof-number search reached take its numbers (see the module notes).
    fn estimate_children(&mut self, node: usize, solver: &Solver) {
        for child in self.children_of(node) {
            if !self.is_open_leaf(child) {
                continue;
            }
            let estimate = match solver.known(&self.nodes[child].position) {
                Some(Known::Proven {
                    side_to_move_wins: true,
                }) => (1, SETTLED),
                Some(Known::Proven {
                    side_to_move_wins: false,
                }) => (SETTLED, 1),
                Some(Known::Numbers { prove, disprove }) => {
                    (prove.clamp(1, SETTLED), disprove.clamp(1, SETTLED))
                }
                None => continue,
            };
            self.nodes[child].estimate = Some(estimate);
            self.update(child);
        }
    }

    /// Proves the open leaves that the solver's table holds as proven, while it still
    /// holds them (mostly the children of a piece that did not fit, but also leaves
    /// elsewhere in the tree that a piece reached by another path): each is solved with
    /// `limits` (the take-up budget), which the table mostly answers at once, and kept
    /// if its line reaches the end of the game. Left to their turn in the tree, they
    /// would be lost with the table when the run stops (the estimate saying "as good
    /// as decided" would stay in the file, and the next run would prove them from an
    /// empty table), or when later pieces overwrite their entries. A leaf whose solve
    /// runs out of nodes, or whose line is cut short, is given up for the run: the
    /// table has lost what lies below it. Stops at the first solve interrupted for
    /// another reason, and once the root is decided.
    fn take_up_leaves(&mut self, solver: &mut Solver, limits: &SolveLimits<'_>) -> TakenUp {
        let mut taken_up = TakenUp::default();
        for leaf in 0..self.nodes.len() {
            if self.root_decided() {
                break;
            }
            let pos = self.nodes[leaf].position;
            if !self.is_open_leaf(leaf)
                || self.given_up.contains(&leaf)
                || !matches!(solver.known(&pos), Some(Known::Proven { .. }))
            {
                continue;
            }
            let solved = solver.solve_any(&pos, limits, &mut |_| {});
            let nodes = match &solved {
                Ok(line) => line.nodes,
                Err(e) => e.nodes,
            };
            taken_up.nodes += nodes;
            match solved {
                Ok(line) if line.line_complete => {
                    taken_up.positions += 1;
                    self.prove(leaf, pos, ProvenPiece::solved(&pos, line));
                }
                Err(e) if e.reason != InterruptReason::NodeLimit => break,
                _ => {
                    taken_up.given_up += 1;
                    self.given_up.insert(leaf);
                }
            }
        }
        taken_up
    }

    /// Whether `node` is neither expanded nor proven: a leaf whose numbers are its first
    /// ones or its estimate.
    fn is_open_leaf(&self, node: usize) -> bool {
        self.nodes[node].children.is_none() && !self.proven.contains_key(&node)
    }

    /// Computes `node`'s numbers again, and those of every ancestor they change.
    fn update(&mut self, node: usize) {
        let mut pending = vec![node];
        while let Some(node) = pending.pop() {
            let numbers = self.computed(node);
            if numbers != self.nodes[node].numbers {
                self.nodes[node].numbers = numbers;
                pending.extend_from_slice(&self.nodes[node].parents);
            }
        }
    }

    /// `node`'s numbers from its proof or its children's numbers.
    fn computed(&self, node: usize) -> (u64, u64) {
        if let Some((_, piece)) = self.proven.get(&node) {
            return if piece.side_to_move_wins {
                (0, INFINITE)
            } else {
                (INFINITE, 0)
            };
        }
        let here = &self.nodes[node];
        let Some(children) = &here.children else {
            return here.estimate.unwrap_or((1, here.moves.max(1)));
        };
        // No children: the mover has no move and has lost, (infinity, 0).
        let (mut prove, mut disprove) = (INFINITE, 0u64);
        for &(_, child) in children {
            let (child_prove, child_disprove) = self.nodes[child].numbers;
            prove = prove.min(child_disprove);
            // A child its mover loses makes this node won: nothing can disprove it.
            disprove = if child_prove == INFINITE || disprove == INFINITE {
                INFINITE
            } else {
                disprove.saturating_add(child_prove).min(LARGEST)
            };
        }
        (prove, disprove)
    }

    /// The tree's top `plies` plies as text, one line a position: the moves from the
    /// root to it, then what the tree knows of it: `black wins` or `white wins` once
    /// decided, else `open` (or `leaf` where it has not been cut) and its two numbers
    /// by colour, the work left to show that black wins and that white wins.
    #[must_use]
    pub fn outline(&self, plies: usize) -> Vec<String> {
        let mut lines = Vec::new();
        self.outline_from(0, &mut Vec::new(), plies, &mut lines);
        lines
    }

    fn outline_from(
        &self,
        node: usize,
        path: &mut Vec<String>,
        plies: usize,
        lines: &mut Vec<String>,
    ) {
        let here = &self.nodes[node];
        let mover = here.position.side_to_move();
        let state = match here.numbers {
            (0, _) => format!("{mover} wins"),
            (_, 0) => format!("{} wins", mover.opponent()),
            (prove, disprove) => {
                let kind = if here.children.is_none() {
                    "leaf"
                } else {
                    "open"
                };
                let (black, white) = by_colour(mover, (prove, disprove));
                format!("{kind}, black {black}, white {white}")
            }
        };
        let name = if path.is_empty() {
            "root".to_string()
        } else {
            path.join(" ")
        };
        lines.push(format!("{name}: {state}"));
        let Some(children) = &here.children else {
            return;
        };
        if path.len() >= plies {
            return;
        }
        for (text, child) in children {
            path.push(text.clone());
            self.outline_from(*child, path, plies, lines);
            path.pop();
        }
    }

    /// The most-proving leaf and its depth: from the root, always into the child whose
    /// disproof number is the smallest (the child that sets its parent's proof number;
    /// the first such in the parent's order).
    fn most_proving(&self) -> (usize, usize) {
        let mut node = 0;
        let mut depth = 0;
        while let Some(children) = &self.nodes[node].children {
            let Some(&(_, next)) = children
                .iter()
                .min_by_key(|(_, c)| self.nodes[*c].numbers.1)
            else {
                break;
            };
            node = next;
            depth += 1;
        }
        (node, depth)
    }

    /// The proven line from `node`'s position (which must be decided), memoised in
    /// `lines`.
    fn line(&self, node: usize, lines: &mut HashMap<usize, Vec<String>>) -> Vec<String> {
        if let Some(line) = lines.get(&node) {
            return line.clone();
        }
        let here = self.nodes[node].position;
        let line = if let Some((proven_pos, piece)) = self.proven.get(&node) {
            self.fold
                .map_line(proven_pos, &here, &piece.pv)
                .unwrap_or_default()
        } else {
            let children = self.nodes[node].children.as_deref().unwrap_or_default();
            let wins = self.nodes[node].numbers.0 == 0;
            // The winner's first move into a lost position; the loser's longest defence.
            let mut best: Option<Vec<String>> = None;
            for (text, child) in children {
                let child_lost = self.nodes[*child].numbers.1 == 0;
                if wins != child_lost {
                    continue;
                }
                let mut line = vec![text.clone()];
                let mut after = here;
                if after.play_text(text).is_ok() {
                    let from_child = self.line(*child, lines);
                    let child_pos = self.nodes[*child].position;
                    line.extend(
                        self.fold
                            .map_line(&child_pos, &after, &from_child)
                            .unwrap_or_default(),
                    );
                }
                if best.as_ref().is_none_or(|b| line.len() > b.len()) {
                    best = Some(line);
                }
                if wins {
                    break;
                }
            }
            best.unwrap_or_default()
        };
        lines.insert(node, line.clone());
        line
    }
}

/// A position's proof and disproof numbers, for its side to move `mover`, as the work
/// left to show that black wins and that white wins.
fn by_colour(mover: Color, (prove, disprove): (u64, u64)) -> (u64, u64) {
    match mover {
        Color::Black => (prove, disprove),
        Color::White => (disprove, prove),
    }
}

/// `seconds` if it is a time a file may hold, else 0.
fn seconds_or_zero(seconds: f64) -> f64 {
    if seconds.is_finite() && seconds >= 0.0 {
        seconds
    } else {
        0.0
    }
}

/// A root and its rules, for messages.
fn describe(pos: &AnyPosition) -> String {
    format!("'{pos}' ({})", pos.variant())
}
