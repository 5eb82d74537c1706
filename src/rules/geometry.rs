//! Everything about a variant that does not change during a game: square numbering,
//! square colours, the masks that keep jumps on the board, the opening squares.
//!
//! A `Geometry` is built once per variant and bitboard width and then shared by every
//! position of that variant for the life of the process (`&'static`), so positions stay
//! small `Copy` values.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use super::bitboard::Bitboard;
use super::square::{Direction, Square};
use super::variant::{Color, Opening, Variant};
use super::zobrist::{KEYS, ZobristKeys};

/// The fixed facts of one variant on one bitboard width.
#[derive(Debug)]
pub struct Geometry<B> {
    variant: Variant,
    width: usize,
    height: usize,
    board: B,
    stones: [B; 2],
    jump_from: [B; 4],
    step: [i32; 4],
    first_removals: B,
    room: Box<[u8]>,
    variant_key: u64,
    keys: &'static ZobristKeys,
}

type Registry = HashMap<(TypeId, Variant), &'static (dyn Any + Send + Sync)>;

impl<B: Bitboard> Geometry<B> {
    /// The shared geometry of `variant`, or `None` when its board has more squares than
    /// `B` holds.
    #[must_use]
    pub fn get(variant: Variant) -> Option<&'static Geometry<B>> {
        if variant.size.squares() > B::CAPACITY {
            return None;
        }
        static REGISTRY: OnceLock<Mutex<Registry>> = OnceLock::new();
        let registry = REGISTRY.get_or_init(Default::default);
        // A panic while holding the lock cannot leave the map half-written (insertion of a
        // finished value is the only write), so a poisoned lock is still safe to use.
        let mut map = registry
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let entry = map
            .entry((TypeId::of::<B>(), variant))
            .or_insert_with(|| Box::leak(Box::new(Geometry::<B>::build(variant))));
        entry.downcast_ref::<Geometry<B>>()
    }

    fn build(variant: Variant) -> Geometry<B> {
        let width = variant.size.width();
        let height = variant.size.height();
        let mut board = B::EMPTY;
        let mut stones = [B::EMPTY; 2];
        let mut jump_from = [B::EMPTY; 4];
        let mut first_removals = B::EMPTY;
        let mut room = vec![0; width * height];
        for rank in 0..height {
            for file in 0..width {
                let bit = B::single(rank * width + file);
                board |= bit;
                let colour = Self::colour_at(file, rank, height);
                stones[colour.index()] |= bit;
                for dir in Direction::ALL {
                    let (df, dr) = dir.delta();
                    let f = file as isize + 2 * df;
                    let r = rank as isize + 2 * dr;
                    if (0..width as isize).contains(&f) && (0..height as isize).contains(&r) {
                        jump_from[dir.index()] |= bit;
                    }
                    let beyond = match dir {
                        Direction::North => height - 1 - rank,
                        Direction::East => width - 1 - file,
                        Direction::South => rank,
                        Direction::West => file,
                    };
                    room[rank * width + file] |= (beyond.min(2) as u8) << (2 * dir.index());
                }
                if colour == Color::Black && Self::may_open(variant.opening, file, rank, variant) {
                    first_removals |= bit;
                }
            }
        }
        let w = width as i32;
        Geometry {
            variant,
            width,
            height,
            board,
            stones,
            jump_from,
            step: [w, 1, -w, -1],
            first_removals,
            room: room.into_boxed_slice(),
            variant_key: KEYS.variant(&variant),
            keys: &KEYS,
        }
    }

    /// The top-left square is black; colours alternate like a chessboard.
    fn colour_at(file: usize, rank: usize, height: usize) -> Color {
        if (file + height - 1 - rank).is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }

    fn may_open(opening: Opening, file: usize, rank: usize, variant: Variant) -> bool {
        let (w, h) = (variant.size.width(), variant.size.height());
        let central =
            (file == (w - 1) / 2 || file == w / 2) && (rank == (h - 1) / 2 || rank == h / 2);
        let corner = (file == 0 || file == w - 1) && (rank == 0 || rank == h - 1);
        match opening {
            Opening::Diagonal => central || corner,
            Opening::Centre => central,
            Opening::Any => true,
        }
    }

    /// The rules this geometry was built for.
    #[inline]
    #[must_use]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Number of files.
    #[inline]
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of ranks.
    #[inline]
    #[must_use]
    pub fn height(&self) -> usize {
        self.height
    }

    /// Every square of the board.
    #[inline(always)]
    #[must_use]
    pub fn board(&self) -> B {
        self.board
    }

    /// The squares whose stones belong to `colour` (stones never leave their colour).
    #[inline(always)]
    #[must_use]
    pub fn squares_of(&self, colour: Color) -> B {
        self.stones[colour.index()]
    }

    /// Squares from which a jump in `dir` lands on the board.
    #[inline(always)]
    #[must_use]
    pub fn jump_from(&self, dir: Direction) -> B {
        self.jump_from[dir.index()]
    }

    /// The change of bit index for one step in `dir`.
    #[inline(always)]
    #[must_use]
    pub fn step(&self, dir: Direction) -> i32 {
        self.step[dir.index()]
    }

    /// The black stones black may remove as the first move.
    #[inline]
    #[must_use]
    pub fn first_removals(&self) -> B {
        self.first_removals
    }

    /// How many squares, up to two, lie beyond square `index` in each direction: two
    /// bits a direction, in the order of [`Direction::ALL`] from the lowest bits.
    #[inline(always)]
    #[must_use]
    pub fn room(&self, index: usize) -> u8 {
        self.room[index]
    }

    /// The Zobrist keys positions are hashed with.
    #[inline(always)]
    #[must_use]
    pub fn keys(&self) -> &'static ZobristKeys {
        self.keys
    }

    /// The key of the rules, part of every position's hash.
    #[inline]
    #[must_use]
    pub fn variant_key(&self) -> u64 {
        self.variant_key
    }

    /// The bit index of `square`, or `None` when it is off this board.
    #[inline]
    #[must_use]
    pub fn index(&self, square: Square) -> Option<usize> {
        (square.file() < self.width && square.rank() < self.height)
            .then(|| square.rank() * self.width + square.file())
    }

    /// The square at bit index `index` (which must be on the board).
    #[inline]
    #[must_use]
    #[expect(
        clippy::expect_used,
        reason = "a geometry is at most 16x16, so an index on it names a valid square"
    )]
    pub fn square(&self, index: usize) -> Square {
        debug_assert!(index < self.width * self.height);
        Square::new(index % self.width, index / self.width)
            .expect("a bit index on the board names a square within 16x16")
    }

    /// The colour of the stones that may stand on bit index `index`.
    #[inline]
    #[must_use]
    pub fn colour_of(&self, index: usize) -> Color {
        if self.stones[0].has(index) {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The square one step from `index` in `dir`, if it is on the board.
    #[must_use]
    pub fn neighbour(&self, index: usize, dir: Direction) -> Option<usize> {
        let (df, dr) = dir.delta();
        let file = (index % self.width) as isize + df;
        let rank = (index / self.width) as isize + dr;
        ((0..self.width as isize).contains(&file) && (0..self.height as isize).contains(&rank))
            .then(|| rank as usize * self.width + file as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::{BoardSize, MultiJump};

    fn variant(w: usize, h: usize, opening: Opening) -> Variant {
        Variant {
            size: BoardSize::new(w, h).unwrap(),
            opening,
            multi_jump: MultiJump::Straight,
        }
    }

    fn names<B: Bitboard>(geo: &Geometry<B>, set: B) -> Vec<String> {
        set.squares().map(|i| geo.square(i).to_string()).collect()
    }

    #[test]
    fn top_left_square_is_black() {
        let geo = Geometry::<u64>::get(variant(8, 8, Opening::Diagonal)).unwrap();
        for (name, colour) in [
            ("a8", Color::Black),
            ("d5", Color::Black),
            ("e4", Color::Black),
            ("h1", Color::Black),
            ("a1", Color::White),
            ("d4", Color::White),
            ("e5", Color::White),
            ("h8", Color::White),
        ] {
            let sq = Square::new(
                usize::from(name.as_bytes()[0] - b'a'),
                usize::from(name.as_bytes()[1] - b'1'),
            )
            .unwrap();
            assert_eq!(geo.colour_of(geo.index(sq).unwrap()), colour, "{name}");
        }
    }

    #[test]
    fn diagonal_opening_allows_black_corners_and_centre() {
        let geo = Geometry::<u64>::get(variant(8, 8, Opening::Diagonal)).unwrap();
        assert_eq!(names(geo, geo.first_removals()), ["h1", "e4", "d5", "a8"]);
        let geo = Geometry::<u64>::get(variant(8, 8, Opening::Centre)).unwrap();
        assert_eq!(names(geo, geo.first_removals()), ["e4", "d5"]);
        let geo = Geometry::<u64>::get(variant(8, 8, Opening::Any)).unwrap();
        assert_eq!(geo.first_removals().count(), 32);
    }

    #[test]
    fn odd_boards_have_one_central_square() {
        let geo = Geometry::<u64>::get(variant(5, 5, Opening::Centre)).unwrap();
        assert_eq!(names(geo, geo.first_removals()), ["c3"]);
        // On 3x5 the middle square is white: black has no legal first removal.
        let geo = Geometry::<u64>::get(variant(3, 5, Opening::Centre)).unwrap();
        assert!(geo.first_removals().is_empty());
    }

    #[test]
    fn boards_too_big_for_the_word_are_refused() {
        assert!(Geometry::<u64>::get(variant(9, 8, Opening::Diagonal)).is_none());
        assert!(Geometry::<u128>::get(variant(9, 8, Opening::Diagonal)).is_some());
    }

    #[test]
    fn geometries_are_shared() {
        let a = Geometry::<u64>::get(variant(6, 6, Opening::Any)).unwrap();
        let b = Geometry::<u64>::get(variant(6, 6, Opening::Any)).unwrap();
        assert!(std::ptr::eq(a, b));
    }
}
