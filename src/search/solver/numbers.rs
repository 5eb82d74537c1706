//! Where the proof-number search keeps the numbers of the nodes it has not proven yet:
//! a lock-free table the threads of a proof share (as in Pawlewicz and Hayward's
//! scalable parallel df-pn), and one thread uses alone.
//!
//! What one thread learnt about a subtree steers the others at once, so a thread that
//! enters a subtree another has worked in starts from that work's numbers rather than
//! from first estimates, and the threads stop piling into the same cheap-looking
//! children. Its slots are laid out like those of the table of proven results
//! ([`bucket`](super::bucket)), so a slot torn by two writers reads as empty, and a
//! node's bucket can be fetched ahead ([`NumberTable::prefetch`]): df-pn looks up
//! every child of a node at once, and these lookups are most of its time. (One thread
//! used to keep a hash map of its own; on the 6x7 start with df-pn over 55% of the board
//! the table takes 25 s against 43 s, with 10% fewer nodes.)
//!
//! Numbers only steer the search: a node is declared won or lost only from children
//! the table of proven results holds as proven. A lost, torn or stale entry therefore
//! costs work, never a wrong verdict; an entry never reads as zero (which would mean
//! "proven"), and a number never reads back smaller than it was stored (large ones are
//! rounded up, see [`encode`]).
//!
//! The table lives as long as the solver's table of proven results and serves one solve
//! after another: each solve stamps its entries with a generation of its own, and the
//! entries of earlier solves neither match nor hold their slots, exactly as if the table
//! had been emptied. (A table allocated for each solve cost every move that calls the
//! solver a fresh allocation whose pages the kernel zeroes as they are first touched,
//! up to the whole table.)

use std::mem::size_of;

use super::bucket::{self, Bucket, SLOTS, Slot};
use super::dfpn::INF;
use super::tt::Key;
use crate::search::zeroed::ZeroedSlice;

/// A node's proof and disproof numbers.
pub(super) type Pair = (u64, u64);

/// Bits of each number's code in a slot.
const NUMBER_BITS: u32 = 24;
/// The mask of one number's code.
const CODE_MASK: u64 = (1 << NUMBER_BITS) - 1;
/// Bits of a code's mantissa; the rest is its exponent.
const MANTISSA_BITS: u32 = 19;
const DN_SHIFT: u32 = NUMBER_BITS;
const TAG_SHIFT: u32 = 2 * NUMBER_BITS;
/// Where a slot's tag keeps the generation, above the key's own tag (9 bits).
const GENERATION_SHIFT: u32 = 9;
/// The generations: the table is emptied when they come round.
const GENERATION_MASK: u16 = (1 << (16 - GENERATION_SHIFT)) - 1;

/// The code of number `n` (at least 1): `n` itself below 2^19, above that a
/// floating-point code (mantissa and exponent) rounded *up*, so that a number never
/// reads back smaller than it was stored. Reading one smaller would make df-pn loop:
/// a parent would see a child below the threshold the child itself is above, and send
/// the search into it again and again without end (a 7x7 proof did, when numbers above
/// 2^24 were stored as 2^24 - 1). Numbers beyond the codes' reach (about 2^50, far
/// beyond any proof) read back as [`INF`].
fn encode(n: u64) -> u64 {
    let n = n.max(1);
    let bits = u64::BITS - n.leading_zeros();
    if bits <= MANTISSA_BITS {
        return n;
    }
    let mut exponent = bits - MANTISSA_BITS;
    let mut mantissa = n.div_ceil(1 << exponent);
    if mantissa == 1 << MANTISSA_BITS {
        exponent += 1;
        mantissa >>= 1;
    }
    let code = u64::from(exponent) << MANTISSA_BITS | mantissa;
    code.min(CODE_MASK)
}

/// The number a code stands for: at least the number it was made from.
fn decode(code: u64) -> u64 {
    if code >= CODE_MASK {
        return INF;
    }
    let mantissa = code & ((1 << MANTISSA_BITS) - 1);
    mantissa << (code >> MANTISSA_BITS)
}

/// One slot of the table, as read.
///
/// ```text
/// check: the key's check word
/// data:  0..24   proof number's code (0: empty slot)
///        24..48  disproof number's code
///        48..57  key tag
///        57..64  generation: the solve that stored it
/// ```
#[derive(Clone, Copy)]
struct Entry {
    check: u64,
    data: u64,
}

