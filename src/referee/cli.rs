//! The command line, in cutechess-cli's style: `-engine key=value...` per engine,
//! `-each` for keys shared by all, then tournament options.

use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use thiserror::Error;

use super::config::{
    Config, MergeConfig, OpeningOrder, OpeningsConfig, Shard, SprtConfig, SprtModel, Timeouts,
    TournamentKind,
};
use crate::client::{EngineKeys, SpecError, parse_seconds};
use crate::rules::Variant;

/// The help text.
pub const USAGE: &str = "\
Usage: referee -engine cmd=<path> [key=value]... -engine cmd=<path> [key=value]... [options]
       referee merge [-json <out>] [-pgnout <out>] [-sprt ...] <file.json>...
       referee -resume <state file>

Engine keys (for -engine, or -each for all engines; an engine's own keys win):
  cmd=<path>            program to run (found on PATH when it has no '/')
  name=<name>           name in reports (default: the engine's 'id name')
  arg=<arg>             one command-line argument (repeat for more)
  dir=<dir>             working directory
  option.<Name>=<v>     sent as 'setoption name <Name> value <v>'
  proto=ugi|uci         skip protocol detection (default: 'ugi', then 'uci')
  tc=[<moves>/]<base>[+<inc>]   clock in seconds: tc=10+0.1, tc=40/60
  st=<seconds>          fixed time per move ('go movetime')
  depth=<n>             'go depth <n>'
  nodes=<n>             'go nodes <n>'
  timemargin=<ms>       how late a bestmove may be before it loses on time (default 0)

Options:
  -games <n>            games per pairing and round, even: each opening is played
                        twice with colours swapped (default 2)
  -rounds <n>           repeat the schedule n times (default 1)
  -concurrency <n>      games played at once (default 1)
  -tournament round-robin|gauntlet   with 3+ engines (default round-robin)
  -board <WxH>          board size (default 8x8)
  -opening diagonal|centre|any       opening rule (default diagonal)
  -multijump straight|turning        multi-jump rule (default straight)
  -openings [file=<path>] [order=sequential|random] [plies=<n>]
                        start positions: position texts (or 'startpos'), one a line,
                        then <n> random legal plies from the seed
  -seed <n>             seed of random openings (default: random; always printed)
  -pgnout <file>        append games in PGN
  -json <file>          write a JSON summary at the end
  -sprt elo0=<e> elo1=<e> alpha=<a> beta=<b> [model=both|binomial|pairs]
                        stop when an SPRT accepts a hypothesis (two engines)
  -ratinginterval <n>   print standings every n games (default 10, 0: at the end)
  -resume <file>        state file: continue from it if it exists, update it after
                        every game; alone, it repeats the command line stored in it
  -shard <i>/<n>        play only pair i of every n (combine the JSON with 'merge')
  -event <name>         PGN Event tag (default 'konane match')
  -startuptimeout <s>   wait for ugiok/uciok and readyok (default 10)
  -watchdog <s>         wait for bestmove under depth/nodes limits (default 60)
  -grace <s>            wait after 'quit' before killing an engine (default 1)
  -debug                print all engine traffic and engine stderr

Limits: durations up to 1000000 s (timemargin up to 1000000000 ms). From each engine
a line keeps at most 16 KiB (the rest is dropped; control characters are replaced),
at most 256 lines wait to be read (then the engine waits), and more than 100000
lines or 64 MiB after one command, or 256 lines unasked, loses by 'flood'. On Linux
the referee adopts and ends helpers an engine left behind in a session of their own.
Exit status: 0 done, 130 after Ctrl-C, 2 on an error.
";

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Invocation {
    /// Play a tournament.
    Run(Box<Config>),
    /// Combine JSON files.
    Merge(MergeConfig),
    /// Print [`USAGE`].
    Help,
}

/// A command line that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CliError {
    /// An option that does not exist.
    #[error("unknown option '{0}' (see -help)")]
    UnknownOption(String),
    /// An option given without its value.
    #[error("option {0} needs a value")]
    MissingValue(String),
    /// A value that cannot be read.
    #[error("option {option}: {reason}")]
    BadValue {
        /// The option or key.
        option: String,
        /// What is wrong.
        reason: String,
    },
    /// Something missing or contradictory.
    #[error("{0}")]
    Invalid(String),
}

impl From<SpecError> for CliError {
    fn from(e: SpecError) -> Self {
        match e {
            SpecError::BadValue { key, reason } => CliError::BadValue {
                option: key,
                reason,
            },
            SpecError::Invalid(reason) => CliError::Invalid(reason),
        }
    }
}

fn bad(option: &str, reason: impl ToString) -> CliError {
    CliError::BadValue {
        option: option.to_string(),
        reason: reason.to_string(),
    }
}

/// `value` read as a `T` with its own parser, whose error says what is wrong.
fn parsed<T: FromStr<Err: ToString>>(option: &str, value: &str) -> Result<T, CliError> {
    value.parse().map_err(|e| bad(option, e))
}

fn number<T: FromStr>(option: &str, value: &str) -> Result<T, CliError> {
    value
        .parse()
        .map_err(|_| bad(option, format!("'{value}' is not a whole number")))
}

fn decimal(option: &str, value: &str) -> Result<f64, CliError> {
    match value.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(bad(option, format!("'{value}' is not a number"))),
    }
}

