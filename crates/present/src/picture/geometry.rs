//! Where a hex sits on the page (R0.4): flat-topped hexes in columns, the odd columns (01, 03,
//! ...) half a hex lower, through hexx's flat [`HexLayout`] on the same axial coordinates the
//! map uses. Page coordinates run right and down, as SVG's do.

use hexmap::{Hex, Label, Map};
use hexx::{HexLayout, Vec2};

/// A point on the page, in SVG user units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Rightwards.
    pub x: f32,
    /// Downwards.
    pub y: f32,
}

impl From<Vec2> for Point {
    fn from(v: Vec2) -> Self {
        Self { x: v.x, y: v.y }
    }
}

impl Point {
    /// The distance to another point.
    #[must_use]
    pub fn distance(self, other: Self) -> f32 {
        (self.x - other.x).hypot(self.y - other.y)
    }
}

/// The page layout of one map: hex size, margins, and the map's extent.
#[derive(Clone, Debug)]
pub struct Geometry {
    layout: HexLayout,
    /// Width of the map area, margins included.
    pub width: f32,
    /// Height of the map area, margins included.
    pub height: f32,
    /// Centre to corner.
    pub size: f32,
}

/// The page margin around the hexes.
const MARGIN: f32 = 12.0;

impl Geometry {
    /// The layout of `map` with hexes of `size` (centre to corner) units.
    #[must_use]
    pub fn new(map: &Map, size: f32) -> Self {
        // hexx's y grows with the axial r, which grows with the row: down the page.
        let raw = HexLayout::flat().with_hex_size(size);
        let (mut min, mut max) = (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN));
        for hex in map.hexes() {
            for c in raw.hex_corners(hex) {
                min = min.min(c);
                max = max.max(c);
            }
        }
        if map.is_empty() {
            (min, max) = (Vec2::ZERO, Vec2::ZERO);
        }
        let layout = raw.with_origin(Vec2::splat(MARGIN) - min);
        let extent = max - min + Vec2::splat(2.0 * MARGIN);
        Self {
            layout,
            width: extent.x,
            height: extent.y,
            size,
        }
    }

    /// The centre of a hex.
    #[must_use]
    pub fn centre(&self, hex: Hex) -> Point {
        self.layout.hex_to_world_pos(hex).into()
    }

    /// The centre of a labelled hex.
    #[must_use]
    pub fn centre_of(&self, label: Label) -> Point {
        self.centre(label.to_hex())
    }

    /// The six corners of a hex, clockwise on the page from the right-hand one.
    #[must_use]
    pub fn corners(&self, hex: Hex) -> [Point; 6] {
        self.layout.hex_corners(hex).map(Point::from)
    }

    /// Distance between the centres of two neighbouring hexes.
    #[must_use]
    pub fn pitch(&self) -> f32 {
        self.size * 3f32.sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexmap::{TerrainId, TerrainTable};

    fn map(cols: u16, rows: u16) -> Map {
        let table = TerrainTable::from_toml(model::bundled::TERRAIN).unwrap();
        Map::new(table, cols, rows, TerrainId(0))
    }

    fn shared_corners(g: &Geometry, a: Hex, b: Hex) -> usize {
        let cb = g.corners(b);
        g.corners(a)
            .iter()
            .filter(|p| cb.iter().any(|q| p.distance(*q) < 1e-3))
            .count()
    }

    /// R0.4: the hexes the map calls neighbours are exactly those drawn side by side: their
    /// centres one pitch apart and an edge (two corners) in common; every other pair is farther
    /// apart and shares no edge.
    #[test]
    fn neighbours_on_the_map_touch_on_the_page() {
        let m = map(7, 6);
        let g = Geometry::new(&m, 30.0);
        let hexes: Vec<Hex> = m.hexes().collect();
        for &a in &hexes {
            let near: Vec<Hex> = m.neighbors(a).collect();
            for &b in &hexes {
                if a == b {
                    continue;
                }
                let d = g.centre(a).distance(g.centre(b));
                if near.contains(&b) {
                    assert!((d - g.pitch()).abs() < 1e-3, "{a:?} {b:?} {d}");
                    assert_eq!(shared_corners(&g, a, b), 2, "{a:?} {b:?}");
                } else {
                    assert!(d > g.pitch() + 1.0, "{a:?} {b:?} {d}");
                    assert!(shared_corners(&g, a, b) < 2, "{a:?} {b:?}");
                }
            }
        }
    }

    /// R0.4: columns run left to right and rows top to bottom; odd columns sit half a hex lower,
    /// so 0101 is below 0201, and 0101 touches 0201 and 0202.
    #[test]
    fn labels_sit_where_the_rulebook_says() {
        let m = map(4, 4);
        let g = Geometry::new(&m, 20.0);
        let at = |s: &str| g.centre_of(s.parse().unwrap());
        assert!(at("0201").x > at("0101").x);
        assert!(at("0102").y > at("0101").y);
        assert!((at("0101").y - at("0201").y - g.pitch() / 2.0).abs() < 1e-3);
        assert!((at("0101").x - at("0102").x).abs() < 1e-3);
        assert!((at("0101").distance(at("0202")) - g.pitch()).abs() < 1e-3);
        // Everything lies on the page, inside the margin.
        for h in m.hexes() {
            for c in g.corners(h) {
                assert!(c.x >= MARGIN - 1e-3 && c.x <= g.width - MARGIN + 1e-3);
                assert!(c.y >= MARGIN - 1e-3 && c.y <= g.height - MARGIN + 1e-3);
            }
        }
    }
}
