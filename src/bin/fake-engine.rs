//! A small engine for testing the referee: it speaks UGI (or only UCI), plays the first,
//! a random or a greedy legal move, and can be told to misbehave in the ways real
//! engines do: crash, hang, play illegal moves, print garbage, answer late, start
//! slowly, never finish the handshake, flood its output, or write what no engine should.
//!
//! ```text
//! fake-engine [--name N] [--play first|random|greedy] [--seed S] [--think-ms MS]
//!             [--fault crash|hang|illegal|garbage|late|flood|endless|bad-utf8|double|early|none]
//!             [--fault-at N] [--fault-ms MS] [--fault-bytes N] [--flood-idle]
//!             [--score TEXT] [--noise SEED] [--startup-ms MS] [--no-handshake]
//!             [--uci-only] [--no-readyok] [--pid-dir DIR] [--spawn-child] [--setsid-child]
//! ```
//!
//! `--fault-at N` (default 1) picks which `go` of the process misbehaves. At that `go`,
//! `flood` writes `--fault-bytes` bytes (default 32 MiB) of complete `info` lines and
//! then hangs; `endless` writes as many bytes without a line end and then hangs;
//! `bad-utf8` answers a move that is not UTF-8; `double` answers twice, the second
//! time with an illegal move; `early` answers an illegal move as soon as a position
//! arrives, before `go`, and the right one after `go`. `--flood-idle` floods
//! `info` lines after each `bestmove`, while the opponent thinks. `--score` is the
//! score text of its `info` lines; `--noise SEED` precedes every answer with seeded
//! random junk (invalid UTF-8, control characters, long lines, lines cut short).
//! `--pid-dir` records the ids of the process and of its helpers so tests can check
//! that none is left behind: `--spawn-child` starts a `sleep` in the same process
//! group (it keeps the output pipe open), `--setsid-child` one in a session of its
//! own, out of reach of a process-group kill.

use std::io::{self, BufRead, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, ExitCode};
use std::str::FromStr;
use std::thread;
use std::time::Duration;

use konane::rules::{AnyPosition, BoardSize, MultiJump, Opening, Variant};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Play {
    First,
    Random,
    Greedy,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Fault {
    None,
    Crash,
    Hang,
    Illegal,
    Garbage,
    Late,
    Flood,
    Endless,
    BadUtf8,
    Double,
    Early,
}

struct Options {
    name: String,
    play: Play,
    seed: u64,
    think: Duration,
    fault: Fault,
    fault_at: u32,
    fault_time: Duration,
    startup: Duration,
    no_handshake: bool,
    uci_only: bool,
    no_readyok: bool,
    pid_dir: Option<String>,
    spawn_child: bool,
    setsid_child: bool,
    fault_bytes: u64,
    flood_idle: bool,
    score: String,
    noise: Option<u64>,
}

fn parse_options() -> Result<Options, String> {
    let mut o = Options {
        name: "fake".into(),
        play: Play::First,
        seed: 1,
        think: Duration::ZERO,
        fault: Fault::None,
        fault_at: 1,
        fault_time: Duration::from_secs(2),
        startup: Duration::ZERO,
        no_handshake: false,
        uci_only: false,
        no_readyok: false,
        pid_dir: None,
        spawn_child: false,
        setsid_child: false,
        fault_bytes: 32 << 20,
        flood_idle: false,
        score: "cp 0".into(),
        noise: None,
    };
    let mut args = Vec::new();
    for arg in std::env::args_os().skip(1) {
        args.push(
            arg.into_string()
                .map_err(|a| format!("argument {} is not UTF-8", a.to_string_lossy()))?,
        );
    }
    let mut args = args.into_iter();
    let ms = |v: Option<String>| -> Result<Duration, String> { Ok(Duration::from_millis(num(v)?)) };
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--name" => o.name = args.next().ok_or("--name needs a value")?,
            "--play" => {
                o.play = match args.next().as_deref() {
                    Some("first") => Play::First,
                    Some("random") => Play::Random,
                    Some("greedy") => Play::Greedy,
                    _ => return Err("--play first|random|greedy".into()),
                }
            }
            "--seed" => o.seed = num(args.next())?,
            "--think-ms" => o.think = ms(args.next())?,
            "--fault" => {
                o.fault = match args.next().as_deref() {
                    Some("none") => Fault::None,
                    Some("crash") => Fault::Crash,
                    Some("hang") => Fault::Hang,
                    Some("illegal") => Fault::Illegal,
                    Some("garbage") => Fault::Garbage,
                    Some("late") => Fault::Late,
                    Some("flood") => Fault::Flood,
                    Some("endless") => Fault::Endless,
                    Some("bad-utf8") => Fault::BadUtf8,
                    Some("double") => Fault::Double,
                    Some("early") => Fault::Early,
                    _ => return Err("--fault: see the usage at the top of fake-engine.rs".into()),
                }
            }
            "--fault-at" => o.fault_at = num(args.next())?,
            "--fault-ms" => o.fault_time = ms(args.next())?,
            "--startup-ms" => o.startup = ms(args.next())?,
            "--no-handshake" => o.no_handshake = true,
            "--uci-only" => o.uci_only = true,
            "--no-readyok" => o.no_readyok = true,
            "--pid-dir" => o.pid_dir = Some(args.next().ok_or("--pid-dir needs a value")?),
            "--spawn-child" => o.spawn_child = true,
            "--setsid-child" => o.setsid_child = true,
            "--fault-bytes" => o.fault_bytes = num(args.next())?,
            "--flood-idle" => o.flood_idle = true,
            "--score" => o.score = args.next().ok_or("--score needs a value")?,
            "--noise" => o.noise = Some(num(args.next())?),
            other => return Err(format!("unknown flag {other}")),
        }
    }
    Ok(o)
}

