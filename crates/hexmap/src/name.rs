//! The names data files give things: ids that a command can say, and names a person reads.
//! The one definition of each, for terrain types here and for every id and name of the
//! catalogs and scenarios above.

/// The longest id, in characters.
pub const MAX_ID_CHARS: usize = 40;
/// The longest name or title, in characters.
pub const MAX_NAME_CHARS: usize = 200;

/// Checks an id: 1 to [`MAX_ID_CHARS`] letters, digits, `_` and `-`, starting with a letter or a
/// digit. No space, comma, colon or dot (the grammar of commands and `hexwar odds` split on
/// them), and nothing a terminal would act on.
///
/// ```
/// assert!(hexmap::check_id("t72_4").is_ok());
/// assert!(hexmap::check_id("t72 4").is_err());
/// assert!(hexmap::check_id("-x").is_err());
/// ```
///
/// # Errors
/// What is wrong, in words.
pub fn check_id(id: &str) -> Result<(), String> {
    let n = id.chars().count();
    if n == 0 {
        return Err("an id may not be empty".to_owned());
    }
    if n > MAX_ID_CHARS {
        return Err(format!(
            "an id is at most {MAX_ID_CHARS} characters (this one {n})"
        ));
    }
    if !id.chars().next().is_some_and(char::is_alphanumeric) {
        return Err("an id starts with a letter or a digit".to_owned());
    }
    if let Some(c) = id
        .chars()
        .find(|&c| !(c.is_alphanumeric() || c == '_' || c == '-'))
    {
        return Err(format!(
            "an id holds only letters, digits, `_` and `-`, not {c:?}"
        ));
    }
    Ok(())
}

/// Checks a name or title: at most [`MAX_NAME_CHARS`] characters, no control characters.
///
/// # Errors
/// What is wrong, in words.
pub fn check_name(name: &str) -> Result<(), String> {
    let n = name.chars().count();
    if n > MAX_NAME_CHARS {
        return Err(format!(
            "a name is at most {MAX_NAME_CHARS} characters (this one {n})"
        ));
    }
    if let Some(c) = name.chars().find(|c| c.is_control()) {
        return Err(format!("a name holds no control characters ({c:?})"));
    }
    Ok(())
}

/// The known word a mistyped one most likely meant: the first of [`nearest`].
///
/// ```
/// assert_eq!(hexmap::closest("bmp", ["t72", "bmp2", "btr70"].into_iter()), Some("bmp2"));
/// assert_eq!(hexmap::closest("tank", ["t72", "bmp2"].into_iter()), None);
/// ```
#[must_use]
pub fn closest<'w>(typed: &str, words: impl Iterator<Item = &'w str>) -> Option<&'w str> {
    nearest(typed, words).first().copied()
}

/// The edit distance of two words, a swap of two neighbouring letters counting as one edit
/// (`mvoe` is one from `move`; optimal string alignment).
#[must_use]
pub fn edits(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows: the one before last (for swaps), the last, and this one.
    let mut two: Vec<usize> = vec![0; b.len() + 1];
    let mut one: Vec<usize> = (0..=b.len()).collect();
    let mut row: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        row[0] = i;
        for j in 1..=b.len() {
            let mut d = (one[j - 1] + usize::from(a[i - 1] != b[j - 1]))
                .min(one[j] + 1)
                .min(row[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(two[j - 2] + 1);
            }
            row[j] = d;
        }
        std::mem::swap(&mut two, &mut one);
        std::mem::swap(&mut one, &mut row);
    }
    one[b.len()]
}

/// The known words a mistyped one may have meant, nearest first (then in alphabetical order),
/// at most three: those that begin with it, or lie within an edit of it (two for a word of more
/// than five letters).
#[must_use]
pub fn nearest<'w>(typed: &str, words: impl IntoIterator<Item = &'w str>) -> Vec<&'w str> {
    let typed = typed.to_lowercase();
    let long = typed.chars().count();
    let mut near: Vec<(usize, &str)> = words
        .into_iter()
        // Two edits change the length by two at most: a word farther off is never weighed (a
        // line of megabytes costs nothing).
        .filter(|w| long.abs_diff(w.chars().count()) <= 2 || w.starts_with(&typed))
        .map(|w| {
            let d = if w.starts_with(&typed) {
                1
            } else {
                edits(&typed, w)
            };
            (d, w)
        })
        // Two edits for a long word, one for a short one: `clear` is not `lead`.
        .filter(|&(d, _)| d <= if long > 5 { 2 } else { 1 })
        .collect();
    near.sort_unstable();
    near.dedup();
    near.into_iter().take(3).map(|(_, w)| w).collect()
}

/// `; did you mean `bmp2`?` (or `` `a` or `b` ``) after an unknown name, or nothing when no
/// known one is near.
///
/// ```
/// assert_eq!(hexmap::did_you_mean("bmp", ["t72", "bmp1", "bmp2"]), "; did you mean `bmp1` or `bmp2`?");
/// assert_eq!(hexmap::did_you_mean("tank", ["t72"]), "");
/// ```
#[must_use]
pub fn did_you_mean<'w>(typed: &str, words: impl IntoIterator<Item = &'w str>) -> String {
    let near = nearest(typed, words);
    match near.as_slice() {
        [] => String::new(),
        [one] => format!("; did you mean `{one}`?"),
        [first @ .., last] => format!(
            "; did you mean {} or `{last}`?",
            first
                .iter()
                .map(|w| format!("`{w}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::{closest, did_you_mean, edits, nearest};

    #[test]
    fn a_suggestion_is_near_enough_to_be_meant() {
        assert_eq!(edits("mvoe", "move"), 1, "a swap is one edit");
        assert_eq!(edits("clear", "lead"), 2);
        let words = ["move", "lead", "legal", "assault", "t72_4"];
        assert_eq!(closest("mvoe", words.into_iter()), Some("move"));
        assert_eq!(
            closest("clear", words.into_iter()),
            None,
            "two edits off a short word"
        );
        assert_eq!(closest("asault", words.into_iter()), Some("assault"));
        assert_eq!(closest("t72_44", words.into_iter()), Some("t72_4"));
        assert_eq!(
            closest("ass", words.into_iter()),
            Some("assault"),
            "a beginning"
        );
    }

    #[test]
    fn the_nearest_names_come_nearest_first() {
        let types = ["t72", "bmp1", "bmp2", "btr70", "t64"];
        assert_eq!(nearest("bmp", types), ["bmp1", "bmp2"]);
        assert_eq!(nearest("t27", types), ["t72"]);
        assert!(nearest("leopard", types).is_empty());
        assert_eq!(
            did_you_mean("bmp3", types),
            "; did you mean `bmp1` or `bmp2`?"
        );
        assert_eq!(did_you_mean("btr7", types), "; did you mean `btr70`?");
    }
}
