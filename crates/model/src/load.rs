//! Loading data files: every problem found, each with its place in the source (R4.4's "clear
//! message" starts here). Parsing text is not I/O: the binary reads files, this module reads
//! strings.

use std::fmt;
use std::ops::Range;

use serde::de::DeserializeOwned;
use toml::Spanned;
use toml::de::{DeTable, DeValue, ValueDeserializer};

/// One problem in a data file: where it is and what is wrong, in one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The file's name as the caller gave it.
    pub file: String,
    /// Byte range in the file; `None` for a problem of the whole file.
    pub span: Option<Range<usize>>,
    /// What is wrong.
    pub message: String,
}

impl Problem {
    /// A problem at a span of a file.
    #[must_use]
    pub fn at(file: &str, span: Range<usize>, message: impl Into<String>) -> Self {
        Self {
            file: file.to_owned(),
            span: Some(span),
            message: message.into(),
        }
    }

    /// The 1-based line and column of the start of the span in `text`.
    #[must_use]
    pub fn line_col(&self, text: &str) -> (usize, usize) {
        line_col(text, self.span.as_ref().map_or(0, |s| s.start))
    }

    /// `file:line:col: message`, given the file's text.
    #[must_use]
    pub fn render(&self, text: &str) -> String {
        let (line, col) = self.line_col(text);
        format!("{}:{line}:{col}: {}", self.file, self.message)
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

/// Where each line of a text starts, to find the line and column of many offsets in
/// logarithmic time each (a file with a problem in each of its 200,000 tables is answered at
/// once, not in minutes).
#[derive(Clone, Debug)]
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    /// The line starts of `text`.
    #[must_use]
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Self { starts }
    }

    /// 1-based line and column (in characters) of a byte offset of the same `text`.
    #[must_use]
    pub fn line_col(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(text.len());
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line.saturating_sub(1)];
        let col = text.get(start..offset).map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }

    /// `file:line:col: message` for a problem of the same `text`.
    #[must_use]
    pub fn render(&self, text: &str, p: &Problem) -> String {
        let (line, col) = self.line_col(text, p.span.as_ref().map_or(0, |s| s.start));
        format!("{}:{line}:{col}: {}", p.file, p.message)
    }
}

/// 1-based line and column (in characters) of a byte offset.
#[must_use]
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// A TOML document being read, collecting problems as it goes.
pub(crate) struct Reader<'a> {
    pub file: &'a str,
    pub problems: Vec<Problem>,
}

impl<'a> Reader<'a> {
    pub fn new(file: &'a str) -> Self {
        Self {
            file,
            problems: Vec::new(),
        }
    }

    pub fn problem(&mut self, span: Range<usize>, message: impl Into<String>) {
        self.problems.push(Problem::at(self.file, span, message));
    }

    /// Parses the document; syntax errors are all recorded.
    pub fn parse<'i>(&mut self, text: &'i str) -> Option<Spanned<DeTable<'i>>> {
        let (table, errors) = DeTable::parse_recoverable(text);
        if errors.is_empty() {
            return Some(table);
        }
        for e in errors {
            let span = e.span().unwrap_or(0..0);
            self.problem(span, format!("TOML syntax: {}", first_line(e.message())));
        }
        None
    }

    /// Deserializes one value, recording the problem on failure.
    pub fn take<T: DeserializeOwned>(&mut self, value: &Spanned<DeValue<'_>>) -> Option<T> {
        let span = value.span();
        match T::deserialize(ValueDeserializer::from(value.clone())) {
            Ok(v) => Some(v),
            Err(e) => {
                let span = e.span().unwrap_or(span);
                self.problem(span, first_line(e.message()).to_owned());
                None
            }
        }
    }

    /// Deserializes each element of an array separately, so that one bad element does not hide
    /// the problems of the others. Returns the good elements with their spans.
    pub fn take_each<T: DeserializeOwned>(
        &mut self,
        key: &str,
        value: &Spanned<DeValue<'_>>,
    ) -> Vec<Spanned<T>> {
        let Some(items) = value.get_ref().as_array() else {
            self.problem(
                value.span(),
                format!("`{key}` must be an array of tables ([[{key}]])"),
            );
            return Vec::new();
        };
        items
            .iter()
            .filter_map(|item| {
                let span = item.span();
                self.take(item).map(|v| Spanned::new(span, v))
            })
            .collect()
    }
}

fn first_line(message: &str) -> &str {
    message.lines().next().unwrap_or(message).trim()
}
