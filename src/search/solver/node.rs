//! A node of the proof search: a position, a balance of spare moves, and its keys.
//!
//! Spare moves stand for regions of the board that only one side can ever move in
//! (see [`regions`](super::regions)). Such a region is, in combinatorial game theory, an
//! integer: the number of moves its owner can make there, with the opponent unable to
//! touch them. Integers add, so all of them fold into one signed count (positive: black
//! has that many spare moves, negative: white has). A spare move is then a legal move
//! of the node: the owner spends one, the count moves one towards zero, and the turn
//! passes. Nothing else about the node changes, which is exactly what playing one move
//! in a region nobody else can touch does to the rest of the game.

use crate::rules::{Bitboard, Color, Move, Phase, Position};

use super::symmetry::{MAX_SYMMETRIES, Symmetries};
use super::tt::{Hint, Key};

/// A position of the proof search.
#[derive(Clone, Copy)]
pub(super) struct Node<B: Bitboard> {
    /// The stones still in play and the side to move.
    pub pos: Position<B>,
    /// Spare moves: black's when positive, white's when negative.
    pub spares: i8,
    keys: [u64; MAX_SYMMETRIES],
}

impl<B: Bitboard> Node<B> {
    /// The node of `pos` with `spares` spare moves.
    pub fn new(pos: Position<B>, spares: i8, sym: &Symmetries) -> Node<B> {
        Node {
            pos,
            spares,
            keys: sym.keys_of(pos.occupied()),
        }
    }

    /// The node after the board move `m`.
    #[inline(always)]
    pub fn child(&self, m: Move<B>, sym: &Symmetries) -> Node<B> {
        let mut next = *self;
        next.pos.play_unchecked(m);
        sym.toggle(&mut next.keys, m.toggled());
        next
    }

    /// Whether the side to move has a spare move.
    #[inline(always)]
    pub fn mover_has_spare(&self) -> bool {
        match self.pos.side_to_move() {
            Color::Black => self.spares > 0,
            Color::White => self.spares < 0,
        }
    }

    /// Whether the side not to move has a spare move.
    #[inline(always)]
    pub fn opponent_has_spare(&self) -> bool {
        match self.pos.side_to_move() {
            Color::Black => self.spares < 0,
            Color::White => self.spares > 0,
        }
    }

    /// The node after the side to move spends a spare move (it must have one).
    pub fn spare_child(&self) -> Node<B> {
        debug_assert!(self.mover_has_spare());
        let side = self.pos.side_to_move();
        #[expect(
            clippy::expect_used,
            reason = "a spare move leaves the board as it is, which was a possible position"
        )]
        let pos = Position::new(self.pos.geometry(), self.pos.occupied(), side.opponent())
            .expect("spare moves come from folding away regions of two or more stones, which leaves more empty squares than any opening position has");
        Node {
            pos,
            spares: match side {
                Color::Black => self.spares - 1,
                Color::White => self.spares + 1,
            },
            keys: self.keys,
        }
    }

    /// The table key of the node: the smallest of its images under the usable
    /// symmetries, and the symmetry that gives it.
    #[inline]
    pub fn key(&self, sym: &Symmetries) -> (Key, usize) {
        let side = self.pos.side_to_move();
        let mut best = Key {
            check: self.keys[0],
            tag: Key::tag(side == Color::White, self.spares),
        };
        let mut best_sym = 0;
        if sym.count() > 1 {
            let jumping = self.pos.phase() == Phase::Jumping;
            for s in 1..sym.count() {
                if !sym.usable(s, jumping) || self.keys[s] > best.check {
                    continue;
                }
                let swap = sym.swaps_colour(s);
                let spares = if swap { -self.spares } else { self.spares };
                let key = Key {
                    check: self.keys[s],
                    tag: Key::tag(sym.side_image(s, side) == Color::White, spares),
                };
                if key < best {
                    best = key;
                    best_sym = s;
                }
            }
        }
        (best, best_sym)
    }

    /// `m` as the table stores it for a node keyed through symmetry `s`.
    pub fn hint_of(m: Move<B>, s: usize, sym: &Symmetries) -> Hint {
        Hint::Board(sym.image(s, m.from()) as u8, sym.image(s, m.to()) as u8)
    }

    /// The start and landing squares, in this node's frame, of a stored board hint
    /// read through symmetry `s`.
    pub fn hint_squares(hint: Hint, s: usize, sym: &Symmetries) -> Option<(usize, usize)> {
        match hint {
            Hint::Board(from, to) => Some((
                sym.preimage(s, usize::from(from)),
                sym.preimage(s, usize::from(to)),
            )),
            Hint::Spare => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{AnyPosition, BoardSize, MultiJump, Opening, Variant};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// The image of `pos` under symmetry `s`, as a position of its own (`None` when
    /// the image, with white to move just after the opening, is not one).
    fn image(pos: &Position<u64>, s: usize, sym: &Symmetries) -> Option<Position<u64>> {
        let occupied = pos
            .occupied()
            .squares()
            .fold(0u64, |acc, sq| acc | 1 << sym.image(s, sq));
        Position::new(
            pos.geometry(),
            occupied,
            sym.side_image(s, pos.side_to_move()),
        )
        .ok()
    }

    #[test]
    fn every_image_of_a_position_has_its_key() {
        let mut rng = StdRng::seed_from_u64(3);
        for (w, h) in [(6, 6), (7, 7), (5, 3), (4, 6)] {
            let variant = Variant {
                size: BoardSize::new(w, h).unwrap(),
                opening: Opening::Any,
                multi_jump: MultiJump::Straight,
            };
            let AnyPosition::Small(start) = AnyPosition::start(variant) else {
                unreachable!("small boards")
            };
            let sym = Symmetries::new(start.geometry(), true);
            for _ in 0..50 {
                let mut pos = start;
                for _ in 0..rng.random_range(2..12) {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.play_unchecked(moves.as_slice()[rng.random_range(0..moves.len())]);
                }
                let spares = rng.random_range(-3i8..=3);
                let key = Node::new(pos, spares, &sym).key(&sym).0;
                let jumping = pos.phase() == Phase::Jumping;
                for s in (0..sym.count()).filter(|&s| sym.usable(s, jumping)) {
                    let swapped = if sym.swaps_colour(s) { -spares } else { spares };
                    let Some(twin) = image(&pos, s, &sym) else {
                        continue;
                    };
                    let twin = Node::new(twin, swapped, &sym);
                    assert_eq!(twin.key(&sym).0, key, "{pos} under symmetry {s}");
                }
            }
        }
    }

    #[test]
    fn hints_map_back_to_the_move() {
        let variant = Variant {
            size: BoardSize::new(6, 6).unwrap(),
            ..Variant::default()
        };
        let AnyPosition::Small(mut pos) = AnyPosition::start(variant) else {
            unreachable!("small boards")
        };
        pos.play_text("c4").unwrap();
        pos.play_text("c3").unwrap();
        let sym = Symmetries::new(pos.geometry(), true);
        for &m in pos.legal_moves().iter() {
            for s in 0..sym.count() {
                let hint = Node::<u64>::hint_of(m, s, &sym);
                assert_eq!(
                    Node::<u64>::hint_squares(hint, s, &sym),
                    Some((m.from(), m.to()))
                );
            }
        }
    }
}
