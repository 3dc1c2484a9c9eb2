//! One import from start to finish: read the sources, map each into a tool, fold each into its
//! existing declaration file (if any), render the files, classify what changed upstream, and
//! write every file or none.

use super::doc::SourceDoc;
use super::emit::{self, Carried, Header};
use super::refs::Resolver;
use super::{Imported, Options, mcp, mcp_client, merge, openai, openapi};
use crate::diagnostics::{Diagnostic, Severity};
use crate::diff::{Report, Side};
use crate::model::{FileKind, Tool};
use crate::source::{Format, SourceFile, SourceMap};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What is imported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// OpenAPI 3.x / Swagger 2.0.
    OpenApi,
    /// MCP `tools/list`.
    Mcp,
    /// OpenAI / Anthropic function tools.
    OpenAi,
}

impl Kind {
    /// The subcommand name.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::OpenApi => "openapi",
            Kind::Mcp => "mcp",
            Kind::OpenAi => "openai",
        }
    }
}

/// Where a source comes from.
#[derive(Clone, Debug)]
pub enum SourceSpec {
    /// A file.
    File(PathBuf),
    /// A live MCP server.
    Live(mcp_client::Server),
}

/// An import, as the command line asked for it.
#[derive(Clone, Debug)]
pub struct ImportRequest {
    /// What the sources are.
    pub kind: Kind,
    /// The sources (one tool each).
    pub sources: Vec<SourceSpec>,
    /// The project folder (created when missing).
    pub project: PathBuf,
    /// Where tool files go (default: the project's `schemas/`).
    pub out: Option<PathBuf>,
    /// The format of new files (existing files keep theirs).
    pub format: Format,
    /// Mapping options.
    pub options: Options,
    /// Report only; write nothing.
    pub dry_run: bool,
    /// Timeout for a live MCP server.
    pub timeout: Duration,
    /// Derive the concept layer after writing the tools (`schemarouter derive`; off with
    /// `--no-derive`).
    pub derive: bool,
}

/// What happened to one declaration file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileStatus {
    /// Created.
    New,
    /// Changed.
    Updated,
    /// Already up to date.
    Unchanged,
}

/// One file of the import.
#[derive(Debug)]
pub struct FileReport {
    /// The path written (or that would be written).
    pub path: PathBuf,
    /// What happened.
    pub status: FileStatus,
    /// The tool id.
    pub tool: String,
    /// Counts: endpoints, parameters, fields.
    pub counts: (usize, usize, usize),
    /// For an updated file: what changed upstream, classified like `diff`.
    pub changes: Option<Report>,
}

/// The result of an import.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Every source document (for rendering the findings).
    pub sources: SourceMap,
    /// Findings of the importers; any error means nothing was written.
    pub findings: Vec<Diagnostic>,
    /// The declaration files.
    pub files: Vec<FileReport>,
    /// Other files written (the domain declaration, editor schemas).
    pub support_files: Vec<PathBuf>,
    /// Notes for the user (suppression comments that could not be carried over, ...).
    pub notes: Vec<String>,
    /// Whether files were written.
    pub written: bool,
    /// The derivation run with the import (unless `--no-derive`).
    pub derived: Option<crate::derive::DeriveOutcome>,
}

impl Outcome {
    /// Whether the import was refused (an error finding).
    pub fn refused(&self) -> bool {
        self.findings.iter().any(|d| d.severity == Severity::Error)
    }
}

/// The stem of a source for default ids (`petstore` for `specs/petstore.yaml`).
fn stem(spec: &SourceSpec) -> String {
    match spec {
        SourceSpec::File(p) => p
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "imported".into()),
        SourceSpec::Live(mcp_client::Server::Command(c)) => {
            // The package or program name: the last word that does not start with `-`.
            let words = shlex::split(c).unwrap_or_default();
            let w = words
                .iter()
                .rev()
                .find(|w| !w.starts_with('-') && !w.contains('/') || w.starts_with('@'))
                .or(words.first())
                .cloned()
                .unwrap_or_else(|| "mcp".into());
            w.rsplit('/').next().unwrap_or(&w).to_string()
        }
        SourceSpec::Live(mcp_client::Server::Url(u)) => u
            .split("://")
            .nth(1)
            .and_then(|r| r.split(['/', ':']).next())
            .unwrap_or("mcp")
            .to_string(),
    }
}

/// Why an import could not run at all (exit code 2): what went wrong and what to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    /// What went wrong.
    pub message: String,
    /// What to do about it (one line).
    pub help: String,
}

impl ImportError {
    /// An error and its help line.
    pub fn new(message: impl Into<String>, help: impl Into<String>) -> ImportError {
        ImportError {
            message: message.into(),
            help: help.into(),
        }
    }

    /// A file that cannot be read.
    fn unreadable(p: &Path, e: &std::io::Error) -> ImportError {
        ImportError::new(
            format!("cannot read `{}`: {e}", p.display()),
            if e.kind() == std::io::ErrorKind::NotFound {
                "check the path of the source document"
            } else if e.kind() == std::io::ErrorKind::InvalidData {
                "split the document, or import the part you need from a smaller copy"
            } else {
                "check that the file is readable (permissions)"
            },
        )
    }
}

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ImportError {}

const WRITE_HELP: &str = "check that the project folder (and --out) can be written to and that the disk has room; nothing of this import is on disk";

