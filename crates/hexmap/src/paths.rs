//! R1.4, R5.1, R9.9, R11.6: movement reach and paths, the retreat hexside, break-off routes.

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use hexx::Hex;

use petgraph::graph::NodeIndex;

use crate::field::{Field, UNREACHED};
use crate::label::Label;
use crate::map::Map;

/// A* scores of a node: estimated total, estimate to the goal, cost so far.
type Score = (u64, u64, u64);

/// The working arrays of one A* search, kept per thread between searches so that a search
/// allocates nothing but the path it returns (the AI searches for every unit it moves).
#[derive(Default)]
struct AStar {
    /// Per node: the cost so far (g) once scored; the rest of its score is only for the order
    /// of the open list.
    scores: Vec<Option<u64>>,
    /// Per node: the predecessor on the best path found ([`NO_PREV`] before one is).
    prev: Vec<u32>,
    open: BinaryHeap<Open>,
}

impl AStar {
    /// Emptied for a map of `len` nodes.
    fn reset(&mut self, len: usize) {
        self.scores.clear();
        self.scores.resize(len, None);
        self.prev.clear();
        self.prev.resize(len, NO_PREV);
        self.open.clear();
    }
}

/// No predecessor (yet) in [`AStar::prev`].
const NO_PREV: u32 = u32::MAX;

/// The predecessor of a node on the path found, if it has one.
fn step_back(prev: &[u32], at: usize) -> Option<usize> {
    let p = prev[at];
    (p != NO_PREV).then_some(p as usize)
}

thread_local! {
    static ASTAR: RefCell<AStar> = RefCell::new(AStar::default());
}

/// An entry of the A* open list, smallest score first; the node takes no part in the order,
/// as in petgraph's `MinScored`, so that ties pop in the same order.
struct Open(Score, usize);

impl PartialEq for Open {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl Eq for Open {}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Open {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other.0.cmp(&self.0)
    }
}

/// How far a search may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Movement points to spend.
    pub points: u32,
    /// The first step may cost more than `points` (R5.1: a unit that has not moved may always
    /// move one hex); the search stops in that hex.
    pub min_one_hex: bool,
}

impl Budget {
    /// A budget of `points`, without the one-hex allowance.
    #[must_use]
    pub const fn points(points: u32) -> Self {
        Self {
            points,
            min_one_hex: false,
        }
    }
}

/// The hexes a search reached from its origin, with the cheapest cost and path to each.
#[derive(Clone, Debug)]
pub struct Reach {
    origin: Hex,
    cost: Vec<u32>,
    prev: Vec<u32>,
    hexes: Vec<Hex>,
}

impl Reach {
    /// Where the search started.
    #[must_use]
    pub const fn origin(&self) -> Hex {
        self.origin
    }

    /// Cost to reach a hex; `Some(0)` for the origin, `None` where not reached.
    #[must_use]
    pub fn cost(&self, map: &Map, hex: Hex) -> Option<u32> {
        let c = self.cost[map.index(hex)?];
        (c != UNREACHED).then_some(c)
    }

    /// The route to a reached hex other than the origin: its end, cost and path.
    #[must_use]
    pub fn route(&self, map: &Map, end: Hex) -> Option<Route> {
        Some(Route {
            end,
            cost: self.cost(map, end)?,
            path: self.path_to(map, end).filter(|p| !p.is_empty())?,
        })
    }

    /// The path to a reached hex, without the origin and ending with `hex`.
    #[must_use]
    pub fn path_to(&self, map: &Map, hex: Hex) -> Option<Vec<Hex>> {
        let mut i = map.index(hex)?;
        if self.cost[i] == UNREACHED {
            return None;
        }
        let mut path = Vec::new();
        while self.prev[i] != UNREACHED {
            path.push(map.hex_at(i));
            i = self.prev[i] as usize;
        }
        path.reverse();
        Some(path)
    }

    /// Every reached hex other than the origin, in the order the search settled them.
    #[must_use]
    pub fn hexes(&self) -> &[Hex] {
        &self.hexes
    }
}

