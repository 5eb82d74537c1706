//! The state message: everything the page draws, from the session's fields.

use serde_json::{Value, json};

use super::{Session, Slot, message};
use crate::gui::board;
use crate::gui::solve;
use crate::rules::Color;

impl Session {
    /// The whole state the page draws.
    #[must_use]
    pub fn state(&self) -> String {
        let shown = self.position_at(self.cursor);
        let side = shown.side_to_move();
        let at_end = self.cursor == self.moves.len();
        let person_to_move = at_end
            && self.over.is_none()
            && self.players[self.end.side_to_move().index()].is_none();
        let legal = if person_to_move {
            board::legal_moves(&shown)
        } else {
            Vec::new()
        };
        let mut mover = self.start.side_to_move();
        let moves: Vec<Value> = self
            .moves
            .iter()
            .map(|m| {
                let v = json!({ "text": m.info.text, "path": m.info.path, "side": board::side_name(mover), "ms": m.ms });
                mover = mover.opponent();
                v
            })
            .collect();
        let players: Vec<Value> = [Color::Black, Color::White]
            .iter()
            .map(|&c| {
                let engine = self.players[c.index()];
                json!({
                    "name": engine.map_or("person".to_string(), |e| self.engines[e].choice.name.clone()),
                    "engine": engine,
                    "level": self.levels[c.index()],
                })
            })
            .collect();
        let clocks = self.clocks.map(|c| {
            let running = (self.over.is_none()).then(|| self.end.side_to_move());
            let left = |side: Color| {
                let mut left = c[side.index()].remaining();
                if running == Some(side) {
                    left = left.saturating_sub(self.turn_started.elapsed());
                }
                u64::try_from(left.as_millis()).unwrap_or(u64::MAX)
            };
            json!({
                "black_ms": left(Color::Black),
                "white_ms": left(Color::White),
                "running": running.map(board::side_name),
            })
        });
        let size = self.variant.size;
        message(
            "state",
            json!({
                "board": { "width": size.width(), "height": size.height(),
                           "opening": self.variant.opening.to_string(),
                           "multijump": self.variant.multi_jump.to_string() },
                "rows": board::rows(&shown),
                "position": shown.to_string(),
                "side": board::side_name(side),
                "phase": board::phase_name(shown.phase()),
                "ply": self.cursor,
                "moves": moves,
                "legal": legal,
                "players": players,
                "clocks": clocks,
                "over": self.over.as_ref().map(|(w, why, _)| json!({ "winner": board::side_name(*w), "reason": why })),
                "thinking": self.thinking.as_ref().map(|t| board::side_name(t.side)),
                "scores": self.scores,
                "notice": self.notice,
                "analysing": self.analysis.is_some(),
                "solving": self.solve.is_some(),
                "can_solve": solve::can_solve(&shown),
                "failed": self.slots.iter().any(|s| matches!(s, Slot::Failed)),
            }),
        )
    }
}