/// Run an import.
///
/// Errors (exit code 2): an unreadable source, a live server that cannot be reached, a project
/// path that is not a folder, a write that fails. Refused sources are not errors here: they are
/// error findings in the [`Outcome`] (exit code 1).
pub fn run(req: &ImportRequest) -> Result<Outcome, ImportError> {
    if req.options.tool.is_some() && req.sources.len() > 1 {
        return Err(ImportError::new(
            "`--tool` names one tool, and several sources were given",
            "import one source per run when you set --tool, or drop --tool",
        ));
    }
    let mut out = Outcome::default();
    let imported = map_sources(req, &mut out)?;
    crate::diagnostics::sort_diagnostics(&mut out.findings, &out.sources);
    if out.refused() {
        return Ok(out);
    }
    let project_dir = &req.project;
    let existing = existing_project(project_dir)?;
    let layout = Layout::new(req, existing.as_ref(), &mut out);
    let mut jobs: Vec<(PathBuf, String)> = Vec::new();
    let new_domains = tool_files(
        req,
        imported,
        existing.as_ref(),
        &layout,
        &mut out,
        &mut jobs,
    )?;
    if out.refused() {
        return Ok(out);
    }
    support_files(
        req,
        new_domains,
        existing.is_none(),
        &layout,
        &mut out,
        &mut jobs,
    );
    if req.derive && !jobs.is_empty() {
        let d = crate::derive::run::for_import(project_dir, existing.as_ref(), &jobs)?;
        fold_derivation(&mut jobs, &mut out, &d);
        out.derived = Some(d);
        fit_file_limit(&mut jobs, project_dir, existing.as_ref())?;
    }
    if req.dry_run || jobs.is_empty() {
        return Ok(out);
    }
    write_files(&jobs)?;
    out.written = true;
    Ok(out)
}

/// One source read: its display name, path, text and (for a live server) where it came from.
type ReadSource = (String, PathBuf, String, mcp::ServerOrigin);

/// The first pass: map every source into a tool, with its file header and source file.
fn map_sources(
    req: &ImportRequest,
    out: &mut Outcome,
) -> Result<Vec<(Imported, Header, crate::source::FileId)>, ImportError> {
    let mut imported: Vec<(Imported, Header, crate::source::FileId)> = Vec::new();
    for spec in &req.sources {
        let Some((name, path, text, origin)) = read_source(req, spec, out)? else {
            continue;
        };
        let mut sources = std::mem::take(&mut out.sources);
        let id = sources.add(SourceFile::new(name.clone(), path.clone(), text.clone()));
        let mut doc = match SourceDoc::parse(&name, &path, id, text) {
            Ok(d) => d,
            Err(e) => {
                out.findings.push(*e);
                out.sources = sources;
                continue;
            }
        };
        if matches!(req.kind, Kind::OpenAi) {
            let renamed = openai::bfcl_types(&mut doc.value);
            if let Some(first) = renamed.first() {
                out.findings.push(
                    Diagnostic::new(
                        super::codes::UNSUPPORTED_NAME.0,
                        super::codes::UNSUPPORTED_NAME.1,
                        Severity::Info,
                        format!(
                            "{} schema type(s) are Python names (`dict`, `float`, `tuple`, as in BFCL files): read as `object`, `number`, `array`",
                            renamed.len()
                        ),
                    )
                    .at(doc.file, doc.span_of(first), "")
                    .help("JSON Schema names the types `object`, `number` and `array`; write those to silence this note"),
                );
            }
        }
        let hash = doc.hash.clone();
        let mut r = Resolver::new(doc, sources);
        if let Some(root) = &req.options.ref_root {
            r.set_ref_root(root);
        }
        let pre = r.preload();
        let opts = Options {
            source_stem: stem(spec),
            ..req.options.clone()
        };
        let imp = match req.kind {
            Kind::OpenApi => openapi::import(&r, &opts),
            Kind::Mcp => mcp::import(&r, &opts, &origin),
            Kind::OpenAi => openai::import(&r, &opts),
        };
        out.findings.extend(pre);
        out.findings.extend(r.unreadable_followed());
        let header = Header {
            kind: req.kind.as_str().to_string(),
            source: match spec {
                SourceSpec::File(p) => p
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or(name.clone()),
                SourceSpec::Live(_) => name.clone(),
            },
            source_kind: imp.source_kind.clone(),
            version: imp.source_version.clone(),
            hash,
        };
        out.sources = r.sources;
        out.findings.extend(imp.findings.iter().cloned());
        imported.push((imp, header, id));
    }
    Ok(imported)
}

/// Reads one source: a file (limits, UTF-8; a non-UTF-8 file is an SR002 finding and `None`)
/// or a live MCP server's `tools/list`.
fn read_source(
    req: &ImportRequest,
    spec: &SourceSpec,
    out: &mut Outcome,
) -> Result<Option<ReadSource>, ImportError> {
    Ok(Some(match spec {
        SourceSpec::File(p) => {
            let Some(text) = read_source_file(p, out)? else {
                return Ok(None);
            };
            (
                p.display().to_string(),
                p.clone(),
                text,
                mcp::ServerOrigin::default(),
            )
        }
        SourceSpec::Live(server) => {
            let text = mcp_client::list_tools(server, req.timeout).map_err(|m| {
                let paging = m.starts_with(mcp_client::PAGING_NEVER_ENDS);
                let not_json = m.starts_with("the server wrote a line that is not JSON-RPC");
                let refused = m.contains("failed: Mcp error");
                ImportError::new(
                    m,
                    match server {
                        _ if paging => "the server's `nextCursor` repeats, so waiting longer does not help: report it to the server's maintainers, or import a saved `tools/list` result instead",
                        _ if not_json => "waiting longer does not help: make the server write its logs to stderr (or run it with its quiet option), or import a saved `tools/list` result instead",
                        _ if refused => "the server answered with a JSON-RPC error (its message is above): waiting longer does not help; see the server's stderr or documentation",
                        mcp_client::Server::Command(_) => "check that the --command line starts an MCP server on stdio (run it by hand: it must wait for JSON-RPC on its input), or raise --timeout",
                        mcp_client::Server::Url(_) => "check that the server runs and that --url is its streamable-HTTP endpoint (often ending in `/mcp`), or raise --timeout",
                    },
                )
            })?;
            let (name, origin) = match server {
                mcp_client::Server::Command(c) => (
                    format!("`{c}`"),
                    mcp::ServerOrigin {
                        command: Some(c.clone()),
                        url: None,
                    },
                ),
                mcp_client::Server::Url(u) => (
                    u.clone(),
                    mcp::ServerOrigin {
                        command: None,
                        url: Some(u.clone()),
                    },
                ),
            };
            (name.clone(), PathBuf::from("tools-list.json"), text, origin)
        }
    }))
}

