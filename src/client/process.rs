//! An engine as an operating-system process: started in its own process group, fed
//! lines on stdin, read line by line from stdout by a thread that timestamps each line,
//! and always ended with its whole group and every other descendant, so no process is
//! ever left behind.
//!
//! Whatever the engine writes, the memory used stays bounded: a line keeps at most
//! [`MAX_LINE_BYTES`], at most [`QUEUE_LINES`] lines wait to be read (the reader, and
//! so the engine, waits when they are full), and an engine that writes more than
//! [`FLOOD_LINES`] lines or [`FLOOD_BYTES`] bytes in answer to one command, or fills
//! the queue when nothing was asked, is reported as flooding.

use std::io::{self, BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use thiserror::Error;

use super::reaper;
use super::text::clean;
use crate::console;

/// How often waits look at the stop flag and at whether the engine has exited.
const POLL: Duration = Duration::from_millis(50);

/// How long lines written just before an engine exited are still waited for.
const LAST_WORDS: Duration = Duration::from_millis(100);

/// The longest line kept: the rest of a longer line is dropped (and the line marked).
pub const MAX_LINE_BYTES: usize = 16 * 1024;

/// Lines read but not yet taken; when full, the reader stops reading until there is
/// room, so an engine that writes faster than it is read waits on its pipe.
pub const QUEUE_LINES: usize = 256;

/// The most lines an engine may write after one command before it is judged to flood.
pub const FLOOD_LINES: u64 = 100_000;

/// The most bytes an engine may write after one command before it is judged to flood.
pub const FLOOD_BYTES: u64 = 64 << 20;

/// A line read from the engine and the moment it was read.
#[derive(Clone, Debug)]
pub struct Line {
    /// The text, without its line end, control characters and bytes that are not UTF-8
    /// replaced by U+FFFD, at most [`MAX_LINE_BYTES`] long.
    pub text: String,
    /// When the reader thread got it.
    pub at: Instant,
}

/// Why no line came.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum RecvError {
    /// The deadline passed.
    #[error("no answer in time")]
    Timeout,
    /// The engine closed its output or exited.
    #[error("the engine closed its output")]
    Closed,
    /// The referee was told to stop.
    #[error("interrupted")]
    Interrupted,
    /// The engine wrote more than the documented limits allow.
    #[error("{0}")]
    Flood(Flood),
}

/// Which flood limit an engine went past.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum Flood {
    /// More than [`FLOOD_LINES`] lines after one command.
    #[error("wrote more than {FLOOD_LINES} lines after one command")]
    Lines,
    /// More than [`FLOOD_BYTES`] bytes after one command.
    #[error("wrote more than {} MiB after one command", FLOOD_BYTES >> 20)]
    Bytes,
    /// A full queue of [`QUEUE_LINES`] lines that nothing asked for.
    #[error("wrote {QUEUE_LINES} lines that nothing asked for")]
    Unasked,
}

/// What the reader thread has read so far, for the flood limits.
#[derive(Default)]
struct Counts {
    lines: AtomicU64,
    bytes: AtomicU64,
}

impl Counts {
    fn now(&self) -> (u64, u64) {
        (
            self.lines.load(Ordering::Relaxed),
            self.bytes.load(Ordering::Relaxed),
        )
    }
}

/// What is needed to start an engine process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessSpec {
    /// The program.
    pub cmd: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working directory.
    pub dir: Option<PathBuf>,
}

/// A running engine process and its process group.
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Line>,
    counts: Arc<Counts>,
    /// [`Counts`] when the last command was sent.
    counts_at_send: (u64, u64),
    /// When the process was first seen to have exited.
    exited_at: Option<Instant>,
    label: String,
    debug: bool,
    reaped: bool,
}

