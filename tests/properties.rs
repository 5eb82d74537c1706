//! Property checks over many thousands of random positions, on every board size from
//! 2x2 to 16x16 (rectangles included) under every rule combination. Positions come from
//! seeded random play from the start, and from random boards played out (which is where
//! long turning paths and loops turn up). At every position:
//!
//! - (a) the engine and the naive generator give the same move texts (one per path), the
//!   same positions after the moves, and `generate_paths` has one entry per naive path
//!   while `generate` has each effect once;
//! - (b) every move text parses back to the same move, also with `-`/`x` separators and
//!   with every landing square listed;
//! - (c) the incremental hash equals `compute_hash()` after every move;
//! - (d) playing a move then taking it back restores the position and its hash;
//! - (e) position text printed then parsed gives the same position;
//! - (f) `count_moves()` equals the length of `generate_paths`;
//! - (g) `outcome()` is `Some` exactly when there is no legal move, and names the
//!   other side.
//!
//! A failure prints the seed, the rules, the moves from the start and the position.
//! `KONANE_RANDOM_GAMES=N` plays N games per board size and rule set instead of the
//! default (for a longer soak).

// Test reports (seeds, measurements) go to the test harness's output.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod common;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use konane::rules::{
    AnyPosition, Bitboard, Color, MAX_MOVES, MoveList, MultiJump, Opening, Phase, Position,
    PositionText,
};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use common::naive::{self, Board, NaiveMove, Rules};
use common::{all_rules, engine_from_text, engine_start, path_texts};

/// Where a checked position came from, to print when a check fails.
struct Origin<'a> {
    what: &'static str,
    seed: u64,
    rules: Rules,
    moves: &'a [String],
    position: &'a str,
}

impl Origin<'_> {
    fn fail(&self, message: String) -> ! {
        panic!(
            "{message}\n  {} with seed {} under {}\n  moves: {}\n  position: {}",
            self.what,
            self.seed,
            self.rules,
            if self.moves.is_empty() {
                "(none)".to_string()
            } else {
                self.moves.join(" ")
            },
            self.position
        )
    }
}

/// Fails with the origin of the position when `$cond` is false.
macro_rules! ensure {
    ($at:expr, $cond:expr, $($message:tt)+) => {
        if !$cond {
            $at.fail(format!($($message)+))
        }
    };
}

/// What the checks went through, to prove they were not vacuous.
#[derive(Debug, Default)]
struct Coverage {
    positions: usize,
    paths: usize,
    multi_jumps: usize,
    turning_paths: usize,
    loops: usize,
    longest_path: usize,
    finished_games: usize,
}

impl Coverage {
    fn count(&mut self, moves: &[NaiveMove]) {
        self.positions += 1;
        self.paths += moves.len();
        for m in moves {
            let jumps = m.captured.len();
            self.longest_path = self.longest_path.max(jumps);
            if jumps >= 2 {
                self.multi_jumps += 1;
            }
            if naive::run_ends(&m.path).len() >= 3 {
                self.turning_paths += 1;
            }
            if jumps >= 2 && m.path[0] == m.path[m.path.len() - 1] {
                self.loops += 1;
            }
        }
    }
}

/// Lists what only one side has, for messages.
fn difference(engine: &[String], naive: &[String]) -> String {
    let e: BTreeSet<&String> = engine.iter().collect();
    let n: BTreeSet<&String> = naive.iter().collect();
    let only_engine: Vec<&&String> = e.difference(&n).collect();
    let only_naive: Vec<&&String> = n.difference(&e).collect();
    format!("engine only: {only_engine:?}; naive only: {only_naive:?}")
}

/// A position as the engine stores it: occupied squares (bit `rank * width + file`)
/// and side to move.
type Snapshot<B> = (B, Color);

/// The naive board in the engine's terms.
fn snapshot<B: Bitboard>(board: &Board) -> Snapshot<B> {
    let mut occupied = B::EMPTY;
    for (file, rank) in board.squares() {
        if board.get((file, rank)).is_some() {
            occupied |= B::single(rank * board.width() + file);
        }
    }
    (occupied, board.side())
}

