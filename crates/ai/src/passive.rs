//! `passive`: the AI that does nothing on its own. Its units still test and choose in melees
//! (R11.4) and disengage when they may (R15.5); orders move them.

use crate::plays::Plays;
use counters::Halt;
use game::Referee;
use model::{Side, UnitId};

/// `passive`: gives no command; answers the rules' questions as the doctrine AI does.
#[derive(Clone, Copy, Debug, Default)]
pub struct Passive;

impl Plays for Passive {
    const KIND: &'static str = "passive";

    fn movement(&self, _: &mut dyn Referee<'_>, _: Side, _: &[UnitId]) -> Result<(), Halt> {
        Ok(())
    }

    fn fire(&self, _: &mut dyn Referee<'_>, _: Side, _: &[UnitId]) -> Result<(), Halt> {
        Ok(())
    }
}
