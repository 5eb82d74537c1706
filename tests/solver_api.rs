//! The solver's interface: published results, mate scores, limits, text output.

// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod solver_support;

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use konane::rules::{AnyPosition, MultiJump, Opening};
use konane::search::solver::{InterruptReason, SolveLimits, Solver};
use solver_support::{check_line, small, solve, start, variant};

fn solve_text(text: &str) -> konane::search::solver::SolvedLine {
    let pos = AnyPosition::from_text(text, Opening::Diagonal, MultiJump::Straight).unwrap();
    let stop = AtomicBool::new(false);
    Solver::new(1)
        .solve_any(&pos, &SolveLimits::new(&stop), &mut |_| {})
        .unwrap()
}

#[test]
fn four_by_four_is_a_second_player_win() {
    let pos = start(variant(4, 4, Opening::Diagonal, MultiJump::Straight));
    let result = solve(&mut Solver::new(1), &pos);
    assert!(!result.side_to_move_wins);
    check_line(&pos, &result);
}

#[test]
fn five_by_five_is_a_first_player_win() {
    let pos = start(variant(5, 5, Opening::Diagonal, MultiJump::Straight));
    let result = solve(&mut Solver::new(4), &pos);
    assert!(result.side_to_move_wins);
    check_line(&pos, &result);
}

/// A few seconds in release builds; far more with the test profile's checks.
#[test]
#[ignore]
fn six_by_six_is_a_second_player_win() {
    let pos = start(variant(6, 6, Opening::Diagonal, MultiJump::Straight));
    let result = solve(&mut Solver::new(256), &pos);
    assert!(!result.side_to_move_wins);
    check_line(&pos, &result);
}

#[test]
fn no_legal_move_is_mate_zero_and_lost() {
    // Black's stone on a4 has no white stone next to it.
    let line = solve_text("b3/4/4/w3 b");
    assert!(!line.side_to_move_wins);
    assert_eq!(line.mate, 0);
    assert_eq!(line.best_move, None);
    assert!(line.pv.is_empty());
}

#[test]
fn taking_the_last_enemy_stone_is_mate_one() {
    let line = solve_text("bw2/4/4/4 b");
    assert!(line.side_to_move_wins);
    assert_eq!(line.mate, 1);
    assert_eq!(line.best_move.as_deref(), Some("a4c4"));
    assert_eq!(line.pv, ["a4c4"]);
}

#[test]
fn a_move_into_a_lost_reply_is_mate_minus_one() {
    // White's only move takes a black stone; black then takes white's last stone.
    let line = solve_text("4/wb1b/4/4 w");
    assert!(!line.side_to_move_wins);
    assert_eq!(line.mate, -1);
    assert_eq!(line.pv.len(), 2);
}

#[test]
fn the_line_is_canonical_move_text_that_plays_to_the_end() {
    let mut pos = AnyPosition::start(variant(5, 5, Opening::Any, MultiJump::Turning));
    let stop = AtomicBool::new(false);
    let line = Solver::new(4)
        .solve_any(&pos, &SolveLimits::new(&stop), &mut |_| {})
        .unwrap();
    assert_eq!(line.best_move.as_ref(), line.pv.first());
    for text in &line.pv {
        assert_eq!(&pos.play_text(text).unwrap(), text);
    }
    assert!(pos.outcome().is_some());
    assert_eq!(line.pv.len() % 2 == 1, line.side_to_move_wins);
}

#[test]
fn a_node_limit_interrupts_the_solve() {
    let pos = start(variant(6, 6, Opening::Diagonal, MultiJump::Straight));
    let stop = AtomicBool::new(false);
    let limits = SolveLimits {
        node_limit: Some(10_000),
        ..SolveLimits::new(&stop)
    };
    let err = Solver::new(1)
        .solve(&pos, &limits, &mut |_| {})
        .unwrap_err();
    assert_eq!(err.reason, InterruptReason::NodeLimit);
    assert!(err.nodes >= 10_000 && err.nodes < 20_000);
}

#[test]
fn the_stop_flag_and_the_deadline_interrupt_the_solve() {
    let pos = start(variant(6, 6, Opening::Diagonal, MultiJump::Straight));
    let stop = AtomicBool::new(true);
    let err = Solver::new(1)
        .solve(&pos, &SolveLimits::new(&stop), &mut |_| {})
        .unwrap_err();
    assert_eq!(err.reason, InterruptReason::Stopped);
    let running = AtomicBool::new(false);
    let limits = SolveLimits {
        deadline: Some(Instant::now()),
        ..SolveLimits::new(&running)
    };
    let err = Solver::new(1)
        .solve(&pos, &limits, &mut |_| {})
        .unwrap_err();
    assert_eq!(err.reason, InterruptReason::Deadline);
}

#[test]
fn an_interrupted_solver_still_solves_right_afterwards() {
    let pos = start(variant(5, 5, Opening::Diagonal, MultiJump::Straight));
    let mut solver = Solver::new(4);
    let stop = AtomicBool::new(false);
    let limits = SolveLimits {
        node_limit: Some(300),
        ..SolveLimits::new(&stop)
    };
    assert!(solver.solve(&pos, &limits, &mut |_| {}).is_err());
    assert!(solve(&mut solver, &pos).side_to_move_wins);
}

