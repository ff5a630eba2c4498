//! A JSON Schema validator (draft 2020-12) for the keywords hexwar's published schema uses
//! (`docs/events.schema.json`, built by `present::events_json::schema`), shared by the
//! end-to-end tests and the conformance suite.
//!
//! Hand-written rather than a crate: the schema uses a small, fixed set of keywords, and the
//! maintained validators cost more than a minute of every CI run. `jsonschema` took more than a
//! tenth of a fresh test build; `boon` 0.6.1, the smaller (38 crates new to the tree, the
//! regular-expression engines and the url/idna/icu stack among them), made a fresh
//! `cargo test --workspace --no-run` 57 s longer on the 2-core machine (8 min 6 s against
//! 7 min 9 s, 104 CPU-seconds more, 2026-12-07), before clippy checks the same crates again. A keyword it does not know is an error, never a pass: a schema
//! that grows one fails the tests until this file learns it.

use serde_json::{Map, Value};

/// Checks `value` against `schema`: `Err` tells where and why the first failure lies.
pub fn validate(schema: &Value, value: &Value) -> Result<(), String> {
    Validator { root: schema }.check(schema, value, "")
}

/// Keywords that only annotate: they never fail a value (in draft 2020-12 `format` is an
/// annotation unless a validator opts in, as the general validators do by default).
const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$defs",
    "$comment",
    "title",
    "description",
    "format",
    "default",
    "examples",
    "deprecated",
];

struct Validator<'a> {
    root: &'a Value,
}

