//! Our searches against petgraph's algorithms on the same graph (ARCHITECTURE.md keeps the
//! figures): `reachable` (a bounded Dijkstra with paths) against `petgraph::algo::dijkstra`
//! (costs of the whole graph, no paths, filtered to the budget after), and `cheapest_path`
//! against `petgraph::algo::astar` (the same path, `tests.rs` shows), the break-off, which
//! runs petgraph's `dijkstra`, against the bounded search over the same steps, and `field_to`
//! against petgraph's `dijkstra` from the goal.

use criterion::{Criterion, criterion_group, criterion_main};
use hexmap::{Budget, Hex, Label, Map, MoveClass, TerrainTable};
use petgraph::visit::EdgeRef;
use std::hint::black_box;

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
    // A break-off (R11.6) of 4 points away from a neighbouring hex: petgraph's Dijkstra, which
    // `break_off` runs, against the bounded search of `reachable` over the same steps.
    let away = Label::new(20, 21).to_hex();
    let step_away = |from: Hex, to: Hex| {
        if to.unsigned_distance_to(away) > from.unsigned_distance_to(away) {
            cost(from, to)
        } else {
            None
        }
    };
    g.bench_function("break_off_4_points/ours_petgraph_dijkstra", |b| {
        b.iter(|| {
            m.break_off(
                black_box(centre),
                away,
                Budget::points(4),
                |to| cost(centre, to),
                |_| true,
            )
        });
    });
    g.bench_function("break_off_4_points/bounded_search", |b| {
        b.iter(|| {
            let reach = m.reachable(black_box(centre), Budget::points(4), step_away);
            reach
                .hexes()
                .iter()
                .max_by_key(|h| h.unsigned_distance_to(away))
                .and_then(|&h| reach.path_to(&m, h))
        });
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
