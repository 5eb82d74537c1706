//! Engine output the page shows: `info` lines read in full (the referee only needs
//! depth and score) and the `option` lines of the handshake.

use serde::Serialize;

/// The longest principal variation passed on to the page.
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

/// One `info` line.
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

/// Reads the words after `info`; unknown words are skipped, as UCI says.
#[must_use]
pub fn parse_info(line: &str) -> Option<SearchInfo> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let words: Vec<&str> = words.collect();
    let mut info = SearchInfo {
        multipv: 1,
        ..SearchInfo::default()
    };
    let number = |i: usize| words.get(i + 1).and_then(|w| w.parse::<u64>().ok());
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            "string" => {
                info.string = Some(words[i + 1..].join(" "));
                break;
            }
            "pv" => {
                info.pv = words[i + 1..]
                    .iter()
                    .take(MAX_PV)
                    .map(|w| (*w).to_string())
                    .collect();
                break;
            }
            "depth" => info.depth = number(i).and_then(|n| u32::try_from(n).ok()),
            "seldepth" => info.seldepth = number(i).and_then(|n| u32::try_from(n).ok()),
            "multipv" => info.multipv = number(i).and_then(|n| u32::try_from(n).ok()).unwrap_or(1),
            "nodes" => info.nodes = number(i),
            "nps" => info.nps = number(i),
            "time" => info.time = number(i),
            "score" => {
                let value = words.get(i + 2).and_then(|w| w.parse::<i64>().ok());
                info.score = match (words.get(i + 1), value) {
                    (Some(&"cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some(&"mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => info.score,
                };
            }
            _ => {}
        }
        i += 1;
    }
    Some(info)
}

/// An option the engine announced with `option name <name> type <type> ...`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EngineOption {
    /// The name, which may contain spaces (`Skill Level`).
    pub name: String,
    /// `spin`, `check`, `string`, `combo` or `button`.
    pub kind: String,
    /// `default`.
    pub default: Option<String>,
    /// `min` of a spin.
    pub min: Option<i64>,
    /// `max` of a spin.
    pub max: Option<i64>,
}

/// Reads an `option` line.
#[must_use]
pub fn parse_option(line: &str) -> Option<EngineOption> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"option") || words.get(1) != Some(&"name") {
        return None;
    }
    let type_at = words.iter().position(|w| *w == "type")?;
    let name = words.get(2..type_at)?.join(" ");
    if name.is_empty() {
        return None;
    }
    let value_after = |key: &str| {
        let at = words[type_at..].iter().position(|w| *w == key)? + type_at;
        words.get(at + 1).map(|w| (*w).to_string())
    };
    Some(EngineOption {
        name,
        kind: words.get(type_at + 1)?.to_string(),
        default: value_after("default"),
        min: value_after("min").and_then(|v| v.parse().ok()),
        max: value_after("max").and_then(|v| v.parse().ok()),
    })
}

/// How a person can turn an engine down, read from the options it announced.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StrengthControl {
    /// `Skill Level`, a spin from `min` (weakest) to `max` (full strength).
    Skill {
        /// Weakest level.
        min: i64,
        /// Full strength.
        max: i64,
    },
    /// `UCI_LimitStrength` with `UCI_Elo` from `min` to `max`.
    Elo {
        /// Lowest rating.
        min: i64,
        /// Highest rating.
        max: i64,
    },
}

impl StrengthControl {
    /// The control an engine offers, `Skill Level` first.
    #[must_use]
    pub fn of(options: &[EngineOption]) -> Option<StrengthControl> {
        let find = |name: &str| options.iter().find(|o| o.name.eq_ignore_ascii_case(name));
        if let Some(skill) = find("Skill Level")
            && let (Some(min), Some(max)) = (skill.min, skill.max)
            && min < max
        {
            return Some(StrengthControl::Skill { min, max });
        }
        let elo = find("UCI_Elo")?;
        find("UCI_LimitStrength")?;
        match (elo.min, elo.max) {
            (Some(min), Some(max)) if min < max => Some(StrengthControl::Elo { min, max }),
            _ => None,
        }
    }

    /// The `setoption` name/value pairs for `level`, clamped to the control's range.
    #[must_use]
    pub fn settings(&self, level: i64) -> Vec<(String, String)> {
        match *self {
            StrengthControl::Skill { min, max } => {
                vec![("Skill Level".into(), level.clamp(min, max).to_string())]
            }
            StrengthControl::Elo { min, max } => vec![
                ("UCI_LimitStrength".into(), "true".into()),
                ("UCI_Elo".into(), level.clamp(min, max).to_string()),
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_are_read_in_full() {
        let info = parse_info(
            "info depth 6 seldepth 7 multipv 2 score cp -35 nodes 1505 nps 9 time 3 hashfull 0 pv d7d5 f4d4",
        )
        .unwrap();
        assert_eq!(info.depth, Some(6));
        assert_eq!(info.seldepth, Some(7));
        assert_eq!(info.multipv, 2);
        assert_eq!(info.score, Some(Score::Cp(-35)));
        assert_eq!(info.nodes, Some(1505));
        assert_eq!(info.pv, vec!["d7d5", "f4d4"]);
        let mate = parse_info("info depth 9 score mate -4 pv a1").unwrap();
        assert_eq!(mate.score, Some(Score::Mate(-4)));
        let text = parse_info("info string black has no legal move").unwrap();
        assert_eq!(text.string.as_deref(), Some("black has no legal move"));
        assert_eq!(parse_info("bestmove a1"), None);
        let garbage = parse_info("info depth x score cp").unwrap();
        assert_eq!((garbage.depth, garbage.score), (None, None));
    }

    #[test]
    fn options_with_spaces_in_their_names_are_read() {
        let skill = parse_option("option name Skill Level type spin default 20 min 0 max 20");
        let skill = skill.unwrap();
        assert_eq!(skill.name, "Skill Level");
        assert_eq!((skill.min, skill.max), (Some(0), Some(20)));
        assert_eq!(parse_option("option name type spin"), None);
        assert_eq!(parse_option("id name x"), None);
    }

    #[test]
    fn strength_controls_come_from_announced_options() {
        let read = |lines: &[&str]| -> Vec<EngineOption> {
            lines.iter().filter_map(|l| parse_option(l)).collect()
        };
        assert_eq!(
            StrengthControl::of(&read(&[
                "option name Hash type spin default 16 min 1 max 9"
            ])),
            None
        );
        let skill = StrengthControl::of(&read(&[
            "option name Skill Level type spin default 20 min 0 max 20",
        ]))
        .unwrap();
        assert_eq!(
            skill.settings(25),
            vec![("Skill Level".to_string(), "20".to_string())]
        );
        let elo = StrengthControl::of(&read(&[
            "option name UCI_LimitStrength type check default false",
            "option name UCI_Elo type spin default 1500 min 800 max 2800",
        ]))
        .unwrap();
        assert_eq!(
            elo,
            StrengthControl::Elo {
                min: 800,
                max: 2800
            }
        );
        assert_eq!(elo.settings(100)[1].1, "800");
        let elo_alone = read(&["option name UCI_Elo type spin default 1500 min 800 max 2800"]);
        assert_eq!(StrengthControl::of(&elo_alone), None);
    }
}
