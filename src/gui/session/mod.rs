//! One page's game: the rules in force, the moves, who plays each side, the clocks,
//! and the engines that play, analyse and solve for it. Every move is judged by the
//! rules core; the page is told the position and the legal moves after each change.
//!
//! A session is a plain state machine: [`Session::handle`] takes a message from the
//! page, [`Session::on_report`] a report from one of its engines and
//! [`Session::tick`] the passing of time; each returns the messages for the page.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::gui::board::{self, MoveInfo};

use crate::client::{self, ClockReading, EngineLine, GoLimits, Score, SearchInfo};
use crate::gui::info::{EngineOption, StrengthControl};
use crate::gui::intent::{self, Intent, Limit, MAX_MULTIPV, NewGame};
use crate::gui::live::{GoLine, Job, LiveEngine, Report, Reports};
use crate::gui::records::{self, ExportedGame, ImportedGame};
use crate::gui::solve::SolveJob;
use crate::referee::Clock;
use crate::rules::{AnyPosition, BoardSize, Color, Variant};

use crate::gui::cli::EngineChoice;

mod view;

/// How late a `bestmove` may come on a clock before the engine loses on time.
const CLOCK_MARGIN: Duration = Duration::from_millis(500);
/// How long an engine may take past its fixed time per move before it counts as hung.
const MOVETIME_GRACE: Duration = Duration::from_secs(5);
/// How long an engine may search to a fixed depth or node count.
const WATCHDOG: Duration = Duration::from_secs(120);
/// Engine output lines kept for the page's log are cut to this many characters.
const MAX_LOG_LINE: usize = 500;

/// The engines the command line gave, with what their handshake announced.
#[derive(Clone, Debug)]
pub struct EngineInfo {
    /// Name and command.
    pub choice: EngineChoice,
    /// The options it announced.
    pub options: Vec<EngineOption>,
    /// How to turn it down, when it can be.
    pub strength: Option<StrengthControl>,
    /// Why it could not be started, when it could not.
    pub problem: Option<String>,
}

/// Slots of a session's engines: black's player, white's player, the analyst.
const ANALYST: usize = 2;

enum Slot {
    Empty,
    Running {
        engine: LiveEngine,
        choice: usize,
        incarnation: u64,
    },
    /// The engine failed; it is started again after a restart.
    Failed,
}

struct Thinking {
    side: Color,
    serial: u64,
    deadline: Instant,
    on_clock: bool,
}

struct Analysis {
    choice: usize,
    multipv: u32,
    serial: u64,
    ply: usize,
}

struct Played {
    info: MoveInfo,
    ms: u64,
}

/// One page's game and engines.
pub struct Session {
    engines: Arc<[EngineInfo]>,
    reports: Reports,
    variant: Variant,
    start: AnyPosition,
    start_text: Option<String>,
    moves: Vec<Played>,
    end: AnyPosition,
    cursor: usize,
    players: [Option<usize>; 2],
    levels: [Option<i64>; 2],
    limit: Limit,
    clocks: Option<[Clock; 2]>,
    turn_started: Instant,
    over: Option<(Color, String, bool)>,
    slots: [Slot; 3],
    incarnation: u64,
    serial: u64,
    thinking: Option<Thinking>,
    analysis: Option<Analysis>,
    solve: Option<SolveJob>,
    scores: Vec<Option<i64>>,
    imported: Vec<ImportedGame>,
    notice: Option<String>,
}

/// A message for the page.
fn message(kind: &str, mut body: Value) -> String {
    if let Value::Object(map) = &mut body {
        map.insert("type".into(), kind.into());
    }
    body.to_string()
}

fn error(text: impl Into<String>) -> String {
    message("error", json!({ "message": text.into() }))
}

