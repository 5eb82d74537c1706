//! The classic Konane course opponent, as a UGI engine to measure konane against:
//! alpha-beta to a fixed depth (4 unless `--depth N`) on mobility (own moves minus the
//! opponent's), moves in generation order, no table, no time management.
//!
//! `cargo build --release --example baseline`, then give
//! `target/release/examples/baseline` to the referee.

use std::io::{BufRead, Write};

use konane::protocol::{Command, Start, parse};
use konane::rules::{AnyPosition, Bitboard, BoardSize, MultiJump, Opening, Position, Variant};
use konane::with_position;

const WIN: i32 = 1_000_000;

fn negamax<B: Bitboard>(pos: &Position<B>, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return -WIN - depth as i32;
    }
    if depth == 0 {
        let own = moves.len() as i32;
        let theirs = pos.count_jumps(pos.side_to_move().opponent()) as i32;
        return own - theirs;
    }
    let mut best = -2 * WIN;
    for &m in &moves {
        let score = -negamax(&pos.after(m), depth - 1, -beta, -alpha);
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    best
}

fn best_move<B: Bitboard>(pos: &Position<B>, depth: u32) -> Option<String> {
    let moves = pos.legal_moves();
    let mut best = None;
    let mut alpha = -2 * WIN;
    for &m in &moves {
        let score = -negamax(&pos.after(m), depth.saturating_sub(1), -2 * WIN, -alpha);
        if best.is_none() || score > alpha {
            alpha = score;
            best = Some(m);
        }
    }
    best.map(|m| pos.move_text(m))
}

fn main() -> std::io::Result<()> {
    let depth = std::env::args()
        .skip_while(|a| a != "--depth")
        .nth(1)
        .and_then(|d| d.parse().ok())
        .unwrap_or(4);
    let mut variant = Variant::default();
    let mut position = AnyPosition::start(variant);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let Ok(Some(command)) = parse(&line?) else {
            continue;
        };
        match command {
            Command::Hello(dialect) => {
                writeln!(
                    out,
                    "id name baseline-d{depth}\nid author the konane developers"
                )?;
                writeln!(out, "option name BoardSize type string default 8x8")?;
                writeln!(
                    out,
                    "option name Opening type combo default diagonal var diagonal var centre var any"
                )?;
                writeln!(
                    out,
                    "option name MultiJump type combo default straight var straight var turning"
                )?;
                writeln!(out, "{}", dialect.hello_ok())?;
            }
            Command::IsReady => writeln!(out, "readyok")?,
            Command::SetOption { name, value } => match name.to_ascii_lowercase().as_str() {
                "boardsize" => variant.size = value.parse::<BoardSize>().unwrap_or(variant.size),
                "opening" => variant.opening = value.parse::<Opening>().unwrap_or(variant.opening),
                "multijump" => {
                    variant.multi_jump = value.parse::<MultiJump>().unwrap_or(variant.multi_jump)
                }
                _ => {}
            },
            Command::Position { start, moves } => {
                let mut pos = match start {
                    Start::StartPos => AnyPosition::start(variant),
                    Start::Text(text) => {
                        match AnyPosition::from_text(&text, variant.opening, variant.multi_jump) {
                            Ok(pos) => pos,
                            Err(_) => continue,
                        }
                    }
                };
                if moves.iter().all(|m| pos.play_text(m).is_ok()) {
                    position = pos;
                }
            }
            Command::Go(_) => {
                let best = with_position!(position, p => best_move(&p, depth));
                writeln!(out, "bestmove {}", best.unwrap_or_else(|| "0000".into()))?;
            }
            Command::Quit => break,
            _ => {}
        }
        out.flush()?;
    }
    Ok(())
}
