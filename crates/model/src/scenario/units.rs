//! Validating `[[formations]]` and `[[units]]`: ids, types, where each unit starts or arrives,
//! formation HQs, passengers, no hex of both sides, stacking at the start.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

use hexmap::{Hex, Label, Map};
use toml::Spanned;

use crate::catalog::{Catalog, UnitClass};
use crate::ids::{FormationId, Side, UnitId, UnitTypeId};
use crate::scenario::raw::{RawArrival, RawUnit, ScenarioFile};
use crate::scenario::validator::Validator;
use crate::scenario::{Arrival, Formation};
use crate::unit::{Location, Unit, UnitState};

/// The units of a scenario and what names them.
pub(super) struct Forces {
    pub formations: Vec<Formation>,
    pub units: Vec<Unit>,
    pub unit_names: Vec<String>,
    pub arrivals: Vec<Arrival>,
    pub unit_ids: HashMap<String, UnitId>,
}

impl Validator {
    /// Formations and units, checked against the catalog, the map and the sides.
    pub(super) fn forces(
        &mut self,
        file: &ScenarioFile,
        catalog: &Catalog,
        map: Option<&Map>,
        side_ids: &HashMap<String, Side>,
    ) -> Forces {
        let v = self;
        // Formations.
        let mut formation_ids: HashMap<String, FormationId> = HashMap::new();
        for (i, f) in file.formations.iter().enumerate() {
            let id = f.get_ref().id.get_ref();
            let fid = FormationId(u16::try_from(i).unwrap_or(u16::MAX));
            if formation_ids.insert(id.clone(), fid).is_some() {
                v.at(f.get_ref().id.span(), format!("duplicate formation `{id}`"));
            }
        }

        // Units: ids first, so that references can be checked in any order.
        let mut unit_ids: HashMap<String, UnitId> = HashMap::new();
        for (i, u) in file.units.iter().enumerate() {
            let id = u.get_ref().id.get_ref();
            if unit_ids
                .insert(id.clone(), UnitId(u16::try_from(i).unwrap_or(u16::MAX)))
                .is_some()
            {
                v.at(u.get_ref().id.span(), format!("duplicate unit `{id}`"));
            }
        }

        let formation_sides: Vec<Option<Side>> = file
            .formations
            .iter()
            .map(|f| v.side(side_ids, &f.get_ref().side))
            .collect();

        let mut units = Vec::with_capacity(file.units.len());
        let unit_names: Vec<String> = file
            .units
            .iter()
            .map(|u| u.get_ref().id.get_ref().clone())
            .collect();
        let mut arrivals = Vec::with_capacity(file.units.len());
        for (i, su) in file.units.iter().enumerate() {
            let u = su.get_ref();
            let type_id = catalog.id(u.type_.get_ref());
            if type_id.is_none() {
                v.at(
                    u.type_.span(),
                    format!(
                        "unit `{}`: {}",
                        u.id.get_ref(),
                        catalog.unknown(u.type_.get_ref())
                    ),
                );
            }
            let formation = formation_ids.get(u.formation.get_ref()).copied();
            if formation.is_none() {
                v.at(
                    u.formation.span(),
                    format!(
                        "unit `{}`: unknown formation `{}`{}",
                        u.id.get_ref(),
                        u.formation.get_ref(),
                        hexmap::did_you_mean(
                            u.formation.get_ref(),
                            file.formations
                                .iter()
                                .map(|f| f.get_ref().id.get_ref().as_str())
                        )
                    ),
                );
            }
            let side = formation
                .and_then(|f| formation_sides[f.index()])
                .unwrap_or(Side::A);
            let (location, arrival) = v.placement(su, map, &unit_ids);
            let typ = type_id.map(|t| catalog.get(t));
            if let (Some(t), Location::Map(hex), Some(m)) = (typ, location, map.as_ref())
                && m.enter_cost(t.move_class, hex).is_none()
            {
                let at = u.at.as_ref().map_or(su.span(), Spanned::span);
                v.at(
                    at,
                    format!(
                        "unit `{}` at {}: a {} unit ({}) cannot stand in {} (R1.1)",
                        u.id.get_ref(),
                        shown_hex(hex),
                        t.move_class.name(),
                        t.id,
                        m.terrain(hex).map_or("this terrain", |t| t.id.as_str()),
                    ),
                );
            }
            // A reserve or an ambush placed where it cannot stand would never come on.
            if let (Some(t), Some(m)) = (typ, map.as_ref())
                && let Arrival::Reserve { zone, .. } | Arrival::Ambush { zone } = &arrival
            {
                let span = u
                    .reserve
                    .as_ref()
                    .or(u.ambush.as_ref())
                    .map_or(su.span(), Spanned::span);
                for &hex in zone
                    .iter()
                    .filter(|&&h| m.enter_cost(t.move_class, h).is_none())
                {
                    v.at(
                        span.clone(),
                        format!(
                            "unit `{}`: its zone's hex {} is {}, where a {} unit ({}) cannot stand (R1.1)",
                            u.id.get_ref(),
                            shown_hex(hex),
                            m.terrain(hex).map_or("terrain", |t| t.id.as_str()),
                            t.move_class.name(),
                            t.id,
                        ),
                    );
                }
            }
            if let Some(t) = typ {
                if u.weakened && t.steps < 2 {
                    v.at(
                        su.span(),
                        format!(
                            "unit `{}`: a one-step unit cannot start weakened",
                            u.id.get_ref()
                        ),
                    );
                }
                if u.dismounted && t.dismounts_to.is_none() {
                    v.at(
                        su.span(),
                        format!(
                            "unit `{}`: only motorcycle recon starts dismounted",
                            u.id.get_ref()
                        ),
                    );
                }
            }
            units.push(Unit {
                id: UnitId(u16::try_from(i).unwrap_or(u16::MAX)),
                type_id: type_id.unwrap_or(UnitTypeId(0)),
                side,
                formation: formation.unwrap_or(FormationId(0)),
                location,
                state: UnitState {
                    weakened: u.weakened,
                    disorganized: u.disorganized,
                    pinned: u.pinned,
                    // R15.2: recon units start gone to ground (cautious movement).
                    gone_to_ground: u.gone_to_ground
                        || typ.is_some_and(|t| t.recon && !u.dismounted && u.aboard.is_none()),
                    dismounted: u.dismounted,
                    ..UnitState::default()
                },
            });
            arrivals.push(arrival);
        }
        let types_known = file
            .units
            .iter()
            .all(|u| catalog.id(u.get_ref().type_.get_ref()).is_some());
        // R15.2: a recon transport that starts with non-recon passengers is not gone to ground
        // (unless the file says so).
        if types_known {
            for i in 0..units.len() {
                if let Location::Aboard(t) = units[i].location
                    && !catalog.get(units[i].type_id).recon
                    && let Some(tr) = units.get_mut(t.index())
                    && !file.units[t.index()].get_ref().gone_to_ground
                {
                    tr.state.gone_to_ground = false;
                }
            }
        }

        // Formation HQs.
        let mut formations = Vec::new();
        for (i, sf) in file.formations.iter().enumerate() {
            let f = sf.get_ref();
            let hq = match &f.hq {
                None => None,
                Some(h) => match unit_ids.get(h.get_ref()) {
                    None => {
                        v.at(
                            h.span(),
                            format!(
                                "formation `{}`: unknown HQ unit `{}`{}",
                                f.id.get_ref(),
                                h.get_ref(),
                                hexmap::did_you_mean(
                                    h.get_ref(),
                                    unit_names.iter().map(String::as_str)
                                )
                            ),
                        );
                        None
                    }
                    Some(&id) => {
                        let unit = &units[id.index()];
                        if types_known && catalog.get(unit.type_id).class != UnitClass::Hq {
                            v.at(
                                h.span(),
                                format!(
                                    "formation `{}`: `{}` is not an HQ",
                                    f.id.get_ref(),
                                    h.get_ref()
                                ),
                            );
                        }
                        if unit.formation.index() != i {
                            v.at(
                                h.span(),
                                format!(
                                    "formation `{}`: its HQ `{}` belongs to another formation",
                                    f.id.get_ref(),
                                    h.get_ref()
                                ),
                            );
                        }
                        Some(id)
                    }
                },
            };
            formations.push(Formation {
                id: f.id.get_ref().clone(),
                name: f.name.clone().unwrap_or_else(|| f.id.get_ref().clone()),
                side: formation_sides[i].unwrap_or(Side::A),
                hq,
            });
            if f.hq.is_none() {
                for su in file
                    .units
                    .iter()
                    .filter(|u| u.get_ref().formation.get_ref() == f.id.get_ref())
                {
                    v.at(
                        su.get_ref().formation.span(),
                        format!(
                            "unit `{}`: its formation `{}` has no HQ (give the formation `hq = \"...\"`)",
                            su.get_ref().id.get_ref(),
                            f.id.get_ref()
                        ),
                    );
                }
            }
        }

        v.starting_position(file, catalog, &units, &unit_ids, types_known);
        Forces {
            formations,
            units,
            unit_names,
            arrivals,
            unit_ids,
        }
    }

