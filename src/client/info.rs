//! `info` lines, read in full: what the referee keeps (depth and score) and what a GUI
//! shows (all of it) come from this one reader.

use std::fmt;

use serde::Serialize;

/// The longest principal variation kept from one line.
pub const MAX_PV: usize = 64;

/// A search score from the mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Score {
    /// Centi-stones.
    Cp(i64),
    /// Moves to a won (`> 0`) or lost (`< 0`) end.
    Mate(i64),
}

impl fmt::Display for Score {
    /// As the protocol spells it: `cp 35`, `mate -4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(n) => write!(f, "cp {n}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// One `info` line; a field is `None` when the line does not give it (or gives
/// something that is not a number).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SearchInfo {
    /// `depth`.
    pub depth: Option<u32>,
    /// `seldepth`.
    pub seldepth: Option<u32>,
    /// `multipv` (1 when absent).
    pub multipv: u32,
    /// `score cp` or `score mate`.
    pub score: Option<Score>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `nps`.
    pub nps: Option<u64>,
    /// `time` in milliseconds.
    pub time: Option<u64>,
    /// `pv`, at most [`MAX_PV`] moves.
    pub pv: Vec<String>,
    /// `string ...`: free text.
    pub string: Option<String>,
}

/// Reads the words after `info`; unknown words are skipped, as UCI says. `pv` and
/// `string` take the rest of the line.
pub(super) fn read_info<'a>(words: impl Iterator<Item = &'a str>) -> SearchInfo {
    let words: Vec<&str> = words.collect();
    let mut info = SearchInfo {
        multipv: 1,
        ..SearchInfo::default()
    };
    let number = |i: usize| words.get(i + 1).and_then(|w| w.parse::<u64>().ok());
    let small = |i: usize| number(i).and_then(|n| u32::try_from(n).ok());
    for (i, &word) in words.iter().enumerate() {
        match word {
            "string" => {
                info.string = Some(words[i + 1..].join(" "));
                break;
            }
            "pv" => {
                let moves = words[i + 1..].iter().take(MAX_PV);
                info.pv = moves.map(|w| (*w).to_string()).collect();
                break;
            }
            "depth" => info.depth = small(i),
            "seldepth" => info.seldepth = small(i),
            "multipv" => info.multipv = small(i).unwrap_or(1),
            "nodes" => info.nodes = number(i),
            "nps" => info.nps = number(i),
            "time" => info.time = number(i),
            "score" => info.score = read_score(&words[i + 1..]).or(info.score),
            _ => {}
        }
    }
    info
}

/// `cp <n>` or `mate <n>` at the start of `words`.
fn read_score(words: &[&str]) -> Option<Score> {
    let value = words.get(1)?.parse::<i64>().ok()?;
    match *words.first()? {
        "cp" => Some(Score::Cp(value)),
        "mate" => Some(Score::Mate(value)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(line: &str) -> SearchInfo {
        read_info(line.split_whitespace())
    }

    #[test]
    fn info_lines_are_read_in_full() {
        let info = info(
            "depth 6 seldepth 7 multipv 2 score cp -35 nodes 1505 nps 9 time 3 hashfull 0 pv d7d5 f4d4",
        );
        assert_eq!(info.depth, Some(6));
        assert_eq!(info.seldepth, Some(7));
        assert_eq!(info.multipv, 2);
        assert_eq!(info.score, Some(Score::Cp(-35)));
        assert_eq!(
            (info.nodes, info.nps, info.time),
            (Some(1505), Some(9), Some(3))
        );
        assert_eq!(info.pv, vec!["d7d5", "f4d4"]);
    }

    #[test]
    fn mate_scores_and_free_text_are_read() {
        assert_eq!(
            info("depth 9 score mate -4 pv a1").score,
            Some(Score::Mate(-4))
        );
        let text = info("string black has no legal move depth 3");
        assert_eq!(
            text.string.as_deref(),
            Some("black has no legal move depth 3")
        );
        assert_eq!(text.depth, None, "words after string are text");
    }

    #[test]
    fn what_is_not_a_number_is_left_out() {
        let garbage = info("depth x score cp");
        assert_eq!((garbage.depth, garbage.score), (None, None));
        assert_eq!(info("depth 99999999999").depth, None, "beyond u32");
        assert_eq!(info("score cp 1e3").score, None);
        assert_eq!(info("score wdl 1 2 3").score, None);
        assert_eq!(info("multipv x").multipv, 1);
        let kept = info("score cp 12 score cp x");
        assert_eq!(
            kept.score,
            Some(Score::Cp(12)),
            "a bad score keeps the good one"
        );
    }

    #[test]
    fn long_lines_keep_the_first_moves_of_the_pv() {
        let line = format!("pv {}", vec!["a1"; MAX_PV + 10].join(" "));
        assert_eq!(info(&line).pv.len(), MAX_PV);
    }

    #[test]
    fn scores_are_written_as_the_protocol_spells_them() {
        assert_eq!(Score::Cp(-35).to_string(), "cp -35");
        assert_eq!(Score::Mate(4).to_string(), "mate 4");
    }
}
