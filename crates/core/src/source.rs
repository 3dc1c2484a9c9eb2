//! Source files and positions: the one place where byte offsets become lines and columns.
//!
//! Every span in the project is a byte range into one [`SourceFile`]'s text (the file as read,
//! including a UTF-8 byte-order mark when there is one). [`SourceFile::line_col`] converts a byte
//! offset into a 1-based line and a 1-based column counted in Unicode scalar values, so that
//! multi-byte UTF-8 (Å, μ, Korean), tabs (one column each) and CRLF line ends (the `\r` belongs to
//! the line it ends) give the same line and column an editor shows.

use std::path::{Path, PathBuf};

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct FileId(pub u32);

/// A byte range `[start, end)` inside one source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// First byte of the range.
    pub start: u32,
    /// One past the last byte of the range.
    pub end: u32,
}

impl Span {
    /// A span from `start` (inclusive) to `end` (exclusive), in bytes.
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start.min(u32::MAX as usize) as u32,
            end: end.max(start).min(u32::MAX as usize) as u32,
        }
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        (self.end - self.start) as usize
    }

    /// True when the span covers no byte.
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
}

/// The serialisation format of a declaration file, from its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// `.yaml` or `.yml`.
    Yaml,
    /// `.toml`.
    Toml,
}

impl Format {
    /// The format for a path's extension, or `None` for files that are not declarations.
    pub fn from_path(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "yaml" | "yml" => Some(Format::Yaml),
            "toml" => Some(Format::Toml),
            _ => None,
        }
    }
}

/// One loaded file: its display path (relative to the project root, `/`-separated, unless a
/// prefix was added with [`SourceMap::prefix_names`]), its text and the byte offset of every line
/// start.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// Path shown in diagnostics, relative to the project root with `/` separators (after
    /// [`SourceMap::prefix_names`], with the prefix in front).
    pub name: String,
    /// Absolute or caller-given path on disk (for reading only).
    pub path: PathBuf,
    /// The file's text, exactly as read (a leading BOM is kept; spans count it).
    pub text: String,
    /// Computed on first use: most files of a large project are never shown in a diagnostic.
    line_starts: std::sync::OnceLock<Vec<u32>>,
}

impl SourceFile {
    /// A source file from its display name, path on disk and text.
    pub fn new(name: impl Into<String>, path: impl Into<PathBuf>, text: String) -> SourceFile {
        SourceFile {
            name: name.into(),
            path: path.into(),
            text,
            line_starts: std::sync::OnceLock::new(),
        }
    }

    /// Byte offset of every line start, ascending; the first is 0. A line ends at LF, CRLF or a
    /// bare CR. Computed from [`SourceFile::text`] on first use.
    pub fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| {
            // Line ends: LF, CRLF and a bare CR (YAML 1.2 counts all three as line breaks).
            let mut line_starts = vec![0u32];
            let bytes = self.text.as_bytes();
            for (i, b) in bytes.iter().enumerate() {
                let bare_cr = *b == b'\r' && bytes.get(i + 1) != Some(&b'\n');
                if *b == b'\n' || bare_cr {
                    line_starts.push((i + 1) as u32);
                }
            }
            line_starts
        })
    }

    /// 1-based line and 1-based column (in Unicode scalar values) of a byte offset. Offsets past
    /// the end clamp to the end; offsets inside a multi-byte character round down to it. A BOM at
    /// the start of the file takes no column.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = match self.line_starts().binary_search(&(offset as u32)) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts()[line] as usize;
        let mut end = offset;
        while end > start && !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let segment = &self.text[start..end];
        let mut col = segment.chars().count() + 1;
        if line == 0 && segment.starts_with('\u{feff}') {
            col -= 1;
        }
        (line + 1, col)
    }

    /// The text of a span, or "" when the span is not on character boundaries.
    pub fn slice(&self, span: Span) -> &str {
        self.text
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
    }

    /// Number of lines (a final line without `\n` counts).
    pub fn line_count(&self) -> usize {
        self.line_starts().len()
    }

    /// The text of 1-based line `line` without its line end.
    pub fn line_text(&self, line: usize) -> &str {
        if line == 0 || line > self.line_starts().len() {
            return "";
        }
        let start = self.line_starts()[line - 1] as usize;
        let end = self
            .line_starts()
            .get(line)
            .map(|e| *e as usize)
            .unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }

    /// Byte offset of the start of 1-based line `line` (the end of the text when past the end).
    pub fn line_start(&self, line: usize) -> usize {
        if line == 0 {
            return 0;
        }
        self.line_starts()
            .get(line - 1)
            .map(|s| *s as usize)
            .unwrap_or(self.text.len())
    }
}

