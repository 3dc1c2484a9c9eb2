//! Loading a schema project: configuration, file discovery (recursive, sorted, limited), parsing
//! (YAML from granit-parser events, TOML through toml) into spanned [`node::Node`] trees, and typed
//! reading into the [`crate::model`] with precise diagnostics.
//!
//! The loader never guesses: files with other extensions are skipped with a note, a second YAML
//! document is an error, unknown keys are errors, and nothing outside the project root is read.

pub mod cache;
pub mod de;
pub mod node;
pub mod recover;
pub mod required;
pub mod toml;
pub(crate) mod written;
pub mod yaml;
#[cfg(test)]
mod yaml_serde;

use crate::diagnostics::{Diagnostic, Label, Severity};
use crate::model::config::Limits;
use crate::model::{AliasFile, Config, Decl, FileKind, IntentFile, Project, Sp, Tool, ValueType};
use crate::source::{FileId, Format, SourceFile, Span};
pub use cache::ParseCache;
use node::{Node, NodeKind};
use std::path::{Path, PathBuf};

/// Stable codes of load diagnostics: the one table of codes (`codes::PARSE_ERROR`, ...).
pub use crate::diagnostics::codes;

/// Why one file could not be parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum LoadError {
    /// Syntax error.
    Syntax {
        /// Parser message.
        message: String,
        /// Where.
        span: Span,
    },
    /// A key repeated in one map.
    DuplicateKey {
        /// The key.
        key: String,
        /// The second occurrence.
        span: Span,
        /// The first occurrence, when known.
        first: Option<Span>,
    },
    /// A second YAML document.
    MultipleDocuments {
        /// Where the second document starts.
        span: Span,
    },
    /// Nothing declared.
    Empty {
        /// True when the file has comments but no content.
        comment_only: bool,
        /// Where the file's one value is written when that value is an explicit null (`null`,
        /// `~`, `Null`): the file holds a null where a map of declarations is expected.
        null: Option<Span>,
    },
    /// A key a mapping sets itself over the value a YAML merge (`<<`) gives it (reported, not
    /// fatal: the mapping's own value applies, as the merge-key rule says, but YAML readers
    /// differ on it and a reader of the file may expect the merged value).
    MergeOverride {
        /// The key.
        key: String,
        /// The mapping's own key.
        span: Span,
        /// Where the merged key is written (in the anchored mapping).
        merged: Span,
        /// True when the key is written before the `<<` (readers that apply keys in order give
        /// the merged value instead).
        before: bool,
    },
    /// A string field holding a plain, unquoted YAML 1.1 boolean (`yes`, `no`, `on`, `off`, `y`,
    /// `n`, in any case): a string here, a boolean to YAML 1.1 readers (reported, not fatal).
    Yaml11Boolean {
        /// The value.
        span: Span,
        /// Its text.
        text: String,
    },
    /// A string or key holding a control character (reported, not fatal: see
    /// [`parse_text_traced`]).
    ControlCharacter {
        /// The string or key.
        span: Span,
        /// The first control character in it.
        ch: char,
        /// True for a mapping key, false for a value.
        key: bool,
    },
    /// A budget was exceeded.
    Limit {
        /// What was exceeded.
        message: String,
        /// Where.
        span: Span,
        /// The `[limits]` setting that raises it, or `None` for a limit built into the parser.
        setting: Option<&'static str>,
    },
}

impl LoadError {
    /// Whether this is a finding the parse goes on past and that does not make the file fail
    /// (a control character, a merge override, a YAML 1.1 boolean spelling).
    pub fn is_warning(&self) -> bool {
        matches!(
            self,
            LoadError::ControlCharacter { .. }
                | LoadError::MergeOverride { .. }
                | LoadError::Yaml11Boolean { .. }
        )
    }
}

/// An [`LoadError::Empty`] for this text (comment-only when any line starts with `comment`).
pub(crate) fn empty_error(text: &str, comment: char) -> LoadError {
    let comment_only = text.lines().any(|l| {
        l.trim_start_matches('\u{feff}')
            .trim_start()
            .starts_with(comment)
    });
    LoadError::Empty {
        comment_only,
        null: None,
    }
}

/// The error for a file whose one value is the explicit null written at `span` (`null`, `~`):
/// it declares nothing, but it is not empty, so the finding says what it holds and where.
pub(crate) fn null_error(text: &str, span: Span) -> LoadError {
    match empty_error(text, '#') {
        LoadError::Empty { comment_only, .. } => LoadError::Empty {
            comment_only,
            null: Some(span),
        },
        other => other,
    }
}

fn diag(code: (&'static str, &'static str), message: impl Into<String>) -> Diagnostic {
    Diagnostic::new(code.0, code.1, Severity::Error, message)
}

/// An ignored-file warning (a path the walk does not read) with its help line.
fn ignored(message: impl Into<String>, help: impl Into<String>) -> Diagnostic {
    Diagnostic::new(
        codes::IGNORED_FILE.0,
        codes::IGNORED_FILE.1,
        Severity::Warning,
        message,
    )
    .help(help)
}

impl LoadError {
    /// The diagnostic for this error in `file`.
    pub fn to_diagnostic(&self, file: FileId, format: Format) -> Diagnostic {
        match self {
            LoadError::Syntax { message, span } => {
                let lang = match format {
                    Format::Yaml => "YAML",
                    Format::Toml => "TOML",
                };
                let help = if format == Format::Yaml && message.contains("tab") {
                    "replace the tab with spaces".to_string()
                } else if message.contains("is not closed on its line") {
                    "close the quote on this line (a quoted string runs over lines to its next quote)"
                        .to_string()
                } else {
                    format!("fix the {lang} syntax at this position")
                };
                diag(codes::PARSE_ERROR, format!("invalid {lang}: {message}"))
                    .at(file, *span, "here")
                    .help(help)
            }
            LoadError::DuplicateKey { key, span, first } => {
                let mut d = diag(codes::DUPLICATE_KEY, format!("duplicate key `{key}`"))
                    .at(file, *span, "repeated here")
                    .help("remove one of the two entries; a later key would silently replace the earlier one");
                if let Some(f) = first {
                    d = d.also(file, *f, "first defined here");
                }
                d
            }
            LoadError::MultipleDocuments { span } => diag(
                codes::MULTIPLE_DOCUMENTS,
                "this file holds more than one YAML document",
            )
            .at(file, *span, "second document starts here")
            .help(
                "put one declaration document per file; move the second document to its own file",
            ),
            LoadError::Empty {
                null: Some(span),
                ..
            } => diag(
                codes::EMPTY_FILE,
                "file holds only a null, where a map of declarations is expected",
            )
            .at(file, *span, "a null, not a map")
            .help("write the declarations as a map of keys (as the other files of this folder do), or delete the file"),
            LoadError::Empty { comment_only, .. } => {
                let msg = if *comment_only {
                    "file has only comments and declares nothing"
                } else {
                    "file is empty"
                };
                diag(codes::EMPTY_FILE, msg)
                    .at(file, Span::new(0, 0), "")
                    .help("add declarations or delete the file")
            }
            LoadError::MergeOverride {
                key,
                span,
                merged,
                before,
            } => Diagnostic::new(
                codes::MERGE_OVERRIDE.0,
                codes::MERGE_OVERRIDE.1,
                Severity::Warning,
                match before {
                    true => format!(
                        "`{key}` is written before the `<<` merge that also gives it: this value applies, but YAML readers that apply keys in order keep the merged one"
                    ),
                    false => format!(
                        "`{key}` overrides the value the `<<` merge gives it; the merged value is silently dropped"
                    ),
                },
            )
            .at(file, *span, "this value applies")
            .also(file, *merged, "merged value, overridden")
            .help(format!(
                "remove `{key}` from the merged mapping (so each value is written once), or write this mapping out without `<<`; to keep the override, set `merge-override = \"off\"` under [lint.rules] or add a suppression comment"
            )),
            LoadError::Yaml11Boolean { span, text } => Diagnostic::new(
                codes::YAML11_BOOLEAN.0,
                codes::YAML11_BOOLEAN.1,
                Severity::Warning,
                format!("`{text}` is read as the string \"{text}\" here, but YAML 1.1 readers read it as a boolean"),
            )
            .at(file, *span, "")
            .help(format!("quote it (`\"{text}\"`) so every YAML reader reads the same string"))
            .with_fix(crate::diagnostics::fix::Fix::safe(
                format!("quote `{text}`"),
                vec![crate::diagnostics::fix::Edit::replace(file, *span, format!("\"{text}\""))],
            )),
            LoadError::ControlCharacter { span, ch, key } => Diagnostic::new(
                codes::CONTROL_CHARACTER.0,
                codes::CONTROL_CHARACTER.1,
                Severity::Warning,
                format!(
                    "this {} holds the control character U+{:04X}",
                    if *key { "key" } else { "string" },
                    *ch as u32
                ),
            )
            .at(file, *span, "")
            .help("remove it; control and bidirectional-override characters reach prompts, plans and exports as they are"),
            LoadError::Limit {
                message,
                span,
                setting,
            } => {
                // Say what to simplify: a TOML file has no aliases to use fewer of.
                let what = match setting {
                    Some("max-depth") => "nest less deeply",
                    Some("max-aliases") => "use fewer aliases",
                    Some("max-scalar-bytes") => "shorten the text",
                    Some("max-enum-values") => {
                        "declare the parameter without `enum` (its description can say what it takes)"
                    }
                    _ if message.contains("nest") => "nest less deeply",
                    _ if message.contains("alias") => "use fewer aliases",
                    _ => "make the file smaller",
                };
                let help = match setting {
                    Some(key) => format!(
                        "{what}, or raise `{key}` under [limits] in schemarouter.toml"
                    ),
                    None => format!("{what}; this limit is built in and cannot be raised"),
                };
                diag(
                    codes::LIMIT_EXCEEDED,
                    format!("input limit exceeded: {message}"),
                )
                .at(file, *span, "here")
                .help(help)
            }
        }
    }
}

