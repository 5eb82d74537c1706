//! A page's session against engines that misbehave (the referee's fake engine): an
//! illegal move, a crash and a hang each end the game with the reason, and a failed
//! engine can be restarted. Drives `konane::gui::session::Session` directly, as the
//! server does, without a browser.

// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use konane::client::{EngineSpec, Limits, ProcessSpec};
use konane::gui::cli::EngineChoice;
use konane::gui::live::Report;
use konane::gui::session::{EngineInfo, Session};
use serde_json::{Value, json};
use tokio::sync::mpsc;

fn fake(fault: &str) -> EngineInfo {
    EngineInfo {
        choice: EngineChoice {
            name: "fake".into(),
            spec: EngineSpec {
                name: None,
                process: ProcessSpec {
                    cmd: env!("CARGO_BIN_EXE_fake-engine").into(),
                    args: vec!["--fault".into(), fault.into()],
                    dir: None,
                },
                options: Vec::new(),
                limits: Limits::default(),
                dialect: None,
            },
        },
        options: Vec::new(),
        strength: None,
        problem: None,
    }
}

struct Page {
    session: Session,
    reports: mpsc::Receiver<(usize, u64, Report)>,
}

impl Page {
    fn new(engine: EngineInfo) -> Page {
        let (sender, reports) = mpsc::channel(64);
        Page {
            session: Session::new(vec![engine].into(), sender),
            reports,
        }
    }

    /// Sends `message` and runs the session until a state satisfies `done`.
    fn until(&mut self, message: Value, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let mut out = self.session.handle(&message.to_string());
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            for text in out.drain(..) {
                let m: Value = serde_json::from_str(&text).expect("the session writes JSON");
                if m["type"] == "state" && done(&m) {
                    return m;
                }
            }
            assert!(Instant::now() < until, "timed out waiting for {what}");
            match self.reports.try_recv() {
                Ok((slot, n, report)) => out = self.session.on_report(slot, n, report),
                Err(_) => {
                    std::thread::sleep(Duration::from_millis(10));
                    out = self.session.tick();
                }
            }
        }
    }
}

fn engine_game(ms: u64) -> Value {
    json!({
        "type": "new", "board": "4x4", "opening": "diagonal", "multijump": "straight",
        "black": {"engine": 0}, "white": {"engine": 0},
        "limit": {"kind": "movetime", "ms": ms}
    })
}

fn reason(state: &Value) -> String {
    state["over"]["reason"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn an_illegal_move_ends_the_game_with_the_engines_words() {
    let mut page = Page::new(fake("illegal"));
    let state = page.until(engine_game(50), "game over", |s| !s["over"].is_null());
    let why = reason(&state);
    assert!(
        why.contains("fake (black) played an illegal move: 'bestmove "),
        "{why}"
    );
    assert_eq!(state["over"]["winner"], "white");
}

#[test]
fn a_crash_ends_the_game_and_the_engine_can_be_restarted() {
    let mut page = Page::new(fake("crash"));
    let state = page.until(engine_game(50), "game over", |s| !s["over"].is_null());
    assert!(reason(&state).contains("crashed"), "{}", reason(&state));
    assert_eq!(state["failed"], true);
    let state = page.until(json!({"type": "restart"}), "a restart", |s| {
        s["over"].is_null() && s["thinking"] == "black"
    });
    assert_eq!(state["failed"], false);
}

#[test]
fn a_hung_engine_is_reported_and_the_page_goes_on() {
    let mut page = Page::new(fake("hang"));
    let state = page.until(engine_game(20), "the hang", |s| !s["over"].is_null());
    assert!(
        reason(&state).contains("stopped answering"),
        "{}",
        reason(&state)
    );
    let moves = page.until(json!({"type": "goto", "ply": 0}), "an answer", |_| true);
    assert_eq!(moves["ply"], 0);
    // A page that goes away ends its engine, hung or not (and no test leaves one
    // running behind it).
    drop(page);
    let until = Instant::now() + Duration::from_secs(10);
    while konane::gui::live::running() > 0 {
        assert!(Instant::now() < until, "an engine outlived its page");
        std::thread::sleep(Duration::from_millis(10));
    }
}
