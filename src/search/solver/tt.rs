//! The solver's transposition table: proven wins and losses by position.
//!
//! Entries are never wrong, only forgotten: each holds a proven result, so there are no
//! depths or bounds to compare, and an entry stays valid for the life of the variant.
//! Replacement keeps the entries whose proofs cost the most work.
//!
//! The threads of a parallel proof share one table without locks: a slot that two
//! threads wrote at once reads as empty ([`bucket`](super::bucket) says how). A lost
//! store only costs work, never a wrong result.
//!
//! A position is identified by its [`Key`]: a 64-bit word and a 16-bit tag (side to move
//! and spare moves, see [`Node`](super::node::Node)). On boards of up to 64 squares the
//! word is the occupancy itself, so a match is exact and the table can never confuse
//! two positions; on larger boards it is a 64-bit hash.

use std::mem::size_of;

use super::bucket::{self, Bucket, SLOTS, Slot};
use crate::search::zeroed::ZeroedSlice;

/// What identifies a position in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct Key {
    /// The occupancy (boards of up to 64 squares) or its hash.
    pub check: u64,
    /// Side to move (bit 0) and spare moves (bits 1..9, two's complement).
    pub tag: u16,
}

impl Key {
    /// The tag of a side to move and a spare-move balance.
    #[inline(always)]
    pub fn tag(white_to_move: bool, spares: i8) -> u16 {
        u16::from(white_to_move) | (u16::from(spares as u8) << 1)
    }
}

/// A move as the table remembers it: start and landing square, in the frame of the
/// key's symmetry, or the spare move (see [`Node`](super::node::Node)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Hint {
    /// A board move from `.0` to `.1`.
    Board(u8, u8),
    /// A spare move.
    Spare,
}

/// A proven result as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Stored {
    /// Whether the side to move wins.
    pub win: bool,
    /// Plies to the end of the game along the line the proof found.
    pub plies: u8,
    /// The winning move, or the longest-resisting losing move found.
    pub hint: Option<Hint>,
}

/// One slot, as read from the table.
///
/// ```text
/// key:  63..0   the key's check word (XORed with `data` in the table's slot)
/// data: 0..8    hint from square
///       8..16   hint to square
///       16..18  hint kind: 0 none, 1 board move, 2 spare move
///       18      win
///       19..27  plies to the end
///       27..33  work: log2 of the nodes the proof took
///       33..49  key tag
///       49      occupied slot
/// ```
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    data: u64,
}

const TAG_SHIFT: u32 = 33;
const USED: u64 = 1 << 49;
const WORK_SHIFT: u32 = 27;

impl Entry {
    #[inline(always)]
    fn load(slot: &Slot) -> Entry {
        let (key, data) = slot.load();
        Entry { key, data }
    }

    #[inline(always)]
    fn matches(&self, key: Key) -> bool {
        self.key == key.check && self.data & USED != 0 && self.tag() == key.tag
    }

    #[inline(always)]
    fn tag(&self) -> u16 {
        (self.data >> TAG_SHIFT) as u16
    }

    #[inline(always)]
    fn work(&self) -> u64 {
        (self.data >> WORK_SHIFT) & 63
    }

    fn stored(&self) -> Stored {
        let d = self.data;
        let hint = match (d >> 16) & 3 {
            1 => Some(Hint::Board(d as u8, (d >> 8) as u8)),
            2 => Some(Hint::Spare),
            _ => None,
        };
        Stored {
            win: d & (1 << 18) != 0,
            plies: (d >> 19) as u8,
            hint,
        }
    }

    fn pack(key: Key, value: Stored, work: u64) -> Entry {
        let hint = match value.hint {
            None => 0,
            Some(Hint::Board(from, to)) => u64::from(from) | u64::from(to) << 8 | 1 << 16,
            Some(Hint::Spare) => 2 << 16,
        };
        let data = hint
            | u64::from(value.win) << 18
            | u64::from(value.plies) << 19
            | work.min(63) << WORK_SHIFT
            | u64::from(key.tag) << TAG_SHIFT
            | USED;
        Entry {
            key: key.check,
            data,
        }
    }
}