/// Convert a typed-read error into a diagnostic.
fn de_diagnostic(e: de::DeError, file: FileId, text: &str) -> Diagnostic {
    let code = match e.kind {
        de::DeErrorKind::UnknownKey => codes::UNKNOWN_KEY,
        de::DeErrorKind::MissingKey => codes::MISSING_KEY,
        de::DeErrorKind::InvalidValue => codes::INVALID_VALUE,
    };
    let span = shown_span(e.span.unwrap_or_default(), text);
    let mut d = diag(code, e.message).at(file, span, "");
    d.help = e.help;
    d
}

/// The span a finding about a node shows. A block mapping or list has only its start (its
/// extent is many lines): a finding about it (a missing key, a mapping where a value belongs)
/// would have no length in JSON and SARIF, so it is given the first key written there (a list,
/// its first item's: `- id` shows `id`). Other spans are kept.
fn shown_span(span: Span, text: &str) -> Span {
    if !span.is_empty() {
        return span;
    }
    let start = span.start as usize;
    let Some(rest) = text.get(start..) else {
        return span;
    };
    let line = rest.split(['\n', '\r']).next().unwrap_or("");
    // Past list dashes (`- - id: x`).
    let item = line.trim_start_matches(['-', ' ']);
    let skip = line.len() - item.len();
    let key = match item
        .find(": ")
        .or_else(|| item.strip_suffix(':').map(str::len))
    {
        Some(end) => item[..end].trim_end(),
        None => "",
    };
    if key.is_empty() || key.starts_with(['#', '{', '[']) {
        return span;
    }
    Span::new(start + skip, start + skip + key.len())
}

/// Parse text of the given format into a node tree, with limits applied.
pub fn parse_text(text: &str, format: Format, limits: &Limits) -> Result<Node, LoadError> {
    let (node, _, found) = parse_text_traced(text, format, limits)?;
    match found.into_iter().find(|e| !e.is_warning()) {
        None => Ok(node),
        Some(e) => Err(e),
    }
}

/// [`parse_text`], also returning the YAML alias uses (none for TOML) and the problems the parse
/// went on past: YAML duplicate keys (see [`yaml::parse_traced`]; TOML stops at its first
/// duplicate) and strings or keys holding control characters.
pub fn parse_text_traced(
    text: &str,
    format: Format,
    limits: &Limits,
) -> Result<(Node, Vec<yaml::AliasUse>, Vec<LoadError>), LoadError> {
    let (node, uses, mut duplicates) = match format {
        Format::Yaml => yaml::parse_traced(text, limits)?,
        Format::Toml => (toml::parse(text)?, Vec::new(), Vec::new()),
    };
    // A value replayed through an alias keeps its anchor's span: one finding per place.
    let mut controls = Vec::new();
    if may_hold_control(text) {
        control_characters(&node, &mut controls);
    }
    let mut seen = std::collections::HashSet::new();
    duplicates.extend(controls.into_iter().filter(|e| match e {
        LoadError::ControlCharacter { span, .. } => seen.insert(*span),
        _ => true,
    }));
    let depth = node.depth();
    if depth > limits.max_depth as usize {
        return Err(LoadError::Limit {
            message: format!(
                "nesting depth {depth} is deeper than the limit of {}",
                limits.max_depth
            ),
            span: deepest(&node, limits.max_depth as usize).unwrap_or(node.span),
            setting: Some("max-depth"),
        });
    }
    if let Some((len, span)) = long_scalar(&node, limits.max_scalar_bytes) {
        return Err(LoadError::Limit {
            message: format!(
                "a string of {len} bytes is longer than the limit of {} bytes",
                limits.max_scalar_bytes
            ),
            span,
            setting: Some("max-scalar-bytes"),
        });
    }
    Ok((node, uses, duplicates))
}

/// The first string value or key (in reading order) longer than `limit` bytes: its length and
/// span. One pass over the tree.
fn long_scalar(node: &Node, limit: u64) -> Option<(usize, Span)> {
    let too_long = |s: &str| s.len() as u64 > limit;
    match &node.kind {
        NodeKind::Str(s) if too_long(s) => Some((s.len(), node.span)),
        NodeKind::Seq(items) => items.iter().find_map(|n| long_scalar(n, limit)),
        NodeKind::Map(entries) => entries.iter().find_map(|(k, v)| {
            if too_long(&k.text) {
                Some((k.text.len(), k.span))
            } else {
                long_scalar(v, limit)
            }
        }),
        _ => None,
    }
}

/// Add to `found` a [`LoadError::Limit`] for each parameter `enum` of a tool file with more
/// than `max-enum-values` values, at its `enum` key. The file is still read (its other findings
/// stand); the error refuses the compile. Only the path to the enums is walked (endpoints,
/// their parameters), not the whole tree.
fn long_enums(node: &Node, kind: FileKind, limits: &Limits, found: &mut Vec<LoadError>) {
    if kind != FileKind::Tool {
        return;
    }
    fn items<'n>(n: &'n Node, key: &str) -> &'n [Node] {
        let NodeKind::Map(entries) = &n.kind else {
            return &[];
        };
        match entries
            .iter()
            .find(|(k, _)| k.text == key)
            .map(|(_, v)| &v.kind)
        {
            Some(NodeKind::Seq(list)) => list,
            _ => &[],
        }
    }
    let max = limits.max_enum_values;
    for endpoint in items(node, "endpoints") {
        for parameter in items(endpoint, "parameters") {
            let NodeKind::Map(entries) = &parameter.kind else {
                continue;
            };
            for (k, v) in entries {
                if k.text == "enum"
                    && let NodeKind::Seq(values) = &v.kind
                    && values.len() as u64 > max
                {
                    found.push(LoadError::Limit {
                        message: format!(
                            "an enum of {} values is longer than the limit of {max} values",
                            values.len()
                        ),
                        span: k.span,
                        setting: Some("max-enum-values"),
                    });
                }
            }
        }
    }
}

/// The first node found at nesting level `limit + 1` (1-based), for the limit diagnostic.
fn deepest(node: &Node, limit: usize) -> Option<Span> {
    if limit == 0 {
        return Some(node.span);
    }
    match &node.kind {
        node::NodeKind::Seq(items) => items.iter().find_map(|i| deepest(i, limit - 1)),
        node::NodeKind::Map(entries) => entries.iter().find_map(|(_, v)| deepest(v, limit - 1)),
        _ => None,
    }
}

/// Decode bytes as UTF-8, or return the lossy text and the diagnostic for the first bad byte.
fn decode(bytes: Vec<u8>) -> Result<String, (String, usize)> {
    match String::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            Err((String::from_utf8_lossy(e.as_bytes()).into_owned(), at))
        }
    }
}

/// An error that stops loading altogether (exit code 2).
#[derive(Debug)]
pub struct FatalError {
    /// Which kind of failure (front ends may give a better help line, e.g. the enclosing
    /// project of a folder that is not one).
    pub kind: FatalKind,
    /// What went wrong.
    pub message: String,
    /// What to do about it (one line).
    pub help: String,
}

/// The kinds of [`FatalError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FatalKind {
    /// The project folder cannot be read (missing, no permission).
    Unreadable,
    /// The path is not a folder.
    NotAFolder,
    /// The folder has none of the declaration folders.
    NotAProject,
    /// The declaration folders hold no declaration file.
    NoDeclarations,
    /// Every declaration file is excluded by the configuration.
    AllExcluded,
}

/// What a schema project holds, for help lines.
pub const PROJECT_SHAPE: &str = "a schema project is a folder holding `schemas/` (tool declarations, .yaml or .toml), usually `intents/` and `aliases/`, and optionally `schemarouter.toml`";

impl std::fmt::Display for FatalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FatalError {}

