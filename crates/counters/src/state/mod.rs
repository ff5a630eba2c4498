//! R2.3, R4: the state of a game; `State::apply` (`apply.rs`, by event family) is the only
//! place it changes.

mod apply;

use hexmap::{Grid, Hex, Map};

use model::catalog::{Catalog, UnitType};
use model::command::RuleError;
use model::event::{Event, Outcome, Phase};
use model::ids::{Side, UnitId};
use model::scenario::{Order, OrderAction, Scenario, TimeOfDay};
use model::unit::{Location, Unit, UnitState};

/// R13.1: the most hexes a unit enters in a player turn at night, however it moves
/// ([`State::hexes_left`]; the AIs reckon the enemy's reach by it).
pub const NIGHT_HEXES: u32 = 2;

/// What the rules read but never change: the scenario and its catalog, and the orders a
/// person gave during play (`hexwar play`), which count as the scenario's own.
#[derive(Clone, Copy, Debug)]
pub struct Rules<'a> {
    /// The scenario (map, sides, switches).
    pub scenario: &'a Scenario,
    /// The catalog its units come from.
    pub catalog: &'a Catalog,
    /// Orders given during play, read before the scenario's.
    pub given: &'a [Order],
}

impl<'a> Rules<'a> {
    /// Rules over a scenario and its catalog.
    #[must_use]
    pub const fn new(scenario: &'a Scenario, catalog: &'a Catalog) -> Self {
        Self {
            scenario,
            catalog,
            given: &[],
        }
    }

    /// What this turn's orders say for a unit, picked out by `pick`: an order given during
    /// play first, then the scenario's.
    pub fn order_of<T>(
        &self,
        turn: u32,
        unit: UnitId,
        pick: impl Fn(&OrderAction) -> Option<T>,
    ) -> Option<T> {
        self.given
            .iter()
            .chain(&self.scenario.orders)
            .filter(|o| o.turn == turn && o.unit == unit)
            .find_map(|o| pick(&o.action))
    }

    /// The map.
    #[must_use]
    pub const fn map(&self) -> &'a Map {
        &self.scenario.map
    }

    /// The type of a unit: for dismounted motorcycle recon, its riders' infantry type
    /// (R15.7, R15.8).
    #[must_use]
    pub fn typ(&self, unit: &Unit) -> &'a UnitType {
        if unit.state.dismounted
            && let Some(riders) = self.catalog.dismounted(unit.type_id)
        {
            return self.catalog.get(riders);
        }
        self.catalog.get(unit.type_id)
    }
}

/// A game in progress. Its fields are private: it is read through its methods and changes
/// only by [`State::apply`], so that every change is an event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// Every unit, indexed by `UnitId`.
    units: Vec<Unit>,
    /// Game turn, from 1.
    turn: u32,
    /// The side whose player turn it is.
    active: Side,
    /// The phase.
    phase: Phase,
    /// Time of day (R13).
    time: TimeOfDay,
    /// Movement points spent this turn, per unit.
    spent: Vec<u8>,
    /// Hexes each unit entered this player turn, whatever moved it (R13.1).
    entered: Vec<u8>,
    /// Hits received (before saves) this fire phase, per unit (R6.7).
    hits_this_phase: Vec<u8>,
    /// Hexes each vehicle overran this movement phase (R10.5).
    overrun: Vec<(UnitId, Hex)>,
    /// Set when the battle is over.
    outcome: Option<Outcome>,
    /// The game turn in which the attacker first held each objective (R17.1).
    objectives_taken: Vec<Option<u32>>,
    /// Dawn or dusk rolls made so far (R13.3).
    time_rolls: u8,
    /// The game turn in which dawn or dusk came (R13.3).
    time_changed: Option<u32>,
    /// Night visibility rolled this turn, per unit; 0 = not rolled (R13.2).
    visibility: Vec<u8>,
    /// Smoked hexes and the side that fired the smoke (R14.3).
    smoke: Vec<(Hex, Side)>,
    /// Whether each side's air observation post has arrived (R13.4, R14.5).
    air_op: [bool; 2],
    /// Air sorties each side has flown (R14.4).
    sorties_flown: [u8; 2],
    /// Whether the active side has struck from the air this turn (R14.4).
    air_struck: bool,
    /// Whether the active side has fired this phase: eyes and ears come first (R4.2, R15.6).
    fire_begun: bool,
    /// The map's hex index, for `standing`.
    grid: Grid,
    /// Per hex (by map index), how many units of each side stand in it (passengers not
    /// counted): kept by `apply` with every change of location, so that "is the enemy there?",
    /// which the rules and the AI ask at every step, needs no search through the units.
    standing: Vec<[u8; 2]>,
}