/// Reads a source document file within the size limit; a file that is not UTF-8 is an SR002
/// finding in `out` and `None`.
fn read_source_file(p: &PathBuf, out: &mut Outcome) -> Result<Option<String>, ImportError> {
    let meta = std::fs::metadata(p).map_err(|e| ImportError::unreadable(p, &e))?;
    if meta.is_dir() {
        return Err(ImportError::new(
            format!("`{}` is a folder", p.display()),
            "name the document file itself (e.g. `openapi.yaml`, a saved `tools/list` JSON or a tool-list JSON)",
        ));
    }
    if meta.len() > super::doc::MAX_SOURCE_BYTES {
        return Err(ImportError::new(
            format!(
                "`{}` is {} MiB, larger than the limit of {} MiB",
                p.display(),
                meta.len() / 1024 / 1024,
                super::doc::MAX_SOURCE_BYTES / 1024 / 1024
            ),
            "split the document, or import the part you need from a smaller copy",
        ));
    }
    // Read by the limit, not the reported size (a pipe or device reports 0).
    let bytes = schemarouter_core::input::read_file_limited(p, super::doc::MAX_SOURCE_BYTES)
        .map_err(|e| ImportError::unreadable(p, &e))?;
    match String::from_utf8(bytes) {
        Ok(t) => Ok(Some(t)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let lossy = String::from_utf8_lossy(e.as_bytes()).into_owned();
            let id = out
                .sources
                .add(SourceFile::new(p.display().to_string(), p.clone(), lossy));
            let utf16 =
                e.as_bytes().starts_with(&[0xFF, 0xFE]) || e.as_bytes().starts_with(&[0xFE, 0xFF]);
            out.findings.push(if utf16 {
                Diagnostic::new(
                    crate::diagnostics::codes::INVALID_ENCODING.0,
                    crate::diagnostics::codes::INVALID_ENCODING.1,
                    Severity::Error,
                    "the document is UTF-16 (it begins with a UTF-16 byte-order mark), not UTF-8",
                )
                .at(
                    id,
                    crate::source::Span::new(0, 2 * '\u{fffd}'.len_utf8()),
                    "byte-order mark",
                )
                .help("save the document as UTF-8 (in most editors: save with encoding UTF-8)")
            } else {
                Diagnostic::new(
                    crate::diagnostics::codes::INVALID_ENCODING.0,
                    crate::diagnostics::codes::INVALID_ENCODING.1,
                    Severity::Error,
                    "the document is not valid UTF-8",
                )
                .at(
                    id,
                    crate::source::Span::new(at, at + 1),
                    "first invalid byte",
                )
                .help("save the document as UTF-8")
            });
            Ok(None)
        }
    }
}

