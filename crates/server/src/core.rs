//! The server core shared by `serve` (HTTP) and `mcp`: the loaded artifact with atomic swap on
//! reload, the one `route` function both faces call, limits, the bearer token, the request log
//! and the metrics.
//!
//! Reload: [`Core::reload`] loads and verifies the file again with
//! [`crate::artifact::io::load_routing`] (format version, content hash, well-formed content) and
//! builds the lexical analyzer over it; only then is the new [`Snapshot`] stored (one atomic
//! pointer swap, `arc-swap`). A request holds the `Arc<Snapshot>` it started with, so requests in
//! flight finish on the old artifact and every answer names the artifact that produced it
//! ([`Routed::artifact_hash`]). An artifact that fails verification is refused, logged, and the
//! old one kept. [`Core::spawn_watcher`] polls the file's identity (device, inode, size,
//! modification time; `compile` replaces the file by rename) and reloads when it changes; the
//! CLI also reloads on SIGHUP.
//!
//! When the artifact was found by discovery rather than named ([`Config::discover`]), every
//! check runs the discovery again: when it now names another file (`compile --format bin`
//! wrote `graph.bin` and removed the `graph.json` being served), that file is loaded and
//! verified the same way, and served from then on if it passes; if it fails, the old artifact
//! is kept and the new file is retried when it changes.

use super::metrics::Metrics;
use crate::artifact::FrozenGraph;
use crate::route::analyzer::Analyzer;
use crate::route::analyzer::lexical::Lexical;
use crate::route::{self, Options, Plan, Projection, Understanding};
use arc_swap::ArcSwap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use subtle::ConstantTimeEq;

self_cell::self_cell!(
    /// A loaded artifact and the lexical analyzer built over it.
    struct Loaded {
        owner: FrozenGraph,
        #[covariant]
        dependent: Lexical,
    }
);

/// Request limits (both faces).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest request body, in bytes (HTTP and MCP over HTTP; larger bodies get 413).
    pub max_body_bytes: usize,
    /// Longest question, in characters (Unicode scalar values).
    pub max_question_chars: usize,
    /// Requests handled at once; more get 503 (HTTP) or a JSON-RPC error (MCP) at once.
    pub max_concurrency: usize,
    /// Time for one request, body included; slower requests get 408.
    pub request_timeout: Duration,
    /// Open sessions of the MCP streamable HTTP transport (each holds a worker and its
    /// buffers, about 400 KB); an `initialize` beyond them gets 503 with a JSON-RPC error.
    pub max_sessions: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body_bytes: 64 * 1024,
            max_question_chars: 2000,
            max_concurrency: 256,
            request_timeout: Duration::from_secs(10),
            max_sessions: 256,
        }
    }
}

/// A bearer token, kept as its blake3 digest so that comparing a presented token takes the same
/// time whatever its length or content (constant-time comparison of the two digests).
#[derive(Clone)]
pub struct Token([u8; 32]);

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(..)")
    }
}

impl Token {
    /// A token from its text (surrounding whitespace, such as a final newline, is removed).
    ///
    /// Errors: the text is empty after trimming.
    pub fn new(text: &str) -> Result<Token, String> {
        let t = text.trim();
        if t.is_empty() {
            return Err("the token file is empty; write the token on its first line".into());
        }
        Ok(Token(*blake3::hash(t.as_bytes()).as_bytes()))
    }

    /// Read a token file (the token on its own, a final newline allowed).
    ///
    /// Errors: the file cannot be read, is not UTF-8, or is empty.
    pub fn from_file(path: &Path) -> Result<Token, String> {
        // A token is short: a stream that goes on (`/dev/zero`) is no token file.
        let text = schemarouter_core::input::read_file_to_string_limited(path, 64 * 1024)
            .map_err(|e| format!("cannot read the token file `{}`: {e}", path.display()))?;
        Token::new(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Whether `presented` (the bytes after `Bearer `) is this token, in constant time.
    pub fn matches(&self, presented: &[u8]) -> bool {
        let d = blake3::hash(presented);
        bool::from(d.as_bytes().ct_eq(&self.0))
    }
}

/// Finds the artifact file to serve now (the command line's discovery: the newer of
/// `build/graph.bin` and `build/graph.json` of the project), or `None` when there is none.
#[derive(Clone)]
pub struct Discover(Arc<dyn Fn() -> Option<PathBuf> + Send + Sync>);

impl Discover {
    /// A discovery function.
    pub fn new(f: impl Fn() -> Option<PathBuf> + Send + Sync + 'static) -> Discover {
        Discover(Arc::new(f))
    }

    /// Run it.
    pub fn find(&self) -> Option<PathBuf> {
        (self.0)()
    }
}

impl std::fmt::Debug for Discover {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Discover(..)")
    }
}

/// Everything the core needs to start.
#[derive(Clone, Debug)]
pub struct Config {
    /// The artifact file (`graph.json` or `graph.bin`); `intent_prompt.txt` beside it is the
    /// Understand-step prompt (rendered from the artifact when missing).
    pub artifact: PathBuf,
    /// When the artifact was discovered (not named): how to find it again on reload, so that a
    /// compile writing the other form is followed. `None`: the named file is reloaded.
    pub discover: Option<Discover>,
    /// Request limits.
    pub limits: Limits,
    /// When set, every request must carry `Authorization: Bearer <token>`.
    pub token: Option<Token>,
    /// Write one log line per request to stderr (events such as reloads are always logged).
    pub log_requests: bool,
}

/// Name, version, hashes and counts of a loaded artifact, and when it was loaded.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The artifact file as given.
    pub path: String,
    /// Project name.
    pub project: String,
    /// Project version.
    pub version: String,
    /// Artifact format version.
    pub format_version: u32,
    /// schemarouter version that wrote the artifact.
    pub tool_version: String,
    /// blake3 of the artifact bytes (with the hash itself zeroed): which artifact this is.
    pub content_hash: String,
    /// blake3 of what can change a plan.
    pub routing_fingerprint: String,
    /// Tools.
    pub tools: usize,
    /// Endpoints.
    pub endpoints: usize,
    /// Response fields.
    pub fields: usize,
    /// Concepts.
    pub concepts: usize,
    /// Intents.
    pub intents: usize,
    /// When it was loaded, seconds since the Unix epoch.
    pub loaded_at: f64,
    /// How long reading, verifying and preparing it took, in milliseconds.
    pub load_ms: f64,
}

