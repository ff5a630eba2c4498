//! The kind of AI a name names: its first word (`doctrine` for `doctrine:0.65`); `default` is
//! the doctrine AI. A leaf, read by the registry and by the frozen `doctrine@1`.

/// The kind `text` names, before any setting.
pub(crate) fn kind_of(text: &str) -> &str {
    let kind = text.split_once(':').map_or(text, |(k, _)| k).trim();
    if kind == "default" { "doctrine" } else { kind }
}
