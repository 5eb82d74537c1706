//! Square patterns: what each square sees along its four lines, weighed by a table
//! fitted to the solver's verdicts.
//!
//! A square's pattern is the state of the eight squares one and two steps away from it
//! to the north, east, south and west: empty, holding a stone, or off the board. Around
//! a stone, these are exactly the squares that decide which jumps the stone has, which
//! jumps over it the opponent has, and which of its jumps are blocked only for now, so
//! the patterns see what the move counts see and more: a stone that can be captured
//! from two sides, a jump that cannot be taken away, a stone walled in for good. Around
//! an empty square they say who can land there, now or later: a hole that a stone can
//! jump into, one that two stones contest, one nothing will reach again. Colours need
//! no states of their own: every square has a fixed colour, so a stone one step away is
//! of the other colour and one two steps away of the square's own colour.
//!
//! Each square is weighed by what it holds ([`Kind`]: a stone of the side to move or of
//! the opponent, an empty square of either colour) and its pattern. A pattern is
//! looked at the same way in all eight orientations of the board (the four arms
//! rotated and mirrored), so the table's weights are tied across them, and one table
//! serves every board size: the squares off the board are part of the pattern. The
//! weights are fitted by `scripts/tune-patterns` (logistic regression of the solver's
//! verdicts on 6x6 to 7x7 positions), which writes `pattern_weights.rs`.

use std::sync::LazyLock;

use crate::rules::{Bitboard, Direction, Position};

use super::score::Score;

mod weights {
    include!("pattern_weights.rs");
}

pub use weights::{FITTED, LINEAR, SCALE};

/// States of one arm: the square one step away and the one two steps away, each
/// empty (0), holding a stone (1) or off the board (2), as `3 * near + far`.
pub const ARM_STATES: usize = 9;

/// Number of pattern codes: four arms (north, east, south, west, the order of
/// [`Direction::ALL`]), the north arm the most significant digit in base 9.
pub const CODES: usize = ARM_STATES * ARM_STATES * ARM_STATES * ARM_STATES;

/// The four arms of `code`, north first.
const fn arms(code: usize) -> [usize; 4] {
    [
        code / (ARM_STATES * ARM_STATES * ARM_STATES),
        code / (ARM_STATES * ARM_STATES) % ARM_STATES,
        code / ARM_STATES % ARM_STATES,
        code % ARM_STATES,
    ]
}

const fn code_of(a: [usize; 4]) -> usize {
    ((a[0] * ARM_STATES + a[1]) * ARM_STATES + a[2]) * ARM_STATES + a[3]
}

/// The smallest code among the eight rotations and mirror images of `code`: patterns
/// with the same canonical code share a weight.
#[must_use]
pub const fn canonical(code: usize) -> usize {
    let a = arms(code);
    let mut best = code;
    let mut turn = 0;
    while turn < 4 {
        let rotated = [
            a[turn],
            a[(turn + 1) % 4],
            a[(turn + 2) % 4],
            a[(turn + 3) % 4],
        ];
        let mirrored = [rotated[0], rotated[3], rotated[2], rotated[1]];
        let (r, m) = (code_of(rotated), code_of(mirrored));
        if r < best {
            best = r;
        }
        if m < best {
            best = m;
        }
        turn += 1;
    }
    best
}

/// The largest room byte ([`Geometry::room`](crate::rules::Geometry::room)): two
/// squares beyond in every direction.
const ROOM_MAX: usize = 0b1010_1010;

/// What a square holds, as the weights tell it apart: a stone is weighed by whose it
/// is, an empty square by its colour (whose stones could land on it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A stone of the side to move.
    OwnStone = 0,
    /// A stone of the opponent.
    TheirStone = 1,
    /// An empty square of the side to move's colour.
    OwnEmpty = 2,
    /// An empty square of the opponent's colour.
    TheirEmpty = 3,
}

