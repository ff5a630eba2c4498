//! R0.3, R4: events. Every state change is an event, and every die rolled is in one, so the log
//! explains each outcome and a replay can be checked.

use hexmap::Hex;
use serde::Serialize;
use smallvec::SmallVec;

use crate::command::{OrderAction, RuleError};
pub use crate::day::Phase;
#[cfg(feature = "schema")]
use crate::ids::HexLabel;
use crate::ids::{Side, UnitId};

/// A value by its text, as the JSON of events gives a rule's refusal.
fn ser_display<S: serde::Serializer>(v: &impl std::fmt::Display, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

pub use crate::dice::Faces;

/// Units named by an event (inline up to 6).
pub type Units = SmallVec<[UnitId; 6]>;

/// Hexes entered by a move (inline up to 6).
pub type Path = SmallVec<[Hex; 6]>;

/// Dice rolled for one purpose: the faces, the number needed, and how many met it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Roll {
    /// Faces in the order rolled.
    pub dice: Faces,
    /// The number each die had to reach (R0.1).
    pub need: u8,
    /// Dice that met it.
    pub successes: u8,
}

impl Roll {
    /// Scores a roll against `need` with R0.1.
    #[must_use]
    pub fn score(dice: Faces, need: u8) -> Self {
        let successes = dice
            .iter()
            .filter(|&&d| crate::dice::passes(d, need))
            .count();
        let successes = u8::try_from(successes).unwrap_or(u8::MAX);
        Self {
            dice,
            need,
            successes,
        }
    }
}

/// What one hit did to a unit (R6.6, R8.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum HitEffect {
    /// Now disorganized.
    Disorganized,
    /// Lost a step (and is disorganized).
    Weakened,
    /// Destroyed.
    Destroyed,
    /// An HQ's die did not show 1 (R8.2).
    NoEffect,
}

/// How an assault ended (R9.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum AssaultOutcome {
    /// Every defender was destroyed; the attackers occupy the hex.
    DefendersDestroyed,
    /// The defenders took more hits: they retreat, the attackers occupy.
    DefendersRetreat,
    /// The defenders hold; the attackers stay where they attacked from.
    DefendersHold,
}

/// What an infantry hit did to an armored vehicle (R11.12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum TankAssault {
    /// Die + rating beat the armor: the hit counts.
    Counts,
    /// Die + rating equalled the armor: the vehicle is only disorganized.
    Disorganizes,
    /// Below the armor: no effect.
    Bounces,
}

/// Why a unit broke off (R11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum BreakOffReason {
    /// An independent unit must break off at once (R11.1).
    Independent,
    /// An unarmored vehicle must break off at once (R11.1).
    Unarmored,
    /// Failed the motivation test (R11.2).
    FailedTest,
    /// Passed, and chose to break off.
    Chose,
    /// Its side lost the fight (R11.5).
    Lost,
}

/// Why the battle ended (R17.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum EndReason {
    /// A side failed its company morale test (R17.2).
    CompanyMorale,
    /// The attacker held an objective at the start of its turn.
    Objective,
    /// The last turn ended.
    TurnLimit,
}

/// The result of a battle (R17).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Outcome {
    /// The winner; `None` when both lose a fair fight (R17.4).
    pub winner: Option<Side>,
    /// Why it ended.
    pub reason: EndReason,
    /// Victory points per side, `A` then `B` (R17.3, R17.4).
    pub vp: [u8; 2],
    /// Units lost per side, transports excluded.
    pub losses: [u32; 2],
    /// The last game turn played.
    pub turn: u32,
}

