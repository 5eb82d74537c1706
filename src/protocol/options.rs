//! The engine's options: what `ugi`/`uci` announces and `setoption` changes.

use thiserror::Error;

use crate::rules::{BoardSize, MultiJump, Opening, Variant};
use crate::search::Skill;
use crate::search::skill::{MAX_ELO, MAX_LEVEL, MIN_ELO, level_for_elo};

/// The type and range of an option, as UCI announces them.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Spin { min: i64, max: i64 },
    Check,
    Combo(&'static [&'static str]),
    Text,
    Button,
}

struct Spec {
    name: &'static str,
    kind: Kind,
    default: &'static str,
}

/// Largest transposition table, in MB.
pub const MAX_HASH_MB: i64 = 65_536;
/// Most search threads.
pub const MAX_THREADS: i64 = 64;

const SPECS: [Spec; 14] = [
    Spec {
        name: "Hash",
        kind: Kind::Spin {
            min: 1,
            max: MAX_HASH_MB,
        },
        default: "16",
    },
    Spec {
        name: "SolverHash",
        kind: Kind::Spin {
            min: 1,
            max: MAX_HASH_MB,
        },
        default: "64",
    },
    Spec {
        name: "Clear Hash",
        kind: Kind::Button,
        default: "",
    },
    Spec {
        name: "Threads",
        kind: Kind::Spin {
            min: 1,
            max: MAX_THREADS,
        },
        default: "1",
    },
    Spec {
        name: "MoveOverhead",
        kind: Kind::Spin { min: 0, max: 5000 },
        default: "30",
    },
    Spec {
        name: "Ponder",
        kind: Kind::Check,
        default: "false",
    },
    Spec {
        name: "MultiPV",
        kind: Kind::Spin { min: 1, max: 256 },
        default: "1",
    },
    Spec {
        name: "BoardSize",
        kind: Kind::Text,
        default: "8x8",
    },
    Spec {
        name: "Opening",
        kind: Kind::Combo(&["diagonal", "centre", "any"]),
        default: "diagonal",
    },
    Spec {
        name: "MultiJump",
        kind: Kind::Combo(&["straight", "turning"]),
        default: "straight",
    },
    Spec {
        name: "Skill Level",
        kind: Kind::Spin {
            min: 0,
            max: MAX_LEVEL as i64,
        },
        default: "20",
    },
    Spec {
        name: "UCI_LimitStrength",
        kind: Kind::Check,
        default: "false",
    },
    Spec {
        name: "UCI_Elo",
        kind: Kind::Spin {
            min: MIN_ELO as i64,
            max: MAX_ELO as i64,
        },
        default: "380",
    },
    Spec {
        name: "SkillSeed",
        kind: Kind::Spin {
            min: 0,
            max: u32::MAX as i64,
        },
        default: "0",
    },
];

/// An option that cannot be set as asked.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OptionError {
    /// No option has this name.
    #[error("no option named '{0}'")]
    Unknown(String),
    /// The value does not fit the option.
    #[error("option {name}: {problem}; the value stays {current}")]
    Value {
        /// The option.
        name: &'static str,
        /// What is wrong with the value.
        problem: String,
        /// The value kept.
        current: String,
    },
}

/// What a successful `setoption` changed, for the session to act on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// The table size.
    Hash,
    /// The solver's table size.
    SolverHash,
    /// The `Clear Hash` button.
    ClearHash,
    /// The number of threads.
    Threads,
    /// A rule (board size, opening, multi-jump): the position is reset.
    Rules,
    /// Anything read at `go` time.
    Other,
}

/// The values of all options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size, MB.
    pub hash_mb: usize,
    /// Exact solver's table size, MB.
    pub solver_hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Milliseconds kept back on every move.
    pub move_overhead_ms: u64,
    /// Whether the GUI may ponder (bestmove then names a ponder move).
    pub ponder: bool,
    /// Lines to report.
    pub multipv: usize,
    /// Board of `position startpos`.
    pub board_size: BoardSize,
    /// Opening rule.
    pub opening: Opening,
    /// Multi-jump rule.
    pub multi_jump: MultiJump,
    /// `Skill Level`: 0 to 20 (full strength).
    pub skill_level: u32,
    /// `UCI_LimitStrength`: play at `UCI_Elo` instead of `Skill Level`.
    pub limit_strength: bool,
    /// `UCI_Elo`.
    pub elo: u32,
    /// `SkillSeed`: 0 for a random choice, else the seed of a reproducible one.
    pub skill_seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 16,
            solver_hash_mb: crate::search::SOLVER_HASH_MB,
            threads: 1,
            move_overhead_ms: 30,
            ponder: false,
            multipv: 1,
            board_size: BoardSize::STANDARD,
            opening: Opening::Diagonal,
            multi_jump: MultiJump::Straight,
            skill_level: MAX_LEVEL,
            limit_strength: false,
            elo: MIN_ELO.unsigned_abs(),
            skill_seed: 0,
        }
    }
}