impl Validator<'_> {
    fn check(&self, schema: &Value, value: &Value, at: &str) -> Result<(), String> {
        let rules = match schema {
            Value::Bool(true) => return Ok(()),
            Value::Bool(false) => return Err(format!("at '{at}': no value is allowed here")),
            Value::Object(rules) => rules,
            _ => return Err(format!("at '{at}': a schema is an object or a boolean")),
        };
        for (keyword, arg) in rules {
            self.keyword(rules, keyword, arg, value, at)?;
        }
        Ok(())
    }

    fn keyword(
        &self,
        rules: &Map<String, Value>,
        keyword: &str,
        arg: &Value,
        value: &Value,
        at: &str,
    ) -> Result<(), String> {
        let fail = |why: String| Err(format!("at '{at}': {why}"));
        match keyword {
            k if ANNOTATIONS.contains(&k) => Ok(()),
            "$ref" => {
                let target = arg
                    .as_str()
                    .and_then(|r| r.strip_prefix('#'))
                    .and_then(|pointer| self.root.pointer(pointer))
                    .ok_or_else(|| format!("at '{at}': cannot resolve $ref {arg}"))?;
                self.check(target, value, at)
            }
            "type" => {
                let types: Vec<&str> = match arg {
                    Value::String(t) => vec![t.as_str()],
                    Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                    _ => return fail(format!("a type is a name or a list of names, not {arg}")),
                };
                if types.iter().any(|t| is_type(value, t)) {
                    Ok(())
                } else {
                    fail(format!("{value} is not of type {}", types.join(" or ")))
                }
            }
            "const" if value == arg => Ok(()),
            "const" => fail(format!("{value} is not the constant {arg}")),
            "enum" => match arg.as_array() {
                Some(options) if options.contains(value) => Ok(()),
                _ => fail(format!("{value} is not one of {arg}")),
            },
            "properties" => {
                let (Some(object), Some(properties)) = (value.as_object(), arg.as_object()) else {
                    return Ok(());
                };
                for (name, v) in object {
                    if let Some(s) = properties.get(name) {
                        self.check(s, v, &format!("{at}/{name}"))?;
                    }
                }
                Ok(())
            }
            "required" => {
                let Some(object) = value.as_object() else {
                    return Ok(());
                };
                match arg
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .find(|name| !object.contains_key(*name))
                {
                    Some(missing) => fail(format!("the property '{missing}' is missing")),
                    None => Ok(()),
                }
            }
            "additionalProperties" => {
                let Some(object) = value.as_object() else {
                    return Ok(());
                };
                let known = rules.get("properties").and_then(Value::as_object);
                for (name, v) in object {
                    if known.is_some_and(|k| k.contains_key(name)) {
                        continue;
                    }
                    self.check(arg, v, &format!("{at}/{name}"))
                        .map_err(|e| format!("{e} (the property '{name}' is not in the schema)"))?;
                }
                Ok(())
            }
            "prefixItems" | "items" => {
                let Some(items) = value.as_array() else {
                    return Ok(());
                };
                let prefix = rules.get("prefixItems").and_then(Value::as_array);
                let count = prefix.map_or(0, Vec::len);
                for (i, item) in items.iter().enumerate() {
                    let schema = match (keyword, prefix.and_then(|p| p.get(i))) {
                        ("prefixItems", Some(s)) => s,
                        ("items", None) if i >= count => arg,
                        _ => continue,
                    };
                    self.check(schema, item, &format!("{at}/{i}"))?;
                }
                Ok(())
            }
            "minItems" | "maxItems" => {
                let (Some(items), Some(bound)) = (value.as_array(), arg.as_u64()) else {
                    return Ok(());
                };
                let n = u64::try_from(items.len()).unwrap_or(u64::MAX);
                if (keyword == "minItems" && n < bound) || (keyword == "maxItems" && n > bound) {
                    fail(format!("{n} items, against {keyword} {bound}"))
                } else {
                    Ok(())
                }
            }
            "minimum" | "maximum" => {
                let (Some(n), Some(bound)) = (value.as_f64(), arg.as_f64()) else {
                    return Ok(());
                };
                if (keyword == "minimum" && n < bound) || (keyword == "maximum" && n > bound) {
                    fail(format!("{value} is beyond its {keyword} {arg}"))
                } else {
                    Ok(())
                }
            }
            "pattern" => {
                let (Some(text), Some(pattern)) = (value.as_str(), arg.as_str()) else {
                    return Ok(());
                };
                match Pattern::parse(pattern) {
                    Err(why) => fail(format!("the pattern {pattern:?}: {why}")),
                    Ok(p) if p.is_match(text) => Ok(()),
                    Ok(_) => fail(format!("{value} does not match {pattern:?}")),
                }
            }
            "oneOf" | "anyOf" | "allOf" => {
                let options = arg.as_array().map_or(&[][..], Vec::as_slice);
                let errors: Vec<String> = options
                    .iter()
                    .filter_map(|s| self.check(s, value, at).err())
                    .collect();
                let valid = options.len() - errors.len();
                match keyword {
                    "oneOf" if valid == 1 => Ok(()),
                    "anyOf" if valid >= 1 => Ok(()),
                    "allOf" if valid == options.len() => Ok(()),
                    "oneOf" if valid > 1 => fail(format!("valid against {valid} schemas of oneOf")),
                    _ => {
                        // A failure that is not a mismatch of a constant (the wrong case)
                        // says most, and of those the one that went deepest into the value.
                        let nearest = errors
                            .iter()
                            .max_by_key(|e| {
                                let case = e.contains(" is not the constant ")
                                    || e.contains(" is not one of ");
                                (!case, depth(e))
                            })
                            .cloned();
                        fail(format!(
                            "valid against none of the {} schemas of {keyword}; nearest: {}",
                            options.len(),
                            nearest.unwrap_or_default()
                        ))
                    }
                }
            }
            other => fail(format!(
                "the schema keyword '{other}' is unknown to this validator"
            )),
        }
    }
}

/// How deep into the value an error lies: the slashes of its `at '...'` path.
fn depth(error: &str) -> usize {
    error
        .split('\'')
        .nth(1)
        .map_or(0, |path| path.matches('/').count())
}

fn is_type(value: &Value, t: &str) -> bool {
    match t {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "number" => value.is_number(),
        // JSON Schema counts 3.0 as an integer.
        "integer" => {
            value.is_i64() || value.is_u64() || value.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    }
}

/// One piece of a pattern: what a character must be, and how many times in a row.
struct Piece {
    class: Class,
    min: usize,
    max: usize,
}

enum Class {
    Any,
    Char(char),
    /// `[...]`: its ranges, and whether it is negated.
    Set(Vec<(char, char)>, bool),
}

impl Class {
    fn matches(&self, c: char) -> bool {
        match self {
            Class::Any => c != '\n',
            Class::Char(x) => *x == c,
            Class::Set(ranges, negated) => {
                ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi) != *negated
            }
        }
    }
}

