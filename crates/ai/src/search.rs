//! `search`: the AI that looks ahead with the engine itself (R4.4). Each movement phase it
//! weighs a portfolio of plans for the side (Churchill and Buro's portfolio search, over whole
//! plans): the doctrine AI's own, bolder and more careful assault thresholds, no assault at
//! all, standing still, the objectives first (`contest.rs`: the defender next to every
//! objective, the attacker into every empty one it can reach, then the doctrine AI), for the
//! attacker its far units closing on the objectives (`contest::converge`), and the doctrine
//! AI's plan with one fighting unit held back. It plays
//! the game on from each plan on a fork of the game ([`game::Game::fork`], the public
//! simulation API: this phase by the plan, then its own scripts on its own side, the
//! objectives first and the doctrine AI, and `doctrine`, `doctrine@1` or its own scripts on
//! the enemy's, on dice of its own) for two game turns ([`HORIZON`], [`game::Game::advance_to`])
//! or to the end if sooner, weighs the position it reaches by the battle's outcome or, before
//! the end, by the evaluation (`evaluation/v1.rs`, `search@1`'s: the chance of a win a model
//! fitted to games gives it; `evaluation/mod.rs` is the candidate in the scenario's own terms,
//! [`Search::judging_by_the_latest`]), and plays the plan that scores best, spending its budget by sequential halving (Karnin,
//! Koren and Somekh, 2013): every plan gets a few playouts, the better half more, and so on
//! until one is left. It fires, deploys recon and places ambushes as the doctrine AI does.
//!
//! Deterministic: the budget counts playouts, never time, and the playouts' dice come from a
//! generator seeded from the AI's own generator (seeded from the game's seed) and the hash of
//! the position, never from the game's dice. The same game plays the same way on any thread.
//! One exception, for the caller who must stop at once (a signal): [`Search::stopping`] gives
//! it a flag that, once set, makes every playout left worth nothing, so that the AI plays its
//! first plan and the game ends in moments; that game is the caller's to throw away.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::plays::{Plays, Setting};
use counters::{Halt, Rules, State};
use game::{Game, Referee, Seat};
use model::{GameRng, Side, UnitId};

use crate::{Doctrine, DoctrineV1, own};

/// `search`: the AI that plays the game out to choose its movement. Its budget is the playouts
/// a movement phase may take; its assault threshold, the side's, is where its portfolio's
/// thresholds start from.
#[derive(Clone, Copy, Debug)]
pub struct Search {
    budget: u32,
    threshold: u16,
    plies: u32,
    stop: Option<&'static AtomicBool>,
    judge: Judge,
}

/// The evaluation a search weighs its playouts' ends by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Judge {
    /// The latest, in the scenario's own terms (`evaluation/mod.rs`).
    Latest,
    /// `search@1`'s, frozen (`evaluation/v1.rs`).
    V1,
}

impl Judge {
    fn attacker_wins(self, state: &State, rules: &Rules<'_>) -> f64 {
        match self {
            Self::Latest => crate::evaluation::attacker_wins(state, rules),
            Self::V1 => crate::evaluation::v1::attacker_wins(state, rules),
        }
    }
}

impl Search {
    /// The search AI with `budget` playouts a phase, for a side whose assault threshold is
    /// `threshold` (thousandths).
    #[must_use]
    pub const fn new(budget: u32, threshold: u16) -> Self {
        Self {
            budget,
            threshold,
            plies: HORIZON,
            stop: None,
            judge: Judge::V1,
        }
    }

    /// The same AI, weighing its playouts by the latest evaluation (`evaluation/mod.rs`, in the
    /// scenario's own terms) rather than `search@1`'s: issue 68's candidate, not yet the
    /// default, for in the arena it has not yet been found as strong (the note).
    #[must_use]
    pub const fn judging_by_the_latest(self) -> Self {
        Self {
            judge: Judge::Latest,
            ..self
        }
    }

    /// The same AI, its playouts looking `plies` player turns ahead ([`HORIZON`] by default;
    /// `u32::MAX`: to the end of the battle, as before issue 49).
    #[must_use]
    pub const fn looking(self, plies: u32) -> Self {
        Self { plies, ..self }
    }