impl Options {
    /// The rules the options choose.
    #[must_use]
    pub fn variant(&self) -> Variant {
        Variant {
            size: self.board_size,
            opening: self.opening,
            multi_jump: self.multi_jump,
        }
    }

    /// How far below full strength to play: `UCI_Elo` when `UCI_LimitStrength` is on,
    /// else `Skill Level`.
    #[must_use]
    pub fn skill(&self) -> Option<Skill> {
        let level = if self.limit_strength {
            level_for_elo(self.elo.try_into().unwrap_or(i32::MAX))
        } else {
            self.skill_level
        };
        Skill::new(level, (self.skill_seed != 0).then_some(self.skill_seed))
    }

    /// The `option name ... type ...` lines, in UCI form.
    #[must_use]
    pub fn announce() -> Vec<String> {
        SPECS
            .iter()
            .map(|spec| match spec.kind {
                Kind::Spin { min, max } => format!(
                    "option name {} type spin default {} min {min} max {max}",
                    spec.name, spec.default
                ),
                Kind::Check => format!(
                    "option name {} type check default {}",
                    spec.name, spec.default
                ),
                Kind::Combo(values) => {
                    let vars: String = values.iter().map(|v| format!(" var {v}")).collect();
                    format!(
                        "option name {} type combo default {}{vars}",
                        spec.name, spec.default
                    )
                }
                Kind::Text => format!(
                    "option name {} type string default {}",
                    spec.name, spec.default
                ),
                Kind::Button => format!("option name {} type button", spec.name),
            })
            .collect()
    }

    /// The current value of an option, as text.
    fn current(&self, name: &str) -> String {
        match name {
            "Hash" => self.hash_mb.to_string(),
            "SolverHash" => self.solver_hash_mb.to_string(),
            "Threads" => self.threads.to_string(),
            "MoveOverhead" => self.move_overhead_ms.to_string(),
            "Ponder" => self.ponder.to_string(),
            "MultiPV" => self.multipv.to_string(),
            "BoardSize" => self.board_size.to_string(),
            "Opening" => self.opening.to_string(),
            "MultiJump" => self.multi_jump.to_string(),
            "Skill Level" => self.skill_level.to_string(),
            "UCI_LimitStrength" => self.limit_strength.to_string(),
            "UCI_Elo" => self.elo.to_string(),
            "SkillSeed" => self.skill_seed.to_string(),
            _ => String::new(),
        }
    }

