//! # invalid-licence (SR402)
//!
//! ## What it finds
//! A licence `spdx` that is not a valid SPDX expression (checked with the `spdx` crate against
//! the SPDX licence list) and not a `LicenseRef-<idstring>`. Imprecise names get the canonical
//! id as a suggestion (`CC BY 4.0` -> `CC-BY-4.0`).
//!
//! ## Why it matters for routing
//! Licence policy (may this answer be shown commercially?) is decided by machines reading the
//! SPDX id; free text cannot be checked.
//!
//! ## Fix
//! Safe when the expression is an SPDX id written in another case or with spaces for hyphens (`CC
//! BY 4.0` -> `CC-BY-4.0`: SPDX ids match case-insensitively); unsafe when the suggestion is a
//! guess from an imprecise name (`Apache 2` -> `Apache-2.0`). The value keeps its quoting.
//! Applying it to the invalid example gives the valid example.
//!
//! ## Invalid example
//! ```yaml
//! # file: schemas/t.yaml
//! id: oqmd
//! title: OQMD
//! domain: materials_property
//! licence:
//!   spdx: CC BY 4.0
//!   attribution: OQMD
//! endpoints: []
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: schemas/t.yaml
//! id: oqmd
//! title: OQMD
//! domain: materials_property
//! licence:
//!   spdx: CC-BY-4.0
//!   attribution: OQMD
//! endpoints: []
//! ```

use crate::diagnostics::fix::{Edit, Fix};
use crate::lint::fix::scalar_replacement;
use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::model::{Licence, Sp};
use crate::source::FileId;

/// See the module documentation.
pub struct InvalidLicence;

/// Check an SPDX expression; returns a message and help when invalid.
pub fn check_spdx(expr: &str) -> Option<(String, String)> {
    let trimmed = expr.trim();
    if let Some(term) = trimmed
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .find(|t| t.starts_with("LicenseRef-") && t.len() == "LicenseRef-".len())
    {
        return Some((
            format!("`{term}` has no name after `LicenseRef-`"),
            "name the terms, e.g. `LicenseRef-provider-terms`, and give the wording and URL"
                .to_string(),
        ));
    }
    if matches!(trimmed, "NOASSERTION" | "NONE") {
        return Some((
            format!("`{trimmed}` says nothing about the terms"),
            "declare `LicenseRef-<name>` with the provider's wording and `verified: false` until checked".to_string(),
        ));
    }
    match spdx::Expression::parse(expr) {
        Ok(_) => None,
        Err(e) => {
            let suggestion = spdx::Expression::canonicalize(expr)
                .ok()
                .flatten()
                .or_else(|| {
                    spdx::imprecise_license_id(expr)
                        .filter(|(_, len)| *len == expr.len())
                        .map(|(id, _)| id.name.to_string())
                })
                .or_else(|| spelled_id(trimmed))
                .filter(|s| s.trim() != trimmed && spdx::Expression::parse(s).is_ok());
            let help = match suggestion {
                Some(s) => format!("did you mean `{s}`?"),
                None => "use an SPDX identifier (https://spdx.org/licenses/) or `LicenseRef-<name>` with the provider's wording".to_string(),
            };
            Some((
                format!("`{expr}` is not a valid SPDX expression: {}", e.reason),
                help,
            ))
        }
    }
}

/// An SPDX id written with spaces or in another case (`CC BY 4.0`, `cc-by-4.0`).
fn spelled_id(text: &str) -> Option<String> {
    let candidate: String = text.split_whitespace().collect::<Vec<_>>().join("-");
    spdx::identifiers::LICENSES
        .iter()
        .find(|l| l.name.eq_ignore_ascii_case(&candidate))
        .map(|l| l.name.to_string())
}

/// The fix of an invalid expression whose help suggests `suggestion`: safe when the two differ
/// only in case and in spaces written for hyphens (`cc by 4.0` for `CC-BY-4.0`: the same
/// identifier), unsafe otherwise (`Apache 2` for `Apache-2.0` is a guess).
fn suggestion_fix(text: &str, file: FileId, l: &Sp<Licence>, help: &str) -> Option<Fix> {
    let suggestion = help.strip_prefix("did you mean `")?.strip_suffix("`?")?;
    let new = scalar_replacement(text, l.spdx.span, &l.spdx.value, suggestion)?;
    let same = |s: &str| s.trim().to_ascii_lowercase().replace([' ', '_'], "-");
    let title = format!("write `{suggestion}`");
    let edits = vec![Edit::replace(file, l.spdx.span, new)];
    Some(if same(&l.spdx.value) == same(suggestion) {
        Fix::safe(title, edits)
    } else {
        Fix::unsafe_edit(title, edits)
    })
}

fn check(ctx: &Context, file: FileId, l: &Sp<Licence>, whose: &str, out: &mut Sink) {
    if let Some((msg, help)) = check_spdx(&l.spdx.value) {
        let fix = suggestion_fix(&ctx.project.sources.get(file).text, file, l, &help);
        let d = out
            .report(file, l.spdx.span, format!("{whose}: {msg}"))
            .label("invalid licence expression")
            .fix(help);
        if let Some(fix) = fix {
            d.autofix(fix);
        }
    }
}

impl Rule for InvalidLicence {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for t in &ctx.project.tools {
            if let Some(l) = &t.licence {
                check(ctx, t.file, l, &format!("tool `{}`", t.id.value), out);
            }
            for e in &t.endpoints {
                for f in &e.fields {
                    if let Some(l) = &f.licence {
                        check(ctx, t.file, l, &format!("field `{}`", f.name.value), out);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_and_edge_cases() {
        let (_, help) = check_spdx("CC BY 4.0").unwrap();
        assert_eq!(help, "did you mean `CC-BY-4.0`?");
        assert!(check_spdx("CC-BY-4.0").is_none());
        assert!(check_spdx("LicenseRef-aflow-terms").is_none());
        assert!(check_spdx("MIT OR Apache-2.0").is_none());
        assert_eq!(
            check_spdx("LicenseRef-").unwrap().0,
            "`LicenseRef-` has no name after `LicenseRef-`"
        );
        assert_eq!(
            check_spdx("NOASSERTION").unwrap().0,
            "`NOASSERTION` says nothing about the terms"
        );
        let (_, help) = check_spdx("MIT AND").unwrap();
        assert!(!help.contains("MIT AND"), "{help}");
    }
}