/// The project as it is (`None` for a missing or empty folder). A tool file that does not load
/// cannot be merged into: refuse rather than write a second declaration of the same tool next
/// to it. A `schemarouter.toml` with errors is refused too: the import would write where the
/// default `[paths]` say, under the default `[limits]`, in place of the faulty settings.
fn existing_project(project_dir: &Path) -> Result<Option<crate::load::Loaded>, ImportError> {
    if project_dir.exists() && !project_dir.is_dir() {
        return Err(ImportError::new(
            format!("`{}` is not a folder", project_dir.display()),
            "--project names the project folder (created when missing)",
        ));
    }
    refuse_broken_config(project_dir)?;
    let existing = if project_dir.is_dir()
        && std::fs::read_dir(project_dir)
            .map(|mut d| d.next().is_some())
            .unwrap_or(false)
    {
        crate::load::load_project(project_dir).ok()
    } else {
        None
    };
    if let Some(l) = &existing {
        let broken: Vec<String> = l
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .filter_map(|d| d.primary.as_ref())
            .filter(|p| l.project.file_kinds.get(p.file.0 as usize) == Some(&FileKind::Tool))
            .map(|p| l.project.sources.get(p.file).name.clone())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        if !broken.is_empty() {
            return Err(ImportError::new(
                format!(
                    "the project's tool file(s) {} do not load, so an import cannot tell whether they declare the imported tool",
                    broken
                        .iter()
                        .map(|b| format!("`{b}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                format!(
                    "fix them (`schemarouter check {}`) or move them away, then import again",
                    project_dir.display()
                ),
            ));
        }
    }
    Ok(existing)
}

/// Refuse a project whose `schemarouter.toml` has errors, naming each (`LINE:COL: message`).
fn refuse_broken_config(project_dir: &Path) -> Result<(), ImportError> {
    let file = project_dir.join(crate::load::CONFIG_FILE);
    if !file.is_file() {
        return Ok(());
    }
    let (sources, diags) = crate::load::config_findings(&file);
    let errors: Vec<String> = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| match &d.primary {
            Some(l) => {
                let p = crate::diagnostics::Position::resolve(l, &sources);
                format!("{}:{}: {}", p.line, p.column, d.message)
            }
            None => d.message.clone(),
        })
        .collect();
    if errors.is_empty() {
        return Ok(());
    }
    Err(ImportError::new(
        format!(
            "`{}` has {} error(s) ({}); an import does not write with default settings in place of the faulty ones",
            file.display(),
            errors.len(),
            errors.join("; ")
        ),
        format!(
            "fix the configuration (`schemarouter check {}` shows every finding), then import again",
            project_dir.display()
        ),
    ))
}

/// Where an import writes: the tool folder (or `--out`), the intent folder and the editor
/// schemas.
struct Layout {
    schemas_dir: PathBuf,
    intents_dir: PathBuf,
    schema_file: PathBuf,
    intent_schema_file: PathBuf,
}

impl Layout {
    /// The layout of `req.project` (its `[paths]`), with a note in `out` when `--out` is outside
    /// the project's tool folder.
    fn new(
        req: &ImportRequest,
        existing: Option<&crate::load::Loaded>,
        out: &mut Outcome,
    ) -> Layout {
        let project_dir = &req.project;
        let paths = existing
            .map(|l| l.project.config.paths.clone())
            .unwrap_or_default();
        let schemas_dir = req
            .out
            .clone()
            .unwrap_or_else(|| project_dir.join(&paths.schemas));
        if req.out.is_some() {
            let declared = project_dir.join(&paths.schemas);
            if !lexically_within(&schemas_dir, &declared) {
                out.notes.push(format!(
                    "--out `{}` is outside the project's tool folder `{}`: `schemarouter check {}` and `compile` read tools only there (`[paths] schemas` in schemarouter.toml), so they will not see these files until that setting names their folder",
                    schemas_dir.display(),
                    declared.display(),
                    project_dir.display()
                ));
            }
        }
        Layout {
            schemas_dir,
            intents_dir: project_dir.join(&paths.intents),
            schema_file: project_dir.join("docs/schema/tool.schema.json"),
            intent_schema_file: project_dir.join("docs/schema/intent.schema.json"),
        }
    }
}

/// The second pass: each imported tool folded into its declaration file (found again, merged,
/// rendered and checked to load back), as jobs and file reports. Returns the domains the
/// project does not declare yet, with the title of the tool that needs each.
fn tool_files(
    req: &ImportRequest,
    imported: Vec<(Imported, Header, crate::source::FileId)>,
    existing: Option<&crate::load::Loaded>,
    layout: &Layout,
    out: &mut Outcome,
    jobs: &mut Vec<(PathBuf, String)>,
) -> Result<Vec<(String, String)>, ImportError> {
    let mut seen_ids: Vec<String> = Vec::new();
    let mut new_domains: Vec<(String, String)> = Vec::new();
    for (imp, header, header_file) in imported {
        let Some(mut tool) = imp.tool else { continue };
        // Without `--tool`, a source imported before under another id is found by the id an
        // earlier version of the importer gave it (from its title), else by its title, as the
        // import of that kind wrote it (a source imported then with `--tool`).
        if req.options.tool.is_none()
            && let Some(l) = existing
        {
            find_earlier_import(
                l,
                req.kind,
                imp.previous_id.as_deref(),
                &mut tool,
                &mut out.notes,
            );
        }
        let id = tool.id.value.clone();
        if seen_ids.contains(&id) {
            return Err(ImportError::new(
                format!("two sources import the same tool id `{id}`"),
                "import them one at a time, each with its own `--tool ID`",
            ));
        }
        seen_ids.push(id.clone());
        let (path, old_text) = tool_file_path(req, &id, existing, layout)?;
        if req.options.tool.is_none()
            && let Some(text) = &old_text
        {
            refuse_another_source(&path, text, &header, &tool, req.format)?;
        }
        let format = Format::from_path(&path).unwrap_or(req.format);
        let (tool, carried, old_tool) =
            merge_into_old(req, tool, old_text.as_deref(), &path, format, out)?;
        let text = render_checked(&tool, format, &header, &carried, &path, &id, layout)?;
        // `check` must be able to read what is written.
        let limit = existing
            .map(|l| l.project.config.limits.max_file_bytes)
            .unwrap_or_else(|| crate::model::config::Limits::default().max_file_bytes);
        if text.len() as u64 > limit {
            out.findings.push(
                Diagnostic::new(
                    super::codes::EXPANSION_LIMIT.0,
                    super::codes::EXPANSION_LIMIT.1,
                    Severity::Error,
                    format!(
                        "the declaration of `{id}` would be {:.1} MiB ({} endpoints), more than the {:.0} MiB that `check` reads per file",
                        text.len() as f64 / 1048576.0,
                        tool.endpoints.len(),
                        limit as f64 / 1048576.0
                    ),
                )
                .at(header_file, crate::source::Span::new(0, 0), "")
                .help("import a part of the API with `--only` (e.g. `--only 'list_*'`), or raise `max-file-bytes` under [limits] in schemarouter.toml"),
            );
            continue;
        }
        let counts = (
            tool.endpoints.len(),
            tool.endpoints
                .iter()
                .map(|e| e.value.parameters.len())
                .sum(),
            tool.endpoints.iter().map(|e| e.value.fields.len()).sum(),
        );
        let status = match &old_text {
            None => FileStatus::New,
            Some(t) if *t == text => FileStatus::Unchanged,
            Some(_) => FileStatus::Updated,
        };
        let changes = match (&old_text, old_tool) {
            (Some(old), Some(_)) if status == FileStatus::Updated => {
                upstream_changes(&path, old, &text, format)
            }
            _ => None,
        };
        // The tool's domain must exist for the project to load.
        let domain = tool.domain.value.clone();
        let declared = existing.is_some_and(|l| {
            l.project
                .domains
                .iter()
                .any(|d| d.item.value.id.value == domain)
        });
        if !declared && !new_domains.iter().any(|(d, _)| *d == domain) {
            new_domains.push((domain, tool.title.value.clone()));
        }
        if status != FileStatus::Unchanged {
            jobs.push((path.clone(), text));
        }
        out.files.push(FileReport {
            path,
            status,
            tool: id,
            counts,
            changes,
        });
    }
    Ok(new_domains)
}

/// The file of tool `id` and its text today: an existing declaration of this tool (ids match
/// as `check` compares them: `old-swag` is `old_swag`), else `<id>.<ext>` in the tool folder.
/// A tool declared twice is refused, since updating one would leave the other stale, and so is
/// a file imported from another kind of source.
fn tool_file_path(
    req: &ImportRequest,
    id: &str,
    existing: Option<&crate::load::Loaded>,
    layout: &Layout,
) -> Result<(PathBuf, Option<String>), ImportError> {
    let key = crate::model::normalise_id(id);
    let matching: Vec<_> = existing
        .map(|l| {
            l.project
                .tools
                .iter()
                .filter(|t| crate::model::normalise_id(&t.item.value.id.value) == key)
                .map(|t| l.project.sources.get(t.file))
                .collect()
        })
        .unwrap_or_default();
    if matching.len() > 1 {
        return Err(ImportError::new(
            format!(
                "tool `{id}` is declared {} times in the project ({}); an import updates one declaration",
                matching.len(),
                matching
                    .iter()
                    .map(|f| format!("`{}`", f.path.display()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            "keep one declaration of the tool (`schemarouter check` reports the others as SR101/SR102), then import again",
        ));
    }
    let found = matching.first().map(|f| (f.path.clone(), f.text.clone()));
    let (path, old_text) = match found {
        Some((p, text)) => (p, Some(text)),
        None => {
            let ext = match req.format {
                Format::Yaml => "yaml",
                Format::Toml => "toml",
            };
            let p = layout.schemas_dir.join(format!("{id}.{ext}"));
            let old = if p.exists() {
                Some(
                    schemarouter_core::input::read_file_to_string_limited(
                        &p,
                        schemarouter_core::input::MAX_INPUT_BYTES,
                    )
                    .map_err(|e| ImportError::unreadable(&p, &e))?,
                )
            } else {
                None
            };
            (p, old)
        }
    };
    // A tool imported from another kind of source (`--tool` naming an MCP tool while
    // importing OpenAPI) would have all its endpoints replaced: refuse, naming both.
    if let Some(text) = &old_text
        && let Some(other) = imported_kind(text)
        && other != req.kind.as_str()
    {
        return Err(ImportError::new(
            format!(
                "`{}` holds tool `{id}`, imported by `schemarouter import {other}`; importing this {} source over it would replace all its endpoints",
                path.display(),
                req.kind.as_str()
            ),
            format!(
                "import this source as a tool of its own with another `--tool ID`, or remove `{}` first to replace the tool",
                path.display()
            ),
        ));
    }
    Ok((path, old_text))
}

/// The imported tool merged into the declaration the file holds today (what a person added
/// kept, comments carried, endpoints `--only` did not select kept in place); the tool as
/// imported when there is no file yet.
fn merge_into_old(
    req: &ImportRequest,
    tool: Tool,
    old_text: Option<&str>,
    path: &Path,
    format: Format,
    out: &mut Outcome,
) -> Result<(Tool, Vec<Carried>, Option<Tool>), ImportError> {
    let Some(text) = old_text else {
        return Ok((tool, Vec::new(), None));
    };
    let Some(old) = emit::parse_tool(text, format) else {
        return Err(ImportError::new(
            format!(
                "`{}` exists but does not load as a tool declaration",
                path.display()
            ),
            "fix it (`schemarouter check`) or move it away, then import again",
        ));
    };
    let (carried, lost): (Vec<Carried>, _) = emit::carried_comments(text, format, &old);
    for (line, c) in lost {
        out.notes.push(format!(
            "{}:{line}: the comment `{c}` is not above a declaration the import rewrites; it was not carried over",
            path.display()
        ));
    }
    if let Some((_, hand)) = emit::hand_comments(text, format) {
        for (line, c) in hand {
            out.notes.push(format!(
                "{}:{line}: the comment `{c}` is not kept by a re-import (only the leading comment block's header and `# schemarouter:` suppression comments are); it was dropped",
                path.display()
            ));
        }
    }
    out.notes.extend(merge::licence_note(&old, &tool, path));
    out.notes.extend(merge::metadata_notes(&old, &tool, path));
    let mut merged = merge::merge(&old, tool);
    // With `--only`, the endpoints it did not select are not the source's to remove.
    if let Some(only) = &req.options.only {
        for e in &old.endpoints {
            let names = [
                e.value.id.value.as_str(),
                e.value.mcp_tool.as_ref().map_or("", |m| m.value.as_str()),
            ];
            let selected = names.iter().any(|n| !n.is_empty() && only.is_match(n));
            if !selected
                && !merged
                    .endpoints
                    .iter()
                    .any(|n| n.value.id.value == e.value.id.value)
            {
                merged.endpoints.push(e.clone());
            }
        }
        // The file keeps its order: endpoints it had stay where they were, new ones
        // follow in the source's order (a partial import moved the selected ones
        // first, and alternating `--only` imports reordered the file each time).
        let place = |id: &str| old.endpoints.iter().position(|e| e.value.id.value == id);
        let mut keyed: Vec<_> = std::mem::take(&mut merged.endpoints)
            .into_iter()
            .enumerate()
            .map(|(i, e)| {
                let key = place(&e.value.id.value).unwrap_or(old.endpoints.len() + i);
                (key, e)
            })
            .collect();
        keyed.sort_by_key(|(k, _)| *k);
        merged.endpoints = keyed.into_iter().map(|(_, e)| e).collect();
    }
    Ok((merged, carried, Some(old)))
}

/// The file text of `tool`; never a file that does not load back to the same declaration.
fn render_checked(
    tool: &Tool,
    format: Format,
    header: &Header,
    carried: &[Carried],
    path: &Path,
    id: &str,
    layout: &Layout,
) -> Result<String, ImportError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let schema_rel = emit::relative(&absolute(dir), &absolute(&layout.schema_file));
    let text = emit::render(
        tool,
        format,
        header,
        &schema_rel.to_string_lossy().replace('\\', "/"),
        carried,
    )
    .map_err(|e| {
        ImportError::new(
            format!("cannot render `{}`: {e}", path.display()),
            "please report this with the source document",
        )
    })?;
    // Never write a file that does not load back to the same declaration.
    match emit::parse_tool(&text, format) {
        Some(back) if back == *tool => Ok(text),
        _ => Err(ImportError::new(
            format!("internal error: the file for `{id}` would not load back as written"),
            "please report this with the source document; nothing was written",
        )),
    }
}

/// The third pass: the files a project needs besides the tool files, when they are missing: a
/// domain declaration per new domain, the editor schemas and (for a new project) the config.
fn support_files(
    req: &ImportRequest,
    new_domains: Vec<(String, String)>,
    new_project: bool,
    layout: &Layout,
    out: &mut Outcome,
    jobs: &mut Vec<(PathBuf, String)>,
) {
    let project_dir = &req.project;
    let intents_dir = &layout.intents_dir;
    for (domain, title) in new_domains {
        // In the format the tool files are written in (`--format`).
        let ext = match req.format {
            Format::Yaml => "yaml",
            Format::Toml => "toml",
        };
        let mut p = intents_dir.join(format!("{domain}.{ext}"));
        if p.exists() {
            p = intents_dir.join(format!("{domain}_domain.{ext}"));
        }
        let rel = emit::relative(
            &absolute(intents_dir),
            &absolute(&layout.intent_schema_file),
        );
        let rel = rel.to_string_lossy().replace('\\', "/");
        let comment = format!(
            "# Declared by `schemarouter import` for the imported tool `{title}`: add its field\n# groups and intents here so that questions can reach it.\n"
        );
        let description = format!("Tools imported from {title}.");
        let text = match req.format {
            Format::Yaml => format!(
                "# yaml-language-server: $schema={rel}\n{comment}domains:\n  - id: {}\n    description: {}\n",
                yaml_scalar(&domain),
                yaml_scalar(&description),
            ),
            Format::Toml => format!(
                "#:schema {rel}\n{comment}\n[[domains]]\nid = {}\ndescription = {}\n",
                toml::Value::String(domain.clone()),
                toml::Value::String(description),
            ),
        };
        out.support_files.push(p.clone());
        jobs.push((p, text));
    }
    for (file, kind) in [
        (&layout.schema_file, FileKind::Tool),
        (&layout.intent_schema_file, FileKind::Intent),
    ] {
        if !file.exists() && !jobs.is_empty() {
            out.support_files.push(file.clone());
            jobs.push((file.clone(), crate::model::json_schema(kind)));
        }
    }
    // A new project reports faults, not the gaps a person fills over months.
    if new_project && !jobs.is_empty() {
        let config = project_dir.join(crate::load::CONFIG_FILE);
        if !config.exists() {
            out.support_files.push(config.clone());
            jobs.push((config, NEW_PROJECT_CONFIG.to_string()));
        }
    }
}

/// The derived concept layer adds concepts to every field, so a tool file that fitted the
/// project's `[limits] max-file-bytes` before derivation may not after it (GitHub's REST API:
/// 7.9 MiB as imported, 10 MiB derived). When the project's `schemarouter.toml` sets no
/// `[limits]` (a new project's, which this import writes, or one without that table), a
/// `[limits]` table is added with the next MiB above the largest file, so that `check` reads what
/// was written; when it sets limits, nothing is written and the error says what to do.
///
/// Errors: a file over the limits a project's configuration sets.
fn fit_file_limit(
    jobs: &mut Vec<(PathBuf, String)>,
    project_dir: &Path,
    existing: Option<&crate::load::Loaded>,
) -> Result<(), ImportError> {
    let limit = existing
        .map(|l| l.project.config.limits.max_file_bytes)
        .unwrap_or_else(|| crate::model::config::Limits::default().max_file_bytes);
    let Some((path, largest)) = jobs
        .iter()
        .map(|(p, t)| (p.clone(), t.len() as u64))
        .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(&a.0)))
        .filter(|(_, n)| *n > limit)
    else {
        return Ok(());
    };
    let config = project_dir.join(crate::load::CONFIG_FILE);
    const MIB: u64 = 1024 * 1024;
    let section = format!(
        "\n[limits]\n# The largest imported tool file (`{}`, with its derived concepts) is {:.1} MiB.\nmax-file-bytes = {}\n",
        path.file_name().unwrap_or_default().to_string_lossy(),
        largest as f64 / MIB as f64,
        largest.div_ceil(MIB) * MIB
    );
    if let Some(job) = jobs.iter_mut().find(|(p, _)| *p == config) {
        if job.1 == NEW_PROJECT_CONFIG {
            job.1.push_str(&section);
            return Ok(());
        }
    } else if let Ok(text) = std::fs::read_to_string(&config) {
        // A configuration without a `[limits]` table gets one; one that sets limits is the
        // person's to change.
        let has_limits =
            toml::from_str::<toml::Table>(&text).is_ok_and(|t| t.contains_key("limits"));
        if !has_limits {
            let sep = if text.is_empty() || text.ends_with('\n') {
                ""
            } else {
                "\n"
            };
            jobs.push((config, format!("{text}{sep}{section}")));
            return Ok(());
        }
    }
    Err(ImportError::new(
        format!(
            "with its derived concepts `{}` would be {:.1} MiB, more than the {:.0} MiB that `check` reads per file; nothing was written",
            path.display(),
            largest as f64 / MIB as f64,
            limit as f64 / MIB as f64
        ),
        "raise `max-file-bytes` under [limits] in schemarouter.toml, import a part of the API with `--only`, or import with `--no-derive`",
    ))
}

/// The `schemarouter.toml` an import writes into a new project: the `minimal` lint profile,
/// which reports faults and not the gaps a person fills over months.
pub const NEW_PROJECT_CONFIG: &str = "# Written by `schemarouter import` for a new project.\n[lint]\n# Faults only (files that do not load, broken references, invalid units and licences,\n# destructive endpoints). `standard` also lists what a person adds over time: concepts,\n# identifiers, groups, units, licence checks. `schemarouter rules` shows each rule's profiles.\nprofile = \"minimal\"\n";

/// Fold a derivation into an import's files: the derived text of a file replaces the import's,
/// and a file the derivation leaves as it is on disk is not written.
fn fold_derivation(
    jobs: &mut Vec<(PathBuf, String)>,
    out: &mut Outcome,
    d: &crate::derive::DeriveOutcome,
) {
    for f in &d.files {
        if f.status == FileStatus::Unchanged {
            jobs.retain(|(p, _)| *p != f.path);
        }
        if let Some(r) = out.files.iter_mut().find(|r| r.path == f.path) {
            r.status = match (r.status, f.status) {
                (FileStatus::New, _) => FileStatus::New,
                (_, s) => s,
            };
        }
    }
    for (path, text) in &d.jobs {
        match jobs.iter_mut().find(|(p, _)| p == path) {
            Some(j) => j.1 = text.clone(),
            None => jobs.push((path.clone(), text.clone())),
        }
    }
}

/// Write every file of `jobs` or none: folders are created only for this write (and removed
/// again if it fails), temporary files are written first, fsynced and renamed.
///
/// Errors: a folder or file that cannot be written; nothing of the batch is then on disk.
pub fn write_files(jobs: &[(PathBuf, String)]) -> Result<(), ImportError> {
    // A failed write leaves nothing behind, not even empty folders.
    let mut created = Vec::new();
    for (p, _) in jobs {
        if let Some(d) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
            match crate::artifact::io::create_dir_all_tracked(d) {
                Ok(mut c) => created.append(&mut c),
                Err(e) => {
                    crate::artifact::io::remove_created_dirs(&created);
                    return Err(ImportError::new(
                        format!("cannot create `{}`: {e}; nothing was written", d.display()),
                        WRITE_HELP,
                    ));
                }
            }
        }
    }
    // Temporary files an interrupted earlier import left next to these files (a killed
    // process cannot remove its own).
    let folders: std::collections::BTreeSet<&Path> =
        jobs.iter().filter_map(|(p, _)| p.parent()).collect();
    for d in folders {
        crate::artifact::io::remove_stale_temps(d);
    }
    let write: Vec<crate::artifact::io::WriteJob> = jobs
        .iter()
        .map(|(p, t)| {
            let t = t.clone();
            (
                p.clone(),
                Box::new(move |f: &mut std::fs::File| std::io::Write::write_all(f, t.as_bytes()))
                    as Box<dyn FnOnce(&mut std::fs::File) -> std::io::Result<()>>,
            )
        })
        .collect();
    if let Err(e) = crate::artifact::io::write_all_atomic(write) {
        crate::artifact::io::remove_created_dirs(&created);
        return Err(ImportError::new(
            format!("cannot write the files: {e}; nothing was written"),
            WRITE_HELP,
        ));
    }
    Ok(())
}

