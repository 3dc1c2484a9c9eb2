//! Stable fingerprints of findings: what a baseline (`check --baseline`), SARIF's
//! `partialFingerprints` and GitLab's code-quality `fingerprint` identify a finding by.
//!
//! A fingerprint is the BLAKE3 hash (32 hex digits) of the rule code, the file's path relative
//! to the project root, the *entity path* of the finding's place in the file, and the occurrence
//! index among findings with the same (code, file, entity path) in sorted order. The entity path
//! is the chain of keys from the file's root to the deepest value that holds the finding's span,
//! list items named by their `id`, `name` or `text` (a scalar item by its value), e.g.
//! `endpoints.summary.fields.band_gap.unit`. Lines, columns, messages and the folder `check` is
//! run from are left out, so inserting lines or comments above a finding, editing other
//! entities, or running from another folder keeps its fingerprint; renaming the entity (or the
//! file) changes it. A finding in a file that does not parse has the empty entity path; a
//! project-wide finding the empty file and path.

use super::Diagnostic;
use crate::load::node::{Node, NodeKind};
use crate::model::config::Limits;
use crate::source::{Format, SourceMap, Span};
use std::collections::HashMap;

/// A finding's identity, independent of lines.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fingerprint {
    /// The file, relative to the project root with `/` separators ("" for a project-wide finding).
    pub file: String,
    /// The entity path in that file (`endpoints.summary.fields.band_gap.unit`; "" when none).
    pub path: String,
    /// The hash: 32 lower-case hex digits.
    pub hash: String,
}

