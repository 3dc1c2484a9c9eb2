//! Concepts for response fields and parameters.
//!
//! A field's concept key is its last path segment's words, singular, with the abbreviations the
//! catalog itself spells out expanded (a field `temp` described as "Temperature ..." gives
//! `temperature`). A generic last segment (`id`, `name`, `url`, `title`, ...) is qualified by
//! the object it sits in (`owner.id` → `owner_id`) or, at the record's top level, by the
//! endpoint's resource (`name` of a repository endpoint → `repo_name`); a field that is the
//! whole result (`result`, `data`) takes the resource itself (`stock_price`).
//!
//! Fields with the same key and a compatible type share one concept, across endpoints and tools;
//! fields whose keys differ but whose descriptions have the same head term (two words or more:
//! "manufacturer part number") are joined too, unless that would put two fields of one endpoint
//! in one concept. Parameters are grouped the same way into parameter concepts; a parameter whose
//! key is a response concept binds to that concept (a response concept may be a query input).

use super::endpoints::EndpointInfo;
use super::terms::{self, abbreviates, head_term, key_words, singular};
use crate::model::{Tool, ValueType};
use std::collections::{BTreeMap, BTreeSet};

/// Last path segments that are the whole answer rather than a property of it.
const WHOLE: &[&str] = &[
    "result", "data", "value", "response", "output", "content", "body", "payload", "item",
    "record", "entry", "results", "items",
];

/// Last path segments that mean little without the object they describe.
const GENERIC: &[&str] = &[
    "id",
    "name",
    "type",
    "url",
    "count",
    "title",
    "description",
    "status",
    "code",
    "key",
    "text",
    "label",
    "total",
    "number",
    "amount",
    "size",
    "kind",
    "href",
    "link",
    "uri",
    "date",
    "time",
    "message",
    "note",
    "summary",
    "version",
    "state",
    "category",
    "tag",
    "format",
    "value",
    "slug",
    "uuid",
    "path",
    "created",
    "updated",
    "html_url",
    "login",
    "email",
    "avatar",
];

/// The abbreviations of a catalog: all it spells out (for aliases) and those concept keys
/// expand (see [`key_abbreviations`]).
#[derive(Clone, Debug, Default)]
pub struct Abbreviations {
    /// Every abbreviation with its long form.
    pub all: BTreeMap<String, String>,
    /// The ones keys expand.
    pub keys: BTreeMap<String, String>,
}

impl Abbreviations {
    /// Both maps of a catalog.
    pub fn of(tools: &[Tool]) -> Abbreviations {
        let all = abbreviations(tools);
        let keys = key_abbreviations(tools, &all);
        Abbreviations { all, keys }
    }
}

/// A field: tool, endpoint and field index.
pub type FieldRef = (usize, usize, usize);
/// A parameter: tool, endpoint and parameter index.
pub type ParamRef = (usize, usize, usize);

/// A concept the derivation proposes, before aliases are settled.
#[derive(Clone, Debug, Default)]
pub struct Proposed {
    /// Its id.
    pub id: String,
    /// Fields that carry it.
    pub fields: Vec<FieldRef>,
    /// Parameters bound to it.
    pub params: Vec<ParamRef>,
    /// Alias candidates with how often each was seen.
    pub aliases: BTreeMap<String, usize>,
    /// Descriptions seen, with counts.
    pub descriptions: BTreeMap<String, usize>,
    /// Whether it is a parameter concept (no field carries it).
    pub parameter: bool,
}

