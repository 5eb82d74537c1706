//! Fitting the square-pattern weights (`src/search/patterns.rs`): logistic regression of
//! the solver's verdict on the count of each pattern for each kind of square (stones of
//! either side, empty squares of either colour), plus the jump and
//! movable-stone counts and the tempo, by full-batch gradient descent (Adam) with a
//! small L2 penalty on the pattern weights. Deterministic: the same files give the
//! same weights.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use konane::search::features::{Feature, features};
use konane::search::patterns::{CODES, KINDS, Kind, canonical, for_each_square};
use konane::with_position;

use crate::data::Labelled;

/// The linear terms beside the patterns, in the order of the engine's `LINEAR`.
const LINEAR: [Feature; 5] = [
    Feature::OwnJumps,
    Feature::TheirJumps,
    Feature::OwnMovable,
    Feature::TheirMovable,
    Feature::Tempo,
];

/// How the fit runs.
pub struct PatternFit {
    /// Penalty on the squared pattern weights.
    pub l2: f64,
    /// Gradient steps.
    pub epochs: usize,
    /// Evaluation units per logit in the written weights.
    pub scale: f64,
}

/// One position: the weight indices of its squares' patterns, its linear terms, its
/// verdict.
struct Sample {
    patterns: Vec<u32>,
    linear: [f64; 5],
    wins: f64,
}

/// Weight index of a pattern: the canonical code, in the block of the square's kind.
fn pattern_index(kind: Kind, code: usize) -> u32 {
    (kind as usize * CODES + canonical(code)) as u32
}

fn samples(set: &[Labelled]) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    for l in set {
        let pos = l.board()?;
        if pos.outcome().is_some() {
            continue;
        }
        let (patterns, all) = with_position!(pos, p => {
            let mut patterns = Vec::new();
            for_each_square(&p, |kind, code| patterns.push(pattern_index(kind, code)));
            (patterns, features(&p))
        });
        out.push(Sample {
            patterns,
            linear: LINEAR.map(|f| f64::from(all[f as usize])),
            wins: if l.wins { 1.0 } else { 0.0 },
        });
    }
    Ok(out)
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The weights: one per pattern index, then the linear terms.
struct Model {
    patterns: Vec<f64>,
    linear: [f64; 5],
}

impl Model {
    fn logit(&self, s: &Sample) -> f64 {
        let p: f64 = s.patterns.iter().map(|&i| self.patterns[i as usize]).sum();
        p + self
            .linear
            .iter()
            .zip(&s.linear)
            .map(|(w, x)| w * x)
            .sum::<f64>()
    }

    /// Mean log loss and the share of verdicts predicted right.
    fn loss(&self, set: &[Sample]) -> (f64, f64) {
        let mut total = 0.0;
        let mut right = 0usize;
        for s in set {
            let p = sigmoid(self.logit(s)).clamp(1e-12, 1.0 - 1e-12);
            total -= s.wins * p.ln() + (1.0 - s.wins) * (1.0 - p).ln();
            right += usize::from((p >= 0.5) == (s.wins >= 0.5));
        }
        let n = set.len().max(1) as f64;
        (total / n, right as f64 / n)
    }
}

/// Adam's state for one block of weights.
struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
}

impl Adam {
    const RATE: f64 = 0.02;

    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    fn step(&mut self, w: &mut [f64], grad: &[f64], t: i32) {
        for (i, (w, &g)) in w.iter_mut().zip(grad).enumerate() {
            self.m[i] = 0.9 * self.m[i] + 0.1 * g;
            self.v[i] = 0.999 * self.v[i] + 0.001 * g * g;
            let m = self.m[i] / (1.0 - 0.9f64.powi(t));
            let v = self.v[i] / (1.0 - 0.999f64.powi(t));
            *w -= Self::RATE * m / (v.sqrt() + 1e-8);
        }
    }
}

fn train(set: &[Sample], o: &PatternFit, report: &mut dyn FnMut(usize, &Model)) -> Model {
    let mut model = Model {
        patterns: vec![0.0; KINDS * CODES],
        linear: [0.0; 5],
    };
    let (mut adam_p, mut adam_l) = (Adam::new(KINDS * CODES), Adam::new(5));
    let n = set.len().max(1) as f64;
    for epoch in 1..=o.epochs {
        let mut grad_p: Vec<f64> = model.patterns.iter().map(|w| o.l2 * w).collect();
        let mut grad_l = [0.0; 5];
        for s in set {
            let g = (sigmoid(model.logit(s)) - s.wins) / n;
            for &i in &s.patterns {
                grad_p[i as usize] += g;
            }
            for (gl, x) in grad_l.iter_mut().zip(&s.linear) {
                *gl += g * x;
            }
        }
        adam_p.step(&mut model.patterns, &grad_p, epoch as i32);
        adam_l.step(&mut model.linear, &grad_l, epoch as i32);
        report(epoch, &model);
    }
    model
}

/// Fits the weights on `train`, reports the log loss on `check` as it goes, and
/// returns the text of `src/search/pattern_weights.rs`.
pub fn fit(
    train_set: &[Labelled],
    check_set: &[Labelled],
    o: &PatternFit,
    command: &str,
) -> Result<String, String> {
    let (tr, ch) = (samples(train_set)?, samples(check_set)?);
    eprintln!("{} training positions, {} held out", tr.len(), ch.len());
    let model = train(&tr, o, &mut |epoch, m| {
        if epoch % 100 == 0 || epoch == o.epochs {
            let (lt, _) = m.loss(&tr);
            let (lc, right) = m.loss(&ch);
            eprintln!(
                "epoch {epoch}: log loss training {lt:.4}, held out {lc:.4} ({:.1}% right)",
                100.0 * right
            );
        }
    });
    let units = |w: f64| (w * o.scale).round();
    let mut fitted = BTreeMap::new();
    for code in (0..CODES).filter(|&c| canonical(c) == c) {
        let weights =
            Kind::ALL.map(|kind| units(model.patterns[pattern_index(kind, code) as usize]) as i16);
        if weights.iter().any(|&w| w != 0) {
            fitted.insert(code, weights);
        }
    }
    let (lc, right) = model.loss(&ch);
    let mut text = String::new();
    let _ = writeln!(text, "// Written by `{command}`: do not edit.");
    let _ = writeln!(
        text,
        "// {} training positions; held out: {} positions, log loss {lc:.4}, {:.1}% right.",
        tr.len(),
        ch.len(),
        100.0 * right
    );
    let _ = writeln!(
        text,
        "\n/// Evaluation units per logit of the fit.\npub const SCALE: i32 = {};",
        o.scale
    );
    let linear: Vec<String> = model
        .linear
        .iter()
        .map(|&w| format!("{}", units(w)))
        .collect();
    let _ = writeln!(
        text,
        "/// Weights of own jumps, their jumps, own movable stones, their movable stones, and the\n/// move itself.\npub const LINEAR: [i32; 5] = [{}];",
        linear.join(", ")
    );
    let _ = writeln!(
        text,
        "/// Canonical pattern code, weights of a stone of the side to move, of the opponent,\n/// of an empty square of the side to move's colour, of the opponent's colour.\npub const FITTED: &[(u16, [i16; 4])] = &["
    );
    for (code, [a, b, c, d]) in fitted {
        let _ = writeln!(text, "    ({code}, [{a}, {b}, {c}, {d}]),");
    }
    text.push_str("];\n");
    Ok(text)
}
