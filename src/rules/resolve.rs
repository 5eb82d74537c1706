//! From text to rules and back: position text to a position, move text to a legal move,
//! and a move to its one canonical text.

use std::fmt;

use thiserror::Error;

use super::bitboard::Bitboard;
use super::geometry::Geometry;
use super::moves::Move;
use super::notation::{MoveText, MoveTextError, PositionText, write_position};
use super::position::{ImpossiblePosition, Phase, Position};
use super::square::{Direction, Square};
use super::variant::{BoardSize, Color, MultiJump, Opening};

/// Why a move that reads well is not legal in the position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum IllegalReason {
    /// A named square is not on the board.
    #[error("{0} is off the {1} board")]
    OffBoard(Square, BoardSize),
    /// The side to move has no legal move at all.
    #[error("the game is over: {0} has no legal move")]
    GameOver(Color),
    /// A removal is due but a jump was given.
    #[error("{0} must remove one of its stones, named by one square")]
    MustRemove(Color),
    /// A jump is due but one square was given.
    #[error("the removals are over; {0} must jump")]
    MustJump(Color),
    /// The first square does not hold a stone of the side to move.
    #[error("there is no {0} stone on {1}")]
    NotOwnStone(Color, Square),
    /// Black's first removal is not allowed by the opening rule.
    #[error("black may not open by removing {0} under the {1} opening rule")]
    FirstRemoval(Square, Opening),
    /// White's removal is not next to the gap.
    #[error("white must remove a stone next to the gap at {0}")]
    NotNextToGap(Square),
    /// Two consecutive squares are not on one file or rank.
    #[error("{0} to {1} is not along a file or rank")]
    NotInLine(Square, Square),
    /// Two consecutive squares are an odd number of squares apart.
    #[error("{0} to {1} is not a whole number of jumps (each jump covers two squares)")]
    OddDistance(Square, Square),
    /// A jump's middle square does not hold an enemy stone.
    #[error("no {0} stone on {1} to jump over")]
    NothingToJump(Color, Square),
    /// A jump lands on a stone.
    #[error("{0} is not empty")]
    Occupied(Square),
    /// A turn under the straight rule.
    #[error("the straight multi-jump rule forbids changing direction at {0}")]
    Turn(Square),
}

/// A move that is not legal in the position, with the reason.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("illegal move '{text}': {reason}")]
pub struct IllegalMove {
    /// The move as written.
    pub text: String,
    /// What is wrong with it.
    pub reason: IllegalReason,
}

/// Move text that is unreadable or illegal.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not a list of squares.
    #[error(transparent)]
    Syntax(#[from] MoveTextError),
    /// The squares do not make a legal move here.
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
}

impl<B: Bitboard> Position<B> {
    /// The position a [`PositionText`] describes under `geo`'s rules. The board size of
    /// `geo` must be that of the text.
    pub fn from_text(
        geo: &'static Geometry<B>,
        text: &PositionText,
    ) -> Result<Position<B>, ImpossiblePosition> {
        assert_eq!(
            (geo.width(), geo.height()),
            (text.width(), text.height()),
            "geometry chosen for another board size"
        );
        let mut occupied = B::EMPTY;
        for rank in 0..text.height() {
            for file in 0..text.width() {
                if text.stone(file, rank).is_some() {
                    occupied |= B::single(rank * text.width() + file);
                }
            }
        }
        Position::new(geo, occupied, text.side_to_move())
    }

    /// Reads and checks a move: the fast path is [`Position::play_unchecked`] with a
    /// generated move; this is for text from outside.
    pub fn parse_move(&self, text: &str) -> Result<Move<B>, MoveError> {
        let written: MoveText = text.parse()?;
        Ok(self.resolve(&written)?)
    }

    /// Plays a move given as text, or says why it cannot be played (leaving the
    /// position as it was).
    pub fn play_text(&mut self, text: &str) -> Result<Move<B>, MoveError> {
        let m = self.parse_move(text)?;
        self.play_unchecked(m);
        Ok(m)
    }

