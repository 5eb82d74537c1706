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
    let ceiling = usable.mul_f64(spendable_share(clock.remaining));
    if clock.moves_to_go == Some(1) {
        // Last move before the control: most of what is left, but never all of it.
        return Budget {
            soft: Some(usable.mul_f64(0.5).min(ceiling)),
            hard: Some(usable.mul_f64(0.85).min(ceiling)),
        };
    }
    let moves = clock.moves_to_go.unwrap_or(moves_left).clamp(2, 60);
    // The increments of the moves still to come are time we will have; count three
    // quarters of them, and never plan to spend more than half of what is on the clock.
    let share = usable / moves + clock.increment.mul_f64(0.75);
    let hard = (share * 3).min(ceiling);
    let soft = share.min(usable / 2).min(hard);
    Budget {
        soft: Some(soft),
        hard: Some(hard),
    }
}

/// The largest share of the usable clock one move may take. The reserve kept back
/// grows as the clock shrinks: on a busy machine a move can reach the clock tens of
/// milliseconds late, which is nothing with a minute left and everything with a tenth
/// of a second, so a low clock is spent in small pieces (the increment keeps it going).
fn spendable_share(remaining: Duration) -> f64 {
    /// The clock from which the full share may be spent.
    const RELAXED: f64 = 4.0;
    let seconds = remaining.as_secs_f64();
    (0.1 + 0.75 * seconds / RELAXED).min(0.85)
}

/// Whether an iteration that would start `elapsed` into the search can end before the
/// `hard` deadline, judged from how long the last iteration took and how much longer it
/// was than the one before: an iteration that would be cut off by the deadline is work
/// thrown away, and on a slow board it is what runs the clock down.
#[must_use]
pub fn worth_starting(
    elapsed: Duration,
    last: Duration,
    before_last: Duration,
    hard: Option<Duration>,
) -> bool {
    let Some(hard) = hard else {
        return true;
    };
    // Each iteration costs a few times the one before (the measured ratio, within
    // bounds, since tiny iterations time badly).
    let growth = if before_last.is_zero() {
        2.0
    } else {
        (last.as_secs_f64() / before_last.as_secs_f64()).clamp(1.5, 8.0)
    };
    elapsed + last.mul_f64(growth) < hard
}

/// Learns how much later than the engine measures its moves reach the GUI's clock, from
/// the clocks the GUI reports: what a move cost on the GUI's clock is the clock before
/// it, plus the increment, less the clock after it. What the engine did not see itself
/// (pipes, a busy machine, the GUI's own delays) is overhead to keep in reserve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OverheadLearner {
    /// The clock and increment given for the last move, and the time the engine took
    /// for it by its own measure, once it was played.
    last: Option<(Duration, Duration, Option<Duration>)>,
    /// The largest lag seen, fading as moves go by without it.
    lag: Duration,
}

impl OverheadLearner {
    /// A new game: nothing known.
    pub fn reset(&mut self) {
        *self = OverheadLearner::default();
    }

    /// A move is asked for with `remaining` on the clock and `increment` per move.
    /// Learns from the previous move if that is known and consistent with this one.
    pub fn start_move(&mut self, remaining: Duration, increment: Duration) {
        if let Some((before, before_increment, Some(own))) = self.last {
            let credited = before + before_increment;
            // A clock that went up by more than the increment started a new period or
            // a new game: nothing to learn from it.
            if remaining <= credited {
                let gui_spent = credited - remaining;
                let lag = gui_spent.saturating_sub(own);
                self.lag = lag.max(self.lag.mul_f64(0.9));
            }
        }
        self.last = Some((remaining, increment, None));
    }

    /// The move asked for last was played after `own` by the engine's own clock (or
    /// planned to take `own`: time beyond the plan is then learned as lag too).
    pub fn finish_move(&mut self, own: Duration) {
        if let Some(last) = &mut self.last {
            last.2 = Some(own);
        }
    }

    /// A move was asked for without a clock: the next clock starts afresh.
    pub fn forget_move(&mut self) {
        self.last = None;
    }

    /// The overhead to keep back per move: the `MoveOverhead` option, or half as much
    /// again as the worst lag seen lately if that is more.
    #[must_use]
    pub fn overhead(&self, option: Duration) -> Duration {
        option.max(self.lag.mul_f64(1.5))
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
        assert!(b.soft.unwrap() <= ms(35));
        assert!(b.hard.unwrap() <= ms(70));
    }

    #[test]
    fn movestogo_sets_the_share() {
        let b = budget(clock(9_000, 0, Some(3)), ms(0), 30);
        assert_eq!(b.soft, Some(ms(3000)));
        let last = budget(clock(10_000, 0, Some(1)), ms(0), 30);
        assert_eq!(last.soft, Some(ms(5000)));
        assert_eq!(last.hard, Some(ms(8500)));
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
    fn the_reserve_grows_as_the_clock_shrinks() {
        // The last move before a time control may take the most: the ceiling shows.
        let share = |remaining: u64| {
            let b = budget(clock(remaining, 10, Some(1)), ms(0), 20);
            b.hard.unwrap().as_secs_f64() / ms(remaining).as_secs_f64()
        };
        assert!(share(100) < share(1_000), "{} {}", share(100), share(1_000));
        assert!(share(1_000) < share(10_000));
        // With 66 ms left, as in a match lost on time, a move takes a small piece.
        let low = budget(clock(66, 10, None), ms(30), 12);
        assert!(low.hard.unwrap() <= ms(5), "{low:?}");
    }

    #[test]
    fn an_iteration_that_cannot_end_in_time_is_not_started() {
        let hard = Some(ms(1000));
        assert!(worth_starting(ms(100), ms(50), ms(20), hard));
        assert!(!worth_starting(ms(600), ms(300), ms(100), hard));
        // Growth is bounded: a tiny previous iteration does not forbid everything.
        assert!(worth_starting(
            ms(10),
            ms(10),
            Duration::from_micros(1),
            hard
        ));
        assert!(worth_starting(ms(5000), ms(5000), ms(1), None));
    }

    #[test]
    fn the_lag_the_gui_reports_becomes_overhead() {
        let mut learner = OverheadLearner::default();
        assert_eq!(learner.overhead(ms(30)), ms(30));
        learner.start_move(ms(1000), ms(10));
        learner.finish_move(ms(100));
        // The GUI charged 1000 + 10 - 850 = 160 ms for a move the engine timed at 100.
        learner.start_move(ms(850), ms(10));
        assert_eq!(learner.overhead(ms(30)), ms(90));
        assert_eq!(learner.overhead(ms(200)), ms(200), "the option is a floor");
        // The lag fades as moves arrive on time.
        learner.finish_move(ms(50));
        learner.start_move(ms(810), ms(10));
        assert!(learner.overhead(ms(0)) < ms(90));
        // A clock that jumps up (a new period) teaches nothing.
        learner.finish_move(ms(10));
        let before = learner.overhead(ms(0));
        learner.start_move(ms(60_000), ms(10));
        assert_eq!(learner.overhead(ms(0)), before);
        learner.reset();
        assert_eq!(learner.overhead(ms(0)), ms(0));
    }

    #[test]
    fn fewer_moves_are_expected_as_the_board_empties() {
        assert_eq!(moves_left(64, 0), 19);
        assert_eq!(moves_left(64, 30), 8);
        assert_eq!(moves_left(256, 0), 40);
    }
}