    /// The same AI, thinking no more once `stop` is set (see the module's notes).
    #[must_use]
    pub const fn stopping(self, stop: Option<&'static AtomicBool>) -> Self {
        Self { stop, ..self }
    }

    fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

impl Plays for Search {
    const KIND: &'static str = "search";

    fn setting(&self) -> Setting {
        Setting::Budget(self.budget)
    }

    fn movement(&self, x: &mut dyn Referee<'_>, side: Side, skip: &[UnitId]) -> Result<(), Halt> {
        let own_threshold = f64::from(self.threshold) / 1000.0;
        let plans = portfolio(x, side, skip, own_threshold);
        let ai_rng = x.rng().clone();
        let seed = x.rng().clone().next_seed() ^ x.state().position_hash();
        let models = Models::new(x.game(), side);
        let rules = x.rules();
        let horizon = horizon(&rules, x.state().turn(), side, self.plies);
        let best = halve(plans.len(), self.budget, |p, n| {
            if self.stopped() {
                return Ok(0.0);
            }
            let dice = GameRng::for_game(seed, u64::from(n));
            let mut fork = x.game().fork(dice, ai_rng.clone(), models.seats(n));
            fork.play_with(|r| plans[p].play(r, side, skip, own_threshold))?;
            fork.advance_to(horizon.0, horizon.1)?;
            Ok::<f64, Halt>(value(fork.state(), &rules, side, self.judge))
        })?;
        plans[best].play(x, side, skip, own_threshold)
    }

    /// It fires as the doctrine AI does: it weighs its plans in the movement phase, where they
    /// differ.
    fn fire(&self, x: &mut dyn Referee<'_>, side: Side, skip: &[UnitId]) -> Result<(), Halt> {
        Plays::fire(&Doctrine::new(self.threshold), x, side, skip)
    }

    fn deploy(&self, x: &mut dyn Referee<'_>, side: Side, unit: UnitId) -> Result<(), Halt> {
        Plays::deploy(&Doctrine::new(self.threshold), x, side, unit)
    }

    fn ambushes(&self, x: &mut dyn Referee<'_>, side: Side) -> Result<(), Halt> {
        Plays::ambushes(&Doctrine::new(self.threshold), x, side)
    }

    fn thinks(&self) -> bool {
        true
    }
}

/// `search@1`: the search AI frozen as it was when it was first judged on scenarios no one
/// tuned on (issue 68), the reference a later search must beat. It is the search of today,
/// which judges by `search@1`'s evaluation (`evaluation/v1.rs`, frozen) until a better one is
/// found; its portfolio, playouts and scripts are today's too, and its games are pinned by a test (`tests/arena.rs`): a change of the search,
/// the doctrine AI or the objectives script that moves one of them must first keep today's code
/// for `search@1` (as `v1/` keeps `doctrine@1`).
#[derive(Clone, Copy, Debug)]
pub struct SearchV1(Search);

impl SearchV1 {
    /// `search@1` with `budget` playouts a phase, for a side whose assault threshold is
    /// `threshold` (thousandths).
    #[must_use]
    pub const fn new(budget: u32, threshold: u16) -> Self {
        let mut search = Search::new(budget, threshold);
        search.judge = Judge::V1;
        Self(search)
    }

    /// The same AI, thinking no more once `stop` is set.
    #[must_use]
    pub const fn stopping(self, stop: Option<&'static AtomicBool>) -> Self {
        Self(self.0.stopping(stop))
    }
}

impl Plays for SearchV1 {
    const KIND: &'static str = "search@1";

    fn setting(&self) -> Setting {
        self.0.setting()
    }

    fn movement(&self, x: &mut dyn Referee<'_>, side: Side, skip: &[UnitId]) -> Result<(), Halt> {
        self.0.movement(x, side, skip)
    }

    fn fire(&self, x: &mut dyn Referee<'_>, side: Side, skip: &[UnitId]) -> Result<(), Halt> {
        Plays::fire(&self.0, x, side, skip)
    }

    fn deploy(&self, x: &mut dyn Referee<'_>, side: Side, unit: UnitId) -> Result<(), Halt> {
        Plays::deploy(&self.0, x, side, unit)
    }

    fn ambushes(&self, x: &mut dyn Referee<'_>, side: Side) -> Result<(), Halt> {
        Plays::ambushes(&self.0, x, side)
    }

