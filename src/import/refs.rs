//! `$ref` resolution over the documents of one import: local JSON pointers (`#/components/
//! schemas/Pet`, `#/$defs/Item`), relative files (`common.yaml#/Error`, `./pet.json`), and
//! refusal of remote references (`http:`, `https:`, `//host`): nothing is fetched.
//!
//! Every referenced file is read before mapping starts ([`Resolver::preload`]), so the mapping
//! itself works on shared, immutable documents. Cycles are the mapper's business: a schema
//! location is identified by [`Loc::key`], and the mapper keeps the stack of locations it is
//! expanding.

use super::doc::{SourceDoc, escape_segment, pointer_segments};
use crate::diagnostics::{Diagnostic, Severity};
use crate::source::{FileId, SourceFile, SourceMap};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Most files one import may read through relative references.
pub const MAX_REF_FILES: usize = 200;

/// A place in one of the import's documents.
#[derive(Clone, Debug)]
pub struct Loc<'a> {
    /// Index of the document in the resolver.
    pub doc: usize,
    /// The value there.
    pub value: &'a Value,
    /// The JSON pointer of the value in its document.
    pub pointer: String,
    /// The pointer that `#` references written here start from: `""` for the document root,
    /// `/tools/3/inputSchema` inside an MCP tool (each tool's schema is a JSON Schema document of
    /// its own, with its own `$defs`).
    pub scope: Rc<str>,
}

impl<'a> Loc<'a> {
    /// A stable identity for cycle detection: `doc#pointer`.
    pub fn key(&self) -> String {
        format!("{}#{}", self.doc, self.pointer)
    }

    /// The value under key or index `seg` of this one, if any.
    pub fn get(&self, seg: &str) -> Option<Loc<'a>> {
        let v = match self.value {
            Value::Object(o) => o.get(seg)?,
            Value::Array(a) => a.get(seg.parse::<usize>().ok()?)?,
            _ => return None,
        };
        Some(self.child(v, seg))
    }

    /// A value inside this one, reached by key or index `seg`.
    pub fn child(&self, value: &'a Value, seg: &str) -> Loc<'a> {
        Loc {
            doc: self.doc,
            value,
            pointer: format!("{}/{}", self.pointer, escape_segment(seg)),
            scope: self.scope.clone(),
        }
    }
}

/// Why a reference could not be followed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefError {
    /// A remote reference (never fetched).
    Remote(String),
    /// A pointer or file that does not exist.
    Unresolved {
        /// The reference as written.
        reference: String,
        /// Why.
        reason: String,
    },
}

/// The documents of one import and the resolution of references between them.
pub struct Resolver {
    /// Documents: the first is the root source.
    pub docs: Vec<SourceDoc>,
    /// The source map the documents' diagnostics refer to.
    pub sources: SourceMap,
    by_path: BTreeMap<PathBuf, usize>,
    /// The folder (resolved, symbolic links followed) referenced files must be in: the git
    /// work tree holding the root document, else the document's folder, or `--ref-root`.
    /// `None` when it cannot be resolved, and then no referenced file is read.
    ref_root: Option<PathBuf>,
    /// Referenced files that could not be read, by path, with the error found at the reference
    /// ([`Resolver::preload`]).
    unreadable: Vec<(PathBuf, Diagnostic)>,
    /// Those of them the mapping tried to follow a reference into.
    followed_unreadable: std::cell::RefCell<std::collections::BTreeSet<PathBuf>>,
}

impl Resolver {
    /// A resolver over the root document.
    pub fn new(root: SourceDoc, sources: SourceMap) -> Resolver {
        let mut by_path = BTreeMap::new();
        by_path.insert(normal(&root.path), 0);
        let folder = normal(&root.path)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        // The repository the document is in (the nearest folder above it with a `.git`), or
        // else the document's own folder.
        let ref_root = folder.canonicalize().ok().map(|f| {
            f.ancestors()
                .find(|a| a.join(".git").exists())
                .map(Path::to_path_buf)
                .unwrap_or(f)
        });
        Resolver {
            docs: vec![root],
            sources,
            by_path,
            ref_root,
            unreadable: Vec::new(),
            followed_unreadable: Default::default(),
        }
    }

