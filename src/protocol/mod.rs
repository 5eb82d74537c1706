//! The text protocol (UGI, with the UCI spellings as aliases): a nom parser from a line
//! to a [`Command`](command::Command), the options, and the session that owns the
//! position and writes every reply.

pub mod command;
pub mod input;
pub mod options;
pub mod session;

pub use session::Session;