    /// Sets option `name` (any case; spaces ignored, so `Move Overhead` works) to
    /// `value`, or says why not and keeps the old value.
    pub fn set(&mut self, name: &str, value: &str) -> Result<Change, OptionError> {
        let squash = |s: &str| s.replace(' ', "").to_ascii_lowercase();
        let spec = SPECS
            .iter()
            .find(|s| squash(s.name) == squash(name))
            .ok_or_else(|| OptionError::Unknown(name.chars().take(40).collect()))?;
        let bad = |problem: String| OptionError::Value {
            name: spec.name,
            problem,
            current: self.current(spec.name),
        };
        let value = value.trim();
        let shown: String = value.chars().take(40).collect();
        match spec.kind {
            Kind::Spin { min, max } => {
                let n: i64 = value
                    .parse()
                    .ok()
                    .filter(|n| (min..=max).contains(n))
                    .ok_or_else(|| {
                        bad(format!(
                            "'{shown}' is not a whole number from {min} to {max}"
                        ))
                    })?;
                Ok(self.set_number(spec.name, n))
            }
            Kind::Check => {
                let on = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(bad(format!("'{shown}' is not true or false"))),
                };
                match spec.name {
                    "Ponder" => self.ponder = on,
                    _ => self.limit_strength = on,
                }
                Ok(Change::Other)
            }
            Kind::Combo(_) | Kind::Text => {
                match spec.name {
                    "BoardSize" => {
                        self.board_size = value.parse().map_err(|e| bad(format!("{e}")))?
                    }
                    "Opening" => self.opening = value.parse().map_err(|e| bad(format!("{e}")))?,
                    _ => self.multi_jump = value.parse().map_err(|e| bad(format!("{e}")))?,
                }
                Ok(Change::Rules)
            }
            Kind::Button => Ok(Change::ClearHash),
        }
    }

    fn set_number(&mut self, name: &str, n: i64) -> Change {
        // The range was checked against the spec, so every value fits.
        let n = n.unsigned_abs();
        match name {
            "Hash" => {
                self.hash_mb = n as usize;
                Change::Hash
            }
            "SolverHash" => {
                self.solver_hash_mb = n as usize;
                Change::SolverHash
            }
            "Threads" => {
                self.threads = n as usize;
                Change::Threads
            }
            _ => {
                // Read at `go` time: nothing to do now.
                match name {
                    "MoveOverhead" => self.move_overhead_ms = n,
                    "Skill Level" => self.skill_level = n as u32,
                    "UCI_Elo" => self.elo = n as u32,
                    "SkillSeed" => self.skill_seed = n,
                    _ => self.multipv = n as usize,
                }
                Change::Other
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_announced_in_uci_form() {
        let lines = Options::announce();
        assert!(
            lines.contains(&"option name Hash type spin default 16 min 1 max 65536".to_string())
        );
        assert!(
            lines.contains(
                &"option name Opening type combo default diagonal var diagonal var centre var any"
                    .to_string()
            )
        );
        assert!(lines.contains(&"option name BoardSize type string default 8x8".to_string()));
    }

    #[test]
    fn announced_defaults_are_the_defaults() {
        let options = Options::default();
        for spec in SPECS.iter().filter(|s| !matches!(s.kind, Kind::Button)) {
            assert_eq!(options.current(spec.name), spec.default, "{}", spec.name);
        }
    }

    #[test]
    fn strength_options_choose_the_skill() {
        let mut o = Options::default();
        assert_eq!(o.skill(), None);
        assert_eq!(o.set("skill level", "3"), Ok(Change::Other));
        assert_eq!(o.skill().map(Skill::level), Some(3));
        assert_eq!(o.set("UCI_LimitStrength", "true"), Ok(Change::Other));
        assert_eq!(o.skill().map(Skill::level), Some(0));
        assert_eq!(o.set("UCI_Elo", &MAX_ELO.to_string()), Ok(Change::Other));
        assert_eq!(o.skill(), None);
        assert!(!o.ponder);
        assert_eq!(
            o.set("Skill Level", "21").unwrap_err().to_string(),
            "option Skill Level: '21' is not a whole number from 0 to 20; the value stays 3"
        );
        assert!(o.set("UCI_Elo", "99999").is_err());
        assert!(o.set("SkillSeed", "-1").is_err());
    }

    #[test]
    fn names_are_case_insensitive() {
        let mut o = Options::default();
        assert_eq!(o.set("hash", "64"), Ok(Change::Hash));
        assert_eq!(o.hash_mb, 64);
        assert_eq!(o.set("move overhead", "100"), Ok(Change::Other));
        assert_eq!(o.move_overhead_ms, 100);
        assert_eq!(o.set("MULTIJUMP", "Turning"), Ok(Change::Rules));
        assert_eq!(o.multi_jump, MultiJump::Turning);
    }

    #[test]
    fn bad_values_keep_the_old_one() {
        let mut o = Options::default();
        let e = o.set("BoardSize", "40x40").unwrap_err();
        assert_eq!(
            e.to_string(),
            "option BoardSize: board size '40x40' is not WxH with each side from 2 to 16; the value stays 8x8"
        );
        assert_eq!(
            o.set("Opening", "sideways").unwrap_err().to_string(),
            "option Opening: opening rule 'sideways' is not one of diagonal, centre, any; the value stays diagonal"
        );
        assert_eq!(
            o.set("Hash", "-5").unwrap_err().to_string(),
            "option Hash: '-5' is not a whole number from 1 to 65536; the value stays 16"
        );
        assert!(o.set("Ponder", "maybe").is_err());
        assert!(o.set("Hash", "99999999999999999999999").is_err());
        assert_eq!(
            o.set("Nonsense", "1").unwrap_err().to_string(),
            "no option named 'Nonsense'"
        );
        assert_eq!(o, Options::default());
    }
}