    /// The legal move that `written` names here.
    pub fn resolve(&self, written: &MoveText) -> Result<Move<B>, IllegalMove> {
        let illegal = |reason| IllegalMove {
            text: written.to_string(),
            reason,
        };
        let geo = self.geometry();
        let side = self.side_to_move();
        let squares = written.squares();
        let mut indices = Vec::with_capacity(squares.len());
        for &sq in squares {
            let index = geo
                .index(sq)
                .ok_or_else(|| illegal(IllegalReason::OffBoard(sq, self.variant().size)))?;
            indices.push(index);
        }
        if !self.has_legal_move() {
            return Err(illegal(IllegalReason::GameOver(side)));
        }
        let from = indices[0];
        if !self.stones(side).has(from) {
            return Err(illegal(IllegalReason::NotOwnStone(side, squares[0])));
        }
        match (self.phase(), indices.len()) {
            (Phase::Jumping, 1) => Err(illegal(IllegalReason::MustJump(side))),
            (Phase::Jumping, _) => self.resolve_jump(squares, &indices).map_err(illegal),
            (_, 1) => self.resolve_removal(squares[0], from).map_err(illegal),
            (_, _) => Err(illegal(IllegalReason::MustRemove(side))),
        }
    }

    fn resolve_removal(&self, square: Square, index: usize) -> Result<Move<B>, IllegalReason> {
        let geo = self.geometry();
        match self.phase() {
            Phase::BlackRemoval if !geo.first_removals().has(index) => {
                Err(IllegalReason::FirstRemoval(square, self.variant().opening))
            }
            Phase::WhiteRemoval => {
                let gap = self.empty().lowest();
                let next_to_gap = Direction::ALL
                    .iter()
                    .any(|&d| geo.neighbour(gap, d) == Some(index));
                if next_to_gap {
                    Ok(Move::removal(index))
                } else {
                    Err(IllegalReason::NotNextToGap(geo.square(gap)))
                }
            }
            _ => Ok(Move::removal(index)),
        }
    }

    fn resolve_jump(
        &self,
        squares: &[Square],
        indices: &[usize],
    ) -> Result<Move<B>, IllegalReason> {
        let geo = self.geometry();
        let from = indices[0];
        let mut enemy = self.stones(self.side_to_move().opponent());
        let landable = self.empty() | B::single(from);
        let mut captured = B::EMPTY;
        let mut first_direction = None;
        for (pair, leg) in squares.windows(2).zip(indices.windows(2)) {
            let (a, b) = (pair[0], pair[1]);
            let dir = Direction::between(a, b).ok_or(IllegalReason::NotInLine(a, b))?;
            let distance = a.file().abs_diff(b.file()) + a.rank().abs_diff(b.rank());
            if distance % 2 != 0 {
                return Err(IllegalReason::OddDistance(a, b));
            }
            let first = *first_direction.get_or_insert(dir);
            if self.variant().multi_jump == MultiJump::Straight && dir != first {
                return Err(IllegalReason::Turn(a));
            }
            let mut at = leg[0];
            while at != leg[1] {
                #[expect(
                    clippy::expect_used,
                    reason = "`a` and `b` are board squares an even distance apart on one line"
                )]
                let (over, to) = geo
                    .neighbour(at, dir)
                    .and_then(|over| Some((over, geo.neighbour(over, dir)?)))
                    .expect("every step between two board squares stays on the board");
                if !enemy.has(over) {
                    let colour = self.side_to_move().opponent();
                    return Err(IllegalReason::NothingToJump(colour, geo.square(over)));
                }
                if !landable.has(to) {
                    return Err(IllegalReason::Occupied(geo.square(to)));
                }
                enemy ^= B::single(over);
                captured |= B::single(over);
                at = to;
            }
        }
        Ok(Move::jump(from, indices[indices.len() - 1], captured))
    }

    /// The canonical text of `m`, a move of this position.
    #[must_use]
    pub fn move_text(&self, m: Move<B>) -> String {
        self.geometry().move_text(m)
    }
}

impl<B: Bitboard> Geometry<B> {
    /// The canonical text of `m`: its start square, then the square where each straight
    /// run of jumps ends (for a removal, its square). When several paths have this
    /// effect, the text is that of the first in generation order.
    #[must_use]
    pub fn move_text(&self, m: Move<B>) -> String {
        match self.move_paths(m, 1).first() {
            Some(path) => self.path_text(path),
            None => self.square(m.from()).to_string(),
        }
    }

    /// Up to `limit` jump paths with the effect of `m`, in generation order, each as
    /// the list of squares the stone stands on (start first). Empty for a removal.
    #[must_use]
    pub fn move_paths(&self, m: Move<B>, limit: usize) -> Vec<Vec<usize>> {
        let mut found = Vec::new();
        if !m.is_removal() {
            let mut path = vec![m.from()];
            self.find_paths(m, m.captured(), &mut path, &mut found, limit);
        }
        found
    }