/// The project's declaration of a source imported before under another id than the one the
/// importer now derives: the one tool with the id an earlier version of the importer gave the
/// source (`previous_id`, from its title), else the one tool with the same title, written by the
/// same kind of import. Its id is given to `tool` (so that it is updated, not declared twice),
/// with a note.
fn find_earlier_import(
    l: &crate::load::Loaded,
    kind: Kind,
    previous_id: Option<&str>,
    tool: &mut Tool,
    notes: &mut Vec<String>,
) {
    let marker = format!("# Imported by `schemarouter import {}`", kind.as_str());
    let has_id = |id: &str| {
        let key = crate::model::normalise_id(id);
        l.project
            .tools
            .iter()
            .filter(|t| crate::model::normalise_id(&t.item.value.id.value) == key)
            .collect::<Vec<_>>()
    };
    let mut same_id = !has_id(&tool.id.value).is_empty();
    if !same_id
        && let Some(previous) = previous_id
        && let [t] = has_id(previous).as_slice()
        && l.project.sources.get(t.file).text.contains(&marker)
    {
        let id = t.item.value.id.value.clone();
        notes.push(format!(
            "the project's tool `{id}` ({}) was imported from this source before tool ids came from the provider: it is updated and keeps its id `{id}`; the importer now names the source `{}` (rename the tool, and its domain if you like, to use that id)",
            l.project.sources.get(t.file).path.display(),
            tool.id.value
        ));
        tool.id.value = id;
        same_id = true;
    }
    let same_title: Vec<_> = l
        .project
        .tools
        .iter()
        .filter(|t| {
            t.item.value.title.value.trim().to_lowercase() == tool.title.value.trim().to_lowercase()
                && l.project.sources.get(t.file).text.contains(&marker)
        })
        .collect();
    if !same_id && let [t] = same_title.as_slice() {
        let id = t.item.value.id.value.clone();
        notes.push(format!(
            "the project's tool `{id}` ({}) was imported from a source with the same title `{}`: it is updated; pass `--tool {}` to import this source as a new tool",
            l.project.sources.get(t.file).path.display(),
            tool.title.value,
            tool.id.value
        ));
        tool.id.value = id;
    }
}

