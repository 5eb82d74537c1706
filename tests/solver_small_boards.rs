//! The prover against a naive solver on every position of small boards, under every
//! opening and multi-jump rule.

mod solver_support;

use std::sync::atomic::AtomicBool;

use konane::rules::{MultiJump, Opening};
use konane::search::solver::{SolveLimits, Solver, SolverConfig};
use solver_support::{Naive, check_line, every_rule, prove, reachable, solve, start};

/// Every position reachable from the start of a `w`x`h` board: the prover's verdict
/// (with a table warmed by the positions before it) matches the naive solver's; a
/// sample is also solved from a cold table, its line checked and its winning move
/// replayed and re-proved.
fn every_position_agrees(w: usize, h: usize, sample_every: usize) {
    for variant in every_rule(w, h) {
        let positions = reachable(start(variant));
        let mut naive = Naive::default();
        let mut warm = Solver::new(4);
        for (i, pos) in positions.iter().enumerate() {
            let expected = naive.wins(pos);
            assert_eq!(prove(&mut warm, pos), expected, "{variant}: {pos}");
            if i % sample_every != 0 {
                continue;
            }
            let mut cold = Solver::new(1);
            let result = solve(&mut cold, pos);
            assert_eq!(
                result.side_to_move_wins, expected,
                "{variant}: {pos} (cold)"
            );
            check_line(pos, &result);
            if let (true, Some(m)) = (expected, result.best_move) {
                let after = pos.after(m);
                assert!(
                    !naive.wins(&after),
                    "{variant}: {pos}: the winning move loses"
                );
                assert!(
                    !prove(&mut Solver::new(1), &after),
                    "{variant}: {pos}: re-proof"
                );
            }
        }
    }
}

#[test]
fn every_position_of_3x3_boards_is_solved_right() {
    every_position_agrees(3, 3, 1);
}

#[test]
fn every_position_of_4x4_boards_is_solved_right() {
    every_position_agrees(4, 4, 7);
}

#[test]
fn every_position_of_3x5_and_5x3_boards_is_solved_right() {
    every_position_agrees(3, 5, 7);
    every_position_agrees(5, 3, 7);
}

#[test]
fn every_position_of_4x5_boards_is_solved_right() {
    every_position_agrees(4, 5, 211);
}

/// Two to nine million positions per rule: minutes, so only on demand.
#[test]
#[ignore]
fn every_position_of_5x4_and_5x5_boards_is_solved_right() {
    every_position_agrees(5, 4, 1009);
    every_position_agrees(5, 5, 10007);
}

#[test]
fn every_position_of_2xn_boards_is_solved_right() {
    for n in 2..=8 {
        every_position_agrees(2, n, 3);
        every_position_agrees(n, 2, 3);
    }
}

/// Each technique can be switched off without changing a verdict.
#[test]
fn techniques_never_change_a_verdict() {
    let configs = [
        SolverConfig {
            symmetry: false,
            ..SolverConfig::default()
        },
        SolverConfig {
            regions: true,
            ..SolverConfig::default()
        },
        SolverConfig {
            game_values: true,
            ..SolverConfig::default()
        },
        SolverConfig {
            etc: false,
            history: false,
            mobility_ordering: false,
            mobility_numbers: false,
            ..SolverConfig::default()
        },
        SolverConfig {
            eval_ordering: false,
            ..SolverConfig::default()
        },
        // Alpha-beta alone, and proof-number search alone.
        SolverConfig {
            proof_number_percent: Some(0),
            regions: true,
            ..SolverConfig::default()
        },
        SolverConfig {
            proof_number_percent: Some(100),
            ..SolverConfig::default()
        },
        SolverConfig {
            proof_number_percent: Some(100),
            eval_numbers: false,
            ..SolverConfig::default()
        },
    ];
    for variant in every_rule(4, 5) {
        let positions = reachable(start(variant));
        let mut naive = Naive::default();
        for config in configs {
            let mut solver = Solver::with_config(4, config);
            for pos in positions.iter().step_by(13) {
                assert_eq!(
                    prove(&mut solver, pos),
                    naive.wins(pos),
                    "{variant} {config:?}: {pos}"
                );
            }
        }
    }
}

/// df-pn over the whole tree with a table of 1 MB, whose numbers table (a quarter of it)
/// loses entries all the time, still finishes: it once went round for ever here, two
/// children of a node evicting each other's numbers.
#[test]
fn df_pn_finishes_when_its_numbers_keep_being_evicted() {
    let stop = AtomicBool::new(false);
    let limits = SolveLimits {
        node_limit: Some(5_000_000),
        ..SolveLimits::new(&stop)
    };
    let config = SolverConfig {
        proof_number_percent: Some(100),
        ..SolverConfig::default()
    };
    let variant = solver_support::variant(5, 6, Opening::Diagonal, MultiJump::Straight);
    let pos = start(variant);
    let result = Solver::with_config(1, config)
        .prove(&pos, &limits, &mut |_| {})
        .expect("proven within 5 M nodes (it takes about 0.25 M)");
    assert_eq!(result.side_to_move_wins, prove(&mut Solver::new(16), &pos));
}

/// Several threads sharing one table prove the same verdicts as one thread.
#[test]
fn parallel_proofs_agree_with_the_naive_solver() {
    for (w, h, step) in [(4, 4, 3), (3, 5, 3), (4, 5, 37)] {
        for variant in every_rule(w, h) {
            let positions = reachable(start(variant));
            let mut naive = Naive::default();
            for threads in [2, 3] {
                let mut solver = Solver::new(4);
                solver.set_threads(threads);
                for pos in positions.iter().step_by(step) {
                    let result = solve(&mut solver, pos);
                    assert_eq!(
                        result.side_to_move_wins,
                        naive.wins(pos),
                        "{variant}, {threads} threads: {pos}"
                    );
                    check_line(pos, &result);
                }
            }
        }
    }
}
