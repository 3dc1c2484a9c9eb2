//! Response projection: apply a plan to the raw responses of its steps and hand the reader only
//! the planned fields, each with its unit (and the conversion to the canonical unit), source
//! type, licence and provenance (the paper's retrieved context, section 4).
//!
//! - [`path`]: field and records paths (`a.b`, `items[]`, `result.{}`, `category@term`);
//! - [`records`]: where an endpoint's records sit (its declared `records` path);
//! - [`prune`]: JSON read keeping only what a step's paths reach;
//! - [`value`]: declared type, wire encoding, missing-value markers, unit conversion;
//! - [`xml`]: XML responses (arXiv's Atom feed) read into the same shape;
//! - [`render`]: the reader context text;
//! - [`report`]: planned fields the response lacks, typed mismatches, shape problems.
//!
//! A field name is a path inside one record. A field that no record carries is looked up in the
//! envelope (the response root) and shown once per step. Values that do not fit the declared
//! type are reported and left out; nothing is coerced or guessed.

pub mod path;
pub mod prune;
pub mod records;
pub mod render;
pub mod report;
pub mod value;
pub mod xml;

use crate::artifact::{EndpointData, FieldData, FrozenGraph, LicenceData, ProvenanceData};
use crate::route::{FieldMeta, Plan, Step};
use crate::units::Conversion;
use path::Walked;
use report::{Issue, IssueKind, Tally};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;
use value::{Leaf, Wire};

/// A parsed response of one step.
#[derive(Clone, Debug, PartialEq)]
pub enum Document {
    /// A JSON document (an HTTP body, or an MCP `structuredContent` / JSON text content).
    Json(Value),
    /// An XML document, read into JSON shape by [`xml::parse`].
    Xml(Value),
}

impl Document {
    fn value(&self) -> &Value {
        match self {
            Document::Json(v) | Document::Xml(v) => v,
        }
    }

    fn is_xml(&self) -> bool {
        matches!(self, Document::Xml(_))
    }
}

/// Why projection could not run: a message, and where (file, 1-based line and column) when the
/// problem is in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtractError {
    /// What is wrong and what to do.
    pub message: String,
    /// The file (or input name) it is about.
    pub file: Option<String>,
    /// 1-based line.
    pub line: Option<usize>,
    /// 1-based column (Unicode scalar values).
    pub column: Option<usize>,
}

impl ExtractError {
    /// An error without a position.
    pub fn new(message: impl Into<String>) -> ExtractError {
        ExtractError {
            message: message.into(),
            file: None,
            line: None,
            column: None,
        }
    }
}

