//! Parsed files kept between loads of one project (the language server checks the project on
//! every edit, and an edit changes one file).
//!
//! A [`ParseCache`] maps a file's display name to its text as last read and what reading it
//! gave (the declarations or the failure, the YAML alias uses and duplicate keys), with the
//! file's kind, format and the project's limits. [`super::load_project_cached`] reuses an entry
//! only when all of these are equal (the text byte for byte), so a load with the cache gives what
//! a load without it gives; only files whose text changed are parsed again. Each load keeps the
//! entries it used and drops the others (files deleted, renamed or excluded), so the cache holds
//! at most one entry per file of the last load.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// What reading one file gave, as [`super::read_and_parse`] returns it after the text.
pub(super) type Outcome = (
    Vec<super::yaml::AliasUse>,
    Vec<super::LoadError>,
    Result<super::Parsed, super::ReadFailure>,
);

struct Entry {
    /// The file's kind, format and the project's limits, as one string.
    settings: String,
    text: String,
    outcome: Outcome,
}

/// Parsed files of the last load of a project, by display name (see the module docs).
/// Shared between threads: the files of one load are read in parallel.
#[derive(Default)]
pub struct ParseCache {
    last: Mutex<HashMap<String, Arc<Entry>>>,
    used: Mutex<HashMap<String, Arc<Entry>>>,
    hits: std::sync::atomic::AtomicUsize,
}

impl ParseCache {
    /// An empty cache.
    pub fn new() -> ParseCache {
        ParseCache::default()
    }

    /// Number of files held.
    pub fn len(&self) -> usize {
        self.last.lock().map_or(0, |m| m.len())
    }

    /// Number of files taken from the cache since it was made.
    pub fn hits(&self) -> usize {
        self.hits.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Whether no file is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What reading `name` gave last time, when its text and settings are the same; the entry is
    /// kept for the next load.
    pub(super) fn get(&self, name: &str, settings: &str, text: &str) -> Option<Outcome> {
        let entry = self.last.lock().ok()?.get(name).cloned()?;
        if entry.settings != settings || entry.text != text {
            return None;
        }
        let outcome = entry.outcome.clone();
        self.hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if let Ok(mut used) = self.used.lock() {
            used.insert(name.to_string(), entry);
        }
        Some(outcome)
    }

    /// Record what reading `name` with `text` gave.
    pub(super) fn put(&self, name: &str, settings: String, text: &str, outcome: &Outcome) {
        let entry = Arc::new(Entry {
            settings,
            text: text.to_string(),
            outcome: outcome.clone(),
        });
        if let Ok(mut used) = self.used.lock() {
            used.insert(name.to_string(), entry);
        }
    }

    /// End a load: the entries it used become the cache, the others are dropped.
    pub(super) fn finish_load(&self) {
        if let (Ok(mut last), Ok(mut used)) = (self.last.lock(), self.used.lock()) {
            *last = std::mem::take(&mut *used);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{Overlay, load_project_cached, load_project_overlay};
    use std::path::PathBuf;

    fn fixture() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/multi-finding")
    }

    /// Sources and findings of a load, for comparison.
    fn seen(
        loaded: &crate::load::Loaded,
    ) -> (Vec<(String, String)>, Vec<crate::diagnostics::Diagnostic>) {
        let sources = loaded
            .project
            .sources
            .iter()
            .map(|(_, f)| (f.name.clone(), f.text.clone()))
            .collect();
        (sources, loaded.diagnostics.clone())
    }

    /// An editor's new, unsaved document inside a declaration folder is read from the overlay
    /// (its broken YAML reported in it); one outside the folders, or climbing out of the root,
    /// is not.
    #[test]
    fn an_unsaved_document_in_a_declaration_folder_is_read() {
        let root = fixture();
        let mut overlay = Overlay::new();
        overlay.insert("schemas/unsaved-new.yaml".to_string(), "x: [\n".to_string());
        overlay.insert("notes/unsaved.yaml".to_string(), "x: [\n".to_string());
        overlay.insert("schemas/../escape.yaml".to_string(), "x: [\n".to_string());
        let loaded = load_project_overlay(&root, &overlay).unwrap();
        let names: Vec<&str> = loaded
            .project
            .sources
            .iter()
            .map(|(_, f)| f.name.as_str())
            .filter(|n| n.contains("unsaved") || n.contains("escape"))
            .collect();
        assert_eq!(names, ["schemas/unsaved-new.yaml"]);
        let in_it: Vec<&str> = loaded
            .diagnostics
            .iter()
            .filter(|d| {
                d.primary.as_ref().is_some_and(|l| {
                    loaded.project.sources.get(l.file).name == "schemas/unsaved-new.yaml"
                })
            })
            .map(|d| d.code)
            .collect();
        assert_eq!(in_it, ["SR001"]);
    }

    #[test]
    fn a_cached_load_gives_what_a_fresh_load_gives_and_parses_only_changed_files() {
        let root = fixture();
        let cache = ParseCache::new();
        let mut overlay = Overlay::new();
        let first = load_project_cached(&root, &overlay, Some(&cache)).unwrap();
        let files = cache.len();
        assert!(files >= 3, "{files} files cached");
        assert_eq!(cache.hits(), 0);
        assert_eq!(
            seen(&first),
            seen(&load_project_overlay(&root, &overlay).unwrap())
        );
        // Nothing changed: every file comes from the cache.
        let again = load_project_cached(&root, &overlay, Some(&cache)).unwrap();
        assert_eq!(cache.hits(), files);
        assert_eq!(seen(&again), seen(&first));
        // One file edited (a new finding in it): only that one is parsed again.
        let text = std::fs::read_to_string(root.join("schemas/mp.yaml")).unwrap();
        overlay.insert(
            "schemas/mp.yaml".to_string(),
            text.replace("type: number", "type: numbr"),
        );
        let edited = load_project_cached(&root, &overlay, Some(&cache)).unwrap();
        assert_eq!(cache.hits(), 2 * files - 1);
        let fresh = load_project_overlay(&root, &overlay).unwrap();
        assert_eq!(seen(&edited), seen(&fresh));
        assert_ne!(seen(&edited).1, seen(&first).1);
        assert_eq!(cache.len(), files);
    }
}
