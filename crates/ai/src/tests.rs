//! What the AIs' unit tests share: a small test field.

use model::{Scenario, ScenarioFile, bundled};

/// A field of 6 x 6 clear hexes with the objective 0505 (the Farm), `first` moving first,
/// Red (Soviet) attacking with its HQ at 0101 and Blue (NATO) defending with its HQ at `blue_hq`;
/// `units` is more `[[units]]` tables (see [`unit`]).
pub(crate) fn field(first: &str, blue_hq: &str, units: &str) -> Scenario {
    let text = format!(
        "title = \"t\"\nturns = 3\nfirst = \"{first}\"\ntime_of_day = \"day\"\n\
         [map]\ncolumns = 6\nrows = 6\ndefault = \"clear\"\nhexes = {{}}\n\
         [[sides]]\nid = \"red\"\nname = \"Red\"\nnation = \"soviet\"\nrole = \"attacker\"\n\
         [[sides]]\nid = \"blue\"\nname = \"Blue\"\nnation = \"nato\"\nrole = \"defender\"\n\
         [[formations]]\nid = \"r\"\nside = \"red\"\nhq = \"rhq\"\n\
         [[formations]]\nid = \"b\"\nside = \"blue\"\nhq = \"bhq\"\n\
         [[units]]\nid = \"rhq\"\ntype = \"hq_mrb\"\nformation = \"r\"\nat = \"0101\"\n\
         [[units]]\nid = \"bhq\"\ntype = \"hq_tf\"\nformation = \"b\"\nat = \"{blue_hq}\"\n\
         [[objectives]]\nname = \"Farm\"\nat = \"0505\"\n{units}"
    );
    ScenarioFile::parse("t.toml", &text)
        .validate(&bundled::catalog(), &bundled::terrain())
        .expect("a valid scenario")
}

/// One `[[units]]` table: `id` of catalog type `typ` in formation `f` at `at`, with `extra`
/// lines (a state, a strength) after it.
pub(crate) fn unit(id: &str, typ: &str, f: &str, at: &str, extra: &str) -> String {
    format!(
        "[[units]]\nid = \"{id}\"\ntype = \"{typ}\"\nformation = \"{f}\"\nat = \"{at}\"\n{extra}\n"
    )
}
