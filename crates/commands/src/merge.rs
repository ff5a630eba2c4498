//! `hexwar merge`: batch or arena summaries (one per shard, say) added into the summary of
//! one run, exactly.

use std::path::PathBuf;
use std::process::ExitCode;

use stats::Summary;

use crate::arena;
use crate::batch::refuse_incomplete;
use crate::data::{self, BadInput};
use crate::shards::Shards;

/// Merges the shard files of `tune`, `test` or `skill` and reports as the single run would.
fn merge_shards(files: &[PathBuf], json: bool, partial: bool) -> anyhow::Result<ExitCode> {
    let mut merged: Option<Shards> = None;
    for f in files {
        let text = data::read_text(f)?;
        let s: Shards = serde_json::from_str(&text).map_err(|e| {
            BadInput(format!(
                "{}: not a shard file of `hexwar tune`, `test` or `skill`: {e}",
                f.display()
            ))
        })?;
        for p in &s.parts {
            p.summary
                .check()
                .map_err(|e| BadInput(format!("{}: {}: {e}", f.display(), p.label)))?;
        }
        match &mut merged {
            None => merged = Some(s),
            Some(m) => m
                .merge(&s)
                .map_err(|e| BadInput(format!("{}: {e}", f.display())))?,
        }
    }
    let Some(mut merged) = merged else {
        return Err(BadInput("no shard files".to_owned()).into());
    };
    let missing = merged.missing();
    if !partial {
        refuse_incomplete(
            &format!("`hexwar {}` run", merged.hexwar),
            merged.shard_count,
            &missing,
            merged.complete(),
        )?;
    }
    for p in &mut merged.parts {
        p.summary.complete &= missing.is_empty();
        p.summary.finish();
    }
    match merged.hexwar.as_str() {
        "test" => crate::test::report_merged(&merged, json),
        "tune" => crate::tune::report_merged(&merged, json),
        "skill" => crate::skill::report_merged(&merged, json),
        other => Err(BadInput(format!(
            "shards of `hexwar {other}`, which merge does not know"
        ))
        .into()),
    }
}

/// `hexwar merge`.
#[derive(clap::Args)]
pub struct MergeArgs {
    /// Summary files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print JSON rather than the table.
    #[arg(long)]
    pub json: bool,
    /// Merge an incomplete set: shards missing, or summaries of interrupted batches. The
    /// result is marked incomplete.
    #[arg(long)]
    pub partial: bool,
}

/// Merges batch (or arena) summaries into one.
pub fn run(args: &MergeArgs) -> anyhow::Result<ExitCode> {
    let MergeArgs {
        files,
        json,
        partial,
    } = args;
    if let Some(first) = files.first() {
        let text = data::read_text(first)?;
        if arena::is_arena_summary(&text) {
            return arena::merge(files, *json, *partial);
        }
        if crate::balance::BalanceShards::is_balance(&text) {
            return crate::balance::merge(files, *json, *partial);
        }
        if Shards::is_shards(&text) {
            return merge_shards(files, *json, *partial);
        }
    }
    let mut merged: Option<Summary> = None;
    for f in files {
        let text = data::read_text(f)?;
        let s: Summary = serde_json::from_str(&text).map_err(|e| {
            BadInput(format!(
                "{}: not a batch summary (`hexwar batch --json`): {e}",
                f.display()
            ))
        })?;
        s.check()
            .map_err(|e| BadInput(format!("{}: {e}", f.display())))?;
        if s.identity.is_none() {
            return Err(BadInput(format!(
                "{}: {}",
                f.display(),
                stats::MergeError::NoIdentity
            ))
            .into());
        }
        match &mut merged {
            None => merged = Some(s),
            Some(m) => m
                .merge(&s)
                .map_err(|e| BadInput(format!("{}: {e}", f.display())))?,
        }
    }
    let mut summary = merged.unwrap_or_default();
    let missing = summary.missing_shards();
    let count = summary.identity.as_ref().map_or(1, |i| i.shard_count);
    if !partial {
        refuse_incomplete("batch", count, &missing, summary.complete)?;
    }
    summary.complete &= missing.is_empty();
    summary.finish();
    if *json {
        outln!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        out!("{}", present::batch_summary::render(&summary));
    }
    Ok(ExitCode::SUCCESS)
}
