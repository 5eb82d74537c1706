//! Legal move generation and counting.
//!
//! Under the straight rule all stones are handled at once, a direction at a time: the
//! set of stones able to make a first jump east, shifted two squares, is the set of
//! landing squares; those of them able to jump on are the second landings, and so on.
//! Counting the moves of a position (bulk counting at the last ply of perft, mobility
//! in the evaluation) is then a few shifts and popcounts per direction.
//!
//! Under the turning rule the first jumps are found the same way; only stones that can
//! jump on walk their paths depth first. Every prefix of a path is a move, so the walk
//! does one step of work per move.

use super::bitboard::Bitboard;
use super::geometry::Geometry;
use super::moves::{MAX_MOVES, Move, MoveList};
use super::position::{Phase, Position};
use super::square::Direction;
use super::variant::{Color, MultiJump};

/// How mobile one side's stones are (see [`Position::mobility`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mobility {
    /// Jump moves (jump paths under the turning rule).
    pub moves: u64,
    /// Stones with at least one jump.
    pub movable_stones: u32,
}

/// The squares a stone can jump from in one direction, and how to shift along it.
struct Lane<B> {
    /// Squares from which a jump in this direction is possible right now (enemy stone
    /// next, empty square beyond), whoever stands on them.
    open: B,
    /// Bit index change of one step.
    step: i32,
}

impl<B: Bitboard> Lane<B> {
    /// The straight jumps of `movers` along the lane: each stone's first jump, then each
    /// further one its landing square allows.
    #[inline(always)]
    fn count_jumps(&self, movers: B) -> u64 {
        let mut total = 0u64;
        let mut stones = movers & self.open;
        while !stones.is_empty() {
            total += u64::from(stones.count());
            stones = stones.shifted(2 * self.step) & self.open;
        }
        total
    }
}

impl<B: Bitboard> Position<B> {
    #[inline(always)]
    fn lane(&self, dir: Direction, enemy: B, empty: B) -> Lane<B> {
        let step = self.geometry().step(dir);
        let open = self.geometry().jump_from(dir) & enemy.shifted(-step) & empty.shifted(-2 * step);
        Lane { open, step }
    }

    /// Number of legal moves (jump paths under the turning rule), without making them.
    /// Stops counting past [`MAX_MOVES`] paths, where generation would stop too.
    #[inline]
    #[must_use]
    pub fn count_moves(&self) -> u64 {
        match self.phase() {
            Phase::Jumping => self.count_jumps(self.side_to_move()),
            _ => self.removals().count() as u64,
        }
    }

    /// Number of jump moves `colour` would have if it were to move (mobility).
    #[inline]
    #[must_use]
    pub fn count_jumps(&self, colour: Color) -> u64 {
        let own = self.stones(colour);
        let enemy = self.stones(colour.opponent());
        let empty = self.empty();
        match self.variant().multi_jump {
            MultiJump::Straight => Direction::ALL
                .iter()
                .map(|&dir| self.lane(dir, enemy, empty).count_jumps(own))
                .sum(),
            MultiJump::Turning => {
                let mut counter = PathCounter { count: 0 };
                self.walk_turning(own, enemy, empty, &mut counter);
                counter.count
            }
        }
    }

    /// How mobile the stones of `colour` are, as if it were to move: its jump moves
    /// (paths under the turning rule) and how many of its stones can jump at all.
    #[inline]
    #[must_use]
    pub fn mobility(&self, colour: Color) -> Mobility {
        let own = self.stones(colour);
        let enemy = self.stones(colour.opponent());
        let empty = self.empty();
        let mut movable = B::EMPTY;
        let mut moves = 0u64;
        for dir in Direction::ALL {
            let lane = self.lane(dir, enemy, empty);
            movable |= own & lane.open;
            if self.variant().multi_jump == MultiJump::Straight {
                moves += lane.count_jumps(own);
            }
        }
        if self.variant().multi_jump == MultiJump::Turning {
            moves = self.count_jumps(colour);
        }
        Mobility {
            moves,
            movable_stones: movable.count(),
        }
    }

