//! `hexwar rules`: the player's rulebook (`docs/rules.md`, compiled in), by section, by id, or by
//! a word.

use std::fmt::Write as _;

use crate::data::BadInput;

/// The rulebook, as shipped in the repository.
pub const RULEBOOK: &str = include_str!("../../../docs/rules.md");

/// One rule of the book: its id, its section's title, and its text with the decisions under it.
#[derive(Debug, PartialEq, Eq)]
pub struct Rule<'a> {
    /// `R9.4`.
    pub id: &'a str,
    /// `R9 Hex assault`.
    pub section: &'a str,
    /// The rule's lines, as written (the first starts with `- **R9.4**`).
    pub text: Vec<&'a str>,
}

/// The sections (`## R9 Hex assault`) of a rulebook, in order.
#[must_use]
pub fn sections(book: &str) -> Vec<&str> {
    book.lines()
        .filter_map(|l| l.strip_prefix("## "))
        .filter(|t| t.starts_with('R'))
        .collect()
}

/// Every rule of a rulebook: an item `- **Rn.m** ...` and the indented lines that follow it.
#[must_use]
pub fn parse(book: &str) -> Vec<Rule<'_>> {
    let mut rules: Vec<Rule<'_>> = Vec::new();
    let mut section = "";
    let mut open = false;
    for line in book.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            section = title;
            open = false;
        } else if let Some(rest) = line.strip_prefix("- **") {
            let id = rest.split("**").next().unwrap_or_default();
            open = is_id(id);
            if open {
                rules.push(Rule {
                    id,
                    section,
                    text: vec![line],
                });
            }
        } else if open && line.starts_with("  ") {
            if let Some(rule) = rules.last_mut() {
                rule.text.push(line);
            }
        } else {
            open = false;
        }
    }
    rules
}

/// Whether `s` looks like a rule id: `R`, digits, a dot, digits.
#[must_use]
pub fn is_id(s: &str) -> bool {
    let Some((major, minor)) = s.strip_prefix('R').and_then(|r| r.split_once('.')) else {
        return false;
    };
    [major, minor]
        .iter()
        .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// What `hexwar rules [QUERY]` prints: the sections with no query; the rule (and its
/// decisions) for an id; for an id of a section (`R9`), the whole section; for a word, each rule
/// that mentions it, by id and first line.
///
/// # Errors
/// An unknown id, or a word no rule mentions.
pub fn answer(book: &str, query: Option<&str>) -> Result<String, BadInput> {
    let rules = parse(book);
    let mut out = String::new();
    let Some(query) = query.map(str::trim) else {
        out.push_str("The sections of the rulebook (hexwar rules R9 prints one, hexwar rules R9.4 one rule):\n");
        for s in sections(book) {
            let _ = writeln!(out, "  {s}");
        }
        return Ok(out);
    };
    let upper = query.to_ascii_uppercase();
    if is_id(&upper) {
        let rule = rules.iter().find(|r| r.id == upper).ok_or_else(|| {
            BadInput(format!(
                "no rule {upper} in the rulebook (hexwar rules lists the sections)"
            ))
        })?;
        let _ = writeln!(out, "{}", rule.section);
        for line in &rule.text {
            let _ = writeln!(out, "{}", plain(line));
        }
        return Ok(out);
    }
    let section_id = |r: &Rule<'_>| r.section.split(' ').next().unwrap_or_default().to_owned();
    if upper.len() > 1 && upper.starts_with('R') && upper[1..].bytes().all(|b| b.is_ascii_digit()) {
        let mine: Vec<&Rule<'_>> = rules.iter().filter(|r| section_id(r) == upper).collect();
        let first = mine.first().ok_or_else(|| {
            BadInput(format!(
                "no section {upper} in the rulebook (hexwar rules lists them)"
            ))
        })?;
        let _ = writeln!(out, "{}", first.section);
        for rule in mine {
            for line in &rule.text {
                let _ = writeln!(out, "{}", plain(line));
            }
        }
        return Ok(out);
    }
    let word = query.to_lowercase();
    let hits: Vec<&Rule<'_>> = rules
        .iter()
        .filter(|r| r.text.iter().any(|l| l.to_lowercase().contains(&word)))
        .collect();
    if hits.is_empty() {
        return Err(BadInput(format!(
            "no rule mentions `{query}` (try another word, or hexwar rules for the sections)"
        )));
    }
    let _ = writeln!(
        out,
        "{} rule{} mention `{query}` (hexwar rules ID prints one):",
        hits.len(),
        if hits.len() == 1 { "" } else { "s" }
    );
    for rule in hits {
        let first = plain(rule.text[0]);
        let summary = first.split_once(' ').map_or(first.as_str(), |(_, s)| s);
        let short: String = summary.chars().take(90).collect();
        let more = if summary.chars().count() > 90 {
            "..."
        } else {
            ""
        };
        let _ = writeln!(out, "  {:<6} {short}{more}", rule.id);
    }
    Ok(out)
}

/// A line of the book without its markdown emphasis and list marker.
fn plain(line: &str) -> String {
    let trimmed = line.trim_start();
    let indent = line.len() - trimmed.len();
    let body = trimmed
        .strip_prefix("- ")
        .unwrap_or(trimmed)
        .replace("**", "");
    format!("{}{body}", " ".repeat(indent))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_of_the_book_is_found_once() {
        let rules = parse(RULEBOOK);
        assert!(rules.len() >= 90, "{} rules", rules.len());
        let mut ids: Vec<&str> = rules.iter().map(|r| r.id).collect();
        ids.sort_unstable();
        let before = ids.len();
        ids.dedup();
        assert_eq!(before, ids.len(), "an id appears twice");
    }

    #[test]
    fn a_rule_comes_with_its_decisions() {
        let text = answer(RULEBOOK, Some("r11.2")).expect("R11.2 exists");
        assert!(text.starts_with("R11 Counterattack"), "{text}");
        assert!(text.contains("R11.2 The defending player rolls one die"));
        assert!(text.contains("counts only for the failed units"), "{text}");
        assert!(text.contains("hexwar:"), "{text}");
        assert!(!text.contains("R11.3"), "only the one rule: {text}");
    }

    #[test]
    fn unknown_ids_and_words_are_bad_input() {
        // Spelt in pieces so that the test of cited ids does not take them for citations.
        assert!(answer(RULEBOOK, Some(concat!("R9", "9.1"))).is_err());
        assert!(answer(RULEBOOK, Some("R42")).is_err());
        assert!(answer(RULEBOOK, Some("zeppelin")).is_err());
    }

    #[test]
    fn a_word_lists_the_rules_that_mention_it() {
        let text = answer(RULEBOOK, Some("overrun")).expect("overruns are in the book");
        for id in ["R10.1", "R10.5", "R5.4"] {
            assert!(text.contains(&format!("  {id} ")), "{id} in {text}");
        }
        assert!(!text.contains("R6.3 "), "{text}");
    }
}
