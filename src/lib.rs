//! konane: a Konane (Hawaiian checkers) engine.
//!
//! - [`rules`]: the game itself (positions, moves, their text, perft).
//! - [`search`]: evaluation, alpha-beta search, and the exact solver.
//! - [`engine`]: the searcher thread and its channels.
//! - [`dialect`]: the two spellings of the protocol, UGI and UCI.
//! - [`protocol`]: the UGI/UCI text protocol and the session.
//! - [`client`]: driving an engine process (for the referee and GUIs).
//! - [`referee`]: engine-vs-engine matches judged with the rules.
//! - [`gui`]: the web GUI served by `konane-gui`.
//! - [`bench`](mod@bench): fixed work for measuring speed.

pub mod bench;
pub mod client;
pub mod console;
pub mod dialect;
pub mod engine;
pub mod gui;
pub mod prompt;
pub mod protocol;
pub mod referee;
pub mod rules;
pub mod search;
