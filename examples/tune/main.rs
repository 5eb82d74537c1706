//! Playing strength measured and learned with the exact solver.
//!
//! ```text
//! cargo run --release --example tune -- gen [options]       labelled positions to stdout
//! cargo run --release --example tune -- accuracy [options] FILE...   the accuracy table
//! cargo run --release --example tune -- fit [options] FILE...        fit the weights
//! cargo run --release --example tune -- patterns [options] FILE...   fit the patterns
//! cargo run --release --example tune -- reach [options]     how early the solver proves games
//!
//! gen options:
//!   --size WxH --opening RULE --multi-jump RULE   the rules (default 6x6 diagonal straight)
//!   --count N            positions to write (default 100)
//!   --plies LO-HI        take positions at these plies of a game (default 8-16)
//!   --seed X             random seed (default 1)
//!   --accuracy           write won positions with a losing move and their moves
//!                        (default: every solved position and its children, for tuning)
//!   --engine-nodes N     node budget of the engine's moves (default 4000)
//!   --solve-nodes N      skip positions whose moves need more solver nodes (default 20M)
//!   --noise PERCENT      share of random moves after the opening (default 10)
//!   --exclude FILE       leave out the positions of this set (repeatable)
//!   --hash MB            solver table (default 128)
//! accuracy options:
//!   --budgets LIST       of nodes=N, movetime=MS and depth=N (default
//!                        nodes=1000,nodes=10000,nodes=100000,movetime=100)
//!   --hash MB            the engine's table (default 16, as the engine's Hash)
//!   --misses             list each position whose win was thrown away (to stderr)
//! fit options:
//!   --ridge R            penalty on squared weights (default 1e-4)
//!   --holdout PERCENT    positions kept out of the fit to check it (default 10)
//!   --exclude FILE       never use the positions of this set (repeatable)
//! patterns options (prints src/search/pattern_weights.rs):
//!   --l2 X               penalty on squared pattern weights (default 1e-4)
//!   --epochs N           gradient steps (default 300)
//!   --scale S            evaluation units per logit (default 220)
//!   --holdout PERCENT    positions kept out of the fit to check it (default 10)
//!   --exclude FILE       never use the positions of this set (repeatable)
//! reach options:
//!   --size WxH --opening RULE --multi-jump RULE   the rules (default 8x8 diagonal straight)
//!   --games N            self-play games (default 100)
//!   --seed X             random seed (default 1)
//!   --engine-nodes N     node budget of the engine's moves (default 20000)
//!   --noise PERCENT      share of random moves after the opening (default 10)
//!   --limits LIST        seconds a solve may take, e.g. 1,10 (default 1,10)
//!   --hash MB            solver table (default 64, as the engine's SolverHash)
//!   --regions            with the solver's region analysis (off in the engine)
//!   --game-values        with the solver's sums of region values (off in the engine)
//!   --no-eval-order      without the solver's ordering by the evaluation
//!   --no-eval-numbers    without the solver's proof numbers scaled by the evaluation
//! ```
//!
//! `scripts/gen-accuracy`, `scripts/accuracy`, `scripts/tune` and `scripts/tune-patterns` run these with the
//! settings the checked-in sets and weights were made with.

// A developer's tool run by hand: its output is written with the printing macros.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod accuracy;
mod data;
mod fit;
mod games;
mod patterns;
mod reach;

use std::collections::HashSet;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use konane::rules::{BoardSize, Variant};
use konane::search::features::{ENGINE_WEIGHTS, FEATURES, Feature};
use konane::search::solver::SolverConfig;

use accuracy::Budget;
use data::Labelled;
use games::{GenOptions, Players};
use reach::ReachOptions;

fn number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("'{text}' is not a number"))
}

/// A rule (board size, opening or multi-jump rule) from its text.
fn rule<T: std::str::FromStr>(text: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    text.parse().map_err(|e| format!("{e}"))
}

fn read_sets(files: &[PathBuf]) -> Result<Vec<(String, Vec<Labelled>)>, String> {
    files
        .iter()
        .map(|f| {
            let name = f.file_name().unwrap_or(f.as_os_str());
            Ok((name.to_string_lossy().into_owned(), data::read(f)?))
        })
        .collect()
}

/// The labelled files a fit reads, the positions it never uses, and the share it holds
/// out to check itself (`--holdout`, `--exclude`, and the file arguments).
struct FitSets {
    holdout: u64,
    exclude: HashSet<u64>,
    files: Vec<PathBuf>,
}

impl FitSets {
    fn new() -> FitSets {
        FitSets {
            holdout: 10,
            exclude: HashSet::new(),
            files: Vec::new(),
        }
    }

