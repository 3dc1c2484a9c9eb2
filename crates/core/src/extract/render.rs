//! The reader context: per step a `[tool/endpoint]` header, the envelope fields, then each
//! record's values one per line (`field = value unit`, `= converted canonical-unit` when the
//! field is converted), identifiers first; then the source's attribution block (source type,
//! licence, attribution, provenance) and the fields whose source type or licence differ. The
//! compact form ([`context_compact`]) says the same with less structure (records as a table, the
//! attribution on one line); [`step`] renders one step in either form, its attribution replaced
//! by a reference when an earlier step of the same answer gave it.

use super::{FieldInfo, Scope, StepResult};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Render one value on one line: strings with their white space collapsed and control
/// characters escaped, numbers as sent, arrays as `[a, b]`, objects as compact JSON.
///
/// A provider's text is untrusted: ESC sequences, NUL and the bidirectional controls
/// (U+202A-U+202E, U+2066-U+2069) would recolour a terminal, end a C string or reorder what the
/// reader sees, so they are written as `\u{1b}`.
pub fn value(v: &Value, out: &mut String) {
    match v {
        Value::String(s) => {
            let mut first = true;
            for w in s.split_whitespace() {
                if !first {
                    out.push(' ');
                }
                for c in w.chars() {
                    if c.is_control()
                        || ('\u{202a}'..='\u{202e}').contains(&c)
                        || ('\u{2066}'..='\u{2069}').contains(&c)
                    {
                        let _ = write!(out, "\\u{{{:x}}}", c as u32);
                    } else {
                        out.push(c);
                    }
                }
                first = false;
            }
        }
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                value(x, out);
            }
            out.push(']');
        }
        Value::Object(_) => out.push_str(&v.to_string()),
        other => {
            let _ = write!(out, "{other}");
        }
    }
}

fn line(
    out: &mut String,
    f: &FieldInfo,
    values: &BTreeMap<String, Value>,
    canonical: &BTreeMap<String, Value>,
) {
    line_escaping(out, f, values, canonical, None);
}

/// [`line`] with `sep` (the compact form's pair separator, `;`) written `\;` inside values, so
/// that a value holding it cannot be read as two pairs.
fn line_escaping(
    out: &mut String,
    f: &FieldInfo,
    values: &BTreeMap<String, Value>,
    canonical: &BTreeMap<String, Value>,
    sep: Option<char>,
) {
    let Some(v) = values.get(&f.name) else {
        return;
    };
    let escaped = |v: &Value, out: &mut String| match sep {
        None => value(v, out),
        Some(c) => {
            let mut t = String::new();
            value(v, &mut t);
            out.push_str(&t.replace(c, &format!("\\{c}")));
        }
    };
    out.push_str(&f.name);
    out.push_str(" = ");
    escaped(v, out);
    // An empty list has no values to carry a unit (`= []`, not `= [] J = [] eV`).
    if v.as_array().is_some_and(Vec::is_empty) {
        out.push('\n');
        return;
    }
    if let Some(u) = f.unit.as_deref().filter(|u| *u != "1") {
        out.push(' ');
        out.push_str(u);
    }
    if let (Some(c), Some(cu)) = (canonical.get(&f.name), f.canonical_unit.as_deref()) {
        out.push_str(" = ");
        escaped(c, out);
        out.push(' ');
        out.push_str(cu);
    }
    out.push('\n');
}

/// The form of a step's reader context: [`context`]'s lines or [`context_compact`]'s table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// One `name = value unit` line per field and record, one line per attribution part.
    Full,
    /// One record on one line, several as a table, the attribution on one `source:` line.
    Compact,
}

impl Form {
    /// `full` or `compact`, as the gateway's accounting names the form.
    pub fn name(self) -> &'static str {
        match self {
            Form::Full => "full",
            Form::Compact => "compact",
        }
    }
}

/// The reader context of one step in `form`. `said` names the earlier step (`tool/endpoint`)
/// of the same answer whose context already gave this step's source attribution (the same
/// source type, licence, attribution and provenance, [`attribution_key`]): the attribution is
/// then that reference (`source = as [tool/endpoint]`, compact `source: as [tool/endpoint]`)
/// instead of written again. The fields whose source type or licence differ from the source's
/// are written either way.
pub fn step(s: &StepResult, form: Form, said: Option<&str>) -> String {
    let mut out = String::new();
    match form {
        Form::Full => full_step(s, said, &mut out),
        Form::Compact => compact_step(s, said, &mut out),
    }
    out
}