impl Kind {
    /// Every kind, in the order of the weights of a [`FITTED`] entry.
    pub const ALL: [Kind; KINDS] = [
        Kind::OwnStone,
        Kind::TheirStone,
        Kind::OwnEmpty,
        Kind::TheirEmpty,
    ];

    /// The kind of a square: empty or not, of the side to move's colour or not.
    #[inline(always)]
    const fn of(empty: bool, own_colour: bool) -> Kind {
        match (empty, own_colour) {
            (false, true) => Kind::OwnStone,
            (false, false) => Kind::TheirStone,
            (true, true) => Kind::OwnEmpty,
            (true, false) => Kind::TheirEmpty,
        }
    }

    /// Whether the square holds a stone.
    #[must_use]
    pub const fn is_stone(self) -> bool {
        matches!(self, Kind::OwnStone | Kind::TheirStone)
    }
}

/// Number of [`Kind`]s.
pub const KINDS: usize = 4;

/// The weights of a square, by its kind, the room byte of the square and the occupancy
/// of its eight squares (bit `2k` the square one step away in direction `k`, bit
/// `2k + 1` the one two steps away; bits of squares off the board do not matter).
/// Expanded from the fitted canonical weights on first use.
static TABLE: LazyLock<Box<Table>> = LazyLock::new(|| expand(weights::FITTED));

type Table = [[[i16; 256]; ROOM_MAX + 1]; KINDS];

/// For each room byte, the occupancy bits of the squares on the board.
static ON_BOARD: [usize; ROOM_MAX + 1] = {
    let mut masks = [0; ROOM_MAX + 1];
    let mut room = 0;
    while room <= ROOM_MAX {
        let mut k = 0;
        while k < 4 {
            let beyond = (room >> (2 * k)) & 3;
            if beyond >= 1 {
                masks[room] |= 1 << (2 * k);
            }
            if beyond >= 2 {
                masks[room] |= 1 << (2 * k + 1);
            }
            k += 1;
        }
        room += 1;
    }
    masks
};

/// The pattern code of a stone on a square with room byte `room` and occupancy
/// `stones` around it.
const fn code_at(room: usize, stones: usize) -> usize {
    let mut a = [0; 4];
    let mut k = 0;
    while k < 4 {
        let beyond = (room >> (2 * k)) & 3;
        let near = if beyond >= 1 {
            (stones >> (2 * k)) & 1
        } else {
            2
        };
        let far = if beyond >= 2 {
            (stones >> (2 * k + 1)) & 1
        } else {
            2
        };
        a[k] = 3 * near + far;
        k += 1;
    }
    code_of(a)
}

fn expand(fitted: &[(u16, [i16; KINDS])]) -> Box<Table> {
    let mut table = Box::new([[[0; 256]; ROOM_MAX + 1]; KINDS]);
    for room in 0..=ROOM_MAX {
        for stones in 0..256 {
            let key = canonical(code_at(room, stones)) as u16;
            if let Ok(i) = fitted.binary_search_by_key(&key, |entry| entry.0) {
                for kind in 0..KINDS {
                    table[kind][room][stones] = fitted[i].1[kind];
                }
            }
        }
    }
    table
}

/// Spreads the eight bits of `byte` to the lowest bit of each byte of a word: bit `i`
/// goes to bit `8 i`. The multiplication's partial products do not overlap, so no
/// carry disturbs the result.
#[inline(always)]
const fn spread(byte: u64) -> u64 {
    ((byte & 0x7f) * 0x0002_0408_1020_4081) & 0x0101_0101_0101_0101 | (byte & 0x80) << 49
}

