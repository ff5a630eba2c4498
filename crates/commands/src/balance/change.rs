//! What `hexwar balance` may change in a scenario, and each change written into the scenario's
//! own TOML (`toml_edit` keeps its comments and layout), so that the scenario measured is the
//! file written, read by the same loader as every other.

use std::fmt;

use model::scenario::Arrival;
use model::{Catalog, Scenario, Stat};
use toml_edit::{DocumentMut, Item, Table, value};

/// One thing of a scenario that may change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Field {
    /// The turn limit.
    Turns,
    /// Which side moves first in each game turn (R4.1).
    First,
    /// An objective hex, by its label, and its name.
    Objective(String, String),
    /// The turn a reserve unit arrives (R4.2), by the unit's id.
    Arrival(String),
    /// A unit, by id: taken from its side, or another of it added.
    Unit(String),
    /// A unit type's stat, set for this scenario alone (`[types.TYPE]`).
    Stat(String, Stat),
}

impl Field {
    /// The name `--vary` gives this field's kind: `turns`, `first`, `objectives`, `arrivals`,
    /// `units`, or `TYPE.FIELD`.
    #[must_use]
    pub fn kind(&self) -> String {
        match self {
            Self::Turns => "turns".to_owned(),
            Self::First => "first".to_owned(),
            Self::Objective(..) => "objectives".to_owned(),
            Self::Arrival(_) => "arrivals".to_owned(),
            Self::Unit(_) => "units".to_owned(),
            Self::Stat(t, s) => format!("{t}.{s}"),
        }
    }
}

/// What a step does to its field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// A number from one value to another (turn limit, arrival turn, stat).
    Set {
        /// The scenario's value.
        from: i64,
        /// The new one.
        to: i64,
    },
    /// The other side moves first.
    Swap {
        /// The side that moved first.
        from: String,
        /// The side that does now.
        to: String,
    },
    /// The objective is no longer one.
    Drop,
    /// The objective is in a neighbouring hex instead (its label).
    Move(String),
    /// The unit (and any unit aboard it) is taken from its side.
    Take,
    /// Another unit like it starts where it starts, with this id.
    Add(String),
}

/// One field changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// What changes.
    pub field: Field,
    /// How.
    pub edit: Edit,
}

impl Step {
    /// How big the step is: the distance moved for a number, 1 for the rest.
    #[must_use]
    pub fn size(&self) -> u64 {
        match &self.edit {
            Edit::Set { from, to } => from.abs_diff(*to),
            _ => 1,
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.field, &self.edit) {
            (Field::Turns, Edit::Set { from, to }) => write!(f, "turns {from} -> {to}"),
            (Field::Arrival(u), Edit::Set { from, to }) => {
                write!(f, "{u} arrives on turn {to}, not {from}")
            }
            (Field::Stat(t, s), Edit::Set { from, to }) => write!(f, "{t}.{s} {from} -> {to}"),
            (Field::First, Edit::Swap { from, to }) => write!(f, "first {from} -> {to}"),
            (Field::Objective(at, name), Edit::Move(to)) => {
                write!(f, "objective {name} moved from {at} to {to}")
            }
            (Field::Objective(at, name), _) => write!(f, "objective {name} ({at}) dropped"),
            (Field::Unit(u), Edit::Take) => write!(f, "unit {u} taken away"),
            (Field::Unit(u), Edit::Add(id)) => write!(f, "unit {u} doubled (as {id})"),
            (field, edit) => write!(f, "{field:?} {edit:?}"),
        }
    }
}

/// A change of a scenario: steps on distinct fields, in the order they were found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Change(pub Vec<Step>);

impl Change {
    /// How small it is: fields changed, then the sum of the steps' sizes; smaller first.
    #[must_use]
    pub fn size(&self) -> (usize, u64) {
        (self.0.len(), self.0.iter().map(Step::size).sum())
    }

    /// This change and one more step, if the step is on another field.
    #[must_use]
    pub fn and(&self, step: &Step) -> Option<Self> {
        if self.0.iter().any(|s| s.field == step.field) {
            return None;
        }
        let mut steps = self.0.clone();
        steps.push(step.clone());
        Some(Self(steps))
    }

    /// The scenario's text with the change made.
    #[must_use]
    pub fn apply(&self, doc: &DocumentMut) -> String {
        let mut doc = doc.clone();
        for s in &self.0 {
            apply(&mut doc, s);
        }
        doc.to_string()
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("no change");
        }
        let steps: Vec<String> = self.0.iter().map(ToString::to_string).collect();
        f.write_str(&steps.join(", "))
    }
}

/// The tables of an array of tables (`[[units]]`) whose `key` is `id`.
fn position_where(doc: &DocumentMut, array: &str, key: &str, id: &str) -> Vec<usize> {
    doc.get(array)
        .and_then(Item::as_array_of_tables)
        .map(|a| {
            a.iter()
                .enumerate()
                .filter(|(_, t)| t.get(key).and_then(Item::as_str) == Some(id))
                .map(|(i, _)| i)
                .collect()
        })
        .unwrap_or_default()
}

