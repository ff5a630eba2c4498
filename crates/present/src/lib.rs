//! How hexwar shows a game, as text and pictures, with no terminal and no files: the narrative
//! of events (`narrate`, the one place an event is told), the JSON events and their schema
//! (`events_json`), a player turn's summary (`summary`), the text of a batch summary
//! (`batch`), the terminal map (`show`), the unit tables (`units`), and the pictures
//! (`picture`: map and counters as SVG and PNG, the plots, the replay page). The `commands`
//! crate prints and writes what these return.

pub mod batch_summary;
pub mod events_json;
pub mod narrate;
pub mod picture;
pub mod show;
pub mod turn_summary;
pub mod units;
