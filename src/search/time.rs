//! Time management: how long to think, as pure functions of the limits.
//!
//! A search gets a soft deadline, checked between iterations (do not start another
//! iteration past it), and a hard one, checked every few thousand nodes (stop now). No
//! clock is read here, so the rules are unit-tested with plain numbers.

use std::time::Duration;

/// The side to move's clock, as the GUI reported it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if the control has periods.
    pub moves_to_go: Option<u32>,
}

/// How the time for one move is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TimeControl {
    /// No time limit (depth or node limits, `infinite`, `ponder` until `ponderhit`).
    #[default]
    Unlimited,
    /// Exactly this long (`go movetime`).
    MoveTime(Duration),
    /// A running clock.
    Clock(Clock),
}

/// The deadlines of one search, counted from when its clock started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Past this, start no new iteration.
    pub soft: Option<Duration>,
    /// Past this, stop at once.
    pub hard: Option<Duration>,
}

/// A guess at how many moves the side to move still has to make, from the share of
/// the board already emptied: every ply empties at least one square, and games on
/// these boards end with roughly two fifths of the squares empty or more.
#[must_use]
pub fn moves_left(squares: usize, empty: usize) -> u32 {
    let expected_plies = (squares * 3 / 5).saturating_sub(empty);
    (expected_plies / 2).clamp(8, 40) as u32
}

/// The deadlines for `control`, keeping `overhead` (the `MoveOverhead` option) in
/// reserve on every move for the time it takes the move to reach the clock.
#[must_use]
pub fn budget(control: TimeControl, overhead: Duration, moves_left: u32) -> Budget {
    match control {
        TimeControl::Unlimited => Budget {
            soft: None,
            hard: None,
        },
        TimeControl::MoveTime(t) => {
            let hard = t.saturating_sub(overhead);
            Budget {
                soft: Some(hard),
                hard: Some(hard),
            }
        }
        TimeControl::Clock(clock) => clock_budget(clock, overhead, moves_left),
    }
}

fn clock_budget(clock: Clock, overhead: Duration, moves_left: u32) -> Budget {
    let usable = clock.remaining.saturating_sub(overhead);
    if clock.moves_to_go == Some(1) {
        // Last move before the control: most of what is left, but never all of it.
        return Budget {
            soft: Some(usable.mul_f64(0.5)),
            hard: Some(usable.mul_f64(0.85)),
        };
    }
    let moves = clock.moves_to_go.unwrap_or(moves_left).clamp(2, 60);
    // The increments of the moves still to come are time we will have; count three
    // quarters of them, and never plan to spend more than half of what is on the clock.
    let share = usable / moves + clock.increment.mul_f64(0.75);
    let soft = share.min(usable / 2);
    let hard = (soft * 3).min(usable.mul_f64(0.7));
    Budget {
        soft: Some(soft),
        hard: Some(hard),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(remaining: u64, increment: u64, moves_to_go: Option<u32>) -> TimeControl {
        TimeControl::Clock(Clock {
            remaining: ms(remaining),
            increment: ms(increment),
            moves_to_go,
        })
    }

    #[test]
    fn movetime_is_used_up_to_the_overhead() {
        let b = budget(TimeControl::MoveTime(ms(500)), ms(30), 20);
        assert_eq!(b.hard, Some(ms(470)));
        assert_eq!(b.soft, Some(ms(470)));
    }

    #[test]
    fn unlimited_has_no_deadline() {
        let b = budget(TimeControl::Unlimited, ms(30), 20);
        assert_eq!((b.soft, b.hard), (None, None));
    }

    #[test]
    fn a_clock_is_shared_over_the_moves_left() {
        let b = budget(clock(10_000, 0, None), ms(0), 20);
        assert_eq!(b.soft, Some(ms(500)));
        assert_eq!(b.hard, Some(ms(1500)));
    }

    #[test]
    fn increments_count_but_never_past_half_the_clock() {
        let b = budget(clock(10_000, 100, None), ms(0), 20);
        assert_eq!(b.soft, Some(ms(575)));
        let b = budget(clock(100, 1000, None), ms(30), 20);
        assert_eq!(b.soft, Some(ms(35)));
        assert!(b.hard.unwrap() <= ms(70));
    }

    #[test]
    fn movestogo_sets_the_share() {
        let b = budget(clock(9_000, 0, Some(3)), ms(0), 30);
        assert_eq!(b.soft, Some(ms(3000)));
        let last = budget(clock(1_000, 0, Some(1)), ms(0), 30);
        assert_eq!(last.soft, Some(ms(500)));
        assert_eq!(last.hard, Some(ms(850)));
    }

    #[test]
    fn the_hard_deadline_never_reaches_the_flag() {
        for remaining in [0, 1, 5, 31, 100, 1000, 60_000] {
            for increment in [0, 10, 1000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let b = budget(clock(remaining, increment, mtg), ms(30), 12);
                    let hard = b.hard.unwrap();
                    assert!(
                        hard <= ms(remaining).saturating_sub(ms(30)),
                        "{remaining} {increment} {mtg:?}"
                    );
                    assert!(b.soft.unwrap() <= hard);
                }
            }
        }
    }

    #[test]
    fn fewer_moves_are_expected_as_the_board_empties() {
        assert_eq!(moves_left(64, 0), 19);
        assert_eq!(moves_left(64, 30), 8);
        assert_eq!(moves_left(256, 0), 40);
    }
}