/// Abbreviations the catalog spells out: a name word and the description word it stands for.
pub fn abbreviations(tools: &[Tool]) -> BTreeMap<String, String> {
    let mut votes: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    let mut consider = |name: &str, description: Option<&str>| {
        let Some(d) = description else { return };
        let dwords: Vec<String> = d
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        let head: Vec<String> = head_term(d, &[])
            .map(|h| terms::words(&h))
            .unwrap_or_default();
        for w in terms::words(name) {
            if w.len() > 5 || !w.chars().all(|c| c.is_ascii_alphabetic()) || dwords.contains(&w) {
                continue;
            }
            let pool: &[String] = if w.len() == 1 { &head } else { &dwords };
            if let Some(long) = pool
                .iter()
                .find(|l| abbreviates(&w, l) && !terms::is_stop(l))
            {
                *votes
                    .entry(w.clone())
                    .or_default()
                    .entry(singular(long))
                    .or_default() += 1;
            }
        }
    };
    for t in tools {
        for e in &t.endpoints {
            for f in &e.value.fields {
                consider(
                    &f.value.name.value,
                    f.value.description.as_ref().map(|d| d.value.as_str()),
                );
            }
            for p in &e.value.parameters {
                consider(
                    &p.value.name.value,
                    p.value.description.as_ref().map(|d| d.value.as_str()),
                );
            }
        }
    }
    votes
        .into_iter()
        .filter_map(|(w, v)| {
            let best = v.iter().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))?;
            // An inflection is no abbreviation (`start` / `starting`, `name` / `named`).
            let rest = best.0.strip_prefix(w.as_str()).unwrap_or("");
            if [
                "s", "es", "ed", "er", "ers", "ing", "ly", "ion", "ions", "d",
            ]
            .contains(&rest)
            {
                return None;
            }
            Some((w, best.0.clone()))
        })
        .collect()
}

/// The abbreviations that concept keys expand: those whose long form the catalog also writes
/// as a name (a field `temp` and a field `temperature`); the others give aliases only.
pub fn key_abbreviations(
    tools: &[Tool],
    all: &BTreeMap<String, String>,
) -> BTreeMap<String, String> {
    let mut names: BTreeSet<String> = BTreeSet::new();
    for t in tools {
        for e in &t.endpoints {
            for f in &e.value.fields {
                names.extend(key_words(&f.value.name.value));
            }
            for p in &e.value.parameters {
                names.extend(key_words(&p.value.name.value));
            }
        }
    }
    all.iter()
        .filter(|(_, long)| names.contains(*long))
        .map(|(a, b)| (a.clone(), b.clone()))
        .collect()
}

fn expand(words: &[String], abbr: &BTreeMap<String, String>) -> Vec<String> {
    words
        .iter()
        .map(|w| abbr.get(w).cloned().unwrap_or_else(|| w.clone()))
        .collect()
}

/// The type class fields of one concept must share (`any` fits every class).
fn class(t: &ValueType) -> &'static str {
    let s = t.to_string();
    if s.ends_with("[]") || s == "array" {
        "list"
    } else {
        match s.as_str() {
            "number" | "integer" => "number",
            "boolean" => "flag",
            "object" => "object",
            "any" => "any",
            _ => "text",
        }
    }
}

/// One member of a concept: its key, the words it was written with, its description head.
struct Member<R> {
    at: R,
    key: String,
    class: &'static str,
    written: Vec<String>,
    expanded: Vec<String>,
    head: Option<String>,
    description: Option<String>,
    whole: bool,
    endpoint: (usize, usize),
}

/// The key of a response field, with the words it was written with.
fn field_key(
    name: &str,
    info: &EndpointInfo,
    abbr: &BTreeMap<String, String>,
) -> Option<(String, Vec<String>, bool)> {
    let segments: Vec<&str> = name
        .split('.')
        .map(|s| s.trim_end_matches("[]"))
        .filter(|s| !s.is_empty())
        .collect();
    let leaf = *segments.last()?;
    let written = terms::words(leaf);
    let leaf_words = expand(&key_words(leaf), abbr);
    if leaf_words.is_empty() {
        return None;
    }
    let depth = segments.len() - 1;
    let joined = leaf_words.join("_");
    let whole = depth == 0 && WHOLE.contains(&joined.as_str());
    let words: Vec<String> = if whole && !info.resource.is_empty() {
        expand(&info.resource, abbr)
    } else if GENERIC.contains(&joined.as_str()) {
        let qualifier = if depth > 0 {
            expand(&key_words(segments[depth - 1]), abbr).pop()
        } else {
            expand(&info.resource, abbr).pop()
        };
        match qualifier {
            Some(q) if q != joined && !leaf_words.contains(&q) => {
                let mut w = vec![q];
                w.extend(leaf_words);
                w
            }
            _ => leaf_words,
        }
    } else {
        leaf_words
    };
    Some((words.join("_"), written, whole))
}

