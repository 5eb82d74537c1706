//! The files of solver-labelled positions, one position a line:
//!
//! ```text
//! 6x6 diagonal straight | <position text> | win | <winning moves> | <losing moves>
//! 6x6 diagonal straight | <position text> | loss
//! ```
//!
//! The verdict is the solver's, for the side to move. Accuracy sets list every move of
//! a won position as winning (keeps the win) or losing; tuning sets may leave the moves
//! out. Blank lines and lines starting with `#` are comments.

use std::fs;
use std::path::Path;

use konane::rules::{AnyPosition, Variant};

/// One labelled position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Labelled {
    /// The rules it is played under.
    pub variant: Variant,
    /// The position text (board and side to move).
    pub position: String,
    /// Whether the side to move wins with perfect play.
    pub wins: bool,
    /// The moves that keep the win (empty when not listed, or lost).
    pub winning: Vec<String>,
    /// The moves that throw it away (empty when not listed).
    pub losing: Vec<String>,
}

impl Labelled {
    /// The line that [`parse`](Self::parse) reads back.
    pub fn to_line(&self) -> String {
        let v = self.variant;
        let verdict = if self.wins { "win" } else { "loss" };
        let mut line = format!(
            "{} {} {} | {} | {verdict}",
            v.size, v.opening, v.multi_jump, self.position
        );
        if !self.winning.is_empty() || !self.losing.is_empty() {
            line.push_str(&format!(
                " | {} | {}",
                self.winning.join(" "),
                self.losing.join(" ")
            ));
        }
        line
    }

    /// Reads one line; `Ok(None)` for a comment or blank line.
    pub fn parse(line: &str) -> Result<Option<Labelled>, String> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(None);
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        if fields.len() != 3 && fields.len() != 5 {
            return Err(format!("expected 3 or 5 fields separated by '|': {line}"));
        }
        let rules: Vec<&str> = fields[0].split_whitespace().collect();
        let [size, opening, multi_jump] = rules[..] else {
            return Err(format!(
                "expected 'WxH opening multi-jump', got '{}'",
                fields[0]
            ));
        };
        let variant = Variant {
            size: size.parse().map_err(|e| format!("{e}"))?,
            opening: opening.parse().map_err(|e| format!("{e}"))?,
            multi_jump: multi_jump.parse().map_err(|e| format!("{e}"))?,
        };
        let wins = match fields[2] {
            "win" => true,
            "loss" => false,
            other => return Err(format!("verdict must be 'win' or 'loss', not '{other}'")),
        };
        let moves = |i: usize| -> Vec<String> {
            fields
                .get(i)
                .map(|f| f.split_whitespace().map(String::from).collect())
                .unwrap_or_default()
        };
        let labelled = Labelled {
            variant,
            position: fields[1].to_string(),
            wins,
            winning: moves(3),
            losing: moves(4),
        };
        labelled.board()?;
        Ok(Some(labelled))
    }

    /// The position itself.
    pub fn board(&self) -> Result<AnyPosition, String> {
        let pos = AnyPosition::from_text(
            &self.position,
            self.variant.opening,
            self.variant.multi_jump,
        )
        .map_err(|e| format!("{e}: {}", self.position))?;
        if pos.variant() != self.variant {
            return Err(format!("board size does not match: {}", self.to_line()));
        }
        Ok(pos)
    }
}

/// Every labelled position of the file at `path`.
pub fn read(path: &Path) -> Result<Vec<Labelled>, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (number, line) in text.lines().enumerate() {
        match Labelled::parse(line) {
            Ok(Some(l)) => out.push(l),
            Ok(None) => {}
            Err(e) => return Err(format!("{}:{}: {e}", path.display(), number + 1)),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_reads_back_as_written() {
        let line = "6x6 diagonal straight | bwbwbw/w2bwb/bwb1bw/wb4/bwbwbw/wbwbwb w | win | c1c3 e1e3 | c1c5";
        let l = Labelled::parse(line).unwrap().unwrap();
        assert!(l.wins);
        assert_eq!(l.winning, ["c1c3", "e1e3"]);
        assert_eq!(l.losing, ["c1c5"]);
        assert_eq!(l.to_line(), line);
        let short = "6x6 diagonal turning | bwbwbw/w2bwb/bwb1bw/wb4/bwbwbw/wbwbwb w | loss";
        assert_eq!(Labelled::parse(short).unwrap().unwrap().to_line(), short);
        assert_eq!(Labelled::parse("  # a comment").unwrap(), None);
    }

    fn accuracy_set(name: &str) -> Vec<Labelled> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/accuracy");
        read(&dir.join(name)).unwrap()
    }

    #[test]
    fn accuracy_sets_hold_won_positions_with_every_move_labelled() {
        for (name, least) in [
            ("6x6.txt", 500),
            ("6x7.txt", 300),
            ("7x7.txt", 300),
            ("6x6-turning.txt", 100),
        ] {
            let set = accuracy_set(name);
            assert!(set.len() >= least, "{name}: {} positions", set.len());
            let mut seen = std::collections::HashSet::new();
            for l in &set {
                let pos = l.board().unwrap();
                assert!(seen.insert(pos.hash()), "{name}: twice: {}", l.position);
                assert!(
                    l.wins && !l.winning.is_empty() && !l.losing.is_empty(),
                    "{name}: {}",
                    l.position
                );
                let mut labelled: Vec<String> =
                    l.winning.iter().chain(&l.losing).cloned().collect();
                let mut legal = pos.legal_move_texts();
                labelled.sort();
                legal.sort();
                assert_eq!(labelled, legal, "{name}: {}", l.position);
            }
        }
    }

    /// `cargo test --release --example tune -- --ignored`: the solver agrees with the
    /// labels of the first positions of each set.
    #[test]
    #[ignore = "solves positions: seconds in release, minutes in debug"]
    fn accuracy_labels_agree_with_the_solver() {
        use konane::search::solver::{SolveLimits, Solver};
        use std::sync::atomic::AtomicBool;
        let stop = AtomicBool::new(false);
        let mut solver = Solver::new(64);
        for name in ["6x6.txt", "6x7.txt", "7x7.txt", "6x6-turning.txt"] {
            for l in accuracy_set(name).iter().take(5) {
                for (moves, opponent_wins) in [(&l.winning, false), (&l.losing, true)] {
                    for m in moves {
                        let mut child = l.board().unwrap();
                        child.play_text(m).unwrap();
                        let line = solver.solve_any(&child, &SolveLimits::new(&stop), &mut |_| {});
                        assert_eq!(line.unwrap().side_to_move_wins, opponent_wins, "{name} {m}");
                    }
                }
            }
        }
    }

    #[test]
    fn bad_lines_are_refused() {
        for bad in [
            "6x6 diagonal straight | bwbwbw/w2bwb/bwb1bw/wb4/bwbwbw/wbwbwb w | draw",
            "6x6 diagonal | bwbwbw/w2bwb/bwb1bw/wb4/bwbwbw/wbwbwb w | win",
            "6x6 diagonal straight | bwbwbw/w2bwb w | win",
            "7x7 diagonal straight | bwbwbw/w2bwb/bwb1bw/wb4/bwbwbw/wbwbwb w | win",
            "6x6 diagonal straight | bwbwbw/w2bwb/bwb1bw/wb4/bwbwbw/wbwbwb w | win | a1",
        ] {
            assert!(Labelled::parse(bad).is_err(), "{bad}");
        }
    }
}
