//! The exact odds agree with the real rules code: for a dozen matchups, 200,000 assaults (or
//! overruns) played through `execute` with the game's generator land within 4 standard errors
//! of every exact probability and mean.

use counters::Rules;
use model::{AssaultOutcome, Command, Event, GameRng, UnitId, bundled};
use odds::{Combatant, MATCHUP_DEFENDERS, assault_odds, matchup, matchup_state, overrun_odds};

const SAMPLES: u32 = 200_000;

fn side(catalog: &model::Catalog, spec: &str) -> Vec<Combatant> {
    Combatant::parse_side(catalog, spec).unwrap()
}

/// The matchup battlefield of `att vs def` in `terrain`, its start, and the attacking units.
fn setup(
    catalog: &model::Catalog,
    att: &str,
    def: &str,
    terrain: &str,
) -> (model::Scenario, counters::State, Vec<UnitId>) {
    let table = bundled::terrain();
    let scenario = matchup(
        catalog,
        &table,
        table.by_name(terrain).unwrap(),
        &side(catalog, att),
        &side(catalog, def),
    );
    let start = matchup_state(&counters::Rules::new(&scenario, catalog));
    let attackers = odds::matchup_attackers(&start);
    (scenario, start, attackers)
}

fn within(name: &str, what: &str, exact: f64, sampled: f64, se: f64) {
    let tolerance = 4.0 * se.max(1e-9);
    assert!(
        (exact - sampled).abs() <= tolerance,
        "{name}: {what}: exact {exact:.5}, sampled {sampled:.5} (4 SE = {tolerance:.5})"
    );
}

fn proportion(name: &str, what: &str, exact: f64, count: u32) {
    let n = f64::from(SAMPLES);
    let se = (exact * (1.0 - exact) / n).sqrt();
    within(name, what, exact, f64::from(count) / n, se);
}

fn mean_of(name: &str, what: &str, dist: &[f64], total: u64) {
    let m: f64 = dist.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
    let var: f64 = dist
        .iter()
        .enumerate()
        .map(|(k, p)| (k as f64 - m).powi(2) * p)
        .sum();
    let n = f64::from(SAMPLES);
    within(name, what, m, total as f64 / n, (var / n).sqrt());
}

#[test]
fn assault_odds_match_play() {
    let catalog = bundled::catalog();
    let cases = [
        ("btr70,hq_mrr", "m113", "clear"),
        ("mr_coy", "t72", "clear"),
        ("mr_coy", "t72", "city"),
        ("t72", "mech_inf:disorganized", "city"),
        ("t72,t72", "tow_team,tow_team", "clear"),
        ("t72", "hq_tf", "clear"),
        ("t72", "sa9,mech_inf", "clear"),
        ("mech_inf", "jaeger", "forest"),
        ("hq_hero_sov", "tow_team", "clear"),
        ("t80,t72:weakened", "m1", "clear"),
        ("vdv_coy,hq_mrb", "jaeger,hq_tf:weakened", "ruins"),
        ("m1", "mech_inf,mech_inf,mech_inf", "clear"),
    ];
    for (att, def, terrain) in cases {
        let name = format!("{att} vs {def} in {terrain}");
        let (scenario, start, attackers) = setup(&catalog, att, def, terrain);
        let rules = Rules::new(&scenario, &catalog);
        let hex = MATCHUP_DEFENDERS.to_hex();
        let odds = assault_odds(&start, &rules, &attackers, hex);
        let sum = odds.defender_destroyed + odds.defender_retreats + odds.defender_holds;
        assert!((sum - 1.0).abs() < 1e-12, "{name}: outcomes sum to {sum}");
        let command = Command::Assault {
            units: attackers.clone(),
            hex,
        };
        let mut rng = GameRng::seed_from_u64(0xA55A);
        let (mut destroyed, mut retreat, mut hold) = (0, 0, 0);
        let (mut att_hits, mut def_hits) = (0u64, 0u64);
        for _ in 0..SAMPLES {
            let mut state = start.clone();
            let events = ai::Players::of(rules.scenario)
                .unwrap()
                .advisors()
                .execute(&mut state, &rules, &command, &mut rng)
                .expect("a legal assault");
            for e in &events {
                if let Event::AssaultResult {
                    attacker_hits,
                    defender_hits,
                    outcome,
                    ..
                } = e
                {
                    def_hits += u64::from(*attacker_hits);
                    att_hits += u64::from(*defender_hits);
                    match outcome {
                        AssaultOutcome::DefendersDestroyed => destroyed += 1,
                        AssaultOutcome::DefendersRetreat => retreat += 1,
                        AssaultOutcome::DefendersHold => hold += 1,
                    }
                }
            }
        }
        proportion(
            &name,
            "defender_destroyed",
            odds.defender_destroyed,
            destroyed,
        );
        proportion(&name, "defender_retreats", odds.defender_retreats, retreat);
        proportion(&name, "defender_holds", odds.defender_holds, hold);
        proportion(
            &name,
            "attacker_wins",
            odds.attacker_wins,
            destroyed + retreat,
        );
        mean_of(&name, "attacker hits", &odds.attacker_hits, att_hits);
        mean_of(&name, "defender hits", &odds.defender_hits, def_hits);
    }
}

