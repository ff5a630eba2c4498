//! Our searches against petgraph's algorithms on the same graph (ARCHITECTURE.md keeps the
//! figures): `reachable` (a bounded Dijkstra with paths) against `petgraph::algo::dijkstra`
//! (costs of the whole graph, no paths, filtered to the budget after) and against the same
//! answer built from petgraph (its `dijkstra` on the map filtered to the hexes within the
//! budget's distance, then the hexes in order and each one's way back, as `reachable` gives
//! them); `cheapest_path` against `petgraph::algo::astar` (the same path, `tests.rs` shows);
//! the break-off (`break_off_reach`, a bounded search over the steps away) against petgraph's
//! `dijkstra` over the same steps with the ways read back; and `field_to` against petgraph's
//! `dijkstra` from the goal.

use criterion::{Criterion, criterion_group, criterion_main};
use hexmap::{Budget, Hex, Label, Map, MoveClass, TerrainTable};
use petgraph::visit::EdgeRef;
use std::hint::black_box;

/// What petgraph's `dijkstra` gives, made into what our bounded searches give: the hexes
/// within `budget`, cheapest first (then by index), each with the neighbour it is cheapest
/// reached from (the lowest cost, then index), as `Map::reachable` and `Map::break_off_reach`
/// return them. `step` prices a step, `None` where it is not allowed; only the hexes within
/// `budget` hexes of `from` are searched (every step costs at least 1).
fn petgraph_bounded(
    m: &Map,
    from: Hex,
    budget: u32,
    step: impl Fn(Hex, Hex) -> Option<u32>,
) -> Vec<(Hex, u32, Option<usize>)> {
    let near = |h: Hex| h.unsigned_distance_to(from) <= budget;
    let allowed = petgraph::visit::EdgeFiltered::from_fn(m, |e| {
        near(m[e.target()]) && step(m[e.source()], m[e.target()]).is_some()
    });
    let costs = petgraph::algo::dijkstra(&allowed, m.node(from).unwrap(), None, |e| {
        step(m[e.source()], m[e.target()]).unwrap_or(u32::MAX / 4)
    });
    let mut settled: Vec<(u32, usize)> = costs
        .iter()
        .filter(|&(n, &c)| c <= budget && m[*n] != from)
        .map(|(n, &c)| (c, n.index()))
        .collect();
    settled.sort_unstable();
    settled
        .into_iter()
        .map(|(c, i)| {
            let h = m.hex_at(i);
            let back = m
                .neighbors(h)
                .filter_map(|p| {
                    let cp = *costs.get(&m.node(p)?)?;
                    (step(p, h).map(|s| cp + s) == Some(c)).then_some((cp, m.index(p)?))
                })
                .min()
                .map(|(_, p)| p);
            (h, c, back)
        })
        .collect()
}

/// A map with every kind of terrain in a fixed scatter.
fn map(cols: u16, rows: u16) -> Map {
    let table = TerrainTable::from_toml(include_str!("../../../data/terrain.toml")).unwrap();
    let ids: Vec<_> = table.iter().map(|(id, _)| id).collect();
    let mut m = Map::new(table.clone(), cols, rows, table.by_name("clear").unwrap());
    for (i, h) in m.hexes().collect::<Vec<_>>().into_iter().enumerate() {
        if i % 3 == 0 {
            m.set_terrain(h, ids[(i * 7) % ids.len()]);
        }
    }
    m
}

fn paths(c: &mut Criterion) {
    let m = map(40, 40);
    let cost = |_: Hex, to: Hex| m.enter_cost(MoveClass::Tracked, to);
    let graph = &m;
    let edge_cost =
        |e: hexmap::Step<'_>| cost(graph[e.source()], graph[e.target()]).unwrap_or(u32::MAX / 4);
    let centre = Label::new(20, 20).to_hex();
    let mut g = c.benchmark_group("paths");
    g.bench_function("reach_8_points/ours", |b| {
        b.iter(|| {
            m.reachable(black_box(centre), Budget::points(8), cost)
                .hexes()
                .len()
        });
    });
    g.bench_function("reach_8_points/petgraph_dijkstra", |b| {
        b.iter(|| {
            let all = petgraph::algo::dijkstra(
                graph,
                m.node(black_box(centre)).unwrap(),
                None,
                edge_cost,
            );
            all.values().filter(|&&c| c <= 8).count()
        });
    });
    g.bench_function("reach_8_points/petgraph_bounded_with_ways", |b| {
        b.iter(|| petgraph_bounded(&m, black_box(centre), 8, cost).len());
    });
    let (a, z) = (Label::new(1, 1).to_hex(), Label::new(40, 40).to_hex());
    g.bench_function("path_across_40x40/ours", |b| {
        b.iter(|| m.cheapest_path(black_box(a), z, cost));
    });
    g.bench_function("path_across_40x40/petgraph_astar", |b| {
        b.iter(|| {
            petgraph::algo::astar(
                graph,
                m.node(black_box(a)).unwrap(),
                |n| n == m.node(z).unwrap(),
                edge_cost,
                |n| graph[n].unsigned_distance_to(z),
            )
        });
    });
    // A break-off (R11.6) of 4 points away from a neighbouring hex: ours (`break_off_reach`,
    // the bounded search over the steps away) against petgraph's Dijkstra over the same steps
    // with the ways read back.
    let away = Label::new(20, 21).to_hex();
    let step_away = |from: Hex, to: Hex| {
        if to.unsigned_distance_to(away) > from.unsigned_distance_to(away) {
            cost(from, to)
        } else {
            None
        }
    };
    g.bench_function("break_off_4_points/ours", |b| {
        b.iter(|| {
            m.break_off_reach(black_box(centre), away, Budget::points(4), |to| {
                cost(centre, to)
            })
            .map(|r| r.hexes().len())
        });
    });
    g.bench_function("break_off_4_points/petgraph_bounded_with_ways", |b| {
        b.iter(|| petgraph_bounded(&m, black_box(centre), 4, step_away).len());
    });
    // A field towards one goal (every hex's cost and way there, for all the units heading
    // there): ours against petgraph's `dijkstra` from the goal over the steps taken backwards
    // (costs only, no way).
    let goal = Label::new(20, 20).to_hex();
    g.bench_function("field_40x40/ours", |b| {
        b.iter(|| m.field_to(black_box(goal), |i| m.enter_cost_at(MoveClass::Tracked, i)));
    });
    g.bench_function("field_40x40/petgraph_dijkstra", |b| {
        b.iter(|| {
            petgraph::algo::dijkstra(graph, m.node(black_box(goal)).unwrap(), None, |e| {
                m.enter_cost_at(MoveClass::Tracked, e.source().index())
                    .unwrap_or(u32::MAX / 4)
            })
        });
    });
    g.finish();
}

criterion_group!(benches, paths);
criterion_main!(benches);