impl State {
    /// Every unit, indexed by `UnitId`.
    #[must_use]
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// The game turn, from 1.
    #[must_use]
    pub const fn turn(&self) -> u32 {
        self.turn
    }

    /// The side whose player turn it is.
    #[must_use]
    pub const fn active(&self) -> Side {
        self.active
    }

    /// The phase.
    #[must_use]
    pub const fn phase(&self) -> Phase {
        self.phase
    }

    /// The time of day (R13).
    #[must_use]
    pub const fn time(&self) -> TimeOfDay {
        self.time
    }

    /// Movement points each unit spent this turn.
    #[must_use]
    pub fn spent(&self) -> &[u8] {
        &self.spent
    }

    /// Hits each unit received (before saves) this fire phase (R6.7).
    #[must_use]
    pub fn hits_this_phase(&self) -> &[u8] {
        &self.hits_this_phase
    }

    /// The hexes each vehicle overran this movement phase (R10.5).
    #[must_use]
    pub fn overrun(&self) -> &[(UnitId, Hex)] {
        &self.overrun
    }

    /// How the battle ended, once it has.
    #[must_use]
    pub const fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// The game turn in which the attacker first held each objective (R17.1).
    #[must_use]
    pub fn objectives_taken(&self) -> &[Option<u32>] {
        &self.objectives_taken
    }

    /// Dawn or dusk rolls made so far (R13.3).
    #[must_use]
    pub const fn time_rolls(&self) -> u8 {
        self.time_rolls
    }

    /// The game turn in which dawn or dusk came (R13.3).
    #[must_use]
    pub const fn time_changed(&self) -> Option<u32> {
        self.time_changed
    }

    /// Night visibility rolled this turn, per unit; 0 = not rolled (R13.2).
    #[must_use]
    pub fn visibility(&self) -> &[u8] {
        &self.visibility
    }

    /// Smoked hexes and the side that fired the smoke (R14.3).
    #[must_use]
    pub fn smoke(&self) -> &[(Hex, Side)] {
        &self.smoke
    }

    /// Whether each side's air observation post has arrived (R13.4, R14.5).
    #[must_use]
    pub const fn air_op(&self) -> [bool; 2] {
        self.air_op
    }

    /// Air sorties each side has flown (R14.4).
    #[must_use]
    pub const fn sorties_flown(&self) -> [u8; 2] {
        self.sorties_flown
    }

    /// Whether the active side has struck from the air this turn (R14.4).
    #[must_use]
    pub const fn air_struck(&self) -> bool {
        self.air_struck
    }

    /// Whether the active side has fired this phase: eyes and ears come first (R4.2, R15.6).
    #[must_use]
    pub const fn fire_begun(&self) -> bool {
        self.fire_begun
    }
}

impl State {
    /// The unit's hex, if it is the active side's and on the map, in the given phase (R4.2,
    /// R4.4): the first condition of every command a unit gives.
    ///
    /// # Errors
    /// [`RuleError::WrongPhase`] or [`RuleError::NotOnMap`].
    pub(crate) fn own_on_map(&self, unit: UnitId, phase: Phase) -> Result<Hex, RuleError> {
        let u = self.unit(unit);
        if u.side != self.active || self.phase != phase {
            return Err(RuleError::WrongPhase);
        }
        match u.location {
            Location::Map(h) => Ok(h),
            _ => Err(RuleError::NotOnMap),
        }
    }

