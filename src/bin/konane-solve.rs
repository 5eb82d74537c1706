//! `konane-solve`: proves Konane positions exactly from the shell, whole or split into
//! jobs for a batch scheduler.
//!
//! ```text
//! konane-solve [position options] [solve options]             prove one position
//! konane-solve [options] --split P --shard I/N --out FILE     prove shard I of N of the
//!                                                             positions P plies below
//! konane-solve [options] --split P [--shard I/N] --list       list those positions
//! konane-solve merge FILE...                                  combine the shards' files
//! konane-solve [options] --grow FILE [--piece-nodes N]        grow a proof piece by piece,
//!                                                             kept in FILE between runs
//! konane-solve [options] --grow FILE --graft OTHER            ... with another tree's
//!                                                             proofs grafted on first
//! ```
//!
//! Run with `--help` for the options. Exit status: 0 when proven (or merged), 1 when a
//! solve ended without a proof (a limit), 2 for bad arguments or files, or an output
//! that cannot be written.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use konane::console;
use konane::rules::{AnyPosition, BoardSize, Color, Variant};
use konane::search::solver::grow::{
    Growth, PieceLimits, PieceReport, ProofTree, TreeError, TreeFile,
};
use konane::search::solver::split::{self, Part, Shard};
use konane::search::solver::{InterruptReason, SolveLimits, SolveProgress, Solver, SolverConfig};
use konane::with_position;

const USAGE: &str = "\
usage:
  konane-solve [options]                                prove one position
  konane-solve [options] --split P --shard I/N --out F  prove shard I of N (1 <= I <= N)
                                                        of the positions P plies below it
                                                        (one of each set of mirror images),
                                                        skipping those its own results
                                                        make irrelevant
  konane-solve [options] --split P [--shard I/N] --list list those positions (of shard I),
                                                        one per line: index, position
  konane-solve merge FILE...                            combine the shards' files
  konane-solve [options] --grow FILE                    grow a proof tree piece by piece
                                                        (see below), kept in FILE: a run
                                                        goes on from the tree FILE holds

position options:
  --size WxH            board (default 6x6)
  --opening RULE        diagonal | centre | any (default diagonal)
  --multi-jump RULE     straight | turning (default straight)
  --position TEXT       this position instead of the start
  --side black|white    set the side to move of that position (also for two empty
                        squares with white to move, a position no game reaches but
                        whose play is defined)
  --moves \"M1 M2 ...\"   then play these moves
solve options:
  --hash MB             table size (default 64, at most 65536)
  --threads N           threads (default 1, at most 256)
  --time-limit SECONDS  give up after this long
  --pv                  print the proven line
  --no-eval-order       order moves by the replies they leave alone, not by the
                        evaluation high in the tree (faster on 4 x n boards and whole
                        small boards, slower on 8x8 endgames), and with it the
                        scaling below
  --no-eval-numbers     start df-pn's numbers from mobility alone, not scaled by the
                        evaluation (smaller proofs of the 7x7 opening, bigger ones of
                        endgames and of 6x6 and 6x7)
grow options (with --grow):
  --piece-nodes N       the solver's budget for one piece (default 50000000); a piece
                        that does not fit is cut into its children, and those the
                        table proved are proven again with at most N/10 nodes each
  --max-pieces N        stop after N pieces (the tree is kept; run again to go on)
  --outline PLIES       grow nothing: print the tree in FILE to PLIES plies, one
                        position a line (the moves to it; who wins it, or while it
                        is open the work left to show that black wins and that
                        white wins)
  --graft OTHER         first add what the tree file OTHER holds (a tree of any
                        position of the same rules, say a subtree grown alone or on
                        another machine): its proofs count wherever this tree meets
                        their positions; may be given more than once
  With --grow the most-proving position of the tree is proven with at most N nodes
  (one table for the whole run, --hash MB); a proof is kept, a position that does not
  fit is replaced by its children, each starting from the proof numbers that piece
  left it. The tree is written to FILE at least every 10 s and when the run ends
  (Ctrl-C too), and a run with FILE present goes on from it.

