//! The web GUI in a real headless Chromium: a person plays a whole 6x6 game against
//! the bundled engine by clicking squares, every position the page shows is checked
//! against the rules core, the move list is stepped back through, a referee PGN is
//! loaded, foreign Hosts and Origins are refused, and no engine outlives the server.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`scripts/test` installs them);
//! without them the test fails and says so.

// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod gui_support;

use std::time::Duration;

use gui_support::{Browser, Server, children, parent_and_state};
use konane::referee::{GameRecord, PlayedMove, StartPosition, Termination, pgn};
use konane::rules::{AnyPosition, BoardSize, Color, PositionText, Variant};
use serde_json::{Value, json};

fn six() -> Variant {
    Variant {
        size: BoardSize::new(6, 6).expect("6x6 is a board size"),
        ..Variant::default()
    }
}

/// What the page shows: ply, number of legal moves, position text, stones per square,
/// move list, status, whether the game is over.
const READ_PAGE: &str = r##"
const svg = document.getElementById("board");
const squares = {};
for (const r of svg.querySelectorAll("rect[data-sq]")) squares[r.dataset.sq] = r.dataset.stone;
return {
  ply: Number(svg.dataset.ply), legal: Number(svg.dataset.legal),
  position: svg.dataset.position, squares,
  moves: [...document.querySelectorAll("#moves li")].map((li) => li.dataset.text),
  status: document.getElementById("status").textContent,
  over: document.getElementById("status").className === "over",
};"##;

/// The stones of `position` by square name, as the page marks them.
fn stones(position: &AnyPosition) -> Value {
    let text: PositionText = position
        .to_string()
        .parse()
        .expect("a position's text reads back");
    let mut squares = serde_json::Map::new();
    for rank in 0..text.height() {
        for file in 0..text.width() {
            let stone = match text.stone(file, rank) {
                Some(Color::Black) => "b",
                Some(Color::White) => "w",
                None => "",
            };
            squares.insert(
                format!("{}{}", (b'a' + file as u8) as char, rank + 1),
                json!(stone),
            );
        }
    }
    Value::Object(squares)
}

/// The position after `moves`, by the rules core.
fn replay(moves: &[String]) -> AnyPosition {
    let mut p = AnyPosition::start(six());
    for m in moves {
        p.play_text(m)
            .unwrap_or_else(|e| panic!("the page played {m}: {e}"));
    }
    p
}

fn assert_shows(page: &Value, position: &AnyPosition, when: &str) {
    assert_eq!(page["position"], json!(position.to_string()), "{when}");
    assert_eq!(page["squares"], stones(position), "{when}: the board drawn");
}

async fn read(browser: &Browser) -> Value {
    browser.eval(READ_PAGE, Vec::new()).await
}

/// Waits until the person is to move or the game is over, and returns the page.
async fn settle(browser: &Browser, after: usize) -> Value {
    let script = format!(
        "const svg = document.getElementById('board');
         const over = document.getElementById('status').className === 'over';
         const moves = document.querySelectorAll('#moves li').length;
         return moves >= {after} && (over || Number(svg.dataset.legal) > 0);"
    );
    browser
        .wait_for("the person's turn or the end", &script)
        .await;
    read(browser).await
}

