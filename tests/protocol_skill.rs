//! The strength options (`Skill Level`, `UCI_LimitStrength`, `UCI_Elo`, `SkillSeed`)
//! through the real engine binary: announced with their ranges, absurd values refused
//! with one error line, a weakened engine plays legal moves, answers `stop` at once and
//! prints only the lines its `MultiPV` asks for.

mod engine_driver;

use std::time::{Duration, Instant};

use engine_driver::{Engine, assert_one_error, check_bestmove, start_after, variant};

/// A `bestmove` after `stop` takes the engine well under a millisecond; this leaves
/// room for a busy machine while still catching a search that ignores `stop`.
const HANG: Duration = Duration::from_secs(5);

#[test]
fn strength_options_are_announced_with_their_ranges() {
    let mut engine = Engine::start();
    engine.send("ugi");
    let lines = engine.read_until(|l| l == "ugiok");
    for expected in [
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
        "option name SkillSeed type spin default 0 min 0 max 4294967295",
    ] {
        if !lines.iter().any(|l| l == expected) {
            engine.fail(&format!("'{expected}' was not announced"));
        }
    }
    if !lines
        .iter()
        .any(|l| l.starts_with("option name UCI_Elo type spin default "))
    {
        engine.fail("UCI_Elo was not announced");
    }
}

#[test]
fn absurd_strength_values_get_one_error_line_and_change_nothing() {
    let mut engine = Engine::start();
    for (line, needle) in [
        ("setoption name Skill Level value 21", "Skill Level"),
        ("setoption name Skill Level value -1", "Skill Level"),
        ("setoption name Skill Level value 1e1", "Skill Level"),
        ("setoption name Skill Level value", "Skill Level"),
        ("setoption name UCI_Elo value 0", "UCI_Elo"),
        (
            "setoption name UCI_Elo value 99999999999999999999",
            "UCI_Elo",
        ),
        (
            "setoption name UCI_LimitStrength value yes",
            "UCI_LimitStrength",
        ),
        ("setoption name SkillSeed value 4294967296", "SkillSeed"),
    ] {
        let out = engine.ask(line);
        assert_one_error(&engine, line, &out, &[needle, "the value stays"]);
    }
    engine.silent("setoption name skilllevel value 0");
    engine.silent("setoption name UCI_LimitStrength value TRUE");
    engine.silent("setoption name SkillSeed value 5");
}

#[test]
fn a_weakened_engine_shows_only_the_lines_asked_for() {
    let mut engine = Engine::start();
    engine.silent("setoption name Skill Level value 0");
    let position = start_after(variant("8x8", "diagonal", "straight"), &["d5", "d4"]);
    engine.silent("position startpos moves d5 d4");
    engine.send("go depth 5");
    let lines = engine.until_bestmove();
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    // Level 0 looks one ply ahead among several candidates, but MultiPV is 1.
    if infos.len() != 1 || infos[0].contains("multipv") {
        engine.fail(&format!("expected one plain info line, got {infos:?}"));
    }
    check_bestmove(
        &engine,
        lines.last().expect("read up to bestmove"),
        &position,
        false,
    );
}

#[test]
fn a_weakened_engine_answers_stop_at_once_with_a_legal_move() {
    let mut engine = Engine::start();
    for (size, level) in [("16x16", "19"), ("8x8", "0"), ("2x2", "5")] {
        engine.silent(&format!("setoption name BoardSize value {size}"));
        engine.silent(&format!("setoption name Skill Level value {level}"));
        engine.silent("position startpos");
        engine.send("go infinite");
        engine.read_until(|l| l.starts_with("info depth"));
        let asked = Instant::now();
        engine.send("stop");
        let lines = engine.until_bestmove();
        if asked.elapsed() >= HANG {
            engine.fail(&format!("bestmove came {:?} after stop", asked.elapsed()));
        }
        let position = start_after(variant(size, "diagonal", "straight"), &[]);
        check_bestmove(
            &engine,
            lines.last().expect("read up to bestmove"),
            &position,
            false,
        );
    }
}