/// Runs every check on one position; returns the naive moves (one per path).
fn check_position<B: Bitboard>(
    p: &Position<B>,
    naive: &Board,
    rules: Rules,
    at: &Origin,
) -> Vec<NaiveMove> {
    // (e) The text the engine prints is the naive board's, and reads back the same.
    let text = at.position;
    ensure!(at, p.to_string() == text, "(e) the engine prints '{p}'");
    let written: PositionText = text
        .parse()
        .unwrap_or_else(|e| at.fail(format!("(e) printed text does not parse: {e}")));
    let reread = Position::from_text(p.geometry(), &written)
        .unwrap_or_else(|e| at.fail(format!("(e) printed position is refused: {e}")));
    ensure!(
        at,
        reread == *p && reread.hash() == p.hash(),
        "(e) printed then parsed gives '{reread}' (hash {:x}, was {:x})",
        reread.hash(),
        p.hash()
    );
    // (c)
    ensure!(
        at,
        p.hash() == p.compute_hash(),
        "(c) stored hash {:x} but compute_hash() gives {:x}",
        p.hash(),
        p.compute_hash()
    );
    let phase = match naive.empty_squares().len() {
        0 => Phase::BlackRemoval,
        1 => Phase::WhiteRemoval,
        _ => Phase::Jumping,
    };
    ensure!(at, p.phase() == phase, "phase is {} not {phase}", p.phase());

    let moves = naive.moves(rules);
    let naive_texts: Vec<String> = moves.iter().map(|m| m.text.clone()).collect();
    let distinct: HashSet<&String> = naive_texts.iter().collect();
    ensure!(
        at,
        distinct.len() == naive_texts.len(),
        "naive generator bug: two paths with one text in {naive_texts:?}"
    );

    // (a) and (f): one engine path per naive path, with the same texts.
    let mut paths = MoveList::new();
    p.generate_paths(&mut paths);
    if moves.len() > MAX_MOVES {
        ensure!(
            at,
            paths.overflowed(),
            "{} paths but the move list did not say it overflowed",
            moves.len()
        );
        return moves;
    }
    ensure!(at, !paths.overflowed(), "move list overflowed");
    let mut engine_texts = Vec::with_capacity(paths.len());
    for (m, text) in path_texts(p) {
        match text {
            Some(t) => engine_texts.push(t),
            None => at.fail(format!(
                "(a) Geometry::move_paths finds fewer paths for {} than generate_paths lists",
                p.move_text(m)
            )),
        }
    }
    ensure!(
        at,
        paths.len() == moves.len(),
        "(a) generate_paths has {} moves, the naive generator {} paths; {}",
        paths.len(),
        moves.len(),
        difference(&engine_texts, &naive_texts)
    );
    engine_texts.sort();
    let mut sorted_naive = naive_texts.clone();
    sorted_naive.sort();
    ensure!(
        at,
        engine_texts == sorted_naive,
        "(a) path texts differ; {}",
        difference(&engine_texts, &naive_texts)
    );
    ensure!(
        at,
        p.count_moves() == paths.len() as u64,
        "(f) count_moves() is {} but generate_paths has {}",
        p.count_moves(),
        paths.len()
    );

    // (a) `generate`: each effect once, with the naive positions after it.
    let mut effects = MoveList::new();
    p.generate(&mut effects);
    let naive_effects: BTreeSet<_> = moves.iter().map(NaiveMove::effect).collect();
    let distinct: HashSet<_> = effects.iter().collect();
    ensure!(
        at,
        distinct.len() == effects.len(),
        "(a) generate lists an effect twice"
    );
    ensure!(
        at,
        effects.len() == naive_effects.len(),
        "(a) generate has {} moves but the naive paths have {} distinct effects",
        effects.len(),
        naive_effects.len()
    );
    // Positions after moves are compared as (occupied squares, side to move), which is
    // much cheaper than text; the texts are printed when they differ.
    let naive_after: Vec<Snapshot<B>> = moves.iter().map(|m| snapshot(&m.after)).collect();
    let naive_move: BTreeMap<&str, usize> = moves
        .iter()
        .enumerate()
        .map(|(i, m)| (m.text.as_str(), i))
        .collect();
    // The engine's move for each position after a move.
    let mut engine_move_to: HashMap<Snapshot<B>, _> = HashMap::new();
    for &m in effects.iter() {
        let t = p.move_text(m);
        let Some(&i) = naive_move.get(t.as_str()) else {
            at.fail(format!("(a) the engine's move {t} is not a naive move"));
        };
        let after = p.after(m);
        let got = (after.occupied(), after.side_to_move());
        ensure!(
            at,
            got == naive_after[i],
            "(a) after {t} the engine has '{after}', the naive generator '{}'",
            moves[i].after.to_text()
        );
        ensure!(
            at,
            after.hash() == after.compute_hash(),
            "(c) after {t} the hash is {:x} but compute_hash() gives {:x}",
            after.hash(),
            after.compute_hash()
        );
        let mut q = *p;
        q.play_unchecked(m);
        ensure!(at, q == after, "play_unchecked({t}) and after({t}) differ");
        q.undo(m);
        ensure!(
            at,
            q == *p && q.hash() == p.hash(),
            "(d) {t} then undo gives '{q}' (hash {:x}, was {:x})",
            q.hash(),
            p.hash()
        );
        ensure!(
            at,
            m.is_removal() == (phase != Phase::Jumping),
            "{t}: is_removal() is {} in the {phase} phase",
            m.is_removal()
        );
        ensure!(
            at,
            p.parse_move(&t) == Ok(m),
            "(b) the canonical text {t} parses to {:?}",
            p.parse_move(&t)
        );
        engine_move_to.insert(got, m);
    }
    // Every naive path leads to a position some engine move leads to (the converse was
    // checked move by move above).
    for (nm, after) in moves.iter().zip(&naive_after) {
        ensure!(
            at,
            engine_move_to.contains_key(after),
            "(a) no engine move leads where the naive {} does: '{}'",
            nm.text,
            nm.after.to_text()
        );
    }

    // (b) Every path's texts name the engine move with the naive result. The written
    // forms other than the canonical one take turns, so each is tried many times over a
    // run without trying all five on every path.
    for (i, (nm, after)) in moves.iter().zip(&naive_after).enumerate() {
        let expected = engine_move_to[after];
        let written = match i % 5 {
            0 => nm.text_with("-"),
            1 => nm.long_text("x"),
            2 => nm.long_text(""),
            3 => nm.text_with("x"),
            _ => nm.long_text("-"),
        };
        for text in [&nm.text, &written] {
            ensure!(
                at,
                p.parse_move(text) == Ok(expected),
                "(b) {text} does not parse to the move leading to '{}': {:?}",
                nm.after.to_text(),
                p.parse_move(text).map(|m| p.after(m).to_string())
            );
        }
    }

    // (g)
    let side = p.side_to_move();
    match p.outcome() {
        None => ensure!(at, !moves.is_empty(), "(g) no legal move but no outcome"),
        Some(o) => {
            ensure!(at, moves.is_empty(), "(g) outcome {o:?} with legal moves");
            ensure!(
                at,
                o.winner() == side.opponent(),
                "(g) {side} cannot move but {} is said to win",
                o.winner()
            );
        }
    }
    ensure!(
        at,
        p.has_legal_move() != moves.is_empty(),
        "has_legal_move() is {}",
        p.has_legal_move()
    );

    // Mobility of both sides, as the search's evaluation reads it.
    let other = side.opponent();
    let their_moves = naive.with_side(other).moves(rules);
    if phase == Phase::Jumping {
        for (colour, list) in [(side, &moves), (other, &their_moves)] {
            let expected = list.len();
            if expected <= MAX_MOVES {
                ensure!(
                    at,
                    p.count_jumps(colour) == expected as u64,
                    "count_jumps({colour}) is {} but {colour} has {expected} jump paths",
                    p.count_jumps(colour)
                );
                let mobility = p.mobility(colour);
                ensure!(
                    at,
                    mobility.moves == expected as u64,
                    "mobility({colour}).moves is {} but {colour} has {expected} jump paths",
                    mobility.moves
                );
            }
            let mut starts: Vec<_> = list.iter().map(|m| m.path[0]).collect();
            starts.sort_unstable();
            starts.dedup();
            ensure!(
                at,
                p.mobility(colour).movable_stones as usize == starts.len(),
                "mobility({colour}) counts {} movable stones but {} stones can jump",
                p.mobility(colour).movable_stones,
                starts.len()
            );
        }
    }

    // (b) Text the naive generator does not list here is refused: the other side's
    // moves, turning paths under the straight rule, and in the removal phases every
    // square that is not a legal removal.
    let mut not_legal: Vec<String> = their_moves.into_iter().map(|m| m.text).collect();
    if phase == Phase::Jumping && rules.multi_jump == MultiJump::Straight {
        let turning = Rules {
            multi_jump: MultiJump::Turning,
            ..rules
        };
        not_legal.extend(naive.moves(turning).into_iter().map(|m| m.text));
    }
    if phase != Phase::Jumping {
        not_legal.extend(naive.squares().map(naive::square_name));
    }
    let legal: HashSet<&str> = naive_texts.iter().map(String::as_str).collect();
    for text in not_legal.iter().filter(|t| !legal.contains(t.as_str())) {
        ensure!(
            at,
            p.parse_move(text).is_err(),
            "(b) {text} is not a legal move but parses to {}",
            p.parse_move(text)
                .map(|m| p.move_text(m))
                .unwrap_or_default()
        );
    }
    moves
}

