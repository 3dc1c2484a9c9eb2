//! What an endpoint does: its action (read, list, search, create, update, delete, or the verb
//! its name or description leads with: `convert`, `navigate`) and the resource it acts on (the
//! nouns of its name or URL path, singular: `stock price`, `issue comment`), from the HTTP
//! method, the MCP annotations, the verbs in its name and its description.

use super::terms::{self, head_term, key_words, singular};
use crate::model::{Endpoint, HttpMethod, Tool};

/// Verbs that read one thing.
const READ: &[&str] = &[
    "get", "fetch", "retrieve", "read", "show", "view", "describe", "load", "download", "obtain",
    "display", "inspect", "return", "provide", "lookup", "see", "check", "peek", "look",
];
/// Verbs that list things.
const LIST: &[&str] = &["list", "browse", "enumerate", "all"];
/// Verbs that search.
const SEARCH: &[&str] = &[
    "search", "find", "query", "filter", "discover", "match", "locate",
];
/// Verbs that create.
const CREATE: &[&str] = &[
    "create", "add", "new", "insert", "make", "generate", "post", "upload", "register", "save",
    "submit", "publish", "write", "send", "draw", "build", "compose", "produce", "render",
];
/// Verbs that update.
const UPDATE: &[&str] = &[
    "update",
    "edit",
    "modify",
    "set",
    "change",
    "patch",
    "put",
    "rename",
    "move",
    "replace",
    "append",
    "toggle",
    "enable",
    "disable",
    "assign",
    "mark",
    "upsert",
    "apply",
    "configure",
];
/// Verbs that delete.
const DELETE: &[&str] = &[
    "delete",
    "remove",
    "drop",
    "destroy",
    "clear",
    "purge",
    "erase",
    "cancel",
    "unregister",
    "revoke",
    "wipe",
    "reset",
];

/// Words that qualify a resource without naming it (`current stock price` is a stock price).
const QUALIFIERS: &[&str] = &[
    "current",
    "latest",
    "recent",
    "new",
    "all",
    "multiple",
    "single",
    "specific",
    "detailed",
    "detail",
    "basic",
    "full",
    "given",
    "batch",
    "bulk",
    "top",
    "trending",
    "popular",
    "random",
    "historical",
    "daily",
    "info",
    "information",
    "data",
    "details",
    "list",
    "my",
    "one",
    "certain",
    "particular",
    "various",
    "available",
    "existing",
    "selected",
    "custom",
    "simple",
    "advanced",
    "tool",
    "tools",
    "api",
    "mcp",
    "server",
    "content",
    "contents",
];

/// Path segments that are no resource (`/api/v2/...`).
const PATH_NOISE: &[&str] = &["api", "apis", "rest", "json", "xml", "public", "services"];

/// The action of an endpoint.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Action {
    /// Read one thing.
    Read,
    /// List things.
    List,
    /// Search.
    Search,
    /// Create.
    Create,
    /// Update.
    Update,
    /// Delete.
    Delete,
    /// Another verb the name or description leads with (`convert`, `navigate`).
    Other(String),
}

impl Action {
    /// The verb an intent id starts with (`get` for a read).
    pub fn verb(&self) -> &str {
        match self {
            Action::Read => "get",
            Action::List => "list",
            Action::Search => "search",
            Action::Create => "create",
            Action::Update => "update",
            Action::Delete => "delete",
            Action::Other(v) => v,
        }
    }

    /// Whether the action changes data.
    pub fn writes(&self) -> bool {
        matches!(self, Action::Create | Action::Update | Action::Delete)
    }
}

/// The action a verb names, if it is one of the known verbs.
fn action_of(verb: &str) -> Option<Action> {
    let v = verb;
    Some(if READ.contains(&v) {
        Action::Read
    } else if LIST.contains(&v) {
        Action::List
    } else if SEARCH.contains(&v) {
        Action::Search
    } else if CREATE.contains(&v) {
        Action::Create
    } else if UPDATE.contains(&v) {
        Action::Update
    } else if DELETE.contains(&v) {
        Action::Delete
    } else {
        return None;
    })
}

/// Every verb the tables know.
pub fn known_verb(w: &str) -> bool {
    action_of(w).is_some()
}

