//! `passive`: the AI that does nothing on its own. Its units still test and choose in melees
//! (R11.4) and disengage when they may (R15.5); orders move them.

use counters::{Halt, Rules, SidePlan, State};
use game::{Ai, Referee};
use hexmap::Hex;
use model::{GameRng, Side, UnitId};

use crate::choices::counterattack_pays;

/// `passive`: gives no command; answers the rules' questions as the doctrine AI does.
#[derive(Clone, Copy, Debug, Default)]
pub struct Passive;

impl Ai for Passive {
    fn name(&self) -> String {
        "passive".to_owned()
    }

    fn movement(&self, _: &mut dyn Referee<'_>, _: Side, _: &[UnitId]) -> Result<(), Halt> {
        Ok(())
    }

    fn fire(&self, _: &mut dyn Referee<'_>, _: Side, _: &[UnitId]) -> Result<(), Halt> {
        Ok(())
    }

    fn deploy(&self, _: &mut dyn Referee<'_>, _: Side, _: UnitId) -> Result<(), Halt> {
        Ok(())
    }

    fn ambushes(&self, _: &mut dyn Referee<'_>, _: Side) -> Result<(), Halt> {
        Ok(())
    }

    fn counterattacks(&self, plan: &SidePlan) -> bool {
        counterattack_pays(plan)
    }

    fn disengages(&self, _: &State, _: UnitId, _: &mut GameRng) -> bool {
        true
    }

    fn rank_break_off(
        &self,
        state: &State,
        rules: &Rules<'_>,
        unit: UnitId,
        from: Hex,
        ends: &mut [(Hex, u32)],
    ) {
        crate::choices::rank_break_off(state, rules, unit, from, ends);
    }
}
