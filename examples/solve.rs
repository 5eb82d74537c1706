//! Solves Konane positions exactly from the command line.
//!
//! ```text
//! cargo run --release --example solve -- [options]            solve one position
//! cargo run --release --example solve -- --openings [options] the start and every opening
//! cargo run --release --example solve -- --table [options]    the table of docs/solved.md
//!
//! options:
//!   --size WxH             board (default 6x6)
//!   --opening RULE         diagonal | centre | any (default diagonal)
//!   --multi-jump RULE      straight | turning (default straight)
//!   --position TEXT        solve this position instead of the start
//!   --moves "M1 M2 ..."    play these moves from the start (or --position) first
//!   --hash MB              table size (default: by board size, at most 4096)
//!   --threads N            threads of each solve (default 1)
//!   --node-limit N         give up after N nodes
//!   --time-limit SECONDS   give up after this long (each solve)
//!   --max-squares N        largest board of --table (default 36)
//!   --endgames N           solve N positions from random games (with --stones, --seed)
//!   --stones S             stones left in those positions (default 24)
//!   --seed X               random seed (default 1)
//!   --pv                   print the proven line
//!   --pns PERCENT          df-pn over positions with at most this share of empty
//!                          squares (default: 45, 50 or 55 by how big the proof
//!                          looks; 0: alpha-beta alone)
//!   --regions              fold dead stones and one-sided regions (off by default)
//!   --game-values          decide positions of several regions by adding up their
//!                          game values (off by default)
//!   --no-symmetry --no-mobility --no-eval-order --no-history --no-etc
//!   --no-mobility-numbers --no-eval-numbers
//!                          switch techniques off
//! ```
//!
//! Times are the process's CPU time (all solving threads; the machine is shared, so
//! wall time says little) and wall time; node counts are exact and repeatable.

// A developer's tool run by hand: its output is written with the printing macros.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use konane::rules::{AnyPosition, Bitboard, BoardSize, MultiJump, Opening, Variant};
use konane::search::solver::{SolveLimits, SolvedLine, Solver, SolverConfig};

struct Options {
    variant: Variant,
    position: Option<String>,
    moves: Vec<String>,
    hash: Option<usize>,
    threads: usize,
    node_limit: Option<u64>,
    time_limit: Option<Duration>,
    max_squares: usize,
    pv: bool,
    stats: bool,
    endgames: usize,
    stones: u32,
    seed: u64,
    mode: Mode,
    config: SolverConfig,
}

#[derive(PartialEq)]
enum Mode {
    One,
    Endgames,
    Openings,
    Table,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        variant: Variant {
            size: BoardSize::new(6, 6).map_err(|e| e.to_string())?,
            ..Variant::default()
        },
        position: None,
        moves: Vec::new(),
        hash: None,
        threads: 1,
        node_limit: None,
        time_limit: None,
        max_squares: 36,
        pv: false,
        stats: false,
        endgames: 0,
        stones: 24,
        seed: 1,
        mode: Mode::One,
        config: SolverConfig::default(),
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--size" => o.variant.size = value()?.parse().map_err(|e| format!("{e}"))?,
            "--opening" => o.variant.opening = value()?.parse().map_err(|e| format!("{e}"))?,
            "--multi-jump" => {
                o.variant.multi_jump = value()?.parse().map_err(|e| format!("{e}"))?;
            }
            "--position" => o.position = Some(value()?.clone()),
            "--moves" => o.moves = value()?.split_whitespace().map(String::from).collect(),
            "--hash" => o.hash = Some(number(value()?)?),
            "--threads" => o.threads = number(value()?)?,
            "--node-limit" => o.node_limit = Some(number(value()?)?),
            "--time-limit" => o.time_limit = Some(Duration::from_secs_f64(number(value()?)?)),
            "--max-squares" => o.max_squares = number(value()?)?,
            "--pv" => o.pv = true,
            "--endgames" => {
                o.endgames = number(value()?)?;
                o.mode = Mode::Endgames;
            }
            "--stones" => o.stones = number(value()?)?,
            "--seed" => o.seed = number(value()?)?,
            "--openings" => o.mode = Mode::Openings,
            "--table" => o.mode = Mode::Table,
            "--no-symmetry" => o.config.symmetry = false,
            "--no-regions" => o.config.regions = false,
            "--game-values" => o.config.game_values = true,
            "--no-mobility" => o.config.mobility_ordering = false,
            "--no-history" => o.config.history = false,
            "--no-eval-order" => o.config.eval_ordering = false,
            "--no-etc" => o.config.etc = false,
            "--no-mobility-numbers" => o.config.mobility_numbers = false,
            "--no-eval-numbers" => o.config.eval_numbers = false,
            "--pns" => o.config.proof_number_percent = Some(number(value()?)?),
            "--regions" => o.config.regions = true,
            "--stats" => o.stats = true,
            _ => return Err(format!("unknown argument '{arg}'")),
        }
    }
    Ok(o)
}

