//! `State::apply`, the only place the state changes, one event at a time: [`State::apply`] hands
//! each event to its family's function (`Event::family`, as Zemeroth applies each event by its
//! kind): the battle's course, movement, fire, assault and melee, and what befalls a unit. Events
//! that only report dice and tests change nothing (their family's `_` arm).

use model::event::{Event, Family, HitEffect, Marker, Phase};
use model::unit::{Location, UnitState};

use super::State;

impl State {
    /// Applies one event: the only way the state changes.
    pub fn apply(&mut self, event: &Event) {
        match event.family() {
            Family::Course => self.apply_course(event),
            Family::Movement => self.apply_movement(event),
            Family::Fire => self.apply_fire(event),
            Family::Assault => self.apply_assault(event),
            Family::Unit => self.apply_to_unit(event),
        }
    }

    /// The clock and the battle's course: turns, phases, time of day (R13.3), recon deployment
    /// (R15.4), objectives and the end (R17).
    fn apply_course(&mut self, event: &Event) {
        match event {
            Event::TurnStarted { turn, side } => {
                self.turn = *turn;
                self.active = *side;
                self.phase = Phase::Start;
                self.air_struck = false;
                self.visibility.iter_mut().for_each(|v| *v = 0);
                self.entered.iter_mut().for_each(|e| *e = 0);
            }
            Event::TimeRoll { now, .. } => {
                self.time_rolls = self.time_rolls.saturating_add(1);
                if *now != self.time {
                    self.time = *now;
                    self.time_changed = Some(self.turn);
                }
            }
            Event::PhaseStarted { phase } => {
                self.phase = *phase;
                self.fire_begun = false;
                for u in &mut self.units {
                    u.state.revealed = false;
                    u.state.disengaged = false;
                }
                if *phase == Phase::Fire {
                    self.hits_this_phase.iter_mut().for_each(|h| *h = 0);
                }
                if *phase == Phase::Movement {
                    self.overrun.clear();
                }
            }
            Event::TurnEnded { side, to_ground } => {
                for (i, u) in self.units.iter_mut().enumerate() {
                    if u.side != *side {
                        continue;
                    }
                    let s = &mut u.state;
                    s.fired_last_turn = s.fired;
                    s.busy_last_turn = s.moved_double || s.fired || s.assaulted;
                    s.doubled_last_turn = s.moved_double;
                    s.gone_to_ground = to_ground.contains(&u.id);
                    *s = UnitState {
                        moved: false,
                        moved_double: false,
                        fired: false,
                        assaulted: false,
                        spotted: false,
                        observing: false,
                        remounted: false,
                        loaded: false,
                        unloaded: false,
                        stopped: false,
                        // R12.2: reorganising lasts to the end of the unit's next turn.
                        reorganising: false,
                        ..*s
                    };
                    self.spent[i] = 0;
                }
            }
            Event::ReconDeployment { side } => {
                self.active = *side;
                self.phase = Phase::Deployment;
            }
            Event::DeploymentEnded => {
                self.phase = Phase::Start;
                self.spent.iter_mut().for_each(|s| *s = 0);
                self.entered.iter_mut().for_each(|e| *e = 0);
                for u in &mut self.units {
                    u.state.moved = false;
                    u.state.moved_double = false;
                }
            }
            Event::ObjectiveTaken { objective, turn } => {
                if let Some(t) = self.objectives_taken.get_mut(usize::from(*objective)) {
                    *t = Some(*turn);
                }
            }
            Event::BattleEnded { outcome } => self.outcome = Some((**outcome).clone()),
            _ => {}
        }
    }

