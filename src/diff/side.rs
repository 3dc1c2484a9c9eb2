//! Reading one side of a diff: a project folder, a compiled artifact (`graph.json` /
//! `graph.bin`), or a git revision (`git:REF`, `git:REF:PATH`).
//!
//! Every side becomes the same comparable form: the compiled [`FrozenGraph`] (projects are
//! compiled in memory), a [`Locator`] of declaration positions (empty for artifacts), the unit
//! table the side's units were parsed with, and the side's `[diff] accept` entries.

use super::git;
use super::locate::Locator;
use crate::artifact::FrozenGraph;
use crate::diagnostics::Severity;
use crate::diagnostics::render::{OutputFormat, render};
use crate::units::UnitTable;
use std::collections::BTreeSet;
use std::path::Path;

/// What a side was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SideKind {
    /// A project folder.
    Project,
    /// A compiled artifact file.
    Artifact,
    /// A project at a git revision.
    Git,
}

/// One `[diff] accept` entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Acceptance {
    /// The accepted change's fingerprint.
    pub fingerprint: String,
    /// Why the change is intended.
    pub reason: String,
}

/// One side of a diff, in comparable form.
#[derive(Clone, Debug)]
pub struct Side {
    /// The side as the user named it (`.`, `build/graph.json`, `git:HEAD~1`).
    pub label: String,
    /// What it was read from.
    pub kind: SideKind,
    /// The compiled schema.
    pub graph: FrozenGraph,
    /// Declaration positions (empty for artifacts).
    pub locator: Locator,
    /// Units known to the side (built-ins plus the project's `[units]`).
    pub units: UnitTable,
    /// `[diff] accept` entries of the side's configuration.
    pub acceptances: Vec<Acceptance>,
    /// Error-level `check` findings of a project side (0 for artifacts): `compile` refuses
    /// such a side, so what is compared is not an artifact anyone can have.
    pub check_errors: usize,
    /// `(tool, endpoint)` of the endpoints that may destroy data, planned or not
    /// ([`crate::model::Endpoint::is_destructive`]); `None` for an artifact side,
    /// whose graph keeps only whether an endpoint is never planned (then an HTTP `DELETE` is
    /// what tells).
    pub may_destroy: Option<BTreeSet<(String, String)>>,
}

impl Side {
    /// Whether endpoint `tool`/`endpoint` (with HTTP `method`) may destroy data.
    pub fn may_destroy(&self, tool: &str, endpoint: &str, method: &str) -> bool {
        match &self.may_destroy {
            Some(set) => set.contains(&(tool.to_string(), endpoint.to_string())),
            None => method.eq_ignore_ascii_case("DELETE"),
        }
    }
}

/// Why a side could not be read (the CLI exits 2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideError {
    /// One-line message.
    pub message: String,
    /// Further lines (the load diagnostics of a project that does not parse).
    pub details: String,
    /// What to do about it (one line).
    pub help: String,
}

/// What a side can be, for help lines.
pub const SIDE_FORMS: &str = "each side is a project folder, a compiled artifact (`graph.json` or `graph.bin`), `git:REF` or `git:REF:PATH`";

impl SideError {
    /// An error without details, with a help line.
    pub fn new(message: impl Into<String>, help: impl Into<String>) -> SideError {
        SideError {
            message: message.into(),
            details: String::new(),
            help: help.into(),
        }
    }
}

impl std::fmt::Display for SideError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SideError {}

/// A side prefix for file names: the folder as given, without `./` and trailing `/`
/// (`""` for the current folder).
pub fn display_prefix(spec: &str) -> String {
    let mut s = spec.trim_end_matches('/');
    while let Some(rest) = s.strip_prefix("./") {
        s = rest;
    }
    if s == "." {
        String::new()
    } else {
        s.to_string()
    }
}

impl Side {
    /// Open a side from its command-line spelling, relative to `cwd`: `git:REF[:PATH]`, an
    /// artifact file, or a project folder.
    ///
    /// Errors: a path that does not exist, an unreadable or invalid artifact, a project with
    /// load errors, a git revision or path that does not exist.
    pub fn open(spec: &str, cwd: &Path) -> Result<Side, SideError> {
        if let Some(rest) = spec.strip_prefix("git:") {
            let (rev, path) = match rest.split_once(':') {
                Some((r, p)) => (r, Some(p)),
                None => (rest, None),
            };
            if rev.is_empty() {
                return Err(SideError::new(
                    format!("`{spec}` names no revision"),
                    "write `git:REF` or `git:REF:PATH`, e.g. `git:main` or `git:HEAD~1:schemas-project`",
                ));
            }
            return Side::from_git(cwd, rev, path, spec);
        }
        let path = cwd.join(spec);
        let meta = std::fs::metadata(&path).map_err(|e| {
            let help = if e.kind() == std::io::ErrorKind::NotFound {
                format!("check the path: {SIDE_FORMS}")
            } else {
                format!("check that `{spec}` is readable (permissions); {SIDE_FORMS}")
            };
            SideError::new(format!("cannot read `{spec}`: {e}"), help)
        })?;
        if meta.is_dir() {
            Side::from_project_dir(&path, spec, &display_prefix(spec))
        } else {
            Side::from_artifact(&path, spec)
        }
    }

    /// A compiled artifact file.
    pub fn from_artifact(path: &Path, label: &str) -> Result<Side, SideError> {
        let graph = FrozenGraph::load(path).map_err(|e| {
            SideError::new(
                format!("{label}: {e}"),
                format!(
                    "a file side must be a `graph.json` or `graph.bin` written by `schemarouter compile`; {SIDE_FORMS}"
                ),
            )
        })?;
        Ok(Side::from_graph(graph, label))
    }

