//! Zobrist keys: one random word per square and one for the side to move.
//!
//! Stones never change colour or leave their square colour, so the occupied squares and
//! the side to move are the whole state of a position; its key is the XOR of the keys of
//! the occupied squares, the side key when white is to move, and a salt for the rules,
//! so that positions of different variants never share a key.

use std::sync::LazyLock;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::variant::{MAX_SIDE, MultiJump, Opening, Variant};

/// The random words positions are hashed with.
#[derive(Debug)]
pub struct ZobristKeys {
    squares: [u64; 256],
    white_to_move: u64,
    width: [u64; MAX_SIDE as usize + 1],
    height: [u64; MAX_SIDE as usize + 1],
    opening: [u64; 3],
    multi_jump: [u64; 2],
}

/// The keys, drawn from a fixed seed so that hashes, and with them search trees and
/// `bench` signatures, are the same in every run.
pub static KEYS: LazyLock<ZobristKeys> = LazyLock::new(|| {
    let mut rng = StdRng::seed_from_u64(0x6b6f_6e61_6e65);
    let mut draw = || rng.next_u64();
    ZobristKeys {
        squares: std::array::from_fn(|_| draw()),
        white_to_move: draw(),
        width: std::array::from_fn(|_| draw()),
        height: std::array::from_fn(|_| draw()),
        opening: std::array::from_fn(|_| draw()),
        multi_jump: std::array::from_fn(|_| draw()),
    }
});

impl ZobristKeys {
    /// Key of a stone on square `index`.
    #[inline(always)]
    #[must_use]
    pub fn square(&self, index: usize) -> u64 {
        self.squares[index]
    }

    /// Key XORed in while white is to move.
    #[inline(always)]
    #[must_use]
    pub fn white_to_move(&self) -> u64 {
        self.white_to_move
    }

    /// Key of the rules themselves.
    #[must_use]
    pub fn variant(&self, variant: &Variant) -> u64 {
        let opening = match variant.opening {
            Opening::Diagonal => 0,
            Opening::Centre => 1,
            Opening::Any => 2,
        };
        let multi_jump = match variant.multi_jump {
            MultiJump::Straight => 0,
            MultiJump::Turning => 1,
        };
        self.width[variant.size.width()]
            ^ self.height[variant.size.height()]
            ^ self.opening[opening]
            ^ self.multi_jump[multi_jump]
    }
}
