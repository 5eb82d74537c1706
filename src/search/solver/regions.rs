//! Splitting a position into regions that can never interact again.
//!
//! Once no jump of either side can ever involve squares of two different regions, the
//! game is the disjunctive sum of the regions (Ernst, "Playing Konane Mathematically",
//! 1995): each move is made in one region and changes nothing elsewhere. The solver
//! uses this in two ways:
//!
//! - stones that no future jump can involve (dead stones) are dropped from the position,
//!   so positions that differ only in dead stones share a table entry;
//! - a region where only one side can ever move is an integer in combinatorial game
//!   theory: the longest run of moves its owner can make there. It is taken off the
//!   board and added to the node's spare moves (see [`Node`](super::node::Node)).
//!
//! # Which jumps can still happen
//!
//! A jump `a -> c` over `b` (three squares in a line) needs `a` and `b` occupied *at the
//! same time*. The analysis computes a set `P` of neighbouring square pairs that holds
//! every pair that can ever be occupied at the same time, now or later; a jump whose
//! `(a, b)` is not in `P` can never be made. `P` is the least fixed point of:
//!
//! 1. every pair of neighbouring occupied squares is in `P`;
//! 2. a square `c` is *landable from direction d, over victim v* if the pair `(a, v)` of
//!    the jump into `c` along `d` is in `P`;
//! 3. a pair `(c, z)` is in `P` if both squares are occupied now or landable, and *each*
//!    of the two squares, say `c`, is occupied now, or landable over a victim other
//!    than `z`, or its partner `z` is landable.
//!
//! Why rule 3 is enough (induction on time): suppose `c` and `z` are both occupied at
//! some moment. Take `c`. Either its stone has stood there since now (`c` occupied
//! now), or it last arrived by a jump over some `v`, and that jump's pair was occupied
//! at once earlier, so by induction `c` is landable over `v`. If that `v` is `z`, then
//! `z` was emptied by the jump and has been filled again since, by a landing, so `z` is
//! landable. The same holds for `z`'s side. Every rule only grows the sets when `P`
//! grows, so iterating from rule 1 reaches the least fixed point, and it contains every
//! pair that can ever be occupied at once. A jump inside a multi-jump is a jump like
//! any other for this argument (the squares it passes are occupied at that moment).
//!
//! Rule 3 is what makes the analysis useful: without its "victim other than `z`"
//! condition a stone that jumps out of a group would count as still next to the stone
//! it has just taken, and every line of the board would seem reachable.
//!
//! The *potential jumps* are the jumps whose pair is in `P` (the landing square is then
//! landable, hence in play). Regions are the classes of squares linked by potential
//! jumps. Every future jump is a potential jump, and a jump's legality depends only on
//! its own squares, so each region's moves depend only on that region's stones and
//! change nothing outside it: a sum of independent games. A stone on no potential jump
//! never moves and is never taken: it is dead, and removing it enables no jump either
//! (a jump landing on its square would be a potential jump, making it live).
//!
//! A region whose potential jumps all start on squares of one colour can only ever be
//! moved in by that colour; its value is the longest run of moves that side can make
//! there, found by a small exhaustive search.

use std::collections::HashMap;

use crate::rules::{Bitboard, Color, Direction, Geometry, Position};

/// Who can ever move in a region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Both sides may: a real game.
    Mixed,
    /// Only this side.
    Only(Color),
}

/// One region: its squares (stones and the empty squares its jumps may use).
#[derive(Clone, Copy, Debug)]
pub(super) struct Region<B> {
    /// The squares of the region.
    pub squares: B,
    /// Who can move in it.
    pub kind: Kind,
}

/// Largest one-sided region (in positions searched) worth valuing exactly; bigger ones
/// are left on the board as ordinary regions.
const RUN_SEARCH_LIMIT: usize = 20_000;

/// The board masks the analysis runs on.
pub(super) struct Regions<B: 'static> {
    geo: &'static Geometry<B>,
    /// Squares with a neighbour to the north and to the east (pair orientations 0, 1).
    pair_mask: [B; 2],
    /// Bit index change of one step, per direction (north, east, south, west).
    step: [i32; 4],
    /// Squares a jump in each direction can start from.
    jump_from: [B; 4],
    runs: HashMap<B, u8>,
}

impl<B: Bitboard> Regions<B> {
    /// The analysis for `geo`'s board.
    pub fn new(geo: &'static Geometry<B>) -> Regions<B> {
        let mut pair_mask = [B::EMPTY; 2];
        for sq in geo.board().squares() {
            for (o, dir) in [Direction::North, Direction::East].into_iter().enumerate() {
                if geo.neighbour(sq, dir).is_some() {
                    pair_mask[o] |= B::single(sq);
                }
            }
        }
        Regions {
            geo,
            pair_mask,
            step: Direction::ALL.map(|d| geo.step(d)),
            jump_from: Direction::ALL.map(|d| geo.jump_from(d)),
            runs: HashMap::new(),
        }
    }

