//! An engine as an operating-system process: started in its own process group, fed
//! lines on stdin, read line by line from stdout by a thread that timestamps each line,
//! and always ended with its whole group, so no process is ever left behind.

use std::io::{self, BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};
use thiserror::Error;

/// How often waits look at the stop flag.
const POLL: Duration = Duration::from_millis(50);

/// A line read from the engine and the moment it was read.
#[derive(Clone, Debug)]
pub struct Line {
    /// The text, without its line end.
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
    label: String,
    debug: bool,
    reaped: bool,
}

impl EngineProcess {
    /// Starts `spec` in a new process group; `label` names it in debug output.
    pub fn spawn(spec: &ProcessSpec, label: &str, debug: bool) -> io::Result<EngineProcess> {
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
        let mut child = command.spawn()?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            kill_group(&mut child);
            return Err(io::Error::other("the engine's pipes were not set up"));
        };
        let (sender, lines) = crossbeam_channel::unbounded();
        let reader_label = label.to_string();
        thread::Builder::new()
            .name(format!("read {label}"))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {}
                    }
                    let at = Instant::now();
                    let text = String::from_utf8_lossy(&buf).trim_end().to_string();
                    if debug {
                        eprintln!("{reader_label} > {text}");
                    }
                    if sender.send(Line { text, at }).is_err() {
                        break;
                    }
                }
            })?;
        Ok(EngineProcess {
            child,
            stdin,
            lines,
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

    /// Writes one line; an error means the engine is gone.
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        if self.debug {
            eprintln!("{} < {line}", self.label);
        }
        self.stdin.write_all(line.as_bytes())?;
        self.stdin.write_all(b"\n")?;
        self.stdin.flush()
    }

    /// The next line, waiting until `deadline` at most, and giving up early when `stop`
    /// is set.
    pub fn recv(&self, deadline: Instant, stop: &AtomicBool) -> Result<Line, RecvError> {
        loop {
            if stop.load(Ordering::Relaxed) {
                return Err(RecvError::Interrupted);
            }
            let now = Instant::now();
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

    /// Throws away lines that were read but not yet asked for (output left over from an
    /// earlier command), so they cannot be taken for the answer to the next one.
    pub fn drain(&self) {
        while self.lines.try_recv().is_ok() {}
    }

    /// Sends `quit`, gives the engine `grace` to exit, then kills its process group.
    pub fn quit(mut self, grace: Duration) {
        // A dead engine cannot read `quit`; the kill below ends it anyway.
        let _ = self.send("quit");
        let deadline = Instant::now() + grace;
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

/// Kills every process in the child's group, then reaps the child.
///
/// The group is killed before the child is reaped: until then the child's id (which is
/// also the group's id) cannot be given to a new process, so the signal cannot reach a
/// stranger. Other members of the group (an engine's helpers) die from the same
/// signal when next scheduled and are reaped by init.
fn kill_group(child: &mut Child) {
    if let Ok(pgid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: killpg only sends a signal, to the group our own child leads.
        unsafe {
            libc::killpg(pgid, libc::SIGKILL);
        }
    } else {
        let _ = child.kill();
    }
    // An error means the child was already reaped: nothing is left to do.
    let _ = child.wait();
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