/// A command line read from left to right: an option, then what it takes.
struct Args<'a> {
    args: &'a [String],
    next: usize,
}

impl<'a> Args<'a> {
    fn new(args: &'a [String]) -> Args<'a> {
        Args { args, next: 0 }
    }

    /// The next word.
    fn word(&mut self) -> Option<&'a str> {
        let word = self.args.get(self.next)?;
        self.next += 1;
        Some(word)
    }

    /// The next word, whatever it looks like: the value `option` needs.
    fn value(&mut self, option: &str) -> Result<&'a str, CliError> {
        self.word()
            .ok_or_else(|| CliError::MissingValue(option.to_string()))
    }

    /// The next words while they look like `key=value`.
    fn key_values(&mut self) -> Vec<&'a str> {
        let mut tokens = Vec::new();
        while let Some(t) = self.args.get(self.next) {
            if t.starts_with('-') || !t.contains('=') {
                break;
            }
            tokens.push(t.as_str());
            self.next += 1;
        }
        tokens
    }
}

fn is_help(option: &str) -> bool {
    matches!(option, "-help" | "--help" | "-h")
}

fn parse_openings(tokens: &[&str]) -> Result<OpeningsConfig, CliError> {
    let mut config = OpeningsConfig::default();
    for t in tokens {
        match t.split_once('=') {
            Some(("file", v)) => config.file = Some(PathBuf::from(v)),
            Some(("plies", v)) => config.plies = number("-openings plies", v)?,
            Some(("order", "sequential")) => config.order = OpeningOrder::Sequential,
            Some(("order", "random")) => config.order = OpeningOrder::Random,
            _ => {
                return Err(bad(
                    "-openings",
                    format!("'{t}' is not file=, order= or plies="),
                ));
            }
        }
    }
    Ok(config)
}

fn parse_sprt(tokens: &[&str]) -> Result<SprtConfig, CliError> {
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
    let mut model = SprtModel::Both;
    for t in tokens {
        match t.split_once('=') {
            Some(("elo0", v)) => elo0 = Some(decimal("-sprt elo0", v)?),
            Some(("elo1", v)) => elo1 = Some(decimal("-sprt elo1", v)?),
            Some(("alpha", v)) => alpha = decimal("-sprt alpha", v)?,
            Some(("beta", v)) => beta = decimal("-sprt beta", v)?,
            Some(("model", "both")) => model = SprtModel::Both,
            Some(("model", "binomial")) => model = SprtModel::Binomial,
            Some(("model", "pairs")) => model = SprtModel::Pairs,
            _ => {
                return Err(bad(
                    "-sprt",
                    format!("'{t}' is not elo0=, elo1=, alpha=, beta= or model="),
                ));
            }
        }
    }
    let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
        return Err(bad("-sprt", "needs elo0= and elo1="));
    };
    if elo0 >= elo1 {
        return Err(bad("-sprt", "elo0 must be below elo1"));
    }
    let open_unit = |x: f64| x > 0.0 && x < 1.0;
    if !open_unit(alpha) || !open_unit(beta) || alpha + beta >= 1.0 {
        return Err(bad(
            "-sprt",
            "alpha and beta must be between 0 and 1, with a sum below 1",
        ));
    }
    Ok(SprtConfig {
        elo0,
        elo1,
        alpha,
        beta,
        model,
    })
}