/// One loaded, verified artifact with its analyzer and prompt. Immutable; replaced as a whole.
pub struct Snapshot {
    loaded: Loaded,
    /// The Understand-step (intent-registry) prompt.
    pub prompt: String,
    /// Why `intent_prompt.txt` beside the artifact was not used although it is there (not
    /// UTF-8, unreadable): the prompt is then the one rendered from the artifact, and the
    /// server logs this as a `warning` event naming the file.
    pub prompt_warning: Option<String>,
    /// Identity and counts.
    pub summary: Summary,
}

impl Snapshot {
    /// The artifact.
    pub fn graph(&self) -> &FrozenGraph {
        self.loaded.borrow_owner()
    }

    /// The lexical analyzer over [`Snapshot::graph`].
    pub fn lexical(&self) -> &Lexical<'_> {
        self.loaded.borrow_dependent()
    }

    /// Load, verify and prepare the artifact at `path` (and read `intent_prompt.txt` beside
    /// it, or render the prompt from the artifact when there is none; when it is there but
    /// not UTF-8 or unreadable, the rendered prompt too, with [`Snapshot::prompt_warning`]
    /// saying why).
    ///
    /// Errors: the artifact cannot be read or fails verification (the message says which).
    pub fn load(path: &Path) -> Result<Snapshot, String> {
        let start = Instant::now();
        let g = crate::artifact::io::load_routing(path).map_err(|e| e.to_string())?;
        crate::search::dense::activate_or_warn(&g, Some(path));
        let (prompt, prompt_warning) = crate::prompt::read_beside(path, &g);
        let loaded = Loaded::new(g, |g| Lexical::new(g));
        let g = loaded.borrow_owner();
        let summary = Summary {
            path: path.display().to_string(),
            project: g.project.name.clone(),
            version: g.project.version.clone(),
            format_version: g.format_version,
            tool_version: g.tool_version.clone(),
            content_hash: g.content_hash.clone(),
            routing_fingerprint: g.routing_fingerprint.clone(),
            tools: g.tools.len(),
            endpoints: g.tools.iter().map(|t| t.endpoints.len()).sum(),
            fields: g.field_count(),
            concepts: g.concepts.len(),
            intents: g.intents.len(),
            loaded_at: unix_now(),
            load_ms: start.elapsed().as_secs_f64() * 1e3,
        };
        Ok(Snapshot {
            loaded,
            prompt,
            prompt_warning,
            summary,
        })
    }
}

/// Field projection names accepted by the API (`core`, `recall`, `minimal`, `all`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProjectionName {
    /// Identifiers, concept matches and, when a requested concept is not matched (or none is
    /// requested), the core fields of the intent's groups (the default).
    Core,
    /// Identifiers, concept matches and the intent's required field groups (the paper's
    /// recall-first projection).
    Recall,
    /// Identifiers and concept matches.
    Minimal,
    /// Every field of the chosen endpoint.
    All,
}

impl From<ProjectionName> for Projection {
    fn from(p: ProjectionName) -> Projection {
        match p {
            ProjectionName::Core => Projection::Core,
            ProjectionName::Recall => Projection::Recall,
            ProjectionName::Minimal => Projection::Minimal,
            ProjectionName::All => Projection::All,
        }
    }
}

/// A route request: a question or an Understanding, and options.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RouteRequest {
    /// The question; the lexical Understand step runs first. Give this or `understanding`.
    #[serde(default)]
    pub question: Option<String>,
    /// An Understanding (the Understand step's output, e.g. from your own model given the
    /// prompt); routed as given. Give this or `question`.
    #[serde(default)]
    pub understanding: Option<Understanding>,
    /// Tools to plan when the question names none (1 to 1000; default 1).
    #[serde(default)]
    #[schemars(range(min = 1, max = 1000))]
    pub k: Option<u64>,
    /// Field projection (default `core`).
    #[serde(default)]
    pub projection: Option<ProjectionName>,
}

/// A search request: ranked endpoints for a question ("tool search").
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchRequest {
    /// The question or keywords.
    pub query: String,
    /// How many endpoints to return (1 to 1000; default 10).
    #[serde(default)]
    #[schemars(range(min = 1, max = 1000))]
    pub k: Option<u64>,
}

/// How many endpoints a search request returns when it gives no `k`.
pub const DEFAULT_SEARCH_K: u64 = 10;

/// The answer to a search request.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Searched {
    /// The query as given.
    pub query: String,
    /// The ranked endpoints, best first.
    pub hits: Vec<crate::search::Hit>,
    /// Content hash of the artifact searched.
    pub artifact_hash: String,
}

/// The answer to a route request.
#[derive(Clone, Debug, Serialize)]
pub struct Routed {
    /// The Understanding that was planned (the lexical analyzer's, or the one given).
    pub understanding: Understanding,
    /// The plan (docs/schema/plan.schema.json).
    pub plan: Plan,
    /// Content hash of the artifact that produced the plan.
    pub artifact_hash: String,
}

/// A refused request: an HTTP status, a stable code and a message that says what to fix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP status (4xx for bad requests; 503 when overloaded).
    pub status: u16,
    /// Stable machine-readable code (`invalid_json`, `invalid_request`, ...).
    pub code: &'static str,
    /// What is wrong and what to do instead.
    pub message: String,
}

