//! Proofs split into independent jobs, and put back together.
//!
//! A proof too big for one machine is cut at a fixed depth: every distinct position
//! `plies` moves below the root, up to the board's symmetries (the *frontier*, in a
//! fixed order), is proven on its own, each job taking its share of the frontier
//! (shard `i` of `n` takes the `i`-th of `n` runs of consecutive positions), with no
//! communication between jobs, so any batch scheduler can run them. Each job writes a
//! [`Part`]; [`merge`] checks that the parts belong to the same split and cover the
//! whole frontier, then runs the minimax of the tree above the frontier for the verdict
//! and the proven line, reading a position that is a mirror image of a frontier
//! position through the mirror (see the solver's `fold` module).
//!
//! A job proves its positions in order and skips those its own results have made
//! irrelevant: once a position above the frontier is decided (a won node by one losing
//! child, a lost node by all its children), the frontier positions below it matter
//! only through other, undecided paths from the root. The frontier lists the children
//! of each node cheapest-looking first (by the solver's
//! [estimate](super::estimated_nodes) of their proofs) and a shard's positions are
//! consecutive, so siblings mostly share a shard and a won node's first winning child
//! spares the proofs of the others. The remaining cost is the table the jobs no longer
//! share (transpositions between two shards' subtrees are proven twice) and the skips
//! a job misses because the deciding result is in another shard.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::rules::{AnyPosition, BoardSize, MultiJump, Opening, Variant};
use crate::with_position;

use super::estimate::estimated_nodes;
use super::fold::Fold;
use super::{Interrupted, SolveLimits, SolveProgress, Solver};

/// The format name written into every part, checked by [`merge`]. Version 2 folded the
/// frontier by symmetry (version 1's is longer); version 3 orders it by estimated cost, gives
/// each shard a run of consecutive positions and lets a shard skip positions.
pub const PART_FORMAT: &str = "konane-solve-part-3";

/// The most frontier positions a split may have: the frontier is held in memory by
/// every job and by the merge.
pub const MAX_FRONTIER: usize = 1_000_000;

/// Which share of which split a job proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1 to `count`.
    pub index: u32,
    /// How many shards the frontier is cut into.
    pub count: u32,
}

/// The result of one job: the proven frontier positions of its shard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Part {
    /// [`PART_FORMAT`].
    pub format: String,
    /// The board, as `WxH`.
    pub size: String,
    /// The opening rule.
    pub opening: String,
    /// The multi-jump rule.
    pub multi_jump: String,
    /// The root position's text.
    pub root: String,
    /// The depth of the frontier below the root.
    pub plies: u32,
    /// This part's shard, 1 to `shards`.
    pub shard: u32,
    /// How many shards the split has.
    pub shards: u32,
    /// How many positions the whole frontier has.
    pub frontier: usize,
    /// The proven positions of this shard, in frontier order.
    pub results: Vec<FrontierResult>,
    /// The frontier indices of this shard's positions it did not prove, its own results
    /// having decided every position above them, in frontier order.
    pub skipped: Vec<usize>,
    /// Nodes searched by this job.
    pub nodes: u64,
    /// Wall-clock seconds this job took.
    pub seconds: f64,
}

/// One proven frontier position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrontierResult {
    /// Its place in the frontier.
    pub index: usize,
    /// Its text (checked against the frontier the merge rebuilds).
    pub position: String,
    /// Whether its side to move wins.
    pub side_to_move_wins: bool,
    /// The proven line from it, as move texts.
    pub pv: Vec<String>,
    /// Nodes searched to prove it (and find the line).
    pub nodes: u64,
}