/// Which marker a rally test removes (R12.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Marker {
    /// Disorganized.
    Disorganized,
    /// Pinned.
    Pinned,
    /// Bogged (R5.6: a skill test frees it).
    Bogged,
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "event")]
pub enum Event {
    /// A player turn begins (R4.2).
    TurnStarted {
        /// Game turn.
        turn: u32,
        /// The side whose turn it is.
        side: Side,
    },
    /// A phase begins.
    PhaseStarted {
        /// Which.
        phase: Phase,
    },
    /// A reserve enters the map.
    Arrived {
        /// The unit.
        unit: UnitId,
        /// Where.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "HexLabel"))]
        hex: Hex,
    },
    /// Company morale (R17.2).
    MoraleTest {
        /// The side testing.
        side: Side,
        /// The die.
        die: u8,
        /// Needed.
        need: u8,
        /// Passed.
        passed: bool,
    },
    /// A test to remove a marker (R12, R5.6); `dice` holds the re-roll when one was made.
    RallyTest {
        /// The unit.
        unit: UnitId,
        /// The marker.
        marker: Marker,
        /// The die, and the re-roll if any.
        dice: Faces,
        /// Needed.
        need: u8,
        /// Passed: the marker is removed.
        passed: bool,
    },
    /// A move (R5).
    Moved {
        /// The unit.
        unit: UnitId,
        /// Hexes entered.
        #[serde(serialize_with = "ser_path")]
        #[cfg_attr(feature = "schema", schemars(with = "Vec<HexLabel>"))]
        path: Path,
        /// Movement points spent.
        cost: u8,
        /// At the double (R5.2).
        double: bool,
        /// R15.2: after the move the unit is gone to ground (a recon unit keeping to cautious
        /// movement).
        gone_to_ground: bool,
    },
    /// A bog check on entering difficult terrain (R5.6).
    BogCheck {
        /// The vehicle.
        unit: UnitId,
        /// The die.
        die: u8,
        /// Needed (its skill).
        need: u8,
        /// Failed: bogged, the move ends.
        bogged: bool,
    },
    /// Ranged fire (R6.1, R6.2).
    Fired {
        /// The firer.
        unit: UnitId,
        /// The target.
        target: UnitId,
        /// Hit dice.
        roll: Roll,
    },
    /// Saves against fire (R6.3).
    Saves {
        /// The target.
        unit: UnitId,
        /// One die per hit.
        roll: Roll,
    },
    /// Pinned by two or more hits in a fire phase (R6.7).
    Pinned {
        /// The unit.
        unit: UnitId,
    },
    /// An assault is declared (R9.1).
    AssaultDeclared {
        /// The assaulted hex.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "HexLabel"))]
        hex: Hex,
        /// The units entering.
        attackers: Units,
        /// The units in the hex.
        defenders: Units,
    },
    /// An HQ adds its leadership to a unit's assault dice (R8.1).
    Leadership {
        /// The HQ.
        hq: UnitId,
        /// The unit helped.
        unit: UnitId,
        /// Dice added.
        bonus: u8,
    },
    /// One unit's assault or overrun dice (R9.2, R10.2).
    AssaultRoll {
        /// The unit rolling.
        unit: UnitId,
        /// Its side.
        side: Side,
        /// The dice.
        roll: Roll,
    },
    /// Hits on a side shared among its units (R7): `per_unit` hits each; `picks` are the dice
    /// that chose who took the leftover hits (R7.2).
    HitsShared {
        /// The side struck.
        side: Side,
        /// Hits in all.
        hits: u8,
        /// Hits per unit.
        per_unit: SmallVec<[(UnitId, u8); 6]>,
        /// Dice rolled for the random leftovers.
        picks: Faces,
    },
    /// The effect of one hit (R6.6).
    HitTaken {
        /// The unit.
        unit: UnitId,
        /// What it did.
        effect: HitEffect,
    },
    /// An HQ's die for a hit (R8.2).
    HqHit {
        /// The HQ.
        unit: UnitId,
        /// The die: 1 hurts.
        die: u8,
        /// What it did.
        effect: HitEffect,
    },
    /// Infantry boards a transport in its hex (R16.1).
    Mounted {
        /// The passenger.
        unit: UnitId,
        /// The transport.
        transport: UnitId,
        /// Movement points the transport pays (half its movement).
        cost: u8,
    },
    /// A passenger leaves its transport (R16.1), or is thrown out when the transport is
    /// destroyed (R16.2, cost 0) or must break off (R16.3, cost 0).
    Dismounted {
        /// The passenger.
        unit: UnitId,
        /// The transport it leaves.
        transport: UnitId,
        /// Where it stands now.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "HexLabel"))]
        hex: Hex,
        /// Movement points the transport pays.
        cost: u8,
    },
    /// Infantry declares improvised tank assault: its 1s hit itself (R11.12).
    ImprovisedTankAssault {
        /// The infantry unit.
        unit: UnitId,
    },
    /// An infantry hit on an armored vehicle tests against its armor (R11.12).
    TankAssault {
        /// The vehicle hit.
        unit: UnitId,
        /// The die.
        die: u8,
        /// The infantry's (improvised) tank assault rating.
        rating: u8,
        /// The vehicle's armor.
        armor: u8,
        /// What the hit does.
        effect: TankAssault,
    },
    /// A side tests motivation to counterattack (R11.2, R11.3). `dice` is empty when the test
    /// passes automatically, and holds a second die for a re-roll.
    MeleeTest {
        /// The side testing.
        side: Side,
        /// The die, and the re-roll if any.
        dice: Faces,
        /// Passed automatically (R11.3).
        automatic: bool,
        /// Units that passed.
        passed: Units,
        /// Units that failed and must break off.
        failed: Units,
    },
    /// Units counterattack: the roles swap (R11.4).
    Counterattack {
        /// Their side.
        side: Side,
        /// The counterattackers.
        units: Units,
    },
    /// A unit of a counterattacking formation enters the hex to join (R11.4).
    Joined {
        /// The unit.
        unit: UnitId,
        /// The assaulted hex.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "HexLabel"))]
        hex: Hex,
    },
    /// A unit breaks off (R11.6): the hexes it moved through (empty if it could not move).
    BrokeOff {
        /// The unit.
        unit: UnitId,
        /// Why.
        reason: BreakOffReason,
        /// Hexes entered.
        #[serde(serialize_with = "ser_path")]
        #[cfg_attr(feature = "schema", schemars(with = "Vec<HexLabel>"))]
        path: Path,
    },
    /// A unit is captured and destroyed (R11.7, R11.10).
    Captured {
        /// The unit.
        unit: UnitId,
    },
    /// A winning unit consolidates one hex (R11.9).
    Consolidated {
        /// The unit.
        unit: UnitId,
        /// Where it moves.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "HexLabel"))]
        to: Hex,
    },
    /// A bailed-out armored transport of the winners is operational again (R11.11).
    Recovered {
        /// The transport.
        unit: UnitId,
    },
    /// The fight is over (R11.5).
    MeleeEnded {
        /// The assaulted hex.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "HexLabel"))]
        hex: Hex,
        /// The side that won.
        winner: Side,
        /// Counterattack rounds fought.
        rounds: u32,
    },
    /// The result of an assault round (R9.8).
    AssaultResult {
        /// The assaulted hex.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "HexLabel"))]
        hex: Hex,
        /// Hits scored on the attackers.
        attacker_hits: u8,
        /// Hits scored on the defenders.
        defender_hits: u8,
        /// The outcome.
        outcome: AssaultOutcome,
    },
    /// A defender retreats (R9.9).
    Retreated {
        /// The unit.
        unit: UnitId,
        /// From.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "HexLabel"))]
        from: Hex,
        /// To.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "HexLabel"))]
        to: Hex,
    },
    /// A unit with nowhere to retreat is destroyed (R9.9).
    NoRetreat {
        /// The unit.
        unit: UnitId,
    },
    /// An attacker moves into the hex it took (R9.8).
    Occupied {
        /// The unit.
        unit: UnitId,
        /// The hex.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "HexLabel"))]
        hex: Hex,
        /// Movement points the hex costs to enter (R5.1).
        cost: u8,
    },
    /// An overrun is declared (R10.1).
    OverrunDeclared {
        /// The vehicle.
        unit: UnitId,
        /// The enemy hex.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "HexLabel"))]
        hex: Hex,
        /// The hex beyond.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "HexLabel"))]
        beyond: Hex,
        /// Movement points it costs (terrain, +1, and the hex beyond).
        cost: u8,
    },
    /// How an overrun ended for the vehicle (R10.4).
    OverrunEnded {
        /// The vehicle.
        unit: UnitId,
        /// Broke through to the hex beyond; otherwise stays where it came from.
        broke_through: bool,
        /// Where it ends.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "HexLabel"))]
        at: Hex,
    },
    /// The attacker holds an objective for the first time, at the end of a player turn (R17.1);
    /// recorded for batch statistics.
    ObjectiveTaken {
        /// Index in the scenario's objectives (in `hexwar run --json`, the objective's name).
        #[cfg_attr(feature = "schema", schemars(with = "String"))]
        objective: u16,
        /// Game turn.
        turn: u32,
    },
    /// The side's turn marks are cleared, and units go to ground: those that neither moved,
    /// fired nor assaulted, and recon units that kept to cautious movement (R15.2).
    TurnEnded {
        /// The side.
        side: Side,
        /// The side's units gone to ground as the turn ends.
        to_ground: Units,
    },
    /// An order the rules forbid (R4.4); the game goes on without it.
    OrderRejected {
        /// Game turn.
        turn: u32,
        /// The unit.
        unit: UnitId,
        /// The order.
        order: OrderAction,
        /// Why, naming the rule it breaks.
        #[serde(serialize_with = "ser_display")]
        #[cfg_attr(feature = "schema", schemars(with = "String"))]
        reason: RuleError,
    },
    /// The roll for dawn or dusk at the start of a player turn (R13.3): one die more each time;
    /// any 5+ brings the change.
    TimeRoll {
        /// The side rolling.
        side: Side,
        /// The dice.
        roll: Roll,
        /// The time of day after the roll.
        now: crate::day::TimeOfDay,
    },
    /// A unit's night visibility for this turn, in hexes (R13.2, R13.4).
    Visibility {
        /// The unit that looks (a firer or a spotter).
        unit: UnitId,
        /// The die: hexes it sees.
        die: u8,
    },
    /// At night, the target is beyond what the unit sees this turn: the shot or the spot is
    /// lost, and the unit may choose again (R13.2, R13.4).
    NotSeen {
        /// The unit that looked.
        unit: UnitId,
        /// The hex it could not see.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "HexLabel"))]
        hex: Hex,
    },
    /// A side's air observation post arrives (R13.4, R14.5).
    AirObserverArrived {
        /// The side.
        side: Side,
    },
    /// A battery fires on a hex through a spotter (R14.1), or smokes it (R14.3). `spotter` is
    /// `None` for the air observation post.
    Bombarded {
        /// The battery.
        unit: UnitId,
        /// Who spotted.
        spotter: Option<UnitId>,
        /// The target hex.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "HexLabel"))]
        hex: Hex,
        /// Smoke rather than high explosive.
        smoke: bool,
    },
    /// Smoke clears at the start of the firing side's next turn (R14.3).
    SmokeLifted {
        /// The hex.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "HexLabel"))]
        hex: Hex,
    },
    /// An air sortie strikes a hex a friendly unit sees (R14.4).
    AirStrike {
        /// The side flying it.
        side: Side,
        /// The unit that sees the hex.
        caller: UnitId,
        /// The hex.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "HexLabel"))]
        hex: Hex,
    },
    /// The sortie's dice against one unit in the struck hex (R14.4, R6.2).
    AirAttack {
        /// The unit attacked.
        target: UnitId,
        /// The dice.
        roll: Roll,
    },
    /// A unit held in ambush is placed on the map (R15.3).
    AmbushPlaced {
        /// The unit.
        unit: UnitId,
        /// Where.
        #[serde(serialize_with = "crate::unit::ser_hex")]
        #[cfg_attr(feature = "schema", schemars(with = "HexLabel"))]
        hex: Hex,
    },
    /// Recon deployment (R15.4): it is this side's turn to move one recon unit.
    ReconDeployment {
        /// The side.
        side: Side,
    },
    /// Recon deployment is over; the marks of the moves are cleared (R4.3).
    DeploymentEnded,
    /// A recon unit fired on tests skill to disengage (R15.5).
    DisengageTest {
        /// The recon unit.
        unit: UnitId,
        /// The firer it disengages from.
        firer: UnitId,
        /// The die.
        die: u8,
        /// Needed (its skill).
        need: u8,
        /// Passed: it may move away.
        passed: bool,
    },
    /// A recon unit disengages directly away from the firer and is reorganising (R15.5).
    Disengaged {
        /// The unit.
        unit: UnitId,
        /// Hexes entered.
        #[serde(serialize_with = "ser_path")]
        #[cfg_attr(feature = "schema", schemars(with = "Vec<HexLabel>"))]
        path: Path,
    },
    /// The firer's remaining dice miss: the disengaged target is out of range or sight (R15.5).
    ShotsLost {
        /// The firer.
        unit: UnitId,
        /// Its target.
        target: UnitId,
        /// Dice lost.
        dice: u8,
    },
    /// Eyes and ears (R15.6): a recon unit's skill test against a gone-to-ground enemy.
    EyesAndEars {
        /// The recon unit.
        unit: UnitId,
        /// The enemy unit.
        target: UnitId,
        /// The die.
        die: u8,
        /// Needed (its skill).
        need: u8,
        /// Passed: the target loses gone to ground and is one easier to hit this fire phase.
        passed: bool,
    },
    /// Motorcycle recon dismounts into its riders (R15.7); `abandoned`: no sidecars, the
    /// machines are left behind for good.
    RidersDismounted {
        /// The unit.
        unit: UnitId,
        /// The motorcycles cannot be remounted.
        abandoned: bool,
    },
    /// Riders remount their motorcycles (R15.7).
    Remounted {
        /// The unit.
        unit: UnitId,
        /// R15.2: remounted, the unit is gone to ground (cautious movement).
        gone_to_ground: bool,
    },
    /// The battle is over (R17).
    BattleEnded {
        /// The result.
        outcome: Box<Outcome>,
    },
}