A proof prints '<position>: <colour> wins' with its nodes and time; a merge prints
the same for the split's root, or names the shards that are missing; --grow prints
one line a piece on standard error.
Exit status: 0 proven, 1 stopped by a limit, 2 bad arguments or files, or an output
that cannot be written.";

/// The largest part file `merge` reads: a frontier of `split::MAX_FRONTIER`
/// positions with their lines fits well within it.
const MAX_PART_BYTES: u64 = 1 << 30;

/// The largest table accepted, MB.
const MAX_HASH_MB: usize = 1 << 16;

/// `--grow`'s budget for one piece: about half a minute of one core.
const DEFAULT_PIECE_NODES: u64 = 50_000_000;

/// The longest `--grow` goes without writing its tree.
const SAVE_EVERY: Duration = Duration::from_secs(10);

struct Options {
    variant: Variant,
    position: Option<String>,
    moves: Vec<String>,
    side: Option<Color>,
    hash: usize,
    threads: usize,
    time_limit: Option<Duration>,
    pv: bool,
    /// The solver's switches.
    config: SolverConfig,
    split: Option<SplitJob>,
    grow: Option<GrowJob>,
}

/// What `--grow` asks for.
struct GrowJob {
    /// The tree's file.
    file: String,
    limits: PieceLimits,
    /// Print this many plies of the tree instead of growing it.
    outline: Option<usize>,
    /// Tree files whose facts are grafted onto the tree first.
    grafts: Vec<String>,
}

/// What to do with the positions `--split` names.
enum SplitJob {
    /// Prove shard `shard` of the positions `plies` below the root, write its part to `out`.
    Prove {
        plies: u32,
        shard: Shard,
        out: String,
    },
    /// Print those positions (of `shard` only, if given) instead.
    List { plies: u32, shard: Option<Shard> },
}

/// Why the program stops early.
enum Failure {
    /// Bad arguments or files, or standard output that cannot be written (status 2).
    Usage(String),
    /// A solve stopped by a limit (status 1).
    Unproven(String),
}

impl From<TreeError> for Failure {
    fn from(e: TreeError) -> Failure {
        match e {
            TreeError::Full => Failure::Unproven(e.to_string()),
            _ => Failure::Usage(e.to_string()),
        }
    }
}

fn usage(message: impl Into<String>) -> Failure {
    Failure::Usage(message.into())
}