/// A score from the mover's view as black's, in centi-stones; a mate is ±10000.
fn black_view(score: Score, mover: Color) -> i64 {
    let own = match score {
        Score::Cp(cp) => cp.clamp(-9999, 9999),
        Score::Mate(n) if n > 0 => 10_000,
        Score::Mate(_) => -10_000,
    };
    if mover == Color::Black { own } else { -own }
}

impl Session {
    /// A session with the game of the default variant between two people.
    #[must_use]
    pub fn new(engines: Arc<[EngineInfo]>, reports: Reports) -> Session {
        let variant = Variant::default();
        let start = AnyPosition::start(variant);
        Session {
            engines,
            reports,
            variant,
            start,
            start_text: None,
            moves: Vec::new(),
            end: start,
            cursor: 0,
            players: [None, None],
            levels: [None, None],
            limit: Limit::Movetime(Duration::from_secs(1)),
            clocks: None,
            turn_started: Instant::now(),
            over: None,
            slots: [Slot::Empty, Slot::Empty, Slot::Empty],
            incarnation: 0,
            serial: 0,
            thinking: None,
            analysis: None,
            solve: None,
            scores: vec![None],
            imported: Vec::new(),
            notice: None,
        }
    }

    /// The first messages a page gets: the engines, then the game.
    #[must_use]
    pub fn hello(&self) -> Vec<String> {
        let engines: Vec<Value> = self
            .engines
            .iter()
            .map(|e| {
                json!({
                    "name": e.choice.name,
                    "strength": e.strength,
                    "problem": e.problem,
                    "multipv": e.options.iter().any(|o| o.name.eq_ignore_ascii_case("MultiPV")),
                })
            })
            .collect();
        vec![
            message(
                "hello",
                json!({ "engines": engines, "max_multipv": MAX_MULTIPV }),
            ),
            self.state(),
        ]
    }

    /// Handles one message from the page.
    pub fn handle(&mut self, text: &str) -> Vec<String> {
        let intent = match intent::parse(text) {
            Ok(i) => i,
            Err(e) => return vec![error(e)],
        };
        let mut out = Vec::new();
        let result = match intent {
            Intent::New(game) => self.new_game(&game),
            Intent::Move { text } => self.human_move(&text),
            Intent::Goto { ply } => {
                self.cursor = ply.min(self.moves.len());
                self.view_changed();
                Ok(())
            }
            Intent::Takeback => self.take_back(),
            Intent::Continue => {
                self.cancel_thinking();
                self.truncate(self.cursor);
                self.over = None;
                self.advance();
                Ok(())
            }
            Intent::Stop => {
                if let Some(t) = &self.thinking {
                    self.send(usize::from(t.side == Color::White), Job::Stop);
                }
                if self.analysis.take().is_some() || self.solve.take().is_some() {
                    self.send(ANALYST, Job::Stop);
                }
                Ok(())
            }
            Intent::Analyse {
                on,
                engine,
                multipv,
            } => self.analyse(on, engine, multipv),
            Intent::Solve { engine } => self.start_solve(engine, &mut out),
            Intent::Restart => {
                for slot in &mut self.slots {
                    if matches!(slot, Slot::Failed) {
                        *slot = Slot::Empty;
                    }
                }
                self.notice = None;
                if self.over.as_ref().is_some_and(|o| o.2) {
                    self.over = None;
                }
                self.advance();
                Ok(())
            }
            Intent::Import { text } => self.import(&text, &mut out),
            Intent::Load { index } => self.load(index),
            Intent::Export => {
                out.push(message("export", json!({ "pgn": self.export() })));
                Ok(())
            }
        };
        if let Err(e) = result {
            out.push(error(e));
        }
        out.push(self.state());
        out
    }

