//! # invalid-url (SR108)
//!
//! ## What it finds
//! An endpoint `url` that is not an address a client can call: empty, with whitespace, without a
//! scheme, with a scheme other than `http`/`https` (any scheme is allowed for `method: LOCAL`
//! stores, but never `javascript:` or `data:`; `method: MCP` endpoints use `mcp://<server>/<tool>`
//! and name their MCP tool in `mcp_tool`), or with a `{placeholder}` that names no parameter of
//! the endpoint, or names one declared for another place (`in: query`, `header`, `cookie`,
//! `body`; a parameter with `in: path` or without `in` fills it). A URL may start with a placeholder for its base URL (`{base_url}/pets`) when the
//! endpoint declares that parameter (imported documents that publish no absolute server).
//!
//! ## Why it matters for routing
//! Plans must be executable: the router fills path placeholders from bound parameters, and a
//! placeholder no parameter fills leaves a URL that cannot be called.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: schemas/t.yaml
//! id: pubchem
//! title: PubChem
//! domain: chemistry
//! endpoints:
//!   - id: compound_property
//!     method: GET
//!     url: https://pubchem.ncbi.nlm.nih.gov/rest/pug/compound/{namespace}/{identifer}/property
//!     parameters:
//!       - name: namespace
//!         type: string
//!       - name: identifier
//!         type: string
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: schemas/t.yaml
//! id: pubchem
//! title: PubChem
//! domain: chemistry
//! endpoints:
//!   - id: compound_property
//!     method: GET
//!     url: https://pubchem.ncbi.nlm.nih.gov/rest/pug/compound/{namespace}/{identifier}/property
//!     parameters:
//!       - name: namespace
//!         type: string
//!       - name: identifier
//!         type: string
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink, inner_span};
use crate::model::value::did_you_mean;
use crate::model::{HttpMethod, ParamLocation};

/// See the module documentation.
pub struct InvalidUrl;

impl Rule for InvalidUrl {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for t in &ctx.project.tools {
            for e in &t.endpoints {
                let url = &e.url.value;
                let scheme = url.split_once("://").map(|(s, _)| s.to_ascii_lowercase());
                let local = e.method.value == HttpMethod::Local;
                let mcp = e.method.value == HttpMethod::Mcp;
                let base_placeholder = url
                    .strip_prefix('{')
                    .and_then(|r| r.split_once('}'))
                    .is_some_and(|(name, _)| e.parameters.iter().any(|p| p.name.value == name));
                let problem = if url.trim().is_empty() {
                    Some("is empty".to_string())
                } else if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
                    Some("contains whitespace".to_string())
                } else {
                    match &scheme {
                        _ if mcp && scheme.as_deref() != Some("mcp") => Some(
                            "is not an MCP address; an MCP endpoint's url is `mcp://<server>/<tool>`"
                                .to_string(),
                        ),
                        _ if mcp && e.mcp_tool.is_none() => Some(
                            "belongs to an MCP endpoint without `mcp_tool` (the name sent in `tools/call`)"
                                .to_string(),
                        ),
                        Some(s) if s == "mcp" && !mcp => Some(
                            "uses the `mcp` scheme, which only `method: MCP` endpoints can call".to_string(),
                        ),
                        _ if mcp => None,
                        None if base_placeholder => None,
                        None => Some("has no scheme (`https://...`)".to_string()),
                        Some(s)
                            if s.is_empty()
                                || !s
                                    .chars()
                                    .all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c)) =>
                        {
                            Some(format!("has an invalid scheme `{s}`"))
                        }
                        Some(s) if s == "javascript" || s == "data" => {
                            Some(format!("uses the `{s}:` scheme"))
                        }
                        Some(s) if !local && s != "http" && s != "https" => Some(format!(
                            "uses the `{s}` scheme; only http and https are callable (use `method: LOCAL` for internal stores)"
                        )),
                        _ => None,
                    }
                };
                if let Some(p) = problem {
                    out.report(t.file, e.url.span, format!("url of endpoint `{}/{}` {p}", t.id.value, e.id.value))
                        .label("not a callable address")
                        .fix("write the endpoint's full address, e.g. `https://api.example.org/v1/items`");
                    continue;
                }
                // Path placeholders must name parameters of the endpoint.
                let mut rest = url.as_str();
                let mut offset = 0;
                while let Some(open) = rest.find('{') {
                    let Some(close) = rest[open..].find('}') else {
                        break;
                    };
                    let name = &rest[open + 1..open + close];
                    let filler = e.parameters.iter().find(|x| x.name.value == name);
                    // A parameter declared for another place (`in: query`) does not fill it.
                    if let Some(x) = filler
                        && let Some(l) = &x.location
                        && l.value != ParamLocation::Path
                    {
                        let span =
                            inner_span(ctx.project, t.file, e.url.span, offset + open, close + 1);
                        let place = format!("{:?}", l.value).to_lowercase();
                        out.report(
                            t.file,
                            span,
                            format!(
                                "url placeholder `{{{name}}}` of `{}/{}` names a parameter sent `in: {place}`, not in the path",
                                t.id.value, e.id.value
                            ),
                        )
                        .label("not a path parameter")
                        .fix(format!(
                            "declare `{name}` with `in: path` (give the {place} parameter another name if the endpoint takes both)"
                        ));
                    } else if filler.is_none() {
                        let span =
                            inner_span(ctx.project, t.file, e.url.span, offset + open, close + 1);
                        let help = match did_you_mean(
                            name,
                            e.parameters.iter().map(|x| x.name.value.as_str()),
                        ) {
                            Some(c) => format!("did you mean `{{{c}}}`?"),
                            None => format!("declare a parameter `{name}` on this endpoint"),
                        };
                        out.report(
                            t.file,
                            span,
                            format!(
                                "url placeholder `{{{name}}}` names no parameter of `{}/{}`",
                                t.id.value, e.id.value
                            ),
                        )
                        .label("no such parameter")
                        .fix(help);
                    }
                    offset += open + close + 1;
                    rest = &rest[open + close + 1..];
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    /// The findings of `check` on a project holding one tool file.
    fn findings(tool: &str) -> Vec<String> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("schemas")).unwrap();
        std::fs::write(dir.path().join("schemas/t.yaml"), tool).unwrap();
        let c = crate::lint::check_path(dir.path()).unwrap();
        c.diagnostics
            .iter()
            .filter(|d| d.code == "SR108")
            .map(|d| d.message.clone())
            .collect()
    }

    #[test]
    fn a_placeholder_needs_a_path_parameter() {
        let tool = |place: &str| {
            format!(
                "id: t\ntitle: T\ndomain: d\nendpoints:\n  - id: e\n    method: GET\n    url: https://x.org/items/{{id}}\n    parameters:\n      - name: id\n        type: string\n{place}"
            )
        };
        assert_eq!(
            findings(&tool("        in: query\n")),
            ["url placeholder `{id}` of `t/e` names a parameter sent `in: query`, not in the path"]
        );
        assert_eq!(
            findings(&tool("        in: body\n")),
            ["url placeholder `{id}` of `t/e` names a parameter sent `in: body`, not in the path"]
        );
        assert!(findings(&tool("        in: path\n")).is_empty());
        assert!(findings(&tool("")).is_empty());
    }
}