/// Why a split or a merge failed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SplitError {
    /// The frontier would have too many positions.
    #[error(
        "the frontier {plies} plies deep has more than {MAX_FRONTIER} positions; split fewer plies"
    )]
    FrontierTooLarge {
        /// The depth asked for.
        plies: u32,
    },
    /// The shard does not exist.
    #[error("shard {index}/{count} does not exist: need 1 <= i <= n")]
    BadShard {
        /// 1-based index given.
        index: u32,
        /// Count given.
        count: u32,
    },
    /// No part was given.
    #[error("no parts to merge")]
    NoParts,
    /// A part does not describe a valid split.
    #[error("part of shard {shard}: {why}")]
    Corrupt {
        /// The part's shard number, as it says.
        shard: u32,
        /// What is wrong.
        why: String,
    },
    /// Two parts belong to different splits.
    #[error("parts of different splits: {0}")]
    Mismatch(String),
    /// Parts are missing.
    #[error("missing shards {} of {count}", list(.missing))]
    Missing {
        /// The shards no part covers, 1-based.
        missing: Vec<u32>,
        /// How many shards the split has.
        count: u32,
    },
    /// The parts skipped positions the verdict needs (parts that were edited, or
    /// mixed from different runs).
    #[error("the parts leave the root unproven: frontier positions {} were skipped", list(.needed))]
    Unresolved {
        /// Frontier indices of skipped positions still needed (at most ten).
        needed: Vec<usize>,
    },
}

fn list<T: ToString>(numbers: &[T]) -> String {
    numbers
        .iter()
        .map(T::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every distinct position exactly `plies` moves below `root` (positions where the
/// game ends sooner are not on it), one of each set of mirror images, in a fixed
/// order: level by level, the children of each position cheapest-looking first (by
/// [`estimated_nodes`]; ties in move order), each position at its first appearance.
pub fn frontier(root: &AnyPosition, plies: u32) -> Result<Vec<AnyPosition>, SplitError> {
    let fold = Fold::new(root);
    let mut level = vec![*root];
    for _ in 0..plies {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for pos in &level {
            for child in children_by_estimate(pos) {
                if seen.insert(fold.class(&child)) {
                    next.push(child);
                    if next.len() > MAX_FRONTIER {
                        return Err(SplitError::FrontierTooLarge { plies });
                    }
                }
            }
        }
        level = next;
    }
    Ok(level)
}

/// The positions after each move of `pos`, those whose proofs look cheapest first (a
/// stable sort: ties keep move order).
fn children_by_estimate(pos: &AnyPosition) -> Vec<AnyPosition> {
    moves_by_estimate(pos)
        .into_iter()
        .map(|(_, child)| child)
        .collect()
}

/// Each move of `pos` as text with the position after it, those whose proofs look
/// cheapest first (by [`estimated_nodes`]; a stable sort: ties keep move order).
pub(super) fn moves_by_estimate(pos: &AnyPosition) -> Vec<(String, AnyPosition)> {
    let mut children: Vec<(f64, String, AnyPosition)> = pos
        .legal_move_texts()
        .into_iter()
        .zip(pos.children())
        .map(|(text, child)| (with_position!(child, p => estimated_nodes(&p)), text, child))
        .collect();
    children.sort_by(|a, b| a.0.total_cmp(&b.0));
    children
        .into_iter()
        .map(|(_, text, child)| (text, child))
        .collect()
}

impl Shard {
    /// The frontier indices this shard takes of a frontier of `len` positions: the
    /// `index`-th of `count` runs of consecutive positions, as equal in length as they
    /// can be (none for a shard outside `1..=count`).
    pub fn range(self, len: usize) -> Range<usize> {
        if self.index == 0 || self.index > self.count {
            return 0..0;
        }
        let at = |i: u32| (i as usize * len) / self.count as usize;
        at(self.index - 1)..at(self.index)
    }
}

/// Proves shard `shard` of the frontier `plies` below `root` with `solver`, one
/// position after the other (the solver's table carries over between them), skipping
/// the positions its own results have made irrelevant (see the module notes).
pub fn solve_shard(
    solver: &mut Solver,
    root: &AnyPosition,
    plies: u32,
    shard: Shard,
    limits: &SolveLimits<'_>,
    progress: &mut dyn FnMut(&SolveProgress),
) -> Result<Result<Part, Interrupted>, SplitError> {
    if shard.index == 0 || shard.index > shard.count {
        return Err(SplitError::BadShard {
            index: shard.index,
            count: shard.count,
        });
    }
    let started = std::time::Instant::now();
    let positions = frontier(root, plies)?;
    let fold = Fold::new(root);
    let mut results: Vec<FrontierResult> = Vec::new();
    let mut skipped = Vec::new();
    let mut nodes = 0;
    // What the results so far leave undecided; recomputed after each new result.
    let mut needed: Option<HashSet<String>> = None;
    for index in shard.range(positions.len()) {
        let pos = &positions[index];
        let undecided = needed.get_or_insert_with(|| {
            let known = known_results(&fold, &positions, &results);
            Above::new(&known, &fold, plies).needed(root)
        });
        if !undecided.contains(&fold.class(pos)) {
            skipped.push(index);
            continue;
        }
        let line = match solver.solve_any(pos, limits, progress) {
            Ok(line) => line,
            Err(e) => return Ok(Err(e)),
        };
        nodes += line.nodes;
        results.push(FrontierResult {
            index,
            position: pos.to_string(),
            side_to_move_wins: line.side_to_move_wins,
            pv: line.pv,
            nodes: line.nodes,
        });
        needed = None;
    }
    let variant = root.variant();
    Ok(Ok(Part {
        format: PART_FORMAT.to_string(),
        size: variant.size.to_string(),
        opening: variant.opening.to_string(),
        multi_jump: variant.multi_jump.to_string(),
        root: root.to_string(),
        plies,
        shard: shard.index,
        shards: shard.count,
        frontier: positions.len(),
        results,
        skipped,
        nodes,
        seconds: started.elapsed().as_secs_f64(),
    }))
}

/// The proven frontier positions among `results` (checked to be on `positions`), by
/// class.
fn known_results<'a>(
    fold: &Fold,
    positions: &[AnyPosition],
    results: &'a [FrontierResult],
) -> HashMap<String, Proven<'a>> {
    results
        .iter()
        .map(|r| {
            let position = positions[r.index];
            let proven = Proven {
                position,
                side_to_move_wins: r.side_to_move_wins,
                pv: &r.pv,
            };
            (fold.class(&position), proven)
        })
        .collect()
}

/// The verdict of a merged split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// The root position.
    pub root: AnyPosition,
    /// Whether the root's side to move wins.
    pub side_to_move_wins: bool,
    /// The proven line from the root to the end of the game: through the tree above
    /// the frontier (the winner's first winning move, the loser's longest defence),
    /// then the line of the frontier position's proof.
    pub pv: Vec<String>,
    /// Nodes searched by all the jobs.
    pub nodes: u64,
    /// Positions on the frontier.
    pub frontier: usize,
}

