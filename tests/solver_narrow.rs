//! `scripts/narrow-table` against a naive solver: on the small boards, every setup's
//! position is the gap the script names, and both winners (black to move, white to
//! move) are the naive minimax's, solved whole or grown piece by piece (`--grow`). And
//! its `--merge`, which puts rows proven in separate runs into the table.

// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
mod solver_support;

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::{Command, Output};

use common::naive::{Board, Rules};
use konane::rules::{Color, MultiJump, Opening};
use solver_support::scratch;

/// Whether the side to move wins, by plain minimax over the naive move generator.
fn naive_wins(board: &Board, rules: Rules, memo: &mut HashMap<String, bool>) -> bool {
    let text = board.to_text();
    if let Some(&known) = memo.get(&text) {
        return known;
    }
    let win = board
        .moves(rules)
        .iter()
        .any(|m| !naive_wins(&m.after, rules, memo));
    memo.insert(text, win);
    win
}

/// The position text of the setup: an `m`-row, `n`-column board, top-left square
/// black, with the gap squares (row from the top, column) empty and black to move.
fn setup_text(m: usize, n: usize, setup: &str) -> String {
    let gap = match setup {
        "horizontal-middle" => [((m - 1) / 2, (n - 2) / 2), ((m - 1) / 2, (n - 2) / 2 + 1)],
        "horizontal-corner" => [(0, 0), (0, 1)],
        "vertical-middle" => [((m - 2) / 2, (n - 1) / 2), ((m - 2) / 2 + 1, (n - 1) / 2)],
        "vertical-corner" => [(0, 0), (1, 0)],
        other => panic!("unknown setup {other}"),
    };
    let rows: Vec<String> = (0..m)
        .map(|r| {
            let mut row = String::new();
            let mut run = 0;
            for c in 0..n {
                if gap.contains(&(r, c)) {
                    run += 1;
                    continue;
                }
                if run > 0 {
                    row.push_str(&run.to_string());
                    run = 0;
                }
                row.push(if (r + c) % 2 == 0 { 'b' } else { 'w' });
            }
            if run > 0 {
                row.push_str(&run.to_string());
            }
            row
        })
        .collect();
    format!("{} b", rows.join("/"))
}

fn colour(name: &str) -> Color {
    match name {
        "black" => Color::Black,
        "white" => Color::White,
        other => panic!("the script gave no winner: '{other}'"),
    }
}

/// One `--detail` line: "m n rule setup <position text> | <black starts> <white
/// starts> <class>", as (m, n, rule, setup, position text, the winners and class).
struct Detail<'a> {
    m: usize,
    n: usize,
    rule: &'a str,
    setup: &'a str,
    text: &'a str,
    result: &'a str,
}

fn detail(line: &str) -> Detail<'_> {
    let (setup, result) = line.split_once(" | ").expect("a detail line");
    let fields: Vec<&str> = setup.splitn(5, ' ').collect();
    let [m, n, rule, setup, text] = fields[..] else {
        panic!("bad line {line}");
    };
    Detail {
        m: m.parse().unwrap(),
        n: n.parse().unwrap(),
        rule,
        setup,
        text,
        result,
    }
}