impl ApiError {
    /// A 400 with `code`.
    pub fn bad(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status: 400,
            code,
            message: message.into(),
        }
    }

    /// The JSON body: `{"error": {"code": ..., "message": ...}}`.
    pub fn body(&self) -> serde_json::Value {
        serde_json::json!({"error": {"code": self.code, "message": self.message}})
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

const REQUEST_SHAPE: &str = "send one JSON object: {\"question\": \"...\"} or {\"understanding\": {\"intent\": ..., \"domain_concepts\": [...], \"parameters\": {...}, \"target_apis\": [...], \"source_constraint\": ...}}, optionally with \"k\" (1-1000) and \"projection\" (\"core\", \"recall\", \"minimal\" or \"all\")";

/// Parse a route request from a JSON body.
///
/// Errors: `invalid_json` (not JSON: the message has line and column) or `invalid_request`
/// (JSON of the wrong shape: unknown keys, wrong types, a non-object).
pub fn parse_route_request(body: &[u8]) -> Result<RouteRequest, ApiError> {
    // A UTF-8 byte-order mark (some editors and Windows tools write one) is ignored, as
    // `route --understanding` does (RFC 8259 allows a parser to).
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    let value: serde_json::Value = serde_json::from_slice(body).map_err(|e| {
        ApiError::bad(
            "invalid_json",
            format!("the body is not valid JSON ({e}); {REQUEST_SHAPE}"),
        )
    })?;
    // A parsed object keeps the last of two equal keys; which one was meant is not known.
    if value.is_object() {
        schemarouter_core::json::check_no_repeated_keys(body).map_err(|e| {
            ApiError::bad(
                "invalid_request",
                format!("not a valid route request: {e}; {REQUEST_SHAPE}"),
            )
        })?;
    }
    route_request_from_value(value)
}

const SEARCH_SHAPE: &str =
    "send one JSON object: {\"query\": \"...\"}, optionally with \"k\" (1-1000, default 10)";

/// Read a search request body: one JSON object of [`SearchRequest`]'s shape.
///
/// Errors: `invalid_json` when the body is not JSON, `invalid_request` when it is not a search
/// request (or repeats a key).
pub fn parse_search_request(body: &[u8]) -> Result<SearchRequest, ApiError> {
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    let value: serde_json::Value = serde_json::from_slice(body).map_err(|e| {
        ApiError::bad(
            "invalid_json",
            format!("the body is not valid JSON ({e}); {SEARCH_SHAPE}"),
        )
    })?;
    if value.is_object() {
        schemarouter_core::json::check_no_repeated_keys(body).map_err(|e| {
            ApiError::bad(
                "invalid_request",
                format!("not a valid search request: {e}; {SEARCH_SHAPE}"),
            )
        })?;
    }
    search_request_from_value(value)
}

/// A search request from a parsed JSON value (MCP tool arguments, or a parsed body).
///
/// Errors: `invalid_request` when the value is not an object of the request's shape.
pub fn search_request_from_value(value: serde_json::Value) -> Result<SearchRequest, ApiError> {
    if !value.is_object() {
        return Err(ApiError::bad(
            "invalid_request",
            format!(
                "expected a JSON object, found {}; {SEARCH_SHAPE}",
                kind(&value)
            ),
        ));
    }
    serde_json::from_value(value).map_err(|e| {
        ApiError::bad(
            "invalid_request",
            format!("not a valid search request: {e}; {SEARCH_SHAPE}"),
        )
    })
}

/// A route request from a parsed JSON value (MCP tool arguments, or a parsed body).
///
/// Errors: `invalid_request` when the value is not an object of the request's shape.
pub fn route_request_from_value(value: serde_json::Value) -> Result<RouteRequest, ApiError> {
    if !value.is_object() {
        return Err(ApiError::bad(
            "invalid_request",
            format!(
                "expected a JSON object, found {}; {REQUEST_SHAPE}",
                kind(&value)
            ),
        ));
    }
    serde_json::from_value(value).map_err(|e| {
        ApiError::bad(
            "invalid_request",
            format!("not a valid route request: {e}; {REQUEST_SHAPE}"),
        )
    })
}

/// "a string", "an array", ... for messages.
pub(crate) fn kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// Identity of a file as seen by the watcher: replaced files (rename) get a new inode, edited
/// ones a new size or modification time.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Identity {
    artifact: Option<(u64, u64, u64, Option<SystemTime>)>,
    prompt: Option<(u64, u64, u64, Option<SystemTime>)>,
}

fn file_identity(path: &Path) -> Option<(u64, u64, u64, Option<SystemTime>)> {
    let m = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    let (dev, ino) = {
        use std::os::unix::fs::MetadataExt;
        (m.dev(), m.ino())
    };
    #[cfg(not(unix))]
    let (dev, ino) = (0, 0);
    Some((dev, ino, m.len(), m.modified().ok()))
}

fn identity(path: &Path) -> Identity {
    Identity {
        artifact: file_identity(path),
        prompt: file_identity(&path.with_file_name(crate::artifact::PROMPT_FILE)),
    }
}

/// What a reload did.
#[derive(Clone, Debug, PartialEq)]
pub enum ReloadOutcome {
    /// A new artifact (or prompt) is now served.
    Swapped {
        /// Content hash before.
        old: String,
        /// Content hash now.
        new: String,
    },
    /// The file holds the artifact already served.
    Unchanged,
    /// The new file failed verification; the old artifact is still served.
    Refused(String),
}

/// A request's concurrency permit ([`Core::permit`]), shared between the guard that took it and
/// the work it admitted ([`Core::off_the_runtime`]): it is released when both are done.
#[derive(Clone)]
pub struct Held(pub Arc<tokio::sync::OwnedSemaphorePermit>);

/// The shared server state: the current snapshot and everything both faces need.
pub struct Core {
    /// The file the current snapshot was loaded from.
    path: Mutex<PathBuf>,
    discover: Option<Discover>,
    current: ArcSwap<Snapshot>,
    /// Request limits.
    pub limits: Limits,
    token: Option<Token>,
    log_requests: bool,
    /// The metrics registry and its families.
    pub metrics: Metrics,
    /// The file last looked at by a reload and its identity then.
    seen: Mutex<(PathBuf, Identity)>,
    permits: Arc<tokio::sync::Semaphore>,
}

