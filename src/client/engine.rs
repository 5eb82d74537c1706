//! An engine as a player: the handshake (`ugi`, falling back to `uci`), options, new
//! games, and one `go` answered by one `bestmove`.

use std::io;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use thiserror::Error;

use super::info::Score;
use super::process::{EngineProcess, RecvError, later};
use super::protocol::{self, EngineLine};
use super::spec::EngineSpec;
use crate::dialect::Dialect;
use crate::rules::Variant;

/// An engine that could not be started.
#[derive(Debug, Error)]
pub enum StartError {
    /// The program could not be run.
    #[error("engine '{name}' could not be started ({cmd}): {source}")]
    Spawn {
        /// The engine's name.
        name: String,
        /// Its command.
        cmd: String,
        /// What the system said.
        source: io::Error,
    },
    /// Neither `ugi` nor `uci` was answered in time.
    #[error(
        "engine '{name}' did not finish the handshake: no 'ugiok' after 'ugi' and no 'uciok' after 'uci' within {secs} s each"
    )]
    NoHandshake {
        /// The engine's name.
        name: String,
        /// The wait for each attempt.
        secs: f64,
    },
    /// The engine exited or closed its output during the handshake.
    #[error("engine '{name}' exited during the handshake")]
    Closed {
        /// The engine's name.
        name: String,
    },
    /// The engine wrote more during the handshake than the flood limits allow.
    #[error("engine '{name}' flooded its output during the handshake")]
    Flood {
        /// The engine's name.
        name: String,
    },
    /// The referee was told to stop.
    #[error("interrupted")]
    Interrupted,
}

impl StartError {
    /// Whether the engine was unresponsive (rather than gone).
    #[must_use]
    pub fn is_stall(&self) -> bool {
        matches!(self, StartError::NoHandshake { .. })
    }

    /// Whether the engine flooded its output.
    #[must_use]
    pub fn is_flood(&self) -> bool {
        matches!(self, StartError::Flood { .. })
    }
}

/// One `bestmove` and what came with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move, or `None` for `0000`, `(none)` or no move at all.
    pub best: Option<String>,
    /// The whole `bestmove` line.
    pub line: String,
    /// Wall time from sending `go` to reading `bestmove`.
    pub elapsed: Duration,
    /// Depth of the last `info` line.
    pub depth: Option<u32>,
    /// Score of the last `info` line.
    pub score: Option<Score>,
}

/// A started engine that has finished its handshake.
pub struct Engine {
    process: EngineProcess,
    dialect: Dialect,
    id_name: Option<String>,
}

impl Engine {
    /// Starts the engine of `spec`, completes the handshake (in `spec`'s or `dialect`'s
    /// protocol, else `ugi` then `uci`) within `startup` per attempt, and sends the
    /// rule options for `variant` and the user's options.
    pub fn start(
        spec: &EngineSpec,
        label: &str,
        dialect: Option<Dialect>,
        variant: Variant,
        startup: Duration,
        debug: bool,
        stop: &AtomicBool,
    ) -> Result<Engine, StartError> {
        let process = EngineProcess::spawn(&spec.process, label, debug).map_err(|source| {
            StartError::Spawn {
                name: label.to_string(),
                cmd: spec.process.cmd.display().to_string(),
                source,
            }
        })?;
        let mut engine = Engine {
            process,
            dialect: Dialect::Ugi,
            id_name: None,
        };
        let attempts = match spec.dialect.or(dialect) {
            Some(d) => vec![d],
            None => vec![Dialect::Ugi, Dialect::Uci],
        };
        let mut answered = None;
        for d in attempts {
            match engine.hello(d, startup, stop) {
                Ok(replied) => {
                    answered = Some(replied);
                    break;
                }
                Err(RecvError::Timeout) => {}
                Err(RecvError::Closed) => {
                    return Err(StartError::Closed {
                        name: label.to_string(),
                    });
                }
                Err(RecvError::Flood(_)) => {
                    return Err(StartError::Flood {
                        name: label.to_string(),
                    });
                }
                Err(RecvError::Interrupted) => return Err(StartError::Interrupted),
            }
        }
        let Some(d) = answered else {
            return Err(StartError::NoHandshake {
                name: label.to_string(),
                secs: startup.as_secs_f64(),
            });
        };
        engine.dialect = d;
        let rule_options = [
            ("BoardSize", variant.size.to_string()),
            ("Opening", variant.opening.to_string()),
            ("MultiJump", variant.multi_jump.to_string()),
        ];
        let user_options = spec.options.iter().map(|(n, v)| (n.as_str(), v.clone()));
        for (name, value) in rule_options
            .iter()
            .map(|(n, v)| (*n, v.clone()))
            .chain(user_options)
        {
            if engine
                .process
                .send(&protocol::set_option(name, &value))
                .is_err()
            {
                return Err(StartError::Closed {
                    name: label.to_string(),
                });
            }
        }
        Ok(engine)
    }

