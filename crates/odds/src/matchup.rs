//! The matchup battlefield of `hexwar odds`: two stacks face to face on open ground, built as a
//! scenario would be (one formation a side, led by its senior listed HQ or by none), and the
//! melee choices (`--choices`) turned into orders.

use hexmap::{Label, Map, TerrainId, TerrainTable};

use counters::state::{Rules, State};
use model::catalog::Catalog;
use model::ids::{FormationId, Side, UnitId, UnitTypeId};
use model::scenario::{Arrival, Formation, Role, RuleSwitches, Scenario, SideInfo, TimeOfDay};
use model::unit::{Location, Unit, UnitState};

/// A unit of a matchup: its type and starting state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Combatant {
    /// The type.
    pub type_id: UnitTypeId,
    /// Its state (weakened, disorganized...).
    pub state: UnitState,
}

impl Combatant {
    /// One side of a matchup as `hexwar odds` takes it: catalog ids, each with optional
    /// `:weakened` and `:disorganized`, separated by commas (`btr70,hq_mrr`,
    /// `m2:disorganized, jaeger`).
    ///
    /// # Errors
    /// What is wrong with the text, in words.
    pub fn parse_side(catalog: &Catalog, text: &str) -> Result<Vec<Self>, String> {
        let mut out = Vec::new();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let mut parts = item.split(':');
            let id = parts.next().unwrap_or_default();
            let type_id = catalog
                .id(id)
                .ok_or_else(|| catalog.unknown(&model::shown(id)))?;
            let mut state = UnitState::default();
            for p in parts {
                match p {
                    "weakened" => state.weakened = true,
                    "disorganized" => state.disorganized = true,
                    other => {
                        return Err(format!(
                            "unknown state `{other}` for `{id}`: use :weakened or :disorganized"
                        ));
                    }
                }
            }
            if state.weakened && catalog.get(type_id).steps < 2 {
                return Err(format!("`{id}` has one step and cannot be weakened"));
            }
            out.push(Combatant { type_id, state });
        }
        if out.is_empty() {
            return Err("each side needs at least one unit".to_owned());
        }
        Ok(out)
    }
}

/// Where the synthetic matchup stands: attackers in `0304`, defenders in `0404` of the chosen
/// terrain, in the middle of an open 7 x 7 field, so that a retreat (through `0503`) and a
/// break-off always find room (odds leave out what the map would decide).
pub const MATCHUP_ATTACKERS: Label = Label::new(3, 4);
/// The defended hex of a matchup.
pub const MATCHUP_DEFENDERS: Label = Label::new(4, 4);

