//! The engine's options: what `ugi`/`uci` announces and `setoption` changes.

use thiserror::Error;

use crate::rules::{BoardSize, MultiJump, Opening, Variant};
use crate::search::Skill;
use crate::search::skill::{MAX_ELO, MAX_LEVEL, MIN_ELO, level_for_elo};

/// What an option is and how it is read and written: the type and range UCI announces,
/// and the field of [`Options`] it stands for.
#[derive(Clone, Copy)]
enum Kind {
    /// A whole number within `min..=max`.
    Spin {
        min: i64,
        max: i64,
        get: fn(&Options) -> u64,
        set: fn(&mut Options, u64),
    },
    /// `true` or `false`.
    Check {
        get: fn(&Options) -> bool,
        set: fn(&mut Options, bool),
    },
    /// One of `values` (in any case, and such aliases as the parser takes).
    Combo {
        values: &'static [&'static str],
        get: fn(&Options) -> String,
        set: fn(&mut Options, &str) -> Result<(), String>,
    },
    /// Text the option parses itself.
    Text {
        get: fn(&Options) -> String,
        set: fn(&mut Options, &str) -> Result<(), String>,
    },
    /// An action without a value.
    Button,
}

/// One option: everything about it in one place.
struct Spec {
    /// Its name as announced (matched without regard to case or spaces).
    name: &'static str,
    kind: Kind,
    /// Its value at start-up, as text (none for a button).
    default: &'static str,
    /// What the session does when it is set.
    effect: Change,
}

/// Largest transposition table, in MB.
pub const MAX_HASH_MB: i64 = 65_536;
/// Most search threads.
pub const MAX_THREADS: i64 = 64;
/// Longest option value considered: none of the values accepted comes near it, and a
/// longer one is refused without being quoted in full.
const MAX_VALUE: usize = 40;

/// Parses `value` into `slot`, or says why it cannot (the slot is then unchanged).
fn parse_into<T: std::str::FromStr>(slot: &mut T, value: &str) -> Result<(), String>
where
    T::Err: std::fmt::Display,
{
    *slot = value.parse().map_err(|e: T::Err| e.to_string())?;
    Ok(())
}

/// Every option, in the order announced. Adding an option is adding an entry here (and
/// its field to [`Options`]).
const SPECS: [Spec; 14] = [
    Spec {
        name: "Hash",
        kind: Kind::Spin {
            min: 1,
            max: MAX_HASH_MB,
            get: |o| o.hash_mb as u64,
            set: |o, n| o.hash_mb = n as usize,
        },
        default: "16",
        effect: Change::Hash,
    },
    Spec {
        name: "SolverHash",
        kind: Kind::Spin {
            min: 1,
            max: MAX_HASH_MB,
            get: |o| o.solver_hash_mb as u64,
            set: |o, n| o.solver_hash_mb = n as usize,
        },
        default: "64",
        effect: Change::SolverHash,
    },
    Spec {
        name: "Clear Hash",
        kind: Kind::Button,
        default: "",
        effect: Change::ClearHash,
    },
    Spec {
        name: "Threads",
        kind: Kind::Spin {
            min: 1,
            max: MAX_THREADS,
            get: |o| o.threads as u64,
            set: |o, n| o.threads = n as usize,
        },
        default: "1",
        effect: Change::Threads,
    },
    Spec {
        name: "MoveOverhead",
        kind: Kind::Spin {
            min: 0,
            max: 5000,
            get: |o| o.move_overhead_ms,
            set: |o, n| o.move_overhead_ms = n,
        },
        default: "10",
        effect: Change::Other,
    },
    Spec {
        name: "Ponder",
        kind: Kind::Check {
            get: |o| o.ponder,
            set: |o, on| o.ponder = on,
        },
        default: "false",
        effect: Change::Other,
    },
    Spec {
        name: "MultiPV",
        kind: Kind::Spin {
            min: 1,
            max: 256,
            get: |o| o.multipv as u64,
            set: |o, n| o.multipv = n as usize,
        },
        default: "1",
        effect: Change::Other,
    },
    Spec {
        name: "BoardSize",
        kind: Kind::Text {
            get: |o| o.board_size.to_string(),
            set: |o, v| parse_into(&mut o.board_size, v),
        },
        default: "8x8",
        effect: Change::Rules,
    },
    Spec {
        name: "Opening",
        kind: Kind::Combo {
            values: &["diagonal", "centre", "any"],
            get: |o| o.opening.to_string(),
            set: |o, v| parse_into(&mut o.opening, v),
        },
        default: "diagonal",
        effect: Change::Rules,
    },
    Spec {
        name: "MultiJump",
        kind: Kind::Combo {
            values: &["straight", "turning"],
            get: |o| o.multi_jump.to_string(),
            set: |o, v| parse_into(&mut o.multi_jump, v),
        },
        default: "straight",
        effect: Change::Rules,
    },
    Spec {
        name: "Skill Level",
        kind: Kind::Spin {
            min: 0,
            max: MAX_LEVEL as i64,
            get: |o| u64::from(o.skill_level),
            set: |o, n| o.skill_level = n as u32,
        },
        default: "20",
        effect: Change::Other,
    },
    Spec {
        name: "UCI_LimitStrength",
        kind: Kind::Check {
            get: |o| o.limit_strength,
            set: |o, on| o.limit_strength = on,
        },
        default: "false",
        effect: Change::Other,
    },
    Spec {
        name: "UCI_Elo",
        kind: Kind::Spin {
            min: MIN_ELO as i64,
            max: MAX_ELO as i64,
            get: |o| u64::from(o.elo),
            set: |o, n| o.elo = n as u32,
        },
        default: "443",
        effect: Change::Other,
    },
    Spec {
        name: "SkillSeed",
        kind: Kind::Spin {
            min: 0,
            max: u32::MAX as i64,
            get: |o| o.skill_seed,
            set: |o, n| o.skill_seed = n,
        },
        default: "0",
        effect: Change::Other,
    },
];