/// The outcome of loading: the project (possibly partial) and every diagnostic found on the way.
pub struct Loaded {
    /// What could be read.
    pub project: Project,
    /// Load diagnostics (parse, structure, limits, notes).
    pub diagnostics: Vec<Diagnostic>,
    /// True when an I/O error occurred (the CLI exits 2).
    pub io_error: bool,
    /// Every YAML alias use, by file (see [`Loaded::annotate_aliases`]).
    pub alias_uses: Vec<(FileId, yaml::AliasUse)>,
    /// Kinds of declarations some of which could not be read at all: a `[paths]` folder that
    /// does not exist or is not a folder, an unreadable folder or file. (Files that were read
    /// but failed to parse are found from their diagnostics, see `lint::failed_kinds`.)
    pub failed_kinds: std::collections::BTreeSet<FileKind>,
    /// True when no declaration file was read because `schemarouter.toml` could not be (see
    /// `config_only`): no rule runs, and an SR012 finding says so.
    pub declarations_unread: bool,
}

impl Loaded {
    /// Give every finding placed exactly on an alias use (a value replayed from an anchor, also
    /// through a `<<` merge) the anchored value as related information: the finding is reported
    /// where the value is used, and the anchor shows where it is written.
    pub fn annotate_aliases(
        alias_uses: &[(FileId, yaml::AliasUse)],
        diagnostics: &mut [Diagnostic],
    ) {
        if alias_uses.is_empty() {
            return;
        }
        let by_place: std::collections::HashMap<(FileId, Span), &yaml::AliasUse> =
            alias_uses.iter().map(|(f, u)| ((*f, u.at), u)).collect();
        for d in diagnostics {
            let Some(p) = &d.primary else { continue };
            let Some(u) = by_place.get(&(p.file, p.span)) else {
                continue;
            };
            let (file, span) = (p.file, u.value);
            let note = format!("the value comes from anchor `&{}`, defined here", u.anchor);
            // One label per place: a label already there (a duplicate's "first defined here")
            // gets the anchor added to its message instead of a second label at the same span.
            match d
                .secondary
                .iter_mut()
                .find(|l| l.file == file && l.span == span)
            {
                Some(l) if l.message.contains(&note) => {}
                Some(l) if l.message.is_empty() => l.message = note,
                Some(l) => {
                    l.message = format!("{}; {note}", l.message);
                }
                None => d.secondary.push(Label::new(file, span, note)),
            }
        }
    }
}

/// Name of the configuration file at the project root (named once, in the core's `model::config`).
pub use crate::model::config::CONFIG_FILE;

/// Load the project rooted at `root`.
///
/// Errors: a missing or unreadable root is fatal; everything else becomes diagnostics.
pub fn load_project(root: &Path) -> Result<Loaded, FatalError> {
    load_project_overlay(root, &Overlay::new())
}

/// The findings of the configuration file `file` alone (`schemarouter.toml`, read as `check`
/// reads it), with the source map they point into: the commands that read a compiled artifact
/// refuse a project whose configuration has errors rather than read it with defaults.
pub fn config_findings(file: &Path) -> (crate::source::SourceMap, Vec<Diagnostic>) {
    let root = file.parent().unwrap_or(Path::new("."));
    let mut st = Loading {
        project: Project {
            root: root.to_path_buf(),
            ..Default::default()
        },
        diags: Vec::new(),
        io_error: false,
        failed_kinds: std::collections::BTreeSet::new(),
        config_unread: false,
    };
    read_config(root, &Overlay::new(), &mut st);
    (st.project.sources, st.diags)
}

/// Texts that replace what is on disk, by display name (the path relative to the project root
/// with `/` separators: `schemas/aflow.yaml`, `schemarouter.toml`): the language server's open,
/// unsaved documents. A name is used only for a file the walk finds on disk.
pub type Overlay = std::collections::HashMap<String, String>;

/// [`load_project`], reading the files named in `overlay` from it instead of from disk.
///
/// Errors: as [`load_project`].
pub fn load_project_overlay(root: &Path, overlay: &Overlay) -> Result<Loaded, FatalError> {
    load_project_cached(root, overlay, None)
}

/// [`load_project_overlay`], reusing from `cache` what reading a file gave when its text is the
/// one read last time (see [`cache`]): only changed files are parsed again. The result is the
/// one [`load_project_overlay`] gives. The language server keeps one cache per project.
///
/// Errors: as [`load_project`].
pub fn load_project_cached(
    root: &Path,
    overlay: &Overlay,
    cache: Option<&ParseCache>,
) -> Result<Loaded, FatalError> {
    let canonical_root = check_root(root)?;
    let mut st = Loading {
        project: Project {
            root: root.to_path_buf(),
            ..Default::default()
        },
        diags: Vec::new(),
        io_error: false,
        failed_kinds: std::collections::BTreeSet::new(),
        config_unread: false,
    };
    // 1. Configuration.
    read_config(root, overlay, &mut st);
    if st.config_unread {
        return Ok(config_only(st, None));
    }
    let limits = st.project.config.limits.clone();
    // 2. Exclusion globs.
    let excludes = exclusion_globs(&mut st);
    // 3. Discovery. A project whose configuration has errors and that then looks like no
    // project (its folders named by a faulty setting) is reported by those errors.
    let mut found = match discover(root, &canonical_root, &mut st) {
        Ok(found) => found,
        Err(e) if config_failed(&st) => return Ok(config_only(st, Some(e))),
        Err(e) => return Err(e),
    };
    add_unsaved(root, overlay, &st.project.config.paths, &mut found);
    let found = match select_declarations(root, found, &excludes, &limits, &mut st) {
        Ok(found) => found,
        Err(e) if config_failed(&st) => return Ok(config_only(st, Some(e))),
        Err(e) => return Err(e),
    };
    // 4. Plan the reads (limits are decided in sorted order), read and parse in parallel, then
    // add files to the project in sorted order so file ids are deterministic.
    let plans = plan_reads(found, &limits, overlay, &mut st.diags);
    let results = read_planned(plans, &limits, overlay, cache);
    if let Some(c) = cache {
        c.finish_load();
    }
    let alias_uses = add_files(results, &mut st);
    Ok(Loaded {
        project: st.project,
        diagnostics: st.diags,
        io_error: st.io_error,
        alias_uses,
        failed_kinds: st.failed_kinds,
        declarations_unread: false,
    })
}

/// Whether `schemarouter.toml` has an error finding.
fn config_failed(st: &Loading) -> bool {
    st.project.config_file.is_some_and(|cf| {
        st.diags.iter().any(|d| {
            d.severity == Severity::Error && d.primary.as_ref().is_some_and(|l| l.file == cf)
        })
    })
}

/// The outcome of a load that stops after the configuration: `schemarouter.toml` cannot be
/// read at all, or its errors leave no declaration to read (`fatal`, what discovery said with
/// the settings that did read). No declaration is read with settings guessed in place of the
/// file's: the configuration's findings, and one saying that nothing else was checked.
fn config_only(mut st: Loading, fatal: Option<FatalError>) -> Loaded {
    let why = match fatal {
        Some(e) => format!(
            "{CONFIG_FILE} has errors, and with the settings that could be read: {}",
            e.message
        ),
        None => format!("{CONFIG_FILE} cannot be read"),
    };
    st.diags.push(
        Diagnostic::new(
            codes::CHECKS_SKIPPED.0,
            codes::CHECKS_SKIPPED.1,
            Severity::Info,
            format!("{why}; no declaration file was read or checked"),
        )
        .help(format!(
            "fix {CONFIG_FILE} and run `schemarouter check` again (declarations are never checked with default settings in place of a configuration that does not read)"
        )),
    );
    st.failed_kinds.extend([
        FileKind::Config,
        FileKind::Tool,
        FileKind::Intent,
        FileKind::Alias,
    ]);
    Loaded {
        project: st.project,
        diagnostics: st.diags,
        io_error: st.io_error,
        alias_uses: Vec::new(),
        failed_kinds: st.failed_kinds,
        declarations_unread: true,
    }
}

/// What [`load_project`]'s passes build up: the project, its findings, whether an I/O error
/// occurred and the kinds of files that could not all be read.
struct Loading {
    project: Project,
    diags: Vec<Diagnostic>,
    io_error: bool,
    failed_kinds: std::collections::BTreeSet<FileKind>,
    /// `schemarouter.toml` exists but no setting of it could be read (not TOML, not UTF-8,
    /// unreadable): the declarations are not read with default settings in its place.
    config_unread: bool,
}

/// A declaration file found by discovery: its name (relative to the root), path and kind.
type Found = (String, PathBuf, FileKind);

/// The third pass's complement: an overlay document that is not on disk yet (an editor's new,
/// unsaved file) but sits where discovery looks (a `.yaml`, `.yml` or `.toml` file inside the
/// declaration folders of `paths`) is read from the overlay like a saved one.
fn add_unsaved(
    root: &Path,
    overlay: &Overlay,
    paths: &crate::model::config::Paths,
    found: &mut Vec<Found>,
) {
    let folders = [
        (&paths.schemas, FileKind::Tool),
        (&paths.intents, FileKind::Intent),
        (&paths.aliases, FileKind::Alias),
    ];
    let mut unsaved: Vec<Found> = overlay
        .keys()
        .filter(|name| !found.iter().any(|(n, _, _)| n == *name))
        .filter(|name| !name.split('/').any(|part| part == ".." || part.is_empty()))
        .filter(|name| !root.join(name).exists())
        .filter_map(|name| {
            let (_, kind) = folders.iter().find(|(folder, _)| {
                name.starts_with(&format!("{}/", folder.trim_end_matches('/')))
            })?;
            let path = root.join(name);
            Format::from_path(&path)?;
            Some((name.clone(), path, *kind))
        })
        .collect();
    unsaved.sort();
    found.extend(unsaved);
}