/// Checks `engine`/`naive` and every position of a random game from there to its end.
fn play_out(
    what: &'static str,
    seed: u64,
    rng: &mut StdRng,
    mut engine: AnyPosition,
    mut naive: Board,
    rules: Rules,
    coverage: &mut Coverage,
) {
    let squares = naive.width() * naive.height();
    let mut played: Vec<String> = Vec::new();
    loop {
        let text = naive.to_text();
        let at = Origin {
            what,
            seed,
            rules,
            moves: &played,
            position: &text,
        };
        // (e) through `AnyPosition`, which picks the bitboard width from the text.
        let reread = engine_from_text(&text, rules)
            .unwrap_or_else(|e| at.fail(format!("(e) position text refused: {e}")));
        ensure!(
            at,
            reread == engine && reread.hash() == engine.hash(),
            "(e) AnyPosition::from_text gives '{reread}', not the engine's '{engine}'"
        );
        let moves = konane::with_position!(&engine, p => check_position(p, &naive, rules, &at));
        coverage.count(&moves);
        if moves.is_empty() {
            coverage.finished_games += 1;
            return;
        }
        ensure!(
            at,
            played.len() < squares,
            "the game is longer than the {squares} plies the rules allow"
        );
        let chosen = &moves[rng.random_range(0..moves.len())];
        let canonical = engine
            .play_text(&chosen.text)
            .unwrap_or_else(|e| at.fail(format!("playing {} failed: {e}", chosen.text)));
        // Two paths with one effect are one move to the engine, printed as the first
        // path it generates: the text printed is that of a path with the same effect.
        let same_effect = moves
            .iter()
            .any(|m| m.text == canonical && m.effect() == chosen.effect());
        ensure!(
            at,
            same_effect,
            "playing {} printed it as {canonical}, not a path with its effect",
            chosen.text
        );
        naive = chosen.after.clone();
        played.push(chosen.text.clone());
    }
}

