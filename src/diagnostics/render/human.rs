//! Human output: code frames with carets, rendered by miette. Secondary labels in other files are
//! shown as related reports with their own frames.

use super::super::{Diagnostic, Label, Severity, Summary};
use crate::source::FileId;
use crate::source::{SourceFile, SourceMap};
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceSpan};
use rayon::prelude::*;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// Options for the human renderer.
#[derive(Clone, Copy, Debug)]
pub struct HumanOptions {
    /// Use ANSI colours.
    pub color: bool,
    /// Wrap width in columns.
    pub width: usize,
}

impl Default for HumanOptions {
    fn default() -> Self {
        HumanOptions {
            color: false,
            width: 100,
        }
    }
}

/// `text` with each bare CR (one not followed by LF) written as LF: the same length, so spans
/// stay valid, and miette, which splits lines at LF only, shows the lines the positions count.
fn bare_cr_as_lf(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        if c == '\r' && b.get(i + 1) != Some(&b'\n') {
            out.push('\n');
        } else if super::is_unsafe_control(c) {
            // Same byte length, so spans stay put: `?` for one-byte controls, `¿` for C1 (two
            // bytes), U+FFFD for the bidirectional controls (three bytes).
            out.push(match c.len_utf8() {
                1 => '?',
                2 => '¿',
                _ => '\u{fffd}',
            });
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether `text` reaches miette as it is: no carriage return and no byte that can begin an
/// unsafe control ([`super::is_unsafe_control`]: C0 but LF and tab, DEL, C1 behind 0xC2, the
/// bidirectional controls behind 0xE2). A byte scan, so most files skip the per-character copy.
fn shown_as_is(text: &str) -> bool {
    !text
        .bytes()
        .any(|b| (b < 0x20 && b != b'\n' && b != b'\t') || b == 0x7f || b == 0xc2 || b == 0xe2)
}

/// Lines longer than this many bytes are shown as a window around the label (a frame line
/// stays within a wide terminal: minified JSON is one line of the whole document).
const LONG_LINE: usize = 160;

/// The most bytes of a long line a frame shows (more only when the label starts further in).
const WINDOW: usize = 120;

/// Bytes of a long line shown before the label's start.
const LEAD: usize = 40;

/// One file's text as miette sees it (without a BOM, bare CRs as LF) and the file's line starts
/// ([`SourceFile::line_starts`]), so a frame finds its line number by binary search instead of
/// a scan.
struct FileText {
    text: Arc<str>,
    /// The file's line starts, counted in the file as read (BOM included).
    line_starts: Vec<u32>,
    /// Bytes of the BOM left out of `text` (0 or 3).
    shift: usize,
}

impl FileText {
    fn new(file: &SourceFile) -> FileText {
        let text = file.text.strip_prefix('\u{feff}').unwrap_or(&file.text);
        let shift = file.text.len() - text.len();
        let text: Arc<str> = if shown_as_is(text) {
            Arc::from(text)
        } else {
            Arc::from(bare_cr_as_lf(text))
        };
        FileText {
            text,
            line_starts: file.line_starts().to_vec(),
            shift,
        }
    }

    /// Line `i` of `text` (0-based) as byte bounds: its first byte and the byte of its line
    /// break (or the end of the text).
    fn line_bounds(&self, i: usize) -> (usize, usize) {
        let len = self.text.len();
        let start = (self.line_starts[i] as usize)
            .saturating_sub(self.shift)
            .min(len);
        let end = self.line_starts.get(i + 1).map_or(len, |&s| {
            (s as usize).saturating_sub(self.shift + 1).min(len)
        });
        (start, end.max(start))
    }

    /// Whether line `i` is longer than [`LONG_LINE`] bytes.
    fn is_long(&self, i: usize) -> bool {
        let (start, end) = self.line_bounds(i);
        end - start > LONG_LINE
    }

    /// For a byte on a line longer than [`LONG_LINE`] (minified JSON, a long flow mapping),
    /// the part of that line a frame shows: from [`LEAD`] bytes before it, at most
    /// [`WINDOW`] bytes, on character boundaries.
    fn window(&self, at: usize) -> Option<(usize, usize)> {
        let line = self.lines_above(at);
        if !self.is_long(line) {
            return None;
        }
        let (start, end) = self.line_bounds(line);
        let text = &*self.text;
        let mut ws = at.saturating_sub(LEAD).max(start);
        while !text.is_char_boundary(ws) {
            ws -= 1;
        }
        let mut we = (ws + WINDOW).min(end).max(at);
        while !text.is_char_boundary(we) {
            we += 1;
        }
        Some((ws, we))
    }

    /// How many line feeds `text` has before byte `at`: each line start but the first follows
    /// one line break of the file, which is one `\n` of `text` (a CRLF's LF, a bare CR made LF).
    fn lines_above(&self, at: usize) -> usize {
        self.line_starts
            .partition_point(|&s| s as usize <= at + self.shift)
            .saturating_sub(1)
    }
}

/// The texts of every file the diagnostics point into, made once per render (in parallel) and
/// shared by every diagnostic in that file; read without a lock.
struct Texts(HashMap<FileId, Arc<FileText>>);

impl Texts {
    fn of(diags: &[Diagnostic], sources: &SourceMap) -> Texts {
        let mut files: Vec<FileId> = diags
            .iter()
            .flat_map(|d| d.primary.iter().chain(d.secondary.iter()))
            .map(|l| l.file)
            .collect();
        files.sort_unstable();
        files.dedup();
        Texts(
            files
                .into_par_iter()
                .map(|f| (f, Arc::new(FileText::new(sources.get(f)))))
                .collect(),
        )
    }

    fn get(&self, sources: &SourceMap, file: FileId) -> Arc<FileText> {
        match self.0.get(&file) {
            Some(t) => t.clone(),
            None => Arc::new(FileText::new(sources.get(file))),
        }
    }
}

/// A file's text as miette reads it, each read begun a few lines above the span instead of at
/// the top of the file. miette finds a frame's lines by scanning from the first byte, once per
/// frame: with tens of thousands of findings that was most of this renderer's time. Starting
/// at a line start above every context line miette keeps gives the same lines, columns and
/// line numbers (the lines above the window are counted, by binary search, and added back).
struct Windowed(Arc<FileText>);

impl miette::SourceCode for Windowed {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let t = &*self.0;
        let b = t.text.as_bytes();
        let at = span.offset().min(b.len());
        let first = t.lines_above(at);
        // A span on a long line: only a window of that line around the span (miette pads a
        // label to its column, and cannot pad past column 65,535).
        if let Some((ws, we)) = t.window(at) {
            return Ok(Box::new(miette::MietteSpanContents::new(
                &b[ws..we],
                SourceSpan::new(ws.into(), we - ws),
                first,
                0,
                first,
            )));
        }
        // Begin one line above the first context line miette keeps (so the window surely
        // holds it), or below the nearest long line.
        let mut top = first;
        while top > 0 && first - top <= before && !t.is_long(top - 1) {
            top -= 1;
        }
        let base = t.line_bounds(top).0;
        // End after the context lines below the span, before any long line.
        let last = t.lines_above((at + span.len()).min(b.len()));
        let mut limit = t.line_bounds(first).1;
        let mut line = first + 1;
        while line <= last + after + 1 && line < t.line_starts.len() && !t.is_long(line) {
            limit = t.line_bounds(line).1;
            line += 1;
        }
        let limit = (limit + 1).min(b.len()).max(at);
        let shifted = SourceSpan::new((at - base).into(), span.len());
        let inner = b[base..limit].read_span(&shifted, before, after)?;
        let data: &'a [u8] = inner.data();
        let start = data.as_ptr() as usize - b.as_ptr() as usize;
        Ok(Box::new(miette::MietteSpanContents::new(
            data,
            SourceSpan::new(start.into(), data.len()),
            inner.line() + top,
            inner.column(),
            inner.line_count() + top,
        )))
    }
}

struct FileView {
    name: String,
    text: Arc<FileText>,
}

impl FileView {
    /// The file, named `path:line:column` of the label (our own character-based position;
    /// miette's own header counts bytes, so it is turned off).
    fn of(sources: &SourceMap, texts: &Texts, label: &Label) -> FileView {
        let f = sources.get(label.file);
        let (line, col) = f.line_col(label.span.start as usize);
        FileView {
            name: format!("{}:{line}:{col}", super::terminal_safe(&f.name)),
            text: texts.get(sources, label.file),
        }
    }

    /// A label's span in the shown text (which has no BOM).
    fn span(&self, label: &Label) -> SourceSpan {
        let (shift, len) = (self.text.shift, self.text.text.len());
        let start = (label.span.start as usize).saturating_sub(shift).min(len);
        let mut end = (label.span.end as usize).saturating_sub(shift).min(len);
        // On a long line, the label ends in the window shown; a label that runs onto a long
        // line ends with its first line.
        let t = &*self.text;
        if let Some((_, we)) = t.window(start) {
            end = end.min(we);
        } else if t.is_long(t.lines_above(end)) {
            end = end.min(t.line_bounds(t.lines_above(start)).1);
        }
        SourceSpan::new(start.into(), end.saturating_sub(start))
    }
}

/// A miette view of one of our diagnostics.
struct Report {
    message: String,
    code: String,
    severity: miette::Severity,
    help: Option<String>,
    source: Option<NamedSource<Windowed>>,
    labels: Vec<LabeledSpan>,
    related: Vec<Report>,
}

impl fmt::Debug for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Report {}

impl miette::Diagnostic for Report {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        if self.code.is_empty() {
            None
        } else {
            Some(Box::new(&self.code))
        }
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.labels.is_empty() {
            None
        } else {
            Some(Box::new(self.labels.iter().cloned()))
        }
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        if self.related.is_empty() {
            None
        } else {
            Some(Box::new(
                self.related.iter().map(|r| r as &dyn miette::Diagnostic),
            ))
        }
    }
}