async fn play_a_whole_game(browser: &Browser) -> Vec<String> {
    browser.select("#width", "6").await;
    browser.select("#height", "6").await;
    browser.select("#black-player", "").await;
    browser.select("#white-player", "0").await;
    browser.select("#limit-kind", "depth").await;
    browser
        .eval(
            "document.getElementById('limit-value').value = '2';",
            Vec::new(),
        )
        .await;
    browser.click("#new").await;
    browser
        .wait_for(
            "the new 6x6 game",
            "return document.getElementById('board').dataset.position === 'bwbwbw/wbwbwb/bwbwbw/wbwbwb/bwbwbw/wbwbwb b';",
        )
        .await;
    let mut turn = 0;
    loop {
        let page = settle(browser, 0).await;
        let moves: Vec<String> = serde_json::from_value(page["moves"].clone()).expect("texts");
        let position = replay(&moves);
        assert_shows(&page, &position, &format!("after {moves:?}"));
        if page["over"] == json!(true) {
            assert!(
                position.outcome().is_some(),
                "the page ended a game that goes on"
            );
            return moves;
        }
        let legal = position.legal_move_texts();
        assert_eq!(
            page["legal"],
            json!(legal.len()),
            "the moves the page offers"
        );
        // Vary the choice, so the game is not always the same line.
        let choice = &legal[(turn * 7) % legal.len()];
        turn += 1;
        browser.click_move(choice).await;
        let played = moves.len() + 1;
        let script = format!("return document.querySelectorAll('#moves li').length >= {played};");
        browser.wait_for("the move to be played", &script).await;
        let page = read(browser).await;
        assert_eq!(
            page["moves"][moves.len()],
            json!(choice),
            "the move clicked"
        );
    }
}

async fn step_back(browser: &Browser, moves: &[String]) {
    for back in 1..=moves.len().min(4) {
        browser.click("#back").await;
        let ply = moves.len() - back;
        let script =
            format!("return Number(document.getElementById('board').dataset.ply) === {ply};");
        browser.wait_for("a step back", &script).await;
        let page = read(browser).await;
        assert_shows(
            &page,
            &replay(&moves[..ply]),
            &format!("stepped back to ply {ply}"),
        );
    }
}

/// A game in the referee's own PGN, played by the rules core.
fn referee_pgn() -> (String, Vec<String>) {
    let mut position = AnyPosition::start(six());
    let mut moves = Vec::new();
    while position.outcome().is_none() {
        let legal = position.legal_move_texts();
        let m = legal[moves.len() % legal.len()].clone();
        position.play_text(&m).expect("a legal move");
        moves.push(m);
    }
    let record = GameRecord {
        number: 3,
        round: 1,
        pair: 1,
        black: "alpha".into(),
        white: "beta".into(),
        winner: position.outcome().expect("over").winner(),
        termination: Termination::Normal,
        detail: "no legal move".into(),
        opening: StartPosition::Standard,
        moves: moves
            .iter()
            .map(|m| PlayedMove {
                text: m.clone(),
                ms: 12,
                depth: Some(3),
                score: Some("cp 25".into()),
            })
            .collect(),
    };
    (pgn::game(&record, "test", six()), moves)
}

async fn load_pgn(browser: &Browser) {
    let (text, moves) = referee_pgn();
    browser.click("#records summary").await;
    browser
        .eval(
            "document.getElementById('import-text').value = arguments[0];",
            vec![json!(text)],
        )
        .await;
    browser.click("#import").await;
    let script = format!(
        "return document.querySelectorAll('#moves li').length === {} && document.getElementById('notice').textContent.includes('alpha');",
        moves.len()
    );
    browser.wait_for("the PGN's game", &script).await;
    let page = read(browser).await;
    assert_eq!(page["moves"], json!(moves));
    assert_shows(&page, &replay(&moves), "the loaded game's last position");
}

