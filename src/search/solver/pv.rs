//! The proven line: from a solved position to the end of the game.
//!
//! The winner plays a move that keeps the win (the table's move when it still has it,
//! else the first winning move in search order); the loser plays the reply whose proof
//! lasts longest, the stubbornest defence the proof found without extra search. Each
//! step re-proves the children it looks at, which the table mostly answers at once.

use crate::rules::{Bitboard, Move, Position};

use super::Interrupted;
use super::prover::{Proof, Prover};

/// The line from `root` (whose result is `proof`) to the end of the game, or as much
/// of it as was found before the limits stopped the search.
pub(super) fn principal_line<B: Bitboard>(
    prover: &mut Prover<'_, B>,
    root: Position<B>,
    proof: Proof,
) -> (Vec<Move<B>>, Option<Interrupted>) {
    let mut line = Vec::new();
    let stopped = extend_line(prover, root, proof, &mut line).err();
    (line, stopped)
}

fn extend_line<B: Bitboard>(
    prover: &mut Prover<'_, B>,
    root: Position<B>,
    proof: Proof,
    line: &mut Vec<Move<B>>,
) -> Result<(), Interrupted> {
    let mut pos = root;
    let mut win = proof.win;
    loop {
        let node = prover.node(pos);
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        #[expect(
            clippy::expect_used,
            reason = "the position has moves, and a won one has a move to a lost one"
        )]
        let chosen = if win {
            let mut candidates = prover.ordered_moves(&node);
            if let Some(m) = prover.remembered_move(&node, &moves) {
                candidates.retain(|&x| x != m);
                candidates.insert(0, m);
            }
            let mut found = None;
            for m in candidates {
                let child = prover.child(&node, m);
                if !prover.prove(&child)?.win {
                    found = Some(m);
                    break;
                }
            }
            found.expect("a won position has a move to a lost one")
        } else {
            let mut best: Option<(u8, Move<B>)> = None;
            for &m in moves.iter() {
                let child = prover.child(&node, m);
                let reply = prover.prove(&child)?;
                debug_assert!(reply.win, "every move of a lost position loses");
                if best.is_none_or(|(p, _)| reply.plies > p) {
                    best = Some((reply.plies, m));
                }
            }
            best.expect("the position has moves").1
        };
        line.push(chosen);
        pos.play_unchecked(chosen);
        win = !win;
    }
    Ok(())
}
