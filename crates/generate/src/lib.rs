//! Scenarios no one wrote: `hexwar generate`. From a seed and a few knobs (map size, light,
//! terrain mix, size of the forces, objectives, turns) it lays out land as a designer sketches
//! it ([`land`]: a road across, a town on it, woods, hills and marsh in patches, perhaps a
//! river and its crossings), gives each side a force from the unit catalog ([`forces`]: HQs,
//! tanks, carriers with their riflemen aboard, anti-tank teams, recon, artillery and its
//! observers; reserves and ambushes), puts the objectives in the defender's half, sets the
//! turns from how far the attacker has to go, and writes it all as a scenario file with
//! comments ([`write`]), which it then checks with the same code as `hexwar check`.
//!
//! The same seed and knobs give the same file: the generator is Xoshiro256++ (a named,
//! portable algorithm) seeded from the seed alone, and a test pins the text of a few seeds.
//! The generated scenarios are what no one tuned on: the AIs' held-out set is a committed list
//! of seeds ([`HELD_OUT`]) that no fit may use.
//!
//! ```
//! let catalog = model::bundled::catalog();
//! let terrain = model::bundled::terrain();
//! let made = generate::generate(17, &generate::Knobs::default(), &catalog, &terrain).unwrap();
//! assert!(made.text.contains("hexwar generate --seed 17"));
//! assert!(made.scenario.units.len() >= 4);
//! ```

mod forces;
mod knobs;
mod land;
mod write;

use hexmap::TerrainTable;
use model::{Catalog, Problem, Scenario, ScenarioFile};
use rand::SeedableRng as _;
use rand_xoshiro::Xoshiro256PlusPlus;

pub use knobs::{Forces, KnobError, Knobs, Mix, parse_light, parse_size};

/// The generator's random numbers: portable, seeded from the seed alone.
type Rng = Xoshiro256PlusPlus;

/// The held-out set's text: the seeds no fit may use (`data/held_out.toml`).
pub const HELD_OUT_TEXT: &str = include_str!("../../../data/held_out.toml");

/// The seeds of generated scenarios (default knobs) that no fit may use: the set on which the
/// AIs' strength is judged on scenarios no one tuned on (`data/held_out.toml`).
///
/// ```
/// assert!(generate::held_out().len() >= 20);
/// ```
#[must_use]
pub fn held_out() -> Vec<u64> {
    HELD_OUT_TEXT
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .flat_map(|l| l.split(|c: char| !c.is_ascii_digit()))
        .filter_map(|s| s.parse().ok())
        .collect()
}

/// A generated scenario: its file's text and the scenario it loads as.
#[derive(Debug)]
pub struct Generated {
    /// The scenario file, with comments: what `hexwar generate` writes.
    pub text: String,
    /// The text loaded and checked.
    pub scenario: Scenario,
}

/// Why no scenario came out.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// The catalog lacks what a force is made of (an HQ, a fighting unit) for two nations.
    #[error("the unit catalog has no {0} for two nations to fight with")]
    Catalog(&'static str),
    /// The terrain table lacks one of the built-in kinds the generator lays out.
    #[error("the terrain table has no `{0}`, which the generator lays out")]
    Terrain(&'static str),
    /// The knobs ask for what cannot be: forces that do not fit the map.
    #[error("{0}")]
    Knobs(String),
    /// The written scenario failed its check: a bug of the generator, reported, never hidden.
    #[error("the generated scenario fails its check (a bug of the generator): {}", .0.first().map_or("", |p| p.message.as_str()))]
    Invalid(Vec<Problem>),
}

/// Generates the scenario of `seed` under `knobs`, with the units of `catalog` on the terrain
/// of `terrain`.
///
/// # Errors
/// When the catalog or the terrain table lacks what the generator needs, or the knobs ask for
/// forces the map cannot hold; [`GenerateError::Invalid`] would be a bug.
pub fn generate(
    seed: u64,
    knobs: &Knobs,
    catalog: &Catalog,
    terrain: &TerrainTable,
) -> Result<Generated, GenerateError> {
    let mut rng = Rng::seed_from_u64(seed);
    let settings = knobs.settle(&mut rng);
    let land = land::lay_out(&settings, terrain, &mut rng)?;
    let sides = forces::muster(&settings, &land, catalog, &mut rng)?;
    let placed = forces::place(&sides, &land, catalog, &mut rng)?;
    let plan = write::Plan::new(seed, &settings, &land, &placed, &mut rng);
    let text = plan.text(terrain);
    let name = format!("generated-{seed}.toml");
    let scenario = ScenarioFile::parse(&name, &text)
        .validate(catalog, terrain)
        .map_err(GenerateError::Invalid)?;
    Ok(Generated { text, scenario })
}

#[cfg(test)]
mod tests {
    use super::{Knobs, generate, held_out};

    #[test]
    fn the_same_seed_gives_the_same_file_and_another_seed_another() {
        let (catalog, terrain) = (model::bundled::catalog(), model::bundled::terrain());
        let knobs = Knobs::default();
        let a = generate(5, &knobs, &catalog, &terrain).unwrap().text;
        let b = generate(5, &knobs, &catalog, &terrain).unwrap().text;
        let c = generate(6, &knobs, &catalog, &terrain).unwrap().text;
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn four_hundred_seeds_generate_scenarios_that_pass_the_check() {
        let (catalog, terrain) = (model::bundled::catalog(), model::bundled::terrain());
        let mut failed = Vec::new();
        for seed in 1..=400 {
            if let Err(e) = generate(seed, &Knobs::default(), &catalog, &terrain) {
                failed.push(format!("{seed}: {e}"));
            }
        }
        assert!(failed.is_empty(), "{}", failed.join("\n"));
    }

    #[test]
    fn the_held_out_seeds_are_twenty_or_more_and_distinct() {
        let mut seeds = held_out();
        let n = seeds.len();
        seeds.sort_unstable();
        seeds.dedup();
        assert_eq!(seeds.len(), n, "a seed listed twice");
        assert!(n >= 20, "{n} held-out seeds");
    }
}