/// Checks that `parts` are the whole of one split and combines them (see the module
/// notes).
pub fn merge(parts: &[Part]) -> Result<Merged, SplitError> {
    let first = parts.first().ok_or(SplitError::NoParts)?;
    let root = part_root(first)?;
    let positions = frontier(&root, first.plies)?;
    let fold = Fold::new(&root);
    let mut proven: HashMap<String, Proven<'_>> = HashMap::new();
    let mut skipped = HashSet::new();
    let mut covered = vec![false; first.shards as usize];
    for part in parts {
        check_same_split(first, part)?;
        let corrupt = |why: String| SplitError::Corrupt {
            shard: part.shard,
            why,
        };
        if part.format != PART_FORMAT {
            return Err(corrupt(format!(
                "format '{}' is not {PART_FORMAT}",
                part.format
            )));
        }
        if part.shard == 0 || part.shard > part.shards {
            return Err(corrupt(format!(
                "no shard {} of {}",
                part.shard, part.shards
            )));
        }
        if part.frontier != positions.len() {
            return Err(corrupt(format!(
                "says the frontier has {} positions, it has {}",
                part.frontier,
                positions.len()
            )));
        }
        let expected = Shard {
            index: part.shard,
            count: part.shards,
        }
        .range(positions.len());
        let mut listed: Vec<usize> = part.results.iter().map(|r| r.index).collect();
        listed.extend(&part.skipped);
        listed.sort_unstable();
        if !listed.iter().copied().eq(expected.clone()) {
            return Err(corrupt(format!(
                "its {} results and {} skipped positions are not frontier positions {} to {}",
                part.results.len(),
                part.skipped.len(),
                expected.start,
                expected.end.saturating_sub(1)
            )));
        }
        skipped.extend(part.skipped.iter().map(|&i| fold.class(&positions[i])));
        for result in &part.results {
            let index = result.index;
            let position = positions[index].to_string();
            if result.position != position {
                return Err(corrupt(format!(
                    "result {index} ('{}') is not frontier position {index} ('{position}')",
                    result.position
                )));
            }
            check_line(&positions[index], result.side_to_move_wins, &result.pv).map_err(corrupt)?;
        }
        proven.extend(known_results(&fold, &positions, &part.results));
        covered[part.shard as usize - 1] = true;
    }
    let missing: Vec<u32> = (1..=first.shards)
        .filter(|&i| !covered[i as usize - 1])
        .collect();
    if !missing.is_empty() {
        return Err(SplitError::Missing {
            missing,
            count: first.shards,
        });
    }
    let mut above = Above::new(&proven, &fold, first.plies);
    let Some((win, _)) = above.value(&root, 0) else {
        let needed = above.needed(&root);
        let needed = (0..positions.len())
            .filter(|&i| {
                let class = fold.class(&positions[i]);
                skipped.contains(&class) && needed.contains(&class)
            })
            .take(10)
            .collect();
        return Err(SplitError::Unresolved { needed });
    };
    Ok(Merged {
        root,
        side_to_move_wins: win,
        pv: above.line(root),
        nodes: parts.iter().map(|p| p.nodes).sum(),
        frontier: positions.len(),
    })
}