fn apply(doc: &mut DocumentMut, step: &Step) {
    match (&step.field, &step.edit) {
        (Field::Turns, Edit::Set { to, .. }) => doc["turns"] = value(*to),
        (Field::First, Edit::Swap { to, .. }) => doc["first"] = value(to.as_str()),
        (Field::Objective(at, _), Edit::Move(to)) => {
            for i in position_where(doc, "objectives", "at", at) {
                doc["objectives"][i]["at"] = value(to.as_str());
            }
        }
        (Field::Objective(at, _), _) => {
            for i in position_where(doc, "objectives", "at", at)
                .into_iter()
                .rev()
            {
                if let Some(a) = doc["objectives"].as_array_of_tables_mut() {
                    a.remove(i);
                }
            }
        }
        (Field::Arrival(unit), Edit::Set { to, .. }) => {
            for i in position_where(doc, "units", "id", unit) {
                doc["units"][i]["reserve"]["turn"] = value(*to);
            }
        }
        (Field::Unit(unit), Edit::Take) => {
            let mut gone = position_where(doc, "units", "id", unit);
            gone.extend(position_where(doc, "units", "aboard", unit));
            gone.sort_unstable();
            for i in gone.into_iter().rev() {
                if let Some(a) = doc["units"].as_array_of_tables_mut() {
                    a.remove(i);
                }
            }
        }
        (Field::Unit(unit), Edit::Add(id)) => {
            let copy = position_where(doc, "units", "id", unit)
                .first()
                .and_then(|&i| doc["units"].as_array_of_tables().and_then(|a| a.get(i)))
                .cloned();
            if let (Some(mut t), Some(a)) = (copy, doc["units"].as_array_of_tables_mut()) {
                t["id"] = value(id.as_str());
                // A unit's comments stay with the unit they were written for.
                t.decor_mut().clear();
                a.push(t);
            }
        }
        (Field::Stat(type_id, stat), Edit::Set { to, .. }) => {
            let types = doc
                .entry("types")
                .or_insert_with(|| {
                    let mut t = Table::new();
                    t.set_implicit(true);
                    Item::Table(t)
                })
                .as_table_mut();
            let Some(types) = types else { return };
            let of_type = types
                .entry(type_id)
                .or_insert_with(|| Item::Table(Table::new()));
            match stat.name().split_once('.') {
                Some((outer, inner)) => {
                    if of_type.get(outer).is_none() {
                        let mut t = Table::new();
                        t.set_dotted(true);
                        of_type[outer] = Item::Table(t);
                    }
                    of_type[outer][inner] = value(*to);
                }
                None => of_type[stat.name()] = value(*to),
            }
        }
        _ => {}
    }
}

/// What `balance` may vary: every field of these kinds.
#[derive(Clone, Debug)]
pub struct Bounds {
    /// The largest step of a number (turns, arrival turns, stats) either way.
    pub max_step: i64,
}

