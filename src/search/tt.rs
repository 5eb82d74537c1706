//! The transposition table: what earlier searches learned about positions, shared by
//! every search thread without locks.
//!
//! Entries live in buckets of four, one cache line each. A position's bucket is chosen
//! by the high bits of `hash * buckets`. Each entry is two atomic words, the key stored
//! XORed with the data, so a torn write by a racing thread reads back as a miss instead
//! of a wrong entry (Hyatt's lockless hashing).
//!
//! ```text
//! data word (64 bits):
//!  63       49  48  47        32 31        16 15     8 7   6 5     0
//! +-----------+---+------------+------------+--------+-----+-------+
//! | (unused)  |has|   score    |    move    | depth  |bound|  age  |
//! +-----------+---+------------+------------+--------+-----+-------+
//!              1b    i16          u16 key      u8       2b    6b
//! bound: 0 = empty slot, 1 = exact, 2 = lower, 3 = upper
//! has: 1 when the move field holds a move (every u16 is some move's key, so no
//!      key value can stand for "no move")
//! ```
//!
//! The table's memory is asked for already zeroed, which an empty slot is, so the
//! operating system can hand out its pages lazily: a table of gigabytes is ready at
//! once, and clearing it is a fresh allocation rather than a pass over every byte.

use std::sync::atomic::{AtomicU64, Ordering};

use super::score::Score;
use super::zeroed::{Zeroable, ZeroedSlice};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is exactly the score.
    Exact,
    /// The true value is at least the score (the search failed high).
    Lower,
    /// The true value is at most the score (the search failed low).
    Upper,
}

/// A table hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The best or refuting move's [`key`](crate::rules::Move::key), if one is known.
    pub move_key: Option<u16>,
    /// The score, counted from the node for proven results (see [`super::score::to_table`]).
    pub score: Score,
    /// The depth searched.
    pub depth: u8,
    /// How the score bounds the true value.
    pub bound: Bound,
}

struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
struct Bucket([Entry; 4]);

const _: () = assert!(std::mem::size_of::<Entry>() == 16);
const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

const AGE_MASK: u8 = 0x3f;
const HAS_MOVE: u64 = 1 << 48;

fn pack(move_key: Option<u16>, score: Score, depth: u8, bound: Bound, age: u8) -> u64 {
    let bound_bits: u64 = match bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    (u64::from(age & AGE_MASK))
        | (bound_bits << 6)
        | (u64::from(depth) << 8)
        | move_key.map_or(0, |key| (u64::from(key) << 16) | HAS_MOVE)
        | (u64::from(score as i16 as u16) << 32)
}

fn unpack(data: u64) -> Option<Hit> {
    let bound = match (data >> 6) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    Some(Hit {
        move_key: (data & HAS_MOVE != 0).then_some((data >> 16) as u16),
        score: Score::from((data >> 32) as u16 as i16),
        depth: (data >> 8) as u8,
        bound,
    })
}

fn age_of(data: u64) -> u8 {
    data as u8 & AGE_MASK
}

fn depth_of(data: u64) -> u8 {
    (data >> 8) as u8
}

// SAFETY: a bucket is atomics only.
unsafe impl Zeroable for Bucket {}