fn miette_severity(s: Severity) -> miette::Severity {
    match s {
        Severity::Error => miette::Severity::Error,
        Severity::Warning => miette::Severity::Warning,
        Severity::Info => miette::Severity::Advice,
    }
}

fn label_text(l: &Label) -> Option<String> {
    if l.message.is_empty() {
        None
    } else {
        Some(super::terminal_safe(&l.message).into_owned())
    }
}

/// Lines between two labels of one file beyond which the second gets its own frame (one frame
/// would print every line in between).
const MAX_LINES_IN_ONE_FRAME: usize = 12;

/// Whether two labels of one file are too far apart to share a frame.
fn far_apart(text: &str, a: &Label, b: &Label) -> bool {
    let lo = (a.span.start.min(b.span.start) as usize).min(text.len());
    let hi = (a.span.end.max(b.span.end) as usize).min(text.len());
    text.get(lo..hi)
        .is_some_and(|t| t.bytes().filter(|&c| c == b'\n').count() > MAX_LINES_IN_ONE_FRAME)
}

fn build(d: &Diagnostic, sources: &SourceMap, texts: &Texts) -> Report {
    let mut report = Report {
        message: super::terminal_safe(&d.message).into_owned(),
        code: format!("{}({})", d.code, d.name),
        severity: miette_severity(d.severity),
        help: d
            .help
            .as_deref()
            .map(|h| super::terminal_safe(h).into_owned()),
        source: None,
        labels: Vec::new(),
        related: Vec::new(),
    };
    let Some(primary) = &d.primary else {
        return report;
    };
    let view = FileView::of(sources, texts, primary);
    report.labels.push(LabeledSpan::new_primary_with_span(
        label_text(primary),
        view.span(primary),
    ));
    for s in &d.secondary {
        if s.file == primary.file && !far_apart(&view.text.text, primary, s) {
            report
                .labels
                .push(LabeledSpan::new_with_span(label_text(s), view.span(s)));
        } else {
            let other = FileView::of(sources, texts, s);
            report.related.push(Report {
                message: if s.message.is_empty() {
                    "related location".to_string()
                } else {
                    super::terminal_safe(&s.message).into_owned()
                },
                code: String::new(),
                severity: miette::Severity::Advice,
                help: None,
                labels: vec![LabeledSpan::new_primary_with_span(None, other.span(s))],
                source: Some(NamedSource::new(
                    other.name.clone(),
                    Windowed(other.text.clone()),
                )),
                related: Vec::new(),
            });
        }
    }
    report.source = Some(NamedSource::new(view.name.clone(), Windowed(view.text)));
    report
}

