//! The narrative never contradicts itself: in games of every bundled scenario, a unit the
//! narrative said found no way out of a melee (R11.6) is not then moved by a break-off or a
//! retreat of that fight, only by a loser's fall back, which says its own rule (R11.10); and a
//! retreat told inside a melee is always that fall back.

use counters::Rules;
use model::{GameRng, ScenarioFile, bundled};
use present::narrate::Narrator;

/// The unit a narrative line is about: its first word, for the lines of a fight.
fn subject(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

#[test]
fn no_unit_moves_after_the_narrative_said_it_found_no_way_out() {
    let catalog = bundled::catalog();
    let (mut stuck, mut fell_back, mut games) = (0, 0, 0);
    for (name, text) in bundled::SCENARIOS {
        let s = ScenarioFile::parse("s.toml", text)
            .validate(&catalog, &bundled::terrain())
            .unwrap();
        let rules = Rules::new(&s, &catalog);
        let players = ai::Players::of(&s).unwrap();
        for seed in 0..40 {
            games += 1;
            let game = players
                .play(
                    rules,
                    GameRng::for_game(3, seed),
                    GameRng::for_game(4, seed),
                )
                .unwrap();
            let mut narrator = Narrator::new(rules);
            // Units that found no way out in the fight being told.
            let mut no_way_out: Vec<String> = Vec::new();
            let mut in_melee = false;
            for e in game.events() {
                for line in narrator.lines(e) {
                    let line = line.trim();
                    let who = subject(line).to_owned();
                    if line.starts_with("result:") {
                        in_melee = line.ends_with("the defenders hold");
                    }
                    if line.starts_with("the fight for") {
                        in_melee = false;
                        no_way_out.clear();
                    }
                    assert!(!line.contains("cannot move"), "{name} seed {seed}: {line}");
                    if line.contains("finds no way out") {
                        stuck += 1;
                        no_way_out.push(who.clone());
                        continue;
                    }
                    let moves = line.contains(" breaks off ")
                        || line.contains(" retreats ")
                        || line.contains(" consolidates ");
                    assert!(
                        !(moves && no_way_out.contains(&who)),
                        "{name} seed {seed}: {who} found no way out, then: {line}"
                    );
                    assert!(
                        !(in_melee && line.contains(" retreats ")),
                        "{name} seed {seed}: a retreat in a melee not told as a fall back: {line}"
                    );
                    if line.contains(" falls back ") {
                        assert!(line.contains("(R11.10"), "{line}");
                        fell_back += 1;
                    }
                }
            }
        }
    }
    eprintln!("{games} games: {stuck} units found no way out, {fell_back} fell back");
    assert!(
        stuck > 0 && fell_back > 0,
        "the games told no unit without a way out ({stuck}) or no fall back ({fell_back}): the test proves nothing"
    );
}
