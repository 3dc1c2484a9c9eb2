//! The baselines SchemaRouter is compared with (paper section 5): none of them uses the schema
//! graph's concepts, aliases, intents, groups or parameter bindings, and none attaches unit,
//! source type, licence or provenance to what it retrieves (a raw API response carries none).
//!
//! - `fetch-all`: every endpoint of every tool, every field.
//! - `rule-based`: keyword rules on tool names only: a tool is chosen when its id, title or one
//!   of its declared names occurs in the query as whole words; its first endpoint is called and
//!   everything it returns is kept.
//! - `lexical-retrieval`: BM25 over tool and field descriptions (the paper's vector-only
//!   baseline without embeddings): the best (tool, endpoint) document, then its
//!   [`LEXICAL_TOP_FIELDS`] best fields by BM25 over field documents, plus identifiers.
//! - `prompt-all`: an LLM given the whole schema ([`crate::prompt::render_prompt_all`]) writes the
//!   plan itself (only with `--llm-url`).
//!
//! Parameters without the graph: each parameter of the Understanding (gold, or extracted from
//! the query by the pattern extractor) is sent under the endpoint parameter of the same name,
//! typed as declared; required parameters with a provider default get the default. Tools whose
//! parameters are named differently (OQMD `composition`, COD `formula` in Hill order) are called
//! without them, which is what parameter validity and executability measure.

use super::metrics::{PlanField, PlanStep};
use crate::artifact::{EndpointData, FrozenGraph};
use crate::model::normalise_alias;
use crate::route::bind::{coerce, value_text};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

/// Fields kept by `lexical-retrieval` (besides identifiers).
pub const LEXICAL_TOP_FIELDS: usize = 5;

/// Split text into lower-case word tokens: runs of letters and digits, also split where ASCII
/// meets non-ASCII (`DART에서` -> `dart`, `에서`) and at lower-to-upper case changes
/// (`MolecularWeight` -> `molecular`, `weight`).
pub fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev: Option<char> = None;
    for c in text.chars() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev = None;
            continue;
        }
        if let Some(p) = prev {
            let script_change = p.is_ascii() != c.is_ascii();
            let camel = p.is_lowercase() && c.is_uppercase();
            if (script_change || camel) && !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        }
        cur.extend(c.to_lowercase());
        prev = Some(c);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Parameters sent without the graph: same-name parameters, then defaults of required ones.
pub fn naive_params(e: &EndpointData, given: &BTreeMap<String, Value>) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    for (concept, v) in given {
        if v.is_null() {
            continue;
        }
        let key = normalise_alias(concept);
        if let Some(p) = e
            .parameters
            .iter()
            .find(|p| !p.auth && normalise_alias(&p.name) == key)
        {
            let typed = match v {
                Value::String(_) | Value::Number(_) | Value::Bool(_) => {
                    coerce(p, Value::String(value_text(v))).unwrap_or_else(|_| v.clone())
                }
                _ => v.clone(),
            };
            out.insert(p.name.clone(), typed);
        }
    }
    for p in &e.parameters {
        if p.required
            && !p.auth
            && !out.contains_key(&p.name)
            && let Some(d) = &p.default
        {
            out.insert(p.name.clone(), d.to_json());
        }
    }
    out
}

fn all_fields(e: &EndpointData) -> Vec<PlanField> {
    e.fields
        .iter()
        .map(|f| PlanField {
            name: f.name.clone(),
            identifier: f.identifier,
            meta: None,
        })
        .collect()
}

/// `fetch-all`: every endpoint of every tool, every field.
pub fn fetch_all(g: &FrozenGraph, params: &BTreeMap<String, Value>) -> Vec<PlanStep> {
    g.tools
        .iter()
        .flat_map(|t| {
            t.endpoints.iter().map(|e| PlanStep {
                tool: t.id.clone(),
                endpoint: e.id.clone(),
                params: naive_params(e, params),
                fields: all_fields(e),
            })
        })
        .collect()
}

