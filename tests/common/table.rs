//! The perft table `tests/data/perft.txt` (its header documents the format).

use konane::rules::{AnyPosition, MultiJump, Opening};

use super::naive::{self, Board, Rules};

/// The table, read at compile time so the tests need no working directory.
pub const PERFT_TABLE: &str = include_str!("../data/perft.txt");

/// One line of the table.
#[derive(Clone, Debug)]
pub struct PerftCase {
    /// Line number in `perft.txt`, for messages.
    pub line: usize,
    /// The position as written (`startpos 8x8` or position text).
    pub position: String,
    pub rules: Rules,
    pub depth: usize,
    pub nodes: u64,
    /// Too slow for every `cargo test`: checked by the `#[ignore]`d tests.
    pub deep: bool,
}

impl PerftCase {
    /// The naive generator's board for the position.
    pub fn naive_board(&self) -> Board {
        match self.position.strip_prefix("startpos ") {
            Some(size) => {
                let (w, h) = parse_size(size).expect("checked when the table was read");
                Board::start(w, h)
            }
            None => Board::from_text(&self.position)
                .unwrap_or_else(|e| panic!("perft.txt line {}: {e}", self.line)),
        }
    }

    /// The engine's position.
    pub fn engine_position(&self) -> AnyPosition {
        match self.position.strip_prefix("startpos ") {
            Some(size) => {
                let (w, h) = parse_size(size).expect("checked when the table was read");
                super::engine_start(w, h, self.rules)
            }
            None => super::engine_from_text(&self.position, self.rules)
                .unwrap_or_else(|e| panic!("perft.txt line {}: {e}", self.line)),
        }
    }

    /// The naive count.
    pub fn naive_count(&self) -> u64 {
        naive::perft(&self.naive_board(), self.rules, self.depth)
    }

    /// The line in words, for failure messages.
    pub fn describe(&self) -> String {
        format!(
            "perft.txt line {}: position '{}', opening {}, multi-jump {}, depth {}, expected {}",
            self.line,
            self.position,
            self.rules.opening,
            self.rules.multi_jump,
            self.depth,
            self.nodes
        )
    }
}

fn parse_size(text: &str) -> Option<(usize, usize)> {
    let (w, h) = text.split_once('x')?;
    Some((w.parse().ok()?, h.parse().ok()?))
}

/// Every case of the table; panics with the line number on a malformed line.
pub fn perft_cases() -> Vec<PerftCase> {
    let mut cases = Vec::new();
    for (i, raw) in PERFT_TABLE.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let bad = |what: &str| -> ! { panic!("perft.txt line {line}: {what}: '{raw}'") };
        let fields: Vec<&str> = content.split('|').map(str::trim).collect();
        if fields.len() != 5 && fields.len() != 6 {
            bad("expected 5 or 6 fields separated by '|'");
        }
        let position = fields[0].to_string();
        if let Some(size) = position.strip_prefix("startpos ")
            && parse_size(size).is_none()
        {
            bad("startpos needs a size WxH");
        }
        let opening: Opening = fields[1].parse().unwrap_or_else(|_| bad("opening rule"));
        let multi_jump: MultiJump = fields[2].parse().unwrap_or_else(|_| bad("multi-jump rule"));
        let depth: usize = fields[3].parse().unwrap_or_else(|_| bad("depth"));
        let nodes: u64 = fields[4].parse().unwrap_or_else(|_| bad("node count"));
        let deep = match fields.get(5) {
            None => false,
            Some(&"deep") => true,
            Some(_) => bad("the sixth field can only be 'deep'"),
        };
        cases.push(PerftCase {
            line,
            position,
            rules: Rules {
                opening,
                multi_jump,
            },
            depth,
            nodes,
            deep,
        });
    }
    cases
}
