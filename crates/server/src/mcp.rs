//! The MCP server (`schemarouter mcp`, on the official Rust SDK `rmcp`) over the server
//! [`Core`], on stdio or streamable HTTP.
//!
//! - tool `route`: `{"question"}` or `{"understanding"}` (+ `k`, `projection`); the result's
//!   `structuredContent` is the plan, its `outputSchema` the plan JSON Schema
//!   (docs/schema/plan.schema.json), with a short text rendering; `_meta` carries the
//!   Understanding and the artifact hash;
//! - tool `explain_plan`: why each tool and field was chosen (for a question, an Understanding,
//!   or a plan returned by `route`);
//! - tool `list_intents`: the intents (structured, with an output schema);
//! - resources `schemarouter://prompt` (the intent-registry prompt) and
//!   `schemarouter://artifact` (name, version, content hash, routing fingerprint, counts);
//! - prompt `understand`: the Understand-step prompt with the user's question, so the client's
//!   own model writes the Understanding that `route` then plans deterministically (the paper's
//!   split: one small model call, then Algorithm 1).
//!
//! Bad tool arguments (a wrong type, a missing or overlong question, an unknown field, `k` out
//! of range) are tool execution errors, as MCP 2025-11-25 asks: a `CallToolResult` with
//! `isError: true` whose text says what to fix, so the calling model can correct the call. A
//! call of an unknown tool, bad prompt or resource requests and an overloaded server are
//! protocol errors (JSON-RPC errors; `-32602` invalid params for unknown tools).

use super::core::{
    ApiError, Core, RouteRequest, Routed, SearchRequest, Searched, kind, route_request_from_value,
    search_request_from_value,
};
use crate::route::{Plan, PlanStatus, explain};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    CustomResult, ErrorCode, ErrorData, GetPromptRequestParams, GetPromptResponse, GetPromptResult,
    Implementation, JsonObject, ListPromptsResult, ListResourcesResult, ListToolsResult,
    MetaObject, PaginatedRequestParams, Prompt, PromptArgument, PromptMessage,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, Role, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Instant;

/// URI of the intent-registry prompt resource.
pub const PROMPT_URI: &str = "schemarouter://prompt";
/// URI of the artifact summary resource.
pub const ARTIFACT_URI: &str = "schemarouter://artifact";

/// Input of `explain_plan`: what `route` takes, or a plan `route` returned.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExplainRequest {
    /// The question (routed first, then explained). Give one of `question`, `understanding`
    /// and `plan`.
    #[serde(default)]
    pub question: Option<String>,
    /// An Understanding (routed first, then explained).
    #[serde(default)]
    pub understanding: Option<crate::route::Understanding>,
    /// Tools to plan when none is named (1 to 1000; default 1).
    #[serde(default)]
    #[schemars(range(min = 1, max = 1000))]
    pub k: Option<u64>,
    /// Field projection (default `core`).
    #[serde(default)]
    pub projection: Option<super::core::ProjectionName>,
    /// A plan returned by `route` (explained as given).
    #[serde(default)]
    pub plan: Option<Plan>,
}

/// The future an [`Extension`] returns for a tool call.
pub type ExtensionCall<'a> = std::pin::Pin<
    Box<dyn std::future::Future<Output = Result<CallToolResult, ErrorData>> + Send + 'a>,
>;

/// More tools on the same MCP server (the gateway's `call` and `ask`, `schemarouter gateway`):
/// listed after the routing tools and called asynchronously, under the same permit, metrics
/// and request log.
pub trait Extension: Send + Sync {
    /// The extra tools.
    fn tools(&self) -> Vec<Tool>;
    /// Call one of [`Extension::tools`] (`name` is one of them).
    fn call<'a>(&'a self, name: &'a str, args: Option<JsonObject>) -> ExtensionCall<'a>;
    /// The hits of `search_tools` as this server serves them (by default as found): the
    /// gateway names each by the tool an agent calls on it and leaves out what it refuses.
    fn served_hits(
        &self,
        hits: Vec<schemarouter_core::search::Hit>,
    ) -> Vec<schemarouter_core::search::Hit> {
        hits
    }
}

/// How many hits `search_tools` asks the core for when a server leaves some out
/// ([`Extension::served_hits`]): four times `k`, at most the request limit (1,000), never less
/// than `k` (a `k` out of range is refused as asked).
fn served_depth(k: u64) -> u64 {
    k.saturating_mul(4).min(1000).max(k)
}

/// The MCP server: a handle on the shared core.
#[derive(Clone)]
pub struct McpServer {
    core: Arc<Core>,
    tools: Arc<Vec<Tool>>,
    extension: Option<Arc<dyn Extension>>,
}

fn object(v: Value) -> Arc<JsonObject> {
    match v {
        Value::Object(o) => Arc::new(o),
        _ => Arc::new(JsonObject::new()),
    }
}

fn schema_object<T: JsonSchema>() -> Arc<JsonObject> {
    object(serde_json::to_value(schemars::schema_for!(T)).unwrap_or_default())
}

/// A tool execution error: the tool was called with arguments it cannot use. The text says
/// what to fix; `_meta.code` carries the stable code (`invalid_request`, `question_too_long`).
pub fn tool_error(tool: &str, e: &ApiError) -> CallToolResult {
    let mut result = CallToolResult::error(vec![ContentBlock::text(format!(
        "invalid arguments for `{tool}`: {}",
        e.message
    ))]);
    let mut meta = MetaObject::new();
    meta.insert("code".into(), json!(e.code));
    result.meta = Some(meta);
    result
}

fn read_only() -> ToolAnnotations {
    ToolAnnotations::new()
        .read_only(true)
        .destructive(false)
        .idempotent(true)
        .open_world(false)
}

/// Output schema of `list_intents`.
fn intents_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "intents": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "description": {"type": "string"},
                        "domains": {"type": "array", "items": {"type": "string"}},
                        "required_groups": {"type": "array", "items": {"type": "string"}},
                        "examples": {"type": "array", "items": {"type": "string"}}
                    },
                    "required": ["id", "description", "domains", "required_groups", "examples"]
                }
            },
            "artifact_hash": {"type": "string"}
        },
        "required": ["intents", "artifact_hash"]
    })
}

/// A few lines: status, then one line per step with its planned fields.
pub fn short_text(r: &Routed) -> String {
    let p = &r.plan;
    let status = match p.status {
        PlanStatus::Planned => "planned",
        PlanStatus::Partial => "partial",
        PlanStatus::MissingRequiredParameter => "missing required parameter",
        PlanStatus::NoSuitableTool => "no suitable tool",
        PlanStatus::NotUnderstood => "not understood",
    };
    let mut out = format!(
        "{status}: {} step(s), intent {}",
        p.steps.len(),
        p.intent.as_deref().unwrap_or("none")
    );
    for (i, s) in p.steps.iter().enumerate() {
        let fields: Vec<&str> = s.fields.iter().map(|f| f.name.as_str()).collect();
        out.push_str(&format!(
            "\n{}. {} {} {} -> {}",
            i + 1,
            s.method,
            s.url,
            serde_json::to_string(&s.params).unwrap_or_default(),
            fields.join(", ")
        ));
    }
    if !p.unmatched_concepts.is_empty() {
        out.push_str(&format!("\nunmatched: {}", p.unmatched_concepts.join(", ")));
    }
    out.push_str(&format!("\nartifact {}", r.artifact_hash));
    out
}

