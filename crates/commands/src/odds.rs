//! `hexwar odds`: exact probabilities of an assault or an overrun between two stacks.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use counters::{Rules, check};
use hexmap::TerrainTable;
use model::{Catalog, Command, Side};
use odds::{
    Choices, Combatant, MATCHUP_DEFENDERS, assault_odds, matchup, matchup_state, melee_odds,
    overrun_odds, set_choices,
};

use crate::Switch;
use crate::data::{BadInput, CatalogDir};

/// What the matchup's field is, said under each assault's header: its odds are a matchup's,
/// not a position's (issue 67).
const OPEN_FIELD: &str = "  on an open field      every retreat and break-off finds room; for a position's own odds \
     (its map, the units around it) use `odds assault HEX with UNIT...` in `hexwar play`, or \
     `hexwar odds --position SAVE HEX with UNIT...`\n";

/// `hexwar odds`.
#[derive(clap::Args)]
pub struct OddsArgs {
    /// `ATTACKERS vs DEFENDERS`, e.g. `btr70,hq_mrr vs m2:disorganized`; with `--position`,
    /// `HEX with UNIT...`.
    #[arg(required = true, num_args = 1.., value_name = "ATTACKERS vs DEFENDERS")]
    pub matchup: Vec<String>,
    /// Terrain of the defended hex.
    #[arg(long, default_value = "clear")]
    pub terrain: String,
    /// An overrun by one vehicle (R10) instead of an assault.
    #[arg(long)]
    pub overrun: bool,
    /// Counterattacks (R11): `on` computes the whole melee, `off` the first round only.
    #[arg(long, value_enum, default_value_t = Switch::On)]
    pub counterattacks: Switch,
    /// Who counterattacks in the melee: `doctrine` (the AI's choice: when the round would
    /// score a hit with p >= 0.5), `always` (every unit that may), `never` (every unit breaks
    /// off when it may); for both sides, or per side: `attacker=always,defender=never`.
    #[arg(long, default_value = "doctrine", value_name = "CHOICES", value_parser = parse_choices)]
    pub choices: [Choices; 2],
    /// The whole melee exactly however long it takes (by default a fight past about 150 ms of
    /// the exact chain's work is sampled instead: 10,000 fights, every figure within half a
    /// point of standard error).
    #[arg(long)]
    pub exact: bool,
    /// Print JSON. With counterattacks (the default), the whole melee: `attacker_wins`,
    /// `defender_holds`, `both_broken`; `defenders_end` (held, destroyed, retreated,
    /// `broke_off`); `attacker_losses` and `defender_losses` (destroyed and weakened: each a
    /// distribution by number of units, and `destroyed_mean`, `weakened_mean`); units (per
    /// unit, or per line of units no rule tells apart: units, kind, side, and its chances:
    /// destroyed, captured, retreated, `broke_off`, stayed); exact, `error_bound`, states,
    /// samples, counterattacks, choices, how the first round ends (`first_round_ends`:
    /// destroyed, retreat, hold), and the first round under `first_round`. With
    /// `--counterattacks off`, the first round:
    /// `attacker_wins`, `defender_destroyed`, `defender_retreats`, `defender_holds`, `attacker_hits`,
    /// `defender_hits`, `attacker_hits_mean`, `defender_hits_mean`, exact, counterattacks. With
    /// `--overrun`: `all_break_through`, `defenders_destroyed`, `attacker_hits`, `defender_hits`,
    /// `attacker_hits_mean`, `defender_hits_mean`, exact.
    #[arg(long)]
    pub json: bool,
    /// Unit catalog folder.
    #[arg(long, value_name = "DIR")]
    pub catalog: Option<PathBuf>,
    /// A saved game: the odds of an assault in its position, on its map, given as `HEX with
    /// UNIT...` (e.g. `hexwar odds --position game.toml 0604 with t72_4`); the whole melee as its
    /// sides' AIs would choose, each unit's fate (passengers too), and the first round.
    #[arg(
        long,
        value_name = "SAVE",
        conflicts_with_all = ["terrain", "overrun", "counterattacks", "choices", "exact", "catalog"]
    )]
    pub position: Option<PathBuf>,
}