    /// R9.11: a unit that attacked in an assault this phase moves no more (an overrun does not
    /// stop it, R10): no move, overrun, mounting or dismounting. A condition of those commands.
    ///
    /// # Errors
    /// [`RuleError::AssaultEndedMove`] if it attacked in one.
    pub(crate) fn not_stopped(&self, unit: UnitId) -> Result<(), RuleError> {
        if self.unit(unit).state.stopped {
            Err(RuleError::AssaultEndedMove)
        } else {
            Ok(())
        }
    }

    /// The state at the start of a scenario.
    #[must_use]
    pub fn new(scenario: &Scenario) -> Self {
        let n = scenario.units.len();
        let grid = scenario.map.grid();
        let mut standing = vec![[0u8; 2]; grid.len()];
        for u in &scenario.units {
            if let Some(i) = u.hex().and_then(|h| grid.index(h)) {
                let count = &mut standing[i][u.side.index()];
                *count = count.saturating_add(1);
            }
        }
        Self {
            units: scenario.units.clone(),
            turn: 1,
            active: scenario.first,
            phase: Phase::Start,
            time: scenario.time_of_day,
            spent: vec![0; n],
            entered: vec![0; n],
            hits_this_phase: vec![0; n],
            overrun: Vec::new(),
            outcome: None,
            objectives_taken: vec![None; scenario.objectives.len()],
            time_rolls: 0,
            time_changed: None,
            visibility: vec![0; n],
            smoke: Vec::new(),
            air_op: [false; 2],
            sorties_flown: [0; 2],
            air_struck: false,
            fire_begun: false,
            grid,
            standing,
        }
    }

    /// R15.2: a recon unit stays gone to ground unless it moved at the double, fired,
    /// assaulted, or carries non-recon passengers this turn.
    #[must_use]
    pub fn cautious(&self, rules: &Rules<'_>, unit: UnitId) -> bool {
        let u = self.unit(unit);
        let (moved, double) = (u.state.moved, u.state.moved_double);
        self.cautious_as(rules, unit, rules.typ(u), moved, double, self.hex_of(unit))
    }

    /// R15.2: whether `unit` is gone to ground after a move that leaves it at `at`, `double`
    /// if at the double: [`State::cautious`] as the unit will stand. The engine asks it before
    /// the event, which carries the answer.
    #[must_use]
    pub fn cautious_after_move(
        &self,
        rules: &Rules<'_>,
        unit: UnitId,
        at: Option<Hex>,
        double: bool,
    ) -> bool {
        let u = self.unit(unit);
        let moved_double = u.state.moved_double || double;
        self.cautious_as(rules, unit, rules.typ(u), true, moved_double, at)
    }

    /// R15.2 with R15.7: whether `unit` is gone to ground once its riders remount: as
    /// [`State::cautious`] with the unit moved and of its mounted type again.
    #[must_use]
    pub fn cautious_after_remount(&self, rules: &Rules<'_>, unit: UnitId) -> bool {
        let u = self.unit(unit);
        let mounted = rules.catalog.get(u.type_id);
        let double = u.state.moved_double;
        self.cautious_as(rules, unit, mounted, true, double, self.hex_of(unit))
    }

    fn cautious_as(
        &self,
        rules: &Rules<'_>,
        unit: UnitId,
        typ: &UnitType,
        moved: bool,
        moved_double: bool,
        at: Option<Hex>,
    ) -> bool {
        let u = self.unit(unit);
        typ.recon
            && !moved_double
            && !u.state.fired
            && !u.state.assaulted
            && !self.exposed_by_night(rules, moved, at)
            && self.passengers(unit).all(|p| rules.typ(p).recon)
    }

    /// R15.2 at night: a recon unit that moved keeps to cautious movement only where terrain
    /// conceals it (`at`); night's concealment is not enough (R13.2).
    fn exposed_by_night(&self, rules: &Rules<'_>, moved: bool, at: Option<Hex>) -> bool {
        self.time.is_night()
            && moved
            && !at
                .and_then(|h| rules.map().terrain(h))
                .is_some_and(|t| t.concealment)
    }