/// Runs `scripts/narrow-table` with `args` and then `output` (how it prints) on the
/// test build of konane-solve, and checks that it succeeded.
fn narrow_table(args: &[&str], output: &str) -> Output {
    let out = Command::new("bash")
        .arg("scripts/narrow-table")
        .args(args)
        .arg(output)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("KONANE_SOLVE", env!("CARGO_BIN_EXE_konane-solve"))
        .output()
        .expect("bash runs the script");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs `scripts/narrow-table --detail` with `args` on the test build of konane-solve,
/// checks every line's position and both winners against the naive minimax, and that
/// each class reported on stderr is the one printed, in order. Returns the detail
/// lines.
fn run_and_check_detail(args: &[&str]) -> Vec<String> {
    let out = narrow_table(args, "--detail");
    let stdout = String::from_utf8_lossy(&out.stdout);
    // One memo per jump rule: a position's winner depends on the rule.
    let mut memos: HashMap<String, HashMap<String, bool>> = HashMap::new();
    for line in stdout.lines() {
        let Detail {
            m,
            n,
            rule,
            setup: name,
            text,
            result,
        } = detail(line);
        assert_eq!(text, setup_text(m, n, name), "{line}");
        let rules = Rules {
            opening: Opening::Any,
            multi_jump: rule.parse::<MultiJump>().unwrap(),
        };
        let memo = memos.entry(rule.to_owned()).or_default();
        let board = Board::from_text(text).unwrap();
        let winners: Vec<&str> = result.split(' ').collect();
        for (side, claimed) in [(Color::Black, winners[0]), (Color::White, winners[1])] {
            let wins = naive_wins(&board.with_side(side), rules, memo);
            let expected = if wins { side } else { side.opponent() };
            assert_eq!(colour(claimed), expected, "{line}: {side} to move");
        }
        let class = match (winners[0], winners[1]) {
            ("black", "black") => "L",
            ("white", "white") => "R",
            ("black", "white") => "N",
            _ => "P",
        };
        assert_eq!(winners[2], class, "{line}");
    }
    // Each setup's class is reported on stderr too, as soon as it is known: the same
    // classes, in the same order.
    let stderr = String::from_utf8_lossy(&out.stderr);
    let reported: Vec<&str> = stderr
        .lines()
        .filter_map(|line| line.strip_prefix("narrow-table: "))
        .filter_map(|line| line.split_once(": ").map(|(_, rest)| &rest[..1]))
        .collect();
    let classes: Vec<&str> = stdout
        .lines()
        .filter_map(|line| line.rsplit(' ').next())
        .collect();
    assert_eq!(reported, classes, "{stderr}");
    stdout.lines().map(str::to_owned).collect()
}

#[test]
fn the_narrow_board_script_agrees_with_a_naive_solver() {
    let lines = run_and_check_detail(&["--rows", "2 3 4 5:4", "--max-n", "5"]);
    // Rows 2, 3 and 4 with n from 2 to 5, row 5 with n from 2 to 4; four setups, two
    // rules.
    assert_eq!(lines.len(), (3 * 4 + 3) * 4 * 2);
}

/// The script's arguments to grow the proofs of `selection` (its rows, rules and n)
/// in `trees`, in pieces of 200 nodes, so that the larger setups are cut into many.
fn grown<'a>(selection: &[&'a str], trees: &'a str) -> Vec<&'a str> {
    let mut args = selection.to_vec();
    args.extend(["--grow", trees, "--piece-nodes", "200"]);
    args
}

