//! Statistics for a game without draws: Elo difference with a 95% margin, likelihood
//! of superiority, first-player win rate, and the pair counts the pair SPRT uses.

/// The 97.5% quantile of the standard normal distribution (two-sided 95%).
const Z95: f64 = 1.959_963_984_540_054;

/// Wins and losses of one side against another (or against the field).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Games won.
    pub wins: u64,
    /// Games lost.
    pub losses: u64,
}

impl Score {
    /// Games played.
    #[must_use]
    pub const fn games(self) -> u64 {
        self.wins + self.losses
    }

    /// Points per game: the fraction won (there are no draws).
    #[must_use]
    pub fn fraction(self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        self.wins as f64 / self.games() as f64
    }

    /// The logistic Elo difference the score implies:
    /// `-400 log10(1/s - 1)`, infinite at a score of 0 or 1.
    #[must_use]
    pub fn elo(self) -> f64 {
        elo_from_score(self.fraction())
    }

    /// Half the width of the 95% confidence interval of [`elo`](Self::elo), as
    /// cutechess computes it: the per-game score has variance `s(1-s)` without draws,
    /// so `d = 1.96 sqrt(s(1-s)/n)` and the margin is `(elo(s+d) - elo(s-d)) / 2`.
    /// Infinite when the interval reaches a score of 0 or 1, NaN with no games.
    #[must_use]
    pub fn elo_margin(self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return f64::NAN;
        }
        let s = self.fraction();
        let d = Z95 * (s * (1.0 - s) / n).sqrt();
        (elo_from_score(s + d) - elo_from_score(s - d)) / 2.0
    }

    /// Likelihood of superiority: `0.5 (1 + erf((W - L) / sqrt(2 (W + L))))`, the
    /// normal approximation of the chance that the first side is the stronger.
    #[must_use]
    pub fn los(self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        let diff = self.wins as f64 - self.losses as f64;
        0.5 * (1.0 + erf(diff / (2.0 * self.games() as f64).sqrt()))
    }
}

/// The Elo difference of an expected score `s`: `-400 log10(1/s - 1)`.
#[must_use]
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if s >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score of an Elo difference: `1 / (1 + 10^(-elo/400))`.
#[must_use]
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, to about 1e-15 (series near zero, continued fraction beyond).
#[must_use]
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let sign = x.signum();
    let x = x.abs();
    if x < 2.5 {
        // erf x = 2/sqrt(pi) * sum (-1)^n x^(2n+1) / (n! (2n+1))
        let mut term = x;
        let mut sum = x;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -x * x / n;
            sum += term / (2.0 * n + 1.0);
        }
        sign * sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // erfc x = exp(-x^2)/sqrt(pi) * 1/(x + 1/2/(x + 1/(x + 3/2/(x + ...)))),
        // evaluated from the tail up.
        let mut fraction = 0.0;
        for k in (1..60).rev() {
            fraction = (f64::from(k) / 2.0) / (x + fraction);
        }
        let erfc = (-x * x).exp() / std::f64::consts::PI.sqrt() / (x + fraction);
        sign * (1.0 - erfc)
    }
}

/// How often the first player (black) won.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FirstPlayer {
    /// Games won by black.
    pub wins: u64,
    /// Games played.
    pub games: u64,
}

impl FirstPlayer {
    /// The fraction of games black won.
    #[must_use]
    pub fn rate(self) -> f64 {
        if self.games == 0 {
            return 0.5;
        }
        self.wins as f64 / self.games as f64
    }

    /// Half the width of the rate's 95% normal-approximation interval:
    /// `1.96 sqrt(r(1-r)/n)`.
    #[must_use]
    pub fn margin(self) -> f64 {
        if self.games == 0 {
            return f64::NAN;
        }
        let r = self.rate();
        Z95 * (r * (1.0 - r) / self.games as f64).sqrt()
    }
}

/// Colour-swapped pairs seen from one engine: both lost, one each, both won.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairCounts {
    /// Both games lost.
    pub losses: u64,
    /// One game won, one lost.
    pub splits: u64,
    /// Both games won.
    pub wins: u64,
}

impl PairCounts {
    /// Complete pairs counted.
    #[must_use]
    pub const fn pairs(self) -> u64 {
        self.losses + self.splits + self.wins
    }

    /// Adds a pair in which the engine won `won` of the two games.
    pub fn add(&mut self, won: u8) {
        match won {
            0 => self.losses += 1,
            1 => self.splits += 1,
            _ => self.wins += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_known_values() {
        for (x, e) in [
            (0.0, 0.0),
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (2.0, 0.995_322_265_018_952_7),
            (3.0, 0.999_977_909_503_001_4),
            (-1.0, -0.842_700_792_949_714_9),
        ] {
            assert!((erf(x) - e).abs() < 1e-14, "erf({x}) = {} not {e}", erf(x));
        }
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-300.0, -10.0, 0.0, 35.5, 400.0] {
            assert!((elo_from_score(score_from_elo(elo)) - elo).abs() < 1e-9);
        }
    }
}
