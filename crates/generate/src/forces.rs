//! The forces: each side's order of battle from the unit catalog, by what each type is (an HQ,
//! a tank, a carrier and the riflemen it carries, an anti-tank team, recon, artillery, an
//! observer), never by its name; then where each unit starts: the attacker on its edge (some
//! in reserve, arriving later), the defender around the objectives (some held in ambush).

use hexmap::{Budget, Hex, MoveClass};
use model::{Catalog, Role, UnitClass, UnitType, UnitTypeId};
use rand::RngExt as _;

use crate::knobs::{Forces, Mix, Settings};
use crate::land::Land;
use crate::{GenerateError, Rng};

/// What a unit type is for, as the generator composes forces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Hq,
    Tank,
    Carrier,
    Rifles,
    AntiTank,
    Recon,
    Artillery,
    Observer,
}

impl Part {
    /// What a catalog type is for, if the generator uses it (trucks and air defence it leaves
    /// out: they carry or shoot at what a generated battle does not have).
    fn of(t: &UnitType, catalog: &Catalog) -> Option<Self> {
        let dismounted = catalog
            .iter()
            .any(|(_, o)| o.dismounts_to.as_deref() == Some(t.id.as_str()));
        let fire = t.fire.as_ref();
        let assault = t.assault.unwrap_or(0);
        Some(match t.class {
            _ if dismounted => return None,
            UnitClass::Hq if !t.hero => Self::Hq,
            _ if t.recon => Self::Recon,
            _ if t.observer => Self::Observer,
            _ if fire.is_some_and(|f| f.indirect) => Self::Artillery,
            UnitClass::Vehicle if t.transport.is_some() && t.assault.is_some() => Self::Carrier,
            UnitClass::Vehicle if t.armored && assault >= 2 => Self::Tank,
            UnitClass::Infantry if assault >= 3 => Self::Rifles,
            UnitClass::Infantry | UnitClass::Gun if fire.is_some_and(|f| f.anti_tank) => {
                Self::AntiTank
            }
            _ => return None,
        })
    }
}

/// A unit to be: its id, type and, for riflemen, the carrier they ride.
#[derive(Clone, Debug)]
pub(crate) struct Unit {
    pub id: String,
    pub typ: UnitTypeId,
    /// The type's catalog id, as the file names it.
    pub kind: String,
    pub aboard: Option<String>,
}

/// A formation: its id, name, HQ and units (the HQ first).
#[derive(Clone, Debug)]
pub(crate) struct Formation {
    pub id: String,
    pub name: String,
    pub units: Vec<Unit>,
}

/// A side's force.
#[derive(Clone, Debug)]
pub(crate) struct Side {
    pub nation: String,
    pub role: Role,
    pub formations: Vec<Formation>,
    /// The senior HQ of a battalion (R11.2, R17.2).
    pub senior: Option<String>,
    /// Whether it has artillery (R14).
    pub artillery: bool,
}

/// Where a unit starts.
#[derive(Clone, Debug)]
pub(crate) enum Start {
    At(Hex),
    Aboard(String),
    Reserve { turn: u32, zone: Vec<Hex> },
    Ambush { zone: Vec<Hex> },
}

/// The forces placed: each side's, and where each unit (by id) starts.
pub(crate) struct Placed {
    pub sides: [Side; 2],
    pub starts: Vec<(String, Start)>,
}

/// Each nation's types by part, in the catalog's order.
fn parts(catalog: &Catalog, nation: &str) -> Vec<(Part, UnitTypeId)> {
    catalog
        .iter()
        .filter(|(_, t)| t.nation == nation)
        .filter_map(|(id, t)| Some((Part::of(t, catalog)?, id)))
        .collect()
}

