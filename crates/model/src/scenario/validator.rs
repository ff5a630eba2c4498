//! The validator each section's checks write to: every problem, located in the file.

use std::collections::HashMap;
use std::ops::Range;

use hexmap::{Hex, Label, Map};
use toml::Spanned;

use crate::ids::Side;
use crate::load::Problem;

/// Collects every problem of a scenario file, each located in it.
pub(crate) struct Validator {
    pub(super) file: String,
    pub(super) problems: Vec<Problem>,
    /// The registry's check of AI names, if the loader knows one.
    pub(super) ais: Option<crate::scenario::AiCheck>,
}

impl Validator {
    pub(super) fn at(&mut self, span: Range<usize>, message: impl Into<String>) {
        self.problems.push(Problem::at(&self.file, span, message));
    }

    pub(super) fn side(
        &mut self,
        ids: &HashMap<String, Side>,
        name: &Spanned<String>,
    ) -> Option<Side> {
        let side = ids.get(name.get_ref()).copied();
        if side.is_none() && !ids.is_empty() {
            let mut sides: Vec<&str> = ids.keys().map(String::as_str).collect();
            sides.sort_unstable();
            self.at(
                name.span(),
                format!(
                    "unknown side `{}`{} (the sides are {})",
                    name.get_ref(),
                    hexmap::did_you_mean(name.get_ref(), sides.iter().copied()),
                    sides.join(" and ")
                ),
            );
        }
        side
    }

    /// A label on the map.
    pub(super) fn hex(
        &mut self,
        label: &Spanned<String>,
        map: Option<&Map>,
        what: &str,
    ) -> Option<Hex> {
        let parsed: Label = match label.get_ref().parse() {
            Ok(l) => l,
            Err(e) => {
                self.at(label.span(), format!("{what}: {e}"));
                return None;
            }
        };
        let map = map?;
        let hex = map.hex(parsed);
        if hex.is_none() {
            self.at(
                label.span(),
                format!(
                    "{what}: {parsed} is off the map ({} columns x {} rows)",
                    map.cols(),
                    map.rows()
                ),
            );
        }
        hex
    }
}
