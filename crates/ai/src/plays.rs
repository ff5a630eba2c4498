//! What an AI of this crate writes ([`Plays`]): its kind's name, once; its setting; its phases.
//! The choices the rules leave to a side's AI while they execute (R11.4 whether to
//! counterattack, R11.6 where to break off to, R15.5 whether to disengage) come with it, the
//! same for every AI unless it says otherwise. The game sees each as a [`game::Ai`].

use std::fmt;

use counters::{Halt, Rules, SidePlan, State};
use game::Referee;
use hexmap::Hex;
use model::{GameRng, Side, UnitId};

/// What an AI's name gives after `:`, typed by what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// No setting (`random`).
    Nothing,
    /// An assault threshold, strictly between 0 and 1, in thousandths (`doctrine:0.65`).
    Threshold(u16),
    /// A search budget, in playouts per phase (`search:400`).
    Budget(u32),
}

impl fmt::Display for Setting {
    /// As a name writes it after `:` (`0.65`, `400`); nothing for [`Setting::Nothing`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Nothing => Ok(()),
            Self::Threshold(t) => f.write_str(&crate::thousandths(t)),
            Self::Budget(b) => write!(f, "{b}"),
        }
    }
}

/// An AI's name: its kind, and its setting after `:` if it has one (`doctrine:0.5`).
pub(crate) fn written(kind: &str, setting: Setting) -> String {
    match setting {
        Setting::Nothing => kind.to_owned(),
        _ => format!("{kind}:{setting}"),
    }
}

/// An AI of this crate: what it must say (its kind and its two phases) and what it may (the
/// rest, by default as the doctrine AI does it). Each is a [`game::Ai`] (listed in the
/// crate root's call of `plays!`), named by [`Plays::KIND`] and [`Plays::setting`].
pub trait Plays: Send + Sync {
    /// Its kind, as `--ai`, scenarios and saved games name it (`doctrine`); the registry's row
    /// reads it from here.
    const KIND: &'static str;

    /// Its setting, written after the kind in its name.
    fn setting(&self) -> Setting {
        Setting::Nothing
    }

    /// The side's movement phase, as [`Ai::movement`].
    ///
    /// # Errors
    /// [`Halt`] from the referee's commands.
    fn movement(&self, x: &mut dyn Referee<'_>, side: Side, skip: &[UnitId]) -> Result<(), Halt>;

    /// The side's fire phase, as [`Ai::fire`].
    ///
    /// # Errors
    /// [`Halt`] from the referee's commands.
    fn fire(&self, x: &mut dyn Referee<'_>, side: Side, skip: &[UnitId]) -> Result<(), Halt>;

    /// R15.4: the side's turn in recon deployment, as [`Ai::deploy`]; by default its recon
    /// units stay where they are.
    ///
    /// # Errors
    /// [`Halt`] from the referee's commands.
    fn deploy(&self, x: &mut dyn Referee<'_>, side: Side, unit: UnitId) -> Result<(), Halt> {
        let _ = (x, side, unit);
        Ok(())
    }

    /// R15.3: units held in ambush, as [`Ai::ambushes`]; by default none is placed.
    ///
    /// # Errors
    /// [`Halt`] from the referee's commands.
    fn ambushes(&self, x: &mut dyn Referee<'_>, side: Side) -> Result<(), Halt> {
        let _ = (x, side);
        Ok(())
    }

    /// R11.2, R11.4: whether its units counterattack, as [`Ai::counterattacks`]; by default
    /// when the round would score a hit at least half the time.
    fn counterattacks(&self, plan: &SidePlan) -> bool {
        crate::choices::counterattack_pays(plan)
    }

    /// R15.5: whether a recon unit fired on disengages, as [`Ai::disengages`]; by default
    /// whenever it may.
    fn disengages(&self, state: &State, unit: UnitId, rng: &mut GameRng) -> bool {
        let _ = (state, unit, rng);
        true
    }

    /// R11.6: where a unit breaking off goes, best first, as [`Ai::rank_break_off`]; by
    /// default back on its own side, out of the enemy's reach.
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

    /// Whether a phase may take it long enough that a person should be told it is thinking.
    fn thinks(&self) -> bool {
        false
    }
}

/// Makes each type given, an AI of this crate ([`Plays`]), a [`game::Ai`]: its name from its kind
/// and setting, the rest from its [`Plays`]. Called once, at the crate's root, with every AI. (A
/// blanket `impl<P: Plays> Ai for P` is what this means; Rust allows it only in the crate of
/// `Ai`, and the game knows no AI policy.)
macro_rules! plays {
    ($($t:ty),* $(,)?) => {$(
        impl ::game::Ai for $t {
            fn name(&self) -> String {
                let kind = <$t as $crate::Plays>::KIND;
                $crate::plays::written(kind, $crate::Plays::setting(self))
            }

            fn movement(
                &self,
                x: &mut dyn ::game::Referee<'_>,
                side: ::model::Side,
                skip: &[::model::UnitId],
            ) -> Result<(), ::counters::Halt> {
                $crate::Plays::movement(self, x, side, skip)
            }

            fn fire(
                &self,
                x: &mut dyn ::game::Referee<'_>,
                side: ::model::Side,
                skip: &[::model::UnitId],
            ) -> Result<(), ::counters::Halt> {
                $crate::Plays::fire(self, x, side, skip)
            }

            fn deploy(
                &self,
                x: &mut dyn ::game::Referee<'_>,
                side: ::model::Side,
                unit: ::model::UnitId,
            ) -> Result<(), ::counters::Halt> {
                $crate::Plays::deploy(self, x, side, unit)
            }

            fn ambushes(
                &self,
                x: &mut dyn ::game::Referee<'_>,
                side: ::model::Side,
            ) -> Result<(), ::counters::Halt> {
                $crate::Plays::ambushes(self, x, side)
            }

            fn counterattacks(&self, plan: &::counters::SidePlan) -> bool {
                $crate::Plays::counterattacks(self, plan)
            }

            fn disengages(
                &self,
                state: &::counters::State,
                unit: ::model::UnitId,
                rng: &mut ::model::GameRng,
            ) -> bool {
                $crate::Plays::disengages(self, state, unit, rng)
            }

            fn rank_break_off(
                &self,
                state: &::counters::State,
                rules: &::counters::Rules<'_>,
                unit: ::model::UnitId,
                from: ::hexmap::Hex,
                ends: &mut [(::hexmap::Hex, u32)],
            ) {
                $crate::Plays::rank_break_off(self, state, rules, unit, from, ends);
            }

            fn thinks(&self) -> bool {
                $crate::Plays::thinks(self)
            }
        }
    )*};
}

pub(crate) use plays;
