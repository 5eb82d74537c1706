//! Proofs split into independent jobs, and put back together.
//!
//! A proof too big for one machine is cut at a fixed depth: every distinct position
//! `plies` moves below the root, up to the board's symmetries (the *frontier*, in a
//! fixed order), is proven on its own, each job taking its share of the frontier
//! (shard `i` of `n` takes positions `i-1`, `i-1+n`, ...), with no communication
//! between jobs, so any batch scheduler can run them. Each job writes a [`Part`];
//! [`merge`] checks that the parts belong to the same split and cover the whole
//! frontier, then runs the minimax of the tree above the frontier for the verdict and
//! the proven line, reading a position that is a mirror image of a frontier position
//! through the mirror (see [`fold`](super::fold)). The cost is the table the jobs no
//! longer share: transpositions between two shards' subtrees are proven twice.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::rules::{AnyPosition, BoardSize, MultiJump, Opening, Variant};

use super::fold::Fold;
use super::{Interrupted, SolveLimits, SolveProgress, Solver};

/// The format name written into every part, checked by [`merge`]. Version 2 folds the
/// frontier by symmetry; parts of version 1 have a frontier of another length.
pub const PART_FORMAT: &str = "konane-solve-part-2";

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
    /// The proven positions of this shard.
    pub results: Vec<FrontierResult>,
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
}

fn list(numbers: &[u32]) -> String {
    numbers
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every distinct position exactly `plies` moves below `root` (positions where the
/// game ends sooner are not on it), one of each set of mirror images, in a fixed
/// order: level by level in move order, each position at its first appearance.
pub fn frontier(root: &AnyPosition, plies: u32) -> Result<Vec<AnyPosition>, SplitError> {
    let fold = Fold::new(root);
    let mut level = vec![*root];
    for _ in 0..plies {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for pos in &level {
            for child in pos.children() {
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

/// Proves shard `shard` of the frontier `plies` below `root` with `solver`, one
/// position after the other (the solver's table carries over between them).
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
    let mut results = Vec::new();
    let mut nodes = 0;
    let mine = (shard.index as usize - 1..positions.len()).step_by(shard.count as usize);
    for index in mine {
        let pos = &positions[index];
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
        nodes,
        seconds: started.elapsed().as_secs_f64(),
    }))
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
        let expected = (part.shard as usize - 1..positions.len()).step_by(part.shards as usize);
        if part.results.len() != expected.len() {
            return Err(corrupt(format!(
                "{} results for a shard of {} positions",
                part.results.len(),
                expected.len()
            )));
        }
        for (result, index) in part.results.iter().zip(expected) {
            let position = positions[index].to_string();
            if result.index != index || result.position != position {
                return Err(corrupt(format!(
                    "result {} ('{}') is not frontier position {index} ('{position}')",
                    result.index, result.position
                )));
            }
            check_line(&positions[index], result).map_err(corrupt)?;
            proven.insert(
                fold.class(&positions[index]),
                Proven {
                    position: positions[index],
                    side_to_move_wins: result.side_to_move_wins,
                    pv: &result.pv,
                },
            );
        }
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
    let mut above = Above {
        proven: &proven,
        fold: &fold,
        memo: HashMap::new(),
        plies: first.plies,
    };
    let (win, _) = above.value(&root, 0);
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
    let size: BoardSize = part.size.parse().map_err(|e| corrupt(format!("{e}")))?;
    let opening: Opening = part.opening.parse().map_err(|e| corrupt(format!("{e}")))?;
    let multi_jump: MultiJump = part
        .multi_jump
        .parse()
        .map_err(|e| corrupt(format!("{e}")))?;
    let root = AnyPosition::from_text(&part.root, opening, multi_jump)
        .map_err(|e| corrupt(format!("root '{}': {e}", part.root)))?;
    let variant = Variant {
        size,
        opening,
        multi_jump,
    };
    if root.variant() != variant {
        return Err(corrupt(format!(
            "root '{}' is not a {size} board",
            part.root
        )));
    }
    Ok(root)
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

/// Replays a frontier result's line: legal moves to the end of the game, lost by the
/// side that the verdict says loses.
fn check_line(pos: &AnyPosition, result: &FrontierResult) -> Result<(), String> {
    let mut line_pos = *pos;
    for m in &result.pv {
        line_pos
            .play_text(m)
            .map_err(|e| format!("line of '{}': {e}", result.position))?;
    }
    let over = line_pos.legal_move_texts().is_empty();
    let loser_moves = result.pv.len() % 2 == usize::from(result.side_to_move_wins);
    if !over || !loser_moves {
        return Err(format!(
            "the line of '{}' ({} moves) does not end in a loss of the side the verdict says loses",
            result.position,
            result.pv.len()
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

/// The minimax of the tree above the frontier.
struct Above<'a> {
    /// The frontier's results by [class](Fold::class).
    proven: &'a HashMap<String, Proven<'a>>,
    fold: &'a Fold,
    /// Value and plies to the end, by position text.
    memo: HashMap<String, (bool, usize)>,
    plies: u32,
}

impl Above<'_> {
    /// Whether the side to move at `pos` (`depth` plies below the root) wins, and the
    /// length of its proven line.
    fn value(&mut self, pos: &AnyPosition, depth: u32) -> (bool, usize) {
        if depth == self.plies {
            let result = &self.proven[&self.fold.class(pos)];
            return (result.side_to_move_wins, result.pv.len());
        }
        let text = pos.to_string();
        if let Some(&known) = self.memo.get(&text) {
            return known;
        }
        let mut best: Option<(bool, usize)> = None;
        for child in pos.children() {
            let (child_wins, plies) = self.value(&child, depth + 1);
            let candidate = (!child_wins, plies + 1);
            best = Some(match best {
                None => candidate,
                Some(b) if better(candidate, b) => candidate,
                Some(b) => b,
            });
        }
        let value = best.unwrap_or((false, 0));
        self.memo.insert(text, value);
        value
    }

    /// The proven line from `root`.
    fn line(&mut self, root: AnyPosition) -> Vec<String> {
        let mut line = Vec::new();
        let mut pos = root;
        for depth in 0..self.plies {
            let (win, plies) = self.value(&pos, depth);
            let chosen = pos.legal_move_texts().into_iter().find_map(|m| {
                let mut child = pos;
                child.play_text(&m).ok()?;
                let (child_wins, child_plies) = self.value(&child, depth + 1);
                (child_wins != win && child_plies + 1 == plies).then_some((m, child))
            });
            let Some((m, child)) = chosen else {
                return line;
            };
            pos = child;
            line.push(m);
        }
        let result = &self.proven[&self.fold.class(&pos)];
        if let Some(pv) = self.fold.map_line(&result.position, &pos, result.pv) {
            line.extend(pv);
        }
        line
    }
}

/// Whether `a` (win?, plies) is a better choice than `b` for the side to move: a win
/// before a loss, the first win found (shortest is not sought), the longest loss.
fn better(a: (bool, usize), b: (bool, usize)) -> bool {
    match (a.0, b.0) {
        (true, false) => true,
        (false, false) => a.1 > b.1,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn better_prefers_a_win_then_the_longest_loss() {
        assert!(better((true, 9), (false, 3)));
        assert!(!better((true, 9), (true, 3)));
        assert!(better((false, 9), (false, 3)));
        assert!(!better((false, 9), (true, 3)));
    }
}
