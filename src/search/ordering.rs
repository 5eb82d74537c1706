//! Move ordering: the table move first, then killers, then the rest by history and,
//! away from the horizon, by how few replies they leave the opponent.

use crate::rules::{Bitboard, Color, Move, Position};

use super::score::MAX_PLY;

/// How often each move (by its from/to key) caused a cutoff, per side to move.
pub struct History {
    table: Vec<i32>,
}

const HISTORY_MAX: i32 = 1 << 20;

impl Default for History {
    fn default() -> Self {
        History {
            table: vec![0; 2 * 65536],
        }
    }
}

impl History {
    fn index(side: Color, key: u16) -> usize {
        side.index() * 65536 + usize::from(key)
    }

    /// The history score of `key` for `side`.
    #[inline]
    #[must_use]
    pub fn score(&self, side: Color, key: u16) -> i32 {
        self.table[Self::index(side, key)]
    }

    /// Rewards the move that cut off at `depth` and punishes the ones tried before it,
    /// with the usual gravity so that scores stay bounded and recent results weigh most.
    pub fn update(&mut self, side: Color, best: u16, tried: &[u16], depth: i32) {
        let bonus = (depth * depth).min(HISTORY_MAX / 4);
        self.add(side, best, bonus);
        for &key in tried {
            self.add(side, key, -bonus);
        }
    }

    fn add(&mut self, side: Color, key: u16, bonus: i32) {
        let entry = &mut self.table[Self::index(side, key)];
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.table.fill(0);
    }
}

/// Two killer moves per ply (by key): refutations found at the same depth elsewhere.
pub struct Killers {
    slots: Vec<[Option<u16>; 2]>,
}

impl Default for Killers {
    fn default() -> Self {
        Killers {
            slots: vec![[None; 2]; MAX_PLY + 1],
        }
    }
}

impl Killers {
    /// The killers of `ply`.
    #[inline]
    #[must_use]
    pub fn at(&self, ply: usize) -> [Option<u16>; 2] {
        self.slots[ply]
    }

    /// Records a cutoff move at `ply`.
    pub fn record(&mut self, ply: usize, key: u16) {
        let slot = &mut self.slots[ply];
        if slot[0] != Some(key) {
            slot[1] = slot[0];
            slot[0] = Some(key);
        }
    }
}

const TABLE_MOVE: i32 = 1 << 30;
/// Ordering score of a killer move (the table move scores higher, history lower).
pub const KILLER: i32 = 1 << 28;

/// The share of its history score a move other than the table move and the killers
/// is ordered by (one part in this many).
const HISTORY_SHARE: i32 = 4;

/// Ordering score a move loses for each reply it leaves the opponent, when replies are
/// counted: a move that leaves the opponent few moves is, in a game lost by running out
/// of them, the likeliest to refute (the exact solver orders by the same count).
/// One reply weighs as much as 8,000 points of history (a cutoff `d` plies from the
/// horizon adds `d²`).
const PER_REPLY: i32 = 2000;

/// How a node's moves are ordered.
pub struct OrderBy<'a> {
    /// The table's move for the node.
    pub table_move: Option<u16>,
    /// The killers of the node's ply.
    pub killers: [Option<u16>; 2],
    /// The history of the side to move.
    pub history: &'a History,
    /// Whether to count each move's replies (worth it away from the horizon, where a
    /// node's ordering decides the size of a large subtree).
    pub count_replies: bool,
}

