//! `hexwar units`: the catalog as a table or JSON.

use std::fmt::Write as _;

use model::{Catalog, UnitType};

/// The catalog as a text table, one line per type, grouped by nation.
#[must_use]
pub fn table(catalog: &Catalog) -> String {
    let mut types: Vec<&UnitType> = catalog.iter().map(|(_, t)| t).collect();
    types.sort_by(|a, b| a.nation.cmp(&b.nation));
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<14} {:<7} {:<8} {:>3} {:<7} {:>4} {:<10} {:>4} {:>5} {:>3} {:>3} {:>3}  {:<10} NOTES",
        "ID",
        "NATION",
        "CLASS",
        "MP",
        "MOVES",
        "ASLT",
        "FIRE",
        "SAVE",
        "ARMOR",
        "MOT",
        "SKL",
        "STP",
        "WEAKENED"
    );
    for t in types {
        let fire = t.fire.map_or_else(
            || "-".to_owned(),
            |f| {
                let mut s = format!("{}d r{}", f.dice, f.range);
                if f.anti_tank {
                    s.push_str(" AT");
                }
                if f.indirect {
                    s.push_str(" IND");
                }
                s
            },
        );
        let weak = t.weakened.map_or_else(
            || "-".to_owned(),
            |w| {
                let parts: Vec<String> = [
                    ("A", w.assault),
                    ("F", w.fire_dice),
                    ("M", w.movement),
                    ("L", w.leadership),
                ]
                .iter()
                .filter_map(|(k, v)| v.map(|v| format!("{k}{v}")))
                .collect();
                if parts.is_empty() {
                    "same".to_owned()
                } else {
                    parts.join(" ")
                }
            },
        );
        let mut notes = Vec::new();
        if let Some(l) = t.leadership {
            notes.push(format!(
                "leadership {l}, range {}",
                t.command_range.unwrap_or(0)
            ));
        }
        for (flag, name) in [
            (t.recon, "recon"),
            (t.observer, "observer"),
            (t.hero, "hero"),
            (t.mounted_assault, "mounted assault"),
        ] {
            if flag {
                notes.push(name.to_owned());
            }
        }
        if let Some(c) = t.transport {
            notes.push(format!("transport {c}"));
        }
        if t.class == model::UnitClass::Infantry {
            notes.push(format!("tank assault {}", t.tank_assault));
        }
        if let Some(i) = t.improvised_tank_assault {
            notes.push(format!("improvised {i}"));
        }
        if let Some(d) = &t.dismounts_to {
            let side = if t.sidecar == Some(false) {
                ", no sidecar"
            } else {
                ""
            };
            notes.push(format!("dismounts to {d}{side}"));
        }
        let _ = writeln!(
            out,
            "{:<14} {:<7} {:<8} {:>3} {:<7} {:>4} {:<10} {:>3}+ {:>5} {:>2}+ {:>2}+ {:>3}  {:<10} {}",
            t.id,
            t.nation,
            format!("{:?}", t.class).to_lowercase(),
            t.movement,
            t.move_class.name(),
            t.assault.map_or_else(|| "-".to_owned(), |a| a.to_string()),
            fire,
            t.save,
            t.armor.map_or_else(|| "-".to_owned(), |a| a.to_string()),
            t.motivation,
            t.skill,
            t.steps,
            weak,
            notes.join(", ")
        );
    }
    let _ = writeln!(
        out,
        "{} unit types. ASLT: assault dice (- none, R9.10); FIRE: dice, range in hexes, \
         AT anti-tank, IND indirect; WEAKENED: A assault, F fire dice, M movement, L leadership.",
        catalog.len()
    );
    out
}

/// The catalog as a JSON array of objects with every stat (`assault: null` where absent).
pub fn json(catalog: &Catalog) -> serde_json::Result<String> {
    let types: Vec<&UnitType> = catalog.iter().map(|(_, t)| t).collect();
    serde_json::to_string_pretty(&types)
}