#[test]
fn overrun_odds_match_play() {
    let catalog = bundled::catalog();
    let table = bundled::terrain();
    for (att, def) in [
        ("t72", "mech_inf"),
        ("m1", "mech_inf:disorganized,tow_team"),
        ("t72:weakened", "jaeger,hq_tf"),
    ] {
        let name = format!("{att} overruns {def}");
        let clear = table.by_name("clear").unwrap();
        let scenario = matchup(
            &catalog,
            &table,
            clear,
            &side(&catalog, att),
            &side(&catalog, def),
        );
        let rules = Rules::new(&scenario, &catalog);
        let start = matchup_state(&rules);
        let hex = MATCHUP_DEFENDERS.to_hex();
        let odds = overrun_odds(&start, &rules, UnitId(0), hex);
        let command = Command::Overrun {
            unit: UnitId(0),
            hex,
        };
        let mut rng = GameRng::seed_from_u64(0x0E44);
        let (mut through, mut wiped) = (0, 0);
        for _ in 0..SAMPLES {
            let mut state = start.clone();
            let events = ai::Players::of(rules.scenario)
                .unwrap()
                .advisors()
                .execute(&mut state, &rules, &command, &mut rng)
                .expect("a legal overrun");
            through += u32::from(events.iter().any(|e| {
                matches!(
                    e,
                    Event::OverrunEnded {
                        broke_through: true,
                        ..
                    }
                )
            }));
            wiped += u32::from(state.units_in(hex, model::Side::B).next().is_none());
        }
        proportion(&name, "all_break_through", odds.all_break_through, through);
        proportion(
            &name,
            "defenders_destroyed",
            odds.defenders_destroyed,
            wiped,
        );
    }
}

/// The battlefield of a matchup written as a scenario file and loaded by the scenario loader, as
/// any game's is: the same open 7 x 7 field and hexes as `matchup`, one formation a side whose HQ
/// is the HQ the side lists (at most one here), or, where a side lists none, an HQ held in reserve
/// off the map that never arrives, so that no HQ is in the fight and nobody re-rolls (R11.2).
/// Choices are melee orders, as a player would write them. The odds are computed on `matchup`'s
/// own battlefield: the two cannot share a mistake of the harness.
fn scenario_text(
    catalog: &model::Catalog,
    att: &str,
    def: &str,
    terrain: &str,
    choices: [&str; 2],
) -> String {
    let mut units = String::new();
    let mut hqs = [None, None];
    let mut orders = String::new();
    for (i, (spec, side, at)) in [(att, "red", "0304"), (def, "blue", "0404")]
        .into_iter()
        .enumerate()
    {
        for (j, item) in spec.split(',').enumerate() {
            let mut parts = item.split(':');
            let typ = parts.next().unwrap();
            let id = format!("{side}{j}");
            let mut state = String::new();
            for p in parts {
                state.push_str(&format!("{p} = true\n"));
            }
            units.push_str(&format!(
                "[[units]]\nid = \"{id}\"\ntype = \"{typ}\"\nformation = \"f{side}\"\nat = \"{at}\"\n{state}\n"
            ));
            // The formation's HQ is the senior one listed, as `matchup` picks it: the highest
            // leadership, then catalog order.
            let t = catalog.id(typ).unwrap();
            if catalog.get(t).is_hq() {
                let rank = (std::cmp::Reverse(catalog.get(t).leadership_value(false)), t);
                if hqs[i].as_ref().is_none_or(|(r, _)| rank < *r) {
                    hqs[i] = Some((rank, id.clone()));
                }
            }
            let melee = match choices[i] {
                "always" => Some("counterattack"),
                "never" => Some("break_off"),
                _ => None,
            };
            if let Some(m) = melee {
                orders.push_str(&format!(
                    "[[orders]]\nturn = 1\ndo = \"melee {id} {m}\"\n\n"
                ));
            }
        }
    }
    let mut formations = String::new();
    for (i, side) in ["red", "blue"].into_iter().enumerate() {
        let hq = hqs[i].clone().map(|(_, id)| id).unwrap_or_else(|| {
            let hq_type = if side == "red" { "hq_mrb" } else { "hq_tf" };
            units.push_str(&format!(
                "[[units]]\nid = \"{side}_hq\"\ntype = \"{hq_type}\"\nformation = \"f{side}\"\nreserve = {{ turn = 99, zone = [\"0101\"] }}\n\n"
            ));
            format!("{side}_hq")
        });
        formations.push_str(&format!(
            "[[formations]]\nid = \"f{side}\"\nside = \"{side}\"\nhq = \"{hq}\"\n\n"
        ));
    }
    format!(
        "title = \"odds against play\"\nturns = 1\nfirst = \"red\"\n\n[rules]\nstacking_limit = 12\n\n\
         [map]\ncolumns = 7\nrows = 7\ndefault = \"clear\"\nhexes = {{ \"0404\" = \"{terrain}\" }}\n\n\
         [[sides]]\nid = \"red\"\nname = \"Red\"\nnation = \"soviet\"\nrole = \"attacker\"\n\n\
         [[sides]]\nid = \"blue\"\nname = \"Blue\"\nnation = \"nato\"\nrole = \"defender\"\n\n\
         {formations}{units}{orders}"
    )
}

