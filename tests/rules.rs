//! One test per rule of `docs/rules.md`, named after it. Expected moves and
//! positions are worked out by hand from the rules file on small, drawn boards.

// Tests may panic (a panic is a failed test), helpers outside `#[test]` included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use konane::rules::{
    AnyPosition, BoardSize, Color, IllegalReason, ImpossiblePosition, MoveError, MultiJump,
    Opening, Outcome, Phase, PositionError, PositionText, PositionTextError, Variant,
};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use common::naive;

const START_8X8: &str = "bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb b";

fn start(width: usize, height: usize, opening: Opening) -> AnyPosition {
    AnyPosition::start(Variant {
        size: BoardSize::new(width, height).expect("a test board of 2 to 16 a side"),
        opening,
        multi_jump: MultiJump::Straight,
    })
}

fn position(text: &str, multi_jump: MultiJump) -> AnyPosition {
    AnyPosition::from_text(text, Opening::Diagonal, multi_jump)
        .unwrap_or_else(|e| panic!("'{text}': {e}"))
}

/// The canonical texts of the legal moves, sorted.
fn moves(pos: &AnyPosition) -> Vec<String> {
    let mut texts = pos.legal_move_texts();
    texts.sort();
    texts
}

/// Plays `moves` (space separated) and returns the position.
fn after(mut pos: AnyPosition, moves: &str) -> AnyPosition {
    for m in moves.split_whitespace() {
        pos.play_text(m)
            .unwrap_or_else(|e| panic!("{m} in '{pos}': {e}"));
    }
    pos
}

/// Why `text` is not a legal move here.
fn refusal(pos: &AnyPosition, text: &str) -> IllegalReason {
    let mut copy = *pos;
    match copy.play_text(text) {
        Err(MoveError::Illegal(illegal)) => illegal.reason,
        other => panic!("'{text}' in '{pos}' gave {other:?}, not an illegal move"),
    }
}

/// Number of jump paths (what perft counts), as opposed to distinct effects.
fn path_count(pos: &AnyPosition) -> u64 {
    konane::with_position!(pos, p => p.count_moves())
}

// Board and start position.

#[test]
fn the_8x8_start_is_the_text_in_the_rules() {
    assert_eq!(start(8, 8, Opening::Diagonal).to_string(), START_8X8);
}

#[test]
fn top_left_square_holds_a_black_stone_and_colours_alternate() {
    for width in 2..=16 {
        for height in 2..=16 {
            let text: PositionText = start(width, height, Opening::Any)
                .to_string()
                .parse()
                .expect("the start position prints as position text");
            assert_eq!(
                text.stone(0, height - 1),
                Some(Color::Black),
                "{width}x{height}"
            );
            for file in 0..width {
                for rank in 0..height {
                    let here = text.stone(file, rank).expect("the start board is full");
                    if file + 1 < width {
                        assert_ne!(Some(here), text.stone(file + 1, rank));
                    }
                    if rank + 1 < height {
                        assert_ne!(Some(here), text.stone(file, rank + 1));
                    }
                }
            }
        }
    }
}

#[test]
fn named_squares_of_8x8_have_the_colours_the_rules_give() {
    // a8, d5, e4 and h1 are black; a1, d4, e5 and h8 are white.
    let text: PositionText = START_8X8.parse().expect("the rules' start text");
    for (file, rank, colour) in [
        (0, 7, Color::Black),
        (3, 4, Color::Black),
        (4, 3, Color::Black),
        (7, 0, Color::Black),
        (0, 0, Color::White),
        (3, 3, Color::White),
        (4, 4, Color::White),
        (7, 7, Color::White),
    ] {
        assert_eq!(
            text.stone(file, rank),
            Some(colour),
            "file {file} rank {rank}"
        );
    }
}

#[test]
fn black_moves_first_on_a_full_board() {
    let pos = start(6, 6, Opening::Diagonal);
    assert_eq!(pos.side_to_move(), Color::Black);
    assert_eq!(pos.phase(), Phase::BlackRemoval);
}

#[test]
fn boards_have_2_to_16_files_and_ranks() {
    assert!(BoardSize::new(2, 16).is_ok());
    assert!(BoardSize::new(16, 2).is_ok());
    assert!(BoardSize::new(1, 8).is_err());
    assert!(BoardSize::new(8, 17).is_err());
    let seventeen_files = "17/17 b";
    assert!(matches!(
        AnyPosition::from_text(seventeen_files, Opening::Any, MultiJump::Straight),
        Err(PositionError::Text(PositionTextError::Width(17)))
    ));
}

