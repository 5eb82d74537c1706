//! Short partizan games in canonical form: the arithmetic the solver needs to add up
//! regions of the board that can no longer interact.
//!
//! A game `{L1, L2, ... | R1, R2, ...}` is its options for Left (black) and for Right
//! (white); the player who cannot move loses. Every game equals exactly one game in
//! *canonical form* (no dominated and no reversible options, every option canonical),
//! so once games are kept canonical and interned, two games are equal exactly when their
//! ids are. What the solver asks of a game `G`, the sum of a position's regions:
//!
//! - Left moving first wins exactly when `G` is not `<= 0`;
//! - Right moving first wins exactly when `G` is not `>= 0`.
//!
//! The order: `G <= H` unless some `G^L >= H` or some `H^R <= G`. Sums: `G + H` has the
//! options `G^L + H, G + H^L | G^R + H, G + H^R`. Canonical form: drop a Left option
//! another Left option is `>=` to (a Right option another is `<=` to), and replace a
//! Left option `G^L` that has a Right option `G^LR <= G` (reversible) by the Left
//! options of `G^LR` (for Right, `G^RL >= G`: by the Right options of `G^RL`), until
//! neither applies. Comparisons and sums are remembered; the forms that are not yet
//! canonical, made along the way, are interned too (the order is defined on every
//! form), which is why equal ids mean equal games but unequal ids need not mean
//! unequal ones outside the canonical forms.

use std::collections::HashMap;

/// A game in the arena of a [`Games`].
pub(super) type GameId = u32;

/// The game with no options for either side, `0`.
pub(super) const ZERO: GameId = 0;

/// One form: the options of each side, sorted.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Form {
    left: Box<[GameId]>,
    right: Box<[GameId]>,
}

/// An arena of interned game forms with the order and the sum remembered.
pub(super) struct Games {
    forms: Vec<Form>,
    index: HashMap<Form, GameId>,
    /// `less_equal` results, keyed by the pair.
    order: HashMap<(GameId, GameId), bool>,
    /// `sum` results, keyed by the pair (smaller id first).
    sums: HashMap<(GameId, GameId), GameId>,
}

impl Games {
    /// An arena holding only `0`.
    pub fn new() -> Games {
        let mut games = Games {
            forms: Vec::new(),
            index: HashMap::new(),
            order: HashMap::new(),
            sums: HashMap::new(),
        };
        games.intern(Vec::new(), Vec::new());
        games
    }

    /// Entries held (forms, remembered comparisons and sums): what the arena costs.
    pub fn size(&self) -> usize {
        self.forms.len() + self.order.len() + self.sums.len()
    }

    /// Forgets every game but `0`.
    pub fn clear(&mut self) {
        *self = Games::new();
    }

    fn intern(&mut self, mut left: Vec<GameId>, mut right: Vec<GameId>) -> GameId {
        left.sort_unstable();
        left.dedup();
        right.sort_unstable();
        right.dedup();
        let form = Form {
            left: left.into_boxed_slice(),
            right: right.into_boxed_slice(),
        };
        if let Some(&id) = self.index.get(&form) {
            return id;
        }
        let id = GameId::try_from(self.forms.len()).unwrap_or(GameId::MAX);
        self.forms.push(form.clone());
        self.index.insert(form, id);
        id
    }

    fn left(&self, g: GameId) -> &[GameId] {
        &self.forms[g as usize].left
    }

    fn right(&self, g: GameId) -> &[GameId] {
        &self.forms[g as usize].right
    }

    /// Left's options of `g` when `left`, else Right's.
    fn options(&self, g: GameId, left: bool) -> &[GameId] {
        if left { self.left(g) } else { self.right(g) }
    }

    /// Whether `g <= h`.
    pub fn less_equal(&mut self, g: GameId, h: GameId) -> bool {
        if g == h {
            return true;
        }
        if let Some(&known) = self.order.get(&(g, h)) {
            return known;
        }
        let mut result = true;
        for i in 0..self.left(g).len() {
            let gl = self.left(g)[i];
            if self.less_equal(h, gl) {
                result = false;
                break;
            }
        }
        if result {
            for i in 0..self.right(h).len() {
                let hr = self.right(h)[i];
                if self.less_equal(hr, g) {
                    result = false;
                    break;
                }
            }
        }
        self.order.insert((g, h), result);
        result
    }