/// The name rules of `rule-based`: the token sequence of each tool id, title and declared name.
#[derive(Clone, Debug)]
pub struct NameRules {
    rules: Vec<(Vec<String>, u32)>,
}

impl NameRules {
    /// Rules for every tool of an artifact.
    pub fn new(g: &FrozenGraph) -> NameRules {
        let mut rules = Vec::new();
        for (i, t) in g.tools.iter().enumerate() {
            let id_words = t.id.replace('_', " ");
            for name in std::iter::once(&id_words)
                .chain(std::iter::once(&t.title))
                .chain(t.names.iter())
            {
                let toks = tokens(name);
                if !toks.is_empty() {
                    rules.push((toks, i as u32));
                }
            }
        }
        NameRules { rules }
    }

    /// Tools whose name occurs in the query as whole words, in order of first mention.
    pub fn matches(&self, query: &str) -> Vec<u32> {
        let q = tokens(query);
        let mut hits: Vec<(usize, u32)> = Vec::new();
        for (toks, tool) in &self.rules {
            if let Some(pos) = q.windows(toks.len()).position(|w| w == toks.as_slice()) {
                match hits.iter_mut().find(|(_, t)| t == tool) {
                    Some(h) => h.0 = h.0.min(pos),
                    None => hits.push((pos, *tool)),
                }
            }
        }
        hits.sort();
        hits.into_iter().map(|(_, t)| t).collect()
    }
}

/// `rule-based`: the named tools' first endpoints, every field.
pub fn rule_based(
    g: &FrozenGraph,
    rules: &NameRules,
    query: &str,
    params: &BTreeMap<String, Value>,
) -> Vec<PlanStep> {
    rules
        .matches(query)
        .into_iter()
        .filter_map(|ti| {
            let t = g.tool_at(ti);
            let e = t.endpoints.first()?;
            Some(PlanStep {
                tool: t.id.clone(),
                endpoint: e.id.clone(),
                params: naive_params(e, params),
                fields: all_fields(e),
            })
        })
        .collect()
}

const STOP: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "by", "do", "does", "for", "from", "give", "how", "i",
    "in", "is", "it", "its", "me", "need", "of", "on", "or", "our", "the", "their", "to", "we",
    "what", "which", "with", "s",
];

fn terms(text: &str) -> Vec<String> {
    tokens(text)
        .into_iter()
        .filter(|t| !STOP.contains(&t.as_str()))
        .map(|t| {
            if t.len() > 3 && t.is_ascii() && t.ends_with('s') && !t.ends_with("ss") {
                t[..t.len() - 1].to_string()
            } else {
                t
            }
        })
        .collect()
}

/// One BM25 collection (k1 = 1.2, b = 0.75, idf = ln(1 + (N - df + 0.5) / (df + 0.5))).
#[derive(Clone, Debug, Default)]
struct Collection {
    docs: Vec<HashMap<String, u32>>,
    lens: Vec<f64>,
    df: HashMap<String, u32>,
    avg: f64,
}

impl Collection {
    fn new(texts: impl Iterator<Item = String>) -> Collection {
        let mut c = Collection::default();
        for t in texts {
            let mut tf: HashMap<String, u32> = HashMap::new();
            let ts = terms(&t);
            c.lens.push(ts.len() as f64);
            for w in ts {
                *tf.entry(w).or_default() += 1;
            }
            for w in tf.keys() {
                *c.df.entry(w.clone()).or_default() += 1;
            }
            c.docs.push(tf);
        }
        c.avg = c.lens.iter().sum::<f64>() / c.lens.len().max(1) as f64;
        c
    }

    fn score(&self, doc: usize, query: &[String]) -> f64 {
        let (k1, b) = (1.2, 0.75);
        let n = self.docs.len() as f64;
        let tf = &self.docs[doc];
        let norm = k1 * (1.0 - b + b * self.lens[doc] / self.avg.max(1e-9));
        query
            .iter()
            .map(|w| {
                let Some(&f) = tf.get(w) else { return 0.0 };
                let df = f64::from(self.df.get(w).copied().unwrap_or(0));
                let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
                let f = f64::from(f);
                idf * f * (k1 + 1.0) / (f + norm)
            })
            .sum()
    }
}

