//! Tables in memory that the operating system zeroes lazily.
//!
//! A zeroed allocation of ordinary alignment is served from fresh zero pages, which the
//! kernel backs only when they are first touched: a table of gigabytes is ready at once,
//! where writing its empty entries would take seconds. An over-aligned zeroed
//! allocation is zeroed byte by byte instead, so the allocation asks for ordinary
//! alignment and aligns the first element by hand.
//!
//! Emptying a table again ([`ZeroedSlice::clear`], at a new game) writes zeros over it
//! instead, up to [`REWRITE_LIMIT`] bytes: its pages are already backed, and writing
//! over them is fifteen to twenty-five times faster than having the kernel back fresh
//! ones on the next searches' first touches (on this project's 2-core machine 10 to 18
//! GB/s against 0.6 to 1.2 GB/s), which would come out of the first moves' thinking
//! time: fresh tables of the default sizes cost a 100 ms move up to a fifth of its time.
//!
//! A table of [`HUGE_PAGE`] bytes or more starts on a huge-page boundary and, on Linux,
//! asks the kernel to back it with huge pages (when transparent huge pages are enabled
//! for `madvise`, as most distributions ship them). Searches probe the table at random,
//! and with 4 KB pages nearly every probe also misses the processor's address
//! translation cache: with huge pages a fixed search took 5 to 12% less CPU time.

use std::alloc::Layout;
use std::ptr::NonNull;

/// The size of a huge page on x86-64 and most 64-bit ARM systems.
const HUGE_PAGE: usize = 2 << 20;

/// The largest table [`ZeroedSlice::clear`] empties by writing zeros over it, which
/// takes about 20 ms where its pages are backed and up to half a second where they are
/// not yet (a table no game has used; on this machine with both cores busy, `Hash` and
/// `SolverHash` of 256 MB took 0.17 to 1.2 s at the first `ucinewgame`, 50 ms at the
/// next). A larger table gets fresh zero pages, so that emptying it stays instant.
const REWRITE_LIMIT: usize = 256 << 20;

/// A type whose value with every byte zero is a valid (empty) one.
///
/// # Safety
///
/// Implement it only for types made of integers and atomics, where all-zero bytes are
/// a valid value.
pub(crate) unsafe trait Zeroable {}

/// A fixed number of `T`s, all zero bytes when allocated.
pub(crate) struct ZeroedSlice<T: Zeroable> {
    /// The allocation, as made.
    base: NonNull<u8>,
    layout: Layout,
    /// The first element: `base` rounded up to `T`'s alignment, or to a huge page.
    first: NonNull<T>,
    len: usize,
}

// SAFETY: `ZeroedSlice` owns its allocation like a `Vec<T>`.
unsafe impl<T: Zeroable + Send> Send for ZeroedSlice<T> {}
// SAFETY: as above; shared access only hands out `&[T]`.
unsafe impl<T: Zeroable + Sync> Sync for ZeroedSlice<T> {}

impl<T: Zeroable> ZeroedSlice<T> {
    /// `len` (at least 1) zeroed elements.
    pub fn new(len: usize) -> ZeroedSlice<T> {
        let len = len.max(1);
        #[expect(
            clippy::expect_used,
            reason = "callers size their tables against the memory available, far below isize::MAX"
        )]
        let (bytes, align, layout) = len
            .checked_mul(std::mem::size_of::<T>())
            .and_then(|bytes| {
                let align = start_alignment::<T>(bytes);
                let layout = Layout::from_size_align(bytes.checked_add(align)?, 16).ok()?;
                Some((bytes, align, layout))
            })
            .expect("the table size was checked against the memory available");
        // SAFETY: the layout's size is not zero.
        let base = unsafe { std::alloc::alloc_zeroed(layout) };
        let Some(base) = NonNull::new(base) else {
            std::alloc::handle_alloc_error(layout);
        };
        let offset = base.as_ptr().align_offset(align);
        // SAFETY: `offset < align` and `align` spare bytes were allocated, so `len`
        // elements from `first` lie inside the allocation.
        let first = unsafe { base.add(offset) }.cast::<T>();
        if align == HUGE_PAGE {
            advise_huge_pages(first.cast::<u8>(), bytes);
        }
        ZeroedSlice {
            base,
            layout,
            first,
            len,
        }
    }

    /// Makes every element zero bytes again: written over in place up to
    /// [`REWRITE_LIMIT`] bytes, else as a fresh allocation (the old one freed first).
    pub fn clear(&mut self) {
        self.clear_within(REWRITE_LIMIT);
    }

    /// [`clear`](Self::clear) with `rewrite_limit` for [`REWRITE_LIMIT`].
    fn clear_within(&mut self, rewrite_limit: usize) {
        let len = self.len;
        if len.saturating_mul(std::mem::size_of::<T>()) <= rewrite_limit {
            // SAFETY: `first` points to `len` elements inside the allocation, `&mut
            // self` makes the access exclusive, and `Zeroable` makes zero bytes a valid
            // value of `T`.
            unsafe { std::ptr::write_bytes(self.first.as_ptr(), 0, len) };
        } else {
            *self = ZeroedSlice::new(1);
            *self = ZeroedSlice::new(len);
        }
    }
}