/// The project root must be a readable folder; returns its canonical path.
fn check_root(root: &Path) -> Result<PathBuf, FatalError> {
    let meta = std::fs::metadata(root).map_err(|e| FatalError {
        kind: FatalKind::Unreadable,
        message: format!("cannot read project folder `{}`: {e}", root.display()),
        help: if e.kind() == std::io::ErrorKind::NotFound {
            format!("check the path: {PROJECT_SHAPE}")
        } else {
            "check that the folder and its parents are readable (permissions)".to_string()
        },
    })?;
    if !meta.is_dir() {
        return Err(FatalError {
            kind: FatalKind::NotAFolder,
            message: format!("`{}` is not a folder", root.display()),
            help: format!("pass the project folder, not a file: {PROJECT_SHAPE}"),
        });
    }
    root.canonicalize().map_err(|e| FatalError {
        kind: FatalKind::Unreadable,
        message: format!("cannot resolve `{}`: {e}", root.display()),
        help: "check that the folder and its parents are readable (permissions)".to_string(),
    })
}

/// The first pass: the configuration file (`schemarouter.toml`), when there is one.
fn read_config(root: &Path, overlay: &Overlay, st: &mut Loading) {
    let Loading {
        project,
        diags,
        io_error,
        config_unread,
        ..
    } = st;
    let config_path = root.join(CONFIG_FILE);
    if config_path.exists() && !config_path.is_file() {
        *io_error = true;
        diags.push(
            diag(codes::IO_ERROR, format!("`{CONFIG_FILE}` is not a file"))
                .help("remove it or replace it with the configuration file"),
        );
    }
    if config_path.is_file() {
        let read = match overlay.get(CONFIG_FILE) {
            Some(text) => Ok(text.clone().into_bytes()),
            None => schemarouter_core::input::read_file_limited(
                &config_path,
                schemarouter_core::input::MAX_INPUT_BYTES,
            ),
        };
        match read {
            Ok(bytes) => {
                let (text, bad) = match decode(bytes) {
                    Ok(t) => (t, None),
                    Err((t, at)) => (t, Some(at)),
                };
                let id =
                    project
                        .sources
                        .add(SourceFile::new(CONFIG_FILE, config_path.clone(), text));
                project.file_kinds.push(FileKind::Config);
                project.config_file = Some(id);
                if let Some(at) = bad {
                    diags.push(encoding_diag(id, at, &project.sources.get(id).text));
                    *config_unread = true;
                } else {
                    let text = &project.sources.get(id).text;
                    match parse_text(text, Format::Toml, &Limits::default()) {
                        // Every structural fault of the file at once, as for declarations;
                        // the settings that do read are kept (a faulty one is an error, so
                        // the run fails whatever it would have said).
                        Ok(node) => {
                            let (config, errors) =
                                recover::read_recovering(&node, FileKind::Config, |n| {
                                    de::from_node::<Config>(n)
                                });
                            diags.extend(errors.into_iter().map(|e| de_diagnostic(e, id, text)));
                            match config {
                                Some(c) => project.config = c,
                                None => *config_unread = true,
                            }
                        }
                        Err(LoadError::Empty { .. }) => {}
                        Err(e) => {
                            diags.push(e.to_diagnostic(id, Format::Toml));
                            *config_unread = true;
                        }
                    }
                }
            }
            Err(e) => {
                *io_error = true;
                *config_unread = true;
                diags.push(
                    diag(codes::IO_ERROR, format!("cannot read `{CONFIG_FILE}`: {e}"))
                        .help("check that the file is readable (permissions)"),
                );
            }
        }
    }
}

/// The second pass: `[lint] exclude` as a glob set (an invalid pattern is a finding).
fn exclusion_globs(st: &mut Loading) -> globset::GlobSet {
    let Loading { project, diags, .. } = st;
    let mut excludes = globset::GlobSetBuilder::new();
    for pattern in &project.config.lint.exclude {
        match globset::Glob::new(&pattern.value) {
            Ok(g) => {
                excludes.add(g);
            }
            Err(e) => {
                let mut d = diag(
                    codes::INVALID_VALUE,
                    format!("invalid exclude pattern `{}`: {e}", pattern.value),
                )
                .help("use a glob such as `schemas/drafts/**`");
                if let Some(cf) = project.config_file {
                    d = d.at(cf, pattern.span, "");
                }
                diags.push(d);
            }
        }
    }
    excludes
        .build()
        .unwrap_or_else(|_| globset::GlobSet::empty())
}

/// The third pass: every file under the tool, intent and alias folders (unsorted). A project
/// with none of the folders is fatal.
fn discover(
    root: &Path,
    canonical_root: &Path,
    st: &mut Loading,
) -> Result<Vec<Found>, FatalError> {
    let Loading {
        project,
        diags,
        io_error,
        failed_kinds,
        ..
    } = st;
    let folders = [
        (project.config.paths.schemas.clone(), FileKind::Tool),
        (project.config.paths.intents.clone(), FileKind::Intent),
        (project.config.paths.aliases.clone(), FileKind::Alias),
    ];
    let mut found: Vec<Found> = Vec::new();
    let mut present = 0;
    let mut walked = Walked {
        roots: folders
            .iter()
            .filter_map(|(folder, kind)| {
                let real = root.join(folder).canonicalize().ok()?;
                Some((real, *kind, folder.clone()))
            })
            .collect(),
        ..Walked::default()
    };
    for (folder, kind) in &folders {
        let dir = root.join(folder);
        if !dir.exists() {
            let default = match kind {
                FileKind::Tool => "schemas",
                FileKind::Intent => "intents",
                _ => "aliases",
            };
            if folder != default {
                let mut d = diag(
                    codes::IO_ERROR,
                    format!("folder `{folder}` named in [paths] does not exist"),
                )
                .help("fix the path in schemarouter.toml (paths are relative to the project root)");
                if let Some(cf) = project.config_file {
                    let text = &project.sources.get(cf).text;
                    if let Some(i) = text.find(&format!("\"{folder}\"")) {
                        d = d.at(cf, Span::new(i, i + folder.len() + 2), "");
                    }
                }
                diags.push(d);
                *io_error = true;
                failed_kinds.insert(*kind);
            }
            continue;
        }
        if !dir.is_dir() {
            *io_error = true;
            failed_kinds.insert(*kind);
            diags.push(
                diag(codes::IO_ERROR, format!("`{folder}` is not a folder")).help(format!(
                    "`{folder}` must be the folder of the {} files",
                    kind.name()
                )),
            );
            continue;
        }
        present += 1;
        // Two declaration folders that are one folder (a link, or one inside the other): its
        // files would be read as two kinds.
        // `walked.roots` is in folder order: the ones before this kind's were read already.
        if let Ok(real) = dir.canonicalize()
            && let Some((_, other, other_folder)) = walked
                .roots
                .iter()
                .take_while(|(_, k, _)| *k != *kind)
                .find(|(r, _, _)| real.starts_with(r) || r.starts_with(&real))
        {
            diags.push(
                diag(
                    codes::IO_ERROR,
                    format!(
                        "`{folder}` and `{other_folder}` are the same folder (or one holds the other), so the {} files would be read as {} files too; `{folder}` was not read",
                        other.name(),
                        kind.name()
                    ),
                )
                .help(format!(
                    "give the {} files a folder of their own (or point [paths] in schemarouter.toml at one)",
                    kind.name()
                )),
            );
            *io_error = true;
            failed_kinds.insert(*kind);
            continue;
        }
        if walk(
            &dir,
            canonical_root,
            root,
            *kind,
            &mut found,
            diags,
            &mut walked,
        ) {
            *io_error = true;
            failed_kinds.insert(*kind);
        }
    }
    if present == 0 && diags.iter().all(|d| d.code != codes::IO_ERROR.0) {
        let [s, i, a] = [
            &project.config.paths.schemas,
            &project.config.paths.intents,
            &project.config.paths.aliases,
        ];
        return Err(FatalError {
            kind: FatalKind::NotAProject,
            message: format!(
                "`{}` is not a schema project: it has none of the folders `{s}/`, `{i}/` and `{a}/`",
                root.display()
            ),
            help: PROJECT_SHAPE.to_string(),
        });
    }
    Ok(found)
}

