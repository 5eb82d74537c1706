//! The konane engine: speaks UGI/UCI on stdin/stdout, or runs the protocol lines given
//! as arguments (`konane 'position startpos moves d5 d4' 'go perft 3'`, `konane bench`,
//! `konane bench perft`) and exits. An argument that does not start with a command word
//! continues the line before it.

use std::process::ExitCode;

use konane::console;
use konane::protocol::{READ_AHEAD, Session, argument_lines, script_lines, spawn_reader};

/// Exit status when an argument line was refused (or output could not be written).
const REFUSED: u8 = 1;
/// Exit status for a program option that does not exist.
const USAGE: u8 = 2;

const USAGE_TEXT: &str = concat!(
    "konane ",
    env!("CARGO_PKG_VERSION"),
    " - a Konane (Hawaiian checkers) engine

Usage:
  konane                 speak UGI/UCI on standard input and output (for GUIs and
                         match runners; type 'ugi', 'position startpos', 'go depth 10')
  konane <line>...       run each argument as a protocol line, then exit
  konane --help | -h     this text
  konane --version | -V  the version

Lines people use from a shell:
  'position startpos [moves ...]'   'position fen <board> <side> [moves ...]'
  d   eval   'go perft <n>'   'go depth <n>'   'go movetime <ms>'   'go solve'
  'setoption name BoardSize value 6x6'   'query result'   bench   'bench perft'

In argument mode the first refused line stops the run: its error goes to standard
error, nothing after it runs, and the exit status is 1 (2 for an unknown option such as
--frobnicate). The whole protocol is described in protocol.md.
"
);

fn main() -> ExitCode {
    // Arguments that are not UTF-8 are read like such input lines: the bytes that are
    // not become U+FFFD (and the line is then refused as it stands).
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    match args.first().map(String::as_str) {
        Some("--help" | "-h") => return print(USAGE_TEXT),
        Some("--version" | "-V") => {
            return print(concat!("konane ", env!("CARGO_PKG_VERSION"), "\n"));
        }
        Some(flag) if flag.starts_with("--") => {
            console::warn(format!(
                "konane: unknown option '{flag}'; try konane --help"
            ));
            return ExitCode::from(USAGE);
        }
        _ => {}
    }
    let session = match Session::new(std::io::stdout()) {
        Ok(session) => session,
        Err(e) => {
            console::warn(format!("konane: cannot start the searcher: {e}"));
            return ExitCode::from(REFUSED);
        }
    };
    let outcome = if args.is_empty() {
        let (commands, input) = crossbeam_channel::bounded(READ_AHEAD);
        if let Err(e) = spawn_reader(std::io::stdin(), commands) {
            console::warn(format!("konane: cannot start the input reader: {e}"));
            return ExitCode::from(REFUSED);
        }
        session.run(input).map(|()| true)
    } else {
        let lines = script_lines(argument_lines(args));
        session.run_script(lines, Box::new(std::io::stderr()))
    };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(REFUSED),
        // The reader of our output went away: nobody is listening any more.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            console::warn(format!("konane: writing output: {e}"));
            ExitCode::from(REFUSED)
        }
    }
}

fn print(text: &str) -> ExitCode {
    match console::print(text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(REFUSED),
    }
}