    /// R15.2: the event that ends `side`'s turn, with the units that go to ground: those that
    /// neither moved, fired nor assaulted this turn, and the recon units alive that kept to
    /// cautious movement (not busy, not exposed by night, carrying only recon passengers).
    #[must_use]
    pub fn turn_end(&self, rules: &Rules<'_>, side: Side) -> Event {
        let to_ground = self
            .units
            .iter()
            .filter(|u| u.side == side)
            .filter(|u| {
                let s = &u.state;
                let still = !s.moved && !s.fired && !s.assaulted;
                // R15.2, decided where the moves decide it.
                let cautious = u.alive()
                    && self.cautious_as(
                        rules,
                        u.id,
                        rules.typ(u),
                        s.moved,
                        s.moved_double,
                        self.hex_of(u.id),
                    );
                still || cautious
            })
            .map(|u| u.id)
            .collect();
        Event::TurnEnded { side, to_ground }
    }

    /// Whether smoke lies on a hex (R14.3).
    #[must_use]
    pub fn smoke_at(&self, hex: Hex) -> bool {
        self.smoke.iter().any(|&(h, _)| h == hex)
    }

    /// Whether `a` sees `b`: R1.3 line of sight, with smoke blocking (R14.3). The terrain's
    /// answer is cached by the map; smoke can only block more.
    #[must_use]
    pub fn sees(&self, rules: &Rules<'_>, a: Hex, b: Hex) -> bool {
        rules.map().sees_terrain(a, b)
            && (self.smoke.is_empty() || rules.map().sees(a, b, |h| self.smoke_at(h)))
    }

    /// A unit.
    #[must_use]
    pub fn unit(&self, id: UnitId) -> &Unit {
        &self.units[id.index()]
    }

    /// The hex a unit is in: its own, or its transport's.
    #[must_use]
    pub fn hex_of(&self, id: UnitId) -> Option<Hex> {
        match self.unit(id).location {
            Location::Map(h) => Some(h),
            Location::Aboard(t) => self.unit(t).hex(),
            Location::OffMap | Location::Destroyed => None,
        }
    }

    /// Units of a side standing in a hex (passengers excluded), in id order.
    pub fn units_in(&self, hex: Hex, side: Side) -> impl Iterator<Item = &Unit> + '_ {
        let none = self.standing_in(hex, side) == Some(0);
        let units = if none { &[][..] } else { &self.units[..] };
        units
            .iter()
            .filter(move |u| u.side == side && u.location == Location::Map(hex))
    }

    /// How many units of `side` stand in a hex of the map (passengers excluded); `None` off
    /// the map.
    #[must_use]
    pub fn standing_in(&self, hex: Hex, side: Side) -> Option<usize> {
        let i = self.grid.index(hex)?;
        Some(usize::from(self.standing[i][side.index()]))
    }

    /// Whether any unit of `side` stands in the hex.
    #[must_use]
    pub fn occupied_by(&self, hex: Hex, side: Side) -> bool {
        match self.standing_in(hex, side) {
            Some(n) => n > 0,
            None => self.units_in(hex, side).next().is_some(),
        }
    }

    /// Puts a unit somewhere else, keeping the count of units standing per hex true: every
    /// change of location goes through here.
    fn put(&mut self, unit: UnitId, to: Location) {
        let u = &mut self.units[unit.index()];
        let side = u.side.index();
        if let Some(i) = u.hex().and_then(|h| self.grid.index(h)) {
            let count = &mut self.standing[i][side];
            *count = count.saturating_sub(1);
        }
        u.location = to;
        if let Some(i) = u.hex().and_then(|h| self.grid.index(h)) {
            let count = &mut self.standing[i][side];
            *count = count.saturating_add(1);
        }
    }

    /// Whether the hex is next to a unit of `side`.
    #[must_use]
    pub fn adjacent_to(&self, rules: &Rules<'_>, hex: Hex, side: Side) -> bool {
        rules
            .map()
            .neighbors(hex)
            .any(|n| self.occupied_by(n, side))
    }

    /// Passengers of a transport.
    pub fn passengers(&self, transport: UnitId) -> impl Iterator<Item = &Unit> + '_ {
        self.units
            .iter()
            .filter(move |u| u.location == Location::Aboard(transport))
    }

    /// Hexes a unit may still enter this player turn: at night 2 in all (R13.1), by day no
    /// limit but its movement.
    #[must_use]
    pub fn hexes_left(&self, unit: UnitId) -> Option<u32> {
        self.time
            .is_night()
            .then(|| NIGHT_HEXES.saturating_sub(u32::from(self.entered[unit.index()])))
    }

    /// R13.1 for moves that step farther from `away` at every hex (disengage, break off): the
    /// move from `start` to `end` enters as many hexes as it gains in distance, and at night that
    /// may not exceed what the unit has left this turn.
    #[must_use]
    pub fn may_move_away(&self, unit: UnitId, start: Hex, away: Hex, end: Hex) -> bool {
        let gained = end
            .unsigned_distance_to(away)
            .saturating_sub(start.unsigned_distance_to(away));
        self.hexes_left(unit).is_none_or(|left| gained <= left)
    }

    /// Counts `hexes` more entered by `unit` this player turn (R13.1).
    fn enter(&mut self, unit: UnitId, hexes: usize) {
        let e = &mut self.entered[unit.index()];
        *e = e.saturating_add(u8::try_from(hexes).unwrap_or(u8::MAX));
    }
}

