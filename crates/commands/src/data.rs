//! Finding and reading data files: scenarios, unit catalogs and the terrain table.
//!
//! A scenario names its catalog folder and terrain table with `catalog = "..."` and
//! `terrain = "..."`, relative to the scenario file. Otherwise hexwar looks for `data/units/` and
//! `data/terrain.toml` in the scenario's folder and its parents, and finally uses the data built
//! into the binary. `--catalog DIR` overrides the catalog.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use hexmap::TerrainTable;
use model::{Catalog, Problem, Scenario, ScenarioFile, Source};

/// Bad input from the user: printed as is, exit status 2.
#[derive(Debug)]
pub struct BadInput(pub String);

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// The largest file hexwar reads (scenarios, catalogs, terrain tables, batch summaries): far
/// above any real one, and small enough that a wrong path (`/dev/zero`) is refused at once.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads a text file of at most [`MAX_FILE_BYTES`].
pub fn read_text(path: &Path) -> Result<String, BadInput> {
    use std::io::Read as _;
    let cannot = |e: &dyn fmt::Display| BadInput(format!("{}: cannot read: {e}", path.display()));
    let file = fs::File::open(path).map_err(|e| cannot(&e))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| cannot(&e))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(BadInput(format!(
            "{}: larger than {} MiB, the most hexwar reads: is it the right file?",
            path.display(),
            MAX_FILE_BYTES / 1024 / 1024
        )));
    }
    String::from_utf8(bytes).map_err(|_| cannot(&"not UTF-8 text"))
}

use model::bundled::{CATALOG as BUILTIN_CATALOG, TERRAIN as BUILTIN_TERRAIN};

/// Files read, kept so that problems can be shown with line and column, and the paths of
/// those read from disk (a command's inputs, which no output may replace).
#[derive(Default)]
pub struct Texts(Vec<(String, String)>, Vec<PathBuf>);

impl Texts {
    fn add(&mut self, name: String, text: String) {
        self.0.push((name, text));
    }

    fn read(&mut self, path: &Path) -> Result<(), BadInput> {
        let text = read_text(path)?;
        self.add(path.display().to_string(), text);
        self.1.push(path.to_owned());
        Ok(())
    }

    /// The files read from disk.
    #[must_use]
    pub fn paths(&self) -> &[PathBuf] {
        &self.1
    }