/// A third-person or gerund verb form in its base form, when that is a known verb
/// (`Gets` → `get`, `Searches` → `search`, `retrieves` → `retrieve`, `listing` → `list`).
fn base_verb(w: &str) -> Option<String> {
    let w = w.to_lowercase();
    if known_verb(&w) {
        return Some(w);
    }
    let candidates = [
        w.strip_suffix("es").map(str::to_string),
        w.strip_suffix('s').map(str::to_string),
        w.strip_suffix("ies").map(|s| format!("{s}y")),
        w.strip_suffix("ing").map(str::to_string),
        w.strip_suffix("ing").map(|s| format!("{s}e")),
    ];
    candidates.into_iter().flatten().find(|c| known_verb(c))
}

/// What the deriver knows of one endpoint.
#[derive(Clone, Debug)]
pub struct EndpointInfo {
    /// What it does.
    pub action: Action,
    /// The resource it acts on: singular words, at most three (`[stock, price]`); empty when
    /// nothing names one.
    pub resource: Vec<String>,
    /// The first sentence of its description.
    pub summary: Option<String>,
}

impl EndpointInfo {
    /// The key endpoints that do the same share: action and resource.
    pub fn key(&self) -> (String, String) {
        (self.action.verb().to_string(), self.resource.join("_"))
    }
}

/// The literal segments of a URL path (parameters, versions, noise and extensions dropped),
/// each with whether a `{parameter}` follows it.
fn path_segments(url: &str) -> Vec<(String, bool)> {
    let path = url
        .split("://")
        .nth(1)
        .map(|r| r.find('/').map_or("", |i| &r[i..]))
        .unwrap_or(url);
    let path = path.split(['?', '#']).next().unwrap_or("");
    let mut out: Vec<(String, bool)> = Vec::new();
    for seg in path.split('/').filter(|s| !s.is_empty()) {
        if seg.starts_with('{') {
            if let Some(last) = out.last_mut() {
                last.1 = true;
            }
            continue;
        }
        let seg = seg.split('.').next().unwrap_or(seg);
        let lower = seg.to_lowercase();
        let version = lower.starts_with('v') && lower[1..].chars().all(|c| c.is_ascii_digit());
        if seg.is_empty()
            || version
            || PATH_NOISE.contains(&lower.as_str())
            || lower.chars().all(|c| c.is_ascii_digit() || c == '.')
        {
            continue;
        }
        out.push((seg.to_string(), false));
    }
    out
}

/// The content words of a resource: no stop words, qualifiers or numbers, and not the tool's
/// own name in front (`puppeteer_screenshot` → `screenshot`; a chart tool's `bar chart` keeps
/// `chart`).
fn content(words: Vec<String>, tool_words: &[String]) -> Vec<String> {
    let mut out: Vec<String> = words
        .into_iter()
        .filter(|w| {
            !terms::is_stop(w)
                && !QUALIFIERS.contains(&w.as_str())
                && !w.chars().all(|c| c.is_ascii_digit())
        })
        .collect();
    while out.len() > 1 && tool_words.contains(&out[0]) {
        out.remove(0);
    }
    out
}

/// The resource words of an HTTP endpoint from its URL path: the last literal segment, after
/// the one before it when a parameter separates them (`/issues/{n}/comments` → `issue
/// comment`).
fn path_resource(url: &str, tool_words: &[String]) -> Vec<String> {
    let segs = path_segments(url);
    let Some((last, _)) = segs.last() else {
        return Vec::new();
    };
    let mut words = content(key_words(last), tool_words);
    // A collection under an item (`/issues/{n}/comments`) is named with its parent; the item
    // itself (`/repos/{o}/{r}/issues/{n}`) is not.
    let item = segs.last().is_some_and(|(_, p)| *p);
    if !item && segs.len() >= 2 && segs[segs.len() - 2].1 {
        let parent = content(key_words(&segs[segs.len() - 2].0), tool_words);
        if let Some(p) = parent.last()
            && !words.contains(p)
        {
            words.insert(0, p.clone());
        }
    }
    words.truncate(3);
    words
}