/// The field's questions asked by hex ([`Field`] itself knows only hex indices).
impl Field {
    /// The cost of the cheapest path from `hex` to the goal (the goal's own entry included);
    /// `Some(0)` at the goal, `None` where the goal cannot be reached.
    #[must_use]
    pub fn cost(&self, map: &Map, hex: Hex) -> Option<u32> {
        self.cost_at(map.index(hex)?)
    }

    /// The cheapest path from `from` to the goal: the hexes entered, ending with the goal;
    /// empty at the goal, `None` where it cannot be reached.
    #[must_use]
    pub fn path_from(&self, map: &Map, from: Hex) -> Option<Vec<Hex>> {
        let mut at = map.index(from)?;
        if self.cost[at] == UNREACHED {
            return None;
        }
        let mut path = Vec::new();
        while at != self.goal {
            at = self.next[at] as usize;
            path.push(map.hex_at(at));
        }
        Some(path)
    }
}

/// The best end of a break-off move (R11.6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    /// Where the move ends.
    pub end: Hex,
    /// Movement points spent.
    pub cost: u32,
    /// The hexes entered, ending with `end`.
    pub path: Vec<Hex>,
}

/// The hex across the side of `defender` opposite the one `attacker` came through (R9.9).
///
/// ```
/// use hexmap::{across, Label};
/// let (from, at) = (Label::new(3, 3).to_hex(), Label::new(3, 4).to_hex());
/// assert_eq!(Label::from_hex(across(from, at)), Some(Label::new(3, 5)));
/// ```
#[must_use]
pub fn across(attacker: Hex, defender: Hex) -> Hex {
    defender + (defender - attacker)
}

impl Map {
    /// Every hex reachable from `start` within `budget` (R5.1), cheapest first.
    ///
    /// `cost(from, to)` is the price of one step, `None` where the step is forbidden (terrain,
    /// enemy units, stacking: the caller decides).
    ///
    /// ```
    /// use hexmap::{Budget, Label, Map, MoveClass, TerrainTable};
    /// let table = TerrainTable::from_toml(include_str!("../../../data/terrain.toml")).unwrap();
    /// let map = Map::new(table.clone(), 5, 5, table.by_name("clear").unwrap());
    /// let start = Label::new(3, 3).to_hex();
    /// let reach = map.reachable(start, Budget::points(1), |_, to| map.enter_cost(MoveClass::Foot, to));
    /// assert_eq!(reach.hexes().len(), 6);
    /// ```
    pub fn reachable(
        &self,
        start: Hex,
        budget: Budget,
        cost: impl FnMut(Hex, Hex) -> Option<u32>,
    ) -> Reach {
        self.search(start, budget, cost, &[])
    }

    /// [`Map::reachable`] for the sake of a few hexes: the search stops once it has settled
    /// every hex of `targets` (or spent the budget), so the hexes it reached and their paths are
    /// those [`Map::reachable`] finds for these hexes, and for the hexes settled before them,
    /// in the same order; hexes dearer than the last target may be missing.
    pub fn reachable_until(
        &self,
        start: Hex,
        budget: Budget,
        cost: impl FnMut(Hex, Hex) -> Option<u32>,
        targets: &[Hex],
    ) -> Reach {
        self.search(start, budget, cost, targets)
    }

    /// The cheapest path from `start` to `goal` under `cost`, with no budget (A* on the graph,
    /// the hex distance as heuristic). Returns the total cost and the hexes entered, ending with
    /// `goal`.
    ///
    /// It is petgraph's `astar` step for step (the same open list, scores and tie-breaking, so
    /// the same path among equal ones), with per-node arrays in place of its hash maps: the AI
    /// runs it for every unit it moves.
    ///
    /// Step costs must be at least 1 (the heuristic is the hex distance).
    #[must_use]
    pub fn cheapest_path(
        &self,
        start: Hex,
        goal: Hex,
        mut cost: impl FnMut(Hex, Hex) -> Option<u32>,
    ) -> Option<(u32, Vec<Hex>)> {
        self.cheapest_path_by_index(start, goal, |a, b| cost(self.hex_at(a), self.hex_at(b)))
    }

