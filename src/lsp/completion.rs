//! Completion: rule names and codes inside a suppression comment (`# schemarouter:
//! allow(...) -- reason`), and after a key that takes ids (`concepts`, `core`, `entities`,
//! `concept`, `unless`; `groups`, `required_groups`; `domain`, `domains`; `tool`, `tools`;
//! `intent`; `field`), unit spellings (`unit`, `unit_as_published`) and source types
//! (`source_type`), in YAML and TOML alike. The key is the one on the cursor's line, or for an
//! item of a block list, the key above it.

use super::analysis::Snapshot;
use super::symbols::SymbolKind;
use lsp_types::{CompletionItem, CompletionItemKind, CompletionTextEdit, Range, TextEdit};

/// What the cursor is completing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Slot {
    /// A rule inside `allow(...)`.
    Rule,
    /// An id of this kind.
    Id(SymbolKind),
    /// A unit spelling.
    Unit,
    /// A source type.
    SourceType,
}

/// The byte range of the word being typed before `offset` (ids, unit spellings, rule names).
pub fn word_start(line_before: &str) -> usize {
    line_before
        .char_indices()
        .rev()
        .take_while(|(_, c)| !c.is_whitespace() && !"[],\"'(:={}".contains(*c))
        .last()
        .map_or(line_before.len(), |(i, _)| i)
}

fn slot_of_key(key: &str) -> Option<Slot> {
    Some(match key.trim_matches(['"', '\'']) {
        "concepts" | "core" | "entities" | "concept" | "unless" => Slot::Id(SymbolKind::Concept),
        "groups" | "required_groups" => Slot::Id(SymbolKind::Group),
        "domain" | "domains" => Slot::Id(SymbolKind::Domain),
        "tool" | "tools" | "target_apis" => Slot::Id(SymbolKind::Tool),
        "intent" => Slot::Id(SymbolKind::Intent),
        "field" => Slot::Id(SymbolKind::Field),
        "unit" | "unit_as_published" => Slot::Unit,
        "source_type" => Slot::SourceType,
        _ => return None,
    })
}