/// What [`plan_findings`] found in a plan given to `explain_plan`.
#[derive(Debug, Default, PartialEq)]
pub struct PlanFindings {
    /// Names the artifact does not have (a tool, an endpoint): the plan cannot be explained
    /// against it (`extract` refuses such a plan too).
    pub errors: Vec<String>,
    /// A foreign routing fingerprint, fields the endpoint does not declare: the plan is
    /// explained with these first (`extract` reports them as findings).
    pub warnings: Vec<String>,
}

/// Check a plan against the artifact `g` as `extract` does: a routing fingerprint other than
/// the artifact's (an empty one is not checked), a step naming a tool or endpoint the artifact
/// lacks (errors), a planned field its endpoint does not declare (warnings).
pub fn plan_findings(g: &crate::artifact::FrozenGraph, plan: &Plan) -> PlanFindings {
    let short = |h: &str| h.chars().take(16).collect::<String>();
    let mut f = PlanFindings::default();
    if !plan.routing_fingerprint.is_empty() && plan.routing_fingerprint != g.routing_fingerprint {
        f.warnings.push(format!(
            "the plan was made for routing fingerprint {}, the served artifact has {}; re-route with this artifact",
            short(&plan.routing_fingerprint),
            short(&g.routing_fingerprint)
        ));
    }
    for (i, s) in plan.steps.iter().enumerate() {
        let n = i + 1;
        let Some((_, t)) = g.tool(&s.tool) else {
            f.errors.push(format!(
                "plan step {n} names tool `{}`, which the artifact does not have",
                s.tool
            ));
            continue;
        };
        let Some(e) = t.endpoints.iter().find(|e| e.id == s.endpoint) else {
            f.errors.push(format!(
                "plan step {n} names endpoint `{}/{}`, which the artifact does not have",
                s.tool, s.endpoint
            ));
            continue;
        };
        for pf in &s.fields {
            if !e.fields.iter().any(|fd| fd.name == pf.name) {
                f.warnings.push(format!(
                    "plan step {n}: `{}/{}` declares no field `{}`",
                    s.tool, s.endpoint, pf.name
                ));
            }
        }
    }
    f
}

impl McpServer {
    /// A server over `core`.
    pub fn new(core: Arc<Core>) -> McpServer {
        let route = Tool::new(
            "route",
            "Plan which tool endpoints to call and which response fields to fetch for a question (or for an Understanding your own model wrote with the `understand` prompt). Returns the plan: steps with URL, method, bound parameters and the projected fields, each with unit, source type, licence and provenance.",
            schema_object::<RouteRequest>(),
        )
        .with_title("Route a question")
        .with_raw_output_schema(object(
            serde_json::from_str(&crate::route::plan_schema()).unwrap_or_default(),
        ))
        .with_annotations(read_only());
        let explain = Tool::new(
            "explain_plan",
            "Explain a plan in plain text: why each tool was chosen and why each field is projected. Give a question or an Understanding (routed first) or a plan returned by `route`.",
            schema_object::<ExplainRequest>(),
        )
        .with_title("Explain a plan")
        .with_annotations(read_only());
        let list = Tool::new(
            "list_intents",
            "The intents the router knows (id, description, domains, required field groups, example questions).",
            object(json!({"type": "object", "properties": {}, "additionalProperties": false})),
        )
        .with_title("List intents")
        .with_raw_output_schema(object(intents_schema()))
        .with_annotations(read_only());
        let search = Tool::new(
            "search_tools",
            "Rank the tool endpoints for a question or keywords (BM25F over names, descriptions, parameters, response fields, concepts and aliases): the top `k` (default 10), each with tool, endpoint, score, the words that matched, and for an MCP endpoint the `call` name. Load only these tools instead of all of them.",
            schema_object::<SearchRequest>(),
        )
        .with_title("Search tools")
        .with_raw_output_schema(object(
            serde_json::to_value(schemars::schema_for!(Searched)).unwrap_or_default(),
        ))
        .with_annotations(read_only());
        McpServer {
            core,
            tools: Arc::new(vec![route, search, explain, list]),
            extension: None,
        }
    }

    /// A server over `core` whose tools are the routing tools plus `extension`'s.
    pub fn with_extension(core: Arc<Core>, extension: Arc<dyn Extension>) -> McpServer {
        let mut s = McpServer::new(core);
        let mut tools = s.tools.as_ref().clone();
        tools.extend(extension.tools());
        s.tools = Arc::new(tools);
        s.extension = Some(extension);
        s
    }