/// The BM25 indices of `lexical-retrieval`.
#[derive(Clone, Debug)]
pub struct Bm25 {
    endpoints: Vec<(u32, u32)>,
    endpoint_docs: Collection,
    fields: Vec<(u32, u32, u32)>,
    field_docs: Collection,
    field_start: HashMap<(u32, u32), usize>,
}

impl Bm25 {
    /// Index an artifact: one document per (tool, endpoint) with the tool's title, names and
    /// description, the endpoint description and every field's name and description; one
    /// document per field with its name (split into words) and description.
    pub fn new(g: &FrozenGraph) -> Bm25 {
        let mut endpoints = Vec::new();
        let mut ep_texts = Vec::new();
        let mut fields = Vec::new();
        let mut field_texts = Vec::new();
        let mut field_start = HashMap::new();
        for (ti, t) in g.tools.iter().enumerate() {
            for (ei, e) in t.endpoints.iter().enumerate() {
                let mut text = format!(
                    "{} {} {} {}",
                    t.title,
                    t.names.join(" "),
                    t.description.as_deref().unwrap_or(""),
                    e.description.as_deref().unwrap_or("")
                );
                field_start.insert((ti as u32, ei as u32), fields.len());
                for (fi, f) in e.fields.iter().enumerate() {
                    let ftext = format!(
                        "{} {}",
                        f.name.replace(['_', '.', '-', ':'], " "),
                        f.description.as_deref().unwrap_or("")
                    );
                    text.push(' ');
                    text.push_str(&ftext);
                    fields.push((ti as u32, ei as u32, fi as u32));
                    field_texts.push(ftext);
                }
                endpoints.push((ti as u32, ei as u32));
                ep_texts.push(text);
            }
        }
        Bm25 {
            endpoints,
            endpoint_docs: Collection::new(ep_texts.into_iter()),
            fields,
            field_docs: Collection::new(field_texts.into_iter()),
            field_start,
        }
    }

    /// The best (tool, endpoint) for a query and its best fields (indices), or `None` when no
    /// query term occurs in any document.
    pub fn retrieve(&self, query: &str) -> Option<(u32, u32, Vec<u32>)> {
        let q = terms(query);
        let mut best: Option<(f64, usize)> = None;
        for d in 0..self.endpoints.len() {
            let s = self.endpoint_docs.score(d, &q);
            if s > 0.0 && best.is_none_or(|(b, _)| s > b) {
                best = Some((s, d));
            }
        }
        let (_, d) = best?;
        let (ti, ei) = self.endpoints[d];
        let start = self.field_start.get(&(ti, ei)).copied().unwrap_or(0);
        let mut scored: Vec<(f64, u32)> = self.fields[start..]
            .iter()
            .take_while(|(t, e, _)| *t == ti && *e == ei)
            .enumerate()
            .map(|(i, (_, _, fi))| (self.field_docs.score(start + i, &q), *fi))
            .filter(|(s, _)| *s > 0.0)
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.truncate(LEXICAL_TOP_FIELDS);
        Some((ti, ei, scored.into_iter().map(|(_, f)| f).collect()))
    }
}

/// `lexical-retrieval`: the BM25 top endpoint with its identifiers and top fields.
pub fn lexical_retrieval(
    g: &FrozenGraph,
    index: &Bm25,
    query: &str,
    params: &BTreeMap<String, Value>,
) -> Vec<PlanStep> {
    let Some((ti, ei, top)) = index.retrieve(query) else {
        return Vec::new();
    };
    let t = g.tool_at(ti);
    let e = t.endpoint_at(ei);
    let fields = e
        .fields
        .iter()
        .enumerate()
        .filter(|(i, f)| f.identifier || top.contains(&(*i as u32)))
        .map(|(_, f)| PlanField {
            name: f.name.clone(),
            identifier: f.identifier,
            meta: None,
        })
        .collect();
    vec![PlanStep {
        tool: t.id.clone(),
        endpoint: e.id.clone(),
        params: naive_params(e, params),
        fields,
    }]
}

