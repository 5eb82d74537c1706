//! The referee: engine-against-engine matches and tournaments in the manner of
//! cutechess-cli and fastchess, for a game without draws.
//!
//! Engines are separate processes speaking UGI (or UCI); every move they send is judged
//! with [`rules`](crate::rules). A wrong, unreadable or late move, a crash or a hang
//! loses that game, the engine is restarted, and the tournament goes on.
//!
//! - [`cli`] reads the command line into a [`config::Config`];
//! - [`runner`] plays it with [`worker`] threads, each game by [`game`] through
//!   [`client`](crate::client), which drives the engine processes;
//! - [`stats`], [`sprt`], [`standings`] and [`report`] compute and print results;
//!   [`pgn`], [`json`] and [`state`] write them; [`merge`] combines shards.

pub mod cli;
pub mod clock;
pub mod config;
pub mod game;
pub mod interrupt;
pub mod json;
pub mod merge;
pub mod openings;
pub mod output;
pub mod pgn;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod sprt;
pub mod standings;
pub mod state;
pub mod stats;
pub mod worker;