    /// `file:line:col: message` for each problem.
    #[must_use]
    pub fn render(&self, problems: &[Problem]) -> String {
        // One index of line starts per file: linear in the size of the files, whatever the
        // number of problems.
        let lines: Vec<model::Lines> = self.0.iter().map(|(_, t)| model::Lines::new(t)).collect();
        problems
            .iter()
            .map(|p| match self.0.iter().position(|(n, _)| *n == p.file) {
                Some(i) if p.span.is_some() => lines[i].render(&self.0[i].1, p),
                _ => p.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Looks for `rel` in `start` and its parents.
fn find_upward(start: &Path, rel: &str) -> Option<PathBuf> {
    start.ancestors().map(|d| d.join(rel)).find(|p| p.exists())
}

/// Where a catalog comes from.
pub enum CatalogDir {
    /// A folder of `*.toml` files.
    Dir(PathBuf),
    /// The catalog built into the binary.
    Builtin,
}

impl CatalogDir {
    /// The catalog a command without a scenario plays with (`odds`, `units`): `explicit`, else
    /// `data/units` above the working folder, else the built-in one, loaded.
    ///
    /// # Errors
    /// No working folder, or a catalog that does not load.
    pub fn load_from_cwd(explicit: Option<&Path>) -> anyhow::Result<Catalog> {
        let cwd = std::env::current_dir()?;
        Ok(Self::resolve(explicit, &cwd).load(&mut Texts::default())?)
    }

    /// The explicit folder, else `data/units` above `start`, else the built-in catalog.
    pub fn resolve(explicit: Option<&Path>, start: &Path) -> Self {
        match explicit {
            Some(p) => Self::Dir(p.to_owned()),
            None => find_upward(start, "data/units").map_or(Self::Builtin, Self::Dir),
        }
    }

    /// Reads the catalog, rendering every problem.
    pub fn load(&self, texts: &mut Texts) -> Result<Catalog, BadInput> {
        let first = texts.0.len();
        match self {
            Self::Builtin => {
                for (name, text) in BUILTIN_CATALOG {
                    texts.add(name.to_owned(), text.to_owned());
                }
            }
            Self::Dir(dir) => {
                let entries = fs::read_dir(dir).map_err(|e| {
                    BadInput(format!(
                        "{}: cannot read catalog folder: {e}",
                        dir.display()
                    ))
                })?;
                let mut files: Vec<PathBuf> = entries
                    .filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                    .collect();
                files.sort();
                if files.is_empty() {
                    return Err(BadInput(format!(
                        "{}: no *.toml unit catalogs in this folder",
                        dir.display()
                    )));
                }
                for f in files {
                    texts.read(&f)?;
                }
            }
        }
        let sources: Vec<Source<'_>> = texts.0[first..]
            .iter()
            .map(|(name, text)| Source { name, text })
            .collect();
        Catalog::load(&sources).map_err(|p| BadInput(texts.render(&p)))
    }
}

/// Reads a terrain table from a file, or the built-in one.
fn load_terrain(path: Option<&Path>, texts: &mut Texts) -> Result<TerrainTable, BadInput> {
    let (name, text) = match path {
        Some(p) => {
            texts.read(p)?;
            texts.0.last().cloned().unwrap_or_default()
        }
        None => (
            "<built-in>/terrain.toml".to_owned(),
            BUILTIN_TERRAIN.to_owned(),
        ),
    };
    TerrainTable::from_toml(&text).map_err(|e| {
        let at = match &e {
            hexmap::TerrainError::Toml { span: Some(s), .. }
            | hexmap::TerrainError::At { span: s, .. } => {
                let (l, c) = model::line_col(&text, s.start);
                format!(":{l}:{c}")
            }
            _ => String::new(),
        };
        BadInput(format!("{name}{at}: {e}"))
    })
}

/// Everything a command needs from a scenario file.
#[derive(Clone)]
pub struct Loaded {
    /// The checked scenario.
    pub scenario: Scenario,
    /// The catalog it plays with: the shared one with the scenario's own stats
    /// (`[types.TYPE]`).
    pub catalog: Catalog,
    /// Content hashes of the scenario, catalog and terrain table texts (FNV-1a, hex): what a
    /// batch summary names so that `merge` adds only games of the same batch.
    pub hashes: [String; 3],
    /// Every file read from disk: the scenario, its catalog and terrain table.
    pub files: Vec<PathBuf>,
    /// The scenario's name in messages and saves: its path, or `<built-in>/NAME.toml`.
    pub name: String,
    /// Its text, as read (a save keeps it).
    pub text: String,
    /// Where it came from.
    pub origin: Origin,
}

/// FNV-1a, 64 bits, of texts in order: a content hash that is the same on every machine.
#[must_use]
pub fn fnv(texts: &[&str]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for t in texts {
        for b in t.bytes().chain(std::iter::once(0)) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// The folder bundled scenarios are shown in: `<built-in>/dawn_assault.toml`. A scenario under
/// it plays with the built-in catalog and terrain table (unless `--catalog` says otherwise).
pub const BUILT_IN: &str = "<built-in>";

/// The bundled scenario a command-line word names: a bare name (`dawn_assault`, or
/// `dawn_assault.toml`) of one of `model::bundled::SCENARIOS`.
#[must_use]
pub fn bundled_scenario(arg: &Path) -> Option<(&'static str, &'static str)> {
    let word = arg.to_str()?;
    if arg.components().count() != 1 {
        return None;
    }
    let name = word.strip_suffix(".toml").unwrap_or(word);
    model::bundled::SCENARIOS
        .iter()
        .find(|(n, _)| *n == name)
        .copied()
}

/// Where a scenario's text came from, as it was loaded (never guessed from its name: a folder
/// may be called `<built-in>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Built into hexwar: it plays with the built-in catalog and terrain table, and no file of
    /// it may be written over.
    Bundled,
    /// A file: its folder places the catalog and terrain table it names.
    File(PathBuf),
}

impl Origin {
    /// The scenario a save names (`scenario_name`): a bundled one as hexwar names them,
    /// `<built-in>/NAME.toml` (a file under a folder of that name is saved as
    /// `./<built-in>/...`), else the file.
    #[must_use]
    pub fn of_saved(name: &str) -> Self {
        let bundled = name
            .strip_prefix(BUILT_IN)
            .and_then(|n| n.strip_prefix('/'))
            .and_then(|n| n.strip_suffix(".toml"))
            .is_some_and(|n| model::bundled::SCENARIOS.iter().any(|(b, _)| *b == n));
        if bundled {
            Self::Bundled
        } else {
            Self::File(PathBuf::from(name))
        }
    }

    /// The file, if it is one (an input no output may replace).
    #[must_use]
    pub fn file(&self) -> Option<&Path> {
        match self {
            Self::Bundled => None,
            Self::File(p) => Some(p),
        }
    }
}

/// A file's name as messages and saves show it: its path, with `./` before a path that begins
/// with a folder named `<built-in>`, so that a save never takes it for a bundled scenario.
#[must_use]
pub fn file_shown(path: &Path) -> String {
    if path.starts_with(BUILT_IN) {
        format!("./{}", path.display())
    } else {
        path.display().to_string()
    }
}

/// The text of the scenario a command-line word names: a file, or the name of a scenario built
/// into hexwar (`dawn_assault`), shown as `<built-in>/NAME.toml`. A file of that name in the
/// current folder wins, and standard error says which was used. Returns where it came from,
/// the name shown in messages, and the text.
pub fn scenario_text(path: &Path) -> Result<(Origin, String, String), BadInput> {
    let bundled = bundled_scenario(path);
    if let Some((name, text)) = bundled
        && !path.exists()
    {
        errln!("{}: the scenario built into hexwar", path.display());
        let shown = format!("{BUILT_IN}/{name}.toml");
        return Ok((Origin::Bundled, shown, text.to_owned()));
    }
    if bundled.is_some() {
        errln!(
            "{}: the file in this folder, not the scenario of that name built into hexwar",
            path.display()
        );
    }
    let text = read_text(path).map_err(|e| {
        if path.exists() {
            e
        } else {
            BadInput(format!(
                "{e} (`hexwar scenarios` lists the scenarios built into hexwar, which a name runs)"
            ))
        }
    })?;
    Ok((Origin::File(path.to_owned()), file_shown(path), text))
}

/// Reads and checks a scenario with its catalog and terrain table. Every problem is rendered
/// with file, line and column. `path` is a file or a bundled scenario's name
/// ([`scenario_text`]).
pub fn load_scenario(path: &Path, catalog_override: Option<&Path>) -> Result<Loaded, BadInput> {
    let (origin, shown, text) = scenario_text(path)?;
    let mut texts = Texts::default();
    texts.add(shown.clone(), text.clone());
    if let Some(f) = origin.file() {
        texts.1.push(f.to_owned());
    }
    load_scenario_text(&origin, &shown, &text, texts, catalog_override)
}

/// As [`load_scenario`], for a scenario's text already read (a saved game carries its
/// scenario): `origin` places the data it refers to, `shown` names it in messages.
pub fn load_scenario_from(
    origin: &Origin,
    shown: &str,
    text: &str,
    catalog_override: Option<&Path>,
) -> Result<Loaded, BadInput> {
    let mut texts = Texts::default();
    texts.add(shown.to_owned(), text.to_owned());
    load_scenario_text(origin, shown, text, texts, catalog_override)
}

fn load_scenario_text(
    origin: &Origin,
    name: &str,
    text: &str,
    mut texts: Texts,
    catalog_override: Option<&Path>,
) -> Result<Loaded, BadInput> {
    let file = ScenarioFile::parse(name, text);
    let dir = origin
        .file()
        .and_then(Path::parent)
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));

    // A bundled scenario reads the built-in data, wherever hexwar runs.
    let built_in = *origin == Origin::Bundled;
    let catalog_dir = match (catalog_override, &file.catalog) {
        (Some(p), _) => CatalogDir::Dir(p.to_owned()),
        (None, _) if built_in => CatalogDir::Builtin,
        (None, Some(rel)) => CatalogDir::Dir(dir.join(rel)),
        (None, None) => CatalogDir::resolve(None, dir),
    };
    // The table the scenario is read with, and a table it names added to it (R1.1).
    let (base_path, own_path) = match &file.terrain {
        _ if built_in => (None, None),
        own => (
            find_upward(dir, "data/terrain.toml"),
            own.as_ref().map(|rel| dir.join(rel)),
        ),
    };
    let before_terrain = texts.0.len();
    let mut terrain = load_terrain(base_path.as_deref(), &mut texts)?;
    if let Some(own) = own_path.filter(|p| Some(p) != base_path.as_ref()) {
        let added = load_terrain(Some(&own), &mut texts)?;
        terrain = terrain
            .extended(added.iter().map(|(_, t)| t.clone()))
            .map_err(|e| BadInput(format!("{}: {e}", own.display())))?;
    }
    let before_catalog = texts.0.len();
    let catalog = catalog_dir.load(&mut texts)?;
    let scenario = file
        .knowing_ais(ai::check_name)
        .validate(&catalog, &terrain)
        .map_err(|p| BadInput(texts.render(&p)))?;
    let of = |range: std::ops::Range<usize>| -> Vec<&str> {
        texts.0[range].iter().map(|(_, t)| t.as_str()).collect()
    };
    let mut terrain_texts = of(before_terrain..before_catalog);
    if base_path.is_none() {
        terrain_texts.insert(0, BUILTIN_TERRAIN);
    }
    let hashes = [
        fnv(&[text]),
        fnv(&of(before_catalog..texts.0.len())),
        fnv(&terrain_texts),
    ];
    let files = texts.paths().to_vec();
    // The scenario's own stats (`[types.TYPE]`) over the shared catalog's.
    let catalog = scenario.catalog(&catalog).into_owned();
    Ok(Loaded {
        scenario,
        catalog,
        hashes,
        files,
        name: name.to_owned(),
        text: text.to_owned(),
        origin: origin.clone(),
    })
}

/// The scenario files named: files as given, folders by their `*.toml` files (not recursive),
/// in name order.
pub fn scenario_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, BadInput> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| BadInput(format!("{}: cannot read: {e}", p.display())))?
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|f| f.is_file() && f.extension().is_some_and(|x| x == "toml"))
                .collect();
            inside.sort();
            out.extend(inside);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}