/// The fourth pass: the found files sorted, the excluded ones dropped (none left is fatal), a
/// project without tools reported, and the file-count limit applied.
fn select_declarations(
    root: &Path,
    mut found: Vec<Found>,
    excludes: &globset::GlobSet,
    limits: &Limits,
    st: &mut Loading,
) -> Result<Vec<Found>, FatalError> {
    let Loading {
        project,
        diags,
        io_error,
        ..
    } = st;
    let io_error = *io_error;
    found.sort_by(|a, b| a.0.cmp(&b.0));
    let declarations = |f: &[Found]| {
        f.iter()
            .filter(|(_, p, _)| Format::from_path(p).is_some())
            .count()
    };
    let before = declarations(&found);
    found.retain(|(name, _, _)| !excludes.is_match(name));
    if declarations(&found) == 0 && !io_error {
        let [s, i, a] = [
            &project.config.paths.schemas,
            &project.config.paths.intents,
            &project.config.paths.aliases,
        ];
        let error = if before > 0 {
            FatalError {
                kind: FatalKind::AllExcluded,
                message: format!(
                    "every declaration file of `{}` is excluded by [lint] exclude in {CONFIG_FILE} ({before} excluded); there is nothing to check",
                    root.display()
                ),
                help: format!(
                    "narrow the patterns of [lint] exclude in {CONFIG_FILE} so that some declaration files are read"
                ),
            }
        } else {
            FatalError {
                kind: FatalKind::NoDeclarations,
                message: format!(
                    "`{}` has no declaration files: no .yaml, .yml or .toml file under `{s}/`, `{i}/` or `{a}/`",
                    root.display()
                ),
                help: format!(
                    "add tool declarations under `{s}/` (`schemarouter schema tool` prints their JSON Schema), or import them: `schemarouter import openapi FILE --project {}`",
                    root.display()
                ),
            }
        };
        return Err(error);
    }

    // Intents and aliases but no tool: one finding that says so, before the findings it causes
    // (every concept orphaned, every intent unsatisfiable).
    if !io_error && !found.iter().any(|(_, _, k)| *k == FileKind::Tool) {
        let s = &project.config.paths.schemas;
        let why = if root.join(s).is_dir() {
            format!("`{s}/` holds no .yaml, .yml or .toml file")
        } else {
            format!("there is no `{s}/` folder")
        };
        diags.push(
            Diagnostic::new(
                codes::NO_TOOLS.0,
                codes::NO_TOOLS.1,
                Severity::Warning,
                format!("the project declares no tools: {why}"),
            )
            .help(format!(
                "declare tools under `{s}/` (`schemarouter schema tool` prints their JSON Schema), or import them with `schemarouter import openapi | mcp | openai`"
            )),
        );
    }
    if found.len() as u64 > limits.max_files {
        diags.push(
            diag(
                codes::LIMIT_EXCEEDED,
                format!(
                    "the project has {} declaration files, more than the limit of {}",
                    found.len(),
                    limits.max_files
                ),
            )
            .help("raise [limits] max-files in schemarouter.toml or split the project"),
        );
        found.truncate(limits.max_files as usize);
    }
    Ok(found)
}

/// What is done with one found file: read it, or skip it with a finding.
enum Plan {
    Read(String, PathBuf, FileKind, Format),
    Skip(String, PathBuf, FileKind, Diagnostic),
}

/// One planned file after reading: its source file and alias uses, duplicate-key findings and
/// what it declares (or why not).
type ReadResult = (
    Plan,
    Option<SourceFile>,
    Vec<yaml::AliasUse>,
    Vec<LoadError>,
    Result<Parsed, ReadFailure>,
);

/// The fifth pass: what to read, in sorted order, so that the size limits are decided the same
/// way on every run.
fn plan_reads(
    found: Vec<Found>,
    limits: &Limits,
    overlay: &Overlay,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Plan> {
    let mut plans = Vec::new();
    let mut total: u64 = 0;
    for (name, path, kind) in found {
        let unsaved = overlay.contains_key(&name) && !path.exists();
        if !path.is_file() && !unsaved {
            // A FIFO, socket or device: reading it could block for ever or never end.
            let d = ignored(
                format!(
                    "`{name}` is not a regular file (a FIFO, socket or device) and was not read"
                ),
                "declaration files are regular files; remove it or replace it with a copy of the file",
            );
            plans.push(Plan::Skip(name, path, kind, d));
            continue;
        }
        let Some(format) = Format::from_path(&path) else {
            let d = Diagnostic::new(
                codes::IGNORED_FILE.0,
                codes::IGNORED_FILE.1,
                Severity::Info,
                format!("`{name}` is not a .yaml, .yml or .toml file and was skipped"),
            )
            .help("rename it with a declaration extension if it holds declarations");
            plans.push(Plan::Skip(name, path, kind, d));
            continue;
        };
        let size = match overlay.get(&name) {
            Some(text) => text.len() as u64,
            None => std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0),
        };
        if size > limits.max_file_bytes {
            let d = diag(
                codes::LIMIT_EXCEEDED,
                format!(
                    "`{name}` is {size} bytes, larger than the limit of {} bytes",
                    limits.max_file_bytes
                ),
            )
            .help("split the file or raise [limits] max-file-bytes in schemarouter.toml");
            plans.push(Plan::Skip(name, path, kind, d));
            continue;
        }
        total += size;
        if total > limits.max_project_bytes {
            diags.push(diag(
                codes::LIMIT_EXCEEDED,
                format!(
                    "the project's files exceed the total limit of {} bytes; stopped before `{name}`",
                    limits.max_project_bytes
                ),
            ).help("raise [limits] max-project-bytes in schemarouter.toml"));
            break;
        }
        plans.push(Plan::Read(name, path, kind, format));
    }
    plans
}

/// The sixth pass: the planned files read and parsed on rayon threads, collected in plan order.
fn read_planned(
    plans: Vec<Plan>,
    limits: &Limits,
    overlay: &Overlay,
    cache: Option<&ParseCache>,
) -> Vec<ReadResult> {
    use rayon::prelude::*;
    let limits_key = format!("{limits:?}");
    let bar = progress_bar(plans.len() as u64, "reading");
    let results: Vec<ReadResult> = plans
        .into_par_iter()
        .map(|plan| {
            let out = match &plan {
                Plan::Skip(..) => (
                    plan,
                    None,
                    Vec::new(),
                    Vec::new(),
                    Err(ReadFailure::Skipped),
                ),
                Plan::Read(name, path, kind, format) => {
                    let cached = cache.map(|c| {
                        (
                            c,
                            format!("{kind:?}/{format:?}/{limits_key}"),
                            name.as_str(),
                        )
                    });
                    let (text, uses, duplicates, result) =
                        read_and_parse(path, overlay.get(name), (*kind, *format), limits, cached);
                    let file = text.map(|t| SourceFile::new(name.clone(), path.clone(), t));
                    (plan, file, uses, duplicates, result)
                }
            };
            if let Some(b) = &bar {
                b.inc(1);
            }
            out
        })
        .collect();
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    results
}

/// The last pass: the files added to the project in sorted order (so file ids are
/// deterministic) with their declarations and findings; returns the alias uses.
fn add_files(results: Vec<ReadResult>, st: &mut Loading) -> Vec<(FileId, yaml::AliasUse)> {
    let Loading {
        project,
        diags,
        io_error,
        failed_kinds,
        ..
    } = st;
    let mut alias_uses = Vec::new();
    for (plan, file, uses, duplicates, result) in results {
        match plan {
            Plan::Skip(name, path, kind, d) => {
                let id = project
                    .sources
                    .add(SourceFile::new(name, path, String::new()));
                project.file_kinds.push(kind);
                diags.push(d.at(id, Span::default(), ""));
            }
            Plan::Read(name, _, kind, format) => {
                let Some(file) = file else {
                    if let Err(ReadFailure::Io(e)) = result {
                        *io_error = true;
                        failed_kinds.insert(kind);
                        diags.push(
                            diag(codes::IO_ERROR, format!("cannot read `{name}`: {e}"))
                                .help("check that the file is readable (permissions), or exclude it with [lint] exclude in schemarouter.toml"),
                        );
                    }
                    continue;
                };
                let id = project.sources.add(file);
                project.file_kinds.push(kind);
                alias_uses.extend(uses.into_iter().map(|u| (id, u)));
                diags.extend(duplicates.iter().map(|e| e.to_diagnostic(id, format)));
                match result {
                    Ok(parsed) => add_declarations(project, id, parsed),
                    Err(ReadFailure::Encoding(at)) => {
                        diags.push(encoding_diag(id, at, &project.sources.get(id).text))
                    }
                    Err(ReadFailure::Load(e)) => {
                        let mut d = e.to_diagnostic(id, format);
                        if format == Format::Yaml
                            && matches!(e, LoadError::Syntax { .. })
                            && let Some(line) = toml_line(&project.sources.get(id).text)
                        {
                            d.help = Some(format!(
                                "this looks like TOML (line {line}: `key = value`): give the file a `.toml` extension, or write it as YAML (`key: value`)"
                            ));
                        }
                        if format == Format::Toml
                            && matches!(e, LoadError::Syntax { .. })
                            && let Some(line) = yaml_line(&project.sources.get(id).text)
                        {
                            d.help = Some(format!(
                                "this looks like YAML (line {line}: `key: value`): give the file a `.yaml` extension, or write it as TOML (`key = value`)"
                            ));
                        }
                        diags.push(d)
                    }
                    Err(ReadFailure::De(errors)) => {
                        let text = &project.sources.get(id).text;
                        diags.extend(errors.into_iter().map(|e| de_diagnostic(e, id, text)))
                    }
                    Err(ReadFailure::Io(_) | ReadFailure::Skipped) => {}
                }
            }
        }
    }
    alias_uses
}

