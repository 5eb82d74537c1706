//! Proofs grown piece by piece: the same verdict as one proof and as plain minimax, a
//! tree that goes on where its file left it, and clear errors for a file that is not
//! the tree asked for, in the library and through `konane-solve --grow`.

// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod solver_support;

use std::sync::atomic::AtomicBool;

use konane::rules::{AnyPosition, MultiJump, Opening};
use konane::search::solver::grow::{
    Grafted, Growth, PieceLimits, PieceReport, ProofTree, TREE_FORMAT, TreeError, TreeFile, Verdict,
};
use konane::search::solver::{SolveLimits, Solver};
use solver_support::{
    Naive, konane_solve, scratch, small, variant, white_to_move_at_the_gap,
    white_to_move_at_the_gap_under,
};

/// Grows `tree` with pieces of `piece_nodes` nodes, at most `max_pieces` of them.
fn grow(tree: &mut ProofTree, piece_nodes: u64, max_pieces: Option<u64>) -> Growth {
    grow_within(tree, PieceLimits::new(piece_nodes, max_pieces)).0
}

/// Grows `tree` within `pieces`, with what each piece did.
fn grow_within(tree: &mut ProofTree, pieces: PieceLimits) -> (Growth, Vec<PieceReport>) {
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new(4);
    let mut reports = Vec::new();
    let growth = tree
        .grow::<TreeError>(
            &mut solver,
            pieces,
            &SolveLimits::new(&stop),
            &mut |_, report| {
                reports.push(*report);
                Ok(())
            },
        )
        .expect("a tree within its bounds");
    assert!(
        !solver.carries_numbers(),
        "grow sets the solver's numbers back as they were"
    );
    (growth, reports)
}

fn proven(growth: Growth) -> Verdict {
    match growth {
        Growth::Proven(verdict) => verdict,
        other => panic!("not proven: {other:?}"),
    }
}

/// The line is a legal game to the end, lost by the side the verdict says loses.
fn check_verdict(root: &AnyPosition, verdict: &Verdict) {
    let mut pos = *root;
    for m in &verdict.pv {
        pos.play_text(m)
            .unwrap_or_else(|e| panic!("{root}: line move {m}: {e}"));
    }
    assert!(
        pos.legal_move_texts().is_empty(),
        "{root}: the line ends the game"
    );
    assert_eq!(
        verdict.pv.len() % 2 == 1,
        verdict.side_to_move_wins,
        "{root}"
    );
}

#[test]
fn a_grown_proof_agrees_with_plain_minimax() {
    for (w, h) in [(4, 4), (3, 5), (5, 3), (4, 5)] {
        for multi_jump in MultiJump::ALL {
            for opening in [Opening::Diagonal, Opening::Any] {
                let root = AnyPosition::start(variant(w, h, opening, multi_jump));
                let truth = Naive::default().wins(&small(root));
                for piece_nodes in [1, 30, 1_000] {
                    let mut tree = ProofTree::new(root);
                    let verdict = proven(grow(&mut tree, piece_nodes, None));
                    let label = format!("{w}x{h} {opening} {multi_jump}, pieces of {piece_nodes}");
                    assert_eq!(verdict.side_to_move_wins, truth, "{label}");
                    check_verdict(&root, &verdict);
                }
            }
        }
    }
}

#[test]
fn a_grown_proof_agrees_with_a_single_proof() {
    for (w, h) in [(5, 5), (5, 6), (6, 5)] {
        for multi_jump in MultiJump::ALL {
            let root = AnyPosition::start(variant(w, h, Opening::Diagonal, multi_jump));
            let stop = AtomicBool::new(false);
            let single = Solver::new(4)
                .solve_any(&root, &SolveLimits::new(&stop), &mut |_| {})
                .expect("an unlimited solve finishes");
            let mut tree = ProofTree::new(root);
            let verdict = proven(grow(&mut tree, 200, None));
            assert_eq!(
                verdict.side_to_move_wins, single.side_to_move_wins,
                "{w}x{h} {multi_jump}"
            );
            check_verdict(&root, &verdict);
            // Pieces this small cannot prove these roots whole: the tree grew.
            assert!(
                tree.positions() > 10,
                "{w}x{h}: {} positions",
                tree.positions()
            );
        }
    }
}