    /// Movement (R5), arrivals and ambushes (R15.3), transport (R16), bogging (R5.4) and
    /// disengaging (R15.5).
    fn apply_movement(&mut self, event: &Event) {
        match event {
            Event::Arrived { unit, hex } | Event::AmbushPlaced { unit, hex } => {
                self.put(*unit, Location::Map(*hex));
            }
            Event::Moved {
                unit,
                path,
                cost,
                double,
                gone_to_ground,
            } => {
                let i = unit.index();
                if let Some(&last) = path.last() {
                    self.put(*unit, Location::Map(last));
                }
                self.enter(*unit, path.len());
                self.spent[i] = self.spent[i].saturating_add(*cost);
                let s = &mut self.units[i].state;
                s.moved = true;
                s.moved_double |= *double;
                s.gone_to_ground = *gone_to_ground;
            }
            Event::BogCheck {
                unit, bogged: true, ..
            } => self.units[unit.index()].state.bogged = true,
            Event::Mounted {
                unit,
                transport,
                cost,
            } => {
                let t = transport.index();
                self.spent[t] = self.spent[t].saturating_add(*cost);
                self.units[t].state.loaded |= *cost > 0;
                self.put(*unit, Location::Aboard(*transport));
                self.units[unit.index()].state.moved = true;
            }
            Event::Dismounted {
                unit,
                transport,
                hex,
                cost,
            } => {
                let t = transport.index();
                self.spent[t] = self.spent[t].saturating_add(*cost);
                self.units[t].state.unloaded |= *cost > 0;
                self.put(*unit, Location::Map(*hex));
                // R5.2, R16.1: riders carried at the double moved at the double.
                let doubled = self.units[t].state.moved_double;
                let s = &mut self.units[unit.index()].state;
                s.moved |= *cost > 0;
                s.moved_double |= doubled;
            }
            Event::RidersDismounted { unit, .. } => {
                let s = &mut self.units[unit.index()].state;
                s.dismounted = true;
                s.moved = true;
                s.bogged = false;
                s.gone_to_ground = false;
            }
            Event::Remounted {
                unit,
                gone_to_ground,
            } => {
                let s = &mut self.units[unit.index()].state;
                s.dismounted = false;
                s.moved = true;
                s.remounted = true;
                s.gone_to_ground = *gone_to_ground;
            }
            Event::DisengageTest { unit, .. } => self.units[unit.index()].state.disengaged = true,
            Event::Disengaged { unit, path } => {
                if let Some(&end) = path.last() {
                    self.put(*unit, Location::Map(end));
                }
                self.units[unit.index()].state.reorganising = true;
                self.enter(*unit, path.len());
            }
            _ => {}
        }
    }

    /// Sight at night (R13.2), fire (R6), artillery and the air (R14), recon's eyes and ears
    /// (R15).
    fn apply_fire(&mut self, event: &Event) {
        match event {
            Event::Visibility { unit, die } => self.visibility[unit.index()] = *die,
            Event::AirObserverArrived { side } => self.air_op[side.index()] = true,
            Event::SmokeLifted { hex } => self.smoke.retain(|&(h, _)| h != *hex),
            Event::Bombarded {
                unit,
                spotter,
                hex,
                smoke,
            } => {
                self.fire_begun = true;
                let s = &mut self.units[unit.index()].state;
                s.fired = true;
                s.gone_to_ground = false;
                if let Some(sp) = spotter {
                    self.units[sp.index()].state.spotted = true;
                }
                if *smoke {
                    let side = self.units[unit.index()].side;
                    self.smoke.retain(|&(h, _)| h != *hex);
                    self.smoke.push((*hex, side));
                }
            }
            Event::AirStrike { side, .. } => {
                self.air_struck = true;
                self.fire_begun = true;
                let f = &mut self.sorties_flown[side.index()];
                *f = f.saturating_add(1);
            }
            Event::AirAttack { target, roll } => {
                let t = target.index();
                self.hits_this_phase[t] = self.hits_this_phase[t].saturating_add(roll.successes);
            }
            Event::Fired { unit, target, roll } => {
                self.fire_begun |= self.units[unit.index()].side == self.active;
                let s = &mut self.units[unit.index()].state;
                s.fired = true;
                s.gone_to_ground = false;
                let t = target.index();
                self.hits_this_phase[t] = self.hits_this_phase[t].saturating_add(roll.successes);
            }
            // R15.5: the firer's dice were rolled or lost: it has fired.
            Event::ShotsLost { unit, .. } => {
                let s = &mut self.units[unit.index()].state;
                s.fired = true;
                s.gone_to_ground = false;
            }
            Event::Pinned { unit } => self.units[unit.index()].state.pinned = true,
            Event::EyesAndEars {
                unit,
                target,
                passed,
                ..
            } => {
                self.units[unit.index()].state.observing = true;
                if *passed {
                    let t = &mut self.units[target.index()].state;
                    t.gone_to_ground = false;
                    t.revealed = true;
                }
            }
            _ => {}
        }
    }

