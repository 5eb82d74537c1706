//! konane: a Konane (Hawaiian checkers) engine.
//!
//! - [`rules`]: the game itself (positions, moves, their text, perft).
//! - [`search`]: searching positions, including the exact solver.

pub mod rules;
pub mod search;
