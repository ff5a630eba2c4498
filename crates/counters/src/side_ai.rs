//! The choices the rules leave to a side's AI. The rules hold no policy of their own: where no
//! order and no person decides, they ask the side's AI through [`SideAi`], and the AIs answer
//! (`ai/choices.rs`). The engine and the odds ask the same questions of the same AI.

use hexmap::Hex;

use crate::plan::SidePlan;
use crate::state::{Rules, State};
use model::dice::GameRng;
use model::ids::{Side, UnitId};

/// A side's AI, as the rules ask it for the choices its units make during execution. (Shared
/// between threads: the odds sample a large fight on every core.)
pub trait SideAi: Sync {
    /// R11.2, R11.4: the units of `side` that passed their test and have no orders would roll
    /// `plan` in the counterattack round: do they counterattack (`true`) or break off?
    /// Pure: the odds ask it of every position of a fight they enumerate, and get the answer
    /// the engine gets.
    fn counterattacks(&self, side: Side, plan: &SidePlan) -> bool;

    /// R15.5: `unit`, a recon unit fired on, may disengage: does it try? `rng` is the AI's own
    /// generator, never the game's dice.
    fn disengages(&self, state: &State, unit: UnitId, rng: &mut GameRng) -> bool;

    /// R11.6: `unit` breaks off from the melee for `from` and may end in any of `ends` (each
    /// hex with the cost of the way there): the side's AI puts them in the order it prefers
    /// them, its choice first.
    fn rank_break_off(
        &self,
        state: &State,
        rules: &Rules<'_>,
        unit: UnitId,
        from: Hex,
        ends: &mut [(Hex, u32)],
    );
}
