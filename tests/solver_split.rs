//! Proofs split into shards and merged: the same verdict as one proof, and clear
//! errors for missing or corrupt parts, in the library and through `konane-solve`.

// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod solver_support;

use std::sync::atomic::AtomicBool;

use konane::rules::{AnyPosition, MultiJump, Opening};
use konane::search::solver::split::{self, Part, Shard, SplitError};
use konane::search::solver::{SolveLimits, Solver};
use solver_support::{konane_solve, scratch, variant, white_to_move_at_the_gap};

fn shards(root: &AnyPosition, plies: u32, count: u32) -> Vec<Part> {
    let stop = AtomicBool::new(false);
    (1..=count)
        .map(|index| {
            split::solve_shard(
                &mut Solver::new(4),
                root,
                plies,
                Shard { index, count },
                &SolveLimits::new(&stop),
                &mut |_| {},
            )
            .expect("a valid shard")
            .expect("an unlimited solve finishes")
        })
        .collect()
}

fn single(root: &AnyPosition) -> bool {
    let stop = AtomicBool::new(false);
    Solver::new(4)
        .solve_any(root, &SolveLimits::new(&stop), &mut |_| {})
        .expect("an unlimited solve finishes")
        .side_to_move_wins
}

#[test]
fn merged_shards_agree_with_a_single_proof() {
    for (w, h) in [(5, 5), (4, 5), (4, 4), (3, 5)] {
        for multi_jump in MultiJump::ALL {
            let root = AnyPosition::start(variant(w, h, Opening::Diagonal, multi_jump));
            for (plies, count) in [(1, 2), (2, 3), (3, 4), (4, 3)] {
                let merged = split::merge(&shards(&root, plies, count)).expect("whole split");
                assert_eq!(
                    merged.side_to_move_wins,
                    single(&root),
                    "{w}x{h} {multi_jump}, {plies} plies in {count} shards"
                );
                // The line is a legal game to the end, lost by the side it says loses.
                let mut pos = root;
                for m in &merged.pv {
                    pos.play_text(m).expect("the merged line is legal");
                }
                assert!(pos.legal_move_texts().is_empty(), "the line ends the game");
                assert_eq!(merged.pv.len() % 2 == 1, merged.side_to_move_wins);
            }
        }
    }
}

#[test]
fn a_missing_shard_is_named() {
    let root = AnyPosition::start(variant(5, 5, Opening::Diagonal, MultiJump::Straight));
    let mut parts = shards(&root, 2, 4);
    parts.remove(2);
    parts.remove(0);
    assert_eq!(
        split::merge(&parts),
        Err(SplitError::Missing {
            missing: vec![1, 3],
            count: 4
        })
    );
    assert_eq!(split::merge(&[]), Err(SplitError::NoParts));
}

#[test]
fn a_corrupt_part_is_refused() {
    let root = AnyPosition::start(variant(5, 5, Opening::Diagonal, MultiJump::Straight));
    let parts = shards(&root, 4, 2);
    let corrupt = |edit: &dyn Fn(&mut Part)| {
        let mut parts = parts.clone();
        edit(&mut parts[1]);
        split::merge(&parts)
    };
    let flipped = corrupt(&|p| p.results[0].side_to_move_wins ^= true);
    assert!(
        matches!(flipped, Err(SplitError::Corrupt { shard: 2, .. })),
        "{flipped:?}"
    );
    let moved = corrupt(&|p| p.results[0].index = p.results[1].index);
    assert!(
        matches!(moved, Err(SplitError::Corrupt { shard: 2, .. })),
        "{moved:?}"
    );
    let swapped = corrupt(&|p| {
        let other = p.results[1].position.clone();
        p.results[0].position = other;
    });
    assert!(
        matches!(swapped, Err(SplitError::Corrupt { shard: 2, .. })),
        "{swapped:?}"
    );
    let short = corrupt(&|p| {
        p.results.pop();
    });
    assert!(
        matches!(short, Err(SplitError::Corrupt { .. })),
        "{short:?}"
    );
    let other = corrupt(&|p| p.plies = 3);
    assert!(matches!(other, Err(SplitError::Mismatch(_))), "{other:?}");
    let format = corrupt(&|p| p.format = "something else".to_string());
    assert!(
        matches!(format, Err(SplitError::Corrupt { .. })),
        "{format:?}"
    );
    let bad_line = corrupt(&|p| {
        p.results[0].pv.pop();
    });
    assert!(
        matches!(bad_line, Err(SplitError::Corrupt { .. })),
        "{bad_line:?}"
    );
}

