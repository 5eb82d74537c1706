//! Screenshots of the web GUI for the README, taken with the headless Chromium of the
//! browser test: `cargo test --release --test gui_screenshots -- --ignored` writes
//! docs/gui-game.png (a game in progress with PV arrows and the score graph),
//! docs/gui-solve.png (the solver's verdict on each move of a 6x6 position) and
//! docs/gui-phone.png (the game at a phone's size).

// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod gui_support;

use std::path::Path;
use std::time::Duration;

use gui_support::{Browser, Server};
use konane::rules::{AnyPosition, MultiJump, Opening};

/// The page's position text.
async fn position(browser: &Browser) -> String {
    browser
        .eval(
            "return document.getElementById('board').dataset.position;",
            Vec::new(),
        )
        .await
        .as_str()
        .expect("a position text")
        .to_string()
}

async fn new_game(browser: &Browser, size: &str, white: &str, seconds: &str) {
    browser.select("#width", size).await;
    browser.select("#height", size).await;
    browser.select("#black-player", "").await;
    browser.select("#white-player", white).await;
    browser.select("#limit-kind", "movetime").await;
    browser
        .eval(
            "document.getElementById('limit-value').value = arguments[0];",
            vec![seconds.into()],
        )
        .await;
    browser.click("#new").await;
    browser
        .wait_for(
            "a new game",
            "return document.querySelectorAll('#moves li').length === 0 && Number(document.getElementById('board').dataset.legal) > 0;",
        )
        .await;
}

/// Plays `count` moves for the person, each the `pick`-th legal move by the rules core.
async fn person_plays(browser: &Browser, count: usize, pick: usize) {
    for _ in 0..count {
        browser
            .wait_for(
                "the person's turn",
                "return Number(document.getElementById('board').dataset.legal) > 0;",
            )
            .await;
        let text = position(browser).await;
        let p = AnyPosition::from_text(&text, Opening::Diagonal, MultiJump::Straight)
            .expect("the page shows a position");
        let legal = p.legal_move_texts();
        let before = browser
            .eval(
                "return document.querySelectorAll('#moves li').length;",
                Vec::new(),
            )
            .await;
        browser.click_move(&legal[pick % legal.len()]).await;
        let script = format!("return document.querySelectorAll('#moves li').length > {before};");
        browser.wait_for("the move", &script).await;
    }
}

#[test]
#[ignore = "writes docs/gui-*.png; run by hand after changing the page"]
fn screenshots_for_the_readme() {
    let server = Server::start(&[]);
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let browser = Browser::start(1280, 1000).await;
        browser.open(&server.url).await;

        new_game(&browser, "8", "0", "0.5").await;
        person_plays(&browser, 9, 3).await;
        browser
            .wait_for(
                "the engine's reply",
                "return Number(document.getElementById('board').dataset.legal) > 0;",
            )
            .await;
        browser.click("#analyse").await;
        browser
            .eval("document.getElementById('multipv').value = '3'; document.getElementById('multipv').dispatchEvent(new Event('change'));", Vec::new())
            .await;
        tokio::time::sleep(Duration::from_secs(3)).await;
        browser.eval("window.scrollTo(0, 0);", Vec::new()).await;
        browser.screenshot(&docs.join("gui-game.png")).await;
        browser.client.set_window_size(390, 844).await.expect("a phone's size");
        tokio::time::sleep(Duration::from_millis(500)).await;
        browser.eval("window.scrollTo(0, 0);", Vec::new()).await;
        browser.screenshot(&docs.join("gui-phone.png")).await;
        browser.client.set_window_size(1280, 1000).await.expect("a desktop size");
        browser.click("#analyse").await;

        new_game(&browser, "6", "", "1").await;
        browser.click_move("c4").await;
        browser.wait_for("white's turn", "return document.getElementById('board').dataset.position.endsWith(' w');").await;
        browser.click_move("b4").await;
        browser.click("#solve").await;
        browser
            .wait_for(
                "the solver's verdict",
                "return document.getElementById('solve-status').dataset.done === 'true';",
            )
            .await;
        browser.eval("window.scrollTo(0, 0);", Vec::new()).await;
        browser.screenshot(&docs.join("gui-solve.png")).await;
        browser.close().await;
    });
}