fn refuses_foreign_requests(server: &Server) {
    let port = server.port;
    let ws = |origin: &str| {
        format!(
            "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: {origin}\r\nUpgrade: websocket\r\n\
             Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        )
    };
    assert_eq!(
        server.status_of(&ws("http://evil.example")),
        403,
        "foreign Origin"
    );
    assert_eq!(
        server.status_of(&ws(&format!("http://127.0.0.1:{port}"))),
        101,
        "own Origin"
    );
    let page = |host: &str| format!("GET / HTTP/1.1\r\nHost: {host}\r\n\r\n");
    assert_eq!(
        server.status_of(&page(&format!("evil.example:{port}"))),
        403,
        "foreign Host"
    );
    assert_eq!(
        server.status_of(&page(&format!("127.0.0.1:{port}"))),
        200,
        "own Host"
    );
    assert_eq!(
        server.status_of(&format!(
            "GET /nothing HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
        )),
        404
    );
}

#[test]
fn a_person_plays_a_whole_game_in_the_browser() {
    let mut server = Server::start(&[]);
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let browser = Browser::start(1200, 900).await;
        browser.open(&server.url).await;
        let moves = play_a_whole_game(&browser).await;
        let page = read(&browser).await;
        let status = page["status"].as_str().expect("text");
        let winner = replay(&moves).outcome().expect("over").winner();
        let name = if winner == Color::Black {
            "black"
        } else {
            "white"
        };
        assert!(status.starts_with(&format!("{name} wins")), "{status}");
        assert!(status.contains("has no legal move"), "{status}");
        step_back(&browser, &moves).await;
        load_pgn(&browser).await;
        refuses_foreign_requests(&server);
        // An engine analysing (`go infinite`) when the server is told to stop.
        browser.click("#back").await;
        browser.click("#analyse").await;
        browser
            .wait_for(
                "the analysis",
                "return document.getElementById('search-line').textContent.startsWith('analysis');",
            )
            .await;
        let engines = children(server.id());
        assert!(
            !engines.is_empty(),
            "the page's engines run under the server"
        );
        // The page is still open: the engines end because the server does.
        assert!(server.terminate(), "the server ends on SIGTERM");
        std::thread::sleep(Duration::from_millis(200));
        for pid in engines {
            let alive = parent_and_state(pid).is_some_and(|(_, state)| state != 'Z');
            assert!(!alive, "engine {pid} outlived the server");
        }
        browser.close().await;
    });
}

/// An engine that announces `Skill Level` and writes every line it gets to a file.
const SKILLED_ENGINE: &str = r#"#!/bin/sh
while read -r line; do
  echo "$line" >> "$1"
  case "$line" in
    ugi|uci) echo "id name skilled"
             echo "option name Skill Level type spin default 20 min 0 max 20"
             echo "${line}ok" ;;
    isready) echo readyok ;;
    quit) exit 0 ;;
  esac
done
"#;

#[test]
fn a_person_can_turn_an_engine_down_when_it_offers_levels() {
    let dir = gui_support::scratch("gui-skill");
    let script = dir.join("skilled.sh");
    let log = dir.join("input.log");
    std::fs::write(&script, SKILLED_ENGINE).expect("the script");
    std::process::Command::new("chmod")
        .arg("+x")
        .arg(&script)
        .status()
        .expect("chmod");
    let engine = [
        "-engine".to_string(),
        format!("cmd={}", script.display()),
        "name=skilled".to_string(),
        format!("arg={}", log.display()),
    ];
    let args: Vec<&str> = engine.iter().map(String::as_str).collect();
    let server = Server::start(&args);
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let browser = Browser::start(1200, 900).await;
        browser.open(&server.url).await;
        browser.select("#black-player", "").await;
        browser.select("#white-player", "0").await;
        let shown = browser
            .eval(
                "return !document.getElementById('white-level-label').hidden && document.getElementById('white-level').options.length;",
                Vec::new(),
            )
            .await;
        assert_eq!(shown, json!(21), "levels 20 down to 0 are offered");
        browser.select("#white-level", "5").await;
        browser.select("#width", "4").await;
        browser.select("#height", "4").await;
        browser.click("#new").await;
        browser
            .wait_for(
                "the 4x4 game",
                "return document.getElementById('board').dataset.position === 'bwbw/wbwb/bwbw/wbwb b';",
            )
            .await;
        browser.click_move("a4").await;
        let until = std::time::Instant::now() + Duration::from_secs(30);
        loop {
            let sent = std::fs::read_to_string(&log).unwrap_or_default();
            if sent.contains("setoption name Skill Level value 5") {
                break;
            }
            assert!(std::time::Instant::now() < until, "no level was sent: {sent}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        browser.close().await;
    });
    let _ = std::fs::remove_dir_all(&dir);
}