#[test]
fn a_split_of_a_root_whose_side_was_set_by_hand_merges() {
    let root = white_to_move_at_the_gap("2bw/wbwb/bwbw/wbwb b");
    let merged = split::merge(&shards(&root, 1, 2)).expect("whole split");
    assert_eq!(merged.root, root);
    assert_eq!(merged.side_to_move_wins, single(&root));
}

#[test]
fn a_shard_skips_what_its_own_results_decide() {
    for (w, h) in [(5, 5), (4, 5), (4, 4)] {
        let root = AnyPosition::start(variant(w, h, Opening::Diagonal, MultiJump::Straight));
        let part = shards(&root, 2, 1).remove(0);
        assert!(!part.skipped.is_empty(), "{w}x{h}: nothing skipped");
        assert_eq!(part.results.len() + part.skipped.len(), part.frontier);
        assert_eq!(
            split::merge(std::slice::from_ref(&part))
                .unwrap()
                .side_to_move_wins,
            single(&root)
        );
        // The last proof was needed when it was made: without it the root is open,
        // and the merge names it among the skipped positions it needs.
        let mut edited = part.clone();
        let last = edited.results.pop().unwrap();
        edited.skipped.push(last.index);
        match split::merge(&[edited]) {
            Err(SplitError::Unresolved { needed }) => assert!(
                needed.contains(&last.index)
                    && needed
                        .iter()
                        .all(|i| part.skipped.contains(i) || *i == last.index),
                "{w}x{h}: {needed:?}"
            ),
            other => panic!("{w}x{h}: {other:?}"),
        }
    }
}

#[test]
fn a_shard_outside_the_split_is_refused() {
    let root = AnyPosition::start(variant(4, 4, Opening::Diagonal, MultiJump::Straight));
    let stop = AtomicBool::new(false);
    for (index, count) in [(0, 3), (4, 3)] {
        let result = split::solve_shard(
            &mut Solver::new(1),
            &root,
            1,
            Shard { index, count },
            &SolveLimits::new(&stop),
            &mut |_| {},
        );
        assert_eq!(result.err(), Some(SplitError::BadShard { index, count }));
        assert_eq!(Shard { index, count }.range(10), 0..0);
    }
}

/// The node count of a `konane-solve` verdict line.
fn nodes_of(out: &str) -> Option<&str> {
    out.split(" nodes ").nth(1)?.split(' ').next()
}

