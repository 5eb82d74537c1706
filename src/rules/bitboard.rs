//! Sets of squares as machine words.
//!
//! A board of W x H squares numbers its squares `rank * W + file` from a1 = 0, with no
//! padding, so any board of up to 64 squares (8x8 included) fits one `u64`, up to 128
//! squares one `u128`, and up to 256 squares (16x16) the four-word [`U256`]. Everything
//! that knows about rules is generic over [`Bitboard`], and the width is chosen once,
//! when a position is set up, so the 8x8 code is plain `u64` code.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// A set of square indices backed by a fixed-width word.
pub trait Bitboard:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// How many squares the word can hold.
    const CAPACITY: usize;
    /// The empty set.
    const EMPTY: Self;

    /// The set holding only square `index` (`index < CAPACITY`).
    fn single(index: usize) -> Self;
    /// Number of squares in the set.
    fn count(self) -> u32;
    /// Whether the set holds no square.
    fn is_empty(self) -> bool;
    /// The lowest square index; the set must not be empty.
    fn lowest(self) -> usize;
    /// The set without its lowest square.
    fn without_lowest(self) -> Self;
    /// Squares `64 * i` to `64 * i + 63` of the set as the bits of a machine word
    /// (`i < CAPACITY / 64`).
    fn word(self, i: usize) -> u64;

    /// Whether square `index` is in the set.
    #[inline]
    fn has(self, index: usize) -> bool {
        !(self & Self::single(index)).is_empty()
    }

    /// Moves every square `s` of the set to `s + delta` (dropping what leaves the word).
    #[inline]
    fn shifted(self, delta: i32) -> Self {
        if delta >= 0 {
            self << delta.unsigned_abs()
        } else {
            self >> delta.unsigned_abs()
        }
    }

    /// The squares of the set, lowest first.
    #[inline]
    fn squares(self) -> Squares<Self> {
        Squares(self)
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Squares<B>(B);

impl<B: Bitboard> Iterator for Squares<B> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            return None;
        }
        let index = self.0.lowest();
        self.0 = self.0.without_lowest();
        Some(index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl<B: Bitboard> ExactSizeIterator for Squares<B> {}

macro_rules! primitive_bitboard {
    ($word:ty) => {
        impl Bitboard for $word {
            const CAPACITY: usize = <$word>::BITS as usize;
            const EMPTY: Self = 0;

            #[inline(always)]
            fn single(index: usize) -> Self {
                debug_assert!(index < Self::CAPACITY);
                1 << index
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn word(self, i: usize) -> u64 {
                debug_assert!(i < Self::CAPACITY / 64);
                // Truncation keeps the 64 squares asked for.
                (self >> (64 * i)) as u64
            }
        }
    };
}

primitive_bitboard!(u64);
primitive_bitboard!(u128);

/// A 256-bit set for boards larger than 128 squares; four words, lowest first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct U256([u64; 4]);

impl Debug for U256 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "U256({:#018x}_{:016x}_{:016x}_{:016x})",
            self.0[3], self.0[2], self.0[1], self.0[0]
        )
    }
}

macro_rules! u256_bitwise {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for U256 {
            type Output = U256;
            #[inline(always)]
            fn $method(self, rhs: U256) -> U256 {
                U256([
                    self.0[0] $op rhs.0[0],
                    self.0[1] $op rhs.0[1],
                    self.0[2] $op rhs.0[2],
                    self.0[3] $op rhs.0[3],
                ])
            }
        }
        impl $assign_trait for U256 {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: U256) {
                *self = *self $op rhs;
            }
        }
    };
}

u256_bitwise!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
u256_bitwise!(BitOr, bitor, BitOrAssign, bitor_assign, |);
u256_bitwise!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for U256 {
    type Output = U256;
    #[inline(always)]
    fn not(self) -> U256 {
        U256([!self.0[0], !self.0[1], !self.0[2], !self.0[3]])
    }
}

