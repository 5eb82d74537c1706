//! What the page needs to know about a position, all computed by [`rules`](crate::rules):
//! the stones, the legal moves with the squares each one visits, and the squares of
//! an engine's principal variation.

use serde::Serialize;

use crate::rules::{AnyPosition, Color, MoveError, Phase, PositionText};
use crate::with_position;

/// A square as `[file, rank]`, both from 0 at a1.
pub type Coord = [u8; 2];

/// One legal move as the page draws and enters it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveInfo {
    /// The canonical move text.
    pub text: String,
    /// The squares the stone stands on, start first (for a removal, its one square).
    pub path: Vec<Coord>,
    /// Whether the move removes a stone (the opening phase).
    pub removal: bool,
}

fn coord(file: usize, rank: usize) -> Coord {
    // Boards have at most 16 files and ranks.
    [file as u8, rank as u8]
}

/// The legal moves of `position`, in generation order.
#[must_use]
pub fn legal_moves(position: &AnyPosition) -> Vec<MoveInfo> {
    with_position!(position, p => {
        p.legal_moves().iter().map(|&m| describe(p, m)).collect()
    })
}

fn describe<B: crate::rules::Bitboard>(
    p: &crate::rules::Position<B>,
    m: crate::rules::Move<B>,
) -> MoveInfo {
    let geo = p.geometry();
    let squares: Vec<usize> = geo
        .move_paths(m, 1)
        .into_iter()
        .next()
        .unwrap_or_else(|| vec![m.from()]);
    MoveInfo {
        text: p.move_text(m),
        path: squares
            .iter()
            .map(|&i| {
                let s = geo.square(i);
                coord(s.file(), s.rank())
            })
            .collect(),
        removal: m.is_removal(),
    }
}

/// Plays `text` on `position` and says what was played, or why it cannot be.
pub fn play(position: &mut AnyPosition, text: &str) -> Result<MoveInfo, MoveError> {
    with_position!(position, p => {
        let m = p.parse_move(text)?;
        let info = describe(p, m);
        p.play_unchecked(m);
        Ok(info)
    })
}

/// The moves of `line` as played from `position`, up to the first that is not legal
/// there (an engine's PV is text from outside the server).
#[must_use]
pub fn line_paths(position: &AnyPosition, line: &[String]) -> Vec<MoveInfo> {
    let mut position = *position;
    line.iter()
        .map_while(|text| play(&mut position, text).ok())
        .collect()
}

/// The board as rows of `b`, `w` and `.`, top rank first.
#[must_use]
pub fn rows(position: &AnyPosition) -> Vec<String> {
    #[expect(clippy::expect_used, reason = "a position's own text reads back")]
    let text: PositionText = position
        .to_string()
        .parse()
        .expect("a position's own text reads back");
    (0..text.height())
        .rev()
        .map(|rank| {
            (0..text.width())
                .map(|file| match text.stone(file, rank) {
                    Some(Color::Black) => 'b',
                    Some(Color::White) => 'w',
                    None => '.',
                })
                .collect()
        })
        .collect()
}

/// The name of a colour as the page shows it.
#[must_use]
pub fn side_name(side: Color) -> &'static str {
    match side {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The phase as the page shows it.
#[must_use]
pub fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::BlackRemoval => "black removes a stone",
        Phase::WhiteRemoval => "white removes a stone next to the gap",
        Phase::Jumping => "jumping",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{BoardSize, Variant};

    fn six() -> AnyPosition {
        AnyPosition::start(Variant {
            size: BoardSize::new(6, 6).unwrap(),
            ..Variant::default()
        })
    }

    #[test]
    fn removals_are_one_square_and_jumps_list_every_landing() {
        let mut p = six();
        let first = legal_moves(&p);
        assert!(first.iter().all(|m| m.removal && m.path.len() == 1));
        play(&mut p, "c4").unwrap();
        play(&mut p, "c3").unwrap();
        let jumps = legal_moves(&p);
        let e4 = jumps.iter().find(|m| m.text == "e4c4").unwrap();
        assert_eq!(e4.path, vec![[4, 3], [2, 3]]);
        assert!(!e4.removal);
    }

    #[test]
    fn a_line_stops_at_its_first_illegal_move() {
        let p = six();
        let line: Vec<String> = ["c4", "c3", "zz", "e4c4"].map(String::from).to_vec();
        assert_eq!(line_paths(&p, &line).len(), 2);
    }

    #[test]
    fn rows_run_from_the_top_rank() {
        let mut p = six();
        play(&mut p, "a6").unwrap();
        assert_eq!(rows(&p)[0], ".wbwbw");
        assert_eq!(rows(&p)[5], "wbwbwb");
    }
}
