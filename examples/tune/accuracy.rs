//! The accuracy benchmark: on won positions of a labelled set, how often the engine's
//! move keeps the win, at a given budget, against how often a random move would.

use std::time::Duration;

use konane::rules::Bitboard;
use konane::search::time::TimeControl;
use konane::search::{SearchControl, SearchParams, Searcher};
use konane::with_position;

use crate::data::Labelled;

/// A search budget, as `go` gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// `go nodes N`: the plain search (search and evaluation).
    Nodes(u64),
    /// `go movetime MS`: everything the engine does in play, the endgame solver too.
    MoveTime(u64),
    /// `go depth N`: the plain search to a fixed depth (repeatable, like `nodes`, and
    /// with the same tree whatever a node costs).
    Depth(u32),
}

impl Budget {
    /// Reads `nodes=N`, `movetime=MS` or `depth=N`.
    pub fn parse(text: &str) -> Result<Budget, String> {
        let malformed = || format!("budget '{text}' is not nodes=N, movetime=MS or depth=N");
        let (kind, value) = text.split_once('=').ok_or_else(malformed)?;
        let value: u64 = value
            .parse()
            .map_err(|_| format!("'{value}' is not a number"))?;
        match kind {
            "nodes" => Ok(Budget::Nodes(value.max(1))),
            "movetime" => Ok(Budget::MoveTime(value.max(1))),
            "depth" => Ok(Budget::Depth(value.clamp(1, 255) as u32)),
            _ => Err(malformed()),
        }
    }

    /// As `go` spells it.
    pub fn name(self) -> String {
        match self {
            Budget::Nodes(n) => format!("nodes {n}"),
            Budget::MoveTime(ms) => format!("movetime {ms}"),
            Budget::Depth(d) => format!("depth {d}"),
        }
    }
}

/// How one set fared at one budget.
#[derive(Clone, Copy, Debug, Default)]
pub struct Score {
    /// Positions where the engine's move keeps the win.
    pub kept: usize,
    /// Positions tried.
    pub positions: usize,
}

impl Score {
    /// The share kept, in percent, with its sample size.
    pub fn show(self) -> String {
        let share = 100.0 * self.kept as f64 / self.positions.max(1) as f64;
        format!("{share:.1}% ({}/{})", self.kept, self.positions)
    }
}

/// The share of moves that keep the win, averaged over `set`: what a random mover keeps.
pub fn random_share(set: &[Labelled]) -> f64 {
    let sum: f64 = set
        .iter()
        .map(|l| l.winning.len() as f64 / (l.winning.len() + l.losing.len()).max(1) as f64)
        .sum();
    100.0 * sum / set.len().max(1) as f64
}

/// How often the engine, searching each position of `set` from a fresh state with
/// `budget`, plays a move that keeps the win. Each miss is passed to `missed` with the
/// move played.
pub fn measure(
    set: &[Labelled],
    budget: Budget,
    hash_mb: usize,
    missed: &mut dyn FnMut(&Labelled, Option<&str>),
) -> Result<Score, String> {
    let mut searcher = Searcher::new(hash_mb);
    let mut score = Score::default();
    for labelled in set.iter().filter(|l| l.wins) {
        let pos = labelled.board()?;
        searcher.clear();
        let played = with_position!(pos, p => best_move(&mut searcher, &p, budget));
        score.positions += 1;
        if played
            .as_ref()
            .is_some_and(|m| labelled.winning.contains(m))
        {
            score.kept += 1;
        } else {
            missed(labelled, played.as_deref());
        }
    }
    Ok(score)
}

fn best_move<B: Bitboard>(
    searcher: &mut Searcher,
    pos: &konane::rules::Position<B>,
    budget: Budget,
) -> Option<String> {
    let mut params = SearchParams {
        multipv: 1,
        ..SearchParams::default()
    };
    match budget {
        Budget::Nodes(n) => params.nodes = Some(n),
        Budget::MoveTime(ms) => params.time = TimeControl::MoveTime(Duration::from_millis(ms)),
        Budget::Depth(d) => params.depth = Some(d),
    }
    let control = SearchControl::new(false);
    let result = searcher.search(pos, &params, &control, &mut |_| {});
    result.best.map(|m| pos.move_text(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_read_as_go_spells_them() {
        for text in ["nodes=1000", "movetime=100", "depth=12"] {
            let budget = Budget::parse(text).unwrap();
            assert_eq!(budget.name(), text.replace('=', " "));
        }
        assert_eq!(Budget::parse("depth=0"), Ok(Budget::Depth(1)));
        assert_eq!(Budget::parse("depth=99999"), Ok(Budget::Depth(255)));
        for bad in ["depth", "depth=ten", "ply=3", "=5"] {
            assert!(Budget::parse(bad).is_err(), "{bad}");
        }
    }
}