fn number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("'{text}' is not a number"))
}

/// CPU time used by the process (all solving threads).
fn cpu_time() -> Duration {
    #[cfg(target_os = "linux")]
    {
        #[repr(C)]
        struct Timespec {
            sec: i64,
            nsec: i64,
        }
        unsafe extern "C" {
            fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
        }
        const CLOCK_PROCESS_CPUTIME_ID: i32 = 2;
        let mut ts = Timespec { sec: 0, nsec: 0 };
        // SAFETY: clock_gettime writes one timespec to the pointer it is given.
        if unsafe { clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &mut ts) } == 0 {
            return Duration::new(ts.sec as u64, ts.nsec as u32);
        }
    }
    Duration::ZERO
}

/// A solved position with what it cost.
struct Measured {
    line: Result<SolvedLine, String>,
    cpu: Duration,
    wall: Duration,
}

fn solve(solver: &mut Solver, pos: &AnyPosition, o: &Options) -> Measured {
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let limits = SolveLimits {
        stop: &stop,
        deadline: o.time_limit.map(|t| start + t),
        node_limit: o.node_limit,
    };
    let cpu = cpu_time();
    let mut report = |p: &konane::search::solver::SolveProgress| {
        eprintln!(
            "  ... {} nodes, {:.0}s, table {}‰",
            p.nodes,
            p.elapsed.as_secs_f64(),
            p.table_permille
        );
    };
    let line = solver
        .solve_any(pos, &limits, &mut report)
        .map_err(|e| e.to_string());
    Measured {
        line,
        cpu: cpu_time() - cpu,
        wall: start.elapsed(),
    }
}

/// A solver for positions of `variant` as the options ask.
fn new_solver(variant: Variant, o: &Options) -> Solver {
    let mut solver = Solver::with_config(o.hash.unwrap_or(default_hash(variant)), o.config);
    solver.set_threads(o.threads);
    solver
}

fn default_hash(variant: Variant) -> usize {
    match variant.size.squares() {
        0..=20 => 4,
        21..=30 => 64,
        31..=36 => 128,
        _ => 4096,
    }
}

fn describe(m: &Measured, pv: bool, stats: bool) -> String {
    match &m.line {
        Ok(line) => {
            let mut text = format!(
                "{} mate {} nodes {} proof {} cpu {:.3}s wall {:.3}s",
                if line.side_to_move_wins {
                    "wins"
                } else {
                    "loses"
                },
                line.mate,
                line.nodes,
                line.proof_nodes,
                m.cpu.as_secs_f64(),
                m.wall.as_secs_f64(),
            );
            if pv {
                text.push_str(&format!(" pv {}", line.pv.join(" ")));
            }
            if stats {
                text.push_str(&format!(" {:?}", line.stats));
            }
            text
        }
        Err(e) => format!("unsolved: {e} cpu {:.3}s", m.cpu.as_secs_f64()),
    }
}

fn setup(o: &Options) -> Result<AnyPosition, String> {
    let mut pos = match &o.position {
        Some(text) => AnyPosition::from_text(text, o.variant.opening, o.variant.multi_jump)
            .map_err(|e| e.to_string())?,
        None => AnyPosition::start(o.variant),
    };
    for m in &o.moves {
        pos.play_text(m).map_err(|e| e.to_string())?;
    }
    Ok(pos)
}

fn run_one(o: &Options) -> Result<(), String> {
    let pos = setup(o)?;
    let variant = pos.variant();
    let mut solver = new_solver(variant, o);
    let m = solve(&mut solver, &pos, o);
    println!("{variant} {pos}: {}", describe(&m, o.pv, o.stats));
    Ok(())
}