impl Core {
    /// Load the artifact and set up the core.
    ///
    /// Errors: the artifact cannot be read or fails verification.
    pub fn open(config: Config) -> Result<Core, String> {
        let seen = (config.artifact.clone(), identity(&config.artifact));
        let snapshot = Snapshot::load(&config.artifact)
            .map_err(|e| format!("{}: {e}", config.artifact.display()))?;
        let metrics = Metrics::new();
        metrics.set_artifact(&snapshot.summary);
        Ok(Core {
            path: Mutex::new(config.artifact),
            discover: config.discover,
            current: ArcSwap::from_pointee(snapshot),
            limits: config.limits,
            token: config.token,
            log_requests: config.log_requests,
            metrics,
            seen: Mutex::new(seen),
            permits: Arc::new(tokio::sync::Semaphore::new(
                config.limits.max_concurrency.max(1),
            )),
        })
    }

    /// The artifact file being served.
    pub fn path(&self) -> PathBuf {
        self.path.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The file a reload reads: the discovered one (when the artifact was discovered and
    /// discovery finds one), else the one being served.
    fn target(&self) -> PathBuf {
        self.discover
            .as_ref()
            .and_then(Discover::find)
            .unwrap_or_else(|| self.path())
    }

    /// The snapshot to answer one request with (keep it for the whole request).
    pub fn snapshot(&self) -> Arc<Snapshot> {
        self.current.load_full()
    }

    /// Whether one log line per request is written.
    pub fn logs_requests(&self) -> bool {
        self.log_requests
    }

    /// Whether a bearer token is required.
    pub fn requires_token(&self) -> bool {
        self.token.is_some()
    }

    /// Check an `Authorization` header value.
    ///
    /// Errors: 401 `unauthorized` when a token is required and the header is missing, not a
    /// bearer token, or the wrong token.
    pub fn authorize(&self, header: Option<&[u8]>) -> Result<(), ApiError> {
        let Some(token) = &self.token else {
            return Ok(());
        };
        let unauthorized = |m: &str| ApiError {
            status: 401,
            code: "unauthorized",
            message: m.to_string(),
        };
        let Some(h) = header else {
            return Err(unauthorized(
                "this server requires a bearer token: send `Authorization: Bearer <token>` with the token from the server's --token-file",
            ));
        };
        let presented = h
            .strip_prefix(b"Bearer ")
            .or_else(|| h.strip_prefix(b"bearer "))
            .ok_or_else(|| unauthorized("the Authorization header must be `Bearer <token>`"))?;
        if token.matches(presented.trim_ascii()) {
            Ok(())
        } else {
            Err(unauthorized(
                "wrong bearer token: send the token from the server's --token-file",
            ))
        }
    }

    /// Take one of the concurrent-request permits.
    ///
    /// Errors: 503 `overloaded` when `max_concurrency` requests are already running.
    pub fn permit(&self) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
        self.permits
            .clone()
            .try_acquire_owned()
            .map_err(|_| ApiError {
                status: 503,
                code: "overloaded",
                message: format!(
                    "{} requests are already running (--max-concurrency); retry shortly",
                    self.limits.max_concurrency
                ),
            })
    }

    /// Run CPU-bound work (planning, ranking) on tokio's blocking pool, holding `held` (the
    /// request's concurrency permit) until the work ends, so that a long question occupies no
    /// async worker (health checks, metrics and short requests keep being answered while it
    /// runs) and the `--max-concurrency` limit counts work still running after its request
    /// timed out.
    ///
    /// Errors: what `work` returns; 500 `internal` if the work panicked.
    pub async fn off_the_runtime<T: Send + 'static>(
        held: Option<Held>,
        work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        tokio::task::spawn_blocking(move || {
            let _held = held;
            work()
        })
        .await
        .unwrap_or_else(|e| {
            Err(ApiError {
                status: 500,
                code: "internal",
                message: format!("the request failed inside the server: {e}"),
            })
        })
    }

    /// Plan one request on the current snapshot: the lexical Understand step for a question,
    /// then Algorithm 1 (the same as `schemarouter route`).
    ///
    /// Errors: 400 when the request gives both or neither of `question` and `understanding`,
    /// an empty or too long question, or `k` out of range.
    pub fn route(&self, req: &RouteRequest) -> Result<Routed, ApiError> {
        self.route_on(&self.snapshot(), req)
    }

    /// Rank the endpoints of the current snapshot for a query (`schemarouter search`).
    ///
    /// Errors: 400 for an empty or too long query or `k` out of range; 500 when the served
    /// artifact cannot be read.
    pub fn search(&self, req: &SearchRequest) -> Result<Searched, ApiError> {
        self.search_on(&self.snapshot(), req)
    }

    /// [`Core::search`] on a given snapshot.
    ///
    /// Errors: as [`Core::search`].
    pub fn search_on(&self, s: &Snapshot, req: &SearchRequest) -> Result<Searched, ApiError> {
        let k = req.k.unwrap_or(DEFAULT_SEARCH_K);
        if !(1..=1000).contains(&k) {
            return Err(ApiError::bad(
                "invalid_request",
                format!("`k` must be between 1 and 1000, got {k}"),
            ));
        }
        if req.query.trim().is_empty() {
            return Err(ApiError::bad(
                "invalid_request",
                "`query` is empty; give a question or keywords such as \"current weather in London\"",
            ));
        }
        let n = req.query.chars().count();
        if n > self.limits.max_question_chars {
            return Err(ApiError::bad(
                "question_too_long",
                format!(
                    "`query` has {n} characters; at most {} are accepted (--max-question-chars): shorten it",
                    self.limits.max_question_chars
                ),
            ));
        }
        match crate::artifact::reading(|| crate::search::search(s.graph(), &req.query, k as usize))
        {
            Ok(hits) => Ok(Searched {
                query: req.query.clone(),
                hits,
                artifact_hash: s.summary.content_hash.clone(),
            }),
            Err(e) => Err(ApiError {
                status: 500,
                code: "artifact_unreadable",
                message: format!(
                    "the served artifact cannot be read: {e}; compile the project again and replace the file"
                ),
            }),
        }
    }