fn parse(args: &[String]) -> Result<Options, Failure> {
    let mut o = Options {
        variant: Variant {
            size: BoardSize::new(6, 6).map_err(|e| usage(e.to_string()))?,
            ..Variant::default()
        },
        position: None,
        moves: Vec::new(),
        side: None,
        hash: 64,
        threads: 1,
        time_limit: None,
        pv: false,
        config: SolverConfig::default(),
        split: None,
        grow: None,
    };
    let (mut split_plies, mut shard, mut out, mut list) = (None, None, None, false);
    let (mut grow_file, mut piece_nodes, mut max_pieces) = (None, None, None);
    let mut outline = None;
    let mut grafts = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || {
            it.next()
                .ok_or_else(|| usage(format!("{arg} needs a value")))
        };
        let bad = |e: &dyn std::fmt::Display| usage(format!("{arg}: {e}"));
        match arg.as_str() {
            "--size" => o.variant.size = value()?.parse().map_err(|e| bad(&e))?,
            "--opening" => o.variant.opening = value()?.parse().map_err(|e| bad(&e))?,
            "--multi-jump" => o.variant.multi_jump = value()?.parse().map_err(|e| bad(&e))?,
            "--position" => o.position = Some(value()?.clone()),
            "--moves" => o.moves = value()?.split_whitespace().map(String::from).collect(),
            "--side" => {
                o.side = Some(match value()?.as_str() {
                    "black" => Color::Black,
                    "white" => Color::White,
                    other => return Err(bad(&format!("'{other}' is not black or white"))),
                });
            }
            "--hash" => o.hash = number(value()?, 0, MAX_HASH_MB).map_err(|e| bad(&e))?,
            "--threads" => {
                o.threads = number(value()?, 1, konane::search::solver::MAX_THREADS)
                    .map_err(|e| bad(&e))?;
            }
            "--time-limit" => {
                let seconds: u64 = number(value()?, 1, 1 << 32).map_err(|e| bad(&e))?;
                o.time_limit = Some(Duration::from_secs(seconds));
            }
            "--pv" => o.pv = true,
            "--no-eval-order" => o.config.eval_ordering = false,
            "--no-eval-numbers" => o.config.eval_numbers = false,
            "--split" => split_plies = Some(number(value()?, 0, 64).map_err(|e| bad(&e))?),
            "--shard" => shard = Some(parse_shard(value()?).map_err(|e| bad(&e))?),
            "--out" => out = Some(value()?.clone()),
            "--list" => list = true,
            "--grow" => grow_file = Some(value()?.clone()),
            "--outline" => outline = Some(number(value()?, 0, 1 << 16).map_err(|e| bad(&e))?),
            "--graft" => grafts.push(value()?.clone()),
            "--piece-nodes" => {
                piece_nodes = Some(number(value()?, 1, u64::MAX).map_err(|e| bad(&e))?);
            }
            "--max-pieces" => {
                max_pieces = Some(number(value()?, 1, u64::MAX).map_err(|e| bad(&e))?)
            }
            "--help" | "-h" => return Err(usage(USAGE)),
            _ => return Err(usage(format!("unknown argument '{arg}' (see --help)"))),
        }
    }
    o.split = match (split_plies, shard, out, list) {
        (Some(plies), Some(shard), Some(out), false) => Some(SplitJob::Prove { plies, shard, out }),
        (Some(plies), shard, None, true) => Some(SplitJob::List { plies, shard }),
        (None, None, None, false) => None,
        (.., true) => return Err(usage("--list needs --split, and takes no --out")),
        _ => return Err(usage("--split, --shard and --out go together")),
    };
    o.grow = match (grow_file, piece_nodes, max_pieces, outline) {
        (Some(_), ..) if o.split.is_some() => {
            return Err(usage("--grow and --split do not go together"));
        }
        (Some(file), piece_nodes, max_pieces, outline) => Some(GrowJob {
            file,
            limits: PieceLimits::new(piece_nodes.unwrap_or(DEFAULT_PIECE_NODES), max_pieces),
            outline,
            grafts,
        }),
        (None, None, None, None) if grafts.is_empty() => None,
        (None, ..) => {
            return Err(usage(
                "--piece-nodes, --max-pieces, --outline and --graft need --grow",
            ));
        }
    };
    Ok(o)
}

fn number<T: std::str::FromStr + PartialOrd + std::fmt::Display>(
    text: &str,
    low: T,
    high: T,
) -> Result<T, String> {
    match text.parse::<T>() {
        Ok(n) if n >= low && n <= high => Ok(n),
        _ => Err(format!("'{text}' is not a number from {low} to {high}")),
    }
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    let parsed = text
        .split_once('/')
        .and_then(|(i, n)| Some((i.parse::<u32>().ok()?, n.parse::<u32>().ok()?)));
    match parsed {
        Some((index, count)) if index >= 1 && index <= count => Ok(Shard { index, count }),
        _ => Err(format!("'{text}' is not I/N with 1 <= I <= N")),
    }
}

/// The position the options name: `--position` (or the start), with `--side` to move,
/// then `--moves` played from it.
fn setup(o: &Options) -> Result<AnyPosition, Failure> {
    let mut pos = match &o.position {
        Some(text) => AnyPosition::from_text(text, o.variant.opening, o.variant.multi_jump)
            .map_err(|e| usage(format!("--position: {e}")))?,
        None => AnyPosition::start(o.variant),
    };
    if o.side.is_some_and(|side| side != pos.side_to_move()) {
        pos = pass(pos)?;
    }
    for m in &o.moves {
        pos.play_text(m)
            .map_err(|e| usage(format!("--moves: {e}")))?;
    }
    Ok(pos)
}

/// `pos` with the other side to move: the same stones, so the same game from the
/// other player's turn. Only for the jumping phase (in the opening, whose turn it is
/// follows from the empty squares).
fn pass(pos: AnyPosition) -> Result<AnyPosition, Failure> {
    with_position!(pos, p => p.with_other_side_to_move().map(AnyPosition::from))
        .ok_or_else(|| usage("--side: the side to move can be set only in the jumping phase"))
}

