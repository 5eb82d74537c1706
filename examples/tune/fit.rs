//! Fitting the evaluation's weights: logistic regression of the solver's verdict on the
//! evaluation features ("Texel tuning" with exact labels), by Newton's method with a
//! small ridge penalty, so that the fit is the unique optimum and repeatable.

use konane::search::features::{FEATURES, Feature, features};
use konane::with_position;

use crate::data::Labelled;

/// Feature vectors with the solver's verdict (1 for a win of the side to move).
pub struct Samples {
    /// The features of each position, as floats.
    pub x: Vec<[f64; FEATURES]>,
    /// 1.0 for a won position, 0.0 for a lost one.
    pub y: Vec<f64>,
}

impl Samples {
    /// The samples of `set`, leaving out positions that are already over.
    pub fn of(set: &[Labelled]) -> Result<Samples, String> {
        let mut samples = Samples {
            x: Vec::new(),
            y: Vec::new(),
        };
        for l in set {
            let pos = l.board()?;
            if pos.outcome().is_some() {
                continue;
            }
            let f = with_position!(pos, p => features(&p));
            samples.x.push(f.map(f64::from));
            samples.y.push(if l.wins { 1.0 } else { 0.0 });
        }
        Ok(samples)
    }
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn dot(w: &[f64; FEATURES], x: &[f64; FEATURES]) -> f64 {
    w.iter().zip(x).map(|(a, b)| a * b).sum()
}

/// Mean log loss and the share of verdicts predicted right, of weights `w` (in
/// logits) on `s`.
pub fn loss(w: &[f64; FEATURES], s: &Samples) -> (f64, f64) {
    let mut total = 0.0;
    let mut right = 0usize;
    for (x, &y) in s.x.iter().zip(&s.y) {
        let p = sigmoid(dot(w, x)).clamp(1e-12, 1.0 - 1e-12);
        total -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
        if (p >= 0.5) == (y >= 0.5) {
            right += 1;
        }
    }
    let n = s.y.len().max(1) as f64;
    (total / n, right as f64 / n)
}

/// The weights (in logits per unit of each feature) that minimise the mean log loss
/// on `s` plus `ridge` times the squared weights (the tempo weight is not penalised).
pub fn fit(s: &Samples, ridge: f64) -> [f64; FEATURES] {
    let mut w = [0.0; FEATURES];
    let n = s.y.len().max(1) as f64;
    for _ in 0..50 {
        let mut grad = [0.0; FEATURES];
        let mut hess = [[0.0; FEATURES]; FEATURES];
        for (x, &y) in s.x.iter().zip(&s.y) {
            let p = sigmoid(dot(&w, x));
            let weight = p * (1.0 - p);
            for i in 0..FEATURES {
                grad[i] += (p - y) * x[i] / n;
                for j in 0..FEATURES {
                    hess[i][j] += weight * x[i] * x[j] / n;
                }
            }
        }
        for i in 0..FEATURES {
            let penalty = if Feature::ALL[i] == Feature::Tempo {
                1e-9
            } else {
                ridge
            };
            grad[i] += 2.0 * penalty * w[i];
            hess[i][i] += 2.0 * penalty;
        }
        let step = solve(hess, grad);
        let mut largest: f64 = 0.0;
        for i in 0..FEATURES {
            w[i] -= step[i];
            largest = largest.max(step[i].abs());
        }
        if largest < 1e-9 {
            break;
        }
    }
    w
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting (`a` is positive
/// definite here, thanks to the ridge term).
fn solve(mut a: [[f64; FEATURES]; FEATURES], mut b: [f64; FEATURES]) -> [f64; FEATURES] {
    for col in 0..FEATURES {
        let pivot = (col..FEATURES)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..FEATURES {
            let factor = a[row][col] / a[col][col];
            let pivot_row = a[col];
            for (value, above) in a[row].iter_mut().zip(pivot_row).skip(col) {
                *value -= factor * above;
            }
            b[row] -= factor * b[col];
        }
    }
    let mut x = [0.0; FEATURES];
    for row in (0..FEATURES).rev() {
        let rest: f64 = (row + 1..FEATURES).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newton_finds_the_separating_direction() {
        // Wins exactly when the first feature exceeds the second: the fitted weights
        // must point that way.
        let mut s = Samples {
            x: Vec::new(),
            y: Vec::new(),
        };
        for a in 0..8 {
            for b in 0..8 {
                let mut x = [0.0; FEATURES];
                x[0] = f64::from(a);
                x[1] = f64::from(b);
                x[FEATURES - 1] = 1.0;
                s.x.push(x);
                s.y.push(if a + (a * b) % 3 > b { 1.0 } else { 0.0 });
            }
        }
        let w = fit(&s, 1e-3);
        assert!(w[0] > 0.0 && w[1] < 0.0, "{w:?}");
        assert!(loss(&w, &s).0 < loss(&[0.0; FEATURES], &s).0);
    }
}