    fn find_paths(
        &self,
        m: Move<B>,
        left: B,
        path: &mut Vec<usize>,
        found: &mut Vec<Vec<usize>>,
        limit: usize,
    ) {
        let Some(&at) = path.last() else {
            return;
        };
        if left.is_empty() {
            if at == m.to() {
                found.push(path.clone());
            }
            return;
        }
        for dir in Direction::ALL {
            if found.len() >= limit {
                return;
            }
            let Some(over) = self.neighbour(at, dir).filter(|&o| left.has(o)) else {
                continue;
            };
            let Some(to) = self.neighbour(over, dir) else {
                continue;
            };
            path.push(to);
            self.find_paths(m, left ^ B::single(over), path, found, limit);
            path.pop();
        }
    }

    /// The text of a path given as the squares the stone stands on: the start, each
    /// turning point, the end.
    #[must_use]
    pub fn path_text(&self, path: &[usize]) -> String {
        let squares: Vec<Square> = path.iter().map(|&i| self.square(i)).collect();
        let mut text = squares[0].to_string();
        for i in 1..squares.len() {
            let last = i + 1 == squares.len();
            if last
                || Direction::between(squares[i - 1], squares[i])
                    != Direction::between(squares[i], squares[i + 1])
            {
                text.push_str(&squares[i].to_string());
            }
        }
        text
    }

    /// The ASCII board of a position: rank numbers on the left, files below.
    pub(crate) fn write_diagram(&self, out: &mut impl fmt::Write, occupied: B) -> fmt::Result {
        for rank in (0..self.height()).rev() {
            write!(out, "{:>2} ", rank + 1)?;
            for file in 0..self.width() {
                let index = rank * self.width() + file;
                let c = match (occupied.has(index), self.colour_of(index)) {
                    (false, _) => '.',
                    (true, Color::Black) => 'b',
                    (true, Color::White) => 'w',
                };
                write!(out, " {c}")?;
            }
            writeln!(out)?;
        }
        write!(out, "   ")?;
        for file in 0..self.width() {
            write!(out, " {}", char::from(b'a' + file as u8))?;
        }
        writeln!(out)
    }
}

impl<B: Bitboard> Position<B> {
    /// The board drawn in ASCII with coordinates, one line per rank.
    #[must_use]
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        #[expect(clippy::expect_used, reason = "writing to a String cannot fail")]
        self.geometry()
            .write_diagram(&mut out, self.occupied())
            .expect("writing to a String cannot fail");
        out
    }
}

impl<B: Bitboard> fmt::Display for Position<B> {
    /// The position text (`bwbw/wbwb/bwbw/wbwb b`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let geo = self.geometry();
        let stone = |file: usize, rank: usize| {
            let index = rank * geo.width() + file;
            self.occupied().has(index).then(|| geo.colour_of(index))
        };
        write_position(f, geo.width(), geo.height(), stone, self.side_to_move())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::Variant;

    fn start(variant: Variant) -> Position<u64> {
        Position::start(Geometry::get(variant).unwrap())
    }