fn parse_tournament(value: &str) -> Result<TournamentKind, CliError> {
    match value {
        "round-robin" | "roundrobin" => Ok(TournamentKind::RoundRobin),
        "gauntlet" => Ok(TournamentKind::Gauntlet),
        _ => Err(bad(
            "-tournament",
            format!("'{value}' is not round-robin or gauntlet"),
        )),
    }
}

fn parse_shard(value: &str) -> Result<Shard, CliError> {
    let parts = value.split_once('/');
    let parsed = parts.and_then(|(i, n)| Some((i.parse::<u32>().ok()?, n.parse::<u32>().ok()?)));
    match parsed {
        Some((i, n)) if i >= 1 && i <= n => Ok(Shard {
            index: i - 1,
            count: n,
        }),
        _ => Err(bad(
            "-shard",
            format!("'{value}' is not <i>/<n> with 1 <= i <= n"),
        )),
    }
}

fn seconds(option: &str, value: &str) -> Result<Duration, CliError> {
    parse_seconds(value).map_err(|e| bad(option, e))
}

/// The settings before any option: `args` is kept for the state file.
fn defaults(args: &[String]) -> Config {
    Config {
        engines: Vec::new(),
        tournament: TournamentKind::RoundRobin,
        games: 2,
        rounds: 1,
        concurrency: 1,
        variant: Variant::default(),
        openings: OpeningsConfig::default(),
        seed: None,
        pgn_out: None,
        json_out: None,
        sprt: None,
        rating_interval: 10,
        resume: None,
        shard: None,
        event: "konane match".to_string(),
        timeouts: Timeouts::default(),
        debug: false,
        args: args.to_vec(),
    }
}

/// Reads a command line (without the program name).
pub fn parse(args: &[String]) -> Result<Invocation, CliError> {
    if args.first().map(String::as_str) == Some("merge") {
        return parse_merge(&args[1..]);
    }
    let mut tournament = Tournament {
        config: defaults(args),
        each: EngineKeys::default(),
        engines: Vec::new(),
    };
    let mut args = Args::new(args);
    while let Some(option) = args.word() {
        if is_help(option) {
            return Ok(Invocation::Help);
        }
        tournament.apply(option, &mut args)?;
    }
    let config = tournament.finish()?;
    check(&config)?;
    Ok(Invocation::Run(Box::new(config)))
}

/// A tournament's command line, read up to some option.
struct Tournament {
    config: Config,
    /// The `-each` keys so far, the later over the earlier.
    each: EngineKeys,
    /// Each `-engine`'s own keys.
    engines: Vec<EngineKeys>,
}

impl Tournament {
    /// Reads `option` and what it takes from `args`.
    fn apply(&mut self, option: &str, args: &mut Args<'_>) -> Result<(), CliError> {
        let config = &mut self.config;
        match option {
            "-engine" => self.engines.push(EngineKeys::parse(&args.key_values())?),
            "-each" => self.each = EngineKeys::parse(&args.key_values())?.over(&self.each),
            "-games" => config.games = number(option, args.value(option)?)?,
            "-rounds" => config.rounds = number(option, args.value(option)?)?,
            "-concurrency" => config.concurrency = number(option, args.value(option)?)?,
            "-tournament" => config.tournament = parse_tournament(args.value(option)?)?,
            "-board" => config.variant.size = parsed(option, args.value(option)?)?,
            "-opening" => config.variant.opening = parsed(option, args.value(option)?)?,
            "-multijump" => config.variant.multi_jump = parsed(option, args.value(option)?)?,
            "-openings" => config.openings = parse_openings(&args.key_values())?,
            "-seed" => config.seed = Some(number(option, args.value(option)?)?),
            "-pgnout" => config.pgn_out = Some(PathBuf::from(args.value(option)?)),
            "-json" => config.json_out = Some(PathBuf::from(args.value(option)?)),
            "-sprt" => config.sprt = Some(parse_sprt(&args.key_values())?),
            "-ratinginterval" => config.rating_interval = number(option, args.value(option)?)?,
            "-resume" => config.resume = Some(PathBuf::from(args.value(option)?)),
            "-shard" => config.shard = Some(parse_shard(args.value(option)?)?),
            "-event" => config.event = args.value(option)?.to_string(),
            "-startuptimeout" => config.timeouts.startup = seconds(option, args.value(option)?)?,
            "-watchdog" => config.timeouts.watchdog = seconds(option, args.value(option)?)?,
            "-grace" => config.timeouts.grace = seconds(option, args.value(option)?)?,
            "-debug" => config.debug = true,
            _ => return Err(CliError::UnknownOption(option.to_string())),
        }
        Ok(())
    }