    /// Takes `arg` (with its value) if it is one of these options or a file; an unknown
    /// `--` option is an error.
    fn take<'a>(
        &mut self,
        arg: &str,
        value: &mut dyn FnMut() -> Result<&'a String, String>,
    ) -> Result<(), String> {
        match arg {
            "--holdout" => self.holdout = number::<u64>(value()?)?.min(90),
            "--exclude" => self.exclude.extend(hashes(&PathBuf::from(value()?))?),
            _ if arg.starts_with("--") => return Err(format!("unknown argument '{arg}'")),
            _ => self.files.push(PathBuf::from(arg)),
        }
        Ok(())
    }

    /// The positions of the files but the excluded ones, split into a training part
    /// and a held-out part of about `holdout` percent. The split is by position hash,
    /// so it does not depend on file order.
    fn split(&self) -> Result<(Vec<Labelled>, Vec<Labelled>), String> {
        let (mut train, mut check) = (Vec::new(), Vec::new());
        for (_, set) in read_sets(&self.files)? {
            for l in set {
                let hash = l.board()?.hash();
                if self.exclude.contains(&hash) {
                    continue;
                }
                if hash % 100 < self.holdout {
                    check.push(l);
                } else {
                    train.push(l);
                }
            }
        }
        Ok((train, check))
    }
}

/// The hashes of the positions of the set in `file`.
fn hashes(file: &Path) -> Result<HashSet<u64>, String> {
    data::read(file)?
        .iter()
        .map(|l| Ok(l.board()?.hash()))
        .collect()
}

/// The options `gen` and `reach` share: the rules and how the games are played
/// (`--size`, `--opening`, `--multi-jump`, `--engine-nodes`, `--noise`). Returns false
/// when `arg` is none of them.
fn game_option<'a>(
    variant: &mut Variant,
    players: &mut Players,
    arg: &str,
    value: &mut dyn FnMut() -> Result<&'a String, String>,
) -> Result<bool, String> {
    match arg {
        "--size" => variant.size = rule(value()?)?,
        "--opening" => variant.opening = rule(value()?)?,
        "--multi-jump" => variant.multi_jump = rule(value()?)?,
        "--engine-nodes" => players.engine_nodes = number::<u64>(value()?)?.max(4),
        "--noise" => players.noise_percent = number::<u32>(value()?)?.min(100),
        _ => return Ok(false),
    }
    Ok(true)
}

fn run_gen(args: &[String]) -> Result<(), String> {
    let mut o = GenOptions {
        variant: Variant {
            size: BoardSize::new(6, 6).map_err(|e| e.to_string())?,
            ..Variant::default()
        },
        count: 100,
        min_ply: 8,
        max_ply: 16,
        seed: 1,
        accuracy: false,
        players: Players {
            engine_nodes: 4000,
            noise_percent: 10,
        },
        solve_nodes: 20_000_000,
        exclude: HashSet::new(),
        hash_mb: 128,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            _ if game_option(&mut o.variant, &mut o.players, arg, &mut value)? => {}
            "--count" => o.count = number(value()?)?,
            "--plies" => {
                let text = value()?;
                let (lo, hi) = text
                    .split_once('-')
                    .ok_or(format!("--plies wants LO-HI, not '{text}'"))?;
                (o.min_ply, o.max_ply) = (number(lo)?, number(hi)?);
            }
            "--seed" => o.seed = number(value()?)?,
            "--accuracy" => o.accuracy = true,
            "--solve-nodes" => o.solve_nodes = number(value()?)?,
            "--exclude" => o.exclude.extend(hashes(&PathBuf::from(value()?))?),
            "--hash" => o.hash_mb = number(value()?)?,
            _ => return Err(format!("unknown argument '{arg}'")),
        }
    }
    if o.min_ply > o.max_ply {
        return Err("--plies: LO must not exceed HI".to_string());
    }
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    games::generate(&o, &mut out)?;
    out.flush().map_err(|e| e.to_string())
}

fn run_accuracy(args: &[String]) -> Result<(), String> {
    let mut budgets = "nodes=1000,nodes=10000,nodes=100000,movetime=100".to_string();
    let mut hash = 16;
    let mut show_misses = false;
    let mut files = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--budgets" => budgets = value()?.clone(),
            "--hash" => hash = number(value()?)?,
            "--misses" => show_misses = true,
            _ if arg.starts_with("--") => return Err(format!("unknown argument '{arg}'")),
            _ => files.push(PathBuf::from(arg)),
        }
    }
    let budgets = budgets
        .split(',')
        .map(Budget::parse)
        .collect::<Result<Vec<_>, _>>()?;
    let names: Vec<String> = budgets
        .iter()
        .map(|b| format!("`go {}`", b.name()))
        .collect();
    println!("| set | positions | random move | {} |", names.join(" | "));
    println!("|---|---:|---:|{}", "---:|".repeat(budgets.len()));
    for (name, set) in read_sets(&files)? {
        let mut row = format!(
            "| {name} | {} | {:.1}% |",
            set.iter().filter(|l| l.wins).count(),
            accuracy::random_share(&set)
        );
        for &budget in &budgets {
            let mut missed = |labelled: &Labelled, played: Option<&str>| {
                if show_misses {
                    let played = played.unwrap_or("(none)");
                    eprintln!(
                        "miss: go {}: played {played}: {}",
                        budget.name(),
                        labelled.to_line()
                    );
                }
            };
            let score = accuracy::measure(&set, budget, hash, &mut missed)?;
            row.push_str(&format!(" {} |", score.show()));
            eprintln!("{name} go {}: {}", budget.name(), score.show());
        }
        println!("{row}");
    }
    Ok(())
}