fn num<T: FromStr>(v: Option<String>) -> Result<T, String> {
    let v = v.ok_or("a flag needs a value")?;
    v.parse().map_err(|_| format!("'{v}' is not a number"))
}

fn record_pid(dir: &Option<String>, pid: u32) {
    if let Some(dir) = dir {
        let _ = std::fs::write(format!("{dir}/{pid}"), "");
    }
}

fn main() -> ExitCode {
    let o = match parse_options() {
        Ok(o) => o,
        Err(e) => {
            konane::console::warn(format!("fake-engine: {e}"));
            return ExitCode::from(2);
        }
    };
    record_pid(&o.pid_dir, std::process::id());
    if o.spawn_child
        && let Ok(child) = Command::new("sleep").arg("300").spawn()
    {
        record_pid(&o.pid_dir, child.id());
    }
    if o.setsid_child {
        let mut command = Command::new("sleep");
        command.arg("300").stdout(std::process::Stdio::null());
        // SAFETY: setsid only changes the new process's session; it is async-signal-safe.
        unsafe {
            command.pre_exec(|| {
                libc::setsid();
                Ok(())
            });
        }
        if let Ok(child) = command.spawn() {
            record_pid(&o.pid_dir, child.id());
        }
    }
    thread::sleep(o.startup);
    match serve(&o) {
        Ok(code) => ExitCode::from(code),
        Err(_) => ExitCode::from(1),
    }
}

/// The session: reads commands until `quit` or the end of input; returns the exit code.
fn serve(o: &Options) -> io::Result<u8> {
    let stdin = io::stdin();
    let mut out = io::stdout();
    let mut variant = Variant::default();
    let mut position: Result<AnyPosition, String> = Ok(AnyPosition::start(variant));
    let mut goes = 0;
    let mut confused = false;
    let mut noise = o.noise.map(mix);
    for line in stdin.lock().split(b'\n') {
        let line = String::from_utf8_lossy(&line?).into_owned();
        let tokens: Vec<&str> = line.split_whitespace().collect();
        match tokens.first().copied() {
            Some("ugi") if !o.no_handshake && !o.uci_only => hello(&mut out, o, "ugiok")?,
            Some("uci") if !o.no_handshake => hello(&mut out, o, "uciok")?,
            Some("isready") if !o.no_readyok => writeln!(out, "readyok")?,
            Some("uginewgame") if o.uci_only => confused = true,
            Some("setoption") => set_option(&tokens, &mut variant),
            Some("position") => {
                position = read_position(&tokens, variant);
                if o.fault == Fault::Early
                    && let Ok(p) = &position
                {
                    writeln!(out, "bestmove {}", illegal_move(p))?;
                }
            }
            Some("go") => {
                goes += 1;
                confused |= o.uci_only && tokens.contains(&"p1time");
                let fault = if goes == o.fault_at {
                    o.fault
                } else {
                    Fault::None
                };
                match fault {
                    Fault::Crash => return Ok(3),
                    Fault::Hang => loop {
                        thread::sleep(Duration::from_secs(3600));
                    },
                    Fault::Late => thread::sleep(o.fault_time),
                    Fault::Flood => {
                        flood(
                            &mut out,
                            b"info depth 1 score cp 0 nodes 1\n",
                            o.fault_bytes,
                        )?;
                        hang();
                    }
                    Fault::Endless => {
                        flood(&mut out, b"x", o.fault_bytes)?;
                        hang();
                    }
                    _ => thread::sleep(o.think),
                }
                if let Some(state) = &mut noise {
                    write_noise(&mut out, state)?;
                }
                let reply = match (&position, fault, confused) {
                    (_, Fault::Garbage, _) => "%$#@! no idea\nbestmove !!garbage!!".to_string(),
                    (Err(e), _, _) => format!("info string bad position: {e}\nbestmove error"),
                    (_, _, true) => "info string spoken to in UGI\nbestmove error".to_string(),
                    (Ok(p), Fault::Illegal, _) => format!("bestmove {}", illegal_move(p)),
                    (Ok(_), Fault::BadUtf8, _) => {
                        out.write_all(b"bestmove \xff\xfe\xc3\n")?;
                        String::new()
                    }
                    (Ok(p), _, _) => format!(
                        "info depth 1 score {} nodes 1\nbestmove {}",
                        o.score,
                        choose(p, o).unwrap_or_else(|| "0000".into())
                    ),
                };
                if !reply.is_empty() {
                    writeln!(out, "{reply}")?;
                }
                if let (Ok(p), Fault::Double) = (&position, fault) {
                    writeln!(out, "bestmove {}", illegal_move(p))?;
                }
                if o.flood_idle {
                    out.flush()?;
                    let bytes = o.fault_bytes;
                    thread::spawn(move || flood(&mut io::stdout(), b"info string idle\n", bytes));
                }
            }
            Some("quit") => return Ok(0),
            _ => {}
        }
        out.flush()?;
    }
    Ok(0)
}