/// Refuse to update the tool in the file at `path` (text `text`) when another source wrote it
/// under the id this one derives (two APIs of one provider with no service name,
/// `api.acme.com`): that API's endpoints would be replaced by this one's. The file is the same
/// source's when its import header names the same source, or its title is the same.
fn refuse_another_source(
    path: &Path,
    text: &str,
    header: &Header,
    tool: &Tool,
    format: Format,
) -> Result<(), ImportError> {
    let Some(other) = imported_source(text) else {
        return Ok(());
    };
    let Some(old) = emit::parse_tool(text, Format::from_path(path).unwrap_or(format)) else {
        return Ok(());
    };
    if other == header.source
        || old.title.value.trim().to_lowercase() == tool.title.value.trim().to_lowercase()
    {
        return Ok(());
    }
    let id = &tool.id.value;
    Err(ImportError::new(
        format!(
            "`{}` holds tool `{id}` (`{}`), imported from `{other}`; this source (`{}`, `{}`) derives the same id, and importing it would replace that tool's endpoints",
            path.display(),
            old.title.value,
            header.source,
            tool.title.value
        ),
        format!(
            "import this source as a tool of its own with `--tool ID`, or pass `--tool {id}` if it is the same API under a new file name and title"
        ),
    ))
}

/// A plain or quoted YAML scalar for a generated id or sentence.
fn yaml_scalar(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_alphanumeric() || " _-.,()".contains(c))
        && !s.starts_with([' ', '-'])
        && !s.ends_with(' ');
    if plain {
        s.to_string()
    } else {
        serde_json::to_string(s).unwrap_or_default()
    }
}