    fn new_game(&mut self, game: &NewGame) -> Result<(), String> {
        let size: BoardSize = game.board.parse().map_err(|e| format!("{e}"))?;
        let variant = Variant {
            size,
            opening: game.opening.parse().map_err(|e| format!("{e}"))?,
            multi_jump: game.multijump.parse().map_err(|e| format!("{e}"))?,
        };
        let limit = game.limit.check()?;
        for side in [&game.black, &game.white] {
            if let Some(e) = side.engine
                && e >= self.engines.len()
            {
                return Err(format!("there is no engine {e}"));
            }
        }
        let text = game.start.trim();
        let start = if text.is_empty() || text == "startpos" {
            AnyPosition::start(variant)
        } else {
            let p = AnyPosition::from_text(text, variant.opening, variant.multi_jump)
                .map_err(|e| format!("start position: {e}"))?;
            if p.variant().size != size {
                return Err(format!(
                    "start position: the text describes a {} board, not {size}",
                    p.variant().size
                ));
            }
            p
        };
        let start_text = (!text.is_empty() && text != "startpos").then(|| start.to_string());
        self.set_game(variant, start, start_text);
        self.players = [game.black.engine, game.white.engine];
        self.levels = [game.black.level, game.white.level];
        self.limit = limit;
        self.clocks = match limit {
            Limit::Clock(tc) => Some([Clock::new(tc), Clock::new(tc)]),
            _ => None,
        };
        self.advance();
        Ok(())
    }

    /// Replaces the game and ends every engine (they are started again for the new
    /// rules when needed).
    fn set_game(&mut self, variant: Variant, start: AnyPosition, start_text: Option<String>) {
        self.slots = [Slot::Empty, Slot::Empty, Slot::Empty];
        self.thinking = None;
        self.analysis = None;
        self.solve = None;
        self.variant = variant;
        self.start = start;
        self.start_text = start_text;
        self.moves.clear();
        self.end = start;
        self.cursor = 0;
        self.scores = vec![None];
        self.over = None;
        self.notice = None;
        // A clock limit always comes with clocks: both are set again together.
        self.clocks = None;
        self.limit = Limit::Movetime(Duration::from_secs(1));
        self.players = [None, None];
        self.turn_started = Instant::now();
    }

    fn human_move(&mut self, text: &str) -> Result<(), String> {
        if self.over.is_some() {
            return Err("the game is over".into());
        }
        let side = self.end.side_to_move();
        if self.players[side.index()].is_some() {
            return Err(format!(
                "it is the engine's turn ({})",
                board::side_name(side)
            ));
        }
        if self.cursor != self.moves.len() {
            return Err("go to the last move (or press Continue) to play here".into());
        }
        let elapsed = self.turn_started.elapsed();
        let mut after = self.end;
        let info = board::play(&mut after, text).map_err(|e| e.to_string())?;
        if let Some(clocks) = &mut self.clocks
            && clocks[side.index()].charge(elapsed, CLOCK_MARGIN).is_err()
        {
            self.finish(
                side.opponent(),
                format!("{} lost on time", board::side_name(side)),
                false,
            );
            return Ok(());
        }
        self.push_move(info, after, elapsed);
        Ok(())
    }

    /// Records `info`, played from the current end of the game, which leads to `after`.
    fn push_move(&mut self, info: MoveInfo, after: AnyPosition, elapsed: Duration) {
        self.end = after;
        let follow = self.cursor == self.moves.len();
        self.moves.push(Played {
            info,
            ms: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
        });
        self.scores.push(None);
        if follow {
            self.cursor = self.moves.len();
            self.view_changed();
        }
        self.turn_started = Instant::now();
        self.advance();
    }

    fn take_back(&mut self) -> Result<(), String> {
        if self.moves.is_empty() {
            return Err("there is no move to take back".into());
        }
        self.cancel_thinking();
        let mut keep = self.moves.len() - 1;
        let mover = |n: usize| self.position_at(n).side_to_move();
        // Against an engine, take back its reply too, so the person is to move again.
        if keep > 0 && self.players[mover(keep).index()].is_some() {
            keep -= 1;
        }
        self.truncate(keep);
        self.over = None;
        self.advance();
        Ok(())
    }

