//! The hexwar rules: unit types and the catalog (R2), unit state and stacking (R2.3, R3),
//! scenarios (R4.1), and the rules of play. It does no I/O: callers pass text in and get typed
//! values, typed errors and events out.

mod catalog;
mod ids;
mod load;
mod scenario;
mod stacking;
mod unit;

pub use catalog::{Catalog, Fire, Source, UnitClass, UnitType, Weakened};
pub use ids::{FormationId, Side, UnitId, UnitTypeId};
pub use load::{Problem, line_col};
pub use scenario::{
    Arrival, Formation, Objective, Order, OrderAction, Role, RuleSwitches, Scenario, ScenarioFile,
    SideInfo, TimeOfDay,
};
pub use stacking::{room_for_one, stack_count};
pub use unit::{Location, Unit, UnitState};

#[cfg(test)]
mod tests;