/// Runs `hexwar odds` on the catalog found from the working folder and the bundled terrain.
pub fn command(args: &OddsArgs) -> anyhow::Result<ExitCode> {
    if let Some(save) = &args.position {
        outln!(
            "{}",
            of_position(save, &args.matchup.join(" "), args.json)?.trim_end()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let catalog = CatalogDir::load_from_cwd(args.catalog.as_deref())?;
    let table = model::bundled::terrain();
    let text = args.matchup.join(" ");
    let request = Request {
        matchup: &text,
        terrain: &args.terrain,
        overrun: args.overrun,
        json: args.json,
        counterattacks: args.counterattacks.on(),
        choices: args.choices,
        exact: args.exact,
    };
    outln!("{}", run(&catalog, &table, &request)?.trim_end());
    Ok(ExitCode::SUCCESS)
}

/// `hexwar odds --position SAVE HEX with UNIT...`: the odds of that assault in the saved
/// game's position, as the prompt's `odds assault HEX with UNIT... --units` gives them (issue
/// 67: a position's odds are taken on its own map).
fn of_position(save: &Path, what: &str, json: bool) -> anyhow::Result<String> {
    let opened = crate::play::OpenedSave::open(save)?;
    opened.replay(|rules, _, _, state| {
        let s = rules.scenario;
        let Some((at, with)) = what.split_once(" with ") else {
            return Err(BadInput(format!(
                "`{what}`: give the assault as `HEX with UNIT...`, e.g. `0604 with t72_4`"
            ))
            .into());
        };
        let hex = at
            .trim()
            .parse::<hexmap::Label>()
            .ok()
            .map(hexmap::Label::to_hex)
            .filter(|&h| s.map.contains(h))
            .ok_or_else(|| BadInput(format!("`{}` is no hex of this map", at.trim())))?;
        let units = with
            .split([',', ' '])
            .filter(|w| !w.is_empty())
            .map(|w| {
                s.unit_id(w).ok_or_else(|| {
                    BadInput(format!(
                        "unknown unit `{}`{}",
                        model::shown(w),
                        hexmap::did_you_mean(w, s.unit_names.iter().map(String::as_str))
                    ))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        if units.is_empty() {
            return Err(BadInput(format!("`{what}`: no unit named after `with`")).into());
        }
        let command = Command::Assault {
            units: units.clone(),
            hex,
        };
        check(state, rules, &command).map_err(|e| BadInput(format!("refused: {e}")))?;
        let players = ai::Players::of(s).map_err(BadInput)?;
        let m = melee_odds(state, rules, &units, hex, &players.advisors());
        if json {
            return Ok(serde_json::to_string_pretty(&m).unwrap_or_default());
        }
        let names = |ids: &[model::UnitId]| {
            ids.iter()
                .map(|&u| s.unit_name(u))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let defenders: Vec<model::UnitId> = state
            .units_in(hex, state.unit(units[0]).side.other())
            .map(|u| u.id)
            .collect();
        let mut out = format!(
            "ASSAULT on {}: {} against {} ({}, turn {}, as saved)\n",
            s.map.label(hex),
            names(&units),
            names(&defenders),
            s.title,
            state.turn()
        );
        // As the prompt says them.
        let one = |p: f64| format!("{:.1}%", p * 100.0);
        let how = made(&m);
        if m.counterattacks {
            let _ = writeln!(
                out,
                "  whole melee (R9, R11): attackers win {}, defenders hold {}, both broken {} ({how})",
                one(m.attacker_wins),
                one(m.defender_holds),
                one(m.both_broken)
            );
        }
        out.push_str(&fates(&m, |u| {
            let n: Vec<&str> = u.units.iter().map(|&id| s.unit_name(id)).collect();
            if n.len() > 1 {
                format!("{} (each)", n.join(" "))
            } else {
                n.concat()
            }
        }));
        let f = &m.first_round_ends;
        let _ = writeln!(
            out,
            "  first round (R9.8): defenders destroyed {}, retreat {}, hold {}",
            one(f.destroyed),
            one(f.retreat),
            one(f.hold)
        );
        Ok(out)
    })
}

/// How whole-melee odds were made, as the prompt and `--position` say it: "exact", or
/// "sampled, N fights, standard error E points".
pub(crate) fn made(m: &odds::MeleeOdds) -> String {
    if m.exact {
        "exact".to_owned()
    } else {
        format!(
            "sampled, {} fights, standard error {:.1} points",
            m.samples,
            m.error_bound * 100.0
        )
    }
}

/// What the user asked for.
pub struct Request<'a> {
    /// `ATTACKERS vs DEFENDERS`, as typed.
    pub matchup: &'a str,
    /// Terrain of the defended hex.
    pub terrain: &'a str,
    /// An overrun rather than an assault.
    pub overrun: bool,
    /// JSON output.
    pub json: bool,
    /// Counterattacks (R11) on: the whole melee.
    pub counterattacks: bool,
    /// The melee choices the odds assume: attacker, defender.
    pub choices: [Choices; 2],
    /// The whole melee exactly, however long it takes.
    pub exact: bool,
}

/// `--choices` (clap's value parser): one kind for both sides, or `attacker=KIND,defender=KIND` (either may be left
/// out, and is then `doctrine`).
///
/// # Errors
/// An unknown side or kind.
pub fn parse_choices(text: &str) -> Result<[Choices; 2], String> {
    let kind = |k: &str| {
        k.parse::<Choices>()
            .map_err(|()| format!("unknown choice `{k}`: use doctrine, always or never"))
    };
    if !text.contains('=') {
        let c = kind(text.trim())?;
        return Ok([c, c]);
    }
    let mut out = [Choices::Doctrine; 2];
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((side, k)) = part.split_once('=') else {
            return Err(format!("expected SIDE=KIND, got `{part}`"));
        };
        let i = match side.trim() {
            "attacker" => 0,
            "defender" => 1,
            other => {
                return Err(format!("unknown side `{other}`: use attacker or defender"));
            }
        };
        out[i] = kind(k.trim())?;
    }
    Ok(out)
}

fn parse_side(catalog: &Catalog, text: &str) -> Result<Vec<Combatant>, BadInput> {
    session::odds_spec::parse_side(catalog, text).map_err(BadInput)
}

/// Computes and renders the odds.
pub fn run(catalog: &Catalog, table: &TerrainTable, req: &Request<'_>) -> Result<String, BadInput> {
    let Some((att, def)) = req.matchup.split_once(" vs ") else {
        return Err(BadInput(format!(
            "expected `ATTACKERS vs DEFENDERS`, e.g. `btr70,hq_mrr vs m2:disorganized`; got `{}`",
            req.matchup
        )));
    };
    let terrain = table.by_name(req.terrain).ok_or_else(|| {
        let known: Vec<&str> = table.iter().map(|(_, t)| t.id.as_str()).collect();
        BadInput(format!(
            "unknown terrain `{}`{} (known: {})",
            model::shown(req.terrain),
            hexmap::did_you_mean(req.terrain, known.iter().copied()),
            known.join(", ")
        ))
    })?;
    let (attackers, defenders) = (parse_side(catalog, att)?, parse_side(catalog, def)?);
    let mut scenario = matchup(catalog, table, terrain, &attackers, &defenders);
    scenario.rules.counterattacks = req.counterattacks;
    set_choices(&mut scenario, Side::A, req.choices[0]);
    set_choices(&mut scenario, Side::B, req.choices[1]);
    let rules = Rules::new(&scenario, catalog);
    let state = matchup_state(&rules);
    let hex = MATCHUP_DEFENDERS.to_hex();
    let ids = odds::matchup_attackers(&state);
    // Each unit as it was given: its id and its states.
    let names = |list: &[Combatant]| -> String {
        list.iter()
            .map(|c| {
                let mut name = catalog.get(c.type_id).id.clone();
                for (on, what) in [
                    (c.state.weakened, ":weakened"),
                    (c.state.disorganized, ":disorganized"),
                ] {
                    if on {
                        name.push_str(what);
                    }
                }
                name
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let head = format!(
        "{} vs {} in {}",
        names(&attackers),
        names(&defenders),
        req.terrain
    );
    if req.overrun {
        if ids.len() != 1 {
            return Err(BadInput(
                "an overrun is made by one vehicle at a time (R10.1)".to_owned(),
            ));
        }
        let command = Command::Overrun { unit: ids[0], hex };
        check(&state, &rules, &command)
            .map_err(|e| BadInput(format!("{head}: {}", matchup_words(&e))))?;
        let o = overrun_odds(&state, &rules, ids[0], hex);
        if req.json {
            return Ok(serde_json::to_string_pretty(&o).unwrap_or_default());
        }
        let mut out = format!("OVERRUN: {head}\n");
        let _ = writeln!(out, "  breaks through        {}", pct(o.all_break_through));
        let _ = writeln!(
            out,
            "  defenders destroyed   {}",
            pct(o.defenders_destroyed)
        );
        let _ = writeln!(
            out,
            "  hits by the vehicle   {}",
            dist(&o.attacker_hits, o.attacker_hits_mean)
        );
        let _ = writeln!(
            out,
            "  hits by the infantry  {}",
            dist(&o.defender_hits, o.defender_hits_mean)
        );
        out.push_str("Exact: computed over every die and every random share of hits (R7, R10).\n");
        return Ok(out);
    }
    // The defended hex must be one the attackers can enter (R5.1).
    if let Some(c) = attackers.iter().find(|c| {
        table
            .get(terrain)
            .cost
            .get(catalog.get(c.type_id).move_class)
            .is_none()
    }) {
        return Err(BadInput(format!(
            "{head}: {} cannot enter {}, so it cannot be assaulted there (R5.1)",
            catalog.get(c.type_id).id,
            req.terrain
        )));
    }
    let command = Command::Assault {
        units: ids.clone(),
        hex,
    };
    check(&state, &rules, &command)
        .map_err(|e| BadInput(format!("{head}: {}", matchup_words(&e))))?;
    let o = assault_odds(&state, &rules, &ids, hex);
    if req.counterattacks {
        // Units without melee orders (`--choices doctrine`) choose as the matchup's AIs would.
        let players = ai::Players::of(rules.scenario).map_err(BadInput)?;
        let ai = players.advisors();
        let m = if req.exact {
            odds::exact_melee_odds(&state, &rules, &ids, hex, &ai).ok_or_else(|| {
                BadInput(format!(
                    "{head}: beyond the exact chain (it holds up to 16 units); \
                     leave out --exact to sample it"
                ))
            })?
        } else {
            melee_odds(&state, &rules, &ids, hex, &ai)
        };
        if req.json {
            let mut v = serde_json::to_value(&m).unwrap_or_default();
            v["first_round"] = serde_json::to_value(&o).unwrap_or_default();
            v["choices"] = serde_json::json!({
                "attacker": req.choices[0].name(),
                "defender": req.choices[1].name(),
            });
            return Ok(serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        let mut out = format!("ASSAULT with counterattacks: {head}\n{OPEN_FIELD}");
        let _ = writeln!(
            out,
            "  choices assumed       attacker {}, defender {}{}",
            describe(req.choices[0]),
            describe(req.choices[1]),
            if req.choices.contains(&Choices::Doctrine) {
                " (doctrine: counterattack when the round would score a hit with p >= 0.5)"
            } else {
                ""
            }
        );
        let _ = writeln!(out, "  attacker wins         {}", pct(m.attacker_wins));
        let _ = writeln!(out, "  defender holds        {}", pct(m.defender_holds));
        let _ = writeln!(out, "  both broken           {}", pct(m.both_broken));
        let d = &m.defenders_end;
        let _ = writeln!(
            out,
            "  the defenders         hold {}, destroyed {}, retreat {}, break off {}",
            pct(d.held).trim(),
            pct(d.destroyed).trim(),
            pct(d.retreated).trim(),
            pct(d.broke_off).trim()
        );
        for (who, l) in [
            ("attacker", &m.attacker_losses),
            ("defender", &m.defender_losses),
        ] {
            let _ = writeln!(
                out,
                "  {who} units lost   {}",
                dist(&l.destroyed, l.destroyed_mean)
            );
            let _ = writeln!(
                out,
                "  {who} weakened     {}",
                dist(&l.weakened, l.weakened_mean)
            );
        }
        let _ = writeln!(
            out,
            "  first round: defender destroyed {}, retreats {}, holds {}",
            pct(o.defender_destroyed).trim(),
            pct(o.defender_retreats).trim(),
            pct(o.defender_holds).trim()
        );
        out.push_str(&fates(&m, |u| {
            let who = if u.side == Side::A { "att" } else { "def" };
            if u.units.len() > 1 {
                format!("{} {} x{}", who, u.kind, u.units.len())
            } else {
                format!("{} {}", who, u.kind)
            }
        }));
        if m.exact {
            let _ = writeln!(
                out,
                "Exact: an absorbing Markov chain over {} positions of both stacks (R7-R11), solved\n\
                 with an error below {:.1e}, with the choices above (--choices changes them). Units\n\
                 no rule tells apart share a line, with the chance of each. The field is open: every\n\
                 retreat and break-off finds room, and only guns in the hex are captured.",
                m.states,
                m.error_bound.max(1e-15)
            );
        } else {
            let _ = writeln!(
                out,
                "Sampled: the fight is too large to enumerate ({} assaults played by the rules,\n\
                 standard error of attacker wins {:.4}).",
                m.samples, m.error_bound
            );
        }
        return Ok(out);
    }
    if req.json {
        let mut v = serde_json::to_value(&o).unwrap_or_default();
        v["counterattacks"] = serde_json::Value::Bool(false);
        return Ok(serde_json::to_string_pretty(&v).unwrap_or_default());
    }
    let mut out = format!("ASSAULT: {head}\n{OPEN_FIELD}");
    let _ = writeln!(out, "  attacker wins         {}", pct(o.attacker_wins));
    let _ = writeln!(out, "    defender destroyed  {}", pct(o.defender_destroyed));
    let _ = writeln!(out, "    defender retreats   {}", pct(o.defender_retreats));
    let _ = writeln!(out, "  defender holds        {}", pct(o.defender_holds));
    let _ = writeln!(
        out,
        "  hits by the attackers {}",
        dist(&o.attacker_hits, o.attacker_hits_mean)
    );
    let _ = writeln!(
        out,
        "  hits by the defenders {}",
        dist(&o.defender_hits, o.defender_hits_mean)
    );
    if o.exact {
        out.push_str(
            "Exact: computed over every die and every random share of hits (R7-R9), one round with\n\
             counterattacks off; a retreat is assumed to find a legal hex (R9.9 depends on the map).\n",
        );
    } else {
        out.push_str(
            "Approximate: every die and share of hits (R7-R9), one round with counterattacks off,\n\
             but without the armor rolls of tank assault (R11.12), too many to enumerate here; a\n\
             retreat is assumed to find a legal hex (R9.9 depends on the map).\n",
        );
    }
    Ok(out)
}

/// A refusal in the words of the matchup: its hexes are the odds' own, not the user's, so they
/// are named by their part in the fight.
fn matchup_words(e: &model::RuleError) -> String {
    e.to_string()
        .replace(&MATCHUP_DEFENDERS.to_string(), "the defended hex")
        .replace(&odds::MATCHUP_ATTACKERS.to_string(), "the attackers' hex")
        .replace(&beyond_label(), "the hex beyond")
}

/// The label of the hex beyond the defended one, seen from the attackers (R10.1).
fn beyond_label() -> String {
    hexmap::Label::from_hex(hexmap::across(
        odds::MATCHUP_ATTACKERS.to_hex(),
        MATCHUP_DEFENDERS.to_hex(),
    ))
    .map_or_else(|| "off-map".to_owned(), |l| l.to_string())
}

/// What a side's choices mean, in a few words.
fn describe(c: Choices) -> &'static str {
    match c {
        Choices::Doctrine => "doctrine",
        Choices::Always => "always counterattacks",
        Choices::Never => "never counterattacks",
    }
}

/// A chance as a percentage: never below 0 or above 100, never "-0.000%".
/// Each unit's fate in a whole melee, a line per unit (or per units no rule tells apart, named
/// by `name`): destroyed, captured, retreated, broke off, stayed in the fight.
pub fn fates(m: &odds::MeleeOdds, name: impl Fn(&odds::UnitFate) -> String) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "  each unit             destroyed captured retreated broke off   stayed"
    );
    for u in &m.units {
        let _ = writeln!(
            out,
            "    {:<19} {} {} {} {} {}",
            name(u),
            pct(u.destroyed),
            pct(u.captured),
            pct(u.retreated),
            pct(u.broke_off),
            pct(u.stayed)
        );
    }
    out
}

fn pct(p: f64) -> String {
    let p = if p.is_nan() { 0.0 } else { p.clamp(0.0, 1.0) };
    format!("{:>7.3}%", p * 100.0 + 0.0)
}

fn dist(d: &[f64], mean: f64) -> String {
    let cells: Vec<String> = d
        .iter()
        .enumerate()
        .filter(|(_, p)| **p >= 0.0005)
        .map(|(k, p)| format!("{k}:{:.1}%", p * 100.0))
        .collect();
    format!("mean {mean:.3}  [{}]", cells.join(" "))
}
