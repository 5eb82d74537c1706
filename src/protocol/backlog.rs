//! The commands waiting for a running job to end, within a bound: a client that keeps
//! sending during a long search must not grow the engine's memory without limit.

use std::collections::VecDeque;

use super::command::Command;

/// Most commands kept waiting.
pub const MAX_COMMANDS: usize = 1024;

/// Most bytes of command text kept waiting, as [`Command::weight`] counts them.
pub const MAX_BYTES: usize = 16 << 20;

/// Commands received during a job, in order.
#[derive(Debug, Default)]
pub struct Backlog {
    commands: VecDeque<Command>,
    bytes: usize,
}

/// A command that did not fit.
#[derive(Debug, PartialEq, Eq)]
pub struct Full;

impl Backlog {
    /// Queues `command`, unless that would pass [`MAX_COMMANDS`] or [`MAX_BYTES`].
    pub fn push(&mut self, command: Command) -> Result<(), Full> {
        let weight = command.weight();
        if self.commands.len() >= MAX_COMMANDS || self.bytes + weight > MAX_BYTES {
            return Err(Full);
        }
        self.bytes += weight;
        self.commands.push_back(command);
        Ok(())
    }

    /// The oldest command.
    pub fn pop(&mut self) -> Option<Command> {
        let command = self.commands.pop_front()?;
        self.bytes -= command.weight();
        Some(command)
    }

    /// Takes out the command at `at`.
    pub fn remove(&mut self, at: usize) -> Option<Command> {
        let command = self.commands.remove(at)?;
        self.bytes -= command.weight();
        Some(command)
    }

    /// The commands, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &Command> {
        self.commands.iter()
    }

    /// Whether nothing waits.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.commands.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::command::Start;

    fn big_position(bytes: usize) -> Command {
        Command::Position {
            start: Start::StartPos,
            moves: vec!["d5".repeat(bytes / 2)],
        }
    }

    #[test]
    fn the_backlog_refuses_past_its_byte_bound_and_recovers() {
        let mut backlog = Backlog::default();
        let line = 1 << 20;
        let mut kept = 0;
        while backlog.push(big_position(line)).is_ok() {
            kept += 1;
        }
        assert!(kept >= 8 && kept <= MAX_BYTES / line, "{kept}");
        assert_eq!(backlog.push(big_position(line)), Err(Full));
        assert!(backlog.pop().is_some());
        assert_eq!(backlog.push(big_position(line)), Ok(()));
        while backlog.pop().is_some() {}
        assert!(backlog.is_empty());
        assert_eq!(backlog.bytes, 0);
    }

    #[test]
    fn the_backlog_refuses_past_its_count_bound() {
        let mut backlog = Backlog::default();
        for _ in 0..MAX_COMMANDS {
            assert_eq!(backlog.push(Command::Display), Ok(()));
        }
        assert_eq!(backlog.push(Command::Display), Err(Full));
        assert_eq!(backlog.remove(3), Some(Command::Display));
        assert_eq!(backlog.push(Command::Eval), Ok(()));
    }
}
