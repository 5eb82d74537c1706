//! Squares by file and rank, and the four directions a stone can jump in.

use std::fmt;

use super::variant::MAX_SIDE;

/// A square named by its file (`a` = 0) and rank (`1` = 0), on a board of up to 16x16.
///
/// A `Square` knows nothing of a particular board: whether it lies on one is a question
/// for [`Geometry`](super::Geometry). It prints as in chess (`d5`, `p16`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    file: u8,
    rank: u8,
}

impl Square {
    /// The square at `file`, `rank` (both counted from 0), or `None` past the 16x16 board.
    #[must_use]
    pub fn new(file: usize, rank: usize) -> Option<Square> {
        let limit = usize::from(MAX_SIDE);
        (file < limit && rank < limit).then_some(Square {
            file: file as u8,
            rank: rank as u8,
        })
    }

    /// File, counted from 0 (`a`).
    #[must_use]
    pub const fn file(self) -> usize {
        self.file as usize
    }

    /// Rank, counted from 0 (rank `1`).
    #[must_use]
    pub const fn rank(self) -> usize {
        self.rank as usize
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.file), self.rank + 1)
    }
}

/// One of the four orthogonal directions a jump can take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards higher ranks.
    North = 0,
    /// Towards higher files.
    East = 1,
    /// Towards lower ranks.
    South = 2,
    /// Towards lower files.
    West = 3,
}

impl Direction {
    /// All four directions, in the order move generation tries them.
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    /// Index into per-direction tables.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The change of (file, rank) for one step.
    #[must_use]
    pub const fn delta(self) -> (isize, isize) {
        match self {
            Direction::North => (0, 1),
            Direction::East => (1, 0),
            Direction::South => (0, -1),
            Direction::West => (-1, 0),
        }
    }

    /// The direction of the straight line from `from` to `to`, if they share a file or
    /// a rank and differ.
    #[must_use]
    pub fn between(from: Square, to: Square) -> Option<Direction> {
        use std::cmp::Ordering::*;
        match (to.file().cmp(&from.file()), to.rank().cmp(&from.rank())) {
            (Equal, Greater) => Some(Direction::North),
            (Greater, Equal) => Some(Direction::East),
            (Equal, Less) => Some(Direction::South),
            (Less, Equal) => Some(Direction::West),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_print_like_chess() {
        assert_eq!(Square::new(3, 4).unwrap().to_string(), "d5");
        assert_eq!(Square::new(15, 15).unwrap().to_string(), "p16");
        assert!(Square::new(16, 0).is_none());
    }

    #[test]
    fn direction_between_squares_on_a_line() {
        let d5 = Square::new(3, 4).unwrap();
        let d3 = Square::new(3, 2).unwrap();
        let f5 = Square::new(5, 4).unwrap();
        assert_eq!(Direction::between(d5, d3), Some(Direction::South));
        assert_eq!(Direction::between(d5, f5), Some(Direction::East));
        assert_eq!(Direction::between(d3, f5), None);
        assert_eq!(Direction::between(d5, d5), None);
    }
}
