//! Searching positions: the exact solver ([`solver`]) proves wins and losses.

pub mod solver;