    /// The potential jumps of a board with stones on `occupied`: for each direction, the
    /// squares a potential jump in that direction starts from.
    pub fn potential_jumps(&self, occupied: B) -> [B; 4] {
        let step = self.step;
        let mut pairs = [0, 1].map(|o| occupied & occupied.shifted(-step[o]) & self.pair_mask[o]);
        loop {
            let starts = self.starts(&pairs);
            let land: [B; 4] = std::array::from_fn(|d| starts[d].shifted(2 * step[d]));
            let any = land[0] | land[1] | land[2] | land[3];
            let ever = occupied | any;
            let mut next = pairs;
            for (o, pair) in next.iter_mut().enumerate() {
                let s = step[o];
                // A landing along direction d takes the stone one step back along d.
                // On c's side, the landing that takes z comes along the opposite of o;
                // on z's side, the landing that takes c comes along o.
                let c_side = occupied | except(&land, o + 2) | any.shifted(-s);
                let z_side = occupied | except(&land, o) | any.shifted(s);
                *pair |= ever & ever.shifted(-s) & self.pair_mask[o] & c_side & z_side.shifted(-s);
            }
            if next == pairs {
                return starts;
            }
            pairs = next;
        }
    }

    /// Start squares of the jumps whose (start, victim) pair is in `pairs`.
    #[inline(always)]
    fn starts(&self, pairs: &[B; 2]) -> [B; 4] {
        // A pair bit sits on the lower square of the pair; a jump south or west starts
        // on the upper one.
        [
            pairs[0] & self.jump_from[0],
            pairs[1] & self.jump_from[1],
            pairs[0].shifted(self.step[0]) & self.jump_from[2],
            pairs[1].shifted(self.step[1]) & self.jump_from[3],
        ]
    }

    /// Splits the board into regions (into `out`) and returns the squares in play: the
    /// union of the regions. Occupied squares outside it hold dead stones.
    pub fn split(&self, occupied: B, out: &mut Vec<Region<B>>) -> B {
        out.clear();
        let jumps = self.potential_jumps(occupied);
        let step = self.step;
        let mut live = B::EMPTY;
        for d in 0..4 {
            live |= jumps[d] | jumps[d].shifted(step[d]) | jumps[d].shifted(2 * step[d]);
        }
        let starts = jumps[0] | jumps[1] | jumps[2] | jumps[3];
        let black = self.geo.squares_of(Color::Black);
        let mut left = live;
        while !left.is_empty() {
            let mut region = B::single(left.lowest());
            loop {
                let mut grown = region;
                for d in 0..4 {
                    let s = step[d];
                    // Jumps touching the region at any of their three squares. The start
                    // masks keep whole jumps on the board, so shifts cannot wrap a rank.
                    let touching =
                        jumps[d] & (region | region.shifted(-s) | region.shifted(-2 * s));
                    grown |= touching | touching.shifted(s) | touching.shifted(2 * s);
                }
                if grown == region {
                    break;
                }
                region = grown;
            }
            left &= !region;
            let movers = starts & region;
            let kind = if (movers & !black).is_empty() {
                Kind::Only(Color::Black)
            } else if (movers & black).is_empty() {
                Kind::Only(Color::White)
            } else {
                Kind::Mixed
            };
            out.push(Region {
                squares: region,
                kind,
            });
        }
        live
    }

    /// The most moves `colour` can make in a row with the stones `stones` (a region
    /// only `colour` can move in), or `None` when that is too costly to find.
    pub fn longest_run(&mut self, stones: B, colour: Color) -> Option<u8> {
        if self.runs.len() > RUN_SEARCH_LIMIT {
            self.runs.clear();
        }
        let mut budget = RUN_SEARCH_LIMIT;
        self.run(stones, colour, &mut budget)
    }

    fn run(&mut self, stones: B, colour: Color, budget: &mut usize) -> Option<u8> {
        if let Some(&n) = self.runs.get(&stones) {
            return Some(n);
        }
        *budget = budget.checked_sub(1)?;
        let pos = Position::new(self.geo, stones, colour).ok()?;
        let mut best = 0u8;
        for &m in pos.legal_moves().iter() {
            let n = self.run(stones ^ m.toggled(), colour, budget)?;
            best = best.max(n.saturating_add(1));
        }
        // Both colours' runs share the map: a region's stones tell whose region it is.
        self.runs.insert(stones, best);
        Some(best)
    }
}