impl EngineProcess {
    /// Starts `spec` in a new process group; `label` names it in debug output.
    pub fn spawn(spec: &ProcessSpec, label: &str, debug: bool) -> io::Result<EngineProcess> {
        if let Some(dir) = &spec.dir
            && !dir.is_dir()
        {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("working directory {} does not exist", dir.display()),
            ));
        }
        let mut command = Command::new(resolve_program(&spec.cmd, spec.dir.as_deref()));
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if debug {
                Stdio::inherit()
            } else {
                Stdio::null()
            })
            // Its own group: a terminal's Ctrl-C reaches only the referee, which then
            // ends the engines itself, and killing the group takes any helpers along.
            .process_group(0);
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let mut child = reaper::spawn(&mut command)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            kill_group(&mut child);
            return Err(io::Error::other("the engine's pipes were not set up"));
        };
        let (sender, lines) = crossbeam_channel::bounded(QUEUE_LINES);
        let counts = Arc::new(Counts::default());
        let reader = Reader {
            sender,
            counts: Arc::clone(&counts),
            label: label.to_string(),
            debug,
            warned: false,
        };
        let spawned = thread::Builder::new()
            .name(format!("read {label}"))
            .spawn(move || reader.run(stdout));
        if let Err(e) = spawned {
            kill_group(&mut child);
            return Err(e);
        }
        Ok(EngineProcess {
            child,
            stdin,
            lines,
            counts,
            counts_at_send: (0, 0),
            exited_at: None,
            label: label.to_string(),
            debug,
            reaped: false,
        })
    }

    /// The operating system's id of the process (and of its group).
    #[must_use]
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Writes one line; an error means the engine is gone. The flood limits count
    /// from here.
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        self.counts_at_send = self.counts.now();
        if self.debug {
            console::warn(format!("{} < {line}", self.label));
        }
        self.stdin.write_all(line.as_bytes())?;
        self.stdin.write_all(b"\n")?;
        self.stdin.flush()
    }

    /// The next line, waiting until `deadline` at most, and giving up early when `stop`
    /// is set, when the engine has exited (its own exit, even while a helper of it keeps
    /// the output open), or when it floods.
    pub fn recv(&mut self, deadline: Instant, stop: &AtomicBool) -> Result<Line, RecvError> {
        loop {
            if stop.load(Ordering::Relaxed) {
                return Err(RecvError::Interrupted);
            }
            if let Some(flood) = self.flood() {
                return Err(RecvError::Flood(flood));
            }
            let now = Instant::now();
            if self.exited_at.is_none() && has_exited(&self.child) {
                self.exited_at = Some(now);
            }
            let deadline = match self.exited_at {
                // Lines written just before the exit may still be on their way.
                Some(exited) if now >= exited + LAST_WORDS => {
                    return self.lines.try_recv().map_err(|_| RecvError::Closed);
                }
                Some(exited) => deadline.min(exited + LAST_WORDS),
                None => deadline,
            };
            if now >= deadline {
                // A line that is already there was read in time.
                return self.lines.try_recv().map_err(|e| match e {
                    crossbeam_channel::TryRecvError::Empty => RecvError::Timeout,
                    crossbeam_channel::TryRecvError::Disconnected => RecvError::Closed,
                });
            }
            match self.lines.recv_timeout((deadline - now).min(POLL)) {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err(RecvError::Closed),
            }
        }
    }

    /// Which flood limit the engine went past since the last command, if any.
    fn flood(&self) -> Option<Flood> {
        let (lines, bytes) = self.counts.now();
        if lines - self.counts_at_send.0 > FLOOD_LINES {
            Some(Flood::Lines)
        } else if bytes - self.counts_at_send.1 > FLOOD_BYTES {
            Some(Flood::Bytes)
        } else {
            None
        }
    }

    /// Throws away lines that were read but not yet asked for (output left over from an
    /// earlier command), so they cannot be taken for the answer to the next one; a full
    /// queue of them is a flood.
    pub fn drain(&self) -> Result<(), RecvError> {
        if self.lines.is_full() {
            return Err(RecvError::Flood(Flood::Unasked));
        }
        for _ in 0..QUEUE_LINES {
            if self.lines.try_recv().is_err() {
                break;
            }
        }
        Ok(())
    }

    /// Whether the engine's own process has exited (whatever a child of it still holds
    /// open); the process is not reaped.
    #[must_use]
    pub fn exited(&self) -> bool {
        has_exited(&self.child)
    }

    /// Sends `quit`, gives the engine `grace` to exit, then kills its process group.
    pub fn quit(mut self, grace: Duration) {
        // A dead engine cannot read `quit`; the kill below ends it anyway.
        let _ = self.send("quit");
        let deadline = later(Instant::now(), grace);
        while Instant::now() < deadline && !has_exited(&self.child) {
            thread::sleep(Duration::from_millis(5));
        }
        self.end();
    }

    /// Kills the process group at once and reaps the process.
    pub fn kill(mut self) {
        self.end();
    }

    fn end(&mut self) {
        if !self.reaped {
            kill_group(&mut self.child);
            self.reaped = true;
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.end();
    }
}

/// `wait` after `start`, or a moment about thirty years on when that cannot be told
/// (waits are checked when read, so this only guards against a mistake).
pub(super) fn later(start: Instant, wait: Duration) -> Instant {
    const FAR: Duration = Duration::from_secs(1 << 30);
    start
        .checked_add(wait)
        .or_else(|| start.checked_add(FAR))
        .unwrap_or(start)
}

/// Reads the engine's output into lines of at most [`MAX_LINE_BYTES`], counting every
/// byte and line for the flood limits.
struct Reader {
    sender: Sender<Line>,
    counts: Arc<Counts>,
    /// The engine's name, for the echo and the warning.
    label: String,
    /// Whether every line is echoed to stderr (`-debug`).
    debug: bool,
    /// Whether a cut line has been reported (once per process is enough).
    warned: bool,
}

