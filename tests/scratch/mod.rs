//! Scratch folders for the integration tests, under the folder cargo keeps for them in
//! `target/` (`CARGO_TARGET_TMPDIR`), never the machine's shared temporary folder, where
//! another user could have planted a link under a name we can guess.

// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// A new empty folder for one test's files. `name` tells the tests apart; the process
/// id and a counter keep folders apart when tests run side by side or twice.
pub fn scratch(name: &str) -> PathBuf {
    static COUNT: AtomicU32 = AtomicU32::new(0);
    let n = COUNT.fetch_add(1, Ordering::SeqCst);
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the test target directory is writable");
    dir
}
