//! Importers: the tool catalogs people already have, turned into declaration files.
//!
//! - [`openapi`]: OpenAPI 3.0 / 3.1 and Swagger 2.0 documents (JSON or YAML);
//! - [`mcp`]: MCP `tools/list` results, saved to a file or read from a live server
//!   ([`mcp_client`], stdio or streamable HTTP);
//! - [`openai`]: OpenAI / Anthropic function-tool lists.
//!
//! Each importer maps its source into a [`Tool`] (through the shared JSON-Schema mapping in
//! [`schema`], with `$ref`s resolved by [`refs`]); [`merge`] folds it into an existing
//! declaration file (the source owns endpoints, parameters, fields, types and descriptions; a
//! person owns concepts, units, groups, source type, licence wording and verification, aliases,
//! priority and suppression comments); [`emit`] writes the file text; [`mod@run`] writes every file
//! of an import or none. Findings of the importers use the codes in [`codes`] (the SR7xx family
//! of the rule table). The full mapping is documented in `docs/import.md`.

pub mod doc;
pub mod emit;
pub mod example;
pub mod mcp;
pub mod mcp_client;
pub mod merge;
pub mod naming;
pub mod openai;
pub mod openapi;
pub mod path_template;
pub mod records;
pub mod refs;
pub mod run;
pub mod schema;

use crate::diagnostics::{Diagnostic, Severity};
use crate::model::{Licence, ResponseField, Sp, Tool, ValueType};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;

pub use run::{ImportError, ImportRequest, Outcome, SourceSpec, run};

/// Codes and names of the importers' findings: the one table of codes
/// (`codes::REMOTE_REFERENCE`, ...).
pub use crate::diagnostics::codes;

/// What an importer was asked for (the command-line options that shape the mapping).
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `--tool`: the tool id (default: from the source's title).
    pub tool: Option<String>,
    /// `--domain`: the domain id (default: the tool id).
    pub domain: Option<String>,
    /// `--only` (may be given more than once): import only endpoints whose id, source name or
    /// path matches one of the globs.
    pub only: Option<OnlyGlobs>,
    /// The source file's stem (`petstore` for `petstore.yaml`), the fallback tool id.
    pub source_stem: String,
    /// `--ref-root`: the folder file `$ref`s may point into (default: the git work tree
    /// holding the document, else its folder). A reference that leads out of it is refused.
    pub ref_root: Option<PathBuf>,
}

/// The globs of `--only`, given once or more: a name passes when any of them matches.
#[derive(Clone, Debug)]
pub struct OnlyGlobs {
    set: globset::GlobSet,
    text: String,
}

impl OnlyGlobs {
    /// Compile the globs (at least one).
    ///
    /// Errors: the first glob that does not parse, with globset's reason.
    pub fn new(globs: &[String]) -> Result<OnlyGlobs, (String, globset::Error)> {
        let mut b = globset::GlobSetBuilder::new();
        for g in globs {
            b.add(globset::Glob::new(g).map_err(|e| (g.clone(), e))?);
        }
        let set = b.build().map_err(|e| (globs.join(" "), e))?;
        Ok(OnlyGlobs {
            set,
            text: globs.join(" --only "),
        })
    }

    /// Whether one of the globs matches `name`.
    pub fn is_match(&self, name: &str) -> bool {
        self.set.is_match(name)
    }

    /// The globs as written after the first `--only` (`a --only b`), for messages.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl Options {
    /// Whether an endpoint known by these names passes `--only`.
    pub fn selects(&self, names: &[&str]) -> bool {
        match &self.only {
            None => true,
            Some(g) => names.iter().any(|n| !n.is_empty() && g.is_match(n)),
        }
    }

    /// The domain of an imported tool.
    pub fn domain_for(&self, tool_id: &str) -> String {
        self.domain.clone().unwrap_or_else(|| tool_id.to_string())
    }
}

/// The result of mapping one source into one tool.
#[derive(Debug)]
pub struct Imported {
    /// The tool, unless the source was refused.
    pub tool: Option<Tool>,
    /// What the source is (`OpenAPI 3.0.3`, `MCP tools/list`).
    pub source_kind: String,
    /// The source's own version (`info.version`, `serverInfo.version`).
    pub source_version: Option<String>,
    /// Findings (an error refuses the whole import).
    pub findings: Vec<Diagnostic>,
    /// The id an earlier version of the importer gave this source (from its title alone,
    /// before ids came from the provider), when it differs from the tool's: a re-import finds
    /// a file written then under it.
    pub previous_id: Option<String>,
}

