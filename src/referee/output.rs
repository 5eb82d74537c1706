//! Writing a whole file safely: checked before the first game, then written to a fresh
//! temporary file beside it and renamed over it, so a reader never sees half a file.
//!
//! A link at the path is followed (the file it names is written, the link is kept); a
//! FIFO, device or other special file is written directly, never replaced; the
//! temporary file gets a name no other run uses and is created exclusively, so no link
//! planted beside the target is ever followed.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Where a path leads: the file to write and whether it is special.
struct Target {
    path: PathBuf,
    special: bool,
}

/// Follows links at `path` to the file they name (which may not exist yet).
fn target(path: &Path) -> io::Result<Target> {
    let mut path = path.to_path_buf();
    // A chain of links longer than the system allows fails in `metadata` below.
    for _ in 0..40 {
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&path)?;
                path = path.parent().unwrap_or(Path::new("")).join(link);
            }
            Ok(meta) if meta.is_dir() => {
                return Err(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    "is a directory",
                ));
            }
            Ok(meta) => {
                let kind = meta.file_type();
                let special = kind.is_fifo()
                    || kind.is_char_device()
                    || kind.is_block_device()
                    || kind.is_socket();
                return Ok(Target { path, special });
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok(Target {
                    path,
                    special: false,
                });
            }
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("too many levels of links"))
}

/// A temporary file in `dir` that did not exist before: created exclusively and never
/// through a link.
fn create_temp(dir: &Path, name: &str) -> io::Result<(PathBuf, File)> {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    loop {
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let temp = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .custom_flags(libc::O_NOFOLLOW)
            .mode(0o644)
            .open(&temp)
        {
            Ok(file) => return Ok((temp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
}

fn parts(path: &Path) -> (PathBuf, String) {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path.file_name().map_or_else(
        || "output".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    (dir, name)
}

/// Checks that `path` can be written: a special file open for writing, or a folder
/// where a file can be created.
pub fn check(path: &Path) -> io::Result<()> {
    let target = target(path)?;
    if target.special {
        let c_path = std::ffi::CString::new(target.path.as_os_str().as_encoded_bytes())
            .map_err(io::Error::other)?;
        // SAFETY: access reads a NUL-terminated path that outlives the call; opening a
        // FIFO to check it would wait for a reader.
        if unsafe { libc::access(c_path.as_ptr(), libc::W_OK) } != 0 {
            return Err(io::Error::last_os_error());
        }
        return Ok(());
    }
    let (dir, name) = parts(&target.path);
    let (temp, _file) = create_temp(&dir, &name)?;
    fs::remove_file(temp)
}

/// Writes `bytes` as the whole content of the file at `path` (see the module's notes).
pub fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let target = target(path)?;
    if target.special {
        let mut file = OpenOptions::new().write(true).open(&target.path)?;
        return file.write_all(bytes).and_then(|()| file.flush());
    }
    let (dir, name) = parts(&target.path);
    let (temp, mut file) = create_temp(&dir, &name)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| fs::rename(&temp, &target.path));
    if written.is_err() {
        // The temporary file is ours; without it nothing is left half done.
        let _ = fs::remove_file(&temp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new empty folder for one test, removed with everything in it when dropped.
    struct Scratch(PathBuf);

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    /// A folder of a name nobody can guess, made new: `create_dir` fails rather than
    /// take over a folder or link someone else put there. (Unit tests have no
    /// `CARGO_TARGET_TMPDIR`, so the folder goes in the system's temporary folder.)
    fn scratch(name: &str) -> Scratch {
        let unique = rand::random::<u64>();
        let dir = std::env::temp_dir().join(format!(
            "konane-output-{name}-{}-{unique:016x}",
            std::process::id()
        ));
        fs::create_dir(&dir).unwrap();
        Scratch(dir)
    }

    #[test]
    fn a_whole_file_replaces_the_old_one_and_leaves_no_temporary() {
        let scratch = scratch("whole");
        let dir = &scratch.0;
        let path = dir.join("out.json");
        fs::write(&path, "old").unwrap();
        check(&path).unwrap();
        write_whole(&path, b"new").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(fs::read_dir(dir).unwrap().count(), 1);
    }

    #[test]
    fn directories_and_missing_folders_are_refused() {
        let scratch = scratch("refused");
        let dir = &scratch.0;
        assert!(check(dir).is_err());
        assert!(check(&dir.join("no/such/file")).is_err());
        assert!(write_whole(dir, b"x").is_err());
    }
}