#[test]
fn position_text_carries_the_board_size() {
    let pos = position("bwbwb/wbwbw/bwbwb b", MultiJump::Straight);
    assert_eq!(pos.variant().size, BoardSize::new(5, 3).unwrap());
}

// The opening: two removals.

#[test]
fn diagonal_opening_allows_corners_and_central_squares() {
    assert_eq!(
        moves(&start(8, 8, Opening::Diagonal)),
        ["a8", "d5", "e4", "h1"]
    );
}

#[test]
fn centre_opening_allows_only_the_central_squares() {
    assert_eq!(moves(&start(8, 8, Opening::Centre)), ["d5", "e4"]);
}

#[test]
fn any_opening_allows_every_black_stone() {
    let all = moves(&start(8, 8, Opening::Any));
    assert_eq!(all.len(), 32);
    assert!(all.iter().all(|m| {
        let file = m.as_bytes()[0] - b'a';
        let rank: u8 = m[1..].parse().unwrap();
        // Black squares of 8x8 (a8, h1, ...): file + rank even (a = 0, ranks from 1).
        (file + rank).is_multiple_of(2)
    }));
}

#[test]
fn odd_boards_have_one_central_square() {
    assert_eq!(moves(&start(5, 5, Opening::Centre)), ["c3"]);
    assert_eq!(moves(&start(7, 7, Opening::Centre)), ["d4"]);
}

#[test]
fn an_even_by_odd_board_has_two_central_squares() {
    // 6x5: files c and d, rank 3. c3 holds a black stone, d3 a white one.
    assert_eq!(moves(&start(6, 5, Opening::Centre)), ["c3"]);
    // Black corners of 6x5: a5 and a1 (f5 and f1 are white).
    assert_eq!(moves(&start(6, 5, Opening::Diagonal)), ["a1", "a5", "c3"]);
}

#[test]
fn centre_opening_on_3x5_leaves_black_without_a_move() {
    let pos = start(3, 5, Opening::Centre);
    assert!(moves(&pos).is_empty());
    assert_eq!(pos.outcome(), Some(Outcome::Win(Color::White)));
}

#[test]
fn centre_opening_leaves_black_without_a_move_on_every_board_with_a_white_middle() {
    for (width, height) in [(5, 3), (5, 7), (7, 5), (3, 9), (9, 11)] {
        let pos = start(width, height, Opening::Centre);
        assert!(moves(&pos).is_empty(), "{width}x{height}");
        assert_eq!(pos.outcome(), Some(Outcome::Win(Color::White)));
    }
}

#[test]
fn black_may_not_open_with_a_stone_the_rule_does_not_allow() {
    let pos = start(8, 8, Opening::Diagonal);
    assert!(matches!(
        refusal(&pos, "c6"),
        IllegalReason::FirstRemoval(_, Opening::Diagonal)
    ));
    let mut any = start(8, 8, Opening::Any);
    assert!(any.play_text("c6").is_ok());
}

#[test]
fn one_empty_square_means_white_removes() {
    let pos = after(start(8, 8, Opening::Diagonal), "e4");
    assert_eq!(pos.phase(), Phase::WhiteRemoval);
    assert_eq!(pos.side_to_move(), Color::White);
    assert_eq!(moves(&pos), ["d4", "e3", "e5", "f4"]);
    assert!(matches!(
        refusal(&pos, "e3e5"),
        IllegalReason::MustRemove(Color::White)
    ));
}

#[test]
fn white_must_remove_next_to_the_gap() {
    let pos = after(start(8, 8, Opening::Diagonal), "d5");
    assert_eq!(moves(&pos), ["c5", "d4", "d6", "e5"]);
    assert!(matches!(
        refusal(&pos, "a1"),
        IllegalReason::NotNextToGap(_)
    ));
    // Diagonal neighbours are not next to the gap either.
    assert!(matches!(
        refusal(&pos, "c4"),
        IllegalReason::NotOwnStone(..)
    ));
    assert!(matches!(
        refusal(&pos, "c6"),
        IllegalReason::NotOwnStone(..)
    ));
    assert!(matches!(
        refusal(&pos, "f5"),
        IllegalReason::NotOwnStone(..)
    ));
}

#[test]
fn a_corner_gap_has_two_white_neighbours() {
    let pos = after(start(8, 8, Opening::Diagonal), "a8");
    assert_eq!(moves(&pos), ["a7", "b8"]);
}

