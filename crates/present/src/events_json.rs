//! The JSON Lines of `hexwar run --json`: a header line (the schema version, the scenario, its
//! sides and units), one line per event naming units, sides and objectives by their scenario ids,
//! and a result line. Its JSON Schema is generated from the event types (`schema`), and so is
//! `docs/events.md` (`events_doc`); a test keeps both files in step with the types.

use counters::Rules;
use model::{Event, Outcome, Side};
use serde_json::{Value, json};

/// The version of the JSON that `run --json` writes. A change to the schema bumps it (the test
/// that compares `docs/events.schema.json` with the types says so).
pub const SCHEMA_VERSION: u32 = 4;

/// Keys whose values are units (a unit index, or a list of them).
const UNIT_KEYS: &[&str] = &[
    "unit",
    "target",
    "firer",
    "hq",
    "transport",
    "caller",
    "spotter",
    "attackers",
    "defenders",
    "units",
    "passed",
    "failed",
    "to_ground",
];

/// Keys whose values are sides (`A`, `B`, or null).
const SIDE_KEYS: &[&str] = &["side", "winner"];

/// The first line: the schema version, the game's seeds, the scenario, its sides and units.
#[must_use]
pub fn header(rules: &Rules<'_>, seed: u64, game: u64) -> Value {
    let s = rules.scenario;
    let sides: Vec<Value> = s
        .sides
        .iter()
        .map(|side| json!({ "id": side.id, "name": side.name, "role": format!("{:?}", side.role).to_lowercase() }))
        .collect();
    let units: Vec<Value> = s
        .units
        .iter()
        .map(|u| {
            json!({
                "id": s.unit_name(u.id),
                "type": rules.catalog.get(u.type_id).id,
                "side": s.sides[u.side.index()].id,
                "formation": s.formations[u.formation.index()].id,
            })
        })
        .collect();
    json!({
        "schema": SCHEMA_VERSION,
        "scenario": s.title,
        "seed": seed,
        "game": game,
        "sides": sides,
        "units": units,
    })
}

/// One event, with units, sides and objectives named by their scenario ids.
#[must_use]
pub fn event(rules: &Rules<'_>, e: &Event) -> Value {
    let mut v = serde_json::to_value(e).unwrap_or(Value::Null);
    name_ids(rules, &mut v);
    v
}

/// The last line: the outcome, named, and the seeds.
#[must_use]
pub fn result(rules: &Rules<'_>, outcome: Option<&Outcome>, seed: u64, game: u64) -> Value {
    let mut o = serde_json::to_value(outcome).unwrap_or(Value::Null);
    name_ids(rules, &mut o);
    json!({ "result": o, "seed": seed, "game": game })
}

fn name_ids(rules: &Rules<'_>, v: &mut Value) {
    // Only numbers are units: `passed` is also a yes-or-no of some events.
    let unit = |x: &Value| -> Value {
        match x.as_u64() {
            Some(i) => usize::try_from(i)
                .ok()
                .and_then(|i| rules.scenario.unit_names.get(i))
                .map_or(Value::Null, |name| Value::String(name.clone())),
            None => x.clone(),
        }
    };
    let side = |x: &Value| -> Value {
        match x.as_str() {
            Some("A") => json!(rules.scenario.sides[Side::A.index()].id),
            Some("B") => json!(rules.scenario.sides[Side::B.index()].id),
            _ => Value::Null,
        }
    };
    let Value::Object(map) = v else {
        return;
    };
    for (k, val) in map.iter_mut() {
        let k = k.as_str();
        if UNIT_KEYS.contains(&k) {
            let named = match &*val {
                Value::Array(list) => Value::Array(list.iter().map(unit).collect()),
                Value::Null => Value::Null,
                other => unit(other),
            };
            *val = named;
        } else if SIDE_KEYS.contains(&k) {
            let named = side(val);
            *val = named;
        } else if k == "per_unit" {
            if let Value::Array(pairs) = val {
                for p in pairs {
                    if let Value::Array(pair) = p
                        && let Some(first) = pair.first_mut()
                    {
                        *first = unit(first);
                    }
                }
            }
        } else if k == "objective" {
            let named = val
                .as_u64()
                .and_then(|i| rules.scenario.objectives.get(usize::try_from(i).ok()?))
                .map_or(Value::Null, |o| Value::String(o.name.clone()));
            *val = named;
        } else {
            name_ids(rules, val);
        }
    }
}

