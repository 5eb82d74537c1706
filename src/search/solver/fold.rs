//! A split's frontier folded by the board's symmetries.
//!
//! Two positions that are images of each other under a symmetry keeping the colouring
//! (see [`symmetry`](super::symmetry)) are the same game, so a split proves only one of
//! them: the frontier keeps the first of each class, and the merge reads the others'
//! results through the map, moves included. The colour-swapping symmetries are of no
//! use here: their images have the other side to move, and every frontier position has
//! the same side to move.

use crate::rules::{AnyPosition, Bitboard, Geometry, MoveText, Position};
use crate::with_position;

use super::symmetry::Symmetries;

/// The symmetries of one board that keep its colouring, the identity first.
pub(super) struct Fold {
    symmetries: Symmetries,
    keeping: Vec<usize>,
}

impl Fold {
    /// The colour-keeping symmetries of `pos`'s board.
    pub(super) fn new(pos: &AnyPosition) -> Fold {
        let symmetries = with_position!(pos, p => Symmetries::new(p.geometry(), true));
        let keeping = (0..symmetries.count())
            .filter(|&s| !symmetries.swaps_colour(s))
            .collect();
        Fold {
            symmetries,
            keeping,
        }
    }

    /// The images of `pos`, one per colour-keeping symmetry (with its index).
    fn images<'a>(
        &'a self,
        pos: &'a AnyPosition,
    ) -> impl Iterator<Item = (usize, AnyPosition)> + 'a {
        self.keeping.iter().filter_map(move |&s| {
            with_position!(pos, p => image(&self.symmetries, s, p).map(AnyPosition::from))
                .map(|q| (s, q))
        })
    }

    /// The name of `pos`'s class: the smallest text among its images, the same for
    /// every member.
    pub(super) fn class(&self, pos: &AnyPosition) -> String {
        self.images(pos)
            .map(|(_, q)| q.to_string())
            .min()
            .unwrap_or_else(|| pos.to_string())
    }

    /// Maps `line`, a line of play from `from`, onto `to`, an image of `from`: the
    /// same game with every square moved by the symmetry that takes `from` to `to`.
    /// `None` if `to` is no image of `from`, or a move is not a list of squares.
    pub(super) fn map_line(
        &self,
        from: &AnyPosition,
        to: &AnyPosition,
        line: &[String],
    ) -> Option<Vec<String>> {
        let (s, _) = self.images(from).find(|(_, q)| q == to)?;
        line.iter()
            .map(|m| with_position!(from, p => map_move(&self.symmetries, s, p.geometry(), m)))
            .collect()
    }
}

/// The image of `pos` under symmetry `s`, which keeps the colouring (so the image is a
/// possible position under the same rules). Two empty squares with white to move (the
/// second half of an outcome class, which no game reaches) map onto the image of the
/// same stones with black to move, turned.
fn image<B: Bitboard>(symmetries: &Symmetries, s: usize, pos: &Position<B>) -> Option<Position<B>> {
    let mut occupied = B::EMPTY;
    for sq in pos.occupied().squares() {
        occupied |= B::single(symmetries.image(s, sq));
    }
    let side = pos.side_to_move();
    Position::new(pos.geometry(), occupied, side)
        .ok()
        .or_else(|| {
            Position::new(pos.geometry(), occupied, side.opponent())
                .ok()?
                .with_other_side_to_move()
        })
}

/// The move text `text` with each square replaced by its image under `s`.
fn map_move<B: Bitboard>(
    symmetries: &Symmetries,
    s: usize,
    geo: &Geometry<B>,
    text: &str,
) -> Option<String> {
    let parsed: MoveText = text.parse().ok()?;
    parsed
        .squares()
        .iter()
        .map(|&sq| {
            let index = geo.index(sq)?;
            Some(geo.square(symmetries.image(s, index)).to_string())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{BoardSize, MultiJump, Opening, Variant};

    fn start(w: usize, h: usize) -> AnyPosition {
        AnyPosition::start(Variant {
            size: BoardSize::new(w, h).unwrap(),
            opening: Opening::Any,
            multi_jump: MultiJump::Straight,
        })
    }

    #[test]
    fn symmetric_removals_share_a_class() {
        // 7x7, any removal: the eight corners' images are one class, the centre its own.
        let root = start(7, 7);
        let fold = Fold::new(&root);
        let after = |m: &str| {
            let mut p = root;
            p.play_text(m).unwrap();
            p
        };
        let corners = ["a1", "g1", "a7", "g7"].map(|m| fold.class(&after(m)));
        assert!(corners.iter().all(|c| *c == corners[0]), "{corners:?}");
        assert_ne!(fold.class(&after("d4")), corners[0]);
        assert_ne!(fold.class(&after("b2")), fold.class(&after("c1")));
        assert_eq!(fold.class(&after("c1")), fold.class(&after("g5")));
    }

    #[test]
    fn a_line_maps_onto_the_image_and_stays_legal() {
        let root = start(6, 8);
        let fold = Fold::new(&root);
        let mut from = root;
        for m in ["d3", "d4"] {
            from.play_text(m).unwrap();
        }
        let mut to = root;
        // The half turn of a 6x8 board maps d3 to c6 and d4 to c5.
        for m in ["c6", "c5"] {
            to.play_text(m).unwrap();
        }
        let line: Vec<String> = from.legal_move_texts().into_iter().take(1).collect();
        let mapped = fold.map_line(&from, &to, &line).expect("an image");
        let mut played = to;
        played
            .play_text(&mapped[0])
            .expect("the mapped move is legal");
        let mut original = from;
        original.play_text(&line[0]).unwrap();
        assert_eq!(fold.class(&played), fold.class(&original));
        assert!(fold.map_line(&from, &root, &line).is_none(), "not an image");
    }
}
