//! One engine as the referee's command line gives it (`-engine key=value...`, with
//! `-each` for keys shared by all): the program, its options, its protocol and its
//! limits. A GUI takes engines the same way.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use thiserror::Error;

use super::process::ProcessSpec;
use super::time::{MAX_SECONDS, TimeControl, parse_seconds};
use crate::dialect::Dialect;

/// How long an engine may think about one move, as given on its command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// `tc=`: a clock for the whole game.
    pub tc: Option<TimeControl>,
    /// `st=`: a fixed time per move.
    pub move_time: Option<Duration>,
    /// `depth=`.
    pub depth: Option<u32>,
    /// `nodes=`.
    pub nodes: Option<u64>,
    /// `timemargin=`: how late a `bestmove` may come before it loses on time.
    pub margin: Duration,
}

impl fmt::Display for Limits {
    /// The limits as command-line keys: `tc=10+0.1 depth=5 timemargin=50`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            parts.push(format!("tc={tc}"));
        }
        if let Some(t) = self.move_time {
            parts.push(format!("st={}", t.as_secs_f64()));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if !self.margin.is_zero() {
            parts.push(format!("timemargin={}", self.margin.as_millis()));
        }
        f.write_str(&parts.join(" "))
    }
}

/// One engine of the tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// `name=`, or `None` to use the engine's `id name`.
    pub name: Option<String>,
    /// `cmd=`, `arg=` and `dir=`.
    pub process: ProcessSpec,
    /// `option.<Name>=<value>`, in the order given.
    pub options: Vec<(String, String)>,
    /// The time, depth and node limits.
    pub limits: Limits,
    /// `proto=ugi|uci`, or `None` to try `ugi` and then `uci`.
    pub dialect: Option<Dialect>,
}

/// Engine keys that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecError {
    /// A value that cannot be read, or a token that is not `key=value`.
    #[error("option {key}: {reason}")]
    BadValue {
        /// The key (or the token).
        key: String,
        /// What is wrong.
        reason: String,
    },
    /// Something missing or contradictory.
    #[error("{0}")]
    Invalid(String),
}

fn bad(key: &str, reason: impl ToString) -> SpecError {
    SpecError::BadValue {
        key: key.to_string(),
        reason: reason.to_string(),
    }
}

/// Engine keys as given, before `-each` and the engine's own keys are combined.
#[derive(Clone, Debug, Default)]
pub struct EngineKeys {
    cmd: Option<String>,
    name: Option<String>,
    args: Vec<String>,
    dir: Option<PathBuf>,
    options: Vec<(String, String)>,
    dialect: Option<Dialect>,
    tc: Option<TimeControl>,
    move_time: Option<Duration>,
    depth: Option<u32>,
    nodes: Option<u64>,
    margin: Option<Duration>,
}

impl EngineKeys {
    /// Reads the tokens of one `-engine` or `-each`: `cmd=./engine`, `tc=10+0.1`...
    pub fn parse(tokens: &[&str]) -> Result<EngineKeys, SpecError> {
        let mut keys = EngineKeys::default();
        for t in tokens {
            keys.set(t)?;
        }
        Ok(keys)
    }

