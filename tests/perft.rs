//! The perft table `tests/data/perft.txt`, counted by the engine and by the naive
//! generator of `tests/common/naive.rs`.
//!
//! The engine checks every line in every run (it needs about a second for all of them);
//! the naive generator checks the quick lines in every run and the lines marked `deep`
//! under `cargo test -- --ignored`.

mod common;

use common::table::{PerftCase, perft_cases};
use common::{divide_report, engine_divide, engine_perft, naive};

/// Everything needed to find the bug behind a wrong line: the line, both counts, and
/// both divides side by side.
fn failure_report(case: &PerftCase, engine: u64, naive_count: u64) -> String {
    let position = case.engine_position();
    let engine_lines = engine_divide(&position, case.depth);
    let naive_lines = naive::divide(&case.naive_board(), case.rules, case.depth);
    format!(
        "{}\n  engine got {engine}, naive generator got {naive_count}\n  {}",
        case.describe(),
        divide_report(&engine_lines, &naive_lines).replace('\n', "\n  ")
    )
}

/// Failing lines reported with both divides; the rest are listed in one line each, as
/// the naive divide of a deep line can take a while and the shallowest failures are the
/// ones that find the bug.
const DETAILED_REPORTS: usize = 3;

/// Checks `count` against every case and fails with a report of the wrong lines.
fn check(what: &str, cases: &[PerftCase], count: impl Fn(&PerftCase) -> u64) {
    assert!(!cases.is_empty(), "no perft line to check for {what}");
    let mut wrong: Vec<(&PerftCase, u64)> = cases
        .iter()
        .map(|case| (case, count(case)))
        .filter(|(case, got)| *got != case.nodes)
        .collect();
    if wrong.is_empty() {
        return;
    }
    wrong.sort_by_key(|(case, _)| (case.deep, case.nodes));
    let mut report = Vec::new();
    for (i, (case, got)) in wrong.iter().enumerate() {
        if i < DETAILED_REPORTS {
            let engine = engine_perft(&case.engine_position(), case.depth);
            report.push(failure_report(case, engine, case.naive_count()));
        } else {
            report.push(format!("{}, {what} got {got}", case.describe()));
        }
    }
    panic!(
        "{} of {} perft lines disagree with {what}:\n\n{}",
        wrong.len(),
        cases.len(),
        report.join("\n\n")
    );
}

fn check_engine(cases: &[PerftCase]) {
    check("the engine", cases, |case| {
        engine_perft(&case.engine_position(), case.depth)
    });
}

fn check_naive(cases: &[PerftCase]) {
    check("the naive generator", cases, PerftCase::naive_count);
}

#[test]
fn every_perft_line_matches_the_engine() {
    check_engine(&perft_cases());
}

#[test]
fn quick_perft_lines_match_the_naive_generator() {
    let quick: Vec<PerftCase> = perft_cases().into_iter().filter(|c| !c.deep).collect();
    check_naive(&quick);
}

#[test]
#[ignore = "deep perft lines take the naive generator a minute or two"]
fn deep_perft_lines_match_the_naive_generator() {
    let deep: Vec<PerftCase> = perft_cases().into_iter().filter(|c| c.deep).collect();
    check_naive(&deep);
}

/// The counts known before the table was written (the rules file gives 4, 12, 28, 172)
/// must stay in it, so that the table cannot drift along with a broken generator.
#[test]
fn perft_table_keeps_the_known_start_counts() {
    let known: [(&str, &[u64]); 2] = [
        (
            "startpos 8x8",
            &[4, 12, 28, 172, 892, 7124, 52044, 508088, 4633660],
        ),
        ("startpos 6x6", &[4, 12, 28, 156, 668, 4192, 22676, 162288]),
    ];
    let cases = perft_cases();
    for (position, counts) in known {
        for (i, &nodes) in counts.iter().enumerate() {
            let depth = i + 1;
            let found = cases.iter().any(|c| {
                c.position == position
                    && c.rules.opening == konane::rules::Opening::Diagonal
                    && c.rules.multi_jump == konane::rules::MultiJump::Straight
                    && c.depth == depth
                    && c.nodes == nodes
            });
            assert!(
                found,
                "perft.txt lacks '{position} | diagonal | straight | {depth} | {nodes}'"
            );
        }
    }
}