#[test]
fn two_empty_squares_mean_jumping() {
    let pos = after(start(8, 8, Opening::Diagonal), "d5 d4");
    assert_eq!(pos.phase(), Phase::Jumping);
    assert!(matches!(
        refusal(&pos, "b5"),
        IllegalReason::MustJump(Color::Black)
    ));
}

#[test]
fn worked_example_of_the_rules() {
    // Black plays d5, white d4: black's moves are b5d5 d7d5 f5d5.
    let pos = after(start(8, 8, Opening::Diagonal), "d5 d4");
    assert_eq!(moves(&pos), ["b5d5", "d7d5", "f5d5"]);
    let mut turning = AnyPosition::start(Variant {
        multi_jump: MultiJump::Turning,
        ..Variant::default()
    });
    turning = after(turning, "d5 d4");
    assert_eq!(moves(&turning), ["b5d5", "d7d5", "f5d5"]);
}

// Jumps.

#[test]
fn a_jump_takes_the_enemy_stone_it_passes_over() {
    let mut pos = position("8/8/8/1bw5/8/8/8/8 b", MultiJump::Straight);
    assert_eq!(moves(&pos), ["b5d5"]);
    pos.play_text("b5d5").unwrap();
    assert_eq!(pos.to_string(), "8/8/8/3b4/8/8/8/8 w");
}

#[test]
fn a_jump_needs_an_enemy_stone_to_pass_over() {
    let pos = after(start(8, 8, Opening::Diagonal), "d5 d4");
    assert!(matches!(
        refusal(&pos, "d7d3"),
        IllegalReason::NothingToJump(Color::White, _)
    ));
}

#[test]
fn a_jump_lands_on_an_empty_square() {
    let pos = after(start(8, 8, Opening::Diagonal), "d5 d4");
    assert!(matches!(refusal(&pos, "b3d3"), IllegalReason::Occupied(_)));
}

#[test]
fn jumps_are_orthogonal_and_two_squares_long() {
    let pos = after(start(8, 8, Opening::Diagonal), "d5 d4");
    assert!(matches!(
        refusal(&pos, "c6d5"),
        IllegalReason::NotInLine(..)
    ));
    assert!(matches!(
        refusal(&pos, "d7d4"),
        IllegalReason::OddDistance(..)
    ));
}

#[test]
fn only_the_side_to_move_jumps() {
    let pos = after(start(8, 8, Opening::Diagonal), "d5 d4");
    // White's b4 could jump c4 into the gap on d4, but black is to move.
    assert!(matches!(
        refusal(&pos, "b4d4"),
        IllegalReason::NotOwnStone(Color::Black, _)
    ));
}

#[test]
fn the_same_stone_may_jump_again_in_a_straight_line() {
    let pos = position("8/8/8/1bw1w3/8/8/8/8 b", MultiJump::Straight);
    assert_eq!(moves(&pos), ["b5d5", "b5f5"]);
    let mut double = pos;
    double.play_text("b5f5").unwrap();
    assert_eq!(double.to_string(), "8/8/8/5b2/8/8/8/8 w");
}

#[test]
fn stopping_is_always_allowed() {
    // a8 can jump b8, d8, f8 in turn; every prefix is a move of its own.
    for rule in MultiJump::ALL {
        let pos = position("bw1w1w1w/8/8/8/8/8/8/8 b", rule);
        assert_eq!(moves(&pos), ["a8c8", "a8e8", "a8g8"], "{rule}");
    }
}

#[test]
fn straight_rule_forbids_turns() {
    // b5 can jump c5 to d5; going on over d4 to d3 would turn.
    let pos = position("8/8/8/1bw5/3w4/8/8/8 b", MultiJump::Straight);
    assert_eq!(moves(&pos), ["b5d5"]);
    assert!(matches!(refusal(&pos, "b5d5d3"), IllegalReason::Turn(_)));
}

#[test]
fn turning_rule_allows_turns() {
    let mut pos = position("8/8/8/1bw5/3w4/8/8/8 b", MultiJump::Turning);
    assert_eq!(moves(&pos), ["b5d5", "b5d5d3"]);
    pos.play_text("b5d5d3").unwrap();
    assert_eq!(pos.to_string(), "8/8/8/8/8/3b4/8/8 w");
}

#[test]
fn a_path_never_goes_straight_back() {
    // After b5d5 the stone on c5 is gone: there is nothing to jump back over.
    let pos = position("8/8/8/1bw5/8/8/8/8 b", MultiJump::Turning);
    assert!(matches!(
        refusal(&pos, "b5d5b5"),
        IllegalReason::NothingToJump(Color::White, _)
    ));
}