/// The regular expressions of `pattern` this validator knows: `^` and `$` at the ends,
/// characters, `.`, `\d`, `\w`, escaped characters, `[...]` sets with ranges, and the
/// quantifiers `?`, `*`, `+`, `{n}`, `{n,}` and `{n,m}`. Anything else (groups, alternation)
/// is refused, not guessed.
struct Pattern {
    pieces: Vec<Piece>,
    anchored_start: bool,
    anchored_end: bool,
}

impl Pattern {
    fn parse(text: &str) -> Result<Self, String> {
        let mut chars: Vec<char> = text.chars().collect();
        let anchored_start = chars.first() == Some(&'^');
        if anchored_start {
            chars.remove(0);
        }
        let anchored_end = chars.last() == Some(&'$') && chars.iter().rev().nth(1) != Some(&'\\');
        if anchored_end {
            chars.pop();
        }
        let mut pieces = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let class = match chars[i] {
                '.' => Class::Any,
                '\\' => {
                    i += 1;
                    match chars.get(i) {
                        Some('d') => Class::Set(vec![('0', '9')], false),
                        Some('w') => {
                            Class::Set(vec![('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')], false)
                        }
                        Some(c) if !c.is_alphanumeric() => Class::Char(*c),
                        other => return Err(format!("the escape \\{other:?} is not known")),
                    }
                }
                '[' => {
                    let close = chars[i..]
                        .iter()
                        .position(|&c| c == ']')
                        .ok_or("a [ without its ]")?;
                    let mut body = &chars[i + 1..i + close];
                    let negated = body.first() == Some(&'^');
                    if negated {
                        body = &body[1..];
                    }
                    let mut ranges = Vec::new();
                    let mut j = 0;
                    while j < body.len() {
                        if body[j] == '\\' {
                            return Err("an escape inside [...] is not known".into());
                        }
                        if body.get(j + 1) == Some(&'-') && j + 2 < body.len() {
                            ranges.push((body[j], body[j + 2]));
                            j += 3;
                        } else {
                            ranges.push((body[j], body[j]));
                            j += 1;
                        }
                    }
                    i += close;
                    Class::Set(ranges, negated)
                }
                c @ ('(' | ')' | '|' | '^' | '$' | '*' | '+' | '?' | '{' | '}' | ']') => {
                    return Err(format!("'{c}' is not known here"));
                }
                c => Class::Char(c),
            };
            i += 1;
            let (min, max) = match chars.get(i) {
                Some('?') => (0, 1),
                Some('*') => (0, usize::MAX),
                Some('+') => (1, usize::MAX),
                Some('{') => {
                    let close = chars[i..]
                        .iter()
                        .position(|&c| c == '}')
                        .ok_or("a { without its }")?;
                    let body: String = chars[i + 1..i + close].iter().collect();
                    i += close;
                    let number = |s: &str| s.trim().parse::<usize>().map_err(|e| e.to_string());
                    match body.split_once(',') {
                        None => (number(&body)?, number(&body)?),
                        Some((lo, "")) => (number(lo)?, usize::MAX),
                        Some((lo, hi)) => (number(lo)?, number(hi)?),
                    }
                }
                _ => {
                    pieces.push(Piece {
                        class,
                        min: 1,
                        max: 1,
                    });
                    continue;
                }
            };
            i += 1;
            pieces.push(Piece { class, min, max });
        }
        Ok(Pattern {
            pieces,
            anchored_start,
            anchored_end,
        })
    }

    /// Whether the pattern is found in `text` (a JSON Schema pattern is not anchored unless it
    /// says so).
    fn is_match(&self, text: &str) -> bool {
        let chars: Vec<char> = text.chars().collect();
        let starts = if self.anchored_start {
            0..=0
        } else {
            0..=chars.len()
        };
        starts.into_iter().any(|s| self.match_at(&chars, s, 0))
    }

    fn match_at(&self, chars: &[char], at: usize, piece: usize) -> bool {
        let Some(p) = self.pieces.get(piece) else {
            return !self.anchored_end || at == chars.len();
        };
        // Greedy, backing off one at a time.
        let mut n = 0;
        while n < p.max && chars.get(at + n).is_some_and(|&c| p.class.matches(c)) {
            n += 1;
        }
        (p.min..=n)
            .rev()
            .any(|k| self.match_at(chars, at + k, piece + 1))
    }
}