/// Where the first element of a table of `bytes` bytes starts: on a huge page for a
/// table of one or more, else at `T`'s own alignment.
fn start_alignment<T>(bytes: usize) -> usize {
    if bytes >= HUGE_PAGE {
        HUGE_PAGE
    } else {
        std::mem::align_of::<T>()
    }
}

/// Asks the kernel to back the `bytes` bytes from `start` (huge-page aligned) with huge
/// pages. Only advice: when the kernel declines, the table works as before.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: NonNull<u8>, bytes: usize) {
    // Whole pages only, so the advice never reaches past the allocation.
    let length = bytes & !(HUGE_PAGE - 1);
    // SAFETY: madvise only changes how the kernel backs these pages, which lie inside
    // an allocation this slice owns; MADV_HUGEPAGE does not change their contents.
    unsafe {
        libc::madvise(start.as_ptr().cast(), length, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: NonNull<u8>, _bytes: usize) {}

impl<T: Zeroable> std::ops::Deref for ZeroedSlice<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `first` is aligned and points to `len` elements inside the
        // allocation, all zero bytes when allocated, which `Zeroable` makes valid
        // values; changed since only through `&[T]` (atomics) or `&mut [T]`.
        unsafe { std::slice::from_raw_parts(self.first.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> std::ops::DerefMut for ZeroedSlice<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.first.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for ZeroedSlice<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout, and freed only here.
        unsafe { std::alloc::dealloc(self.base.as_ptr(), self.layout) }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};

    use super::*;

    #[repr(align(64))]
    struct Line([AtomicU64; 8]);

    // SAFETY: atomics only.
    unsafe impl Zeroable for Line {}

    #[test]
    fn elements_are_aligned_zero_and_writable() {
        let mut lines = ZeroedSlice::<Line>::new(1000);
        assert_eq!(lines.len(), 1000);
        assert_eq!(lines.as_ptr().cast::<u8>().align_offset(64), 0);
        assert!(
            lines
                .iter()
                .all(|l| l.0.iter().all(|w| w.load(Ordering::Relaxed) == 0))
        );
        lines[999].0[7].store(7, Ordering::Relaxed);
        *lines[0].0[0].get_mut() = 3;
        assert_eq!(lines[999].0[7].load(Ordering::Relaxed), 7);
        assert_eq!(lines[0].0[0].load(Ordering::Relaxed), 3);
        assert_eq!(ZeroedSlice::<Line>::new(0).len(), 1, "at least one element");
    }

    #[test]
    fn a_large_table_starts_on_a_huge_page() {
        let lines = ZeroedSlice::<Line>::new(3 * HUGE_PAGE / 64 + 1);
        assert_eq!(lines.as_ptr().cast::<u8>().align_offset(HUGE_PAGE), 0);
        assert!(lines.iter().all(|l| l.0[0].load(Ordering::Relaxed) == 0));
        let small = ZeroedSlice::<Line>::new(HUGE_PAGE / 64 - 1);
        assert_eq!(small.as_ptr().cast::<u8>().align_offset(64), 0);
    }

    #[test]
    fn a_cleared_table_is_zero_again_whichever_way() {
        for rewrite_limit in [usize::MAX, 0] {
            let mut lines = ZeroedSlice::<Line>::new(100);
            lines[3].0[1].store(9, Ordering::Relaxed);
            lines[99].0[7].store(1, Ordering::Relaxed);
            lines.clear_within(rewrite_limit);
            assert_eq!(lines.len(), 100);
            assert!(
                lines
                    .iter()
                    .all(|l| l.0.iter().all(|w| w.load(Ordering::Relaxed) == 0)),
                "{rewrite_limit}"
            );
        }
    }
}
