//! Fixed work for measuring speed: perft over midgame positions, and searches to a
//! fixed depth whose node count is the search's signature.
//!
//! The positions are part of the repository so that every change is measured on the
//! same work. They were reached by seeded random play from the 8x8 start (plus a few
//! other boards and the turning rule for the search bench).

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::rules::{AnyPosition, MultiJump, Opening, Perft, PerftError};
use crate::search::time::TimeControl;
use crate::search::{SearchControl, SearchParams, Searcher};
use crate::with_position;

/// 8x8 `diagonal`/`straight` midgame positions and the perft depth each is counted to.
pub const PERFT_POSITIONS: [(&str, usize); 10] = [
    (
        "bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbw1wb/bwb1b1bw/wbwb2wb/bwbw1wbw/wbwbwbwb b",
        8,
    ),
    (
        "1w2bwbw/2w2b1b/b1bw3w/5bwb/2bwbwbw/wbwbwbwb/b2wbwbw/wbwbwbwb w",
        8,
    ),
    (
        "bwbwbwb1/wbwbw3/bwbwb3/wbw1w3/bw2bwbw/wb5b/bwb4w/wb2w1w1 b",
        8,
    ),
    (
        "bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwb1b/bwbw1w1w/wbwbw2b/bwb5/wb3bw1 b",
        8,
    ),
    (
        "bwb1bwbw/wbw1wbwb/b1bwbwbw/wbwb1bwb/bwb2wbw/wbw1wbwb/bwbwbwbw/wbwbwbwb w",
        8,
    ),
    (
        "bwbwbwbw/wbwbwbw1/b2wbwb1/wbwb2wb/bwbw1wb1/wbwbwbwb/bwbwb2w/wbwbw2b b",
        8,
    ),
    (
        "bwbwbwbw/wbw1wbwb/bwbwbwbw/1b5b/bw2bwb1/wbwbwbw1/bw1wbwbw/wb1bwbwb w",
        7,
    ),
    (
        "2bwbwbw/2wbwbwb/b1b2wbw/2w2bwb/1w1wbwbw/1b1bwbwb/5wbw/w3w2b b",
        8,
    ),
    (
        "bwb2w1w/wbwbw3/bwbwbwb1/wbwb3b/bw1w4/4w3/bwb1bwb1/wbw2b2 w",
        8,
    ),
    (
        "bwbwbwbw/2wbwbwb/bwb4w/wb3b1b/b1b1b1bw/w1wb2wb/bw1w1wbw/wb1bw2b w",
        7,
    ),
];

/// Positions searched by `bench`, with their rules: 8x8 mostly, and a few others so
/// that every board width and both multi-jump rules are exercised.
pub const SEARCH_POSITIONS: [(&str, MultiJump); 12] = [
    (
        "bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb b",
        MultiJump::Straight,
    ),
    (
        "bwbwbwbw/wbwbwbwb/bwbwbwbw/wbw2bwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb b",
        MultiJump::Straight,
    ),
    (
        "bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbw1wb/bwb1b1bw/wbwb2wb/bwbw1wbw/wbwbwbwb b",
        MultiJump::Straight,
    ),
    (
        "1w2bwbw/2w2b1b/b1bw3w/5bwb/2bwbwbw/wbwbwbwb/b2wbwbw/wbwbwbwb w",
        MultiJump::Straight,
    ),
    (
        "bwbwbwb1/wbwbw3/bwbwb3/wbw1w3/bw2bwbw/wb5b/bwb4w/wb2w1w1 b",
        MultiJump::Straight,
    ),
    (
        "bwb1bwbw/wbw1wbwb/b1bwbwbw/wbwb1bwb/bwb2wbw/wbw1wbwb/bwbwbwbw/wbwbwbwb w",
        MultiJump::Straight,
    ),
    (
        "2bwbwbw/2wbwbwb/b1b2wbw/2w2bwb/1w1wbwbw/1b1bwbwb/5wbw/w3w2b b",
        MultiJump::Straight,
    ),
    (
        "bwb2w1w/wbwbw3/bwbwbwb1/wbwb3b/bw1w4/4w3/bwb1bwb1/wbw2b2 w",
        MultiJump::Straight,
    ),
    (
        "bwbwbwbw/wbw1wbwb/bwbwbwbw/1b5b/bw2bwb1/wbwbwbw1/bw1wbwbw/wb1bwbwb w",
        MultiJump::Turning,
    ),
    (
        "bwbwbw/wbwbwb/bw2bw/wbwbwb/bwbwbw/wbwbwb b",
        MultiJump::Straight,
    ),
    (
        "bwbwbwbwbw/wbwbwbwbwb/bwbwbwbwbw/wbwbwbwbwb/bwbw2bwbw/wbwbwbwbwb/bwbwbwbwbw/wbwbwbwbwb/bwbwbwbwbw/wbwbwbwbwb b",
        MultiJump::Straight,
    ),
    (
        "bwbwbwbwbwbw/wbwbwbwbwbwb/bwbwbwbwbwbw/wbwbwbwbwbwb/bwbwbwbwbwbw/wbwbw2bwbwb/bwbwbwbwbwbw/wbwbwbwbwbwb/bwbwbwbwbwbw/wbwbwbwbwbwb/bwbwbwbwbwbw/wbwbwbwbwbwb b",
        MultiJump::Turning,
    ),
];