    fn thinks(&self) -> bool {
        true
    }
}

/// The AIs a playout seats: on the side's own seat its own scripts ([`Scripted`]: the
/// objectives first, then the doctrine AI), as it will play; on the enemy's, by playout in
/// turn, the doctrine AI, `doctrine@1` and its own scripts: the search does not know its
/// opponent, and a plan that beats only one way of playing is a gamble. Each plays with the
/// scenario's assault threshold for its side. The exploiter is none of them, nor built from
/// it.
struct Models {
    side: Side,
    own: Seat,
    enemy: [Seat; 3],
}

impl Models {
    fn new(game: &Game<'_>, side: Side) -> Self {
        let sides = &game.rules().scenario.sides;
        let (mine, theirs) = (
            sides[side.index()].assault_threshold,
            sides[side.other().index()].assault_threshold,
        );
        Self {
            side,
            own: Seat::ai(Arc::new(Scripted(Doctrine::new(mine)))),
            enemy: [
                Seat::ai(Arc::new(Doctrine::new(theirs))),
                Seat::ai(Arc::new(DoctrineV1::new(theirs))),
                Seat::ai(Arc::new(Scripted(Doctrine::new(theirs)))),
            ],
        }
    }

    /// The seats of playout `n`.
    fn seats(&self, n: u32) -> [Seat; 2] {
        let enemy = self.enemy[n as usize % self.enemy.len()].clone();
        let mut seats = [self.own.clone(), self.own.clone()];
        seats[self.side.other().index()] = enemy;
        seats
    }
}

/// The search's own scripts as a player: its objectives script ([`Plan::Contest`]) each
/// movement phase, the doctrine AI for the rest.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scripted(Doctrine);

impl Plays for Scripted {
    const KIND: &'static str = "scripted";

    fn movement(&self, x: &mut dyn Referee<'_>, side: Side, skip: &[UnitId]) -> Result<(), Halt> {
        Plan::Contest.play(x, side, skip, self.0.threshold())
    }

    fn fire(&self, x: &mut dyn Referee<'_>, side: Side, skip: &[UnitId]) -> Result<(), Halt> {
        Plays::fire(&self.0, x, side, skip)
    }

    fn deploy(&self, x: &mut dyn Referee<'_>, side: Side, unit: UnitId) -> Result<(), Halt> {
        Plays::deploy(&self.0, x, side, unit)
    }

    fn ambushes(&self, x: &mut dyn Referee<'_>, side: Side) -> Result<(), Halt> {
        Plays::ambushes(&self.0, x, side)
    }
}

/// How far the portfolio moves the side's assault threshold, down (bolder) and up (more
/// careful), and the bounds it keeps within.
const BOLDER: f64 = 0.2;
const CAREFUL: f64 = 0.15;
const THRESHOLD_RANGE: (f64, f64) = (0.2, 0.95);

/// A plan for a movement phase.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Plan {
    /// The doctrine AI's movement, with this assault threshold (`None`: the side's own) and,
    /// if named, one unit left where it stands.
    Doctrine {
        threshold: Option<f64>,
        hold: Option<UnitId>,
    },
    /// Every unit stands where it is.
    Stand,
    /// The objectives first (`contest.rs`: the defender next to every objective, the attacker
    /// into every empty one it can reach), then the doctrine AI's movement for the rest.
    Contest,
    /// The attacker's fighting units far from the objectives close on them
    /// (`contest::converge`), then the doctrine AI's movement for the rest.
    Converge,
}

impl Plan {
    /// Plays the plan for `side`, the units in `skip` left alone (they have orders); `own` is
    /// the side's assault threshold.
    fn play(
        self,
        x: &mut dyn Referee<'_>,
        side: Side,
        skip: &[UnitId],
        own: f64,
    ) -> Result<(), Halt> {
        match self {
            Self::Stand => Ok(()),
            Self::Contest | Self::Converge => {
                let script = if self == Self::Contest {
                    crate::contest::contest
                } else {
                    crate::contest::converge
                };
                let mut used = skip.to_vec();
                script(x, side, &mut used)?;
                Doctrine::movement_with(x, side, &used, own)
            }
            Self::Doctrine { threshold, hold } => {
                let mut skip = skip.to_vec();
                skip.extend(hold);
                Doctrine::movement_with(x, side, &skip, threshold.unwrap_or(own))
            }
        }
    }
}

