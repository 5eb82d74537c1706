//! The referee binary: plays engine matches and tournaments (see `referee -help`).

use std::io;
use std::process::ExitCode;

use anyhow::{Result, anyhow};
use konane::referee::{self, Invocation, Stop};
use konane::{client, console};

/// The exit status after Ctrl-C (128 + SIGINT), as shells report it.
const INTERRUPTED: u8 = 130;

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        // An engine's start-up cut short by Ctrl-C ends as an interruption too.
        Err(_) if referee::interrupt_raised() => ExitCode::from(INTERRUPTED),
        Err(e) => {
            // `{e}` and not the chain: every message already says what the system said.
            console::warn(format!("referee: {e}"));
            ExitCode::from(2)
        }
    }
}

/// The arguments, refused whole when one is not UTF-8.
fn arguments() -> Result<Vec<String>> {
    std::env::args_os()
        .skip(1)
        .map(|a| {
            a.into_string().map_err(|a| {
                anyhow!(
                    "argument '{}' is not UTF-8",
                    client::clean(&a.to_string_lossy())
                )
            })
        })
        .collect()
}

fn run() -> Result<ExitCode> {
    let args = arguments()?;
    if args.is_empty() {
        console::print(referee::USAGE)?;
        return Ok(ExitCode::from(2));
    }
    let mut out = io::stdout().lock();
    match referee::parse_command_line(&args)? {
        Invocation::Help => console::print(referee::USAGE)?,
        Invocation::Merge(config) => {
            referee::merge(&config, &mut out)?;
        }
        Invocation::Run(config) => {
            // Helpers an engine leaves behind in a session of their own are adopted and
            // ended; where that is impossible the limit is documented in the help.
            let _ = client::adopt_orphans();
            let interrupted = referee::install_interrupt_handler();
            let report = referee::run(*config, &mut out, interrupted)?;
            if report.stop == Stop::Interrupted {
                return Ok(ExitCode::from(INTERRUPTED));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
