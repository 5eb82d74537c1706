//! The `option` lines of an engine's handshake, and the strength control they offer
//! (`info` lines are read by [`client`](crate::client), for the referee and the page).

use serde::Serialize;

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