impl Reader {
    fn run(mut self, stdout: ChildStdout) {
        // The time of each line is taken here: a late wake-up would be charged to the
        // engine's clock.
        crate::prompt::answer_promptly();
        let mut input = BufReader::with_capacity(64 * 1024, stdout);
        let mut line = Vec::with_capacity(256);
        let mut cut = false;
        loop {
            let buf = match input.fill_buf() {
                Ok([]) => break,
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            let end = buf.iter().position(|&b| b == b'\n');
            let piece = &buf[..end.unwrap_or(buf.len())];
            let room = MAX_LINE_BYTES - line.len();
            line.extend_from_slice(&piece[..piece.len().min(room)]);
            cut |= piece.len() > room;
            let used = end.map_or(buf.len(), |i| i + 1);
            input.consume(used);
            self.counts.bytes.fetch_add(used as u64, Ordering::Relaxed);
            if end.is_some() {
                if !self.deliver(&line, cut) {
                    return;
                }
                line.clear();
                cut = false;
            }
        }
        if !line.is_empty() {
            self.deliver(&line, cut);
        }
    }

    /// Sends one line, waiting while the queue is full; `false` when nobody listens.
    fn deliver(&mut self, bytes: &[u8], cut: bool) -> bool {
        self.counts.lines.fetch_add(1, Ordering::Relaxed);
        let at = Instant::now();
        let text = clean(String::from_utf8_lossy(bytes).trim_end()).into_owned();
        if self.debug {
            console::warn(format!("{} > {text}", self.label));
        }
        if cut && !self.warned {
            self.warned = true;
            console::warn(format!(
                "warning: engine '{}' wrote a line longer than {} KiB; the rest of it was dropped",
                self.label,
                MAX_LINE_BYTES / 1024
            ));
        }
        self.sender.send(Line { text, at }).is_ok()
    }
}

/// Kills every process in the child's group and every other descendant, then reaps
/// the child.
///
/// The group is killed before the child is reaped: until then the child's id (which is
/// also the group's id) cannot be given to a new process, so the signal cannot reach a
/// stranger. Descendants that left the group (with `setsid`) are found through their
/// parents while the child lives, and through [`reaper`] after it has exited.
fn kill_group(child: &mut Child) {
    let descendants = reaper::descendants(child.id());
    if let Ok(pgid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: killpg only sends a signal, to the group our own child leads.
        unsafe {
            libc::killpg(pgid, libc::SIGKILL);
        }
    } else {
        let _ = child.kill();
    }
    reaper::kill(&descendants);
    // An error means the child was already reaped: nothing is left to do.
    let _ = child.wait();
    reaper::forget(child.id());
    reaper::end_orphans();
}

/// Whether the child has exited, without reaping it.
fn has_exited(child: &Child) -> bool {
    let pid: libc::id_t = child.id();
    // SAFETY: waitid with WNOWAIT only reads the child's state into `info`, which is a
    // zeroed plain-data struct owned by this frame.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let rc = libc::waitid(
            libc::P_PID,
            pid,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        );
        rc != 0 || info.si_pid() != 0
    }
}

/// The program to run: a relative path with a `/` is looked up in `dir` when it exists
/// there, else taken from the referee's own directory; a bare name is found on `PATH`.
fn resolve_program(cmd: &Path, dir: Option<&Path>) -> PathBuf {
    let has_separator = cmd.components().count() > 1;
    if cmd.is_absolute() || !has_separator {
        return cmd.to_path_buf();
    }
    if let Some(dir) = dir {
        let in_dir = dir.join(cmd);
        if in_dir.exists() {
            return std::path::absolute(&in_dir).unwrap_or(in_dir);
        }
    }
    std::path::absolute(cmd).unwrap_or_else(|_| cmd.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_programs_are_found_in_their_directory_first() {
        let here = std::env::current_dir().unwrap();
        assert_eq!(resolve_program(Path::new("sh"), None), PathBuf::from("sh"));
        let absolute = resolve_program(Path::new("/bin/sh"), Some(Path::new("/tmp")));
        assert_eq!(absolute, PathBuf::from("/bin/sh"));
        assert_eq!(resolve_program(Path::new("./x"), None), here.join("./x"));
        let in_dir = resolve_program(Path::new("./Cargo.toml"), Some(&here));
        assert_eq!(in_dir, here.join("./Cargo.toml"));
        let missing = resolve_program(Path::new("./nothing-here"), Some(Path::new("/")));
        assert_eq!(missing, here.join("./nothing-here"));
    }
}