/// Default depth of the search bench.
pub const SEARCH_DEPTH: u32 = 9;

/// Nodes counted and time taken by a benchmark.
#[derive(Clone, Copy, Debug)]
pub struct Measure {
    /// Nodes counted or searched.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
}

impl Measure {
    /// Nodes per second.
    #[must_use]
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

#[expect(
    clippy::expect_used,
    reason = "the bench positions are constant texts of legal positions"
)]
fn bench_position(text: &str, multi_jump: MultiJump) -> AnyPosition {
    AnyPosition::from_text(text, Opening::Diagonal, multi_jump)
        .expect("bench positions are valid position text")
}

/// Runs perft over [`PERFT_POSITIONS`] on this thread, telling `line` the result of
/// each position.
pub fn perft(
    stop: &AtomicBool,
    line: &mut dyn FnMut(&str, usize, Measure),
) -> Result<Measure, PerftError> {
    let mut total = Measure {
        nodes: 0,
        elapsed: Duration::ZERO,
    };
    for (text, depth) in PERFT_POSITIONS {
        let pos = bench_position(text, MultiJump::Straight);
        let started = Instant::now();
        let nodes = with_position!(pos, p => Perft::new(stop).count(&p, depth))?;
        let m = Measure {
            nodes,
            elapsed: started.elapsed(),
        };
        line(text, depth, m);
        total.nodes += m.nodes;
        total.elapsed += m.elapsed;
    }
    Ok(total)
}

/// Searches every position of [`SEARCH_POSITIONS`] to `depth` on one thread, each with
/// a fresh table and history, so that the node count depends on the search alone.
pub fn search(depth: u32, control: &SearchControl, line: &mut dyn FnMut(&str, Measure)) -> Measure {
    let mut searcher = Searcher::new(16);
    let mut total = Measure {
        nodes: 0,
        elapsed: Duration::ZERO,
    };
    for (text, multi_jump) in SEARCH_POSITIONS {
        if control.stopped() {
            break;
        }
        searcher.clear();
        let pos = bench_position(text, multi_jump);
        let started = Instant::now();
        let nodes = with_position!(pos, p => {
            let params = SearchParams {
                depth: Some(depth),
                time: TimeControl::Unlimited,
                multipv: 1,
                ..SearchParams::default()
            };
            searcher.search(&p, &params, control, &mut |_| {}).nodes
        });
        let m = Measure {
            nodes,
            elapsed: started.elapsed(),
        };
        line(text, m);
        total.nodes += m.nodes;
        total.elapsed += m.elapsed;
    }
    total
}