    /// Every tool this server lists, in `tools/list` order, as text (`a, b and c`): the
    /// routing tools and an extension's (the gateway's `call`, `ask` and exposed tools).
    fn tool_names(&self) -> String {
        let names: Vec<&str> = self.tools.iter().map(|t| t.name.as_ref()).collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => names.join(""),
        }
    }

    fn extension_for(&self, name: &str) -> Option<&Arc<dyn Extension>> {
        let ext = self.extension.as_ref()?;
        let base = ["route", "search_tools", "explain_plan", "list_intents"];
        (!base.contains(&name) && self.tools.iter().any(|t| t.name == name)).then_some(ext)
    }

    fn call(&self, name: &str, args: Option<JsonObject>) -> Result<CallToolResult, ErrorData> {
        let args = Value::Object(args.unwrap_or_default());
        match name {
            "route" => {
                let req = match route_request_from_value(args) {
                    Ok(r) => r,
                    Err(e) => return Ok(tool_error(name, &e)),
                };
                let r = match self.core.route(&req) {
                    Ok(r) => r,
                    Err(e) => return Ok(tool_error(name, &e)),
                };
                let text = short_text(&r);
                let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
                result.structured_content = Some(serde_json::to_value(&r.plan).unwrap_or_default());
                let mut meta = MetaObject::new();
                meta.insert("artifact_hash".into(), json!(r.artifact_hash));
                meta.insert(
                    "understanding".into(),
                    serde_json::to_value(&r.understanding).unwrap_or_default(),
                );
                result.meta = Some(meta);
                Ok(result)
            }
            "search_tools" => {
                let req = match search_request_from_value(args) {
                    Ok(r) => r,
                    Err(e) => return Ok(tool_error(name, &e)),
                };
                // A server that leaves some hits out (the gateway: what it refuses) searches
                // deeper, so that `k` hits remain where the catalog has them.
                let k = req.k.unwrap_or(crate::core::DEFAULT_SEARCH_K);
                let deeper = SearchRequest {
                    k: Some(served_depth(k)),
                    ..req.clone()
                };
                let asked = if self.extension.is_some() {
                    &deeper
                } else {
                    &req
                };
                let mut r = match self.core.search(asked) {
                    Ok(r) => r,
                    Err(e) => return Ok(tool_error(name, &e)),
                };
                if let Some(x) = &self.extension {
                    r.hits = x.served_hits(std::mem::take(&mut r.hits));
                    r.hits.truncate(k as usize);
                }
                let text = if r.hits.is_empty() {
                    "no endpoint shares a word with the query".to_string()
                } else {
                    r.hits
                        .iter()
                        .map(|h| {
                            format!(
                                "{}. {}/{} (score {}){}: {}",
                                h.rank,
                                h.tool,
                                h.endpoint,
                                h.score,
                                h.call
                                    .as_deref()
                                    .map(|c| format!(", call `{c}`"))
                                    .unwrap_or_default(),
                                h.matched.join(", ")
                            )
                        })
                        .collect::<Vec<_>>()
                        .join("\n")
                };
                let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
                result.structured_content = Some(serde_json::to_value(&r).unwrap_or_default());
                Ok(result)
            }
            "explain_plan" => self.explain_plan(name, args),
            "list_intents" => {
                if let Some(k) = args.as_object().and_then(|o| o.keys().next()) {
                    return Ok(tool_error(
                        name,
                        &ApiError::bad(
                            "invalid_request",
                            format!("list_intents takes no arguments; remove `{k}`"),
                        ),
                    ));
                }
                let s = self.core.snapshot();
                let intents: Vec<Value> = s
                    .graph()
                    .intents
                    .iter()
                    .map(|i| {
                        json!({
                            "id": i.id,
                            "description": i.description,
                            "domains": i.domains,
                            "required_groups": i.required_groups,
                            "examples": i.examples,
                        })
                    })
                    .collect();
                let text = s
                    .graph()
                    .intents
                    .iter()
                    .map(|i| format!("{}: {}", i.id, i.description))
                    .collect::<Vec<_>>()
                    .join("\n");
                let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
                result.structured_content =
                    Some(json!({"intents": intents, "artifact_hash": s.summary.content_hash}));
                Ok(result)
            }
            other => Err(ErrorData::new(
                ErrorCode::INVALID_PARAMS,
                format!(
                    "unknown tool `{other}`; the tools are {}",
                    self.tool_names()
                ),
                Some(json!({"code": "unknown_tool"})),
            )),
        }
    }

    /// The `explain_plan` tool: a plan given (checked against the served artifact) or routed
    /// from a question or Understanding, explained as text.
    fn explain_plan(&self, name: &str, args: Value) -> Result<CallToolResult, ErrorData> {
        if !args.is_object() {
            return Ok(tool_error(
                name,
                &ApiError::bad(
                    "invalid_request",
                    format!("expected an object, found {}", kind(&args)),
                ),
            ));
        }
        let req: ExplainRequest = match serde_json::from_value(args) {
            Ok(r) => r,
            Err(e) => {
                return Ok(tool_error(
                    name,
                    &ApiError::bad(
                        "invalid_request",
                        format!(
                            "not a valid explain_plan request: {e}; give {{\"question\": \"...\"}}, {{\"understanding\": {{...}}}} or {{\"plan\": <a plan from route>}}"
                        ),
                    ),
                ));
            }
        };
        let text = match req.plan {
            Some(plan) => {
                if req.question.is_some() || req.understanding.is_some() {
                    return Ok(tool_error(
                        name,
                        &ApiError::bad(
                            "invalid_request",
                            "give `plan` alone, or `question` / `understanding` to route first",
                        ),
                    ));
                }
                let s = self.core.snapshot();
                let checked = crate::artifact::reading(|| plan_findings(s.graph(), &plan));
                let findings = match checked {
                    Ok(f) => f,
                    Err(e) => {
                        return Ok(tool_error(
                            name,
                            &ApiError {
                                status: 500,
                                code: "artifact_unreadable",
                                message: format!(
                                    "the served artifact cannot be read: {e}; compile the project again and replace the file"
                                ),
                            },
                        ));
                    }
                };
                if !findings.errors.is_empty() {
                    let mut all = findings.errors;
                    all.extend(findings.warnings);
                    return Ok(tool_error(
                        name,
                        &ApiError::bad(
                            "invalid_request",
                            format!(
                                "the plan does not fit the served artifact: {}; explain a plan `route` returned for this artifact, or give the question again",
                                all.join("; ")
                            ),
                        ),
                    ));
                }
                if !findings.warnings.is_empty() {
                    let mut text = String::new();
                    for w in &findings.warnings {
                        text.push_str(&format!("warning: {w}\n"));
                    }
                    text.push('\n');
                    text.push_str(&explain::explain(&plan));
                    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
                    let mut meta = MetaObject::new();
                    meta.insert("warnings".into(), json!(findings.warnings));
                    meta.insert("artifact_hash".into(), json!(s.summary.content_hash));
                    result.meta = Some(meta);
                    return Ok(result);
                }
                explain::explain(&plan)
            }
            None => {
                let routed = self.core.route(&RouteRequest {
                    question: req.question,
                    understanding: req.understanding,
                    k: req.k,
                    projection: req.projection,
                });
                let r = match routed {
                    Ok(r) => r,
                    Err(e) => return Ok(tool_error(name, &e)),
                };
                let u = &r.understanding;
                format!(
                    "Understanding: intent={} concepts=[{}] parameters={} tools=[{}] source={}\n{}artifact {}\n",
                    u.intent.as_deref().unwrap_or("null"),
                    u.domain_concepts.join(", "),
                    serde_json::to_string(&u.parameters).unwrap_or_default(),
                    u.target_apis.join(", "),
                    u.source_constraint.as_deref().unwrap_or("null"),
                    explain::explain(&r.plan),
                    r.artifact_hash
                )
            }
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }

    fn log(&self, route: &str, status: u16, start: Instant) {
        let latency = start.elapsed();
        self.core.metrics.finish(route, status, latency);
        if self.core.logs_requests() {
            let hash = self.core.snapshot().summary.content_hash.clone();
            self.core.log_request("mcp", route, status, latency, &hash);
        }
    }
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_prompts()
                .build(),
        )
        .with_server_info(
            Implementation::new("schemarouter", env!("CARGO_PKG_VERSION"))
                .with_title("schemarouter"),
        )
        .with_instructions(
            "Call `route` with a question to get an executable plan (tool endpoints, parameters and the response fields to fetch, with unit, source type, licence and provenance). For better understanding, get the `understand` prompt, let your model write the Understanding JSON, and call `route` with {\"understanding\": ...}.",
        )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.as_ref().clone()))
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Err(method_not_found(&request.method))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let start = Instant::now();
        self.core.metrics.start();
        let route = format!("mcp:tools/call:{}", request.name);
        let result = match self.core.permit() {
            Err(e) => Err(ErrorData::new(
                ErrorCode::INTERNAL_ERROR,
                e.message,
                Some(json!({"code": e.code})),
            )),
            Ok(permit) => match self.extension_for(&request.name) {
                Some(ext) => ext.call(&request.name, request.arguments).await,
                // Planning and ranking run off the runtime (see `Core::off_the_runtime`).
                None => {
                    let me = self.clone();
                    let held = Some(crate::core::Held(Arc::new(permit)));
                    let (name, args) = (request.name.clone(), request.arguments);
                    Core::off_the_runtime(held, move || Ok(me.call(&name, args)))
                        .await
                        .unwrap_or_else(|e| {
                            Err(ErrorData::new(
                                ErrorCode::INTERNAL_ERROR,
                                e.message,
                                Some(json!({"code": e.code})),
                            ))
                        })
                }
            },
        };
        let status = match &result {
            Ok(r) if r.is_error == Some(true) => 400,
            Ok(_) => 200,
            Err(e) if e.code == ErrorCode::INVALID_PARAMS => 400,
            Err(e)
                if e.data
                    .as_ref()
                    .and_then(|d| d.get("code"))
                    .and_then(Value::as_str)
                    .is_some_and(|c| c.starts_with("upstream")) =>
            {
                502
            }
            Err(_) => 503,
        };
        self.log(&route, status, start);
        result.map(Into::into)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let s = self.core.snapshot();
        Ok(ListResourcesResult::with_all_items(vec![
            Resource::new(PROMPT_URI, "intent-registry-prompt")
                .with_title("Intent-registry prompt")
                .with_description("The Understand-step prompt: intents, parameter concepts and tools of the loaded artifact")
                .with_mime_type("text/plain")
                .with_size(s.prompt.len() as u64),
            Resource::new(ARTIFACT_URI, "artifact-summary")
                .with_title("Artifact summary")
                .with_description("Name, version, content hash, routing fingerprint and counts of the loaded artifact")
                .with_mime_type("application/json"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let s = self.core.snapshot();
        let contents = match request.uri.as_str() {
            PROMPT_URI => ResourceContents::text(s.prompt.clone(), PROMPT_URI),
            ARTIFACT_URI => ResourceContents::text(
                serde_json::to_string_pretty(&s.summary).unwrap_or_default(),
                ARTIFACT_URI,
            )
            .with_mime_type("application/json"),
            other => {
                return Err(ErrorData::resource_not_found(
                    format!(
                        "no resource `{other}`; the resources are {PROMPT_URI} and {ARTIFACT_URI}"
                    ),
                    None,
                ));
            }
        };
        Ok(ReadResourceResult::new(vec![contents]).into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![understand_prompt()]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != "understand" {
            return Err(ErrorData::invalid_params(
                format!("no prompt `{}`; the prompt is `understand`", request.name),
                None,
            ));
        }
        let question = prompt_question(request.arguments.as_ref())?;
        let max = self.core.limits.max_question_chars;
        let n = question.chars().count();
        if n > max {
            return Err(ErrorData::invalid_params(
                format!("`question` has {n} characters; at most {max} are accepted: shorten it"),
                None,
            ));
        }
        let s = self.core.snapshot();
        let messages = vec![
            PromptMessage::new_text(Role::User, s.prompt.clone()),
            PromptMessage::new_text(Role::User, format!("Question: {question}")),
        ];
        Ok(GetPromptResult::new(messages)
            .with_description("The Understand step: answer with the Understanding JSON object only, then call `route` with {\"understanding\": <it>}")
            .into())
    }
}

/// The methods this server answers (a request for any other gets them listed).
pub const METHODS: &[&str] = &[
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/read",
    "prompts/list",
    "prompts/get",
];

/// The error for a request whose method no handler knows: it names the method and lists the
/// ones this server answers (the SDK's own error says only the method's name).
pub fn method_not_found(method: &str) -> ErrorData {
    ErrorData::new(
        ErrorCode::METHOD_NOT_FOUND,
        format!(
            "Method not found: `{method}`; this server answers {}",
            METHODS.join(", ")
        ),
        Some(json!({"method": method, "methods": METHODS})),
    )
}

/// The `question` argument of the `understand` prompt: a string that is not blank. A missing
/// argument, one of another type (`123`) and a blank one each get their own error.
fn prompt_question(arguments: Option<&JsonObject>) -> Result<&str, ErrorData> {
    let bad = |m: String| ErrorData::invalid_params(m, None);
    match arguments.and_then(|a| a.get("question")) {
        None => Err(bad(
            "the `understand` prompt needs the argument `question` (the user's question)"
                .to_string(),
        )),
        Some(Value::String(q)) if q.trim().is_empty() => Err(bad(
            "the argument `question` of the `understand` prompt is blank: write the user's question"
                .to_string(),
        )),
        Some(Value::String(q)) => Ok(q.trim()),
        Some(other) => Err(bad(format!(
            "the argument `question` of the `understand` prompt must be a string (the user's question), not {}",
            json_kind(other)
        ))),
    }
}

/// A JSON value's kind in words, with a short scalar shown (`the number 123`).
pub fn json_kind(v: &Value) -> String {
    match v {
        Value::Null => "null".to_string(),
        Value::Bool(b) => format!("the boolean `{b}`"),
        Value::Number(n) => format!("the number `{n}`"),
        Value::String(_) => "a string".to_string(),
        Value::Array(_) => "a list".to_string(),
        Value::Object(_) => "an object".to_string(),
    }
}

fn understand_prompt() -> Prompt {
    Prompt::new(
        "understand",
        Some("The Understand-step prompt (the artifact's intent registry) with the user's question: your model answers with an Understanding JSON object to pass to `route`"),
        Some(vec![
            PromptArgument::new("question")
                .with_description("The user's question")
                .with_required(true),
        ]),
    )
    .with_title("Understand a question")
}

/// Serve MCP on stdin/stdout until the client closes it. Lines from stdin pass the
/// [`crate::stdio_screen`] first: a line that is no JSON-RPC message is answered with a JSON-RPC
/// error instead of being dropped by the SDK without a reply, and a notification before the
/// session begins is dropped instead of ending the connection. Answers and the SDK's output
/// reach stdout whole lines at a time.
///
/// Errors: the transport fails to start.
pub async fn serve_stdio(core: Arc<Core>) -> Result<(), String> {
    serve_stdio_with(McpServer::new(core)).await
}

/// What [`read_line_limited`] read.
#[derive(Debug, PartialEq)]
enum Line {
    /// A line (with its line break, unless stdin ended first).
    Read,
    /// A line longer than the limit: its bytes (this many, the line break not counted) were
    /// read and dropped; the `id` found in them as they passed (null when none).
    TooLong(usize, Value),
    /// End of input.
    End,
}

/// Read one line of at most `limit` bytes (its line break not counted) into `line`. A longer
/// line is not kept: the bytes up to its line break are read and dropped (memory stays at
/// `limit`, whatever a client sends), and it is reported with the count of bytes skipped and
/// the message's `id` ([`crate::stdio_screen::IdScan`]), so the client can match the error.
async fn read_line_limited<R: tokio::io::AsyncBufRead + Unpin>(
    r: &mut R,
    line: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<Line> {
    use tokio::io::AsyncBufReadExt;
    let mut skipped = 0usize;
    let mut scan = crate::stdio_screen::IdScan::default();
    loop {
        let buf = r.fill_buf().await?;
        if buf.is_empty() {
            return Ok(match (skipped, line.is_empty()) {
                (0, true) => Line::End,
                (0, false) => Line::Read,
                (n, _) => Line::TooLong(n, scan.id()),
            });
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let n = chunk.len();
        let body = n - usize::from(done);
        if skipped > 0 || line.len() + body > limit {
            skipped += line.len() + body;
            scan.feed(line);
            scan.feed(&chunk[..body]);
            line.clear();
        } else {
            line.extend_from_slice(chunk);
        }
        r.consume(n);
        if done {
            return Ok(if skipped > 0 {
                Line::TooLong(skipped, scan.id())
            } else {
                Line::Read
            });
        }
    }
}

/// [`serve_stdio`] with a given server (one built by [`McpServer::with_extension`]).
///
/// Errors: the transport fails to start.
pub async fn serve_stdio_with(server: McpServer) -> Result<(), String> {
    use crate::stdio_screen::{Screened, Session};
    use rmcp::ServiceExt;
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let (mut to_sdk, sdk_in) = tokio::io::duplex(1 << 16);
    let (sdk_out, from_sdk) = tokio::io::duplex(1 << 16);
    let (answers, mut answered) = tokio::sync::mpsc::unbounded_channel::<Vec<u8>>();
    let limit = server.core.limits.max_body_bytes;
    let versions = rmcp::ServerHandler::supported_protocol_versions(&server)
        .iter()
        .map(|v| v.as_str().to_string())
        .collect();
    let reader = tokio::spawn(async move {
        let mut stdin = BufReader::new(tokio::io::stdin());
        let mut line = Vec::new();
        let mut session = Session::new(versions);
        loop {
            line.clear();
            match read_line_limited(&mut stdin, &mut line, limit).await {
                Ok(Line::End) | Err(_) => break,
                Ok(Line::Read) => {}
                Ok(Line::TooLong(n, id)) => {
                    let v = json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32600, "message": format!(
                        "Invalid Request: a line of {n} bytes, longer than the {limit}-byte limit (--max-body-bytes); it was skipped unread"
                    )}});
                    let mut text = serde_json::to_vec(&v).unwrap_or_default();
                    text.push(b'\n');
                    let _ = answers.send(text);
                    continue;
                }
            }
            match session.screen(&line) {
                Screened::Forward => {
                    if !line.ends_with(b"\n") {
                        line.push(b'\n');
                    }
                    if to_sdk.write_all(&line).await.is_err() {
                        break;
                    }
                }
                Screened::Ignore => {}
                Screened::Answer(v) => {
                    let mut text = serde_json::to_vec(&v).unwrap_or_default();
                    text.push(b'\n');
                    let _ = answers.send(text);
                }
            }
        }
        // End of stdin: the SDK sees its input close and stops.
    });
    let writer = tokio::spawn(async move {
        let mut stdout = tokio::io::stdout();
        let mut from_sdk = BufReader::new(from_sdk);
        // Bytes of the SDK's current line (read_until appends: a read cancelled by the other
        // branch loses nothing).
        let mut buf = Vec::new();
        loop {
            tokio::select! {
                r = from_sdk.read_until(b'\n', &mut buf) => match r {
                    Ok(0) | Err(_) => break,
                    Ok(_) if buf.ends_with(b"\n") => {
                        if stdout.write_all(&buf).await.is_err() || stdout.flush().await.is_err() {
                            break;
                        }
                        buf.clear();
                    }
                    Ok(_) => {}
                },
                Some(text) = answered.recv() => {
                    if stdout.write_all(&text).await.is_err() || stdout.flush().await.is_err() {
                        break;
                    }
                }
            }
        }
        if !buf.is_empty() {
            let _ = stdout.write_all(&buf).await;
        }
        // Answers to the last lines before stdin closed (sent before the SDK saw it close).
        while let Ok(text) = answered.try_recv() {
            let _ = stdout.write_all(&text).await;
        }
        let _ = stdout.flush().await;
    });
    let service = server
        .serve((sdk_in, sdk_out))
        .await
        .map_err(|e| format!("cannot start the MCP server on stdio: {e}"))?;
    let result = service
        .waiting()
        .await
        .map_err(|e| format!("the MCP server stopped: {e}"));
    reader.abort();
    let _ = writer.await;
    result?;
    Ok(())
}

/// The streamable HTTP router (`/mcp`) guarded like the HTTP API, plus `/healthz` and
/// `/metrics`. `loopback` keeps the SDK's DNS-rebinding protection (Host must be loopback).
pub fn http_router(
    core: Arc<Core>,
    loopback: bool,
    cancel: tokio_util::sync::CancellationToken,
) -> axum::Router {
    let c = core.clone();
    http_router_with(core, loopback, cancel, move || McpServer::new(c.clone()))
}

/// [`http_router`] whose sessions are served by the servers `make` builds (one per session;
/// [`McpServer::with_extension`] for the gateway).
pub fn http_router_with(
    core: Arc<Core>,
    loopback: bool,
    cancel: tokio_util::sync::CancellationToken,
    make: impl Fn() -> McpServer + Send + Sync + 'static,
) -> axum::Router {
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
    let mut config = StreamableHttpServerConfig::default()
        .with_json_response(true)
        .with_max_request_body_bytes(core.limits.max_body_bytes)
        .with_cancellation_token(cancel);
    if loopback {
        // DNS rebinding: the SDK checks `Host`; a browser page of another site is refused by
        // its `Origin` too (MCP transport specification: servers MUST validate `Origin`).
        // Requests without an `Origin` (non-browser clients) pass.
        config = config.with_allowed_origins([
            "http://localhost:*",
            "http://127.0.0.1:*",
            "http://[::1]:*",
            "https://localhost:*",
            "https://127.0.0.1:*",
            "https://[::1]:*",
        ]);
    } else {
        config = config.disable_allowed_hosts();
    }
    let manager = Arc::new(LocalSessionManager::default());
    let service = StreamableHttpService::new(move || Ok(make()), manager.clone(), config);
    let sessions = Arc::new(Sessions {
        manager,
        ending: std::sync::Mutex::default(),
    });
    let screen = Arc::new(BodyScreen {
        core: core.clone(),
        sessions: sessions.clone(),
    });
    let app = axum::Router::new()
        .route_service("/mcp", service)
        .layer(axum::middleware::from_fn_with_state(screen, screen_bodies))
        .layer(axum::middleware::from_fn_with_state(sessions, end_sessions))
        .layer(axum::middleware::from_fn(json_rpc_error_bodies));
    super::http::guarded(app, core)
}

/// What [`screen_bodies`] needs: the limits, and the sessions to tell a live one.
struct BodyScreen {
    core: Arc<Core>,
    sessions: Arc<Sessions>,
}

impl BodyScreen {
    /// The JSON-RPC error for an `initialize` (a request opening a session) when
    /// `--max-sessions` sessions are open; `None` for any other body or when there is room.
    async fn session_refusal(&self, bytes: &[u8]) -> Option<serde_json::Value> {
        let v: serde_json::Value = serde_json::from_slice(bytes).ok()?;
        if v.get("method").and_then(serde_json::Value::as_str) != Some("initialize") {
            return None;
        }
        let open = self.sessions.manager.sessions.read().await.len();
        let max = self.core.limits.max_sessions;
        (open >= max).then(|| {
            let id = match v.get("id") {
                Some(id @ (serde_json::Value::String(_) | serde_json::Value::Number(_))) => {
                    id.clone()
                }
                _ => serde_json::Value::Null,
            };
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32000, "message": format!(
                "{open} sessions are open (--max-sessions {max}); end one with DELETE /mcp (its Mcp-Session-Id) or retry when one idles out"
            ), "data": {"code": "too_many_sessions"}}})
        })
    }
}