    /// Let file references point anywhere under `dir` (`import --ref-root`) instead of only
    /// under the root document's folder.
    pub fn set_ref_root(&mut self, dir: &Path) {
        self.ref_root = dir.canonicalize().ok();
    }

    /// Why the file at `path` may not be read, when it lies outside the reference root.
    fn outside_root(&self, path: &Path) -> Option<String> {
        // A file that does not exist is reported as unreadable, as before.
        let real = path.canonicalize().ok()?;
        match &self.ref_root {
            Some(root) if real.starts_with(root) => None,
            Some(root) => Some(format!(
                "is outside the folder `{}` that references may point into; it was not read",
                root.display()
            )),
            None => Some(
                "was not read: the folder references may point into cannot be resolved".to_string(),
            ),
        }
    }

    /// Read every file that the documents reference, transitively. Returns the errors that
    /// stop the import whatever is mapped (too many files). A file that cannot be read or
    /// parsed is an error at the reference, kept aside: [`Resolver::unreadable_followed`] gives
    /// those of files the mapping needed (an operation `--only` leaves out, or a component no
    /// operation uses, may name a file that cannot be read without stopping the import).
    pub fn preload(&mut self) -> Vec<Diagnostic> {
        let mut errors = Vec::new();
        let mut unreadable = Vec::new();
        let mut next = 0;
        while next < self.docs.len() {
            let mut refs = Vec::new();
            collect_refs(&self.docs[next].value, &mut String::new(), &mut refs);
            let base = self.docs[next].path.clone();
            for (pointer, r) in refs {
                let (file, _) = split_ref(&r);
                if file.is_empty() || is_remote(&r) {
                    continue;
                }
                let path = normal(&base.parent().unwrap_or(Path::new(".")).join(file));
                if self.by_path.contains_key(&path) {
                    continue;
                }
                let at = self.docs[next].span_of(&pointer);
                let file_id = self.docs[next].file;
                if self.docs.len() >= MAX_REF_FILES {
                    errors.push(
                        Diagnostic::new(
                            crate::diagnostics::codes::LIMIT_EXCEEDED.0,
                            crate::diagnostics::codes::LIMIT_EXCEEDED.1,
                            Severity::Error,
                            format!(
                                "more than {MAX_REF_FILES} files are referenced (limit of files one import reads)"
                            ),
                        )
                        .at(file_id, at, "one too many")
                        .help("bundle the description into fewer files first (e.g. `redocly bundle`)"),
                    );
                    return errors;
                }
                let outside = self.outside_root(&path);
                let read = match &outside {
                    Some(reason) => Err(reason.clone()),
                    None => schemarouter_core::input::read_file_limited(
                        &path,
                        super::doc::MAX_SOURCE_BYTES,
                    )
                    .map_err(|e| e.to_string()),
                };
                let text = match read {
                    Ok(b) if b.len() as u64 > super::doc::MAX_SOURCE_BYTES => Err(format!(
                        "it is larger than the limit of {} MiB",
                        super::doc::MAX_SOURCE_BYTES / 1024 / 1024
                    )),
                    Ok(b) => String::from_utf8(b).map_err(|_| "it is not UTF-8 text".to_string()),
                    Err(e) => Err(e),
                };
                let text = match text {
                    Ok(t) => t,
                    Err(reason) => {
                        unreadable.push((path.clone(),
                            Diagnostic::new(
                                crate::diagnostics::codes::UNRESOLVED_REFERENCE.0,
                                crate::diagnostics::codes::UNRESOLVED_REFERENCE.1,
                                Severity::Error,
                                if outside.is_some() {
                                    format!("`$ref: {r}` names the file `{file}`, which {reason}")
                                } else {
                                    format!("`$ref: {r}` names the file `{file}`, which cannot be read: {reason}")
                                },
                            )
                            .at(file_id, at, "referenced here")
                            .help(if outside.is_some() {
                                "copy the file into the document's folder, or pass `--ref-root <folder>` to allow references anywhere under that folder"
                            } else {
                                "put the referenced file beside the document, or bundle the description into one file"
                            })),
                        );
                        // Remember the path so that the same failure is reported once.
                        self.by_path.insert(path, usize::MAX);
                        continue;
                    }
                };
                let name = path.display().to_string();
                let id =
                    self.sources
                        .add(SourceFile::new(name.clone(), path.clone(), text.clone()));
                match SourceDoc::parse(&name, &path, id, text) {
                    Ok(d) if !(d.value.is_object() || d.value.is_array()) => {
                        unreadable.push((path.clone(),
                            Diagnostic::new(
                                crate::diagnostics::codes::UNRESOLVED_REFERENCE.0,
                                crate::diagnostics::codes::UNRESOLVED_REFERENCE.1,
                                Severity::Error,
                                format!("`$ref: {r}` names the file `{file}`, which is not a JSON or YAML document (its top level is {})", super::kind_of(&d.value)),
                            )
                            .at(file_id, at, "referenced here")
                            .help("a referenced file holds a schema object (or a document with one under the `#` pointer)")),
                        );
                        self.by_path.insert(path, usize::MAX);
                    }
                    Ok(d) => {
                        self.by_path.insert(path, self.docs.len());
                        self.docs.push(d);
                    }
                    Err(e) => {
                        unreadable.push((path.clone(), *e));
                        self.by_path.insert(path, usize::MAX);
                    }
                }
            }
            next += 1;
        }
        self.unreadable = unreadable;
        errors
    }