/// Scores the moves of `pos` in `moves` for ordering into `scores`. Late move
/// reductions read the same scores: a move with a good history that leaves few replies
/// is reduced less.
pub fn score_moves<B: Bitboard>(
    pos: &Position<B>,
    moves: &[Move<B>],
    scores: &mut Vec<i32>,
    by: &OrderBy<'_>,
) {
    let side = pos.side_to_move();
    let (table_move, killers) = (by.table_move, by.killers);
    scores.clear();
    let mut table_move_seen = false;
    scores.extend(moves.iter().map(|m| {
        let key = Some(m.key());
        if key == table_move && !table_move_seen {
            // Under the turning rule several moves can share a key: the first one is meant.
            table_move_seen = true;
            TABLE_MOVE
        } else if key == killers[0] {
            KILLER + 1
        } else if key == killers[1] {
            KILLER
        } else {
            let history = by.history.score(side, m.key()) / HISTORY_SHARE;
            if by.count_replies {
                history - PER_REPLY * pos.after(*m).count_moves() as i32
            } else {
                history
            }
        }
    }));
}

/// Moves the best-scored of `moves[from..]` to `from` (selection sort, one step at a
/// time, since a cutoff often comes before the list is sorted).
#[inline]
pub fn pick_next<B: Bitboard>(moves: &mut [Move<B>], scores: &mut [i32], from: usize) {
    // The first of the best, found with the best score held in a register and no
    // bounds checks in the loop (this loop is a tenth of a search's time).
    let mut best = from;
    let mut best_score = scores[from];
    for (i, &score) in scores[..moves.len()].iter().enumerate().skip(from + 1) {
        if score > best_score {
            best = i;
            best_score = score;
        }
    }
    moves.swap(from, best);
    scores.swap(from, best);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ply_without_killers_promotes_no_move() {
        use crate::rules::{AnyPosition, BoardSize, Variant};
        // 3x3 start: black's removals include a1 (key 0 on this board).
        let AnyPosition::Small(pos) = AnyPosition::start(Variant {
            size: BoardSize::new(3, 3).expect("3x3 is a board"),
            opening: crate::rules::Opening::Any,
            ..Variant::default()
        }) else {
            unreachable!("3x3 is a small board");
        };
        let moves = pos.legal_moves().as_slice().to_vec();
        assert!(moves.iter().any(|m| m.key() == 0), "a1 is a removal here");
        let mut scores = Vec::new();
        let history = History::default();
        let mut by = OrderBy {
            table_move: None,
            killers: Killers::default().at(1),
            history: &history,
            count_replies: false,
        };
        score_moves(&pos, &moves, &mut scores, &by);
        assert!(scores.iter().all(|&s| s < KILLER), "{scores:?}");
        let mut killers = Killers::default();
        killers.record(1, 0);
        by.killers = killers.at(1);
        score_moves(&pos, &moves, &mut scores, &by);
        assert_eq!(scores.iter().filter(|&&s| s >= KILLER).count(), 1);
    }

    #[test]
    fn moves_leaving_fewer_replies_come_first_when_counted() {
        use crate::rules::{AnyPosition, BoardSize, Variant};
        let AnyPosition::Small(start) = AnyPosition::start(Variant {
            size: BoardSize::new(6, 6).expect("6x6 is a board"),
            ..Variant::default()
        }) else {
            unreachable!("6x6 is a small board");
        };
        // A middle game: the removals, then a few jumps.
        let mut pos = start;
        for _ in 0..6 {
            let m = pos.legal_moves().as_slice()[0];
            pos = pos.after(m);
        }
        let moves = pos.legal_moves().as_slice().to_vec();
        let history = History::default();
        let mut by = OrderBy {
            table_move: None,
            killers: [None; 2],
            history: &history,
            count_replies: true,
        };
        let mut scores = Vec::new();
        score_moves(&pos, &moves, &mut scores, &by);
        let replies: Vec<u64> = moves.iter().map(|&m| pos.after(m).count_moves()).collect();
        assert!(replies.windows(2).any(|w| w[0] != w[1]), "{replies:?}");
        for i in 0..moves.len() {
            for j in 0..moves.len() {
                assert_eq!(replies[i] < replies[j], scores[i] > scores[j], "{i} {j}");
            }
        }
        by.count_replies = false;
        score_moves(&pos, &moves, &mut scores, &by);
        assert!(
            scores.iter().all(|&s| s == 0),
            "no history, no count: {scores:?}"
        );
    }
}