/// The resource words of a name (`get_current_stock_price_by_date` → `[stock, price]`): the
/// words after the verb, up to a preposition, without qualifiers and the tool's own name.
fn name_resource(name_words: &[String], tool_words: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for w in name_words {
        if matches!(
            w.as_str(),
            "by" | "for" | "from" | "in" | "of" | "on" | "to" | "with" | "at" | "via" | "using"
        ) && !out.is_empty()
        {
            break;
        }
        out.push(w.clone());
    }
    let mut words = content(out.iter().map(|w| singular(w)).collect(), tool_words);
    words.dedup();
    words.truncate(3);
    words
}

/// The action and resource of an endpoint of `tool`.
pub fn describe(tool: &Tool, e: &Endpoint) -> EndpointInfo {
    let tool_words: Vec<String> = key_words(&tool.id.value)
        .into_iter()
        .filter(|w| w.len() > 2)
        .collect();
    let name = e
        .mcp_tool
        .as_ref()
        .map(|m| m.value.as_str())
        .unwrap_or(&e.id.value);
    let name_words: Vec<String> = terms::words(name);
    let description = e.description.as_ref().map(|d| d.value.as_str());
    let summary = description
        .map(terms::first_sentence)
        .filter(|s| !s.is_empty());
    let desc_first: Option<String> = description
        .and_then(|d| d.split_whitespace().next())
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_string());
    let desc_verb = desc_first.as_deref().and_then(base_verb);
    let name_verb = name_words.iter().take(3).find(|w| known_verb(w)).cloned();
    let http = !matches!(e.method.value, HttpMethod::Mcp | HttpMethod::Local);
    let action = if http {
        http_action(e, name_verb.as_deref())
    } else {
        let verb = name_verb.clone().or(desc_verb.clone());
        match verb.as_deref().and_then(action_of) {
            Some(a) => a,
            None => other_action(e, &name_words, desc_first.as_deref(), &tool_words),
        }
    };
    // The resource: the URL path for HTTP endpoints, the name for MCP tools; the description's
    // head term when neither names one.
    let mut resource = if http {
        path_resource(&e.url.value, &tool_words)
    } else {
        let after_verb: Vec<String> = match name_words
            .iter()
            .position(|w| known_verb(w) || matches!(&action, Action::Other(v) if v == w))
        {
            Some(i) => name_words[i + 1..].to_vec(),
            None => name_words.clone(),
        };
        name_resource(&after_verb, &tool_words)
    };
    if resource.is_empty()
        && let Some(d) = description
    {
        let verbs: Vec<&str> = desc_first.iter().map(String::as_str).collect();
        if let Some(h) = head_term(d, &verbs) {
            resource = name_resource(&terms::words(&h), &tool_words);
        }
    }
    if resource.is_empty() {
        resource = name_resource(&name_words, &[]);
    }
    // The action's own verb is no resource (`click` / "Click an element" → `element`).
    if resource.len() > 1 {
        let verb = action.verb().to_string();
        resource.retain(|w| *w != verb && action_of(w).as_ref() != Some(&action));
    }
    EndpointInfo {
        action,
        resource,
        summary,
    }
}

fn http_action(e: &Endpoint, name_verb: Option<&str>) -> Action {
    let named = name_verb.and_then(action_of);
    match e.method.value {
        HttpMethod::Delete => Action::Delete,
        HttpMethod::Put | HttpMethod::Patch => Action::Update,
        HttpMethod::Post => match named {
            Some(a @ (Action::Search | Action::Read | Action::List | Action::Update)) => a,
            Some(Action::Delete) => Action::Delete,
            _ => Action::Create,
        },
        _ => {
            if matches!(named, Some(Action::Search))
                || e.parameters.iter().any(|p| {
                    matches!(
                        p.name.value.to_lowercase().as_str(),
                        "q" | "query" | "search" | "keyword" | "keywords" | "term" | "filter"
                    )
                })
            {
                return Action::Search;
            }
            let segs = path_segments(&e.url.value);
            let item = e.url.value.trim_end_matches('/').ends_with('}')
                || segs.last().is_some_and(|(_, p)| *p);
            if item {
                Action::Read
            } else if matches!(named, Some(Action::List))
                || e.records.as_ref().is_some_and(|r| r.value.ends_with("[]"))
            {
                Action::List
            } else {
                Action::Read
            }
        }
    }
}

