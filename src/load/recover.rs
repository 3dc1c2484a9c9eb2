//! Every structural fault of a declaration file in one run.
//!
//! serde's derive stops at the first error, so a file with an unknown key, a wrong type and a
//! missing key would take three runs to fix. [`read_all`] reads the file with the strict typed
//! reader; after each error it takes the offending part out of a copy of the node tree (the
//! unknown key, the entry or list item whose value is wrong, the map that lacks a required key)
//! and reads again, until the copy reads cleanly or nothing more can be taken out. Missing
//! required keys come from the declaration's JSON Schema ([`super::required::missing_keys`]),
//! all at once. The typed reader stays the only judge of what is valid: the loop only decides
//! where to keep looking.

use super::de::{DeError, DeErrorKind};
use super::node::{Node, NodeKind};
use super::required;
use crate::model::FileKind;
use crate::source::Span;

/// Most errors reported for one file (a file this broken is better fixed from the top).
pub const MAX_ERRORS: usize = 64;

/// Read `node` with `read`; on failure, every error found as described in the module docs, in
/// the order found (the caller sorts diagnostics). Never empty on `Err`.
pub fn read_all<T>(
    node: &Node,
    kind: FileKind,
    read: impl Fn(&Node) -> Result<T, DeError>,
) -> Result<T, Vec<DeError>> {
    match read_recovering(node, kind, read) {
        (Some(v), errors) if errors.is_empty() => Ok(v),
        (_, errors) => Err(errors),
    }
}

/// [`read_all`], also returning what the copy with every faulty part taken out reads as, when
/// it reads (`None` when it does not, or when the error budget ran out first). Never both
/// `None` and no errors.
pub fn read_recovering<T>(
    node: &Node,
    kind: FileKind,
    read: impl Fn(&Node) -> Result<T, DeError>,
) -> (Option<T>, Vec<DeError>) {
    let first = match read(node) {
        Ok(v) => return (Some(v), Vec::new()),
        Err(e) => e,
    };
    let missing: Vec<(Span, String)> = required::missing_keys(node, kind)
        .into_iter()
        .map(|m| (m.map, m.key))
        .collect();
    let mut errors: Vec<DeError> = Vec::new();
    // Every missing required key, from the schema.
    for (span, key) in &missing {
        let mut d = DeError::missing_key(key);
        d.span = Some(*span);
        errors.push(d);
    }
    // Keys taken out of the copy: a later "missing" report for them is a consequence.
    let mut removed: Vec<(Span, String)> = Vec::new();
    let mut tree = node.clone();
    let mut current = first;
    for _ in 0..MAX_ERRORS * 2 {
        let consequence = current.kind == DeErrorKind::MissingKey
            && current.span.is_some_and(|s| {
                let key = missing_key_name(&current.message);
                removed
                    .iter()
                    .chain(missing.iter())
                    .any(|(ms, k)| *ms == s && Some(k.as_str()) == key)
            });
        if !consequence
            && !errors
                .iter()
                .any(|e| e.span == current.span && e.message == current.message)
        {
            errors.push(current.clone());
        }
        if errors.len() >= MAX_ERRORS {
            break;
        }
        let Some(span) = current.span else { break };
        let Some(taken) = take_out(&mut tree, span) else {
            break;
        };
        if let Some(entry) = taken {
            removed.push(entry);
        }
        match read(&tree) {
            Ok(v) => return (Some(v), errors),
            Err(e) => current = e,
        }
    }
    (None, errors)
}

/// The key named by a missing-key message (`missing required key `title``).
fn missing_key_name(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("missing required key `")?;
    rest.strip_suffix('`')
}

/// Take the part at `span` out of `tree`: the deepest map entry whose key or value is written
/// there, or list item (the deepest, because a TOML array of tables and its first table can
/// share a span). `None` when nothing other than the root is there; `Some(Some((map, key)))`
/// when a map entry was taken out.
fn take_out(tree: &mut Node, span: Span) -> Option<Option<(Span, String)>> {
    let mut best: Option<Vec<usize>> = None;
    let mut path = Vec::new();
    deepest(tree, span, &mut path, &mut best);
    let path = best?;
    let (last, parents) = path.split_last()?;
    let mut node = tree;
    for &i in parents {
        node = match &mut node.kind {
            NodeKind::Map(entries) => &mut entries[i].1,
            NodeKind::Seq(items) => &mut items[i],
            _ => return None,
        };
    }
    let map_span = node.span;
    match &mut node.kind {
        NodeKind::Map(entries) => {
            let (k, _) = entries.remove(*last);
            Some(Some((map_span, k.text)))
        }
        NodeKind::Seq(items) => {
            items.remove(*last);
            Some(None)
        }
        _ => None,
    }
}

