//! Position text and move text, as `docs/rules.md` defines them.
//!
//! Reading is in two steps, as in shakmaty: text becomes syntax ([`MoveText`],
//! [`PositionText`]) that can fail with a parse error saying where; syntax becomes a
//! legal move or a possible position for the rules in force, which can fail with an
//! error saying why.

use std::fmt;

use nom::branch::alt;
use nom::character::complete::{char, digit1, one_of, satisfy};
use nom::combinator::{all_consuming, map, map_opt, opt};
use nom::multi::{many0, many1};
use nom::sequence::preceded;
use nom::{IResult, Parser};
use thiserror::Error;

use super::square::Square;
use super::variant::{Color, MAX_SIDE, MIN_SIDE};

/// A move as written: the squares it names, before any rule is applied.
///
/// One square is a removal; two or more are a jump path through its turning points
/// (or through every landing square: both are accepted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    squares: Vec<Square>,
}

impl MoveText {
    /// The squares named, in order.
    #[must_use]
    pub fn squares(&self) -> &[Square] {
        &self.squares
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.squares.iter().try_for_each(|s| write!(f, "{s}"))
    }
}

/// Move text that is not a list of squares.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveTextError {
    /// Nothing was given.
    #[error("empty move text")]
    Empty,
    /// The text stops being squares at `column` (counted from 1).
    #[error("move '{text}': expected a square (a1 to p16) at character {column}, found '{found}'")]
    Unexpected {
        /// The whole move text.
        text: String,
        /// Where reading stopped, counted in characters from 1.
        column: usize,
        /// The rest of the text from there.
        found: String,
    },
}

/// Longest move text read; anything longer is refused before parsing. A path on a 16x16
/// board has at most 112 jumps of at most 4 characters each, plus separators.
const MAX_MOVE_TEXT: usize = 1024;

fn square(input: &str) -> IResult<&str, Square> {
    let file = map(satisfy(|c| matches!(c, 'a'..='p' | 'A'..='P')), |c| {
        usize::from(c.to_ascii_lowercase() as u8 - b'a')
    });
    let rank = map_opt(digit1, |digits: &str| {
        let value: usize = digits.parse().ok()?;
        let canonical = !digits.starts_with('0');
        (canonical && (1..=usize::from(MAX_SIDE)).contains(&value)).then(|| value - 1)
    });
    map_opt((file, rank), |(f, r)| Square::new(f, r)).parse(input)
}

fn squares(input: &str) -> IResult<&str, Vec<Square>> {
    let (rest, first) = square(input)?;
    let (rest, more) = many0(preceded(opt(one_of("-xX")), square)).parse(rest)?;
    let mut all = Vec::with_capacity(more.len() + 1);
    all.push(first);
    all.extend(more);
    Ok((rest, all))
}

impl std::str::FromStr for MoveText {
    type Err = MoveTextError;

    /// Reads `d5`, `d7d5`, `d7d3`, `d7d5d3`, `c3-c5`, `g8xg7`.
    fn from_str(text: &str) -> Result<MoveText, MoveTextError> {
        if text.is_empty() {
            return Err(MoveTextError::Empty);
        }
        let unexpected = |rest: &str| MoveTextError::Unexpected {
            text: text.chars().take(40).collect(),
            column: text[..text.len() - rest.len()].chars().count() + 1,
            found: rest.chars().take(12).collect(),
        };
        if text.len() > MAX_MOVE_TEXT {
            return Err(unexpected(&text[text.floor_char_boundary(MAX_MOVE_TEXT)..]));
        }
        match all_consuming(squares).parse(text) {
            Ok((_, squares)) => Ok(MoveText { squares }),
            Err(nom::Err::Error(e) | nom::Err::Failure(e)) => Err(unexpected(e.input)),
            Err(nom::Err::Incomplete(_)) => Err(unexpected("")),
        }
    }
}

/// One rank of a position text, read left to right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Stone(Color),
    Gap(usize),
}

fn cell(input: &str) -> IResult<&str, Cell> {
    alt((
        map(char('b'), |_| Cell::Stone(Color::Black)),
        map(char('w'), |_| Cell::Stone(Color::White)),
        map_opt(digit1, |digits: &str| {
            let n: usize = digits.parse().ok()?;
            (digits.len() <= 2 && n >= 1 && !digits.starts_with('0')).then_some(Cell::Gap(n))
        }),
    ))
    .parse(input)
}

/// A position as written: its board (top rank first) and side to move, with no rule
/// applied yet beyond the shape of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionText {
    width: usize,
    height: usize,
    /// `cells[rank * width + file]`, rank 0 at the bottom, as bit indices count.
    cells: Vec<Option<Color>>,
    side: Color,
}

impl PositionText {
    /// Number of files.
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of ranks.
    #[must_use]
    pub fn height(&self) -> usize {
        self.height
    }

