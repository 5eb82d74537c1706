//! Helpers shared by the rules test files: the naive reference generator, the perft
//! table, and thin wrappers that run the engine on an [`AnyPosition`].

// Each test file is its own crate and uses only part of this module.
#![allow(dead_code)]
// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

pub mod naive;
pub mod table;

use std::collections::BTreeMap;
use std::ops::RangeInclusive;
use std::sync::atomic::AtomicBool;

use konane::rules::{
    AnyPosition, Bitboard, BoardSize, Move, MoveList, MultiJump, Opening, Perft, Position,
    PositionError, Variant,
};

use naive::Rules;
use rand::RngExt;
use rand::rngs::StdRng;

/// Every combination of opening and multi-jump rule.
pub fn all_rules() -> Vec<Rules> {
    let mut all = Vec::new();
    for opening in Opening::ALL {
        for multi_jump in MultiJump::ALL {
            all.push(Rules {
                opening,
                multi_jump,
            });
        }
    }
    all
}

/// The engine's variant for a board size and rules.
pub fn variant(width: usize, height: usize, rules: Rules) -> Variant {
    Variant {
        size: BoardSize::new(width, height).expect("test boards are 2x2 to 16x16"),
        opening: rules.opening,
        multi_jump: rules.multi_jump,
    }
}

/// A position reached by random play on a random board (each side drawn from
/// `sides`) under random rules, after up to half as many plies as the board has
/// squares.
pub fn random_position(rng: &mut StdRng, sides: RangeInclusive<usize>) -> AnyPosition {
    let size = BoardSize::new(rng.random_range(sides.clone()), rng.random_range(sides))
        .expect("test boards are 2x2 to 16x16");
    let variant = Variant {
        size,
        opening: [Opening::Diagonal, Opening::Centre, Opening::Any][rng.random_range(0..3)],
        multi_jump: [MultiJump::Straight, MultiJump::Turning][rng.random_range(0..2)],
    };
    let mut pos = AnyPosition::start(variant);
    let plies = rng.random_range(0..size.squares() / 2);
    for _ in 0..plies {
        let moves = pos.legal_move_texts();
        if moves.is_empty() {
            break;
        }
        let choice = &moves[rng.random_range(0..moves.len())];
        pos.play_text(choice).expect("a generated move is legal");
    }
    pos
}

/// The engine's start position.
pub fn engine_start(width: usize, height: usize, rules: Rules) -> AnyPosition {
    AnyPosition::start(variant(width, height, rules))
}

/// The engine's reading of position text.
pub fn engine_from_text(text: &str, rules: Rules) -> Result<AnyPosition, PositionError> {
    AnyPosition::from_text(text, rules.opening, rules.multi_jump)
}

/// Engine perft; a table line that cannot be counted is a test bug.
pub fn engine_perft(pos: &AnyPosition, depth: usize) -> u64 {
    let stop = AtomicBool::new(false);
    konane::with_position!(pos, p => Perft::new(&stop).count(p, depth))
        .unwrap_or_else(|e| panic!("engine perft of {pos} at depth {depth}: {e}"))
}

/// Engine divide: (move text, count) for each jump path.
pub fn engine_divide(pos: &AnyPosition, depth: usize) -> Vec<(String, u64)> {
    let stop = AtomicBool::new(false);
    konane::with_position!(pos, p => Perft::new(&stop).divide(p, depth))
        .unwrap_or_else(|e| panic!("engine divide of {pos} at depth {depth}: {e}"))
}

/// The moves of `generate_paths`, each with the text of its own path: the k-th copy of
/// an effect gets the k-th path `Geometry::move_paths` finds for it (removals have no
/// path and get their square). `None` when there are fewer paths than copies.
pub fn path_texts<B: Bitboard>(p: &Position<B>) -> Vec<(Move<B>, Option<String>)> {
    let mut list = MoveList::new();
    p.generate_paths(&mut list);
    let geo = p.geometry();
    let moves = list.as_slice();
    moves
        .iter()
        .enumerate()
        .map(|(i, &m)| {
            if m.is_removal() {
                return (m, Some(geo.move_text(m)));
            }
            let copy = moves[..i].iter().filter(|&&o| o == m).count();
            let text = geo
                .move_paths(m, copy + 1)
                .get(copy)
                .map(|path| geo.path_text(path));
            (m, text)
        })
        .collect()
}

/// The two divides side by side, one line per move text, differences marked `<<` and
/// listed first.
pub fn divide_report(engine: &[(String, u64)], naive: &[(String, u64)]) -> String {
    let mut rows: BTreeMap<&str, (Option<u64>, Option<u64>)> = BTreeMap::new();
    for (text, n) in engine {
        rows.entry(text).or_default().0 = Some(*n);
    }
    for (text, n) in naive {
        rows.entry(text).or_default().1 = Some(*n);
    }
    let differing: Vec<&str> = rows
        .iter()
        .filter(|(_, (e, n))| e != n)
        .map(|(text, _)| *text)
        .collect();
    let show = |n: Option<u64>| n.map_or("-".to_string(), |n| n.to_string());
    let mut out = format!(
        "divide: {} engine moves, {} naive moves, {} differing: {}\n  {:<24} {:>12} {:>12}",
        engine.len(),
        naive.len(),
        differing.len(),
        differing.join(" "),
        "move",
        "engine",
        "naive"
    );
    for (text, (e, n)) in rows {
        let mark = if e == n { "" } else { "  <<" };
        out.push_str(&format!(
            "\n  {text:<24} {:>12} {:>12}{mark}",
            show(e),
            show(n)
        ));
    }
    out
}
