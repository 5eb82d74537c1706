//! The web GUI (`konane-gui`): a page for playing, watching and analysing Konane with
//! any UGI or UCI engine given on the command line.
//!
//! - [`cli`] reads the command line; [`server`] serves the page and its WebSocket;
//! - [`session`] is one page's game, driven by [`intent`] messages; its engines run
//!   in [`live`] threads on the referee's process and protocol code;
//! - [`board`] asks the rules core everything about positions and moves (the page
//!   never applies a rule itself); [`info`] reads the options engines offer;
//!   [`solve`] marks moves won or lost with `go solve`; [`records`] reads and writes
//!   the referee's PGN and JSON; [`assets`] are the page's files.
//!
//! # HTTP
//!
//! | request | answer |
//! | --- | --- |
//! | `GET /` | the page (`/app.js`, `/style.css`, `/favicon.svg` are its files) |
//! | `GET /ws` | the WebSocket one page talks over (below) |
//! | anything else | `404` (a wrong method: `405`) |
//!
//! Every request passes a guard first: its `Host` must be an IP address, `localhost`
//! or the name given with `--host`, with the server's port (other names are refused,
//! so a DNS name rebound to this machine cannot reach it), and an `Origin`, when
//! present, must be `http://` and that Host; a WebSocket must carry one. Refusals are
//! `403` with a one-line reason. At most [`server::MAX_SESSIONS`] pages may be open
//! (more get `503`). Pages are sent with a strict content security policy (no
//! inline or foreign scripts) and engine output is only ever shown as text.
//!
//! # WebSocket
//!
//! Text messages of JSON objects with a `type`; a message larger than
//! [`intent::MAX_MESSAGE`] bytes closes the socket. Closing the socket ends the
//! session and its engines.
//!
//! From the page ([`intent::Intent`]):
//!
//! - `{"type":"new","board":"6x6","opening":"diagonal","multijump":"straight",
//!   "black":{"engine":null},"white":{"engine":0,"level":5},
//!   "limit":{"kind":"movetime","ms":1000},"start":""}`: a new game. `engine` is an
//!   index into `hello`'s list or `null` for a person; `level` is sent as the engine's
//!   strength option when it has one. `limit` is `movetime` (`ms`), `clock`
//!   (`base_ms`, `inc_ms`, for both sides), `depth` (`depth`) or `nodes` (`nodes`).
//!   `start` is position text, or empty for the start position.
//! - `{"type":"move","text":"d5"}`: a move of the person to move (checked).
//! - `{"type":"goto","ply":3}`: show the position after 3 moves.
//! - `{"type":"takeback"}`, `{"type":"continue"}` (play on from the position shown),
//!   `{"type":"stop"}` (the engine moves now; analysis and solving stop),
//!   `{"type":"restart"}` (start failed engines again).
//! - `{"type":"analyse","on":true,"engine":0,"multipv":3}`: analyse the position shown
//!   with `go infinite`, following the position as it changes.
//! - `{"type":"solve","engine":0}`: prove each legal move of the position shown.
//! - `{"type":"import","text":"..."}`: a referee PGN or `-json` file; its first game is
//!   opened. `{"type":"load","index":2}` opens another. `{"type":"export"}` asks for PGN.
//!
//! To the page:
//!
//! - `hello`: `engines` (`name`, `strength`: `null` or `{"kind":"skill"|"elo","min","max"}`
//!   from the options the engine announced, `problem`, `multipv`), `max_multipv`.
//! - `state`, after every change: `board` (`width`, `height`, rules), `rows` (top rank
//!   first, `b`/`w`/`.`), `position` (text), `side`, `phase`, `ply` shown, `moves`
//!   (`text`, `path` of `[file, rank]` squares, `side`, `ms`), `legal` (the moves the
//!   person may enter now, with their paths), `players`, `clocks` (`black_ms`,
//!   `white_ms`, `running`) or `null`, `over` (`winner`, `reason`) or `null`,
//!   `thinking`, `scores` (black's view in centi-stones per ply, ±10000 for a proven
//!   result), `notice`, `analysing`, `solving`, `can_solve`, `failed`.
//! - `info`: `source` (`black`, `white` or `analysis`), `ply`, `info` (depth,
//!   seldepth, multipv, score `{"cp":n}` or `{"mate":n}`, nodes, nps, time, pv) and
//!   `pv_paths` (the PV's moves with their squares, as far as they are legal).
//! - `solve`: `ply`, `verdicts` (`move`, `verdict`: `win`/`loss`/`unknown`/`pending`,
//!   `line`), `done`.
//! - `log` (`source`, `text`: a line of engine output), `games` (labels of an import),
//!   `export` (`pgn`), `error` (`message`).

pub mod assets;
pub mod board;
pub mod cli;
pub mod info;
pub mod intent;
pub mod live;
pub mod records;
pub mod server;
pub mod session;
pub mod solve;