/// Calls `f(word, around)` for each 64-square word of the board that holds squares:
/// `around[i]` is the occupancy of the eight squares the pattern of square `64 * word +
/// i` looks at (bit `2k` the square one step away in direction `k`, bit `2k + 1` the one
/// two steps away; the bits of squares off the board are whatever the shifted words
/// hold, which [`ON_BOARD`] masks away).
///
/// For each of those eight squares, the occupancy shifted so that each square sees it
/// ("views"); then eight squares at a time, the views' bits are spread into one byte per
/// square.
#[inline(always)]
fn for_each_word<B: Bitboard>(pos: &Position<B>, mut f: impl FnMut(usize, &[u8; 64])) {
    let g = pos.geometry();
    let occupied = pos.occupied();
    let mut views = [B::EMPTY; 8];
    for dir in Direction::ALL {
        let step = g.step(dir);
        views[2 * dir.index()] = occupied.shifted(-step);
        views[2 * dir.index() + 1] = occupied.shifted(-2 * step);
    }
    let board = g.board();
    for word in 0..B::CAPACITY / 64 {
        let squares = board.word(word);
        if squares == 0 {
            continue;
        }
        let view_words = views.map(|v| v.word(word));
        let mut around = [0; 64];
        for group in 0..8 {
            let shift = 8 * group;
            if (squares >> shift) & 0xff == 0 {
                continue;
            }
            let mut bytes = 0;
            for (k, view) in view_words.iter().enumerate() {
                bytes |= spread((view >> shift) & 0xff) << k;
            }
            around[8 * group..8 * group + 8].copy_from_slice(&bytes.to_le_bytes());
        }
        f(word, &around);
    }
}

/// The squares of `pos` of each kind, in the order of [`Kind::ALL`].
#[inline(always)]
fn kind_masks<B: Bitboard>(pos: &Position<B>) -> [B; KINDS] {
    let g = pos.geometry();
    let occupied = pos.occupied();
    let empty = g.board() & !occupied;
    let own_colour = g.squares_of(pos.side_to_move());
    [
        occupied & own_colour,
        occupied & !own_colour,
        empty & own_colour,
        empty & !own_colour,
    ]
}

/// Calls `f(kind, code)` for each square of `pos`, lowest first: what it holds, and its
/// pattern code.
pub fn for_each_square<B: Bitboard>(pos: &Position<B>, mut f: impl FnMut(Kind, usize)) {
    let g = pos.geometry();
    let occupied = pos.occupied();
    let own_colour = g.squares_of(pos.side_to_move());
    for_each_word(pos, |word, around| {
        for i in g.board().word(word).squares() {
            let square = 64 * word + i;
            let kind = Kind::of(!occupied.has(square), own_colour.has(square));
            f(
                kind,
                code_at(usize::from(g.room(square)), usize::from(around[i])),
            );
        }
    });
}

/// The sum of the pattern weights of every square of `pos`, for the side to move.
///
/// The squares are taken kind by kind, each kind's weights at hand for the whole loop:
/// half again as fast as one loop over the squares that tells their kinds apart.
#[inline]
#[must_use]
pub fn score<B: Bitboard>(pos: &Position<B>) -> Score {
    let table: &Table = &TABLE;
    let g = pos.geometry();
    let kinds = kind_masks(pos);
    let mut total = 0;
    for_each_word(pos, |word, around| {
        for (weights, squares) in table.iter().zip(kinds) {
            for i in squares.word(word).squares() {
                let room = usize::from(g.room(64 * word + i));
                // Off-board bits cleared, so that the squares of one edge share a few
                // table entries (and cache lines) instead of spreading over all 256.
                total += Score::from(weights[room][usize::from(around[i]) & ON_BOARD[room]]);
            }
        }
    });
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_codes_are_shared_by_all_eight_orientations() {
        // North arm: near stone, far empty (3); east: off board (8); south, west empty.
        let code = code_of([3, 8, 0, 0]);
        let expected = canonical(code);
        for a in [
            [8, 0, 0, 3],
            [0, 0, 3, 8],
            [0, 3, 8, 0],
            [3, 0, 0, 8],
            [0, 0, 8, 3],
        ] {
            assert_eq!(canonical(code_of(a)), expected, "{a:?}");
        }
        assert_ne!(canonical(code_of([3, 0, 8, 0])), expected);
        assert!(expected <= code);
    }
}