/// A seven-by-seven open battlefield holding just the two stacks, for odds and their tests.
#[must_use]
pub fn matchup(
    catalog: &Catalog,
    table: &TerrainTable,
    terrain: TerrainId,
    attackers: &[Combatant],
    defenders: &[Combatant],
) -> Scenario {
    let clear = table
        .iter()
        .find(|(_, t)| t.open && t.elevation == 0)
        .map_or(terrain, |(id, _)| id);
    let mut map = Map::new(table.clone(), 7, 7, clear);
    map.set_terrain(MATCHUP_DEFENDERS.to_hex(), terrain);
    let mut units = Vec::new();
    let mut unit_names = Vec::new();
    for (side, list, at) in [
        (Side::A, attackers, MATCHUP_ATTACKERS),
        (Side::B, defenders, MATCHUP_DEFENDERS),
    ] {
        for c in list {
            let id = UnitId::from_index(units.len());
            unit_names.push(format!("{}{}", catalog.get(c.type_id).id, id.0));
            units.push(Unit {
                id,
                type_id: c.type_id,
                side,
                formation: FormationId::from_index(side.index()),
                location: Location::Map(at.to_hex()),
                state: c.state,
            });
        }
    }
    // Each side is one formation, as a scenario would have it: its HQ is the side's senior
    // listed HQ (the highest leadership, then catalog order, full strength first), so that the
    // order units are listed in does not matter; with no HQ listed the formation has none, and
    // nobody re-rolls (R11.2).
    let hq_of = |side: Side| {
        units
            .iter()
            .filter(|u| u.side == side && catalog.get(u.type_id).is_hq())
            .min_by_key(|u| {
                let t = catalog.get(u.type_id);
                (
                    std::cmp::Reverse(t.leadership_value(false)),
                    u.type_id,
                    u.state.weakened,
                    u.state.disorganized,
                )
            })
            .map(|u| u.id)
    };
    let side = |id: &str, role| SideInfo {
        id: id.to_owned(),
        name: id.to_owned(),
        nation: String::new(),
        role,
        motivation: 4,
        senior_hq: None,
        ai: model::scenario::AiName::default(),
        assault_threshold: model::scenario::default_assault_threshold(role),
        air_sorties: None,
        air_observation_post: false,
    };
    Scenario {
        title: "odds".to_owned(),
        description: String::new(),
        map,
        sides: [
            side("attacker", Role::Attacker),
            side("defender", Role::Defender),
        ],
        first: Side::A,
        recon_first: Side::A,
        turns: 1,
        time_of_day: TimeOfDay::Day,
        fair_fight: false,
        rules: RuleSwitches {
            stacking_limit: u8::MAX,
            ..RuleSwitches::default()
        },
        formations: Side::BOTH
            .iter()
            .map(|&s| Formation {
                id: format!("{s:?}"),
                name: String::new(),
                side: s,
                hq: hq_of(s),
            })
            .collect(),
        arrivals: vec![Arrival::OnMap; units.len()],
        types: Vec::new(),
        units,
        unit_names,
        objectives: Vec::new(),
        orders: Vec::new(),
        expect: None,
    }
}

/// Who counterattacks in the melee of a matchup (R11.2, R11.4): the choices the odds assume for
/// a side's units that pass their test.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Choices {
    /// The doctrine AI's: counterattack when the round would score at least one hit with
    /// probability 0.5 or more.
    #[default]
    Doctrine,
    /// Every unit that may counterattack does.
    Always,
    /// Every unit breaks off when it may.
    Never,
}

impl Choices {
    /// The name, as `--choices` takes it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Doctrine => "doctrine",
            Self::Always => "always",
            Self::Never => "never",
        }
    }
}

impl std::str::FromStr for Choices {
    type Err = ();

    fn from_str(s: &str) -> Result<Self, ()> {
        match s {
            "doctrine" => Ok(Self::Doctrine),
            "always" => Ok(Self::Always),
            "never" => Ok(Self::Never),
            _ => Err(()),
        }
    }
}

/// Gives every unit of `side` in a matchup the melee orders of `choices` for its one turn, so
/// that the engine and the odds alike make those choices (`always`: `melee = "counterattack"`,
/// `never`: `melee = "break_off"`; `doctrine`: no orders, the AI decides).
pub fn set_choices(scenario: &mut Scenario, side: Side, choices: Choices) {
    let choice = match choices {
        Choices::Doctrine => return,
        Choices::Always => model::scenario::MeleeChoice::Counterattack,
        Choices::Never => model::scenario::MeleeChoice::BreakOff,
    };
    let units: Vec<UnitId> = scenario
        .units
        .iter()
        .filter(|u| u.side == side)
        .map(|u| u.id)
        .collect();
    for unit in units {
        scenario.orders.push(model::scenario::Order {
            turn: 1,
            unit,
            action: model::scenario::OrderAction::Melee { choice },
        });
    }
}

/// The attacking units of a matchup: those standing in [`MATCHUP_ATTACKERS`].
#[must_use]
pub fn matchup_attackers(state: &State) -> Vec<UnitId> {
    state
        .units()
        .iter()
        .filter(|u| u.hex() == Some(MATCHUP_ATTACKERS.to_hex()))
        .map(|u| u.id)
        .collect()
}

/// The state of a matchup at the attacker's movement phase.
#[must_use]
pub fn matchup_state(rules: &Rules<'_>) -> State {
    let mut s = State::new(rules.scenario);
    let phase = model::event::Phase::Movement;
    s.apply(&model::event::Event::PhaseStarted { phase });
    s
}
