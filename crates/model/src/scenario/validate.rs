//! `ScenarioFile::validate`: the raw sections, checked against a catalog and a terrain table,
//! become a `Scenario`, or every problem found, each located in the file. One file per section:
//! `map.rs`, `sides.rs`, `units.rs` (formations and units), `orders.rs`.

use hexmap::{TerrainTable, check_id, check_name};

use crate::catalog::Catalog;
use crate::load::Problem;
use crate::scenario::raw::ScenarioFile;
use crate::scenario::units::Forces;
use crate::scenario::validator::Validator;
use crate::scenario::{
    MAX_ORDERS, MAX_STACKING_LIMIT, MAX_TURNS, MAX_UNITS, Objective, Scenario, SideInfo,
};

/// The longest description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 20_000;

impl ScenarioFile {
    /// Ids a command can say and names of sane length (`hexmap::check_id`, `check_name`), each
    /// refusal at the table that holds it.
    fn check_names(&self, v: &mut Validator) {
        let mut id = |span: std::ops::Range<usize>, what: &str, text: &str| {
            if let Err(e) = check_id(text) {
                v.at(span, format!("{what} id: {e}"));
            }
        };
        for s in &self.sides {
            id(s.get_ref().id.span(), "side", s.get_ref().id.get_ref());
        }
        for f in &self.formations {
            id(f.get_ref().id.span(), "formation", f.get_ref().id.get_ref());
        }
        for u in &self.units {
            id(u.get_ref().id.span(), "unit", u.get_ref().id.get_ref());
        }
        let mut name = |span: std::ops::Range<usize>, what: &str, text: &str| {
            if let Err(e) = check_name(text) {
                v.at(span, format!("{what}: {e}"));
            }
        };
        name(self.whole.clone(), "title", &self.title);
        for s in &self.sides {
            name(s.span(), "side name", &s.get_ref().name);
        }
        for f in &self.formations {
            name(
                f.span(),
                "formation name",
                f.get_ref().name.as_deref().unwrap_or(""),
            );
        }
        for o in &self.objectives {
            name(
                o.span(),
                "objective name",
                o.get_ref().name.as_deref().unwrap_or(""),
            );
        }
        for s in &self.sides {
            let nation = &s.get_ref().nation;
            if let Err(e) = check_id(nation) {
                v.at(s.span(), format!("side nation: {e}"));
            }
        }
        let n = self.description.chars().count();
        if n > MAX_DESCRIPTION_CHARS {
            v.at(
                self.whole.clone(),
                format!("description: at most {MAX_DESCRIPTION_CHARS} characters (this one {n})"),
            );
        }
    }

    /// Checks the AI names the file gives (`[[sides]] ai`, `[expect] ai`) with `check`, the AI
    /// registry's, besides how they are written: an unknown AI is then a problem of the file,
    /// at its place.
    #[must_use]
    pub fn knowing_ais(mut self, check: crate::scenario::AiCheck) -> Self {
        self.ais = Some(check);
        self
    }

    /// Checks the scenario against a catalog and terrain table and builds it. Every problem is
    /// reported, each with its place in the file.
    ///
    /// # Errors
    /// All problems found, parse problems first.
    pub fn validate(
        mut self,
        catalog: &Catalog,
        terrain: &TerrainTable,
    ) -> Result<Scenario, Vec<Problem>> {
        if self.syntax_failed {
            return Err(self.problems);
        }
        let mut v = Validator {
            file: self.name.clone(),
            problems: std::mem::take(&mut self.problems),
            ais: self.ais,
        };
        let (local_catalog, types) = v.local_catalog(&self.types, catalog);
        let catalog = local_catalog.as_ref().unwrap_or(catalog);
        let local_terrain = v.local_terrain(&self.own_terrain, terrain);
        let terrain = local_terrain.as_ref().unwrap_or(terrain);
        let map = v.map(self.map.as_ref(), terrain, &self.whole);
        let turns = match &self.turns {
            Some(t) if *t.get_ref() == 0 || *t.get_ref() > MAX_TURNS => {
                v.at(t.span(), format!("`turns` must be 1 to {MAX_TURNS}"));
                1
            }
            Some(t) => *t.get_ref(),
            None => {
                v.at(self.whole.clone(), "missing key `turns` (the turn limit)");
                1
            }
        };
        if self.rules.stacking_limit == 0 || self.rules.stacking_limit > MAX_STACKING_LIMIT {
            v.at(
                self.stacking_limit_at.clone().unwrap_or(self.whole.clone()),
                if self.rules.stacking_limit == 0 {
                    "`rules.stacking_limit` must be at least 1".to_owned()
                } else {
                    format!("`rules.stacking_limit` must be at most {MAX_STACKING_LIMIT}")
                },
            );
        }
        // Sizes every game can afford (docs/scenario-format.md): beyond them, a clear refusal
        // rather than a game that does not end.
        if let Some(extra) = self.units.get(MAX_UNITS) {
            v.at(
                extra.span(),
                format!("a scenario holds at most {MAX_UNITS} units"),
            );
        }
        if let Some(extra) = self.orders.get(MAX_ORDERS) {
            v.at(
                extra.span(),
                format!("a scenario holds at most {MAX_ORDERS} orders"),
            );
        }

        self.check_names(&mut v);
        let (side_ids, first, recon_first) = v.sides(&self);
        let Forces {
            formations,
            units,
            unit_names,
            arrivals,
            unit_ids,
        } = v.forces(&self, catalog, map.as_ref(), &side_ids);

        let sides = v.side_infos(&self, &units, &unit_ids);

        // Objectives.
        let mut objectives = Vec::new();
        for o in &self.objectives {
            let o = o.get_ref();
            if let Some(hex) = v.hex(&o.at, map.as_ref(), "objective") {
                objectives.push(Objective {
                    name: o.name.clone().unwrap_or_else(|| o.at.get_ref().clone()),
                    hex,
                });
            }
        }

        // Orders.
        let orders = v.orders(&self, map.as_ref(), &unit_ids, turns);

        // Balance expectations.
        let expect = self.expect.as_ref().and_then(|raw| {
            let side_names: Vec<String> = sides.iter().map(|s| s.id.clone()).collect();
            let mut types: Vec<String> = units
                .iter()
                .map(|u| catalog.get(u.type_id).id.clone())
                .collect();
            types.sort();
            types.dedup();
            let ai_name = |text: &str| v.ai_name(text);
            match crate::scenario::expect::validate(
                raw.get_ref(),
                &side_names,
                self.fair_fight,
                &types,
                catalog,
                &ai_name,
                MAX_TURNS,
            ) {
                Ok(e) => Some(e),
                Err(problems) => {
                    for (span, message) in problems {
                        v.at(span, format!("[expect]: {message}"));
                    }
                    None
                }
            }
        });

        if !v.problems.is_empty() {
            return Err(v.problems);
        }
        let (Some(map), Ok(sides)) = (map, <[SideInfo; 2]>::try_from(sides)) else {
            return Err(vec![Problem::at(
                &self.name,
                self.whole,
                "the scenario is incomplete",
            )]);
        };
        Ok(Scenario {
            title: self.title,
            description: self.description,
            map,
            sides,
            first,
            turns,
            recon_first,
            time_of_day: self.time_of_day,
            fair_fight: self.fair_fight,
            rules: self.rules,
            formations,
            units,
            unit_names,
            arrivals,
            objectives,
            orders,
            expect,
            types,
        })
    }
}