    /// Assaults, overruns and melees (R9-R11): who went in, who fell back or broke off, who
    /// took the hex and who was captured.
    fn apply_assault(&mut self, event: &Event) {
        match event {
            Event::AssaultDeclared { attackers, .. } => {
                for a in attackers {
                    let s = &mut self.units[a.index()].state;
                    s.assaulted = true;
                    // R9.11: the assault ends its movement, whatever the outcome.
                    s.stopped = true;
                    s.gone_to_ground = false;
                }
            }
            Event::Retreated { unit, to, .. } => {
                self.put(*unit, Location::Map(*to));
                self.enter(*unit, 1);
            }
            Event::NoRetreat { unit } | Event::Captured { unit } => {
                self.put(*unit, Location::Destroyed);
            }
            Event::Occupied { unit, .. }
                if matches!(self.units[unit.index()].location, Location::Aboard(_)) => {}
            Event::Occupied { unit, hex, cost } => {
                let i = unit.index();
                self.put(*unit, Location::Map(*hex));
                self.enter(*unit, 1);
                self.spent[i] = self.spent[i].saturating_add(*cost);
            }
            Event::OverrunDeclared {
                unit, hex, cost, ..
            } => {
                let i = unit.index();
                self.enter(*unit, 1);
                self.overrun.push((*unit, *hex));
                self.spent[i] = self.spent[i].saturating_add(*cost);
                let s = &mut self.units[i].state;
                s.moved = true;
                s.assaulted = true;
                s.gone_to_ground = false;
            }
            Event::OverrunEnded {
                unit,
                at,
                broke_through,
            } => {
                self.put(*unit, Location::Map(*at));
                if *broke_through {
                    self.enter(*unit, 1);
                }
            }
            Event::Joined { unit, hex } | Event::Consolidated { unit, to: hex } => {
                self.put(*unit, Location::Map(*hex));
                self.enter(*unit, 1);
            }
            Event::BrokeOff { unit, path, .. } => {
                if let Some(&end) = path.last() {
                    self.put(*unit, Location::Map(end));
                }
                self.enter(*unit, path.len());
            }
            _ => {}
        }
    }

    /// What befalls a unit: hits (R6.6, R8.2) and what rallies it (R12).
    fn apply_to_unit(&mut self, event: &Event) {
        match event {
            Event::HitTaken { unit, effect } => {
                let s = &mut self.units[unit.index()].state;
                match effect {
                    HitEffect::Disorganized => s.disorganized = true,
                    HitEffect::Weakened => {
                        s.weakened = true;
                        s.disorganized = true;
                    }
                    HitEffect::Destroyed => self.put(*unit, Location::Destroyed),
                    HitEffect::NoEffect => {}
                }
            }
            Event::HqHit { unit, effect, .. } => {
                // R8.2: an HQ is weakened or destroyed, never disorganized by a hit.
                match effect {
                    HitEffect::Weakened => self.units[unit.index()].state.weakened = true,
                    HitEffect::Destroyed => self.put(*unit, Location::Destroyed),
                    HitEffect::Disorganized | HitEffect::NoEffect => {}
                }
            }
            Event::RallyTest {
                unit,
                marker,
                passed: true,
                ..
            } => {
                let s = &mut self.units[unit.index()].state;
                match marker {
                    Marker::Disorganized => s.disorganized = false,
                    Marker::Pinned => s.pinned = false,
                    Marker::Bogged => s.bogged = false,
                }
            }
            Event::Recovered { unit } => self.units[unit.index()].state.disorganized = false,
            _ => {}
        }
    }
}
