//! A position of any board size, on the narrowest bitboard that holds it.

use std::fmt;

use thiserror::Error;

use super::bitboard::U256;
use super::geometry::Geometry;
use super::notation::{PositionText, PositionTextError};
use super::position::{ImpossiblePosition, Outcome, Phase, Position};
use super::resolve::MoveError;
use super::variant::{BoardSize, Color, MultiJump, Opening, Variant};

/// A position whose bitboard width was chosen from its board size: boards of up to 64
/// squares (8x8 included) run on `u64`, up to 128 on `u128`, the rest on [`U256`].
///
/// Code that works on any width is written once, generic over
/// [`Bitboard`](super::Bitboard), and reached through [`with_position!`](crate::with_position).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyPosition {
    /// At most 64 squares.
    Small(Position<u64>),
    /// 65 to 128 squares.
    Medium(Position<u128>),
    /// 129 to 256 squares.
    Large(Position<U256>),
}

/// Runs `$body` with `$p` bound to the typed position inside an [`AnyPosition`]
/// (by value, reference or mutable reference, as `$any` is given).
#[macro_export]
macro_rules! with_position {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            $crate::rules::AnyPosition::Small($p) => $body,
            $crate::rules::AnyPosition::Medium($p) => $body,
            $crate::rules::AnyPosition::Large($p) => $body,
        }
    };
}

/// Position text that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// The text does not describe a board.
    #[error(transparent)]
    Text(#[from] PositionTextError),
    /// The board cannot arise under the rules.
    #[error(transparent)]
    Impossible(#[from] ImpossiblePosition),
}

impl AnyPosition {
    /// The start position of `variant`.
    #[must_use]
    #[expect(
        clippy::expect_used,
        reason = "each branch picks a bitboard with at least as many bits as the board has squares"
    )]
    pub fn start(variant: Variant) -> AnyPosition {
        let squares = variant.size.squares();
        let missing = "the bitboard is wide enough for the board";
        if squares <= 64 {
            AnyPosition::Small(Position::start(Geometry::get(variant).expect(missing)))
        } else if squares <= 128 {
            AnyPosition::Medium(Position::start(Geometry::get(variant).expect(missing)))
        } else {
            AnyPosition::Large(Position::start(Geometry::get(variant).expect(missing)))
        }
    }

    /// The position that `text` describes, played under `opening` and `multi_jump`; the
    /// board size comes from the text.
    pub fn from_text(
        text: &str,
        opening: Opening,
        multi_jump: MultiJump,
    ) -> Result<AnyPosition, PositionError> {
        let parsed: PositionText = text.parse()?;
        #[expect(
            clippy::expect_used,
            reason = "position text only reads boards of 2 to 16 squares a side"
        )]
        let variant = Variant {
            size: BoardSize::new(parsed.width(), parsed.height())
                .expect("position text only reads boards of 2 to 16 squares a side"),
            opening,
            multi_jump,
        };
        let position = with_position!(AnyPosition::start(variant), start => {
            AnyPosition::from(Position::from_text(start.geometry(), &parsed)?)
        });
        Ok(position)
    }

    /// The rules the position is played under.
    #[must_use]
    pub fn variant(&self) -> Variant {
        with_position!(self, p => p.variant())
    }

    /// The side to move.
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        with_position!(self, p => p.side_to_move())
    }

    /// Which kind of move is due.
    #[must_use]
    pub fn phase(&self) -> Phase {
        with_position!(self, p => p.phase())
    }

    /// The Zobrist hash (rules included).
    #[must_use]
    pub fn hash(&self) -> u64 {
        with_position!(self, p => p.hash())
    }

    /// The winner, once the side to move has no legal move.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        with_position!(self, p => p.outcome())
    }

    /// The canonical texts of the legal moves, in generation order.
    #[must_use]
    pub fn legal_move_texts(&self) -> Vec<String> {
        with_position!(self, p => p.legal_moves().iter().map(|&m| p.move_text(m)).collect())
    }

    /// The position after each legal move, in generation order.
    #[must_use]
    pub fn children(&self) -> Vec<AnyPosition> {
        with_position!(self, p => p.legal_moves().iter().map(|&m| {
            let mut child = *p;
            child.play_unchecked(m);
            AnyPosition::from(child)
        }).collect())
    }

    /// Plays a move given as text and returns its canonical text, or says why it cannot
    /// be played (leaving the position as it was).
    pub fn play_text(&mut self, text: &str) -> Result<String, MoveError> {
        with_position!(self, p => {
            let m = p.parse_move(text)?;
            let canonical = p.move_text(m);
            p.play_unchecked(m);
            Ok(canonical)
        })
    }

    /// The board drawn in ASCII with coordinates.
    #[must_use]
    pub fn diagram(&self) -> String {
        with_position!(self, p => p.diagram())
    }
}

impl From<Position<u64>> for AnyPosition {
    fn from(p: Position<u64>) -> Self {
        AnyPosition::Small(p)
    }
}

impl From<Position<u128>> for AnyPosition {
    fn from(p: Position<u128>) -> Self {
        AnyPosition::Medium(p)
    }
}

impl From<Position<U256>> for AnyPosition {
    fn from(p: Position<U256>) -> Self {
        AnyPosition::Large(p)
    }
}

impl fmt::Display for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        with_position!(self, p => fmt::Display::fmt(p, f))
    }
}

#[cfg(test)]
mod tests {
    use super::AnyPosition;
    use crate::rules::{BoardSize, MultiJump, Opening, Variant};

    /// Each child is the position its move text leads to, in the order of the texts,
    /// on every bitboard width.
    #[test]
    fn children_are_the_positions_after_each_legal_move_in_order() {
        for (width, height) in [(8, 8), (10, 12), (16, 16)] {
            let mut pos = AnyPosition::start(Variant {
                size: BoardSize::new(width, height).expect("a valid board size"),
                opening: Opening::default(),
                multi_jump: MultiJump::default(),
            });
            for _ in 0..3 {
                let texts = pos.legal_move_texts();
                let children = pos.children();
                assert_eq!(children.len(), texts.len());
                for (text, child) in texts.iter().zip(&children) {
                    let mut played = pos;
                    played.play_text(text).expect("a generated move is legal");
                    assert_eq!(*child, played, "{width}x{height} {pos} {text}");
                }
                pos = *children.last().expect("the opening has moves");
            }
        }
    }
}