impl std::fmt::Display for ExtractError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.file, self.line, self.column) {
            (Some(file), Some(l), Some(c)) => write!(f, "{file}:{l}:{c}: {}", self.message),
            (Some(file), _, _) => write!(f, "{file}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ExtractError {}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..text.floor_char_boundary(offset.min(text.len()))];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Parse a response body: XML when it starts with `<` (after white space and a BOM), JSON
/// otherwise. `file` names the input in errors, which carry line and column.
pub fn parse_response(text: &str, file: Option<&str>) -> Result<Document, ExtractError> {
    parse_with(text, file, None)
}

/// Parse the response of one plan step, keeping only what the step's records path and field
/// paths reach ([`prune`]); the projection is the same as with [`parse_response`], faster.
pub fn parse_step_response(
    text: &str,
    file: Option<&str>,
    g: &FrozenGraph,
    step: &Step,
) -> Result<Document, ExtractError> {
    // An MCP step's response may be the whole `tools/call` result, whose `structuredContent`
    // holds the record (see [`call_result_content`]): read it whole, the paths start inside.
    if step.call.is_some() {
        return parse_with(text, file, None);
    }
    parse_with(text, file, prune::for_step(g, step).as_ref())
}

/// The keys of an MCP `CallToolResult` (revision 2025-06-18).
const CALL_RESULT_KEYS: &[&str] = &["content", "structuredContent", "isError", "_meta"];

/// The response inside an MCP `tools/call` result: `Ok(None)` when `v` is no such result (an
/// object with a `content` list and no keys but [`CALL_RESULT_KEYS`]); else its
/// `structuredContent`, or the JSON of its one text content; `Err` says why neither can be
/// read (a tool error, no JSON at all).
fn call_result_content(v: &Value) -> Result<Option<std::borrow::Cow<'_, Value>>, String> {
    let Value::Object(o) = v else {
        return Ok(None);
    };
    if !o.get("content").is_some_and(Value::is_array)
        || !o.keys().all(|k| CALL_RESULT_KEYS.contains(&k.as_str()))
    {
        return Ok(None);
    }
    let texts: Vec<&str> = o["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|c| c.get("text").and_then(Value::as_str))
        .collect();
    if o.get("isError") == Some(&Value::Bool(true)) {
        let said = texts.first().map_or(String::new(), |t| {
            let t = t.trim();
            let cut = t.floor_char_boundary(200.min(t.len()));
            format!(": {}{}", &t[..cut], if cut < t.len() { "..." } else { "" })
        });
        return Err(format!(
            "the MCP tool reported an error (`isError: true`){said}; it returned no records"
        ));
    }
    if let Some(sc) = o.get("structuredContent") {
        return Ok(Some(std::borrow::Cow::Borrowed(sc)));
    }
    match texts.as_slice() {
        [t] => serde_json::from_str::<Value>(t)
            .map(|v| Some(std::borrow::Cow::Owned(v)))
            .map_err(|_| {
                "the MCP `tools/call` result has no `structuredContent` and its text content is no JSON; the planned fields cannot be read from it".to_string()
            }),
        _ => Err(format!(
            "the MCP `tools/call` result has no `structuredContent` and {} text contents (one JSON text is read); the planned fields cannot be read from it",
            texts.len()
        )),
    }
}

fn parse_with(
    text: &str,
    file: Option<&str>,
    keep: Option<&prune::Keep>,
) -> Result<Document, ExtractError> {
    let body = text.trim_start_matches('\u{feff}');
    let at = |message: String, line: usize, column: usize| ExtractError {
        message,
        file: file.map(str::to_string),
        line: Some(line),
        column: Some(column),
    };
    if body.trim_start().starts_with('<') {
        return match xml::parse(body) {
            Ok(v) => Ok(Document::Xml(v)),
            Err((m, off)) => {
                let (l, c) = line_col(body, off);
                Err(at(format!("invalid XML: {m}"), l, c))
            }
        };
    }
    let parsed = match keep {
        Some(k) => prune::parse(body, k),
        None => serde_json::from_str::<Value>(body),
    };
    match parsed {
        Ok(v) => Ok(Document::Json(v)),
        Err(e) => {
            let msg = e.to_string();
            let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
            Err(at(
                format!("invalid JSON: {msg} (responses must be JSON or XML documents)"),
                e.line().max(1),
                e.column().max(1),
            ))
        }
    }
}

/// Parse a plan file: what `route --json` prints (`{"understanding": ..., "plan": ...}`) or a
/// bare plan.
pub fn parse_plan(text: &str, file: Option<&str>) -> Result<Plan, ExtractError> {
    let err = |e: serde_json::Error, what: &str| ExtractError {
        message: format!(
            "{what}: {}",
            e.to_string().split(" at line ").next().unwrap_or("")
        ),
        file: file.map(str::to_string),
        line: Some(e.line().max(1)),
        column: Some(e.column().max(1)),
    };
    let v: Value = serde_json::from_str(text.trim_start_matches('\u{feff}'))
        .map_err(|e| err(e, "invalid JSON"))?;
    if !v.is_object() {
        return Err(ExtractError {
            message: format!(
                "not a plan: the file holds {}, not a JSON object (`route --json` output or its `plan` object)",
                match &v {
                    Value::Array(_) => "a list",
                    Value::String(_) => "a string",
                    Value::Number(_) => "a number",
                    Value::Bool(_) => "a boolean",
                    _ => "null",
                }
            ),
            file: file.map(str::to_string),
            line: Some(1),
            column: Some(1),
        });
    }
    let plan = match v.get("plan") {
        Some(p) if v.get("steps").is_none() => p.clone(),
        _ => v,
    };
    serde_json::from_value(plan).map_err(|e| ExtractError {
        message: format!(
            "not a plan (`route --json` output or its `plan` object): {}",
            e.to_string().split(" at line ").next().unwrap_or("")
        ),
        file: file.map(str::to_string),
        line: None,
        column: None,
    })
}

/// Where a projected field's values came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// From the records.
    Record,
    /// From the envelope (the response root), once per step.
    Envelope,
    /// Not in the response.
    Absent,
}

/// Per-field metadata of a step (given once, not per record).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FieldInfo {
    /// The field's path, as declared.
    pub name: String,
    /// Declared type.
    #[serde(rename = "type")]
    pub ty: String,
    /// Whether it identifies the record.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub identifier: bool,
    /// Where its values came from.
    pub scope: Scope,
    /// Records that carry a value.
    pub values: usize,
    /// Unit of the values (canonical spelling).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<Arc<str>>,
    /// The provider's own spelling of the unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit_as_published: Option<Arc<str>>,
    /// Dimension of the unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dimension: Option<Arc<str>>,
    /// The concept's canonical unit, when the values are converted to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub canonical_unit: Option<Arc<str>>,
    /// The factor of that conversion.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub factor_to_canonical: Option<f64>,
    /// The offset added after the factor, for an offset temperature scale (°C → K: 273.15).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset_to_canonical: Option<f64>,
    /// Effective source type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_type: Option<Arc<str>>,
    /// Effective licence (SPDX).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub licence: Option<String>,
}

