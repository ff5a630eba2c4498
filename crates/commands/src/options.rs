//! The flags several commands share, parsed by clap into typed values.

use clap::ValueEnum;

use crate::data::BadInput;

/// A rule switched on or off on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Switch {
    /// The rule applies.
    On,
    /// It does not.
    Off,
}

impl Switch {
    /// Whether the rule applies.
    #[must_use]
    pub fn on(self) -> bool {
        self == Self::On
    }
}

/// `--ai SIDE=KIND[:SETTING]`: the AI a side of the scenario plays with (a doctrine AI's
/// threshold, the search AI's budget).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AiOverride {
    /// The side's id, checked against the scenario when it is applied.
    pub side: String,
    /// The AI's name, checked by the AI registry.
    pub ai: String,
    /// The text as given, for messages and for saves.
    pub text: String,
}

impl AiOverride {
    /// Parses `SIDE=KIND[:SETTING]` (clap's value parser for `--ai`).
    pub fn parse(text: &str) -> Result<Self, String> {
        let (side, kind) = text.split_once('=').ok_or_else(|| {
            "expected SIDE=KIND[:SETTING], e.g. nato=random, soviet=doctrine:0.65 or us=search:512"
                .to_owned()
        })?;
        ai::check_name(kind)?;
        Ok(Self {
            side: side.to_owned(),
            ai: kind.trim().to_owned(),
            text: text.to_owned(),
        })
    }
}

impl std::fmt::Display for AiOverride {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// How games are played: the rule and AI overrides `run`, `batch`, `tune`, `test` and `play`
/// share.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct PlayOptions {
    /// Override the scenario's `counterattacks` rule (R11).
    #[arg(long, value_enum)]
    pub counterattacks: Option<Switch>,
    /// The AI of a side: SIDE=doctrine|doctrine@1|exploiter|passive|random|search (`doctrine`
    /// the latest, `doctrine@1` the frozen reference, `exploiter` the frozen adversary that
    /// plays as a person who beat the search AI did, `search` the AI that looks ahead by
    /// playing the game out); for a doctrine AI the win probability above which it assaults,
    /// SIDE=doctrine:0.65, and for the search AI its playouts per phase, SIDE=search:1024
    /// (default 256; more plays stronger and slower) (repeatable).
    #[arg(long, value_name = "SIDE=KIND[:SETTING]", value_parser = AiOverride::parse)]
    pub ai: Vec<AiOverride>,
}

impl PlayOptions {
    /// Applies the overrides to a loaded scenario.
    pub fn apply(&self, scenario: &mut model::Scenario) -> Result<(), BadInput> {
        if let Some(c) = self.counterattacks {
            scenario.rules.counterattacks = c.on();
        }
        override_ai(scenario, &self.ai)
    }

    /// The overrides a saved game records (`counterattacks = "on"`, `ai = ["nato=random"]`),
    /// parsed as the flags are.
    pub fn from_saved(counterattacks: Option<&str>, ai: &[String]) -> Result<Self, BadInput> {
        let counterattacks = match counterattacks {
            None => None,
            Some(c) => Some(
                Switch::from_str(c, false)
                    .map_err(|_| BadInput(format!("counterattacks = {c:?}: `on` or `off`")))?,
            ),
        };
        let ai = ai
            .iter()
            .map(|a| AiOverride::parse(a).map_err(|e| BadInput(format!("ai `{a}`: {e}"))))
            .collect::<Result<_, _>>()?;
        Ok(Self { counterattacks, ai })
    }

    /// The `counterattacks` a save records: `on`, `off` or none.
    #[must_use]
    pub fn saved_counterattacks(&self) -> Option<String> {
        self.counterattacks.map(|c| match c {
            Switch::On => "on".to_owned(),
            Switch::Off => "off".to_owned(),
        })
    }

    /// The `ai` a save records, as given.
    #[must_use]
    pub fn saved_ai(&self) -> Vec<String> {
        self.ai.iter().map(|a| a.text.clone()).collect()
    }
}

/// Gives each side named in `overrides` its AI (`doctrine`, `doctrine@1`, `passive`,
/// `random`, `search`; for a doctrine AI the probability of winning above which it assaults and
/// overruns, for the search AI its budget).
pub fn override_ai(
    scenario: &mut model::Scenario,
    overrides: &[AiOverride],
) -> Result<(), BadInput> {
    let sides: Vec<String> = scenario.sides.iter().map(|s| s.id.clone()).collect();
    for (i, o) in overrides.iter().enumerate() {
        if let Some(first) = overrides[..i].iter().find(|p| p.side == o.side) {
            return Err(BadInput(format!(
                "--ai `{first}` and --ai `{o}`: two AIs for side `{}`",
                o.side
            )));
        }
        let s = scenario
            .sides
            .iter_mut()
            .find(|s| s.id == o.side)
            .ok_or_else(|| {
                let ids: Vec<&str> = sides.iter().map(String::as_str).collect();
                BadInput(format!(
                    "--ai `{}`: no side `{}` in this scenario{} (the sides are `{}` and `{}`)",
                    model::shown(&o.text),
                    model::shown(&o.side),
                    hexmap::did_you_mean(&o.side, ids.iter().copied()),
                    ids[0],
                    ids[1]
                ))
            })?;
        s.ai = model::AiName::new(o.ai.clone());
    }
    Ok(())
}

/// A count of turns, at least 1 (clap's value parser for `--turns` and `--after`).
pub fn turns(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(0) => Err("must be at least 1".to_owned()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("not a number of turns: {e}")),
    }
}