    /// [`Map::cheapest_path`] with `cost` taking the hexes' indices ([`Map::index`]), for callers
    /// that price the steps from tables by index: the same search, step for step.
    #[must_use]
    pub fn cheapest_path_by_index(
        &self,
        start: Hex,
        goal: Hex,
        mut cost: impl FnMut(usize, usize) -> Option<u32>,
    ) -> Option<(u32, Vec<Hex>)> {
        let (s, g) = (self.index(start)?, self.index(goal)?);
        ASTAR.with(|cell| match cell.try_borrow_mut() {
            Ok(mut scratch) => self.astar(s, g, &mut cost, &mut scratch),
            // A `cost` that searches too: this inner search works in arrays of its own.
            Err(_) => self.astar(s, g, &mut cost, &mut AStar::default()),
        })
    }

    /// [`Map::cheapest_path`] in the working arrays `w`, on hex indices.
    fn astar(
        &self,
        s: usize,
        g: usize,
        cost: &mut impl FnMut(usize, usize) -> Option<u32>,
        w: &mut AStar,
    ) -> Option<(u32, Vec<Hex>)> {
        const BLOCKED: u64 = u64::MAX / 4;
        let goal = self.hex_at(g);
        let estimate = |n: usize| u64::from(self.hex_at(n).unsigned_distance_to(goal));
        w.reset(self.len());
        let AStar { scores, prev, open } = w;
        let h = estimate(s);
        scores[s] = Some(0);
        open.push(Open((h, h, 0), s));
        while let Some(Open((_, _, spent), node)) = open.pop() {
            if node == g {
                break;
            }
            match scores[node] {
                Some(old) if old < spent => continue,
                _ => scores[node] = Some(spent),
            }
            for next in self.adjacent(node) {
                let step = cost(node, next).map_or(BLOCKED, u64::from);
                let next_g = spent.saturating_add(step);
                if scores[next].is_some_and(|old| next_g >= old) {
                    continue;
                }
                let next_h = estimate(next);
                let score = (next_g.saturating_add(next_h), next_h, next_g);
                scores[next] = Some(next_g);
                prev[next] = u32::try_from(node).unwrap_or(NO_PREV);
                open.push(Open(score, next));
            }
        }
        let total = scores[g]?;
        if total >= BLOCKED {
            return None;
        }
        // The path, walked back from the goal: counted first, so that it is the one allocation.
        let mut steps = 0;
        let mut at = g;
        while at != s {
            steps += 1;
            at = step_back(prev, at)?;
        }
        let mut path = vec![goal; steps];
        let mut at = g;
        for slot in path.iter_mut().rev() {
            *slot = self.hex_at(at);
            at = step_back(prev, at)?;
        }
        Some((u32::try_from(total).ok()?, path))
    }

    /// The cheapest cost from every hex to `goal` (R1.4, R5.1), and the way: a Dijkstra from the
    /// goal over the steps taken backwards, so that one search serves every unit heading there.
    /// `enter(i)` is the cost of entering the hex of index `i` ([`Map::index`]), `None` where it
    /// may not be entered on the way (the goal itself is always entered at `enter`'s price, or
    /// 1 if it forbids it, so that units can head for an enemy-held hex). Costs must be at
    /// least 1. Among equal paths, each hex steps to the neighbour the search settled first.
    ///
    /// ```
    /// use hexmap::{Label, Map, MoveClass, TerrainTable};
    /// let table = TerrainTable::from_toml(include_str!("../../../data/terrain.toml")).unwrap();
    /// let map = Map::new(table.clone(), 5, 5, table.by_name("clear").unwrap());
    /// let goal = Label::new(3, 3).to_hex();
    /// let field = map.field_to(goal, |i| map.enter_cost_at(MoveClass::Foot, i)).unwrap();
    /// let from = Label::new(1, 1).to_hex();
    /// assert_eq!(field.cost(&map, from), Some(from.unsigned_distance_to(goal))); // clear: 1 a hex
    /// assert_eq!(field.path_from(&map, from).unwrap().last(), Some(&goal));
    /// ```
    #[must_use]
    pub fn field_to(
        &self,
        goal: Hex,
        mut enter: impl FnMut(usize) -> Option<u32>,
    ) -> Option<Field> {
        let g = self.index(goal)?;
        let mut field = Field {
            goal: g,
            cost: vec![UNREACHED; self.len()],
            next: vec![UNREACHED; self.len()],
        };
        field.cost[g] = 0;
        let mut queue = BinaryHeap::from([Reverse((0u32, g))]);
        while let Some(Reverse((spent, i))) = queue.pop() {
            if spent > field.cost[i] {
                continue;
            }
            // Every neighbour of `i` reaches the goal through `i` for the price of entering it.
            let price = if i == g {
                enter(i).unwrap_or(1)
            } else {
                match enter(i) {
                    Some(c) => c,
                    None => continue,
                }
            };
            let total = spent.saturating_add(price);
            for j in self.adjacent(i) {
                if total < field.cost[j] {
                    field.cost[j] = total;
                    field.next[j] = u32::try_from(i).unwrap_or(UNREACHED);
                    queue.push(Reverse((total, j)));
                }
            }
        }
        Some(field)
    }

