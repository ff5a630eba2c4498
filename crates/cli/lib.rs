//! The rendering of the `hexwar` front end, shared by the binary and its tests: the narrative of
//! events (`narrate`), the one place an event is told.

pub mod events_json;
pub mod narrate;
pub mod picture;
pub mod summary;
