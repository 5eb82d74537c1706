//! One game between two started engines, judged move by move with the rules core.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;

use super::clock::Clock;
use super::config::Timeouts;
use super::openings::StartPosition;
use super::schedule::GameSpec;
use crate::client::{self, Answer, ClockReading, Dialect, Engine, GoLimits, Limits, RecvError};
use crate::rules::{AnyPosition, Color};

/// How a game ended; JSON writes it as its [`name`](Termination::name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Termination {
    /// The loser had no legal move.
    Normal,
    /// The loser sent a move that is illegal or unreadable, or claimed to have none.
    #[serde(rename = "illegal move")]
    IllegalMove,
    /// The loser's `bestmove` came later than its clock (plus time margin) allowed.
    #[serde(rename = "time forfeit")]
    TimeForfeit,
    /// The loser exited or closed its output (or could not be started).
    Crash,
    /// The loser stopped answering: no `readyok`, no handshake, or no `bestmove` within
    /// the watchdog when no clock limited it.
    Stall,
    /// The loser wrote more than the referee reads (see [`client::FLOOD_LINES`] and the
    /// other limits there).
    Flood,
}

impl Termination {
    /// Every termination, in the order reports list them.
    pub const ALL: [Termination; 6] = [
        Termination::Normal,
        Termination::IllegalMove,
        Termination::TimeForfeit,
        Termination::Crash,
        Termination::Stall,
        Termination::Flood,
    ];