/// Musters the attacker's and the defender's forces (in that order), of two nations of the
/// catalog that each have HQs and fighting units.
pub(crate) fn muster(
    settings: &Settings,
    land: &Land,
    catalog: &Catalog,
    rng: &mut Rng,
) -> Result<[Side; 2], GenerateError> {
    let mut nations: Vec<&str> = catalog.iter().map(|(_, t)| t.nation.as_str()).collect();
    nations.sort_unstable();
    nations.dedup();
    nations.retain(|n| {
        let p = parts(catalog, n);
        let has = |x: Part| p.iter().any(|(q, _)| *q == x);
        has(Part::Hq) && (has(Part::Tank) || has(Part::Rifles))
    });
    if nations.len() < 2 {
        return Err(GenerateError::Catalog("HQ and fighting units"));
    }
    let a = rng.random_range(0..nations.len());
    let b = (a + rng.random_range(1..nations.len())) % nations.len();
    let side = |nation: &str, role: Role, target: Option<f64>, rng: &mut Rng| {
        let p = parts(catalog, nation);
        force(settings, catalog, nation, role, &p, target, rng)
    };
    // The defender first; the attacker then gets `odds` times its strength, less where it
    // has more objectives to choose from (it wins by holding any one, R17.1). Measured over
    // 200 seeds of doctrine games (issue 68's note), these give the attacker about half.
    let defender = side(nations[b], Role::Defender, None, rng);
    let choice = match settings.objectives {
        1 => 1.35,
        2 => 1.0,
        _ => 0.8,
    };
    // The land helps the defender: a river to cross, a town or woods to clear.
    let ground = if land.river { 1.2 } else { 1.0 }
        * match settings.mix {
            Mix::Open => 0.95,
            Mix::Mixed => 1.0,
            Mix::Close => 1.1,
            Mix::Urban => 1.15,
        };
    // And the sizes and lights where the attacker did better or worse than half, measured.
    let size = match settings.forces {
        Forces::Small => 1.0,
        Forces::Company => 0.95,
        Forces::Battalion => 1.08,
    };
    let light = match settings.light {
        model::TimeOfDay::Night => 1.1,
        model::TimeOfDay::Dusk => 0.93,
        model::TimeOfDay::Day | model::TimeOfDay::Dawn => 1.0,
    };
    let odds = choice * ground * size * light * rng.random_range(1.0..1.1);
    let attacker = side(
        nations[a],
        Role::Attacker,
        Some(odds * defender.strength(catalog)),
        rng,
    );
    Ok([attacker, defender])
}

/// One side's force: its formations (one, or two or three for a battalion), each an HQ and its
/// units; once a side, perhaps recon, and artillery with an observer.
fn force(
    settings: &Settings,
    catalog: &Catalog,
    nation: &str,
    role: Role,
    parts: &[(Part, UnitTypeId)],
    target: Option<f64>,
    rng: &mut Rng,
) -> Side {
    let of = |part: Part| -> Vec<UnitTypeId> {
        parts
            .iter()
            .filter(|(p, _)| *p == part)
            .map(|&(_, t)| t)
            .collect()
    };
    let hqs = {
        let mut h = of(Part::Hq);
        h.sort_by_key(|&t| catalog.get(t).command_range.unwrap_or(0));
        h
    };
    let (formations, per) = match settings.forces {
        Forces::Small => (1_u8, 2..=4),
        Forces::Company => (1, 5..=8),
        Forces::Battalion => (rng.random_range(2..=3), 4..=6),
    };
    // The weights of tanks, carriers with riflemen, riflemen on foot and anti-tank teams: an
    // attacker rides, a defender digs in.
    let weights: [(Part, u32); 4] = match role {
        Role::Attacker => [
            (Part::Tank, 3),
            (Part::Carrier, 4),
            (Part::Rifles, 1),
            (Part::AntiTank, 1),
        ],
        Role::Defender => [
            (Part::Tank, 2),
            (Part::Carrier, 3),
            (Part::Rifles, 3),
            (Part::AntiTank, 2),
        ],
    };
    let mut names = Names::default();
    let unit = |names: &mut Names, typ: UnitTypeId, aboard: Option<String>| Unit {
        id: names.next(catalog, typ),
        typ,
        kind: catalog.get(typ).id.clone(),
        aboard,
    };
    let mut out = Vec::new();
    for f in 0..formations {
        let id = format!("{}_{}", short(nation), f + 1);
        let hq = hqs[0];
        let mut units = vec![Unit {
            id: format!("{id}_hq"),
            typ: hq,
            kind: catalog.get(hq).id.clone(),
            aboard: None,
        }];
        let n = rng.random_range(per.clone());
        // Each formation its share of the target strength, else `n` units; never more than
        // the attacker's edge holds.
        let share = target.map(|t| t / f64::from(formations));
        let room = usize::from(settings.rows) * 2 / usize::from(formations);
        let more = |units: &[Unit]| match share {
            Some(share) => {
                units
                    .iter()
                    .map(|u| strength(catalog.get(u.typ)))
                    .sum::<f64>()
                    < share
            }
            None => units.len() <= n,
        };
        while more(&units) && units.len() < room {
            let part = pick(&weights, rng);
            let choices = of(part);
            if choices.is_empty() {
                continue;
            }
            let typ = choices[rng.random_range(0..choices.len())];
            let carrier = unit(&mut names, typ, None);
            let rifles = of(Part::Rifles);
            // A carrier comes with the riflemen it carries (R16).
            let riders = (part == Part::Carrier && !rifles.is_empty()).then(|| {
                let r = rifles[rng.random_range(0..rifles.len())];
                unit(&mut names, r, Some(carrier.id.clone()))
            });
            units.push(carrier);
            units.extend(riders);
        }
        out.push(Formation {
            name: format!("{} company", ordinal(f + 1)),
            id,
            units,
        });
    }
    // Support, once a side, in the first formation: recon, artillery and its observer.
    let mut artillery = false;
    for (part, chance) in [(Part::Recon, 0.5), (Part::Artillery, 0.35)] {
        let choices = of(part);
        if choices.is_empty() || !rng.random_bool(chance) {
            continue;
        }
        let typ = choices[rng.random_range(0..choices.len())];
        out[0].units.push(unit(&mut names, typ, None));
        artillery |= part == Part::Artillery;
        let observers = of(Part::Observer);
        if part == Part::Artillery && !observers.is_empty() && rng.random_bool(0.6) {
            let o = observers[rng.random_range(0..observers.len())];
            out[0].units.push(unit(&mut names, o, None));
        }
    }
    let senior = (settings.forces == Forces::Battalion && hqs.len() > 1).then(|| {
        let typ = hqs[hqs.len() - 1];
        let id = format!("{}_bn_hq", short(nation));
        out[0].units.push(Unit {
            id: id.clone(),
            typ,
            kind: catalog.get(typ).id.clone(),
            aboard: None,
        });
        id
    });
    Side {
        nation: nation.to_owned(),
        role,
        formations: out,
        senior,
        artillery,
    }
}