/// One projected record: the planned fields' values (decoded from their wire encoding; arrays
/// follow the path's `[]` levels, element by element, `null` where an element lacks the value).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Where the record sits in the response (`data[0]`, `$` for the root).
    pub at: String,
    /// Field path -> value, for the fields that have one.
    pub values: BTreeMap<String, Value>,
    /// Field path -> value in the canonical unit, for converted fields.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub canonical: BTreeMap<String, Value>,
}

/// The attribution of a step's source.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Source {
    /// Tool title.
    pub title: String,
    /// The tool's source type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_type: Option<String>,
    /// The tool's licence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub licence: Option<Arc<LicenceData>>,
    /// The tool's provenance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<Arc<ProvenanceData>>,
}

/// The projection of one step's response.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepResult {
    /// Tool id.
    pub tool: String,
    /// Endpoint id.
    pub endpoint: String,
    /// `json` or `xml`.
    pub format: String,
    /// The records path used (absent: the root).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub records_path: Option<String>,
    /// Planned fields with their metadata, in plan order.
    pub fields: Vec<FieldInfo>,
    /// Envelope fields: path -> value.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub envelope: BTreeMap<String, Value>,
    /// Envelope fields converted to the canonical unit: path -> value.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub envelope_canonical: BTreeMap<String, Value>,
    /// The records, in response order.
    pub records: Vec<Record>,
    /// Who to credit.
    pub source: Source,
}

/// The projection of a plan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Extraction {
    /// One result per plan step.
    pub steps: Vec<StepResult>,
    /// Findings: missing fields, no-value markers, typed mismatches, shape problems.
    pub issues: Vec<Issue>,
    /// The reader context ([`render::context`]).
    pub context: String,
    /// o200k_base tokens of `context` (absent when not counted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_tokens: Option<usize>,
}

/// Project `responses` (one per plan step, in step order) through `plan` against the artifact
/// the plan was made from, counting the reader context's tokens.
pub fn extract(
    g: &FrozenGraph,
    plan: &Plan,
    responses: &[Document],
) -> Result<Extraction, ExtractError> {
    extract_with(g, plan, responses, true)
}

