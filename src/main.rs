//! The konane engine: speaks UGI/UCI on stdin/stdout, or runs the protocol lines given
//! as arguments (`konane 'position startpos moves d5 d4' 'go perft 3'`, `konane bench`,
//! `konane bench perft`) and exits. An argument that does not start with a command word
//! continues the line before it.

use anyhow::Context;
use konane::protocol::Session;
use konane::protocol::input::{Line, argument_lines, parse_line, spawn_reader};

fn main() -> anyhow::Result<()> {
    let (commands, input) = crossbeam_channel::unbounded();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        spawn_reader(std::io::stdin(), commands).context("cannot start the input reader")?;
    } else {
        for line in argument_lines(args) {
            if let Some(parsed) = parse_line(Line::Text(line)) {
                // The session holds the receiver until it is done.
                let _ = commands.send(parsed);
            }
        }
        drop(commands);
    }
    let session = Session::new(std::io::stdout()).context("cannot start the searcher")?;
    match session.run(input) {
        // The GUI closed our output: nobody is listening any more.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("writing output"),
    }
}
