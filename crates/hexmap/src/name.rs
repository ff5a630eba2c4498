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