    /// Reads one `key=value` token.
    fn set(&mut self, token: &str) -> Result<(), SpecError> {
        let Some((key, value)) = token.split_once('=') else {
            return Err(bad(token, "engine settings are key=value"));
        };
        match key {
            "cmd" => self.cmd = Some(value.to_string()),
            "name" => self.name = Some(value.to_string()),
            "arg" => self.args.push(value.to_string()),
            "dir" => self.dir = Some(PathBuf::from(value)),
            "proto" => {
                let dialect = Dialect::from_hello(value);
                self.dialect = Some(dialect.ok_or_else(|| bad(key, "proto is ugi or uci"))?);
            }
            "tc" => self.tc = Some(value.parse().map_err(|e| bad(key, e))?),
            "st" => self.move_time = Some(parse_seconds(value).map_err(|e| bad(key, e))?),
            "depth" => self.depth = Some(number(key, value)?),
            "nodes" => self.nodes = Some(number(key, value)?),
            "timemargin" => {
                let ms: u64 = number(key, value)?;
                if ms > MAX_SECONDS * 1000 {
                    return Err(bad(key, format!("at most {} ms", MAX_SECONDS * 1000)));
                }
                self.margin = Some(Duration::from_millis(ms));
            }
            _ => match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => {
                    self.options.push((name.to_string(), value.to_string()));
                }
                _ => return Err(bad(key, "unknown engine key")),
            },
        }
        Ok(())
    }

    /// `self` (an engine's keys) over `each`.
    #[must_use]
    pub fn over(self, each: &EngineKeys) -> EngineKeys {
        // An engine's own clock (tc= or st=) replaces the shared one as a whole.
        let own_clock = self.tc.is_some() || self.move_time.is_some();
        let (tc, move_time) = if own_clock {
            (self.tc, self.move_time)
        } else {
            (each.tc, each.move_time)
        };
        let mut options = each.options.clone();
        options.retain(|(n, _)| !self.options.iter().any(|(m, _)| m.eq_ignore_ascii_case(n)));
        options.extend(self.options);
        EngineKeys {
            cmd: self.cmd.or_else(|| each.cmd.clone()),
            name: self.name.or_else(|| each.name.clone()),
            args: each.args.iter().cloned().chain(self.args).collect(),
            dir: self.dir.or_else(|| each.dir.clone()),
            options,
            dialect: self.dialect.or(each.dialect),
            tc,
            move_time,
            depth: self.depth.or(each.depth),
            nodes: self.nodes.or(each.nodes),
            margin: self.margin.or(each.margin),
        }
    }

    /// The engine, checked: it has a program and a limit; `n` (from 1) names it in
    /// errors when it has no `name=`.
    pub fn into_spec(self, n: usize) -> Result<EngineSpec, SpecError> {
        let spec = self.into_program_spec(n)?;
        let who = || match &spec.name {
            Some(name) => format!("engine '{name}'"),
            None => format!("engine {n}"),
        };
        let limits = &spec.limits;
        if limits.tc.is_some() && limits.move_time.is_some() {
            return Err(SpecError::Invalid(format!(
                "{}: give tc= or st=, not both",
                who()
            )));
        }
        let limited = limits.tc.is_some()
            || limits.move_time.is_some()
            || limits.depth.is_some()
            || limits.nodes.is_some();
        if !limited {
            return Err(SpecError::Invalid(format!(
                "{} has no limit: give tc=, st=, depth= or nodes= (or set it with -each)",
                who()
            )));
        }
        Ok(spec)
    }

    /// The engine, checked only for a program: for a driver that sets the limits of
    /// each search itself (the web board); limits given are kept as read.
    pub fn into_program_spec(self, n: usize) -> Result<EngineSpec, SpecError> {
        let Some(cmd) = self.cmd else {
            let who = match &self.name {
                Some(name) => format!("engine '{name}'"),
                None => format!("engine {n}"),
            };
            return Err(SpecError::Invalid(format!("{who} has no cmd=")));
        };
        Ok(EngineSpec {
            name: self.name,
            process: ProcessSpec {
                cmd: PathBuf::from(cmd),
                args: self.args,
                dir: self.dir,
            },
            options: self.options,
            limits: Limits {
                tc: self.tc,
                move_time: self.move_time,
                depth: self.depth,
                nodes: self.nodes,
                margin: self.margin.unwrap_or_default(),
            },
            dialect: self.dialect,
        })
    }
}

fn number<T: FromStr>(option: &str, value: &str) -> Result<T, SpecError> {
    value
        .parse()
        .map_err(|_| bad(option, format!("'{value}' is not a whole number")))
}
