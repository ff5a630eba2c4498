//! R11.1 to R11.5: the melee's order, written once. A side's turn (the side that was struck, or
//! the defenders when they held) goes: the units that must leave at once (R11.1, before the
//! defenders' first test), the passengers making way (R16.3), the motivation test (R11.2,
//! R11.3), the choice to counterattack or break off (R11.4), the units next to the hex that join
//! (R11.4), the bog checks of a charge into difficult ground (R11.4), and the strike; after the
//! strike, the struck side either has nobody left in the fight and loses, or takes its turn
//! (R11.5).
//!
//! The engine walks it with dice, one face each ([`Fight`] over the game's state, in
//! `melee/mod.rs`); the odds walk it over every face, each with its chance ([`Fight`] over the
//! lumped chain's positions, `odds::whole_melee`). A change of the order is a change here.

use model::ids::Side;

/// A melee as one walker holds it: the steps of a side's turn, each taking a position to the
/// positions it may lead to. The engine's steps have one outcome, rolled; the odds' steps one
/// per face, each with its chance.
pub trait Fight {
    /// A position of the fight (the engine keeps its own in the game's state: `()`).
    type At;
    /// Why a step could not go on (the engine waits for a person's answer).
    type Halt;

    /// R11.1: the units that must break off at once when the defenders hold. The defenders'
    /// HQs count for their first test all the same (R11.2; seed 002: a company HQ with the
    /// gunners lets them re-roll, then breaks off): the walker keeps who was there.
    fn at_once(&mut self, at: &mut Self::At) -> Result<(), Self::Halt>;
    /// R16.3: `side`'s passengers dismount into the fight.
    fn make_way(&mut self, at: &mut Self::At, side: Side);
    /// Whether any unit of `side` is still in the fight.
    fn any_in(&self, at: &Self::At, side: Side) -> bool;
    /// R11.2, R11.3: `side`'s motivation test (the defenders' first with those kept by
    /// [`Fight::at_once`]), its failed units breaking off: each outcome, with its chance.
    fn test(
        &mut self,
        at: Self::At,
        side: Side,
        out: &mut Vec<(Self::At, f64)>,
    ) -> Result<(), Self::Halt>;
    /// R11.4: who of those that passed counterattacks (orders, the side's person or AI); the
    /// others break off. Whether those who counterattack roll any dice.
    fn choose(&mut self, at: &mut Self::At, side: Side) -> Result<bool, Self::Halt>;
    /// R11.4: the units next to the hex that join `side`'s counterattack.
    fn join(&mut self, at: &mut Self::At, side: Side);
    /// R11.4: the bog checks of `side`'s vehicles charging into difficult ground: each
    /// outcome, with its chance.
    fn charge(
        &mut self,
        at: Self::At,
        side: Side,
        out: &mut Vec<(Self::At, f64)>,
    ) -> Result<(), Self::Halt>;
}

/// How a side's turn ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// The side has nobody left who counterattacks: it has lost (R11.5), and its units still in
    /// the fight break off.
    Lost,
    /// The side strikes (its counterattack round, R11.4).
    Strikes,
}

/// `side`'s turn in the melee from `at` (`first`: the defenders' first, when they held), in the
/// rules' order: every way it ends goes to `out` with its chance.
pub fn side_turn<F: Fight>(
    fight: &mut F,
    mut at: F::At,
    side: Side,
    first: bool,
    out: &mut impl FnMut(F::At, Turn, f64),
) -> Result<(), F::Halt> {
    if first {
        fight.at_once(&mut at)?;
    }
    fight.make_way(&mut at, side);
    if !fight.any_in(&at, side) {
        out(at, Turn::Lost, 1.0);
        return Ok(());
    }
    let mut tested = Vec::new();
    fight.test(at, side, &mut tested)?;
    let mut charged = Vec::new();
    for (mut at, p) in tested {
        if !fight.choose(&mut at, side)? {
            out(at, Turn::Lost, p);
            continue;
        }
        fight.join(&mut at, side);
        charged.clear();
        fight.charge(at, side, &mut charged)?;
        for (at, q) in charged.drain(..) {
            out(at, Turn::Strikes, p * q);
        }
    }
    Ok(())
}

/// What follows `side`'s strike (R11.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterStrike {
    /// The struck side has nobody left in the fight: it has lost.
    Lost(Side),
    /// The struck side takes its turn.
    Turn {
        /// The struck side.
        side: Side,
        /// Whether the strike scored a hit on it (R11.3).
        struck: bool,
    },
}

/// What follows `side`'s strike that scored `hits` on the other side: the struck side loses
/// when none of it is left in the fight (`any_in`), else takes its turn.
pub fn after_strike(side: Side, hits: bool, any_in: impl Fn(Side) -> bool) -> AfterStrike {
    let other = side.other();
    if any_in(other) {
        AfterStrike::Turn {
            side: other,
            struck: hits,
        }
    } else {
        AfterStrike::Lost(other)
    }
}
