//! The saved game (`docs/saved-games.md`): the scenario's text, the seeds, every line either
//! side gave (with the AI that gave it) and a hash of the position after each player turn;
//! read and checked here, field by field, for the play session and for the fuzzer.

use serde::{Deserialize, Serialize};

/// The save format this hexwar writes: 4 records every line of both sides, each AI's with its
/// name (`by`), and every answer to the rules' questions, so that a game replays whatever the
/// AIs would play now; 3 recorded only the lines of the sides people commanded, the AIs' play
/// being computed again. 3 and 4 hash each player turn's position at the end of that turn by an
/// explicit encoding of the position (`State::position_hash`); 2 hashed the same moment by the
/// text of the engine's types, which changed with them; 1 (without the field) hashed another
/// moment and recorded no terrain hash. Only the hashes of formats 3 to 5 are compared. 5 adds
/// `resume_from`: a game saved at a question asked while the AIs played takes up their play
/// where it began, so that it goes on as the game played through.
pub const SAVE_FORMAT: u32 = 5;

/// The first format that may say where a stopped call is taken up (`resume_from`).
pub const TAKE_UP: u32 = 5;

/// The first format that records the AIs' lines as well as the people's.
pub const EVERY_LINE: u32 = 4;

/// The first format whose hashes are compared.
pub const HASHED: u32 = 3;

/// A saved game: enough to play it again, exactly, on any machine.
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedGame {
    /// The save format ([`SAVE_FORMAT`]); 1 when absent.
    #[serde(default = "format_1")]
    pub format: u32,
    /// The hexwar that saved it.
    pub hexwar: String,
    /// The scenario's file name, for messages.
    pub scenario_name: String,
    /// The scenario's text.
    pub scenario: String,
    /// The hash of the catalog it was played with.
    pub catalog_hash: String,
    /// The hash of the terrain table it was played with (absent in format 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terrain_hash: Option<String>,
    /// The batch seed and game index of the dice.
    pub seed: u64,
    /// See `seed`.
    pub game: u64,
    /// The sides people command.
    pub sides: Vec<String>,
    /// `--counterattacks on|off`, if it was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counterattacks: Option<String>,
    /// `--ai SIDE=KIND[:THRESHOLD]`, each as it was given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ai: Vec<String>,
    /// `--turns N` of `hexwar run`, if it was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_limit: Option<u32>,
    /// After the lines, the AI played every side to the end (`hexwar run --resume`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ai_took_over: bool,
    /// The AIs' own generator where it stood after the lines (format 4), so that a resumed game
    /// goes on as the game would have: its whole state, as JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ai_rng: Option<String>,
    /// Saved at a question asked while the turn engine ran on, the AIs playing their phases
    /// (format 5): how many lines come before that run. `ai_rng` is then the AIs' generator
    /// as it stood when the run began, and the lines after these are the run's, which the game
    /// resumed plays again as it first played them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume_from: Option<usize>,
    /// Every line that changed the game, in order: from format 4 both sides', each AI's with
    /// its name; before, only the people's.
    #[serde(default)]
    pub commands: Vec<Given>,
    /// The position's hash after each player turn.
    #[serde(default)]
    pub turns: Vec<TurnHash>,
}

const fn format_1() -> u32 {
    1
}

/// A line of the game: a command, a choice, `end` or an answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Given {
    /// Game turn.
    pub turn: u32,
    /// The side.
    pub side: String,
    /// `deployment`, `start`, `movement` or `fire`.
    pub phase: String,
    /// The command, or `end`.
    #[serde(rename = "do")]
    pub line: String,
    /// The AI that gave it (`search:256`); absent when a person (or a script) did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
}

/// The position after a player turn.
#[derive(Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct TurnHash {
    /// Game turn.
    pub turn: u32,
    /// The side whose turn ended.
    pub side: String,
    /// FNV-1a of the position.
    pub hash: String,
}

impl SavedGame {
    /// The values every field may take, whatever the scenario (which checks the rest: its
    /// sides, units and hexes, when the game is played again).
    /// Reads a saved game's text and checks every field.
    ///
    /// # Errors
    /// What is wrong, in words.
    pub fn read(text: &str) -> Result<Self, String> {
        let saved: Self = toml::from_str(text).map_err(|e| format!("not a saved game: {e}"))?;
        saved.check()?;
        Ok(saved)
    }