/// The plans weighed for `side` this phase, the doctrine AI's own first (it wins ties). Only
/// fighting units are held back: an HQ, air defence or empty carrier held where it stands is
/// one the doctrine AI would have taken out of the enemy's reach (holding them back made the
/// search leave them next to the enemy twice as often, and scored no better).
fn portfolio(x: &dyn Referee<'_>, side: Side, skip: &[UnitId], own_threshold: f64) -> Vec<Plan> {
    let mut plans = vec![Plan::Doctrine {
        threshold: None,
        hold: None,
    }];
    let (lo, hi) = THRESHOLD_RANGE;
    for t in [
        (own_threshold - BOLDER).max(lo),
        (own_threshold + CAREFUL).min(hi),
        // No assault and no overrun: no chance is above certainty.
        1.0,
    ] {
        if (t - own_threshold).abs() > 1e-9 {
            plans.push(Plan::Doctrine {
                threshold: Some(t),
                hold: None,
            });
        }
    }
    plans.push(Plan::Stand);
    plans.push(Plan::Contest);
    let rules = x.rules();
    if rules.scenario.sides[side.index()].role == model::Role::Attacker {
        plans.push(Plan::Converge);
    }
    for unit in own(x.state(), side, skip)
        .into_iter()
        .filter(|&u| !crate::doctrine::soft(x.state(), &rules, u))
    {
        plans.push(Plan::Doctrine {
            threshold: None,
            hold: Some(unit),
        });
    }
    plans
}

/// How many player turns a playout looks ahead: from the side's movement phase through the
/// rest of its player turn, the enemy's, its own next and the enemy's next, it stops at the
/// start of the side's player turn two game turns on (or at the battle's end, if sooner),
/// where the evaluation weighs the position. One game turn (two player turns) or three player
/// turns scored below the search that played every playout to the end, in the arena against
/// the doctrine AIs and the exploiter; two game turns scored as it did (issue 49's note).
pub const HORIZON: u32 = 4;

/// The player turn `plies` player turns after `side`'s in game turn `turn`: the game turn and
/// the side.
fn horizon(rules: &Rules<'_>, turn: u32, side: Side, plies: u32) -> (u32, Side) {
    let first = rules.scenario.first;
    let at = (turn * 2 + u32::from(side != first)).saturating_add(plies);
    (
        at / 2,
        if at.is_multiple_of(2) {
            first
        } else {
            first.other()
        },
    )
}

