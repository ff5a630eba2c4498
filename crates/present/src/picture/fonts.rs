//! hexwar's own font, compiled in, so that a picture looks the same on a machine with no fonts
//! at all: `DejaVu` Sans, cut down to the Latin, Cyrillic and symbol characters hexwar draws
//! (`data/fonts/LICENSE-DejaVu`).

/// The regular face.
pub const REGULAR: &[u8] = include_bytes!("../../../../data/fonts/DejaVuSans-hexwar.ttf");
/// The bold face.
pub const BOLD: &[u8] = include_bytes!("../../../../data/fonts/DejaVuSans-Bold-hexwar.ttf");
