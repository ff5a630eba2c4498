//! What the AIs' unit tests share: a small test field, and a game on it at its first movement
//! phase.

use std::sync::Arc;

use counters::Rules;
use game::{Game, Seat, Waiting};
use model::{GameRng, Phase, Scenario, ScenarioFile, Side, bundled};

use crate::Passive;

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

/// A game of `rules` between two passive seats, advanced to its first movement phase, and the
/// side that moves in it.
pub(crate) fn first_movement(rules: Rules<'_>) -> (Game<'_>, Side) {
    let seat = || Seat::outside(Arc::new(Passive));
    let mut game = Game::new(
        rules,
        GameRng::seed_from_u64(1),
        GameRng::seed_from_u64(2),
        [seat(), seat()],
    );
    let side = loop {
        match game.advance().expect("dice") {
            Waiting::Commands {
                side,
                phase: Phase::Movement,
                ..
            } => break side,
            Waiting::Commands { .. } => {}
            other => panic!("no movement phase: {other:?}"),
        }
    };
    (game, side)
}
