use proptest::prelude::*;

use super::*;

fn table() -> TerrainTable {
    TerrainTable::from_toml(include_str!("../../../data/terrain.toml")).unwrap()
}

fn map(cols: u16, rows: u16) -> Map {
    let t = table();
    let clear = t.by_name("clear").unwrap();
    Map::new(t, cols, rows, clear)
}

fn h(label: &str) -> Hex {
    label.parse::<Label>().unwrap().to_hex()
}

fn set(map: &mut Map, label: &str, terrain: &str) {
    let id = map.table().by_name(terrain).unwrap();
    assert!(map.set_terrain(h(label), id));
}

fn labels(map: &Map, hexes: impl IntoIterator<Item = Hex>) -> Vec<String> {
    let mut v: Vec<String> = hexes
        .into_iter()
        .map(|x| map.label(x).to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn every_label_of_a_99_by_99_map_round_trips() {
    let m = map(99, 99);
    let mut seen = std::collections::HashSet::new();
    for col in 1..=99 {
        for row in 1..=99 {
            let label = Label::new(col, row);
            let text = label.to_string();
            assert_eq!(text.len(), 4);
            assert_eq!(text.parse::<Label>(), Ok(label));
            let hex = label.to_hex();
            assert!(seen.insert(hex), "two labels share {hex:?}");
            assert_eq!(Label::from_hex(hex), Some(label));
            assert_eq!(m.label(m.hex(label).unwrap()), label);
        }
    }
    assert_eq!(m.len(), 99 * 99);
}

#[test]
fn malformed_labels_are_rejected() {
    for bad in [
        "0000", "0100", "0001", "12", "03a4", "", "03 4", "-304", "030405x",
    ] {
        assert!(bad.parse::<Label>().is_err(), "{bad} parsed");
    }
    assert!(matches!("0100".parse::<Label>(), Err(LabelError::Zero(_))));
    assert!(matches!(
        "ab12".parse::<Label>(),
        Err(LabelError::Malformed(_))
    ));
}

#[test]
fn off_map_labels_have_no_hex() {
    let m = map(10, 8);
    assert!(m.hex(Label::new(10, 8)).is_some());
    assert!(m.hex(Label::new(11, 1)).is_none());
    assert!(m.hex(Label::new(1, 9)).is_none());
}

#[test]
fn odd_columns_sit_half_a_hex_lower() {
    // R0.4: 0101 touches 0201 and 0202; 0202 (a high column) touches 0101 and 0102.
    let m = map(5, 5);
    assert_eq!(labels(&m, m.neighbors(h("0101"))), ["0102", "0201", "0202"]);
    assert_eq!(
        labels(&m, m.neighbors(h("0202"))),
        ["0101", "0102", "0201", "0203", "0301", "0302"]
    );
    assert_eq!(
        labels(&m, m.neighbors(h("0303"))),
        ["0203", "0204", "0302", "0304", "0403", "0404"]
    );
}

#[test]
fn the_graph_has_an_edge_per_neighbouring_pair() {
    let m = map(6, 4);
    for hex in m.hexes() {
        let n: Vec<Hex> = m.neighbors(hex).collect();
        assert!(n.len() <= 6 && n.len() >= 2);
        for x in n {
            assert_eq!(x.unsigned_distance_to(hex), 1);
            assert!(m.neighbors(x).any(|y| y == hex));
        }
    }
}

#[test]
fn reach_respects_costs_and_the_one_hex_allowance() {
    let mut m = map(5, 5);
    set(&mut m, "0302", "forest");
    let start = h("0303");
    let reach = m.reachable(start, Budget::points(1), |_, to| {
        m.enter_cost(MoveClass::Tracked, to)
    });
    assert_eq!(reach.cost(&m, h("0302")), None, "forest costs 3");
    assert_eq!(reach.cost(&m, h("0304")), Some(1));
    let allowance = Budget {
        points: 1,
        min_one_hex: true,
    };
    let reach = m.reachable(start, allowance, |_, to| {
        m.enter_cost(MoveClass::Tracked, to)
    });
    assert_eq!(reach.cost(&m, h("0302")), Some(3));
    assert_eq!(
        reach.cost(&m, h("0301")),
        None,
        "the allowance ends the move"
    );
}

#[test]
fn impassable_terrain_is_never_entered() {
    let mut m = map(5, 3);
    for l in ["0301", "0302", "0303"] {
        set(&mut m, l, "water");
    }
    let cost = |_: Hex, to: Hex| m.enter_cost(MoveClass::Foot, to);
    assert!(m.cheapest_path(h("0102"), h("0502"), cost).is_none());
    set(&mut m, "0302", "marsh");
    let cost = |_: Hex, to: Hex| m.enter_cost(MoveClass::Wheeled, to);
    assert!(
        m.cheapest_path(h("0102"), h("0502"), cost).is_none(),
        "wheeled"
    );
    let cost = |_: Hex, to: Hex| m.enter_cost(MoveClass::Foot, to);
    let (total, path) = m.cheapest_path(h("0102"), h("0502"), cost).unwrap();
    assert_eq!(total, 5);
    assert_eq!(path.last(), Some(&h("0502")));
    assert!(path.contains(&h("0302")));
}

#[test]
fn path_and_reach_agree() {
    let mut m = map(8, 8);
    for l in ["0403", "0404", "0405", "0303"] {
        set(&mut m, l, "forest");
    }
    let cost = |_: Hex, to: Hex| m.enter_cost(MoveClass::Tracked, to);
    let reach = m.reachable(h("0104"), Budget::points(100), cost);
    for goal in m.hexes() {
        let via_path = m.cheapest_path(h("0104"), goal, cost).map(|(c, _)| c);
        let expected = if goal == h("0104") { Some(0) } else { via_path };
        assert_eq!(reach.cost(&m, goal), expected, "{}", m.label(goal));
    }
}

#[test]
fn across_is_the_opposite_hexside() {
    let m = map(6, 6);
    let at = h("0303");
    for from in m.neighbors(at) {
        let back = across(from, at);
        assert_eq!(back.unsigned_distance_to(at), 1);
        assert_eq!(back.unsigned_distance_to(from), 2);
    }
}

/// The map's table of neighbours lists each hex's neighbours in the order a petgraph `UnGraph`
/// built hex by hex lists its edges (the order every search walks, so ties settle as they did
/// when the map kept such a graph), and petgraph's algorithms see the same graph.
#[test]
fn the_neighbours_are_in_the_order_of_an_ungraph() {
    use petgraph::graph::{NodeIndex, UnGraph};
    use petgraph::visit::{EdgeRef, IntoEdgeReferences, NodeCount};
    for (cols, rows) in [(1, 1), (1, 5), (5, 1), (2, 3), (7, 6), (12, 9)] {
        let m = map(cols, rows);
        let mut graph = UnGraph::<Hex, ()>::new_undirected();
        for h in m.hexes() {
            graph.add_node(h);
        }
        for i in 0..m.len() {
            for n in m.hex_at(i).all_neighbors() {
                if let Some(j) = m.index(n).filter(|&j| j > i) {
                    graph.add_edge(NodeIndex::new(i), NodeIndex::new(j), ());
                }
            }
        }
        for i in 0..m.len() {
            let theirs: Vec<Hex> = graph
                .neighbors(NodeIndex::new(i))
                .map(|n| graph[n])
                .collect();
            let ours: Vec<Hex> = m.neighbors(m.hex_at(i)).collect();
            assert_eq!(ours, theirs, "{cols}x{rows}, {}", m.label(m.hex_at(i)));
        }
        assert_eq!(m.node_count(), graph.node_count());
        assert_eq!((&m).edge_references().count(), graph.edge_count());
        let ends = |e: (NodeIndex, NodeIndex)| (e.0.min(e.1), e.0.max(e.1));
        let mut ours: Vec<_> = (&m)
            .edge_references()
            .map(|e| ends((e.source(), e.target())))
            .collect();
        let mut theirs: Vec<_> = graph
            .edge_references()
            .map(|e| ends((e.source(), e.target())))
            .collect();
        ours.sort_unstable();
        theirs.sort_unstable();
        assert_eq!(ours, theirs, "{cols}x{rows}");
    }
}

#[test]
fn break_off_moves_strictly_away_and_picks_the_farthest() {
    let m = map(9, 9);
    let away = h("0505");
    let start = h("0504");
    let cost = |to: Hex| m.enter_cost(MoveClass::Foot, to);
    let route = m
        .break_off(start, away, Budget::points(3), cost, |_| true)
        .unwrap();
    assert_eq!(route.end.unsigned_distance_to(away), 4);
    assert_eq!(route.cost, 3);
    let mut last = start;
    for step in &route.path {
        assert!(step.unsigned_distance_to(away) > last.unsigned_distance_to(away));
        last = *step;
    }
    // Deterministic: the same call gives the same route.
    assert_eq!(
        m.break_off(start, away, Budget::points(3), cost, |_| true),
        Some(route.clone())
    );
    // An end filter (stacking) moves the end elsewhere, as far away.
    let other = m
        .break_off(start, away, Budget::points(3), cost, |x| x != route.end)
        .unwrap();
    assert_ne!(other.end, route.end);
    assert_eq!(other.end.unsigned_distance_to(away), 4);
}

/// A terrain field is the field over the terrain with its difficult extra, whatever the number
/// of extras asked for one goal (beyond the slots a goal remembers, it is worked out each time),
/// the same when asked again, and forgotten when the terrain changes.
#[test]
fn terrain_fields_are_remembered_per_extra_and_forgotten_with_the_terrain() {
    // One column: every way from 0101 to 0108 enters the forest at 0104.
    let mut m = map(1, 8);
    set(&mut m, "0104", "forest");
    let goal = h("0108");
    let from = h("0101");
    let want = |m: &Map, extra: u32| {
        m.field_to(goal, |i| {
            let difficult = m.terrain(m.hex_at(i)).is_some_and(|t| t.difficult);
            m.enter_cost_at(MoveClass::Tracked, i)
                .map(|c| c + if difficult { extra } else { 0 })
        })
        .unwrap()
        .cost(m, from)
    };
    for round in 0..2 {
        for extra in 0..7 {
            let field = m.terrain_field(goal, MoveClass::Tracked, extra).unwrap();
            assert_eq!(
                field.cost(&m, from),
                want(&m, extra),
                "round {round}, extra {extra}"
            );
        }
    }
    let forest = m
        .terrain_field(goal, MoveClass::Tracked, 6)
        .unwrap()
        .cost(&m, from);
    set(&mut m, "0104", "clear");
    let clear = m
        .terrain_field(goal, MoveClass::Tracked, 6)
        .unwrap()
        .cost(&m, from);
    assert_eq!(clear, want(&m, 6));
    assert_eq!((forest, clear), (Some(15), Some(7)));
}

/// R11.6: every end a break-off may choose, each with the cheapest way there: every step of
/// each route farther from the fight, within the budget, and the farthest the same one
/// `break_off` picks.
#[test]
fn break_off_reach_offers_every_end_with_its_route() {
    let m = map(9, 9);
    let away = h("0505");
    let start = h("0504");
    let cost = |to: Hex| m.enter_cost(MoveClass::Foot, to);
    let reach = m
        .break_off_reach(start, away, Budget::points(3), cost)
        .unwrap();
    let ends = reach.hexes();
    // Up to three steps, each one farther: the hexes 2, 3 and 4 away from 0505 in the half of
    // the map beyond 0504, not the start.
    assert!(!ends.contains(&start));
    assert!(ends.iter().any(|e| e.unsigned_distance_to(away) == 2));
    assert!(ends.iter().any(|e| e.unsigned_distance_to(away) == 4));
    for &end in ends {
        let route = reach.route(&m, end).unwrap();
        assert_eq!(route.end, end);
        assert!(
            route.cost <= 3 && Ok(route.cost) == u32::try_from(route.path.len()),
            "{route:?}"
        );
        assert_eq!(route.path.last(), Some(&end));
        let mut last = start;
        for step in &route.path {
            assert!(step.unsigned_distance_to(away) > last.unsigned_distance_to(away));
            last = *step;
        }
    }
    // Nothing to go to from the hex itself: the start is no end.
    assert_eq!(reach.route(&m, start), None);
    let best = m
        .break_off(start, away, Budget::points(3), cost, |_| true)
        .unwrap();
    assert!(ends.contains(&best.end));
    assert_eq!(reach.route(&m, best.end), Some(best));
}

#[test]
fn break_off_avoids_forbidden_hexes_and_can_fail() {
    let m = map(5, 5);
    let away = h("0303");
    let start = h("0302");
    // Forbid everything farther away: no step possible.
    let none = m.break_off(start, away, Budget::points(4), |_| None::<u32>, |_| true);
    assert_eq!(none, None);
    // 0202, 0301 and 0402 are the three steps away; forbid two.
    let forbidden = [h("0301"), h("0202")];
    let route = m
        .break_off(
            start,
            away,
            Budget::points(1),
            |to| (!forbidden.contains(&to)).then_some(1),
            |_| true,
        )
        .unwrap();
    assert_eq!(m.label(route.end).to_string(), "0402");
}

#[test]
fn los_is_blocked_by_forest_but_not_into_adjacent_hexes() {
    let mut m = map(7, 3);
    set(&mut m, "0402", "forest");
    assert!(!m.sees(h("0202"), h("0602"), |_| false));
    assert!(m.sees(h("0302"), h("0402"), |_| false), "adjacent");
    assert!(m.sees(h("0402"), h("0502"), |_| false), "out of the forest");
    assert!(m.sees(h("0201"), h("0202"), |_| false));
}

#[test]
fn smoke_blocks_like_forest() {
    let m = map(7, 3);
    assert!(m.sees(h("0202"), h("0602"), |_| false));
    assert!(!m.sees(h("0202"), h("0602"), |x| x == h("0402")));
}

#[test]
fn both_ends_on_hills_see_over_forest() {
    let mut m = map(7, 3);
    set(&mut m, "0402", "forest");
    set(&mut m, "0202", "hills");
    assert!(!m.sees(h("0202"), h("0602"), |_| false), "one end high");
    set(&mut m, "0602", "hills");
    assert!(m.sees(h("0202"), h("0602"), |_| false), "both ends high");
}

#[test]
fn a_line_along_a_hexside_needs_both_sides_blocked() {
    // From (0,0) to (1,1) the line passes exactly between (1,0) and (0,1) (R1.3).
    let (a, b) = (Hex::new(0, 0), Hex::new(1, 1));
    let (x, y) = (Hex::new(1, 0), Hex::new(0, 1));
    assert!(line_of_sight(a, b, |hx| hx == x), "one side open");
    assert!(line_of_sight(a, b, |hx| hx == y), "other side open");
    assert!(
        !line_of_sight(a, b, |hx| hx == x || hx == y),
        "both blocked"
    );
    assert!(
        !line_of_sight(b, a, |hx| hx == x || hx == y),
        "both blocked, other way"
    );
}

fn terrain_strategy() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(0u8..8, 100)
}

/// A 10 x 10 map with the terrain `cells` gives each hex (an index into the terrain table,
/// wrapped), for the proptests.
fn random_map(cells: &[u8]) -> Map {
    let mut m = map(10, 10);
    let ids: Vec<TerrainId> = m.table().iter().map(|(id, _)| id).collect();
    for (i, c) in cells.iter().enumerate() {
        let hex = m.hex_at(i);
        m.set_terrain(hex, ids[usize::from(*c) % ids.len()]);
    }
    m
}

/// Petgraph's Dijkstra from `from` on the map filtered to the steps `step` allows, each priced
/// as it says: the oracle of our searches in the proptests. The cost of each hex it reaches.
fn petgraphs_dijkstra(
    m: &Map,
    from: Hex,
    step: impl Fn(Hex, Hex) -> Option<u32>,
) -> impl Fn(Hex) -> Option<u32> + '_ {
    use petgraph::visit::EdgeRef;
    let allowed =
        petgraph::visit::EdgeFiltered::from_fn(m, |e| step(m[e.source()], m[e.target()]).is_some());
    let costs = petgraph::algo::dijkstra(&allowed, m.node(from).unwrap(), None, |e| {
        step(m[e.source()], m[e.target()]).unwrap_or(u32::MAX)
    });
    move |h| costs.get(&m.node(h)?).copied()
}