fn new_solver(o: &Options) -> Solver {
    let mut solver = Solver::with_config(o.hash, o.config);
    solver.set_threads(o.threads);
    solver
}

fn report_progress(p: &SolveProgress) {
    console::warn(format!(
        "  ... {} nodes, {:.0}s, table {}‰",
        p.nodes,
        p.elapsed.as_secs_f64(),
        p.table_permille
    ));
}

/// "black" or "white": who wins when `side` is to move and `side_to_move_wins` says.
fn winner(side: Color, side_to_move_wins: bool) -> Color {
    if side_to_move_wins {
        side
    } else {
        side.opponent()
    }
}

/// The limits of a solve started at `started`: `--time-limit`, and a stop flag
/// nothing raises.
fn limits<'a>(o: &Options, stop: &'a AtomicBool, started: Instant) -> SolveLimits<'a> {
    SolveLimits {
        deadline: o.time_limit.map(|t| started + t),
        ..SolveLimits::new(stop)
    }
}

fn prove_one(o: &Options) -> Result<(), Failure> {
    let pos = setup(o)?;
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let limits = limits(o, &stop, started);
    let line = new_solver(o)
        .solve_any(&pos, &limits, &mut report_progress)
        .map_err(|e| Failure::Unproven(format!("{pos}: {e}")))?;
    let mut text = format!(
        "{} {pos}: {} wins, mate {} nodes {} threads {} wall {:.3}s",
        pos.variant(),
        winner(pos.side_to_move(), line.side_to_move_wins),
        line.mate,
        line.nodes,
        o.threads,
        started.elapsed().as_secs_f64()
    );
    if o.pv {
        text.push_str(&format!(" pv {}", line.pv.join(" ")));
    }
    print(&text)
}

fn prove_shard(o: &Options, plies: u32, shard: Shard, out: &str) -> Result<(), Failure> {
    let root = setup(o)?;
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let limits = limits(o, &stop, started);
    let part = split::solve_shard(
        &mut new_solver(o),
        &root,
        plies,
        shard,
        &limits,
        &mut report_progress,
    )
    .map_err(|e| usage(e.to_string()))?
    .map_err(|e| Failure::Unproven(format!("shard {}/{}: {e}", shard.index, shard.count)))?;
    let json = serde_json::to_vec_pretty(&part).map_err(|e| usage(e.to_string()))?;
    write_safely(Path::new(out), &json).map_err(usage)?;
    print(&format!(
        "shard {}/{}: {} of {} frontier positions proven, {} skipped, {} nodes, {:.3}s, written to {out}",
        shard.index,
        shard.count,
        part.results.len(),
        part.frontier,
        part.skipped.len(),
        part.nodes,
        part.seconds
    ))
}

/// Prints the frontier `plies` below the root (only `shard`'s share, if given), one
/// position per line after its frontier index.
fn list_frontier(o: &Options, plies: u32, shard: Option<Shard>) -> Result<(), Failure> {
    let root = setup(o)?;
    let positions = split::frontier(&root, plies).map_err(|e| usage(e.to_string()))?;
    let indices = shard.map_or(0..positions.len(), |s| s.range(positions.len()));
    let lines: Vec<String> = indices
        .map(|index| format!("{index} {}", positions[index]))
        .collect();
    if lines.is_empty() {
        return Ok(());
    }
    print(&lines.join("\n"))
}

fn merge(files: &[String]) -> Result<(), Failure> {
    let parts = files
        .iter()
        .map(|f| read_part(Path::new(f)))
        .collect::<Result<Vec<Part>, String>>()
        .map_err(usage)?;
    let merged = split::merge(&parts).map_err(|e| usage(e.to_string()))?;
    let root = merged.root;
    print(&format!(
        "{} {root}: {} wins, {} plies, {} nodes in {} parts over {} frontier positions, pv {}",
        root.variant(),
        winner(root.side_to_move(), merged.side_to_move_wins),
        merged.pv.len(),
        merged.nodes,
        parts.len(),
        merged.frontier,
        merged.pv.join(" ")
    ))
}

