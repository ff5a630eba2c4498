//! Validating `[[sides]]`: ids, roles, who moves first, motivation, thresholds, air support,
//! and each side's senior HQ.

use std::collections::HashMap;

use crate::ids::{Side, UnitId};
use crate::scenario::ai::{AiName, check_ai_name, threshold_from};
use crate::scenario::raw::ScenarioFile;
use crate::scenario::validator::Validator;
use crate::scenario::{Role, SideInfo, default_assault_threshold};
use crate::unit::Unit;

impl Validator {
    /// Checks an AI name: written as one may be, and known to the registry when the loader
    /// knows one.
    pub(super) fn ai_name(&self, text: &str) -> Result<(), String> {
        check_ai_name(text)?;
        self.ais.map_or(Ok(()), |check| check(text))
    }

    /// The sides' ids, the side that moves first and the one that deploys recon first.
    pub(super) fn sides(&mut self, file: &ScenarioFile) -> (HashMap<String, Side>, Side, Side) {
        let v = self;
        // Sides.
        if file.sides.len() != 2 {
            v.at(
                file.whole.clone(),
                format!(
                    "a scenario has exactly two [[sides]], found {}",
                    file.sides.len()
                ),
            );
        }
        let mut side_ids: HashMap<String, Side> = HashMap::new();
        for (s, side) in file.sides.iter().take(2).zip(Side::BOTH) {
            if side_ids
                .insert(s.get_ref().id.get_ref().clone(), side)
                .is_some()
            {
                v.at(
                    s.get_ref().id.span(),
                    format!("duplicate side `{}`", s.get_ref().id.get_ref()),
                );
            }
            let m = &s.get_ref().motivation;
            if !(3..=5).contains(m.get_ref()) {
                v.at(m.span(), "side motivation must be 3, 4 or 5");
            }
            if let Some(t) = &s.get_ref().assault_threshold
                && let Err(e) = threshold_from(*t.get_ref())
            {
                v.at(t.span(), e);
            }
            if let Some(ai) = &s.get_ref().ai
                && let Err(e) = v.ai_name(ai.get_ref())
            {
                v.at(ai.span(), e);
            }
            if let Some(a) = &s.get_ref().air_sorties
                && !(1..=12).contains(&a.get_ref().dice)
            {
                v.at(a.span(), "`air_sorties.dice` must be 1 to 12");
            }
        }
        let roles: Vec<Role> = file.sides.iter().map(|s| s.get_ref().role).collect();
        if file.sides.len() == 2 && roles[0] == roles[1] {
            v.at(
                file.sides[1].span(),
                "one side must be the attacker and the other the defender",
            );
        }
        let first = match &file.first {
            Some(f) => v.side(&side_ids, f).unwrap_or(Side::A),
            None => {
                if file.sides.len() == 2 {
                    v.at(
                        file.whole.clone(),
                        "missing key `first` (the side that moves first)",
                    );
                }
                Side::A
            }
        };

        let recon_first = match &file.recon_first {
            Some(f) => v.side(&side_ids, f).unwrap_or(first),
            None => first,
        };

        (side_ids, first, recon_first)
    }

    /// Each side as played, with its senior HQ (which must be one of its units).
    pub(super) fn side_infos(
        &mut self,
        file: &ScenarioFile,
        units: &[Unit],
        unit_ids: &HashMap<String, UnitId>,
    ) -> Vec<SideInfo> {
        let v = self;
        // Sides' senior HQs.
        let mut sides = Vec::new();
        for (s, side) in file.sides.iter().take(2).zip(Side::BOTH) {
            let s = s.get_ref();
            let senior_hq = s
                .senior_hq
                .as_ref()
                .and_then(|h| match unit_ids.get(h.get_ref()) {
                    Some(&id) if units[id.index()].side == side => Some(id),
                    Some(_) => {
                        v.at(
                            h.span(),
                            format!(
                                "side `{}`: senior HQ `{}` belongs to the other side",
                                s.id.get_ref(),
                                h.get_ref()
                            ),
                        );
                        None
                    }
                    None => {
                        v.at(
                            h.span(),
                            format!(
                                "side `{}`: unknown senior HQ `{}`{}",
                                s.id.get_ref(),
                                h.get_ref(),
                                hexmap::did_you_mean(h.get_ref(), {
                                    let mut known: Vec<&str> =
                                        unit_ids.keys().map(String::as_str).collect();
                                    known.sort_unstable();
                                    known
                                })
                            ),
                        );
                        None
                    }
                });
            sides.push(SideInfo {
                id: s.id.get_ref().clone(),
                name: s.name.clone(),
                nation: s.nation.clone(),
                role: s.role,
                motivation: *s.motivation.get_ref(),
                senior_hq,
                ai: s.ai.as_ref().map_or_else(AiName::default, |a| AiName {
                    text: a.get_ref().clone(),
                    span: Some(a.span()),
                }),
                assault_threshold: s
                    .assault_threshold
                    .as_ref()
                    .and_then(|t| threshold_from(*t.get_ref()).ok())
                    .unwrap_or(default_assault_threshold(s.role)),
                air_sorties: s.air_sorties.as_ref().map(|a| *a.get_ref()),
                air_observation_post: s.air_observation_post,
            });
        }

        sides
    }
}
