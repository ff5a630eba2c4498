//! The hexwar map: `CCRR` labels on hexx coordinates (R0.4), the terrain table (R1.1, R1.2), the
//! map as a petgraph graph (R1.4) with movement, retreat and break-off searches, and line of sight
//! (R1.3). It knows nothing of units: rules pass `cost` and `blocks` closures.

mod field;
mod graph;
mod label;
mod los;
mod map;
mod name;
mod paths;
mod terrain;

pub use field::Field;
pub use graph::{Neighbors, Step, Steps};
pub use hexx::Hex;
pub use label::{Label, LabelError};
pub use los::{hexes_between, line_of_sight};
pub use map::{Grid, Map};
pub use name::{
    MAX_ID_CHARS, MAX_NAME_CHARS, check_id, check_name, closest, did_you_mean, edits, nearest,
};
pub use paths::{Budget, Reach, Route, across};
pub use terrain::{MAX_COST, MoveClass, MoveCosts, Terrain, TerrainError, TerrainId, TerrainTable};

#[cfg(test)]
mod tests;
