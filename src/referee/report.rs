//! The text the referee prints: one line per game and standings in cutechess's format
//! (so its parsers work), a rank table and crosstable for tournaments, SPRT lines.

use std::fmt::Write as _;

use super::config::{SprtConfig, SprtModel};
use super::game::{GameRecord, Termination};
use super::sprt::{self, Decision, SprtStatus};
use super::standings::Standings;
use super::stats::Score;

/// `Finished game 3 of 20 (A vs B): A wins {normal: B (white) has no legal move}`,
/// black (the first player) named first.
#[must_use]
pub fn game_line(record: &GameRecord, total: u64) -> String {
    format!(
        "Finished game {} of {total} ({} vs {}): {} wins {{{}: {}}}",
        record.number,
        record.black,
        record.white,
        record.winner_name(),
        record.termination,
        record.detail
    )
}

/// A number as C's `%.1f` would print it, with `inf`, `-inf` and `nan` as Qt spells them.
fn fixed1(x: f64) -> String {
    if x.is_nan() {
        "nan".to_string()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.to_string()
    } else {
        format!("{x:.1}")
    }
}

/// `W - L - 0  [s] n`, cutechess's score cell.
fn score_cell(score: Score) -> String {
    let fraction = if score.games() == 0 {
        "nan".to_string()
    } else {
        format!("{:.3}", score.fraction())
    };
    format!(
        "{} - {} - 0  [{fraction}] {}",
        score.wins,
        score.losses,
        score.games()
    )
}

/// The standings of a two-engine match, as cutechess prints them:
///
/// ```text
/// Score of A vs B: 12 - 8 - 0  [0.600] 20
/// ...      A playing Black: 7 - 3 - 0  [0.700] 10
/// ...      A playing White: 5 - 5 - 0  [0.500] 10
/// ...      Black vs White: 12 - 8 - 0  [0.600] 20
/// Elo difference: 70.4 +/- 161.7, LOS: 81.4 %
/// ```
#[must_use]
pub fn match_score(standings: &Standings) -> String {
    let [a, b] = [&standings.players[0], &standings.players[1]];
    let mut text = format!(
        "Score of {} vs {}: {}\n",
        a.name,
        b.name,
        score_cell(a.score)
    );
    let as_white = Score {
        wins: a.score.wins - a.as_black.wins,
        losses: a.score.losses - a.as_black.losses,
    };
    let first = standings.first_player;
    let sides = Score {
        wins: first.wins,
        losses: first.games - first.wins,
    };
    for (label, score) in [
        (format!("{} playing Black", a.name), a.as_black),
        (format!("{} playing White", a.name), as_white),
        ("Black vs White".to_string(), sides),
    ] {
        if score.games() > 0 {
            let _ = writeln!(text, "...      {label}: {}", score_cell(score));
        }
    }
    let _ = write!(
        text,
        "Elo difference: {} +/- {}, LOS: {} %",
        fixed1(a.score.elo()),
        fixed1(a.score.elo_margin()),
        fixed1(100.0 * a.score.los())
    );
    text
}

/// The rank table of a tournament, in cutechess's columns (Draw is always 0.0%).
#[must_use]
pub fn rank_table(standings: &Standings) -> String {
    let mut text = format!(
        "{:>4} {:<25} {:>7} {:>7} {:>7} {:>7} {:>7}\n",
        "Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw"
    );
    for (rank, &i) in ranking(standings).iter().enumerate() {
        let p = &standings.players[i];
        let score = if p.score.games() == 0 {
            "nan".to_string()
        } else {
            format!("{:.1}", 100.0 * p.score.fraction())
        };
        let _ = writeln!(
            text,
            "{:>4} {:<25} {:>7} {:>7} {:>7} {score:>6}% {:>6}%",
            rank + 1,
            p.name,
            whole(p.score.elo()),
            whole(p.score.elo_margin()),
            p.score.games(),
            "0.0"
        );
    }
    text.pop();
    text
}

/// `%.0f` with Qt's spelling of infinities and NaN.
fn whole(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.0}")
    } else {
        fixed1(x)
    }
}

/// Players by score, best first (ties keep command-line order).
fn ranking(standings: &Standings) -> Vec<usize> {
    let mut order: Vec<usize> = (0..standings.players.len()).collect();
    order.sort_by(|&a, &b| {
        let key = |i: usize| {
            let s = standings.players[i].score;
            if s.games() == 0 { -1.0 } else { s.fraction() }
        };
        key(b).total_cmp(&key(a))
    });
    order
}

/// Who beat whom: one row per player (best first), one column per opponent, each cell
/// `wins-losses` of the row's player against the column's.
#[must_use]
pub fn crosstable(standings: &Standings) -> String {
    let order = ranking(standings);
    let width = standings
        .players
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let cell = 9;
    let mut text = format!("{:<width$} {:>6} {:>9}", "Name", "Games", "Score");
    for (column, _) in order.iter().enumerate() {
        let _ = write!(text, " {:>cell$}", column + 1);
    }
    for (row, &i) in order.iter().enumerate() {
        let p = &standings.players[i];
        let _ = write!(
            text,
            "\n{:<width$} {:>6} {:>9}",
            p.name,
            p.score.games(),
            format!("{}-{}", p.score.wins, p.score.losses)
        );
        for (column, &j) in order.iter().enumerate() {
            let s = standings.head_to_head[i][j];
            let shown = if row == column {
                "---".to_string()
            } else if s.games() == 0 {
                ".".to_string()
            } else {
                format!("{}-{}", s.wins, s.losses)
            };
            let _ = write!(text, " {shown:>cell$}");
        }
    }
    text
}

