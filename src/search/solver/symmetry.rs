//! The board symmetries the solver folds positions by.
//!
//! A symmetry of the rectangle (a reflection or rotation that maps the board onto
//! itself) maps lines to lines and neighbours to neighbours, so it maps every jump path
//! to a jump path of the same shape. What it may do to the colouring is one of two
//! things, because every such map is affine and changes the parity of `file + rank` by
//! the same amount on every square:
//!
//! - it keeps the colouring (black squares to black squares): then it maps every legal
//!   move of a position to a legal move of the image, in every phase (corners go to
//!   corners and the central squares to the central squares, so the opening rules are
//!   kept too), and the image has the same outcome;
//! - it swaps the colours: then a black stone lands on a white square and becomes, as
//!   far as the rules can tell, a white stone. In the jumping phase both sides move by
//!   the same rule, so the image position *with the other side to move* is the same
//!   game with the players renamed: the side to move wins in one exactly when it wins in
//!   the other. The opening removals are not symmetric between the colours, so colour
//!   swapping symmetries are used in the jumping phase only.
//!
//! Which maps keep the colouring: mirroring the files keeps it when the width is odd,
//! mirroring the ranks when the height is odd, the half turn when `W + H` is even; on a
//! square board the two diagonal reflections always keep it and the quarter turns when
//! the side is odd. The others swap colours.
//!
//! The solver keys its table on the smallest image of a position, so all images of one
//! position share one entry. Each image's key is kept up to date move by move: a key is
//! the XOR of one value per occupied square, so a move changes it by the values of the
//! squares it toggles.

use crate::rules::{Bitboard, Color, Geometry};

/// A map of (file, rank) on a board of (width, height) to its image.
type SquareMap = fn(usize, usize, usize, usize) -> (usize, usize);

/// Most symmetries a rectangle has (a square's eight).
pub(super) const MAX_SYMMETRIES: usize = 8;

/// The symmetries of one board, with the per-square key values of each.
pub(super) struct Symmetries {
    count: usize,
    swaps_colour: [bool; MAX_SYMMETRIES],
    image: [[u8; 256]; MAX_SYMMETRIES],
    inverse: [[u8; 256]; MAX_SYMMETRIES],
    /// Per square, its key value under each symmetry (zero for the ones not in use):
    /// one square's values fill one cache line, and a move updates all keys at once.
    values: [[u64; MAX_SYMMETRIES]; 256],
}

impl Symmetries {
    /// The symmetries of `geo`'s board (only the identity when `enabled` is false).
    /// Keys are the occupancy itself (exact, no collisions possible) when the board has
    /// at most 64 squares, and Zobrist-style random words otherwise.
    pub(super) fn new<B: Bitboard>(geo: &Geometry<B>, enabled: bool) -> Symmetries {
        let (w, h) = (geo.width(), geo.height());
        let squares = w * h;
        let mut maps: Vec<SquareMap> = vec![
            |f, r, _, _| (f, r),
            |f, r, w, _| (w - 1 - f, r),
            |f, r, _, h| (f, h - 1 - r),
            |f, r, w, h| (w - 1 - f, h - 1 - r),
        ];
        if w == h {
            maps.extend_from_slice(&[
                |f, r, _, _| (r, f),
                |f, r, w, h| (h - 1 - r, w - 1 - f),
                |f, r, w, _| (r, w - 1 - f),
                |f, r, _, h| (h - 1 - r, f),
            ]);
        }
        if !enabled {
            maps.truncate(1);
        }
        let exact = squares <= 64;
        let random: Vec<u64> = (0..256u64).map(|i| splitmix64(i ^ 0x5eed_c0de)).collect();
        let mut table = Symmetries {
            count: maps.len(),
            swaps_colour: [false; MAX_SYMMETRIES],
            image: [[0; 256]; MAX_SYMMETRIES],
            inverse: [[0; 256]; MAX_SYMMETRIES],
            values: [[0; MAX_SYMMETRIES]; 256],
        };
        for (s, map) in maps.iter().enumerate() {
            let first_swaps = geo.colour_of(0) != {
                let (f, r) = map(0, 0, w, h);
                geo.colour_of(r * w + f)
            };
            table.swaps_colour[s] = first_swaps;
            for sq in 0..squares {
                let (f, r) = map(sq % w, sq / w, w, h);
                let to = r * w + f;
                debug_assert_eq!(
                    geo.colour_of(sq) != geo.colour_of(to),
                    first_swaps,
                    "a board symmetry changes every square's colour or none"
                );
                table.image[s][sq] = to as u8;
                table.inverse[s][to] = sq as u8;
                table.values[sq][s] = if exact { 1u64 << to } else { random[to] };
            }
        }
        table
    }

