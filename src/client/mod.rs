//! Driving an engine from outside: what the referee and a GUI both need.
//!
//! - [`EngineSpec`]: an engine as the command line gives it (`cmd=`, `option.X=`,
//!   `tc=`...), read with [`EngineKeys`];
//! - [`EngineProcess`]: the operating-system process, in its own process group, its
//!   output read line by line;
//! - [`Engine`]: the engine as a player, the handshake, `go` and its `bestmove`;
//! - the text written to engines and read back ([`go_command`], [`parse_line`], ...),
//!   `info` lines in full ([`SearchInfo`]).
//!
//! Depends on [`rules`](crate::rules) only.

mod engine;
mod info;
mod process;
mod protocol;
mod reaper;
mod spec;
mod text;
mod time;

pub use crate::dialect::Dialect;
pub use engine::{Answer, Engine, StartError};
pub use info::{MAX_PV, Score, SearchInfo};
pub use process::{
    EngineProcess, FLOOD_BYTES, FLOOD_LINES, Flood, Line, MAX_LINE_BYTES, ProcessSpec, QUEUE_LINES,
    RecvError,
};
pub use protocol::{
    ClockReading, EngineLine, GoLimits, go_command, parse_line, position_command, set_option,
};
pub use reaper::adopt_orphans;
pub use spec::{EngineKeys, EngineSpec, Limits, SpecError};
pub use text::{clean, shorten};
pub use time::{MAX_SECONDS, TimeControl, TimeError, parse_seconds};