/// The JSON Schema of a line of `hexwar run --json`: a header, an event, or the result.
#[cfg(feature = "schema")]
#[must_use]
pub fn schema() -> Value {
    let event = serde_json::to_value(schemars::schema_for!(Event)).unwrap_or(Value::Null);
    let outcome = serde_json::to_value(schemars::schema_for!(Outcome)).unwrap_or(Value::Null);
    let mut defs = serde_json::Map::new();
    for s in [&event, &outcome] {
        if let Some(Value::Object(d)) = s.get("$defs") {
            defs.extend(d.clone());
        }
    }
    // A root schema as a definition among the others: without its own header.
    let as_def = |root: &Value| {
        let mut d = root.clone();
        if let Value::Object(m) = &mut d {
            for key in ["$defs", "$schema", "title"] {
                m.remove(key);
            }
        }
        d
    };
    defs.insert("Event".to_owned(), as_def(&event));
    defs.insert("Outcome".to_owned(), as_def(&outcome));
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": format!("hexwar-run-json-v{SCHEMA_VERSION}"),
        "title": "A line of `hexwar run --json`",
        "description": format!("Version {SCHEMA_VERSION}. The first line is the header, then one line per event, then the result."),
        "oneOf": [
            { "$ref": "#/$defs/Header" },
            { "$ref": "#/$defs/Event" },
            { "$ref": "#/$defs/Result" },
        ],
        "$defs": merge(defs, json!({
            "Header": {
                "description": "The first line: the schema version, the seeds, the scenario, its sides and units.",
                "type": "object",
                "required": ["schema", "scenario", "seed", "game", "sides", "units"],
                "additionalProperties": false,
                "properties": {
                    "schema": { "const": SCHEMA_VERSION, "description": "The version of this schema." },
                    "scenario": { "type": "string", "description": "The scenario's title." },
                    "seed": { "type": "integer", "minimum": 0, "description": "The batch seed." },
                    "game": { "type": "integer", "minimum": 0, "description": "The game of that batch (`hexwar run --seed S --game I`)." },
                    "sides": { "type": "array", "items": {
                        "type": "object", "additionalProperties": false,
                        "required": ["id", "name", "role"],
                        "properties": {
                            "id": { "type": "string" },
                            "name": { "type": "string" },
                            "role": { "enum": ["attacker", "defender"] }
                        }
                    }},
                    "units": { "type": "array", "items": {
                        "type": "object", "additionalProperties": false,
                        "required": ["id", "type", "side", "formation"],
                        "properties": {
                            "id": { "type": "string", "description": "The unit's id in the scenario, as events name it." },
                            "type": { "type": "string", "description": "Its type in the catalog (`hexwar units`)." },
                            "side": { "type": "string" },
                            "formation": { "type": "string" }
                        }
                    }}
                }
            },
            "Result": {
                "description": "The last line: how the battle ended (null if it did not), and the seeds.",
                "type": "object",
                "required": ["result", "seed", "game"],
                "additionalProperties": false,
                "properties": {
                    "result": { "oneOf": [{ "$ref": "#/$defs/Outcome" }, { "type": "null" }] },
                    "seed": { "type": "integer", "minimum": 0 },
                    "game": { "type": "integer", "minimum": 0 }
                }
            }
        })),
    })
}

#[cfg(feature = "schema")]
fn merge(mut a: serde_json::Map<String, Value>, b: Value) -> Value {
    if let Value::Object(b) = b {
        a.extend(b);
    }
    Value::Object(a)
}

/// `docs/events.md`: every event with its fields, from the same types as the schema.
#[cfg(feature = "schema")]
#[must_use]
pub fn events_doc() -> String {
    use std::fmt::Write as _;
    let schema = schema();
    let defs = &schema["$defs"];
    let mut out = format!(
        "# The events of `hexwar run --json`\n\n\
         Generated from the event types (a test keeps it in step; the JSON Schema is\n\
         [`events.schema.json`](events.schema.json), version {SCHEMA_VERSION}). `hexwar run --json` prints\n\
         JSON Lines: a header, one line per event in the order they happened, and the result.\n\
         Units, sides and objectives are named by their ids in the scenario; hexes by their `CCRR`\n\
         labels. The schema's version is in the header; a change to the schema bumps it.\n\n\
         ## The header (first line)\n\n\
         `schema` (the version), `scenario` (the title), `seed` and `game` (`hexwar run --seed S\n\
         --game I` plays it again), `sides` (each `id`, `name`, `role`), and `units` (each `id`, its\n\
         catalog `type`, its `side` and `formation`).\n\n\
         ## The result (last line)\n\n\
         `result`: `winner` (a side id, or null when both lose a fair fight), `reason`\n\
         (`CompanyMorale`, `Objective`, `TurnLimit`), `vp` and `losses` (the first side, then the\n\
         second), `turn`; then `seed` and `game`.\n\n\
         ## Events\n\n\
         Each event is an object whose `event` key names it.\n"
    );
    let Some(variants) = defs["Event"]["oneOf"].as_array() else {
        return out;
    };
    for v in variants {
        let name = v["properties"]["event"]["const"]
            .as_str()
            .or_else(|| v["properties"]["event"]["enum"][0].as_str())
            .unwrap_or("?");
        let _ = write!(
            out,
            "\n### `{name}`\n\n{}\n",
            v["description"].as_str().unwrap_or("")
        );
        if let Some(props) = v["properties"].as_object() {
            let mut any = false;
            for (field, p) in props {
                if field == "event" {
                    continue;
                }
                if !any {
                    out.push('\n');
                    any = true;
                }
                let _ = writeln!(
                    out,
                    "- `{field}`: {}",
                    p["description"].as_str().unwrap_or("").replace('\n', " ")
                );
            }
        }
    }
    out
}
