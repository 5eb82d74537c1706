//! Tallies of finished games: per player, per pairing, per colour, per pair.

use std::collections::HashMap;

use super::game::{GameRecord, Termination};
use super::stats::{FirstPlayer, PairCounts, Score};
use crate::rules::Color;

/// One player's results.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerTally {
    /// The engine's name.
    pub name: String,
    /// All games.
    pub score: Score,
    /// Games as black (first player).
    pub as_black: Score,
    /// Losses by each way a game can end, in [`Termination::ALL`] order.
    pub losses_by: [u64; Termination::ALL.len()],
}

/// Everything the reports need, computed from the game records and kept up to date one
/// game at a time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standings {
    /// Players in command-line order.
    pub players: Vec<PlayerTally>,
    /// `head_to_head[a][b]`: a's results against b.
    pub head_to_head: Vec<Vec<Score>>,
    /// Black's wins over all games.
    pub first_player: FirstPlayer,
    /// Complete colour-swapped pairs seen from the first player of the list against the
    /// second (only meaningful for a two-engine match).
    pub pairs: PairCounts,
    /// Games counted.
    pub games: u64,
    index: HashMap<String, usize>,
    /// Pairs with one game in: the first player's wins in it.
    open_pairs: HashMap<u64, u8>,
}

impl Standings {
    /// Tallies `records` for players `names`; games of players not named are skipped.
    #[must_use]
    pub fn new(names: &[String], records: &[GameRecord]) -> Standings {
        let n = names.len();
        let mut s = Standings {
            players: names
                .iter()
                .map(|name| PlayerTally {
                    name: name.clone(),
                    ..PlayerTally::default()
                })
                .collect(),
            head_to_head: vec![vec![Score::default(); n]; n],
            index: names
                .iter()
                .enumerate()
                .map(|(i, n)| (n.clone(), i))
                .collect(),
            ..Standings::default()
        };
        for r in records {
            s.add(r);
        }
        s
    }

    /// Counts one more game.
    pub fn add(&mut self, r: &GameRecord) {
        let (Some(&b), Some(&w)) = (self.index.get(&r.black), self.index.get(&r.white)) else {
            return;
        };
        let (winner, loser) = match r.winner {
            Color::Black => (b, w),
            Color::White => (w, b),
        };
        self.games += 1;
        self.players[winner].score.wins += 1;
        self.players[loser].score.losses += 1;
        let black = &mut self.players[b].as_black;
        if r.winner == Color::Black {
            black.wins += 1;
        } else {
            black.losses += 1;
        }
        let t = Termination::ALL
            .iter()
            .position(|&t| t == r.termination)
            .unwrap_or(0);
        self.players[loser].losses_by[t] += 1;
        self.head_to_head[winner][loser].wins += 1;
        self.head_to_head[loser][winner].losses += 1;
        self.first_player.games += 1;
        if r.winner == Color::Black {
            self.first_player.wins += 1;
        }
        if b.min(w) == 0 && b.max(w) == 1 {
            let won = u8::from(winner == 0);
            match self.open_pairs.remove(&r.pair) {
                Some(first) => self.pairs.add(first + won),
                None => {
                    self.open_pairs.insert(r.pair, won);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::openings::StartPosition;

    fn game(pair: u64, black: &str, white: &str, winner: Color) -> GameRecord {
        GameRecord {
            number: 0,
            round: 1,
            pair,
            black: black.into(),
            white: white.into(),
            winner,
            termination: Termination::Normal,
            detail: String::new(),
            opening: StartPosition::Standard,
            moves: Vec::new(),
        }
    }

    #[test]
    fn pairs_count_only_when_both_games_are_in() {
        let names = ["A".to_string(), "B".to_string()];
        let records = [
            game(0, "A", "B", Color::Black),
            game(0, "B", "A", Color::White),
            game(1, "A", "B", Color::Black),
            game(1, "B", "A", Color::Black),
            game(2, "A", "B", Color::White),
        ];
        let s = Standings::new(&names, &records);
        assert_eq!(
            s.pairs,
            PairCounts {
                losses: 0,
                splits: 1,
                wins: 1
            }
        );
        assert_eq!(s.players[0].score, Score { wins: 3, losses: 2 });
        assert_eq!(s.first_player, FirstPlayer { wins: 3, games: 5 });
        assert_eq!(s.head_to_head[1][0], Score { wins: 2, losses: 3 });
    }
}