    /// Sends `ugi` or `uci` and waits for `ugiok` or `uciok`: a slow engine may answer
    /// an earlier `ugi` while the referee already waits for `uciok`, and then speaks
    /// the protocol of its answer.
    fn hello(
        &mut self,
        dialect: Dialect,
        wait: Duration,
        stop: &AtomicBool,
    ) -> Result<Dialect, RecvError> {
        self.send(dialect.hello())?;
        let deadline = later(Instant::now(), wait);
        loop {
            match protocol::parse_line(&self.process.recv(deadline, stop)?.text) {
                EngineLine::IdName(name) => self.id_name = Some(name),
                EngineLine::HelloOk(replied) => return Ok(replied),
                _ => {}
            }
        }
    }

    /// The protocol the engine answered in.
    #[must_use]
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The name the engine gave with `id name`.
    #[must_use]
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    fn send(&mut self, line: &str) -> Result<(), RecvError> {
        self.process.send(line).map_err(|_| RecvError::Closed)
    }

    /// Sends `uginewgame`/`ucinewgame` and waits up to `wait` for `readyok`.
    pub fn new_game(&mut self, wait: Duration, stop: &AtomicBool) -> Result<(), RecvError> {
        self.send(self.dialect.new_game())?;
        self.ready(wait, stop)
    }

    /// Sends `isready` and waits up to `wait` for `readyok`.
    pub fn ready(&mut self, wait: Duration, stop: &AtomicBool) -> Result<(), RecvError> {
        self.send("isready")?;
        let deadline = later(Instant::now(), wait);
        loop {
            if protocol::parse_line(&self.process.recv(deadline, stop)?.text) == EngineLine::ReadyOk
            {
                return Ok(());
            }
        }
    }

    /// Sends `position`, then `isready`, and waits up to `wait` for `readyok`: every
    /// line before it (a `bestmove` left over from an earlier `go` or sent before this
    /// one) is thrown away, so that only an answer to the next `go` can be taken for it.
    pub fn set_position(
        &mut self,
        position: &str,
        wait: Duration,
        stop: &AtomicBool,
    ) -> Result<(), RecvError> {
        self.process.drain()?;
        self.send(position)?;
        self.ready(wait, stop)
    }

    /// Sends `go` and waits until `wait` after it for the `bestmove`.
    pub fn think(
        &mut self,
        go: &str,
        wait: Duration,
        stop: &AtomicBool,
    ) -> Result<Answer, RecvError> {
        self.send(go)?;
        let sent = Instant::now();
        let deadline = later(sent, wait);
        let (mut depth, mut score) = (None, None);
        loop {
            let line = self.process.recv(deadline, stop)?;
            match protocol::parse_line(&line.text) {
                EngineLine::BestMove(best) => {
                    return Ok(Answer {
                        best,
                        elapsed: line.at.saturating_duration_since(sent),
                        line: line.text,
                        depth,
                        score,
                    });
                }
                EngineLine::Info(info) => {
                    depth = info.depth.or(depth);
                    score = info.score.or(score);
                }
                _ => {}
            }
        }
    }

    /// Sends `quit`, waits up to `grace`, then kills the engine's process group.
    pub fn quit(self, grace: Duration) {
        self.process.quit(grace);
    }

    /// Kills the engine's process group at once.
    pub fn kill(self) {
        self.process.kill();
    }
}
