//! Shared by the solver tests: a deliberately naive solver that shares no code with the
//! prover (plain recursion over the rules' moves, memoised on the position text), and
//! small helpers.

#![allow(dead_code)]
// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{HashMap, HashSet};
use std::process::Command;
use std::sync::atomic::AtomicBool;

use konane::rules::{AnyPosition, Bitboard, BoardSize, MultiJump, Opening, Position, Variant};
use konane::search::solver::{SolveLimits, SolveResult, Solver};

#[path = "../scratch/mod.rs"]
mod scratch_folder;
// Each test file includes this module; not all of them need a scratch folder.
#[allow(unused_imports)]
pub use scratch_folder::scratch;

/// Plain minimax to the end of the game, remembering each position's value by its text.
#[derive(Default)]
pub struct Naive {
    memo: HashMap<String, bool>,
}

impl Naive {
    /// Whether the side to move at `pos` wins.
    pub fn wins<B: Bitboard>(&mut self, pos: &Position<B>) -> bool {
        let text = pos.to_string();
        if let Some(&known) = self.memo.get(&text) {
            return known;
        }
        let win = pos.legal_moves().iter().any(|&m| !self.wins(&pos.after(m)));
        self.memo.insert(text, win);
        win
    }
}

/// The variant of a `w`x`h` board.
pub fn variant(w: usize, h: usize, opening: Opening, multi_jump: MultiJump) -> Variant {
    Variant {
        size: BoardSize::new(w, h).expect("test boards are valid"),
        opening,
        multi_jump,
    }
}

/// Every variant of a `w`x`h` board.
pub fn every_rule(w: usize, h: usize) -> Vec<Variant> {
    let mut out = Vec::new();
    for opening in Opening::ALL {
        for multi_jump in MultiJump::ALL {
            out.push(variant(w, h, opening, multi_jump));
        }
    }
    out
}

/// The start position of a variant with at most 64 squares.
pub fn start(variant: Variant) -> Position<u64> {
    small(AnyPosition::start(variant))
}

/// The `u64` position inside `pos`.
pub fn small(pos: AnyPosition) -> Position<u64> {
    match pos {
        AnyPosition::Small(p) => p,
        _ => panic!("test boards have at most 64 squares"),
    }
}

/// The position of `text` (black to move, `any` opening, `straight` jumps, a board of
/// at most 64 squares) with white to move instead: two empty squares with white to
/// move, which no game reaches and no text reads as.
pub fn white_to_move_at_the_gap(text: &str) -> AnyPosition {
    white_to_move_at_the_gap_under(text, MultiJump::Straight)
}

/// [`white_to_move_at_the_gap`] under `multi_jump`.
pub fn white_to_move_at_the_gap_under(text: &str, multi_jump: MultiJump) -> AnyPosition {
    let black_to_move =
        small(AnyPosition::from_text(text, Opening::Any, multi_jump).expect("a position"));
    AnyPosition::from(black_to_move.with_other_side_to_move().unwrap())
}

/// Every position reachable from `root`, `root` included.
pub fn reachable(root: Position<u64>) -> Vec<Position<u64>> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(pos) = stack.pop() {
        if !seen.insert((pos.occupied(), pos.side_to_move())) {
            continue;
        }
        for &m in pos.legal_moves().iter() {
            stack.push(pos.after(m));
        }
        out.push(pos);
    }
    out
}

/// Solves `pos` with no limits.
pub fn solve<B: Bitboard>(solver: &mut Solver, pos: &Position<B>) -> SolveResult<B> {
    let stop = AtomicBool::new(false);
    solver
        .solve(pos, &SolveLimits::new(&stop), &mut |_| {})
        .expect("an unlimited solve finishes")
}

/// Proves `pos` with no limits: whether the side to move wins.
pub fn prove<B: Bitboard>(solver: &mut Solver, pos: &Position<B>) -> bool {
    let stop = AtomicBool::new(false);
    solver
        .prove(pos, &SolveLimits::new(&stop), &mut |_| {})
        .expect("an unlimited solve finishes")
        .side_to_move_wins
}

/// Checks that `result`'s line for `pos` is a legal game to the end that the side the
/// result names wins, with the mate score its length gives.
pub fn check_line<B: Bitboard>(pos: &Position<B>, result: &SolveResult<B>) {
    assert!(result.line_complete, "{pos}: the line was cut short");
    assert_eq!(result.plies_to_end as usize, result.pv.len());
    let mut p = *pos;
    for &m in &result.pv {
        assert!(
            p.legal_moves().iter().any(|&x| x == m),
            "{pos}: line move {} is not legal in {p}",
            p.move_text(m)
        );
        p.play_unchecked(m);
    }
    assert!(
        p.legal_moves().is_empty(),
        "{pos}: the line stops before the end at {p}"
    );
    let mover_made_last_move = result.pv.len() % 2 == 1;
    assert_eq!(
        mover_made_last_move, result.side_to_move_wins,
        "{pos}: the line ends with the wrong side stuck"
    );
    assert_eq!(result.best_move, result.pv.first().copied());
    let own_moves = result.pv.len().div_ceil(2) as i32;
    let expected = if result.side_to_move_wins {
        own_moves
    } else {
        -((result.pv.len() / 2) as i32)
    };
    assert_eq!(result.mate(), expected, "{pos}: mate score");
}

/// Runs `konane-solve` with `args`: its exit status, standard output and error.
pub fn konane_solve(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_konane-solve"))
        .args(args)
        .output()
        .expect("konane-solve runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
