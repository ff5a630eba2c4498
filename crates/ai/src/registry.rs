//! The AIs by name, as scenarios (`[[sides]] ai`, `[expect] ai`), `--ai` and saved games give
//! them: `doctrine`, `doctrine@1`, `passive`, `random`, `search`, a doctrine AI with its assault
//! threshold (`doctrine:0.65`), the search AI with its budget (`search:400`). One table,
//! [`REGISTRY`]: a new AI is a row here and a type that implements [`Plays`], its name
//! written once, as the type's [`Plays::KIND`].

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use counters::{Rules, State};
use game::{Ai, Seat};
use model::{Event, GameRng, OutOfDice, Scenario, Side, SideInfo, parse_threshold};

use crate::{Doctrine, DoctrineV1, Exploiter, Passive, Plays, Random, Search, SearchV1, Setting};

/// The search AI's playouts per phase when its name gives no budget (`search`).
pub const DEFAULT_SEARCH_BUDGET: u32 = 256;

/// The most playouts per phase a search budget may name.
pub const MAX_SEARCH_BUDGET: u32 = 100_000;

/// What may follow an AI's name after `:`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Takes {
    /// Nothing.
    Nothing,
    /// An assault threshold, strictly between 0 and 1 (kept in thousandths).
    Threshold,
    /// A search budget, in playouts per phase.
    Budget,
}

/// Builds an AI for a side of a scenario, with its setting if the name gave one, and the flag
/// that stops its thinking.
type Build = fn(Option<Setting>, &SideInfo, Option<&'static AtomicBool>) -> Arc<dyn Ai>;

/// An AI the registry knows.
struct Registered {
    /// Its name.
    name: &'static str,
    /// Its setting, if it takes one.
    takes: Takes,
    /// How batch summaries of earlier hexwars named it in their identity (`Doctrine`), kept so
    /// that summaries merge and compare across versions.
    summary_name: &'static str,
    /// Builds it for a side of a scenario, with its setting if the name gave one, and the flag
    /// that stops an AI's thinking ([`Players::stopping`]).
    build: Build,
}

/// The side's own assault threshold, unless the name gave one.
fn threshold(setting: Option<Setting>, side: &SideInfo) -> u16 {
    match setting {
        Some(Setting::Threshold(t)) => t,
        _ => side.assault_threshold,
    }
}

/// The search budget the name gave, else [`DEFAULT_SEARCH_BUDGET`].
fn budget(setting: Option<Setting>) -> u32 {
    match setting {
        Some(Setting::Budget(b)) => b,
        _ => DEFAULT_SEARCH_BUDGET,
    }
}

/// Every AI hexwar knows, by name.
const REGISTRY: [Registered; 7] = [
    Registered {
        name: Doctrine::KIND,
        takes: Takes::Threshold,
        summary_name: "Doctrine",
        build: |t, side, _| Arc::new(Doctrine::new(threshold(t, side))),
    },
    Registered {
        name: DoctrineV1::KIND,
        takes: Takes::Threshold,
        summary_name: "DoctrineV1",
        build: |t, side, _| Arc::new(DoctrineV1::new(threshold(t, side))),
    },
    Registered {
        name: Exploiter::KIND,
        takes: Takes::Nothing,
        summary_name: "Exploiter",
        build: |_, _, _| Arc::new(Exploiter),
    },
    Registered {
        name: Passive::KIND,
        takes: Takes::Nothing,
        summary_name: "Passive",
        build: |_, _, _| Arc::new(Passive),
    },
    Registered {
        name: Random::KIND,
        takes: Takes::Nothing,
        summary_name: "Random",
        build: |_, _, _| Arc::new(Random),
    },
    Registered {
        name: Search::KIND,
        takes: Takes::Budget,
        summary_name: "Search",
        build: |b, side, stop| {
            Arc::new(Search::new(budget(b), side.assault_threshold).stopping(stop))
        },
    },
    Registered {
        name: SearchV1::KIND,
        takes: Takes::Budget,
        summary_name: "SearchV1",
        build: |b, side, stop| {
            Arc::new(SearchV1::new(budget(b), side.assault_threshold).stopping(stop))
        },
    },
];

/// The names of every AI, as `--ai` takes them.
pub fn names() -> impl Iterator<Item = &'static str> {
    REGISTRY.iter().map(|r| r.name)
}