    fn truncate(&mut self, plies: usize) {
        self.moves.truncate(plies);
        self.scores.truncate(plies + 1);
        self.end = self.position_at(plies);
        self.cursor = plies;
        self.turn_started = Instant::now();
        self.view_changed();
    }

    fn position_at(&self, plies: usize) -> AnyPosition {
        let mut p = self.start;
        for m in &self.moves[..plies.min(self.moves.len())] {
            #[expect(
                clippy::expect_used,
                reason = "a move is recorded only after it was played on this position"
            )]
            board::play(&mut p, &m.info.text).expect("played moves were checked");
        }
        p
    }

    fn position_command(&self, plies: usize, extra: Option<&str>) -> String {
        let mut moves: Vec<String> = self.moves[..plies]
            .iter()
            .map(|m| m.info.text.clone())
            .collect();
        moves.extend(extra.map(str::to_string));
        client::position_command(self.start_text.as_deref(), &moves)
    }

    fn finish(&mut self, winner: Color, reason: String, fault: bool) {
        self.over = Some((winner, reason, fault));
        self.cancel_thinking();
    }

    fn cancel_thinking(&mut self) {
        if let Some(t) = self.thinking.take() {
            self.send(usize::from(t.side == Color::White), Job::Stop);
        }
    }

    /// Starts the engine whose turn it is, or ends the game when the mover is stuck.
    fn advance(&mut self) {
        if self.over.is_some() || self.thinking.is_some() {
            return;
        }
        let side = self.end.side_to_move();
        if let Some(outcome) = self.end.outcome() {
            self.finish(
                outcome.winner(),
                format!("{} has no legal move", board::side_name(side)),
                false,
            );
            return;
        }
        let Some(choice) = self.players[side.index()] else {
            return;
        };
        let slot = side.index();
        if !self.ensure(slot, choice) {
            return;
        }
        self.serial += 1;
        let (limits, allowed) = self.go_limits(side);
        let job = Job::Go {
            serial: self.serial,
            position: self.position_command(self.moves.len(), None),
            go: GoLine::Limits(limits),
        };
        self.send(slot, job);
        self.thinking = Some(Thinking {
            side,
            serial: self.serial,
            deadline: Instant::now() + allowed,
            on_clock: self.clocks.is_some(),
        });
    }

    /// The `go` limits for `side`'s engine and how long it may take in all.
    fn go_limits(&self, side: Color) -> (GoLimits, Duration) {
        let mut limits = GoLimits::default();
        let allowed = match self.limit {
            Limit::Movetime(t) => {
                limits.move_time = Some(t);
                t + MOVETIME_GRACE
            }
            Limit::Depth(d) => {
                limits.depth = Some(d);
                WATCHDOG
            }
            Limit::Nodes(n) => {
                limits.nodes = Some(n);
                WATCHDOG
            }
            Limit::Clock(_) => {
                #[expect(
                    clippy::expect_used,
                    reason = "a clock limit is always set together with its clocks"
                )]
                let clocks = self.clocks.expect("a clock limit sets up the clocks");
                let reading = |c: &Clock| ClockReading {
                    time: c.remaining(),
                    increment: c.increment(),
                };
                limits.clocks = Some([reading(&clocks[0]), reading(&clocks[1])]);
                clocks[side.index()].allowance(CLOCK_MARGIN)
            }
        };
        (limits, allowed)
    }

    /// Makes sure slot `slot` runs engine `choice`; false when it failed and waits for
    /// a restart.
    fn ensure(&mut self, slot: usize, choice: usize) -> bool {
        match &self.slots[slot] {
            Slot::Running { choice: c, .. } if *c == choice => return true,
            Slot::Failed => return false,
            _ => {}
        }
        let info = &self.engines[choice];
        let level = self.levels.get(slot).copied().flatten();
        let extra = match (&info.strength, level) {
            (Some(control), Some(level)) if slot != ANALYST => control.settings(level),
            _ => Vec::new(),
        };
        self.incarnation += 1;
        let label = format!("{} ({})", info.choice.name, slot_name(slot));
        let engine = LiveEngine::start(
            info.choice.spec.clone(),
            label,
            self.variant,
            extra,
            self.reports.clone(),
            slot,
            self.incarnation,
        );
        self.slots[slot] = Slot::Running {
            engine,
            choice,
            incarnation: self.incarnation,
        };
        true
    }

    fn send(&self, slot: usize, job: Job) {
        if let Slot::Running { engine, .. } = &self.slots[slot] {
            engine.send(job);
        }
    }

    fn engine_name(&self, slot: usize) -> String {
        match &self.slots[slot] {
            Slot::Running { choice, .. } => self.engines[*choice].choice.name.clone(),
            _ => "the engine".into(),
        }
    }

    /// Handles a report from the engine in `slot`.
    pub fn on_report(&mut self, slot: usize, incarnation: u64, report: Report) -> Vec<String> {
        let current = matches!(
            &self.slots.get(slot),
            Some(Slot::Running { incarnation: i, .. }) if *i == incarnation
        );
        if !current {
            return Vec::new();
        }
        let mut out = Vec::new();
        match report {
            // What it offers was read when the server started.
            Report::Ready { .. } => {}
            Report::Failed(why) => {
                let name = self.engine_name(slot);
                self.slots[slot] = Slot::Failed;
                self.notice = Some(format!("{why}; press Restart to start it again"));
                out.push(log(slot, &why));
                if slot == ANALYST {
                    self.analysis = None;
                    self.solve = None;
                } else if let Some(t) = self
                    .thinking
                    .take_if(|t| usize::from(t.side == Color::White) == slot)
                {
                    self.finish(
                        t.side.opponent(),
                        format!("{name} ({}) crashed: {why}", board::side_name(t.side)),
                        true,
                    );
                }
                out.push(self.state());
            }
            Report::Line {
                serial,
                text,
                elapsed,
            } => {
                out.push(log(slot, &text));
                out.extend(self.on_line(slot, serial, &text, elapsed));
            }
        }
        out
    }

    fn on_line(&mut self, slot: usize, serial: u64, text: &str, elapsed: Duration) -> Vec<String> {
        let mut out = Vec::new();
        if slot == ANALYST {
            if let Some(mut job) = self.solve.take_if(|job| job.serial() == serial) {
                if let Some(progress) = job.on_line(text) {
                    out.push(message("solve", progress));
                    if !self.next_proof(&mut job) {
                        out.push(self.state());
                        return out;
                    }
                }
                self.solve = Some(job);
                return out;
            }
            if let Some(a) = &self.analysis
                && a.serial == serial
                && let EngineLine::Info(info) = client::parse_line(text)
            {
                let ply = a.ply;
                out.extend(self.info_message("analysis", ply, &info));
            }
            return out;
        }
        let Some(thinking) = &self.thinking else {
            return out;
        };
        if thinking.serial != serial {
            return out;
        }
        let side = thinking.side;
        match client::parse_line(text) {
            EngineLine::Info(info) => {
                out.extend(self.info_message(board::side_name(side), self.moves.len(), &info));
            }
            EngineLine::BestMove(best) => {
                self.thinking = None;
                self.engine_moved(slot, side, best, text, elapsed);
                out.push(self.state());
            }
            _ => {}
        }
        out
    }

    fn engine_moved(
        &mut self,
        slot: usize,
        side: Color,
        best: Option<String>,
        line: &str,
        elapsed: Duration,
    ) {
        let who = format!("{} ({})", self.engine_name(slot), board::side_name(side));
        if let Some(clocks) = &mut self.clocks
            && let Err(over) = clocks[side.index()].charge(elapsed, CLOCK_MARGIN)
        {
            let why = format!(
                "{who} lost on time: its move took {:.3} s with {:.3} s left",
                over.elapsed.as_secs_f64(),
                over.remaining.as_secs_f64()
            );
            self.finish(side.opponent(), why, false);
            return;
        }
        let Some(text) = best else {
            self.finish(
                side.opponent(),
                format!("{who} said it has no move, but it has: '{line}'"),
                false,
            );
            return;
        };
        let mut after = self.end;
        match board::play(&mut after, &text) {
            Ok(info) => self.push_move(info, after, elapsed),
            Err(e) => self.finish(
                side.opponent(),
                format!("{who} played an illegal move: '{line}': {e}"),
                false,
            ),
        }
    }

    fn info_message(&mut self, source: &str, ply: usize, info: &SearchInfo) -> Vec<String> {
        let position = self.position_at(ply);
        if let Some(score) = info.score
            && info.multipv == 1
            && let Some(slot) = self.scores.get_mut(ply)
        {
            *slot = Some(black_view(score, position.side_to_move()));
        }
        let lines = board::line_paths(&position, &info.pv);
        vec![message(
            "info",
            json!({ "source": source, "ply": ply, "info": info, "pv_paths": lines }),
        )]
    }

    fn view_changed(&mut self) {
        if self.solve.take().is_some() {
            self.send(ANALYST, Job::Stop);
        }
        if let Some(a) = &self.analysis {
            let (choice, multipv) = (a.choice, a.multipv);
            let _ = self.analyse(true, choice, multipv);
        }
    }

    fn analyse(&mut self, on: bool, choice: usize, multipv: u32) -> Result<(), String> {
        if !on {
            if self.analysis.take().is_some() {
                self.send(ANALYST, Job::Stop);
            }
            return Ok(());
        }
        if choice >= self.engines.len() {
            return Err(format!("there is no engine {choice}"));
        }
        let multipv = multipv.clamp(1, MAX_MULTIPV);
        self.solve = None;
        if !self.ensure(ANALYST, choice) {
            return Err("the analysis engine failed: press Restart".into());
        }
        let position = self.position_at(self.cursor);
        self.serial += 1;
        self.analysis = Some(Analysis {
            choice,
            multipv,
            serial: self.serial,
            ply: self.cursor,
        });
        if position.outcome().is_some() {
            self.send(ANALYST, Job::Stop);
            return Ok(());
        }
        if self.engines[choice]
            .options
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case("MultiPV"))
        {
            self.send(
                ANALYST,
                Job::SetOption("MultiPV".into(), multipv.to_string()),
            );
        }
        self.send(
            ANALYST,
            Job::Go {
                serial: self.serial,
                position: self.position_command(self.cursor, None),
                go: GoLine::Text("go infinite".into()),
            },
        );
        Ok(())
    }

    fn start_solve(&mut self, choice: usize, out: &mut Vec<String>) -> Result<(), String> {
        if choice >= self.engines.len() {
            return Err(format!("there is no engine {choice}"));
        }
        let position = self.position_at(self.cursor);
        if !crate::gui::solve::can_solve(&position) {
            return Err(format!(
                "the solver is offered on positions with at most {} stones",
                crate::gui::solve::MAX_STONES
            ));
        }
        self.analysis = None;
        if !self.ensure(ANALYST, choice) {
            return Err("the engine failed: press Restart".into());
        }
        if self.engines[choice]
            .options
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case("MultiPV"))
        {
            self.send(ANALYST, Job::SetOption("MultiPV".into(), "1".into()));
        }
        let mut job = SolveJob::new(self.cursor, &position);
        out.push(message("solve", job.progress()));
        if self.next_proof(&mut job) {
            self.solve = Some(job);
        }
        Ok(())
    }

    /// Sends the solve's next proof to the analyst; false when every move is done.
    fn next_proof(&mut self, job: &mut SolveJob) -> bool {
        let Some((serial, extra, go)) = job.next_job(self.serial + 1) else {
            return false;
        };
        self.serial = serial;
        let position = self.position_command(job.ply(), Some(&extra));
        self.send(
            ANALYST,
            Job::Go {
                serial,
                position,
                go,
            },
        );
        true
    }

    fn import(&mut self, text: &str, out: &mut Vec<String>) -> Result<(), String> {
        let games = records::import(text)?;
        let labels: Vec<String> = games.iter().enumerate().map(|(i, g)| g.label(i)).collect();
        out.push(message("games", json!({ "games": labels })));
        self.imported = games;
        self.load(0)
    }

    fn load(&mut self, index: usize) -> Result<(), String> {
        let game = self
            .imported
            .get(index)
            .cloned()
            .ok_or_else(|| format!("there is no imported game {}", index + 1))?;
        let start = match &game.start {
            Some(text) => {
                AnyPosition::from_text(text, game.variant.opening, game.variant.multi_jump)
                    .map_err(|e| e.to_string())?
            }
            None => AnyPosition::start(game.variant),
        };
        self.set_game(game.variant, start, game.start.clone());
        for text in &game.moves {
            let info = board::play(&mut self.end, text).map_err(|e| e.to_string())?;
            self.moves.push(Played { info, ms: 0 });
            self.scores.push(None);
        }
        self.cursor = self.moves.len();
        self.notice = Some(match &game.problem {
            Some(p) => format!(
                "{} - {}: {}; stopped at {p}",
                game.black, game.white, game.result
            ),
            None => format!("{} - {}: {}", game.black, game.white, game.result),
        });
        Ok(())
    }

    fn export(&self) -> String {
        let name = |side: Color| match self.players[side.index()] {
            Some(e) => self.engines[e].choice.name.clone(),
            None => "person".into(),
        };
        records::export(&ExportedGame {
            names: [name(Color::Black), name(Color::White)],
            variant: self.variant,
            start: &self.start,
            moves: self
                .moves
                .iter()
                .map(|m| (m.info.text.clone(), m.ms))
                .collect(),
            result: self.over.as_ref().map(|(w, why, _)| (*w, why.clone())),
        })
    }

    /// Checks the clocks and the engines' time; called a few times a second.
    pub fn tick(&mut self) -> Vec<String> {
        let now = Instant::now();
        if let Some(t) = &self.thinking
            && now > t.deadline
        {
            let (side, on_clock) = (t.side, t.on_clock);
            let slot = usize::from(side == Color::White);
            let who = format!("{} ({})", self.engine_name(slot), board::side_name(side));
            let why = if on_clock {
                format!("{who} lost on time: no move before its clock ran out")
            } else {
                format!("{who} stopped answering: no move in time")
            };
            self.thinking = None;
            self.slots[slot] = Slot::Failed;
            self.notice = Some(format!("{why}; press Restart to start it again"));
            self.finish(side.opponent(), why, !on_clock);
            return vec![self.state()];
        }
        let side = self.end.side_to_move();
        if self.over.is_none()
            && self.players[side.index()].is_none()
            && let Some(clocks) = &self.clocks
            && self.turn_started.elapsed() > clocks[side.index()].allowance(CLOCK_MARGIN)
        {
            self.finish(
                side.opponent(),
                format!("{} lost on time", board::side_name(side)),
                false,
            );
            return vec![self.state()];
        }
        Vec::new()
    }
}

fn slot_name(slot: usize) -> &'static str {
    match slot {
        0 => "black",
        1 => "white",
        _ => "analysis",
    }
}

/// A line of engine output for the page's log, cut to [`MAX_LOG_LINE`] characters.
fn log(slot: usize, text: &str) -> String {
    let cut: String = text.chars().take(MAX_LOG_LINE).collect();
    message("log", json!({ "source": slot_name(slot), "text": cut }))
}
