//! The list of games a tournament plays: pairings, rounds, colour-swapped pairs, their
//! openings, and which of them a shard plays. A pure function of the configuration.

use super::config::{Shard, TournamentKind};

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// One-based number of the game in the whole tournament.
    pub number: u64,
    /// One-based round.
    pub round: u32,
    /// Zero-based index of the colour-swapped pair the game belongs to.
    pub pair: u64,
    /// Which opening the pair starts from.
    pub opening: u64,
    /// Index of the engine playing black (moving first).
    pub black: usize,
    /// Index of the engine playing white.
    pub white: usize,
}

/// Who meets whom, each pairing once: everyone with everyone, or the first engine with
/// each of the others.
#[must_use]
pub fn pairings(engines: usize, kind: TournamentKind) -> Vec<(usize, usize)> {
    match kind {
        TournamentKind::RoundRobin => (0..engines)
            .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
            .collect(),
        TournamentKind::Gauntlet => (1..engines).map(|b| (0, b)).collect(),
    }
}

/// Every game of the tournament, in order: for each round, for each pairing, `games / 2`
/// pairs, each pair being the same opening played with either engine as black. Every
/// pairing of a round uses the same openings.
#[must_use]
pub fn schedule(engines: usize, kind: TournamentKind, games: u32, rounds: u32) -> Vec<GameSpec> {
    let pairs_per_encounter = u64::from(games / 2);
    let mut list = Vec::new();
    let mut pair = 0;
    for round in 1..=rounds {
        for (a, b) in pairings(engines, kind) {
            for k in 0..pairs_per_encounter {
                let opening = u64::from(round - 1) * pairs_per_encounter + k;
                for (black, white) in [(a, b), (b, a)] {
                    list.push(GameSpec {
                        number: list.len() as u64 + 1,
                        round,
                        pair,
                        opening,
                        black,
                        white,
                    });
                }
                pair += 1;
            }
        }
    }
    list
}

/// Whether `game` is played by `shard` (pairs are never split between shards).
#[must_use]
pub fn in_shard(game: &GameSpec, shard: Option<Shard>) -> bool {
    shard.is_none_or(|s| game.pair % u64::from(s.count) == u64::from(s.index))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_robin_meets_everyone_once_per_round() {
        assert_eq!(
            pairings(4, TournamentKind::RoundRobin),
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
        assert_eq!(
            pairings(4, TournamentKind::Gauntlet),
            [(0, 1), (0, 2), (0, 3)]
        );
    }

    #[test]
    fn every_opening_is_played_twice_with_colours_swapped() {
        let games = schedule(2, TournamentKind::RoundRobin, 4, 3);
        assert_eq!(games.len(), 12);
        for pair in games.chunks(2) {
            assert_eq!(pair[0].opening, pair[1].opening);
            assert_eq!(
                (pair[0].black, pair[0].white),
                (pair[1].white, pair[1].black)
            );
            assert_eq!(pair[0].pair, pair[1].pair);
        }
        let openings: Vec<u64> = games.iter().step_by(2).map(|g| g.opening).collect();
        assert_eq!(openings, [0, 1, 2, 3, 4, 5]);
        assert_eq!(games[11].number, 12);
        assert_eq!(games[11].round, 3);
    }

    #[test]
    fn shards_split_the_pairs_between_them() {
        let games = schedule(3, TournamentKind::RoundRobin, 2, 5);
        let shards: Vec<Shard> = (0..4).map(|index| Shard { index, count: 4 }).collect();
        for g in &games {
            let owners = shards.iter().filter(|s| in_shard(g, Some(**s))).count();
            assert_eq!(owners, 1, "game {} is played by {owners} shards", g.number);
        }
    }
}
