//! The stacks of `hexwar odds` as typed: `btr70,hq_mrr` or `m2:disorganized,jaeger`.

use counters::{Catalog, Combatant, UnitState};

/// The most units a side of `hexwar odds` may list: within it every answer takes seconds at
/// most (12 against 12 is sampled in about 13 s on one core).
pub const MAX_SIDE: usize = 12;

/// One side of `hexwar odds`: catalog ids, each with optional `:weakened` and
/// `:disorganized`, separated by commas.
///
/// ```
/// let catalog = counters::bundled::catalog();
/// let side = hexwar::odds_spec::parse_side(&catalog, "t72, mr_coy:weakened").unwrap();
/// assert_eq!(side.len(), 2);
/// assert!(side[1].state.weakened);
/// assert!(hexwar::odds_spec::parse_side(&catalog, "t55").is_err());
/// ```
///
/// # Errors
/// What is wrong with the text, in words.
pub fn parse_side(catalog: &Catalog, text: &str) -> Result<Vec<Combatant>, String> {
    let mut out = Vec::new();
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let mut parts = item.split(':');
        let id = parts.next().unwrap_or_default();
        let type_id = catalog
            .id(id)
            .ok_or_else(|| format!("unknown unit type `{id}` (see `hexwar units`)"))?;
        let mut state = UnitState::default();
        for p in parts {
            match p {
                "weakened" => state.weakened = true,
                "disorganized" => state.disorganized = true,
                other => {
                    return Err(format!(
                        "unknown state `{other}` for `{id}`: use :weakened or :disorganized"
                    ));
                }
            }
        }
        if state.weakened && catalog.get(type_id).steps < 2 {
            return Err(format!("`{id}` has one step and cannot be weakened"));
        }
        out.push(Combatant { type_id, state });
    }
    if out.is_empty() {
        return Err("each side needs at least one unit".to_owned());
    }
    if out.len() > MAX_SIDE {
        return Err(format!(
            "{} units on one side: hexwar odds takes at most {MAX_SIDE} a side (two hexes' \
             stacks and their HQs); larger fights take minutes to sample",
            out.len()
        ));
    }
    Ok(out)
}