/// `First player (black) won 55 of 100 games: 55.0 % +/- 9.8 %`.
#[must_use]
pub fn first_player_line(standings: &Standings) -> String {
    let f = standings.first_player;
    format!(
        "First player (black) won {} of {} games: {} % +/- {} %",
        f.wins,
        f.games,
        fixed1(100.0 * f.rate()),
        fixed1(100.0 * f.margin())
    )
}

/// Losses that were not normal, per player: `Faults: B: 3 crash, 1 stall`.
#[must_use]
pub fn faults_line(standings: &Standings) -> Option<String> {
    let parts: Vec<String> = standings
        .players
        .iter()
        .filter_map(|p| {
            let faults: Vec<String> = Termination::ALL
                .iter()
                .zip(p.losses_by)
                .filter(|(t, n)| t.is_fault() && *n > 0)
                .map(|(t, n)| format!("{n} {t}"))
                .collect();
            (!faults.is_empty()).then(|| format!("{}: {}", p.name, faults.join(", ")))
        })
        .collect();
    (!parts.is_empty()).then(|| format!("Losses by fault: {}", parts.join("; ")))
}

/// `SPRT: llr 1.23 (41.8%), ...` for the binomial test and `Pair SPRT: ...` for the
/// trinomial one.
#[must_use]
pub fn sprt_lines(binomial: &SprtStatus, pairs: &SprtStatus, pair_count: u64) -> String {
    format!("SPRT: {binomial}\nPair SPRT ({pair_count} pairs): {pairs}")
}

/// Both SPRTs over `standings` (the first engine against the second).
#[must_use]
pub fn sprt_statuses(config: &SprtConfig, standings: &Standings) -> (SprtStatus, SprtStatus) {
    let score = standings.players[0].score;
    (
        sprt::binomial(config, score),
        sprt::pairs(config, standings.pairs),
    )
}

/// The test that has decided, by the rule `config.model`: its name and decision.
#[must_use]
pub fn sprt_verdict(
    config: &SprtConfig,
    binomial: &SprtStatus,
    pairs: &SprtStatus,
) -> Option<(&'static str, Decision)> {
    let tests = [
        ("binomial SPRT", binomial, config.model != SprtModel::Pairs),
        ("pair SPRT", pairs, config.model != SprtModel::Binomial),
    ];
    tests
        .into_iter()
        .filter(|(_, _, counts)| *counts)
        .map(|(name, status, _)| (name, status.decision()))
        .find(|(_, d)| *d != Decision::Continue)
}

/// The standings block printed every `-ratinginterval` games: the match score (two
/// engines) or the rank table, then the SPRT lines.
#[must_use]
pub fn standings_block(standings: &Standings, sprt: Option<&SprtConfig>) -> String {
    let mut text = if standings.players.len() == 2 {
        match_score(standings)
    } else {
        rank_table(standings)
    };
    if let Some(config) = sprt
        && standings.players.len() == 2
    {
        let (binomial, pairs) = sprt_statuses(config, standings);
        text.push('\n');
        text.push_str(&sprt_lines(&binomial, &pairs, standings.pairs.pairs()));
    }
    text
}

/// The end of a run: standings, first-player rate, faults, crosstable (three or more
/// engines).
#[must_use]
pub fn final_block(standings: &Standings, sprt: Option<&SprtConfig>) -> String {
    let mut text = standings_block(standings, sprt);
    text.push('\n');
    text.push_str(&first_player_line(standings));
    if let Some(faults) = faults_line(standings) {
        text.push('\n');
        text.push_str(&faults);
    }
    if standings.players.len() > 2 {
        text.push_str("\n\nCrosstable\n");
        text.push_str(&crosstable(standings));
    }
    text
}

/// `Match stopped by the pair SPRT: H1 accepted (elo1 = 10 rather than elo0 = 0)`.
#[must_use]
pub fn sprt_stop_line(config: &SprtConfig, test: &str, decision: Decision) -> String {
    let (accepted, more, less) = match decision {
        Decision::AcceptH1 => (
            "H1",
            format!("elo1 = {}", config.elo1),
            format!("elo0 = {}", config.elo0),
        ),
        _ => (
            "H0",
            format!("elo0 = {}", config.elo0),
            format!("elo1 = {}", config.elo1),
        ),
    };
    format!("Match stopped by the {test}: {accepted} accepted ({more} rather than {less})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn infinities_are_spelled_as_qt_does() {
        assert_eq!(fixed1(f64::INFINITY), "inf");
        assert_eq!(fixed1(f64::NEG_INFINITY), "-inf");
        assert_eq!(fixed1(f64::NAN), "nan");
        assert_eq!(fixed1(70.437), "70.4");
    }
}