/// Writes `text` and a newline to standard output; a closed or failing output is an
/// error (status 2), not a panic.
fn print(text: &str) -> Result<(), Failure> {
    console::print(&format!("{text}\n")).map_err(|e| usage(format!("standard output: {e}")))
}

/// Reads one part file, at most [`MAX_PART_BYTES`] of it.
fn read_part(path: &Path) -> Result<Part, String> {
    read_json(path, "a part file")
}

/// Reads a JSON file of konane-solve's, at most [`MAX_PART_BYTES`] of it; `what` names
/// the kind of file in messages.
fn read_json<T: serde::de::DeserializeOwned>(path: &Path, what: &str) -> Result<T, String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(MAX_PART_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.len() as u64 > MAX_PART_BYTES {
        return Err(format!(
            "{}: larger than {MAX_PART_BYTES} bytes, not {what}",
            path.display()
        ));
    }
    serde_json::from_slice(&bytes)
        .map_err(|e| format!("{}: not {what} of konane-solve: {e}", path.display()))
}

/// Grows the proof tree of the options' position kept in `job.file` (see the usage).
fn grow(o: &Options, job: &GrowJob) -> Result<(), Failure> {
    let root = setup(o)?;
    let path = Path::new(&job.file);
    let mut tree = match fs::symlink_metadata(path) {
        Ok(meta) if !meta.file_type().is_file() => {
            return Err(usage(format!(
                "{}: exists and is not a regular file; not read",
                job.file
            )));
        }
        Ok(_) => {
            let file: TreeFile = read_json(path, "a tree file").map_err(usage)?;
            ProofTree::from_file(&file, root).map_err(|e| usage(format!("{}: {e}", job.file)))?
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && job.outline.is_none() => {
            ProofTree::new(root)
        }
        Err(e) => return Err(usage(format!("{}: {e}", job.file))),
    };
    for other in &job.grafts {
        let file: TreeFile = read_json(Path::new(other), "a tree file").map_err(usage)?;
        let grafted = tree
            .graft(&file)
            .map_err(|e| usage(format!("{other}: {e}")))?;
        console::warn(format!(
            "grafted {other}: {} expanded and {} proven positions new to the tree",
            grafted.expanded, grafted.proven
        ));
    }
    if let Some(plies) = job.outline {
        return print(&tree.outline(plies).join("\n"));
    }
    let stop = konane::referee::install_interrupt_handler();
    let started = Instant::now();
    let limits = limits(o, stop, started);
    let mut saved = Instant::now();
    let save = |tree: &ProofTree| -> Result<(), Failure> {
        let json = serde_json::to_vec(&tree.to_file()).map_err(|e| usage(e.to_string()))?;
        write_safely(path, &json).map_err(usage)
    };
    let mut report = |tree: &ProofTree, piece: &PieceReport| {
        let (black, white) = tree.root_numbers_by_colour();
        let mut result = match piece.side_to_move_wins {
            Some(wins) => format!("{} wins", winner(piece.position.side_to_move(), wins)),
            None => "did not fit: cut into its moves".to_string(),
        };
        let taken_up = &piece.taken_up;
        if taken_up.positions > 0 || taken_up.given_up > 0 {
            let leaves = if taken_up.positions == 1 {
                "leaf"
            } else {
                "leaves"
            };
            let given_up = match taken_up.given_up {
                0 => String::new(),
                n => format!(", {n} given up"),
            };
            result += &format!(
                " ({} {leaves} proven from the table{given_up}, {} nodes)",
                taken_up.positions, taken_up.nodes
            );
        }
        console::warn(format!(
            "piece {} (depth {}): {}: {result}, {} nodes, {:.1}s, table {}‰; tree {} positions, root black {}, white {}",
            tree.pieces(),
            piece.depth,
            piece.position,
            piece.nodes,
            piece.elapsed.as_secs_f64(),
            piece.table_permille,
            tree.positions(),
            number_text(black),
            number_text(white)
        ));
        if saved.elapsed() >= SAVE_EVERY {
            save(tree)?;
            saved = Instant::now();
        }
        Ok(())
    };
    let growth = tree.grow::<Failure>(&mut new_solver(o), job.limits, &limits, &mut report);
    save(&tree)?;
    let growth = growth?;
    let grafted = match tree.grafts() {
        [] => String::new(),
        grafts => format!(
            "; grafted trees: {} pieces, {} nodes, {:.0}s",
            grafts.iter().map(|g| g.pieces).sum::<u64>(),
            grafts.iter().map(|g| g.nodes).sum::<u64>(),
            grafts.iter().map(|g| g.seconds).sum::<f64>()
        ),
    };
    let summary = format!(
        "{} pieces, {} positions in the tree, {} nodes, wall {:.3}s ({:.0}s over every run){grafted}",
        tree.pieces(),
        tree.positions(),
        tree.solver_nodes(),
        started.elapsed().as_secs_f64(),
        tree.seconds()
    );
    match growth {
        Growth::Proven(verdict) => print(&format!(
            "{} {root}: {} wins, {summary}, pv {}",
            root.variant(),
            winner(root.side_to_move(), verdict.side_to_move_wins),
            verdict.pv.join(" ")
        )),
        Growth::PieceLimit => Err(Failure::Unproven(format!(
            "{root}: stopped after --max-pieces pieces; {summary}; the tree is in {}: run again to go on",
            job.file
        ))),
        Growth::Interrupted(reason) => {
            let why = match reason {
                InterruptReason::Deadline => "--time-limit reached",
                InterruptReason::TooManyMoves => "a position with too many moves for the solver",
                _ => "interrupted",
            };
            Err(Failure::Unproven(format!(
                "{root}: {why}; {summary}; the tree is in {}: run again to go on",
                job.file
            )))
        }
    }
}

/// A proof number as text: `inf` for one that can no longer be reached.
fn number_text(n: u64) -> String {
    if n == u64::MAX {
        "inf".to_string()
    } else {
        n.to_string()
    }
}

/// Writes `bytes` to `path` whole or not at all: into a new file of a fresh name in the
/// same folder (created exclusively, never through a link), then renamed over `path`.
/// Refuses to replace anything but a regular file.
fn write_safely(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let shown = path.display();
    if let Ok(meta) = fs::symlink_metadata(path)
        && !meta.file_type().is_file()
    {
        return Err(format!(
            "{shown}: exists and is not a regular file; not replaced"
        ));
    }
    let name = path
        .file_name()
        .ok_or_else(|| format!("{shown}: not a file name"))?
        .to_string_lossy();
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    for attempt in 0..100 {
        let temp = folder.join(format!(".{name}.{}.{attempt}.tmp", std::process::id()));
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NOFOLLOW);
        let mut file = match options.open(&temp) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("{}: {e}", temp.display())),
        };
        let written = file
            .write_all(bytes)
            .and_then(|()| file.sync_all())
            .and_then(|()| fs::rename(&temp, path));
        return written.map_err(|e| {
            let _ = fs::remove_file(&temp);
            format!("{shown}: {e}")
        });
    }
    Err(format!("{shown}: no free temporary name in its folder"))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let result = match args.first().map(String::as_str) {
        Some("merge") => merge(&args[1..]),
        _ => parse(&args).and_then(|o| match &o.split {
            Some(SplitJob::Prove { plies, shard, out }) => prove_shard(&o, *plies, *shard, out),
            Some(SplitJob::List { plies, shard }) => list_frontier(&o, *plies, *shard),
            None => match &o.grow {
                Some(job) => grow(&o, job),
                None => prove_one(&o),
            },
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(message)) if message == USAGE => match print(USAGE) {
            Ok(()) => ExitCode::SUCCESS,
            Err(_) => ExitCode::from(2),
        },
        Err(Failure::Usage(message)) => {
            console::warn(format!("konane-solve: {message}"));
            ExitCode::from(2)
        }
        Err(Failure::Unproven(message)) => {
            console::warn(format!("konane-solve: no proof: {message}"));
            ExitCode::from(1)
        }
    }
}
