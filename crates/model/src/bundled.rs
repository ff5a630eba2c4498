//! The data files shipped with hexwar (`data/terrain.toml`, `data/units/*.toml`) and its
//! scenarios (`scenarios/*.toml`), compiled in so that tests and an installed binary have them
//! without reading files.

use hexmap::TerrainTable;

use crate::catalog::{Catalog, Source};
use crate::load::Problem;
use crate::scenario::{Scenario, ScenarioFile};

/// The bundled terrain table's text.
pub const TERRAIN: &str = include_str!("../../../data/terrain.toml");

/// The bundled unit catalogs: `(name, text)`.
pub const CATALOG: [(&str, &str); 2] = [
    (
        "<built-in>/units/nato.toml",
        include_str!("../../../data/units/nato.toml"),
    ),
    (
        "<built-in>/units/soviet.toml",
        include_str!("../../../data/units/soviet.toml"),
    ),
];

/// The bundled scenarios: `(name, text)`, the name its file's without `.toml`.
pub const SCENARIOS: [(&str, &str); 8] = [
    (
        "artillery_duel",
        include_str!("../../../scenarios/artillery_duel.toml"),
    ),
    (
        "city_fight",
        include_str!("../../../scenarios/city_fight.toml"),
    ),
    (
        "dawn_assault",
        include_str!("../../../scenarios/dawn_assault.toml"),
    ),
    (
        "dusk_rearguard",
        include_str!("../../../scenarios/dusk_rearguard.toml"),
    ),
    (
        "meeting_engagement",
        include_str!("../../../scenarios/meeting_engagement.toml"),
    ),
    (
        "night_recon",
        include_str!("../../../scenarios/night_recon.toml"),
    ),
    (
        "river_crossing",
        include_str!("../../../scenarios/river_crossing.toml"),
    ),
    (
        "village_counterattack",
        include_str!("../../../scenarios/village_counterattack.toml"),
    ),
];

/// The bundled catalog. Its files are checked by the test suite, so this cannot fail in a
/// released build.
///
/// # Panics
/// Only if the bundled files are broken, which the tests rule out.
#[must_use]
pub fn catalog() -> Catalog {
    let sources = CATALOG.map(|(name, text)| Source { name, text });
    Catalog::load(&sources).expect("the bundled catalog is valid")
}

/// The bundled terrain table.
///
/// # Panics
/// Only if the bundled file is broken, which the tests rule out.
#[must_use]
pub fn terrain() -> TerrainTable {
    TerrainTable::from_toml(TERRAIN).expect("the bundled terrain table is valid")
}

/// A scenario written as `text` (named `name` in its problems), checked against the bundled
/// catalog and terrain table: how tests and benches load a scenario without files.
///
/// # Errors
/// Every [`Problem`] the scenario has.
pub fn scenario(name: &str, text: &str) -> Result<Scenario, Vec<Problem>> {
    ScenarioFile::parse(name, text).validate(&catalog(), &terrain())
}
