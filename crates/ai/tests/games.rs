//! Whole games of the AIs: summaries of a batch's shards merge into the summary of one run,
//! and the count of units standing in each hex stays true through every event of real games
//! (tests that play games, moved here from the rules crate, which has no AI).

use counters::{Rules, State};
use model::{GameRng, Scenario, ScenarioFile, Side, bundled};
use stats::{GameRecord, MergeError, Summary};

fn scenario(text: &str) -> Result<Scenario, Vec<model::Problem>> {
    ScenarioFile::parse("s.toml", text).validate(&catalog(), &bundled::terrain())
}

fn catalog() -> model::Catalog {
    bundled::catalog()
}

/// The scenario's AIs.
fn players(s: &Scenario) -> ai::Players {
    ai::Players::of(s).expect("the scenario's AIs")
}

/// The small test field the model's and the AIs' tests share.
const SMALL: &str = include_str!("../../../tests/data/small.toml");

#[test]
fn summaries_of_shards_merge_into_the_summary_of_one_run() {
    let s = scenario(SMALL).unwrap();
    let c = catalog();
    let rules = Rules::new(&s, &c);
    let records: Vec<GameRecord> = (0..40u64)
        .map(|i| {
            let game = players(&s)
                .play(rules, GameRng::for_game(9, i), GameRng::seed_from_u64(0))
                .unwrap();
            GameRecord::new(i, &rules, game.state())
        })
        .collect();
    let identity = stats::Identity {
        runs: 40,
        shard_count: 2,
        ..stats::Identity::default()
    };
    let mut whole = Summary::new(&s, 9);
    records.iter().for_each(|r| whole.add(r));
    whole.identity = Some(identity.clone());
    whole.shards = vec![0, 1];
    let mut a = Summary::new(&s, 9);
    let mut b = Summary::new(&s, 9);
    a.identity = Some(identity.clone());
    b.identity = Some(identity);
    a.shards = vec![0];
    b.shards = vec![1];
    // Each shard holds its own games (i % 2), as `--shard I/2` plays them.
    for r in &records {
        if r.game % 2 == 0 { a.add(r) } else { b.add(r) }
    }
    assert!(matches!(
        a.clone().merge(&a),
        Err(MergeError::Overlap(0, 2))
    ));
    a.merge(&b).unwrap();
    a.finish();
    whole.finish();
    assert_eq!(a, whole);
    assert_eq!(whole.runs, 40);
    assert_eq!(
        whole.sides[0].wins + whole.sides[1].wins + whole.both_lose,
        40,
        "every game has a result"
    );
    let other = Summary::new(&s, 10);
    assert!(matches!(a.merge(&other), Err(MergeError::Different(..))));
}

/// The count of units standing in each hex, which `apply` keeps, agrees with the units after
/// every event of whole games of each bundled scenario (moves, retreats, losses, transport).
#[test]
fn units_standing_per_hex_stay_true_through_whole_games() {
    let c = catalog();
    for text in [
        include_str!("../../../scenarios/dawn_assault.toml"),
        include_str!("../../../scenarios/meeting_engagement.toml"),
        include_str!("../../../scenarios/night_recon.toml"),
    ] {
        let s = scenario(text).unwrap();
        let rules = Rules::new(&s, &c);
        for game in 0..20 {
            let played = players(&s)
                .play(rules, GameRng::for_game(3, game), GameRng::seed_from_u64(0))
                .unwrap();
            let mut state = State::new(&s);
            for e in played.events() {
                state.apply(e);
                for hex in s.map.hexes() {
                    for side in [Side::A, Side::B] {
                        let scan = state
                            .units()
                            .iter()
                            .filter(|u| u.side == side && u.hex() == Some(hex))
                            .count();
                        assert_eq!(state.standing_in(hex, side), Some(scan), "{e:?}");
                        assert_eq!(state.occupied_by(hex, side), scan > 0);
                    }
                }
            }
        }
    }
}

#[test]
fn watching_who_leads_leaves_the_game_as_it_was_and_counts_every_change_of_the_lead() {
    let c = catalog();
    for (name, text) in [
        ("dawn", include_str!("../../../scenarios/dawn_assault.toml")),
        (
            "meeting",
            include_str!("../../../scenarios/meeting_engagement.toml"),
        ),
        ("night", include_str!("../../../scenarios/night_recon.toml")),
    ] {
        let s = ScenarioFile::parse(name, text)
            .validate(&c, &bundled::terrain())
            .unwrap();
        let rules = Rules::new(&s, &c);
        let p = players(&s);
        let mut changes = 0;
        for i in 0..6u64 {
            let dice = || (GameRng::for_game(3, i), GameRng::for_game(4, i));
            let (d, a) = dice();
            let straight = p.play(rules, d, a).unwrap();
            let (d, a) = dice();
            let mut watched = p.game(rules, d, a);
            let record = watched.play_out(i).unwrap();
            assert_eq!(watched.events(), straight.events(), "{name} game {i}");
            assert_eq!(
                GameRecord {
                    lead_changes: 0,
                    ..record.clone()
                },
                GameRecord::new(i, &rules, straight.state()),
                "{name} game {i}"
            );
            // Two outcomes (no fair fight): the lead changed an odd number of times exactly
            // when the winner is not the side that led at the start of the first player turn.
            let (d, a) = dice();
            let mut start = p.game(rules, d, a);
            start.advance_to(1, s.first).unwrap();
            let first = counters::victory::turn_limit_winner(start.state(), &rules);
            let winner = straight.state().outcome().and_then(|o| o.winner);
            assert!(!s.fair_fight);
            assert_eq!(
                record.lead_changes % 2 == 1,
                first != winner,
                "{name} game {i}"
            );
            assert!(
                record.lead_changes <= 2 * record.turns + 1,
                "{name} game {i}"
            );
            changes += record.lead_changes;
        }
        assert!(changes > 0, "{name}: the lead never changed in six games");
    }
}
