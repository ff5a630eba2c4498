//! The bundled scenarios the benches play, by name and text (a module of each bench that uses
//! it, `#[path]`-included, not a bench of its own).

use model::{Catalog, Scenario, ScenarioFile, bundled};

/// Every bundled scenario: its file name without `.toml`, and its text.
pub const BUNDLED: [(&str, &str); 3] = [
    (
        "dawn_assault",
        include_str!("../../../../scenarios/dawn_assault.toml"),
    ),
    (
        "meeting_engagement",
        include_str!("../../../../scenarios/meeting_engagement.toml"),
    ),
    (
        "night_recon",
        include_str!("../../../../scenarios/night_recon.toml"),
    ),
];

/// Every bundled scenario, loaded and checked against `catalog` and the bundled terrain: its
/// name, its text and the scenario.
pub fn loaded(catalog: &Catalog) -> Vec<(&'static str, &'static str, Scenario)> {
    let terrain = bundled::terrain();
    BUNDLED
        .iter()
        .map(|&(name, text)| {
            let scenario = ScenarioFile::parse(name, text)
                .validate(catalog, &terrain)
                .expect("a bundled scenario");
            (name, text, scenario)
        })
        .collect()
}