/// The position's bytes for its hash (`State::position_hash`), version 1. Every number is
/// little-endian; a hex is its axial `x` and `y` as two `i32`; a side is 0 (`A`) or 1 (`B`); an
/// option is a 0 byte, or a 1 byte and its value. In order:
/// - the tag `hexwar-position-1`;
/// - turn (`u32`), active side, phase (0 start, 1 movement, 2 fire, 3 end, 4 deployment), time
///   of day (0 day, 1 night, 2 dawn, 3 dusk), dawn or dusk rolls (`u8`), the turn it came
///   (option of `u32`);
/// - the number of units (`u32`), then each unit: type (`u16`), side, formation (`u16`),
///   location (0 a hex, 1 aboard the unit `u16`, 2 off the map, 3 destroyed), its marks as a
///   `u32` of bits in the order of [`UnitState`]'s fields from bit 0 (weakened, disorganized,
///   pinned, gone to ground, bogged, reorganising, dismounted, moved, moved at the double,
///   fired, assaulted, fired last turn, spotted, observing, revealed, disengaged, busy last
///   turn, at the double last turn, remounted, loaded, unloaded, stopped by an assault; a new
///   mark takes the next bit),
///   movement points spent, hexes entered, hits this fire phase and night visibility (`u8`s);
/// - the overruns of this phase (`u32` count, each the vehicle `u16` and the hex), the turn
///   each objective was taken (`u32` count, each an option of `u32`), the smoke (`u32` count,
///   each the hex and the side that fired it), each side's air observation post (bytes),
///   sorties flown (`u8`s), whether the side struck from the air and whether it began to fire;
/// - the outcome: an option of the winner (an option of a side), the reason (0 company morale,
///   1 objective, 2 turn limit), the victory points and losses (`u8`, `u8`, `u32`, `u32`) and
///   the last turn (`u32`).
///
/// What the engine keeps only to go faster (the counts per hex) is left out: it follows from
/// the rest.
struct PositionBytes(Vec<u8>);

