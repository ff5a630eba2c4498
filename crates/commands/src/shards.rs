//! Shard files of the commands that play many batches (`tune`, `test`, `skill`): with
//! `--shard I/N --json` each writes the batches it played as parts, every count whole (a batch
//! summary, and for `test` the tally of its expectations), and `hexwar merge` adds the shards'
//! parts into exactly the single run's, from which the command reports as it would have.

use serde::{Deserialize, Serialize};

use stats::{Summary, Tally};

use crate::batch::Shard;
use crate::data::BadInput;

/// One batch of a command's run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Part {
    /// What the batch is (`t72.assault = 4`, a scenario's file, `soviet as search:64`).
    pub label: String,
    /// Its games' summary.
    pub summary: Summary,
    /// The tally of the scenario's expectations (`test`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tally: Option<Tally>,
}

/// A command's batches from one shard (or, merged, from several).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Shards {
    /// The command: `tune`, `test` or `skill`.
    pub hexwar: String,
    /// What the command was asked, as its result depends on it: shards of other questions do
    /// not merge.
    pub asked: serde_json::Value,
    /// The number of shards of the run.
    pub shard_count: u64,
    /// The shards these parts hold.
    pub shards: Vec<u64>,
    /// The batches, in the command's order.
    pub parts: Vec<Part>,
}

impl Shards {
    /// The parts of one shard of a run.
    #[must_use]
    pub fn new(hexwar: &str, asked: serde_json::Value, shard: Shard, parts: Vec<Part>) -> Self {
        Self {
            hexwar: hexwar.to_owned(),
            asked,
            shard_count: shard.count,
            shards: vec![shard.index],
            parts,
        }
    }

    /// Whether a JSON text is a shard file of one of these commands.
    #[must_use]
    pub fn is_shards(text: &str) -> bool {
        serde_json::from_str::<serde_json::Value>(text)
            .is_ok_and(|v| v.get("hexwar").is_some() && v.get("parts").is_some())
    }

    /// Adds another shard of the same run.
    ///
    /// # Errors
    /// Another command or question, another shard count, a shard counted twice, other parts,
    /// or parts whose summaries or tallies do not merge.
    pub fn merge(&mut self, other: &Self) -> Result<(), BadInput> {
        let differ = |what: &str| BadInput(format!("shards of another run: {what} differ"));
        if self.hexwar != other.hexwar {
            return Err(differ("the commands"));
        }
        same_run(
            "run",
            [&self.asked, &other.asked],
            [self.shard_count, other.shard_count],
            &self.shards,
            &other.shards,
        )?;
        if self.parts.len() != other.parts.len()
            || self
                .parts
                .iter()
                .zip(&other.parts)
                .any(|(a, b)| a.label != b.label)
        {
            return Err(differ("the batches played"));
        }
        for (a, b) in self.parts.iter_mut().zip(&other.parts) {
            a.summary
                .merge(&b.summary)
                .map_err(|e| BadInput(format!("{}: {e}", a.label)))?;
            match (&mut a.tally, &b.tally) {
                (Some(x), Some(y)) => x
                    .merge(y)
                    .map_err(|e| BadInput(format!("{}: {e}", a.label)))?,
                (None, None) => {}
                _ => return Err(differ("the tallies")),
            }
        }
        self.shards.extend(other.shards.iter().copied());
        self.shards.sort_unstable();
        Ok(())
    }

    /// What the command was asked, read back.
    ///
    /// # Errors
    /// A file of another command, or of another hexwar.
    pub fn asked<T: serde::de::DeserializeOwned>(&self) -> Result<T, BadInput> {
        serde_json::from_value(self.asked.clone())
            .map_err(|e| BadInput(format!("not a shard file of `hexwar {}`: {e}", self.hexwar)))
    }

    /// The shards missing from a complete run.
    #[must_use]
    pub fn missing(&self) -> Vec<std::ops::Range<u64>> {
        stats::missing_shards(self.shard_count, &self.shards)
    }

    /// Whether every batch was played whole.
    #[must_use]
    pub fn complete(&self) -> bool {
        self.parts.iter().all(|p| p.summary.complete)
    }
}

/// Whether two shards are of one run (`what`: `run`, `balance`): the same question asked, the
/// same shard count, and no shard in both.
///
/// # Errors
/// The difference, named.
pub fn same_run(
    what: &str,
    asked: [&serde_json::Value; 2],
    counts: [u64; 2],
    mine: &[u64],
    theirs: &[u64],
) -> Result<(), BadInput> {
    let differ = |x: &str| BadInput(format!("shards of another {what}: {x} differ"));
    if asked[0] != asked[1] {
        return Err(differ("the questions asked (the scenarios, the flags)"));
    }
    if counts[0] != counts[1] {
        return Err(differ("the shard counts"));
    }
    if let Some(twice) = theirs.iter().find(|s| mine.contains(s)) {
        return Err(BadInput(format!(
            "shard {twice} of {} given twice",
            counts[0]
        )));
    }
    Ok(())
}