/// Solves positions from random games with `o.stones` stones left, each from a cold
/// table.
fn run_endgames(o: &Options) -> Result<(), String> {
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};
    let mut rng = StdRng::seed_from_u64(o.seed);
    let variant = setup(o)?.variant();
    let mut solver = new_solver(variant, o);
    let (mut nodes, mut cpu) = (0u64, Duration::ZERO);
    for _ in 0..o.endgames {
        let mut pos = setup(o)?;
        loop {
            let moves = pos.legal_move_texts();
            let stones = pos
                .to_string()
                .chars()
                .filter(|&c| c == 'b' || c == 'w')
                .count();
            if moves.is_empty() || stones - 1 <= o.stones as usize {
                break;
            }
            pos.play_text(&moves[rng.random_range(0..moves.len())])
                .map_err(|e| e.to_string())?;
        }
        let (stones, mobility, pairs) = konane::with_position!(pos, p => {
            let geo = p.geometry();
            let pairs: usize = p.occupied().squares().map(|sq| {
                [konane::rules::Direction::North, konane::rules::Direction::East]
                    .iter()
                    .filter(|&&d| geo.neighbour(sq, d).is_some_and(|n| p.occupied().has(n)))
                    .count()
            }).sum();
            (
                p.occupied().count(),
                p.count_jumps(konane::rules::Color::Black) + p.count_jumps(konane::rules::Color::White),
                pairs,
            )
        });
        solver.clear();
        let m = solve(&mut solver, &pos, o);
        nodes += m.line.as_ref().map_or(0, |l| l.nodes);
        cpu += m.cpu;
        println!(
            "{pos}: stones {stones} mobility {mobility} pairs {pairs} {}",
            describe(&m, o.pv, o.stats)
        );
    }
    println!("total: {nodes} nodes, cpu {:.3}s", cpu.as_secs_f64());
    Ok(())
}

fn run_openings(o: &Options) -> Result<(), String> {
    let start = setup(o)?;
    let variant = start.variant();
    let mut solver = new_solver(variant, o);
    let m = solve(&mut solver, &start, o);
    println!("{variant} start: {}", describe(&m, o.pv, o.stats));
    for removal in start.legal_move_texts() {
        let mut pos = start;
        pos.play_text(&removal).map_err(|e| e.to_string())?;
        solver.clear();
        let m = solve(&mut solver, &pos, o);
        println!("{variant} after {removal}: {}", describe(&m, o.pv, o.stats));
    }
    Ok(())
}

/// Every board of at most `max_squares` squares, narrow first.
fn boards(max_squares: usize) -> Vec<BoardSize> {
    let mut out = Vec::new();
    for squares in 4..=max_squares {
        for w in 2..=16 {
            if squares.is_multiple_of(w)
                && let Ok(size) = BoardSize::new(w, squares / w)
            {
                out.push(size);
            }
        }
    }
    out
}

fn run_table(o: &Options) -> Result<(), String> {
    println!(
        "| board | opening | multi-jump | winner, plies | nodes | cpu s | after each first removal of black: winner, plies, nodes, cpu s |"
    );
    println!("|---|---|---|---|---:|---:|---|");
    for size in boards(o.max_squares) {
        for opening in Opening::ALL {
            for multi_jump in MultiJump::ALL {
                let variant = Variant {
                    size,
                    opening,
                    multi_jump,
                };
                println!("{}", table_row(variant, o));
            }
        }
    }
    Ok(())
}

/// "black 9": who wins a solved position (whose side to move is black or not), and
/// the length in plies of the proven line.
fn winner(m: &Measured, black_to_move: bool) -> String {
    match &m.line {
        Ok(line) => {
            let black_wins = line.side_to_move_wins == black_to_move;
            let name = if black_wins { "black" } else { "white" };
            format!("{name} {}", line.pv.len())
        }
        Err(e) => format!("unsolved: {e}"),
    }
}

fn nodes(m: &Measured) -> u64 {
    m.line.as_ref().map_or(0, |l| l.nodes)
}

/// One line of the table: the start and every opening removal, each from a cold table.
fn table_row(variant: Variant, o: &Options) -> String {
    let mut solver = new_solver(variant, o);
    let start = AnyPosition::start(variant);
    let m = solve(&mut solver, &start, o);
    let mut openings = Vec::new();
    for removal in start.legal_move_texts() {
        let mut pos = start;
        if pos.play_text(&removal).is_err() {
            continue;
        }
        solver.clear();
        let r = solve(&mut solver, &pos, o);
        openings.push(format!(
            "{removal}: {}, {}, {:.3}",
            winner(&r, false),
            nodes(&r),
            r.cpu.as_secs_f64()
        ));
    }
    if openings.is_empty() {
        openings.push("none: black cannot open and loses".to_string());
    }
    format!(
        "| {} | {} | {} | {} | {} | {:.3} | {} |",
        variant.size,
        variant.opening,
        variant.multi_jump,
        winner(&m, true),
        nodes(&m),
        m.cpu.as_secs_f64(),
        openings.join("; ")
    )
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = parse(&args).and_then(|o| match o.mode {
        Mode::One => run_one(&o),
        Mode::Endgames => run_endgames(&o),
        Mode::Openings => run_openings(&o),
        Mode::Table => run_table(&o),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("solve: {e}");
            ExitCode::FAILURE
        }
    }
}
