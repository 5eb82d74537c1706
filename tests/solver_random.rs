//! The prover against plain minimax on positions reached by random play, on boards of
//! every bitboard width and under every rule.

mod solver_support;

use konane::rules::{AnyPosition, Bitboard, Position, Variant};
use konane::search::solver::{Solver, SolverConfig};
use konane::with_position;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use solver_support::{Naive, check_line, every_rule, prove, solve};

/// Plays random moves from the start of `variant` until at most `stones` stones are
/// left (or the game ends).
fn random_position<B: Bitboard>(start: Position<B>, stones: u32, rng: &mut StdRng) -> Position<B> {
    let mut pos = start;
    while pos.occupied().count() > stones {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves.as_slice()[rng.random_range(0..moves.len())]);
    }
    pos
}

/// For `count` random positions of `variant` with at most `stones` stones: the verdict
/// matches minimax, the line is a legal game the named side wins, and a winning move
/// keeps the win when replayed and re-proved from a cold table.
fn random_positions_agree(variant: Variant, stones: u32, count: usize, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut warm = Solver::new(4);
    with_position!(AnyPosition::start(variant), start => {
        let mut naive = Naive::default();
        for i in 0..count {
            let pos = random_position(start, stones, &mut rng);
            let expected = naive.wins(&pos);
            assert_eq!(prove(&mut warm, &pos), expected, "{variant}: {pos}");
            // Cold solves alternate between the default search and alpha-beta alone
            // with the region analysis and the game values on.
            let config = if i % 2 == 0 {
                SolverConfig::default()
            } else {
                SolverConfig {
                    regions: true,
                    game_values: true,
                    proof_number_percent: Some(0),
                    ..SolverConfig::default()
                }
            };
            let result = solve(&mut Solver::with_config(1, config), &pos);
            assert_eq!(result.side_to_move_wins, expected, "{variant}: {pos} (cold, #{i})");
            check_line(&pos, &result);
            if let (true, Some(m)) = (expected, result.best_move) {
                let after = pos.after(m);
                assert!(!prove(&mut Solver::new(1), &after), "{variant}: {pos}: winning move loses");
            }
        }
    });
}

#[test]
fn random_5x5_and_6x5_positions_are_solved_right() {
    for (w, h) in [(5, 5), (6, 5), (5, 6)] {
        for (i, variant) in every_rule(w, h).into_iter().enumerate() {
            random_positions_agree(variant, 21, 12, 100 + i as u64);
        }
    }
}

#[test]
fn random_6x6_and_8x4_positions_are_solved_right() {
    for (w, h) in [(6, 6), (8, 4), (3, 10)] {
        for (i, variant) in every_rule(w, h).into_iter().enumerate() {
            random_positions_agree(variant, 22, 6, 200 + i as u64);
        }
    }
}

/// Boards of more than 64 squares key the table by hash rather than by occupancy.
#[test]
fn random_positions_of_wide_boards_are_solved_right() {
    for (w, h) in [(9, 8), (12, 12)] {
        for (i, variant) in every_rule(w, h).into_iter().enumerate() {
            random_positions_agree(variant, 20, 3, 300 + i as u64);
        }
    }
}

/// Almost-finished 8x8 games: many small regions, the case the region analysis is for.
#[test]
fn random_8x8_endgames_are_solved_right() {
    for (i, variant) in every_rule(8, 8).into_iter().enumerate() {
        random_positions_agree(variant, 22, 6, 400 + i as u64);
    }
}
