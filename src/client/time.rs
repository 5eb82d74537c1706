//! Time controls as the referee's command line gives them: `base[+inc]` or
//! `moves/base[+inc]` in seconds, and plain durations in seconds.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use thiserror::Error;

/// A time control: `base[+inc]` or `moves/base[+inc]`, times in seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period (`tc=40/60`), or `None` for one period for the whole game.
    pub moves: Option<u32>,
    /// Time given at the start and at the start of every period.
    pub base: Duration,
    /// Time added after every move.
    pub increment: Duration,
}

/// Text that is not a time control or a duration.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TimeError {
    /// Not `base[+inc]` or `moves/base[+inc]`.
    #[error("time control '{0}' is not <base>[+<inc>] or <moves>/<base>[+<inc>] in seconds")]
    TimeControl(String),
    /// Not a non-negative number of seconds up to [`MAX_SECONDS`].
    #[error("'{0}' is not a number of seconds from 0 to {MAX_SECONDS}")]
    Seconds(String),
}

/// The longest duration accepted anywhere (about eleven and a half days): longer ones
/// are refused when read, so no wait or clock can overflow.
pub const MAX_SECONDS: u64 = 1_000_000;

/// Reads a decimal number of seconds from 0 to [`MAX_SECONDS`] (`10`, `0.5`, `.25`).
pub fn parse_seconds(text: &str) -> Result<Duration, TimeError> {
    let bad = || TimeError::Seconds(text.to_string());
    let ok_chars = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    if !ok_chars {
        return Err(bad());
    }
    let secs: f64 = text.parse().map_err(|_| bad())?;
    if !(0.0..=MAX_SECONDS as f64).contains(&secs) {
        return Err(bad());
    }
    Duration::try_from_secs_f64(secs).map_err(|_| bad())
}

impl FromStr for TimeControl {
    type Err = TimeError;

    /// Reads `10`, `10+0.1`, `40/60`, `40/60+0.5`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || TimeError::TimeControl(s.to_string());
        let (moves, rest) = match s.split_once('/') {
            Some((m, rest)) => {
                let moves: u32 = m.parse().map_err(|_| bad())?;
                if moves == 0 {
                    return Err(bad());
                }
                (Some(moves), rest)
            }
            None => (None, s),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base = parse_seconds(base).map_err(|_| bad())?;
        let increment = match increment {
            Some(i) => parse_seconds(i).map_err(|_| bad())?,
            None => Duration::ZERO,
        };
        if base.is_zero() && increment.is_zero() {
            return Err(bad());
        }
        Ok(TimeControl {
            moves,
            base,
            increment,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", self.base.as_secs_f64())?;
        if !self.increment.is_zero() {
            write!(f, "+{}", self.increment.as_secs_f64())?;
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
    fn time_controls_read_like_cutechess() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!(
            (tc.moves, tc.base, tc.increment),
            (None, ms(10_000), ms(100))
        );
        let tc: TimeControl = "40/60".parse().unwrap();
        assert_eq!(
            (tc.moves, tc.base, tc.increment),
            (Some(40), ms(60_000), ms(0))
        );
        let tc: TimeControl = "1+0.01".parse().unwrap();
        assert_eq!(tc.increment, ms(10));
        for bad in [
            "",
            "+1",
            "0",
            "0/10",
            "x/10",
            "10+",
            "-1",
            "1e3",
            "10+-1",
            "10000000000000000000",
            "1+1000000.5",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad} was accepted");
        }
    }
}