/// Render diagnostics as code frames, followed by a one-line summary.
pub fn render(diags: &[Diagnostic], sources: &SourceMap, opts: HumanOptions) -> String {
    let theme = if opts.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(opts.width)
        .with_links(false)
        .with_urls(false)
        .without_primary_span_start();
    // Frames are rendered in parallel and joined in the diagnostics' order.
    let texts = Texts::of(diags, sources);
    let frames: Vec<String> = diags
        .par_iter()
        .map(|d| {
            let report = build(d, sources, &texts);
            let mut s = String::new();
            if handler.render_report(&mut s, &report).is_err() {
                s = format!("{}: {} [{}]\n", d.severity, d.message, d.code);
            }
            s
        })
        .collect();
    let mut out = String::with_capacity(frames.iter().map(|f| f.len() + 1).sum::<usize>() + 64);
    for s in frames {
        out.push_str(&s);
        out.push('\n');
    }
    out.push_str(&summary_line(diags));
    out
}

/// The closing summary line (`2 errors, 1 warning, 0 infos`), or `No problems found.`.
pub fn summary_line(diags: &[Diagnostic]) -> String {
    let s = Summary::of(diags);
    if diags.is_empty() {
        return "No problems found.\n".to_string();
    }
    let plural = |n: usize, w: &str| {
        if n == 1 {
            format!("{n} {w}")
        } else {
            format!("{n} {w}s")
        }
    };
    format!(
        "Found {}, {}, {}.\n",
        plural(s.errors, "error"),
        plural(s.warnings, "warning"),
        plural(s.infos, "info")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use miette::SourceCode;

    fn file(text: &str) -> SourceFile {
        SourceFile::new("t.yaml", "t.yaml", text.to_string())
    }

    /// A finding far along a long line (minified JSON, a long flow mapping) is shown in a
    /// window of that line around it: miette cannot pad a label past column 65,535, and the
    /// whole line would be unreadable. Long lines next to a short one are left out of its frame.
    #[test]
    fn long_lines_are_shown_as_a_window() {
        let render_one = |text: String, at: usize, len: usize| {
            let mut sources = SourceMap::default();
            let id = sources.add(SourceFile::new("t.json", "t.json", text));
            let d = Diagnostic::new(
                "SR006",
                "unknown-key",
                Severity::Error,
                "unknown key `gruops`",
            )
            .at(id, crate::source::Span::new(at, at + len), "here")
            .help("did you mean `groups`?");
            render(&[d], &sources, HumanOptions::default())
        };
        let far = format!("{{\"a\": \"{}\", \"gruops\": [1]}}", "x".repeat(70_000));
        let at = far.find("\"gruops\"").unwrap();
        assert_eq!(
            render_one(far, at, 8),
            [
                "SR006(unknown-key)",
                "",
                "  × unknown key `gruops`",
                "   ╭─[t.json:1:70011]",
                " 1 │ xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\", \"gruops\": [1]}",
                "   ·                                         ────┬───",
                "   ·                                             ╰── here",
                "   ╰────",
                "  help: did you mean `groups`?",
                "",
                "Found 1 error, 0 warnings, 0 infos.",
                "",
            ]
            .join("\n")
        );
        // A finding in the middle of a minified document (one line of 1,000 bytes): the frame
        // shows at most a window of 120 bytes of it, from 40 bytes before the span.
        let mid = format!(
            "{{\"a\": \"{}\", \"paths\": \"oops\", \"b\": \"{}\"}}",
            "x".repeat(500),
            "y".repeat(500)
        );
        let at = mid.find("\"oops\"").unwrap();
        let shown = render_one(mid, at, 6);
        let widest = shown.lines().map(|l| l.chars().count()).max().unwrap();
        assert_eq!(widest, 5 + 120, "{shown}");
        assert!(
            shown.contains(&format!(
                " 1 │ {}\", \"paths\": \"oops\", \"b\": \"{}\n",
                "x".repeat(40 - 12),
                "y".repeat(120 - 40 - 14)
            )),
            "{shown}"
        );
        // A short line between two long ones: its frame holds it alone.
        let long = "y".repeat(500);
        let text = format!("{long}\nkey: 1\n{long}\n");
        let at = text.find("key").unwrap();
        assert_eq!(
            render_one(text, at, 3),
            [
                "SR006(unknown-key)",
                "",
                "  × unknown key `gruops`",
                "   ╭─[t.json:2:1]",
                " 2 │ key: 1",
                "   · ─┬─",
                "   ·  ╰── here",
                "   ╰────",
                "  help: did you mean `groups`?",
                "",
                "Found 1 error, 0 warnings, 0 infos.",
                "",
            ]
            .join("\n")
        );
    }

    /// A file's text reaches miette as the per-character copy makes it, whether or not the byte
    /// scan lets it skip that copy; the lines counted above any offset are the `\n`s of the
    /// shown text before it.
    #[test]
    fn file_texts_equal_the_per_character_copy() {
        let texts = [
            "plain: text\n",
            "\u{feff}bom: x\n",
            "bare\rcr\r\nand crlf\n",
            "tab\there\n",
            "esc \u{1b}[2J and del \u{7f}\n",
            "c1 \u{9b} control\n",
            "bidi \u{202e} and \u{2067}\n",
            "dash \u{2014} ellipsis \u{2026} e-acute \u{e9}\n",
            "",
        ];
        for text in texts {
            let t = FileText::new(&file(text));
            let stripped = text.strip_prefix('\u{feff}').unwrap_or(text);
            assert_eq!(&*t.text, bare_cr_as_lf(stripped).as_str(), "{text:?}");
            assert_eq!(t.text.len(), stripped.len(), "{text:?}");
            for at in 0..=t.text.len() {
                let breaks = t.text.as_bytes()[..at]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count();
                assert_eq!(t.lines_above(at), breaks, "{text:?} at {at}");
            }
        }
        assert!(shown_as_is("plain: text\n\tindented\n"));
        assert!(!shown_as_is("crlf\r\n"));
        assert!(!shown_as_is("dash \u{2014}"));
    }

    /// The window gives what miette computes over the whole text: for every span of a few
    /// texts (LF and CRLF line ends, empty lines, no final line end) and context sizes.
    #[test]
    fn windowed_reads_equal_whole_text_reads() {
        let texts = [
            "a: 1\nbb: 2\n\nccc: 3\ndddd: 4\ne: 5\nf: 6\ng: 7",
            "a: 1\r\nbb: 2\r\n\r\nccc: 3\r\ndddd: 4\r\ne: 5\r\n",
            "\n\n\nx\n\n\ny: z\n",
            "one line only",
        ];
        for text in texts {
            let w = Windowed(Arc::new(FileText::new(&file(text))));
            let whole: &str = text;
            for start in 0..=text.len() {
                for len in [0, 1, 3, 9] {
                    for before in 0..4 {
                        for after in 0..3 {
                            let span = SourceSpan::new(start.into(), len);
                            let a = w.read_span(&span, before, after);
                            let b = whole.read_span(&span, before, after);
                            match (a, b) {
                                (Ok(a), Ok(b)) => {
                                    let what = format!("{text:?} {start}+{len} {before}/{after}");
                                    assert_eq!(a.data(), b.data(), "{what}");
                                    assert_eq!(a.span(), b.span(), "{what}");
                                    assert_eq!(a.line(), b.line(), "{what}");
                                    assert_eq!(a.column(), b.column(), "{what}");
                                    assert_eq!(a.line_count(), b.line_count(), "{what}");
                                }
                                (Err(_), Err(_)) => {}
                                (a, b) => panic!(
                                    "{text:?} {start}+{len}: window {:?}, whole {:?}",
                                    a.is_ok(),
                                    b.is_ok()
                                ),
                            }
                        }
                    }
                }
            }
        }
    }
}
