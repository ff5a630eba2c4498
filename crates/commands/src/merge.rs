//! `hexwar merge`: batch or arena summaries (one per shard, say) added into the summary of
//! one run, exactly.

use std::path::PathBuf;
use std::process::ExitCode;

use game::Summary;

use crate::arena;
use crate::batch::refuse_incomplete;
use crate::data::{self, BadInput};

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
    if let Some(first) = files.first()
        && arena::is_arena_summary(&data::read_text(first)?)
    {
        return arena::merge(files, *json, *partial);
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
            return Err(
                BadInput(format!("{}: {}", f.display(), game::MergeError::NoIdentity)).into(),
            );
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
