//! The exact whole-melee odds (R7-R11 as an absorbing Markov chain) over a table of matchups
//! within the stacking rules (R3.1: up to three units and an HQ defending; up to six units and
//! two HQs attacking, as an assault from several hexes may bring), from one unit a side to the
//! largest stacks: the table first, then mixes of armor, infantry, tank assault,
//! improvised tank assault, HQs, heroes, guns, weakened and disorganized units, on every
//! terrain. Each line is one `exact_melee_odds` call from scratch: the chain however long it
//! takes (`melee_odds` samples instead past `odds::MOVE_BUDGET`, about 150 ms of the chain's
//! work: the last line of the table).
//!
//! Run with `cargo bench -p benches --bench odds`; the median over the table is the figure the
//! issue asks for (README, performance).

use std::hint::black_box;

use counters::Rules;
use criterion::{Criterion, criterion_group, criterion_main};
use model::bundled;
use odds::{
    Combatant, MATCHUP_DEFENDERS, exact_melee_odds, matchup, matchup_attackers, matchup_state,
};

/// (attackers, defenders, terrain of the defended hex).
pub const TABLE: &[(&str, &str, &str)] = &[
    ("t72", "mech_inf", "city"),
    ("t72,mr_coy", "mech_inf,m2", "city"),
    ("t72,mr_coy,hq_mrr", "mech_inf,m2", "city"),
    ("t72,t72,mr_coy", "mech_inf,m2,tow_team", "city"),
    ("mr_coy", "mech_inf", "clear"),
    ("btr70,hq_mrr", "m113", "clear"),
    ("vdv_coy", "m60", "clear"),
    ("t80", "m1:disorganized", "clear"),
    ("mr_coy,mr_coy", "jaeger", "forest"),
    ("t72,t72", "jaeger,hq_hero_nato", "forest"),
    ("mech_inf", "mr_coy,hq_mrb", "ruins"),
    ("m1,m1,mech_inf", "t72,mr_coy", "clear"),
    ("t72,t72,t72", "m1,m1,mech_inf", "clear"),
    ("mr_coy,mr_coy,mr_coy", "mech_inf,jaeger,tow_team", "city"),
    ("vdv_coy,vdv_coy,hq_hero_sov", "m1,m2,jaeger", "clear"),
    ("t72,t72,mr_coy,mr_coy,hq_mrr", "mech_inf,m2,hq_tf", "city"),
    (
        "t72:weakened,mr_coy:weakened",
        "mech_inf:disorganized,m113",
        "clear",
    ),
    ("bmp2,bmp2,mr_coy", "mech_inf,tow_team,hq_tf", "hills"),
    ("mr_coy,mr_coy", "mt12,mech_inf", "clear"),
    (
        "mr_coy,mr_coy,mr_coy,vdv_coy,vdv_coy,vdv_coy,hq_mrr,hq_mrb",
        "jaeger,jaeger,mech_inf,hq_tf",
        "city",
    ),
    (
        "t72,t72,mr_coy,mr_coy,btr70,bmp2,hq_mrr,hq_mrb",
        "mech_inf,m2,tow_team,hq_tf",
        "city",
    ),
];

fn side(catalog: &model::Catalog, spec: &str) -> Vec<Combatant> {
    Combatant::parse_side(catalog, spec).unwrap()
}

fn melee(c: &mut Criterion) {
    let catalog = bundled::catalog();
    let table = bundled::terrain();
    let mut group = c.benchmark_group("melee_odds");
    group.sample_size(10);
    for (i, &(att, def, terrain)) in TABLE.iter().enumerate() {
        let scenario = matchup(
            &catalog,
            &table,
            table.by_name(terrain).unwrap(),
            &side(&catalog, att),
            &side(&catalog, def),
        );
        let rules = Rules::new(&scenario, &catalog);
        let state = matchup_state(&rules);
        let attackers = matchup_attackers(&state);
        let hex = MATCHUP_DEFENDERS.to_hex();
        let odds = exact_melee_odds(
            &state,
            &rules,
            &attackers,
            hex,
            &ai::Players::of(rules.scenario).unwrap().advisors(),
        )
        .expect("a fight the chain holds");
        assert!(odds.exact && odds.error_bound < 1e-9, "{att} vs {def}");
        let name = format!("{i:02} {att} vs {def} in {terrain}");
        group.bench_function(name, |b| {
            b.iter(|| {
                black_box(exact_melee_odds(
                    &state,
                    &rules,
                    &attackers,
                    hex,
                    &ai::Players::of(rules.scenario).unwrap().advisors(),
                ))
            });
        });
    }
    group.finish();
}

criterion_group!(benches, melee);
criterion_main!(benches);