    /// Number of symmetries in use, the identity (index 0) included.
    #[inline(always)]
    pub(super) fn count(&self) -> usize {
        self.count
    }

    /// Whether symmetry `s` may be used in the given phase (see the module notes).
    #[inline(always)]
    pub(super) fn usable(&self, s: usize, jumping: bool) -> bool {
        jumping || !self.swaps_colour[s]
    }

    /// The side to move in the image of a position under `s`.
    #[inline(always)]
    pub(super) fn side_image(&self, s: usize, side: Color) -> Color {
        if self.swaps_colour[s] {
            side.opponent()
        } else {
            side
        }
    }

    /// Whether `s` swaps the colours.
    #[inline(always)]
    pub(super) fn swaps_colour(&self, s: usize) -> bool {
        self.swaps_colour[s]
    }

    /// The key of the stones in `set` as seen through each symmetry.
    pub(super) fn keys_of<B: Bitboard>(&self, set: B) -> [u64; MAX_SYMMETRIES] {
        let mut keys = [0; MAX_SYMMETRIES];
        self.toggle(&mut keys, set);
        keys
    }

    /// Updates every symmetry's key for the squares in `toggled` changing occupancy.
    #[inline(always)]
    pub(super) fn toggle<B: Bitboard>(&self, keys: &mut [u64; MAX_SYMMETRIES], toggled: B) {
        for sq in toggled.squares() {
            for (key, value) in keys.iter_mut().zip(&self.values[sq]) {
                *key ^= value;
            }
        }
    }

    /// The image of square `sq` under `s`.
    #[inline(always)]
    pub(super) fn image(&self, s: usize, sq: usize) -> usize {
        usize::from(self.image[s][sq])
    }

    /// The square whose image under `s` is `sq`.
    #[inline(always)]
    pub(super) fn preimage(&self, s: usize, sq: usize) -> usize {
        usize::from(self.inverse[s][sq])
    }
}

/// A fixed mixing function (Steele, Lea and Flood's SplitMix64 finaliser): spreads the
/// bits of exact keys over the table and makes the random key words.
#[inline(always)]
pub(super) fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{BoardSize, MultiJump, Opening, Variant};

    fn geo(w: usize, h: usize) -> &'static Geometry<u64> {
        Geometry::get(Variant {
            size: BoardSize::new(w, h).unwrap(),
            opening: Opening::Diagonal,
            multi_jump: MultiJump::Straight,
        })
        .unwrap()
    }

    fn colour_keeping(sym: &Symmetries) -> usize {
        (0..sym.count()).filter(|&s| !sym.swaps_colour(s)).count()
    }

    #[test]
    fn even_square_boards_keep_colours_under_diagonals_and_half_turn() {
        let sym = Symmetries::new(geo(6, 6), true);
        assert_eq!(sym.count(), 8);
        assert_eq!(colour_keeping(&sym), 4);
    }

    #[test]
    fn odd_square_boards_keep_colours_under_all_eight() {
        let sym = Symmetries::new(geo(7, 7), true);
        assert_eq!(colour_keeping(&sym), 8);
    }

    #[test]
    fn rectangles_have_four_symmetries() {
        assert_eq!(colour_keeping(&Symmetries::new(geo(3, 5), true)), 4);
        assert_eq!(colour_keeping(&Symmetries::new(geo(4, 6), true)), 2);
        assert_eq!(colour_keeping(&Symmetries::new(geo(3, 4), true)), 2);
        assert_eq!(Symmetries::new(geo(3, 4), true).count(), 4);
    }

    #[test]
    fn images_are_permutations_with_inverses() {
        for (w, h) in [(6, 6), (7, 7), (3, 5), (8, 8)] {
            let sym = Symmetries::new(geo(w, h), true);
            for s in 0..sym.count() {
                let mut seen = vec![false; w * h];
                for sq in 0..w * h {
                    let to = sym.image(s, sq);
                    assert!(!seen[to]);
                    seen[to] = true;
                    assert_eq!(sym.preimage(s, to), sq);
                }
            }
        }
    }
}