    /// The stone on `file`, `rank` (from 0 at a1), if any.
    #[must_use]
    pub fn stone(&self, file: usize, rank: usize) -> Option<Color> {
        self.cells[rank * self.width + file]
    }

    /// The side to move.
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
}

/// Position text that does not describe a board.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionTextError {
    /// No board was given.
    #[error("empty position text")]
    Empty,
    /// The side to move is missing.
    #[error("position text needs the side to move (b or w) after the board")]
    MissingSide,
    /// The side to move is not `b` or `w`.
    #[error("side to move must be b or w, not '{0}'")]
    BadSide(String),
    /// Something follows the side to move.
    #[error("unexpected '{0}' after the side to move")]
    Trailing(String),
    /// Too few or too many ranks.
    #[error("the board has {0} ranks; a board has {MIN_SIDE} to {MAX_SIDE}")]
    RankCount(usize),
    /// A rank has a character that is not a stone or a run of empty squares.
    #[error(
        "rank {rank}: unexpected '{found}' at character {column} (expected b, w or a number of empty squares from 1 to 16)"
    )]
    BadCell {
        /// The rank, numbered as on the board (the first rank of the text is the top).
        rank: usize,
        /// Counted in characters from 1 within the rank.
        column: usize,
        /// What was found.
        found: String,
    },
    /// A rank has nothing in it.
    #[error("rank {0} is empty")]
    EmptyRank(usize),
    /// Ranks of different widths.
    #[error("rank {rank} describes {found} squares but rank {top} describes {expected}")]
    RankWidth {
        /// The rank that differs.
        rank: usize,
        /// Its width.
        found: usize,
        /// The top rank.
        top: usize,
        /// The width of the top rank.
        expected: usize,
    },
    /// Too few or too many files.
    #[error("the board is {0} files wide; a board has {MIN_SIDE} to {MAX_SIDE}")]
    Width(usize),
    /// A stone on a square of the other colour, where no stone of its colour can be.
    #[error("a {colour} stone cannot stand on {square}, a {other} square", other = colour.opponent())]
    WrongColour {
        /// The colour of the stone.
        colour: Color,
        /// Where it stands.
        square: Square,
    },
}

const MAX_POSITION_TEXT: usize = 16 * 18 + 8;

impl std::str::FromStr for PositionText {
    type Err = PositionTextError;

    /// Reads `bwbw/wbwb/bwbw/wbwb b` and the like: ranks from the top separated by `/`,
    /// then the side to move. Checks that every stone stands on a square of its colour.
    fn from_str(text: &str) -> Result<PositionText, PositionTextError> {
        let mut fields = text.split_ascii_whitespace();
        let board = fields.next().ok_or(PositionTextError::Empty)?;
        let side = match fields.next() {
            None => return Err(PositionTextError::MissingSide),
            Some("b") => Color::Black,
            Some("w") => Color::White,
            Some(other) => {
                return Err(PositionTextError::BadSide(other.chars().take(20).collect()));
            }
        };
        if let Some(extra) = fields.next() {
            return Err(PositionTextError::Trailing(
                extra.chars().take(20).collect(),
            ));
        }
        let ranks: Vec<&str> = board.split('/').collect();
        let height = ranks.len();
        if !(usize::from(MIN_SIDE)..=usize::from(MAX_SIDE)).contains(&height)
            || board.len() > MAX_POSITION_TEXT
        {
            return Err(PositionTextError::RankCount(height));
        }
        let mut rows = Vec::with_capacity(height);
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = height - i;
            if rank_text.is_empty() {
                return Err(PositionTextError::EmptyRank(rank));
            }
            let cells = match all_consuming(many1(cell)).parse(rank_text) {
                Ok((_, cells)) => cells,
                Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
                    return Err(PositionTextError::BadCell {
                        rank,
                        column: rank_text[..rank_text.len() - e.input.len()].chars().count() + 1,
                        found: e.input.chars().take(3).collect(),
                    });
                }
                Err(nom::Err::Incomplete(_)) => return Err(PositionTextError::EmptyRank(rank)),
            };
            let mut row = Vec::new();
            for c in cells {
                match c {
                    Cell::Stone(colour) => row.push(Some(colour)),
                    Cell::Gap(n) => row.extend(std::iter::repeat_n(None, n)),
                }
                if row.len() > usize::from(MAX_SIDE) {
                    return Err(PositionTextError::Width(row.len()));
                }
            }
            rows.push((rank, row));
        }
        let width = rows[0].1.len();
        if width < usize::from(MIN_SIDE) {
            return Err(PositionTextError::Width(width));
        }
        for (rank, row) in &rows {
            if row.len() != width {
                return Err(PositionTextError::RankWidth {
                    rank: *rank,
                    found: row.len(),
                    top: height,
                    expected: width,
                });
            }
        }
        let mut cells = vec![None; width * height];
        for (rank, row) in rows {
            for (file, stone) in row.into_iter().enumerate() {
                let index = (rank - 1) * width + file;
                if let Some(colour) = stone {
                    // The top-left square is black and colours alternate.
                    let black_square = (file + height - rank).is_multiple_of(2);
                    if black_square != (colour == Color::Black) {
                        #[expect(
                            clippy::expect_used,
                            reason = "the text was checked to be at most 16x16 above"
                        )]
                        let square = Square::new(file, rank - 1).expect("within 16x16");
                        return Err(PositionTextError::WrongColour { colour, square });
                    }
                }
                cells[index] = stone;
            }
        }
        Ok(PositionText {
            width,
            height,
            cells,
            side,
        })
    }
}