    /// The configuration, with every engine's keys over the `-each` keys.
    fn finish(self) -> Result<Config, CliError> {
        let Tournament {
            mut config,
            each,
            engines,
        } = self;
        config.engines = engines
            .into_iter()
            .enumerate()
            .map(|(n, keys)| keys.over(&each).into_spec(n + 1).map_err(CliError::from))
            .collect::<Result<_, _>>()?;
        Ok(config)
    }
}

fn check(config: &Config) -> Result<(), CliError> {
    let invalid = |s: &str| Err(CliError::Invalid(s.to_string()));
    // `-resume <file>` alone takes everything else from the file.
    if config.engines.is_empty() && config.resume.is_some() {
        return Ok(());
    }
    if config.engines.len() < 2 {
        return invalid("give at least two engines with -engine cmd=<path> ...");
    }
    if config.games == 0 || !config.games.is_multiple_of(2) {
        return invalid("-games must be even: every opening is played twice with colours swapped");
    }
    if config.rounds == 0 || config.concurrency == 0 {
        return invalid("-rounds and -concurrency must be at least 1");
    }
    if config.sprt.is_some() && config.engines.len() != 2 {
        return invalid("-sprt needs exactly two engines");
    }
    if config.sprt.is_some() && config.shard.is_some() {
        return invalid(
            "-sprt cannot stop a single shard: run 'merge -sprt ...' on the shards' JSON files",
        );
    }
    Ok(())
}