#[test]
fn a_tree_read_back_from_its_file_goes_on_where_it_stopped() {
    let root = AnyPosition::start(variant(5, 5, Opening::Diagonal, MultiJump::Straight));
    let mut tree = ProofTree::new(root);
    assert_eq!(grow(&mut tree, 100, Some(6)), Growth::PieceLimit);
    assert_eq!(tree.pieces(), 6);
    let numbers = tree.root_numbers();
    assert!(numbers.0 > 0 && numbers.1 > 0, "undecided after six pieces");
    let file: TreeFile = serde_json::from_str(&serde_json::to_string(&tree.to_file()).unwrap())
        .expect("the file reads back");
    assert!(
        !file.estimates.is_empty(),
        "the pieces that did not fit left numbers on their children"
    );
    let mut again = ProofTree::from_file(&file, root).expect("its own file");
    assert_eq!(again.positions(), tree.positions());
    assert_eq!(again.pieces(), 6);
    assert_eq!(again.root_numbers(), numbers);
    assert_eq!(again.to_file(), file);
    let verdict = proven(grow(&mut again, 100, None));
    assert!(verdict.side_to_move_wins, "black wins 5x5");
    assert!(again.pieces() > 6);
    // The finished tree, read back, is proven without another piece.
    let done = ProofTree::from_file(&again.to_file(), root).expect("its own file");
    assert_eq!(done.verdict(), Some(verdict));
}

#[test]
fn a_piece_that_did_not_fit_leaves_its_tables_proofs_in_the_tree() {
    // One piece each, too small for the root: what the tree holds after it is the
    // root cut into its moves, and those moves its table proved, kept for good (a
    // stop right after the piece loses none of them with the table).
    let mut taken_up = 0;
    for (w, h, piece_nodes) in [(5, 5, 1_000), (5, 6, 10_000)] {
        for multi_jump in MultiJump::ALL {
            let root = AnyPosition::start(variant(w, h, Opening::Any, multi_jump));
            let mut tree = ProofTree::new(root);
            assert_eq!(grow(&mut tree, piece_nodes, Some(1)), Growth::PieceLimit);
            let file = tree.to_file();
            assert_eq!(file.expanded, [root.to_string()], "{w}x{h} {multi_jump}");
            for piece in &file.proven {
                let pos =
                    AnyPosition::from_text(&piece.position, Opening::Any, multi_jump).unwrap();
                let truth = Naive::default().wins(&small(pos));
                assert_eq!(piece.side_to_move_wins, truth, "{w}x{h} {}", piece.position);
            }
            taken_up += file.proven.len();
            // Read back, the tree has them as proven, not as leaves to prove again.
            let again = ProofTree::from_file(&file, root).expect("its own file");
            assert_eq!(again.to_file().proven, file.proven);
        }
    }
    assert!(taken_up > 0, "no piece's table proved one of its moves");
}

#[test]
fn a_leaf_the_table_cannot_prove_again_within_its_budget_waits_for_its_turn() {
    // A take-up budget of one node fits no proof: each leaf the table proved is given
    // up once, not tried again after every later piece (which would count each many
    // times over), and the tree still proves what a single proof says, those leaves
    // proven as pieces of their own.
    for multi_jump in MultiJump::ALL {
        let root = AnyPosition::start(variant(5, 6, Opening::Any, multi_jump));
        let stop = AtomicBool::new(false);
        let single = Solver::new(4)
            .solve_any(&root, &SolveLimits::new(&stop), &mut |_| {})
            .expect("an unlimited solve finishes");
        let pieces = PieceLimits {
            take_up_nodes: 1,
            ..PieceLimits::new(200, None)
        };
        let mut tree = ProofTree::new(root);
        let (growth, reports) = grow_within(&mut tree, pieces);
        let verdict = proven(growth);
        assert_eq!(
            verdict.side_to_move_wins, single.side_to_move_wins,
            "{multi_jump}"
        );
        check_verdict(&root, &verdict);
        let taken_up: usize = reports.iter().map(|r| r.taken_up.positions).sum();
        let given_up: usize = reports.iter().map(|r| r.taken_up.given_up).sum();
        assert_eq!(taken_up, 0, "{multi_jump}: a take-up fitted one node");
        assert!(given_up > 0, "{multi_jump}: no leaf was given up");
        assert!(
            given_up <= tree.positions(),
            "{multi_jump}: {given_up} leaves given up among {} positions",
            tree.positions()
        );
    }
}

