//! Keeps threads that wait for input and answer it prompt on a busy machine.
//!
//! Used by the engine's reader and session threads, and by the referee's and the web
//! board's reader of each engine's output (which times the engine's moves).
//!
//! On a busy machine the thread that reads `stop` and the one that writes `bestmove`
//! each wait their turn behind the busy threads: on Linux's fair scheduler (EEVDF) a
//! thread that wakes up is placed among them with the usual slice of a few
//! milliseconds (two such waits took 330 ms with 64 search threads on two cores). Asking
//! for the shortest slice (0.1 ms) gives a waking thread an earlier deadline than the
//! threads that are running, so it runs almost at once; it does not change the thread's
//! share of the processor (its `nice` value is kept), and needs no privilege. Threads
//! that do little but wait are what the short slice is for. It is not enough against
//! dozens of runnable threads per processor: with 64 search threads on two cores,
//! `perf sched` still showed the session thread waiting up to 123 ms between its wake-up
//! and its turn, so the engine starts no more search threads than processors
//! (`Threads`, in the session).
//!
//! On other systems, and on kernels before 6.12 (which have no such slice), nothing
//! changes.

/// The slice asked for, in nanoseconds: the shortest the kernel accepts.
#[cfg(target_os = "linux")]
const SHORT_SLICE_NS: u64 = 100_000;

/// The kernel's `struct sched_attr` (its first version, 48 bytes).
#[cfg(target_os = "linux")]
#[repr(C)]
#[derive(Default)]
struct SchedAttr {
    size: u32,
    policy: u32,
    flags: u64,
    nice: i32,
    priority: u32,
    runtime: u64,
    deadline: u64,
    period: u64,
}

/// The calling thread's scheduling attributes, if the kernel gives them.
#[cfg(target_os = "linux")]
fn read_attr() -> Option<SchedAttr> {
    let mut attr = SchedAttr::default();
    let size = std::mem::size_of::<SchedAttr>() as u32;
    // SAFETY: `attr` is a writable `sched_attr` of `size` bytes; pid 0 is this thread.
    let read = unsafe {
        libc::syscall(
            libc::SYS_sched_getattr,
            0,
            &raw mut attr,
            libc::c_ulong::from(size),
            0,
        )
    };
    (read == 0).then_some(attr)
}

/// Asks the scheduler to wake the calling thread promptly (see the module docs).
/// Returns whether the kernel now gives the thread the short slice (a kernel that
/// accepts the request but has no such slice reports none).
#[cfg(target_os = "linux")]
pub fn answer_promptly() -> bool {
    /// `SCHED_OTHER` and `SCHED_BATCH`: the fair policies, whose slice can be set.
    const FAIR_POLICIES: [u32; 2] = [0, 3];
    let Some(mut attr) = read_attr().filter(|a| FAIR_POLICIES.contains(&a.policy)) else {
        return false;
    };
    attr.size = std::mem::size_of::<SchedAttr>() as u32;
    attr.runtime = SHORT_SLICE_NS;
    // SAFETY: `attr` is a valid `sched_attr` read back from the kernel, with only its
    // size and slice set; pid 0 is this thread.
    let set = unsafe { libc::syscall(libc::SYS_sched_setattr, 0, &raw const attr, 0) };
    set == 0 && read_attr().is_some_and(|a| a.runtime == SHORT_SLICE_NS)
}

/// Asks the scheduler to wake the calling thread promptly: nothing to ask here.
#[cfg(not(target_os = "linux"))]
pub fn answer_promptly() -> bool {
    false
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// What the kernel reports as this thread's slice, in nanoseconds.
    fn slice() -> Option<u64> {
        read_attr().map(|a| a.runtime)
    }

    #[test]
    fn a_granted_request_sets_the_short_slice_of_this_thread_only() {
        std::thread::spawn(|| {
            let before = slice();
            if answer_promptly() {
                assert_eq!(slice(), Some(SHORT_SLICE_NS));
            } else {
                assert_eq!(slice(), before, "a refused request changes nothing");
            }
        })
        .join()
        .expect("the thread ends");
        assert_ne!(
            slice(),
            Some(SHORT_SLICE_NS),
            "another thread's slice changed"
        );
    }
}