impl Imported {
    /// A refused source.
    pub fn failed(findings: Vec<Diagnostic>) -> Imported {
        Imported {
            tool: None,
            source_kind: String::new(),
            source_version: None,
            findings,
            previous_id: None,
        }
    }
}

pub use crate::model::identifier::snake;

/// A unique endpoint id: the `operationId` (or `method` + path) in snake case, with `_2`, `_3`,
/// ... when two operations would share one.
pub fn endpoint_id(
    op_id: Option<&str>,
    method: &str,
    path: &str,
    used: &mut BTreeSet<String>,
) -> String {
    let base = match op_id.map(snake).filter(|s| !s.is_empty()) {
        Some(s) => s,
        None => {
            let p = snake(path);
            if p.is_empty() {
                method.to_string()
            } else {
                format!("{method}_{p}")
            }
        }
    };
    unique(base, used)
}

/// Whether a path segment is a version (`v1`, `1.0`, `2`, `V3_1`): left out of ids made from
/// a path when the operationId [looks generated](generated_operation_id).
pub fn version_segment(segment: &str) -> bool {
    let s = segment.trim_matches(['{', '}']);
    let s = s.strip_prefix(['v', 'V']).unwrap_or(s);
    !s.is_empty()
        && s.split(['.', '_', '-'])
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether an operationId looks machine-generated, so that an id from the method and path
/// reads better: at least two of (a) it holds the words of a version segment of the path
/// (`1_0`, `v2`), (b) it ends with the method (`..._get`, `chromeFromUrlPost`), (c) it repeats
/// the path's words in order and has more words besides (FastAPI's
/// `resource__1.0_search_setlists_getSetlists_GET` for `GET /1.0/search/setlists`). A short
/// readable operationId (`getArtist`, `CreateClusterV2`, `listPets`) is kept.
pub fn generated_operation_id(op_id: &str, method: &str, route: &str) -> bool {
    let w: Vec<String> = snake(op_id).split('_').map(str::to_string).collect();
    let segments: Vec<&str> = route.split('/').filter(|s| !s.is_empty()).collect();
    let version = segments.iter().any(|s| {
        version_segment(s) && {
            let vw = snake(s);
            let vw: Vec<&str> = vw.split('_').collect();
            w.windows(vw.len()).any(|win| win.iter().eq(vw.iter()))
        }
    });
    let path: Vec<String> = segments
        .iter()
        .filter(|s| !version_segment(s))
        .flat_map(|s| snake(s).split('_').map(str::to_string).collect::<Vec<_>>())
        .filter(|x| !x.is_empty())
        .collect();
    let ends_with_method = w.len() > 1 && w.last().is_some_and(|l| l == method);
    let mut rest = w.iter();
    let repeats_path =
        path.len() >= 2 && w.len() > path.len() + 1 && path.iter().all(|p| rest.any(|x| x == p));
    [version, ends_with_method, repeats_path]
        .iter()
        .filter(|b| **b)
        .count()
        >= 2
}

/// A path without its version segments (`/1.0/artist/{mbid}` -> `/artist/{mbid}`).
pub fn path_without_versions(route: &str) -> String {
    route
        .split('/')
        .filter(|s| !version_segment(s))
        .collect::<Vec<_>>()
        .join("/")
}

/// `base`, or `base_2`, `base_3`, ... whichever is not yet in `used`; recorded as used.
pub fn unique(base: String, used: &mut BTreeSet<String>) -> String {
    let mut id = base.clone();
    let mut n = 2;
    while used.contains(&id) {
        id = format!("{base}_{n}");
        n += 1;
    }
    used.insert(id.clone());
    id
}

/// The tool id for a source titled `title`: its snake case, or the file stem.
pub fn tool_id(title: &str, stem: &str) -> String {
    let t = snake(title);
    if t.is_empty() || t.len() > 60 {
        let s = snake(stem);
        if s.is_empty() {
            "imported".to_string()
        } else {
            s
        }
    } else {
        t
    }
}

/// The first paragraph of a description, at most about 400 characters (cut at a sentence or
/// word boundary), for tool descriptions (which are prose about the tool, not its reference).
pub fn first_paragraph(s: &str) -> Option<String> {
    let p = s
        .split("\n\n")
        .map(str::trim)
        .find(|p| !p.is_empty() && !p.starts_with('#'))?;
    let p: String = p.split_whitespace().collect::<Vec<_>>().join(" ");
    if p.chars().count() <= 400 {
        return Some(p);
    }
    let cut: String = p.chars().take(400).collect();
    let at = cut
        .rfind(". ")
        .map(|i| i + 1)
        .or_else(|| cut.rfind(' '))
        .unwrap_or(cut.len());
    Some(format!("{}…", cut[..at].trim_end()))
}

/// An operation's description: its `summary`, else its `description`, trimmed.
pub fn summary_text(op: &Value) -> Option<String> {
    ["summary", "description"]
        .iter()
        .filter_map(|k| op.get(*k).and_then(Value::as_str))
        .map(str::trim)
        .find(|s| !s.is_empty())
        .map(str::to_string)
}

/// The one field of an endpoint whose response has no schema.
pub fn result_field(description: &str) -> Sp<ResponseField> {
    Sp::synthetic(ResponseField {
        description: Some(Sp::synthetic(description.to_string())),
        ..ResponseField::new("result", ValueType::Any)
    })
}

/// A licence from a source's licence name (or SPDX identifier) and URL: the SPDX expression
/// when the `spdx` crate recognises it (exactly, or as an imprecise spelling of one id), else
/// `LicenseRef-<name>`. Always `verified: false`: the licence of an API description is not
/// necessarily the licence of the data it serves, which only a person can confirm.
pub fn licence_from(name: Option<&str>, url: Option<&str>, place: &str) -> Option<Licence> {
    let name = name.map(str::trim).filter(|s| !s.is_empty());
    let url = url.map(str::trim).filter(|s| !s.is_empty());
    if name.is_none() && url.is_none() {
        return None;
    }
    let spdx = match name {
        Some(n) => spdx_of(n).unwrap_or_else(|| licence_ref(n)),
        None => "LicenseRef-unnamed".to_string(),
    };
    Some(Licence {
        spdx: Sp::synthetic(spdx),
        wording: Some(Sp::synthetic(match name {
            Some(n) => {
                format!("As published in {place}: \"{n}\". Not yet confirmed to cover the data.")
            }
            None => format!("{place} gives only a URL. Not yet confirmed to cover the data."),
        })),
        url: url.map(|u| Sp::synthetic(u.to_string())),
        attribution: None,
        verified: Some(Sp::synthetic(false)),
    })
}

/// The SPDX expression a licence name stands for, if the `spdx` crate recognises it.
pub fn spdx_of(name: &str) -> Option<String> {
    // Only what the licence rules accept: a valid, non-deprecated expression (`LGPL-2.1` is
    // deprecated; its canonical form is `LGPL-2.1-only`).
    let candidate = spdx_candidate(name)?;
    if spdx::Expression::parse(&candidate).is_ok() {
        return Some(candidate);
    }
    match spdx::Expression::canonicalize(&candidate) {
        Ok(Some(c)) if spdx::Expression::parse(&c).is_ok() => Some(c),
        _ => None,
    }
}

fn spdx_candidate(name: &str) -> Option<String> {
    if spdx::Expression::parse(name).is_ok() {
        return Some(name.to_string());
    }
    // `CC BY 4.0`, `CC-BY 4.0`: the id with spaces for dashes.
    let dashed: String = name.split_whitespace().collect::<Vec<_>>().join("-");
    if let Some(id) = spdx::license_id(&dashed) {
        return Some(id.name.to_string());
    }
    if let Ok(Some(c)) = spdx::Expression::canonicalize(name)
        && spdx::Expression::parse(&c).is_ok()
    {
        return Some(c);
    }
    if let Some((id, len)) = spdx::imprecise_license_id(name)
        && len >= name.trim().len()
    {
        return Some(id.name.to_string());
    }
    // `MIT License`, `Apache License 2.0`, `BSD licence`.
    let lower = name.trim().to_ascii_lowercase();
    for word in [" license", " licence"] {
        if let Some(i) = lower.find(word) {
            let shorter = format!("{}{}", &name.trim()[..i], &name.trim()[i + word.len()..]);
            if !shorter.trim().is_empty() && shorter.trim() != name.trim() {
                return spdx_candidate(shorter.trim());
            }
        }
    }
    None
}

/// `LicenseRef-` and the name with every character outside `[A-Za-z0-9.-]` turned into `-`.
pub fn licence_ref(name: &str) -> String {
    let mut s = String::from("LicenseRef-");
    let mut dash = false;
    for c in name.trim().chars() {
        if c.is_ascii_alphanumeric() || c == '.' {
            s.push(c);
            dash = false;
        } else if !dash {
            s.push('-');
            dash = true;
        }
    }
    let t = s.trim_end_matches('-').to_string();
    if t == "LicenseRef" {
        "LicenseRef-unnamed".into()
    } else {
        t
    }
}

/// How a tool list's dialect names its tools in messages.
pub(crate) struct ToolNaming {
    /// "an MCP tool", "a function tool".
    pub a_tool: &'static str,
    /// "MCP tool", "function tool".
    pub tool: &'static str,
    /// Help for a tool without a string `name`.
    pub name_help: &'static str,
    /// Help for a name listed twice.
    pub repeat_help: &'static str,
    /// The endpoint id of a tool whose name has no letter or digit, before its position in the
    /// list (`tool` gives `tool_3`).
    pub fallback_id: &'static str,
    /// What still calls such a tool by its name (for the finding's help).
    pub called_by: &'static str,
}

/// The `name` of one tool of a tool list, or `None` after reporting that it has none (or one
/// that is not a string) or that it repeats a name in `seen`.
pub(crate) fn list_tool_name<'v>(
    m: &mut schema::Mapper<'_>,
    t: &refs::Loc<'v>,
    naming: &ToolNaming,
    seen: &mut BTreeSet<String>,
) -> Option<&'v str> {
    let Some(name) = t
        .value
        .get("name")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
    else {
        let message = match t.value.get("name") {
            Some(v) if !v.is_string() => format!(
                "the `name` of {} must be a string, not {}",
                naming.a_tool,
                kind_of(v)
            ),
            _ => format!("{} without a `name`", naming.a_tool),
        };
        m.report(
            codes::UNSUPPORTED_SOURCE,
            Severity::Error,
            t,
            message,
            naming.name_help,
        );
        return None;
    };
    if !seen.insert(name.to_string()) {
        m.report(
            codes::UNSUPPORTED_NAME,
            Severity::Warning,
            t,
            format!(
                "{} `{name}` is listed twice; the second is not imported",
                naming.tool
            ),
            naming.repeat_help,
        );
        return None;
    }
    Some(name)
}

