//! The searcher thread and the channels between it and the session.
//!
//! The session sends [`Job`]s; the searcher runs them one at a time and sends back the
//! lines to print ([`Event::Line`]) and, once a job is over, [`Event::Finished`], each
//! tagged with the job's number. The session stays free to read input all the while:
//! `isready`, `stop` and `ponderhit` are answered or passed on at once through the
//! job's [`SearchControl`], where a search also keeps the `bestmove` it would give now,
//! so that the session can answer on time whatever the search threads are doing.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, unbounded};

use crate::bench;
use crate::rules::{AnyPosition, Bitboard, Color, Move, Perft, Position};
use crate::search::score::uci;
use crate::search::solver::{InterruptReason, SolveLimits, SolveProgress};
use crate::search::time::{Clock, TimeControl, budget, moves_left};
use crate::search::{
    Iteration, SearchControl, SearchParams, SearchResult, Searcher, Skill, proven_line,
    proven_result,
};
use crate::with_position;

/// The limits of one `go`, as the protocol gave them (clocks by colour).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoRequest {
    /// Time left on each clock, black first.
    pub time: [Option<Duration>; 2],
    /// Increment of each clock, black first.
    pub increment: [Duration; 2],
    /// Moves to the next time control.
    pub moves_to_go: Option<u32>,
    /// Fixed time for this move.
    pub move_time: Option<Duration>,
    /// Depth limit.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Root moves to consider (move text); empty for all.
    pub search_moves: Vec<String>,
    /// `go solve`: prove the result with the exact solver instead of searching.
    pub solve: bool,
}

/// Engine settings a search job carries along.
#[derive(Clone, Copy, Debug)]
pub struct JobSettings {
    /// `MoveOverhead`.
    pub overhead: Duration,
    /// `MultiPV`.
    pub multipv: usize,
    /// Whether `bestmove` may carry a ponder move (`Ponder` option).
    pub show_ponder: bool,
    /// Play below full strength (`Skill Level`, `UCI_LimitStrength`, `UCI_Elo`).
    pub skill: Option<Skill>,
}

/// Work for the searcher thread.
pub enum Job {
    /// Search a position; ends with one `bestmove` line.
    Search {
        /// The position to search.
        position: AnyPosition,
        /// The limits.
        request: GoRequest,
        /// Options in force.
        settings: JobSettings,
        /// Stop and ponderhit flags, created by the session before sending.
        control: Arc<SearchControl>,
    },
    /// `go perft`: count and print per-move counts.
    Perft {
        /// The position to count from.
        position: AnyPosition,
        /// Depth to count to.
        depth: usize,
        /// Stop flag.
        control: Arc<SearchControl>,
    },
    /// `bench`: search the fixed positions to a depth.
    BenchSearch {
        /// Depth of each search.
        depth: u32,
        /// Stop flag.
        control: Arc<SearchControl>,
    },
    /// `bench perft`: perft over the fixed positions.
    BenchPerft {
        /// Stop flag.
        control: Arc<SearchControl>,
    },
    /// Resize the transposition table (MB).
    SetHash(usize),
    /// Search with this many threads.
    SetThreads(usize),
    /// Resize the exact solver's table (MB).
    SetSolverHash(usize),
    /// Forget the table and history (a new game).
    Clear,
}

/// The number the engine gives a job when it is sent, to tell its events apart.
pub type JobId = u64;

/// What the searcher thread sends back, each with the number of the job it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A line to print.
    Line(JobId, String),
    /// The job is done. Its last line (the `bestmove`, the perft or bench total) comes
    /// with it, so that the session prints it and becomes idle in one step: once a
    /// GUI has seen a job's last line, everything it sends next finds the session free.
    Finished(JobId, Option<String>),
}

/// The searcher thread, seen from the session. Dropping it lets the searcher end once
/// its last job is over; it is not waited for: a job the session has stopped may take
/// its threads a while to notice, and the process need not wait for that.
pub struct Engine {
    jobs: Sender<(JobId, Job)>,
    events: Receiver<Event>,
    sent: JobId,
}

impl Engine {
    /// Starts the searcher thread with a table of `hash_megabytes` MB. The tables are
    /// allocated here, before any command is read, so that the first `go` does not
    /// wait for them while its clock runs.
    pub fn start(hash_megabytes: usize) -> std::io::Result<Engine> {
        let (job_tx, job_rx) = unbounded();
        let (event_tx, event_rx) = unbounded();
        let searcher = Searcher::new(hash_megabytes);
        std::thread::Builder::new()
            .name("searcher".into())
            .stack_size(64 << 20)
            .spawn(move || searcher_loop(searcher, &job_rx, &event_tx))?;
        Ok(Engine {
            jobs: job_tx,
            events: event_rx,
            sent: 0,
        })
    }

