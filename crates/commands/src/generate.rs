//! `hexwar generate`: scenarios from a seed and a few knobs (the `generate` crate), written as
//! commented scenario files a designer can start from.

use std::path::PathBuf;
use std::process::ExitCode;

use generate::{Forces, Knobs, Mix};
use model::{TimeOfDay, bundled};

use crate::data::BadInput;
use crate::output::Output;

/// `hexwar generate`.
#[derive(clap::Args)]
pub struct GenerateArgs {
    /// The seed: the same seed and knobs give the same file. Default: a new seed, printed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Map size: columns x rows, as 14x10 (8 to 40 each). Default: from the seed, by the size
    /// of the forces.
    #[arg(long, value_name = "COLSxROWS", value_parser = generate::parse_size)]
    pub size: Option<(u16, u16)>,
    /// The light at the start: day, night, dawn or dusk (R13.3). Default: from the seed.
    #[arg(long, value_parser = generate::parse_light)]
    pub light: Option<TimeOfDay>,
    /// What the land is made of: open, mixed, close or urban. Default: from the seed.
    #[arg(long, value_name = "MIX", value_parser = |s: &str| s.parse::<Mix>())]
    pub terrain: Option<Mix>,
    /// How large the forces are: small (the defender an HQ and 2-4 units), company (5-8) or
    /// battalion (two or three companies and a senior HQ); the attacker as many as a multiple
    /// of the defender's strength needs. Default: from the seed.
    #[arg(long, value_name = "SIZE", value_parser = |s: &str| s.parse::<Forces>())]
    pub forces: Option<Forces>,
    /// How many objectives, 1 to 4 (R17.1). Default: from the seed.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=4))]
    pub objectives: Option<u8>,
    /// The turn limit (R17.1). Default: the attacker's way to the farthest objective and a
    /// turn or three more.
    #[arg(long, value_parser = crate::options::turns)]
    pub turns: Option<u32>,
    /// Write the scenario to FILE (default: standard output).
    #[arg(short, long, value_name = "FILE", conflicts_with = "count")]
    pub output: Option<PathBuf>,
    /// Write N scenarios, seeds SEED to SEED+N-1, into --dir as `generated-SEED.toml`.
    #[arg(long, value_name = "N", requires = "dir", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub count: Option<u64>,
    /// The folder for --count (made if missing).
    #[arg(long, value_name = "DIR", requires = "count")]
    pub dir: Option<PathBuf>,
    /// Replace files that already exist (default: refuse, so that no scenario of yours is lost).
    #[arg(long)]
    pub force: bool,
}

/// Generates one scenario (to a file or standard output) or many (into a folder).
///
/// # Errors
/// Bad knobs, a file that exists (without `--force`), a file that cannot be written.
pub fn run(args: &GenerateArgs) -> anyhow::Result<ExitCode> {
    let knobs = Knobs {
        size: args.size,
        light: args.light,
        terrain: args.terrain,
        forces: args.forces,
        objectives: args.objectives,
        turns: args.turns,
    };
    let seed = args.seed.unwrap_or_else(|| {
        let s = new_seed();
        errln!("seed {s} (give --seed {s} to make this scenario again)");
        s
    });
    let (catalog, terrain) = (bundled::catalog(), bundled::terrain());
    let held_out = generate::held_out();
    let made = |seed: u64| -> Result<String, BadInput> {
        generate::generate(seed, &knobs, &catalog, &terrain)
            .map(|g| g.text)
            .map_err(|e| BadInput(format!("seed {seed}: {e}")))
    };
    let write = |path: &PathBuf, text: &str| -> Result<(), BadInput> {
        if path.exists() && !args.force {
            return Err(BadInput(format!(
                "{}: already exists; give --force to replace it",
                path.display()
            )));
        }
        Output::check(path, "the scenario", &[])?.write(text.as_bytes())
    };
    if let (Some(count), Some(dir)) = (args.count, &args.dir) {
        std::fs::create_dir_all(dir)
            .map_err(|e| BadInput(format!("{}: cannot make the folder: {e}", dir.display())))?;
        for s in seed..seed.saturating_add(count) {
            write(&dir.join(format!("generated-{s}.toml")), &made(s)?)?;
        }
        errln!(
            "{count} scenarios in {} (seeds {seed} to {})",
            dir.display(),
            seed.saturating_add(count - 1)
        );
        let listed = (seed..seed.saturating_add(count))
            .filter(|s| held_out.contains(s))
            .count();
        if listed > 0 {
            errln!("{listed} of them are held out (data/held_out.toml): no fit may use them");
        }
        return Ok(ExitCode::SUCCESS);
    }
    let text = made(seed)?;
    if held_out.contains(&seed) {
        errln!("seed {seed} is held out (data/held_out.toml): no fit may use it");
    }
    match &args.output {
        Some(path) => {
            write(path, &text)?;
            errln!("wrote {}", path.display());
        }
        None => out!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}

/// A seed from the clock and the process, for a designer who gave none.
fn new_seed() -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mixed = (now ^ u128::from(std::process::id()) << 64) % 1_000_000;
    u64::try_from(mixed).unwrap_or(0)
}
