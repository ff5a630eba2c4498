//! PNG through resvg, with hexwar's own font ([`super::fonts`]).

use std::sync::Arc;

use resvg::{tiny_skia, usvg};

use super::fonts;

/// The most pixels hexwar draws into one PNG (about 64 MB of memory); larger maps are drawn
/// at a smaller scale.
const MAX_PIXELS: f32 = 16_000_000.0;

/// Why a picture could not become a PNG.
#[derive(Debug, thiserror::Error)]
pub enum PngError {
    /// The SVG did not read (a bug: hexwar wrote it).
    #[error("the picture did not read as SVG: {0}")]
    Svg(#[from] usvg::Error),
    /// Too small or too large to draw.
    #[error("the picture has no size to draw")]
    Size,
    /// The encoder failed.
    #[error("PNG encoding failed: {0}")]
    Encode(String),
}

/// Renders an SVG document to PNG bytes, `scale` pixels per SVG unit (less when the picture would
/// pass [`MAX_PIXELS`]).
///
/// # Errors
/// When the SVG does not read or the PNG cannot be encoded.
pub fn png(svg: &str, scale: f32) -> Result<Vec<u8>, PngError> {
    let mut options = usvg::Options::default();
    let db = Arc::make_mut(&mut options.fontdb);
    db.load_font_data(fonts::REGULAR.to_vec());
    db.load_font_data(fonts::BOLD.to_vec());
    db.set_sans_serif_family("DejaVu Sans");
    let tree = usvg::Tree::from_str(svg, &options)?;
    let size = tree.size();
    let area = size.width() * size.height() * scale * scale;
    let scale = if area > MAX_PIXELS {
        scale * (MAX_PIXELS / area).sqrt()
    } else {
        scale
    };
    let (w, h) = (size.width() * scale, size.height() * scale);
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "bounded by MAX_PIXELS, positive"
    )]
    let (w, h) = (w.ceil() as u32, h.ceil() as u32);
    let mut pixmap = tiny_skia::Pixmap::new(w, h).ok_or(PngError::Size)?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| PngError::Encode(e.to_string()))
}
