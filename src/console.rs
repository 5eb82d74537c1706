//! The process's own standard output and error, written without panicking.
//!
//! `println!` and `eprintln!` panic when the write fails: a reader that has gone away
//! (`konane-solve ... 2>&1 | head -1`), a full disk. Here a failed output is an error
//! the caller reports, and a failed diagnostic is dropped, so nothing outside the
//! process can stop it that way. The crate's lints forbid the printing macros.

use std::fmt::Display;
use std::io::{self, Write};

/// Writes `text` to standard output and flushes it.
pub fn print(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// Writes `message` and a newline to standard error, or nothing if that fails: a
/// diagnostic nobody can read must not stop the program.
pub fn warn(message: impl Display) {
    let _ = writeln!(io::stderr().lock(), "{message}");
}