/// The root position a part names, read under its rules.
fn part_root(part: &Part) -> Result<AnyPosition, SplitError> {
    let corrupt = |why: String| SplitError::Corrupt {
        shard: part.shard,
        why,
    };
    let variant = parse_variant(&part.size, &part.opening, &part.multi_jump).map_err(corrupt)?;
    read_position(&part.root, variant).map_err(|e| corrupt(format!("root {e}")))
}

/// The position `text` names under `variant`. A text whose side to move no game reaches
/// (two empty squares with white to move: a root whose side was set by hand) is read
/// as the other side's and passed.
pub(super) fn read_position(text: &str, variant: Variant) -> Result<AnyPosition, String> {
    let read = |text: &str| AnyPosition::from_text(text, variant.opening, variant.multi_jump);
    let pos = read(text)
        .or_else(|e| {
            let other = match text.rsplit_once(' ') {
                Some((board, "b")) => format!("{board} w"),
                Some((board, "w")) => format!("{board} b"),
                _ => return Err(e),
            };
            let passed = read(&other).ok().and_then(
                |pos| with_position!(pos, p => p.with_other_side_to_move().map(AnyPosition::from)),
            );
            passed.ok_or(e)
        })
        .map_err(|e| format!("'{text}': {e}"))?;
    if pos.variant() != variant {
        return Err(format!("'{text}' is not a {} board", variant.size));
    }
    Ok(pos)
}

/// The rules a file names by its board size, opening and multi-jump rule texts.
pub(super) fn parse_variant(
    size: &str,
    opening: &str,
    multi_jump: &str,
) -> Result<Variant, String> {
    let size: BoardSize = size.parse().map_err(|e| format!("{e}"))?;
    let opening: Opening = opening.parse().map_err(|e| format!("{e}"))?;
    let multi_jump: MultiJump = multi_jump.parse().map_err(|e| format!("{e}"))?;
    Ok(Variant {
        size,
        opening,
        multi_jump,
    })
}

fn check_same_split(first: &Part, part: &Part) -> Result<(), SplitError> {
    let describe = |p: &Part| {
        format!(
            "{} {} {} root '{}' {} plies in {} shards",
            p.size, p.opening, p.multi_jump, p.root, p.plies, p.shards
        )
    };
    if describe(first) != describe(part) {
        return Err(SplitError::Mismatch(format!(
            "shard {}: {}; shard {}: {}",
            first.shard,
            describe(first),
            part.shard,
            describe(part)
        )));
    }
    Ok(())
}

