//! R4.4: commands a side gives, and the typed reasons the rules refuse one.

use hexmap::{Hex, Label};

use crate::day::Phase;
use crate::ids::UnitId;

/// What a player (orders or AI) asks a unit to do.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Command {
    /// Move along `path` (hexes entered, each adjacent to the last), at the double or not (R5).
    Move {
        /// The unit.
        unit: UnitId,
        /// Hexes entered.
        #[serde(serialize_with = "crate::unit::ser_hexes")]
        #[cfg_attr(feature = "schema", schemars(with = "Vec<crate::ids::HexLabel>"))]
        path: Vec<Hex>,
        /// At the double (R5.2).
        double: bool,
    },
    /// Assault the adjacent enemy hex `hex` with these units together (R9.1).
    Assault {
        /// Attackers, each adjacent to the hex.
        units: Vec<UnitId>,
        /// The enemy hex.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "crate::ids::HexLabel"))]
        hex: Hex,
    },
    /// Overrun through the adjacent enemy hex `hex` (R10).
    Overrun {
        /// The vehicle.
        unit: UnitId,
        /// The enemy hex.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "crate::ids::HexLabel"))]
        hex: Hex,
    },
    /// Infantry boards a friendly transport in its hex (R16.1).
    Mount {
        /// The infantry.
        unit: UnitId,
        /// The transport.
        transport: UnitId,
    },
    /// A passenger leaves its transport into the transport's hex (R16.1).
    Dismount {
        /// The passenger.
        unit: UnitId,
    },
    /// Fire at an enemy unit (R6).
    Fire {
        /// The firer.
        unit: UnitId,
        /// The target.
        target: UnitId,
    },
    /// A battery fires on a hex, or smokes it, through a spotter (R14.1, R14.3).
    Bombard {
        /// The battery (`fire.indirect`).
        unit: UnitId,
        /// The target hex.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "crate::ids::HexLabel"))]
        hex: Hex,
        /// Smoke instead of high explosive (R14.3).
        smoke: bool,
        /// The spotter; `None`: the nearest that can, the air observation post last.
        spotter: Option<UnitId>,
    },
    /// A unit held in ambush is placed in its zone at the start of its side's turn (R15.3).
    Place {
        /// The unit.
        unit: UnitId,
        /// The hex.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "crate::ids::HexLabel"))]
        hex: Hex,
    },
    /// A recon unit tests to strip a gone-to-ground enemy (R15.6).
    EyesAndEars {
        /// The recon unit.
        unit: UnitId,
        /// The enemy unit.
        target: UnitId,
    },
    /// Motorcycle recon dismounts into its riders at the start of its movement (R15.7).
    DismountRiders {
        /// The unit.
        unit: UnitId,
    },
    /// Dismounted motorcycle riders remount at the start of their movement (R15.7).
    Remount {
        /// The unit.
        unit: UnitId,
    },
    /// An air sortie on an enemy hex that `caller`, a friendly unit, sees (R14.4).
    AirStrike {
        /// The unit that sees the hex.
        caller: UnitId,
        /// The enemy hex.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "crate::ids::HexLabel"))]
        hex: Hex,
    },
}

impl Command {
    /// The units that act: the one giving it, or every assaulting unit.
    #[must_use]
    pub fn units(&self) -> &[UnitId] {
        match self {
            Self::Assault { units, .. } => units,
            Self::Move { unit, .. }
            | Self::Overrun { unit, .. }
            | Self::Mount { unit, .. }
            | Self::Dismount { unit }
            | Self::Fire { unit, .. }
            | Self::Bombard { unit, .. }
            | Self::Place { unit, .. }
            | Self::EyesAndEars { unit, .. }
            | Self::DismountRiders { unit }
            | Self::Remount { unit }
            | Self::AirStrike { caller: unit, .. } => std::slice::from_ref(unit),
        }
    }

    /// The phase it is given in (R4.2): ambushes are placed at the start of the turn, fire and
    /// eyes and ears in the fire phase, everything else in the movement phase.
    #[must_use]
    pub const fn phase(&self) -> Phase {
        match self {
            Self::Place { .. } => Phase::Start,
            Self::Fire { .. }
            | Self::Bombard { .. }
            | Self::AirStrike { .. }
            | Self::EyesAndEars { .. } => Phase::Fire,
            Self::Move { .. }
            | Self::Assault { .. }
            | Self::Overrun { .. }
            | Self::Mount { .. }
            | Self::Dismount { .. }
            | Self::DismountRiders { .. }
            | Self::Remount { .. } => Phase::Movement,
        }
    }
}

/// A hex as a message names it: its label (R0.4), or "off-map".
struct At(Hex);

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match Label::from_hex(self.0) {
            Some(l) => write!(f, "{l}"),
            None => f.write_str("off-map"),
        }
    }
}

