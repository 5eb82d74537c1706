//! The reader thread: owns the input, cuts it into lines of bounded size, parses each
//! into a command and hands it to the session.

use std::io::{BufRead, BufReader, Read};
use std::thread::JoinHandle;

use crossbeam_channel::Sender;

use crate::prompt;

use super::command::{CommandError, is_command_word, parse};
use super::session::Input;

/// Longest line kept; the rest of a longer line is read and dropped.
pub const MAX_LINE: usize = 1 << 20;

/// Parsed lines the reader may be ahead of the session: the channel between them is
/// bounded by this, so that input is left in the pipe (where the sender feels it)
/// while the session is busy, instead of piling up in memory.
pub const READ_AHEAD: usize = 4;

/// Reads lines from `input` on a thread of its own until it ends (or the session has
/// gone), sending every non-blank line, parsed. The end of input closes the channel.
pub fn spawn_reader<R: Read + Send + 'static>(
    input: R,
    commands: Sender<Input>,
) -> std::io::Result<JoinHandle<()>> {
    std::thread::Builder::new()
        .name("reader".into())
        .spawn(move || {
            prompt::answer_promptly();
            let mut reader = BufReader::new(input);
            while let Some(line) = next_line(&mut reader) {
                if let Some(parsed) = parse_line(line)
                    && commands.send(parsed).is_err()
                {
                    return;
                }
            }
        })
}

/// A line as read: its text (lossily decoded, end of line removed), or how long it was
/// when it was longer than [`MAX_LINE`].
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of acceptable length.
    Text(String),
    /// A line of this many bytes, too long to keep.
    TooLong(usize),
}

/// The protocol lines that program arguments stand for (one-shot mode). Each argument
/// is a line, except that one whose first word is not a command word continues the
/// line before it: `konane bench perft` and `konane go perft 3` run as typed, and
/// `konane 'position startpos moves d5 d4' 'go perft 3'` is two lines.
#[must_use]
pub fn argument_lines(args: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for arg in args {
        let starts_command = arg.split_whitespace().next().is_none_or(is_command_word);
        match lines.last_mut() {
            Some(line) if !starts_command => {
                line.push(' ');
                line.push_str(&arg);
            }
            _ => lines.push(arg),
        }
    }
    lines
}

/// The inputs that argument lines stand for, blank ones left out.
#[must_use]
pub fn script_lines(lines: Vec<String>) -> Vec<Input> {
    lines
        .into_iter()
        .filter_map(|line| parse_line(Line::Text(line)))
        .collect()
}

/// Parses a line; `None` for a blank one.
#[must_use]
pub fn parse_line(line: Line) -> Option<Input> {
    match line {
        Line::Text(text) => parse(&text).transpose(),
        Line::TooLong(bytes) => Some(Err(CommandError::TooLong(bytes))),
    }
}

/// The next line of `reader`, or `None` at the end of input (or on a read error, which
/// for a pipe from the GUI means the same).
pub fn next_line(reader: &mut impl BufRead) -> Option<Line> {
    let mut kept = Vec::new();
    let mut length = 0usize;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if buffer.is_empty() {
            return (length > 0).then(|| finish(kept, length));
        }
        let (chunk, found_end) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (&buffer[..i], true),
            None => (buffer, false),
        };
        let room = MAX_LINE.saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
        length = length.saturating_add(chunk.len());
        let consumed = chunk.len() + usize::from(found_end);
        reader.consume(consumed);
        if found_end {
            return Some(finish(kept, length));
        }
    }
}

fn finish(kept: Vec<u8>, length: usize) -> Line {
    if length > MAX_LINE {
        return Line::TooLong(length);
    }
    let mut text = String::from_utf8_lossy(&kept).into_owned();
    if text.ends_with('\r') {
        text.pop();
    }
    Line::Text(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<Line> {
        let mut reader = BufReader::with_capacity(7, bytes);
        std::iter::from_fn(|| next_line(&mut reader)).collect()
    }

    #[test]
    fn lines_end_at_newlines_and_at_the_end_of_input() {
        assert_eq!(
            lines(b"isready\r\ngo depth 3\n\nquit"),
            [
                Line::Text("isready".into()),
                Line::Text("go depth 3".into()),
                Line::Text(String::new()),
                Line::Text("quit".into())
            ]
        );
    }

    #[test]
    fn overlong_lines_are_measured_not_kept() {
        let mut input = vec![b'x'; MAX_LINE + 10];
        input.extend_from_slice(b"\nisready\n");
        assert_eq!(
            lines(&input),
            [Line::TooLong(MAX_LINE + 10), Line::Text("isready".into())]
        );
    }

    #[test]
    fn arguments_that_start_no_command_continue_the_line_before() {
        let lines = |args: &[&str]| argument_lines(args.iter().map(|a| (*a).to_string()));
        assert_eq!(lines(&["bench", "perft"]), ["bench perft"]);
        assert_eq!(
            lines(&["position startpos moves d5 d4", "go perft 3"]),
            ["position startpos moves d5 d4", "go perft 3"]
        );
        assert_eq!(
            lines(&[
                "position",
                "fen",
                "b3/4/4/2w1",
                "b",
                "d",
                "go",
                "depth",
                "2"
            ]),
            ["position fen b3/4/4/2w1 b", "d", "go depth 2"]
        );
        assert_eq!(lines(&["nonsense", "isready"]), ["nonsense", "isready"]);
        assert_eq!(
            lines(&["ugi", "isready", "quit"]),
            ["ugi", "isready", "quit"]
        );
    }

    #[test]
    fn bytes_that_are_not_utf8_become_replacement_characters() {
        assert_eq!(
            lines(b"is\xffready\n"),
            [Line::Text("is\u{fffd}ready".into())]
        );
    }
}