/// [`extract`], counting the reader context's tokens only when `count_tokens` (tokenizing is
/// the larger part of the cost for large responses).
pub fn extract_with(
    g: &FrozenGraph,
    plan: &Plan,
    responses: &[Document],
    count_tokens: bool,
) -> Result<Extraction, ExtractError> {
    if responses.len() != plan.steps.len() {
        return Err(ExtractError::new(format!(
            "the plan has {} step(s) but {} response(s) were given; give one response per step, in step order",
            plan.steps.len(),
            responses.len()
        )));
    }
    let mut issues = Vec::new();
    if !plan.routing_fingerprint.is_empty() && plan.routing_fingerprint != g.routing_fingerprint {
        issues.push(Issue {
            step: 0,
            tool: String::new(),
            endpoint: String::new(),
            field: None,
            kind: IssueKind::FingerprintMismatch,
            count: 0,
            records: Vec::new(),
            message: format!(
                "the plan was made for routing fingerprint {}, the artifact has {}; re-route with this artifact",
                short_hash(&plan.routing_fingerprint),
                short_hash(&g.routing_fingerprint)
            ),
        });
    }
    let mut steps = Vec::with_capacity(plan.steps.len());
    for (i, (s, doc)) in plan.steps.iter().zip(responses).enumerate() {
        steps.push(project_step(g, i, s, doc, &mut issues)?);
    }
    let context = render::context(&steps);
    let context_tokens = match (count_tokens, context.is_empty()) {
        (false, _) => None,
        (true, true) => Some(0),
        (true, false) => Some(crate::prompt::count_tokens(&context)),
    };
    Ok(Extraction {
        steps,
        issues,
        context,
        context_tokens,
    })
}

fn short_hash(h: &str) -> &str {
    &h[..h.floor_char_boundary(16.min(h.len()))]
}