/// With `--grow`, each proof is grown in a tree of its own (pieces of 200 nodes, so
/// the larger setups are cut into many pieces), with the same winners; a second run
/// reads the finished trees back and prints the same.
#[test]
fn grown_narrow_board_proofs_agree_with_a_naive_solver_and_are_kept() {
    let dir = scratch("narrow-grow");
    let trees = dir.to_str().expect("a UTF-8 scratch folder");
    let args = grown(&["--rows", "3 4", "--min-n", "5", "--max-n", "6"], trees);
    let first = run_and_check_detail(&args);
    assert_eq!(first.len(), 2 * 2 * 4 * 2);
    // A tree for each solve, named after it: black to move always, white to move
    // unless the setup is its own mirror image with the colours swapped (a horizontal
    // middle gap with n even, a vertical middle gap with m even), whose white-to-move
    // winner the script infers (and `run_and_check_detail` checked).
    let mut expected = Vec::new();
    for line in &first {
        let Detail {
            m, n, rule, setup, ..
        } = detail(line);
        let swapped = match setup {
            "horizontal-middle" => n % 2 == 0,
            "vertical-middle" => m % 2 == 0,
            _ => false,
        };
        expected.push(format!("{m}x{n}-{rule}-{setup}-black.json"));
        if !swapped {
            expected.push(format!("{m}x{n}-{rule}-{setup}-white.json"));
        }
    }
    let mut kept: Vec<String> = std::fs::read_dir(&dir)
        .expect("the trees' folder")
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    kept.sort();
    expected.sort();
    assert_eq!(kept, expected);
    let grown = dir.join("4x6-turning-horizontal-corner-white.json");
    let tree = std::fs::read_to_string(&grown).expect("a tree named after its setup");
    let tree: serde_json::Value = serde_json::from_str(&tree).expect("a JSON tree");
    assert_eq!(tree["root"], "2bwbw/wbwbwb/bwbwbw/wbwbwb w");
    assert!(
        tree["pieces"].as_u64().expect("a piece count") > 1,
        "{tree}"
    );
    assert_eq!(run_and_check_detail(&args), first);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The nodes column of the one table row that `scripts/narrow-table --stdout` prints
/// with `args`.
fn row_nodes(args: &[&str]) -> u64 {
    let out = narrow_table(args, "--stdout");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<&str> = stdout.lines().filter(|l| l.starts_with("| 4 x")).collect();
    assert_eq!(rows.len(), 1, "{stdout}");
    let nodes = rows[0].trim_end_matches(" |").rsplit("| ").next().unwrap();
    nodes.parse().unwrap_or_else(|_| panic!("{}", rows[0]))
}

/// A grown proof's nodes are those of its tree and of the trees grafted onto it, as
/// the last line of `konane-solve --grow` gives them both.
#[test]
fn a_grown_proofs_nodes_count_the_trees_grafted_onto_it() {
    let dir = scratch("narrow-graft");
    let trees = dir.to_str().expect("a UTF-8 scratch folder");
    let selection = [
        "--rows", "4", "--rules", "turning", "--min-n", "6", "--max-n", "6",
    ];
    let args = grown(&selection, trees);
    let alone = row_nodes(&args);
    assert!(alone > 0);
    // A record of work grafted onto one of the row's trees, as `--graft` leaves it.
    let path = dir.join("4x6-turning-horizontal-corner-white.json");
    let mut tree: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let grafted = 1_000_000_007u64;
    tree["grafts"] = serde_json::json!([{
        "root": "bw1wbw/wb1bwb/bwbwbw/wbwbwb w",
        "pieces": 3,
        "nodes": grafted,
        "seconds": 1.5,
    }]);
    std::fs::write(&path, tree.to_string()).unwrap();
    assert_eq!(row_nodes(&args), alone + grafted);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A copy of the script in a fresh folder, beside a `docs/solved.md` holding `doc`.
fn script_beside(doc: &str) -> PathBuf {
    let dir = scratch("narrow-merge");
    for sub in ["scripts", "docs"] {
        std::fs::create_dir_all(dir.join(sub)).expect("a scratch folder");
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/narrow-table");
    std::fs::copy(script, dir.join("scripts/narrow-table")).expect("the script copies");
    std::fs::write(dir.join("docs/solved.md"), doc).expect("a scratch doc");
    dir
}

#[test]
fn merge_replaces_rows_of_the_same_board_and_rule_and_keeps_the_table_in_order() {
    const HEADER: &str = "\
| m x n (board) | multi-jump | horizontal middle | horizontal corner | vertical middle | vertical corner | nodes |
|---|---|---|---|---|---|---:|
";
    let before = "# Before\n\n<!-- narrow:begin -->\nHow the table was made.\n\n";
    let after = "<!-- narrow:end -->\n\nAfter.\n";
    let kept = "| 4 x 9 (9x4) | straight | R | P | P | L | 10 |\n";
    let replaced = "| 4 x 10 (10x4) | straight | ? | P | P | ? | 20 |\n";
    let replacement = "| 4 x 10 (10x4) | straight | P | P | P | P | 40 |\n";
    let other_rule = "| 4 x 10 (10x4) | turning | ? | P | P | L | 30 |\n";
    let added_row = "| 5 x 2 (2x5) | turning | P | P | L | R | 32 |\n";
    let added_n = "| 4 x 11 (11x4) | straight | P | P | P | L | 50 |\n";

    let dir = script_beside(&format!(
        "{before}{HEADER}{kept}{replaced}{other_rule}{after}"
    ));
    let part = format!("Generated by a run.\n\n{HEADER}{added_row}{added_n}{replacement}");
    std::fs::write(dir.join("part"), part).expect("a part file");
    let out = Command::new("bash")
        .args(["scripts/narrow-table", "--merge", "part"])
        .current_dir(&dir)
        .output()
        .expect("bash runs the script");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let merged = std::fs::read_to_string(dir.join("docs/solved.md")).expect("the doc");
    assert_eq!(
        merged,
        format!("{before}{HEADER}{kept}{replacement}{added_n}{other_rule}{added_row}{after}")
    );
    let _ = std::fs::remove_dir_all(&dir);
}
