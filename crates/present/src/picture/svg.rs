//! The few pieces of SVG text every picture needs: escaping and short numbers.

use std::fmt;

/// Text escaped for SVG (and HTML) content and attribute values.
#[must_use]
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A coordinate written with at most two decimals and no trailing zeros, so that pictures are
/// short and the same on every machine.
#[derive(Clone, Copy, Debug)]
pub struct N(pub f32);

impl fmt::Display for N {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = format!("{:.2}", self.0);
        let text = text.trim_end_matches('0').trim_end_matches('.');
        f.write_str(if text == "-0" { "0" } else { text })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short() {
        assert_eq!(N(12.0).to_string(), "12");
        assert_eq!(N(12.5).to_string(), "12.5");
        assert_eq!(N(1.0 / 3.0).to_string(), "0.33");
        assert_eq!(N(-0.001).to_string(), "0");
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