fn parse_merge(args: &[String]) -> Result<Invocation, CliError> {
    let mut merge = MergeConfig {
        inputs: Vec::new(),
        json_out: None,
        pgn_out: None,
        sprt: None,
    };
    let mut args = Args::new(args);
    while let Some(option) = args.word() {
        match option {
            _ if is_help(option) => return Ok(Invocation::Help),
            "-json" => merge.json_out = Some(PathBuf::from(args.value(option)?)),
            "-pgnout" => merge.pgn_out = Some(PathBuf::from(args.value(option)?)),
            "-sprt" => merge.sprt = Some(parse_sprt(&args.key_values())?),
            _ if option.starts_with('-') => {
                return Err(CliError::UnknownOption(option.to_string()));
            }
            _ => merge.inputs.push(PathBuf::from(option)),
        }
    }
    if merge.inputs.is_empty() {
        return Err(CliError::Invalid(
            "merge needs at least one JSON file".to_string(),
        ));
    }
    Ok(Invocation::Merge(merge))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client;

    fn run(line: &str) -> Result<Config, CliError> {
        let args: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        match parse(&args)? {
            Invocation::Run(config) => Ok(*config),
            other => panic!("{line} gave {other:?}"),
        }
    }

    #[test]
    fn each_keys_apply_to_every_engine_and_an_engines_own_keys_win() {
        let c = run("-engine cmd=./a tc=1 st=0.5 -engine cmd=b st=0.5").unwrap_err();
        assert!(
            matches!(c, CliError::Invalid(_)),
            "tc and st together: {c:?}"
        );
        let c = run("-each tc=10+0.1 -engine cmd=./a -engine cmd=b st=0.5").unwrap();
        assert_eq!(c.engines[1].limits.tc, None, "st= replaces the shared tc=");
        assert_eq!(
            c.engines[1].limits.move_time,
            Some(Duration::from_millis(500))
        );
        let c = run("-each tc=10+0.1 option.Hash=16 arg=-q \
                     -engine cmd=./a name=A option.Hash=64 arg=-v -engine cmd=b depth=3 \
                     -each timemargin=20")
        .unwrap();
        let [a, b] = [&c.engines[0], &c.engines[1]];
        assert_eq!(a.name.as_deref(), Some("A"));
        assert_eq!(a.options, [("Hash".to_string(), "64".to_string())]);
        assert_eq!(a.process.args, ["-q", "-v"]);
        assert_eq!(b.options, [("Hash".to_string(), "16".to_string())]);
        assert_eq!(b.limits.depth, Some(3));
        assert_eq!(b.limits.tc, Some("10+0.1".parse().unwrap()));
        assert_eq!(b.limits.margin, Duration::from_millis(20));
    }

    #[test]
    fn tournament_options_are_read() {
        let c = run(
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -games 4 -rounds 3 -concurrency 2 \
                     -board 6x6 -opening any -multijump turning -openings plies=4 order=random \
                     -seed 42 -sprt elo0=0 elo1=10 alpha=0.05 beta=0.1 model=pairs -shard 2/5",
        )
        .unwrap_err();
        assert!(matches!(c, CliError::Invalid(_)), "sprt with shard");
        let c = run(
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -games 4 -rounds 3 -concurrency 2 \
                     -board 6x6 -opening any -multijump turning -openings plies=4 order=random \
                     -seed 42 -sprt elo0=0 elo1=10 alpha=0.05 beta=0.1 model=pairs",
        )
        .unwrap();
        assert_eq!((c.games, c.rounds, c.concurrency), (4, 3, 2));
        assert_eq!(c.variant.to_string(), "6x6 any turning");
        assert_eq!(c.openings.plies, 4);
        assert_eq!(c.openings.order, OpeningOrder::Random);
        assert_eq!(c.seed, Some(42));
        let sprt = c.sprt.unwrap();
        assert_eq!(
            (sprt.elo1, sprt.beta, sprt.model),
            (10.0, 0.1, SprtModel::Pairs)
        );
        let c = run("-engine cmd=a tc=1 -engine cmd=b tc=1 -shard 2/5").unwrap();
        assert_eq!(c.shard, Some(Shard { index: 1, count: 5 }));
        let c = run("-engine cmd=a tc=1 -engine cmd=b tc=1 -tournament gauntlet").unwrap();
        assert_eq!(c.tournament, TournamentKind::Gauntlet);
    }

    #[test]
    fn mistakes_are_named() {
        for (line, needle) in [
            ("-engine cmd=a -engine cmd=b tc=1", "no limit"),
            ("-engine name=x tc=1 -engine cmd=b tc=1", "no cmd"),
            ("-engine cmd=a tc=1", "two engines"),
            ("-engine cmd=a tc=1 -engine cmd=b tc=1 -games 3", "even"),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -board 40x40",
                "board",
            ),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -bogus",
                "unknown option",
            ),
            ("-engine cmd=a tc=x -engine cmd=b tc=1", "time control"),
            ("-engine cmd=a tc=1 -engine cmd=b tc=1 -shard 3/2", "shard"),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -tournament swiss",
                "not round-robin or gauntlet",
            ),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -games",
                "needs a value",
            ),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -sprt elo0=5 elo1=0",
                "below",
            ),
        ] {
            let e = run(line).unwrap_err().to_string();
            assert!(e.contains(needle), "{line}: {e}");
        }
    }

    #[test]
    fn the_help_states_the_limits_in_force() {
        for limit in [
            client::MAX_SECONDS.to_string(),
            (client::MAX_SECONDS * 1000).to_string(),
            format!("{} KiB", client::MAX_LINE_BYTES / 1024),
            format!("{} lines", client::QUEUE_LINES),
            client::FLOOD_LINES.to_string(),
            format!("{} MiB", client::FLOOD_BYTES >> 20),
        ] {
            assert!(USAGE.contains(&limit), "the help does not say {limit}");
        }
    }

    #[test]
    fn durations_are_refused_beyond_the_limit() {
        for line in [
            "-engine cmd=a st=1000001 -engine cmd=b tc=1",
            "-engine cmd=a tc=1 -engine cmd=b tc=1 -watchdog 10000000000000000000",
            "-engine cmd=a tc=1 timemargin=1000000001 -engine cmd=b tc=1",
        ] {
            assert!(run(line).is_err(), "{line}");
        }
        assert!(run("-engine cmd=a st=1000000 -engine cmd=b tc=1").is_ok());
    }

    #[test]
    fn merge_takes_files_and_outputs() {
        let args: Vec<String> = "merge -json all.json a.json b.json -sprt elo0=0 elo1=5"
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let Invocation::Merge(m) = parse(&args).unwrap() else {
            panic!("not a merge")
        };
        assert_eq!(m.inputs.len(), 2);
        assert_eq!(m.json_out, Some(PathBuf::from("all.json")));
        assert!(m.sprt.is_some());
    }
}