    /// The errors of referenced files that could not be read ([`Resolver::preload`]) which the
    /// mapping tried to follow a reference into, in the order they were found.
    pub fn unreadable_followed(&self) -> Vec<Diagnostic> {
        let followed = self.followed_unreadable.borrow();
        self.unreadable
            .iter()
            .filter(|(p, _)| followed.contains(p))
            .map(|(_, d)| d.clone())
            .collect()
    }

    /// The root document's value as a location.
    pub fn root(&self) -> Loc<'_> {
        Loc {
            doc: 0,
            value: &self.docs[0].value,
            pointer: String::new(),
            scope: Rc::from(""),
        }
    }

    /// The value at `pointer` in document `doc`, as the root of a schema document of its own
    /// (its `#` references start there).
    pub fn scoped<'a>(&'a self, doc: usize, pointer: &str) -> Option<Loc<'a>> {
        let v = lookup(&self.docs[doc].value, pointer)?;
        Some(Loc {
            doc,
            value: v,
            pointer: pointer.to_string(),
            scope: Rc::from(pointer),
        })
    }

    /// Follow `$ref` `reference`, written at `from`.
    pub fn follow<'a>(&'a self, from: &Loc<'_>, reference: &str) -> Result<Loc<'a>, RefError> {
        if is_remote(reference) {
            return Err(RefError::Remote(reference.to_string()));
        }
        let (file, fragment) = split_ref(reference);
        let doc = if file.is_empty() {
            from.doc
        } else {
            let base = &self.docs[from.doc].path;
            let path = normal(&base.parent().unwrap_or(Path::new(".")).join(file));
            match self.by_path.get(&path) {
                Some(&i) if i != usize::MAX => i,
                _ => {
                    self.followed_unreadable.borrow_mut().insert(path);
                    return Err(RefError::Unresolved {
                        reference: reference.to_string(),
                        reason: format!("the file `{file}` could not be read"),
                    });
                }
            }
        };
        // A fragment is URI text: percent-decoded before it is read as a JSON pointer (RFC 6901
        // §6), so `Pet%20Response` names `Pet Response` and `%7Bid%7D` names `{id}`.
        let decoded = percent_decode(fragment);
        if !decoded.is_empty() && !decoded.starts_with('/') {
            return Err(RefError::Unresolved {
                reference: reference.to_string(),
                reason: "only JSON-pointer fragments (`#/...`) are supported, not anchors"
                    .to_string(),
            });
        }
        let scope: Rc<str> = if file.is_empty() {
            from.scope.clone()
        } else {
            Rc::from("")
        };
        let mut pointer = format!("{scope}{decoded}");
        let mut found = lookup(&self.docs[doc].value, &pointer);
        if found.is_none() && decoded != fragment {
            // A key that holds the percent sequence itself, referenced as written.
            let raw = format!("{scope}{fragment}");
            found = lookup(&self.docs[doc].value, &raw);
            if found.is_some() {
                pointer = raw;
            }
        }
        match found {
            Some(v) => Ok(Loc {
                doc,
                value: v,
                pointer,
                scope,
            }),
            None => Err(RefError::Unresolved {
                reference: reference.to_string(),
                reason: if scope.is_empty() {
                    "the pointer leads nowhere in the document".to_string()
                } else {
                    "the pointer leads nowhere in the schema it is written in".to_string()
                },
            }),
        }
    }

    /// The file id of document `doc`.
    pub fn file(&self, doc: usize) -> FileId {
        self.docs[doc].file
    }
}