impl Entry {
    #[inline(always)]
    fn load(slot: &Slot) -> Entry {
        let (check, data) = slot.load();
        Entry { check, data }
    }

    fn pack(key: Key, (pn, dn): Pair, generation: u16) -> Entry {
        // Never 0: a stored number is of an unproven node.
        Entry {
            check: key.check,
            data: encode(pn)
                | encode(dn) << DN_SHIFT
                | u64::from(tag(key, generation)) << TAG_SHIFT,
        }
    }

    /// Whether the slot holds numbers of this solve.
    #[inline(always)]
    fn live(self, generation: u16) -> bool {
        self.data & CODE_MASK != 0
            && (self.data >> (TAG_SHIFT + GENERATION_SHIFT)) as u16 == generation
    }

    #[inline(always)]
    fn matches(self, key: Key, generation: u16) -> bool {
        self.data & CODE_MASK != 0
            && self.check == key.check
            && (self.data >> TAG_SHIFT) as u16 == tag(key, generation)
    }

    #[inline(always)]
    fn numbers(self) -> Pair {
        // A torn slot almost never passes the key check; if one does, its numbers
        // must still not read as proven.
        let pn = decode(self.data & CODE_MASK).max(1);
        let dn = decode((self.data >> DN_SHIFT) & CODE_MASK).max(1);
        (pn, dn)
    }

    /// How much search the numbers stand for, roughly: the entry to give up first.
    #[inline(always)]
    fn weight(self) -> u64 {
        let (pn, dn) = self.numbers();
        pn.saturating_add(dn)
    }
}

/// A slot's tag: the key's, with the generation above it.
#[inline(always)]
fn tag(key: Key, generation: u16) -> u16 {
    debug_assert!(
        key.tag >> GENERATION_SHIFT == 0,
        "a key's tag fits below the generation"
    );
    key.tag | generation << GENERATION_SHIFT
}

/// The numbers of unproven nodes, shared by the threads of a proof.
pub(super) struct NumberTable {
    buckets: ZeroedSlice<Bucket>,
    /// The current solve's stamp.
    generation: u16,
}

impl NumberTable {
    /// A table of about `bytes` bytes (at least one bucket), in pages the kernel backs
    /// only when they are first touched.
    pub fn new(bytes: usize) -> NumberTable {
        NumberTable {
            buckets: ZeroedSlice::new(bytes / size_of::<Bucket>()),
            generation: 0,
        }
    }

    /// Starts a new solve: from now on the table reads as empty (the entries of earlier
    /// solves are passed over, and their slots taken as free ones). Once in 128 solves,
    /// when the stamps come round, the table is emptied for real.
    pub fn next_solve(&mut self) {
        self.generation = (self.generation + 1) & GENERATION_MASK;
        if self.generation == 0 {
            self.clear();
        }
    }

    /// Empties the table (see [`ZeroedSlice::clear`] for the cost).
    pub fn clear(&mut self) {
        self.buckets.clear();
        self.generation = 0;
    }

    #[inline(always)]
    fn bucket(&self, key: Key) -> &Bucket {
        &self.buckets[bucket::index(key, self.buckets.len())]
    }

    /// Tells the processor to fetch `key`'s bucket, soon to be read.
    #[inline(always)]
    pub fn prefetch(&self, key: Key) {
        bucket::prefetch(&self.buckets, key);
    }

    /// The numbers stored for `key`, if the table holds them.
    #[inline]
    pub fn get(&self, key: Key) -> Option<Pair> {
        self.bucket(key)
            .0
            .iter()
            .map(Entry::load)
            .find(|e| e.matches(key, self.generation))
            .map(Entry::numbers)
    }

    /// Stores the numbers of `key`, in its own slot if it has one, else in one free
    /// for this solve, else over the entry with the smallest numbers.
    pub fn store(&self, key: Key, numbers: Pair) {
        let slots = &self.bucket(key).0;
        let entries: [Entry; SLOTS] = std::array::from_fn(|i| Entry::load(&slots[i]));
        let slot = entries
            .iter()
            .position(|e| e.matches(key, self.generation))
            .or_else(|| entries.iter().position(|e| !e.live(self.generation)))
            .unwrap_or_else(|| {
                (1..SLOTS).fold(0, |least, i| {
                    if entries[i].weight() < entries[least].weight() {
                        i
                    } else {
                        least
                    }
                })
            });
        let entry = Entry::pack(key, numbers, self.generation);
        slots[slot].save(entry.check, entry.data);
    }

