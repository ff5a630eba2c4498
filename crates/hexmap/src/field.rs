//! A field: the cheapest way from every hex to one goal, by hex index. `Map::field_to` finds
//! one and `Map::terrain_field` remembers them; the questions by hex are asked with the map
//! (`paths.rs`), so that the map can hold fields without this module knowing the map.

/// A hex no search reached (a cost), or no next hex (a way).
pub(crate) const UNREACHED: u32 = u32::MAX;

/// The cheapest way from every hex to one goal (`Map::field_to`): what any number of units
/// heading for the same hex need, found by one search from the goal instead of one per unit.
#[derive(Clone, Debug)]
pub struct Field {
    pub(crate) goal: usize,
    /// Per hex index: the cost of the cheapest path to the goal, [`UNREACHED`] where none.
    pub(crate) cost: Vec<u32>,
    /// Per hex index: the next hex of that path, [`UNREACHED`] at the goal and where none.
    pub(crate) next: Vec<u32>,
}

impl Field {
    /// [`Field::cost`] by hex index.
    #[must_use]
    pub fn cost_at(&self, index: usize) -> Option<u32> {
        let c = *self.cost.get(index)?;
        (c != UNREACHED).then_some(c)
    }
}
