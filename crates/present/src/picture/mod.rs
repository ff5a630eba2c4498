//! Pictures of a battle, drawn by hexwar itself with nothing to install: the map and its
//! counters as SVG or PNG (`hexwar render`), a replay page to step through (`hexwar replay
//! --html`), and plots of batch and tune (`--plot`).
//!
//! `geometry` places hexes (R0.4), `style` reads how things look (`data/picture.toml`),
//! `counter` draws counters and stacks, `map` the map and legend, `png` rasterizes.

pub mod counter;
pub mod fonts;
pub mod geometry;
pub mod heatmap;
pub mod map;
pub mod plot;
pub mod png;
pub mod replay;
pub mod style;
pub mod svg;