fn absolute(p: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(p)
    }
}

/// What changed between the old and new text of one tool file, as `diff` classifies it.
fn upstream_changes(path: &Path, old: &str, new: &str, format: Format) -> Option<Report> {
    let name = format!("schemas/{}", path.file_name()?.to_string_lossy());
    let _ = format;
    let side = |text: &str, label: &str| {
        let loaded = crate::load::load_sources(None, &[(name.as_str(), text)]);
        Side::from_loaded(loaded, label, "")
    };
    let o = side(old, "before").ok()?;
    let n = side(new, "after").ok()?;
    Some(crate::diff::diff(&o, &n))
}

/// The tool of a declaration file on disk (for tests and tools).
pub fn read_tool(path: &Path) -> Option<Tool> {
    let text = schemarouter_core::input::read_file_to_string_limited(
        path,
        schemarouter_core::input::MAX_INPUT_BYTES,
    )
    .ok()?;
    emit::parse_tool(&text, Format::from_path(path)?)
}

/// Whether `path` lies inside `folder` (or is it), compared by their absolute, lexically
/// normalised forms (`.` and `..` resolved without touching the disk: `path` may not exist yet).
fn lexically_within(path: &Path, folder: &Path) -> bool {
    fn normal(p: &Path) -> PathBuf {
        let abs = if p.is_absolute() {
            p.to_path_buf()
        } else {
            std::env::current_dir().unwrap_or_default().join(p)
        };
        let mut out = PathBuf::new();
        for c in abs.components() {
            match c {
                std::path::Component::CurDir => {}
                std::path::Component::ParentDir => {
                    out.pop();
                }
                other => out.push(other),
            }
        }
        out
    }
    normal(path).starts_with(normal(folder))
}