    /// Whether the side to move has any legal move.
    #[inline]
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        match self.phase() {
            Phase::Jumping => {
                let own = self.stones(self.side_to_move());
                let enemy = self.stones(self.side_to_move().opponent());
                let empty = self.empty();
                // The first jump is the same under both rules.
                Direction::ALL
                    .iter()
                    .any(|&dir| !(own & self.lane(dir, enemy, empty).open).is_empty())
            }
            _ => !self.removals().is_empty(),
        }
    }

    /// The stones the side to move may remove in an opening phase.
    fn removals(&self) -> B {
        match self.phase() {
            Phase::BlackRemoval => self.stones(Color::Black) & self.geometry().first_removals(),
            Phase::WhiteRemoval => {
                let geo = self.geometry();
                let gap = self.empty().lowest();
                Direction::ALL
                    .iter()
                    .filter_map(|&d| geo.neighbour(gap, d))
                    .fold(B::EMPTY, |acc, sq| acc | B::single(sq))
                    & self.stones(Color::White)
            }
            Phase::Jumping => B::EMPTY,
        }
    }

    /// Fills `list` with the legal moves, each effect once: under the turning rule two
    /// paths that capture the same stones and end on the same square are one move here.
    pub fn generate(&self, list: &mut MoveList<B>) {
        self.generate_into(list, true);
    }

    /// Fills `list` with one entry per legal move sequence, as perft counts them: under
    /// the turning rule, paths with the same effect appear once each.
    pub fn generate_paths(&self, list: &mut MoveList<B>) {
        self.generate_into(list, false);
    }

    /// The legal moves, each effect once.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList<B> {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    fn generate_into(&self, list: &mut MoveList<B>, merge_paths: bool) {
        list.clear();
        if self.phase() != Phase::Jumping {
            for sq in self.removals().squares() {
                list.push(Move::removal(sq));
            }
            return;
        }
        let own = self.stones(self.side_to_move());
        let enemy = self.stones(self.side_to_move().opponent());
        let empty = self.empty();
        match self.variant().multi_jump {
            MultiJump::Straight => self.generate_straight(own, enemy, empty, list),
            MultiJump::Turning => {
                let mut sink = ListSink { list, merge_paths };
                self.walk_turning(own, enemy, empty, &mut sink);
            }
        }
    }

    #[inline]
    fn generate_straight(&self, own: B, enemy: B, empty: B, list: &mut MoveList<B>) {
        for dir in Direction::ALL {
            let lane = self.lane(dir, enemy, empty);
            let mut stones = own & lane.open;
            let mut jumps = 1;
            while !stones.is_empty() {
                let landings = stones.shifted(2 * lane.step);
                for to in landings.squares() {
                    let from = (to as i32 - 2 * jumps * lane.step) as usize;
                    let mut captured = B::EMPTY;
                    let mut over = from as i32 + lane.step;
                    for _ in 0..jumps {
                        captured |= B::single(over as usize);
                        over += 2 * lane.step;
                    }
                    list.push(Move::jump(from, to, captured));
                }
                stones = landings & lane.open;
                jumps += 1;
            }
        }
    }

    /// Walks every turning-rule jump path of the stones in `own`, telling `sink` of each.
    fn walk_turning(&self, own: B, enemy: B, empty: B, sink: &mut impl PathSink<B>) {
        let geo = self.geometry();
        let lanes = Direction::ALL.map(|dir| self.lane(dir, enemy, empty));
        // A second jump never passes the square just left or the stone just taken (that
        // would be straight back), so the first-jump masks tell which landings go on.
        let open_anywhere = lanes.iter().fold(B::EMPTY, |acc, lane| acc | lane.open);
        for lane in &lanes {
            let landings = (own & lane.open).shifted(2 * lane.step);
            if landings.is_empty() {
                continue;
            }
            if !sink.first_jumps(landings, lane.step) {
                return;
            }
            for to in (landings & open_anywhere).squares() {
                let from = (to as i32 - 2 * lane.step) as usize;
                let over = (to as i32 - lane.step) as usize;
                // Landing squares are of the mover's colour and captured stones of the
                // other, so the squares a path may land on are the empty ones plus its
                // own start, for the whole walk.
                let walk = Walk {
                    geo,
                    from,
                    landable: empty | B::single(from),
                };
                let visited = B::single(from) | B::single(to);
                if !walk.step(
                    to,
                    enemy ^ B::single(over),
                    B::single(over),
                    visited,
                    false,
                    sink,
                ) {
                    return;
                }
            }
        }
    }
}

/// One stone's path walk under the turning rule.
struct Walk<B: 'static> {
    geo: &'static Geometry<B>,
    from: usize,
    landable: B,
}

impl<B: Bitboard> Walk<B> {
    /// Extends the path that stands on `at`; returns `false` once the sink wants no more.
    fn step(
        &self,
        at: usize,
        enemy: B,
        captured: B,
        visited: B,
        revisited: bool,
        sink: &mut impl PathSink<B>,
    ) -> bool {
        for dir in Direction::ALL {
            if !self.geo.jump_from(dir).has(at) {
                continue;
            }
            let step = self.geo.step(dir);
            let over = (at as i32 + step) as usize;
            let to = (at as i32 + 2 * step) as usize;
            if !enemy.has(over) || !self.landable.has(to) {
                continue;
            }
            let captured = captured | B::single(over);
            let revisited = revisited || visited.has(to);
            if !sink.path(Move::jump(self.from, to, captured), revisited) {
                return false;
            }
            if !self.step(
                to,
                enemy ^ B::single(over),
                captured,
                visited | B::single(to),
                revisited,
                sink,
            ) {
                return false;
            }
        }
        true
    }
}

/// Receives the jump paths found by a turning-rule walk.
trait PathSink<B: Bitboard> {
    /// The single jumps landing on `landings`, each `2 * step` from its start.
    fn first_jumps(&mut self, landings: B, step: i32) -> bool {
        landings.squares().all(|to| {
            let over = (to as i32 - step) as usize;
            let from = (to as i32 - 2 * step) as usize;
            self.path(Move::jump(from, to, B::single(over)), false)
        })
    }
    /// A path with effect `m`; `revisited` says whether it landed twice on a square,
    /// which is the only way two paths can share an effect. Returns `false` to stop.
    fn path(&mut self, m: Move<B>, revisited: bool) -> bool;
}

struct PathCounter {
    count: u64,
}

impl<B: Bitboard> PathSink<B> for PathCounter {
    #[inline]
    fn first_jumps(&mut self, landings: B, _: i32) -> bool {
        self.count += u64::from(landings.count());
        self.count <= MAX_MOVES as u64
    }

    #[inline]
    fn path(&mut self, _: Move<B>, _: bool) -> bool {
        self.count += 1;
        self.count <= MAX_MOVES as u64
    }
}

struct ListSink<'a, B> {
    list: &'a mut MoveList<B>,
    merge_paths: bool,
}

impl<B: Bitboard> PathSink<B> for ListSink<'_, B> {
    #[inline]
    fn path(&mut self, m: Move<B>, revisited: bool) -> bool {
        // A path that never lands on a square twice is a simple path through its
        // captured stones, and no other path has its effect; only the others need a look.
        if self.merge_paths && revisited && self.list.as_slice().contains(&m) {
            return true;
        }
        self.list.push(m)
    }
}
