//! The layer between the rules (`counters`, the AIs of `ai`) and the `hexwar` front end: the
//! play session and what it reads and writes that is not a rule. The session (`session`: a
//! game recorded as its save as it goes, `undo`, the replay that resumes a saved game), the
//! rules' questions in a person's words and what an answer means (`questions`), the saved game
//! and its checks (`save`), a transcript's lines (`lines`), the one seeding of every
//! game hexwar plays (`seeding`), and the stacks `hexwar odds` takes (`odds_spec`). No terminal
//! and no files: the front end reads and writes, this crate plays, parses and checks, so the
//! fuzzer (and a web page) can use it without the binary.

pub mod lines;
pub mod odds_spec;
pub mod questions;
pub mod save;
pub mod seeding;
mod session;

pub use session::{ReplayError, Session, UndoError, position_hash};
