//! The hexwar rules: unit types and the catalog (R2), unit state and stacking (R2.3, R3),
//! scenarios (R4.1), and the rules of play: `Command` -> `check` -> `execute` -> `Event`s ->
//! `State::apply`. It does no I/O: callers pass text and dice in and get typed values, typed
//! errors and events out.

mod ai;
mod artillery;
mod assault;
mod batch;
pub mod bundled;
mod catalog;
mod check;
mod command;
mod day;
mod dice;
mod disengage;
mod event;
mod exec;
mod execute;
mod expect;
mod fire;
mod game;
mod hits;
mod ids;
mod load;
mod melee;
mod melee_odds;
mod movement;
mod odds;
mod overrun;
mod rally;
mod recon;
mod round;
mod scenario;
mod stacking;
mod state;
mod tally;
mod time;
mod transport;
mod unit;
mod victory;

pub use artillery::spotter_for;
pub use assault::retreat_hex;
pub use batch::{
    GameRecord, Identity, MergeError, ObjectiveStats, SideStats, Summary, reason_name, wilson,
};
pub use catalog::{Catalog, Fire, Source, UnitClass, UnitType, Weakened};
pub use check::{check, points_left};
pub use command::{Command, RuleError};
pub use dice::{
    Dice, GameRng, OutOfDice, ScriptedDice, chance, clamp_need, hits_distribution, passes,
    pick_distinct,
};
pub use event::{
    AssaultOutcome, BreakOffReason, EndReason, Event, Faces, HitEffect, Marker, Outcome, Path,
    Phase, Roll, TankAssault, Units,
};
pub use execute::{PlayError, execute, execute_into};
pub use expect::{DEFAULT_RUNS, Expectation, Expectations, MAX_RUNS, Measure};
pub use fire::{concealed, fire_dice, hit_number, save_number};
pub use game::{play, play_with, start_turn};
pub use hits::hit_effect;
pub use ids::{FormationId, Side, UnitId, UnitTypeId};
pub use load::{Lines, Problem, line_col};
pub use melee_odds::{
    FALLBACK_SAMPLES, MASS_BOUND, MeleeOdds, OUTCOME_BUDGET, STATE_BUDGET, attacker_won, melee_odds,
};
pub use odds::{
    AssaultOdds, Choices, Combatant, MATCHUP_ATTACKERS, MATCHUP_DEFENDERS, OverrunOdds,
    assault_odds, matchup, matchup_attackers, matchup_state, overrun_odds, set_choices,
};
pub use overrun::overrun_cost;
pub use rally::in_command;
pub use round::{AssaultDice, Fighting, SidePlan, plan_side, takes_part};
pub use scenario::{
    AiKind, AirSorties, Arrival, Formation, MeleeChoice, Objective, Order, OrderAction, Role,
    RuleSwitches, Scenario, ScenarioFile, SideInfo, TimeOfDay, parse_threshold,
};
pub use stacking::{has_room, stack_count};
pub use state::{Rules, State};
pub use tally::{Finding, Tally, Verdict, evaluate};
pub use time::{CHANGE_ON, change_probabilities, dice_due, within_night_sight};
pub use unit::{Location, Unit, UnitState};
pub use victory::{attacker_holds, attacker_holds_objective, morale_number, score, starting_units};

#[cfg(test)]
mod tests;
