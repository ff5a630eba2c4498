//! The odds do not depend on the order a matchup lists its units in: for random matchups, a
//! permutation of each side's units gives the same whole-melee odds, first-round odds (with
//! counterattacks off) and overrun odds, to 1e-12. And the R11.2 re-roll is granted only where a
//! listed HQ gives it: a matchup with no HQ is the same whatever unit comes first.

use counters::Rules;
use model::{UnitId, UnitState, bundled};
use odds::{
    Combatant, MATCHUP_DEFENDERS, assault_odds, matchup, matchup_state, melee_odds, overrun_odds,
};
use proptest::prelude::*;

const ATTACKERS: &[&str] = &[
    "t72",
    "t80",
    "mr_coy",
    "btr70",
    "vdv_coy",
    "at5_team",
    "hq_mrr",
    "hq_mrb",
    "hq_hero_sov",
];
const DEFENDERS: &[&str] = &[
    "mech_inf",
    "m113",
    "m1",
    "jaeger",
    "tow_team",
    "scouts_on_foot",
    "hq_tf",
    "hq_hero_nato",
    "m2",
];
const TERRAIN: &[&str] = &["clear", "city", "forest", "ruins", "hills"];

/// (type index, state: 0 fresh, 1 weakened, 2 disorganized)
type Spec = Vec<(usize, u8)>;

fn combatants(names: &[&str], spec: &Spec, attacking: bool) -> Vec<Combatant> {
    let catalog = bundled::catalog();
    spec.iter()
        .map(|&(t, st)| {
            let mut state = UnitState::default();
            match st {
                1 => state.weakened = true,
                // Attackers may not be shaken (R5.3): a disorganized attacker is weakened.
                2 if attacking => state.weakened = true,
                2 => state.disorganized = true,
                _ => {}
            }
            Combatant {
                type_id: catalog.id(names[t]).expect("a catalog type"),
                state,
            }
        })
        .collect()
}

struct Odds {
    melee: Option<(f64, Vec<f64>, Vec<f64>)>,
    first: (f64, f64, f64),
}

fn odds(att: &[Combatant], def: &[Combatant], terrain: &str, counterattacks: bool) -> Odds {
    let catalog = bundled::catalog();
    let table = bundled::terrain();
    let mut scenario = matchup(
        &catalog,
        &table,
        table.by_name(terrain).expect("terrain"),
        att,
        def,
    );
    scenario.rules.counterattacks = counterattacks;
    let rules = Rules::new(&scenario, &catalog);
    let state = matchup_state(&rules);
    let attackers = odds::matchup_attackers(&state);
    let hex = MATCHUP_DEFENDERS.to_hex();
    let m = melee_odds(
        &state,
        &rules,
        &attackers,
        hex,
        &ai::Players::of(rules.scenario).unwrap().advisors(),
    );
    let f = assault_odds(&state, &rules, &attackers, hex);
    Odds {
        melee: m.exact.then_some((
            m.attacker_wins,
            m.attacker_losses.destroyed,
            m.defender_losses.destroyed,
        )),
        first: (f.defender_destroyed, f.defender_retreats, f.defender_holds),
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12
}

fn same(a: &Odds, b: &Odds) -> Result<(), TestCaseError> {
    prop_assert!(
        close(a.first.0, b.first.0) && close(a.first.1, b.first.1) && close(a.first.2, b.first.2),
        "first round differs: {:?} vs {:?}",
        a.first,
        b.first
    );
    if let (Some(x), Some(y)) = (&a.melee, &b.melee) {
        prop_assert!(close(x.0, y.0), "attacker_wins {} vs {}", x.0, y.0);
        for (p, q) in x.1.iter().zip(&y.1).chain(x.2.iter().zip(&y.2)) {
            prop_assert!(
                close(*p, *q),
                "losses {:?}/{:?} vs {:?}/{:?}",
                x.1,
                x.2,
                y.1,
                y.2
            );
        }
    }
    Ok(())
}

fn side(max: usize, names: &'static [&'static str]) -> impl Strategy<Value = Spec> {
    prop::collection::vec((0..names.len(), 0u8..3), 1..=max)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn any_order_gives_the_same_odds(
        att in side(3, ATTACKERS),
        def in side(3, DEFENDERS),
        terrain in 0..TERRAIN.len(),
        counterattacks in any::<bool>(),
        rotate in 1usize..3,
    ) {
        let a = combatants(ATTACKERS, &att, true);
        let d = combatants(DEFENDERS, &def, false);
        // An assault needs a unit that rolls dice (R9.10, R8.1).
        let catalog = bundled::catalog();
        prop_assume!(a.iter().any(|c| {
            let t = catalog.get(c.type_id);
            t.assault.is_some() && (!t.is_hq() || t.hero)
        }));
        let base = odds(&a, &d, TERRAIN[terrain], counterattacks);
        let mut a2 = a.clone();
        a2.reverse();
        let mut d2 = d.clone();
        let n = d2.len();
        d2.rotate_left(rotate % n);
        same(&base, &odds(&a2, &d2, TERRAIN[terrain], counterattacks))?;
        let mut d3 = d.clone();
        d3.reverse();
        same(&base, &odds(&a, &d3, TERRAIN[terrain], counterattacks))?;
    }

    #[test]
    fn overrun_odds_do_not_depend_on_order(
        def in prop::collection::vec((0usize..3, 0u8..3), 1..=3),
        vehicle in 0usize..2,
    ) {
        let infantry = ["mech_inf", "jaeger", "tow_team"];
        let d = combatants(&infantry, &def, false);
        let a = combatants(&["t72", "t80"], &vec![(vehicle, 0)], true);
        let catalog = bundled::catalog();
        let table = bundled::terrain();
        let clear = table.by_name("clear").expect("clear");
        let of = |d: &[Combatant]| {
            let scenario = matchup(&catalog, &table, clear, &a, d);
                        let rules = Rules::new(&scenario, &catalog);
            let state = matchup_state(&rules);
            let o = overrun_odds(&state, &rules, UnitId(0), MATCHUP_DEFENDERS.to_hex());
            (o.all_break_through, o.defenders_destroyed)
        };
        let mut d2 = d.clone();
        d2.reverse();
        let (x, y) = (of(&d), of(&d2));
        prop_assert!(close(x.0, y.0) && close(x.1, y.1), "{x:?} vs {y:?}");
    }
}