    /// The start as placed: passengers aboard transports of their side with room (R16.1), no
    /// hex held by both sides (R5.4), stacking within the limit (R3.1).
    fn starting_position(
        &mut self,
        file: &ScenarioFile,
        catalog: &Catalog,
        units: &[Unit],
        unit_ids: &HashMap<String, UnitId>,
        types_known: bool,
    ) {
        let v = self;
        // Passengers: the transport must be a transport of the same side with room.
        let mut load: HashMap<UnitId, u8> = HashMap::new();
        for su in &file.units {
            let u = su.get_ref();
            let (Some(aboard), Some(&me)) = (&u.aboard, unit_ids.get(u.id.get_ref())) else {
                continue;
            };
            let Some(&t) = unit_ids.get(aboard.get_ref()) else {
                continue;
            };
            if !types_known {
                continue;
            }
            let carrier = catalog.get(units[t.index()].type_id);
            let passenger = catalog.get(units[me.index()].type_id);
            let n = load.entry(t).or_default();
            *n += 1;
            if carrier.transport.is_none() {
                v.at(
                    aboard.span(),
                    format!(
                        "unit `{}`: `{}` ({}) is not a transport",
                        u.id.get_ref(),
                        aboard.get_ref(),
                        carrier.id
                    ),
                );
            } else if Some(*n) > carrier.transport {
                v.at(
                    aboard.span(),
                    format!(
                        "unit `{}`: transport `{}` is full (capacity {})",
                        u.id.get_ref(),
                        aboard.get_ref(),
                        carrier.transport.unwrap_or(0)
                    ),
                );
            }
            if passenger.class != UnitClass::Infantry {
                v.at(
                    aboard.span(),
                    format!(
                        "unit `{}`: only infantry rides transports (R16.1)",
                        u.id.get_ref()
                    ),
                );
            }
            if units[t.index()].side != units[me.index()].side {
                v.at(
                    aboard.span(),
                    format!(
                        "unit `{}`: transport `{}` belongs to the other side",
                        u.id.get_ref(),
                        aboard.get_ref()
                    ),
                );
            }
        }

        // No hex holds units of both sides (R5.4): the first unit placed in a hex of the
        // other side's is refused.
        let mut held: BTreeMap<Label, Side> = BTreeMap::new();
        for (unit, su) in units.iter().zip(&file.units) {
            if let Location::Map(hex) = unit.location
                && let Some(label) = Label::from_hex(hex)
            {
                match held.get(&label) {
                    Some(&side) if side != unit.side => {
                        let at = su.get_ref().at.as_ref().map_or(su.span(), Spanned::span);
                        v.at(
                            at,
                            format!(
                                "unit `{}` starts in {label}, which holds units of the other side (R5.4)",
                                su.get_ref().id.get_ref()
                            ),
                        );
                    }
                    _ => {
                        held.insert(label, unit.side);
                    }
                }
            }
        }

        // Stacking at the start (R3.1).
        if types_known {
            // Per side and hex: the units stacked there, and where the last is placed.
            type Stack<'f> = (Vec<&'f str>, Range<usize>);
            let mut counts: BTreeMap<(Side, Label), Stack<'_>> = BTreeMap::new();
            for (unit, su) in units.iter().zip(&file.units) {
                if let Location::Map(hex) = unit.location
                    && !catalog.get(unit.type_id).is_hq()
                    && let Some(label) = Label::from_hex(hex)
                {
                    let at = su.get_ref().at.as_ref().map_or(su.span(), Spanned::span);
                    let e = counts
                        .entry((unit.side, label))
                        .or_insert((Vec::new(), 0..0));
                    e.0.push(su.get_ref().id.get_ref());
                    e.1 = at;
                }
            }
            for ((_, label), (stacked, span)) in counts {
                if stacked.len() > usize::from(file.rules.stacking_limit) {
                    v.at(
                        span,
                        format!(
                            "{} units stacked in {label} ({}), over the limit of {} (R3.1; HQs do not count)",
                            stacked.len(),
                            stacked.join(", "),
                            file.rules.stacking_limit
                        ),
                    );
                }
            }
        }
    }

    pub(super) fn placement(
        &mut self,
        su: &Spanned<RawUnit>,
        map: Option<&Map>,
        unit_ids: &HashMap<String, UnitId>,
    ) -> (Location, Arrival) {
        let u = su.get_ref();
        let what = format!("unit `{}`", u.id.get_ref());
        let given = [
            u.at.is_some(),
            u.aboard.is_some(),
            u.reserve.is_some(),
            u.ambush.is_some(),
        ]
        .iter()
        .filter(|&&b| b)
        .count();
        if given != 1 {
            self.at(
                su.span(),
                format!("{what}: give exactly one of `at`, `aboard`, `reserve`, `ambush`"),
            );
        }
        if let Some(at) = &u.at {
            if let Some(hex) = self.hex(at, map, &what) {
                return (Location::Map(hex), Arrival::OnMap);
            }
        } else if let Some(aboard) = &u.aboard {
            match unit_ids.get(aboard.get_ref()) {
                Some(&t) if aboard.get_ref() != u.id.get_ref() => {
                    return (Location::Aboard(t), Arrival::OnMap);
                }
                _ => self.at(
                    aboard.span(),
                    format!(
                        "{what}: unknown transport `{}`{}",
                        aboard.get_ref(),
                        hexmap::did_you_mean(
                            aboard.get_ref(),
                            unit_ids
                                .keys()
                                .map(String::as_str)
                                .filter(|k| k != u.id.get_ref())
                        )
                    ),
                ),
            }
        } else if let Some(r) = &u.reserve {
            let zone = self.zone(r, map, &what);
            let turn = r.get_ref().turn.unwrap_or(1);
            return (Location::OffMap, Arrival::Reserve { turn, zone });
        } else if let Some(a) = &u.ambush {
            let zone = self.zone(a, map, &what);
            return (Location::OffMap, Arrival::Ambush { zone });
        }
        (Location::OffMap, Arrival::OnMap)
    }

    fn zone(&mut self, a: &Spanned<RawArrival>, map: Option<&Map>, what: &str) -> Vec<Hex> {
        if a.get_ref().zone.is_empty() {
            self.at(a.span(), format!("{what}: the arrival zone is empty"));
        }
        a.get_ref()
            .zone
            .iter()
            .filter_map(|l| self.hex(l, map, what))
            .collect()
    }
}

/// A hex's label for a message (`0503`).
fn shown_hex(hex: hexmap::Hex) -> String {
    Label::from_hex(hex).map_or_else(|| "off the map".to_owned(), |l| l.to_string())
}
