//! The scenarios a server offers: every bundled scenario, then those of the files and folders
//! given, each loaded once at start (bad input stops the server before it listens). A game is
//! started from its scenario's name, never from a path the browser sends.

use std::path::PathBuf;

use commands::data::{self, Loaded};
use counters::{Rules, State};
use present::picture::map::{self, Labels, Position};
use present::picture::style::Style;

/// A scenario offered.
pub struct Offer {
    /// The name a page asks for it by: the bundled name, or the file's stem (with a number
    /// after it where two files share one).
    pub name: String,
    /// Where it came from: `built-in`, or the file.
    pub source: String,
    /// The scenario, catalog and terrain as loaded.
    pub loaded: Loaded,
    /// The map at the start, as `render` draws it.
    pub picture: String,
}

/// Every scenario offered, in the order the first page lists them.
pub struct Offered(Vec<Offer>);

impl Offered {
    /// The bundled scenarios and those of `files` (files, or folders of `*.toml`).
    ///
    /// # Errors
    /// A file that is not a valid scenario.
    pub fn load(files: &[PathBuf]) -> Result<Self, commands::BadInput> {
        let mut offers = Vec::new();
        for (name, text) in model::bundled::SCENARIOS {
            let shown = format!("{}/{name}.toml", data::BUILT_IN);
            let loaded = data::load_scenario_from(&data::Origin::Bundled, &shown, text, None)?;
            offers.push(offer(name.to_owned(), "built-in".to_owned(), loaded));
        }
        for path in data::scenario_files(files)? {
            let loaded = data::load_scenario(&path, None)?;
            let stem = path.file_stem().map_or_else(
                || "scenario".to_owned(),
                |s| s.to_string_lossy().into_owned(),
            );
            let mut name = stem.clone();
            let mut n = 2;
            while offers.iter().any(|o: &Offer| o.name == name) {
                name = format!("{stem}-{n}");
                n += 1;
            }
            offers.push(offer(name, data::file_shown(&path), loaded));
        }
        Ok(Self(offers))
    }

    /// How many.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Every one, in order.
    pub fn iter(&self) -> impl Iterator<Item = &Offer> {
        self.0.iter()
    }

    /// The one of this name.
    #[must_use]
    pub fn named(&self, name: &str) -> Option<&Offer> {
        self.0.iter().find(|o| o.name == name)
    }

    /// The one a save was played on: the same scenario text (its path in the save is never
    /// opened).
    #[must_use]
    pub fn of_save(&self, saved: &session::save::SavedGame) -> Option<&Offer> {
        self.0.iter().find(|o| o.loaded.text == saved.scenario)
    }
}

fn offer(name: String, source: String, loaded: Loaded) -> Offer {
    let rules = Rules::new(&loaded.scenario, &loaded.catalog);
    let state = State::new(&loaded.scenario);
    let picture = map::svg(
        &rules,
        &Style::bundled(),
        &Position {
            units: state.units(),
            smoke: state.smoke(),
            caption: map::start_caption(loaded.scenario.time_of_day),
        },
        Labels::Drawn,
    );
    Offer {
        name,
        source,
        loaded,
        picture,
    }
}
