//! What the browser tests share: the `konane-gui` server and a headless Chromium
//! driven through WebDriver (chromedriver).

// Each test file includes this module and uses a part of it.
#![allow(dead_code)]
// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

#[path = "../scratch/mod.rs"]
mod scratch_folder;
// Each test file includes this module; not all of them need a scratch folder.
#[allow(unused_imports)]
pub use scratch_folder::scratch;

/// How the test environment gets a browser.
pub const INSTALL: &str = "the browser tests need Debian's chromium and chromium-driver: \
run scripts/test (it installs them), or apt-get update && apt-get install -y chromium chromium-driver";

/// A running `konane-gui`, ended with SIGTERM when dropped.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:<port>/`.
    pub url: String,
    /// The port.
    pub port: u16,
}

impl Server {
    /// Starts the server on a free port with `args`.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_konane-gui"))
            .args(["--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("konane-gui starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("konane-gui prints its address");
        let url = line
            .trim()
            .strip_prefix("Open ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        let port = url
            .trim_end_matches('/')
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .expect("the address has a port");
        Server { child, url, port }
    }

    /// The process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Sends SIGTERM and waits for the exit; true when it exited in time.
    pub fn terminate(&mut self) -> bool {
        // SAFETY: kill only sends a signal to our own child, not yet reaped.
        unsafe {
            libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM);
        }
        let until = Instant::now() + Duration::from_secs(10);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    /// Sends a raw HTTP request and returns the status code.
    pub fn status_of(&self, request: &str) -> u16 {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .expect("timeout");
        stream.write_all(request.as_bytes()).expect("send");
        let mut head = [0u8; 12];
        stream.read_exact(&mut head).expect("an answer");
        let text = String::from_utf8_lossy(&head);
        text[9..12]
            .parse()
            .unwrap_or_else(|_| panic!("status line {text:?}"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if !self.terminate() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The children of process `pid` (the engines a server started).
pub fn children(pid: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|p| parent_and_state(*p).is_some_and(|(parent, _)| parent == pid))
        .collect()
}

/// The parent and state letter of a process, if it still exists.
pub fn parent_and_state(pid: u32) -> Option<(u32, char)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = &stat[stat.rfind(')')? + 2..];
    let mut fields = after.split_whitespace();
    let state = fields.next()?.chars().next()?;
    Some((fields.next()?.parse().ok()?, state))
}

/// The squares named in a move text (`e4c4` -> e4, c4).
pub fn squares_of(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in text.chars() {
        if c.is_ascii_lowercase() {
            out.push(c.to_string());
        } else if let Some(last) = out.last_mut() {
            last.push(c);
        }
    }
    out
}

fn find_program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
    names.iter().find_map(|name| {
        dirs.iter()
            .map(|d| d.join(name))
            .chain([Path::new("/usr/bin").join(name)])
            .find(|p| p.is_file())
    })
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// A headless Chromium under chromedriver, with its own profile directory.
pub struct Browser {
    /// The WebDriver session.
    pub client: Client,
    driver: Child,
    profile: PathBuf,
}

impl Browser {
    /// Starts chromedriver and a headless Chromium; fails (never skips) without them.
    pub async fn start(width: u32, height: u32) -> Browser {
        let driver_path = find_program(&["chromedriver"])
            .unwrap_or_else(|| panic!("chromedriver not found: {INSTALL}"));
        let chromium = find_program(&["chromium", "chromium-browser", "google-chrome"])
            .unwrap_or_else(|| panic!("chromium not found: {INSTALL}"));
        let port = free_port();
        let driver = Command::new(&driver_path)
            .arg(format!("--port={port}"))
            // Its own group: ending it ends the browser it started, even after a panic.
            .process_group(0)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{} cannot start ({e}): {INSTALL}", driver_path.display()));
        let profile = scratch("chromium-profile");
        let capabilities = json!({
            "goog:chromeOptions": {
                "binary": chromium,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--hide-scrollbars",
                    format!("--window-size={width},{height}"),
                    format!("--user-data-dir={}", profile.display()),
                ]
            }
        });
        let Value::Object(capabilities) = capabilities else {
            unreachable!("built as an object above")
        };
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let url = format!("http://127.0.0.1:{port}");
        let until = Instant::now() + Duration::from_secs(30);
        let client = loop {
            match ClientBuilder::new(connector.clone())
                .capabilities(capabilities.clone())
                .connect(&url)
                .await
            {
                Ok(c) => break c,
                Err(e) if Instant::now() > until => panic!("no WebDriver session ({e}): {INSTALL}"),
                Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
            }
        };
        Browser {
            client,
            driver,
            profile,
        }
    }

    /// Opens the page at `url` and waits until it is connected to the server.
    pub async fn open(&self, url: &str) {
        self.client.goto(url).await.expect("the page opens");
        self.wait_for(
            "the connection",
            "return document.body.dataset.connected === 'true';",
        )
        .await;
    }

    /// Runs `script` in the page and returns its value.
    pub async fn eval(&self, script: &str, args: Vec<Value>) -> Value {
        self.client
            .execute(script, args)
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// Polls `script` until it returns something other than `null`/`false`.
    pub async fn wait_for(&self, what: &str, script: &str) -> Value {
        let until = Instant::now() + Duration::from_secs(60);
        loop {
            let v = self.eval(script, Vec::new()).await;
            if !v.is_null() && v != Value::Bool(false) {
                return v;
            }
            assert!(Instant::now() < until, "timed out waiting for {what}");
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
    }

    /// Clicks the element `css`.
    pub async fn click(&self, css: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no element {css}: {e}"))
            .click()
            .await
            .unwrap_or_else(|e| panic!("cannot click {css}: {e}"));
    }

    /// Chooses `value` in the select `css` (firing its change event).
    pub async fn select(&self, css: &str, value: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no element {css}: {e}"))
            .select_by_value(value)
            .await
            .unwrap_or_else(|e| panic!("cannot choose {value} in {css}: {e}"));
    }

    /// Enters `text` as a person does: a click on the stone, then on its landing square.
    pub async fn click_move(&self, text: &str) {
        let squares = squares_of(text);
        self.click(&format!("rect[data-sq='{}']", squares[0])).await;
        if let Some(last) = squares.get(1..).and_then(<[String]>::last) {
            self.click(&format!("rect[data-sq='{last}']")).await;
        }
    }

    /// Saves a screenshot of the window as a PNG.
    pub async fn screenshot(&self, path: &Path) {
        let png = self.client.screenshot().await.expect("a screenshot");
        std::fs::write(path, png).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }

    /// Ends the browser session (the driver ends when dropped).
    pub async fn close(self) {
        let _ = self.client.clone().close().await;
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // SAFETY: killpg only sends a signal, to the group our own child leads.
        unsafe {
            libc::killpg(self.driver.id() as libc::pid_t, libc::SIGKILL);
        }
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}