/// Replays a proven line from `pos`: legal moves to the end of the game, lost by the
/// side that the verdict (`side_to_move_wins`) says loses.
pub(super) fn check_line(
    pos: &AnyPosition,
    side_to_move_wins: bool,
    pv: &[String],
) -> Result<(), String> {
    let mut line_pos = *pos;
    for m in pv {
        line_pos
            .play_text(m)
            .map_err(|e| format!("line of '{pos}': {e}"))?;
    }
    let over = line_pos.legal_move_texts().is_empty();
    let loser_moves = pv.len() % 2 == usize::from(side_to_move_wins);
    if !over || !loser_moves {
        return Err(format!(
            "the line of '{pos}' ({} moves) does not end in a loss of the side the verdict says loses",
            pv.len()
        ));
    }
    Ok(())
}

/// A frontier position's result, as a part gave it.
struct Proven<'a> {
    position: AnyPosition,
    side_to_move_wins: bool,
    pv: &'a [String],
}

/// The minimax of the tree above the frontier, over the frontier results known so far.
struct Above<'a> {
    /// The known frontier results by [class](Fold::class).
    proven: &'a HashMap<String, Proven<'a>>,
    fold: &'a Fold,
    /// Value and plies to the end (`None`: not decided yet), by position text.
    memo: HashMap<String, Option<(bool, usize)>>,
    plies: u32,
}

impl<'a> Above<'a> {
    /// The minimax over the frontier `plies` deep whose known results are `proven`.
    fn new(proven: &'a HashMap<String, Proven<'a>>, fold: &'a Fold, plies: u32) -> Above<'a> {
        Above {
            proven,
            fold,
            memo: HashMap::new(),
            plies,
        }
    }

    /// Whether the side to move at `pos` (`depth` plies below the root) wins, and the
    /// length of its proven line; `None` while the known results do not decide it. A
    /// won node takes its first losing child in move order.
    fn value(&mut self, pos: &AnyPosition, depth: u32) -> Option<(bool, usize)> {
        if depth == self.plies {
            let result = self.proven.get(&self.fold.class(pos))?;
            return Some((result.side_to_move_wins, result.pv.len()));
        }
        let text = pos.to_string();
        if let Some(&known) = self.memo.get(&text) {
            return known;
        }
        // Lost (by the longest line) unless a child loses or is undecided.
        let mut value = Some((false, 0));
        for child in pos.children() {
            match self.value(&child, depth + 1) {
                Some((false, plies)) => {
                    value = Some((true, plies + 1));
                    break;
                }
                Some((true, plies)) => {
                    value = value.map(|(_, longest)| (false, longest.max(plies + 1)));
                }
                None => value = None,
            }
        }
        // A node with some child undecided and none lost is undecided.
        self.memo.insert(text, value);
        value
    }

    /// The classes of the undecided frontier positions that an undecided path from
    /// `root` reaches: the ones whose proofs can still change the verdict.
    fn needed(&mut self, root: &AnyPosition) -> HashSet<String> {
        let mut needed = HashSet::new();
        let mut visited = HashSet::new();
        self.collect_needed(root, 0, &mut visited, &mut needed);
        needed
    }

    fn collect_needed(
        &mut self,
        pos: &AnyPosition,
        depth: u32,
        visited: &mut HashSet<String>,
        needed: &mut HashSet<String>,
    ) {
        if self.value(pos, depth).is_some() || !visited.insert(pos.to_string()) {
            return;
        }
        if depth == self.plies {
            needed.insert(self.fold.class(pos));
            return;
        }
        for child in pos.children() {
            self.collect_needed(&child, depth + 1, visited, needed);
        }
    }

    /// The proven line from `root`.
    fn line(&mut self, root: AnyPosition) -> Vec<String> {
        let mut line = Vec::new();
        let mut pos = root;
        for depth in 0..self.plies {
            let Some((win, plies)) = self.value(&pos, depth) else {
                return line;
            };
            let chosen = pos.legal_move_texts().into_iter().find_map(|m| {
                let mut child = pos;
                child.play_text(&m).ok()?;
                let (child_wins, child_plies) = self.value(&child, depth + 1)?;
                (child_wins != win && child_plies + 1 == plies).then_some((m, child))
            });
            let Some((m, child)) = chosen else {
                return line;
            };
            pos = child;
            line.push(m);
        }
        if let Some(result) = self.proven.get(&self.fold.class(&pos))
            && let Some(pv) = self.fold.map_line(&result.position, &pos, result.pv)
        {
            line.extend(pv);
        }
        line
    }
}
