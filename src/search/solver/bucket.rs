//! The storage of the solver's lock-free tables (proven results in [`tt`](super::tt),
//! unproven df-pn numbers in [`numbers`](super::numbers)): cache-line buckets of four
//! slots of two atomic words, a key word and a data word.
//!
//! The key word is stored XORed with the data word (Hyatt and Mann's lockless
//! hashing): a slot two threads wrote at once (the key word of one, the data word of
//! the other) reads back a key word that matches neither, so the tables take it for an
//! empty slot. A lost entry only costs work in both tables, never a wrong result.

use std::mem::size_of;
use std::sync::atomic::{AtomicU64, Ordering};

use super::symmetry::splitmix64;
use super::tt::Key;
use crate::search::zeroed::Zeroable;

/// Slots in a bucket.
pub(super) const SLOTS: usize = 4;

/// One slot: a key word and a data word, the key word XORed with the data word.
#[repr(C)]
pub(super) struct Slot {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

const _: () = assert!(size_of::<Slot>() == 16);

impl Slot {
    /// The key word and the data word (a torn slot gives a key word no one stored).
    #[inline(always)]
    pub fn load(&self) -> (u64, u64) {
        let data = self.data.load(Ordering::Relaxed);
        let key = self.key_xor_data.load(Ordering::Relaxed) ^ data;
        (key, data)
    }

    /// Stores a key word and a data word.
    #[inline(always)]
    pub fn save(&self, key: u64, data: u64) {
        self.key_xor_data.store(key ^ data, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }
}

/// One cache line of slots.
#[repr(C, align(64))]
pub(super) struct Bucket(pub [Slot; SLOTS]);

const _: () = assert!(size_of::<Bucket>() == 64);

// SAFETY: a bucket is atomics only.
unsafe impl Zeroable for Bucket {}

/// The bucket of `key` in a table of `len` buckets.
#[inline(always)]
pub(super) fn index(key: Key, len: usize) -> usize {
    let mixed = splitmix64(key.check ^ u64::from(key.tag).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    // Lemire's multiply-shift maps the hash onto any table size without a division.
    ((u128::from(mixed) * len as u128) >> 64) as usize
}

/// Tells the processor to fetch `key`'s bucket of `buckets`, soon to be probed.
#[inline(always)]
pub(super) fn prefetch(buckets: &[Bucket], key: Key) {
    #[cfg(target_arch = "x86_64")]
    {
        let ptr = buckets.as_ptr().wrapping_add(index(key, buckets.len()));
        // SAFETY: prefetching is only a hint; it never faults, even on a bad address,
        // and this one is inside the table.
        unsafe {
            std::arch::x86_64::_mm_prefetch(ptr.cast::<i8>(), std::arch::x86_64::_MM_HINT_T0);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (buckets, key);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_torn_by_two_writers_gives_a_key_no_one_stored() {
        let (slot, other) = (Slot::empty(), Slot::empty());
        slot.save(1, 0x55);
        other.save(3, 0x66);
        assert_eq!(slot.load(), (1, 0x55));
        // The other writer's data word lands after this writer's key word.
        slot.data
            .store(other.data.load(Ordering::Relaxed), Ordering::Relaxed);
        let (key, _) = slot.load();
        assert!(key != 1 && key != 3);
    }

    impl Slot {
        fn empty() -> Slot {
            Slot {
                key_xor_data: AtomicU64::new(0),
                data: AtomicU64::new(0),
            }
        }
    }
}