/// The importer kind (`openapi`, `mcp`, `openai`) named by a tool file's import header
/// (`# Imported by `schemarouter import mcp` from ...`), when one of the comment lines that open
/// the file is one.
fn imported_kind(text: &str) -> Option<&str> {
    text.trim_start_matches('\u{feff}')
        .lines()
        .take_while(|l| l.starts_with('#'))
        .find_map(|l| {
            let rest = l.strip_prefix("# Imported by `schemarouter import ")?;
            Some(&rest[..rest.find('`')?])
        })
}

/// The source named by a tool file's import header (`# Imported by `schemarouter import openapi`
/// from petstore.yaml (OpenAPI 3.0.3, ...).`): the text between `from ` and the last ` (` of
/// that line.
fn imported_source(text: &str) -> Option<&str> {
    text.trim_start_matches('\u{feff}')
        .lines()
        .take_while(|l| l.starts_with('#'))
        .find_map(|l| {
            let rest = l.strip_prefix("# Imported by `schemarouter import ")?;
            let rest = &rest[rest.find("` from ")? + "` from ".len()..];
            Some(&rest[..rest.rfind(" (")?])
        })
}

#[cfg(test)]
mod tests {
    use super::{NEW_PROJECT_CONFIG, fit_file_limit, imported_source, lexically_within};
    use std::path::Path;

    #[test]
    fn the_source_an_import_header_names() {
        let text = "# yaml-language-server: $schema=x\n# Imported by `schemarouter import openapi` from my api (v2).json (OpenAPI 3.0.3, version 1; blake3:00).\n# Re-importing ...\nid: t\n";
        assert_eq!(imported_source(text), Some("my api (v2).json"));
        assert_eq!(imported_source("id: t\n"), None);
    }

    #[test]
    fn out_folders_inside_and_outside_the_tool_folder() {
        let within = |p: &str, f: &str| lexically_within(Path::new(p), Path::new(f));
        assert!(within("/p/schemas", "/p/schemas"));
        assert!(within("/p/schemas/./sub/x", "/p/schemas"));
        assert!(within("/p/tools/../schemas/a", "/p/./schemas"));
        assert!(!within("/p/tools/api", "/p/schemas"));
        assert!(!within("/p/schemas2", "/p/schemas"));
        assert!(!within("/p/schemas/../tools", "/p/schemas"));
        // Relative paths are taken from the current folder.
        assert!(within("p/schemas/a", "p/schemas"));
        assert!(!within("p/a", "p/schemas"));
    }

    #[test]
    fn a_derived_tool_file_over_the_limit_raises_a_limit_the_project_does_not_set() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join(crate::load::CONFIG_FILE);
        let tool = dir.path().join("schemas/big.yaml");
        let big = "a".repeat(9 * 1024 * 1024 + 1);
        let section = "\n[limits]\n# The largest imported tool file (`big.yaml`, with its derived concepts) is 9.0 MiB.\nmax-file-bytes = 10485760\n";
        // A new project: the configuration this import writes gets the table.
        let mut jobs = vec![
            (tool.clone(), big.clone()),
            (config.clone(), NEW_PROJECT_CONFIG.to_string()),
        ];
        fit_file_limit(&mut jobs, dir.path(), None).unwrap();
        assert_eq!(jobs[1].1, format!("{NEW_PROJECT_CONFIG}{section}"));
        // A configuration on disk without `[limits]` is rewritten with it.
        std::fs::write(&config, "[lint]\nprofile = \"minimal\"").unwrap();
        let mut jobs = vec![(tool.clone(), big.clone())];
        fit_file_limit(&mut jobs, dir.path(), None).unwrap();
        assert_eq!(
            jobs[1],
            (
                config.clone(),
                format!("[lint]\nprofile = \"minimal\"\n{section}")
            )
        );
        // One that sets limits is the person's: nothing is written.
        std::fs::write(&config, "[limits]\nmax-files = 100\n").unwrap();
        let mut jobs = vec![(tool.clone(), big.clone())];
        let e = fit_file_limit(&mut jobs, dir.path(), None).unwrap_err();
        assert_eq!(
            e.message,
            format!(
                "with its derived concepts `{}` would be 9.0 MiB, more than the 8 MiB that `check` reads per file; nothing was written",
                tool.display()
            )
        );
        assert_eq!(jobs.len(), 1);
        // Within the limit nothing changes.
        let mut jobs = vec![(tool, "x".to_string())];
        fit_file_limit(&mut jobs, dir.path(), None).unwrap();
        assert_eq!(jobs.len(), 1);
    }
}
