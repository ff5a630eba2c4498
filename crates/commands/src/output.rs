//! Output files that never destroy what they must not.
//!
//! Every file a command writes (a save, a CSV, a plot, a picture, a replay page, a report) is
//! first checked with [`Output::check`], after the command's inputs are read and before any
//! work starts:
//! - it is not one of the command's inputs (a scenario, a save, a catalog or terrain file), nor
//!   another output of the same command;
//! - its folder exists and can be written, and the file, if it exists, is a regular file that
//!   is not read-only, or a device or pipe that is written through (`/dev/null`, `>(gzip)`);
//! - a symlink is followed: its target is written, the link stays.
//!
//! A regular file is written to a temporary file beside it and renamed over it at the end, so a
//! failed write leaves the old file whole and no temporary file behind.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::data::BadInput;

/// An output path, checked.
#[derive(Clone, Debug)]
pub struct Output {
    /// The path as the user gave it, for messages.
    given: PathBuf,
    /// Where the bytes go: the path, or a symlink's target.
    target: PathBuf,
    /// Written through (a device or a pipe) rather than replaced.
    through: bool,
}

/// An output being written: a temporary file renamed over the target by [`Pending::commit`],
/// or a device or pipe written directly. Dropped without a commit, it leaves nothing behind.
pub struct Pending<'a> {
    output: &'a Output,
    file: Sink,
}

enum Sink {
    /// The file, and its name known to a second signal, which removes it ([`interrupt::Temp`]).
    Temp(tempfile::NamedTempFile, crate::interrupt::Temp),
    Through(File),
}

impl Output {
    /// Checks `path` as an output (`what` names it in messages: `--csv`, `the save`) of a
    /// command that reads `inputs`.
    ///
    /// # Errors
    /// What makes the path unusable, naming it.
    pub fn check(path: &Path, what: &str, inputs: &[PathBuf]) -> Result<Self, BadInput> {
        let bad = |why: &str| BadInput(format!("{}: {what}: {why}", path.display()));
        if path.as_os_str().is_empty() {
            return Err(BadInput(format!("{what}: an empty file name")));
        }
        let link = fs::symlink_metadata(path);
        let target = match &link {
            Ok(m) if m.file_type().is_symlink() => match fs::canonicalize(path) {
                Ok(t) => t,
                // A link to a file not made yet: the file is made where the link points.
                Err(_) => {
                    let to = fs::read_link(path).map_err(|e| bad(&e.to_string()))?;
                    path.parent().unwrap_or(Path::new("")).join(to)
                }
            },
            _ => path.to_owned(),
        };
        let through = match fs::metadata(&target) {
            Ok(m) if m.is_dir() => return Err(bad("is a folder, not a file")),
            Ok(m) if m.is_file() => {
                if m.permissions().readonly() {
                    return Err(bad("is read-only: not replaced"));
                }
                if let Some(input) = inputs.iter().find(|i| same_file(&target, i)) {
                    return Err(bad(&format!(
                        "is also an input of this command ({}): it would be destroyed",
                        input.display()
                    )));
                }
                false
            }
            Ok(m) => {
                if is_stream(&m) {
                    true
                } else {
                    return Err(bad("is neither a regular file nor a device or pipe"));
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => false,
            Err(e) => return Err(bad(&e.to_string())),
        };
        let out = Self {
            given: path.to_owned(),
            target,
            through,
        };
        if !out.through {
            let folder = out.folder();
            if !folder.is_dir() {
                return Err(bad(&format!(
                    "cannot write: the folder {} does not exist",
                    folder.display()
                )));
            }
            // The folder must take the temporary file: made and removed now, before any work.
            if let Err(e) = out.temp() {
                return Err(bad(&format!(
                    "cannot write in the folder {}: {}",
                    folder.display(),
                    io::Error::new(e.kind(), e.kind().to_string())
                )));
            }
        }
        Ok(out)
    }

    /// Checks every output of a command: each as [`Output::check`], and no two the same file.
    ///
    /// # Errors
    /// The first output that is unusable or given twice.
    pub fn check_all<const N: usize>(
        outputs: [(Option<&Path>, &str); N],
        inputs: &[PathBuf],
    ) -> Result<[Option<Self>; N], BadInput> {
        let mut checked: [Option<Self>; N] = std::array::from_fn(|_| None);
        for (i, (path, what)) in outputs.into_iter().enumerate() {
            let Some(path) = path else { continue };
            let out = Self::check(path, what, inputs)?;
            if let Some(other) = checked[..i].iter().flatten().find(|o| o.is(&out)) {
                return Err(BadInput(format!(
                    "{}: {what}: the same file as {}",
                    path.display(),
                    other.given.display()
                )));
            }
            checked[i] = Some(out);
        }
        Ok(checked)
    }

    fn is(&self, other: &Self) -> bool {
        self.target == other.target || same_file(&self.target, &other.target)
    }

    /// The path as given.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.given
    }

    fn folder(&self) -> &Path {
        self.target
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
    }

    fn temp(&self) -> io::Result<tempfile::NamedTempFile> {
        let mut b = tempfile::Builder::new();
        b.prefix(".hexwar-").suffix(".tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            // A new file as `File::create` makes it (the umask applies); a replaced one keeps
            // its mode (set in `open`).
            b.permissions(fs::Permissions::from_mode(0o666));
        }
        b.tempfile_in(self.folder())
    }

    /// Starts writing.
    ///
    /// # Errors
    /// The file cannot be made, naming it.
    pub fn open(&self) -> Result<Pending<'_>, BadInput> {
        let file = if self.through {
            Sink::Through(
                OpenOptions::new()
                    .write(true)
                    .open(&self.target)
                    .map_err(|e| self.cannot(&e))?,
            )
        } else {
            let temp = self.temp().map_err(|e| self.cannot(&e))?;
            if let Ok(m) = fs::metadata(&self.target) {
                // Best effort: a file replaced keeps who may read it.
                let _ = fs::set_permissions(temp.path(), m.permissions());
            }
            let known = crate::interrupt::Temp::new(temp.path().to_owned());
            Sink::Temp(temp, known)
        };
        Ok(Pending { output: self, file })
    }

