//! One checked state of a project: the findings of `check` over the project's files with the
//! editor's open documents in place of their saved text, and the ids read from it.

use super::symbols::Symbols;
use crate::diagnostics::{Diagnostic, Severity};
use crate::lint::Checked;
use crate::source::FileId;
use std::path::{Path, PathBuf};

/// A checked project.
pub struct Snapshot {
    /// The project root (the folder of `schemarouter.toml`).
    pub root: PathBuf,
    /// The project, its index and units, and its findings (`None` when the root could not be
    /// loaded at all; `fatal` says why).
    pub checked: Option<Checked>,
    /// Why the project could not be loaded, when it could not.
    pub fatal: Option<Diagnostic>,
    /// The ids and where they are written.
    pub symbols: Symbols,
}

impl Snapshot {
    /// Check the project at `root` with `overlay` (display name -> text) in place of the files
    /// on disk.
    pub fn check(root: &Path, overlay: &crate::load::Overlay) -> Snapshot {
        Snapshot::check_cached(root, overlay, None)
    }

    /// [`Snapshot::check`], parsing again only the files whose text changed since the last check
    /// with `cache` ([`crate::load::load_project_cached`]); the findings are the same.
    pub fn check_cached(
        root: &Path,
        overlay: &crate::load::Overlay,
        cache: Option<&crate::load::ParseCache>,
    ) -> Snapshot {
        match crate::load::load_project_cached(root, overlay, cache) {
            Ok(loaded) => {
                let checked = crate::lint::check_loaded(loaded);
                let symbols = Symbols::build(&checked.project);
                Snapshot {
                    root: root.to_path_buf(),
                    checked: Some(checked),
                    fatal: None,
                    symbols,
                }
            }
            Err(e) => Snapshot {
                root: root.to_path_buf(),
                checked: None,
                fatal: Some(
                    Diagnostic::new("SR010", "io-error", Severity::Error, e.message).help(e.help),
                ),
                symbols: Symbols::default(),
            },
        }
    }

    /// The file of the project at absolute `path`.
    pub fn file(&self, path: &Path) -> Option<FileId> {
        let checked = self.checked.as_ref()?;
        let name = super::workspace::display_name(&self.root, path)?;
        checked.project.sources.find(&name)
    }

    /// The absolute path of a file of the project.
    pub fn path(&self, file: FileId) -> Option<PathBuf> {
        let checked = self.checked.as_ref()?;
        let f = checked.project.sources.get(file);
        Some(self.root.join(&f.name))
    }
}
