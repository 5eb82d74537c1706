//! The combinatorial game values of Konane positions whose board has fallen apart into
//! regions that can no longer interact.
//!
//! Once the region analysis ([`regions`](super::regions)) splits a position into
//! independent regions, the position is the disjunctive sum of the regions, and its
//! outcome follows from the sum of their values ([`games`](super::games)). The search
//! below such a node plays out every interleaving of the regions' moves; the value of
//! each region is found once, by a search of that region alone, and added. Two regions
//! of ten positions each are a hundred positions to the proof search and twenty here.
//!
//! The value of a set of stones: if the analysis splits it (into more than one region,
//! or into fewer stones by dropping dead ones), the sum of the values of the parts;
//! otherwise `{values after each black move | values after each white move}` in
//! canonical form. Black is Left. A region's moves are those of its stones alone on the
//! board: a stone of another region (or a dead one) on a square this region's jumps could
//! land on would make that jump a potential jump, joining the two, so no move is gained or
//! lost by taking the other stones away.
//!
//! Values are remembered by their stones, so a region met again anywhere in the proof is
//! not searched again. The work is capped per question (the budget of
//! [`Values::mover_wins`]) and the memory per thread ([`MAX_ENTRIES`]).

use std::collections::HashMap;

use crate::rules::{Bitboard, Color, Geometry, Position};

use super::games::{GameId, Games, ZERO};
use super::regions::{Region, Regions};

/// Most entries (values, interned forms, remembered comparisons and sums) one thread
/// keeps; past it everything is forgotten before the next question (about 100 bytes an
/// entry, so a few hundred megabytes).
pub(super) const MAX_ENTRIES: usize = 4_000_000;

/// Values of sets of stones on one board.
pub(super) struct Values<B: 'static> {
    geo: &'static Geometry<B>,
    regions: Regions<B>,
    games: Games,
    memo: HashMap<B, GameId>,
    /// Positions that may still be searched for the current question.
    budget: usize,
}

impl<B: Bitboard> Values<B> {
    /// Values of positions on `geo`'s board.
    pub fn new(geo: &'static Geometry<B>) -> Values<B> {
        Values {
            geo,
            regions: Regions::new(geo),
            games: Games::new(),
            memo: HashMap::new(),
            budget: 0,
        }
    }

    /// Whether the side to move wins the sum of the regions `parts` of the stones
    /// `occupied` plus `spares` moves of black's (white's when negative) that nobody
    /// else can touch (`None` when valuing them would search more than `budget` new
    /// positions), and the number of new positions searched.
    pub fn mover_wins(
        &mut self,
        occupied: B,
        parts: &[Region<B>],
        spares: i32,
        mover: Color,
        budget: usize,
    ) -> (Option<bool>, usize) {
        if self.games.size() + self.memo.len() > MAX_ENTRIES {
            self.games.clear();
            self.memo.clear();
        }
        self.budget = budget;
        let answer = self.sum_wins(occupied, parts, spares, mover);
        (answer, budget - self.budget)
    }

    fn sum_wins(
        &mut self,
        occupied: B,
        parts: &[Region<B>],
        spares: i32,
        mover: Color,
    ) -> Option<bool> {
        let mut total = self.games.integer(spares);
        for part in parts {
            let value = self.value(occupied & part.squares)?;
            total = self.games.sum(total, value);
        }
        Some(match mover {
            Color::Black => self.games.left_wins_first(total),
            Color::White => self.games.right_wins_first(total),
        })
    }

