//! The stacks of `hexwar odds` as typed: `btr70,hq_mrr` or `m2:disorganized,jaeger`.

use model::Catalog;
use odds::Combatant;

/// The most units a side of `hexwar odds` may list: within it every answer takes seconds at
/// most (12 against 12 is sampled in about 13 s on one core).
pub const MAX_SIDE: usize = 12;

/// One side of `hexwar odds` (`Combatant::parse_side`), at most [`MAX_SIDE`] units.
///
/// ```
/// let catalog = model::bundled::catalog();
/// let side = session::odds_spec::parse_side(&catalog, "t72, mr_coy:weakened").unwrap();
/// assert_eq!(side.len(), 2);
/// assert!(side[1].state.weakened);
/// assert!(session::odds_spec::parse_side(&catalog, "t55").is_err());
/// ```
///
/// # Errors
/// What is wrong with the text, in words.
pub fn parse_side(catalog: &Catalog, text: &str) -> Result<Vec<Combatant>, String> {
    let out = Combatant::parse_side(catalog, text)?;
    if out.len() > MAX_SIDE {
        return Err(format!(
            "{} units on one side: hexwar odds takes at most {MAX_SIDE} a side (two hexes' \
             stacks and their HQs); larger fights take minutes to sample",
            out.len()
        ));
    }
    Ok(out)
}