    /// [`Core::route`] on a given snapshot.
    ///
    /// Errors: as [`Core::route`].
    pub fn route_on(&self, s: &Snapshot, req: &RouteRequest) -> Result<Routed, ApiError> {
        // A loaded artifact is verified, but one edited and re-hashed by hand can name a tool
        // or field that is not there: a 500 with that error, never a crash.
        match crate::artifact::reading(|| self.route_verified(s, req)) {
            Ok(routed) => routed,
            Err(e) => Err(ApiError {
                status: 500,
                code: "artifact_unreadable",
                message: format!(
                    "the served artifact cannot be read: {e}; compile the project again and replace the file"
                ),
            }),
        }
    }

    fn route_verified(&self, s: &Snapshot, req: &RouteRequest) -> Result<Routed, ApiError> {
        let k = req.k.unwrap_or(1);
        if !(1..=1000).contains(&k) {
            return Err(ApiError::bad(
                "invalid_request",
                format!("`k` must be between 1 and 1000, got {k}"),
            ));
        }
        let opts = Options {
            k: k as usize,
            projection: req.projection.map(Into::into).unwrap_or_default(),
            ..Options::default()
        };
        let (understanding, warnings) = match (&req.question, &req.understanding) {
            (Some(_), Some(_)) => {
                return Err(ApiError::bad(
                    "invalid_request",
                    "give either `question` or `understanding`, not both",
                ));
            }
            (None, None) => {
                return Err(ApiError::bad(
                    "invalid_request",
                    format!(
                        "give `question` (a text) or `understanding` (an object); {REQUEST_SHAPE}"
                    ),
                ));
            }
            (Some(q), None) => {
                if q.trim().is_empty() {
                    return Err(ApiError::bad(
                        "invalid_request",
                        format!(
                            "`question` is empty; ask a question such as \"{}\"",
                            s.graph().example_question()
                        ),
                    ));
                }
                let n = q.chars().count();
                if n > self.limits.max_question_chars {
                    return Err(ApiError::bad(
                        "question_too_long",
                        format!(
                            "`question` has {n} characters; at most {} are accepted (--max-question-chars): shorten it",
                            self.limits.max_question_chars
                        ),
                    ));
                }
                // The lexical analyzer always answers.
                let a = s
                    .lexical()
                    .understand(q)
                    .map_err(|e| ApiError::bad("invalid_request", e.message))?;
                (a.understanding, a.warnings)
            }
            (None, Some(u)) => (u.clone(), Vec::new()),
        };
        let question = req
            .question
            .clone()
            .unwrap_or_else(|| route::ranked::question_of(&understanding));
        let mut plan = route::route_question(s.graph(), &question, &understanding, &opts);
        route::with_analysis_warnings(s.graph(), warnings, &mut plan);
        // The Understanding read from a question is reported with the values the plan bound; one
        // the client gave is echoed as given.
        let understanding = if req.question.is_some() {
            route::understood(&understanding, &plan)
        } else {
            understanding
        };
        Ok(Routed {
            understanding,
            plan,
            artifact_hash: s.summary.content_hash.clone(),
        })
    }

    /// Load the artifact file again (the one discovery finds now, when it was discovered) and
    /// swap it in if it verifies and differs from the one served (`trigger` says why, for the
    /// log). Never interrupts requests: they keep the snapshot they hold.
    pub fn reload(&self, trigger: &str) -> ReloadOutcome {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let target = self.target();
        *seen = (target.clone(), identity(&target));
        let old = self.snapshot();
        let served = self.path();
        let outcome = match Snapshot::load(&target) {
            Ok(s) => {
                // Whether or not the reload swaps, a prompt file that was passed over is said.
                self.warn_prompt(&s);
                let moved = target != served;
                if !moved
                    && s.summary.content_hash == old.summary.content_hash
                    && s.prompt == old.prompt
                {
                    ReloadOutcome::Unchanged
                } else {
                    let new = s.summary.content_hash.clone();
                    self.metrics.set_artifact(&s.summary);
                    let load_ms = s.summary.load_ms;
                    self.current.store(Arc::new(s));
                    *self.path.lock().unwrap_or_else(|e| e.into_inner()) = target.clone();
                    let mut event = serde_json::json!({
                        "event": "reload",
                        "trigger": trigger,
                        "result": "swapped",
                        "artifact": target.display().to_string(),
                        "old": old.summary.content_hash,
                        "new": new,
                        "load_ms": round3(load_ms),
                    });
                    if moved {
                        event["previous_artifact"] =
                            serde_json::json!(served.display().to_string());
                    }
                    self.event(event);
                    ReloadOutcome::Swapped {
                        old: old.summary.content_hash.clone(),
                        new,
                    }
                }
            }
            Err(e) => {
                self.event(serde_json::json!({
                    "event": "reload",
                    "trigger": trigger,
                    "result": "refused",
                    "artifact": target.display().to_string(),
                    "error": e,
                    "kept": old.summary.content_hash,
                }));
                ReloadOutcome::Refused(e)
            }
        };
        self.metrics.reloaded(match &outcome {
            ReloadOutcome::Swapped { .. } => "swapped",
            ReloadOutcome::Unchanged => "unchanged",
            ReloadOutcome::Refused(_) => "refused",
        });
        outcome
    }

    /// Reload when the artifact file (or the prompt beside it) changed since it was last read,
    /// or, for a discovered artifact, when discovery now finds another file.
    pub fn reload_if_changed(&self) -> Option<ReloadOutcome> {
        let target = self.target();
        let now = (target.clone(), identity(&target));
        {
            let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
            if *seen == now {
                return None;
            }
        }
        if now.1.artifact.is_none() {
            // Removed (or mid-replacement on a platform without atomic rename): keep serving.
            let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
            *seen = now;
            // Counted as the log line says, under its own result.
            self.metrics.reloaded("missing");
            self.event(serde_json::json!({
                "event": "reload",
                "trigger": "file changed",
                "result": "missing",
                "error": format!("`{}` is gone; still serving the loaded artifact", target.display()),
            }));
            return None;
        }
        Some(self.reload("file changed"))
    }