fn run_fit(args: &[String]) -> Result<(), String> {
    let mut ridge = 1e-4;
    let mut sets = FitSets::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--ridge" => ridge = number(value()?)?,
            _ => sets.take(arg, &mut value)?,
        }
    }
    let (train, check) = sets.split()?;
    let (train, check) = (fit::Samples::of(&train)?, fit::Samples::of(&check)?);
    let old: [f64; FEATURES] = ENGINE_WEIGHTS.map(f64::from);
    let w = fit::fit(&train, ridge);
    // Centi-units: one jump more than the opponent (own minus their weight, halved)
    // is worth 100, as before.
    let jump = (w[Feature::OwnJumps as usize] - w[Feature::TheirJumps as usize]) / 2.0;
    let scale = 100.0 / jump;
    println!(
        "{} training positions, {} held out; ridge {ridge}; 100 units = {jump:.4} logits",
        train.y.len(),
        check.y.len()
    );
    // The engine's weights of these features (its patterns left out), rescaled to logits
    // the same way, for comparison.
    let old_jump =
        (old[Feature::OwnJumps as usize] - old[Feature::TheirJumps as usize]) / 2.0 / jump;
    let old_logits = old.map(|x| x / old_jump);
    let (old_loss, old_right) = fit::loss(&old_logits, &check);
    let (new_loss, new_right) = fit::loss(&w, &check);
    let (train_loss, _) = fit::loss(&w, &train);
    println!(
        "held out: engine weights (no patterns) log loss {old_loss:.4} right {:.1}%; fitted {new_loss:.4} right {:.1}% (training {train_loss:.4})",
        100.0 * old_right,
        100.0 * new_right
    );
    for (i, feature) in Feature::ALL.iter().enumerate() {
        println!(
            "{:>16}  {:>9.4} logits  {:>6}",
            feature.name(),
            w[i],
            (w[i] * scale).round()
        );
    }
    let ints: Vec<String> = w
        .iter()
        .map(|x| format!("{}", (x * scale).round()))
        .collect();
    println!(
        "weights in the order of Feature::ALL: [{}]",
        ints.join(", ")
    );
    Ok(())
}

fn run_patterns(args: &[String]) -> Result<(), String> {
    let mut o = patterns::PatternFit {
        l2: 1e-4,
        epochs: 300,
        scale: 220.0,
    };
    let mut sets = FitSets::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--l2" => o.l2 = number(value()?)?,
            "--epochs" => o.epochs = number(value()?)?,
            "--scale" => o.scale = number(value()?)?,
            _ => sets.take(arg, &mut value)?,
        }
    }
    let (train, check) = sets.split()?;
    let command = format!("tune patterns {}", args.join(" "));
    print!("{}", patterns::fit(&train, &check, &o, &command)?);
    Ok(())
}

fn run_reach(args: &[String]) -> Result<(), String> {
    let mut o = ReachOptions {
        variant: Variant::default(),
        games: 100,
        seed: 1,
        players: Players {
            engine_nodes: 20_000,
            noise_percent: 10,
        },
        limits: vec![Duration::from_secs(1), Duration::from_secs(10)],
        hash_mb: 64,
        config: SolverConfig::default(),
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            _ if game_option(&mut o.variant, &mut o.players, arg, &mut value)? => {}
            "--games" => o.games = number::<usize>(value()?)?.max(1),
            "--seed" => o.seed = number(value()?)?,
            "--limits" => o.limits = seconds_list(value()?)?,
            "--hash" => o.hash_mb = number::<usize>(value()?)?.max(1),
            "--regions" => o.config.regions = true,
            "--game-values" => o.config.game_values = true,
            "--no-eval-order" => o.config.eval_ordering = false,
            "--no-eval-numbers" => o.config.eval_numbers = false,
            _ => return Err(format!("unknown argument '{arg}'")),
        }
    }
    reach::measure(&o)
}

/// Positive seconds, comma-separated, shortest first.
fn seconds_list(text: &str) -> Result<Vec<Duration>, String> {
    let mut limits = text
        .split(',')
        .map(|s| {
            let secs: f64 = number(s)?;
            Duration::try_from_secs_f64(secs)
                .ok()
                .filter(|d| !d.is_zero() && *d <= Duration::from_secs(86_400))
                .ok_or(format!("'{s}' is not a number of seconds from 0 to a day"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    limits.sort_unstable();
    Ok(limits)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("gen") => run_gen(&args[1..]),
        Some("accuracy") => run_accuracy(&args[1..]),
        Some("fit") => run_fit(&args[1..]),
        Some("reach") => run_reach(&args[1..]),
        Some("patterns") => run_patterns(&args[1..]),
        _ => Err(
            "usage: tune gen|accuracy|fit|patterns|reach [options] (see examples/tune/main.rs)"
                .into(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tune: {e}");
            ExitCode::FAILURE
        }
    }
}
