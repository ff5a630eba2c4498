//! R1.4: the map is a petgraph graph. `&Map` implements petgraph's visit traits over the map's
//! own table of neighbours (no copy into a `Graph`): a node per hex (its `NodeIndex` the hex's
//! index, its weight the hex), an undirected edge between neighbours (R0.4). petgraph's
//! algorithms run on it as on any graph. The map's own searches (`paths.rs`: the cheapest path,
//! an A* step for step as petgraph's `astar`; the reach and the break-off, R11.6, a Dijkstra
//! bounded by the budget) are written for the map's arrays, and petgraph's `astar` and
//! `dijkstra` over this graph are their oracles in the tests.

use fixedbitset::FixedBitSet;
use hexx::Hex;
use petgraph::Undirected;
use petgraph::graph::NodeIndex;
use petgraph::visit::{
    Data, GraphBase, GraphProp, IntoEdgeReferences, IntoEdges, IntoNeighbors, IntoNodeIdentifiers,
    NodeCount, NodeIndexable, Visitable,
};

use crate::Map;

/// An edge of the map graph, from the hex it is walked from: `(source, target, &())`.
pub type Step<'a> = (NodeIndex, NodeIndex, &'a ());

/// The one edge weight: a step between neighbours carries nothing; its cost comes from the
/// caller's `cost` closure.
const NO_WEIGHT: &() = &();

impl GraphBase for Map {
    type NodeId = NodeIndex;
    type EdgeId = (NodeIndex, NodeIndex);
}

impl GraphProp for Map {
    type EdgeType = Undirected;
}

impl Data for Map {
    type NodeWeight = Hex;
    type EdgeWeight = ();
}

impl NodeCount for Map {
    fn node_count(&self) -> usize {
        self.len()
    }
}

impl NodeIndexable for Map {
    fn node_bound(&self) -> usize {
        self.len()
    }

    fn to_index(&self, a: NodeIndex) -> usize {
        a.index()
    }

    fn from_index(&self, i: usize) -> NodeIndex {
        NodeIndex::new(i)
    }
}

/// The neighbours of a node, from the map's table.
#[derive(Clone, Debug)]
pub struct Neighbors<'a>(std::slice::Iter<'a, u32>);

impl Iterator for Neighbors<'_> {
    type Item = NodeIndex;

    fn next(&mut self) -> Option<NodeIndex> {
        self.0.next().map(|&j| NodeIndex::new(j as usize))
    }
}

/// The steps from a node to each of its neighbours.
#[derive(Clone, Debug)]
pub struct Steps<'a> {
    from: NodeIndex,
    to: Neighbors<'a>,
}

impl<'a> Iterator for Steps<'a> {
    type Item = Step<'a>;

    fn next(&mut self) -> Option<Step<'a>> {
        self.to.next().map(|to| (self.from, to, NO_WEIGHT))
    }
}

impl<'a> IntoNeighbors for &'a Map {
    type Neighbors = Neighbors<'a>;

    fn neighbors(self, a: NodeIndex) -> Neighbors<'a> {
        Neighbors(self.adjacent_slice(a.index()).iter())
    }
}

impl<'a> IntoEdges for &'a Map {
    type Edges = Steps<'a>;

    /// The steps from `a` to each neighbour, `a` the source of each.
    fn edges(self, a: NodeIndex) -> Steps<'a> {
        Steps {
            from: a,
            to: IntoNeighbors::neighbors(self, a),
        }
    }
}

impl<'a> IntoEdgeReferences for &'a Map {
    type EdgeRef = Step<'a>;
    type EdgeReferences = Box<dyn Iterator<Item = Step<'a>> + 'a>;

    /// Every edge once, from its lower index.
    fn edge_references(self) -> Self::EdgeReferences {
        Box::new((0..self.len()).flat_map(move |i| {
            self.adjacent(i)
                .filter(move |&j| j > i)
                .map(move |j| (NodeIndex::new(i), NodeIndex::new(j), NO_WEIGHT))
        }))
    }
}

impl IntoNodeIdentifiers for &Map {
    type NodeIdentifiers = std::iter::Map<std::ops::Range<usize>, fn(usize) -> NodeIndex>;

    fn node_identifiers(self) -> Self::NodeIdentifiers {
        (0..self.len()).map(NodeIndex::new as fn(usize) -> NodeIndex)
    }
}

impl Visitable for Map {
    type Map = FixedBitSet;

    fn visit_map(&self) -> FixedBitSet {
        FixedBitSet::with_capacity(self.len())
    }

    fn reset_map(&self, map: &mut FixedBitSet) {
        map.clear();
        map.grow(self.len());
    }
}

impl std::ops::Index<NodeIndex> for Map {
    type Output = Hex;

    /// The hex of a node, as petgraph's `graph[node]` reads a node's weight.
    fn index(&self, node: NodeIndex) -> &Hex {
        &self.hexes[node.index()]
    }
}