#[test]
fn the_outline_says_what_plain_minimax_says_of_each_position() {
    let root = AnyPosition::start(variant(4, 5, Opening::Any, MultiJump::Turning));
    let mut tree = ProofTree::new(root);
    proven(grow(&mut tree, 30, None));
    let outline = tree.outline(3);
    assert!(outline.len() > 5, "{outline:?}");
    assert_eq!(outline[0], "root: white wins", "white wins 4x5");
    let mut naive = Naive::default();
    for line in &outline[1..] {
        let (moves, state) = line.split_once(": ").unwrap();
        assert!(moves.split(' ').count() <= 3, "{line}");
        let mut pos = root;
        for m in moves.split(' ') {
            pos.play_text(m).unwrap();
        }
        let mover = pos.side_to_move();
        let winner = if naive.wins(&small(pos)) {
            mover
        } else {
            mover.opponent()
        };
        match state.strip_suffix(" wins") {
            Some(claimed) => assert_eq!(claimed, winner.to_string(), "{line}"),
            None => assert!(
                state.starts_with("open, black ") || state.starts_with("leaf, black "),
                "{line}"
            ),
        }
    }
}

#[test]
fn an_open_outline_gives_each_colour_its_number() {
    // The root after one move, white to move: its own numbers are white's (to show
    // that white wins) and black's, in that order.
    let mut root = AnyPosition::start(variant(4, 5, Opening::Any, MultiJump::Turning));
    root.play_text(&root.legal_move_texts()[0]).unwrap();
    let mut tree = ProofTree::new(root);
    assert_eq!(grow(&mut tree, 5, Some(2)), Growth::PieceLimit);
    let (white, black) = tree.root_numbers();
    assert_eq!(
        tree.outline(0),
        [format!("root: open, black {black}, white {white}")]
    );
    assert_eq!(tree.root_numbers_by_colour(), (black, white));
}