impl Shl<u32> for U256 {
    type Output = U256;
    #[inline]
    fn shl(self, n: u32) -> U256 {
        let words = (n / 64) as usize;
        let bits = n % 64;
        let mut out = [0u64; 4];
        for (i, word) in out.iter_mut().enumerate().skip(words) {
            let src = i - words;
            *word = self.0[src] << bits;
            if bits != 0 && src > 0 {
                *word |= self.0[src - 1] >> (64 - bits);
            }
        }
        U256(out)
    }
}

impl Shr<u32> for U256 {
    type Output = U256;
    #[inline]
    fn shr(self, n: u32) -> U256 {
        let words = (n / 64) as usize;
        let bits = n % 64;
        let mut out = [0u64; 4];
        for (i, word) in out
            .iter_mut()
            .enumerate()
            .take(4usize.saturating_sub(words))
        {
            let src = i + words;
            *word = self.0[src] >> bits;
            if bits != 0 && src + 1 < 4 {
                *word |= self.0[src + 1] << (64 - bits);
            }
        }
        U256(out)
    }
}

impl Bitboard for U256 {
    const CAPACITY: usize = 256;
    const EMPTY: Self = U256([0; 4]);

    #[inline]
    fn single(index: usize) -> Self {
        debug_assert!(index < Self::CAPACITY);
        let mut words = [0; 4];
        words[index / 64] = 1 << (index % 64);
        U256(words)
    }
    #[inline]
    fn has(self, index: usize) -> bool {
        self.0[index / 64] >> (index % 64) & 1 != 0
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }
    #[inline]
    fn lowest(self) -> usize {
        let i = self.0.iter().position(|&w| w != 0).unwrap_or(3);
        i * 64 + self.0[i].trailing_zeros() as usize
    }
    #[inline]
    fn word(self, i: usize) -> u64 {
        self.0[i]
    }
    #[inline]
    fn without_lowest(self) -> Self {
        let mut out = self;
        if let Some(w) = out.0.iter_mut().find(|w| **w != 0) {
            *w &= *w - 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reference set: a plain array of flags.
    fn flags<B: Bitboard>(b: B) -> Vec<usize> {
        b.squares().collect()
    }

    fn from_list<B: Bitboard>(list: &[usize]) -> B {
        list.iter().fold(B::EMPTY, |acc, &i| acc | B::single(i))
    }

    #[test]
    fn u256_shifts_carry_across_words() {
        let list = [0, 5, 63, 64, 100, 127, 128, 191, 200, 255];
        let b: U256 = from_list(&list);
        for n in [0u32, 1, 7, 16, 63, 64, 65, 128, 130, 255] {
            let left: Vec<usize> = list
                .iter()
                .map(|&i| i + n as usize)
                .filter(|&i| i < 256)
                .collect();
            assert_eq!(flags(b << n), left, "shift left by {n}");
            let right: Vec<usize> = list
                .iter()
                .filter(|&&i| i >= n as usize)
                .map(|&i| i - n as usize)
                .collect();
            assert_eq!(flags(b >> n), right, "shift right by {n}");
        }
    }

    #[test]
    fn every_width_counts_and_iterates_alike() {
        let list = [1, 2, 30, 63];
        assert_eq!(flags(from_list::<u64>(&list)), list);
        assert_eq!(flags(from_list::<u128>(&list)), list);
        assert_eq!(flags(from_list::<U256>(&list)), list);
        assert_eq!(from_list::<U256>(&[3, 70, 250]).count(), 3);
        assert_eq!(from_list::<U256>(&[70, 250]).lowest(), 70);
        assert!(from_list::<U256>(&[250]).has(250));
        assert!(!from_list::<U256>(&[250]).has(249));
    }

    #[test]
    fn shifted_moves_both_ways() {
        let b: u128 = from_list(&[10, 100]);
        assert_eq!(flags(b.shifted(5)), [15, 105]);
        assert_eq!(flags(b.shifted(-10)), [0, 90]);
    }
}