impl PositionBytes {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u16(&mut self, v: u16) {
        self.0.extend(v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.0.extend(v.to_le_bytes());
    }
    fn flag(&mut self, v: bool) {
        self.u8(u8::from(v));
    }
    fn side(&mut self, s: Side) {
        self.u8(match s {
            Side::A => 0,
            Side::B => 1,
        });
    }
    fn hex(&mut self, h: Hex) {
        self.0.extend(h.x.to_le_bytes());
        self.0.extend(h.y.to_le_bytes());
    }
    fn count(&mut self, n: usize) {
        self.u32(u32::try_from(n).unwrap_or(u32::MAX));
    }
    fn turn(&mut self, t: Option<u32>) {
        match t {
            None => self.u8(0),
            Some(t) => {
                self.u8(1);
                self.u32(t);
            }
        }
    }
}

impl State {
    /// A hash of the position: FNV-1a 64 of an explicit encoding (version 1, described on
    /// `PositionBytes` and in docs/saved-games.md), so that saved games keep replaying however
    /// the engine's types change inside.
    #[must_use]
    pub fn position_hash(&self) -> u64 {
        // Every field, by name: a new one does not compile until it is encoded or left out.
        let Self {
            units: _,
            turn: _,
            active: _,
            phase: _,
            time: _,
            spent: _,
            entered: _,
            hits_this_phase: _,
            overrun: _,
            outcome: _,
            objectives_taken: _,
            time_rolls: _,
            time_changed: _,
            visibility: _,
            smoke: _,
            air_op: _,
            sorties_flown: _,
            air_struck: _,
            fire_begun: _,
            grid: _,     // the map's index: the scenario's
            standing: _, // counts per hex: follow from the units
        } = self;
        let mut b = PositionBytes(b"hexwar-position-1".to_vec());
        b.u32(self.turn);
        b.side(self.active);
        b.u8(match self.phase {
            Phase::Start => 0,
            Phase::Movement => 1,
            Phase::Fire => 2,
            Phase::End => 3,
            Phase::Deployment => 4,
        });
        b.u8(match self.time {
            TimeOfDay::Day => 0,
            TimeOfDay::Night => 1,
            TimeOfDay::Dawn => 2,
            TimeOfDay::Dusk => 3,
        });
        b.u8(self.time_rolls);
        b.turn(self.time_changed);
        b.count(self.units.len());
        for (i, u) in self.units.iter().enumerate() {
            b.u16(u.type_id.0);
            b.side(u.side);
            b.u16(u.formation.0);
            match u.location {
                Location::Map(h) => {
                    b.u8(0);
                    b.hex(h);
                }
                Location::Aboard(t) => {
                    b.u8(1);
                    b.u16(t.0);
                }
                Location::OffMap => b.u8(2),
                Location::Destroyed => b.u8(3),
            }
            // Every mark, by name: a new one does not compile until it is encoded.
            let UnitState {
                weakened,
                disorganized,
                pinned,
                gone_to_ground,
                bogged,
                reorganising,
                dismounted,
                moved,
                moved_double,
                fired,
                assaulted,
                fired_last_turn,
                spotted,
                observing,
                revealed,
                disengaged,
                busy_last_turn,
                doubled_last_turn,
                remounted,
                loaded,
                unloaded,
                stopped,
            } = u.state;
            let marks = [
                weakened,
                disorganized,
                pinned,
                gone_to_ground,
                bogged,
                reorganising,
                dismounted,
                moved,
                moved_double,
                fired,
                assaulted,
                fired_last_turn,
                spotted,
                observing,
                revealed,
                disengaged,
                busy_last_turn,
                doubled_last_turn,
                remounted,
                loaded,
                unloaded,
                stopped,
            ];
            let bits = marks
                .iter()
                .enumerate()
                .fold(0u32, |acc, (k, &on)| acc | (u32::from(on) << k));
            b.u32(bits);
            for per_unit in [
                &self.spent,
                &self.entered,
                &self.hits_this_phase,
                &self.visibility,
            ] {
                b.u8(per_unit.get(i).copied().unwrap_or(0));
            }
        }
        b.count(self.overrun.len());
        for &(u, h) in &self.overrun {
            b.u16(u.0);
            b.hex(h);
        }
        b.count(self.objectives_taken.len());
        for &t in &self.objectives_taken {
            b.turn(t);
        }
        b.count(self.smoke.len());
        for &(h, s) in &self.smoke {
            b.hex(h);
            b.side(s);
        }
        for side in 0..2 {
            b.flag(self.air_op[side]);
        }
        for side in 0..2 {
            b.u8(self.sorties_flown[side]);
        }
        b.flag(self.air_struck);
        b.flag(self.fire_begun);
        match &self.outcome {
            None => b.u8(0),
            Some(o) => {
                b.u8(1);
                match o.winner {
                    None => b.u8(0),
                    Some(w) => {
                        b.u8(1);
                        b.side(w);
                    }
                }
                b.u8(match o.reason {
                    model::event::EndReason::CompanyMorale => 0,
                    model::event::EndReason::Objective => 1,
                    model::event::EndReason::TurnLimit => 2,
                });
                b.u8(o.vp[0]);
                b.u8(o.vp[1]);
                b.u32(o.losses[0]);
                b.u32(o.losses[1]);
                b.u32(o.turn);
            }
        }
        fnv1a(&b.0)
    }
}

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