fn project_step(
    g: &FrozenGraph,
    i: usize,
    s: &Step,
    doc: &Document,
    issues: &mut Vec<Issue>,
) -> Result<StepResult, ExtractError> {
    let Some((_, t)) = g.tool(&s.tool) else {
        return Err(ExtractError::new(format!(
            "plan step {} names tool `{}`, which the artifact does not have",
            i + 1,
            s.tool
        )));
    };
    let Some(e) = t.endpoints.iter().find(|e| e.id == s.endpoint) else {
        return Err(ExtractError::new(format!(
            "plan step {} names endpoint `{}/{}`, which the artifact does not have",
            i + 1,
            s.tool,
            s.endpoint
        )));
    };
    let issue = |field: Option<&str>, kind, tally: Tally| Issue {
        step: i + 1,
        tool: s.tool.clone(),
        endpoint: s.endpoint.clone(),
        field: field.map(str::to_string),
        kind,
        count: tally.count,
        records: tally.records,
        message: tally.message.unwrap_or_default(),
    };
    let xml = doc.is_xml();
    let mut root = doc.value();
    // An MCP step's response given as the whole `tools/call` result: the record is inside.
    let inner;
    if s.call.is_some() && !xml {
        match call_result_content(root) {
            Ok(None) => {}
            Ok(Some(v)) => {
                inner = v;
                root = &inner;
            }
            // Read as it is (its planned fields are then reported missing too).
            Err(m) => issues.push(issue(None, IssueKind::Shape, Tally::one(m))),
        }
    }
    let recs = step_records(e, root, xml, issues, &issue);
    let mut records: Vec<Record> = recs
        .iter()
        .map(|r| Record {
            at: r.at.clone(),
            values: BTreeMap::new(),
            canonical: BTreeMap::new(),
        })
        .collect();
    let mut fields = Vec::with_capacity(s.fields.len());
    let mut envelope = BTreeMap::new();
    let mut envelope_canonical = BTreeMap::new();
    let mut seen = std::collections::BTreeSet::new();
    for pf in &s.fields {
        // A field the plan lists twice is read once.
        if !seen.insert(pf.name.as_str()) {
            continue;
        }
        let Some(fd) = e.fields.iter().find(|f| f.name == pf.name) else {
            let t = Tally::one(format!(
                "`{}/{}` declares no field `{}`",
                s.tool, s.endpoint, pf.name
            ));
            issues.push(issue(Some(&pf.name), IssueKind::UnknownField, t));
            continue;
        };
        // Unit, source type, licence and provenance are the artifact's, as the step's are: the
        // artifact declares the data being read (a plan from another artifact may carry other
        // metadata, and one reader context must not hold two licences that disagree).
        let meta = crate::route::algorithm::field_meta(g, t, fd, &pf.reasons);
        let segs = match path::parse(&fd.name, xml) {
            Ok(p) => p,
            Err(m) => {
                let t = Tally::one(format!("field path `{}` {m}", fd.name));
                issues.push(issue(Some(&pf.name), IssueKind::Shape, t));
                continue;
            }
        };
        let mut info = info(fd, &meta);
        let conv = conversion(fd, &meta);
        let wire = Wire {
            ty: &fd.ty,
            as_string: xml || fd.encoding.as_deref() == Some("string"),
            missing: fd.missing_value.as_deref(),
        };
        let depth = path::depth(&segs);
        let mut walked: Vec<Walked> = recs
            .iter()
            .map(|r| path::walk(r.value, &segs, xml))
            .collect();
        let in_records = walked.iter().any(|w| matches!(w, Walked::Found(_)));
        let mut tallies: [Tally; 4] = Default::default();
        let [missing, no_value, mismatch, shape] = &mut tallies;
        if in_records || e.records.is_none() {
            info.scope = Scope::Record;
            for (w, rec) in walked.drain(..).zip(records.iter_mut()) {
                match w {
                    Walked::Absent => missing.add(&rec.at, || "not in the record".to_string()),
                    Walked::Shape(m) => shape.add(&rec.at, || m),
                    Walked::Found(v) => {
                        let (v, nulls, bad) = decode(v, depth, wire);
                        let mismatched = bad.is_some();
                        if let Some(m) = bad {
                            mismatch.add(&rec.at, || m);
                        }
                        match v {
                            Value::Null if mismatched => {}
                            Value::Null => no_value.add(&rec.at, || nulls_message(fd)),
                            v => {
                                if nulls && depth == 0 {
                                    no_value.add(&rec.at, || nulls_message(fd));
                                }
                                if let Some(f) = conv {
                                    rec.canonical
                                        .insert(fd.name.clone(), value::convert(&v, &f));
                                }
                                rec.values.insert(fd.name.clone(), v);
                                info.values += 1;
                            }
                        }
                    }
                }
            }
            if info.values == 0 && missing.count == records.len() && !records.is_empty() {
                info.scope = Scope::Absent;
            }
            if records.is_empty() {
                info.scope = Scope::Absent;
            }
        } else if !root.is_object() {
            // A top-level array has no envelope.
            *missing = Tally {
                count: recs.len(),
                records: Vec::new(),
                message: Some(format!("in none of the {} record(s)", recs.len())),
            };
        } else {
            match path::walk(root, &segs, xml) {
                Walked::Found(v) => {
                    let (v, _, bad) = decode(v, depth, wire);
                    let mismatched = bad.is_some();
                    if let Some(m) = bad {
                        mismatch.add("$", || m);
                    }
                    if v.is_null() && mismatched {
                        info.scope = Scope::Envelope;
                    } else if v.is_null() {
                        no_value.add("$", || nulls_message(fd));
                        info.scope = Scope::Envelope;
                    } else {
                        info.scope = Scope::Envelope;
                        info.values = 1;
                        if let Some(f) = conv {
                            envelope_canonical.insert(fd.name.clone(), value::convert(&v, &f));
                        }
                        envelope.insert(fd.name.clone(), v);
                    }
                }
                Walked::Shape(m) => shape.add("$", || m),
                Walked::Absent => {
                    *missing = Tally {
                        count: recs.len(),
                        records: Vec::new(),
                        message: Some(format!(
                            "in none of the {} record(s) and not in the envelope",
                            recs.len()
                        )),
                    };
                }
            }
        }
        push_tallies(issues, &issue, &fd.name, tallies);
        fields.push(info);
    }
    Ok(StepResult {
        tool: s.tool.clone(),
        endpoint: s.endpoint.clone(),
        format: if xml { "xml" } else { "json" }.to_string(),
        records_path: e.records.clone(),
        fields,
        envelope,
        envelope_canonical,
        records,
        source: source(t),
    })
}