#[test]
fn a_turning_path_may_return_to_a_square_it_left() {
    // 5x5: black a1 runs round b1, c2, b3, a2 and lands on a1 again.
    let mut round = position("5/5/1w3/w1w2/bw3 b", MultiJump::Turning);
    round.play_text("a1c1c3a3a1").unwrap();
    assert_eq!(round.to_string(), "5/5/5/5/b4 w");
    // 10x10: white g5 loops round f5, e6, f7, g6 back to g5, goes on round h5, i6, h7
    // and stops on g7, where it already stood once.
    let mut pos = position(
        "bw1w1w1w1w/wbwb1bwbwb/bwbwbwbwbw/1bwb1b1b1b/bwbwbwbwbw/wbwb1bwb1b/bw1wbwbwbw/w1wb1bwbwb/bwbwbwbwb1/wbwbwbwbwb w",
        MultiJump::Turning,
    );
    // (The same effect is also g5g7i7i5e5e7g7, so the engine may print that text.)
    pos.play_text("g5e5e7g7g5i5i7g7").unwrap();
    let board: PositionText = pos.to_string().parse().unwrap();
    assert_eq!(board.stone(6, 6), Some(Color::White), "g7");
    let emptied = [
        ("g5", 6, 4),
        ("f5", 5, 4),
        ("e6", 4, 5),
        ("f7", 5, 6),
        ("g6", 6, 5),
        ("h5", 7, 4),
        ("i6", 8, 5),
        ("h7", 7, 6),
    ];
    for (name, file, rank) in emptied {
        assert_eq!(board.stone(file, rank), None, "{name}");
    }
}

#[test]
fn perft_counts_both_ways_round_a_loop() {
    // a1a3, a1a3c3, a1a3c3c1, a1a3c3c1a1 and the four mirror paths from a1c1: eight
    // paths, but both loops have one effect, so seven distinct moves.
    let pos = position("5/5/1w3/w1w2/bw3 b", MultiJump::Turning);
    assert_eq!(path_count(&pos), 8);
    assert_eq!(moves(&pos).len(), 7);
    let mut one = pos;
    let mut other = pos;
    one.play_text("a1a3c3c1a1").unwrap();
    other.play_text("a1c1c3a3a1").unwrap();
    assert_eq!(one, other);
}

#[test]
fn stones_never_leave_their_colour() {
    // Seeded random games on boards of several shapes: every stone of every position
    // stands on a square of its own colour, read by the naive reader, which refuses
    // anything else.
    for (width, height) in [(8, 8), (5, 7), (16, 3), (10, 10)] {
        for multi_jump in MultiJump::ALL {
            let mut rng = StdRng::seed_from_u64((width * 100 + height) as u64);
            let mut pos = AnyPosition::start(Variant {
                size: BoardSize::new(width, height).unwrap(),
                opening: Opening::Any,
                multi_jump,
            });
            loop {
                let text = pos.to_string();
                let board =
                    naive::Board::from_text(&text).unwrap_or_else(|e| panic!("'{text}': {e}"));
                for sq in board.squares() {
                    if let Some(colour) = board.get(sq) {
                        assert_eq!(colour, naive::square_colour(height, sq), "'{text}'");
                    }
                }
                let legal = pos.legal_move_texts();
                if legal.is_empty() {
                    break;
                }
                let m = &legal[rng.random_range(0..legal.len())];
                pos.play_text(m).unwrap();
            }
        }
    }
}

#[test]
fn every_move_removes_at_least_one_stone() {
    let stones = |pos: &AnyPosition| {
        pos.to_string()
            .split(' ')
            .next()
            .unwrap()
            .chars()
            .filter(|c| matches!(c, 'b' | 'w'))
            .count()
    };
    let mut rng = StdRng::seed_from_u64(7);
    let mut pos = AnyPosition::start(Variant {
        multi_jump: MultiJump::Turning,
        ..Variant::default()
    });
    let mut plies = 0;
    while let Some(m) = {
        let legal = pos.legal_move_texts();
        (!legal.is_empty()).then(|| legal[rng.random_range(0..legal.len())].clone())
    } {
        let before = stones(&pos);
        pos.play_text(&m).unwrap();
        assert!(stones(&pos) < before, "{m} removed nothing");
        plies += 1;
    }
    assert!(plies > 4 && plies <= 64);
}

// End of the game.