static PROGRESS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Allow progress bars on stderr for long loads (the CLI turns this on when stderr is a
/// terminal and `CI` is not set).
pub fn set_progress(on: bool) {
    PROGRESS.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// The progress bar of a long load: indicatif's on the command line; without the `cli`
/// feature (the Python wheel) progress is never turned on and no bar is ever made.
#[cfg(feature = "cli")]
pub type ProgressBar = indicatif::ProgressBar;

/// The progress bar of a long load: indicatif's on the command line; without the `cli`
/// feature (the Python wheel) progress is never turned on and no bar is ever made.
#[cfg(not(feature = "cli"))]
#[derive(Debug)]
pub struct ProgressBar(());

#[cfg(not(feature = "cli"))]
impl ProgressBar {
    /// Count `n` more items done.
    pub fn inc(&self, _n: u64) {}
    /// Set the count of items done.
    pub fn set_position(&self, _n: u64) {}
    /// Remove the bar.
    pub fn finish_and_clear(&self) {}
}

/// A progress bar for `len` items when progress is on and the job is large enough to notice.
#[cfg(not(feature = "cli"))]
pub fn progress_bar(_len: u64, _what: &str) -> Option<ProgressBar> {
    None
}

/// A progress bar for `len` items when progress is on and the job is large enough to notice.
#[cfg(feature = "cli")]
pub fn progress_bar(len: u64, what: &str) -> Option<ProgressBar> {
    if !PROGRESS.load(std::sync::atomic::Ordering::Relaxed) || len < 500 {
        return None;
    }
    let bar = indicatif::ProgressBar::new(len);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{msg:>10} [{bar:40}] {pos}/{len} files ({eta})")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(what.to_string());
    Some(bar)
}

/// Load a project from in-memory files (used by fuzzing and tests): `config` is the text of
/// `schemarouter.toml`, `files` are (path relative to the root, text) pairs whose first folder
/// (`schemas`, `intents`, `aliases`) gives the kind. Files are taken in sorted order.
pub fn load_sources(config: Option<&str>, files: &[(&str, &str)]) -> Loaded {
    let mut project = Project::default();
    let mut diagnostics = Vec::new();
    let mut alias_uses = Vec::new();
    if let Some(text) = config {
        let id = project
            .sources
            .add(SourceFile::new(CONFIG_FILE, CONFIG_FILE, text.to_string()));
        project.file_kinds.push(FileKind::Config);
        project.config_file = Some(id);
        let unread = match parse_text(text, Format::Toml, &Limits::default()) {
            Ok(node) => {
                let (config, errors) = recover::read_recovering(&node, FileKind::Config, |n| {
                    de::from_node::<Config>(n)
                });
                diagnostics.extend(errors.into_iter().map(|e| de_diagnostic(e, id, text)));
                config.map(|c| project.config = c).is_none()
            }
            Err(LoadError::Empty { .. }) => false,
            Err(e) => {
                diagnostics.push(e.to_diagnostic(id, Format::Toml));
                true
            }
        };
        if unread {
            let st = Loading {
                project,
                diags: diagnostics,
                io_error: false,
                failed_kinds: Default::default(),
                config_unread: true,
            };
            return config_only(st, None);
        }
    }
    let limits = project.config.limits.clone();
    let mut sorted: Vec<&(&str, &str)> = files.iter().collect();
    sorted.sort_by_key(|(name, _)| *name);
    for (name, text) in sorted {
        let kind = match name.split('/').next() {
            Some("schemas") => FileKind::Tool,
            Some("intents") => FileKind::Intent,
            _ => FileKind::Alias,
        };
        let id = project
            .sources
            .add(SourceFile::new(*name, *name, text.to_string()));
        project.file_kinds.push(kind);
        let Some(format) = Format::from_path(Path::new(name)) else {
            continue;
        };
        let parsed = match parse_text_traced(text, format, &limits) {
            Ok((node, uses, mut duplicates)) => {
                alias_uses.extend(uses.into_iter().map(|u| (id, u)));
                long_enums(&node, kind, &limits, &mut duplicates);
                let typed = typed_noting_booleans(&node, kind, text, &mut duplicates);
                diagnostics.extend(duplicates.iter().map(|e| e.to_diagnostic(id, format)));
                typed
            }
            Err(e) => {
                diagnostics.push(e.to_diagnostic(id, format));
                continue;
            }
        };
        match parsed {
            Ok(p) => add_declarations(&mut project, id, p),
            Err(errors) => {
                diagnostics.extend(errors.into_iter().map(|e| de_diagnostic(e, id, text)));
            }
        }
    }
    Loaded {
        project,
        diagnostics,
        io_error: false,
        alias_uses,
        failed_kinds: Default::default(),
        declarations_unread: false,
    }
}

/// The first line of `text` (1-based) with content, when its first lines with content (up to
/// three, at least two; blank lines and `#` comments skipped) all read as `reads_as` says.
fn first_lines_read_as(text: &str, reads_as: impl Fn(&str) -> bool) -> Option<usize> {
    let mut first = None;
    let mut seen = 0;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if !reads_as(t) {
            return None;
        }
        first.get_or_insert(i + 1);
        seen += 1;
        if seen == 3 {
            break;
        }
    }
    if seen >= 2 { first } else { None }
}

/// A bare key: letters, digits and `_-" ` (and `.` for TOML's dotted keys when `dots`).
fn is_bare_key(k: &str, dots: bool) -> bool {
    !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-\" ".contains(c) || (dots && c == '.'))
}

/// The first line of `text` (1-based) that reads as TOML, when its first lines with content are
/// TOML (`key = value`, `[table]`, `[[array.of.tables]]`, comments): a TOML file saved as
/// `.yaml`, whose YAML error alone would point far below the cause.
fn toml_line(text: &str) -> Option<usize> {
    first_lines_read_as(text, |t| {
        let table =
            t.starts_with('[') && t.ends_with(']') && is_bare_key(t.trim_matches(['[', ']']), true);
        table
            || t.split_once('=')
                .is_some_and(|(k, _)| is_bare_key(k.trim(), true))
    })
}

/// The first line of `text` (1-based) that reads as YAML, when its first lines with content are
/// YAML (`key: value`, `key:`, `- item`) and none is TOML (`key = value`, `[table]`): a YAML
/// file saved as `.toml`.
fn yaml_line(text: &str) -> Option<usize> {
    first_lines_read_as(text, |t| {
        let pair = t.split_once(':').is_some_and(|(k, v)| {
            is_bare_key(k.trim(), false) && (v.is_empty() || v.starts_with(' '))
        });
        let item = t.starts_with("- ") || t == "-";
        (pair || item) && !t.starts_with('[') && !t.contains(" = ")
    })
}

/// Read a declaration file's node tree into its typed form. On failure, every structural fault
/// of the file (unknown keys, wrong types, missing keys) is reported at once
/// ([`recover::read_all`]), not one per run.
/// [`type_node`], adding to `found` a [`LoadError::Yaml11Boolean`] for each string field or
/// parameter value written as a plain (unquoted) YAML 1.1 boolean. Values replayed through an
/// alias are reported where the anchor writes them.
fn typed_noting_booleans(
    node: &Node,
    kind: FileKind,
    text: &str,
    found: &mut Vec<LoadError>,
) -> Result<Parsed, Vec<de::DeError>> {
    let (typed, spans) = de::noting_yaml11_booleans(|| type_node(node, kind));
    // A parameter value of a type other than text is checked against its type instead (a
    // boolean parameter's `default: off` is an error whose help says to write `false`).
    let mut typed_values = std::collections::HashSet::new();
    if !spans.is_empty() {
        non_text_parameter_values(node, &mut typed_values);
    }
    for span in spans.into_iter().filter(|s| !typed_values.contains(s)) {
        let written = text
            .get(span.start as usize..span.end as usize)
            .unwrap_or("");
        // Quoted strings (and TOML's, always quoted) start with their quote; an alias with `*`.
        if written.trim() == written
            && !written.is_empty()
            && written.chars().all(|c| c.is_ascii_alphabetic())
        {
            found.push(LoadError::Yaml11Boolean {
                span,
                text: written.to_string(),
            });
        }
    }
    typed
}