/// The value at a JSON pointer.
pub fn lookup<'a>(root: &'a Value, pointer: &str) -> Option<&'a Value> {
    let mut v = root;
    for seg in pointer_segments(pointer) {
        v = match v {
            Value::Object(o) => o.get(&seg)?,
            Value::Array(a) => a.get(seg.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(v)
}

/// `text` with its `%XX` escapes decoded (as UTF-8); a `%` that starts no escape is kept, and
/// text whose escapes do not decode to UTF-8 is returned unchanged.
pub(crate) fn percent_decode(text: &str) -> String {
    if !text.contains('%') {
        return text.to_string();
    }
    let b = text.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%'
            && let (Some(h), Some(l)) = (
                b.get(i + 1).copied().and_then(hex),
                b.get(i + 2).copied().and_then(hex),
            )
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// Whether a reference leaves the document's folder tree in a way the importer refuses: another
/// host (`http:`, `https:`, `//host`), any other URL scheme (`file:`, `urn:`), or an absolute
/// path (which would read any file of the machine into a declaration).
pub fn is_remote(r: &str) -> bool {
    let t = r.trim();
    let lower = t.to_ascii_lowercase();
    let file = t.split('#').next().unwrap_or("");
    let scheme = file.split_once(':').is_some_and(|(s, _)| {
        s.len() > 1
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c))
    });
    let drive = file.len() > 2
        && file.as_bytes()[0].is_ascii_alphabetic()
        && file.as_bytes()[1] == b':'
        && (file.as_bytes()[2] == b'/' || file.as_bytes()[2] == b'\\');
    lower.starts_with("//") || scheme || drive || file.starts_with('/') || file.starts_with('\\')
}

/// Split `file#fragment` (the fragment without `#`).
fn split_ref(r: &str) -> (&str, &str) {
    match r.split_once('#') {
        Some((f, frag)) => (f, frag),
        None => (r, ""),
    }
}

/// Every `$ref` string under `v`, with the JSON pointer of the object holding it.
fn collect_refs(v: &Value, at: &mut String, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(o) => {
            if let Some(Value::String(r)) = o.get("$ref") {
                out.push((at.clone(), r.clone()));
            }
            for (k, x) in o {
                let len = at.len();
                at.push('/');
                at.push_str(&escape_segment(k));
                collect_refs(x, at, out);
                at.truncate(len);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                let len = at.len();
                at.push('/');
                at.push_str(&i.to_string());
                collect_refs(x, at, out);
                at.truncate(len);
            }
        }
        _ => {}
    }
}