/// The table exercises every rule combination and every bitboard width.
#[test]
fn perft_table_covers_every_rule_and_board_width() {
    let cases = perft_cases();
    for rules in common::all_rules() {
        assert!(
            cases.iter().any(|c| c.rules == rules && c.nodes > 0),
            "no perft line for {rules}"
        );
    }
    let squares = |c: &PerftCase| {
        let b = c.naive_board();
        b.width() * b.height()
    };
    for (name, range) in [
        ("64-bit", 4..=64),
        ("128-bit", 65..=128),
        ("256-bit", 129..=256),
    ] {
        assert!(
            cases
                .iter()
                .any(|c| range.contains(&squares(c)) && c.depth >= 3),
            "no perft line of depth 3 or more on a {name} board"
        );
    }
    assert!(
        cases.iter().any(|c| c.nodes == 0 && c.depth == 1),
        "no line where the side to move has no move at all"
    );
}

/// A wrong line says where to look: position, rules, depth, both counts, and the
/// divide with the differing moves marked.
#[test]
fn a_wrong_perft_line_reports_position_rules_and_divide() {
    let case = perft_cases()
        .into_iter()
        .find(|c| c.position == "startpos 8x8" && c.depth == 3)
        .expect("the table has the 8x8 start at depth 3");
    let wrong = PerftCase {
        nodes: case.nodes + 1,
        ..case.clone()
    };
    let report = failure_report(&wrong, case.nodes, case.nodes);
    for needed in [
        "startpos 8x8",
        "opening diagonal",
        "multi-jump straight",
        "depth 3",
        "expected 29",
        "engine got 28",
        "naive generator got 28",
        "d5",
        "a8",
    ] {
        assert!(
            report.contains(needed),
            "'{needed}' missing from:\n{report}"
        );
    }
    let mut lines: Vec<(String, u64)> = engine_divide(&case.engine_position(), 3);
    lines[0].1 += 1;
    let diff = divide_report(&lines, &naive::divide(&case.naive_board(), case.rules, 3));
    assert_eq!(diff.matches("<<").count(), 1, "{diff}");
}

/// `Perft::divide` gives one line per jump path, each with its own text, also when two
/// paths have one effect (both ways round a loop).
#[test]
fn divide_lists_every_path_with_its_own_count() {
    let mut checked = 0;
    for case in perft_cases() {
        if case.position.starts_with("startpos") || case.depth != 2 {
            continue;
        }
        let mut engine = engine_divide(&case.engine_position(), 2);
        let mut naive = naive::divide(&case.naive_board(), case.rules, 2);
        engine.sort();
        naive.sort();
        assert!(
            engine == naive,
            "{}\n  {}",
            case.describe(),
            divide_report(&engine, &naive)
        );
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} positions divided");
}

/// A position with more jump paths than a move list holds is reported as such, never
/// miscounted: a lone black stone free to roam a 7x7 lattice of white stones under the
/// turning rule has 16,920 paths.
#[test]
fn more_paths_than_a_move_list_holds_are_reported_not_miscounted() {
    use konane::rules::{MAX_MOVES, MoveList, MultiJump, Opening, Perft, PerftError};

    let text = "bw1w1w1/w1w1w1w/1w1w1w1/w1w1w1w/1w1w1w1/w1w1w1w/1w1w1w1 b";
    let rules = naive::Rules {
        opening: Opening::Any,
        multi_jump: MultiJump::Turning,
    };
    let paths = naive::Board::from_text(text).unwrap().moves(rules).len();
    assert!(paths > MAX_MOVES, "the naive generator finds {paths} paths");
    let pos = common::engine_from_text(text, rules).unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    konane::with_position!(&pos, p => {
        let mut list = MoveList::new();
        p.generate_paths(&mut list);
        assert!(list.overflowed());
        assert!(p.count_moves() > MAX_MOVES as u64);
        assert_eq!(Perft::new(&stop).count(p, 1), Err(PerftError::TooManyMoves));
        assert_eq!(Perft::new(&stop).count(p, 3), Err(PerftError::TooManyMoves));
    });
}