/// The spans of the `default` and `enum` values of every mapping with a `type` other than text
/// (a parameter's), read from the tree so that a file that does not load is covered too.
fn non_text_parameter_values(node: &Node, out: &mut std::collections::HashSet<Span>) {
    use node::NodeKind;
    match &node.kind {
        NodeKind::Map(entries) => {
            let ty = entries.iter().find(|(k, _)| k.text == "type");
            let non_text = ty.is_some_and(|(_, v)| match &v.kind {
                NodeKind::Str(t) => ValueType::parse(t).is_ok_and(|t| !written::takes_text(&t)),
                _ => false,
            });
            for (k, v) in entries {
                if non_text && (k.text == "default" || k.text == "enum") {
                    match &v.kind {
                        NodeKind::Seq(items) => out.extend(items.iter().map(|i| i.span)),
                        _ => {
                            out.insert(v.span);
                        }
                    }
                }
                non_text_parameter_values(v, out);
            }
        }
        NodeKind::Seq(items) => items.iter().for_each(|i| non_text_parameter_values(i, out)),
        _ => {}
    }
}

fn type_node(node: &Node, kind: FileKind) -> Result<Parsed, Vec<de::DeError>> {
    let typed = recover::read_all(node, kind, |n| match kind {
        FileKind::Tool => de::from_node::<Tool>(n).map(|mut t| {
            written::keep_written_text(&mut t);
            Parsed::Tool(Box::new(Sp::new(t, n.span)))
        }),
        FileKind::Intent => de::from_node::<IntentFile>(n).map(Parsed::Intents),
        FileKind::Alias | FileKind::Config => de::from_node::<AliasFile>(n).map(Parsed::Aliases),
    });
    typed.map_err(|mut errors| {
        // A whole file read as one string: a TOML body in a `.yaml` file (YAML folds its
        // `key = value` lines into one plain scalar).
        if let node::NodeKind::Str(s) = &node.kind
            && (s.contains(" = ") || s.contains("=\"") || s.starts_with('['))
            && let Some(e) = errors.first_mut()
        {
            e.help = Some(
                "this looks like TOML (`key = value`): give the file a `.toml` extension, or write it as YAML (`key: value`)"
                    .to_string(),
            );
            errors.truncate(1);
        }
        errors
    })
}

/// What one declaration file holds.
#[derive(Clone)]
enum Parsed {
    Tool(Box<Sp<Tool>>),
    Intents(IntentFile),
    Aliases(AliasFile),
}

/// Why one file could not be read into declarations.
#[derive(Clone)]
enum ReadFailure {
    Skipped,
    Io(String),
    Encoding(usize),
    Load(LoadError),
    De(Vec<de::DeError>),
}

/// Read, decode, parse and type one file (runs on the parallel pool). Returns the text (when it
/// could be read) and the declarations or the failure.
fn read_and_parse(
    path: &Path,
    overlay: Option<&String>,
    (kind, format): (FileKind, Format),
    limits: &Limits,
    cache: Option<(&ParseCache, String, &str)>,
) -> (
    Option<String>,
    Vec<yaml::AliasUse>,
    Vec<LoadError>,
    Result<Parsed, ReadFailure>,
) {
    // Read at most one byte past the limit: a file that grew after it was measured (or that
    // never ends) is refused rather than read whole.
    // An overlay's text stands for the file, saved or not (an editor's new document).
    let read = match overlay {
        Some(text) => Ok(text.clone().into_bytes()),
        None => std::fs::File::open(path).and_then(|f| {
            use std::io::Read;
            // Sized from the file's length (capped by the limit) so that reading does not
            // regrow and copy the buffer; the read still stops one byte past the limit.
            let hint = f.metadata().map_or(0, |m| m.len());
            let cap = hint.min(limits.max_file_bytes).saturating_add(1);
            let mut bytes = Vec::with_capacity(usize::try_from(cap).unwrap_or(0));
            f.take(limits.max_file_bytes.saturating_add(1))
                .read_to_end(&mut bytes)?;
            Ok(bytes)
        }),
    };
    let bytes = match read {
        Ok(b) if b.len() as u64 > limits.max_file_bytes => {
            return (
                None,
                Vec::new(),
                Vec::new(),
                Err(ReadFailure::Io(format!(
                    "it grew past the limit of {} bytes ([limits] max-file-bytes) while being read",
                    limits.max_file_bytes
                ))),
            );
        }
        Ok(b) => b,
        Err(e) => {
            return (
                None,
                Vec::new(),
                Vec::new(),
                Err(ReadFailure::Io(e.to_string())),
            );
        }
    };
    let text = match decode(bytes) {
        Ok(t) => t,
        Err((t, at)) => {
            return (
                Some(t),
                Vec::new(),
                Vec::new(),
                Err(ReadFailure::Encoding(at)),
            );
        }
    };
    if let Some((c, settings, name)) = &cache
        && let Some((uses, duplicates, result)) = c.get(name, settings, &text)
    {
        return (Some(text), uses, duplicates, result);
    }
    let outcome = match parse_text_traced(&text, format, limits) {
        Ok((node, uses, mut duplicates)) => {
            long_enums(&node, kind, limits, &mut duplicates);
            let typed = typed_noting_booleans(&node, kind, &text, &mut duplicates);
            (uses, duplicates, typed.map_err(ReadFailure::De))
        }
        Err(e) => (Vec::new(), Vec::new(), Err(ReadFailure::Load(e))),
    };
    if let Some((c, settings, name)) = cache {
        c.put(name, settings, &text, &outcome);
    }
    let (uses, duplicates, result) = outcome;
    (Some(text), uses, duplicates, result)
}

/// Add one file's declarations to the project.
fn add_declarations(project: &mut Project, id: FileId, parsed: Parsed) {
    match parsed {
        Parsed::Tool(tool) => project.tools.push(Decl {
            file: id,
            item: *tool,
        }),
        Parsed::Intents(f) => {
            for d in f.domains {
                project.domains.push(Decl { file: id, item: d });
            }
            for g in f.groups {
                project.groups.push(Decl { file: id, item: g });
            }
            for i in f.intents {
                project.intents.push(Decl { file: id, item: i });
            }
        }
        Parsed::Aliases(f) => {
            for c in f.concepts {
                project.concepts.push(Decl { file: id, item: c });
            }
            for a in f.aliases {
                project.aliases.push(Decl { file: id, item: a });
            }
            for q in f.qualifiers {
                project.qualifiers.push(Decl { file: id, item: q });
            }
            for r in f.recognisers {
                project.recognisers.push(Decl { file: id, item: r });
            }
            if let Some(c) = f.cues {
                let c = c.value;
                for s in c.source_types {
                    project.source_cues.push(Decl { file: id, item: s });
                }
                for t in c.out_of_scope {
                    project.scope_topics.push(Decl { file: id, item: t });
                }
            }
        }
    }
}

/// Whether `lossy` (a file's text decoded with replacement characters) is UTF-16: a
/// byte-order mark (`FF FE` or `FE FF`, two replacement characters) and NUL bytes soon after.
pub(crate) fn looks_utf16(lossy: &str) -> bool {
    lossy.starts_with("\u{fffd}\u{fffd}") && lossy.chars().take(64).any(|c| c == '\0')
}

fn encoding_diag(id: FileId, at: usize, lossy: &str) -> Diagnostic {
    if at == 0 && looks_utf16(lossy) {
        return diag(
            codes::INVALID_ENCODING,
            "file is UTF-16 (it begins with a UTF-16 byte-order mark), not UTF-8",
        )
        .at(
            id,
            Span::new(0, 2 * '\u{fffd}'.len_utf8()),
            "byte-order mark",
        )
        .help("save the file as UTF-8 (in most editors: save with encoding UTF-8)");
    }
    diag(
        codes::INVALID_ENCODING,
        format!("file is not valid UTF-8 (first bad byte at offset {at})"),
    )
    // The text kept is the lossy decoding, where the bad byte is one U+FFFD (3 bytes).
    .at(
        id,
        Span::new(at, at + '\u{fffd}'.len_utf8()),
        "invalid byte",
    )
    .help("save the file as UTF-8")
}

/// What the walk over the declaration folders has seen.
#[derive(Default)]
struct Walked {
    /// Real folders read so far (each is read once, so symbolic links cannot make a loop).
    visited: std::collections::BTreeSet<PathBuf>,
    /// The real paths of the declaration folders, with their kinds and names as configured.
    roots: Vec<(PathBuf, FileKind, String)>,
}