/// Holds the whole-melee odds of `att vs def` to 200,000 assaults played by the engine: every
/// figure within 4 standard errors (outcomes, how the defenders end, each side's losses, each
/// unit's fate), and the figures summing to 1 within 1e-12.
fn melee_against_play(
    catalog: &model::Catalog,
    att: &str,
    def: &str,
    terrain: &str,
    choices: [&str; 2],
) {
    let table = bundled::terrain();
    let name = format!("{att} vs {def} in {terrain}, choices {choices:?} (melee)");
    // The odds, on the odds' own battlefield.
    let (mut odds_field, odds_start, odds_attackers) = setup(catalog, att, def, terrain);
    for (side, c) in [(model::Side::A, choices[0]), (model::Side::B, choices[1])] {
        odds::set_choices(&mut odds_field, side, c.parse().unwrap());
    }
    let odds_rules = Rules::new(&odds_field, catalog);
    let hex = MATCHUP_DEFENDERS.to_hex();
    // The chain however long it takes: the largest stacks pass the default budget.
    let odds = odds::exact_melee_odds(
        &odds_start,
        &odds_rules,
        &odds_attackers,
        hex,
        &ai::Players::of(odds_rules.scenario).unwrap().advisors(),
    )
    .unwrap_or_else(|| panic!("{name}: a fight the chain holds"));
    assert!(odds.exact, "{name}: computed exactly");
    assert!(odds.error_bound < 1e-9, "{name}: {}", odds.error_bound);
    let sums_to_one = |what: &str, total: f64| {
        assert!((total - 1.0).abs() < 1e-12, "{name}: {what} sum to {total}");
    };
    sums_to_one(
        "outcomes",
        odds.attacker_wins + odds.defender_holds + odds.both_broken,
    );
    let e = &odds.defenders_end;
    sums_to_one(
        "the defenders' ends",
        e.held + e.destroyed + e.retreated + e.broke_off,
    );
    for l in [&odds.attacker_losses, &odds.defender_losses] {
        sums_to_one("losses", l.destroyed.iter().sum());
        sums_to_one("weakened", l.weakened.iter().sum());
    }
    for u in &odds.units {
        sums_to_one(
            &format!("{}'s fates", u.kind),
            u.destroyed + u.captured + u.retreated + u.broke_off + u.stayed,
        );
    }
    // The games, on a battlefield loaded from scenario text.
    let text = scenario_text(catalog, att, def, terrain, choices);
    let scenario = model::ScenarioFile::parse("odds.toml", &text)
        .validate(catalog, &table)
        .unwrap_or_else(|p| panic!("{name}: {p:?}\n{text}"));
    let rules = Rules::new(&scenario, catalog);
    let start = matchup_state(&rules);
    let attackers = odds::matchup_attackers(&start);
    let command = Command::Assault {
        units: attackers.clone(),
        hex,
    };
    let mut rng = GameRng::seed_from_u64(0x3E1E);
    let mut outcome = [0u32; 3];
    let mut end = [0u32; 4];
    let (mut destroyed, mut weakened) = ([0u64; 2], [0u64; 2]);
    // Fates by the unit's place in the matchup (the scenario lists units as the odds do).
    let mut fates: Vec<[u32; 5]> = vec![[0; 5]; start.units().len()];
    for _ in 0..SAMPLES {
        let mut state = start.clone();
        let events = ai::Players::of(rules.scenario)
            .unwrap()
            .advisors()
            .execute(&mut state, &rules, &command, &mut rng)
            .expect("a legal assault");
        let p = odds::played(&start, &state, &events, &attackers, hex);
        outcome[p.outcome] += 1;
        end[p.defenders_end] += 1;
        for i in 0..2 {
            destroyed[i] += p.destroyed[i] as u64;
            weakened[i] += p.weakened[i] as u64;
        }
        for (u, f) in p.fates {
            fates[u.index()][f] += 1;
        }
    }
    proportion(&name, "attacker_wins", odds.attacker_wins, outcome[0]);
    proportion(&name, "defender_holds", odds.defender_holds, outcome[1]);
    proportion(&name, "both_broken", odds.both_broken, outcome[2]);
    proportion(&name, "defenders held", e.held, end[0]);
    proportion(&name, "defenders destroyed", e.destroyed, end[1]);
    proportion(&name, "defenders retreated", e.retreated, end[2]);
    proportion(&name, "defenders broke off", e.broke_off, end[3]);
    for (i, l) in [&odds.attacker_losses, &odds.defender_losses]
        .into_iter()
        .enumerate()
    {
        mean_of(&name, "units destroyed", &l.destroyed, destroyed[i]);
        mean_of(&name, "units weakened", &l.weakened, weakened[i]);
    }
    // Each unit's fate: the odds give the chance of each unit of a line (units no rule tells
    // apart share one); play counts each unit, so the line's units are pooled. Their fates are
    // correlated, so the standard error of one unit's (the larger) is used.
    for u in &odds.units {
        let n = u32::try_from(u.units.len()).unwrap();
        let pooled = |f: usize| u.units.iter().map(|x| fates[x.index()][f]).sum::<u32>();
        for (f, what, exact) in [
            (0, "destroyed", u.destroyed),
            (1, "captured", u.captured),
            (2, "retreated", u.retreated),
            (3, "broke off", u.broke_off),
            (4, "stayed", u.stayed),
        ] {
            let se = (exact * (1.0 - exact) / f64::from(SAMPLES)).sqrt();
            let sampled = f64::from(pooled(f)) / f64::from(SAMPLES * n);
            within(&name, &format!("{} {what}", u.kind), exact, sampled, se);
        }
    }
}

