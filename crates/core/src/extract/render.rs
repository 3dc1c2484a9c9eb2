//! The reader context: per step a `[tool/endpoint]` header, the envelope fields, then each
//! record's values one per line (`field = value unit`, `= converted canonical-unit` when the
//! field is converted), identifiers first; then the source's attribution block (source type,
//! licence, attribution, provenance) and the fields whose source type or licence differ.

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
    let Some(v) = values.get(&f.name) else {
        return;
    };
    out.push_str(&f.name);
    out.push_str(" = ");
    value(v, out);
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
        value(c, out);
        out.push(' ');
        out.push_str(cu);
    }
    out.push('\n');
}

/// The reader context of projected steps.
pub fn context(steps: &[StepResult]) -> String {
    let mut out = String::new();
    for s in steps {
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
            line(&mut out, f, &s.envelope, &s.envelope_canonical);
        }
        let many = s.records.len() > 1;
        for (i, r) in s.records.iter().enumerate() {
            if many {
                let _ = writeln!(out, "record {}", i + 1);
            }
            for f in order.iter().filter(|f| f.scope == Scope::Record) {
                line(&mut out, f, &r.values, &r.canonical);
            }
        }
        attribution(s, &mut out);
    }
    out
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