/// The records of one step's response at the endpoint's records path: elements the path does
/// not reach and records that are not objects are reported as shape issues and left out.
fn step_records<'a>(
    e: &EndpointData,
    root: &'a Value,
    xml: bool,
    issues: &mut Vec<Issue>,
    issue: &dyn Fn(Option<&str>, IssueKind, Tally) -> Issue,
) -> Vec<records::RecordRef<'a>> {
    let found = records::parse_records(e.records.as_deref())
        .map_err(|m| format!("records path `{}` {m}", e.records.as_deref().unwrap_or("")))
        .and_then(|segs| records::find(root, &segs, xml));
    let mut recs = match found {
        Ok(f) => {
            if let Some((_, why)) = f.skipped.first() {
                let places: Vec<&str> = f
                    .skipped
                    .iter()
                    .take(5)
                    .map(|(at, _)| at.as_str())
                    .collect();
                let t = Tally::one(format!(
                    "{} element(s) do not match records path `{}` ({}{}: {why}); the other elements' records are kept",
                    f.skipped.len(),
                    e.records.as_deref().unwrap_or("(root)"),
                    places.join(", "),
                    if f.skipped.len() > places.len() {
                        ", ..."
                    } else {
                        ""
                    },
                ));
                issues.push(issue(None, IssueKind::Shape, t));
            }
            f.records
        }
        Err(m) => {
            let t = Tally::one(format!(
                "response does not match records path `{}`: {m}",
                e.records.as_deref().unwrap_or("(root)")
            ));
            issues.push(issue(None, IssueKind::Shape, t));
            Vec::new()
        }
    };
    // One issue per kind of value found in place of a record (a null and a number are two
    // findings, each with its own records), in order of first appearance.
    let mut not_objects: Vec<(&str, Tally)> = Vec::new();
    recs.retain(|r| {
        let ok = r.value.is_object();
        if !ok {
            let kind = path::kind(r.value);
            let at = match not_objects.iter().position(|(k, _)| *k == kind) {
                Some(i) => i,
                None => {
                    not_objects.push((kind, Tally::default()));
                    not_objects.len() - 1
                }
            };
            not_objects[at]
                .1
                .add(&r.at, || format!("a record is {kind}, not an object"));
        }
        ok
    });
    for (_, t) in not_objects {
        issues.push(issue(None, IssueKind::Shape, t));
    }
    recs
}

/// One field's tallies (missing, no value, type mismatch, shape) as issues, shape first; a
/// tally that counted nothing is no issue.
fn push_tallies(
    issues: &mut Vec<Issue>,
    issue: &dyn Fn(Option<&str>, IssueKind, Tally) -> Issue,
    field: &str,
    tallies: [Tally; 4],
) {
    let [missing, no_value, mismatch, shape] = tallies;
    for (kind, t) in [
        (IssueKind::Shape, shape),
        (IssueKind::Missing, missing),
        (IssueKind::NoValue, no_value),
        (IssueKind::TypeMismatch, mismatch),
    ] {
        if t.count > 0 {
            issues.push(issue(Some(field), kind, t));
        }
    }
}

fn nulls_message(fd: &FieldData) -> String {
    match &fd.missing_value {
        Some(m) => format!("null or the missing-value marker `{m}`"),
        None => "null".to_string(),
    }
}