/// Writes `chunk` again and again, `total` bytes in all (an error means the reader is
/// gone).
fn flood(out: &mut impl Write, chunk: &[u8], total: u64) -> io::Result<()> {
    let block: Vec<u8> = chunk
        .iter()
        .copied()
        .cycle()
        .take(64 * chunk.len())
        .collect();
    let mut written = 0;
    while written < total {
        out.write_all(&block)?;
        written += block.len() as u64;
    }
    out.flush()
}

fn hang() -> ! {
    loop {
        thread::sleep(Duration::from_secs(3600));
    }
}

/// A few lines of seeded junk: random bytes (any value but the line end), control
/// characters, a long line, a line that looks like a move.
fn write_noise(out: &mut impl Write, state: &mut u64) -> io::Result<()> {
    *state = mix(*state);
    let lines = *state % 4;
    for _ in 0..lines {
        *state = mix(*state);
        let len = match *state % 5 {
            0 => 70_000 + (*state >> 40) as usize % 10_000,
            _ => (*state >> 32) as usize % 200,
        };
        let mut bytes: Vec<u8> = (0..len)
            .map(|i| {
                let b = (mix(*state ^ i as u64) & 0xff) as u8;
                if b == b'\n' { b'\r' } else { b }
            })
            .collect();
        if state.is_multiple_of(7) {
            bytes.splice(0..0, b"info score ".iter().copied());
        }
        bytes.push(b'\n');
        out.write_all(&bytes)?;
    }
    Ok(())
}

fn hello(out: &mut impl Write, o: &Options, ok: &str) -> io::Result<()> {
    writeln!(out, "id name {}", o.name)?;
    writeln!(out, "id author the konane referee tests")?;
    writeln!(out, "option name BoardSize type string default 8x8")?;
    writeln!(out, "{ok}")
}

fn set_option(tokens: &[&str], variant: &mut Variant) {
    let (Some(name), Some(value)) = (tokens.get(2), tokens.get(4)) else {
        return;
    };
    match name.to_ascii_lowercase().as_str() {
        "boardsize" => variant.size = value.parse::<BoardSize>().unwrap_or(variant.size),
        "opening" => variant.opening = value.parse::<Opening>().unwrap_or(variant.opening),
        "multijump" => {
            variant.multi_jump = value.parse::<MultiJump>().unwrap_or(variant.multi_jump);
        }
        _ => {}
    }
}

/// `position startpos|fen <board> <side> [moves ...]`, checked move by move.
fn read_position(tokens: &[&str], variant: Variant) -> Result<AnyPosition, String> {
    let (mut position, rest) = match tokens.get(1) {
        Some(&"startpos") => (AnyPosition::start(variant), &tokens[2..]),
        Some(&"fen") if tokens.len() >= 4 => {
            let text = format!("{} {}", tokens[2], tokens[3]);
            let p = AnyPosition::from_text(&text, variant.opening, variant.multi_jump)
                .map_err(|e| e.to_string())?;
            (p, &tokens[4..])
        }
        _ => return Err("not startpos or fen".into()),
    };
    if let Some((&"moves", moves)) = rest.split_first() {
        for m in moves {
            position.play_text(m).map_err(|e| format!("{m}: {e}"))?;
        }
    }
    Ok(position)
}

/// A well-formed square that is not a legal move here.
fn illegal_move(p: &AnyPosition) -> String {
    let legal = p.legal_move_texts();
    let size = p.variant().size;
    (0..size.width())
        .flat_map(|f| (1..=size.height()).map(move |r| format!("{}{r}", (b'a' + f as u8) as char)))
        .find(|sq| !legal.contains(sq))
        .unwrap_or_else(|| "a1a1".into())
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn choose(p: &AnyPosition, o: &Options) -> Option<String> {
    let moves = p.legal_move_texts();
    if moves.is_empty() {
        return None;
    }
    let pick = (mix(p.hash() ^ o.seed) % moves.len() as u64) as usize;
    match o.play {
        Play::First => Some(moves[0].clone()),
        Play::Random => Some(moves[pick].clone()),
        Play::Greedy => {
            // Leave the opponent as few replies as possible; ties go to the random pick's
            // neighbourhood so that games differ.
            let replies = |m: &String| {
                let mut next = *p;
                next.play_text(m)
                    .map_or(usize::MAX, |_| next.legal_move_texts().len())
            };
            let n = moves.len();
            (0..n)
                .map(|i| &moves[(pick + i) % n])
                .min_by_key(|m| replies(m))
                .cloned()
        }
    }
}
