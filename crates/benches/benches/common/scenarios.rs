//! The bundled scenarios the benches play, by name and text (a module of each bench that uses
//! it, `#[path]`-included, not a bench of its own).

/// Every bundled scenario: its file name without `.toml`, and its text.
pub const BUNDLED: [(&str, &str); 3] = [
    (
        "dawn_assault",
        include_str!("../../../../scenarios/dawn_assault.toml"),
    ),
    (
        "meeting_engagement",
        include_str!("../../../../scenarios/meeting_engagement.toml"),
    ),
    (
        "night_recon",
        include_str!("../../../../scenarios/night_recon.toml"),
    ),
];