/// A path with `.` and `..` components folded (without touching the file system).
fn normal(p: &Path) -> PathBuf {
    // Relative to the current folder first, so that `..` steps above it are kept exactly.
    let p = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolver(text: &str) -> Resolver {
        let mut sources = SourceMap::new();
        let id = sources.add(SourceFile::new("a.json", "a.json", text.to_string()));
        let d = SourceDoc::parse("a.json", Path::new("a.json"), id, text.to_string()).unwrap();
        Resolver::new(d, sources)
    }

    #[test]
    fn local_pointers_resolve() {
        let r = resolver(r#"{"components": {"schemas": {"A/B": {"type": "string"}}}}"#);
        let l = r.follow(&r.root(), "#/components/schemas/A~1B").unwrap();
        assert_eq!(l.value, &serde_json::json!({"type": "string"}));
        assert_eq!(l.key(), "0#/components/schemas/A~1B");
    }

    #[test]
    fn remote_and_dangling_references_are_refused() {
        let r = resolver(r#"{"a": 1}"#);
        assert_eq!(
            r.follow(&r.root(), "https://example.org/s.json#/X").err(),
            Some(RefError::Remote("https://example.org/s.json#/X".into()))
        );
        assert!(matches!(
            r.follow(&r.root(), "#/nowhere").err(),
            Some(RefError::Unresolved { .. })
        ));
    }

    #[test]
    fn a_root_scopes_local_pointers() {
        let r = resolver(r#"{"tools": [{"inputSchema": {"$defs": {"X": {"type": "integer"}}}}]}"#);
        let scope = r.scoped(0, "/tools/0/inputSchema").unwrap();
        let l = r.follow(&scope, "#/$defs/X").unwrap();
        assert_eq!(l.value, &serde_json::json!({"type": "integer"}));
    }

    #[test]
    fn percent_encoded_fragments_are_decoded_before_pointer_escapes() {
        let r = resolver(
            r#"{"components": {"schemas": {"Pet Response": {"type": "string"}, "50%": {"type": "number"}, "a%2Fb": {"type": "boolean"}}},
                "paths": {"/pets/{id}": {"get": {"x": 1}}}}"#,
        );
        let l = r
            .follow(&r.root(), "#/components/schemas/Pet%20Response")
            .unwrap();
        assert_eq!(l.value, &serde_json::json!({"type": "string"}));
        // The same location as when reached key by key (one identity for cycle detection).
        assert_eq!(l.key(), "0#/components/schemas/Pet Response");
        let l = r.follow(&r.root(), "#/paths/~1pets~1%7Bid%7D/get").unwrap();
        assert_eq!(l.value, &serde_json::json!({"x": 1}));
        assert_eq!(l.key(), "0#/paths/~1pets~1{id}/get");
        // `%25` is `%`; `~1` written as `%7E1` is still the escape for `/`.
        let l = r.follow(&r.root(), "#/components/schemas/50%25").unwrap();
        assert_eq!(l.value, &serde_json::json!({"type": "number"}));
        let l = r
            .follow(&r.root(), "#/paths/%7E1pets%7E1%7Bid%7D/get")
            .unwrap();
        assert_eq!(l.value, &serde_json::json!({"x": 1}));
        // A key that holds a literal percent sequence, referenced as written, is still found.
        let l = r.follow(&r.root(), "#/components/schemas/a%2Fb").unwrap();
        assert_eq!(l.value, &serde_json::json!({"type": "boolean"}));
        // A `%` that starts no escape is kept.
        assert_eq!(percent_decode("50%"), "50%");
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
        assert_eq!(percent_decode("%C3%A9"), "é");
        assert_eq!(percent_decode("%FF"), "%FF");
    }

    #[test]
    fn paths_are_folded() {
        let here = std::env::current_dir().unwrap();
        assert_eq!(normal(Path::new("a/./b/../c.yaml")), here.join("a/c.yaml"));
        assert_eq!(normal(Path::new("/x/y/../../z")), PathBuf::from("/z"));
    }
}