#[test]
fn konane_solves_piece_lines_give_the_roots_numbers_by_colour_as_the_outline_does() {
    // White to move at the root, so numbers for the side to move would be swapped.
    let start = AnyPosition::start(variant(4, 5, Opening::Any, MultiJump::Turning));
    let removal = start.legal_move_texts()[0].clone();
    let dir = scratch("grow-colours");
    let file = dir.join("tree.json").display().to_string();
    let run = |extra: &[&str]| {
        let args = [
            &[
                "--size",
                "4x5",
                "--opening",
                "any",
                "--multi-jump",
                "turning",
            ][..],
            &["--moves", &removal, "--grow", &file, "--piece-nodes", "5"][..],
            extra,
        ];
        konane_solve(&args.concat())
    };
    let (code, _, err) = run(&["--max-pieces", "2"]);
    assert_eq!(code, 1, "{err}");
    let last_piece = err.lines().rev().find(|l| l.starts_with("piece "));
    let (_, numbers) = last_piece
        .and_then(|l| l.split_once(", root "))
        .expect("a piece line");
    let (code, outline, err) = run(&["--outline", "0"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(outline.trim_end(), format!("root: open, {numbers}"));
    // Only a root whose two numbers differ tells the colours apart.
    let (black, white) = numbers.split_once(", ").expect("two numbers");
    assert_ne!(
        black.trim_start_matches("black "),
        white.trim_start_matches("white ")
    );
}

#[test]
fn a_root_whose_side_was_set_by_hand_survives_the_file() {
    let root = white_to_move_at_the_gap("1wbw/1bwb/bwbw/wbwb b");
    let mut tree = ProofTree::new(root);
    let verdict = proven(grow(&mut tree, 1, None));
    assert_eq!(
        verdict.side_to_move_wins,
        Naive::default().wins(&small(root))
    );
    check_verdict(&root, &verdict);
    let read = ProofTree::from_file(&tree.to_file(), root).expect("its own file");
    assert_eq!(read.verdict(), Some(verdict));
}

/// A root with two empty squares and white to move, proven in its first piece, has its
/// line too (its line is read through the board's symmetries, and such a root, which
/// no game reaches, once had no image, not even itself: an empty line).
#[test]
fn a_root_whose_side_was_set_by_hand_proven_whole_has_its_line() {
    for text in ["1wbw/1bwb/bwbw/wbwb b", "bwbwbw/wb2wb/bwbwbw/wbwbwb b"] {
        let root = white_to_move_at_the_gap(text);
        let mut tree = ProofTree::new(root);
        let verdict = proven(grow(&mut tree, 1_000_000, None));
        assert_eq!(tree.pieces(), 1, "{root}: proven in one piece");
        assert!(!verdict.pv.is_empty(), "{root}: a line");
        check_verdict(&root, &verdict);
    }
}

#[test]
fn a_tree_file_that_is_not_this_tree_is_refused() {
    let root = AnyPosition::start(variant(4, 5, Opening::Diagonal, MultiJump::Straight));
    let mut tree = ProofTree::new(root);
    proven(grow(&mut tree, 20, None));
    let good = tree.to_file();
    assert!(!good.proven.is_empty() && !good.expanded.is_empty());
    let refused = |file: &TreeFile| ProofTree::from_file(file, root).err();

    let other = AnyPosition::start(variant(5, 4, Opening::Diagonal, MultiJump::Straight));
    assert!(matches!(
        ProofTree::from_file(&good, other),
        Err(TreeError::OtherRoot { .. })
    ));
    let turning = AnyPosition::start(variant(4, 5, Opening::Diagonal, MultiJump::Turning));
    assert!(matches!(
        ProofTree::from_file(&good, turning),
        Err(TreeError::OtherRoot { .. })
    ));

    let mut bad = good.clone();
    bad.format = "konane-solve-tree-0".to_string();
    assert!(matches!(refused(&bad), Some(TreeError::Corrupt(why)) if why.contains(TREE_FORMAT)));

    let mut bad = good.clone();
    bad.size = "99x2".to_string();
    assert!(matches!(refused(&bad), Some(TreeError::Corrupt(_))));

    // A verdict turned round no longer matches its line.
    let mut bad = good.clone();
    bad.proven[0].side_to_move_wins = !bad.proven[0].side_to_move_wins;
    assert!(matches!(refused(&bad), Some(TreeError::Corrupt(why)) if why.contains("line")));

    // A line with a move that is not legal.
    let mut bad = good.clone();
    let piece = bad.proven.iter_mut().find(|p| !p.pv.is_empty()).unwrap();
    piece.pv[0] = "a1a9".to_string();
    assert!(matches!(refused(&bad), Some(TreeError::Corrupt(_))));

    // A position of another board.
    let mut bad = good.clone();
    bad.expanded.push("bwbwb/wbwbw/bwbwb/wbwbw b".to_string());
    assert!(matches!(refused(&bad), Some(TreeError::Corrupt(why)) if why.contains("4x5")));

    // A position both proven and expanded.
    let mut bad = good.clone();
    bad.expanded.push(bad.proven[0].position.clone());
    assert!(matches!(refused(&bad), Some(TreeError::Corrupt(why)) if why.contains("both")));
}

/// A position of 5x6 whose side to move loses (the start, or the start after its
/// winning move), so that a proof of it must decide every one of its moves.
fn a_lost_position() -> AnyPosition {
    let start = AnyPosition::start(variant(5, 6, Opening::Diagonal, MultiJump::Straight));
    let stop = AtomicBool::new(false);
    let single = Solver::new(4)
        .solve_any(&start, &SolveLimits::new(&stop), &mut |_| {})
        .expect("an unlimited solve finishes");
    let mut lost = start;
    if single.side_to_move_wins {
        lost.play_text(&single.pv[0]).unwrap();
    }
    lost
}

/// The proven tree of `root`, grown with pieces of `piece_nodes` nodes.
fn proven_tree(root: AnyPosition, piece_nodes: u64) -> ProofTree {
    let mut tree = ProofTree::new(root);
    proven(grow(&mut tree, piece_nodes, None));
    tree
}

#[test]
fn a_grafted_subtree_is_not_proven_again() {
    let root = a_lost_position();
    let mut child = root;
    child.play_text(&root.legal_move_texts()[0]).unwrap();
    let subtree = proven_tree(child, 200).to_file();
    assert!(subtree.pieces > 1, "the subtree took several pieces");
    let grafted_texts: Vec<&String> = subtree
        .expanded
        .iter()
        .chain(subtree.proven.iter().map(|p| &p.position))
        .collect();

    let mut tree = ProofTree::new(root);
    let grafted = tree.graft(&subtree).expect("a subtree of the same rules");
    assert_eq!(grafted.expanded, subtree.expanded.len());
    assert_eq!(grafted.proven, subtree.proven.len());
    let (growth, reports) = grow_within(&mut tree, PieceLimits::new(200, None));
    let verdict = proven(growth);
    assert!(!verdict.side_to_move_wins, "{root} is lost for its mover");
    check_verdict(&root, &verdict);
    // Every move of a lost position is decided in its proof, the grafted one too, but
    // by the graft: no piece went to a position the subtree had settled.
    for report in &reports {
        let text = report.position.to_string();
        assert!(!grafted_texts.contains(&&text), "{text} proven again");
    }
    assert_eq!(tree.grafts().len(), 1);
    assert_eq!(tree.grafts()[0].root, child.to_string());
    assert_eq!(tree.grafts()[0].nodes, subtree.nodes);

    // Grafting it again adds nothing, and records it once; the record survives the
    // file.
    assert_eq!(tree.graft(&subtree).unwrap(), Grafted::default());
    assert_eq!(tree.grafts().len(), 1);
    let file = tree.to_file();
    let again = ProofTree::from_file(&file, root).expect("its own file");
    assert_eq!(again.grafts(), tree.grafts());
    assert_eq!(again.to_file(), file);
}

#[test]
fn a_subtree_grafted_back_does_not_count_the_tree_twice() {
    // The tree is grown a little, grafted onto a subtree grown alone, and the subtree
    // grafted back: the subtree's record of the tree is the tree's own work.
    let root = a_lost_position();
    let mut tree = ProofTree::new(root);
    assert!(matches!(grow(&mut tree, 200, Some(3)), Growth::PieceLimit));
    let mut child = root;
    child.play_text(&root.legal_move_texts()[0]).unwrap();
    let mut subtree = ProofTree::new(child);
    subtree
        .graft(&tree.to_file())
        .expect("a tree of the same rules");
    proven(grow(&mut subtree, 200, None));
    assert_eq!(subtree.grafts().len(), 1, "the subtree records the tree");

    tree.graft(&subtree.to_file())
        .expect("a subtree of the same rules");
    let roots: Vec<&str> = tree.grafts().iter().map(|r| r.root.as_str()).collect();
    assert_eq!(roots, [child.to_string()]);
}

#[test]
fn a_grafted_proof_decides_a_position_the_tree_had_expanded() {
    let root = a_lost_position();
    let mut tree = ProofTree::new(root);
    assert_eq!(grow(&mut tree, 50, Some(4)), Growth::PieceLimit);
    let before = tree.to_file();
    let expanded = before
        .expanded
        .iter()
        .find(|&text| *text != root.to_string())
        .expect("four small pieces expand more than the root");
    let pos = AnyPosition::from_text(expanded, Opening::Diagonal, MultiJump::Straight).unwrap();
    // Pieces large enough to prove it whole: its tree's one proof is of that position.
    let whole = proven_tree(pos, 100_000_000).to_file();
    assert_eq!(whole.proven.len(), 1);
    assert_eq!(whole.proven[0].position, *expanded);

    let grafted = tree.graft(&whole).expect("a tree of the same rules");
    assert_eq!(
        grafted,
        Grafted {
            expanded: 0,
            proven: 1
        }
    );
    let file = tree.to_file();
    assert!(!file.expanded.contains(expanded), "kept as proven only");
    assert!(file.proven.iter().any(|p| p.position == *expanded));
    let mut again = ProofTree::from_file(&file, root).expect("a clash-free file");
    assert_eq!(again.to_file(), file);
    let verdict = proven(grow(&mut again, 50, None));
    assert!(!verdict.side_to_move_wins, "{root} is lost for its mover");
    check_verdict(&root, &verdict);
    let truth = Naive::default().wins(&small(pos));
    assert_eq!(whole.proven[0].side_to_move_wins, truth, "{pos}");
}

#[test]
fn a_tree_of_other_rules_or_with_a_false_line_is_not_grafted() {
    let root = AnyPosition::start(variant(4, 5, Opening::Diagonal, MultiJump::Straight));
    let good = proven_tree(root, 20).to_file();
    let turning = AnyPosition::start(variant(4, 5, Opening::Diagonal, MultiJump::Turning));
    let mut tree = ProofTree::new(turning);
    assert!(matches!(
        tree.graft(&good),
        Err(TreeError::OtherRules { .. })
    ));

    let mut tree = ProofTree::new(root);
    let mut bad = good.clone();
    let last = bad.proven.len() - 1;
    bad.proven[last].side_to_move_wins = !bad.proven[last].side_to_move_wins;
    assert!(matches!(tree.graft(&bad), Err(TreeError::Corrupt(why)) if why.contains("line")));
    // Nothing of the refused file was added, not even what came before the false line.
    assert_eq!(tree.to_file(), ProofTree::new(root).to_file());
    assert!(tree.grafts().is_empty());
}

#[test]
fn konane_solve_grafts_a_subtree_onto_a_tree() {
    let dir = scratch("grow-graft");
    let sub = dir.join("sub.json").display().to_string();
    let file = dir.join("tree.json").display().to_string();
    let (code, _, err) = konane_solve(&[
        "--size",
        "5x5",
        "--moves",
        "c3",
        "--grow",
        &sub,
        "--piece-nodes",
        "200",
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = konane_solve(&[
        "--size",
        "5x5",
        "--grow",
        &file,
        "--graft",
        &sub,
        "--piece-nodes",
        "200",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.starts_with("grafted "), "{err}");
    assert!(out.contains("black wins"), "{out}");
    assert!(out.contains("; grafted trees: "), "{out}");
    let written: TreeFile =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).expect("a tree file");
    assert_eq!(written.grafts.len(), 1);

    // A tree of other rules is refused in one line, the tree file left as it was.
    let other = dir.join("other.json").display().to_string();
    let (code, _, err) = konane_solve(&["--size", "4x4", "--grow", &other, "--piece-nodes", "100"]);
    assert!(code == 0 || code == 1, "{err}");
    let (code, _, err) = konane_solve(&["--size", "5x5", "--grow", &file, "--graft", &other]);
    assert_eq!(code, 2);
    assert!(err.contains("the tree to graft is of"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let unchanged: TreeFile =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).expect("a tree file");
    assert_eq!(unchanged, written);
}

/// Reads a proof committed in `docs/trees` (which checks every proven line to the end of
/// the game) and checks that it decides `root` as `side_to_move_wins` with a line that
/// ends the game.
fn check_committed_proof(name: &str, root: AnyPosition, side_to_move_wins: bool) {
    let path = format!("{}/docs/trees/{name}", env!("CARGO_MANIFEST_DIR"));
    let file: TreeFile =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).expect("a tree file");
    let tree = ProofTree::from_file(&file, root).expect("the committed tree");
    let verdict = tree.verdict().expect("the tree decides its root");
    assert_eq!(verdict.side_to_move_wins, side_to_move_wins, "{name}");
    check_verdict(&root, &verdict);
}

/// Every tree in `docs/trees`, open or proven, reads back as a tree of the root it
/// names, so a change to the file format or to the checks cannot strand a tree that a
/// later sitting is meant to go on with.
#[test]
fn every_committed_tree_reads_back() {
    let folder = format!("{}/docs/trees", env!("CARGO_MANIFEST_DIR"));
    let mut read = 0;
    for entry in std::fs::read_dir(folder).expect("docs/trees") {
        let path = entry.expect("an entry").path();
        let file: TreeFile = serde_json::from_str(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let root = file
            .root_position()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            root.variant().size.to_string(),
            file.size,
            "{}",
            path.display()
        );
        let tree =
            ProofTree::from_file(&file, root).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(tree.to_file().root, file.root, "{}", path.display());
        read += 1;
    }
    assert!(read >= 16, "{read} trees");
}

#[test]
fn the_committed_proof_of_4x15_turning_after_d4b4_a2a4_f4d4_e2e4_stands() {
    // The horizontal corner gap of 4 x 15, white to move, after d4b4 a2a4 f4d4 e2e4:
    // white wins (with c3a3), so black's e2e4 does not refute f4d4 under `turning`.
    let root = AnyPosition::from_text(
        "bw1wb1bwbwbwbwb/1bwb1bwbwbwbwbw/1wbw1wbwbwbwbwb/wbwbwbwbwbwbwbw w",
        Opening::Any,
        MultiJump::Turning,
    )
    .unwrap();
    check_committed_proof(
        "15x4-turning-corner-after-d4b4-a2a4-f4d4-e2e4.json",
        root,
        true,
    );
}

#[test]
fn the_committed_proof_of_the_4x15_turning_horizontal_corner_gap_stands() {
    // White to move at the horizontal corner gap of 4 x 15 under `turning`: black
    // wins (with black to move white wins), so the setup is P.
    let root = white_to_move_at_the_gap_under(
        "2bwbwbwbwbwbwb/wbwbwbwbwbwbwbw/bwbwbwbwbwbwbwb/wbwbwbwbwbwbwbw b",
        MultiJump::Turning,
    );
    check_committed_proof("4x15-turning-horizontal-corner-white.json", root, false);
}

#[test]
fn the_committed_proof_of_the_7x7_removal_b6_stands() {
    let mut root = AnyPosition::start(variant(7, 7, Opening::Any, MultiJump::Straight));
    root.play_text("b6").unwrap();
    // White, to move after b6, loses.
    check_committed_proof("7x7-any-straight-b6.json", root, false);
}

#[test]
fn the_committed_proof_of_the_4x14_horizontal_middle_gap_stands() {
    let root = AnyPosition::from_text(
        "bwbwbwbwbwbwbw/wbwbwb2wbwbwb/bwbwbwbwbwbwbw/wbwbwbwbwbwbwb b",
        Opening::Any,
        MultiJump::Straight,
    )
    .unwrap();
    // Black, to move, loses; the setup swaps onto itself, so it is P.
    check_committed_proof("4x14-straight-horizontal-middle-black.json", root, false);
}

#[test]
fn the_committed_proof_of_the_4x16_horizontal_corner_gap_stands() {
    let root = white_to_move_at_the_gap(
        "2bwbwbwbwbwbwbw/wbwbwbwbwbwbwbwb/bwbwbwbwbwbwbwbw/wbwbwbwbwbwbwbwb b",
    );
    // White, to move, wins; with black to move white wins too, so the setup is R.
    check_committed_proof("4x16-straight-horizontal-corner-white.json", root, true);
}

#[test]
fn the_committed_proof_of_4x16_turning_after_d4b4_c2c4_e3c3_stands() {
    // The horizontal corner gap of 4 x 16, white to move, after d4b4 c2c4 e3c3: black,
    // to move, loses, so e3c3 refutes c2c4 under `turning` as under `straight`.
    let root = AnyPosition::from_text(
        "1wb1bwbwbwbwbwbw/wbw2bwbwbwbwbwb/bw1wbwbwbwbwbwbw/wbwbwbwbwbwbwbwb b",
        Opening::Any,
        MultiJump::Turning,
    )
    .unwrap();
    check_committed_proof("16x4-turning-corner-after-d4b4-c2c4-e3c3.json", root, false);
}

#[test]
fn the_committed_proof_of_the_4x16_turning_horizontal_corner_gap_stands() {
    let root = white_to_move_at_the_gap_under(
        "2bwbwbwbwbwbwbw/wbwbwbwbwbwbwbwb/bwbwbwbwbwbwbwbw/wbwbwbwbwbwbwbwb b",
        MultiJump::Turning,
    );
    // White, to move, wins; with black to move white wins too, so the setup is R.
    check_committed_proof("4x16-turning-horizontal-corner-white.json", root, true);
}

#[test]
fn a_trees_estimates_are_kept_and_checked() {
    let root = AnyPosition::start(variant(5, 5, Opening::Diagonal, MultiJump::Straight));
    let mut tree = ProofTree::new(root);
    assert_eq!(grow(&mut tree, 100, Some(6)), Growth::PieceLimit);
    let good = tree.to_file();
    assert!(!good.estimates.is_empty());
    let refused = |file: &TreeFile| ProofTree::from_file(file, root).err();

    // Without its estimates the tree reads, with the first numbers of its leaves.
    let mut plain = good.clone();
    plain.estimates.clear();
    let read = ProofTree::from_file(&plain, root).expect("estimates are optional");
    assert_eq!(read.positions(), tree.positions());
    assert!(read.to_file().estimates.is_empty());

    let mut bad = good.clone();
    bad.estimates[0].prove = 0;
    assert!(matches!(refused(&bad), Some(TreeError::Corrupt(why)) if why.contains("estimate")));

    let mut bad = good.clone();
    bad.estimates[0].disprove = u64::MAX;
    assert!(matches!(refused(&bad), Some(TreeError::Corrupt(why)) if why.contains("estimate")));

    // An estimate of a position the tree has expanded, or does not hold.
    let mut bad = good.clone();
    bad.estimates[0].position = good.expanded[0].clone();
    assert!(matches!(refused(&bad), Some(TreeError::Corrupt(why)) if why.contains("open leaf")));
    let mut bad = good.clone();
    bad.estimates[0].position = "1wbwb/wbwbw/bwbwb/wbwbw/bwbwb w".to_string();
    assert!(matches!(refused(&bad), Some(TreeError::Corrupt(why)) if why.contains("open leaf")));
}

#[test]
fn konane_solve_grows_a_tree_across_runs() {
    let dir = scratch("grow-runs");
    let file = dir.join("tree.json").display().to_string();
    let run = |extra: &[&str]| {
        let args = [
            &["--size", "5x5", "--grow", &file, "--piece-nodes", "200"][..],
            extra,
        ];
        konane_solve(&args.concat())
    };
    let (code, out, err) = run(&["--max-pieces", "3"]);
    assert_eq!(code, 1, "{out} {err}");
    assert!(err.contains("run again to go on"), "{err}");
    assert_eq!(
        err.lines().filter(|l| l.starts_with("piece ")).count(),
        3,
        "{err}"
    );
    let file_text = std::fs::read_to_string(&file).expect("the tree is written");
    let written: TreeFile = serde_json::from_str(&file_text).expect("a tree file");
    assert_eq!(written.pieces, 3);

    let (code, out, err) = run(&[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("black wins"), "{out}");
    assert!(err.lines().next().unwrap().starts_with("piece 4 "), "{err}");
    let (code, outline, err) = run(&["--outline", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(outline.starts_with("root: black wins\n"), "{outline}");

    // Another position's tree is refused, the file left as it was.
    let (code, _, err) = konane_solve(&["--size", "4x4", "--grow", &file]);
    assert_eq!(code, 2);
    assert!(err.contains("the tree is of"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");

    std::fs::write(&file, "{\"format\": ").expect("write");
    let (code, _, err) = run(&[]);
    assert_eq!(code, 2);
    assert!(err.contains("not a tree file"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[cfg(unix)]
#[test]
fn konane_solve_never_grows_a_tree_through_a_planted_link() {
    let dir = scratch("grow-link");
    let target = dir.join("precious");
    std::fs::write(&target, "keep me").expect("write");
    let link = dir.join("tree.json");
    std::os::unix::fs::symlink(&target, &link).expect("symlink");
    let (code, _, err) = konane_solve(&["--size", "4x4", "--grow", &link.display().to_string()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a regular file"), "{err}");
    assert_eq!(std::fs::read_to_string(&target).expect("read"), "keep me");
    assert_eq!(std::fs::read_dir(&dir).expect("list").count(), 2);
}

#[test]
fn konane_solve_refuses_grow_options_out_of_place() {
    for args in [
        &["--size", "4x4", "--piece-nodes", "10"][..],
        &["--size", "4x4", "--max-pieces", "10"][..],
        &["--size", "4x4", "--outline", "2"][..],
        &["--size", "4x4", "--graft", "t.json"][..],
        &[
            "--size",
            "4x4",
            "--grow",
            "no-such-tree.json",
            "--outline",
            "2",
        ][..],
        &["--size", "4x4", "--grow", "t.json", "--piece-nodes", "0"][..],
        &[
            "--size", "4x4", "--grow", "t.json", "--split", "1", "--list",
        ][..],
    ] {
        let (code, out, err) = konane_solve(args);
        assert_eq!(code, 2, "{args:?}: {out} {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}