/// A rough strength: the dice a unit assaults and fires with directly, half again for a unit
/// of two steps (R6.6). Only for weighing one force against another.
fn strength(t: &UnitType) -> f64 {
    let dice = t.assault.unwrap_or(0)
        + t.fire
            .as_ref()
            .filter(|f| !f.indirect)
            .map_or(0, |f| f.dice);
    f64::from(dice) * if t.steps > 1 { 1.5 } else { 1.0 }
}

impl Side {
    /// The side's rough strength ([`strength`]).
    fn strength(&self, catalog: &Catalog) -> f64 {
        self.formations
            .iter()
            .flat_map(|f| &f.units)
            .map(|u| strength(catalog.get(u.typ)))
            .sum()
    }
}

/// A nation's short name for ids: its first three letters.
fn short(nation: &str) -> String {
    nation.chars().take(3).collect()
}

fn ordinal(n: u8) -> String {
    let suffix = match n {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn pick(weights: &[(Part, u32)], rng: &mut Rng) -> Part {
    let total: u32 = weights.iter().map(|w| w.1).sum();
    let mut r = rng.random_range(0..total);
    for &(p, w) in weights {
        if r < w {
            return p;
        }
        r -= w;
    }
    weights[0].0
}

/// Unit ids by type: `t72_1`, `t72_2`, ...
#[derive(Default)]
struct Names(Vec<(UnitTypeId, u32)>);

impl Names {
    fn next(&mut self, catalog: &Catalog, typ: UnitTypeId) -> String {
        let n = match self.0.iter_mut().find(|(t, _)| *t == typ) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                self.0.push((typ, 1));
                1
            }
        };
        format!("{}_{n}", catalog.get(typ).id)
    }
}

