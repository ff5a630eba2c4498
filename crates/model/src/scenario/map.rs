//! Validating `[map]`: its size, terrain rows, legend and single hexes.

use std::collections::HashMap;
use std::ops::Range;

use hexmap::{Label, Map, TerrainTable};
use toml::Spanned;

use crate::scenario::raw::RawMap;
use crate::scenario::validator::Validator;

impl Validator {
    pub(super) fn map(
        &mut self,
        raw: Option<&Spanned<RawMap>>,
        table: &TerrainTable,
        whole: &Range<usize>,
    ) -> Option<Map> {
        let Some(raw) = raw else {
            self.at(whole.clone(), "missing [map] section");
            return None;
        };
        let m = raw.get_ref();
        let (cols, rows) = (*m.columns.get_ref(), *m.rows.get_ref());
        if !(1..=99).contains(&cols) {
            self.at(m.columns.span(), "map columns must be 1 to 99");
        }
        if !(1..=99).contains(&rows) {
            self.at(m.rows.span(), "map rows must be 1 to 99");
        }
        let terrain = |v: &mut Self, name: &Spanned<String>| {
            let id = table.by_name(name.get_ref());
            if id.is_none() {
                let known: Vec<&str> = table.iter().map(|(_, t)| t.id.as_str()).collect();
                v.at(
                    name.span(),
                    format!(
                        "unknown terrain `{}`{} (known: {})",
                        name.get_ref(),
                        hexmap::did_you_mean(name.get_ref(), known.iter().copied()),
                        known.join(", ")
                    ),
                );
            }
            id
        };
        let fill = terrain(self, &m.default);
        let mut legend = HashMap::new();
        for (letter, name) in &m.legend {
            let mut chars = letter.chars();
            match (chars.next(), chars.next(), terrain(self, name)) {
                (Some(c), None, Some(id)) => {
                    legend.insert(c, id);
                }
                (Some(_), None, None) => {}
                _ => self.at(
                    name.span(),
                    format!("legend key `{letter}` must be one character"),
                ),
            }
        }
        if !(1..=99).contains(&cols) || !(1..=99).contains(&rows) {
            return None;
        }
        let mut map = Map::new(table.clone(), cols, rows, fill?);
        let mut cells = Vec::new();
        if !m.terrain.is_empty() && m.terrain.len() != usize::from(rows) {
            self.at(
                raw.span(),
                format!(
                    "map.terrain has {} rows, the map has {rows}",
                    m.terrain.len()
                ),
            );
        }
        for (r, line) in m.terrain.iter().enumerate() {
            let letters: Vec<char> = line
                .get_ref()
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            if letters.len() != usize::from(cols) {
                self.at(
                    line.span(),
                    format!(
                        "map row {} has {} hexes, the map has {cols} columns",
                        r + 1,
                        letters.len()
                    ),
                );
                continue;
            }
            for (c, letter) in letters.into_iter().enumerate() {
                let id = legend
                    .get(&letter)
                    .copied()
                    .or_else(|| table.by_letter(letter));
                let (Ok(col), Ok(row)) = (u16::try_from(c + 1), u16::try_from(r + 1)) else {
                    continue;
                };
                match id {
                    Some(id) => cells.push((Label::new(col, row).to_hex(), id)),
                    None => {
                        // The same letter in the other case is the likeliest meaning.
                        let other_case = letter
                            .to_lowercase()
                            .chain(letter.to_uppercase())
                            .find(|&l| l != letter && table.by_letter(l).is_some());
                        let meant = other_case.map_or_else(String::new, |l| {
                            let id = table.by_letter(l).map(|i| table.get(i).id.as_str());
                            format!("; did you mean `{l}` ({})?", id.unwrap_or(""))
                        });
                        self.at(
                            line.span(),
                            format!(
                                "map row {}: unknown terrain letter `{letter}` in column {} (hex {}){meant} \
                                 (the letters: {}; or give it in `legend` or `[terrain.ID]`)",
                                r + 1,
                                c + 1,
                                Label::new(col, row),
                                crate::scenario::terrain::known(table)
                            ),
                        );
                    }
                }
            }
        }
        for (label, name) in &m.hexes {
            let hex = self.hex(label, Some(&map), "map.hexes");
            if let (Some(hex), Some(id)) = (hex, terrain(self, name)) {
                cells.push((hex, id));
            }
        }
        // Rows first, then single hexes: a later cell overrides an earlier one.
        map.set_terrains(cells);
        Some(map)
    }
}