#[test]
fn the_side_to_move_without_a_move_loses() {
    // White to move with no white stone left at all.
    let pos = position("b3/4/4/3b w", MultiJump::Straight);
    assert_eq!(pos.outcome(), Some(Outcome::Win(Color::Black)));
    // Black to move, stones left but none can jump.
    let pos = position("b1b1/4/4/w3 b", MultiJump::Turning);
    assert!(moves(&pos).is_empty());
    assert_eq!(pos.outcome(), Some(Outcome::Win(Color::White)));
}

#[test]
fn there_is_no_passing() {
    let pos = position("b1b1/4/4/w3 b", MultiJump::Straight);
    let mut copy = pos;
    assert!(copy.play_text("a4").is_err());
    assert!(copy.play_text("pass").is_err());
    assert_eq!(copy, pos);
}

// Text forms.

#[test]
fn canonical_text_names_the_start_and_the_end_of_each_straight_run() {
    // Straight: one run, d7d3 (two jumps). Turning: b5d5d3 turns at d5.
    let pos = position("8/3b4/3w4/8/3w4/8/8/8 b", MultiJump::Straight);
    assert_eq!(moves(&pos), ["d7d3", "d7d5"]);
    let pos = position("8/8/8/1bw5/3w4/8/8/8 b", MultiJump::Turning);
    assert!(moves(&pos).contains(&"b5d5d3".to_string()));
}

#[test]
fn move_text_may_list_every_landing_square() {
    let pos = position("8/3b4/3w4/8/3w4/8/8/8 b", MultiJump::Straight);
    let mut short = pos;
    let mut long = pos;
    assert_eq!(short.play_text("d7d3").unwrap(), "d7d3");
    assert_eq!(long.play_text("d7d5d3").unwrap(), "d7d3");
    assert_eq!(short, long);
}

#[test]
fn move_text_may_separate_squares_with_dash_or_x() {
    let pos = after(start(8, 8, Opening::Diagonal), "d5 d4");
    for text in ["b5-d5", "b5xd5", "b5d5"] {
        let mut copy = pos;
        assert_eq!(copy.play_text(text).unwrap(), "b5d5", "{text}");
    }
}

#[test]
fn two_digit_runs_of_empty_squares_are_read() {
    let text = "16/16/16/16/16/16/16/16/16/16/16/16/16/16/16/10wbwbwb w";
    let pos = AnyPosition::from_text(text, Opening::Any, MultiJump::Straight)
        .expect("a sparse 16x16 board");
    assert_eq!(pos.variant().size, BoardSize::new(16, 16).unwrap());
    assert_eq!(pos.to_string(), text);
}

#[test]
fn position_text_errors_name_the_rank_and_character() {
    let err = "bwbw/wbzb/bwbw/wbwb b".parse::<PositionText>().unwrap_err();
    assert!(matches!(
        err,
        PositionTextError::BadCell {
            rank: 3,
            column: 3,
            ..
        }
    ));
    let message = err.to_string();
    assert!(
        message.contains("rank 3") && message.contains("character 3") && message.contains('z'),
        "{message}"
    );
}

#[test]
fn position_text_errors_name_ranks_of_different_widths() {
    let message = "bwbw/wbw/bwbw/wbwb b"
        .parse::<PositionText>()
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("rank 3") && message.contains("rank 4"),
        "{message}"
    );
}

#[test]
fn position_text_needs_a_side_to_move_of_b_or_w() {
    assert!(matches!(
        "bwbw/wbwb".parse::<PositionText>(),
        Err(PositionTextError::MissingSide)
    ));
    let message = "bw/wb x".parse::<PositionText>().unwrap_err().to_string();
    assert!(message.contains("'x'"), "{message}");
}

#[test]
fn move_text_errors_name_the_character() {
    let pos = start(8, 8, Opening::Diagonal);
    let mut copy = pos;
    let err = copy.play_text("d5z").unwrap_err();
    assert!(matches!(err, MoveError::Syntax(_)));
    let message = err.to_string();
    assert!(
        message.contains("'d5z'") && message.contains("character 3") && message.contains("'z'"),
        "{message}"
    );
}

#[test]
fn illegal_moves_name_the_move_and_the_reason() {
    let pos = after(start(8, 8, Opening::Diagonal), "d5 d4");
    let mut copy = pos;
    let message = copy.play_text("b3d3").unwrap_err().to_string();
    assert!(
        message.contains("'b3d3'") && message.contains("d3"),
        "{message}"
    );
    assert!(matches!(refusal(&pos, "i9"), IllegalReason::OffBoard(..)));
}