/// Union-find over member clusters.
struct Union {
    parent: Vec<usize>,
}

impl Union {
    fn new(n: usize) -> Union {
        Union {
            parent: (0..n).collect(),
        }
    }
    fn find(&mut self, i: usize) -> usize {
        let mut r = i;
        while self.parent[r] != r {
            r = self.parent[r];
        }
        self.parent[i] = r;
        r
    }
    fn join(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        // The smaller index stays the root, so the result does not depend on the order of joins.
        if a < b {
            self.parent[b] = a;
        } else if b < a {
            self.parent[a] = b;
        }
    }
}

/// Group members into concepts: by key (and class), then by shared description heads.
fn cluster<R>(members: Vec<Member<R>>, parameter: bool) -> Vec<Proposed>
where
    R: Copy + Into<(usize, usize, usize)>,
{
    // Key and class clusters; `any` joins the key's most common class.
    let mut by_key: BTreeMap<String, BTreeMap<&'static str, Vec<usize>>> = BTreeMap::new();
    for (i, m) in members.iter().enumerate() {
        by_key
            .entry(m.key.clone())
            .or_default()
            .entry(m.class)
            .or_default()
            .push(i);
    }
    let mut clusters: Vec<(String, Vec<usize>)> = Vec::new();
    for (key, classes) in by_key {
        let majority = classes
            .iter()
            .filter(|(c, _)| **c != "any")
            .max_by(|a, b| a.1.len().cmp(&b.1.len()).then(b.0.cmp(a.0)))
            .map(|(c, _)| *c)
            .unwrap_or("any");
        let mut main: Vec<usize> = Vec::new();
        let mut rest: Vec<(String, Vec<usize>)> = Vec::new();
        for (c, v) in classes {
            if parameter || c == majority || c == "any" {
                main.extend(v);
            } else {
                rest.push((format!("{key}_{c}"), v));
            }
        }
        main.sort_unstable();
        clusters.push((key, main));
        clusters.extend(rest);
    }
    // Description heads join clusters of different keys (of one class, and never two fields
    // of one endpoint).
    let n = clusters.len();
    let mut u = Union::new(n);
    let mut endpoints: Vec<BTreeSet<(usize, usize)>> = clusters
        .iter()
        .map(|(_, v)| v.iter().map(|i| members[*i].endpoint).collect())
        .collect();
    let classes: Vec<&'static str> = clusters
        .iter()
        .map(|(_, v)| {
            v.iter()
                .map(|i| members[*i].class)
                .find(|c| *c != "any")
                .unwrap_or("any")
        })
        .collect();
    let mut by_head: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (ci, (key, v)) in clusters.iter().enumerate() {
        let mut heads: BTreeSet<String> = BTreeSet::new();
        if key.contains('_') {
            heads.insert(key.replace('_', " "));
        }
        for i in v {
            let m = &members[*i];
            if let Some(h) = &m.head
                && !m.whole
                && h.split(' ').count() >= 2
            {
                heads.insert(
                    terms::words(h)
                        .iter()
                        .map(|w| singular(w))
                        .collect::<Vec<_>>()
                        .join(" "),
                );
            }
        }
        for h in heads {
            by_head.entry(h).or_default().push(ci);
        }
    }
    for list in by_head.values() {
        // A head many clusters share is boilerplate, not a meaning.
        if list.len() < 2 || list.len() > 8 {
            continue;
        }
        for &c in &list[1..] {
            let (ra, rb) = (u.find(list[0]), u.find(c));
            let compatible = parameter
                || classes[ra] == classes[rb]
                || classes[ra] == "any"
                || classes[rb] == "any";
            if ra == rb
                || !compatible
                || endpoints[ra].intersection(&endpoints[rb]).next().is_some()
            {
                continue;
            }
            u.join(ra, rb);
            let root = u.find(ra);
            let other = if root == ra { rb } else { ra };
            let moved = std::mem::take(&mut endpoints[other]);
            endpoints[root].extend(moved);
        }
    }
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for ci in 0..n {
        groups.entry(u.find(ci)).or_default().push(ci);
    }
    let mut out = Vec::new();
    for cis in groups.values() {
        let mut keys: BTreeMap<&str, usize> = BTreeMap::new();
        let mut p = Proposed {
            parameter,
            ..Proposed::default()
        };
        for &ci in cis {
            let (key, v) = &clusters[ci];
            *keys.entry(key.as_str()).or_default() += v.len();
            for i in v {
                let m = &members[*i];
                let at: (usize, usize, usize) = m.at.into();
                if parameter {
                    p.params.push(at);
                } else {
                    p.fields.push(at);
                }
                *p.aliases.entry(key.replace('_', " ")).or_default() += 1;
                *p.aliases.entry(m.written.join(" ")).or_default() += 1;
                *p.aliases.entry(m.expanded.join(" ")).or_default() += 1;
                if let Some(h) = &m.head
                    && !m.whole
                {
                    *p.aliases.entry(h.clone()).or_default() += 1;
                }
                if let Some(d) = &m.description {
                    *p.descriptions.entry(d.clone()).or_default() += 1;
                }
            }
        }
        // The id: the most common key; on a tie, one that a description spells out (`city
        // name` for `name` and `city.name`), then the longer.
        let heads: BTreeSet<String> = cis
            .iter()
            .flat_map(|ci| clusters[*ci].1.iter())
            .filter_map(|i| members[*i].head.as_ref())
            .map(|h| h.replace(' ', "_"))
            .collect();
        p.id = keys
            .iter()
            .max_by(|a, b| {
                a.1.cmp(b.1)
                    .then(heads.contains(*a.0).cmp(&heads.contains(*b.0)))
                    .then(a.0.len().cmp(&b.0.len()))
                    .then(b.0.cmp(a.0))
            })
            .map(|(k, _)| k.to_string())
            .unwrap_or_default();
        p.fields.sort_unstable();
        p.params.sort_unstable();
        out.push(p);
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    out
}

/// A field or parameter position.
#[derive(Clone, Copy)]
struct At(usize, usize, usize);

impl From<At> for (usize, usize, usize) {
    fn from(a: At) -> Self {
        (a.0, a.1, a.2)
    }
}

/// The boilerplate the MCP importer writes on a `result` field.
fn boilerplate(d: &str) -> bool {
    d.starts_with("The tool's result content")
}

/// Response concepts over the fields `wanted` says may get one (those not mapped by a person).
pub fn response(
    tools: &[Tool],
    infos: &[Vec<EndpointInfo>],
    abbr: &Abbreviations,
    wanted: impl Fn(FieldRef) -> bool,
) -> Vec<Proposed> {
    let mut members = Vec::new();
    for (ti, t) in tools.iter().enumerate() {
        for (ei, e) in t.endpoints.iter().enumerate() {
            let info = &infos[ti][ei];
            for (fi, f) in e.value.fields.iter().enumerate() {
                if !wanted((ti, ei, fi)) {
                    continue;
                }
                let f = &f.value;
                let Some((key, written, whole)) = field_key(&f.name.value, info, &abbr.keys) else {
                    continue;
                };
                let expanded = if whole {
                    written.clone()
                } else {
                    expand(&written, &abbr.all)
                };
                let description = f
                    .description
                    .as_ref()
                    .map(|d| d.value.as_str())
                    .filter(|d| !boilerplate(d));
                let description = if whole {
                    info.summary.clone()
                } else {
                    description.map(|d| terms::first_sentence(d).to_string())
                };
                members.push(Member {
                    at: At(ti, ei, fi),
                    key,
                    class: class(&f.ty.value),
                    written,
                    expanded,
                    head: f
                        .description
                        .as_ref()
                        .filter(|d| !boilerplate(&d.value))
                        .and_then(|d| head_term(&d.value, &[])),
                    description: description.filter(|d| !d.is_empty()),
                    whole,
                    endpoint: (ti, ei),
                });
            }
        }
    }
    cluster(members, false)
}

/// Parameter concepts over the parameters `wanted` says may be bound (not credentials, not
/// bound by a person).
pub fn parameters(
    tools: &[Tool],
    abbr: &Abbreviations,
    wanted: impl Fn(ParamRef) -> bool,
) -> Vec<Proposed> {
    let mut members = Vec::new();
    for (ti, t) in tools.iter().enumerate() {
        for (ei, e) in t.endpoints.iter().enumerate() {
            for (pi, p) in e.value.parameters.iter().enumerate() {
                if !wanted((ti, ei, pi)) {
                    continue;
                }
                let p = &p.value;
                let words = expand(&key_words(&p.name.value), &abbr.keys);
                if words.is_empty() {
                    continue;
                }
                members.push(Member {
                    at: At(ti, ei, pi),
                    key: words.join("_"),
                    class: "any",
                    written: terms::words(&p.name.value),
                    expanded: expand(&terms::words(&p.name.value), &abbr.all),
                    head: p
                        .description
                        .as_ref()
                        .and_then(|d| head_term(&d.value, &[])),
                    description: p
                        .description
                        .as_ref()
                        .map(|d| terms::first_sentence(&d.value).to_string())
                        .filter(|d| !d.is_empty()),
                    whole: false,
                    endpoint: (ti, ei),
                });
            }
        }
    }
    cluster(members, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::derive::endpoints::describe;
    use crate::import::emit::parse_tool;
    use crate::source::Format;

    fn tool(text: &str) -> Tool {
        parse_tool(text, Format::Yaml).unwrap()
    }

    #[test]
    fn fields_that_mean_the_same_share_a_concept() {
        let a = tool(
            "id: owm\ntitle: T\ndomain: d\nendpoints:\n  - id: weather\n    method: GET\n    url: https://x.org/weather\n    fields:\n      - name: main.temp\n        type: number\n        description: Temperature. Unit Default - Kelvin\n      - name: name\n        type: string\n        description: City name\n  - id: forecast\n    method: GET\n    url: https://x.org/forecast\n    fields:\n      - name: list[].main.temp\n        type: number\n      - name: city.name\n        type: string\n",
        );
        let b = tool(
            "id: other\ntitle: T\ndomain: d\nendpoints:\n  - id: now\n    method: GET\n    url: https://y.org/now\n    fields:\n      - name: temperature\n        type: number\n      - name: mpn\n        type: string\n        description: Manufacturer part number of the sensor\n  - id: parts\n    method: GET\n    url: https://y.org/parts\n    fields:\n      - name: manufacturer_part_number\n        type: string\n",
        );
        let tools = vec![a, b];
        let infos: Vec<Vec<EndpointInfo>> = tools
            .iter()
            .map(|t| t.endpoints.iter().map(|e| describe(t, &e.value)).collect())
            .collect();
        let abbr = Abbreviations::of(&tools);
        assert_eq!(
            abbr.keys.get("temp").map(String::as_str),
            Some("temperature")
        );
        let c = response(&tools, &infos, &abbr, |_| true);
        let ids: Vec<(&str, Vec<FieldRef>)> = c
            .iter()
            .map(|p| (p.id.as_str(), p.fields.clone()))
            .collect();
        assert_eq!(
            ids,
            [
                ("city_name", vec![(0, 0, 1), (0, 1, 1)]),
                ("manufacturer_part_number", vec![(1, 0, 1), (1, 1, 0)]),
                ("temperature", vec![(0, 0, 0), (0, 1, 0), (1, 0, 0)]),
            ]
        );
        let t = c.iter().find(|p| p.id == "temperature").unwrap();
        assert!(t.aliases.contains_key("temp"), "{:?}", t.aliases);
    }
}