#[test]
fn melee_odds_match_play() {
    let catalog = bundled::catalog();
    let cases = [
        ("mr_coy", "mech_inf", "clear", ["doctrine", "doctrine"]),
        ("t72", "mech_inf", "clear", ["doctrine", "doctrine"]),
        ("mr_coy,hq_mrb", "jaeger", "city", ["doctrine", "doctrine"]),
        (
            "t72,mr_coy",
            "mech_inf,m113",
            "clear",
            ["doctrine", "doctrine"],
        ),
        ("vdv_coy", "m60", "clear", ["doctrine", "doctrine"]),
        ("btr70,hq_mrr", "m2", "forest", ["doctrine", "doctrine"]),
        (
            "mech_inf",
            "mr_coy,hq_mrb",
            "ruins",
            ["doctrine", "doctrine"],
        ),
        ("t80", "m1:disorganized", "clear", ["doctrine", "doctrine"]),
        // The pair: no HQ listed, so nobody re-rolls, whatever comes first.
        (
            "mech_inf",
            "scouts_on_foot:disorganized,vdv_coy",
            "clear",
            ["doctrine", "doctrine"],
        ),
        (
            "mech_inf",
            "vdv_coy,scouts_on_foot:disorganized",
            "clear",
            ["doctrine", "doctrine"],
        ),
        // An HQ with the defenders lets them re-roll their first test, then leaves (R11.1).
        ("t72", "mech_inf,hq_tf", "clear", ["never", "always"]),
        (
            "t72,t72",
            "jaeger,hq_hero_nato",
            "forest",
            ["always", "always"],
        ),
        (
            "vdv_coy,hq_hero_sov",
            "mech_inf",
            "ruins",
            ["always", "never"],
        ),
        ("t72", "mech_inf", "forest", ["always", "doctrine"]),
        // A gun in the hex is captured when its side breaks off (R11.7).
        ("mr_coy,mr_coy", "mt12", "clear", ["always", "always"]),
    ];
    for (att, def, terrain, choices) in cases {
        melee_against_play(&catalog, att, def, terrain, choices);
    }
}

