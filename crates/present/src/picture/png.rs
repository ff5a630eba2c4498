//! PNG through resvg, with hexwar's own font ([`super::fonts`]).

use std::sync::Arc;

use rayon::prelude::*;
use resvg::{tiny_skia, usvg};

use super::fonts;

/// How many pixels a PNG may have unless asked for more: a 99 x 99 map is then an overview of
/// about 3,300 x 3,600 pixels drawn in under a second (its SVG reads at any zoom).
pub const DEFAULT_PIXELS: f32 = 12_000_000.0;

/// The most pixels hexwar draws into one PNG whatever is asked (400 MB of memory).
pub const MAX_PIXELS: f32 = 100_000_000.0;

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

/// The pixels per unit a picture `w` by `h` units is drawn at: `scale`, or less to stay within
/// `budget` pixels (itself at most [`MAX_PIXELS`]).
#[must_use]
pub fn fit(w: f32, h: f32, scale: f32, budget: f32) -> f32 {
    let budget = budget.min(MAX_PIXELS);
    let area = w * h * scale * scale;
    if area > budget {
        // A shade under, so that the picture rounded up to whole pixels stays within.
        scale * (budget / area).sqrt() * 0.999
    } else {
        scale
    }
}

/// Renders an SVG document to PNG bytes, `scale` pixels per SVG unit, or less when the picture
/// would pass `budget` pixels (itself at most [`MAX_PIXELS`]).
///
/// # Errors
/// When the SVG does not read or the PNG cannot be encoded.
pub fn png(svg: &str, scale: f32, budget: f32) -> Result<Vec<u8>, PngError> {
    let mut options = usvg::Options::default();
    let db = Arc::make_mut(&mut options.fontdb);
    db.load_font_data(fonts::REGULAR.to_vec());
    db.load_font_data(fonts::BOLD.to_vec());
    db.set_sans_serif_family("DejaVu Sans");
    let tree = usvg::Tree::from_str(svg, &options)?;
    let size = tree.size();
    let scale = fit(size.width(), size.height(), scale, budget);
    let (w, h) = (size.width() * scale, size.height() * scale);
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "bounded by MAX_PIXELS, positive"
    )]
    let (w, h) = (w.ceil() as u32, h.ceil() as u32);
    if w == 0 || h == 0 {
        return Err(PngError::Size);
    }
    // Horizontal strips drawn on every core, each the whole picture shifted up and clipped.
    let strips = u32::try_from(rayon::current_num_threads())
        .unwrap_or(1)
        .clamp(1, 8)
        .min(h);
    let rows = h.div_ceil(strips);
    let drawn: Vec<Option<tiny_skia::Pixmap>> = (0..strips)
        .into_par_iter()
        .map(|i| {
            let top = i * rows;
            let mut strip = tiny_skia::Pixmap::new(w, rows.min(h - top))?;
            #[expect(clippy::cast_precision_loss, reason = "a pixel row, far below 2^24")]
            let shift = top as f32;
            resvg::render(
                &tree,
                tiny_skia::Transform::from_scale(scale, scale).post_translate(0.0, -shift),
                &mut strip.as_mut(),
            );
            Some(strip)
        })
        .collect();
    let mut rgb = Vec::with_capacity(w as usize * h as usize * 3);
    for strip in drawn {
        let strip = strip.ok_or(PngError::Size)?;
        // Every picture has an opaque background, so the premultiplied colour is the colour.
        for p in strip.data().chunks_exact(4) {
            rgb.extend_from_slice(&p[..3]);
        }
    }
    encode(&rgb, w, h).map_err(|e| PngError::Encode(e.to_string()))
}

/// RGB pixels as a PNG, with fdeflate's fast compression: a fraction of the default's time
/// for a file a little larger.
fn encode(rgb: &[u8], w: u32, h: u32) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, w, h);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(rgb)?;
    writer.finish()?;
    Ok(out)
}