/// Places both forces on the land: where each unit starts.
pub(crate) fn place(
    sides: &[Side; 2],
    land: &Land,
    catalog: &Catalog,
    rng: &mut Rng,
) -> Result<Placed, GenerateError> {
    let s = land.settings;
    let mut taken: Vec<Hex> = Vec::new();
    let mut starts = Vec::new();
    let objective = land.objectives[0].hex;
    // The hexes from which a mover of each class can reach the first objective.
    let reach = |class: MoveClass| -> Vec<Hex> {
        let r = land
            .map
            .reachable(objective, Budget::points(u32::MAX / 2), |_, to| {
                land.map.enter_cost(class, to)
            });
        r.hexes().to_vec()
    };
    let reachable = [
        (MoveClass::Foot, reach(MoveClass::Foot)),
        (MoveClass::Wheeled, reach(MoveClass::Wheeled)),
        (MoveClass::Tracked, reach(MoveClass::Tracked)),
    ];
    let can = |class: MoveClass, h: Hex| {
        reachable
            .iter()
            .find(|(c, _)| *c == class)
            .is_some_and(|(_, hexes)| hexes.contains(&h))
    };
    let objectives: Vec<Hex> = land.objectives.iter().map(|o| o.hex).collect();
    let near_objective = |h: Hex| {
        objectives
            .iter()
            .map(|o| o.unsigned_distance_to(h))
            .min()
            .unwrap_or(99)
    };
    for side in sides {
        let units: Vec<&Unit> = side.formations.iter().flat_map(|f| &f.units).collect();
        let company = units.len() >= 6;
        // Who waits off the map: the attacker's reserves, the defender's ambushers.
        let mut off: Vec<&str> = Vec::new();
        if company && rng.random_bool(0.4) {
            let wanted = rng.random_range(1..=2);
            for u in &units {
                let t = catalog.get(u.typ);
                let carries = units.iter().any(|o| o.aboard.as_deref() == Some(&u.id));
                let fits = match side.role {
                    Role::Attacker => t.class != UnitClass::Hq && !carries && u.aboard.is_none(),
                    Role::Defender => t.class == UnitClass::Infantry && u.aboard.is_none(),
                };
                if fits && off.len() < wanted && rng.random_bool(0.5) {
                    off.push(&u.id);
                }
            }
        }
        let turn = rng.random_range(2..=3);
        for u in &units {
            let t = catalog.get(u.typ);
            if let Some(carrier) = &u.aboard {
                starts.push((u.id.clone(), Start::Aboard(carrier.clone())));
                continue;
            }
            let class = t.move_class;
            if off.contains(&u.id.as_str()) {
                let start = match side.role {
                    Role::Attacker => {
                        let zone: Vec<Hex> = (1..=s.rows)
                            .map(|r| land.hex(s.col(1), r))
                            .filter(|&h| can(class, h))
                            .collect();
                        let at = rng.random_range(0..zone.len().max(1));
                        let zone = zone
                            .iter()
                            .skip(at.saturating_sub(1))
                            .take(3)
                            .copied()
                            .collect();
                        Start::Reserve { turn, zone }
                    }
                    Role::Defender => {
                        let mut zone: Vec<Hex> = land
                            .map
                            .hexes()
                            .filter(|&h| {
                                near_objective(h) <= 3
                                    && land.covered(h)
                                    && can(class, h)
                                    && !objectives.contains(&h)
                            })
                            .collect();
                        zone.truncate(6);
                        if zone.is_empty() {
                            zone.push(objective);
                        }
                        Start::Ambush { zone }
                    }
                };
                starts.push((u.id.clone(), start));
                continue;
            }
            let hq = t.class == UnitClass::Hq;
            let spots: Vec<(u32, u64, Hex)> = land
                .map
                .hexes()
                .filter(|&h| can(class, h) && (hq || !taken.contains(&h)))
                .filter_map(|h| {
                    let d = land.depth(h);
                    let score = match side.role {
                        Role::Attacker => (d <= 2 + u16::from(units.len() > 2 * s.rows as usize))
                            .then_some(u32::from(d)),
                        Role::Defender => (d >= s.share(0.45) && near_objective(h) <= 4)
                            .then(|| near_objective(h) * 2 + u32::from(!land.covered(h)) * 3),
                    }?;
                    Some((score, rng.random::<u64>(), h))
                })
                .collect();
            let Some(&(_, _, at)) = spots.iter().min_by_key(|&&(score, r, _)| (score, r)) else {
                return Err(GenerateError::Knobs(format!(
                    "no room on a {}x{} map for {}'s {}: try a larger --size or smaller --forces",
                    s.cols, s.rows, side.nation, u.id
                )));
            };
            // Spread the attacker's units along its edge, the defender's around the objectives.
            let at = if side.role == Role::Attacker {
                let near: Vec<Hex> = spots
                    .iter()
                    .filter(|(score, _, _)| *score <= u32::from(land.depth(at)) + 1)
                    .map(|&(_, _, h)| h)
                    .collect();
                near[rng.random_range(0..near.len())]
            } else {
                at
            };
            if !hq {
                taken.push(at);
            }
            starts.push((u.id.clone(), Start::At(at)));
        }
    }
    Ok(Placed {
        sides: sides.clone(),
        starts,
    })
}