impl Spec {
    /// The `option name ...` line announcing it.
    fn announcement(&self) -> String {
        let (name, default) = (self.name, self.default);
        match self.kind {
            Kind::Spin { min, max, .. } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            Kind::Check { .. } => format!("option name {name} type check default {default}"),
            Kind::Combo { values, .. } => {
                let vars: String = values.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            Kind::Text { .. } => format!("option name {name} type string default {default}"),
            Kind::Button => format!("option name {name} type button"),
        }
    }

    /// Its current value in `options`, as text.
    fn current(&self, options: &Options) -> String {
        match self.kind {
            Kind::Spin { get, .. } => get(options).to_string(),
            Kind::Check { get, .. } => get(options).to_string(),
            Kind::Combo { get, .. } | Kind::Text { get, .. } => get(options),
            Kind::Button => String::new(),
        }
    }

    /// Sets it in `options` to `value` (already trimmed), or says what is wrong.
    fn assign(&self, options: &mut Options, value: &str) -> Result<(), String> {
        let quoted: String = value.chars().take(MAX_VALUE).collect();
        if value.chars().count() > MAX_VALUE {
            return Err(format!("'{quoted}...' is too long to be a value"));
        }
        match self.kind {
            Kind::Spin { min, max, set, .. } => {
                let n: i64 = value
                    .parse()
                    .ok()
                    .filter(|n| (min..=max).contains(n))
                    .ok_or_else(|| {
                        format!("'{quoted}' is not a whole number from {min} to {max}")
                    })?;
                // In range, so not negative.
                set(options, n.unsigned_abs());
                Ok(())
            }
            Kind::Check { set, .. } => {
                let on = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(format!("'{quoted}' is not true or false")),
                };
                set(options, on);
                Ok(())
            }
            Kind::Combo { set, .. } | Kind::Text { set, .. } => set(options, value),
            Kind::Button => Ok(()),
        }
    }
}

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
    /// Every option at the default of its entry in the table.
    fn default() -> Self {
        // Placeholders only: every field is set from the table just below.
        let mut options = Options {
            hash_mb: 0,
            solver_hash_mb: 0,
            threads: 0,
            move_overhead_ms: 0,
            ponder: false,
            multipv: 0,
            board_size: BoardSize::STANDARD,
            opening: Opening::Diagonal,
            multi_jump: MultiJump::Straight,
            skill_level: 0,
            limit_strength: false,
            elo: 0,
            skill_seed: 0,
        };
        for spec in &SPECS {
            let set = spec.assign(&mut options, spec.default);
            debug_assert!(set.is_ok(), "the default of {} is valid", spec.name);
        }
        options
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
        SPECS.iter().map(Spec::announcement).collect()
    }

    /// Sets option `name` (any case; spaces ignored, so `Move Overhead` works) to
    /// `value`, or says why not and keeps the old value.
    pub fn set(&mut self, name: &str, value: &str) -> Result<Change, OptionError> {
        let squash = |s: &str| s.replace(' ', "").to_ascii_lowercase();
        let spec = SPECS
            .iter()
            .find(|s| squash(s.name) == squash(name))
            .ok_or_else(|| OptionError::Unknown(name.chars().take(MAX_VALUE).collect()))?;
        let mut changed = self.clone();
        match spec.assign(&mut changed, value.trim()) {
            Ok(()) => {
                *self = changed;
                Ok(spec.effect)
            }
            Err(problem) => Err(OptionError::Value {
                name: spec.name,
                problem,
                current: spec.current(self),
            }),
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

    #[test]
    fn a_long_value_is_refused_and_quoted_short() {
        let mut o = Options::default();
        for name in ["BoardSize", "Opening", "Hash", "Ponder"] {
            let e = o.set(name, &"q".repeat(1 << 20)).unwrap_err().to_string();
            assert!(e.len() < 200, "{name}: {} bytes", e.len());
        }
        assert_eq!(o, Options::default());
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
    fn defaults_come_from_the_table_and_read_back() {
        let o = Options::default();
        for spec in &SPECS {
            assert_eq!(spec.current(&o), spec.default, "{}", spec.name);
        }
        assert_eq!(o.solver_hash_mb, crate::search::SOLVER_HASH_MB);
        assert_eq!(o.hash_mb, 16);
        assert_eq!(o.move_overhead_ms, 10);
    }
}