/// All files of a project, indexed by [`FileId`].
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
    /// The prefix given to [`SourceMap::prefix_names`] ("" when none).
    prefix: String,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Add a file and return its id.
    pub fn add(&mut self, file: SourceFile) -> FileId {
        self.files.push(file);
        FileId((self.files.len() - 1) as u32)
    }

    /// The file with this id. Panics only on an id that this map did not hand out.
    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// All files in id order.
    pub fn iter(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }

    /// Number of files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// True when no file was added.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Put `prefix` in front of every file's display name (`path/to/project/` before
    /// `schemas/x.yaml`), for output read from another folder than the project root; see
    /// `schemarouter::diagnostics::paths` (the linter crate). An empty prefix changes nothing.
    pub fn prefix_names(&mut self, prefix: &str) {
        if prefix.is_empty() {
            return;
        }
        for f in &mut self.files {
            f.name.insert_str(0, prefix);
        }
        self.prefix.insert_str(0, prefix);
    }

    /// The prefix given to [`SourceMap::prefix_names`] ("" when none): a display name without
    /// it is the file's path relative to the project root.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// How the project root itself is named in output: the prefix given to
    /// [`SourceMap::prefix_names`] without its trailing separator, or `.` when there is none.
    pub fn root_name(&self) -> &str {
        match self.prefix.trim_end_matches('/') {
            "" if self.prefix.starts_with('/') => "/",
            "" => ".",
            p => p,
        }
    }

    /// Find a file by its display name.
    pub fn find(&self, name: &str) -> Option<FileId> {
        self.files
            .iter()
            .position(|f| f.name == name)
            .map(|i| FileId(i as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters_not_bytes() {
        let f = SourceFile::new("a", "a", "Å: μ\n한국: x\n".to_string());
        assert_eq!(f.line_col(0), (1, 1));
        // "μ" starts after "Å: " = 2 + 2 bytes
        assert_eq!(f.line_col(4), (1, 4));
        let x = f.text.find('x').unwrap();
        assert_eq!(f.line_col(x), (2, 5));
    }

    #[test]
    fn bare_cr_line_ends_count_as_lines() {
        let cr = SourceFile::new("a", "a", "a: 1\rb: 2\rc: x\r".to_string());
        let lf = SourceFile::new("a", "a", "a: 1\nb: 2\nc: x\n".to_string());
        let x = cr.text.find('x').unwrap();
        assert_eq!(cr.line_col(x), (3, 4));
        assert_eq!(cr.line_col(x), lf.line_col(x));
        assert_eq!(cr.line_text(2), "b: 2");
        // Mixed: CRLF stays one line end, a CR on its own is another.
        let mixed = SourceFile::new("a", "a", "a: 1\r\nb: 2\rc: x\n".to_string());
        assert_eq!(mixed.line_col(mixed.text.find('x').unwrap()), (3, 4));
        assert_eq!(mixed.line_count(), 4);
    }

    #[test]
    fn crlf_and_lf_agree() {
        let lf = SourceFile::new("a", "a", "a: 1\nb: 2\n".to_string());
        let crlf = SourceFile::new("a", "a", "a: 1\r\nb: 2\r\n".to_string());
        assert_eq!(lf.line_col(lf.text.find('2').unwrap()), (2, 4));
        assert_eq!(crlf.line_col(crlf.text.find('2').unwrap()), (2, 4));
        assert_eq!(crlf.line_text(1), "a: 1");
    }

    #[test]
    fn bom_takes_no_column() {
        let f = SourceFile::new("a", "a", "\u{feff}a: 1\n".to_string());
        assert_eq!(f.line_col(3), (1, 1));
        assert_eq!(f.line_col(6), (1, 4));
    }

    #[test]
    fn tabs_are_one_column() {
        let f = SourceFile::new("a", "a", "\tx".to_string());
        assert_eq!(f.line_col(1), (1, 2));
    }

    #[test]
    fn offsets_clamp() {
        let f = SourceFile::new("a", "a", "ab".to_string());
        assert_eq!(f.line_col(99), (1, 3));
    }
}
