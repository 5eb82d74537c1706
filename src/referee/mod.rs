//! The referee: engine-against-engine matches and tournaments in the manner of
//! cutechess-cli and fastchess, for a game without draws.
//!
//! Engines are separate processes speaking UGI (or UCI); every move they send is judged
//! with [`rules`](crate::rules). A wrong, unreadable or late move, a crash or a hang
//! loses that game, the engine is restarted, and the tournament goes on.
//!
//! - `cli` reads the command line into a [`Config`];
//! - `runner` ([`run`]) plays it with `worker` threads, each game by `game` through
//!   [`client`](crate::client), which drives the engine processes;
//! - [`stats`], [`sprt`], `standings` and `report` compute and print results; `pgn`,
//!   `json` and `state` write them (`output` safely); [`merge`] combines shards.

mod cli;
mod clock;
mod config;
mod game;
mod interrupt;
mod json;
mod merge;
mod openings;
mod output;
pub mod pgn;
mod report;
mod runner;
mod schedule;
pub mod sprt;
mod standings;
mod state;
pub mod stats;
mod worker;

pub use cli::{CliError, Invocation, USAGE, parse as parse_command_line};
pub use clock::Clock;
pub use config::{
    Config, MergeConfig, OpeningOrder, OpeningsConfig, Shard, SprtConfig, SprtModel, Timeouts,
    TournamentKind,
};
pub use game::{GameRecord, PlayedMove, Termination};
pub use interrupt::{install as install_interrupt_handler, raised as interrupt_raised};
pub use json::{
    FirstPlayerJson, GameJson, JsonError, PlayerJson, RunInfo, Side, SprtJson, SprtSummary, Summary,
};
pub use merge::merge;
pub use openings::{OpeningsError, StartPosition};
pub use runner::{RunError, RunReport, Stop, run};
pub use standings::{PlayerTally, Standings};
