//! The odds and the engine resolve each step the same way, shown exactly: the engine is played
//! on every sequence of faces (scripted dice, depth first: a play that runs out of dice is
//! played again with each face appended), each complete play weighted by (1/6) per die, and the
//! sums are the odds to 1e-12, with no sampling. Small fights only (a few units a side, so that
//! the tree stays small): the first round (R9.8) with hit sharing (R7), HQ hits (R8.2) and tank
//! assault (R11.12); overruns (R10); a whole melee (R11), where the plays still going after
//! `MAX_DICE` dice are counted and bound the difference.

use counters::{PlayError, Rules, State};
use model::{AssaultOutcome, Command, Event, Scenario, ScriptedDice, bundled};
use odds::{
    Combatant, MATCHUP_DEFENDERS, assault_odds, matchup, matchup_attackers, matchup_state,
    melee_odds, overrun_odds, played,
};

/// A side as `hexwar odds` reads it: `t72,mr_coy:weakened`.
fn side(text: &str) -> Vec<Combatant> {
    Combatant::parse_side(&bundled::catalog(), text).expect("a side of catalog types")
}

fn field(attackers: &str, defenders: &str, terrain: &str, counterattacks: bool) -> Scenario {
    let catalog = bundled::catalog();
    let table = bundled::terrain();
    let mut scenario = matchup(
        &catalog,
        &table,
        table.by_name(terrain).expect("terrain"),
        &side(attackers),
        &side(defenders),
    );
    scenario.rules.counterattacks = counterattacks;
    scenario
}

/// Plays `command` from `start` on every sequence of faces of up to `max_dice` dice, calling
/// `visit` with each complete play's end, events and weight. Returns the weight of the plays
/// still going at `max_dice`.
fn every_face(
    start: &State,
    rules: &Rules<'_>,
    command: &Command,
    max_dice: usize,
    mut visit: impl FnMut(&State, &[Event], f64),
) -> f64 {
    let mut cut = 0.0;
    let mut plays = 0usize;
    let mut stack: Vec<Vec<u8>> = vec![Vec::new()];
    let mut state = start.clone();
    let players = ai::Players::of(rules.scenario).unwrap();
    while let Some(faces) = stack.pop() {
        let weight = (1.0f64 / 6.0).powi(i32::try_from(faces.len()).expect("few dice"));
        plays += 1;
        assert!(plays < 2_000_000, "too large a tree for a test");
        state.clone_from(start);
        match players.advisors().execute(
            &mut state,
            rules,
            command,
            &mut ScriptedDice::new(faces.clone()),
        ) {
            Ok(events) => visit(&state, &events, weight),
            Err(PlayError::Dice(_)) if faces.len() == max_dice => cut += weight,
            Err(PlayError::Dice(_)) => {
                for face in 1..=6 {
                    let mut longer = faces.clone();
                    longer.push(face);
                    stack.push(longer);
                }
            }
            Err(PlayError::Rule(why)) => panic!("the command is legal: {why:?}"),
            Err(PlayError::Asked(q)) => panic!("nobody answers from outside: {q:?}"),
        }
    }
    cut
}

fn assault(state: &State) -> Command {
    Command::Assault {
        units: matchup_attackers(state),
        hex: MATCHUP_DEFENDERS.to_hex(),
    }
}

fn close(a: f64, b: f64, within: f64) -> bool {
    (a - b).abs() <= within
}