#[test]
fn konane_solve_splits_writes_and_merges_files() {
    let dir = scratch("split-files");
    let part = |i: u32| dir.join(format!("part{i}.json")).display().to_string();
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let (code, _, err) = konane_solve(&[
            "--size",
            "5x5",
            "--split",
            "2",
            "--shard",
            &shard,
            "--out",
            &part(i),
        ]);
        assert_eq!(code, 0, "{err}");
    }
    let (code, out, err) = konane_solve(&["merge", &part(1), &part(2), &part(3)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("black wins"), "{out}");
    let (code, whole, _) = konane_solve(&["--size", "5x5"]);
    assert_eq!(code, 0);
    assert!(whole.contains("black wins"), "{whole}");
    // Without the ordering by the evaluation: the same verdict by another search.
    let (code, plain, _) = konane_solve(&["--size", "5x5", "--no-eval-order"]);
    assert_eq!(code, 0);
    assert!(plain.contains("black wins"), "{plain}");
    assert_ne!(nodes_of(&whole), nodes_of(&plain), "{whole} {plain}");
    // Without df-pn's numbers scaled by the evaluation: the same again.
    let (code, unscaled, _) = konane_solve(&["--size", "5x5", "--no-eval-numbers"]);
    assert_eq!(code, 0);
    assert!(unscaled.contains("black wins"), "{unscaled}");
    assert_ne!(nodes_of(&whole), nodes_of(&unscaled), "{whole} {unscaled}");

    let (code, _, err) = konane_solve(&["merge", &part(1), &part(3)]);
    assert_eq!(code, 2);
    assert!(err.contains("missing shards 2 of 3"), "{err}");

    let garbage = dir.join("garbage.json");
    std::fs::write(&garbage, "{\"format\": 1").expect("write");
    let (code, _, err) = konane_solve(&["merge", &part(1), &garbage.display().to_string()]);
    assert_eq!(code, 2);
    assert!(err.contains("not a part file"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn konane_solve_lists_the_frontier_and_each_shards_share() {
    let root = AnyPosition::start(variant(5, 5, Opening::Diagonal, MultiJump::Straight));
    let expected: Vec<String> = split::frontier(&root, 2)
        .unwrap()
        .iter()
        .enumerate()
        .map(|(index, pos)| format!("{index} {pos}"))
        .collect();
    let (code, out, err) = konane_solve(&["--size", "5x5", "--split", "2", "--list"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().collect::<Vec<_>>(), expected);
    // Each shard lists the run it proves or skips, and the runs tile the frontier.
    let dir = scratch("split-list");
    let mut tiled = Vec::new();
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let split = ["--size", "5x5", "--split", "2", "--shard", &shard];
        let (code, listed, err) = konane_solve(&[&split[..], &["--list"]].concat());
        assert_eq!(code, 0, "{err}");
        let file = dir.join(format!("part{i}.json")).display().to_string();
        let (code, _, err) = konane_solve(&[&split[..], &["--out", &file]].concat());
        assert_eq!(code, 0, "{err}");
        let part: Part =
            serde_json::from_str(&std::fs::read_to_string(&file).expect("read")).expect("a part");
        let mut covered: Vec<usize> = part.results.iter().map(|r| r.index).collect();
        covered.extend(&part.skipped);
        covered.sort_unstable();
        let shown: Vec<usize> = listed
            .lines()
            .map(|line| line.split(' ').next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(shown, covered, "shard {shard}");
        tiled.extend(listed.lines().map(String::from));
    }
    assert_eq!(tiled, expected);
}

#[cfg(unix)]
#[test]
fn konane_solve_never_writes_through_a_planted_link() {
    let dir = scratch("split-link");
    let target = dir.join("precious");
    std::fs::write(&target, "keep me").expect("write");
    let link = dir.join("part.json");
    std::os::unix::fs::symlink(&target, &link).expect("symlink");
    let (code, _, err) = konane_solve(&[
        "--size",
        "4x4",
        "--split",
        "1",
        "--shard",
        "1/1",
        "--out",
        &link.display().to_string(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("not a regular file"), "{err}");
    assert_eq!(std::fs::read_to_string(&target).expect("read"), "keep me");
    // No temporary file is left behind.
    let entries = std::fs::read_dir(&dir).expect("list").count();
    assert_eq!(entries, 2);
}

#[test]
fn konane_solve_refuses_bad_arguments_with_status_2() {
    for args in [
        &[
            "--size", "5x5", "--split", "2", "--shard", "4/3", "--out", "x",
        ][..],
        &["--size", "5x5", "--split", "2"][..],
        &["--size", "5x5", "--list"][..],
        &["--size", "5x5", "--split", "2", "--list", "--out", "x"][..],
        &["--threads", "0"][..],
        &["--hash", "99999999"][..],
        &["--bogus"][..],
        &["--side", "green"][..],
    ] {
        let (code, out, err) = konane_solve(args);
        assert_eq!(code, 2, "{args:?}: {out} {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

/// `--side` sets the side to move of `--position`; `--moves` are then played from it, so
/// a line can start from a position with two empty squares and white to move.
#[test]
fn konane_solve_plays_the_moves_after_setting_the_side() {
    let text = "2bw/wbwb/bwbw/wbwb b";
    let mut expected = white_to_move_at_the_gap(text);
    expected.play_text("d4b4").expect("white's move");
    let args = [
        "--size",
        "4x4",
        "--opening",
        "any",
        "--position",
        text,
        "--side",
        "white",
        "--moves",
        "d4b4",
        "--hash",
        "16",
    ];
    let (code, out, err) = konane_solve(&args);
    assert_eq!(code, 0, "{out} {err}");
    assert!(out.contains(&format!("{expected}: ")), "{expected}: {out}");
    // Black is to move in the text, so black's move is refused once white is to move.
    let (code, _, err) = konane_solve(&[&args[..8], &["--moves", "a2a4"]].concat());
    assert_eq!(code, 2);
    assert!(err.contains("--moves"), "{err}");
}

#[test]
fn the_frontier_keeps_one_of_each_set_of_mirror_images() {
    // 6x6, diagonal opening: black removes a corner (a6, f1) or a central square (c4,
    // d3); the half turn maps each onto the other of its pair.
    let root = AnyPosition::start(variant(6, 6, Opening::Diagonal, MultiJump::Straight));
    assert_eq!(root.legal_move_texts().len(), 4);
    assert_eq!(split::frontier(&root, 1).unwrap().len(), 2);
    // 7x7, any opening: 25 removals, 6 up to the eight symmetries of the square.
    let root = AnyPosition::start(variant(7, 7, Opening::Any, MultiJump::Straight));
    assert_eq!(root.legal_move_texts().len(), 25);
    assert_eq!(split::frontier(&root, 1).unwrap().len(), 6);
    // 4x6: of its symmetries only the half turn keeps the colouring (the mirrors swap
    // it), and it leaves no square in place, so the removals fold in pairs.
    let root = AnyPosition::start(variant(4, 6, Opening::Any, MultiJump::Straight));
    let removals = root.legal_move_texts().len();
    assert_eq!(split::frontier(&root, 1).unwrap().len() * 2, removals);
}