/// What a playout is worth to `side`: 1 for a win, 0 for a loss, a half when both lose
/// (R17.4); where it stopped before the end, the chance of a win by the evaluation
/// (`judge`); and a hundredth for each unit of difference in losses, at most a tenth
/// either way, to tell apart plans that win or lose alike.
fn value(end: &State, rules: &Rules<'_>, side: Side, judge: Judge) -> f64 {
    let (result, mine, theirs) = if let Some(outcome) = end.outcome() {
        let result = match outcome.winner {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        (
            result,
            outcome.losses[side.index()],
            outcome.losses[side.other().index()],
        )
    } else {
        let attacker = judge.attacker_wins(end, rules);
        let result = if rules.scenario.side_with(model::Role::Attacker) == side {
            attacker
        } else {
            1.0 - attacker
        };
        (
            result,
            counters::losses(end, rules, side),
            counters::losses(end, rules, side.other()),
        )
    };
    let diff = f64::from(theirs.min(10)) - f64::from(mine.min(10));
    result + (diff / 100.0).clamp(-0.1, 0.1)
}

/// Sequential halving over `arms` options with `budget` trials in all: in each round every
/// option still in is tried the same number of new times (`score(option, n)` for the trials
/// `n` it has not had, the same `n` for every option, so that they meet the same luck), and
/// the better half by total score goes on, until one is left or the budget would not give
/// every option left a trial. Returns that option, the earlier on a tie; the first (the
/// doctrine AI's own plan) when the budget does not give every option one trial.
fn halve<E>(
    arms: usize,
    budget: u32,
    mut score: impl FnMut(usize, u32) -> Result<f64, E>,
) -> Result<usize, E> {
    let mut alive: Vec<usize> = (0..arms).collect();
    if arms <= 1 || usize::try_from(budget).unwrap_or(usize::MAX) < arms {
        return Ok(0);
    }
    let mut sums = vec![0.0; arms];
    let mut played = 0_u32;
    let mut rounds = arms.next_power_of_two().trailing_zeros().max(1);
    let mut spent = 0_u32;
    while alive.len() > 1 {
        let n = u32::try_from(alive.len()).unwrap_or(u32::MAX);
        let left = budget - spent;
        if left < n {
            break;
        }
        let each = (left / rounds.max(1) / n).clamp(1, left / n);
        for &p in &alive {
            for trial in played..played + each {
                sums[p] += score(p, trial)?;
            }
        }
        spent += each * n;
        played += each;
        alive.sort_by(|&a, &b| sums[b].total_cmp(&sums[a]).then(a.cmp(&b)));
        alive.truncate(alive.len().div_ceil(2));
        rounds = rounds.saturating_sub(1);
    }
    Ok(alive[0])
}

#[cfg(test)]
mod tests {
    use counters::Rules;
    use model::bundled;

    use super::{HORIZON, halve, horizon};
    use crate::tests::field;

    /// The horizon counts player turns: four on from a side's turn is the same side's turn two
    /// game turns on, three the enemy's next; a horizon out of reach is beyond any battle's end.
    #[test]
    fn the_horizon_is_counted_in_player_turns() {
        let catalog = bundled::catalog();
        for first in ["red", "blue"] {
            let s = field(first, "0601", "");
            let rules = Rules::new(&s, &catalog);
            let (a, b) = (s.first, s.first.other());
            assert_eq!(horizon(&rules, 1, a, HORIZON), (3, a));
            assert_eq!(horizon(&rules, 1, b, HORIZON), (3, b));
            assert_eq!(horizon(&rules, 2, a, 3), (3, b));
            assert_eq!(horizon(&rules, 2, b, 3), (4, a));
            assert_eq!(horizon(&rules, 5, b, 1), (6, a));
            let (turn, _) = horizon(&rules, 7, b, u32::MAX);
            assert!(turn > s.turns, "{turn}");
        }
    }

    /// Runs [`halve`] on options whose trials score `score(option, trial)`, and returns the
    /// option chosen and the trials spent.
    fn run(arms: usize, budget: u32, score: impl Fn(usize, u32) -> f64) -> (usize, u32) {
        let mut spent = 0;
        let best = halve::<()>(arms, budget, |p, n| {
            spent += 1;
            Ok(score(p, n))
        })
        .unwrap();
        (best, spent)
    }

    #[test]
    fn the_best_option_wins_within_the_budget() {
        for arms in 2_u32..40 {
            for budget in [arms, 64, 100, 256, 1000] {
                if budget < arms {
                    continue;
                }
                let (n, best) = (arms as usize, (arms * 2 / 3) as usize);
                let (chosen, spent) = run(n, budget, |p, _| if p == best { 1.0 } else { 0.5 });
                assert_eq!(chosen, best, "{arms} options, budget {budget}");
                assert!(spent <= budget, "{arms} options spent {spent} of {budget}");
                assert!(
                    spent + arms > budget,
                    "{arms} options left {spent} of {budget}"
                );
            }
        }
    }

    #[test]
    fn the_first_option_stands_on_a_tie_or_without_budget() {
        let (chosen, spent) = run(12, 200, |_, _| 0.5);
        assert_eq!(chosen, 0);
        assert!(spent <= 200);
        // A budget below one trial each weighs nothing.
        assert_eq!(run(12, 11, |p, _| p as f64), (0, 0));
        assert_eq!(run(1, 100, |_, _| 1.0), (0, 0));
    }

    #[test]
    fn every_option_left_meets_the_same_trials() {
        // Trial n of each option scores as the others' trial n, but for option 3's edge: a
        // noisy but shared luck must not hide it.
        let luck = |n: u32| f64::from((n * 7919) % 13) / 13.0;
        let (chosen, _) = run(9, 300, |p, n| luck(n) + if p == 3 { 0.01 } else { 0.0 });
        assert_eq!(chosen, 3);
    }
}