    /// The best break-off move from `start` (R11.6): up to `budget`, every step ending strictly
    /// farther from `away`, each step priced by `cost` of the hex it enters (`None`: that hex
    /// may not be entered), ending where `accept_end` allows (for stacking). The best end is
    /// the farthest from `away`, then the cheapest, then the first by label. `None` if no step
    /// is possible. Costs must be at least 1; each hex's is asked at most once.
    #[must_use]
    pub fn break_off(
        &self,
        start: Hex,
        away: Hex,
        budget: Budget,
        cost: impl Fn(Hex) -> Option<u32>,
        accept_end: impl Fn(Hex) -> bool,
    ) -> Option<Route> {
        let reach = self.break_off_reach(start, away, budget, cost)?;
        // The best end that `accept_end` allows: the ends in order of preference, asked until
        // one is allowed.
        let mut ends: Vec<(Reverse<u32>, u32, Option<Label>, Hex)> = reach
            .hexes()
            .iter()
            .map(|&h| {
                let cost = reach.cost(self, h).unwrap_or(UNREACHED);
                (
                    Reverse(h.unsigned_distance_to(away)),
                    cost,
                    Label::from_hex(h),
                    h,
                )
            })
            .collect();
        ends.sort_unstable_by_key(|&(far, cost, label, _)| (far, cost, label));
        let end = ends.into_iter().map(|(.., h)| h).find(|&h| accept_end(h))?;
        reach.route(self, end)
    }

