//! R0.4: hex labels `CCRR` and their hexx coordinates (flat-topped columns, odd columns shifted down).

use std::fmt;
use std::str::FromStr;

use hexx::Hex;

/// A wargame hex label: column and row, both counted from 1 (`0304` = column 3, row 4).
///
/// Columns run left to right, rows top to bottom. Hexes are flat-topped and stand in columns;
/// the odd columns (01, 03, ...) sit half a hex lower than the even ones (R0.4), so `0101`
/// touches `0201` and `0202`.
///
/// ```
/// use hexmap::Label;
/// let label: Label = "0304".parse().unwrap();
/// assert_eq!((label.col, label.row), (3, 4));
/// assert_eq!(Label::from_hex(label.to_hex()), Some(label));
/// assert_eq!(label.to_string(), "0304");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Label {
    /// Column, from 1.
    pub col: u16,
    /// Row, from 1.
    pub row: u16,
}

/// Why a string is not a hex label.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LabelError {
    /// Not four digits (or six for maps wider or taller than 99).
    #[error("`{0}` is not a hex label: expected four digits CCRR, e.g. 0304")]
    Malformed(String),
    /// Column or row 00: labels count from 01.
    #[error("`{0}` is not a hex label: columns and rows count from 01")]
    Zero(String),
}

impl Label {
    /// A label from a 1-based column and row.
    #[must_use]
    pub const fn new(col: u16, row: u16) -> Self {
        Self { col, row }
    }

    /// The hexx axial coordinate of this label.
    #[must_use]
    pub fn to_hex(self) -> Hex {
        let c = i32::from(self.col) - 1;
        let r = i32::from(self.row) - 1;
        // Columns with an even 0-based index (labels 01, 03, ...) are shifted down.
        Hex::new(c, r - (c + (c & 1)) / 2)
    }

    /// The label of a hexx coordinate, or `None` when it lies above or left of `0101`
    /// or beyond column/row 9999.
    #[must_use]
    pub fn from_hex(hex: Hex) -> Option<Self> {
        let c = hex.x;
        let r = hex.y + (c + (c & 1)) / 2;
        let col = u16::try_from(c + 1)
            .ok()
            .filter(|&v| (1..=9999).contains(&v))?;
        let row = u16::try_from(r + 1)
            .ok()
            .filter(|&v| (1..=9999).contains(&v))?;
        Some(Self { col, row })
    }
}

impl FromStr for Label {
    type Err = LabelError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let malformed = || LabelError::Malformed(s.to_owned());
        if !s.bytes().all(|b| b.is_ascii_digit()) || !matches!(s.len(), 4 | 6 | 8) {
            return Err(malformed());
        }
        let half = s.len() / 2;
        let col: u16 = s[..half].parse().map_err(|_| malformed())?;
        let row: u16 = s[half..].parse().map_err(|_| malformed())?;
        if col == 0 || row == 0 {
            return Err(LabelError::Zero(s.to_owned()));
        }
        Ok(Self { col, row })
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = if self.col > 99 || self.row > 99 { 4 } else { 2 };
        write!(f, "{:0width$}{:0width$}", self.col, self.row)
    }
}

impl serde::Serialize for Label {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Label {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}
