//! The chess clocks that enforce time controls.
//!
//! A clock is charged the wall time from sending `go` to reading `bestmove`. The engine
//! loses on time when that exceeds what was left plus its time margin; otherwise the
//! time is taken off, the increment is added, and at the end of a `moves/base` period
//! the base time is added again, as cutechess does.

use std::time::Duration;

use crate::client::TimeControl;

/// One side's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    remaining: Duration,
    moves_played: u32,
}

/// The engine used more time than its clock held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overrun {
    /// Time the move took.
    pub elapsed: Duration,
    /// Time that was on the clock.
    pub remaining: Duration,
}

impl Clock {
    /// A clock set to the start of `control`.
    #[must_use]
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            remaining: control.base,
            moves_played: 0,
        }
    }

    /// Time left before the next move.
    #[must_use]
    pub fn remaining(&self) -> Duration {
        self.remaining
    }

    /// The increment added after each move.
    #[must_use]
    pub fn increment(&self) -> Duration {
        self.control.increment
    }

    /// Moves left in the current period, for `movestogo`.
    #[must_use]
    pub fn moves_to_go(&self) -> Option<u32> {
        self.control.moves.map(|m| m - self.moves_played % m)
    }

    /// How long the engine may take before it loses on time.
    #[must_use]
    pub fn allowance(&self, margin: Duration) -> Duration {
        self.remaining + margin
    }

    /// Charges a move that took `elapsed`: an error if that was more than the time left
    /// plus `margin`, else the clock after the increment and any new period.
    pub fn charge(&mut self, elapsed: Duration, margin: Duration) -> Result<(), Overrun> {
        if elapsed > self.allowance(margin) {
            return Err(Overrun {
                elapsed,
                remaining: self.remaining,
            });
        }
        self.remaining = self.remaining.saturating_sub(elapsed) + self.control.increment;
        self.moves_played += 1;
        if let Some(m) = self.control.moves
            && self.moves_played.is_multiple_of(m)
        {
            self.remaining += self.control.base;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_increment_is_added_after_each_move() {
        let mut clock = Clock::new("1+0.1".parse().unwrap());
        clock.charge(ms(300), ms(0)).unwrap();
        assert_eq!(clock.remaining(), ms(800));
    }

    #[test]
    fn a_move_beyond_the_clock_and_margin_loses() {
        let mut clock = Clock::new("1".parse().unwrap());
        assert!(clock.charge(ms(1_040), ms(50)).is_ok());
        assert_eq!(clock.remaining(), ms(0));
        let mut clock = Clock::new("1".parse().unwrap());
        let over = clock.charge(ms(1_051), ms(50)).unwrap_err();
        assert_eq!(over.remaining, ms(1_000));
    }

    #[test]
    fn each_period_adds_the_base_time_again() {
        let mut clock = Clock::new("2/1".parse().unwrap());
        assert_eq!(clock.moves_to_go(), Some(2));
        clock.charge(ms(400), ms(0)).unwrap();
        assert_eq!(clock.moves_to_go(), Some(1));
        clock.charge(ms(400), ms(0)).unwrap();
        assert_eq!(clock.remaining(), ms(1_200));
        assert_eq!(clock.moves_to_go(), Some(2));
    }
}