/// The POST bodies of `/mcp`, screened before the SDK reads them:
///
/// - an `initialize` (a new session) when `--max-sessions` sessions are open is 503 with a
///   JSON-RPC error and `Retry-After` ([`BodyScreen::session_refusal`]);
/// - a body that repeats a key (two `question`s in a `tools/call`'s arguments) is answered with
///   the JSON-RPC error stdio gives ([`crate::stdio_screen::repeated_key`]), status 400: the
///   SDK would keep the last value without a word;
/// - a body beyond `--max-body-bytes` (or declaring more in `Content-Length`) is 413 with a
///   JSON-RPC error;
/// - a request of a live session whose `params` have the wrong shape (`tools/call` with
///   `arguments` that are no object or `params: null`, `resources/read` whose `uri` is no
///   string, `prompts/get` without `name`) gets the -32602 invalid-params error stdio gives
///   ([`crate::stdio_screen::invalid_params`]) as a JSON answer, status 200: the SDK would
///   answer -32601 "method not found". Without a live session the SDK's own refusal (400 no
///   session, 404 unknown session) comes first, as for any request;
/// - a body that is JSON but no JSON-RPC message (a list, `"jsonrpc": "1.0"`, an `id` that is
///   null, an object or a list) gets -32600 invalid request, status 400, as stdio answers it
///   ([`crate::stdio_screen::screen`]); the SDK would call it a parse error (-32700).
///
/// Other requests pass unchanged.
async fn screen_bodies(
    axum::extract::State(screen): axum::extract::State<Arc<BodyScreen>>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::http::{Method, StatusCode, header};
    use rmcp::transport::streamable_http_server::session::SessionManager;
    if req.method() != Method::POST {
        return next.run(req).await;
    }
    let (parts, body) = req.into_parts();
    let limit = screen.core.limits.max_body_bytes;
    let reply = |status: StatusCode, v: serde_json::Value| {
        let mut r = axum::response::Response::new(axum::body::Body::from(v.to_string()));
        *r.status_mut() = status;
        r.headers_mut().insert(
            header::CONTENT_TYPE,
            axum::http::HeaderValue::from_static("application/json"),
        );
        r
    };
    // The SDK's own wording for the limit, which it would have given.
    let too_large = || {
        reply(
            StatusCode::PAYLOAD_TOO_LARGE,
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": format!("Payload Too Large: request body exceeds {limit} bytes")}}),
        )
    };
    // Refused from the header, without waiting for a body announced beyond the limit.
    // A body announced within the drain bound is read and dropped first, so that a client that
    // writes it all before reading still gets the answer ([`crate::body`]).
    if super::http::declared_length_exceeds(&parts.headers, limit) {
        if crate::body::worth_draining(&parts.headers) {
            crate::body::drain(body, 0).await;
        }
        return super::http::closing(too_large());
    }
    let bytes = match crate::body::read_limited(body, limit).await {
        Ok(b) => b,
        Err(crate::body::BodyError::TooLarge) => return super::http::closing(too_large()),
        Err(crate::body::BodyError::Unreadable(e)) => {
            return reply(
                StatusCode::BAD_REQUEST,
                json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": format!("the body could not be read: {e}")}}),
            );
        }
    };
    // The usual body has no repeated key: one strict pass, and the id is read only for a reply.
    if schemarouter_core::json::check_no_repeated_keys(&bytes).is_err()
        && let Ok(serde_json::Value::Object(m)) =
            serde_json::from_slice::<serde_json::Value>(&bytes)
    {
        let id = match m.get("id") {
            Some(id @ (serde_json::Value::String(_) | serde_json::Value::Number(_))) => id.clone(),
            _ => serde_json::Value::Null,
        };
        if let Some(crate::stdio_screen::Screened::Answer(v)) =
            crate::stdio_screen::repeated_key(&bytes, &id)
        {
            return reply(StatusCode::BAD_REQUEST, v);
        }
    }
    // A new session beyond --max-sessions: 503 until one ends or idles out.
    if !parts.headers.contains_key("mcp-session-id")
        && let Some(refusal) = screen.session_refusal(&bytes).await
    {
        let mut r = reply(StatusCode::SERVICE_UNAVAILABLE, refusal);
        r.headers_mut().insert(
            header::RETRY_AFTER,
            axum::http::HeaderValue::from_static("5"),
        );
        return r;
    }
    // Valid JSON that is no JSON-RPC request (a list, `"jsonrpc": "1.0"`, an `id` that is
    // null or an object): -32600 Invalid Request, as stdio answers it; the SDK would say
    // -32700 (parse error), which is for text that is not JSON.
    if let crate::stdio_screen::Screened::Answer(v) = crate::stdio_screen::screen(&bytes)
        && v["error"]["code"] == -32600
    {
        return reply(StatusCode::BAD_REQUEST, v);
    }
    if let Ok(serde_json::Value::Object(m)) = serde_json::from_slice::<serde_json::Value>(&bytes) {
        let id = match m.get("id") {
            Some(id @ (serde_json::Value::String(_) | serde_json::Value::Number(_))) => id.clone(),
            _ => serde_json::Value::Null,
        };
        if let Some(crate::stdio_screen::Screened::Answer(v)) =
            crate::stdio_screen::invalid_params(&m, &id)
        {
            // The SDK reads the session id the same way (see `end_sessions`).
            let session = parts
                .headers
                .get("mcp-session-id")
                .and_then(|v| v.to_str().ok());
            let live = match session {
                Some(s) => screen
                    .sessions
                    .manager
                    .has_session(&s.into())
                    .await
                    .unwrap_or(false),
                None => false,
            };
            if live {
                return reply(StatusCode::OK, v);
            }
        }
    }
    next.run(axum::extract::Request::from_parts(
        parts,
        axum::body::Body::from(bytes),
    ))
    .await
}

