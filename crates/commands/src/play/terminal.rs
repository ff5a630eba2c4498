//! The terminal side of `hexwar play`: where the person's lines come from (rustyline at a
//! terminal, with history and Tab completion; standard input for a script), and asking a
//! question until an answer reads.

use std::io::{BufRead, IsTerminal};

/// What a read gives.
pub(super) enum Input {
    /// A line.
    Line(String),
    /// Ctrl-C at the terminal.
    CtrlC,
    /// The end of the input (or a read that failed: [`Source::failure`] says why).
    End,
}

/// Where the lines of a game come from: the person at a terminal (line editing, history, and
/// tab completion of commands, unit ids and hex labels), or a script on standard input.
pub(super) enum Source {
    Terminal(Box<rustyline::Editor<Words, rustyline::history::DefaultHistory>>),
    Live {
        lines: Box<dyn Iterator<Item = std::io::Result<String>>>,
        /// Lines read so far.
        read: u64,
        /// Why the input stopped early: a line that is not UTF-8, or a read that failed.
        failed: Option<String>,
    },
}

impl Source {
    /// The next line; `prompt` is shown at a terminal.
    pub(super) fn read(&mut self, prompt: &str) -> Input {
        match self {
            Self::Terminal(editor) => match editor.readline(prompt) {
                Ok(line) => {
                    let _ = editor.add_history_entry(line.as_str());
                    Input::Line(line)
                }
                // At a terminal Ctrl-C is a key: it drops the line being typed.
                Err(rustyline::error::ReadlineError::Interrupted) => Input::CtrlC,
                Err(_) => Input::End,
            },
            Self::Live {
                lines,
                read,
                failed,
            } => {
                if failed.is_some() {
                    return Input::End;
                }
                *read += 1;
                match lines.next() {
                    None => Input::End,
                    Some(Ok(line)) => Input::Line(line),
                    Some(Err(e)) => {
                        *failed = Some(if e.kind() == std::io::ErrorKind::InvalidData {
                            format!("standard input, line {read}: not UTF-8 text")
                        } else {
                            format!("standard input, line {read}: {e}")
                        });
                        Input::End
                    }
                }
            }
        }
    }

    /// Why the input ended before its end, if it did.
    pub(super) fn failure(&self) -> Option<&str> {
        match self {
            Self::Live { failed, .. } => failed.as_deref(),
            _ => None,
        }
    }
}

/// What the prompt completes: the commands, the scenario's unit ids and its hex labels.
pub(super) struct Words(pub(super) Vec<String>);

impl rustyline::completion::Completer for Words {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let start = line[..pos].rfind(' ').map_or(0, |i| i + 1);
        let word = &line[start..pos];
        let found = self
            .0
            .iter()
            .filter(|w| w.starts_with(word))
            .cloned()
            .collect();
        Ok((start, found))
    }
}

impl rustyline::hint::Hinter for Words {
    type Hint = String;
}

impl rustyline::highlight::Highlighter for Words {}

impl rustyline::validate::Validator for Words {}

impl rustyline::Helper for Words {}

/// The most characters of a script's line the transcript repeats.
const ECHOED_CHARS: usize = 200;

/// A script's line as the transcript repeats it: whole, or its start and its length when it is
/// longer than [`ECHOED_CHARS`] (a line of megabytes is not written out again).
pub(super) fn echoed(line: &str) -> std::borrow::Cow<'_, str> {
    match line.char_indices().nth(ECHOED_CHARS) {
        Some((end, _)) => format!("{}… ({} characters)", &line[..end], line.chars().count()).into(),
        None => line.into(),
    }
}

/// The source of a session's lines: the terminal, with completion of `scenario`'s words, or
/// standard input.
pub(super) fn source(scenario: &model::Scenario) -> (Source, bool) {
    let stdin = std::io::stdin();
    let editor = stdin
        .is_terminal()
        .then(rustyline::Editor::new)
        .and_then(Result::ok);
    let interactive = editor.is_some();
    let source = match editor {
        Some(mut e) => {
            e.set_helper(Some(words(scenario)));
            Source::Terminal(Box::new(e))
        }
        None => Source::Live {
            lines: Box::new(stdin.lock().lines()),
            read: 0,
            failed: None,
        },
    };
    (source, interactive)
}

/// The words to complete in a scenario.
fn words(s: &model::Scenario) -> Words {
    let mut w: Vec<String> = model::VERBS
        .iter()
        .chain(model::ORDER_VERBS)
        .chain(&[
            "end", "odds", "map", "units", "legal", "rules", "save", "help", "quit", "with", "at",
            "on", "by", "to", "spotter", "best", "yes", "no",
        ])
        .map(|v| (*v).to_owned())
        .collect();
    w.extend(s.unit_names.iter().cloned());
    w.extend(s.map.hexes().map(|h| s.map.label(h).to_string()));
    Words(w)
}
