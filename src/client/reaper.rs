//! Ending every process an engine started, also those that left its process group.
//!
//! Killing an engine's process group ends its helpers unless they started a session of
//! their own (`setsid`). Those are found through their parent while it lives. Once
//! their parent has exited they are orphans: normally adopted by init and out of
//! reach, but a program that called [`adopt_orphans`] (Linux) adopts them itself and
//! then ends every adopted process that belongs to no running engine.

use std::collections::HashMap;
use std::io;
use std::process::{Child, Command};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether this process adopts orphaned descendants.
static ADOPTING: AtomicBool = AtomicBool::new(false);

/// The ids of the running engine processes (each the leader of its group).
static ENGINES: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Makes this process adopt its orphaned descendants (`PR_SET_CHILD_SUBREAPER`), so
/// that helpers of an engine that outlive it can still be ended. Only for a program
/// whose only children are engines: the referee binary, not a test harness.
pub fn adopt_orphans() -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: prctl with PR_SET_CHILD_SUBREAPER only sets a flag of this process.
        let rc = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
        if rc != 0 {
            return Err(io::Error::last_os_error());
        }
        ADOPTING.store(true, Ordering::SeqCst);
        Ok(())
    }
    #[cfg(not(target_os = "linux"))]
    {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "only Linux lets a process adopt its orphaned descendants",
        ))
    }
}

fn engines() -> std::sync::MutexGuard<'static, Vec<u32>> {
    // The list stays valid even if a thread panicked while holding it.
    ENGINES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Starts an engine and records it as running; the record is made under the same lock
/// that [`end_orphans`] holds, so a new engine is never taken for an orphan.
pub(super) fn spawn(command: &mut Command) -> io::Result<Child> {
    let mut running = engines();
    let child = command.spawn()?;
    running.push(child.id());
    Ok(child)
}

/// Forgets an engine that has been reaped.
pub(super) fn forget(pid: u32) {
    engines().retain(|&p| p != pid);
}

/// A process as `/proc/<pid>/stat` gives it.
struct Process {
    pid: libc::pid_t,
    parent: libc::pid_t,
    group: libc::pid_t,
}

/// Every process visible in `/proc` (none where there is no `/proc`).
fn processes() -> Vec<Process> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| {
            let pid: libc::pid_t = e.ok()?.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // The command name may hold spaces and parentheses: fields follow the last ')'.
            let mut fields = stat.rsplit_once(')')?.1.split_whitespace().skip(1);
            let parent = fields.next()?.parse().ok()?;
            let group = fields.next()?.parse().ok()?;
            Some(Process { pid, parent, group })
        })
        .collect()
}

/// The descendants of `pid` (children, their children...) running now.
pub(super) fn descendants(pid: u32) -> Vec<libc::pid_t> {
    let Ok(root) = libc::pid_t::try_from(pid) else {
        return Vec::new();
    };
    let mut children: HashMap<libc::pid_t, Vec<libc::pid_t>> = HashMap::new();
    for p in processes() {
        children.entry(p.parent).or_default().push(p.pid);
    }
    let mut found = Vec::new();
    let mut todo = vec![root];
    while let Some(p) = todo.pop() {
        for &c in children.get(&p).map_or(&[][..], Vec::as_slice) {
            found.push(c);
            todo.push(c);
        }
    }
    found
}

/// Sends SIGKILL to each of `pids`.
pub(super) fn kill(pids: &[libc::pid_t]) {
    for &pid in pids {
        // SAFETY: kill only sends a signal. The ids were read while the processes ran
        // as descendants of an engine not yet reaped; an id is not reused before its
        // process is reaped by its parent or by us.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
}

/// When adopting: kills and reaps every adopted process that is not a running engine
/// nor in a running engine's group.
pub(super) fn end_orphans() {
    if !ADOPTING.load(Ordering::SeqCst) {
        return;
    }
    let running = engines();
    // SAFETY: getpid has no preconditions.
    let me = unsafe { libc::getpid() };
    let owned = |pid: libc::pid_t| u32::try_from(pid).is_ok_and(|p| running.contains(&p));
    for p in processes() {
        if p.parent == me && !owned(p.pid) && !owned(p.group) {
            // SAFETY: the process is our own child (adopted), not yet reaped, so its id
            // is still its own; waitpid reaps exactly that child.
            unsafe {
                libc::kill(p.pid, libc::SIGKILL);
                libc::waitpid(p.pid, std::ptr::null_mut(), 0);
            }
        }
    }
}