    /// Hands a job to the searcher (it starts when the jobs before it are over) and
    /// returns its number.
    pub fn send(&mut self, job: Job) -> JobId {
        self.sent += 1;
        // The searcher only ends when this sender is dropped, so it is listening.
        let _ = self.jobs.send((self.sent, job));
        self.sent
    }

    /// The channel of lines and job ends.
    #[must_use]
    pub fn events(&self) -> &Receiver<Event> {
        &self.events
    }
}

fn searcher_loop(mut searcher: Searcher, jobs: &Receiver<(JobId, Job)>, events: &Sender<Event>) {
    for (id, job) in jobs {
        let say = |line: String| {
            let _ = events.send(Event::Line(id, line));
        };
        let fallback = match &job {
            Job::Search { position, .. } => Some(*position),
            _ => None,
        };
        let outcome = catch_unwind(AssertUnwindSafe(|| run_job(&mut searcher, job, &say)));
        let last = outcome.unwrap_or_else(|_| {
            // A bug must not cost the game or the session: say so, keep the promise of
            // one bestmove per go, and start over with an empty table (its memory is
            // plain data, valid whatever the job was doing).
            say("info string error: internal error in the searcher; the job was abandoned".into());
            searcher.clear();
            fallback.map(|position| {
                let first = position.legal_move_texts().into_iter().next();
                format!("bestmove {}", first.unwrap_or_else(|| "0000".into()))
            })
        });
        let _ = events.send(Event::Finished(id, last));
    }
}

/// Runs `job`, printing through `say`, and returns its last line.
fn run_job(searcher: &mut Searcher, job: Job, say: &dyn Fn(String)) -> Option<String> {
    match job {
        Job::Search {
            position,
            request,
            settings,
            control,
        } => Some(
            with_position!(position, p => search(searcher, &p, &request, settings, &control, say)),
        ),
        Job::Perft {
            position,
            depth,
            control,
        } => Some(with_position!(position, p => perft(&p, depth, &control, say))),
        Job::BenchSearch { depth, control } => {
            let total = bench::search(depth, &control, &mut |text, m| {
                say(format!(
                    "info string {text}: {} nodes {} nps",
                    m.nodes,
                    m.nps()
                ));
            });
            Some(format!("{} nodes {} nps", total.nodes, total.nps()))
        }
        Job::BenchPerft { control } => {
            let result = bench::perft(control.stop_flag(), &mut |text, depth, m| {
                say(format!(
                    "info string {text} perft {depth}: {} nodes {} nps",
                    m.nodes,
                    m.nps()
                ));
            });
            Some(match result {
                Ok(total) => format!("{} nodes {} nps", total.nodes, total.nps()),
                Err(e) => format!("info string error: {e}"),
            })
        }
        Job::SetHash(megabytes) => {
            searcher.resize(megabytes);
            None
        }
        Job::Clear => {
            searcher.clear();
            None
        }
        Job::SetThreads(threads) => {
            searcher.set_threads(threads);
            None
        }
        Job::SetSolverHash(megabytes) => {
            searcher.resize_solver(megabytes);
            None
        }
    }
}

/// Prints the per-move counts and returns the total line.
fn perft<B: Bitboard>(
    pos: &Position<B>,
    depth: usize,
    control: &SearchControl,
    say: &dyn Fn(String),
) -> String {
    match Perft::new(control.stop_flag()).divide(pos, depth) {
        Ok(lines) => {
            let mut total = 0;
            for (text, count) in lines {
                say(format!("{text}: {count}"));
                total += count;
            }
            say(String::new());
            format!("Nodes searched: {total}")
        }
        Err(e) => format!("info string error: {e}"),
    }
}

/// Searches, printing the `info` lines, and returns the `bestmove` line.
fn search<B: Bitboard>(
    searcher: &mut Searcher,
    pos: &Position<B>,
    request: &GoRequest,
    settings: JobSettings,
    control: &SearchControl,
    say: &dyn Fn(String),
) -> String {
    if request.solve {
        return solve(searcher, pos, request, settings, control, say);
    }
    let params = search_params(pos, request, settings, say);
    let result = searcher.search(pos, &params, control, &mut |it| {
        say(info_line(pos, it, settings.multipv > 1));
        offer_line(pos, it, settings, control);
    });
    // UCI: after `go infinite` or while pondering, the best move waits for `stop` (or
    // `ponderhit`), even when the search has nothing left to do.
    while (request.infinite || control.pondering()) && !control.stopped() {
        std::thread::sleep(Duration::from_millis(1));
    }
    finish(pos, &result, settings, say)
}