/// The union of `land` without entry `skip`.
#[inline(always)]
fn except<B: Bitboard>(land: &[B; 4], skip: usize) -> B {
    let mut acc = B::EMPTY;
    for (d, &l) in land.iter().enumerate() {
        if d != skip {
            acc |= l;
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{AnyPosition, MultiJump, Opening};
    use crate::search::solver::test_support::{any_opening_variants, random_move, random_position};
    use crate::with_position;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// The claim the solver relies on, checked by brute force: from a position, along
    /// random games to the end, every move lies inside one region, only its owner moves
    /// in a one-sided region, and dead stones never move nor are taken.
    fn moves_stay_in_their_regions<B: Bitboard>(
        start: Position<B>,
        rng: &mut StdRng,
        seen: &mut [usize; 3],
    ) {
        let analysis = Regions::new(start.geometry());
        for _ in 0..30 {
            // Late positions, where regions split off.
            let squares = start.occupied().count();
            let stones = rng.random_range(squares / 8..squares / 2);
            let pos = random_position(start, stones, rng);
            let mut regions = Vec::new();
            let live = analysis.split(pos.occupied(), &mut regions);
            seen[0] += usize::from(regions.len() > 1);
            seen[1] += usize::from(!(pos.occupied() & !live).is_empty());
            seen[2] += usize::from(regions.iter().any(|r| r.kind != Kind::Mixed));
            for _ in 0..20 {
                let mut game = pos;
                while let Some(m) = random_move(&game, rng) {
                    let touched = B::single(m.from()) | B::single(m.to()) | m.captured();
                    assert!(
                        (touched & !live).is_empty(),
                        "{pos}: {m:?} touches a dead stone"
                    );
                    let region = regions
                        .iter()
                        .find(|r| (touched & !r.squares).is_empty())
                        .unwrap_or_else(|| panic!("{pos}: {m:?} crosses regions"));
                    if let Kind::Only(owner) = region.kind {
                        assert_eq!(
                            game.side_to_move(),
                            owner,
                            "{pos}: {m:?} in a one-sided region"
                        );
                    }
                    game.play_unchecked(m);
                }
            }
        }
    }

    #[test]
    fn no_move_ever_leaves_its_region() {
        let mut rng = StdRng::seed_from_u64(5);
        // Positions with several regions, with dead stones, with one-sided regions.
        let mut seen = [0; 3];
        for variant in any_opening_variants(&[(8, 8), (6, 6), (7, 5), (4, 9), (10, 9)]) {
            with_position!(AnyPosition::start(variant), start => {
                moves_stay_in_their_regions(start, &mut rng, &mut seen);
            });
        }
        assert!(
            seen.iter().all(|&n| n >= 20),
            "too few interesting positions: {seen:?}"
        );
    }

    fn position(text: &str) -> Position<u64> {
        match AnyPosition::from_text(text, Opening::Diagonal, MultiJump::Straight).unwrap() {
            AnyPosition::Small(p) => p,
            _ => unreachable!("test boards are small"),
        }
    }

    fn regions(text: &str) -> (Vec<Region<u64>>, u64, Position<u64>) {
        let pos = position(text);
        let analysis = Regions::new(pos.geometry());
        let mut out = Vec::new();
        let live = analysis.split(pos.occupied(), &mut out);
        (out, live, pos)
    }

    #[test]
    fn a_stone_that_jumps_away_leaves_its_victim_behind() {
        // b w . . . . on one rank: black can take once and then nothing is left.
        let (out, _, _) = regions("bw4/6 b");
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].kind, Kind::Only(Color::Black));
        assert_eq!(out[0].squares.count(), 3);
    }

    #[test]
    fn lone_stones_far_apart_are_dead() {
        let (out, live, pos) = regions("b5/6/6/6/6/5b b");
        assert!(out.is_empty());
        assert_eq!(live & pos.occupied(), 0);
    }

    #[test]
    fn separated_groups_are_separate_regions() {
        // A black-white pair in one corner, a white-black pair in the other.
        let (out, _, _) = regions("bw4/6/6/6/6/wb4 w");
        assert_eq!(out.len(), 2);
        let kinds: Vec<Kind> = out.iter().map(|r| r.kind).collect();
        assert!(kinds.contains(&Kind::Only(Color::Black)));
        assert!(kinds.contains(&Kind::Only(Color::White)));
    }

    #[test]
    fn one_sided_runs_count_the_longest_sequence() {
        // b w . w . w on one rank: black can take three times in a row, one at a time.
        let pos = position("bw1w1w1/7 b");
        let mut analysis = Regions::new(pos.geometry());
        assert_eq!(analysis.longest_run(pos.occupied(), Color::Black), Some(3));
    }
}
