//! The two spellings of the text protocol, UGI and UCI: the one type that the engine's
//! protocol front end (which answers in the GUI's spelling) and the client (which
//! writes in the engine's spelling) share.

use crate::rules::Color;

/// Which spelling of the protocol is spoken, chosen by the handshake word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// UGI: `ugi`/`ugiok`, `uginewgame`, `p1time`/`p2time` (black is p1).
    Ugi,
    /// UCI: `uci`/`uciok`, `ucinewgame`, `btime`/`wtime`.
    Uci,
}

impl Dialect {
    /// The dialect whose handshake word is `word` (`ugi` or `uci`).
    #[must_use]
    pub fn from_hello(word: &str) -> Option<Dialect> {
        [Dialect::Ugi, Dialect::Uci]
            .into_iter()
            .find(|d| d.hello() == word)
    }

    /// The handshake command.
    #[must_use]
    pub const fn hello(self) -> &'static str {
        match self {
            Dialect::Ugi => "ugi",
            Dialect::Uci => "uci",
        }
    }

    /// The answer that ends the engine's reply to the handshake.
    #[must_use]
    pub const fn hello_ok(self) -> &'static str {
        match self {
            Dialect::Ugi => "ugiok",
            Dialect::Uci => "uciok",
        }
    }

    /// The command that starts a new game.
    #[must_use]
    pub const fn new_game(self) -> &'static str {
        match self {
            Dialect::Ugi => "uginewgame",
            Dialect::Uci => "ucinewgame",
        }
    }

    /// The `go` keywords for the time and the increment on `side`'s clock.
    #[must_use]
    pub const fn clock_keys(self, side: Color) -> (&'static str, &'static str) {
        match (self, side) {
            (Dialect::Ugi, Color::Black) => ("p1time", "p1inc"),
            (Dialect::Ugi, Color::White) => ("p2time", "p2inc"),
            (Dialect::Uci, Color::Black) => ("btime", "binc"),
            (Dialect::Uci, Color::White) => ("wtime", "winc"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Dialect;

    #[test]
    fn a_dialect_is_known_by_its_handshake_word_only() {
        assert_eq!(Dialect::from_hello("ugi"), Some(Dialect::Ugi));
        assert_eq!(Dialect::from_hello("uci"), Some(Dialect::Uci));
        for word in ["ugiok", "UCI", "", "usi"] {
            assert_eq!(Dialect::from_hello(word), None, "{word}");
        }
    }
}
