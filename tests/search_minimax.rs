//! The search, with its table, move ordering and windows, must return exactly the value
//! of a plain fixed-depth minimax over the same evaluation (the same extension of
//! nodes with few moves and the same scoring of lost positions).

// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::random_position;
use konane::rules::{Bitboard, Position};
use konane::search::eval::evaluate;
use konane::search::score::{Score, mated_at};
use konane::search::{EXTENSION_MOVES, SearchControl, SearchParams, Searcher};
use konane::with_position;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Plain negamax: every move, no table, no pruning.
fn minimax<B: Bitboard>(pos: &Position<B>, depth: i32, ply: usize) -> Score {
    if depth <= 0 {
        let own = pos.count_moves();
        return if own == 0 {
            mated_at(ply)
        } else {
            evaluate(pos).total
        };
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return mated_at(ply);
    }
    let depth = if moves.len() <= EXTENSION_MOVES {
        depth + 1
    } else {
        depth
    };
    moves
        .iter()
        .map(|&m| -minimax(&pos.after(m), depth - 1, ply + 1))
        .max()
        .expect("at least one move")
}

/// The root is searched to exactly `depth` (no extension at the root).
fn minimax_root<B: Bitboard>(pos: &Position<B>, depth: i32) -> Score {
    pos.legal_moves()
        .iter()
        .map(|&m| -minimax(&pos.after(m), depth - 1, 1))
        .max()
        .expect("a position with moves")
}

fn searched<B: Bitboard>(searcher: &mut Searcher, pos: &Position<B>, depth: u32) -> Score {
    let params = SearchParams {
        depth: Some(depth),
        multipv: 1,
        exact: true,
        ..SearchParams::default()
    };
    searcher
        .search(pos, &params, &SearchControl::new(false), &mut |_| {})
        .score
}

#[test]
fn search_value_equals_plain_minimax() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut searcher = Searcher::new(1);
    let mut checked = 0;
    while checked < 2000 {
        let pos = random_position(&mut rng, 3..=6);
        if pos.outcome().is_some() {
            continue;
        }
        let depth = rng.random_range(1..=6);
        // A table kept from other positions must not change the value either.
        if rng.random_range(0..4) == 0 {
            searcher.clear();
        }
        let (expected, got) = with_position!(pos, p => (minimax_root(&p, depth), searched(&mut searcher, &p, depth as u32)));
        assert_eq!(got, expected, "{pos} [{}] depth {depth}", pos.variant());
        checked += 1;
    }
}
