//! The web GUI: serves a page for playing and analysing Konane (see `konane-gui --help`).

use std::path::PathBuf;
use std::process::ExitCode;

use konane::console;
use konane::gui::cli::{self, CliError};
use konane::gui::server;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let bundled = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join("konane")))
        .unwrap_or_else(|| PathBuf::from("konane"));
    let config = match cli::parse(&args, &bundled) {
        Ok(config) => config,
        Err(CliError::Help) => {
            return match console::print(cli::USAGE) {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::from(2),
            };
        }
        Err(e) => {
            console::warn(format!("konane-gui: {e}"));
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            console::warn(format!("konane-gui: cannot start: {e}"));
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(server::run(config)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            console::warn(format!("konane-gui: {e:#}"));
            ExitCode::FAILURE
        }
    }
}