    /// Writes `bytes` as the whole file.
    ///
    /// # Errors
    /// A write that failed, naming the file; the old file, if any, is left as it was.
    pub fn write(&self, bytes: &[u8]) -> Result<(), BadInput> {
        let mut p = self.open()?;
        p.write_all(bytes).map_err(|e| self.cannot(&e))?;
        p.commit()
    }

    fn cannot(&self, e: &dyn std::fmt::Display) -> BadInput {
        BadInput(format!(
            "{}: cannot write: {}",
            self.given.display(),
            crate::stdout::in_words(e)
        ))
    }
}

impl Pending<'_> {
    /// Finishes the file: flushed, and renamed over the target.
    ///
    /// # Errors
    /// A write, flush or rename that failed, naming the file; nothing is left behind.
    pub fn commit(self) -> Result<(), BadInput> {
        let out = self.output;
        match self.file {
            Sink::Through(mut f) => f.flush().map_err(|e| out.cannot(&e)),
            Sink::Temp(mut t, _known) => {
                t.flush().map_err(|e| out.cannot(&e))?;
                t.as_file().sync_all().map_err(|e| out.cannot(&e))?;
                t.persist(&out.target)
                    .map(|_| ())
                    .map_err(|e| out.cannot(&e.error))
            }
        }
    }
}

impl Write for Pending<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.file {
            Sink::Temp(t, _) => t.write(buf),
            Sink::Through(f) => f.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.file {
            Sink::Temp(t, _) => t.flush(),
            Sink::Through(f) => f.flush(),
        }
    }
}

/// Whether two paths name the same existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(x), Ok(y)) => identity(&x) == identity(&y) && identity(&x).is_some(),
        _ => false,
    }
}

#[cfg(unix)]
fn identity(m: &fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt as _;
    Some((m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn identity(_: &fs::Metadata) -> Option<(u64, u64)> {
    None
}

/// A character device or a pipe: written through, never replaced.
#[cfg(unix)]
fn is_stream(m: &fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt as _;
    let t = m.file_type();
    t.is_char_device() || t.is_fifo()
}

#[cfg(not(unix))]
fn is_stream(_: &fs::Metadata) -> bool {
    false
}

/// What to write, by the output's extension.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    Svg,
    Png,
}

/// Checks that a picture's path names SVG or PNG, before any work is done.
///
/// # Errors
/// When it names neither.
pub fn picture_format(path: &Path) -> Result<(), BadInput> {
    format_of(path).map(|_| ())
}

/// Writes an SVG picture to `path`, as SVG or as PNG by its extension.
///
/// # Errors
/// A path that names neither, a PNG that cannot be drawn, a file that cannot be written.
pub fn write_svg_as(svg: &str, out: &Output) -> anyhow::Result<()> {
    let bytes = match format_of(out.path())? {
        Format::Svg => svg.as_bytes().to_vec(),
        Format::Png => present::picture::png::png(svg, 1.5, present::picture::png::DEFAULT_PIXELS)?,
    };
    write_file(out, &bytes, "")
}

/// Writes a picture or page, and says so on standard error (`note` after the name).
pub(crate) fn write_file(out: &Output, bytes: &[u8], note: &str) -> anyhow::Result<()> {
    out.write(bytes)?;
    errln!("wrote {}{note}", out.path().display());
    Ok(())
}

pub(crate) fn format_of(path: &Path) -> Result<Format, BadInput> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("svg") => Ok(Format::Svg),
        Some("png") => Ok(Format::Png),
        _ => Err(BadInput(format!(
            "{}: a picture is written as SVG or PNG; name it NAME.svg or NAME.png",
            path.display()
        ))),
    }
}