    /// Checks every field.
    ///
    /// # Errors
    /// What is wrong, in words.
    pub fn check(&self) -> Result<(), String> {
        // As hexwar writes them: lower case (an upper-case hash would pass here and then never
        // match its position).
        let hash = |h: &str| {
            h.len() == 16
                && h.bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        };
        if self.format == 0 || self.format > SAVE_FORMAT {
            return Err(format!(
                "save format {} (this hexwar {} reads formats 1 to {SAVE_FORMAT}): saved by a newer hexwar?",
                self.format,
                env!("CARGO_PKG_VERSION")
            ));
        }
        if self
            .counterattacks
            .as_deref()
            .is_some_and(|c| c != "on" && c != "off")
        {
            return Err(format!(
                "counterattacks = {:?}: `on` or `off`",
                self.counterattacks.as_deref().unwrap_or_default()
            ));
        }
        if self.turn_limit == Some(0) {
            return Err("turn_limit = 0: at least 1".to_owned());
        }
        if self
            .ai_rng
            .as_deref()
            .is_some_and(|r| self.ai_generator_of(r).is_none())
        {
            return Err("ai_rng: not the state of the AIs' generator".to_owned());
        }
        // Each `by` names an AI this hexwar has (with a setting it takes): a line an AI that
        // does not exist gave is not a line of any game.
        for (i, g) in self.commands.iter().enumerate() {
            if let Some(why) = g.by.as_deref().and_then(|b| ai::check_name(b).err()) {
                return Err(format!(
                    "command {} (`{}`, turn {}, {}): by = {:?}: {why}",
                    i + 1,
                    model::shown(&g.line),
                    g.turn,
                    model::shown(&g.side),
                    model::shown(g.by.as_deref().unwrap_or_default())
                ));
            }
        }
        if let Some(n) = self.resume_from {
            if self.format < TAKE_UP {
                return Err(format!(
                    "resume_from: a field of save format {TAKE_UP}, and this save is format {}",
                    self.format
                ));
            }
            if n > self.commands.len() {
                return Err(format!(
                    "resume_from = {n}: the save has {} lines",
                    self.commands.len()
                ));
            }
            if self.ai_rng.is_none() {
                return Err("resume_from without ai_rng: the AIs' generator where their run began is needed to take it up".to_owned());
            }
        }
        if !hash(&self.catalog_hash) || self.terrain_hash.as_deref().is_some_and(|h| !hash(h)) {
            return Err("a content hash is 16 lower-case hexadecimal digits".to_owned());
        }
        if self.scenario_name.is_empty() || self.scenario_name.chars().count() > 4096 {
            return Err("scenario_name: a file name of 1 to 4096 characters".to_owned());
        }
        for g in &self.commands {
            if !matches!(
                g.phase.as_str(),
                "movement" | "fire" | "start" | "end" | "deployment"
            ) {
                return Err(format!(
                    "command `{}`: phase `{}`: the phases are `deployment`, `start`, `movement`, `fire` and `end`",
                    g.line, g.phase
                ));
            }
        }
        if let Some(t) = self.turns.iter().find(|t| t.turn == 0 || !hash(&t.hash)) {
            return Err(format!(
                "turns: turn {} hash `{}`: turns count from 1, a hash is 16 lower-case hexadecimal digits",
                t.turn, t.hash
            ));
        }
        Ok(())
    }

    /// The AIs' generator the save carries (format 4), if it does.
    #[must_use]
    pub fn ai_generator(&self) -> Option<model::GameRng> {
        self.ai_rng.as_deref().and_then(|r| self.ai_generator_of(r))
    }

    fn ai_generator_of(&self, text: &str) -> Option<model::GameRng> {
        serde_json::from_str(text).ok()
    }

    /// Why a replay of this save may diverge besides an edit: another hexwar or save format.
    #[must_use]
    pub fn provenance(&self) -> String {
        let mine = env!("CARGO_PKG_VERSION");
        if self.hexwar == mine {
            String::new()
        } else {
            format!(
                " (saved by hexwar {}, this is hexwar {mine}, which may play differently)",
                self.hexwar
            )
        }
    }
}