/// Parses a search budget (`400`): a whole number of playouts, 1 to [`MAX_SEARCH_BUDGET`].
///
/// # Errors
/// A message saying what is wrong.
pub fn parse_budget(text: &str) -> Result<u32, String> {
    let n: u32 = text
        .trim()
        .parse()
        .map_err(|_| format!("search budget `{text}` is not a whole number of playouts"))?;
    if (1..=MAX_SEARCH_BUDGET).contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "search budget {n} must lie between 1 and {MAX_SEARCH_BUDGET} playouts"
        ))
    }
}

/// Reads `NAME[:SETTING]`: the AI and its setting, checked.
fn parse(text: &str) -> Result<(&'static Registered, Option<Setting>), String> {
    let name = crate::name::kind_of(text);
    let setting = text.split_once(':').map(|(_, t)| t);
    let entry = REGISTRY.iter().find(|r| r.name == name).ok_or_else(|| {
        let all: Vec<&str> = names().collect();
        format!(
            "unknown AI `{}`{} (the AIs are {} and {})",
            model::shown(name),
            hexmap::did_you_mean(name, all.iter().copied()),
            all[..all.len() - 1].join(", "),
            all[all.len() - 1]
        )
    })?;
    let setting = match (entry.takes, setting) {
        (_, None) => None,
        (Takes::Threshold, Some(t)) => Some(Setting::Threshold(parse_threshold(t)?)),
        (Takes::Budget, Some(b)) => Some(Setting::Budget(parse_budget(b)?)),
        (Takes::Nothing, Some(_)) => {
            return Err(format!(
                "only a doctrine AI takes an assault threshold and only the search AI a \
                 budget (`{}` takes neither)",
                entry.name
            ));
        }
    };
    Ok((entry, setting))
}

/// Checks an AI name (`doctrine:0.65`): the scenario loader's check
/// ([`model::ScenarioFile::knowing_ais`]) and `--ai`'s.
///
/// # Errors
/// What is wrong, in words.
pub fn check_name(text: &str) -> Result<(), String> {
    parse(text).map(drop)
}

/// The AI `text` names, written as hexwar writes it: the name, and the setting if one was given
/// (`doctrine:0.350` is `doctrine:0.35`, ` search ` is `search`).
///
/// # Errors
/// What is wrong with the name.
pub fn canonical(text: &str) -> Result<String, String> {
    let (entry, setting) = parse(text)?;
    Ok(crate::plays::written(
        entry.name,
        setting.unwrap_or(Setting::Nothing),
    ))
}

/// The AI `text` names, for a side of a scenario (whose assault threshold a doctrine AI named
/// without one keeps).
///
/// # Errors
/// What is wrong with the name.
pub fn build(text: &str, side: &SideInfo) -> Result<Arc<dyn Ai>, String> {
    let (entry, setting) = parse(text)?;
    Ok((entry.build)(setting, side, None))
}

/// How a side's AI is written in a batch summary's identity, as hexwar always wrote it:
/// `Doctrine:500`, `Search:800:256` (the kind, the side's assault threshold as the AI plays it
/// in thousandths, and the search AI's budget), so that summaries of earlier hexwars merge and
/// compare.
///
/// # Errors
/// What is wrong with the name.
pub fn identity(side: &SideInfo) -> Result<String, String> {
    let (entry, setting) = parse(&side.ai.text)?;
    Ok(match entry.takes {
        Takes::Threshold => format!("{}:{}", entry.summary_name, threshold(setting, side)),
        Takes::Budget => format!(
            "{}:{}:{}",
            entry.summary_name,
            side.assault_threshold,
            budget(setting)
        ),
        Takes::Nothing => format!("{}:{}", entry.summary_name, side.assault_threshold),
    })
}

/// The AIs of a scenario's two sides, as its `[[sides]] ai` name them: what plays a game of it
/// with nobody answering from outside.
#[derive(Clone)]
pub struct Players([Arc<dyn Ai>; 2]);

impl Players {
    /// The AIs the scenario's sides name.
    ///
    /// # Errors
    /// An unknown AI, named with its side.
    pub fn of(scenario: &Scenario) -> Result<Self, String> {
        Self::stopping(scenario, None)
    }

