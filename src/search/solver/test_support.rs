//! What the solver's unit tests share: random positions on boards of every rule.

use rand::RngExt;
use rand::rngs::StdRng;

use crate::rules::{Bitboard, BoardSize, Move, MultiJump, Opening, Position, Variant};

/// A random legal move of `pos`, or `None` when it has none.
pub(super) fn random_move<B: Bitboard>(pos: &Position<B>, rng: &mut StdRng) -> Option<Move<B>> {
    let moves = pos.legal_moves();
    (!moves.is_empty()).then(|| moves.as_slice()[rng.random_range(0..moves.len())])
}

/// Random moves from `start` until at most `stones` stones are left (or the game ends).
pub(super) fn random_position<B: Bitboard>(
    start: Position<B>,
    stones: u32,
    rng: &mut StdRng,
) -> Position<B> {
    let mut pos = start;
    while pos.occupied().count() > stones {
        match random_move(&pos, rng) {
            Some(m) => pos.play_unchecked(m),
            None => break,
        }
    }
    pos
}

/// The variants of these board sizes (width, height) under both multi-jump rules, with
/// any opening removal allowed.
pub(super) fn any_opening_variants(sizes: &[(usize, usize)]) -> Vec<Variant> {
    sizes
        .iter()
        .flat_map(|&(w, h)| {
            MultiJump::ALL.map(|multi_jump| Variant {
                size: BoardSize::new(w, h).unwrap(),
                opening: Opening::Any,
                multi_jump,
            })
        })
        .collect()
}