/// R9.8 with R7, R8.2 and R11.12: the first round's odds (destroyed, retreat, hold, and the
/// distribution of hits each side scores) are the engine's on every face.
#[test]
fn the_first_round_is_the_engine_on_every_face() {
    for (attackers, defenders, terrain) in [
        ("at5_team", "tow_team", "clear"),
        ("at5_team,at5_team", "tow_team", "city"),
        ("at5_team", "tow_team,tow_team", "clear"),
        ("at5_team", "hq_tf", "clear"),
        ("at5_team,hq_mrb", "tow_team", "clear"),
        ("at5_team", "m113", "clear"),
        ("btr70", "tow_team:disorganized,m113", "forest"),
    ] {
        let what = format!("{attackers} vs {defenders} in {terrain}");
        let scenario = field(attackers, defenders, terrain, false);
        let catalog = bundled::catalog();
        let rules = Rules::new(&scenario, &catalog);
        let start = matchup_state(&rules);
        let odds = assault_odds(
            &start,
            &rules,
            &matchup_attackers(&start),
            MATCHUP_DEFENDERS.to_hex(),
        );
        assert!(odds.exact, "{what}");
        let (mut ends, mut on_def, mut on_att) = ([0.0; 3], vec![0.0; 64], vec![0.0; 64]);
        let cut = every_face(&start, &rules, &assault(&start), 16, |_, events, w| {
            for e in events {
                if let Event::AssaultResult {
                    attacker_hits,
                    defender_hits,
                    outcome,
                    ..
                } = e
                {
                    on_def[usize::from(*defender_hits)] += w;
                    on_att[usize::from(*attacker_hits)] += w;
                    ends[match outcome {
                        AssaultOutcome::DefendersDestroyed => 0,
                        AssaultOutcome::DefendersRetreat => 1,
                        AssaultOutcome::DefendersHold => 2,
                    }] += w;
                }
            }
        });
        assert!(cut < 1e-12, "{what}: {cut} of the plays needed more dice");
        let want = [
            odds.defender_destroyed,
            odds.defender_retreats,
            odds.defender_holds,
        ];
        for (i, (e, o)) in ends.iter().zip(want).enumerate() {
            assert!(
                close(*e, o, 1e-12),
                "{what}: outcome {i}: engine {e}, odds {o}"
            );
        }
        for (h, o) in odds.attacker_hits.iter().enumerate() {
            assert!(
                close(on_def[h], *o, 1e-12),
                "{what}: {h} hits on the defenders"
            );
        }
        for (h, o) in odds.defender_hits.iter().enumerate() {
            assert!(
                close(on_att[h], *o, 1e-12),
                "{what}: {h} hits on the attackers"
            );
        }
    }
}

/// R10: the overrun's odds (the vehicle breaks through, every defender destroyed) are the
/// engine's on every face, fresh or weakened.
#[test]
fn the_overrun_is_the_engine_on_every_face() {
    for (vehicle, defenders) in [
        ("btr70", "tow_team"),
        ("btr70", "tow_team:disorganized,at5_team"),
        ("btr70", "hq_tf"),
    ] {
        let what = format!("{vehicle} overruns {defenders}");
        let scenario = field(vehicle, defenders, "clear", false);
        let catalog = bundled::catalog();
        let rules = Rules::new(&scenario, &catalog);
        let start = matchup_state(&rules);
        let unit = matchup_attackers(&start)[0];
        let hex = MATCHUP_DEFENDERS.to_hex();
        let odds = overrun_odds(&start, &rules, unit, hex);
        let command = Command::Overrun { unit, hex };
        let (mut through, mut destroyed) = (0.0, 0.0);
        let cut = every_face(&start, &rules, &command, 16, |end, events, w| {
            if events.iter().any(|e| {
                matches!(
                    e,
                    Event::OverrunEnded {
                        broke_through: true,
                        ..
                    }
                )
            }) {
                through += w;
            }
            if end
                .units_in(hex, end.unit(unit).side.other())
                .next()
                .is_none()
            {
                destroyed += w;
            }
        });
        assert!(cut < 1e-12, "{what}: {cut} of the plays needed more dice");
        assert!(
            close(through, odds.all_break_through, 1e-12),
            "{what}: breaks through: engine {through}, odds {}",
            odds.all_break_through
        );
        assert!(
            close(destroyed, odds.defenders_destroyed, 1e-12),
            "{what}: defenders destroyed: engine {destroyed}, odds {}",
            odds.defenders_destroyed
        );
    }
}