/// An action for a name whose verb the tables do not know: the name's first word that is no
/// tool word, when the description leads with the same verb (`navigate` / "Navigate to a URL"),
/// else the description's leading word when it reads as a verb; read-only annotations make it a
/// read, destructive ones a delete.
fn other_action(
    e: &Endpoint,
    name_words: &[String],
    desc_first: Option<&str>,
    tool_words: &[String],
) -> Action {
    let first = name_words.iter().find(|w| !tool_words.contains(w));
    let desc = desc_first.map(|w| w.to_lowercase());
    let verb_like =
        |w: &str| w.len() > 2 && w.chars().all(|c| c.is_ascii_alphabetic()) && !terms::is_stop(w);
    if let (Some(f), Some(d)) = (first, &desc) {
        let d_base = d
            .strip_suffix("es")
            .filter(|b| b == f)
            .or_else(|| d.strip_suffix('s').filter(|b| b == f))
            .unwrap_or(d);
        if d_base == f && verb_like(f) {
            return Action::Other(f.clone());
        }
    }
    if let Some(a) = &e.annotations {
        if a.read_only.as_ref().is_some_and(|r| r.value) {
            return Action::Read;
        }
        if a.destructive.as_ref().is_some_and(|d| d.value) {
            return Action::Delete;
        }
    }
    if let Some(f) = first
        && verb_like(f)
        && name_words.len() >= 2
    {
        return Action::Other(f.clone());
    }
    Action::Read
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::emit::parse_tool;
    use crate::source::Format;

    fn info(tool_id: &str, endpoint: &str) -> EndpointInfo {
        let t = parse_tool(
            &format!("id: {tool_id}\ntitle: T\ndomain: d\nendpoints:\n{endpoint}"),
            Format::Yaml,
        )
        .unwrap();
        describe(&t, &t.endpoints[0].value)
    }

    #[test]
    fn mcp_tools_by_name_and_description() {
        let i = info(
            "yahoo_finance",
            "  - id: get_current_stock_price\n    method: MCP\n    url: mcp://y/get_current_stock_price\n    description: Get the current stock price based on stock symbol.\n",
        );
        assert_eq!(i.action, Action::Read);
        assert_eq!(i.resource, ["stock", "price"]);
        let i = info(
            "duckduckgo_search",
            "  - id: search\n    method: MCP\n    url: mcp://d/search\n    description: Search the web using DuckDuckGo.\n",
        );
        assert_eq!(i.action, Action::Search);
        assert_eq!(i.resource, ["web"]);
        let i = info(
            "puppeteer",
            "  - id: puppeteer_navigate\n    method: MCP\n    url: mcp://p/puppeteer_navigate\n    description: Navigate to a URL\n",
        );
        assert_eq!(i.action, Action::Other("navigate".into()));
        assert_eq!(i.resource, ["url"]);
    }

    #[test]
    fn http_endpoints_by_method_and_path() {
        let i = info(
            "github",
            "  - id: issues_get\n    method: GET\n    url: https://api.github.com/repos/{owner}/{repo}/issues/{issue_number}\n",
        );
        assert_eq!(
            (i.action, i.resource),
            (Action::Read, vec!["issue".to_string()])
        );
        let i = info(
            "github",
            "  - id: issues_list_comments\n    method: GET\n    url: https://api.github.com/repos/{owner}/{repo}/issues/{issue_number}/comments\n    records: '[]'\n",
        );
        assert_eq!(
            (i.action, i.resource),
            (
                Action::List,
                vec!["issue".to_string(), "comment".to_string()]
            )
        );
        let i = info(
            "owm",
            "  - id: current_weather\n    method: GET\n    url: https://api.openweathermap.org/data/2.5/weather\n    parameters:\n      - name: q\n        type: string\n",
        );
        assert_eq!(
            (i.action, i.resource),
            (Action::Search, vec!["weather".to_string()])
        );
        let i = info(
            "github",
            "  - id: issues_create\n    method: POST\n    url: https://api.github.com/repos/{owner}/{repo}/issues\n",
        );
        assert_eq!(i.action, Action::Create);
    }
}