/// What the reader context says of a step's source (source type, licence with its
/// attribution, publisher and citation), one text per distinct attribution; `None` when the
/// source declares none of them. Two steps with the same key get the same attribution lines.
pub fn attribution_key(s: &StepResult) -> Option<String> {
    let src = &s.source;
    let mut parts: Vec<String> = Vec::new();
    parts.extend(src.source_type.iter().map(|t| t.to_string()));
    if let Some(l) = &src.licence {
        parts.push(match &l.attribution {
            Some(a) => format!("{} ({a})", l.spdx),
            None => l.spdx.clone(),
        });
    }
    if let Some(p) = &src.provenance {
        parts.extend(
            [p.publisher.as_deref(), p.citation.as_deref()]
                .into_iter()
                .flatten()
                .map(str::to_string),
        );
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// Letters and digits only, lower case: `CC BY 4.0` and `CC-BY-4.0` are one text.
fn squeezed(t: &str) -> String {
    t.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The compact form's `source:` line: [`attribution_key`]'s parts with each fact said once. A
/// part of the licence's attribution text (`, `-separated) that repeats the licence id (`CC BY
/// 4.0` beside `CC-BY-4.0`) or a provenance part (the publisher, written after it) is left out
/// of it, so the line keeps the source type, the licence, the attribution's own words, the
/// publisher and the citation, each once.
pub fn compact_source(s: &StepResult) -> String {
    let src = &s.source;
    let provenance: Vec<&str> = src
        .provenance
        .iter()
        .flat_map(|p| [p.publisher.as_deref(), p.citation.as_deref()])
        .flatten()
        .collect();
    let mut parts: Vec<String> = Vec::new();
    parts.extend(src.source_type.iter().map(|t| t.to_string()));
    if let Some(l) = &src.licence {
        let id = squeezed(&l.spdx);
        let own: Vec<&str> = l
            .attribution
            .iter()
            .flat_map(|a| a.split(", "))
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .filter(|a| squeezed(a) != id)
            .collect();
        // A provenance part the attribution text names is written once, as provenance.
        let own: Vec<&str> = own
            .into_iter()
            .filter(|a| !provenance.iter().any(|p| squeezed(p) == squeezed(a)))
            .collect();
        parts.push(match own.as_slice() {
            [] => l.spdx.clone(),
            own => format!("{} ({})", l.spdx, own.join(", ")),
        });
    }
    parts.extend(provenance.iter().map(|p| p.to_string()));
    parts.join("; ")
}

/// The reader context of projected steps.
pub fn context(steps: &[StepResult]) -> String {
    let mut out = String::new();
    for s in steps {
        full_step(s, None, &mut out);
    }
    out
}

fn full_step(s: &StepResult, said: Option<&str>, out: &mut String) {
    let _ = write!(out, "[{}/{}]", s.tool, s.endpoint);
    match s.records.len() {
        1 => out.push('\n'),
        0 => out.push_str(" no records\n"),
        n => {
            let _ = writeln!(out, " {n} records");
        }
    }
    // Identifiers first, then the other fields in plan order.
    let mut order: Vec<&FieldInfo> = s.fields.iter().filter(|f| f.identifier).collect();
    order.extend(s.fields.iter().filter(|f| !f.identifier));
    for f in order.iter().filter(|f| f.scope == Scope::Envelope) {
        line(out, f, &s.envelope, &s.envelope_canonical);
    }
    let many = s.records.len() > 1;
    for (i, r) in s.records.iter().enumerate() {
        if many {
            let _ = writeln!(out, "record {}", i + 1);
        }
        for f in order.iter().filter(|f| f.scope == Scope::Record) {
            line(out, f, &r.values, &r.canonical);
        }
    }
    match said {
        Some(at) if attribution_key(s).is_some() => {
            let _ = writeln!(out, "source = as [{at}]");
            field_attribution(s, out);
        }
        _ => attribution(s, out),
    }
}

/// The compact reader context: the same values, units and attribution as [`context`] with
/// less structure around them (the gateway delivers whichever of the two holds fewer tokens).
/// Per step: `[tool/endpoint]`, then one record as `name = value unit` pairs on one line
/// (`; `-separated, `;` inside a value written `\;`), several records as a table (a header line
/// `name unit | ...`, the unit once per column, then one line of values per record, `|` inside
/// a value written `\|`, an empty text `""`, an empty cell for a record without the value, a
/// converted value
/// `value (= converted)` under `name unit (= canonical-unit)`); envelope fields on their own
/// line; the attribution (source type, licence, attribution, provenance) on one `source:` line,
/// the fields whose source type or licence differ after it as in [`context`].
pub fn context_compact(steps: &[StepResult]) -> String {
    let mut out = String::new();
    for s in steps {
        compact_step(s, None, &mut out);
    }
    out
}

fn compact_step(s: &StepResult, said: Option<&str>, out: &mut String) {
    let _ = write!(out, "[{}/{}]", s.tool, s.endpoint);
    let mut order: Vec<&FieldInfo> = s.fields.iter().filter(|f| f.identifier).collect();
    order.extend(s.fields.iter().filter(|f| !f.identifier));
    let envelope: Vec<String> = order
        .iter()
        .filter(|f| f.scope == Scope::Envelope)
        .filter_map(|f| pair(f, &s.envelope, &s.envelope_canonical))
        .collect();
    let fields: Vec<&FieldInfo> = order
        .into_iter()
        .filter(|f| f.scope == Scope::Record)
        .collect();
    match s.records.as_slice() {
        [] => out.push_str(" no records\n"),
        [r] => {
            let pairs: Vec<String> = fields
                .iter()
                .filter_map(|f| pair(f, &r.values, &r.canonical))
                .collect();
            let _ = writeln!(out, " {}", pairs.join("; "));
        }
        records => {
            let _ = write!(out, " {} records:", records.len());
            // Columns: the fields at least one record has a value for.
            let cols: Vec<&FieldInfo> = fields
                .into_iter()
                .filter(|f| records.iter().any(|r| r.values.contains_key(&f.name)))
                .collect();
            let heads: Vec<String> = cols.iter().map(|f| head(f, records)).collect();
            let _ = writeln!(out, " {}", heads.join(" | "));
            for r in records {
                let cells: Vec<String> = cols
                    .iter()
                    .map(|f| cell(r.values.get(&f.name), r.canonical.get(&f.name)))
                    .collect();
                let _ = writeln!(out, "{}", cells.join(" | "));
            }
        }
    }
    if !envelope.is_empty() {
        let _ = writeln!(out, "{}", envelope.join("; "));
    }
    match (attribution_key(s), said) {
        (Some(_), Some(at)) => {
            let _ = writeln!(out, "source: as [{at}]");
        }
        (Some(_), None) => {
            let _ = writeln!(out, "source: {}", compact_source(s));
        }
        (None, _) => {}
    }
    field_attribution(s, out);
}

/// `name = value unit` (`= converted canonical-unit` after a converted value) of field `f`,
/// when `values` holds it.
fn pair(
    f: &FieldInfo,
    values: &BTreeMap<String, Value>,
    canonical: &BTreeMap<String, Value>,
) -> Option<String> {
    let mut out = String::new();
    line_escaping(&mut out, f, values, canonical, Some(';'));
    let t = out.trim_end_matches('\n');
    (!t.is_empty()).then(|| t.to_string())
}

/// A table column's head: the field's name, its unit, and the canonical unit its converted
/// values are in.
fn head(f: &FieldInfo, records: &[super::Record]) -> String {
    let mut h = f.name.clone();
    if let Some(u) = f.unit.as_deref().filter(|u| *u != "1") {
        h.push(' ');
        h.push_str(u);
    }
    if let Some(cu) = f.canonical_unit.as_deref()
        && records.iter().any(|r| r.canonical.contains_key(&f.name))
    {
        let _ = write!(h, " (= {cu})");
    }
    h
}

/// A table cell: the value on one line with `|` escaped, `(= converted)` after it; empty when
/// the record has no value.
fn cell(v: Option<&Value>, canonical: Option<&Value>) -> String {
    let Some(v) = v else {
        return String::new();
    };
    let mut out = String::new();
    value(v, &mut out);
    // An empty text is `""`, told apart from the empty cell of a record without the value.
    if out.is_empty() && v.is_string() {
        out.push_str("\"\"");
    }
    if let Some(c) = canonical {
        out.push_str(" (= ");
        value(c, &mut out);
        out.push(')');
    }
    out.replace('|', "\\|")
}

fn attribution(s: &StepResult, out: &mut String) {
    let src = &s.source;
    if let Some(st) = &src.source_type {
        let _ = writeln!(out, "source_type = {st}");
    }
    if let Some(l) = &src.licence {
        let _ = writeln!(out, "licence = {}", l.spdx);
        if let Some(a) = &l.attribution {
            let _ = writeln!(out, "attribution = {a}");
        }
    }
    if let Some(p) = &src.provenance {
        let parts: Vec<&str> = [p.publisher.as_deref(), p.citation.as_deref()]
            .into_iter()
            .flatten()
            .collect();
        if !parts.is_empty() {
            let _ = writeln!(out, "provenance = {}", parts.join("; "));
        }
    }
    field_attribution(s, out);
}

/// The fields of `s` whose source type or licence differ from the source's.
fn field_attribution(s: &StepResult, out: &mut String) {
    let src = &s.source;
    let tool_licence = src.licence.as_ref().map(|l| l.spdx.as_str());
    for f in s.fields.iter().filter(|f| f.values > 0) {
        if let Some(st) = f.source_type.as_deref()
            && Some(st) != src.source_type.as_deref()
        {
            let _ = writeln!(out, "{}.source_type = {st}", f.name);
        }
        if let Some(l) = f.licence.as_deref()
            && Some(l) != tool_licence
        {
            let _ = writeln!(out, "{}.licence = {l}", f.name);
        }
    }
}

#[cfg(test)]
mod value_tests {
    use super::*;

    #[test]
    fn provider_text_reaches_the_reader_on_one_line_without_controls() {
        let mut out = String::new();
        value(
            &Value::String("mp-2\u{202e}\u{0}\u{1b}[31mred\n next\tline".into()),
            &mut out,
        );
        assert_eq!(out, "mp-2\\u{202e}\\u{0}\\u{1b}[31mred next line");
    }
}