/// The hash of the `occurrence`-th (from 0) finding of rule `code` at entity `path` of `file`.
pub fn hash(code: &str, file: &str, path: &str, occurrence: usize) -> String {
    let mut h = blake3::Hasher::new();
    // Length-prefixed fields so that no two different tuples hash the same bytes.
    for part in [code, file, path] {
        h.update(&(part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    h.update(&(occurrence as u64).to_le_bytes());
    h.finalize().to_hex()[..32].to_string()
}

/// Keys whose value names a list item in an entity path, in order of preference.
const ITEM_NAME_KEYS: [&str; 3] = ["id", "name", "text"];

/// The entity path of `span` in the tree `root` (see the module docs); "" when the span is the
/// whole file or lies outside every value.
pub fn entity_path(root: &Node, span: Span) -> String {
    Extents::of(root).path(span)
}

/// A value tree with the extent of every value: the parsers give a YAML block collection the
/// empty span at its start and a TOML table its header's span, so the extent is the union of
/// the value's own span and its keys' and children's extents. Built once per file.
struct Extents {
    start: u32,
    end: u32,
    children: Vec<Child>,
}

/// One entry of a map (with its key's span) or item of a list.
struct Child {
    segment: String,
    key: Option<Span>,
    tree: Extents,
}

impl Extents {
    fn of(node: &Node) -> Extents {
        let children: Vec<Child> = match &node.kind {
            NodeKind::Map(entries) => entries
                .iter()
                .map(|(k, v)| Child {
                    segment: k.text.clone(),
                    key: Some(k.span),
                    tree: Extents::of(v),
                })
                .collect(),
            NodeKind::Seq(items) => items
                .iter()
                .enumerate()
                .map(|(i, it)| Child {
                    segment: item_name(it).unwrap_or_else(|| format!("[{i}]")),
                    key: None,
                    tree: Extents::of(it),
                })
                .collect(),
            _ => Vec::new(),
        };
        let (mut start, mut end) = (node.span.start, node.span.end);
        for c in &children {
            if let Some(k) = c.key {
                start = start.min(k.start);
                end = end.max(k.end);
            }
            start = start.min(c.tree.start);
            end = end.max(c.tree.end);
        }
        Extents {
            start,
            end,
            children,
        }
    }

    fn span(&self) -> Span {
        Span {
            start: self.start,
            end: self.end,
        }
    }

    /// The entity path of `span` below this value.
    fn path(&self, span: Span) -> String {
        let mut parts: Vec<&str> = Vec::new();
        let mut at = self;
        'down: loop {
            for c in &at.children {
                if c.key.is_some_and(|k| holds(k, span)) {
                    parts.push(&c.segment);
                    break 'down;
                }
                if holds(c.tree.span(), span) {
                    parts.push(&c.segment);
                    // A finding on the whole value: the path names it, no deeper.
                    if c.tree.span() == span {
                        break 'down;
                    }
                    at = &c.tree;
                    continue 'down;
                }
            }
            break;
        }
        parts.join(".")
    }
}

/// Whether `outer` holds all of `inner` (an empty `inner` at `outer`'s start counts).
fn holds(outer: Span, inner: Span) -> bool {
    outer.start <= inner.start
        && inner.end <= outer.end
        && (inner.start < outer.end || outer.start == outer.end)
}

/// How a list item is named in an entity path: its `id` / `name` / `text` value, or a scalar
/// item's own value.
fn item_name(item: &Node) -> Option<String> {
    let scalar = |n: &Node| match &n.kind {
        NodeKind::Str(s) => Some(s.clone()),
        NodeKind::Int(_, raw) | NodeKind::Float(_, raw) => Some(raw.clone()),
        NodeKind::Bool(b) => Some(b.to_string()),
        _ => None,
    };
    match &item.kind {
        NodeKind::Map(entries) => ITEM_NAME_KEYS.iter().find_map(|want| {
            entries
                .iter()
                .find(|(k, _)| k.text == *want)
                .and_then(|(_, v)| scalar(v))
        }),
        _ => scalar(item),
    }
}

/// The fingerprint of every diagnostic, in the order given (the sorted order of
/// [`super::sort_diagnostics`], which numbers occurrences). Files are named without the prefix
/// [`SourceMap::prefix_names`] put in front, so the fingerprints do not depend on the folder the
/// command runs from. Each file with a finding is parsed again (on the rayon pool) to find the
/// entity paths.
pub fn fingerprints(diags: &[Diagnostic], sources: &SourceMap) -> Vec<Fingerprint> {
    use rayon::prelude::*;
    let mut files: Vec<crate::source::FileId> = diags
        .iter()
        .filter_map(|d| d.primary.as_ref())
        .map(|l| l.file)
        .collect();
    files.sort();
    files.dedup();
    // The files loaded under the project's limits; no limit of its own here.
    let limits = Limits {
        max_file_bytes: u64::MAX,
        max_project_bytes: u64::MAX,
        max_files: u64::MAX,
        max_depth: u32::MAX,
        max_aliases: u64::MAX,
        max_scalar_bytes: u64::MAX,
        max_enum_values: u64::MAX,
    };
    let trees: HashMap<crate::source::FileId, Option<Extents>> = files
        .par_iter()
        .map(|&id| {
            let f = sources.get(id);
            let tree = Format::from_path(std::path::Path::new(&f.name))
                .and_then(|fmt| crate::load::parse_text_traced(&f.text, fmt, &limits).ok())
                .map(|(node, _, _)| Extents::of(&node));
            (id, tree)
        })
        .collect();
    let prefix = sources.prefix();
    let mut seen: HashMap<(&str, String, String), usize> = HashMap::new();
    diags
        .iter()
        .map(|d| {
            let (file, path) = match &d.primary {
                Some(l) => {
                    let name = &sources.get(l.file).name;
                    let file = name.strip_prefix(prefix).unwrap_or(name).to_string();
                    let path = trees
                        .get(&l.file)
                        .and_then(Option::as_ref)
                        .map(|t| t.path(l.span))
                        .unwrap_or_default();
                    (file, path)
                }
                None => (String::new(), String::new()),
            };
            let n = seen
                .entry((d.code, file.clone(), path.clone()))
                .or_insert(0);
            let hash = hash(d.code, &file, &path, *n);
            *n += 1;
            Fingerprint { file, path, hash }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path_of(text: &str, needle: &str) -> String {
        let root = crate::load::parse_text(text, Format::Yaml, &Limits::default()).unwrap();
        let start = text.find(needle).unwrap();
        let len = needle.trim_end_matches(']').len();
        entity_path(&root, Span::new(start, start + len))
    }

    #[test]
    fn paths_name_list_items_by_id_or_name() {
        let text = "id: mp\nendpoints:\n  - id: summary\n    fields:\n      - name: band_gap\n        unit: eV\n      - type: string\nnames: [a, b]\n";
        assert_eq!(
            path_of(text, "eV"),
            "endpoints.summary.fields.band_gap.unit"
        );
        assert_eq!(
            path_of(text, "unit"),
            "endpoints.summary.fields.band_gap.unit"
        );
        assert_eq!(path_of(text, "string"), "endpoints.summary.fields.[1].type");
        assert_eq!(path_of(text, "b]"), "names.b");
        assert_eq!(path_of(text, "id: mp"), "");
    }

    #[test]
    fn toml_tables_give_the_same_paths() {
        let text = "id = \"mp\"\n[[endpoints]]\nid = \"summary\"\n[[endpoints.fields]]\nname = \"band_gap\"\nunit = \"eV\"\n";
        let root = crate::load::parse_text(text, Format::Toml, &Limits::default()).unwrap();
        let start = text.find("eV").unwrap();
        assert_eq!(
            entity_path(&root, Span::new(start, start + 2)),
            "endpoints.summary.fields.band_gap.unit"
        );
    }

    #[test]
    fn hash_separates_fields_and_occurrences() {
        let a = hash("SR006", "a.yaml", "m", 0);
        assert_eq!(a, hash("SR006", "a.yaml", "m", 0));
        assert_ne!(a, hash("SR006", "a.yaml", "m", 1));
        assert_ne!(a, hash("SR006", "a.yam", "lm", 0));
        assert_eq!(a.len(), 32);
    }
}