    /// Poll the artifact file every `interval` on a background thread and reload when it
    /// changes.
    pub fn spawn_watcher(self: &Arc<Self>, interval: Duration) {
        let weak = Arc::downgrade(self);
        let _ = std::thread::Builder::new()
            .name("artifact-watch".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(interval);
                    let Some(core) = weak.upgrade() else { return };
                    core.reload_if_changed();
                }
            });
    }

    /// Log a `warning` event when `s` serves the rendered prompt because its
    /// `intent_prompt.txt` could not be used ([`Snapshot::prompt_warning`]).
    pub fn warn_prompt(&self, s: &Snapshot) {
        if let Some(w) = &s.prompt_warning {
            self.event(serde_json::json!({
                "event": "warning",
                "file": Path::new(&s.summary.path)
                    .with_file_name(crate::artifact::PROMPT_FILE)
                    .display()
                    .to_string(),
                "message": w,
            }));
        }
    }

    /// Write an event line (always) to stderr: JSON with a timestamp.
    pub fn event(&self, mut v: serde_json::Value) {
        if let Some(o) = v.as_object_mut() {
            o.insert("ts".into(), serde_json::json!(round3(unix_now())));
        }
        let mut e = std::io::stderr().lock();
        let _ = writeln!(e, "{v}");
    }

    /// Write a request log line (when request logging is on): face, route, status, latency
    /// and the artifact hash.
    pub fn log_request(
        &self,
        face: &str,
        route: &str,
        status: u16,
        latency: Duration,
        artifact: &str,
    ) {
        if !self.log_requests {
            return;
        }
        let line = serde_json::json!({
            "ts": round3(unix_now()),
            "face": face,
            "route": route,
            "status": status,
            "latency_us": latency.as_micros() as u64,
            "artifact": artifact,
        });
        let mut e = std::io::stderr().lock();
        let _ = writeln!(e, "{line}");
    }
}

fn unix_now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