    /// The short name used in JSON, PGN and game lines.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::IllegalMove => "illegal move",
            Termination::TimeForfeit => "time forfeit",
            Termination::Crash => "crash",
            Termination::Stall => "stall",
            Termination::Flood => "flood",
        }
    }

    /// Whether the loser misbehaved (and must be restarted).
    #[must_use]
    pub const fn is_fault(self) -> bool {
        !matches!(self, Termination::Normal)
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A move as played, with what the engine said about it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayedMove {
    /// Canonical move text.
    pub text: String,
    /// Thinking time in milliseconds.
    pub ms: u64,
    /// Depth of the engine's last `info` line.
    pub depth: Option<u32>,
    /// Score of the engine's last `info` line.
    pub score: Option<String>,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// One-based game number in the tournament.
    pub number: u64,
    /// One-based round.
    pub round: u32,
    /// Zero-based index of its colour-swapped pair.
    pub pair: u64,
    /// Name of the engine playing black (first).
    pub black: String,
    /// Name of the engine playing white.
    pub white: String,
    /// The side that won.
    pub winner: Color,
    /// How the game ended.
    pub termination: Termination,
    /// A sentence that says what happened (`B (white) played 'z9': ...`).
    pub detail: String,
    /// The start position.
    pub opening: StartPosition,
    /// The moves from the start position.
    pub moves: Vec<PlayedMove>,
}

impl GameRecord {
    /// The name of the engine that played `side`.
    #[must_use]
    pub fn name(&self, side: Color) -> &str {
        match side {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    /// The winner's name.
    #[must_use]
    pub fn winner_name(&self) -> &str {
        self.name(self.winner)
    }

    /// A game lost by `loser` before a move was made (it could not be started).
    #[must_use]
    pub fn forfeit(
        spec: &GameSpec,
        names: [&str; 2],
        opening: StartPosition,
        loser: Color,
        termination: Termination,
        detail: String,
    ) -> GameRecord {
        GameRecord {
            number: spec.number,
            round: spec.round,
            pair: spec.pair,
            black: names[0].to_string(),
            white: names[1].to_string(),
            winner: loser.opponent(),
            termination,
            detail,
            opening,
            moves: Vec::new(),
        }
    }
}

/// An engine taking part in a game.
pub struct Player<'a> {
    /// Its name.
    pub name: &'a str,
    /// Its limits.
    pub limits: &'a Limits,
    /// The running engine.
    pub engine: &'a mut Engine,
}

/// The rules and waits a game is played under.
#[derive(Clone, Copy)]
pub struct Table<'a> {
    /// How long to wait for engines.
    pub timeouts: Timeouts,
    /// Set when the game must be abandoned.
    pub stop: &'a AtomicBool,
}

/// The game was abandoned because the referee was told to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aborted;

/// A loss decided by the referee: who lost, how, and the sentence saying so.
struct Verdict(Color, Termination, String);

/// Plays the game `spec` from `start` (whose position is `position`) between `players`
/// (black first) and returns its record, or `Aborted` when `table.stop` was set.
pub fn play_game(
    spec: &GameSpec,
    start: &StartPosition,
    mut position: AnyPosition,
    players: [Player<'_>; 2],
    table: Table<'_>,
) -> Result<GameRecord, Aborted> {
    let mut players = players;
    let mut moves = Vec::new();
    let Verdict(loser, termination, detail) =
        judge(start, &mut position, &mut players, table, &mut moves)?;
    Ok(GameRecord {
        number: spec.number,
        round: spec.round,
        pair: spec.pair,
        black: players[0].name.to_string(),
        white: players[1].name.to_string(),
        winner: loser.opponent(),
        termination,
        detail,
        opening: start.clone(),
        moves,
    })
}

/// The most characters of engine text quoted in a game's detail.
const QUOTE_CHARS: usize = 40;

/// Who `side` is, for sentences: `B (white)`.
fn who(players: &[Player<'_>; 2], side: Color) -> String {
    format!("{} ({side})", players[side.index()].name)
}

fn judge(
    start: &StartPosition,
    position: &mut AnyPosition,
    players: &mut [Player<'_>; 2],
    table: Table<'_>,
    moves: &mut Vec<PlayedMove>,
) -> Result<Verdict, Aborted> {
    let startup = table.timeouts.startup;
    for side in [Color::Black, Color::White] {
        if let Err(e) = players[side.index()].engine.new_game(startup, table.stop) {
            return fault(players, side, e, &no_readyok(startup), Termination::Stall);
        }
    }
    let mut clocks =
        [Color::Black, Color::White].map(|c| players[c.index()].limits.tc.map(Clock::new));
    let mut texts: Vec<String> = Vec::new();
    loop {
        if let Some(outcome) = position.outcome() {
            let loser = outcome.winner().opponent();
            let detail = format!("{} has no legal move", who(players, loser));
            return Ok(Verdict(loser, Termination::Normal, detail));
        }
        let side = position.side_to_move();
        let answer = match ask(start, &texts, side, players, &clocks, table)? {
            Ok(answer) => answer,
            Err(verdict) => return Ok(verdict),
        };
        let limits = players[side.index()].limits;
        if let Some(allowed) = overrun(&mut clocks[side.index()], limits, answer.elapsed) {
            let detail = format!(
                "{} took {} ms with {} ms left",
                who(players, side),
                answer.elapsed.as_millis(),
                allowed.as_millis()
            );
            return Ok(Verdict(side, Termination::TimeForfeit, detail));
        }
        match play_answer(position, &answer)
            .map_err(|what| format!("{} {what}", who(players, side)))
        {
            Ok(canonical) => {
                texts.push(canonical.clone());
                moves.push(PlayedMove {
                    text: canonical,
                    ms: u64::try_from(answer.elapsed.as_millis()).unwrap_or(u64::MAX),
                    depth: answer.depth,
                    score: answer.score.map(|s| s.to_string()),
                });
            }
            Err(detail) => return Ok(Verdict(side, Termination::IllegalMove, detail)),
        }
    }
}

fn no_readyok(wait: Duration) -> String {
    format!("no readyok within {} s", wait.as_secs_f64())
}

/// Sends the position and `go` to `side` and waits for its answer: the answer, or the
/// verdict when none came.
fn ask(
    start: &StartPosition,
    texts: &[String],
    side: Color,
    players: &mut [Player<'_>; 2],
    clocks: &[Option<Clock>; 2],
    table: Table<'_>,
) -> Result<Result<Answer, Verdict>, Aborted> {
    let player = &mut players[side.index()];
    let limits = player.limits;
    let go = go_limits(side, limits, clocks);
    let (wait, timed) = match (&clocks[side.index()], limits.move_time) {
        (Some(clock), _) => (clock.allowance(limits.margin), true),
        (None, Some(t)) => (t + limits.margin, true),
        (None, None) => (table.timeouts.watchdog, false),
    };
    let dialect: Dialect = player.engine.dialect();
    let startup = table.timeouts.startup;
    let position = client::position_command(start.fen(), texts);
    if let Err(e) = player.engine.set_position(&position, startup, table.stop) {
        return fault(players, side, e, &no_readyok(startup), Termination::Stall).map(Err);
    }
    let go = client::go_command(dialect, &go);
    match player.engine.think(&go, wait, table.stop) {
        Ok(answer) => Ok(Ok(answer)),
        Err(e) => {
            let ms = wait.as_millis();
            let (what, termination) = if timed {
                (
                    format!("sent no bestmove within {ms} ms"),
                    Termination::TimeForfeit,
                )
            } else {
                (
                    format!("sent no bestmove within the {ms} ms watchdog"),
                    Termination::Stall,
                )
            };
            fault(players, side, e, &what, termination).map(Err)
        }
    }
}

/// Charges a move that took `elapsed`: the time that was left when it came too late.
fn overrun(clock: &mut Option<Clock>, limits: &Limits, elapsed: Duration) -> Option<Duration> {
    match clock {
        Some(clock) => clock
            .charge(elapsed, limits.margin)
            .err()
            .map(|o| o.remaining),
        None => limits.move_time.filter(|&t| elapsed > t + limits.margin),
    }
}

/// Plays the answer's move: its canonical text, or what was wrong with it (to follow
/// the player's name).
fn play_answer(position: &mut AnyPosition, answer: &Answer) -> Result<String, String> {
    match &answer.best {
        None => Err(format!(
            "answered '{}' but has {} legal moves",
            client::shorten(&answer.line, QUOTE_CHARS),
            position.legal_move_texts().len()
        )),
        Some(text) => position.play_text(text).map_err(|e| {
            format!(
                "played '{}': {}",
                client::shorten(text, QUOTE_CHARS),
                client::shorten(&e.to_string(), QUOTE_CHARS)
            )
        }),
    }
}

/// The verdict when `side`'s engine failed to answer: `termination` with `what` on a
/// timeout, a crash when it is gone, nothing when the referee is stopping.
fn fault(
    players: &[Player<'_>; 2],
    side: Color,
    error: RecvError,
    what: &str,
    termination: Termination,
) -> Result<Verdict, Aborted> {
    match error {
        RecvError::Interrupted => Err(Aborted),
        RecvError::Closed => Ok(Verdict(
            side,
            Termination::Crash,
            format!("{} exited or closed its output", who(players, side)),
        )),
        RecvError::Flood(flood) => Ok(Verdict(
            side,
            Termination::Flood,
            format!("{} {flood}", who(players, side)),
        )),
        RecvError::Timeout => Ok(Verdict(
            side,
            termination,
            format!("{} {what}", who(players, side)),
        )),
    }
}

/// The `go` limits for `side`: its clock (and the opponent's, or its own again when
/// the opponent has none), move time, depth and nodes.
fn go_limits(side: Color, limits: &Limits, clocks: &[Option<Clock>; 2]) -> GoLimits {
    let reading = |c: &Clock| ClockReading {
        time: c.remaining(),
        increment: c.increment(),
    };
    let own = clocks[side.index()].as_ref();
    GoLimits {
        clocks: own.map(|mine| {
            let other = clocks[side.opponent().index()].as_ref().unwrap_or(mine);
            let (mine, other) = (reading(mine), reading(other));
            match side {
                Color::Black => [mine, other],
                Color::White => [other, mine],
            }
        }),
        moves_to_go: own.and_then(Clock::moves_to_go),
        move_time: limits.move_time,
        depth: limits.depth,
        nodes: limits.nodes,
    }
}
