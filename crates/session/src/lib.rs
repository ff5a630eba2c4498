//! The layer between the rules (`counters`) and the `hexwar` front end: what a session reads
//! and writes that is not a rule. The saved game and its checks (`save`), the one seeding of
//! every game hexwar plays (`seeding`), and the stacks `hexwar odds` takes (`odds_spec`). No
//! terminal and no files: the front end reads and writes, this crate parses and checks, so
//! the fuzzer can test it without the binary.

pub mod odds_spec;
pub mod save;
pub mod seeding;