/// The `bestmove` line of a finished search, after saying why there is no move when
/// there is none.
fn finish<B: Bitboard>(
    pos: &Position<B>,
    result: &SearchResult<B>,
    settings: JobSettings,
    say: &dyn Fn(String),
) -> String {
    if result.best.is_none() {
        let side = match pos.side_to_move() {
            Color::Black => "black (p1)",
            Color::White => "white (p2)",
        };
        say(format!("info string {side} has no legal move and has lost"));
    }
    bestmove_line(pos, result, settings.show_ponder)
}

/// `go solve`: proves the result with the exact solver, reporting progress about once
/// a second, then the proven line as `score mate`, and returns the `bestmove` line. A
/// solve stopped before its proof says so and plays the move of a short search.
fn solve<B: Bitboard>(
    searcher: &mut Searcher,
    pos: &Position<B>,
    request: &GoRequest,
    settings: JobSettings,
    control: &SearchControl,
    say: &dyn Fn(String),
) -> String {
    let started = Instant::now();
    // A move to play at once if the solve is stopped or runs out of time: that of a
    // search too small to delay the solve.
    let quick = SearchParams {
        nodes: Some(QUICK_SEARCH_NODES),
        multipv: 1,
        ..SearchParams::default()
    };
    let ready = searcher.search(pos, &quick, control, &mut |_| {});
    if ready.best.is_some() {
        control.offer(bestmove_line(pos, &ready, settings.show_ponder));
    }
    let limits = SolveLimits {
        // The solve gets three quarters of the time: the rest is for the short search
        // that picks a move if it ends without a proof, and for saying why.
        deadline: request
            .move_time
            .map(|t| started + t.saturating_sub(settings.overhead).mul_f64(0.75)),
        node_limit: request.nodes,
        ..SolveLimits::new(control.stop_flag())
    };
    let progress = |p: &SolveProgress| {
        let millis = p.elapsed.as_millis().max(1);
        say(format!(
            "info nodes {} nps {} time {} hashfull {}",
            p.nodes,
            u128::from(p.nodes) * 1000 / millis,
            p.elapsed.as_millis(),
            p.table_permille
        ));
    };
    match searcher.solver().solve(pos, &limits, &mut { progress }) {
        Ok(proof) => {
            let result = proven_result(&proof);
            if result.best.is_some() {
                say(info_line(pos, &proven_line(&proof), false));
            }
            finish(pos, &result, settings, say)
        }
        Err(interrupted) => {
            let why = match interrupted.reason {
                InterruptReason::Stopped => "stopped",
                InterruptReason::Deadline => "out of time",
                InterruptReason::NodeLimit => "out of nodes",
                InterruptReason::TooManyMoves => "a position with too many moves",
                InterruptReason::Superseded => "superseded",
            };
            say(format!(
                "info string solve ended without a proof ({why}) after {} nodes in {} ms; playing the move of a short search",
                interrupted.nodes,
                interrupted.elapsed.as_millis()
            ));
            // The job's own control: `stop`, `quit` and the end of `movetime` (which
            // the session enforces) end this search too.
            let params = SearchParams {
                nodes: Some(SHORT_SEARCH_NODES),
                multipv: 1,
                ..SearchParams::default()
            };
            let result = searcher.search(pos, &params, control, &mut |it| {
                offer_line(pos, it, settings, control);
            });
            // Stopped before its first iteration, it knows less than the quick one.
            let result = if result.depth == 0 { ready } else { result };
            finish(pos, &result, settings, say)
        }
    }
}

/// Nodes of the search that picks a move when a solve ends without a proof.
const SHORT_SEARCH_NODES: u64 = 200_000;

/// Nodes of the search that has a move ready before a solve starts.
const QUICK_SEARCH_NODES: u64 = 2_000;

/// Offers the best line of a finished iteration as the answer the session may give.
fn offer_line<B: Bitboard>(
    pos: &Position<B>,
    it: &Iteration<'_, B>,
    settings: JobSettings,
    control: &SearchControl,
) {
    if let (1, Some(&best)) = (it.multipv, it.pv.first()) {
        control.offer(bestmove_text(
            pos,
            best,
            it.pv.get(1).copied(),
            settings.show_ponder,
        ));
    }
}

