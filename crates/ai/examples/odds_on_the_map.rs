//! Issue 67's measure, as the test `odds_on_the_map` takes it, with what the odds cost:
//!
//! ```sh
//! cargo run --release -p ai --example odds_on_the_map -- [POSITIONS] [PLAYS] [SEED]
//! ```
//!
//! Defaults: 200 positions (25 from each bundled scenario), 20,000 plays each, seed 1. Prints
//! every position whose exact odds disagree with the engine (with `ODDS_MAP_SHOW` set, the
//! units around it too), then the counts and the time the odds took.

#[path = "../tests/odds_on_the_map.rs"]
mod odds_on_the_map;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let positions: usize = args.first().map_or(200, |a| a.parse().expect("positions"));
    let plays: u32 = args.get(1).map_or(20_000, |a| a.parse().expect("plays"));
    let seed: u64 = args.get(2).map_or(1, |a| a.parse().expect("seed"));
    let show = std::env::var("ODDS_MAP_SHOW").is_ok();
    print!("{}", odds_on_the_map::measure(positions, plays, seed, show));
}