    /// The AIs the scenario's sides name, those that think long thinking no more once `stop`
    /// is set (a signal's flag): their games are then cut short, and not the games they would
    /// have played, so the caller throws away a game during which `stop` was set.
    ///
    /// # Errors
    /// An unknown AI, named with its side.
    pub fn stopping(
        scenario: &Scenario,
        stop: Option<&'static AtomicBool>,
    ) -> Result<Self, String> {
        let ai = |i: usize| {
            let side = &scenario.sides[i];
            parse(&side.ai.text)
                .map(|(entry, setting)| (entry.build)(setting, side, stop))
                .map_err(|e| format!("side `{}`: {e}", side.id))
        };
        Ok(Self([ai(0)?, ai(1)?]))
    }

    /// The AI of a side.
    #[must_use]
    pub fn of_side(&self, side: Side) -> &Arc<dyn Ai> {
        &self.0[side.index()]
    }

    /// The AIs as the rules and the odds ask them for the choices of units without orders.
    #[must_use]
    pub fn advisors(&self) -> game::Advisors<'_> {
        game::Advisors([&*self.0[0], &*self.0[1]])
    }

    /// Both AIs, side A's then side B's.
    #[must_use]
    pub const fn both(&self) -> &[Arc<dyn Ai>; 2] {
        &self.0
    }

    /// The seats of a game in which people (or scripts) answer for the sides `outside` says,
    /// each side's AI advising them.
    #[must_use]
    pub fn seats(&self, outside: [bool; 2]) -> [Seat; 2] {
        [0, 1].map(|i| {
            let ai = Arc::clone(&self.0[i]);
            if outside[i] {
                Seat::outside(ai)
            } else {
                Seat::ai(ai)
            }
        })
    }

    /// A game between these AIs, not yet begun.
    #[must_use]
    pub fn game<'r>(&self, rules: Rules<'r>, dice: GameRng, ai_rng: GameRng) -> game::Game<'r> {
        game::Game::new(rules, dice, ai_rng, self.seats([false, false]))
    }

    /// Plays a whole game and returns it (its position, its events). `ai_rng` is the AIs' own
    /// generator, never used for the game's dice.
    ///
    /// # Errors
    /// Only [`OutOfDice`], with scripted dice.
    pub fn play<'r>(
        &self,
        rules: Rules<'r>,
        dice: GameRng,
        ai_rng: GameRng,
    ) -> Result<game::Game<'r>, OutOfDice> {
        let mut game = self.game(rules, dice, ai_rng);
        game.advance()?;
        Ok(game)
    }

    /// The end of a whole game ([`Players::play`]).
    ///
    /// # Errors
    /// Only [`OutOfDice`], with scripted dice.
    pub fn play_to_end(
        &self,
        rules: Rules<'_>,
        dice: GameRng,
        ai_rng: GameRng,
    ) -> Result<State, OutOfDice> {
        Ok(self.play(rules, dice, ai_rng)?.state().clone())
    }
}

/// Why a whole game of a scenario's AIs could not be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The scenario names an AI the registry does not know.
    #[error("{0}")]
    Ai(String),
    /// Scripted dice ran out.
    #[error(transparent)]
    Dice(#[from] OutOfDice),
}

/// Plays a whole game of the scenario's AIs, with `dice` for its dice and `ai_rng` for the
/// AIs' own draws, and returns its end and its events: for tests and tools.
///
/// # Errors
/// [`GameError`].
pub fn play_with(
    rules: &Rules<'_>,
    dice: GameRng,
    ai_rng: GameRng,
) -> Result<(State, Vec<Event>), GameError> {
    let players = Players::of(rules.scenario).map_err(GameError::Ai)?;
    let game = players.play(*rules, dice, ai_rng)?;
    Ok((game.state().clone(), game.events().to_vec()))
}

/// As [`play_with`], the AIs' own generator seeded with 0.
///
/// # Errors
/// [`GameError`].
pub fn play(rules: &Rules<'_>, dice: GameRng) -> Result<(State, Vec<Event>), GameError> {
    play_with(rules, dice, GameRng::seed_from_u64(0))
}
