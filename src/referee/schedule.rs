//! The games a tournament plays: pairings, rounds, colour-swapped pairs, their openings,
//! and which of them a shard plays. A pure function of the configuration, computed one
//! game at a time, so that memory does not grow with the number of games scheduled.

use std::collections::HashSet;

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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    pairings: Vec<(usize, usize)>,
    pairs_per_encounter: u64,
    len: u64,
}

impl Schedule {
    /// The schedule, or `None` when it has more games than a `u64` counts.
    #[must_use]
    pub fn new(engines: usize, kind: TournamentKind, games: u32, rounds: u32) -> Option<Schedule> {
        let pairings = pairings(engines, kind);
        let pairs_per_encounter = u64::from(games / 2);
        let len = (pairings.len() as u64)
            .checked_mul(pairs_per_encounter * 2)?
            .checked_mul(u64::from(rounds))?;
        Some(Schedule {
            pairings,
            pairs_per_encounter,
            len,
        })
    }

    /// The number of games.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Game `number` (from 1), or `None` beyond the last.
    #[must_use]
    pub fn game(&self, number: u64) -> Option<GameSpec> {
        if number == 0 || number > self.len {
            return None;
        }
        let index = number - 1;
        let games_per_encounter = self.pairs_per_encounter * 2;
        let games_per_round = self.pairings.len() as u64 * games_per_encounter;
        let round = index / games_per_round;
        let in_round = index % games_per_round;
        let encounter = in_round / games_per_encounter;
        let in_encounter = in_round % games_per_encounter;
        let k = in_encounter / 2;
        let (a, b) = self.pairings[usize::try_from(encounter).ok()?];
        let (black, white) = if in_encounter.is_multiple_of(2) {
            (a, b)
        } else {
            (b, a)
        };
        Some(GameSpec {
            number,
            round: u32::try_from(round + 1).ok()?,
            pair: (round * self.pairings.len() as u64 + encounter) * self.pairs_per_encounter + k,
            opening: round * self.pairs_per_encounter + k,
            black,
            white,
        })
    }

    /// Every game, in order.
    #[cfg(test)]
    pub fn games(&self) -> impl Iterator<Item = GameSpec> + '_ {
        (1..=self.len).filter_map(|n| self.game(n))
    }

    /// How many games `shard` plays (all when `None`).
    #[must_use]
    pub fn games_in_shard(&self, shard: Option<Shard>) -> u64 {
        let pairs = self.len / 2;
        match shard {
            None => self.len,
            Some(s) if pairs > u64::from(s.index) => {
                2 * ((pairs - 1 - u64::from(s.index)) / u64::from(s.count) + 1)
            }
            Some(_) => 0,
        }
    }
}

/// The games still to play: those of a shard not already played, handed out in order.
#[derive(Debug)]
pub struct Pending {
    schedule: Schedule,
    shard: Option<Shard>,
    done: HashSet<u64>,
    next: u64,
    left: u64,
}

impl Pending {
    /// The games of `schedule` in `shard` whose numbers are not in `done`.
    #[must_use]
    pub fn new(schedule: Schedule, shard: Option<Shard>, done: HashSet<u64>) -> Pending {
        let done_here = done
            .iter()
            .filter_map(|&n| schedule.game(n))
            .filter(|g| in_shard(g, shard))
            .count() as u64;
        let left = schedule.games_in_shard(shard) - done_here;
        Pending {
            schedule,
            shard,
            done,
            next: 1,
            left,
        }
    }

    /// How many games are left to hand out.
    #[must_use]
    pub fn left(&self) -> u64 {
        self.left
    }
}

impl Iterator for Pending {
    type Item = GameSpec;

    fn next(&mut self) -> Option<GameSpec> {
        loop {
            let game = self.schedule.game(self.next)?;
            self.next += 1;
            if in_shard(&game, self.shard) && !self.done.contains(&game.number) {
                self.left -= 1;
                return Some(game);
            }
        }
    }
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
        let schedule = Schedule::new(2, TournamentKind::RoundRobin, 4, 3).unwrap();
        let games: Vec<GameSpec> = schedule.games().collect();
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
    fn games_are_numbered_rounds_then_pairings_then_pairs() {
        let schedule = Schedule::new(3, TournamentKind::RoundRobin, 4, 2).unwrap();
        let games: Vec<GameSpec> = schedule.games().collect();
        assert_eq!(games.len(), 24);
        let mut pair = 0;
        let mut number = 1;
        for round in 1..=2 {
            for (a, b) in pairings(3, TournamentKind::RoundRobin) {
                for k in 0..2 {
                    for (black, white) in [(a, b), (b, a)] {
                        let expected = GameSpec {
                            number,
                            round,
                            pair,
                            opening: u64::from(round - 1) * 2 + k,
                            black,
                            white,
                        };
                        assert_eq!(games[number as usize - 1], expected);
                        number += 1;
                    }
                    pair += 1;
                }
            }
        }
        assert_eq!(schedule.game(25), None);
        assert_eq!(schedule.game(0), None);
    }

    #[test]
    fn a_schedule_too_long_to_count_is_refused() {
        assert!(Schedule::new(2, TournamentKind::RoundRobin, u32::MAX - 1, u32::MAX).is_some());
        let many = Schedule::new(200, TournamentKind::RoundRobin, u32::MAX - 1, u32::MAX);
        assert_eq!(many, None);
    }

    #[test]
    fn shards_split_the_pairs_between_them() {
        let schedule = Schedule::new(3, TournamentKind::RoundRobin, 2, 5).unwrap();
        let games: Vec<GameSpec> = schedule.games().collect();
        let shards: Vec<Shard> = (0..4).map(|index| Shard { index, count: 4 }).collect();
        for g in &games {
            let owners = shards.iter().filter(|s| in_shard(g, Some(**s))).count();
            assert_eq!(owners, 1, "game {} is played by {owners} shards", g.number);
        }
        for s in &shards {
            let mine = games.iter().filter(|g| in_shard(g, Some(*s))).count() as u64;
            assert_eq!(schedule.games_in_shard(Some(*s)), mine);
            let mut pending = Pending::new(schedule.clone(), Some(*s), HashSet::from([1, 2, 3]));
            let left = pending.left();
            let handed: Vec<GameSpec> = pending.by_ref().collect();
            assert_eq!(handed.len() as u64, left);
            assert_eq!(pending.left(), 0);
            assert!(handed.iter().all(|g| g.number > 3 && in_shard(g, Some(*s))));
        }
    }
}