/// The table.
pub(super) struct Table {
    buckets: ZeroedSlice<Bucket>,
}

impl Table {
    /// A table of about `megabytes` MB (at least one bucket), in pages the kernel backs
    /// only when they are first touched (as 2 MB pages where it can: see
    /// [`zeroed`](crate::search::zeroed)).
    pub fn new(megabytes: usize) -> Table {
        Table {
            buckets: ZeroedSlice::new(megabytes.saturating_mul(1 << 20) / size_of::<Bucket>()),
        }
    }

    /// Forgets everything (see [`ZeroedSlice::clear`] for the cost).
    pub fn clear(&mut self) {
        self.buckets.clear();
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * size_of::<Bucket>()
    }

    #[inline(always)]
    fn bucket(&self, key: Key) -> usize {
        bucket::index(key, self.buckets.len())
    }

    /// Tells the processor to fetch `key`'s bucket, soon to be probed.
    #[inline(always)]
    pub fn prefetch(&self, key: Key) {
        bucket::prefetch(&self.buckets, key);
    }

    /// The stored result of `key`, if the table still holds it.
    #[inline]
    pub fn probe(&self, key: Key) -> Option<Stored> {
        let bucket = &self.buckets[self.bucket(key)];
        bucket
            .0
            .iter()
            .map(Entry::load)
            .find(|e| e.matches(key))
            .map(|e| e.stored())
    }

    /// Stores a proven result that took `nodes` nodes to prove.
    pub fn store(&self, key: Key, value: Stored, nodes: u64) {
        let work = u64::from(64 - nodes.leading_zeros());
        let slots = &self.buckets[self.bucket(key)].0;
        let bucket: [Entry; SLOTS] = std::array::from_fn(|i| Entry::load(&slots[i]));
        let slot = match bucket.iter().position(|e| e.matches(key)) {
            Some(i) => i,
            None => {
                let mut victim = 0;
                for (i, e) in bucket.iter().enumerate() {
                    if e.data & USED == 0 {
                        victim = i;
                        break;
                    }
                    if e.work() < bucket[victim].work() {
                        victim = i;
                    }
                }
                victim
            }
        };
        let entry = Entry::pack(key, value, work);
        slots[slot].save(entry.key, entry.data);
    }

    /// Filled slots per thousand, sampled from the first buckets (like UCI's hashfull).
    pub fn permille(&self) -> u32 {
        let sample = self.buckets.len().min(1000);
        let used: usize = self.buckets[..sample]
            .iter()
            .map(|b| {
                b.0.iter()
                    .filter(|e| Entry::load(e).data & USED != 0)
                    .count()
            })
            .sum();
        (used * 1000 / (sample * SLOTS)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_results_come_back() {
        let t = Table::new(1);
        let key = Key {
            check: 0xdead_beef,
            tag: Key::tag(true, -3),
        };
        let value = Stored {
            win: true,
            plies: 17,
            hint: Some(Hint::Board(35, 21)),
        };
        assert_eq!(t.probe(key), None);
        t.store(key, value, 1000);
        assert_eq!(t.probe(key), Some(value));
        let other_side = Key {
            tag: Key::tag(false, -3),
            ..key
        };
        assert_eq!(t.probe(other_side), None);
        let spare = Stored {
            win: false,
            plies: 0,
            hint: Some(Hint::Spare),
        };
        t.store(other_side, spare, 1);
        assert_eq!(t.probe(other_side), Some(spare));
        assert_eq!(t.probe(key), Some(value));
    }

    #[test]
    fn full_buckets_keep_the_costliest_proofs() {
        let t = Table::new(0);
        let value = Stored {
            win: false,
            plies: 1,
            hint: None,
        };
        let key = |i: u64| Key { check: i, tag: 0 };
        for i in 0..SLOTS as u64 {
            t.store(key(i), value, 1 << (10 + i));
        }
        t.store(key(99), value, 1 << 20);
        assert_eq!(t.probe(key(0)), None);
        assert!(t.probe(key(99)).is_some());
        assert!(t.probe(key(1)).is_some());
    }
}
