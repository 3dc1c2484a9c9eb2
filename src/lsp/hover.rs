//! Hover text (Markdown): on a finding, its rule's documentation (the text of `docs/rules.md`);
//! on a response field, its concepts, unit with its SI factor, source type and licence; on a
//! concept, field group, intent, domain, tool or alias, a summary of its declaration.

use super::analysis::Snapshot;
use super::symbols::{Occurrence, SymbolKind};
use crate::lint::Checked;
use crate::model::{Licence, Project, ResponseField, Sp, Tool};
use crate::source::FileId;

/// The hover text at byte `offset` of `file`, or `None` when there is nothing to say.
pub fn hover(snapshot: &Snapshot, file: FileId, offset: usize) -> Option<String> {
    let checked = snapshot.checked.as_ref()?;
    let mut parts = findings(checked, file, offset);
    match snapshot.symbols.at(file, offset) {
        Some(o) if !(o.kind == SymbolKind::Field && o.definition) => {
            parts.push(symbol(snapshot, checked, o));
        }
        _ => {
            if let Some((tool, field)) = field_at(&checked.project, file, offset) {
                parts.push(field_summary(checked, tool, field));
            }
        }
    }
    (!parts.is_empty()).then(|| parts.join("\n\n---\n\n"))
}

/// The documentation of every rule with a finding at `offset`.
fn findings(checked: &Checked, file: FileId, offset: usize) -> Vec<String> {
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for d in &checked.diagnostics {
        let Some(p) = &d.primary else { continue };
        if p.file != file || offset < p.span.start as usize || offset > p.span.end as usize {
            continue;
        }
        out.push(format!("**{} `{}`**: {}", d.code, d.name, d.message));
        if seen.contains(&d.code) {
            continue;
        }
        seen.push(d.code);
        if let Some(entry) = crate::lint::registry::find(d.code) {
            out.push(entry.docs());
        }
    }
    out
}

/// The response field whose declaration holds `offset`.
fn field_at(p: &Project, file: FileId, offset: usize) -> Option<(&Tool, &Sp<ResponseField>)> {
    let inside = |s: crate::source::Span| s.start as usize <= offset && offset <= s.end as usize;
    p.tools.iter().filter(|t| t.file == file).find_map(|t| {
        t.endpoints
            .iter()
            .flat_map(|e| e.fields.iter())
            .find(|f| inside(f.span) || inside(f.name.span))
            .map(|f| (&t.item.value, f))
    })
}

fn licence_line(l: &Licence) -> String {
    let mut s = format!("`{}`", l.spdx.value);
    if !l.is_verified() {
        s.push_str(" (unverified)");
    }
    if let Some(a) = &l.attribution {
        s.push_str(&format!("; attribution: {}", a.value));
    }
    s
}

/// A unit with its SI factor: `eV/atom` = 1.602176634e-19 m^2·kg/(s^2·atom).
fn unit_line(checked: &Checked, unit: &str) -> String {
    match checked.units.parse(unit) {
        Ok(u) => {
            let dim = u
                .dim
                .plain_name()
                .map(|n| format!(", {}", n.replace('_', " ")))
                .unwrap_or_default();
            let factor = if (1e-3..1e6).contains(&u.factor.abs()) {
                format!("{}", u.factor)
            } else {
                format!("{:e}", u.factor)
            };
            if u.offset != 0.0 {
                // An offset scale: x °C = (x + 273.15) K.
                return format!(
                    "`{unit}`: x {unit} = (x + {}) × {factor} {} (an absolute temperature{dim})",
                    u.offset,
                    u.dim.si_unit()
                );
            }
            format!(
                "`{unit}`: 1 {unit} = {factor} {} (SI factor {factor}{dim})",
                u.dim.si_unit()
            )
        }
        Err(e) => format!("`{unit}` (not a known unit: {e})"),
    }
}

/// Summary of one response field.
pub fn field_summary(checked: &Checked, tool: &Tool, field: &ResponseField) -> String {
    let mut s = format!(
        "**response field** `{}` of tool `{}`: {}",
        field.name.value, tool.id.value, field.ty.value
    );
    if let Some(d) = &field.description {
        s.push_str(&format!("\n\n{}", d.value));
    }
    let concepts: Vec<String> = field
        .concepts
        .iter()
        .map(|c| match checked.index.concepts.get(&c.value) {
            Some(&i) => match &checked.project.concepts[i].description {
                Some(d) => format!("`{}` ({})", c.value, d.value),
                None => format!("`{}`", c.value),
            },
            None => format!("`{}` (not declared)", c.value),
        })
        .collect();
    let mut lines = Vec::new();
    if !concepts.is_empty() {
        lines.push(format!("- concepts: {}", concepts.join(", ")));
    }
    if !field.groups.is_empty() {
        let g: Vec<String> = field
            .groups
            .iter()
            .map(|g| format!("`{}`", g.value))
            .collect();
        lines.push(format!("- groups: {}", g.join(", ")));
    }
    if let Some(u) = &field.unit {
        lines.push(format!("- unit: {}", unit_line(checked, &u.value)));
    }
    if let Some(u) = &field.unit_as_published {
        lines.push(format!("- unit as published: `{}`", u.value));
    }
    match (&field.source_type, &tool.source_type) {
        (Some(s), _) => lines.push(format!("- source type: `{}`", s.value)),
        (None, Some(s)) => lines.push(format!("- source type: `{}` (the tool's)", s.value)),
        _ => {}
    }
    match (&field.licence, &tool.licence) {
        (Some(l), _) => lines.push(format!("- licence: {}", licence_line(l))),
        (None, Some(l)) => lines.push(format!("- licence: {} (the tool's)", licence_line(l))),
        _ => {}
    }
    if !lines.is_empty() {
        s.push_str("\n\n");
        s.push_str(&lines.join("\n"));
    }
    s
}

