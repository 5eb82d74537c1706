//! A worker thread: takes games from the queue, keeps its own engine processes (started
//! when first needed, restarted after a fault), plays, and sends back the records.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use crossbeam_channel::Sender;

use super::config::Timeouts;
use super::game::{self, GameRecord, Player, Table, Termination};
use super::openings::Openings;
use super::schedule::{GameSpec, Pending};
use crate::client::{Dialect, Engine, EngineSpec, StartError};
use crate::rules::{Color, Variant};

/// What every worker shares.
pub struct Shared<'a> {
    /// The engines.
    pub specs: &'a [EngineSpec],
    /// Their names, as reported.
    pub names: &'a [String],
    /// The protocol each answered in when it was first started.
    pub dialects: &'a [Dialect],
    /// The rules.
    pub variant: Variant,
    /// Waits for engines.
    pub timeouts: Timeouts,
    /// Start positions.
    pub openings: &'a Openings,
    /// Games still to play.
    pub queue: &'a Mutex<Pending>,
    /// Set when no further game may start and running games must be abandoned.
    pub halt: &'a AtomicBool,
    /// `-debug`.
    pub debug: bool,
}

/// Plays games until the queue is empty or `halt` is set, sending each record.
pub fn run(shared: &Shared<'_>, results: &Sender<GameRecord>) {
    let mut engines: HashMap<usize, Engine> = HashMap::new();
    let grace = shared.timeouts.grace;
    while !shared.halt.load(Ordering::Relaxed) {
        let next = match shared.queue.lock() {
            Ok(mut queue) => queue.next(),
            Err(_) => None,
        };
        let Some(spec) = next else { break };
        // Keep at most the two engines of this game running.
        let idle: Vec<usize> = engines
            .keys()
            .copied()
            .filter(|&i| i != spec.black && i != spec.white)
            .collect();
        for i in idle {
            if let Some(engine) = engines.remove(&i) {
                engine.quit(grace);
            }
        }
        match play(shared, &spec, &mut engines) {
            Some(record) => {
                if results.send(record).is_err() {
                    break;
                }
            }
            None => break,
        }
    }
    for (_, engine) in engines.drain() {
        engine.quit(grace);
    }
}

/// Starts what is missing and plays one game; `None` when the referee is stopping.
fn play(
    shared: &Shared<'_>,
    spec: &GameSpec,
    engines: &mut HashMap<usize, Engine>,
) -> Option<GameRecord> {
    let start = shared.openings.get(spec.opening);
    // Every opening is a legal position: file lines were checked when read, and random
    // plies are legal moves.
    let position = start.position(shared.variant).ok()?;
    let seats = [spec.black, spec.white];
    let names = seats.map(|i| shared.names[i].as_str());
    for (side, index) in [(Color::Black, spec.black), (Color::White, spec.white)] {
        if engines.contains_key(&index) {
            continue;
        }
        match Engine::start(
            &shared.specs[index],
            &shared.names[index],
            Some(shared.dialects[index]),
            shared.variant,
            shared.timeouts.startup,
            shared.debug,
            shared.halt,
        ) {
            Ok(engine) => {
                engines.insert(index, engine);
            }
            Err(StartError::Interrupted) => return None,
            Err(e) => {
                let termination = if e.is_stall() {
                    Termination::Stall
                } else if e.is_flood() {
                    Termination::Flood
                } else {
                    Termination::Crash
                };
                let detail = format!(
                    "{} ({side}) could not be restarted: {e}",
                    names[side.index()]
                );
                return Some(GameRecord::forfeit(
                    spec,
                    names,
                    start.clone(),
                    side,
                    termination,
                    detail,
                ));
            }
        }
    }
    let [Some(black), Some(white)] = engines.get_disjoint_mut([&spec.black, &spec.white]) else {
        // Both were inserted above, and a game never pairs an engine with itself.
        return None;
    };
    let players = [
        Player {
            name: names[0],
            limits: &shared.specs[spec.black].limits,
            engine: black,
        },
        Player {
            name: names[1],
            limits: &shared.specs[spec.white].limits,
            engine: white,
        },
    ];
    let table = Table {
        timeouts: shared.timeouts,
        stop: shared.halt,
    };
    let record = game::play_game(spec, &start, position, players, table).ok()?;
    if record.termination.is_fault() {
        let loser = seats[record.winner.opponent().index()];
        if let Some(engine) = engines.remove(&loser) {
            // An engine that answered with a wrong move can still hear `quit`; one
            // that crashed, hung or overran its clock is killed at once.
            if record.termination == Termination::IllegalMove {
                engine.quit(shared.timeouts.grace);
            } else {
                engine.kill();
            }
        }
    }
    Some(record)
}