/// The sessions of the streamable HTTP transport, as [`end_sessions`] sees them.
struct Sessions {
    /// The SDK's session manager (the one the transport uses).
    manager: Arc<rmcp::transport::streamable_http_server::session::local::LocalSessionManager>,
    /// Session ids whose `DELETE` is in flight: a second `DELETE` of the same id meanwhile
    /// finds the session ending, not live.
    ending: std::sync::Mutex<std::collections::HashSet<String>>,
}

/// Takes a session id out of [`Sessions::ending`] when its `DELETE` is answered (or dropped).
struct Ending<'a>(&'a Sessions, String);

impl Drop for Ending<'_> {
    fn drop(&mut self) {
        let mut ending = self.0.ending.lock().unwrap_or_else(|e| e.into_inner());
        ending.remove(&self.1);
    }
}

/// A `DELETE` on `/mcp` ends the session named by `Mcp-Session-Id`. The SDK answers 202 Accepted
/// whether or not it knew the session; the MCP transport specification (2025-06-18, session
/// management) asks for 404 Not Found for a session id the server does not know or has
/// terminated. So: 200 when the session was live when the `DELETE` came (202 is reported as a
/// failed termination by the MCP Python SDK), 404 "Not Found: Session not found" (the SDK's
/// wording for a `POST` or `GET` with an unknown session; [`json_rpc_error_bodies`] makes it a
/// JSON-RPC error) when it was unknown, already ended, or being ended by another `DELETE`. The
/// SDK sees every `DELETE` first, so its own refusals (a foreign `Host`, a `DELETE` without a
/// session id: 400, a bad `MCP-Protocol-Version`) keep their precedence. Other requests pass
/// unchanged (the SDK answers them 404 itself for an unknown session).
async fn end_sessions(
    axum::extract::State(sessions): axum::extract::State<Arc<Sessions>>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::http::{Method, StatusCode};
    use rmcp::transport::streamable_http_server::session::SessionManager;
    if req.method() != Method::DELETE {
        return next.run(req).await;
    }
    // The SDK reads the id the same way (a value that is no visible ASCII counts as absent).
    let id = req
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let mut claim = None;
    let mut live = false;
    if let Some(id) = id {
        let claimed = sessions
            .ending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.clone());
        if claimed {
            let guard = Ending(&sessions, id);
            live = sessions
                .manager
                .has_session(&guard.1.as_str().into())
                .await
                // The local manager cannot fail; were it to, the SDK's answer decides.
                .unwrap_or(true);
            claim = Some(guard);
        }
    }
    let mut res = next.run(req).await;
    drop(claim);
    if res.status() == StatusCode::ACCEPTED {
        if live {
            *res.status_mut() = StatusCode::OK;
        } else {
            res = plain_text(StatusCode::NOT_FOUND, "Not Found: Session not found");
        }
    }
    res
}

