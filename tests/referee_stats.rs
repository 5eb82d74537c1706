//! The referee's statistics for a game without draws, with numbers worked by hand.
//!
//! Notation: W wins, L losses, n = W + L, s = W / n.
//! - Elo difference: e(s) = -400 log10(1/s - 1).
//! - 95% margin: d = 1.959964 sqrt(s(1-s)/n); margin = (e(s+d) - e(s-d)) / 2.
//! - LOS = (1 + erf((W - L) / sqrt(2n))) / 2.
//! - SPRT: p = 1 / (1 + 10^(-elo/400)); LLR = W ln(p1/p0) + L ln((1-p1)/(1-p0));
//!   bounds ln(beta/(1-alpha)) and ln((1-beta)/alpha).

use konane::referee::sprt::{self, Decision};
use konane::referee::stats::{FirstPlayer, PairCounts, Score, score_from_elo};
use konane::referee::{SprtConfig, SprtModel};

fn close(actual: f64, expected: f64, tolerance: f64) {
    assert!(
        (actual - expected).abs() <= tolerance,
        "{actual} is not {expected} (+/- {tolerance})"
    );
}

fn sprt_config(elo0: f64, elo1: f64) -> SprtConfig {
    SprtConfig {
        elo0,
        elo1,
        alpha: 0.05,
        beta: 0.05,
        model: SprtModel::Both,
    }
}

#[test]
fn sixty_wins_in_a_hundred_games_is_seventy_elo() {
    // s = 0.6: e = -400 log10(1/0.6 - 1) = -400 log10(2/3) = 70.4365
    // d = 1.959964 sqrt(0.24/100) = 0.0960182
    // e(0.6960182) = 144.8357, e(0.5039818) = 2.7669: margin = 70.5712
    // LOS = (1 + erf(20 / sqrt(200))) / 2 = (1 + erf(1.4142136)) / 2 = 0.9772499
    let score = Score {
        wins: 60,
        losses: 40,
    };
    close(score.elo(), 70.436_503_6, 1e-6);
    close(score.elo_margin(), 70.571_179_9, 1e-6);
    close(score.los(), 0.977_249_868, 1e-8);
}

#[test]
fn an_even_score_is_zero_elo_and_even_odds() {
    let score = Score {
        wins: 50,
        losses: 50,
    };
    close(score.elo(), 0.0, 1e-12);
    close(score.los(), 0.5, 1e-12);
    // d = 1.959964 * 0.05 = 0.0979982; e(0.5979982) = 69.0, symmetric: margin = e(s+d)
    close(
        score.elo_margin(),
        -400.0 * (1.0 / 0.597_998_2 - 1.0f64).log10(),
        1e-4,
    );
}

#[test]
fn a_clean_sweep_has_infinite_elo() {
    let score = Score {
        wins: 10,
        losses: 0,
    };
    assert_eq!(score.elo(), f64::INFINITY);
    // LOS = (1 + erf(10 / sqrt(20))) / 2 = (1 + erf(2.2360680)) / 2 = 0.9992173
    close(score.los(), 0.999_217_3, 1e-7);
}

#[test]
fn first_player_win_rate_has_a_normal_margin() {
    // r = 0.55, margin = 1.959964 sqrt(0.55 * 0.45 / 100) = 0.0975070
    let first = FirstPlayer {
        wins: 55,
        games: 100,
    };
    close(first.rate(), 0.55, 1e-12);
    close(first.margin(), 0.097_507_0, 1e-7);
}

#[test]
fn sprt_bounds_for_five_percent_errors() {
    // ln(0.05 / 0.95) = -2.9444390, ln(0.95 / 0.05) = 2.9444390
    let (lower, upper) = sprt::bounds(0.05, 0.05);
    close(lower, -2.944_438_979, 1e-9);
    close(upper, 2.944_438_979, 1e-9);
}

#[test]
fn binomial_llr_of_sixty_wins_in_a_hundred() {
    // p0 = 0.5, p1 = 1 / (1 + 10^(-10/400)) = 0.5143872
    // LLR = 60 ln(0.5143872 / 0.5) + 40 ln(0.4856128 / 0.5)
    //     = 60 * 0.0283682 + 40 * (-0.0291965) = 0.5342309
    close(score_from_elo(10.0), 0.514_387_184, 1e-9);
    let status = sprt::binomial(
        &sprt_config(0.0, 10.0),
        Score {
            wins: 60,
            losses: 40,
        },
    );
    close(status.llr, 0.534_230_912, 1e-8);
    assert_eq!(status.decision(), Decision::Continue);
}

