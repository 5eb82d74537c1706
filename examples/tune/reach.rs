//! How early in a game the exact solver proves the result: the reach of the endgame
//! switch, and the yardstick for moving it earlier.
//!
//! Self-play games (random opening plies, then the engine at a node budget with some
//! random moves, as for the labelled sets); for each game and each time limit, the
//! earliest ply from which every later position of the game is proven within the limit.
//! The games are scanned back from their end, and every solve starts from an empty
//! table, as a `go solve` of its own would with the engine's default `SolverHash`. The
//! scan for a longer limit starts where the shorter one stopped: what was proven within
//! the shorter limit is proven within the longer one.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use konane::rules::{AnyPosition, Bitboard, Position, Variant};
use konane::search::solver::{SolveLimits, Solver, SolverConfig};
use konane::with_position;
use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::games::{Players, play_game};

/// What to measure.
pub struct ReachOptions {
    /// The rules.
    pub variant: Variant,
    /// Games to play.
    pub games: usize,
    /// Random seed of the games.
    pub seed: u64,
    /// How the games are played.
    pub players: Players,
    /// Time limits of a solve, shortest first.
    pub limits: Vec<Duration>,
    /// Solver table, MB.
    pub hash_mb: usize,
    /// The solver's techniques (the default, or with the region analysis on).
    pub config: SolverConfig,
}

/// The reach of one game: its length and, per limit, the earliest proven ply.
struct GameReach {
    plies: usize,
    earliest: Vec<usize>,
}

/// Plays the games, prints a line per game to stderr and the summary (a Markdown table
/// of medians) to stdout.
pub fn measure(o: &ReachOptions) -> Result<(), String> {
    with_position!(AnyPosition::start(o.variant), start => run(start, o))
}

fn run<B: Bitboard>(start: Position<B>, o: &ReachOptions) -> Result<(), String> {
    let mut rng = StdRng::seed_from_u64(o.seed);
    let mut solver = Solver::with_config(o.hash_mb, o.config);
    let mut reaches = Vec::with_capacity(o.games);
    for game_number in 1..=o.games {
        let game = play_game(start, &o.players, &mut rng);
        let reach = game_reach(&mut solver, &game, &o.limits);
        let earliest: Vec<String> = reach.earliest.iter().map(usize::to_string).collect();
        eprintln!(
            "game {game_number}: {} plies, earliest proven ply {}",
            reach.plies,
            earliest.join(" / ")
        );
        reaches.push(reach);
    }
    println!(
        "| limit | games | median earliest proven ply | median plies before the end | range of the ply |"
    );
    println!("|---|---:|---:|---:|---|");
    for (i, limit) in o.limits.iter().enumerate() {
        let mut plies: Vec<usize> = reaches.iter().map(|r| r.earliest[i]).collect();
        let mut before_end: Vec<usize> = reaches.iter().map(|r| r.plies - r.earliest[i]).collect();
        plies.sort_unstable();
        before_end.sort_unstable();
        println!(
            "| {limit:?} | {} | {} | {} | {} to {} |",
            reaches.len(),
            median(&plies),
            median(&before_end),
            plies.first().copied().unwrap_or(0),
            plies.last().copied().unwrap_or(0)
        );
    }
    Ok(())
}

/// The middle value of sorted `values` (the mean of the two middle ones, rounded
/// down, for an even count); 0 for none.
fn median(values: &[usize]) -> usize {
    match values.len() {
        0 => 0,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2,
    }
}

/// Scans `game` (every position, the start first) back from its end, once per limit.
fn game_reach<B: Bitboard>(
    solver: &mut Solver,
    game: &[Position<B>],
    limits: &[Duration],
) -> GameReach {
    // The last position has no move: proven at once, whatever the limit.
    let mut earliest = game.len() - 1;
    let mut found = Vec::with_capacity(limits.len());
    for &limit in limits {
        while earliest > 0 && proves_within(solver, &game[earliest - 1], limit) {
            earliest -= 1;
        }
        found.push(earliest);
    }
    GameReach {
        plies: game.len() - 1,
        earliest: found,
    }
}

/// Whether a solve from an empty table proves `pos` within `limit`.
fn proves_within<B: Bitboard>(solver: &mut Solver, pos: &Position<B>, limit: Duration) -> bool {
    solver.clear();
    let stop = AtomicBool::new(false);
    let limits = SolveLimits {
        deadline: Some(Instant::now() + limit),
        ..SolveLimits::new(&stop)
    };
    solver.prove(pos, &limits, &mut |_| {}).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use konane::rules::BoardSize;

    /// On 5x5 every position is proven within a second, the start included (the
    /// shorter limit's scan stops somewhere on the way, and the longer one goes on
    /// from there).
    #[test]
    fn a_small_game_is_proven_from_its_start() {
        let variant = Variant {
            size: BoardSize::new(5, 5).unwrap(),
            ..Variant::default()
        };
        let AnyPosition::Small(start) = AnyPosition::start(variant) else {
            unreachable!("5x5 is a small board")
        };
        let players = Players {
            engine_nodes: 200,
            noise_percent: 10,
        };
        let game = play_game(start, &players, &mut StdRng::seed_from_u64(3));
        let mut solver = Solver::new(1);
        let limits = [Duration::from_micros(1), Duration::from_secs(1)];
        let reach = game_reach(&mut solver, &game, &limits);
        assert_eq!(reach.plies, game.len() - 1);
        assert!(reach.earliest[0] <= reach.plies, "{:?}", reach.earliest);
        assert_eq!(reach.earliest[1], 0);
    }

    #[test]
    fn medians() {
        assert_eq!(median(&[]), 0);
        assert_eq!(median(&[4]), 4);
        assert_eq!(median(&[1, 3, 9]), 3);
        assert_eq!(median(&[1, 3, 9, 20]), 6);
    }
}
