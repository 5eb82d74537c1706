//! Marking each legal move of a position as winning or losing with the engine's exact
//! solver: for every move, `go solve` on the position after it; the opponent's proven
//! loss makes the move a win, its proven win makes the move a loss.

use serde::Serialize;
use serde_json::{Value, json};

use super::board::{self, MoveInfo};
use super::live::GoLine;
use crate::client::{self, EngineLine, Score};
use crate::rules::AnyPosition;

/// The solver is offered on positions with at most this many stones (every board of
/// up to 36 squares is solved in seconds; see `docs/solved.md`).
pub const MAX_STONES: usize = 36;

/// How long one move's proof may take.
const MOVE_BUDGET_MS: u64 = 30_000;

/// Whether the solve button is offered for `position`.
#[must_use]
pub fn can_solve(position: &AnyPosition) -> bool {
    let stones: usize = board::rows(position)
        .iter()
        .map(|r| r.chars().filter(|&c| c != '.').count())
        .sum();
    stones <= MAX_STONES && position.outcome().is_none()
}

/// What the solver found for one move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// The move.
    #[serde(rename = "move")]
    pub mv: MoveInfo,
    /// `win`, `loss`, `unknown` (no proof in time), or `pending`.
    pub verdict: &'static str,
    /// The proven line, starting with the move.
    pub line: Vec<String>,
}

/// A solve in progress.
pub struct SolveJob {
    ply: usize,
    verdicts: Vec<Verdict>,
    next: usize,
    serial: u64,
    proof: Option<(Score, Vec<String>)>,
    no_move: bool,
}

impl SolveJob {
    /// A solve of `position`, the position after `ply` moves of the game.
    #[must_use]
    pub fn new(ply: usize, position: &AnyPosition) -> SolveJob {
        SolveJob {
            ply,
            verdicts: board::legal_moves(position)
                .into_iter()
                .map(|mv| Verdict {
                    mv,
                    verdict: "pending",
                    line: Vec::new(),
                })
                .collect(),
            next: 0,
            serial: 0,
            proof: None,
            no_move: false,
        }
    }

    /// The game ply solved.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// The serial of the job now running.
    #[must_use]
    pub fn serial(&self) -> u64 {
        self.serial
    }

    /// The next move to prove, as (serial, move text, go), numbered `serial`.
    pub fn next_job(&mut self, serial: u64) -> Option<(u64, String, GoLine)> {
        let verdict = self.verdicts.get(self.next)?;
        self.serial = serial;
        self.proof = None;
        self.no_move = false;
        Some((
            serial,
            verdict.mv.text.clone(),
            GoLine::Text(format!("go solve movetime {MOVE_BUDGET_MS}")),
        ))
    }

    /// Reads a line of the running proof; at its `bestmove`, records the verdict and
    /// returns the progress for the page.
    pub fn on_line(&mut self, text: &str) -> Option<Value> {
        match client::parse_line(text) {
            EngineLine::Info(info) => {
                if info
                    .string
                    .as_deref()
                    .is_some_and(|s| s.contains("has no legal move"))
                {
                    self.no_move = true;
                }
                if let Some(score @ Score::Mate(_)) = info.score {
                    self.proof = Some((score, info.pv));
                }
                None
            }
            EngineLine::BestMove(_) => {
                let verdict = self.verdicts.get_mut(self.next)?;
                // The engine speaks for the opponent, who moves after our move.
                let (result, rest) = match (&self.proof, self.no_move) {
                    (_, true) => ("win", Vec::new()),
                    (Some((Score::Mate(n), pv)), _) if *n < 0 => ("win", pv.clone()),
                    (Some((Score::Mate(_), pv)), _) => ("loss", pv.clone()),
                    _ => ("unknown", Vec::new()),
                };
                verdict.verdict = result;
                verdict.line = std::iter::once(verdict.mv.text.clone())
                    .chain(rest)
                    .collect();
                self.next += 1;
                Some(self.progress())
            }
            _ => None,
        }
    }

    /// The verdicts so far.
    #[must_use]
    pub fn progress(&self) -> Value {
        json!({
            "ply": self.ply,
            "verdicts": self.verdicts,
            "done": self.next >= self.verdicts.len(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{BoardSize, Variant};

    #[test]
    fn the_opponents_proven_loss_makes_a_move_winning() {
        let six = AnyPosition::start(Variant {
            size: BoardSize::new(6, 6).unwrap(),
            ..Variant::default()
        });
        assert!(can_solve(&six));
        let mut job = SolveJob::new(0, &six);
        let moves = job.verdicts.len();
        assert!(moves > 1);
        let (serial, first, _) = job.next_job(7).unwrap();
        assert_eq!((serial, job.serial()), (7, 7));
        assert_eq!(job.on_line("info depth 9 score mate -4 pv c3 e4c4"), None);
        let progress = job.on_line("bestmove c3").unwrap();
        assert_eq!(progress["verdicts"][0]["verdict"], "win");
        assert_eq!(progress["verdicts"][0]["line"][0], first.as_str());
        assert_eq!(progress["verdicts"][0]["line"][1], "c3");
        job.next_job(8).unwrap();
        job.on_line("info depth 9 score mate 3 pv c3");
        let progress = job.on_line("bestmove c3").unwrap();
        assert_eq!(progress["verdicts"][1]["verdict"], "loss");
        job.next_job(9).unwrap();
        job.on_line("info string solve ended without a proof (out of time)");
        let progress = job.on_line("bestmove c3").unwrap();
        assert_eq!(progress["verdicts"][2]["verdict"], "unknown");
        assert_eq!(progress["done"], moves == 3);
    }

    #[test]
    fn large_boards_are_not_offered() {
        assert!(!can_solve(&AnyPosition::start(Variant::default())));
    }
}