#[test]
fn pair_llr_of_ten_thirty_twenty() {
    // Pairs: 10 lost both, 30 split, 20 won both (scores 0, 1/2, 1).
    // Under each hypothesis the likelihood is maximised over trinomials with mean score
    // p(elo): with t = P(won both), P(split) = 2(m - t), P(lost both) = 1 - 2m + t,
    // maximise 10 ln(1-2m+t) + 30 ln(2(m-t)) + 20 ln t over t (done numerically by a
    // golden-section search, independently of the referee's code).
    // LLR = max at m = 0.5143872 minus max at m = 0.5: 0.5282932.
    let counts = PairCounts {
        losses: 10,
        splits: 30,
        wins: 20,
    };
    let status = sprt::pairs(&sprt_config(0.0, 10.0), counts);
    close(status.llr, 0.528_293_153, 1e-6);
    let counts = PairCounts {
        losses: 12,
        splits: 25,
        wins: 23,
    };
    let status = sprt::pairs(&sprt_config(-5.0, 5.0), counts);
    close(status.llr, 0.542_693_648, 1e-6);
}

#[test]
fn binomial_sprt_stops_after_104_straight_wins_with_no_draws() {
    // Each win adds ln(p1/p0) = 0.0283682; 2.9444390 / 0.0283682 = 103.8: game 104.
    let config = sprt_config(0.0, 10.0);
    let decision_after = |wins| sprt::binomial(&config, Score { wins, losses: 0 }).decision();
    assert_eq!(decision_after(103), Decision::Continue);
    assert_eq!(decision_after(104), Decision::AcceptH1);
    // Each loss adds ln(0.4856128/0.5) = -0.0291965; 2.9444390 / 0.0291965 = 100.8.
    let decision_after_losses =
        |losses| sprt::binomial(&config, Score { wins: 0, losses }).decision();
    assert_eq!(decision_after_losses(100), Decision::Continue);
    assert_eq!(decision_after_losses(101), Decision::AcceptH0);
}

/// A fixed pseudo-random sequence of game results, `true` with chance `p`.
fn results(seed: u64, p: f64) -> impl Iterator<Item = bool> {
    let mut state = seed;
    std::iter::repeat_with(move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 11) as f64 / (1u64 << 53) as f64) < p
    })
}

#[test]
fn both_sprts_end_on_real_sequences_without_draws() {
    let config = sprt_config(0.0, 20.0);
    for (seed, p) in [
        (1, 0.5),
        (2, 0.55),
        (3, 0.45),
        (4, 0.5287),
        (5, 0.9),
        (6, 0.1),
    ] {
        let mut score = Score::default();
        let mut pairs = PairCounts::default();
        let mut games = results(seed, p);
        let mut decided = (None, None);
        for _ in 0..200_000 {
            let a = games.next().unwrap_or(false);
            let b = games.next().unwrap_or(false);
            for won in [a, b] {
                if won {
                    score.wins += 1;
                } else {
                    score.losses += 1;
                }
            }
            pairs.add(u8::from(a) + u8::from(b));
            let binomial = sprt::binomial(&config, score).decision();
            let pair = sprt::pairs(&config, pairs).decision();
            if decided.0.is_none() && binomial != Decision::Continue {
                decided.0 = Some(binomial);
            }
            if decided.1.is_none() && pair != Decision::Continue {
                decided.1 = Some(pair);
            }
            if decided.0.is_some() && decided.1.is_some() {
                break;
            }
        }
        assert!(
            decided.0.is_some() && decided.1.is_some(),
            "p = {p}: {score:?} {pairs:?} never decided"
        );
        if p >= 0.9 {
            assert_eq!(
                decided,
                (Some(Decision::AcceptH1), Some(Decision::AcceptH1))
            );
        }
        if p <= 0.1 {
            assert_eq!(
                decided,
                (Some(Decision::AcceptH0), Some(Decision::AcceptH0))
            );
        }
    }
}

#[test]
fn pair_sprt_ends_when_every_pair_is_won() {
    let config = sprt_config(0.0, 10.0);
    let first_decision = (1..10_000u64).find(|&n| {
        let counts = PairCounts {
            losses: 0,
            splits: 0,
            wins: n,
        };
        sprt::pairs(&config, counts).decision() != Decision::Continue
    });
    let n = first_decision.expect("the pair SPRT decides on a clean sweep");
    let counts = PairCounts {
        losses: 0,
        splits: 0,
        wins: n,
    };
    assert_eq!(sprt::pairs(&config, counts).decision(), Decision::AcceptH1);
    assert!(n < 200, "took {n} pairs");
}