/// The key a line sets (`  - concepts: [a` -> `concepts`; `unit = "eV"` -> `unit`).
fn line_key(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let t = t.strip_prefix("- ").unwrap_or(t).trim_start();
    let at = t.find([':', '='])?;
    let key = t[..at].trim();
    (!key.is_empty() && !key.contains(' ')).then_some(key)
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// What the cursor at byte `offset` of `text` completes.
pub fn slot(text: &str, offset: usize) -> Option<Slot> {
    let offset = offset.min(text.len());
    let line_start = text[..offset].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let before = &text[line_start..offset];
    if let Some(m) = before.find("schemarouter:") {
        let rest = &before[m..];
        let open = rest.contains("allow(") || rest.contains("allow-file(");
        return (open && !rest.contains(')')).then_some(Slot::Rule);
    }
    if before.trim_start().starts_with('#') {
        return None;
    }
    if let Some(key) = line_key(before) {
        return slot_of_key(key);
    }
    // An item of a block list or a continued flow list: the key of the nearest line above
    // that is less indented (or a `key:` line at the same indent for a `- item`).
    let own = indent(before);
    let mut lines = text[..line_start].lines().rev();
    lines.find_map(|l| {
        if l.trim().is_empty() || l.trim_start().starts_with('#') {
            return None;
        }
        let i = indent(l);
        let item = l.trim_start().starts_with('-');
        if i < own || (i == own && !item) {
            Some(line_key(l).and_then(slot_of_key))
        } else {
            None
        }
    })?
}

/// The completions at byte `offset` of `text`; `range` is the LSP range of the word being typed.
pub fn complete(
    snapshot: Option<&Snapshot>,
    text: &str,
    offset: usize,
    range: Range,
) -> Vec<CompletionItem> {
    let Some(slot) = slot(text, offset) else {
        return Vec::new();
    };
    let item = |label: String, kind: CompletionItemKind, detail: Option<String>| CompletionItem {
        label: label.clone(),
        kind: Some(kind),
        detail,
        text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(range, label))),
        ..CompletionItem::default()
    };
    match slot {
        Slot::Rule => crate::lint::RULES
            .iter()
            .flat_map(|e| {
                [
                    item(
                        e.name.to_string(),
                        CompletionItemKind::KEYWORD,
                        Some(format!("{}: {}", e.code, e.summary())),
                    ),
                    item(
                        e.code.to_string(),
                        CompletionItemKind::KEYWORD,
                        Some(format!("{}: {}", e.name, e.summary())),
                    ),
                ]
            })
            .collect(),
        Slot::Id(kind) => snapshot
            .map(|s| {
                s.symbols
                    .ids(kind)
                    .into_iter()
                    .map(|id| {
                        item(
                            id.to_string(),
                            CompletionItemKind::REFERENCE,
                            Some(kind.word().to_string()),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default(),
        Slot::Unit => units(snapshot)
            .into_iter()
            .map(|u| item(u, CompletionItemKind::UNIT, Some("unit".to_string())))
            .collect(),
        Slot::SourceType => {
            let types = match snapshot.and_then(|s| s.checked.as_ref()) {
                Some(c) => c.project.source_types(),
                None => crate::model::BUILTIN_SOURCE_TYPES
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
            };
            types
                .into_iter()
                .map(|t| {
                    item(
                        t,
                        CompletionItemKind::ENUM_MEMBER,
                        Some("source type".to_string()),
                    )
                })
                .collect()
        }
    }
}

/// Unit spellings: every symbol of the project's unit table, and every unit the project's
/// fields and concepts already use (`eV/atom`, `g/cm^3`), sorted and distinct.
fn units(snapshot: Option<&Snapshot>) -> Vec<String> {
    let mut set = std::collections::BTreeSet::new();
    match snapshot.and_then(|s| s.checked.as_ref()) {
        Some(c) => {
            set.extend(c.units.spellings().into_iter().map(str::to_string));
            for t in &c.project.tools {
                for e in &t.endpoints {
                    set.extend(
                        e.fields
                            .iter()
                            .filter_map(|f| f.unit.as_ref())
                            .map(|u| u.value.clone()),
                    );
                }
            }
            set.extend(
                c.project
                    .concepts
                    .iter()
                    .filter_map(|k| k.unit.as_ref())
                    .map(|u| u.value.clone()),
            );
        }
        None => set.extend(
            crate::units::UnitTable::builtin()
                .spellings()
                .into_iter()
                .map(str::to_string),
        ),
    }
    set.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Option<Slot> {
        let i = text.find('|').unwrap();
        let t = text.replace('|', "");
        slot(&t, i)
    }

    #[test]
    fn the_key_decides_what_is_completed() {
        assert_eq!(
            at("      - name: x\n        concepts: [band_gap, |]\n"),
            Some(Slot::Id(SymbolKind::Concept))
        );
        assert_eq!(
            at("    required_groups:\n      - elec|\n"),
            Some(Slot::Id(SymbolKind::Group))
        );
        assert_eq!(
            at("required_groups:\n- a\n- |\n"),
            Some(Slot::Id(SymbolKind::Group))
        );
        assert_eq!(at("        unit: e|\n"), Some(Slot::Unit));
        assert_eq!(at("unit = \"e|\"\n"), Some(Slot::Unit));
        assert_eq!(at("source_type: |"), Some(Slot::SourceType));
        assert_eq!(at("  # schemarouter: allow(unit-|"), Some(Slot::Rule));
        assert_eq!(at("  # schemarouter: allow(SR302, |"), Some(Slot::Rule));
        assert_eq!(at("  # schemarouter: allow(x) -- |"), None);
        assert_eq!(at("  title: |"), None);
        assert_eq!(at("  # a comment unit: |"), None);
    }

    #[test]
    fn the_word_starts_after_a_separator() {
        assert_eq!(word_start("  concepts: [band_gap, ele"), 23);
        assert_eq!(word_start("unit: eV/at"), 6);
        assert_eq!(word_start("allow(unit-"), 6);
    }
}
