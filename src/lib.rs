//! konane: a Konane (Hawaiian checkers) engine.
//!
//! - [`rules`]: the game itself (positions, moves, their text, perft).
//! - [`referee`]: engine-against-engine matches and tournaments judged with `rules`.

pub mod referee;
pub mod rules;