/// The time control a `go` gives the side to move.
fn time_control(side: Color, request: &GoRequest) -> TimeControl {
    if let Some(t) = request.move_time {
        TimeControl::MoveTime(t)
    } else if let Some(remaining) = request.time[side.index()] {
        TimeControl::Clock(Clock {
            remaining,
            increment: request.increment[side.index()],
            moves_to_go: request.moves_to_go,
        })
    } else {
        TimeControl::Unlimited
    }
}

/// When, counted from the start of its clock, the answer to a `go` on `position` is due
/// at the latest: the search's hard deadline (or a solve's `movetime`, less the
/// overhead), computed by the same rules the search uses. `None` when only the search
/// itself or `stop` can end it (`infinite`, `ponder` until `ponderhit`, no time limit).
#[must_use]
pub fn answer_due(
    position: &AnyPosition,
    request: &GoRequest,
    overhead: Duration,
) -> Option<Duration> {
    if request.infinite {
        return None;
    }
    if request.solve {
        return request.move_time.map(|t| t.saturating_sub(overhead));
    }
    let side = position.side_to_move();
    let (squares, empty) = with_position!(position, p => {
        let geo = p.geometry();
        (geo.width() * geo.height(), p.empty().count() as usize)
    });
    budget(
        time_control(side, request),
        overhead,
        moves_left(squares, empty),
    )
    .hard
}

fn search_params<B: Bitboard>(
    pos: &Position<B>,
    request: &GoRequest,
    settings: JobSettings,
    say: &dyn Fn(String),
) -> SearchParams<B> {
    let time = time_control(pos.side_to_move(), request);
    let mut searchmoves = Vec::new();
    let mut refused = Vec::new();
    for text in &request.search_moves {
        match pos.parse_move(text) {
            Ok(m) => searchmoves.push(m),
            Err(e) => refused.push(e),
        }
    }
    // One line however many moves were refused: a line of junk gets one reply.
    if let Some(first) = refused.first() {
        let others = match refused.len() - 1 {
            0 => String::new(),
            n => format!(", as are {n} more"),
        };
        let fallback = if searchmoves.is_empty() {
            "; searching every move"
        } else {
            ""
        };
        say(format!(
            "info string error: searchmoves: {first} (ignored{others}){fallback}"
        ));
    }
    SearchParams {
        depth: request.depth,
        nodes: request.nodes,
        time,
        overhead: settings.overhead,
        multipv: settings.multipv,
        searchmoves,
        exact: false,
        skill: settings.skill,
    }
}

fn info_line<B: Bitboard>(pos: &Position<B>, it: &Iteration<'_, B>, show_multipv: bool) -> String {
    let millis = it.elapsed.as_millis().max(1);
    let nps = u128::from(it.nodes) * 1000 / millis;
    let multipv = if show_multipv {
        format!(" multipv {}", it.multipv)
    } else {
        String::new()
    };
    format!(
        "info depth {} seldepth {}{multipv} score {} nodes {} nps {nps} time {} hashfull {} pv {}",
        it.depth,
        it.seldepth,
        uci(it.score),
        it.nodes,
        it.elapsed.as_millis(),
        it.hashfull,
        line_text(pos, it.pv),
    )
}

/// The moves of a line from `pos`, in canonical text separated by spaces.
fn line_text<B: Bitboard>(pos: &Position<B>, line: &[Move<B>]) -> String {
    let mut at = *pos;
    let mut texts = Vec::with_capacity(line.len());
    for &m in line {
        texts.push(at.move_text(m));
        at.play_unchecked(m);
    }
    texts.join(" ")
}

fn bestmove_line<B: Bitboard>(
    pos: &Position<B>,
    result: &SearchResult<B>,
    show_ponder: bool,
) -> String {
    match result.best {
        Some(best) => bestmove_text(pos, best, result.ponder, show_ponder),
        None => "bestmove 0000".into(),
    }
}

/// `bestmove <best> [ponder <reply>]`, the reply shown only when `show_ponder`.
fn bestmove_text<B: Bitboard>(
    pos: &Position<B>,
    best: Move<B>,
    reply: Option<Move<B>>,
    show_ponder: bool,
) -> String {
    match reply.filter(|_| show_ponder) {
        Some(reply) => format!(
            "bestmove {} ponder {}",
            pos.move_text(best),
            pos.after(best).move_text(reply)
        ),
        None => format!("bestmove {}", pos.move_text(best)),
    }
}