    /// Empties `key`'s slot, if it has one.
    pub fn remove(&self, key: Key) {
        for slot in &self.bucket(key).0 {
            if Entry::load(slot).matches(key, self.generation) {
                slot.save(0, 0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(check: u64) -> Key {
        Key {
            check,
            tag: Key::tag(false, 0),
        }
    }

    #[test]
    fn numbers_come_back_until_removed() {
        let table = NumberTable::new(1 << 12);
        assert_eq!(table.get(key(5)), None);
        table.store(key(5), (3, 40));
        assert_eq!(table.get(key(5)), Some((3, 40)));
        let other_side = Key {
            tag: Key::tag(true, 0),
            ..key(5)
        };
        assert_eq!(table.get(other_side), None);
        table.store(key(5), (4, 41));
        assert_eq!(table.get(key(5)), Some((4, 41)));
        table.remove(key(5));
        assert_eq!(table.get(key(5)), None);
    }

    #[test]
    fn numbers_never_read_as_proven() {
        let table = NumberTable::new(1 << 12);
        table.store(key(8), (0, 0));
        assert_eq!(table.get(key(8)), Some((1, 1)));
        table.store(key(8), (u64::MAX / 4, 7));
        assert_eq!(table.get(key(8)), Some((INF, 7)));
    }

    #[test]
    fn numbers_read_back_exactly_or_a_little_larger() {
        let mut n = 1u64;
        while n < INF {
            for m in [n, n + 1, n.saturating_mul(3) / 2, (n << 1) - 1] {
                let read = decode(encode(m));
                assert!(read >= m, "{m} read back as {read}");
                if m < 1 << MANTISSA_BITS {
                    assert_eq!(read, m);
                } else if m < 1 << 49 {
                    assert!(
                        read - m <= m >> (MANTISSA_BITS - 1),
                        "{m} read back as {read}"
                    );
                }
                assert!(encode(m) <= CODE_MASK && encode(m) != 0);
            }
            n <<= 1;
        }
        // Larger numbers never read back smaller (the codes are ordered like them).
        let codes: Vec<u64> = (0..64).map(|b| encode(1u64 << b)).collect();
        assert!(codes.windows(2).all(|w| w[0] <= w[1]), "{codes:?}");
    }

    #[test]
    fn a_number_beyond_24_bits_is_not_stored_smaller() {
        let table = NumberTable::new(1 << 12);
        table.store(key(9), (20_000_000, 123_456_789_012));
        let (pn, dn) = table.get(key(9)).unwrap();
        assert!((20_000_000..20_000_100).contains(&pn), "{pn}");
        assert!((123_456_789_012..123_457_100_000).contains(&dn), "{dn}");
    }

    #[test]
    fn a_full_shared_bucket_gives_up_its_smallest_numbers() {
        let table = NumberTable::new(0);
        for i in 0..SLOTS as u64 {
            table.store(key(i), (10 + i, 10));
        }
        table.store(key(99), (50, 50));
        assert_eq!(table.get(key(0)), None);
        assert_eq!(table.get(key(99)), Some((50, 50)));
        assert_eq!(table.get(key(1)), Some((11, 10)));
    }

    #[test]
    fn a_new_solve_finds_the_table_empty() {
        let mut table = NumberTable::new(0);
        table.next_solve();
        for i in 0..SLOTS as u64 {
            table.store(key(i), (20 + i, 20));
        }
        table.next_solve();
        assert!((0..SLOTS as u64).all(|i| table.get(key(i)).is_none()));
        // The earlier solve's entries hold no slots: four small new ones all stay.
        for i in 10..10 + SLOTS as u64 {
            table.store(key(i), (1, 1));
        }
        assert!((10..10 + SLOTS as u64).all(|i| table.get(key(i)) == Some((1, 1))));
        // When the stamps come round, the old entries are gone for real.
        for _ in 0..=GENERATION_MASK {
            table.next_solve();
        }
        assert!((10..10 + SLOTS as u64).all(|i| table.get(key(i)).is_none()));
    }
}
