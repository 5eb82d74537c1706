//! Perfect endgames in play: in positions from real games that the exact solver proves
//! won for the side to move, the engine's normal search (which hands positions small
//! enough to the solver when it is on the clock) must play a move that keeps the win,
//! and report the win as proven whenever it proved anything.

// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use konane::rules::{AnyPosition, Bitboard, MultiJump, Opening, Position};
use konane::search::score::is_proven;
use konane::search::solver::{SolveLimits, Solver};
use konane::search::time::TimeControl;
use konane::search::{SearchControl, SearchParams, Searcher};
use konane::with_position;

fn endgames() -> Vec<AnyPosition> {
    include_str!("data/endgames.txt")
        .lines()
        .filter_map(|line| line.split('#').next())
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .map(|text| {
            AnyPosition::from_text(text, Opening::Diagonal, MultiJump::Straight)
                .unwrap_or_else(|e| panic!("{text}: {e}"))
        })
        .collect()
}

fn side_to_move_wins<B: Bitboard>(solver: &mut Solver, pos: &Position<B>) -> bool {
    let stop = AtomicBool::new(false);
    solver
        .prove(pos, &SolveLimits::new(&stop), &mut |_| {})
        .expect("no limit")
        .side_to_move_wins
}

#[test]
fn the_engine_keeps_every_proven_win_from_real_games() {
    let positions = endgames();
    assert!(positions.len() >= 10, "the data file lost its positions");
    let mut solver = Solver::new(64);
    let mut reported_proven = 0;
    let count = positions.len();
    for pos in positions {
        with_position!(pos, p => {
            assert!(side_to_move_wins(&mut solver, &p), "{pos}: the data says this is won");
            let mut searcher = Searcher::new(16);
            let params = SearchParams {
                time: TimeControl::MoveTime(Duration::from_secs(3)),
                multipv: 1,
                ..SearchParams::default()
            };
            let result = searcher.search(&p, &params, &SearchControl::new(false), &mut |_| {});
            if is_proven(result.score) {
                assert!(result.score > 0, "{pos}: the search reports a proven loss");
                reported_proven += 1;
            }
            let best = result.best.expect("a won position has moves");
            let after = p.after(best);
            assert!(
                !side_to_move_wins(&mut solver, &after),
                "{pos}: {} gives the win away",
                p.move_text(best)
            );
        });
    }
    assert!(
        reported_proven * 2 >= count,
        "only {reported_proven} of {count} wins were proven by the search"
    );
}