    /// The value of the stones `stones` in the jumping phase, or `None` when the budget
    /// runs out first.
    fn value(&mut self, stones: B) -> Option<GameId> {
        if let Some(&g) = self.memo.get(&stones) {
            return Some(g);
        }
        self.budget = self.budget.checked_sub(1)?;
        let mut parts = Vec::new();
        let live = self.regions.split(stones, &mut parts);
        let g = if parts.len() == 1 && (stones & !live).is_empty() {
            let mut left = Vec::new();
            let mut right = Vec::new();
            let black = Position::new(self.geo, stones, Color::Black).ok()?;
            let white = black.with_other_side_to_move()?;
            for (pos, options) in [(black, &mut left), (white, &mut right)] {
                for &m in pos.legal_moves().iter() {
                    options.push(self.value(stones ^ m.toggled())?);
                }
            }
            self.games.canonical(left, right)
        } else {
            let mut sum = ZERO;
            for part in &parts {
                let value = self.value(stones & part.squares)?;
                sum = self.games.sum(sum, value);
            }
            sum
        };
        self.memo.insert(stones, g);
        Some(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{AnyPosition, BoardSize, MultiJump, Opening, Variant};
    use crate::search::solver::test_support::{any_opening_variants, random_position};
    use crate::with_position;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// Whether the side to move wins, by plain minimax over the whole board.
    fn minimax<B: Bitboard>(pos: &Position<B>, memo: &mut HashMap<(B, bool), bool>) -> bool {
        let key = (pos.occupied(), pos.side_to_move() == Color::Black);
        if let Some(&known) = memo.get(&key) {
            return known;
        }
        let wins = pos
            .legal_moves()
            .iter()
            .any(|&m| !minimax(&pos.after(m), memo));
        memo.insert(key, wins);
        wins
    }

    fn values_agree_with_minimax<B: Bitboard>(start: Position<B>, rng: &mut StdRng) -> usize {
        let mut values = Values::new(start.geometry());
        let mut memo = HashMap::new();
        let mut split_positions = 0;
        for _ in 0..80 {
            let squares = start.occupied().count();
            let stones = rng.random_range(squares / 5..squares / 2);
            let pos = random_position(start, stones, rng);
            let mut parts = Vec::new();
            values.regions.split(pos.occupied(), &mut parts);
            split_positions += usize::from(parts.len() > 1);
            let spares = rng.random_range(-2..=2);
            let mover = pos.side_to_move();
            let by_value = values
                .mover_wins(pos.occupied(), &parts, spares, mover, usize::MAX)
                .0
                .unwrap();
            // Spare moves as stones: check them only when there are none.
            if spares == 0 {
                assert_eq!(by_value, minimax(&pos, &mut memo), "{pos}");
            }
            // The other side to move, through the same sum.
            let other = values
                .mover_wins(pos.occupied(), &parts, 0, mover.opponent(), usize::MAX)
                .0
                .unwrap();
            if let Some(flipped) = pos.with_other_side_to_move() {
                assert_eq!(other, minimax(&flipped, &mut memo), "{flipped}");
            }
        }
        split_positions
    }

    #[test]
    fn sums_of_region_values_give_the_minimax_winner() {
        let mut rng = StdRng::seed_from_u64(17);
        let mut split = 0;
        for variant in any_opening_variants(&[(5, 4), (6, 4), (4, 5), (7, 3), (5, 5)]) {
            with_position!(AnyPosition::start(variant), start => {
                split += values_agree_with_minimax(start, &mut rng);
            });
        }
        assert!(split >= 50, "too few positions in several regions: {split}");
    }

    #[test]
    fn a_budget_too_small_gives_up() {
        let variant = Variant {
            size: BoardSize::new(5, 4).unwrap(),
            opening: Opening::Any,
            multi_jump: MultiJump::Straight,
        };
        let AnyPosition::Small(mut pos) = AnyPosition::start(variant) else {
            unreachable!("small board")
        };
        for _ in 0..2 {
            pos.play_unchecked(pos.legal_moves().as_slice()[0]);
        }
        let mut values = Values::new(pos.geometry());
        let mut parts = Vec::new();
        values.regions.split(pos.occupied(), &mut parts);
        assert_eq!(
            values
                .mover_wins(pos.occupied(), &parts, 0, Color::Black, 10)
                .0,
            None
        );
        let mut memo = HashMap::new();
        assert_eq!(
            values
                .mover_wins(pos.occupied(), &parts, 0, Color::Black, usize::MAX)
                .0,
            Some(minimax(&pos, &mut memo))
        );
    }
}
