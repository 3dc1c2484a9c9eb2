//! # body-xml-not-xml (SR114)
//!
//! ## What it finds
//! An endpoint that declares `body_xml` (how a JSON object given for the request body is
//! written as XML) while its request body is not XML: no `body_type` (a JSON body), or a
//! `body_type` that is no XML media type (`application/xml`, `text/xml`, `*+xml`, as the
//! gateway reads one: by its essence, parameters and case aside).
//!
//! ## Why it matters for routing
//! The gateway writes an object as XML only for an XML body; for any other body `body_xml` is
//! never read, so the declaration says something the gateway does not do. Usually the
//! `body_type` was changed (or the XML type had a typo) and the XML mapping stayed behind:
//! either the body is XML and `body_type` says otherwise, and the provider receives JSON or
//! text it will not read, or the body is not XML and `body_xml` is stale.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: schemas/t.yaml
//! id: pets
//! title: Pet store
//! domain: pets
//! endpoints:
//!   - id: add_pet
//!     method: POST
//!     url: https://pets.example.org/pet
//!     body_type: application/json
//!     body_xml:
//!       - {path: "", name: pet}
//!     parameters:
//!       - {name: body, type: any, in: body}
//!     fields:
//!       - {name: id, type: integer}
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: schemas/t.yaml
//! id: pets
//! title: Pet store
//! domain: pets
//! endpoints:
//!   - id: add_pet
//!     method: POST
//!     url: https://pets.example.org/pet
//!     body_type: application/xml
//!     body_xml:
//!       - {path: "", name: pet}
//!     parameters:
//!       - {name: body, type: any, in: body}
//!     fields:
//!       - {name: id, type: integer}
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};

/// See the module documentation.
pub struct BodyXmlNotXml;

impl Rule for BodyXmlNotXml {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for t in &ctx.project.tools {
            for e in &t.endpoints {
                let Some(first) = e.body_xml.first() else {
                    continue;
                };
                let body = e.body_type.as_ref().map(|b| b.value.as_str());
                if body.is_some_and(crate::model::tool::xml_media) {
                    continue;
                }
                let (span, what) = match &e.body_type {
                    Some(b) => (
                        b.span,
                        format!("its `body_type` `{}` is no XML media type", b.value),
                    ),
                    None => (
                        first.span,
                        "it has no `body_type` (a JSON body)".to_string(),
                    ),
                };
                out.report(
                    t.file,
                    span,
                    format!(
                        "endpoint `{}/{}` declares `body_xml` but {what}, so `body_xml` is never used",
                        t.id.value, e.id.value
                    ),
                )
                .label("not XML")
                .fix("if the body is XML, set `body_type: application/xml` (or the provider's XML type); if it is not, remove `body_xml`");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    /// The findings of `check` on a project holding one endpoint with `body_xml` and the
    /// given `body_type` line.
    fn findings(body_type: &str) -> Vec<String> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("schemas")).unwrap();
        let tool = format!(
            "id: t\ntitle: T\ndomain: d\nendpoints:\n  - id: e\n    method: POST\n    url: https://x.org/e\n{body_type}    body_xml:\n      - {{path: \"\", name: pet}}\n    parameters:\n      - {{name: body, type: any, in: body}}\n    fields:\n      - {{name: id, type: integer}}\n"
        );
        std::fs::write(dir.path().join("schemas/t.yaml"), tool).unwrap();
        let c = crate::lint::check_path(dir.path()).unwrap();
        c.diagnostics
            .iter()
            .filter(|d| d.code == "SR114")
            .map(|d| d.message.clone())
            .collect()
    }

    /// XML types by their essence (any case, parameters, `text/xml`, `*+xml`) pass; a JSON,
    /// form or text type and no `body_type` at all are reported.
    #[test]
    fn body_xml_needs_an_xml_body() {
        for xml in [
            "application/xml",
            "Text/XML; charset=utf-8",
            "application/soap+xml",
        ] {
            assert_eq!(
                findings(&format!("    body_type: \"{xml}\"\n")),
                Vec::<String>::new(),
                "{xml}"
            );
        }
        for other in [
            "application/json",
            "application/x-www-form-urlencoded",
            "text/plain",
        ] {
            assert_eq!(
                findings(&format!("    body_type: {other}\n")),
                [format!(
                    "endpoint `t/e` declares `body_xml` but its `body_type` `{other}` is no XML media type, so `body_xml` is never used"
                )]
            );
        }
        assert_eq!(
            findings(""),
            [
                "endpoint `t/e` declares `body_xml` but it has no `body_type` (a JSON body), so `body_xml` is never used"
            ]
        );
    }
}
