//! Playing below full strength (`Skill Level`): a weakened search always plays a legal
//! move, on every board and rule; its move is always one of its candidate lines; low
//! levels do not always play the best of them; a seed makes the choice reproducible.

// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use konane::bench::SEARCH_POSITIONS;
use konane::rules::{AnyPosition, Bitboard, BoardSize, MultiJump, Opening, Position, Variant};
use konane::search::skill::MAX_LEVEL;
use konane::search::{SearchControl, SearchParams, SearchResult, Searcher, Skill};
use konane::with_position;

fn skill(level: u32, seed: u64) -> Skill {
    Skill::new(level, Some(seed)).expect("a level below full strength")
}

fn weakened<B: Bitboard>(
    searcher: &mut Searcher,
    pos: &Position<B>,
    skill: Skill,
    nodes: Option<u64>,
) -> SearchResult<B> {
    let params = SearchParams {
        nodes,
        multipv: 1,
        skill: Some(skill),
        ..SearchParams::default()
    };
    searcher.search(pos, &params, &SearchControl::new(false), &mut |_| {})
}

/// Plays a whole game at `level` for both sides, checking every move.
fn play_out<B: Bitboard>(start: &Position<B>, level: u32) {
    let mut searcher = Searcher::new(1);
    let mut pos = *start;
    for ply in 0.. {
        let legal = pos.legal_moves();
        let result = weakened(&mut searcher, &pos, skill(level, ply), Some(5_000));
        let Some(best) = result.best else {
            assert!(
                legal.is_empty(),
                "{start:?}: no move at ply {ply} with {legal:?} legal"
            );
            return;
        };
        assert!(
            legal.as_slice().contains(&best),
            "{start:?}: illegal move at ply {ply}"
        );
        if let Some(reply) = result.ponder {
            assert!(pos.after(best).legal_moves().as_slice().contains(&reply));
        }
        pos.play_unchecked(best);
    }
}

#[test]
fn weakened_play_is_legal_on_every_board_and_rule() {
    let boards = [(2, 2), (3, 5), (6, 6), (8, 8), (9, 4), (16, 16)];
    for (i, &(width, height)) in boards.iter().enumerate() {
        for (j, multi_jump) in MultiJump::ALL.into_iter().enumerate() {
            let variant = Variant {
                size: BoardSize::new(width, height).expect("a legal size"),
                opening: Opening::ALL[(i + j) % Opening::ALL.len()],
                multi_jump,
            };
            let level = [0, 9, MAX_LEVEL - 1][(i + j) % 3];
            with_position!(AnyPosition::start(variant), p => play_out(&p, level));
        }
    }
}

/// The root moves of a plain MultiPV search of `lines` lines at `depth`.
fn top_moves<B: Bitboard>(pos: &Position<B>, depth: u32, lines: usize) -> Vec<String> {
    let params = SearchParams {
        depth: Some(depth),
        multipv: lines,
        ..SearchParams::default()
    };
    let mut last = Vec::new();
    Searcher::new(1).search(pos, &params, &SearchControl::new(false), &mut |it| {
        if it.depth == depth {
            last.push(pos.move_text(it.pv[0]));
        }
    });
    last
}

#[test]
fn low_levels_choose_among_their_candidates_and_not_always_the_best() {
    for level in [0, 10] {
        let skill = skill(level, 7);
        let mut not_best = 0;
        for (text, multi_jump) in SEARCH_POSITIONS {
            let any = AnyPosition::from_text(text, Opening::Diagonal, multi_jump)
                .expect("bench positions are valid");
            with_position!(any, p => {
                let chosen = weakened(&mut Searcher::new(1), &p, skill, None)
                    .best
                    .map(|m| p.move_text(m))
                    .expect("bench positions have moves");
                let top = top_moves(&p, skill.depth(), skill.candidates());
                assert!(top.contains(&chosen), "{text}: level {level} chose {chosen}, not one of {top:?}");
                not_best += usize::from(chosen != top[0]);
            });
        }
        assert!(
            not_best > 0,
            "level {level} played the best line in all {} positions",
            SEARCH_POSITIONS.len()
        );
    }
}

#[test]
fn a_seed_makes_the_choice_reproducible() {
    let choices = |seed: u64| -> Vec<String> {
        SEARCH_POSITIONS
            .iter()
            .map(|&(text, multi_jump)| {
                let any = AnyPosition::from_text(text, Opening::Diagonal, multi_jump)
                    .expect("bench positions are valid");
                with_position!(any, p => {
                    let best = weakened(&mut Searcher::new(1), &p, skill(0, seed), None).best;
                    best.map(|m| p.move_text(m)).unwrap_or_default()
                })
            })
            .collect()
    };
    assert_eq!(choices(11), choices(11));
    assert_ne!(choices(11), choices(12));
}