/// The family of rules an event belongs to: the one grouping by which the state applies events
/// (`counters::state`) and the narrator tells them (`present::narrate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// The battle's course: turns, phases and the time of day (R4, R13), recon deployment
    /// (R15.4), company morale (R17.2), orders refused, objectives and the end (R17).
    Course,
    /// Movement (R5), arrivals and ambushes (R15.3), transport (R16), bogging (R5.6) and
    /// disengaging (R15.5).
    Movement,
    /// Sight at night (R13.2), fire (R6), artillery and the air (R14), eyes and ears (R15).
    Fire,
    /// Assaults, overruns and melees (R9-R11).
    Assault,
    /// What befalls a unit: hits (R6.6, R8.2) and rallying (R12).
    Unit,
}

impl Event {
    /// The family of rules the event belongs to. Every event is named here, so that a new one
    /// does not compile until it has a family.
    #[must_use]
    pub const fn family(&self) -> Family {
        match self {
            Self::TurnStarted { .. }
            | Self::TimeRoll { .. }
            | Self::PhaseStarted { .. }
            | Self::TurnEnded { .. }
            | Self::ReconDeployment { .. }
            | Self::DeploymentEnded
            | Self::MoraleTest { .. }
            | Self::OrderRejected { .. }
            | Self::ObjectiveTaken { .. }
            | Self::BattleEnded { .. } => Family::Course,
            Self::Arrived { .. }
            | Self::AmbushPlaced { .. }
            | Self::Moved { .. }
            | Self::BogCheck { .. }
            | Self::Mounted { .. }
            | Self::Dismounted { .. }
            | Self::RidersDismounted { .. }
            | Self::Remounted { .. }
            | Self::DisengageTest { .. }
            | Self::Disengaged { .. } => Family::Movement,
            Self::Visibility { .. }
            | Self::NotSeen { .. }
            | Self::AirObserverArrived { .. }
            | Self::SmokeLifted { .. }
            | Self::Bombarded { .. }
            | Self::AirStrike { .. }
            | Self::AirAttack { .. }
            | Self::Fired { .. }
            | Self::Saves { .. }
            | Self::ShotsLost { .. }
            | Self::Pinned { .. }
            | Self::EyesAndEars { .. } => Family::Fire,
            Self::AssaultDeclared { .. }
            | Self::Leadership { .. }
            | Self::AssaultRoll { .. }
            | Self::HitsShared { .. }
            | Self::AssaultResult { .. }
            | Self::Retreated { .. }
            | Self::NoRetreat { .. }
            | Self::Occupied { .. }
            | Self::OverrunDeclared { .. }
            | Self::OverrunEnded { .. }
            | Self::ImprovisedTankAssault { .. }
            | Self::TankAssault { .. }
            | Self::MeleeTest { .. }
            | Self::Counterattack { .. }
            | Self::Joined { .. }
            | Self::BrokeOff { .. }
            | Self::Captured { .. }
            | Self::Consolidated { .. }
            | Self::MeleeEnded { .. } => Family::Assault,
            Self::HitTaken { .. }
            | Self::HqHit { .. }
            | Self::RallyTest { .. }
            | Self::Recovered { .. } => Family::Unit,
        }
    }
}

fn ser_path<S: serde::Serializer>(path: &[Hex], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(path.iter().filter_map(|h| hexmap::Label::from_hex(*h)))
}
