//! The nouns of hexwar, which know no rule: ids and sides, the unit catalog (R2), a unit and its
//! state (R2.3), dice (R0.1), the time of day, commands and the reasons the rules refuse them,
//! events; and scenarios (R4.1): the file as written, its checks, and the checked `Scenario`,
//! with the data files shipped with hexwar (`bundled`). It does no I/O: callers pass text in and
//! get typed values or every `Problem` out.

pub mod bundled;
pub mod catalog;
pub mod command;
pub mod day;
pub mod dice;
pub mod event;
pub mod ids;
pub mod load;
pub mod scenario;
pub mod unit;

pub use catalog::{Catalog, Fire, Source, UnitClass, UnitType, Weakened};
pub use catalog::{MAX_COMMAND_RANGE, MAX_TRANSPORT, Stat};
pub use command::{Command, RuleError};
pub use dice::{
    Dice, GameRng, MAX_STEP_DICE, OutOfDice, ScriptedDice, chance, clamp_need, every_fall,
    hits_distribution, passes, pick_distinct,
};
pub use event::{
    AssaultOutcome, BreakOffReason, EndReason, Event, Faces, Family, HitEffect, Marker, Outcome,
    Path, Phase, Roll, TankAssault, Units,
};
pub use ids::{FormationId, Side, UnitId, UnitTypeId};
pub use load::{Lines, Problem, line_col};
pub use scenario::expect::{DEFAULT_RUNS, Expectation, Expectations, MAX_RUNS, Measure};
pub use scenario::grammar::{
    GrammarError, ORDER_VERBS, SHOWN_CHARS, VERBS, command_text, order_text, parse_command,
    parse_order_of, shown,
};
pub use scenario::{
    AiCheck, AiName, AirSorties, Arrival, DEFAULT_AI, Formation, MAX_AI_NAME, MeleeChoice,
    Objective, Order, OrderAction, Role, RuleSwitches, Scenario, ScenarioFile, SideInfo, TimeOfDay,
    check_ai_name, default_assault_threshold, parse_threshold,
};
pub use unit::{Location, Unit, UnitState};

#[cfg(test)]
mod tests;