/// Writes a board in position text form: `stone(file, rank)` for each square, ranks
/// from the top, then the side to move.
pub(crate) fn write_position(
    out: &mut impl fmt::Write,
    width: usize,
    height: usize,
    stone: impl Fn(usize, usize) -> Option<Color>,
    side: Color,
) -> fmt::Result {
    for rank in (0..height).rev() {
        let mut gap = 0;
        for file in 0..width {
            match stone(file, rank) {
                None => gap += 1,
                Some(colour) => {
                    if gap > 0 {
                        write!(out, "{gap}")?;
                        gap = 0;
                    }
                    out.write_char(colour.letter())?;
                }
            }
        }
        if gap > 0 {
            write!(out, "{gap}")?;
        }
        if rank > 0 {
            out.write_char('/')?;
        }
    }
    write!(out, " {}", side.letter())
}

impl fmt::Display for PositionText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_position(
            f,
            self.width,
            self.height,
            |file, rank| self.stone(file, rank),
            self.side,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        let file = usize::from(name.as_bytes()[0] - b'a');
        let rank: usize = name[1..].parse().unwrap();
        Square::new(file, rank - 1).unwrap()
    }

    #[test]
    fn move_text_accepts_separators_and_every_landing_square() {
        for (text, expected) in [
            ("d5", vec!["d5"]),
            ("d7d5", vec!["d7", "d5"]),
            ("d7d5d3", vec!["d7", "d5", "d3"]),
            ("c3-c5", vec!["c3", "c5"]),
            ("g8xg7", vec!["g8", "g7"]),
            ("a10a12", vec!["a10", "a12"]),
            ("p16-p14xn14", vec!["p16", "p14", "n14"]),
            ("D5", vec!["d5"]),
        ] {
            let mt: MoveText = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            let expected: Vec<Square> = expected.iter().map(|s| sq(s)).collect();
            assert_eq!(mt.squares(), expected, "{text}");
        }
    }

    #[test]
    fn move_text_errors_say_where() {
        let err = "d5z".parse::<MoveText>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "move 'd5z': expected a square (a1 to p16) at character 3, found 'z'"
        );
        for bad in [
            "", "z5", "d0", "d17", "d05", "d5-", "d5--d7", "q1", "5d", "d5 d7", "d",
        ] {
            assert!(bad.parse::<MoveText>().is_err(), "{bad:?} was accepted");
        }
        let long = "a1".repeat(2000);
        assert!(long.parse::<MoveText>().is_err());
    }

    #[test]
    fn position_text_round_trips() {
        for text in [
            "bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb b",
            "bwbwbw/wbwbwb/bw2bw/wbwbwb/bwbwbw/wbwbwb b",
            "b3/4/4/3b w",
            "16/16/16/16/16/16/16/16/16/16/16/16/16/16/16/15b w",
        ] {
            let pt: PositionText = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(pt.to_string(), text);
        }
    }

    #[test]
    fn position_text_errors_name_rank_and_character() {
        let cases = [
            ("", "empty position text"),
            (
                "bwbw/wbwb",
                "position text needs the side to move (b or w) after the board",
            ),
            ("bw/wb x", "side to move must be b or w, not 'x'"),
            ("bw/wb b extra", "unexpected 'extra' after the side to move"),
            ("bw b", "the board has 1 ranks; a board has 2 to 16"),
            (
                "bwbw/wbzb/bwbw/wbwb b",
                "rank 3: unexpected 'zb' at character 3 (expected b, w or a number of empty squares from 1 to 16)",
            ),
            (
                "bwbw/wbw/bwbw/wbwb b",
                "rank 3 describes 3 squares but rank 4 describes 4",
            ),
            ("bwbw//bwbw/wbwb b", "rank 3 is empty"),
            ("b/w b", "the board is 1 files wide; a board has 2 to 16"),
            ("17/17 b", "the board is 17 files wide; a board has 2 to 16"),
            (
                "bw/bw b",
                "a black stone cannot stand on a1, a white square",
            ),
            (
                "b0w/wbw b",
                "rank 2: unexpected '0w' at character 2 (expected b, w or a number of empty squares from 1 to 16)",
            ),
        ];
        for (text, message) in cases {
            let err = text.parse::<PositionText>().unwrap_err();
            assert_eq!(err.to_string(), message, "{text:?}");
        }
    }
}
