//! The square patterns of the evaluation against a plain computation from file and
//! rank, on random positions of every board shape and bitboard width.

// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::random_position;
use konane::rules::{Bitboard, Color};
use konane::search::patterns::{FITTED, Kind, canonical, for_each_square, score};
use konane::with_position;
use rand::SeedableRng;
use rand::rngs::StdRng;

/// The pattern code of the square (`file`, `rank`), from coordinates: for north,
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

/// The fitted weight of a pattern on a square of `kind`, looked up in the checked-in
/// list.
fn fitted_weight(kind: Kind, code: usize) -> i32 {
    let key = canonical(code) as u16;
    FITTED
        .iter()
        .find(|entry| entry.0 == key)
        .map_or(0, |entry| i32::from(entry.1[kind as usize]))
}

#[test]
fn pattern_codes_and_scores_agree_with_a_plain_computation() {
    let mut rng = StdRng::seed_from_u64(20_261_202);
    for _ in 0..300 {
        let pos = random_position(&mut rng, 2..=16);
        with_position!(pos, p => {
            let (width, height) = (p.geometry().width(), p.geometry().height());
            let occupied = p.occupied();
            let stone = |f: usize, r: usize| occupied.has(r * width + f);
            let mut expected = Vec::new();
            let mut total = 0;
            for rank in 0..height {
                for file in 0..width {
                    // The top-left square is black; the colours alternate.
                    let colour = if (file + height - 1 - rank) % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let own = colour == p.side_to_move();
                    let kind = match (stone(file, rank), own) {
                        (true, true) => Kind::OwnStone,
                        (true, false) => Kind::TheirStone,
                        (false, true) => Kind::OwnEmpty,
                        (false, false) => Kind::TheirEmpty,
                    };
                    let code = plain_code(width, height, &stone, file, rank);
                    expected.push((kind, code));
                    total += fitted_weight(kind, code);
                }
            }
            assert!(expected.iter().any(|e| e.0.is_stone()));
            let mut seen = Vec::new();
            for_each_square(&p, |kind, code| seen.push((kind, code)));
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
