//! The rule choices of a game: board size, opening rule and multi-jump rule.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// Smallest number of files or ranks a board may have.
pub const MIN_SIDE: u8 = 2;
/// Largest number of files or ranks a board may have.
pub const MAX_SIDE: u8 = 16;

/// A side of the game. Black moves first and is "player 1" in protocol terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Moves first; its stones stand on the squares of the top-left corner's colour.
    Black,
    /// Moves second.
    White,
}

impl Color {
    /// The other side.
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `0` for black, `1` for white: an index into per-colour tables.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter used in position text: `b` or `w`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// Which black stones black may remove first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Opening {
    /// A corner or a central black stone (BrainKing, vchess, Ludii).
    #[default]
    Diagonal,
    /// A central black stone only (Jaques' standard convention).
    Centre,
    /// Any black stone.
    Any,
}

/// How the jumps of one move may continue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum MultiJump {
    /// Every jump of a move goes in the direction of the first one.
    #[default]
    Straight,
    /// Each jump may go in any direction (never straight back, which is impossible anyway:
    /// the stone just jumped is gone).
    Turning,
}

/// A board of `width` files by `height` ranks, each from 2 to 16.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardSize {
    width: u8,
    height: u8,
}

impl BoardSize {
    /// The default 8x8 board.
    pub const STANDARD: BoardSize = BoardSize {
        width: 8,
        height: 8,
    };

    /// A board of `width` x `height`, or an error when a side is outside 2..=16.
    pub fn new(width: usize, height: usize) -> Result<BoardSize, VariantError> {
        let range = usize::from(MIN_SIDE)..=usize::from(MAX_SIDE);
        if !range.contains(&width) || !range.contains(&height) {
            return Err(VariantError::BoardSize(format!("{width}x{height}")));
        }
        Ok(BoardSize {
            width: width as u8,
            height: height as u8,
        })
    }

    /// Number of files.
    #[must_use]
    pub const fn width(self) -> usize {
        self.width as usize
    }

    /// Number of ranks.
    #[must_use]
    pub const fn height(self) -> usize {
        self.height as usize
    }

    /// Number of squares.
    #[must_use]
    pub const fn squares(self) -> usize {
        self.width() * self.height()
    }
}

impl Default for BoardSize {
    fn default() -> Self {
        BoardSize::STANDARD
    }
}

/// A complete choice of rules: board size, opening rule, multi-jump rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Variant {
    /// The board.
    pub size: BoardSize,
    /// Which stones black may remove first.
    pub opening: Opening,
    /// How multi-jumps continue.
    pub multi_jump: MultiJump,
}

/// A rule option value that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum VariantError {
    /// The board size is not `WxH` with both sides from 2 to 16.
    #[error("board size '{0}' is not WxH with each side from {MIN_SIDE} to {MAX_SIDE}")]
    BoardSize(String),
    /// Unknown opening rule name.
    #[error("opening rule '{0}' is not one of diagonal, centre, any")]
    Opening(String),
    /// Unknown multi-jump rule name.
    #[error("multi-jump rule '{0}' is not one of straight, turning")]
    MultiJump(String),
}

impl FromStr for BoardSize {
    type Err = VariantError;

    /// Reads `WxH` (`8x8`, `6x10`); a single number `N` means `NxN`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || VariantError::BoardSize(s.to_string());
        let lower = s.trim().to_ascii_lowercase();
        let (w, h) = match lower.split_once('x') {
            Some((w, h)) => (w, h),
            None => (lower.as_str(), lower.as_str()),
        };
        let side = |t: &str| -> Result<usize, VariantError> {
            if t.is_empty() || t.len() > 2 || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            t.parse().map_err(|_| bad())
        };
        BoardSize::new(side(w)?, side(h)?).map_err(|_| bad())
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl Opening {
    /// Every opening rule, in the order options list them.
    pub const ALL: [Opening; 3] = [Opening::Diagonal, Opening::Centre, Opening::Any];

    /// The option value naming this rule.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Opening::Diagonal => "diagonal",
            Opening::Centre => "centre",
            Opening::Any => "any",
        }
    }
}

impl MultiJump {
    /// Every multi-jump rule, in the order options list them.
    pub const ALL: [MultiJump; 2] = [MultiJump::Straight, MultiJump::Turning];

    /// The option value naming this rule.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            MultiJump::Straight => "straight",
            MultiJump::Turning => "turning",
        }
    }
}

impl FromStr for Opening {
    type Err = VariantError;

    /// Reads `diagonal`, `centre` (also `center`) or `any`, in any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "diagonal" => Ok(Opening::Diagonal),
            "centre" | "center" => Ok(Opening::Centre),
            "any" => Ok(Opening::Any),
            _ => Err(VariantError::Opening(s.to_string())),
        }
    }
}

impl FromStr for MultiJump {
    type Err = VariantError;

    /// Reads `straight` or `turning`, in any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "straight" => Ok(MultiJump::Straight),
            "turning" => Ok(MultiJump::Turning),
            _ => Err(VariantError::MultiJump(s.to_string())),
        }
    }
}

impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for MultiJump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.size, self.opening, self.multi_jump)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_sizes_read_from_text() {
        assert_eq!("8x8".parse::<BoardSize>().unwrap(), BoardSize::STANDARD);
        assert_eq!("6X10".parse::<BoardSize>().unwrap().height(), 10);
        assert_eq!("5".parse::<BoardSize>().unwrap().squares(), 25);
        for bad in [
            "40x40", "1x8", "8x17", "x8", "8x", "", "8x8x8", "-8x8", "+8x8", "008x8",
        ] {
            assert!(bad.parse::<BoardSize>().is_err(), "{bad} was accepted");
        }
    }

    #[test]
    fn rule_names_round_trip() {
        for o in Opening::ALL {
            assert_eq!(o.name().parse::<Opening>().unwrap(), o);
        }
        for m in MultiJump::ALL {
            assert_eq!(m.name().to_uppercase().parse::<MultiJump>().unwrap(), m);
        }
        assert!("sideways".parse::<Opening>().is_err());
    }
}