    /// The canonical form of the game with these options (each canonical itself).
    pub fn canonical(&mut self, mut left: Vec<GameId>, mut right: Vec<GameId>) -> GameId {
        loop {
            self.drop_dominated(&mut left, true);
            self.drop_dominated(&mut right, false);
            let g = self.intern(left.clone(), right.clone());
            let (new_left, left_changed) = self.bypass_reversible(&left, g, true);
            let (new_right, right_changed) = self.bypass_reversible(&right, g, false);
            let changed = left_changed || right_changed;
            if !changed {
                return g;
            }
            left = new_left;
            right = new_right;
        }
    }

    /// The options of one side of `g` (`left`: Left's) with every reversible one
    /// replaced by the options it reverses to, and whether any was.
    fn bypass_reversible(
        &mut self,
        options: &[GameId],
        g: GameId,
        left: bool,
    ) -> (Vec<GameId>, bool) {
        let mut bypassed = Vec::with_capacity(options.len());
        let mut changed = false;
        for &option in options {
            match self.reversed_by(option, g, left) {
                Some(reply) => {
                    bypassed.extend_from_slice(self.options(reply, left));
                    changed = true;
                }
                None => bypassed.push(option),
            }
        }
        (bypassed, changed)
    }

    /// The option of `option` through which it reverses in `g`, if any: for a Left
    /// option (`left`), a Right option of it `<= g`; for a Right option, a Left option
    /// of it `>= g`.
    fn reversed_by(&mut self, option: GameId, g: GameId, left: bool) -> Option<GameId> {
        (0..self.options(option, !left).len()).find_map(|i| {
            let reply = self.options(option, !left)[i];
            let reverses = if left {
                self.less_equal(reply, g)
            } else {
                self.less_equal(g, reply)
            };
            reverses.then_some(reply)
        })
    }

    /// Drops the options of one side that another option of that side is at least as
    /// good as (`left`: for Left, bigger is better).
    fn drop_dominated(&mut self, options: &mut Vec<GameId>, left: bool) {
        options.sort_unstable();
        options.dedup();
        let mut i = 0;
        while i < options.len() {
            let x = options[i];
            let dominated = (0..options.len()).any(|j| {
                j != i && {
                    let y = options[j];
                    if left {
                        self.less_equal(x, y)
                    } else {
                        self.less_equal(y, x)
                    }
                }
            });
            if dominated {
                options.remove(i);
            } else {
                i += 1;
            }
        }
    }

    /// The canonical form of `g + h` (both canonical).
    pub fn sum(&mut self, g: GameId, h: GameId) -> GameId {
        if g == ZERO {
            return h;
        }
        if h == ZERO {
            return g;
        }
        let key = (g.min(h), g.max(h));
        if let Some(&s) = self.sums.get(&key) {
            return s;
        }
        let left = self.sum_options(g, h, true);
        let right = self.sum_options(g, h, false);
        let s = self.canonical(left, right);
        self.sums.insert(key, s);
        s
    }

    /// The options of one side (`left`: Left's) of `g + h`: a move in either part.
    fn sum_options(&mut self, g: GameId, h: GameId, left: bool) -> Vec<GameId> {
        let mut sums =
            Vec::with_capacity(self.options(g, left).len() + self.options(h, left).len());
        for i in 0..self.options(g, left).len() {
            let moved = self.options(g, left)[i];
            sums.push(self.sum(moved, h));
        }
        for i in 0..self.options(h, left).len() {
            let moved = self.options(h, left)[i];
            sums.push(self.sum(g, moved));
        }
        sums
    }

    /// The integer `n` (`n` moves Left can make that Right cannot touch; negative: Right's).
    pub fn integer(&mut self, n: i32) -> GameId {
        let mut g = ZERO;
        for _ in 0..n.unsigned_abs() {
            g = if n > 0 {
                self.canonical(vec![g], Vec::new())
            } else {
                self.canonical(Vec::new(), vec![g])
            };
        }
        g
    }

    /// Whether Left (black) wins `g` moving first.
    pub fn left_wins_first(&mut self, g: GameId) -> bool {
        !self.less_equal(g, ZERO)
    }