/// A lockless, fixed-size transposition table.
pub struct TranspositionTable {
    buckets: ZeroedSlice<Bucket>,
    age: u8,
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one bucket).
    #[must_use]
    pub fn new(megabytes: usize) -> TranspositionTable {
        let count = megabytes.saturating_mul(1 << 20) / std::mem::size_of::<Bucket>();
        TranspositionTable {
            buckets: ZeroedSlice::new(count),
            age: 0,
        }
    }

    /// Forgets everything: written over with zeros in place up to 256 MB (a few
    /// milliseconds for the default size once its pages are backed, and the next search
    /// does not wait for the kernel to back them again), given back and allocated
    /// afresh above that.
    pub fn clear(&mut self) {
        self.buckets.clear();
        self.age = 0;
    }

    /// Marks the start of a new search, so entries of older searches are replaced first.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & AGE_MASK;
    }

    fn bucket(&self, hash: u64) -> &Bucket {
        let index = ((u128::from(hash) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Brings the bucket of `hash` towards the cache ahead of a probe.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is a hint; the pointer is to a live bucket of the table.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>((self.bucket(hash) as *const Bucket).cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// What the table knows of the position with `hash`.
    #[must_use]
    pub fn probe(&self, hash: u64) -> Option<Hit> {
        self.bucket(hash).0.iter().find_map(|e| {
            let data = e.data.load(Ordering::Relaxed);
            let key = e.key_xor_data.load(Ordering::Relaxed) ^ data;
            if key == hash { unpack(data) } else { None }
        })
    }

    /// Stores a search result for the position with `hash`. The slot is the one holding
    /// this position, else the least valuable: shallow and from old searches.
    pub fn store(&self, hash: u64, move_key: Option<u16>, score: Score, depth: u8, bound: Bound) {
        let bucket = &self.bucket(hash).0;
        let mut victim = &bucket[0];
        let mut victim_worth = i32::MAX;
        for e in bucket {
            let data = e.data.load(Ordering::Relaxed);
            let key = e.key_xor_data.load(Ordering::Relaxed) ^ data;
            if key == hash {
                let old = unpack(data);
                // Keep a deeper result of this position unless the new one is exact.
                if let Some(old) = old
                    && bound != Bound::Exact
                    && old.depth > depth.saturating_add(2)
                    && age_of(data) == self.age
                {
                    return;
                }
                let move_key = move_key.or(old.and_then(|o| o.move_key));
                let data = pack(move_key, score, depth, bound, self.age);
                e.key_xor_data.store(hash ^ data, Ordering::Relaxed);
                e.data.store(data, Ordering::Relaxed);
                return;
            }
            let staleness = i32::from((self.age.wrapping_sub(age_of(data))) & AGE_MASK);
            let worth = if unpack(data).is_none() {
                i32::MIN
            } else {
                i32::from(depth_of(data)) - 8 * staleness
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = e;
            }
        }
        let data = pack(move_key, score, depth, bound, self.age);
        victim.key_xor_data.store(hash ^ data, Ordering::Relaxed);
        victim.data.store(data, Ordering::Relaxed);
    }

    /// Permille of sampled entries filled by the current search (UCI `hashfull`).
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(250);
        let used: usize = self.buckets[..sample]
            .iter()
            .flat_map(|b| b.0.iter())
            .filter(|e| {
                let data = e.data.load(Ordering::Relaxed);
                unpack(data).is_some() && age_of(data) == self.age
            })
            .count();
        (used * 1000 / (sample * 4).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_entries_read_back() {
        let tt = TranspositionTable::new(1);
        tt.store(0xdead_beef, Some(0x1234), -31_000, 12, Bound::Lower);
        let hit = tt.probe(0xdead_beef).expect("just stored");
        assert_eq!(
            hit,
            Hit {
                move_key: Some(0x1234),
                score: -31_000,
                depth: 12,
                bound: Bound::Lower
            }
        );
        assert!(tt.probe(0xdead_bef0).is_none());
    }

    #[test]
    fn a_full_bucket_gives_up_its_shallowest_entry() {
        let tt = TranspositionTable::new(1);
        // With one bucket per MB / 64 bytes, hashes differing only in low bits share one.
        let base = 0x8000_0000_0000_0000u64;
        for (i, depth) in [5u8, 1, 9, 7].into_iter().enumerate() {
            tt.store(base + i as u64, Some(1), 0, depth, Bound::Exact);
        }
        tt.store(base + 10, Some(2), 0, 3, Bound::Exact);
        assert!(tt.probe(base + 1).is_none(), "depth 1 was replaced");
        for i in [0u64, 2, 3, 10] {
            assert!(tt.probe(base + i).is_some(), "entry {i} kept");
        }
    }

    #[test]
    fn old_searches_give_way() {
        let mut tt = TranspositionTable::new(1);
        let base = 0x4000_0000_0000_0000u64;
        for i in 0..4 {
            tt.store(base + i, Some(1), 0, 20, Bound::Exact);
        }
        for _ in 0..3 {
            tt.new_search();
        }
        tt.store(base + 7, Some(1), 0, 2, Bound::Exact);
        assert!(tt.probe(base + 7).is_some());
        assert_eq!((0..4).filter(|&i| tt.probe(base + i).is_some()).count(), 3);
    }

    #[test]
    fn key_zero_is_a_move_and_none_is_no_move() {
        // Key 0 is the removal of a1: a real move, kept apart from "no move".
        let tt = TranspositionTable::new(1);
        tt.store(11, Some(0), 5, 3, Bound::Exact);
        assert_eq!(tt.probe(11).map(|h| h.move_key), Some(Some(0)));
        tt.store(12, None, 5, 3, Bound::Upper);
        assert_eq!(tt.probe(12).map(|h| h.move_key), Some(None));
        // A result without a move keeps the move known for the position.
        tt.store(11, None, 7, 4, Bound::Upper);
        assert_eq!(tt.probe(11).map(|h| h.move_key), Some(Some(0)));
    }

    #[test]
    fn a_new_or_cleared_table_is_empty_and_aligned() {
        let mut tt = TranspositionTable::new(2);
        assert_eq!(tt.buckets.len(), 2 * (1 << 20) / 64);
        assert!(tt.buckets.as_ptr().cast::<u8>().align_offset(64) == 0);
        assert!(tt.buckets.iter().all(|b| {
            b.0.iter()
                .all(|e| unpack(e.data.load(Ordering::Relaxed)).is_none())
        }));
        tt.store(3, Some(9), 1, 1, Bound::Exact);
        tt.clear();
        assert!(tt.probe(3).is_none());
        assert_eq!(tt.buckets.len(), 2 * (1 << 20) / 64);
    }

    #[test]
    fn hashfull_counts_this_search_only() {
        let mut tt = TranspositionTable::new(1);
        // Small hashes fall in bucket 0, which hashfull samples.
        for i in 1..=3 {
            tt.store(i, Some(1), 0, 4, Bound::Exact);
        }
        let sampled = tt.buckets.len().min(250) * 4;
        assert_eq!(tt.hashfull(), (3 * 1000 / sampled) as u32);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }
}