    /// An already compiled graph (no locations, built-in units, no acceptances).
    pub fn from_graph(graph: FrozenGraph, label: &str) -> Side {
        Side {
            label: label.to_string(),
            kind: SideKind::Artifact,
            graph,
            locator: Locator::default(),
            units: UnitTable::builtin(),
            acceptances: Vec::new(),
            check_errors: 0,
            may_destroy: None,
        }
    }

    /// A project folder, compiled in memory; file names in locations are prefixed with
    /// `prefix`.
    ///
    /// Errors: an unreadable folder, or a file that does not load (syntax or structure errors:
    /// the diff would report its declarations as removed).
    pub fn from_project_dir(root: &Path, label: &str, prefix: &str) -> Result<Side, SideError> {
        let loaded = crate::load::load_project(root)
            .map_err(|e| SideError::new(format!("{label}: {}", e.message), e.help))?;
        Side::from_loaded(loaded, label, prefix)
    }

    /// A loaded project (from disk or from memory, [`crate::load::load_sources`]), compiled in
    /// memory; file names in locations are prefixed with `prefix`.
    ///
    /// Errors: a file that does not load.
    pub fn from_loaded(
        loaded: crate::load::Loaded,
        label: &str,
        prefix: &str,
    ) -> Result<Side, SideError> {
        let errors: Vec<_> = loaded
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .cloned()
            .collect();
        if loaded.io_error || !errors.is_empty() {
            return Err(SideError {
                message: format!(
                    "{label}: the project does not load ({} error(s))",
                    errors.len().max(1)
                ),
                help: if label.starts_with("git:") {
                    "the revision's declarations do not load; compare another revision, or check it out and run `schemarouter check`".to_string()
                } else {
                    format!("fix them first: `schemarouter check {label}` shows every finding")
                },
                details: render(
                    OutputFormat::Concise,
                    &errors,
                    &loaded.project.sources,
                    false,
                ),
            });
        }
        // A repeated id makes the comparison depend on file order (which copy is compared):
        // refused. Other check errors (a dangling reference after a removal, which is the
        // change being reviewed) are counted, and the CLI says that `compile` refuses the side.
        let checked = crate::lint::check_loaded(loaded);
        let errors: Vec<_> = checked
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .cloned()
            .collect();
        let repeated: Vec<_> = errors
            .iter()
            .filter(|d| d.name == "duplicate-id")
            .cloned()
            .collect();
        if !repeated.is_empty() {
            return Err(SideError {
                message: format!(
                    "{label}: {} declaration(s) repeat an id, so which one is compared would depend on file order",
                    repeated.len()
                ),
                help: format!(
                    "give each declaration its own id (`schemarouter check {label}` shows every finding)"
                ),
                details: render(
                    OutputFormat::Concise,
                    &repeated,
                    &checked.project.sources,
                    false,
                ),
            });
        }
        let check_errors = errors.len();
        let graph = crate::compiled::artifact_of(&checked);
        let crate::lint::Checked { project, units, .. } = checked;
        let locator = Locator::from_project(&project, prefix);
        let may_destroy = Some(
            project
                .tools
                .iter()
                .flat_map(|t| {
                    t.endpoints
                        .iter()
                        .filter(|e| e.is_destructive())
                        .map(|e| (t.id.value.clone(), e.id.value.clone()))
                })
                .collect(),
        );
        let acceptances = project
            .config
            .diff
            .accept
            .iter()
            .map(|a| Acceptance {
                fingerprint: a.value.fingerprint.value.clone(),
                reason: a.value.reason.value.clone(),
            })
            .collect();
        Ok(Side {
            label: label.to_string(),
            kind: SideKind::Project,
            graph,
            locator,
            units,
            acceptances,
            check_errors,
            may_destroy,
        })
    }

    /// The project at revision `rev` of the git repository containing `cwd`, at the repository
    /// root or at `path` (relative to the repository root, or to `cwd` when it starts with `./`
    /// or `../`). File names in locations are relative to the repository root. Read with `git ls-tree` and
    /// `git cat-file` into a temporary folder; the working tree is not touched.
    pub fn from_git(
        cwd: &Path,
        rev: &str,
        path: Option<&str>,
        label: &str,
    ) -> Result<Side, SideError> {
        let sub = match path {
            Some(p) => git::resolve_path(cwd, p).map_err(|m| {
                SideError::new(
                    format!("{label}: {m}"),
                    "PATH in `git:REF:PATH` is relative to the repository root, or to the current folder when it starts with `./` or `../`, and stays inside the repository",
                )
            })?,
            None => String::new(),
        };
        let tree = git::extract(cwd, rev, &sub).map_err(|m| {
            SideError::new(
                format!("{label}: {m}"),
                "run the diff inside the git repository, with a revision `git rev-parse REF` knows (a branch, tag or commit) and a folder that exists at it",
            )
        })?;
        // Messages name the revision and the path in the repository, never the temporary
        // folder the tree was written to.
        let mut side = Side::from_project_dir(tree.path(), label, &sub).map_err(|mut e| {
            let shown = format!("{rev}:{}", if sub.is_empty() { "." } else { sub.as_str() });
            for text in [&mut e.message, &mut e.details, &mut e.help] {
                *text = text.replace(&tree.path().display().to_string(), &shown);
            }
            e
        })?;
        side.kind = SideKind::Git;
        Ok(side)
    }
}
