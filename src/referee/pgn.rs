//! Game records in PGN form: the usual tags, the rule tags, the start position, and the
//! moves in canonical text numbered from black's first move.

use std::fmt::Write as _;

use super::game::GameRecord;
use crate::rules::{Color, Variant};

/// The PGN result: `1-0` when white won, `0-1` when black won, as in PGN.
#[must_use]
pub fn result_token(winner: Color) -> &'static str {
    match winner {
        Color::White => "1-0",
        Color::Black => "0-1",
    }
}

/// Escapes a tag value: backslashes and quotes get a backslash.
fn quoted(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// One game in PGN.
#[must_use]
pub fn game(record: &GameRecord, event: &str, variant: Variant) -> String {
    let start_text = record.opening.text(variant);
    let mut text = String::new();
    let result = result_token(record.winner);
    let tags = [
        ("Event", event.to_string()),
        ("Site", "?".to_string()),
        ("Round", record.number.to_string()),
        ("Black", record.black.clone()),
        ("White", record.white.clone()),
        ("Result", result.to_string()),
        ("Termination", record.termination.to_string()),
        ("BoardSize", variant.size.to_string()),
        ("Opening", variant.opening.to_string()),
        ("MultiJump", variant.multi_jump.to_string()),
        ("SetUp", "1".to_string()),
        ("FEN", start_text.clone()),
        ("PlyCount", record.moves.len().to_string()),
    ];
    for (name, value) in tags {
        let _ = writeln!(text, "[{name} \"{}\"]", quoted(&value));
    }
    text.push('\n');
    let black_starts = start_text.trim_end().ends_with('b');
    let mut movetext = Vec::new();
    for (i, m) in record.moves.iter().enumerate() {
        // Ply i is black's when black started and i is even, or white started and i odd.
        let black_to_move = (i % 2 == 0) == black_starts;
        let number = (i + usize::from(!black_starts)) / 2 + 1;
        if black_to_move {
            movetext.push(format!("{number}."));
        } else if i == 0 {
            movetext.push(format!("{number}..."));
        }
        movetext.push(m.text.clone());
        let mut comment = Vec::new();
        if let Some(score) = &m.score {
            comment.push(score.clone());
        }
        if let Some(depth) = m.depth {
            comment.push(format!("d{depth}"));
        }
        comment.push(format!("{:.3}s", m.ms as f64 / 1000.0));
        movetext.push(format!("{{{}}}", comment.join(" ")));
    }
    // A brace in the detail (which quotes engine text) would end the comment early.
    movetext.push(format!(
        "{{{}}}",
        record.detail.replace('}', ")").replace('{', "(")
    ));
    movetext.push(result.to_string());
    text.push_str(&wrap(&movetext, 80));
    text.push_str("\n\n");
    text
}

/// Joins `tokens` with spaces into lines of at most `width` characters.
fn wrap(tokens: &[String], width: usize) -> String {
    let mut text = String::new();
    let mut line_len = 0;
    for t in tokens {
        if line_len > 0 && line_len + 1 + t.len() > width {
            text.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            text.push(' ');
            line_len += 1;
        }
        text.push_str(t);
        line_len += t.len();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::game::{PlayedMove, Termination};
    use crate::referee::openings::StartPosition;

    #[test]
    fn moves_are_numbered_from_blacks_first_move() {
        let record = GameRecord {
            number: 7,
            round: 1,
            pair: 3,
            black: "A".into(),
            white: "B \"2\"".into(),
            winner: Color::Black,
            termination: Termination::Normal,
            detail: "B (white) has no legal move".into(),
            opening: StartPosition::Standard,
            moves: ["d5", "d4", "b5d5"]
                .iter()
                .map(|t| PlayedMove {
                    text: t.to_string(),
                    ms: 1500,
                    ..PlayedMove::default()
                })
                .collect(),
        };
        let pgn = game(&record, "test", Variant::default());
        let start = "bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb b";
        assert!(pgn.contains(&format!("[FEN \"{start}\"]")), "{pgn}");
        assert!(pgn.contains("[White \"B \\\"2\\\"\"]"));
        assert!(pgn.contains("[Result \"0-1\"]"));
        assert!(pgn.contains("[BoardSize \"8x8\"]"));
        assert!(
            pgn.contains("1. d5 {1.500s} d4 {1.500s} 2. b5d5 {1.500s}"),
            "{pgn}"
        );
        assert!(pgn.trim_end().ends_with("0-1"));
        let from_white = game(
            &GameRecord {
                opening: StartPosition::Text("4/4/4/4 w".into()),
                ..record
            },
            "test",
            Variant::default(),
        );
        assert!(
            from_white.contains("1... d5 {1.500s} 2. d4"),
            "{from_white}"
        );
    }
}
