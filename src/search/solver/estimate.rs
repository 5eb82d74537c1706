//! How hard a position is to solve, guessed without searching: for the playing search
//! to decide when to hand a position to the prover.
//!
//! The guess is a fit of `log10(nodes)` over 140 positions from random games on boards
//! from 5x5 to 10x10 with 20 to 38 stones (`cargo run --release --example solve --
//! --endgames N --stones S --size WxH`):
//!
//! ```text
//! log10(nodes) = -1.21 + 0.118 * pairs + 0.125 * mobility      (residual s.d. 0.88)
//! ```
//!
//! where `pairs` counts orthogonally adjacent pairs of stones (every capture, now or
//! later, starts from one) and `mobility` the moves both sides have now. Stones alone
//! predict badly: 30 scattered stones on 8x8 take a few thousand nodes, 30 packed
//! stones on 6x6 a million. The fit also puts the 6x6 start at 7e5 nodes (it takes
//! 1.8e6).

use crate::rules::{Bitboard, Color, Direction, Position};

/// A rough guess of the nodes a solve of `pos` takes (within a factor of ten either
/// way for two positions in three).
#[must_use]
pub fn estimated_nodes<B: Bitboard>(pos: &Position<B>) -> f64 {
    let geo = pos.geometry();
    let occupied = pos.occupied();
    let pairs: usize = occupied
        .squares()
        .map(|sq| {
            [Direction::North, Direction::East]
                .iter()
                .filter(|&&d| geo.neighbour(sq, d).is_some_and(|n| occupied.has(n)))
                .count()
        })
        .sum();
    let mobility = pos.count_jumps(Color::Black) + pos.count_jumps(Color::White);
    10f64.powf(-1.21 + 0.118 * pairs as f64 + 0.125 * mobility as f64)
}

/// Whether a solve of `pos` very likely takes at most `node_budget` nodes: the guess
/// with a margin of one standard deviation of the fit (a factor of about eight). A
/// solve started on this advice should still carry the budget as its node limit.
#[must_use]
pub fn can_solve_quickly<B: Bitboard>(pos: &Position<B>, node_budget: u64) -> bool {
    estimated_nodes(pos) * 8.0 <= node_budget as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{AnyPosition, BoardSize, Variant};

    fn start(w: usize, h: usize) -> Position<u64> {
        let variant = Variant {
            size: BoardSize::new(w, h).unwrap(),
            ..Variant::default()
        };
        match AnyPosition::start(variant) {
            AnyPosition::Small(p) => p,
            _ => unreachable!("small boards"),
        }
    }

    #[test]
    fn bigger_boards_look_harder() {
        let guesses: Vec<f64> = [(4, 4), (5, 5), (6, 6), (7, 7), (8, 8)]
            .iter()
            .map(|&(w, h)| estimated_nodes(&start(w, h)))
            .collect();
        assert!(guesses.windows(2).all(|w| w[0] < w[1]), "{guesses:?}");
        assert!(can_solve_quickly(&start(4, 4), 10_000));
        assert!(!can_solve_quickly(&start(8, 8), 1_000_000_000));
    }

    #[test]
    fn a_lone_pair_is_quick() {
        let pos = match AnyPosition::from_text(
            "bw6/8/8/8/8/8/8/8 b",
            Default::default(),
            Default::default(),
        ) {
            Ok(AnyPosition::Small(p)) => p,
            other => panic!("{other:?}"),
        };
        assert!(can_solve_quickly(&pos, 100));
    }
}