    fn texts(pos: &Position<u64>) -> Vec<String> {
        let mut t: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|&m| pos.move_text(m))
            .collect();
        t.sort();
        t
    }

    #[test]
    fn worked_example_from_the_rules() {
        let mut pos = start(Variant::default());
        assert_eq!(texts(&pos), ["a8", "d5", "e4", "h1"]);
        pos.play_text("d5").unwrap();
        assert_eq!(pos.phase(), Phase::WhiteRemoval);
        assert_eq!(texts(&pos), ["c5", "d4", "d6", "e5"]);
        pos.play_text("d4").unwrap();
        assert_eq!(pos.phase(), Phase::Jumping);
        assert_eq!(texts(&pos), ["b5d5", "d7d5", "f5d5"]);
    }

    #[test]
    fn illegal_moves_say_why() {
        let mut pos = start(Variant::default());
        let err = |pos: &Position<u64>, text: &str| pos.parse_move(text).unwrap_err().to_string();
        assert_eq!(
            err(&pos, "c6"),
            "illegal move 'c6': black may not open by removing c6 under the diagonal opening rule"
        );
        assert_eq!(
            err(&pos, "d4"),
            "illegal move 'd4': there is no black stone on d4"
        );
        assert_eq!(
            err(&pos, "i9"),
            "illegal move 'i9': i9 is off the 8x8 board"
        );
        assert_eq!(
            err(&pos, "d5d3"),
            "illegal move 'd5d3': black must remove one of its stones, named by one square"
        );
        pos.play_text("d5").unwrap();
        assert_eq!(
            err(&pos, "a1"),
            "illegal move 'a1': white must remove a stone next to the gap at d5"
        );
        pos.play_text("d4").unwrap();
        assert_eq!(
            err(&pos, "d7d6"),
            "illegal move 'd7d6': d7 to d6 is not a whole number of jumps (each jump covers two squares)"
        );
        assert_eq!(
            err(&pos, "d7e5"),
            "illegal move 'd7e5': d7 to e5 is not along a file or rank"
        );
        assert_eq!(
            err(&pos, "d7d3"),
            "illegal move 'd7d3': no white stone on d4 to jump over"
        );
        assert_eq!(err(&pos, "b3d3"), "illegal move 'b3d3': d3 is not empty");
        assert_eq!(
            err(&pos, "d5"),
            "illegal move 'd5': there is no black stone on d5"
        );
        assert_eq!(
            err(&pos, "b5"),
            "illegal move 'b5': the removals are over; black must jump"
        );
        assert_eq!(
            err(&pos, "d5z"),
            "move 'd5z': expected a square (a1 to p16) at character 3, found 'z'"
        );
    }

    #[test]
    fn straight_rule_forbids_turns_and_turning_rule_allows_them() {
        // Black on b5 can jump c5 to d5, then d4 to d3 only by turning.
        let text = "8/8/8/1bw5/3w4/8/8/8 b";
        let pt: PositionText = text.parse().unwrap();
        let straight = Geometry::<u64>::get(Variant::default()).unwrap();
        let pos = Position::from_text(straight, &pt).unwrap();
        assert_eq!(
            pos.parse_move("b5d5d3").unwrap_err().to_string(),
            "illegal move 'b5d5d3': the straight multi-jump rule forbids changing direction at d5"
        );
        let turning = Geometry::<u64>::get(Variant {
            multi_jump: MultiJump::Turning,
            ..Variant::default()
        })
        .unwrap();
        let pos = Position::from_text(turning, &pt).unwrap();
        assert_eq!(texts(&pos), ["b5d5", "b5d5d3"]);
        let m = pos.parse_move("b5-d5-d3").unwrap();
        assert_eq!(pos.after(m).to_string(), "8/8/8/8/8/3b4/8/8 w");
    }

    #[test]
    fn every_landing_square_names_the_same_move() {
        let pt: PositionText = "8/8/8/1bw1w3/8/8/8/8 b".parse().unwrap();
        let pos =
            Position::from_text(Geometry::<u64>::get(Variant::default()).unwrap(), &pt).unwrap();
        let long = pos.parse_move("b5d5f5").unwrap();
        assert_eq!(pos.parse_move("b5f5").unwrap(), long);
        assert_eq!(pos.move_text(long), "b5f5");
    }

    #[test]
    fn a_loop_returns_to_its_start_and_both_ways_round_are_one_effect() {
        // The black stone on a1 can run round the four white stones b1, c2, b3, a2.
        let pt: PositionText = "5/5/1w3/w1w2/bw3 b".parse().unwrap();
        let variant = Variant {
            size: BoardSize::new(5, 5).unwrap(),
            multi_jump: MultiJump::Turning,
            ..Variant::default()
        };
        let pos = Position::from_text(Geometry::<u64>::get(variant).unwrap(), &pt).unwrap();
        assert_eq!(
            texts(&pos),
            [
                "a1a3",
                "a1a3c3",
                "a1a3c3c1",
                "a1a3c3c1a1",
                "a1c1",
                "a1c1c3",
                "a1c1c3a3"
            ]
        );
        assert_eq!(pos.count_moves(), 8, "perft counts both ways round");
        let stop = std::sync::atomic::AtomicBool::new(false);
        let mut lines: Vec<String> = crate::rules::Perft::new(&stop)
            .divide(&pos, 1)
            .unwrap()
            .into_iter()
            .map(|(text, n)| format!("{text}:{n}"))
            .collect();
        lines.sort();
        assert!(lines.contains(&"a1a3c3c1a1:1".to_string()), "{lines:?}");
        assert!(lines.contains(&"a1c1c3a3a1:1".to_string()), "{lines:?}");
        let round = pos.parse_move("a1c1c3a3a1").unwrap();
        assert_eq!(round, pos.parse_move("a1a3c3c1a1").unwrap());
        assert_eq!(pos.after(round).to_string(), "5/5/5/5/b4 w");
    }
}