/// The unique endpoint id of the tool named `name`, the `position`th (from 1) of its list: the
/// name in snake case, or, when that is empty (`!!!`, `___`: no letter or digit), the dialect's
/// fallback and the position (`tool_3`), reported (SR706, a warning).
pub(crate) fn list_endpoint_id(
    m: &mut schema::Mapper<'_>,
    t: &refs::Loc<'_>,
    naming: &ToolNaming,
    name: &str,
    position: usize,
    used: &mut BTreeSet<String>,
) -> String {
    let base = snake(name);
    if !base.is_empty() {
        let id = unique(base.clone(), used);
        if id != base {
            m.report(
                codes::UNSUPPORTED_NAME,
                Severity::Warning,
                t,
                format!(
                    "{} `{name}` gives endpoint id `{base}`, which an earlier {} in the list already has; imported as endpoint `{id}`",
                    naming.tool, naming.tool
                ),
                format!(
                    "endpoint ids are the name's letters and digits in snake case, so names that differ only in case or punctuation meet; {} still uses the name as written, and you may rename the endpoint id in the declaration",
                    naming.called_by
                ),
            );
        }
        return id;
    }
    let id = unique(format!("{}_{position}", naming.fallback_id), used);
    m.report(
        codes::UNSUPPORTED_NAME,
        Severity::Warning,
        t,
        format!(
            "{} `{name}` has no letter or digit to make an endpoint id of; imported as endpoint `{id}`",
            naming.tool
        ),
        format!(
            "endpoint ids are the name's letters and digits in snake case; {} still uses the name as written",
            naming.called_by
        ),
    );
    id
}

