//! konane: a Konane (Hawaiian checkers) engine.
//!
//! - [`rules`]: the game itself (positions, moves, their text, perft).

pub mod rules;