    /// Whether Right (white) wins `g` moving first.
    pub fn right_wins_first(&mut self, g: GameId) -> bool {
        !self.less_equal(ZERO, g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The outcome of `g` by play: (Left wins moving first, Right wins moving first).
    fn played(games: &Games, g: GameId) -> (bool, bool) {
        fn wins(games: &Games, g: GameId, left_to_move: bool) -> bool {
            let options = if left_to_move {
                games.left(g)
            } else {
                games.right(g)
            };
            options.iter().any(|&o| !wins(games, o, !left_to_move))
        }
        (wins(games, g, true), wins(games, g, false))
    }

    /// Whether the side to move wins `a + b` by play.
    fn played_sum(
        games: &Games,
        a: GameId,
        b: GameId,
        left_to_move: bool,
        memo: &mut HashMap<(GameId, GameId, bool), bool>,
    ) -> bool {
        if let Some(&known) = memo.get(&(a, b, left_to_move)) {
            return known;
        }
        let side = |g| {
            if left_to_move {
                games.left(g)
            } else {
                games.right(g)
            }
        };
        let wins = side(a)
            .iter()
            .any(|&o| !played_sum(games, o, b, !left_to_move, memo))
            || side(b)
                .iter()
                .any(|&o| !played_sum(games, a, o, !left_to_move, memo));
        memo.insert((a, b, left_to_move), wins);
        wins
    }

    #[test]
    fn small_games_have_their_textbook_forms() {
        let mut games = Games::new();
        let one = games.integer(1);
        let two = games.integer(2);
        let minus_one = games.integer(-1);
        assert_eq!(games.sum(one, one), two);
        assert_eq!(games.sum(one, minus_one), ZERO);
        // {0 | 1} is 1/2, and 1/2 + 1/2 = 1.
        let half = games.canonical(vec![ZERO], vec![one]);
        assert_eq!(games.sum(half, half), one);
        // {-1 | 1} is 0 (the simplest number between).
        assert_eq!(games.canonical(vec![minus_one], vec![one]), ZERO);
        // * = {0 | 0}: * + * = 0, and * is confused with 0.
        let star = games.canonical(vec![ZERO], vec![ZERO]);
        assert_eq!(games.sum(star, star), ZERO);
        assert!(games.left_wins_first(star) && games.right_wins_first(star));
        // up = {0 | *} is positive but smaller than every positive number; up + * is
        // confused with 0.
        let up = games.canonical(vec![ZERO], vec![star]);
        assert!(games.less_equal(ZERO, up) && !games.less_equal(up, ZERO));
        let quarter = games.canonical(vec![ZERO], vec![half]);
        assert!(games.less_equal(up, quarter) && !games.less_equal(quarter, up));
        let up_star = games.sum(up, star);
        assert!(games.left_wins_first(up_star) && games.right_wins_first(up_star));
        // {1 | 0} + {1 | 0} is not 0 but stays hot: {1 | 0} + {1 | 0} = {1 + {1|0} | {1|0}}.
        let switch = games.canonical(vec![one], vec![ZERO]);
        let double = games.sum(switch, switch);
        assert_ne!(double, ZERO);
        // A dominated option disappears: {0, 1 | } = {1 | } = 2.
        assert_eq!(games.canonical(vec![ZERO, one], Vec::new()), two);
    }

    #[test]
    fn sums_of_random_games_keep_the_outcome_of_play() {
        use rand::rngs::StdRng;
        use rand::{RngExt, SeedableRng};
        let mut rng = StdRng::seed_from_u64(11);
        let mut games = Games::new();
        // Random games built from smaller ones, kept in two forms: canonical (through
        // `canonical`) and as played (interned as they are).
        let mut pool: Vec<(GameId, GameId)> = vec![(ZERO, ZERO)];
        for _ in 0..60 {
            let mut raw = (Vec::new(), Vec::new());
            let mut canon = (Vec::new(), Vec::new());
            for side in 0..2 {
                for _ in 0..rng.random_range(0..3) {
                    let (c, r) = pool[rng.random_range(0..pool.len())];
                    if side == 0 {
                        canon.0.push(c);
                        raw.0.push(r);
                    } else {
                        canon.1.push(c);
                        raw.1.push(r);
                    }
                }
            }
            let c = games.canonical(canon.0, canon.1);
            let r = games.intern(raw.0, raw.1);
            assert_eq!(played(&games, c), played(&games, r));
            assert!(games.less_equal(c, r) && games.less_equal(r, c));
            pool.push((c, r));
        }
        // The outcome of a sum from the order agrees with the two raw forms played out
        // side by side.
        let mut memo = HashMap::new();
        for _ in 0..300 {
            let (a, ra) = pool[rng.random_range(0..pool.len())];
            let (b, rb) = pool[rng.random_range(0..pool.len())];
            let s = games.sum(a, b);
            let by_order = (games.left_wins_first(s), games.right_wins_first(s));
            let by_play = (
                played_sum(&games, ra, rb, true, &mut memo),
                played_sum(&games, ra, rb, false, &mut memo),
            );
            assert_eq!(by_order, by_play);
        }
    }
}