/// A plain-text answer, as the SDK gives its refusals.
fn plain_text(status: axum::http::StatusCode, text: &'static str) -> axum::response::Response {
    let mut r = axum::response::Response::new(axum::body::Body::from(text));
    *r.status_mut() = status;
    r.headers_mut().insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    r
}

/// The SDK answers transport faults on `/mcp` (a body that is no JSON, a missing or unknown
/// session, a wrong `Accept`, a refused `Origin`) with plain text; clients read JSON-RPC. Such
/// an answer becomes a JSON-RPC error object carrying the SDK's text (`id` null: the request's
/// id is not known here): -32700 with status 400 for a body that could not be parsed (the SDK
/// says 415), -32600 for other 4xx, -32603 for 5xx. Successful answers pass untouched.
async fn json_rpc_error_bodies(
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::http::{StatusCode, header};
    let res = next.run(req).await;
    let status = res.status();
    let is_json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return res;
    }
    let (mut parts, body) = res.into_parts();
    let text = match axum::body::to_bytes(body, 16 * 1024).await {
        Ok(b) => String::from_utf8_lossy(&b).trim().to_string(),
        Err(_) => String::new(),
    };
    let text = if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_string()
    } else {
        text
    };
    let parse_error = text.contains("deserialize") || text.contains("expected value");
    let code = if parse_error {
        parts.status = StatusCode::BAD_REQUEST;
        -32700
    } else if status.is_client_error() {
        -32600
    } else {
        -32603
    };
    let body = json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": text}});
    parts.headers.insert(
        header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("application/json"),
    );
    parts.headers.remove(header::CONTENT_LENGTH);
    axum::response::Response::from_parts(parts, axum::body::Body::from(body.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Limits};
    use std::path::PathBuf;

    fn server() -> McpServer {
        let core = Core::open(Config {
            artifact: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../build/graph.json"),
            discover: None,
            limits: Limits::default(),
            token: None,
            log_requests: false,
        })
        .unwrap();
        McpServer::new(Arc::new(core))
    }

    #[tokio::test]
    async fn stdio_lines_are_read_up_to_the_limit_and_longer_ones_skipped() {
        // Small reads (a 4-byte buffer) so a line spans several of them.
        let input: &[u8] =
            b"{\"a\":1}\n0123456789abcdef\n{\"id\":\"r-9\",\"x\":1}\nshort\n12345678";
        let mut r = tokio::io::BufReader::with_capacity(4, input);
        let mut line = Vec::new();
        let mut got = Vec::new();
        loop {
            line.clear();
            let l = read_line_limited(&mut r, &mut line, 8).await.unwrap();
            if l == Line::End {
                break;
            }
            got.push((l, String::from_utf8(line.clone()).unwrap()));
        }
        assert_eq!(
            got,
            vec![
                (Line::Read, "{\"a\":1}\n".to_string()),
                (Line::TooLong(16, Value::Null), String::new()),
                (Line::TooLong(18, json!("r-9")), String::new()),
                (Line::Read, "short\n".to_string()),
                (Line::Read, "12345678".to_string()),
            ]
        );
    }

    fn args(v: Value) -> Option<JsonObject> {
        match v {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The text and code of a tool execution error.
    fn tool_failure(s: &McpServer, tool: &str, a: Value) -> (String, String) {
        let r = s
            .call(tool, args(a))
            .expect("a tool result, not a JSON-RPC error");
        assert_eq!(r.is_error, Some(true), "{r:?}");
        assert_eq!(r.structured_content, None);
        assert_eq!(r.content.len(), 1);
        let text = r.content[0].as_text().unwrap().text.clone();
        let code = r.meta.as_ref().unwrap()["code"]
            .as_str()
            .unwrap()
            .to_string();
        (text, code)
    }

    const SHAPE: &str = "send one JSON object: {\"question\": \"...\"} or {\"understanding\": {\"intent\": ..., \"domain_concepts\": [...], \"parameters\": {...}, \"target_apis\": [...], \"source_constraint\": ...}}, optionally with \"k\" (1-1000) and \"projection\" (\"core\", \"recall\", \"minimal\" or \"all\")";

    #[test]
    fn bad_route_arguments_are_tool_errors_that_say_what_to_fix() {
        let s = server();
        assert_eq!(
            tool_failure(&s, "route", json!({"question": 5})),
            (
                format!(
                    "invalid arguments for `route`: not a valid route request: invalid type: integer `5`, expected a string; {SHAPE}"
                ),
                "invalid_request".to_string()
            )
        );
        assert_eq!(
            tool_failure(&s, "route", json!({})),
            (
                format!(
                    "invalid arguments for `route`: give `question` (a text) or `understanding` (an object); {SHAPE}"
                ),
                "invalid_request".to_string()
            )
        );
        assert_eq!(
            tool_failure(&s, "route", json!({"question": "x", "extra": 1})).0,
            format!(
                "invalid arguments for `route`: not a valid route request: unknown field `extra`, expected one of `question`, `understanding`, `k`, `projection`; {SHAPE}"
            )
        );
        assert_eq!(
            tool_failure(&s, "route", json!({"question": "x".repeat(2001)})),
            (
                "invalid arguments for `route`: `question` has 2001 characters; at most 2000 are accepted (--max-question-chars): shorten it".to_string(),
                "question_too_long".to_string()
            )
        );
        assert_eq!(
            tool_failure(&s, "route", json!({"question": "x", "k": 0})).0,
            "invalid arguments for `route`: `k` must be between 1 and 1000, got 0"
        );
        assert_eq!(
            tool_failure(&s, "route", json!({"question": "x", "understanding": {}})).0,
            "invalid arguments for `route`: give either `question` or `understanding`, not both"
        );
    }

    #[test]
    fn bad_explain_and_list_arguments_are_tool_errors() {
        let s = server();
        assert_eq!(
            tool_failure(&s, "explain_plan", json!({"question": "x", "plan": {}})).0,
            "invalid arguments for `explain_plan`: not a valid explain_plan request: missing field `status`; give {\"question\": \"...\"}, {\"understanding\": {...}} or {\"plan\": <a plan from route>}"
        );
        assert_eq!(
            tool_failure(&s, "explain_plan", json!({"question": ""})).0,
            "invalid arguments for `explain_plan`: `question` is empty; ask a question such as \"Molecular weight and SMILES of aspirin\""
        );
        assert_eq!(
            tool_failure(&s, "list_intents", json!({"x": 1})).0,
            "invalid arguments for `list_intents`: list_intents takes no arguments; remove `x`"
        );
    }

    /// A plan given to `explain_plan` is checked against the served artifact as `extract`
    /// checks it: a foreign routing fingerprint and fields the endpoint does not declare are
    /// warnings before the explanation (also in `_meta.warnings`); a tool or endpoint the
    /// artifact lacks makes it a tool error. A plan of this artifact is explained as before.
    #[test]
    fn explain_plan_reports_a_foreign_fingerprint_and_unknown_names() {
        let s = server();
        let routed = s
            .call("route", args(json!({"question": "band gap of Si"})))
            .unwrap();
        let plan: Plan = serde_json::from_value(routed.structured_content.unwrap()).unwrap();
        assert_eq!(
            (plan.steps[0].tool.as_str(), plan.steps[0].endpoint.as_str()),
            ("materials_project", "summary")
        );
        let fp = s.core.snapshot().summary.routing_fingerprint.clone();
        let hash = s.core.snapshot().summary.content_hash.clone();
        let explained = |p: &Plan| {
            s.call("explain_plan", args(json!({"plan": p})))
                .expect("a tool result")
        };
        let text = |r: &CallToolResult| r.content[0].as_text().unwrap().text.clone();

        let ok = explained(&plan);
        assert_eq!(ok.is_error, Some(false));
        assert_eq!(text(&ok), explain::explain(&plan));
        assert_eq!(ok.meta, None);

        let mut foreign = plan.clone();
        foreign.routing_fingerprint = "0".repeat(64);
        foreign.steps[0].fields[0].name = "no_such_field".into();
        let warned = explained(&foreign);
        let warnings = [
            format!(
                "the plan was made for routing fingerprint 0000000000000000, the served artifact has {}; re-route with this artifact",
                &fp[..16]
            ),
            "plan step 1: `materials_project/summary` declares no field `no_such_field`"
                .to_string(),
        ];
        assert_eq!(warned.is_error, Some(false));
        assert_eq!(
            text(&warned),
            format!(
                "warning: {}\nwarning: {}\n\n{}",
                warnings[0],
                warnings[1],
                explain::explain(&foreign)
            )
        );
        assert_eq!(
            Value::Object(warned.meta.unwrap().0),
            json!({"warnings": warnings, "artifact_hash": hash})
        );

        let mut unknown = foreign.clone();
        unknown.steps[0].tool = "nope".into();
        let mut second = plan.steps[0].clone();
        second.endpoint = "nowhere".into();
        unknown.steps.push(second);
        assert_eq!(
            tool_failure(&s, "explain_plan", json!({"plan": unknown})),
            (
                format!(
                    "invalid arguments for `explain_plan`: the plan does not fit the served artifact: plan step 1 names tool `nope`, which the artifact does not have; plan step 2 names endpoint `materials_project/nowhere`, which the artifact does not have; {}; explain a plan `route` returned for this artifact, or give the question again",
                    warnings[0]
                ),
                "invalid_request".to_string()
            )
        );
    }

    /// An extension with two tools that are never called.
    struct TwoTools;

    impl Extension for TwoTools {
        fn tools(&self) -> Vec<Tool> {
            ["call", "weather__get_forecast"]
                .into_iter()
                .map(|n| Tool::new(n, "a tool", object(json!({"type": "object"}))))
                .collect()
        }
        fn call<'a>(&'a self, _: &'a str, _: Option<JsonObject>) -> ExtensionCall<'a> {
            Box::pin(async { Ok(CallToolResult::success(Vec::new())) })
        }
    }

    #[test]
    fn an_unknown_tool_is_told_every_tool_an_extension_adds() {
        let s = McpServer::with_extension(server().core, Arc::new(TwoTools));
        assert_eq!(
            s.call("nope", None).unwrap_err().message,
            "unknown tool `nope`; the tools are route, search_tools, explain_plan, list_intents, call and weather__get_forecast"
        );
    }

    /// An extension that serves every other hit (as the gateway leaves out what it refuses).
    struct EveryOther;

    impl Extension for EveryOther {
        fn tools(&self) -> Vec<Tool> {
            Vec::new()
        }
        fn call<'a>(&'a self, _: &'a str, _: Option<JsonObject>) -> ExtensionCall<'a> {
            Box::pin(async { Ok(CallToolResult::success(Vec::new())) })
        }
        fn served_hits(
            &self,
            hits: Vec<schemarouter_core::search::Hit>,
        ) -> Vec<schemarouter_core::search::Hit> {
            hits.into_iter()
                .step_by(2)
                .enumerate()
                .map(|(i, h)| schemarouter_core::search::Hit { rank: i + 1, ..h })
                .collect()
        }
    }

    /// A server that leaves hits out still returns `k` where the catalog has them: it searches
    /// deeper, then keeps the first `k` it serves.
    #[test]
    fn search_tools_returns_k_hits_after_an_extension_leaves_some_out() {
        let plain = server();
        let all = plain
            .call(
                "search_tools",
                args(json!({"query": "band gap energy structure of a material", "k": 8})),
            )
            .unwrap();
        let all = all.structured_content.unwrap()["hits"]
            .as_array()
            .unwrap()
            .clone();
        let s = McpServer::with_extension(server().core, Arc::new(EveryOther));
        let served = s
            .call(
                "search_tools",
                args(json!({"query": "band gap energy structure of a material", "k": 4})),
            )
            .unwrap();
        let served = served.structured_content.unwrap()["hits"]
            .as_array()
            .unwrap()
            .clone();
        let ids = |hits: &[Value]| -> Vec<(u64, String)> {
            hits.iter()
                .map(|h| {
                    (
                        h["rank"].as_u64().unwrap(),
                        format!(
                            "{}/{}",
                            h["tool"].as_str().unwrap(),
                            h["endpoint"].as_str().unwrap()
                        ),
                    )
                })
                .collect()
        };
        let every_other: Vec<(u64, String)> = ids(&all)
            .into_iter()
            .step_by(2)
            .enumerate()
            .map(|(i, (_, id))| (i as u64 + 1, id))
            .collect();
        assert_eq!(all.len(), 8);
        assert_eq!(ids(&served), every_other);
        assert_eq!(served_depth(4), 16);
        assert_eq!(served_depth(300), 1000);
        assert_eq!(served_depth(2000), 2000);
    }

    #[test]
    fn an_unknown_tool_stays_a_protocol_error() {
        let s = server();
        let e = s.call("nope", None).unwrap_err();
        assert_eq!(e.code, ErrorCode::INVALID_PARAMS);
        assert_eq!(
            e.message,
            "unknown tool `nope`; the tools are route, search_tools, explain_plan and list_intents"
        );
        // A good call still succeeds.
        let ok = s
            .call("route", args(json!({"question": "band gap of GaN"})))
            .unwrap();
        assert_eq!(ok.is_error, Some(false));
    }
}