/// The single steps to try: for each field the scenario has, every value within `bounds`
/// (those `keep` refuses left out).
#[must_use]
pub fn single_steps(
    scenario: &Scenario,
    catalog: &Catalog,
    bounds: &Bounds,
    keep: &dyn Fn(&Field, i64) -> bool,
) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut numbers = |field: Field, from: i64, range: std::ops::RangeInclusive<i64>| {
        for d in 1..=bounds.max_step {
            for to in [from - d, from + d] {
                if range.contains(&to) && keep(&field, to) {
                    steps.push(Step {
                        field: field.clone(),
                        edit: Edit::Set { from, to },
                    });
                }
            }
        }
    };
    numbers(
        Field::Turns,
        i64::from(scenario.turns),
        1..=i64::from(model::scenario::MAX_TURNS),
    );
    for (i, arrival) in scenario.arrivals.iter().enumerate() {
        if let Arrival::Reserve { turn, .. } = arrival {
            numbers(
                Field::Arrival(scenario.unit_names[i].clone()),
                i64::from(*turn),
                1..=i64::from(scenario.turns),
            );
        }
    }
    let mut types: Vec<model::UnitTypeId> = scenario.units.iter().map(|u| u.type_id).collect();
    types.extend(types.clone().iter().filter_map(|&t| catalog.dismounted(t)));
    types.sort_unstable_by_key(|t| t.index());
    types.dedup();
    for t in types {
        let ty = catalog.get(t);
        for stat in Stat::ALL {
            if let Some(from) = stat.get(ty) {
                let r = stat.range();
                numbers(
                    Field::Stat(ty.id.clone(), stat),
                    from,
                    i64::from(*r.start())..=i64::from(*r.end()),
                );
            }
        }
    }
    let mut one = |field: Field, edit: Edit| {
        if keep(&field, 0) {
            steps.push(Step { field, edit });
        }
    };
    let [a, b] = [&scenario.sides[0].id, &scenario.sides[1].id];
    let (from, to) = if scenario.first == model::Side::A {
        (a, b)
    } else {
        (b, a)
    };
    one(
        Field::First,
        Edit::Swap {
            from: from.clone(),
            to: to.clone(),
        },
    );
    for o in &scenario.objectives {
        let at = scenario.map.label(o.hex).to_string();
        if scenario.objectives.len() > 1 {
            one(Field::Objective(at.clone(), o.name.clone()), Edit::Drop);
        }
        // Or in a neighbouring hex that is not an objective already.
        let mut near: Vec<String> = scenario
            .map
            .neighbors(o.hex)
            .filter(|h| scenario.objectives.iter().all(|x| x.hex != *h))
            .map(|h| scenario.map.label(h).to_string())
            .collect();
        near.sort();
        for to in near {
            one(Field::Objective(at.clone(), o.name.clone()), Edit::Move(to));
        }
    }
    let hqs: Vec<model::UnitId> = scenario.formations.iter().filter_map(|f| f.hq).collect();
    for (i, u) in scenario.units.iter().enumerate() {
        let name = &scenario.unit_names[i];
        if hqs.contains(&u.id) || matches!(u.location, model::Location::Aboard(_)) {
            continue;
        }
        one(Field::Unit(name.clone()), Edit::Take);
        let mut k = 2;
        let fresh = loop {
            let id = format!("{name}_{k}");
            if !scenario.unit_names.contains(&id) {
                break id;
            }
            k += 1;
        };
        one(Field::Unit(name.clone()), Edit::Add(fresh));
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAWN: &str = include_str!("../../../../scenarios/dawn_assault.toml");

    fn load(text: &str) -> Scenario {
        model::bundled::scenario("dawn.toml", text).expect("a scenario the loader reads")
    }

    /// Each kind of step, written into the file and read back, is the change it says.
    #[test]
    fn every_step_written_into_the_file_reads_back_as_itself() {
        let doc: DocumentMut = DAWN.parse().unwrap();
        let base = load(DAWN);
        let catalog = model::bundled::catalog();
        let steps = single_steps(&base, &catalog, &Bounds { max_step: 1 }, &|_, _| true);
        let find = |pred: &dyn Fn(&Step) -> bool| steps.iter().find(|s| pred(s)).unwrap().clone();
        let after = |step: &Step| load(&Change(vec![step.clone()]).apply(&doc));

        let turns = find(&|s| s.field == Field::Turns && s.edit == Edit::Set { from: 8, to: 7 });
        assert_eq!(after(&turns).turns, 7);
        let first = find(&|s| s.field == Field::First);
        assert_eq!(after(&first).first, base.first.other());
        let dropped = find(&|s| matches!(s.field, Field::Objective(..)) && s.edit == Edit::Drop);
        assert_eq!(after(&dropped).objectives.len(), base.objectives.len() - 1);
        let moved = find(&|s| matches!(s.edit, Edit::Move(_)));
        let Edit::Move(to) = &moved.edit else {
            unreachable!()
        };
        let labels: Vec<String> = after(&moved)
            .objectives
            .iter()
            .map(|o| base.map.label(o.hex).to_string())
            .collect();
        assert!(labels.contains(to), "{labels:?}");
        let arrival = find(&|s| matches!(s.field, Field::Arrival(_)));
        let Field::Arrival(unit) = &arrival.field else {
            unreachable!()
        };
        let Edit::Set { to, .. } = arrival.edit else {
            unreachable!()
        };
        let s = after(&arrival);
        let i = s.unit_id(unit).unwrap().index();
        assert!(matches!(s.arrivals[i], Arrival::Reserve { turn, .. } if i64::from(turn) == to));
        // A transport taken goes with the unit aboard it; a unit doubled starts beside itself.
        let taken = find(&|s| s.field == Field::Unit("btr_1".to_owned()) && s.edit == Edit::Take);
        let s = after(&taken);
        assert!(s.unit_id("btr_1").is_none() && s.unit_id("mr_1").is_none());
        assert_eq!(s.units.len(), base.units.len() - 2);
        let added =
            find(&|s| s.field == Field::Unit("t72_2".to_owned()) && matches!(s.edit, Edit::Add(_)));
        let s = after(&added);
        let (a, b) = (s.unit_id("t72_2").unwrap(), s.unit_id("t72_2_2").unwrap());
        assert_eq!(s.units[a.index()].location, s.units[b.index()].location);
        let stat = find(&|s| {
            s.field == Field::Stat("t72".to_owned(), Stat::FireDice)
                && s.edit == Edit::Set { from: 3, to: 4 }
        });
        let s = after(&stat);
        assert_eq!(
            s.catalog(&catalog)
                .get(catalog.id("t72").unwrap())
                .fire
                .unwrap()
                .dice,
            4
        );
        // A pair is both steps; the file keeps its comments.
        let both = Change(vec![turns, stat]).apply(&doc);
        let s = load(&both);
        assert_eq!(s.turns, 7);
        assert_eq!(s.types.len(), 1);
        assert!(both.contains("[types.t72]\nfire.dice = 4"), "{both}");
        assert_eq!(
            both.lines().filter(|l| l.starts_with('#')).count(),
            DAWN.lines().filter(|l| l.starts_with('#')).count()
        );
    }
}
