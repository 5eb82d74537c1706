//! `merge`: combines the JSON summaries (or state files) of shards or of repeated runs
//! of one schedule into one summary, with standings over all their games.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::Path;

use super::config::MergeConfig;
use super::game::GameRecord;
use super::json::{self, GameJson, JsonError, RunInfo, Summary};
use super::pgn;
use super::report;
use super::runner::{RunError, append};
use super::standings::Standings;
use super::state;
use crate::rules::Variant;

/// Reads a summary or a state file: its settings and games.
fn read(path: &Path, out: &mut dyn Write) -> Result<(RunInfo, Vec<GameJson>), RunError> {
    let text = fs::read_to_string(path).map_err(|source| RunError::Io {
        path: path.display().to_string(),
        source,
    })?;
    let format = |reason: String| {
        RunError::Json(JsonError::Format {
            path: path.display().to_string(),
            reason,
        })
    };
    if state::looks_like_state(&text) {
        let contents = state::parse(&text).map_err(format)?;
        for w in &contents.warnings {
            let _ = writeln!(out, "Warning: {}: {w}", path.display());
        }
        return Ok((contents.info, contents.games));
    }
    let summary: Summary = serde_json::from_str(&text).map_err(|e| format(e.to_string()))?;
    Ok((summary.referee, summary.games))
}

/// Merges the files `config` names, prints the standings to `out`, writes the outputs
/// asked for, and returns the combined summary.
pub fn merge(config: &MergeConfig, out: &mut dyn Write) -> Result<Summary, RunError> {
    let (mut info, games, duplicates) = collect(config, out)?;
    info.shard = None;
    let records: Vec<GameRecord> = games.values().map(GameJson::to_record).collect();
    let standings = Standings::new(&info.engines, &records);
    let _ = writeln!(
        out,
        "Merged {} games of {} scheduled from {} files ({duplicates} duplicates skipped)",
        records.len(),
        info.scheduled_games,
        config.inputs.len()
    );
    let _ = writeln!(
        out,
        "{}",
        report::final_block(&standings, config.sprt.as_ref())
    );
    if let Some(sprt) = &config.sprt
        && standings.players.len() == 2
    {
        let (binomial, pairs) = report::sprt_statuses(sprt, &standings);
        if let Some((test, decision)) = report::sprt_verdict(sprt, &binomial, &pairs) {
            let _ = writeln!(out, "{}", report::sprt_stop_line(sprt, test, decision));
        }
    }
    if let Some(path) = &config.pgn_out {
        let variant = info.variant().map_err(RunError::Variant)?;
        write_pgn(path, &records, variant)?;
    }
    let complete = records.len() as u64 == info.scheduled_games;
    let summary = Summary::build(info, &standings, &records, config.sprt.as_ref(), complete);
    if let Some(path) = &config.json_out {
        json::save(path, &summary)?;
    }
    Ok(summary)
}

/// The settings and games of every input (each game once, by number), and how many
/// repeated games were skipped; files of different tournaments are refused.
fn collect(
    config: &MergeConfig,
    out: &mut dyn Write,
) -> Result<(RunInfo, BTreeMap<u64, GameJson>, u64), RunError> {
    let mut info: Option<RunInfo> = None;
    let mut games: BTreeMap<u64, GameJson> = BTreeMap::new();
    let mut duplicates = 0;
    for path in &config.inputs {
        let (file_info, file_games) = read(path, out)?;
        match &info {
            None => info = Some(file_info),
            Some(first) if first.fingerprint != file_info.fingerprint => {
                return Err(RunError::MergeMismatch {
                    path: path.display().to_string(),
                    first: config.inputs[0].display().to_string(),
                    theirs: file_info.fingerprint,
                    ours: first.fingerprint.clone(),
                });
            }
            Some(_) => {}
        }
        for g in file_games {
            match games.entry(g.game) {
                std::collections::btree_map::Entry::Occupied(_) => duplicates += 1,
                std::collections::btree_map::Entry::Vacant(slot) => {
                    slot.insert(g);
                }
            }
        }
    }
    let info = info.ok_or(RunError::NothingToMerge)?;
    Ok((info, games, duplicates))
}

/// Appends every game to the PGN file at `path`.
fn write_pgn(path: &Path, records: &[GameRecord], variant: Variant) -> Result<(), RunError> {
    let mut file = append(path)?;
    for r in records {
        file.write_all(pgn::game(r, "konane match", variant).as_bytes())
            .map_err(|source| RunError::Io {
                path: path.display().to_string(),
                source,
            })?;
    }
    Ok(())
}