/// What a JSON value is, for messages.
pub(crate) fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a map",
    }
}

/// What is wrong with a tool's argument schema (`inputSchema`, `parameters`, `input_schema`),
/// said after "`<key>` of tool `<name>`": an error when it is no JSON Schema object at all, a
/// warning when it is an object schema of another type (whose arguments are not imported).
pub(crate) fn argument_schema_fault(v: &Value) -> Option<(Severity, String)> {
    match v {
        Value::Object(o) => match o.get("type").and_then(Value::as_str) {
            Some(t) if t != "object" => Some((
                Severity::Warning,
                format!("is a `{t}` schema, not an object schema: no parameters are imported"),
            )),
            _ => None,
        },
        other => Some((
            Severity::Error,
            format!("is {}, not a JSON Schema object", kind_of(other)),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_ids() {
        assert_eq!(snake("getPetById"), "get_pet_by_id");
        assert_eq!(snake("HTTPServerList"), "http_server_list");
        assert_eq!(snake("/pets/{petId}/photos"), "pets_pet_id_photos");
        assert_eq!(snake("list-repos.v2"), "list_repos_v2");
        assert_eq!(snake("Ünïcode Tool"), "ünïcode_tool");
    }

    #[test]
    fn snake_case_ids_hold_only_letters_digits_and_underscores() {
        // `İ` lower-cases to `i` and U+0307 (a combining dot), which no id may hold.
        assert_eq!(snake("İlListele"), "il_listele");
        // Decomposed and composed spellings give the same id.
        assert_eq!(snake("cafe\u{301}s"), "cafés");
        assert_eq!(snake("café"), "café");
        // A mark with nothing to combine with is dropped.
        assert_eq!(snake("\u{301}x"), "x");
        // The virama (a mark, neither letter nor digit) goes; vowel signs are letters.
        assert_eq!(snake("नमस्ते"), "नमसते");
        for s in ["!!!", "___", "???", "\u{301}"] {
            assert_eq!(snake(s), "", "{s}");
        }
    }

    #[test]
    fn camel_case_and_acronyms() {
        assert_eq!(snake("getPetById"), "get_pet_by_id");
        assert_eq!(snake("HTTPServer"), "http_server");
        assert_eq!(snake("Yodlee Core APIs"), "yodlee_core_apis");
        assert_eq!(snake("getAPIsByName"), "get_apis_by_name");
        assert_eq!(snake("listURLs"), "list_urls");
        assert_eq!(snake("IDs"), "ids");
    }

    #[test]
    fn generated_operation_ids_are_told_from_readable_ones() {
        for (op, method, route) in [
            (
                "resource__1.0_search_setlists_getSetlists_GET",
                "get",
                "/1.0/search/setlists",
            ),
            (
                "resource__1.0_artist__mbid__getArtist_GET",
                "get",
                "/1.0/artist/{mbid}",
            ),
            (
                "search_items_api_v1_items_search_get",
                "get",
                "/api/v1/items/search",
            ),
            ("read_user_users__user_id__get", "get", "/users/{user_id}"),
            ("chromeFromUrlPost", "post", "/chrome/url"),
            ("v2_get_orders_get", "get", "/v2/orders"),
        ] {
            assert!(generated_operation_id(op, method, route), "{op}");
        }
        for (op, method, route) in [
            ("getArtist", "get", "/1.0/artist/{mbid}"),
            ("CreateClusterV2", "post", "/api/v2/clusters"),
            ("listPets", "get", "/pets"),
            ("get_user_by_id", "get", "/user/{id}"),
            ("suspend_user", "put", "/api/users/{id}/suspend"),
            ("get_pets_id", "get", "/pets/{id}"),
            ("reset", "post", "/reset"),
        ] {
            assert!(!generated_operation_id(op, method, route), "{op}");
        }
        assert!(version_segment("v1") && version_segment("1.0") && version_segment("{2}"));
        assert!(!version_segment("v") && !version_segment("video") && !version_segment("1a"));
        assert_eq!(
            path_without_versions("/rest/1.0/artist/{mbid}"),
            "/rest/artist/{mbid}"
        );
    }

    #[test]
    fn endpoint_ids_are_unique() {
        let mut used = BTreeSet::new();
        assert_eq!(
            endpoint_id(Some("listPets"), "get", "/pets", &mut used),
            "list_pets"
        );
        assert_eq!(
            endpoint_id(Some("list_pets"), "get", "/x", &mut used),
            "list_pets_2"
        );
        assert_eq!(
            endpoint_id(None, "get", "/pets/{id}", &mut used),
            "get_pets_id"
        );
        assert_eq!(endpoint_id(None, "get", "/", &mut used), "get");
    }

    #[test]
    fn licences_map_to_spdx_or_licence_ref() {
        let l = licence_from(
            Some("Apache 2.0"),
            Some("https://www.apache.org/licenses/LICENSE-2.0.html"),
            "x",
        )
        .unwrap();
        assert_eq!(l.spdx.value, "Apache-2.0");
        assert!(!l.is_verified());
        assert_eq!(
            licence_from(Some("MIT"), None, "x").unwrap().spdx.value,
            "MIT"
        );
        assert_eq!(
            licence_from(Some("Proprietary — see terms"), None, "x")
                .unwrap()
                .spdx
                .value,
            "LicenseRef-Proprietary-see-terms"
        );
        assert!(licence_from(None, None, "x").is_none());
    }

    #[test]
    fn first_paragraphs_are_short() {
        assert_eq!(
            first_paragraph("# Title\n\nThe API.\nMore.\n\nSecond.").unwrap(),
            "The API. More."
        );
        let long = "word ".repeat(200);
        assert!(first_paragraph(&long).unwrap().chars().count() <= 401);
    }
}
