//! The hexwar rules: unit types and the catalog (R2), unit state and stacking (R2.3, R3),
//! scenarios (R4.1), and the rules of play: `Command` -> `check` -> `execute` -> `Event`s ->
//! `State::apply`. It does no I/O: callers pass text and dice in and get typed values, typed
//! errors and events out.

pub mod arena;
mod batch;
pub mod bundled;
mod game;
mod load;
mod model;
mod odds;
mod rules;
mod scenario;
mod tally;

pub use batch::{
    GameRecord, Identity, MergeError, ObjectiveStats, SideStats, Summary, reason_name, shard_size,
    wilson,
};
pub use game::{
    Act, Advisors, Ai, AnswerError, DiceMark, Entry, Game, Referee, Seat, Waiting, start_turn,
};
pub use load::{Lines, Problem, line_col};
pub use model::catalog::{Catalog, Fire, Source, UnitClass, UnitType, Weakened};
pub use model::catalog::{MAX_COMMAND_RANGE, MAX_TRANSPORT, Stat};
pub use model::command::{Command, RuleError};
pub use model::dice::{
    Dice, GameRng, OutOfDice, ScriptedDice, chance, clamp_need, hits_distribution, passes,
    pick_distinct,
};
pub use model::event::{
    AssaultOutcome, BreakOffReason, EndReason, Event, Faces, HitEffect, Marker, Outcome, Path,
    Phase, Roll, TankAssault, Units,
};
pub use model::ids::{FormationId, Side, UnitId, UnitTypeId};
pub use model::unit::{Location, Unit, UnitState};
pub use odds::first::{AssaultOdds, OverrunOdds, assault_odds, overrun_odds, quick_attacker_wins};
pub use odds::matchup::{
    Choices, Combatant, MATCHUP_ATTACKERS, MATCHUP_DEFENDERS, matchup, matchup_attackers,
    matchup_state, set_choices,
};
pub use odds::melee::{
    DefendersEnd, FALLBACK_SAMPLES, Losses, MeleeOdds, OUTCOME_BUDGET, Played, STATE_BUDGET,
    UnitFate, attacker_won, exact_melee_odds, melee_odds, played,
};
pub use rules::artillery::{sortie_ready, spotter_for};
pub use rules::ask::{Answer, Asking, Halt, Question};
pub use rules::assault::retreat_hex;
pub use rules::check::{
    at_fault, check, fire_reaches, moves, moves_to, points_left, ready_to_fire,
};
pub use rules::execute::{ExecuteWith, PlayError, execute_with};
pub use rules::fire::{concealed, fire_dice, hit_number, hit_number_against, save_number};
pub use rules::hits::hit_effect;
pub use rules::legal::{legal_commands, legal_commands_of};
pub use rules::overrun::{overrun_cost, overruns};
pub use rules::plan::{AssaultDice, Fighting, SidePlan, plan_side, takes_part};
pub use rules::rally::in_command;
pub use rules::side_ai::SideAi;
pub use rules::stacking::{has_room, stack_count};
pub use rules::state::{Rules, State};
pub use rules::time::{CHANGE_ON, change_probabilities, dice_due, within_night_sight};
pub use rules::transport::cost as transport_cost;
pub use rules::victory::{
    attacker_holds, attacker_holds_objective, losses, morale_number, score, starting_units,
};
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
pub use tally::{Finding, Tally, Verdict, evaluate};

#[cfg(test)]
mod tests;