#[test]
fn the_table_carries_over_between_solves_of_one_variant() {
    let pos = start(variant(5, 5, Opening::Diagonal, MultiJump::Straight));
    let mut solver = Solver::new(4);
    let first = solve(&mut solver, &pos);
    let second = solve(&mut solver, &pos);
    assert!(second.proof_nodes < first.proof_nodes / 10);
    // Another variant on the same board size must not reuse the table.
    let other = start(variant(5, 5, Opening::Diagonal, MultiJump::Turning));
    let turning = solve(&mut solver, &other);
    let fresh = solve(&mut Solver::new(4), &other);
    assert_eq!(turning.side_to_move_wins, fresh.side_to_move_wins);
    assert_eq!(turning.proof_nodes, fresh.proof_nodes);
}

#[test]
fn the_table_fill_is_what_the_last_solve_reported_and_clearing_empties_it() {
    let pos = start(variant(5, 5, Opening::Diagonal, MultiJump::Straight));
    let mut solver = Solver::new(1);
    assert_eq!(solver.table_permille(), 0, "a new table is empty");
    let result = solve(&mut solver, &pos);
    assert!(
        solver.table_permille() > 0,
        "a proof fills part of the table"
    );
    assert!(solver.table_permille() <= 1000);
    assert_eq!(solver.table_permille(), result.table_permille);
    solver.clear();
    assert_eq!(solver.table_permille(), 0, "a cleared table is empty");
}

#[test]
fn a_cleared_solver_proves_as_a_fresh_one() {
    let pos = start(variant(5, 5, Opening::Diagonal, MultiJump::Straight));
    let mut solver = Solver::new(4);
    let fresh = solve(&mut solver, &pos);
    solver.clear();
    let again = solve(&mut solver, &pos);
    assert_eq!(again.proof_nodes, fresh.proof_nodes);
    assert_eq!(again.pv, fresh.pv);
}

#[test]
fn odd_boards_where_black_cannot_open_are_lost_at_once() {
    let pos = small(AnyPosition::start(variant(
        3,
        5,
        Opening::Centre,
        MultiJump::Straight,
    )));
    let result = solve(&mut Solver::new(1), &pos);
    assert!(!result.side_to_move_wins);
    assert_eq!(result.mate(), 0);
}

#[test]
fn a_limit_hit_after_the_proof_still_gives_the_verdict_and_a_move() {
    let pos = start(variant(5, 5, Opening::Diagonal, MultiJump::Straight));
    let proof_nodes = solve(&mut Solver::new(4), &pos).proof_nodes;
    let stop = AtomicBool::new(false);
    let limits = SolveLimits {
        node_limit: Some(proof_nodes + 1),
        ..SolveLimits::new(&stop)
    };
    let result = Solver::new(4).solve(&pos, &limits, &mut |_| {}).unwrap();
    assert!(result.side_to_move_wins);
    assert!(!result.line_complete);
    assert!(result.mate() > 0);
    let m = result.best_move.expect("a move to play");
    assert!(pos.legal_moves().iter().any(|&x| x == m));
}

/// A 16x16 middle game under `turning`, where one node costs hundreds of microseconds.
fn big_turning_middle_game() -> AnyPosition {
    let mut pos = AnyPosition::start(variant(16, 16, Opening::Diagonal, MultiJump::Turning));
    let mut seed = 7u64;
    for _ in 0..30 {
        let moves = pos.legal_move_texts();
        if moves.is_empty() {
            break;
        }
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        pos.play_text(&moves[(seed >> 33) as usize % moves.len()])
            .unwrap();
    }
    pos
}

#[test]
fn a_passed_deadline_ends_the_solve_within_a_few_nodes() {
    let pos = big_turning_middle_game();
    let running = AtomicBool::new(false);
    let limits = SolveLimits {
        deadline: Some(Instant::now()),
        ..SolveLimits::new(&running)
    };
    let err = Solver::new(1)
        .solve_any(&pos, &limits, &mut |_| {})
        .unwrap_err();
    assert_eq!(err.reason, InterruptReason::Deadline);
    // The first look at the clock comes early, before the node rate is known.
    assert!(err.nodes <= 64, "{} nodes", err.nodes);
}

/// The stop flag is seen by time, not after a fixed number of nodes: on this board
/// 4,096 nodes take 0.6 s in a release build and 3.5 s in a test build on a loaded
/// machine; the solver looks at the flag about every half millisecond.
#[test]
fn stop_ends_a_solve_on_a_big_board_promptly() {
    let pos = big_turning_middle_game();
    for threads in [1, 2] {
        let stop = AtomicBool::new(false);
        let mut solver = Solver::new(1);
        solver.set_threads(threads);
        let stopped_at = std::thread::scope(|scope| {
            let stopper = scope.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(300));
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
                Instant::now()
            });
            let err = solver
                .solve_any(&pos, &SolveLimits::new(&stop), &mut |_| {})
                .unwrap_err();
            assert_eq!(err.reason, InterruptReason::Stopped);
            stopper.join().unwrap()
        });
        // Generous, for a loaded machine.
        let late = stopped_at.elapsed();
        assert!(
            late.as_millis() < 1000,
            "{threads} threads: {late:?} after stop"
        );
    }
}

#[test]
fn parallel_solves_give_the_verdict_and_line_of_one_thread() {
    for (w, h, wins) in [(4, 4, false), (5, 5, true), (4, 5, false)] {
        let pos = start(variant(w, h, Opening::Diagonal, MultiJump::Straight));
        for threads in [2, 3, 4] {
            let mut solver = Solver::new(4);
            solver.set_threads(threads);
            assert_eq!(solver.threads(), threads);
            let result = solve(&mut solver, &pos);
            assert_eq!(result.side_to_move_wins, wins, "{w}x{h}, {threads} threads");
            check_line(&pos, &result);
        }
    }
}