/// The longest path (child indices) to an entry or item written at `span`.
fn deepest(node: &Node, span: Span, path: &mut Vec<usize>, best: &mut Option<Vec<usize>>) {
    let mut visit = |i: usize, hit: bool, child: &Node, path: &mut Vec<usize>| {
        path.push(i);
        if hit && best.as_ref().is_none_or(|b| b.len() < path.len()) {
            *best = Some(path.clone());
        }
        deepest(child, span, path, best);
        path.pop();
    };
    match &node.kind {
        NodeKind::Map(entries) => {
            for (i, (k, v)) in entries.iter().enumerate() {
                visit(i, k.span == span || v.span == span, v, path);
            }
        }
        NodeKind::Seq(items) => {
            for (i, v) in items.iter().enumerate() {
                visit(i, v.span == span, v, path);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use crate::model::FileKind;
    use crate::model::config::Limits;
    use crate::source::Format;

    /// `line:col message` of every error of a YAML tool file, sorted.
    fn errors(text: &str, kind: FileKind) -> Vec<String> {
        let node = super::super::parse_text(text, Format::Yaml, &Limits::default()).unwrap();
        let file = crate::source::SourceFile::new("t.yaml", "t.yaml", text.to_string());
        let result = match kind {
            FileKind::Tool => super::read_all(&node, kind, |n| {
                super::super::de::from_node::<crate::model::Tool>(n).map(|_| ())
            }),
            _ => super::read_all(&node, kind, |n| {
                super::super::de::from_node::<crate::model::IntentFile>(n).map(|_| ())
            }),
        };
        let mut out: Vec<(usize, usize, String)> = result
            .unwrap_err()
            .into_iter()
            .map(|e| {
                let (l, c) = file.line_col(e.span.unwrap().start as usize);
                (l, c, e.message)
            })
            .collect();
        out.sort();
        out.into_iter()
            .map(|(l, c, m)| format!("{l}:{c} {m}"))
            .collect()
    }

    #[test]
    fn unknown_keys_wrong_types_and_missing_keys_together() {
        let text = "\
id: zbad
title: Bad
domian: materials_property
priority: high
endpoints:
  - id: e1
    method: GETT
    url: https://x.org
    colour: red
    parameters:
      - name: a
        typ: string
      - name: b
        type: boolean
        required: maybe
  - method: GET
";
        assert_eq!(
            errors(text, FileKind::Tool),
            [
                "1:1 missing required key `domain`",
                "3:1 unknown key `domian`",
                "4:11 expected an integer, found the string `high`",
                "7:13 unknown value `GETT`",
                "9:5 unknown key `colour`",
                "11:9 missing required key `type`",
                "12:9 unknown key `typ`",
                "15:19 expected a boolean (true or false), found the string `maybe`",
                "16:5 missing required key `id`",
                "16:5 missing required key `url`",
            ]
        );
    }

    #[test]
    fn several_faults_in_list_items_of_an_intent_file() {
        let text = "\
domains:
  - id: d
    descripton: x
intents:
  - description: no id
    domains: [d]
    required_groups: [g]
  - id: i
    description: first
    domains: d
    required_groups: [g]
  - id: j
    description: 5
    domains: [d]
    required_groups: [g]
    extra: true
";
        assert_eq!(
            errors(text, FileKind::Intent),
            [
                "3:5 unknown key `descripton`",
                "5:5 missing required key `id`",
                "10:14 expected a list, found the string `d`",
                "16:5 unknown key `extra`",
            ]
        );
    }

    /// A configuration with faulty settings reads as the rest of it: every error is reported,
    /// and the settings that read are kept (a wrong `fail-level` does not drop `[paths]`).
    #[test]
    fn the_settings_that_read_are_kept_beside_the_errors() {
        let text = "[paths]\nschemas = \"tools\"\n\n[lint]\nfail-level = 3\nprompt-budget = 500\nfail-levle = \"error\"\n";
        let node = super::super::parse_text(text, Format::Toml, &Limits::default()).unwrap();
        let (config, errors) = super::read_recovering(&node, FileKind::Config, |n| {
            super::super::de::from_node::<crate::model::Config>(n)
        });
        let file = crate::source::SourceFile::new("c.toml", "c.toml", text.to_string());
        let mut errors: Vec<String> = errors
            .into_iter()
            .map(|e| {
                let (l, c) = file.line_col(e.span.unwrap().start as usize);
                format!("{l}:{c} {}", e.message)
            })
            .collect();
        errors.sort();
        assert_eq!(
            errors,
            [
                "5:14 expected one of the allowed values, found the integer `3`",
                "7:1 unknown key `fail-levle`",
            ]
        );
        let config = config.unwrap();
        assert_eq!(config.paths.schemas, "tools");
        assert_eq!(config.lint.prompt_budget.map(|b| b.value), Some(500));
        assert!(config.lint.fail_level.is_none());
        // Nothing faulty: the value, no error.
        let node = super::super::parse_text(
            "[paths]\nschemas = \"tools\"\n",
            Format::Toml,
            &Limits::default(),
        )
        .unwrap();
        let (config, errors) = super::read_recovering(&node, FileKind::Config, |n| {
            super::super::de::from_node::<crate::model::Config>(n)
        });
        assert!(errors.is_empty());
        assert_eq!(config.unwrap().paths.schemas, "tools");
    }

    #[test]
    fn a_clean_file_reads() {
        let text = "id: x\ntitle: X\ndomain: d\nendpoints:\n  - id: e\n    method: GET\n    url: https://example.org/x\n";
        let node = super::super::parse_text(text, Format::Yaml, &Limits::default()).unwrap();
        assert!(
            super::read_all(&node, FileKind::Tool, |n| {
                super::super::de::from_node::<crate::model::Tool>(n).map(|_| ())
            })
            .is_ok()
        );
    }
}