/// A position the rules cannot produce is refused, with the reason.
mod impossible_positions_are_refused {
    use super::*;

    fn refused(text: &str, opening: Opening) -> PositionError {
        match AnyPosition::from_text(text, opening, MultiJump::Straight) {
            Ok(p) => panic!("'{text}' was accepted as {p}"),
            Err(e) => e,
        }
    }

    fn replace_square(text: &str, file: usize, rank_from_top: usize, with: &str) -> String {
        // Only for full ranks written as letters.
        let (board, side) = text.split_once(' ').unwrap();
        let mut ranks: Vec<String> = board.split('/').map(String::from).collect();
        let row = &mut ranks[rank_from_top];
        let mut cells: Vec<String> = row.chars().map(String::from).collect();
        cells[file] = with.to_string();
        *row = cells.concat();
        format!("{} {side}", ranks.join("/"))
    }

    #[test]
    fn a_black_stone_on_a_white_square() {
        // a1 is a white square of 4x4.
        let err = refused("bwbw/wbwb/bwbw/bbwb b", Opening::Any);
        assert!(matches!(
            err,
            PositionError::Text(PositionTextError::WrongColour {
                colour: Color::Black,
                ..
            })
        ));
        assert!(err.to_string().contains("a1"), "{err}");
    }

    #[test]
    fn a_full_board_with_white_to_move() {
        let text = START_8X8.replace(" b", " w");
        assert_eq!(
            refused(&text, Opening::Diagonal),
            PositionError::Impossible(ImpossiblePosition::FullBoardWhiteToMove)
        );
    }

    #[test]
    fn one_gap_with_black_to_move() {
        let text = replace_square(START_8X8, 0, 0, "1");
        assert_eq!(
            refused(&text, Opening::Diagonal),
            PositionError::Impossible(ImpossiblePosition::OneGapBlackToMove)
        );
    }

    #[test]
    fn two_gaps_that_are_not_neighbours() {
        // d5 (black) and a1 (white) are empty.
        let text = replace_square(START_8X8, 3, 3, "1");
        let text = replace_square(&text, 0, 7, "1");
        assert_eq!(
            refused(&text, Opening::Diagonal),
            PositionError::Impossible(ImpossiblePosition::OpeningGap)
        );
    }

    #[test]
    fn two_gaps_with_white_to_move() {
        // d5 and d4 empty: black's turn, not white's.
        let text = replace_square(START_8X8, 3, 3, "1");
        let text = replace_square(&text, 3, 4, "1").replace(" b", " w");
        assert_eq!(
            refused(&text, Opening::Diagonal),
            PositionError::Impossible(ImpossiblePosition::OpeningGap)
        );
    }

    #[test]
    fn an_opening_removal_the_rule_does_not_allow() {
        // c6 (black) and c5 (white) are empty: only the any opening allows c6.
        let text = replace_square(START_8X8, 2, 2, "1");
        let text = replace_square(&text, 2, 3, "1");
        assert!(matches!(
            refused(&text, Opening::Diagonal),
            PositionError::Impossible(ImpossiblePosition::FirstRemoval {
                opening: Opening::Diagonal,
                ..
            })
        ));
        assert!(AnyPosition::from_text(&text, Opening::Any, MultiJump::Straight).is_ok());
    }

    #[test]
    fn a_corner_removal_under_the_centre_rule() {
        let text = replace_square(START_8X8, 0, 0, "1").replace(" b", " w");
        assert!(matches!(
            refused(&text, Opening::Centre),
            PositionError::Impossible(ImpossiblePosition::FirstRemoval {
                opening: Opening::Centre,
                ..
            })
        ));
        assert!(AnyPosition::from_text(&text, Opening::Diagonal, MultiJump::Straight).is_ok());
    }

    #[test]
    fn a_single_gap_on_a_white_square() {
        // b8 is white: black's first removal cannot have emptied it.
        let text = replace_square(START_8X8, 1, 0, "1").replace(" b", " w");
        assert!(matches!(
            refused(&text, Opening::Any),
            PositionError::Impossible(ImpossiblePosition::FirstRemoval { .. })
        ));
    }
}

// Hashes.

#[test]
fn the_same_board_under_other_rules_hashes_differently() {
    let mut hashes: Vec<u64> = common::all_rules()
        .into_iter()
        .map(|rules| common::engine_start(8, 8, rules).hash())
        .collect();
    hashes.sort_unstable();
    hashes.dedup();
    assert_eq!(hashes.len(), 6);
}