fn round3(x: f64) -> f64 {
    (x * 1e3).round() / 1e3
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped() -> Core {
        Core::open(Config {
            artifact: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../build/graph.json"),
            limits: Limits::default(),
            discover: None,
            token: Some(Token::new("s3cret\n").unwrap()),
            log_requests: false,
        })
        .unwrap()
    }

    #[test]
    fn tokens_compare_by_digest() {
        let c = shipped();
        assert!(c.requires_token());
        assert_eq!(c.authorize(Some(b"Bearer s3cret")), Ok(()));
        assert_eq!(c.authorize(Some(b"Bearer s3cre")).unwrap_err().status, 401);
        assert_eq!(
            c.authorize(Some(b"Basic s3cret")).unwrap_err().message,
            "the Authorization header must be `Bearer <token>`"
        );
        assert_eq!(c.authorize(None).unwrap_err().code, "unauthorized");
        assert_eq!(
            Token::new(" \n").unwrap_err(),
            "the token file is empty; write the token on its first line"
        );
    }

    /// The last tool cut out of a re-hashed `graph.json`: the web search intent still names it.
    #[test]
    fn a_reference_that_points_nowhere_is_a_500_not_a_crash() {
        let shipped = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../build/graph.json");
        let json = std::fs::read_to_string(&shipped).unwrap();
        let g = crate::artifact::io::load_routing(&shipped).unwrap();
        let last = &g.tools[g.tools.len() - 1].id;
        let end = json.find("],\"intents\":[").unwrap();
        let cut = json[..end]
            .rfind(&format!(",{{\"id\":\"{last}\","))
            .unwrap();
        let mut bad = format!("{}{}", &json[..cut], &json[end..]).into_bytes();
        let key = b"\"content_hash\":\"";
        let h = bad.windows(key.len()).position(|w| w == key).unwrap() + key.len();
        bad[h..h + 64].fill(b'0');
        let hash = blake3::hash(&bad).to_hex().to_string();
        bad[h..h + 64].copy_from_slice(hash.as_bytes());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("graph.json");
        std::fs::write(&path, &bad).unwrap();
        let c = Core::open(Config {
            artifact: path,
            limits: Limits::default(),
            discover: None,
            token: None,
            log_requests: false,
        })
        .unwrap();
        let req = br#"{"question": "search the web for news about graphene"}"#;
        let e = c.route(&parse_route_request(req).unwrap()).unwrap_err();
        let n = g.tools.len() - 1;
        assert_eq!(
            e,
            ApiError {
                status: 500,
                code: "artifact_unreadable",
                message: format!(
                    "the served artifact cannot be read: a reference names tool {n}, but the artifact has {n} tools; compile the project again and replace the file"
                ),
            }
        );
        // The server goes on answering what the artifact can answer.
        let ok = br#"{"question": "band gap of GaN"}"#;
        assert!(c.route(&parse_route_request(ok).unwrap()).is_ok());
    }

    #[test]
    fn route_requests_are_checked() {
        let c = shipped();
        let r = c
            .route(&parse_route_request(br#"{"question": "band gap of LiFePO4", "k": 1}"#).unwrap())
            .unwrap();
        assert_eq!(r.artifact_hash, c.snapshot().summary.content_hash);
        assert_eq!(
            r.plan.routing_fingerprint,
            c.snapshot().summary.routing_fingerprint
        );
        // A byte-order mark before the object is ignored.
        assert_eq!(
            parse_route_request(b"\xEF\xBB\xBF{\"question\": \"band gap of GaN\"}")
                .unwrap()
                .question
                .as_deref(),
            Some("band gap of GaN")
        );
        let e = parse_route_request(b"{\"question\": 5}").unwrap_err();
        assert_eq!(e.code, "invalid_request");
        assert!(
            e.message.starts_with(
                "not a valid route request: invalid type: integer `5`, expected a string"
            ),
            "{}",
            e.message
        );
        assert_eq!(parse_route_request(b"{").unwrap_err().code, "invalid_json");
        assert!(
            parse_route_request(b"[1]")
                .unwrap_err()
                .message
                .starts_with("expected a JSON object, found an array;")
        );
        // A repeated key is refused wherever it stands, not resolved to the last one.
        for (body, key, column) in [
            (
                &br#"{"question": "a", "question": "b"}"#[..],
                "question",
                28,
            ),
            (
                br#"{"understanding": {"intent": "x", "intent": "y", "domain_concepts": []}}"#,
                "intent",
                42,
            ),
            (
                br#"{"understanding": {"parameters": {"formula": "GaN", "formula": "AlN"}}}"#,
                "formula",
                61,
            ),
        ] {
            let e = parse_route_request(body).unwrap_err();
            assert_eq!((e.status, e.code), (400, "invalid_request"));
            assert!(
                e.message.starts_with(&format!(
                    "not a valid route request: duplicate key `{key}` at line 1 column {column};"
                )),
                "{}",
                e.message
            );
        }
        assert!(
            parse_route_request(br#"{"question": "x", "extra": 1}"#)
                .unwrap_err()
                .message
                .starts_with("not a valid route request: unknown field `extra`")
        );
        let both = RouteRequest {
            question: Some("x".into()),
            understanding: Some(Understanding::default()),
            ..RouteRequest::default()
        };
        assert_eq!(
            c.route(&both).unwrap_err().message,
            "give either `question` or `understanding`, not both"
        );
        let long = RouteRequest {
            question: Some("é".repeat(2001)),
            ..RouteRequest::default()
        };
        let e = c.route(&long).unwrap_err();
        assert_eq!((e.status, e.code), (400, "question_too_long"));
        let k0 = RouteRequest {
            question: Some("x".into()),
            k: Some(0),
            ..RouteRequest::default()
        };
        assert_eq!(
            c.route(&k0).unwrap_err().message,
            "`k` must be between 1 and 1000, got 0"
        );
    }

    #[test]
    fn requests_beyond_the_concurrency_limit_get_503() {
        let c = Core::open(Config {
            artifact: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../build/graph.json"),
            discover: None,
            limits: Limits {
                max_concurrency: 2,
                ..Limits::default()
            },
            token: None,
            log_requests: false,
        })
        .unwrap();
        let a = c.permit().unwrap();
        let _b = c.permit().unwrap();
        let e = c.permit().unwrap_err();
        assert_eq!((e.status, e.code), (503, "overloaded"));
        assert_eq!(
            e.message,
            "2 requests are already running (--max-concurrency); retry shortly"
        );
        drop(a);
        assert!(c.permit().is_ok());
    }

    #[test]
    fn work_off_the_runtime_leaves_it_free_and_holds_the_permit_until_it_ends() {
        let c = Arc::new(
            Core::open(Config {
                artifact: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../build/graph.json"),
                discover: None,
                limits: Limits {
                    max_concurrency: 1,
                    ..Limits::default()
                },
                token: None,
                log_requests: false,
            })
            .unwrap(),
        );
        // One worker thread: work run on it would stop every other task.
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let (release, wait) = std::sync::mpsc::channel::<()>();
        let (done_tx, done_rx) = std::sync::mpsc::channel::<u32>();
        rt.block_on(async {
            let held = Held(Arc::new(c.permit().unwrap()));
            let work = tokio::spawn(Core::off_the_runtime(Some(held), move || {
                wait.recv().unwrap();
                done_tx.send(7).unwrap();
                Ok(7u32)
            }));
            // The runtime still answers while the work waits.
            let other = tokio::spawn(async { 1 + 1 }).await.unwrap();
            assert_eq!(other, 2);
            // The request gave up (its timeout): the permit stays with the running work.
            work.abort();
            assert_eq!(c.permit().unwrap_err().code, "overloaded");
            release.send(()).unwrap();
            assert_eq!(done_rx.recv().unwrap(), 7);
            // The work ended: its permit is free again.
            for _ in 0..100 {
                if c.permit().is_ok() {
                    return;
                }
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
            panic!("the permit was not released when the work ended");
        });
    }

    #[test]
    fn a_bad_artifact_is_refused_and_the_old_one_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("graph.json");
        let shipped = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../build/graph.json");
        std::fs::copy(&shipped, &path).unwrap();
        let c = Core::open(Config {
            artifact: path.clone(),
            discover: None,
            limits: Limits::default(),
            token: None,
            log_requests: false,
        })
        .unwrap();
        let before = c.snapshot().summary.content_hash.clone();
        assert_eq!(c.reload_if_changed(), None);
        assert_eq!(c.reload("test"), ReloadOutcome::Unchanged);
        // A corrupted replacement: one byte of the project name changed.
        let text = std::fs::read_to_string(&shipped).unwrap();
        let bad = text.replacen("materials-16", "materials-17", 1);
        crate::artifact::io::write_atomic(&path, bad.as_bytes()).unwrap();
        match c.reload_if_changed() {
            Some(ReloadOutcome::Refused(m)) => assert!(
                m.starts_with("the artifact's content hash does not match its contents"),
                "{m}"
            ),
            other => panic!("{other:?}"),
        }
        assert_eq!(c.snapshot().summary.content_hash, before);
        // Seen once: not retried until the file changes again.
        assert_eq!(c.reload_if_changed(), None);
        // A removed file: still serving, and counted under `missing` as it is logged.
        std::fs::remove_file(&path).unwrap();
        assert_eq!(c.reload_if_changed(), None);
        assert_eq!(c.snapshot().summary.content_hash, before);
        let text = c.metrics.encode();
        for result in ["missing", "refused", "unchanged"] {
            assert!(
                text.contains(&format!(
                    "schemarouter_artifact_reloads_total{{result=\"{result}\"}} 1\n"
                )),
                "{text}"
            );
        }
    }

    /// An `intent_prompt.txt` that is not UTF-8 is passed over with a warning: the prompt
    /// rendered from the artifact is served (it was passed over without a word).
    #[test]
    fn a_prompt_file_that_is_not_utf8_gives_the_rendered_prompt_and_a_warning() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("graph.json");
        let prompt = dir.path().join(crate::artifact::PROMPT_FILE);
        let shipped = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../build/graph.json");
        std::fs::copy(&shipped, &path).unwrap();
        std::fs::write(&prompt, "a prompt of my own\n").unwrap();
        let c = Core::open(Config {
            artifact: path.clone(),
            discover: None,
            limits: Limits::default(),
            token: None,
            log_requests: false,
        })
        .unwrap();
        assert_eq!(c.snapshot().prompt, "a prompt of my own\n");
        assert_eq!(c.snapshot().prompt_warning, None);
        std::fs::write(&prompt, b"intents:\n\xff\xfe\n").unwrap();
        let hash = c.snapshot().summary.content_hash.clone();
        assert_eq!(
            c.reload("test"),
            ReloadOutcome::Swapped {
                old: hash.clone(),
                new: hash
            }
        );
        let s = c.snapshot();
        assert_eq!(s.prompt, crate::prompt::render(s.graph(), None));
        assert_eq!(
            s.prompt_warning.as_deref(),
            Some(
                format!(
                    "`{}` is not valid UTF-8 (invalid utf-8 sequence of 1 bytes from index 9); serving the prompt rendered from the artifact instead: save it as UTF-8 or remove it",
                    prompt.display()
                )
                .as_str()
            )
        );
        // Removed: the rendered prompt, without a warning.
        std::fs::remove_file(&prompt).unwrap();
        assert_eq!(c.reload("test"), ReloadOutcome::Unchanged);
        assert_eq!(Snapshot::load(&path).unwrap().prompt_warning, None);
    }

    /// The newer of `graph.bin` and `graph.json` in `dir` (what the CLI's discovery does).
    fn newest_in(dir: &Path) -> Option<PathBuf> {
        let mtime = |n: &str| {
            std::fs::metadata(dir.join(n))
                .ok()
                .and_then(|m| m.modified().ok())
        };
        match (mtime("graph.bin"), mtime("graph.json")) {
            (Some(b), Some(j)) if j > b => Some(dir.join("graph.json")),
            (Some(_), _) => Some(dir.join("graph.bin")),
            (None, Some(_)) => Some(dir.join("graph.json")),
            (None, None) => None,
        }
    }

    #[test]
    fn a_discovered_artifact_follows_discovery_to_the_other_form() {
        let dir = tempfile::tempdir().unwrap();
        let build = dir.path().to_path_buf();
        let json = build.join("graph.json");
        let bin = build.join("graph.bin");
        let shipped = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../build/graph.json");
        std::fs::copy(&shipped, &json).unwrap();
        let b2 = build.clone();
        let c = Core::open(Config {
            artifact: json.clone(),
            discover: Some(Discover::new(move || newest_in(&b2))),
            limits: Limits::default(),
            token: None,
            log_requests: false,
        })
        .unwrap();
        let first = c.snapshot().summary.content_hash.clone();
        assert_eq!(c.reload_if_changed(), None);
        // `compile --format bin` of changed sources: graph.bin written, graph.json removed.
        let mut g = crate::artifact::io::load(&shipped).unwrap();
        g.project.version = "1.0.1".into();
        g.content_hash = String::new();
        g.content_hash = crate::artifact::io::json_content_hash(&g);
        let second = g.content_hash.clone();
        assert_ne!(first, second);
        crate::artifact::io::write_bin(&g, &bin).unwrap();
        std::fs::remove_file(&json).unwrap();
        assert_eq!(
            c.reload_if_changed(),
            Some(ReloadOutcome::Swapped {
                old: first.clone(),
                new: second.clone()
            })
        );
        assert_eq!(c.path(), bin);
        assert_eq!(c.snapshot().summary.path, bin.display().to_string());
        assert_eq!(c.snapshot().summary.version, "1.0.1");
        assert_eq!(c.reload_if_changed(), None);
        // A newer graph.json that fails verification is refused; graph.bin stays served.
        let text = std::fs::read_to_string(&shipped).unwrap();
        std::fs::write(&json, text.replacen("materials-16", "materials-17", 1)).unwrap();
        let later = std::time::SystemTime::now() + Duration::from_secs(5);
        std::fs::File::options()
            .write(true)
            .open(&json)
            .unwrap()
            .set_modified(later)
            .unwrap();
        match c.reload_if_changed() {
            Some(ReloadOutcome::Refused(m)) => assert!(
                m.starts_with("the artifact's content hash does not match its contents"),
                "{m}"
            ),
            other => panic!("{other:?}"),
        }
        assert_eq!(c.path(), bin);
        assert_eq!(c.snapshot().summary.content_hash, second);
        // Not retried until it changes again.
        assert_eq!(c.reload_if_changed(), None);
        // A valid graph.json replaces it (compile --format json): served from then on.
        crate::artifact::io::write_atomic(&json, text.as_bytes()).unwrap();
        std::fs::File::options()
            .write(true)
            .open(&json)
            .unwrap()
            .set_modified(later + Duration::from_secs(1))
            .unwrap();
        std::fs::remove_file(&bin).unwrap();
        assert_eq!(
            c.reload_if_changed(),
            Some(ReloadOutcome::Swapped {
                old: second,
                new: first.clone()
            })
        );
        assert_eq!(c.path(), json);
        // Both gone: still serving, the reload says so once.
        std::fs::remove_file(&json).unwrap();
        assert_eq!(c.reload_if_changed(), None);
        assert_eq!(c.snapshot().summary.content_hash, first);
        match c.reload("SIGHUP") {
            ReloadOutcome::Refused(m) => {
                assert!(m.starts_with("cannot read the artifact: "), "{m}")
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(c.snapshot().summary.content_hash, first);
    }

    #[test]
    fn a_named_artifact_is_reloaded_from_its_own_path_only() {
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("graph.json");
        let shipped = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../build/graph.json");
        std::fs::copy(&shipped, &json).unwrap();
        let c = Core::open(Config {
            artifact: json.clone(),
            discover: None,
            limits: Limits::default(),
            token: None,
            log_requests: false,
        })
        .unwrap();
        let g = crate::artifact::io::load(&shipped).unwrap();
        crate::artifact::io::write_bin(&g, &dir.path().join("graph.bin")).unwrap();
        assert_eq!(c.reload_if_changed(), None);
        assert_eq!(c.path(), json);
    }
}
