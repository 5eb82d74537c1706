//! The stone patterns of the evaluation against a plain computation from file and rank,
//! on random positions of every board shape and bitboard width.

// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use konane::rules::{AnyPosition, Bitboard, BoardSize, MultiJump, Opening, Variant};
use konane::search::patterns::{FITTED, canonical, for_each_stone, score};
use konane::with_position;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// A random position: random board of 2x2 to 16x16, random rules, random plies.
fn random_position(rng: &mut StdRng) -> AnyPosition {
    let size = BoardSize::new(rng.random_range(2..=16), rng.random_range(2..=16)).unwrap();
    let variant = Variant {
        size,
        opening: [Opening::Diagonal, Opening::Centre, Opening::Any][rng.random_range(0..3)],
        multi_jump: [MultiJump::Straight, MultiJump::Turning][rng.random_range(0..2)],
    };
    let mut pos = AnyPosition::start(variant);
    let plies = rng.random_range(0..size.squares() / 2 + 2);
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

/// The pattern code of the stone on (`file`, `rank`), from coordinates: for north,
/// east, south and west in turn, the squares one and two steps away, each 0 (empty),
/// 1 (a stone) or 2 (off the board), read as base-3 digits.
fn plain_code(
    width: usize,
    height: usize,
    stone: &dyn Fn(usize, usize) -> bool,
    file: usize,
    rank: usize,
) -> usize {
    let mut code = 0;
    for (df, dr) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
        for dist in 1..=2 {
            let f = file as isize + dist * df;
            let r = rank as isize + dist * dr;
            let state = if (0..width as isize).contains(&f) && (0..height as isize).contains(&r) {
                usize::from(stone(f as usize, r as usize))
            } else {
                2
            };
            code = code * 3 + state;
        }
    }
    code
}

/// The fitted weight of a pattern, looked up in the checked-in list.
fn fitted_weight(own: bool, code: usize) -> i32 {
    let key = canonical(code) as u16;
    FITTED
        .iter()
        .find(|entry| entry.0 == key)
        .map_or(0, |entry| i32::from(if own { entry.1 } else { entry.2 }))
}

#[test]
fn pattern_codes_and_scores_agree_with_a_plain_computation() {
    let mut rng = StdRng::seed_from_u64(20_261_202);
    for _ in 0..300 {
        let pos = random_position(&mut rng);
        with_position!(pos, p => {
            let (width, height) = (p.geometry().width(), p.geometry().height());
            let occupied = p.occupied();
            let stone = |f: usize, r: usize| occupied.has(r * width + f);
            let own_stones = p.stones(p.side_to_move());
            let mut expected = Vec::new();
            let mut total = 0;
            for rank in 0..height {
                for file in 0..width {
                    if stone(file, rank) {
                        let own = own_stones.has(rank * width + file);
                        let code = plain_code(width, height, &stone, file, rank);
                        expected.push((own, code));
                        total += fitted_weight(own, code);
                    }
                }
            }
            let mut seen = Vec::new();
            for_each_stone(&p, |own, code| seen.push((own, code)));
            assert_eq!(seen, expected, "{p}");
            assert_eq!(score(&p), total, "{p}");
        });
    }
}

#[test]
fn the_fitted_list_is_sorted_and_canonical() {
    assert!(!FITTED.is_empty());
    for pair in FITTED.windows(2) {
        assert!(pair[0].0 < pair[1].0, "{pair:?}");
    }
    for entry in FITTED {
        assert_eq!(
            canonical(usize::from(entry.0)),
            usize::from(entry.0),
            "{entry:?}"
        );
    }
}
