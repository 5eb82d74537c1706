//! The text protocol (UGI, with the UCI spellings as aliases): a nom parser from a line
//! to a command, the options, the reader thread, and the session that owns the position
//! and writes every reply.

mod backlog;
mod command;
mod input;
mod options;
mod session;

pub use crate::dialect::Dialect;
pub use command::{Command, Go, Start, is_command_word, parse};
pub use input::{READ_AHEAD, argument_lines, script_lines, spawn_reader};
pub use session::{Input, Session};