/// R11: the whole melee's odds are the engine's on every face, within the weight of the plays
/// longer than the tree goes (counted, and small for these fights).
#[test]
fn the_melee_is_the_engine_on_every_face() {
    const MAX_DICE: usize = 9;
    for (attackers, defenders, terrain) in [
        ("at5_team", "tow_team", "clear"),
        ("btr70", "tow_team", "city"),
    ] {
        let what = format!("{attackers} vs {defenders} in {terrain}");
        let scenario = field(attackers, defenders, terrain, true);
        let catalog = bundled::catalog();
        let rules = Rules::new(&scenario, &catalog);
        let start = matchup_state(&rules);
        let attackers = matchup_attackers(&start);
        let hex = MATCHUP_DEFENDERS.to_hex();
        let odds = melee_odds(
            &start,
            &rules,
            &attackers,
            hex,
            &ai::Players::of(&scenario).unwrap().advisors(),
        );
        assert!(odds.exact, "{what}");
        let mut outcome = [0.0; 3];
        let cut = every_face(
            &start,
            &rules,
            &assault(&start),
            MAX_DICE,
            |end, events, w| {
                outcome[played(&start, end, events, &attackers, hex).outcome] += w;
            },
        );
        assert!(
            cut < 0.02,
            "{what}: {cut} of the plays needed more than {MAX_DICE} dice"
        );
        let want = [odds.attacker_wins, odds.defender_holds, odds.both_broken];
        for (i, (e, o)) in outcome.iter().zip(want).enumerate() {
            // The cut plays end somewhere: each outcome is off by at most their weight.
            assert!(
                *e <= o + 1e-12 && o <= e + cut + 1e-12,
                "{what}: outcome {i}: engine {e} (+ up to {cut} cut), odds {o}"
            );
        }
    }
}