/// The instruction appended to the prompt-all schema rendering.
pub const PROMPT_ALL_INSTRUCTIONS: &str = "Reply with one JSON object only: {\"steps\": [{\"tool\": <tool id>, \"endpoint\": <endpoint id>, \"params\": {<parameter name>: <value>}, \"fields\": [<response field names that answer the question>]}]}. Use the ids and names exactly as listed. Reply {\"steps\": []} when no tool can answer.";

/// `prompt-all`: an OpenAI-compatible chat-completions server given the whole schema.
pub struct PromptAll {
    endpoint: String,
    model: String,
    system: String,
    api_key: Option<String>,
    agent: ureq::Agent,
}

impl PromptAll {
    /// A client for `url` (base or full `.../chat/completions`) and `model`; the system prompt is
    /// the prompt-all rendering of `g` plus [`PROMPT_ALL_INSTRUCTIONS`].
    pub fn new(
        g: &FrozenGraph,
        url: &str,
        model: &str,
        timeout: Duration,
        api_key: Option<String>,
    ) -> PromptAll {
        let url = url.trim_end_matches('/');
        let endpoint = if url.ends_with("/chat/completions") {
            url.to_string()
        } else {
            format!("{url}/chat/completions")
        };
        PromptAll {
            endpoint,
            model: model.to_string(),
            system: format!(
                "{}\n{PROMPT_ALL_INSTRUCTIONS}\n",
                crate::prompt::render_prompt_all(g)
            ),
            api_key,
            agent: ureq::Agent::config_builder()
                .timeout_global(Some(timeout))
                .http_status_as_error(false)
                .build()
                .into(),
        }
    }

    /// The system prompt sent with every query.
    pub fn system_prompt(&self) -> &str {
        &self.system
    }

    /// Ask for a plan. Identifier flags come from the artifact; fields and steps the artifact
    /// does not declare are kept (they count as wrong).
    ///
    /// Errors: the request fails, the server answers non-2xx, or the reply has no JSON object.
    pub fn plan(&self, g: &FrozenGraph, query: &str) -> Result<Vec<PlanStep>, String> {
        let content = crate::route::analyzer::llm::chat(
            &self.agent,
            &self.endpoint,
            &self.model,
            self.api_key.as_deref(),
            &self.system,
            query,
        )?;
        let plan = crate::route::analyzer::llm::extract_json(&content)
            .ok_or("the LLM reply has no JSON object")?;
        Ok(parse_plan(g, &plan))
    }
}

/// Steps from a prompt-all reply (`{"steps": [...]}`); malformed entries are skipped.
pub fn parse_plan(g: &FrozenGraph, v: &Value) -> Vec<PlanStep> {
    let Some(steps) = v.get("steps").and_then(Value::as_array) else {
        return Vec::new();
    };
    steps
        .iter()
        .filter_map(|s| {
            let tool = s.get("tool")?.as_str()?.to_string();
            let endpoint = s.get("endpoint")?.as_str()?.to_string();
            let ep = super::metrics::endpoint(g, &tool, &endpoint);
            let params = s
                .get("params")
                .and_then(Value::as_object)
                .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                .unwrap_or_default();
            let mut fields: Vec<PlanField> = s
                .get("fields")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(|name| PlanField {
                            name: name.to_string(),
                            identifier: ep.is_some_and(|e| {
                                e.fields.iter().any(|f| f.name == name && f.identifier)
                            }),
                            meta: None,
                        })
                        .collect()
                })
                .unwrap_or_default();
            // Identifiers come back with every record.
            if let Some(e) = ep {
                for f in e.fields.iter().filter(|f| f.identifier) {
                    if !fields.iter().any(|pf| pf.name == f.name) {
                        fields.push(PlanField {
                            name: f.name.clone(),
                            identifier: true,
                            meta: None,
                        });
                    }
                }
            }
            Some(PlanStep {
                tool,
                endpoint,
                params,
                fields,
            })
        })
        .collect()
}