/// The two commands: the order of the defenders no longer changes the answer, and with
/// no HQ listed neither side re-rolls.
#[test]
fn the_reported_pair_agrees() {
    let catalog = bundled::catalog();
    let c = |name: &str, disorganized: bool| Combatant {
        type_id: catalog.id(name).expect("type"),
        state: UnitState {
            disorganized,
            ..UnitState::default()
        },
    };
    let att = [c("mech_inf", false)];
    let one = odds(
        &att,
        &[c("scouts_on_foot", true), c("vdv_coy", false)],
        "clear",
        true,
    );
    let two = odds(
        &att,
        &[c("vdv_coy", false), c("scouts_on_foot", true)],
        "clear",
        true,
    );
    let (x, y) = (one.melee.expect("exact"), two.melee.expect("exact"));
    assert!(close(x.0, y.0), "{} vs {}", x.0, y.0);
}

/// The odds of an assault are those of the units in it: a unit of either side elsewhere on the
/// map (as in a real game, where `hexwar play` asks for odds) changes nothing.
#[test]
fn units_elsewhere_on_the_map_do_not_change_the_odds() {
    let catalog = bundled::catalog();
    let table = bundled::terrain();
    let att = combatants(ATTACKERS, &vec![(0, 0), (2, 0)], true);
    let def = combatants(DEFENDERS, &vec![(0, 0), (8, 0)], false);
    let clear = table.by_name("clear").expect("terrain");
    let alone = matchup(&catalog, &table, clear, &att, &def);
    let mut crowded = alone.clone();
    // A defender and an attacker far from the fight.
    for (side, at) in [(1, hexmap::Label::new(7, 7)), (0, hexmap::Label::new(1, 1))] {
        let mut u = crowded.units[crowded.units.len() - 1];
        if side == 0 {
            u = crowded.units[0];
        }
        u.id = UnitId::from_index(crowded.units.len());
        u.location = model::Location::Map(at.to_hex());
        crowded.units.push(u);
        crowded.unit_names.push(format!("far{side}"));
        crowded.arrivals.push(model::Arrival::OnMap);
    }
    let hex = MATCHUP_DEFENDERS.to_hex();
    let figures = |s: &model::Scenario| {
        let rules = Rules::new(s, &catalog);
        let state = matchup_state(&rules);
        let attackers: Vec<UnitId> = odds::matchup_attackers(&state);
        let m = melee_odds(
            &state,
            &rules,
            &attackers,
            hex,
            &ai::Players::of(rules.scenario).unwrap().advisors(),
        );
        let f = assault_odds(&state, &rules, &attackers, hex);
        (
            m.exact,
            m.attacker_wins,
            f.attacker_wins,
            f.defender_destroyed,
        )
    };
    let (a, b) = (figures(&alone), figures(&crowded));
    assert!(a.0 && b.0, "exact both times");
    for (x, y) in [(a.1, b.1), (a.2, b.2), (a.3, b.3)] {
        assert!((x - y).abs() < 1e-12, "{a:?} against {b:?}");
    }
}
