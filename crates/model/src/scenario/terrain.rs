//! `[terrain.ID]`: a scenario's own terrain, added to the terrain table it is read with (R1.1),
//! so that a designer adds a ford or changes what forest costs without copying the whole table.

use std::collections::BTreeMap;

use hexmap::{MoveCosts, Terrain, TerrainError, TerrainTable};
use serde::Deserialize;
use toml::Spanned;

use crate::scenario::validator::Validator;

/// One terrain type as a scenario writes it: every field optional. Over a type of the table the
/// fields given replace that type's (`cost`, when given, is the whole cost: a class left out
/// cannot enter); a new type needs its `letter`, and what it leaves out is impassable or false.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawTerrain {
    letter: Option<char>,
    cost: Option<MoveCosts>,
    open: Option<bool>,
    urban: Option<bool>,
    blocks_los: Option<bool>,
    concealment: Option<bool>,
    cover: Option<bool>,
    difficult: Option<bool>,
    elevation: Option<u8>,
}

impl RawTerrain {
    /// `base` with the fields given set.
    fn over(&self, mut base: Terrain) -> Terrain {
        let set = |to: &mut bool, from: Option<bool>| {
            if let Some(v) = from {
                *to = v;
            }
        };
        if let Some(l) = self.letter {
            base.letter = l;
        }
        if let Some(c) = self.cost {
            base.cost = c;
        }
        set(&mut base.open, self.open);
        set(&mut base.urban, self.urban);
        set(&mut base.blocks_los, self.blocks_los);
        set(&mut base.concealment, self.concealment);
        set(&mut base.cover, self.cover);
        set(&mut base.difficult, self.difficult);
        if let Some(e) = self.elevation {
            base.elevation = e;
        }
        base
    }
}

impl Validator {
    /// The terrain table with the scenario's own types (`[terrain.ID]`) added, each refusal at
    /// its place; `None` when the file adds none (or they do not make a table).
    pub(super) fn local_terrain(
        &mut self,
        own: &BTreeMap<Spanned<String>, Spanned<RawTerrain>>,
        shared: &TerrainTable,
    ) -> Option<TerrainTable> {
        if own.is_empty() {
            return None;
        }
        let mut types = Vec::new();
        for (name, raw) in own {
            let id = name.get_ref();
            let base = match shared.by_name(id) {
                Some(old) => shared.get(old).clone(),
                None if raw.get_ref().letter.is_none() => {
                    self.at(
                        name.span(),
                        format!(
                            "[terrain.{id}]: a new terrain type needs its `letter` for the map rows \
                             (and its `cost`: a class left out cannot enter); the table has {}",
                            known(shared)
                        ),
                    );
                    continue;
                }
                None => Terrain {
                    id: id.clone(),
                    letter: ' ',
                    cost: MoveCosts::default(),
                    open: false,
                    urban: false,
                    blocks_los: false,
                    concealment: false,
                    cover: false,
                    difficult: false,
                    elevation: 0,
                },
            };
            types.push((raw.get_ref().over(base), raw.span()));
        }
        let spans: BTreeMap<String, std::ops::Range<usize>> = types
            .iter()
            .map(|(t, span)| (t.id.clone(), span.clone()))
            .collect();
        match shared.extended(types.into_iter().map(|(t, _)| t)) {
            Ok(table) => Some(table),
            Err(e) => {
                let span = at_fault(&e)
                    .and_then(|id| spans.get(id).cloned())
                    .unwrap_or_else(|| own.values().next().map_or(0..0, Spanned::span));
                self.at(span, format!("[terrain]: {e}"));
                None
            }
        }
    }
}

/// The type a terrain table's refusal names.
fn at_fault(e: &TerrainError) -> Option<&str> {
    match e {
        TerrainError::Duplicate(id)
        | TerrainError::Elevation(id)
        | TerrainError::ZeroCost(id)
        | TerrainError::Cost(id)
        | TerrainError::Id(id, _)
        | TerrainError::Letter(id)
        | TerrainError::LetterTaken { id, .. } => Some(id),
        TerrainError::At { error, .. } => at_fault(error),
        TerrainError::Toml { .. } | TerrainError::TooMany => None,
    }
}

/// The table's types and letters, for an error: `clear (.), road (=), ...`.
pub(crate) fn known(table: &TerrainTable) -> String {
    table
        .iter()
        .map(|(_, t)| format!("{} ({})", t.id, t.letter))
        .collect::<Vec<_>>()
        .join(", ")
}
