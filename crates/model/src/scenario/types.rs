//! `[types.TYPE]`: a scenario's own values of unit type stats, over the shared catalog's, so that
//! a designer balances one scenario without changing the others (`hexwar balance` writes them).

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::catalog::{Catalog, Stat};
use crate::scenario::validator::Validator;

/// One type's overrides as written: any of the [`Stat`]s, by their names in the catalog.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawTypeStats {
    assault: Option<Spanned<i64>>,
    movement: Option<Spanned<i64>>,
    save: Option<Spanned<i64>>,
    armor: Option<Spanned<i64>>,
    motivation: Option<Spanned<i64>>,
    skill: Option<Spanned<i64>>,
    tank_assault: Option<Spanned<i64>>,
    leadership: Option<Spanned<i64>>,
    fire: Option<RawFireStats>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFireStats {
    dice: Option<Spanned<i64>>,
    range: Option<Spanned<i64>>,
}

impl RawTypeStats {
    /// The values given, in [`Stat::ALL`]'s order.
    fn values(&self) -> Vec<(Stat, &Spanned<i64>)> {
        let fire = self.fire.as_ref();
        [
            (Stat::Assault, self.assault.as_ref()),
            (Stat::Movement, self.movement.as_ref()),
            (Stat::Save, self.save.as_ref()),
            (Stat::Armor, self.armor.as_ref()),
            (Stat::Motivation, self.motivation.as_ref()),
            (Stat::Skill, self.skill.as_ref()),
            (Stat::TankAssault, self.tank_assault.as_ref()),
            (Stat::Leadership, self.leadership.as_ref()),
            (Stat::FireDice, fire.and_then(|f| f.dice.as_ref())),
            (Stat::FireRange, fire.and_then(|f| f.range.as_ref())),
        ]
        .into_iter()
        .filter_map(|(s, v)| Some((s, v?)))
        .collect()
    }
}

/// A stat of a unit type that a scenario sets for itself.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TypeOverride {
    /// The catalog id of the type (`t72`).
    pub type_id: String,
    /// The stat.
    #[serde(serialize_with = "stat_name")]
    pub stat: Stat,
    /// Its value in this scenario.
    pub value: u8,
}

fn stat_name<S: serde::Serializer>(stat: &Stat, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(stat.name())
}

impl Validator {
    /// The shared catalog with the scenario's own values, each refusal (an unknown type, a
    /// value the catalog's ranges refuse, a stat the type has not) at its place; `None` when
    /// the file sets none.
    pub(super) fn local_catalog(
        &mut self,
        types: &BTreeMap<Spanned<String>, Spanned<RawTypeStats>>,
        shared: &Catalog,
    ) -> (Option<Catalog>, Vec<TypeOverride>) {
        if types.is_empty() {
            return (None, Vec::new());
        }
        let mut local = shared.clone();
        let mut overrides = Vec::new();
        for (name, stats) in types {
            let Some(id) = shared.id(name.get_ref()) else {
                self.at(
                    name.span(),
                    format!(
                        "[types.{}]: {}",
                        name.get_ref(),
                        shared.unknown(name.get_ref())
                    ),
                );
                continue;
            };
            for (stat, value) in stats.get_ref().values() {
                match stat.set(local.get_mut(id), *value.get_ref()) {
                    Ok(()) => overrides.push(TypeOverride {
                        type_id: name.get_ref().clone(),
                        stat,
                        #[expect(
                            clippy::cast_possible_truncation,
                            clippy::cast_sign_loss,
                            reason = "`Stat::set` took it: it is within the stat's range of u8s"
                        )]
                        value: *value.get_ref() as u8,
                    }),
                    Err(e) => self.at(value.span(), format!("[types.{}]: {e}", name.get_ref())),
                }
            }
        }
        (Some(local), overrides)
    }
}
