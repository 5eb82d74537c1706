//! Sequential probability ratio tests for a game without draws.
//!
//! - The binomial SPRT over single games is exact: a game is a Bernoulli trial with win
//!   chance `p = 1 / (1 + 10^(-elo/400))`, so
//!   `LLR = W ln(p1/p0) + L ln((1-p1)/(1-p0))`.
//! - The pair GSPRT treats each colour-swapped pair as one trial with three outcomes
//!   (both lost, split, both won: scores 0, 1/2, 1). Under each hypothesis the pair
//!   probabilities are the maximum-likelihood trinomial whose mean score is that
//!   hypothesis's expected score; the LLR is the log ratio of the two likelihoods.
//!
//! Both stop at the bounds `ln(beta/(1-alpha))` (accept H0) and `ln((1-beta)/alpha)`
//! (accept H1). Chess tools that model draws with a "draw Elo" get a draw ratio of zero
//! here, their variance or draw Elo turns infinite or NaN, and their LLR never crosses
//! a bound; nothing below divides by a draw count.

use std::fmt;

use super::config::SprtConfig;
use super::stats::{PairCounts, Score, score_from_elo};

/// What a test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Neither bound crossed.
    Continue,
    /// The lower bound was crossed: the Elo difference is `elo0` rather than `elo1`.
    AcceptH0,
    /// The upper bound was crossed: the Elo difference is `elo1` rather than `elo0`.
    AcceptH1,
}

/// The state of one test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtStatus {
    /// The log-likelihood ratio.
    pub llr: f64,
    /// `ln(beta / (1 - alpha))`.
    pub lower: f64,
    /// `ln((1 - beta) / alpha)`.
    pub upper: f64,
}

impl SprtStatus {
    fn new(llr: f64, config: &SprtConfig) -> SprtStatus {
        let (lower, upper) = bounds(config.alpha, config.beta);
        SprtStatus { llr, lower, upper }
    }

    /// Which bound, if any, the LLR has crossed.
    #[must_use]
    pub fn decision(&self) -> Decision {
        if self.llr >= self.upper {
            Decision::AcceptH1
        } else if self.llr <= self.lower {
            Decision::AcceptH0
        } else {
            Decision::Continue
        }
    }

    /// How far the LLR has gone towards the bound it is heading for, in percent.
    #[must_use]
    pub fn progress(&self) -> f64 {
        let bound = if self.llr >= 0.0 {
            self.upper
        } else {
            self.lower
        };
        100.0 * self.llr / bound
    }
}

impl fmt::Display for SprtStatus {
    /// cutechess's form: `llr 1.23 (41.8%), lbound -2.94, ubound 2.94`, followed by
    /// ` - H0 was accepted` or ` - H1 was accepted` once a bound is crossed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "llr {} ({:.1}%), lbound {}, ubound {}",
            significant3(self.llr),
            self.progress(),
            significant3(self.lower),
            significant3(self.upper)
        )?;
        match self.decision() {
            Decision::Continue => Ok(()),
            Decision::AcceptH0 => f.write_str(" - H0 was accepted"),
            Decision::AcceptH1 => f.write_str(" - H1 was accepted"),
        }
    }
}

/// `x` to three significant digits without trailing zeros, as C's `%.3g` prints
/// numbers below 1000.
fn significant3(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let decimals = (2 - x.abs().log10().floor() as i32).max(0) as usize;
    let text = format!("{x:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// The stopping bounds `(ln(beta/(1-alpha)), ln((1-beta)/alpha))`.
#[must_use]
pub fn bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// The binomial SPRT over single games won and lost.
#[must_use]
pub fn binomial(config: &SprtConfig, score: Score) -> SprtStatus {
    let p0 = score_from_elo(config.elo0);
    let p1 = score_from_elo(config.elo1);
    let llr =
        score.wins as f64 * (p1 / p0).ln() + score.losses as f64 * ((1.0 - p1) / (1.0 - p0)).ln();
    SprtStatus::new(llr, config)
}

/// The trinomial GSPRT over colour-swapped pairs.
#[must_use]
pub fn pairs(config: &SprtConfig, counts: PairCounts) -> SprtStatus {
    let n = counts.pairs() as f64;
    if n == 0.0 {
        return SprtStatus::new(0.0, config);
    }
    let observed = regularise([counts.losses, counts.splits, counts.wins]);
    let fit0 = constrained_fit(observed, score_from_elo(config.elo0));
    let fit1 = constrained_fit(observed, score_from_elo(config.elo1));
    let llr = n
        * (0..3)
            .map(|i| observed[i] * (fit1[i] / fit0[i]).ln())
            .sum::<f64>();
    SprtStatus::new(llr, config)
}

/// Pair scores: both lost, split, both won.
const PAIR_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// Observed frequencies, with an outcome never seen given a tiny weight so the fitted
/// distributions exist (the maximum-likelihood fit with a mean constraint needs both
/// extreme outcomes to be possible). Its effect on the LLR is of that order.
fn regularise(counts: [u64; 3]) -> [f64; 3] {
    const UNSEEN: f64 = 1e-3;
    let weights = counts.map(|c| if c == 0 { UNSEEN } else { c as f64 });
    let total: f64 = weights.iter().sum();
    weights.map(|w| w / total)
}

/// The distribution over pair outcomes nearest to `observed` (maximum likelihood) whose
/// mean score is `mean`: `p_i = q_i / (1 + lambda (a_i - mean))`, with `lambda` the root
/// of `sum q_i (a_i - mean) / (1 + lambda (a_i - mean)) = 0`, found by bisection on the
/// interval where every `p_i` is positive (the sum falls monotonically over it).
fn constrained_fit(observed: [f64; 3], mean: f64) -> [f64; 3] {
    let gap = |lambda: f64| {
        (0..3)
            .map(|i| {
                let d = PAIR_SCORES[i] - mean;
                observed[i] * d / (1.0 + lambda * d)
            })
            .sum::<f64>()
    };
    // 1 + lambda (a - mean) > 0 for a = 0 and a = 1.
    let (mut lo, mut hi) = (-1.0 / (1.0 - mean), 1.0 / mean);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if gap(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = 0.5 * (lo + hi);
    let fit = (0..3).map(|i| observed[i] / (1.0 + lambda * (PAIR_SCORES[i] - mean)));
    let fit: Vec<f64> = fit.collect();
    let total: f64 = fit.iter().sum();
    [fit[0] / total, fit[1] / total, fit[2] / total]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_with_three_significant_digits() {
        assert_eq!(significant3(2.944_438_979), "2.94");
        assert_eq!(significant3(-2.944_438_979), "-2.94");
        assert_eq!(significant3(0.012_345), "0.0123");
        assert_eq!(significant3(12.5), "12.5");
        assert_eq!(significant3(2.9), "2.9");
        assert_eq!(significant3(123.4), "123");
    }

    #[test]
    fn the_fit_keeps_the_observed_distribution_when_its_mean_fits() {
        let q = [0.2, 0.5, 0.3];
        let fit = constrained_fit(q, 0.55);
        for i in 0..3 {
            assert!((fit[i] - q[i]).abs() < 1e-12);
        }
    }

    #[test]
    fn the_fit_has_the_mean_asked_for() {
        let fit = constrained_fit([0.1, 0.3, 0.6], 0.5);
        let mean: f64 = (0..3).map(|i| fit[i] * PAIR_SCORES[i]).sum();
        assert!((mean - 0.5).abs() < 1e-12);
    }
}