/// Collect the files under `dir`; returns true when a folder could not be read.
fn walk(
    dir: &Path,
    canonical_root: &Path,
    root: &Path,
    kind: FileKind,
    found: &mut Vec<(String, PathBuf, FileKind)>,
    diags: &mut Vec<Diagnostic>,
    walked: &mut Walked,
) -> bool {
    if let Ok(real) = dir.canonicalize()
        && !walked.visited.insert(real)
    {
        diags.push(
            ignored(
                format!(
                    "`{}` is a folder already read through another path (a symbolic link loop); not read again",
                    display_name(root, dir)
                ),
                "remove the symbolic link",
            ),
        );
        return false;
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            diags.push(
                diag(
                    codes::IO_ERROR,
                    format!("cannot read folder `{}`: {e}", display_name(root, dir)),
                )
                .help("check that the folder is readable (permissions), or exclude it with [lint] exclude in schemarouter.toml"),
            );
            return true;
        }
    };
    let mut failed = false;
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let fname = entry.file_name();
        let fname = fname.to_string_lossy();
        if fname.starts_with('.') {
            continue;
        }
        let name = display_name(root, &path);
        let Ok(ft) = entry.file_type() else { continue };
        if ft.is_symlink() {
            // Follow only links that stay inside the project.
            match path.canonicalize() {
                Ok(target) if target.starts_with(canonical_root) => {
                    // A link to a folder that holds a declaration folder (`schemas/up -> ..`,
                    // the project root) would read every declaration folder under it as this
                    // kind, and mark them read before their own turn.
                    // (A link to another kind's folder itself is reported below.)
                    if let Some((r, _, folder)) = walked
                        .roots
                        .iter()
                        .find(|(r, k, _)| r.starts_with(&target) && (*r != target || *k == kind))
                    {
                        let leads_to = if *r == target {
                            format!("back to the declaration folder `{folder}`")
                        } else {
                            let shown = match target.strip_prefix(canonical_root) {
                                Ok(rel) if rel.as_os_str().is_empty() => {
                                    "the project folder".to_string()
                                }
                                Ok(rel) => {
                                    format!("`{}`", rel.to_string_lossy().replace('\\', "/"))
                                }
                                Err(_) => format!("`{}`", target.display()),
                            };
                            format!("to {shown}, which holds the declaration folder `{folder}`")
                        };
                        diags.push(ignored(
                            format!(
                                "symbolic link `{name}` leads {leads_to}, and was not followed"
                            ),
                            "remove the link: every declaration folder is read once, on its own",
                        ));
                        continue;
                    }
                    // A link into another declaration folder would read its files as the wrong
                    // kind (and mark that folder read before its own turn).
                    if let Some((_, other, folder)) = walked
                        .roots
                        .iter()
                        .find(|(r, k, _)| *k != kind && target.starts_with(r))
                    {
                        diags.push(
                            ignored(
                                format!(
                                    "symbolic link `{name}` leads into `{folder}`, the folder of the {} files, and was not followed",
                                    other.name()
                                ),
                                format!(
                                    "remove the link: `{folder}` is read on its own, as {} files",
                                    other.name()
                                ),
                            ),
                        );
                        continue;
                    }
                }
                _ => {
                    diags.push(
                        ignored(
                            format!(
                                "symbolic link `{name}` leads outside the project (or nowhere) and was not followed"
                            ),
                            "copy the file into the project instead of linking to it",
                        ),
                    );
                    continue;
                }
            }
        }
        if path.is_dir() {
            failed |= walk(&path, canonical_root, root, kind, found, diags, walked);
        } else {
            // Recorded with an empty text so the note can name the file.
            found.push((name, path, kind));
        }
    }
    failed
}

/// Whether a string or key read from `text` can hold a control character: not when every
/// character of the text is printable (tabs, line feeds and CR LF pairs allowed; other
/// characters than ASCII are decoded and judged as [`control_characters`] judges them) and it
/// has no backslash (the only way a YAML double-quoted or TOML string spells a character it
/// does not hold). Most files are such text, and then the tree walk of [`control_characters`]
/// is skipped (at 10,000 generated tools 7 files in 10 hold a `μ` or `·` of a unit).
fn may_hold_control(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b' '..=b'[' | b']'..=b'~' | b'\n' | b'\t' => i += 1,
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => i += 1,
            0x80.. => {
                // `i` is a character boundary: every byte before it was read whole.
                let Some(c) = text[i..].chars().next() else {
                    return true;
                };
                if crate::diagnostics::render::is_unsafe_control(c) {
                    return true;
                }
                i += c.len_utf8();
            }
            _ => return true,
        }
    }
    false
}

/// Every string and key under `node` holding a control character (see
/// `crate::diagnostics::render::is_unsafe_control`; also a carriage return not followed by a
/// line feed, which moves a terminal's cursor back over the line), in source order.
fn control_characters(node: &Node, out: &mut Vec<LoadError>) {
    let first = |s: &str| {
        let mut chars = s.chars().peekable();
        while let Some(c) = chars.next() {
            let lone_cr = c == '\r' && chars.peek() != Some(&'\n');
            if lone_cr || crate::diagnostics::render::is_unsafe_control(c) {
                return Some(c);
            }
        }
        None
    };
    match &node.kind {
        node::NodeKind::Str(s) => {
            if let Some(ch) = first(s) {
                out.push(LoadError::ControlCharacter {
                    span: node.span,
                    ch,
                    key: false,
                });
            }
        }
        node::NodeKind::Seq(items) => items.iter().for_each(|n| control_characters(n, out)),
        node::NodeKind::Map(entries) => {
            for (k, v) in entries {
                if let Some(ch) = first(&k.text) {
                    out.push(LoadError::ControlCharacter {
                        span: k.span,
                        ch,
                        key: true,
                    });
                }
                control_characters(v, out);
            }
        }
        _ => {}
    }
}

/// Path relative to the project root with `/` separators.
pub fn display_name(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod control_tests {
    use super::*;

    #[test]
    fn only_printable_text_without_backslashes_skips_the_walk() {
        assert!(!may_hold_control("name: x\n\tb: 'y'\r\n"));
        // Printable characters other than ASCII (a unit's `μ` and `·`, accents, CJK, a BOM).
        assert!(!may_hold_control(
            "\u{feff}a: caf\u{e9} \u{3bc}g/L kg/(mol\u{b7}f.u.) \u{6771}\u{4eac}\n"
        ));
        for text in [
            "a: \"x\\e\"\n",       // an escape
            "a: x\u{1b}\n",        // the byte itself
            "a: x\u{7f}\n",        // DEL
            "a: x\u{85}\n",        // a C1 control (NEL)
            "a: \u{e9}\u{9b}2J\n", // a C1 control after another non-ASCII character
            "a: x\u{202e}y\n",     // a bidirectional override
            "a: x\u{2066}y\n",     // a bidirectional isolate
            "a = \"\\u0007\"\n",   // a TOML escape
            "a: x\ry\n",           // a carriage return alone
        ] {
            assert!(may_hold_control(text), "{text:?}");
        }
    }

    #[test]
    fn a_control_character_spelled_by_an_escape_is_found() {
        let limits = Limits::default();
        let (_, _, found) =
            parse_text_traced("name: \"x\\e[2J\"\n", Format::Yaml, &limits).unwrap();
        assert_eq!(
            found,
            vec![LoadError::ControlCharacter {
                span: Span::new(6, 14),
                ch: '\u{1b}',
                key: false
            }]
        );
        let (_, _, found) = parse_text_traced("name: plain\n", Format::Yaml, &limits).unwrap();
        assert_eq!(found, vec![]);
        // A carriage return alone is one; as half of a line break it is not.
        let (_, _, found) = parse_text_traced("a: \"x\\ry\"\n", Format::Yaml, &limits).unwrap();
        assert_eq!(
            found,
            vec![LoadError::ControlCharacter {
                span: Span::new(3, 9),
                ch: '\r',
                key: false
            }]
        );
        let (_, _, found) =
            parse_text_traced("a: \"x\\r\\ny\"\r\nb: 1\r\n", Format::Yaml, &limits).unwrap();
        assert_eq!(found, vec![]);
    }
}

#[cfg(test)]
mod config_tests {
    use super::*;

    const TOOL: &str = "id: t\ntitle: T\ndomain: d\nendpoints:\n  - id: e\n    method: GET\n    url: https://example.org/x\n";

    /// A configuration that does not read at all leaves no setting to go by: its finding and
    /// one saying that no declaration was read; none is read with default settings.
    #[test]
    fn a_config_that_does_not_read_reads_no_declaration() {
        let loaded = load_sources(Some("[lint\n"), &[("schemas/t.yaml", TOOL)]);
        assert!(loaded.declarations_unread);
        assert!(loaded.project.tools.is_empty());
        let codes: Vec<&str> = loaded.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["SR001", "SR012"]);
        assert_eq!(
            loaded.diagnostics[1].message,
            "schemarouter.toml cannot be read; no declaration file was read or checked"
        );
    }

    /// A faulty setting is an error; the declarations are read with the settings that read.
    #[test]
    fn a_faulty_setting_keeps_the_others_and_the_declarations() {
        let loaded = load_sources(
            Some("[lint]\nprompt-budget = 500\nfail-level = 3\n"),
            &[("schemas/t.yaml", TOOL)],
        );
        assert!(!loaded.declarations_unread);
        assert_eq!(loaded.project.tools.len(), 1);
        assert_eq!(
            loaded.project.config.lint.prompt_budget.map(|b| b.value),
            Some(500)
        );
        let from_config: Vec<&str> = loaded
            .diagnostics
            .iter()
            .filter(|d| d.primary.as_ref().map(|l| l.file) == loaded.project.config_file)
            .map(|d| d.code)
            .collect();
        assert_eq!(from_config, ["SR007"]);
        assert!(!loaded.diagnostics.iter().any(|d| d.code == "SR012"));
    }
}