    /// Every break-off move from `start` (R11.6) at once: the hexes a move up to `budget` may
    /// end in, every step strictly farther from `away` (`Reach::hexes`), each with its cost and
    /// the cheapest way there (`Reach::route`), so that a side may choose among them. Steps are
    /// priced as for [`Map::break_off`]. `None` when `start` is not on the map.
    ///
    /// The costs are a Dijkstra bounded by the budget over the steps away (its proptest oracle is
    /// petgraph's Dijkstra on the map graph filtered to those steps); the hexes come in the order
    /// it settles them (cost, then index). Each hex's path comes back through the neighbour it is
    /// cheapest reached from (the lowest cost, then index, first: the hex a Dijkstra settling in
    /// that order reaches it from).
    #[must_use]
    pub fn break_off_reach(
        &self,
        start: Hex,
        away: Hex,
        budget: Budget,
        cost: impl Fn(Hex) -> Option<u32>,
    ) -> Option<Reach> {
        let s = self.node(start)?;
        // Per hex, worked out the first time the search needs it (it weighs each step several
        // times): its distance from `away`, and the price of entering it. Every step costs at
        // least 1, so no hex farther than the budget from the start is reached within it:
        // such hexes are priced out (but the neighbours, for the one-hex allowance), which
        // spares the search most of the map and changes no cost within the budget.
        const UNASKED: u32 = UNREACHED - 1;
        let known: Vec<std::cell::Cell<(u32, u32)>> =
            vec![std::cell::Cell::new((0, UNASKED)); self.len()];
        let hex_facts = |n: NodeIndex| {
            let k = &known[n.index()];
            if k.get().1 == UNASKED {
                let h = self[n];
                let price = if h.unsigned_distance_to(start) <= budget.points.max(1) {
                    cost(h).unwrap_or(UNREACHED)
                } else {
                    UNREACHED
                };
                k.set((h.unsigned_distance_to(away), price));
            }
            k.get()
        };
        let step = |from: NodeIndex, to: NodeIndex| {
            let (far, price) = hex_facts(to);
            (far > hex_facts(from).0 && price != UNREACHED).then_some(price)
        };
        let mut reach = Reach {
            origin: start,
            cost: vec![UNREACHED; self.len()],
            prev: vec![UNREACHED; self.len()],
            hexes: Vec::new(),
        };
        reach.cost[s.index()] = 0;
        let mut queue = BinaryHeap::from([Reverse((0u32, s.index()))]);
        while let Some(Reverse((spent, i))) = queue.pop() {
            if spent > reach.cost[i] {
                continue;
            }
            if i != s.index() {
                reach.hexes.push(self.hex_at(i));
            }
            for j in self.adjacent(i) {
                let Some(price) = step(NodeIndex::new(i), NodeIndex::new(j)) else {
                    continue;
                };
                let total = spent.saturating_add(price);
                if total <= budget.points && total < reach.cost[j] {
                    reach.cost[j] = total;
                    queue.push(Reverse((total, j)));
                }
            }
        }
        for &h in &reach.hexes {
            let n = self.node(h)?;
            let from = self
                .adjacent(n.index())
                .filter(|&p| {
                    reach.cost[p] != UNREACHED
                        && step(NodeIndex::new(p), n).is_some_and(|c| {
                            reach.cost[p].saturating_add(c) == reach.cost[n.index()]
                        })
                })
                .min_by_key(|&p| (reach.cost[p], p))?;
            reach.prev[n.index()] = u32::try_from(from).unwrap_or(UNREACHED);
        }
        // R5.1: the first step may cost more than the budget; the move ends there.
        if budget.min_one_hex {
            for n in self.adjacent(s.index()) {
                if reach.cost[n] == UNREACHED
                    && let Some(c) = step(s, NodeIndex::new(n))
                {
                    reach.cost[n] = c;
                    reach.prev[n] = u32::try_from(s.index()).unwrap_or(UNREACHED);
                    reach.hexes.push(self.hex_at(n));
                }
            }
        }
        Some(reach)
    }

    /// Bounded Dijkstra over the graph. Ties between equal costs settle in index order, so the
    /// result does not depend on hashing. With `targets`, it stops once each of them (the start
    /// and hexes off the map aside) is settled: a settled hex's cost and path are final.
    fn search(
        &self,
        start: Hex,
        budget: Budget,
        mut cost: impl FnMut(Hex, Hex) -> Option<u32>,
        targets: &[Hex],
    ) -> Reach {
        let mut reach = Reach {
            origin: start,
            cost: vec![UNREACHED; self.len()],
            prev: vec![UNREACHED; self.len()],
            hexes: Vec::new(),
        };
        let Some(s) = self.index(start) else {
            return reach;
        };
        reach.cost[s] = 0;
        let mut unsettled: Vec<usize> = targets
            .iter()
            .filter_map(|&t| self.index(t))
            .filter(|&t| t != s)
            .collect();
        unsettled.sort_unstable();
        unsettled.dedup();
        let stop_early = !unsettled.is_empty();
        let mut queue = BinaryHeap::from([Reverse((0u32, s))]);
        while let Some(Reverse((spent, i))) = queue.pop() {
            if spent > reach.cost[i] {
                continue;
            }
            if i != s {
                reach.hexes.push(self.hex_at(i));
                if stop_early && let Ok(k) = unsettled.binary_search(&i) {
                    unsettled.remove(k);
                    if unsettled.is_empty() {
                        break;
                    }
                }
                if spent > budget.points {
                    continue; // the one-hex allowance: entered, but no further
                }
            }
            let from = self.hex_at(i);
            for j in self.adjacent(i) {
                let to = self.hex_at(j);
                let Some(step) = cost(from, to) else { continue };
                let total = spent.saturating_add(step);
                let allowed = total <= budget.points || (i == s && budget.min_one_hex);
                if allowed && total < reach.cost[j] {
                    reach.cost[j] = total;
                    reach.prev[j] = u32::try_from(i).unwrap_or(u32::MAX);
                    queue.push(Reverse((total, j)));
                }
            }
        }
        reach
    }
}
