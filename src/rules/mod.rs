//! The game and nothing else: boards, positions, legal moves, their text, perft.
//!
//! Depends on no other module of the crate.

mod any;
mod bitboard;
mod geometry;
mod movegen;
mod moves;
mod notation;
mod perft;
mod position;
mod resolve;
mod square;
mod variant;
mod zobrist;

pub use any::{AnyPosition, PositionError};
pub use bitboard::{Bitboard, Squares, U256};
pub use geometry::Geometry;
pub use movegen::Mobility;
pub use moves::{MAX_MOVES, Move, MoveList};
pub use notation::{MoveText, MoveTextError, PositionText, PositionTextError};
pub use perft::{Perft, PerftError};
pub use position::{ImpossiblePosition, Outcome, Phase, Position};
pub use resolve::{IllegalMove, IllegalReason, MoveError};
pub use square::{Direction, Square};
pub use variant::{
    BoardSize, Color, MAX_SIDE, MIN_SIDE, MultiJump, Opening, Variant, VariantError,
};
pub use zobrist::ZobristKeys;
