//! `scripts/narrow-table` against a naive solver: on the small boards, every setup's
//! position is the gap the script names, and both winners (black to move, white to
//! move) are the naive minimax's.

mod common;

use std::collections::HashMap;
use std::process::Command;

use common::naive::{Board, Rules};
use konane::rules::{Color, MultiJump, Opening};

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

#[test]
fn the_narrow_board_script_agrees_with_a_naive_solver() {
    let out = Command::new("bash")
        .args([
            "scripts/narrow-table",
            "--rows",
            "2 3 4",
            "--max-n",
            "5",
            "--detail",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("KONANE_SOLVE", env!("CARGO_BIN_EXE_konane-solve"))
        .output()
        .expect("bash runs the script");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut checked = 0;
    let mut memo = HashMap::new();
    for line in stdout.lines() {
        // "m n rule setup <position text> | <black starts> <white starts> <class>"
        let (setup, result) = line.split_once(" | ").expect("a detail line");
        let fields: Vec<&str> = setup.splitn(5, ' ').collect();
        let [m, n, rule, name, text] = fields[..] else {
            panic!("bad line {line}");
        };
        let (m, n): (usize, usize) = (m.parse().unwrap(), n.parse().unwrap());
        assert_eq!(text, setup_text(m, n, name), "{line}");
        let rules = Rules {
            opening: Opening::Any,
            multi_jump: rule.parse::<MultiJump>().unwrap(),
        };
        let board = Board::from_text(text).unwrap();
        let winners: Vec<&str> = result.split(' ').collect();
        for (side, claimed) in [(Color::Black, winners[0]), (Color::White, winners[1])] {
            let wins = naive_wins(&board.with_side(side), rules, &mut memo);
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
        checked += 1;
    }
    // Rows 2, 3 and 4, n from 2 to 5, four setups, two rules.
    assert_eq!(checked, 3 * 4 * 4 * 2);
}
