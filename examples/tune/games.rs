//! Labelled positions from engine-vs-engine games: each game opens with a few random
//! plies, then the engine plays itself at a small node budget (with an occasional
//! random move, so that games differ); positions are taken from the middle of the
//! game and every move of each is solved exactly.

use std::collections::HashSet;
use std::io::Write;
use std::sync::atomic::AtomicBool;

use konane::rules::{AnyPosition, Bitboard, Position, Variant};
use konane::search::solver::{SolveLimits, Solver};
use konane::search::{SearchControl, SearchParams, Searcher};
use konane::with_position;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::data::Labelled;

/// What to generate.
pub struct GenOptions {
    /// The rules.
    pub variant: Variant,
    /// How many positions to write.
    pub count: usize,
    /// Take positions at plies `min_ply..=max_ply` of a game.
    pub min_ply: usize,
    /// See `min_ply`.
    pub max_ply: usize,
    /// Random seed.
    pub seed: u64,
    /// Write only won positions with a losing move, with their moves (an accuracy
    /// set), instead of every solved position and its children (a tuning set).
    pub accuracy: bool,
    /// How the games are played.
    pub players: Players,
    /// Give up on a position whose moves take more solver nodes than this each.
    pub solve_nodes: u64,
    /// Positions to leave out (their hashes): those of other sets.
    pub exclude: HashSet<u64>,
    /// Solver table size, MB.
    pub hash_mb: usize,
}

/// How the games are played: the engine against itself at a node budget, with some
/// random moves so that games differ.
pub struct Players {
    /// Node budget of the engine's moves (each game draws its own from a quarter of it
    /// to all of it).
    pub engine_nodes: u64,
    /// Per hundred moves, how many are random instead of the engine's.
    pub noise_percent: u32,
}

/// Plays games and writes labelled positions to `out` until `o.count` are written.
pub fn generate(o: &GenOptions, out: &mut dyn Write) -> Result<(), String> {
    with_position!(AnyPosition::start(o.variant), start => run(start, o, out))
}

fn run<B: Bitboard>(start: Position<B>, o: &GenOptions, out: &mut dyn Write) -> Result<(), String> {
    let mut rng = StdRng::seed_from_u64(o.seed);
    let mut solver = Solver::new(o.hash_mb);
    let mut seen = o.exclude.clone();
    let (mut written, mut games, mut tried) = (0, 0, 0);
    while written < o.count {
        games += 1;
        let game = play_game(start, &o.players, &mut rng);
        let last = game.len().min(o.max_ply + 1);
        if last <= o.min_ply {
            continue;
        }
        // Two positions a game, so that many games are sampled.
        for _ in 0..2 {
            let pos = game[rng.random_range(o.min_ply..last)];
            if written >= o.count || !seen.insert(pos.hash()) {
                continue;
            }
            tried += 1;
            let Some(children) = solve_children(&mut solver, &pos, o.solve_nodes) else {
                continue;
            };
            for line in lines(&pos, &children, o.accuracy) {
                writeln!(out, "{}", line.to_line()).map_err(|e| e.to_string())?;
                written += 1;
            }
        }
        if games % 50 == 0 {
            eprintln!("{games} games, {tried} positions solved, {written} written");
        }
    }
    eprintln!("{games} games, {tried} positions solved, {written} written");
    Ok(())
}

/// One game from `start`: random openings, then the engine with some noise. Returns
/// every position of the game, the start first.
pub fn play_game<B: Bitboard>(
    start: Position<B>,
    o: &Players,
    rng: &mut StdRng,
) -> Vec<Position<B>> {
    let mut searcher = Searcher::new(4);
    let random_plies = rng.random_range(2..=5);
    let nodes = rng.random_range(o.engine_nodes / 4..=o.engine_nodes);
    let mut pos = start;
    let mut game = Vec::new();
    loop {
        game.push(pos);
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return game;
        }
        let random = game.len() <= random_plies || rng.random_range(0..100) < o.noise_percent;
        let m = if random {
            moves.as_slice()[rng.random_range(0..moves.len())]
        } else {
            let params = SearchParams {
                nodes: Some(nodes),
                multipv: 1,
                ..SearchParams::default()
            };
            let control = SearchControl::new(false);
            let found = searcher.search(&pos, &params, &control, &mut |_| {});
            found.best.unwrap_or(moves.as_slice()[0])
        };
        pos.play_unchecked(m);
    }
}

/// Each move of `pos` with whether the opponent wins after it; `None` when a solve
/// needed more than `node_limit` nodes.
fn solve_children<B: Bitboard>(
    solver: &mut Solver,
    pos: &Position<B>,
    node_limit: u64,
) -> Option<Vec<(String, Position<B>, bool)>> {
    let stop = AtomicBool::new(false);
    let limits = SolveLimits {
        node_limit: Some(node_limit),
        ..SolveLimits::new(&stop)
    };
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let child = pos.after(m);
            let proven = solver.prove(&child, &limits, &mut |_| {}).ok()?;
            Some((pos.move_text(m), child, proven.side_to_move_wins))
        })
        .collect()
}

/// The lines to write for `pos` whose moves were solved to `children`.
fn lines<B: Bitboard>(
    pos: &Position<B>,
    children: &[(String, Position<B>, bool)],
    accuracy: bool,
) -> Vec<Labelled> {
    let variant = pos.variant();
    let label = |p: &Position<B>, wins: bool| Labelled {
        variant,
        position: p.to_string(),
        wins,
        winning: Vec::new(),
        losing: Vec::new(),
    };
    let (winning, losing): (Vec<_>, Vec<_>) =
        children.iter().partition(|(_, _, they_win)| !they_win);
    let wins = !winning.is_empty();
    if accuracy {
        if !wins || losing.is_empty() {
            return Vec::new();
        }
        let texts = |v: &[&(String, Position<B>, bool)]| v.iter().map(|c| c.0.clone()).collect();
        return vec![Labelled {
            winning: texts(&winning),
            losing: texts(&losing),
            ..label(pos, true)
        }];
    }
    std::iter::once(label(pos, wins))
        .chain(
            children
                .iter()
                .map(|(_, child, they_win)| label(child, *they_win)),
        )
        .collect()
}