/// Why the rules refuse a command. Each names the rule it breaks. Small `Copy` data (hexes,
/// static reasons), so a refused `check` allocates nothing; the text is made only when shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// R4.2: not this side's turn or not this phase.
    #[error("R4.2: not allowed in this phase or by this side")]
    WrongPhase,
    /// The unit is not on the map (destroyed, off the map, or a passenger).
    #[error("R4.4: the unit is not on the map")]
    NotOnMap,
    /// R5.1: a move that names no hex.
    #[error("R5.1: a move names at least one hex to enter")]
    EmptyPath,
    /// R5.1: a step to a hex that is not adjacent to the hex it leaves (the step, the hex left).
    #[error("R5.1: {} is not adjacent to {}, the hex the step leaves", At(*.0), At(*.1))]
    NotAdjacent(Hex, Hex),
    /// R5.1: a move that ends in the hex it began in (it would spend points to go nowhere).
    #[error("R5.1: a move ends in another hex than the one it began in")]
    BackToStart,
    /// R5.1: a step to a hex that is not on the map.
    #[error("R5.1: {} is not on the map", At(*.0))]
    OffTheMap(Hex),
    /// R5.1: terrain the unit cannot enter.
    #[error("R5.1: the unit cannot enter {}", At(*.0))]
    Impassable(Hex),
    /// R5.1: not enough movement points.
    #[error("R5.1: the move costs {cost} MP, {left} left")]
    NotEnoughMovePoints {
        /// Cost of the path.
        cost: u32,
        /// Points left.
        left: u32,
    },
    /// R5.4: only assaults and overruns enter enemy hexes.
    #[error("R5.4: {} holds enemy units; enter it by assault or overrun", At(*.0))]
    EnemyHex(Hex),
    /// R5.3: disorganized or pinned units may not close in on the enemy.
    #[error(
        "R5.3: a disorganized or pinned unit may not move next to an enemy unit it was not already next to"
    )]
    ClosingWhileShaken,
    /// R5.3: disorganized or pinned units may not assault.
    #[error("R5.3: a disorganized or pinned unit may not assault")]
    AssaultWhileShaken,
    /// R3.1, R3.2: stacking.
    #[error("R3.1: {} is full (stacking limit)", At(*.0))]
    Stacking(Hex),
    /// R5.6: a bogged vehicle cannot move.
    #[error("R5.6: the vehicle is bogged")]
    Bogged,
    /// R5.2: at the double, the unit may not fire or assault.
    #[error("R5.2: a unit that moved at the double may not fire or assault")]
    MovedAtTheDouble,
    /// R5.2: a unit that fired or assaulted may not move at the double; R13.1 at night.
    #[error("R5.2: this unit may not move at the double now")]
    NoDouble,
    /// R13.1: at most two hexes at night.
    #[error("R13.1: at night no unit enters more than 2 hexes in a turn")]
    NightMove,
    /// R9.11: the unit attacked in an assault this phase, which ended its movement.
    #[error("R9.11: the unit attacked in an assault this phase, which ended its movement")]
    AssaultEndedMove,
    /// R9.10: the unit has no assault factor.
    #[error("R9.10: the unit has no assault factor and cannot attack")]
    NoAssaultFactor,
    /// R9.10, R8.1: no unit of the assault rolls dice of its own (an HQ that is not a hero only
    /// lends its leadership).
    #[error(
        "R9.10: no unit of the assault rolls assault dice (an HQ that is not a hero only lends its leadership)"
    )]
    NoAssaultDice,
    /// R9.1: the target hex holds no enemy.
    #[error("R9.1: {} holds no enemy unit", At(*.0))]
    NoEnemy(Hex),
    /// R9.1: assault together from adjacent hexes only; a unit assaults once a turn.
    #[error("R9.1: the unit cannot assault {} (not adjacent, or already assaulted this turn)", At(*.0))]
    CannotAssault(Hex),
    /// R10.1: overrun conditions.
    #[error("R10.1: cannot overrun {}: {}", At(*.0), .1)]
    CannotOverrun(Hex, &'static str),
    /// R10.5: never twice through the same hex in one movement phase.
    #[error("R10.5: the vehicle already overran {} this movement phase", At(*.0))]
    OverrunTwice(Hex),
    /// R6.1: fire conditions.
    #[error("R6.1: cannot fire: {0}")]
    CannotFire(&'static str),
    /// R6.8: disorganized units do not fire.
    #[error("R6.8: a disorganized unit may not fire")]
    FireWhileDisorganized,
    /// R6.1: target out of range or sight.
    #[error("R6.1: the target is out of range or out of sight")]
    OutOfReach,
    /// R16.1: mounting conditions.
    #[error("R16.1: cannot mount: {0}")]
    CannotMount(&'static str),
    /// R16.1: mounting or dismounting costs the transport half its movement points.
    #[error(
        "R16.1: mounting or dismounting costs the transport half its movement points ({cost}), {left} left"
    )]
    TransportPoints {
        /// Half the transport's movement points.
        cost: u32,
        /// The transport's points left.
        left: u32,
    },
    /// R16.1: passengers neither fire nor assault, except from a mounted-assault transport.
    #[error(
        "R16.1: passengers neither fire nor assault, except from a mounted-assault transport (and assaulting with it)"
    )]
    Passenger,
    /// R13.2: at night, beyond the unit's visibility.
    #[error("R13.2: at night the target is beyond what the unit sees this turn")]
    NotSeenAtNight,
    /// R14.1: bombardment conditions.
    #[error("R14.1: cannot bombard: {0}")]
    CannotBombard(&'static str),
    /// R14.1, R14.2, R13.4: no spotter can see the hex.
    #[error("R14.1: no friendly spotter sees {}", At(*.0))]
    NoSpotter(Hex),
    /// R14.4, R13.4: air strike conditions.
    #[error("R14.4: no air strike: {0}")]
    CannotStrike(&'static str),
    /// R15.3: ambush placement.
    #[error("R15.3: cannot place the ambush: {0}")]
    CannotPlace(&'static str),
    /// R15.4: recon deployment.
    #[error("R15.4: recon deployment: {0}")]
    ReconDeployment(&'static str),
    /// R15.5: a reorganising unit.
    #[error("R15.5: the unit is reorganising after a disengage and may not move or assault")]
    Reorganising,
    /// R15.6: eyes and ears.
    #[error("R15.6: no eyes and ears: {0}")]
    CannotObserve(&'static str),
    /// R15.7: dismounting or remounting motorcycle recon.
    #[error("R15.7: {0}")]
    Motorcycles(&'static str),
    /// The unit belongs to the other side or the target to this side.
    #[error("R4.4: wrong side")]
    WrongSide,
}

impl RuleError {
    /// The id of the rule that refuses the command (`R5.1`), as `hexwar rules` looks it up.
    #[must_use]
    pub const fn rule(&self) -> &'static str {
        match self {
            Self::WrongPhase => "R4.2",
            Self::NotOnMap | Self::WrongSide => "R4.4",
            Self::EmptyPath
            | Self::BackToStart
            | Self::NotAdjacent(..)
            | Self::OffTheMap(..)
            | Self::Impassable(..)
            | Self::NotEnoughMovePoints { .. } => "R5.1",
            Self::EnemyHex(..) => "R5.4",
            Self::ClosingWhileShaken | Self::AssaultWhileShaken => "R5.3",
            Self::Stacking(..) => "R3.1",
            Self::Bogged => "R5.6",
            Self::MovedAtTheDouble | Self::NoDouble => "R5.2",
            Self::NightMove => "R13.1",
            Self::NoAssaultFactor | Self::NoAssaultDice => "R9.10",
            Self::AssaultEndedMove => "R9.11",
            Self::NoEnemy(..) | Self::CannotAssault(..) => "R9.1",
            Self::CannotOverrun(..) => "R10.1",
            Self::OverrunTwice(..) => "R10.5",
            Self::CannotFire(..) | Self::OutOfReach => "R6.1",
            Self::FireWhileDisorganized => "R6.8",
            Self::CannotMount(..) | Self::TransportPoints { .. } | Self::Passenger => "R16.1",
            Self::NotSeenAtNight => "R13.2",
            Self::CannotBombard(..) | Self::NoSpotter(..) => "R14.1",
            Self::CannotStrike(..) => "R14.4",
            Self::CannotPlace(..) => "R15.3",
            Self::ReconDeployment(..) => "R15.4",
            Self::Reorganising => "R15.5",
            Self::CannotObserve(..) => "R15.6",
            Self::Motorcycles(..) => "R15.7",
        }
    }
}

/// What an order tells a unit to do in its turn (R4.4): a command, carried out in its phase, or
/// a choice for the fights of the turn.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum OrderAction {
    /// A command, given in its phase ([`Command::phase`]).
    Command(Command),
    /// Stay put: the AI leaves the unit alone this turn.
    Hold,
    /// A choice in melees this turn (R11.2, R11.4).
    Melee {
        /// What the unit does.
        choice: MeleeChoice,
    },
    /// An HQ's leadership goes to this unit when both fight (R8.1).
    Lead {
        /// The unit helped.
        unit: UnitId,
    },
    /// Where the unit breaks off to, if it must and can reach it (R11.6).
    BreakOffTo {
        /// The hex.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "crate::ids::HexLabel"))]
        hex: Hex,
    },
}

/// A unit's choice in a melee (R11.2, R11.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum MeleeChoice {
    /// Counterattack when the test is passed; next to the hex, join the counterattack.
    Counterattack,
    /// Break off even when the test is passed.
    BreakOff,
    /// Next to the hex: do not join the counterattack.
    Stay,
}
