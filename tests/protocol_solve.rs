//! `go solve` against the real engine binary: proven results agree with a naive
//! solver, the winning move keeps the win, progress lines come while it works, and
//! `stop` or `movetime` end it with a legal move and a reason.

mod engine_driver;
mod solver_support;

use std::time::{Duration, Instant};

use engine_driver::{Engine, Score, check_bestmove, parse_info, start_after, variant};
use konane::rules::AnyPosition;
use konane::with_position;
use solver_support::Naive;

/// Whether the side to move at `position` wins, by the naive solver.
fn naive_wins(position: &AnyPosition) -> bool {
    with_position!(position, p => Naive::default().wins(p))
}

/// The last `info depth` line of `lines`, which must be a proven score.
fn proven_mate(engine: &Engine, lines: &[String]) -> (i64, Vec<String>) {
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| engine.fail("no info depth line"));
    let info = parse_info(last).unwrap_or_else(|e| engine.fail(&e));
    match info.score {
        Score::Mate(n) if n != 0 => (n, info.pv),
        other => engine.fail(&format!(
            "a solve must end with a mate score, not {other:?}"
        )),
    }
}

#[test]
fn go_solve_agrees_with_a_naive_solver_and_its_move_keeps_the_win() {
    let mut engine = Engine::start();
    let cases: [(&str, &str, &str, &[&str]); 6] = [
        ("4x4", "diagonal", "straight", &[]),
        ("5x5", "diagonal", "straight", &[]),
        ("4x4", "centre", "turning", &["b3"]),
        ("3x5", "any", "turning", &[]),
        ("5x4", "any", "straight", &["c4"]),
        ("4x5", "diagonal", "turning", &["a5", "b5"]),
    ];
    let mut outcomes = Vec::new();
    for (size, opening, jump, moves) in cases {
        // A rule set may warn on the way (some have no legal first move); none refuses.
        engine.send(&format!("setoption name BoardSize value {size}"));
        engine.send(&format!("setoption name Opening value {opening}"));
        engine.send(&format!("setoption name MultiJump value {jump}"));
        let replies = engine.sync();
        assert!(
            replies.iter().all(|l| l.starts_with("info string warning")),
            "{replies:?}"
        );
        engine.silent(&format!("position startpos moves {}", moves.join(" ")));
        let position = start_after(variant(size, opening, jump), moves);
        let wins = naive_wins(&position);
        outcomes.push(wins);
        engine.send("go solve");
        let out = engine.until_bestmove();
        let what = format!("{size} {opening} {jump} after {moves:?}: {out:?}");
        let (mate, pv) = proven_mate(&engine, &out);
        assert_eq!(mate > 0, wins, "{what}");
        // The proven line is legal and ends the game: the loser has no move after it.
        let mut end = position;
        for m in &pv {
            end.play_text(m)
                .unwrap_or_else(|e| engine.fail(&format!("{what}: pv move {m}: {e}")));
        }
        assert!(
            end.legal_move_texts().is_empty(),
            "{what}: the pv stops early"
        );
        let own_moves = (pv.len() as i64 + 1) / 2;
        assert_eq!(
            mate.abs(),
            own_moves.max(1),
            "{what}: mate counts own moves"
        );
        let (best, _) = check_bestmove(&engine, out.last().unwrap(), &position, false);
        assert_eq!(pv.first(), Some(&best), "{what}: bestmove starts the pv");
        if wins {
            let mut after = position;
            after.play_text(&best).unwrap();
            assert!(!naive_wins(&after), "{what}: {best} gives the win away");
        }
    }
    assert!(
        outcomes.contains(&true) && outcomes.contains(&false),
        "the cases cover won and lost positions: {outcomes:?}"
    );
}

#[test]
fn stop_ends_a_solve_that_reports_progress_with_a_legal_move_and_the_reason() {
    let mut engine = Engine::start();
    engine.send("position startpos moves d5 e5");
    engine.send("go solve");
    // The 8x8 opening is far beyond a proof: progress lines come about once a second.
    let progress = engine.read_until(|l| l.starts_with("info nodes"));
    let words: Vec<&str> = progress.last().unwrap().split(' ').collect();
    assert_eq!(
        words.iter().skip(1).step_by(2).copied().collect::<Vec<_>>(),
        ["nodes", "nps", "time", "hashfull"],
        "{progress:?}"
    );
    let sent = Instant::now();
    engine.send("stop");
    let out = engine.until_bestmove();
    assert!(
        sent.elapsed() < Duration::from_secs(5),
        "stop took {:?}",
        sent.elapsed()
    );
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string solve ended without a proof (stopped)")),
        "{out:?}"
    );
    let position = start_after(variant("8x8", "diagonal", "straight"), &["d5", "e5"]);
    check_bestmove(&engine, out.last().unwrap(), &position, false);
    assert_eq!(
        engine.sync(),
        Vec::<String>::new(),
        "the engine is idle again"
    );
}

#[test]
fn go_solve_movetime_bounds_the_solve() {
    let mut engine = Engine::start();
    engine.silent("setoption name MoveOverhead value 0");
    engine.send("position startpos");
    let sent = Instant::now();
    engine.send("go solve movetime 300");
    let out = engine.until_bestmove();
    let took = sent.elapsed();
    // The solve has three quarters of the time and cannot run out of it sooner; the
    // short search that picks the move may take less than the rest.
    assert!(
        took >= Duration::from_millis(225) && took < Duration::from_secs(5),
        "took {took:?}"
    );
    assert!(
        out.iter()
            .any(|l| l.contains("solve ended without a proof (out of time)")),
        "{out:?}"
    );
    let position = start_after(variant("8x8", "diagonal", "straight"), &[]);
    check_bestmove(&engine, out.last().unwrap(), &position, false);
}

#[test]
fn a_solve_with_no_legal_move_gives_bestmove_0000() {
    let mut engine = Engine::start();
    engine.silent("setoption name BoardSize value 4x4");
    engine.silent("position fen b3/4/4/w3 b");
    engine.send("go solve");
    let out = engine.until_bestmove();
    assert_eq!(
        out.last().map(String::as_str),
        Some("bestmove 0000"),
        "{out:?}"
    );
    assert!(
        out.iter().any(|l| l.contains("has no legal move")),
        "{out:?}"
    );
}

#[test]
fn the_solver_table_size_is_an_option_with_a_range() {
    let mut engine = Engine::start();
    let options = engine.ask("ugi");
    assert!(
        options
            .iter()
            .any(|l| l == "option name SolverHash type spin default 64 min 1 max 65536"),
        "{options:?}"
    );
    for bad in ["0", "-5", "lots", "65537"] {
        let out = engine.ask(&format!("setoption name SolverHash value {bad}"));
        engine_driver::assert_one_error(&engine, bad, &out, &["SolverHash"]);
    }
    engine.silent("setoption name SolverHash value 8");
    engine.silent("setoption name BoardSize value 5x5");
    engine.silent("position startpos");
    engine.send("go solve");
    let out = engine.until_bestmove();
    let (mate, _) = proven_mate(&engine, &out);
    assert!(mate > 0, "5x5 is a first-player win: {out:?}");
}