fn describe(d: Option<&Sp<String>>) -> String {
    d.map(|d| format!("\n\n{}", d.value)).unwrap_or_default()
}

fn list(label: &str, items: &[Sp<String>]) -> String {
    if items.is_empty() {
        return String::new();
    }
    let v: Vec<String> = items.iter().map(|i| format!("`{}`", i.value)).collect();
    format!("\n- {label}: {}", v.join(", "))
}

/// Summary of the declaration an occurrence names.
fn symbol(snapshot: &Snapshot, checked: &Checked, o: &Occurrence) -> String {
    let p = &checked.project;
    let ix = &checked.index;
    let head = format!("**{}** `{}`", o.kind.word(), o.key);
    let missing = format!("{head}: not declared in this project");
    match o.kind {
        SymbolKind::Concept => ix.concepts.get(&o.key).map_or(missing, |&i| {
            let c = &p.concepts[i];
            let mut s = format!(
                "{head} ({:?}){}",
                c.kind(),
                describe(c.description.as_ref())
            );
            if let Some(u) = &c.unit {
                s.push_str(&format!("\n- unit: {}", unit_line(checked, &u.value)));
            }
            if let Some(d) = &c.dimension {
                s.push_str(&format!("\n- dimension: `{}`", d.value));
            }
            let aliases: Vec<Sp<String>> = c.aliases.values().flatten().cloned().collect();
            s.push_str(&list("aliases", &aliases));
            let fields = ix.fields_by_concept.get(&o.key).map_or(0, Vec::len);
            let params = ix.params_by_concept.get(&o.key).map_or(0, Vec::len);
            s.push_str(&format!(
                "\n- carried by {fields} response fields, bound to {params} parameters"
            ));
            s
        }),
        SymbolKind::Group => ix.groups.get(&o.key).map_or(missing, |&i| {
            let g = &p.groups[i];
            let fields = ix.fields_by_group.get(&o.key).map_or(0, Vec::len);
            format!(
                "{head}{}{}\n- {fields} response fields",
                describe(g.description.as_ref()),
                list("core concepts", &g.core)
            )
        }),
        SymbolKind::Intent => ix.intents.get(&o.key).map_or(missing, |&i| {
            let it = &p.intents[i];
            let examples: Vec<Sp<String>> = it.examples.iter().take(3).cloned().collect();
            format!(
                "{head}\n\n{}{}{}{}{}",
                it.description.value,
                list("domains", &it.domains),
                list("required groups", &it.required_groups),
                list("entities", &it.entities),
                list("examples", &examples)
            )
        }),
        SymbolKind::Domain => ix.domains.get(&o.key).map_or(missing, |&i| {
            let tools = ix.tools_by_domain.get(&o.key).map_or(0, Vec::len);
            format!(
                "{head}{}\n- {tools} tools",
                describe(p.domains[i].description.as_ref())
            )
        }),
        SymbolKind::Tool => ix.tools.get(&o.key).map_or(missing, |&i| {
            let t = &p.tools[i];
            let mut s = format!(
                "{head}: {}{}",
                t.title.value,
                describe(t.description.as_ref())
            );
            s.push_str(&format!("\n- domain: `{}`", t.domain.value));
            if let Some(st) = &t.source_type {
                s.push_str(&format!("\n- source type: `{}`", st.value));
            }
            if let Some(l) = &t.licence {
                s.push_str(&format!("\n- licence: {}", licence_line(l)));
            }
            s.push_str(&format!("\n- {} endpoints", t.endpoints.len()));
            s
        }),
        SymbolKind::Field => ix.field_paths.get(&o.key).map_or(missing, |r| {
            let (tool, _, field) = crate::graph::index::resolve(p, *r);
            field_summary(checked, tool, field)
        }),
        SymbolKind::Alias => {
            let concepts: Vec<String> = crate::lint::alias_uses(p)
                .iter()
                .filter(|u| !u.implicit && crate::model::normalise_id(u.text) == o.key)
                .map(|u| match u.field {
                    Some(f) => format!("`{f}`"),
                    None => format!("`{}`", u.concept),
                })
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            let _ = snapshot;
            format!("{head} (normalised): leads to {}", concepts.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_hover_names_concepts_unit_factor_source_type_and_licence() {
        let loaded = crate::load::load_sources(
            None,
            &[(
                "schemas/t.yaml",
                "id: t\ntitle: T\ndomain: d\nsource_type: calculated\nlicence:\n  spdx: CC-BY-4.0\n  attribution: T\nendpoints:\n  - id: e\n    method: GET\n    url: https://x.org\n    fields:\n      - name: gap\n        type: number\n        unit: meV\n",
            )],
        );
        let checked = crate::lint::check_loaded(loaded);
        let tool = &checked.project.tools[0];
        let field = &tool.endpoints[0].fields[0];
        let s = field_summary(&checked, tool, field);
        assert_eq!(
            s,
            "**response field** `gap` of tool `t`: number\n\n- unit: `meV`: 1 meV = 1.602176634e-22 m^2·kg/s^2 (SI factor 1.602176634e-22, energy)\n- source type: `calculated` (the tool's)\n- licence: `CC-BY-4.0`; attribution: T (the tool's)"
        );
    }
}
