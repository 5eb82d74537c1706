//! What the threads of one parallel proof share besides the table: when to stop, how
//! many nodes they have searched, and where each of them is working.
//!
//! # How the threads split the work
//!
//! Every thread proves the same root with its own search (its own history), and all of
//! them read and write one lock-free table of proven results
//! ([`Table`](super::tt::Table)), as Lazy SMP does in chess engines, and one lock-free
//! table of the df-pn numbers of unproven nodes ([`numbers`](super::numbers)), as in
//! Pawlewicz and Hayward's scalable parallel df-pn. What one thread proves, every
//! other finds at its next probe, and what one thread learnt about a subtree's cost
//! steers the others at once; the first thread to prove the root ends the solve.
//! Identical searches would only repeat each other, so each thread marks the nodes it
//! is working in ([`Team::enter`]) and the others steer around them:
//!
//! - in the proof-number search over the top of the tree, at a node that looks lost
//!   for its mover (disproof number no larger than proof number), a child another
//!   thread is working in looks costlier than it is (its disproof number multiplied by
//!   one plus the number of such threads: the *virtual proof numbers* of parallel df-pn
//!   in Kaneko's and in Pawlewicz and Hayward's schemes), so a second thread picks the
//!   next most promising child. Every child of a lost node must be refuted, so that
//!   work is never wasted. At a node that looks won one child is enough, and a second
//!   thread working on the runner-up mostly proves what the proof will not need: there
//!   the threads follow the best child together and part further down. (On the 6x7
//!   start two threads searched 1.32 to 1.66 times the nodes of one when they spread
//!   out everywhere, 0.74 to 1.04 times when only at nodes that look lost; see
//!   `docs/solved.md`.)
//! - in the alpha-beta search below, near its entry point, a move whose child another
//!   thread is searching is put off until the other moves are done (ABDADA's deferral,
//!   Weill 1996): by then the other thread has usually stored the child's proof.
//! - once a thread proves a node, the work of any other thread below it is wasted (a
//!   sibling's proof can settle the parent, or both threads may have followed one best
//!   child): each thread keeps the df-pn nodes it is searching below, and when it next
//!   looks at the clock (about every half millisecond) and finds one of them proven in
//!   the table, it abandons its search up to that node and goes on from there
//!   ([`InterruptReason::Superseded`](super::InterruptReason::Superseded)). On the
//!   6x7 start this took two threads from a mean of 18.3 M nodes to 16.1 M over eight
//!   interleaved runs each (one thread: 16.0 M), though it fires only a few dozen
//!   times a proof.
//!
//! Why this rather than splitting the tree: a proof's shape is unknown in advance (one
//! winning move ends a node), so a static split wastes whole subtrees, and the shared
//! tables already carry the results and the estimates between threads; the marks cost
//! one atomic increment per marked node and never change what is proven, only the
//! order. With one thread nothing is marked, and the search is exactly the one-thread
//! search.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};

use super::numbers::NumberTable;
use super::tt::Key;

/// Slots of the table of work marks: keys are hashed into it, so two nodes may share
/// a slot, which only makes the other threads avoid a node needlessly.
const MARK_SLOTS: usize = 1 << 16;

/// The state one solve's threads share.
pub(super) struct Team<'a> {
    /// Raised to end every thread's search: one of them proved the root, or failed.
    pub done: AtomicBool,
    /// Raised by the thread that proved the root.
    pub proved: AtomicBool,
    /// Nodes searched by all threads, as each last reported.
    pub nodes: AtomicU64,
    /// How many threads work below each (hashed) node; empty with one thread.
    marks: Box<[AtomicU8]>,
    /// The df-pn numbers of unproven nodes, shared by the threads.
    pub numbers: &'a NumberTable,
}

impl<'a> Team<'a> {
    /// The shared state of a solve by `threads` threads, which keep their df-pn
    /// numbers in `numbers`.
    pub fn new(threads: usize, numbers: &'a NumberTable) -> Team<'a> {
        let parallel = threads > 1;
        let slots = if parallel { MARK_SLOTS } else { 0 };
        Team {
            done: AtomicBool::new(false),
            proved: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            marks: (0..slots).map(|_| AtomicU8::new(0)).collect(),
            numbers,
        }
    }

    /// Whether more than one thread works on the proof.
    #[inline(always)]
    pub fn parallel(&self) -> bool {
        !self.marks.is_empty()
    }

    #[inline(always)]
    fn slot(&self, key: Key) -> &AtomicU8 {
        let mixed = key.check ^ u64::from(key.tag).rotate_left(40);
        let mixed = mixed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        &self.marks[(mixed >> 48) as usize % self.marks.len()]
    }

    /// Marks `key` as worked on by one more thread (nothing with one thread).
    #[inline]
    pub fn enter(&self, key: Key) {
        if self.parallel() {
            self.slot(key).fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Takes back one [`enter`](Self::enter) of `key`.
    #[inline]
    pub fn leave(&self, key: Key) {
        if self.parallel() {
            self.slot(key).fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// How many threads work below `key` now (0 with one thread).
    #[inline]
    pub fn workers(&self, key: Key) -> u64 {
        if self.parallel() {
            u64::from(self.slot(key).load(Ordering::Relaxed))
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_count_the_threads_in_a_node() {
        let numbers = NumberTable::new(0);
        let team = Team::new(2, &numbers);
        let key = Key { check: 77, tag: 1 };
        assert_eq!(team.workers(key), 0);
        team.enter(key);
        team.enter(key);
        assert_eq!(team.workers(key), 2);
        team.leave(key);
        assert_eq!(team.workers(key), 1);
    }

    #[test]
    fn one_thread_marks_nothing() {
        let numbers = NumberTable::new(0);
        let team = Team::new(1, &numbers);
        let key = Key { check: 77, tag: 1 };
        team.enter(key);
        assert_eq!(team.workers(key), 0);
        assert!(!team.parallel());
    }
}
