//! The referee binary: plays engine matches and tournaments (see `referee -help`).

use std::io;
use std::process::ExitCode;

use anyhow::Result;
use konane::referee::cli::{self, Invocation};
use konane::referee::{interrupt, merge, runner};

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("referee: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<ExitCode> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        print!("{}", cli::USAGE);
        return Ok(ExitCode::from(2));
    }
    let mut out = io::stdout().lock();
    match cli::parse(&args)? {
        Invocation::Help => print!("{}", cli::USAGE),
        Invocation::Merge(config) => {
            merge::merge(&config, &mut out)?;
        }
        Invocation::Run(config) => {
            let interrupted = interrupt::install();
            let report = runner::run(*config, &mut out, interrupted)?;
            if report.stop == runner::Stop::Interrupted {
                return Ok(ExitCode::from(130));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