/// Games per board size and rule set: `KONANE_RANDOM_GAMES`, or `default`.
fn games(default: u64) -> u64 {
    std::env::var("KONANE_RANDOM_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Every board size whose square count is in `squares`.
fn sizes(squares: std::ops::RangeInclusive<usize>) -> Vec<(usize, usize)> {
    let mut all = Vec::new();
    for width in 2..=16 {
        for height in 2..=16 {
            if squares.contains(&(width * height)) {
                all.push((width, height));
            }
        }
    }
    all
}

/// A seed that names the game: size, rule set and game number can be read off it.
fn seed_of(width: usize, height: usize, rules_index: usize, game: u64) -> u64 {
    (((width * 100 + height) * 10 + rules_index) as u64) * 1000 + game
}

/// Random games from the start on every board of `squares` squares under every rule.
fn random_games(squares: std::ops::RangeInclusive<usize>, per_variant: u64) -> Coverage {
    let mut coverage = Coverage::default();
    for (width, height) in sizes(squares) {
        for (rules_index, rules) in all_rules().into_iter().enumerate() {
            for game in 0..games(per_variant) {
                let seed = seed_of(width, height, rules_index, game);
                let mut rng = StdRng::seed_from_u64(seed);
                let engine = engine_start(width, height, rules);
                let naive = Board::start(width, height);
                play_out(
                    "random game",
                    seed,
                    &mut rng,
                    engine,
                    naive,
                    rules,
                    &mut coverage,
                );
            }
        }
    }
    println!("{coverage:?}");
    coverage
}

#[test]
fn random_games_on_64_bit_boards_agree_with_the_naive_generator() {
    let c = random_games(4..=64, 4);
    assert!(c.positions >= 10_000, "{c:?}");
    assert!(c.multi_jumps > 0 && c.turning_paths > 0, "{c:?}");
}

#[test]
fn random_games_on_128_bit_boards_agree_with_the_naive_generator() {
    let c = random_games(65..=128, 1);
    assert!(c.positions >= 10_000, "{c:?}");
    assert!(c.multi_jumps > 0 && c.turning_paths > 0, "{c:?}");
}

#[test]
fn random_games_on_256_bit_boards_agree_with_the_naive_generator() {
    let c = random_games(129..=256, 1);
    assert!(c.positions >= 10_000, "{c:?}");
    assert!(c.multi_jumps > 0 && c.turning_paths > 0, "{c:?}");
}

/// A random board (stones on their own colours, at least three gaps, either side to
/// move): denser tangles than games reach, so long paths and loops.
fn random_board(width: usize, height: usize, rng: &mut StdRng) -> Board {
    let side = if rng.random_bool(0.5) {
        Color::Black
    } else {
        Color::White
    };
    let mut board = Board::empty(width, height, side);
    let density = rng.random_range(0.35..0.8);
    for sq in board.squares() {
        board.set(sq, rng.random_bool(density));
    }
    // With fewer than three gaps a board is an opening position, which games cover.
    while board.empty_squares().len() < 3 {
        let sq = (rng.random_range(0..width), rng.random_range(0..height));
        board.set(sq, false);
    }
    board
}

#[test]
fn random_boards_played_out_agree_with_the_naive_generator() {
    let mut coverage = Coverage::default();
    let rules_sets = all_rules();
    for (width, height) in sizes(4..=256) {
        for board_number in 0..games(2) {
            let seed = seed_of(width, height, 9, board_number);
            let mut rng = StdRng::seed_from_u64(seed);
            let rules = rules_sets[rng.random_range(0..rules_sets.len())];
            let naive = random_board(width, height, &mut rng);
            let engine = engine_from_text(&naive.to_text(), rules).unwrap_or_else(|e| {
                panic!(
                    "random board {} (seed {seed}) refused: {e}",
                    naive.to_text()
                )
            });
            play_out(
                "random board",
                seed,
                &mut rng,
                engine,
                naive,
                rules,
                &mut coverage,
            );
        }
    }
    println!("{coverage:?}");
    assert!(coverage.positions >= 5_000, "{coverage:?}");
    assert!(coverage.turning_paths >= 1_000, "{coverage:?}");
    assert!(coverage.loops > 0, "{coverage:?}");
    assert!(coverage.longest_path >= 5, "{coverage:?}");
}

/// The engine accepts a board with no, one or two gaps exactly when the naive reading
/// of the opening rules says it can arise (full board: black to move; one gap: a
/// removal the opening rule allows, white to move; two gaps: that and a white stone
/// next to it, black to move).
#[test]
fn only_positions_the_opening_can_produce_are_accepted() {
    let mut checked = 0;
    let mut accepted = 0;
    for (width, height) in sizes(4..=256) {
        let mut rng = StdRng::seed_from_u64(seed_of(width, height, 8, 0));
        let full = Board::start(width, height);
        let all: Vec<(usize, usize)> = full.squares().collect();
        let mut candidates: Vec<Vec<(usize, usize)>> = vec![Vec::new()];
        candidates.extend(all.iter().map(|&s| vec![s]));
        // Two gaps: every pair of neighbours around the central squares and the
        // corners, where the opening rules draw their lines, and random pairs.
        let mut firsts: Vec<(usize, usize)> = all
            .iter()
            .copied()
            .filter(|&s| naive::is_central(width, height, s) || naive::is_corner(width, height, s))
            .collect();
        firsts.extend((0..8).map(|_| all[rng.random_range(0..all.len())]));
        for a in firsts {
            for (df, dr) in [(1, 0), (0, 1), (-1, 0), (0, -1)] {
                let f = a.0 as isize + df;
                let r = a.1 as isize + dr;
                if f >= 0 && r >= 0 && (f as usize) < width && (r as usize) < height {
                    candidates.push(vec![a, (f as usize, r as usize)]);
                }
            }
        }
        for _ in 0..10 {
            let a = all[rng.random_range(0..all.len())];
            let b = all[rng.random_range(0..all.len())];
            if a != b {
                candidates.push(vec![a, b]);
            }
        }
        for gaps in &candidates {
            let mut board = full.clone();
            for &g in gaps {
                board.set(g, false);
            }
            for side in [Color::Black, Color::White] {
                let board = board.with_side(side);
                let text = board.to_text();
                // Only the opening rule decides; the multi-jump rule takes turns.
                for (i, opening) in Opening::ALL.into_iter().enumerate() {
                    let multi_jump = MultiJump::ALL[(i + width + height) % 2];
                    let rules = Rules {
                        opening,
                        multi_jump,
                    };
                    let possible = board.is_possible(rules.opening);
                    let engine = engine_from_text(&text, rules);
                    assert_eq!(
                        engine.is_ok(),
                        possible,
                        "'{text}' under {rules}: the engine says {engine:?}, the rules say {}",
                        if possible { "possible" } else { "impossible" }
                    );
                    checked += 1;
                    accepted += usize::from(possible);
                }
            }
        }
    }
    println!("{checked} boards checked, {accepted} possible");
    assert!(accepted > 1000 && checked - accepted > 1000);
}