/// Full stacks: three units and an HQ defending (R3.1), up to six and two HQs attacking, with
/// identical units, tank assault, improvised tank assault and bog checks.
#[test]
fn melee_odds_of_full_stacks_match_play() {
    let catalog = bundled::catalog();
    let cases = [
        (
            "t72,t72,mr_coy",
            "mech_inf,m2,tow_team",
            "city",
            ["doctrine", "doctrine"],
        ),
        (
            "t72,t72,mr_coy,mr_coy,hq_mrr",
            "mech_inf,m2,hq_tf",
            "city",
            ["doctrine", "doctrine"],
        ),
        (
            "vdv_coy,vdv_coy,hq_hero_sov",
            "m1,m2,jaeger",
            "clear",
            ["always", "always"],
        ),
        (
            "mr_coy,mr_coy,mr_coy,vdv_coy,vdv_coy,vdv_coy,hq_mrr,hq_mrb",
            "jaeger,jaeger,mech_inf,hq_tf",
            "forest",
            ["doctrine", "doctrine"],
        ),
    ];
    for (att, def, terrain, choices) in cases {
        melee_against_play(&catalog, att, def, terrain, choices);
    }
}

/// Random matchups within the stacking rules (up to three units and an HQ a side, each unit
/// fresh, disorganized or weakened, any terrain, any choices), from a fixed seed: the odds
/// agree with play.
#[test]
fn melee_odds_of_random_matchups_match_play() {
    let catalog = bundled::catalog();
    let attackers = [
        "t72", "t80", "mr_coy", "btr70", "bmp2", "vdv_coy", "at5_team", "mt12",
    ];
    let defenders = [
        "mech_inf", "m1", "m2", "m113", "jaeger", "tow_team", "m198", "sa9",
    ];
    let hqs = [
        ["hq_mrr", "hq_mrb", "hq_hero_sov"],
        ["hq_tf", "hq_bde", "hq_hero_nato"],
    ];
    let terrains = ["clear", "city", "forest", "ruins", "hills"];
    let kinds = ["doctrine", "always", "never"];
    let mut rng = GameRng::seed_from_u64(0xF1E1D);
    let mut pick = |n: usize| -> usize {
        use model::Dice as _;
        let d = rng.d6().unwrap_or(1) as usize * 6 + rng.d6().unwrap_or(1) as usize;
        d % n
    };
    let mut played = 0;
    for _ in 0..5 {
        let mut sides = [String::new(), String::new()];
        for (i, (names, s)) in [attackers, defenders].iter().zip(&mut sides).enumerate() {
            let n = 1 + pick(3);
            let mut list: Vec<String> = (0..n)
                .map(|_| {
                    let t = names[pick(names.len())];
                    // Attackers may not be shaken (R5.3); guns do not assault.
                    match (pick(3), i) {
                        (1, 1) => format!("{t}:disorganized"),
                        (2, _) if catalog.get(catalog.id(t).unwrap()).steps == 2 => {
                            format!("{t}:weakened")
                        }
                        _ => t.to_owned(),
                    }
                })
                .filter(|t| i == 1 || !t.starts_with("mt12"))
                .collect();
            if list.is_empty() {
                list.push(names[0].to_owned());
            }
            if pick(2) == 0 {
                list.push(hqs[i][pick(3)].to_owned());
            }
            *s = list.join(",");
        }
        let terrain = terrains[pick(terrains.len())];
        let choices = [kinds[pick(3)], kinds[pick(3)]];
        // Only assaults the rules allow (R5.1, R9.10...).
        let (field, start, ids) = setup(&catalog, &sides[0], &sides[1], terrain);
        let rules = Rules::new(&field, &catalog);
        let command = Command::Assault {
            units: ids,
            hex: MATCHUP_DEFENDERS.to_hex(),
        };
        if counters::check(&start, &rules, &command).is_err() {
            continue;
        }
        eprintln!(
            "random matchup: {} vs {} in {terrain}, {choices:?}",
            sides[0], sides[1]
        );
        melee_against_play(&catalog, &sides[0], &sides[1], terrain, choices);
        played += 1;
    }
    assert!(played >= 3, "most random matchups are legal assaults");
}