/// The map's `hexes` that make every hex but `land` water.
fn water_but(land: &[&str]) -> String {
    (1..=6)
        .flat_map(|c| (1..=6).map(move |r| format!("{c:02}{r:02}")))
        .filter(|h| !land.contains(&h.as_str()))
        .map(|h| format!("\"{h}\" = \"water\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// An island around the assault of [`on_a_map`]: the defender's one way out from 0303 ends at
/// 0402 (0403 lies next to the hex), and 0204 and 0304 next to the hex are land.
const ISLAND: [&str; 9] = [
    "0101", "0606", "0605", "0302", "0303", "0403", "0402", "0204", "0304",
];

/// A position on a real map for [`the_map_decides_as_the_engine_on_every_face`]: Red's team at
/// 0302 assaults Blue's at 0303, `extra` units stand elsewhere and `hexes` are the map's.
fn on_a_map(counterattacks: bool, extra: &str, hexes: &str) -> Scenario {
    let text = format!(
        "title = \"on a map\"\nturns = 3\nfirst = \"red\"\n\n[rules]\ncounterattacks = {counterattacks}\n\n\
         [map]\ncolumns = 6\nrows = 6\ndefault = \"clear\"\nhexes = {{ {hexes} }}\n\n\
         [[sides]]\nid = \"red\"\nname = \"Red\"\nnation = \"soviet\"\nrole = \"attacker\"\n\n\
         [[sides]]\nid = \"blue\"\nname = \"Blue\"\nnation = \"nato\"\nrole = \"defender\"\n\n\
         [[formations]]\nid = \"r\"\nside = \"red\"\nhq = \"rhq\"\n\n\
         [[formations]]\nid = \"b\"\nside = \"blue\"\nhq = \"bhq\"\n\n\
         [[units]]\nid = \"rhq\"\ntype = \"hq_mrb\"\nformation = \"r\"\nat = \"0101\"\n\n\
         [[units]]\nid = \"bhq\"\ntype = \"hq_tf\"\nformation = \"b\"\nat = \"0606\"\n\n\
         [[units]]\nid = \"att\"\ntype = \"at5_team\"\nformation = \"r\"\nat = \"0302\"\n\n\
         [[units]]\nid = \"def\"\ntype = \"tow_team\"\nformation = \"b\"\nat = \"0303\"\n\n\
         {extra}\n[[objectives]]\nname = \"X\"\nat = \"0303\"\n"
    );
    model::ScenarioFile::parse("map.toml", &text)
        .validate(&bundled::catalog(), &bundled::terrain())
        .unwrap_or_else(|p| panic!("{p:?}\n{text}"))
}

/// The map's part, on a real map: the odds of each unit's fate are the engine's on every face.
/// R9.9: the only hex to retreat to, 0304, lies next to a Red unit outside the fight, so the
/// defender is destroyed instead of retreating; as a control, it is free. R11.6, R11.7: water
/// behind the attacker leaves it no hex to break off to, so it is captured when it loses. R11.4:
/// a team of the defenders' formation next to the hex joins their counterattack. R9.9 with R3.1:
/// a retreat ignores stacking (docs/rules.md), so a defender retreats into a hex already holding
/// three units of its side, and the odds count it so.
#[test]
fn the_map_decides_as_the_engine_on_every_face() {
    const MAX_DICE: usize = 9;
    let blocker =
        "[[units]]\nid = \"blocker\"\ntype = \"at5_team\"\nformation = \"r\"\nat = \"0305\"\n";
    let behind = ["0301", "0201", "0401", "0202", "0402"]
        .map(|h| format!("\"{h}\" = \"water\""))
        .join(", ");
    let helper =
        "[[units]]\nid = \"helper\"\ntype = \"tow_team\"\nformation = \"b\"\nat = \"0403\"\n";
    // Three teams of another Blue formation fill 0304, the retreat hex, to the stacking limit.
    let mut full = "[[formations]]\nid = \"b2\"\nside = \"blue\"\nhq = \"bhq2\"\n\n\
                    [[units]]\nid = \"bhq2\"\ntype = \"hq_tf\"\nformation = \"b2\"\nat = \"0605\"\n\n"
        .to_owned();
    for i in 0..3 {
        full.push_str(&format!(
            "[[units]]\nid = \"full{i}\"\ntype = \"tow_team\"\nformation = \"b2\"\nat = \"0304\"\n\n"
        ));
    }
    // A carrier company of the defenders with a team aboard; one of the attackers' with a team
    // aboard, assaulting alone beside `att`.
    let carrier = "[[units]]\nid = \"carrier\"\ntype = \"m113\"\nformation = \"b\"\nat = \"0303\"\n\n\
                   [[units]]\nid = \"riders\"\ntype = \"tow_team\"\nformation = \"b\"\naboard = \"carrier\"\n";
    let ride = "[[units]]\nid = \"ride\"\ntype = \"btr70\"\nformation = \"r\"\nat = \"0302\"\n\n\
                [[units]]\nid = \"rider\"\ntype = \"at5_team\"\nformation = \"r\"\naboard = \"ride\"\n";
    let carrier_stranded = format!("{carrier}\n{blocker}");
    // An unarmored truck of the defenders with a team aboard: it breaks off at once (R11.1) and
    // takes its riders; on a map of water it can go nowhere, and is captured with them.
    let truck = carrier.replace("m113", "m35");
    let sea = water_but(&["0302", "0303", "0101", "0606"]);
    let mounted = ride.replace("btr70", "bmp2");
    // An island: the defender's only way out ends at 0402, next to the attacker's hex, from
    // where there is no hex to fall back to; a Blue team of another formation next to the
    // assaulted hex keeps the attacker from consolidating into it (R11.9), so that the
    // defender, losing, is left next to it and captured (R11.10). Without that team the
    // attacker moves in and the defender goes free.
    let island = water_but(&ISLAND);
    let watcher = "[[formations]]\nid = \"b2\"\nside = \"blue\"\nhq = \"bhq2\"\n\n\
                   [[units]]\nid = \"bhq2\"\ntype = \"hq_tf\"\nformation = \"b2\"\nat = \"0605\"\n\n\
                   [[units]]\nid = \"watcher\"\ntype = \"tow_team\"\nformation = \"b2\"\nat = \"0204\"\n";
    // A carrier of the defenders' formation next to the hex, with a team aboard, that may join.
    let helper_carrier = "[[units]]\nid = \"helper\"\ntype = \"m113\"\nformation = \"b\"\nat = \"0403\"\n\n\
                          [[units]]\nid = \"hriders\"\ntype = \"tow_team\"\nformation = \"b\"\naboard = \"helper\"\n";
    for (what, extra, hexes) in [
        ("riders of the defenders", carrier, ""),
        ("riders of a truck", truck.as_str(), ""),
        ("riders of a truck at sea", truck.as_str(), sea.as_str()),
        ("riders with no retreat", carrier_stranded.as_str(), ""),
        ("riders of the attackers", ride, ""),
        ("mounted riders", mounted.as_str(), ""),
        ("captured after consolidation", watcher, island.as_str()),
        ("consolidation frees it", "", island.as_str()),
        ("blocked retreat", blocker, ""),
        ("free retreat", "", ""),
        ("retreat into a full hex", full.as_str(), ""),
        ("blocked break-off", "", behind.as_str()),
        ("a joiner", helper, ""),
        ("a joiner with riders", helper_carrier, ""),
    ] {
        for counterattacks in [false, true] {
            let what = format!("{what}, counterattacks {counterattacks}");
            let scenario = on_a_map(counterattacks, extra, hexes);
            let catalog = bundled::catalog();
            let rules = Rules::new(&scenario, &catalog);
            let start = matchup_state(&rules);
            let unit = |id: &str| scenario.unit_id(id).expect("a unit of the scenario");
            let (attackers, hex) = (
                // The carrier assaults alone (fewer dice), beside `att`; its riders with it
                // from a mounted-assault carrier (R16.1).
                match scenario.unit_id("ride") {
                    Some(ride) if what.starts_with("mounted") => vec![ride, unit("rider")],
                    Some(ride) => vec![ride],
                    None => vec![unit("att")],
                },
                "0303".parse::<hexmap::Label>().unwrap().to_hex(),
            );
            let odds = melee_odds(
                &start,
                &rules,
                &attackers,
                hex,
                &ai::Players::of(&scenario).unwrap().advisors(),
            );
            assert!(odds.exact, "{what}");
            let command = Command::Assault {
                units: attackers.clone(),
                hex,
            };
            // Each unit's fates, in `played`'s order: destroyed, captured, retreated, broke off,
            // stayed. A unit next to the hex that never joined is in no play's fates: it stayed.
            let ids: Vec<&str> = [
                "att", "def", "helper", "hriders", "carrier", "riders", "ride", "rider",
            ]
            .into_iter()
            .filter(|id| scenario.unit_id(id).is_some())
            .collect();
            let mut fates = vec![[0.0; 5]; ids.len()];
            let mut joined = 0.0;
            let mut first = [0.0; 3];
            let cut = every_face(&start, &rules, &command, MAX_DICE, |end, events, w| {
                let this = played(&start, end, events, &attackers, hex);
                first[this.first_round] += w;
                let these = this.fates;
                for (i, id) in ids.iter().enumerate() {
                    let f = these
                        .iter()
                        .find(|(u, _)| *u == unit(id))
                        .map_or(4, |x| x.1);
                    fates[i][f] += w;
                }
                // A unit takes each motivation test once (a mounted rider was listed twice).
                for e in events {
                    if let Event::MeleeTest { passed, failed, .. } = e {
                        let mut all: Vec<_> = passed.iter().chain(failed).collect();
                        all.sort();
                        let n = all.len();
                        all.dedup();
                        assert_eq!(all.len(), n, "{what}: a unit tested twice: {e:?}");
                    }
                }
                if events.iter().any(|e| matches!(e, Event::Joined { .. })) {
                    joined += w;
                }
            });
            // (Each figure is held within the weight of the cut plays, below; the mounted
            // assault rolls the most dice.)
            assert!(
                cut < if what.starts_with("mounted") {
                    0.05
                } else {
                    0.03
                },
                "{what}: {cut} of the plays needed more than {MAX_DICE} dice"
            );
            for (i, id) in ids.iter().enumerate() {
                // Without counterattacks nobody joins: a unit next to the hex has no line.
                let line = odds.units.iter().find(|l| l.units == [unit(id)]);
                assert!(
                    line.is_some()
                        || (*id == "helper" || *id == "hriders") && !counterattacks
                        || *id == "att" && !attackers.contains(&unit("att")),
                    "{what}: {id}"
                );
                let want = line.map_or([0.0, 0.0, 0.0, 0.0, 1.0], |l| {
                    [l.destroyed, l.captured, l.retreated, l.broke_off, l.stayed]
                });
                for (f, (e, o)) in fates[i].iter().zip(want).enumerate() {
                    assert!(
                        *e <= o + 1e-10 && o <= e + cut + 1e-10,
                        "{what}: {id}'s fate {f}: engine {e} (+ up to {cut} cut), odds {o}"
                    );
                }
            }
            // How the first round ends, riders counted (R9.8, R9.9, R16.2).
            let f = &odds.first_round_ends;
            for (i, (e, o)) in first
                .iter()
                .zip([f.destroyed, f.retreat, f.hold])
                .enumerate()
            {
                assert!(
                    *e <= o + 1e-10 && o <= e + cut + 1e-10,
                    "{what}: first round's end {i}: engine {e} (+ up to {cut} cut), odds {o}"
                );
            }
            let (att, def) = (&fates[0], &fates[1]);
            let of = |id: &str| fates[ids.iter().position(|i| *i == id).unwrap()];
            match what.split(',').next() {
                Some("riders of the defenders") => {
                    let riders = of("riders");
                    assert!(
                        riders[2] > 0.01
                            && riders[4] > 0.01
                            && (riders[3] > 0.01 || !counterattacks),
                        "{what}: the riders retreat, hold, or (dismounted) break off: {riders:?}"
                    );
                }
                Some("riders of a truck") if counterattacks => {
                    let (riders, truck) = (of("riders"), of("carrier"));
                    assert!(
                        riders[3] > 0.05 && (riders[3] - truck[3]).abs() < 1e-9,
                        "{what}: the riders break off with the truck (R11.1): {riders:?} {truck:?}"
                    );
                }
                Some("riders of a truck at sea") if counterattacks => {
                    let riders = of("riders");
                    assert!(
                        riders[1] > 0.01,
                        "{what}: the truck is captured with its riders: {riders:?}"
                    );
                }
                Some("riders with no retreat") => {
                    let riders = of("riders");
                    assert!(
                        riders[2] == 0.0 && riders[0] > 0.05,
                        "{what}: with the carrier, the riders never retreat: {riders:?}"
                    );
                }
                Some("mounted riders") => {
                    let rider = of("rider");
                    assert!(
                        rider[4] > 0.05 && (rider[3] > 0.01 || !counterattacks),
                        "{what}: the rider stays, or (dismounted) breaks off: {rider:?}"
                    );
                }
                Some("riders of the attackers") => {
                    let rider = of("rider");
                    assert!(
                        rider[4] > 0.05 && (rider[0] + rider[3] > 0.01 || !counterattacks),
                        "{what}: the rider stays, or (dismounted) is lost or breaks off: {rider:?}"
                    );
                }
                Some("captured after consolidation") => assert!(
                    def[1] > 0.01 || !counterattacks,
                    "{what}: the defender is captured next to the attacker: {def:?}"
                ),
                Some("consolidation frees it") => assert!(
                    def[1] == 0.0 && (def[3] > 0.01 || !counterattacks),
                    "{what}: the defender breaks off free: {def:?}"
                ),
                Some("blocked retreat") => assert!(
                    def[2] == 0.0 && def[0] > 0.05,
                    "{what}: the engine never retreats it: {def:?}"
                ),
                Some("free retreat" | "retreat into a full hex") => {
                    assert!(def[2] > 0.05, "{what}: the engine lets it retreat: {def:?}");
                }
                Some("a joiner" | "a joiner with riders") if counterattacks => {
                    assert!(joined > 0.05, "{what}: the helper joins at times: {joined}");
                    if what.contains("riders") {
                        let riders = of("hriders");
                        assert!(
                            riders[0] + riders[3] > 0.001,
                            "{what}: the riders dismount into the fight at times: {riders:?}"
                        );
                    }
                }
                _ if counterattacks => assert!(
                    att[1] > 0.01 && att[3] == 0.0,
                    "{what}: the engine captures it when it loses: {att:?}"
                ),
                _ => {}
            }
        }
    }
}

/// R3.1 with R11.6: where earlier break-offs may fill the hex a unit would break off to, so
/// that it goes elsewhere, the chain (which judges each way on the position at the start) gives
/// way to sampling, and says so. Two defenders on the island both break off to 0402, where two
/// Blue teams stand already: the second finds no room. With one team there, both fit, and the
/// odds are exact.
#[test]
fn a_way_that_earlier_break_offs_fill_is_sampled() {
    let catalog = bundled::catalog();
    for (standing, exact) in [(2, false), (1, true)] {
        let mut extra = "[[formations]]\nid = \"b2\"\nside = \"blue\"\nhq = \"bhq2\"\n\n\
                         [[units]]\nid = \"bhq2\"\ntype = \"hq_tf\"\nformation = \"b2\"\nat = \"0605\"\n\n\
                         [[units]]\nid = \"def2\"\ntype = \"tow_team\"\nformation = \"b\"\nat = \"0303\"\n\n"
            .to_owned();
        for i in 0..standing {
            extra.push_str(&format!(
                "[[units]]\nid = \"there{i}\"\ntype = \"tow_team\"\nformation = \"b2\"\nat = \"0402\"\n\n"
            ));
        }
        let scenario = on_a_map(true, &extra, &water_but(&ISLAND));
        let rules = Rules::new(&scenario, &catalog);
        let start = matchup_state(&rules);
        let odds = melee_odds(
            &start,
            &rules,
            &[scenario.unit_id("att").expect("att")],
            "0303".parse::<hexmap::Label>().unwrap().to_hex(),
            &ai::Players::of(&scenario).unwrap().advisors(),
        );
        assert_eq!(odds.exact, exact, "{standing} standing at 0402");
    }
}

/// Past the chain's budget (`odds::MOVE_BUDGET`, about 150 ms of its work) the odds sample the
/// engine instead, and say so: the largest line of the bench table, whose chain
/// `exact_melee_odds` still computes, every figure within four of the sample's standard errors
/// (at most half a point each).
#[test]
fn past_the_chains_budget_the_odds_are_sampled_and_agree_with_the_chain() {
    let scenario = field(
        "t72,t72,mr_coy,mr_coy,btr70,bmp2,hq_mrr,hq_mrb",
        "mech_inf,m2,tow_team,hq_tf",
        "city",
        true,
    );
    let catalog = bundled::catalog();
    let rules = Rules::new(&scenario, &catalog);
    let start = matchup_state(&rules);
    let attackers = matchup_attackers(&start);
    let hex = MATCHUP_DEFENDERS.to_hex();
    let players = ai::Players::of(&scenario).unwrap();
    let advisors = players.advisors();
    let sampled = melee_odds(&start, &rules, &attackers, hex, &advisors);
    assert!(
        !sampled.exact,
        "the chain's budget holds it: {}",
        sampled.states
    );
    assert_eq!(sampled.samples, odds::FALLBACK_SAMPLES);
    assert!(sampled.error_bound > 0.0 && sampled.error_bound <= 0.005);
    let exact = odds::exact_melee_odds(&start, &rules, &attackers, hex, &advisors)
        .expect("a fight the chain holds");
    assert!(exact.exact);
    // Half a point is the largest standard error any sampled chance has.
    let within = 4.0 * 0.005;
    for (what, s, e) in [
        ("attacker wins", sampled.attacker_wins, exact.attacker_wins),
        (
            "defender holds",
            sampled.defender_holds,
            exact.defender_holds,
        ),
        (
            "first round: retreat",
            sampled.first_round_ends.retreat,
            exact.first_round_ends.retreat,
        ),
    ] {
        assert!(close(s, e, within), "{what}: sampled {s}, exact {e}");
    }
    // The chain gives a line to units no rule tells apart (each unit's chance); the sample, a
    // line to each unit: a lumped line's figure is the mean of its units'.
    for e in &exact.units {
        let line = |u| {
            sampled
                .units
                .iter()
                .find(|s| s.units == [u])
                .expect("a unit's line")
        };
        let n = e.units.len() as f64;
        let mean =
            |f: fn(&odds::UnitFate) -> f64| e.units.iter().map(|&u| f(line(u))).sum::<f64>() / n;
        for (f, a, b) in [
            ("destroyed", mean(|l| l.destroyed), e.destroyed),
            ("broke off", mean(|l| l.broke_off), e.broke_off),
            ("stayed", mean(|l| l.stayed), e.stayed),
        ] {
            assert!(
                close(a, b, within),
                "{:?} {f}: sampled {a}, exact {b}",
                e.units
            );
        }
    }
}