/// Decode the leaves of a walked value (`depth` array levels). Returns the value (mismatched
/// leaves become `null`; an empty list stays an empty list), whether a leaf had no value, and
/// the first mismatch.
fn decode(v: Value, depth: usize, w: Wire<'_>) -> (Value, bool, Option<String>) {
    if depth == 0 {
        return match value::read(v, w) {
            Leaf::Value(v) => (v, false, None),
            Leaf::NoValue => (Value::Null, true, None),
            Leaf::Mismatch(m) => (Value::Null, false, Some(m)),
        };
    }
    match v {
        // An empty list is a value (there are none), not a missing one.
        Value::Array(items) if items.is_empty() => (Value::Array(items), false, None),
        Value::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            let (mut nulls, mut bad) = (false, None);
            for x in items {
                let (d, n, b) = decode(x, depth - 1, w);
                nulls |= n;
                if bad.is_none() {
                    bad = b;
                }
                out.push(d);
            }
            if out.iter().all(Value::is_null) {
                return (Value::Null, true, bad);
            }
            (Value::Array(out), nulls, bad)
        }
        _ => (Value::Null, true, None),
    }
}

fn info(fd: &FieldData, m: &FieldMeta) -> FieldInfo {
    FieldInfo {
        name: fd.name.clone(),
        ty: fd.ty.clone(),
        identifier: fd.identifier,
        scope: Scope::Absent,
        values: 0,
        unit: m.unit.clone(),
        unit_as_published: m.unit_as_published.clone(),
        dimension: m.dimension.clone(),
        canonical_unit: None,
        factor_to_canonical: None,
        offset_to_canonical: None,
        source_type: m.source_type.clone(),
        licence: m.licence.as_ref().map(|l| l.spdx.clone()),
    }
    .with_conversion(conversion(fd, m).zip(m.canonical_unit.clone()))
}

impl FieldInfo {
    fn with_conversion(mut self, c: Option<(Conversion, Arc<str>)>) -> FieldInfo {
        if let Some((c, u)) = c {
            self.factor_to_canonical = Some(c.factor);
            self.offset_to_canonical = (c.offset != 0.0).then_some(c.offset);
            self.canonical_unit = Some(u);
        }
        self
    }
}

/// The conversion to the canonical unit (a factor, and an offset for °C or °F), for numeric
/// fields whose unit differs from it.
fn conversion(fd: &FieldData, m: &FieldMeta) -> Option<Conversion> {
    let base = fd.ty.trim_end_matches("[]");
    if base != "number" && base != "integer" {
        return None;
    }
    match (&m.unit, &m.canonical_unit, m.factor_to_canonical) {
        (Some(u), Some(c), Some(factor)) if u != c => Some(Conversion {
            factor,
            offset: m.offset_to_canonical.unwrap_or(0.0),
        }),
        _ => None,
    }
}

fn source(t: &crate::artifact::ToolData) -> Source {
    Source {
        title: t.title.clone(),
        source_type: t.source_type.clone(),
        licence: t.licence.clone(),
        provenance: t.provenance.clone(),
    }
}

/// The endpoint a plan step names, if the artifact has it.
pub fn endpoint<'g>(g: &'g FrozenGraph, s: &Step) -> Option<&'g EndpointData> {
    g.tool(&s.tool)?
        .1
        .endpoints
        .iter()
        .find(|e| e.id == s.endpoint)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Leaves under `[]` levels: an empty list is a value (there are none), a list of nulls has
    /// no value, a mismatched leaf becomes null and is reported.
    #[test]
    fn decoding_lists() {
        let w = Wire {
            ty: "number",
            as_string: false,
            missing: None,
        };
        assert_eq!(decode(json!([]), 1, w), (json!([]), false, None));
        assert_eq!(
            decode(json!([1.5, null]), 1, w),
            (json!([1.5, null]), true, None)
        );
        assert_eq!(decode(json!([null, null]), 1, w), (Value::Null, true, None));
        let (v, nulls, bad) = decode(json!([2, "x"]), 1, w);
        assert_eq!((v, nulls), (json!([2, null]), false));
        assert!(bad.is_some());
    }
}