/// The price of entering a hex of `m` for `class`, `None` in the hexes at the `forbidden`
/// indices, for the proptests.
fn entering<'a>(
    m: &'a Map,
    class: MoveClass,
    forbidden: &'a [usize],
) -> impl Fn(Hex) -> Option<u32> + 'a {
    move |h| {
        if forbidden.iter().any(|&f| m.hex_at(f) == h) {
            None
        } else {
            m.enter_cost(class, h)
        }
    }
}

proptest! {
    #[test]
    fn los_is_symmetric(cells in terrain_strategy(), smoke_at in 0usize..100) {
        let m = random_map(&cells);
        let smoke_hex = m.hex_at(smoke_at);
        let smoke = |x: Hex| x == smoke_hex;
        let hexes: Vec<Hex> = m.hexes().collect();
        for &a in &hexes {
            for &b in &hexes {
                prop_assert_eq!(m.sees(a, b, smoke), m.sees(b, a, smoke),
                    "{} / {}", m.label(a), m.label(b));
            }
        }
    }

    /// The cached terrain LOS is the computed one, and setting terrain forgets the cache.
    #[test]
    fn cached_los_is_the_computed_los(cells in terrain_strategy(), again in terrain_strategy()) {
        let mut m = map(10, 10);
        let ids: Vec<TerrainId> = m.table().iter().map(|(id, _)| id).collect();
        for layout in [&cells, &again] {
            for (i, c) in layout.iter().enumerate() {
                let hex = m.hex_at(i);
                m.set_terrain(hex, ids[usize::from(*c) % ids.len()]);
            }
            let hexes: Vec<Hex> = m.hexes().collect();
            for &a in &hexes {
                for &b in &hexes {
                    prop_assert_eq!(m.sees_terrain(a, b), m.sees(a, b, |_| false),
                        "{} / {}", m.label(a), m.label(b));
                }
            }
        }
    }

    /// `cheapest_path` is petgraph's A* step for step: the same cost and the same path, also
    /// among equal-cost paths, on random terrain with some hexes forbidden.
    #[test]
    fn cheapest_path_is_petgraphs_astar(
        cells in terrain_strategy(),
        from in 0usize..100,
        to in 0usize..100,
        forbidden in proptest::collection::vec(0usize..100, 0..12),
    ) {
        let m = random_map(&cells);
        let (start, goal) = (m.hex_at(from), m.hex_at(to));
        let enter = entering(&m, MoveClass::Tracked, &forbidden);
        let cost = |_: Hex, h: Hex| enter(h);
        let ours = m.cheapest_path(start, goal, cost);
        let graph = &m;
        let node = |h: Hex| petgraph::graph::NodeIndex::new(m.index(h).unwrap());
        const BLOCKED: u64 = u64::MAX / 4;
        let theirs = petgraph::algo::astar(
            graph,
            node(start),
            |n| n == node(goal),
            |e| {
                use petgraph::visit::EdgeRef;
                cost(graph[e.source()], graph[e.target()]).map_or(BLOCKED, u64::from)
            },
            |n| u64::from(graph[n].unsigned_distance_to(goal)),
        )
        .filter(|(total, _)| *total < BLOCKED)
        .map(|(total, nodes)| {
            (u32::try_from(total).unwrap(), nodes.into_iter().skip(1).map(|n| graph[n]).collect::<Vec<_>>())
        });
        prop_assert_eq!(ours, theirs);
    }

    /// `reachable` finds the costs of petgraph's Dijkstra (on the graph filtered to the steps
    /// `cost` allows) for every hex within the budget, and no other hex.
    #[test]
    fn reachable_is_petgraphs_dijkstra_within_the_budget(
        cells in terrain_strategy(),
        from in 0usize..100,
        points in 0u32..12,
        forbidden in proptest::collection::vec(0usize..100, 0..12),
    ) {
        let m = random_map(&cells);
        let start = m.hex_at(from);
        let enter = entering(&m, MoveClass::Wheeled, &forbidden);
        let cost = |_: Hex, h: Hex| enter(h);
        let reach = m.reachable(start, Budget::points(points), cost);
        let theirs = petgraphs_dijkstra(&m, start, cost);
        for h in m.hexes() {
            let want = theirs(h).filter(|&c| c <= points);
            prop_assert_eq!(reach.cost(&m, h), want, "{}", m.label(h));
        }
    }

    /// `reachable_until` gives every target it reaches the cost and path `reachable` gives it,
    /// and reaches the same targets, on random terrain with forbidden hexes.
    #[test]
    fn reachable_until_agrees_with_reachable_on_its_targets(
        cells in terrain_strategy(),
        from in 0usize..100,
        points in 0u32..12,
        targets in proptest::collection::vec(0usize..100, 1..4),
        forbidden in proptest::collection::vec(0usize..100, 0..12),
    ) {
        let m = random_map(&cells);
        let start = m.hex_at(from);
        let enter = entering(&m, MoveClass::Wheeled, &forbidden);
        let cost = |_: Hex, h: Hex| enter(h);
        let budget = Budget { points, min_one_hex: true };
        let all = m.reachable(start, budget, cost);
        let targets: Vec<Hex> = targets.iter().map(|&t| m.hex_at(t)).collect();
        let some = m.reachable_until(start, budget, cost, &targets);
        for &t in &targets {
            prop_assert_eq!(some.cost(&m, t), all.cost(&m, t), "{}", m.label(t));
            prop_assert_eq!(some.path_to(&m, t), all.path_to(&m, t), "{}", m.label(t));
            prop_assert_eq!(some.hexes().contains(&t), all.hexes().contains(&t));
        }
        // The hexes it settled come in the order `reachable` settles them.
        prop_assert_eq!(some.hexes(), &all.hexes()[..some.hexes().len()]);
    }

    /// `break_off_reach` finds, for every hex within the budget, the cost of petgraph's Dijkstra
    /// over the steps farther from the fight (R11.6), and no other hex, but a first step beyond
    /// the budget (R5.1); each hex's route costs what it says and steps farther at every hex.
    #[test]
    fn break_off_reach_is_petgraphs_dijkstra_over_the_steps_away(
        cells in terrain_strategy(),
        from in 0usize..100,
        fight in 0usize..6,
        points in 0u32..9,
        forbidden in proptest::collection::vec(0usize..100, 0..12),
    ) {
        let m = random_map(&cells);
        let start = m.hex_at(from);
        let Some(away) = m.neighbors(start).nth(fight) else {
            return Ok(());
        };
        let enter = entering(&m, MoveClass::Tracked, &forbidden);
        let step = |a: Hex, b: Hex| {
            (b.unsigned_distance_to(away) > a.unsigned_distance_to(away))
                .then(|| enter(b))
                .flatten()
        };
        let budget = Budget { points, min_one_hex: true };
        let reach = m.break_off_reach(start, away, budget, &enter).unwrap();
        let theirs = petgraphs_dijkstra(&m, start, step);
        for h in m.hexes().filter(|&h| h != start) {
            let within = theirs(h).filter(|&c| c <= points);
            let first_step = (h.unsigned_distance_to(start) == 1).then(|| step(start, h)).flatten();
            let want = within.or(first_step);
            prop_assert_eq!(reach.cost(&m, h), want, "{}", m.label(h));
            prop_assert_eq!(reach.hexes().contains(&h), want.is_some(), "{}", m.label(h));
            if let Some(c) = want {
                let route = reach.route(&m, h).unwrap();
                prop_assert_eq!(route.cost, c);
                let mut at = start;
                let mut spent = 0;
                for &next in &route.path {
                    spent += step(at, next).unwrap();
                    at = next;
                }
                prop_assert_eq!((at, spent), (h, c));
            }
        }
    }

    /// `field_to` finds, for every hex, the cost of petgraph's Dijkstra from the goal over the
    /// steps taken backwards (each priced by the hex it enters), and a path of that cost that
    /// enters only hexes `enter` allows (the goal aside), on random terrain with forbidden hexes.
    #[test]
    fn field_is_petgraphs_dijkstra_from_the_goal(
        cells in terrain_strategy(),
        to in 0usize..100,
        forbidden in proptest::collection::vec(0usize..100, 0..12),
    ) {
        let m = random_map(&cells);
        let goal = m.hex_at(to);
        let enter = |i: usize| {
            if forbidden.contains(&i) {
                None
            } else {
                m.enter_cost_at(MoveClass::Tracked, i)
            }
        };
        let price = |i: usize| if i == to { Some(enter(i).unwrap_or(1)) } else { enter(i) };
        let field = m.field_to(goal, enter).unwrap();
        // From the goal, each step priced by the hex it leaves: the steps taken backwards.
        let theirs = petgraphs_dijkstra(&m, goal, |a, _| m.index(a).and_then(price));
        for h in m.hexes() {
            let want = theirs(h);
            prop_assert_eq!(field.cost(&m, h), want, "{}", m.label(h));
            if let Some(path) = field.path_from(&m, h) {
                let mut at = h;
                let mut spent = 0;
                for &step in &path {
                    prop_assert_eq!(at.unsigned_distance_to(step), 1);
                    spent += price(m.index(step).unwrap()).unwrap();
                    at = step;
                }
                prop_assert_eq!(Some(spent), want);
                prop_assert_eq!(path.last().copied().unwrap_or(h), goal);
            }
        }
    }

    /// The break-off route (petgraph's Dijkstra, paths read back through the cheapest
    /// neighbour) is the route of a bounded Dijkstra that keeps, for each hex, the first
    /// neighbour that reached it at its cost: the search the break-off used before, on random
    /// terrain, budgets, forbidden hexes and ends, with and without the one-hex allowance.
    #[test]
    fn break_off_is_the_bounded_search(
        cells in terrain_strategy(),
        from in 0usize..100,
        away in 0usize..100,
        points in 0u32..10,
        min_one_hex in any::<bool>(),
        forbidden in proptest::collection::vec(0usize..100, 0..12),
        full in proptest::collection::vec(0usize..100, 0..12),
    ) {
        let m = random_map(&cells);
        let (start, away) = (m.hex_at(from), m.hex_at(away));
        let budget = Budget { points, min_one_hex };
        let enter = entering(&m, MoveClass::Tracked, &forbidden);
        let cost = |_: Hex, h: Hex| enter(h);
        let room = |h: Hex| !full.iter().any(|&f| m.hex_at(f) == h);
        let ours = m.break_off(start, away, budget, |h| cost(start, h), room);
        // The reference: the bounded search of `reachable` over the steps away.
        let reach = m.reachable(start, budget, |f, t| {
            if t.unsigned_distance_to(away) > f.unsigned_distance_to(away) {
                cost(f, t)
            } else {
                None
            }
        });
        let theirs = reach
            .hexes()
            .iter()
            .copied()
            .filter(|&h| room(h))
            .min_by_key(|&h| {
                (
                    std::cmp::Reverse(h.unsigned_distance_to(away)),
                    reach.cost(&m, h),
                    Label::from_hex(h),
                )
            })
            .map(|end| Route {
                end,
                cost: reach.cost(&m, end).unwrap(),
                path: reach.path_to(&m, end).unwrap(),
            });
        prop_assert_eq!(ours, theirs);
    }

    /// R0.4: a hex's dense index is its label's place, row-major from 0101, and there is none
    /// off the map, whatever hex is asked (far off, negative, just past an edge).
    #[test]
    fn index_is_the_labels_place(cols in 1u16..=12, rows in 1u16..=12, x in -20i32..40, y in -30i32..40) {
        let table = TerrainTable::from_toml(include_str!("../../../data/terrain.toml")).unwrap();
        let m = Map::new(table, cols, rows, TerrainId(0));
        let hex = Hex::new(x, y);
        let want = Label::from_hex(hex)
            .filter(|l| l.col <= cols && l.row <= rows)
            .map(|l| usize::from(l.row - 1) * usize::from(cols) + usize::from(l.col - 1));
        prop_assert_eq!(m.index(hex), want);
    }

    #[test]
    fn label_text_round_trips(col in 1u16..=99, row in 1u16..=99) {
        let l = Label::new(col, row);
        prop_assert_eq!(l.to_string().parse::<Label>(), Ok(l));
        prop_assert_eq!(Label::from_hex(l.to_hex()), Some(l));
    }
}

/// R1.3 with the built-in ridge and wooded hills: no line passes over a ridge (it blocks sight
/// and no hex stands higher), while a unit on it sees down both slopes; wooded hills block sight
/// through them as forest does, and a hill beside them sees over low woods.
#[test]
fn a_ridge_hides_its_two_slopes_from_each_other_and_sees_both() {
    let mut m = map(5, 1);
    set(&mut m, "0301", "ridge");
    let no_smoke = |_| false;
    assert!(!m.sees(h("0101"), h("0501"), no_smoke), "over the crest");
    assert!(
        m.sees(h("0301"), h("0101"), no_smoke),
        "from the crest, west"
    );
    assert!(
        m.sees(h("0301"), h("0501"), no_smoke),
        "from the crest, east"
    );
    set(&mut m, "0301", "wooded_hills");
    assert!(!m.sees(h("0101"), h("0501"), no_smoke), "through the wood");
    set(&mut m, "0301", "forest");
    set(&mut m, "0101", "hills");
    set(&mut m, "0501", "wooded_hills");
    assert!(
        m.sees(h("0101"), h("0501"), no_smoke),
        "high ground over a low wood, both ends higher (R1.3)"
    );
}
