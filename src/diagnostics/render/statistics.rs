//! The per-rule summary: how many findings each rule made, with the rule's name and level, most
//! frequent first (ties in code order). `check` prints it above its closing line in the human and
//! concise formats, and alone with `--statistics` (as ruff does).

use super::super::Diagnostic;
use std::collections::BTreeMap;

/// One row per rule that made findings: count, code, name and the level its findings have
/// (`mixed` when its findings differ in level), each ending in a line feed. Empty when
/// there are no findings.
pub fn table(diags: &[Diagnostic]) -> String {
    let mut by_code: BTreeMap<&str, (usize, &str, Option<&str>, bool)> = BTreeMap::new();
    for d in diags {
        let e = by_code.entry(d.code).or_insert((0, d.name, None, false));
        e.0 += 1;
        match e.2 {
            None => e.2 = Some(d.severity.as_str()),
            Some(s) if s != d.severity.as_str() => e.3 = true,
            _ => {}
        }
    }
    let mut rows: Vec<_> = by_code.into_iter().collect();
    // Most findings first; the BTreeMap gave code order, and the sort is stable.
    rows.sort_by_key(|r| std::cmp::Reverse(r.1.0));
    let width = rows
        .iter()
        .map(|(_, (n, ..))| n.to_string().len())
        .max()
        .unwrap_or(1);
    let name_width = rows
        .iter()
        .map(|(_, (_, name, ..))| name.len())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for (code, (n, name, level, mixed)) in rows {
        let level = if mixed { "mixed" } else { level.unwrap_or("") };
        out.push_str(&format!(
            "{n:>width$}  {code}  {name:<name_width$}  {level}\n"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::Severity;

    #[test]
    fn counts_per_rule_most_first() {
        let d = |code, name, sev| Diagnostic::new(code, name, sev, "m");
        let diags = vec![
            d("SR506", "unreachable-field", Severity::Warning),
            d("SR103", "dangling-reference", Severity::Error),
            d("SR506", "unreachable-field", Severity::Warning),
            d("SR304", "missing-unit", Severity::Warning),
            d("SR304", "missing-unit", Severity::Error),
        ];
        assert_eq!(
            table(&diags),
            "2  SR304  missing-unit        mixed\n2  SR506  unreachable-field   warning\n1  SR103  dangling-reference  error\n"
        );
        assert_eq!(table(&[]), "");
    }
}
