//! `schemarouter gateway`: the routing server ([`schemarouter_server`]: one core, the MCP
//! server and the HTTP API) plus execution. `call` and `ask` (MCP tools; `POST /v1/call`,
//! `POST /v1/ask`) check each step at the execution boundary ([`boundary`]), call the upstream
//! — an MCP server over one shared connection ([`upstream::mcp`]) or an HTTP API
//! ([`upstream::http`]) — and hand the agent only the planned or declared fields with their
//! reader context, projected by the core's `extract` ([`execute`]), with the tokens of the raw
//! responses and of what the agent received ([`schemarouter_server::metrics`]).
//!
//! A crate of its own because it is the only part that reaches the network: the routing server
//! stays free of outbound clients, credentials and child processes, and depends on the core
//! alone; this crate depends on the server (whose MCP handler and HTTP router it extends) and
//! the core.

pub mod bind;
pub mod boundary;
pub mod config;
pub mod drift;
pub mod execute;
pub mod expose;
pub mod faces;
pub mod openapi;
pub mod secrets;
pub mod text_records;
pub mod tokens;
pub mod upstream;

use config::GatewayConfig;
use schemarouter_server::Core;
use secrets::Secrets;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use upstream::UpstreamError;
use upstream::mcp::{Endpoint, McpUpstream};

/// Install ring as the process's rustls crypto provider (once; later calls do nothing). The
/// workspace's `reqwest` is built without a provider of its own (ring is already in the tree;
/// the default aws-lc-rs would add a C build), so every HTTP(S) client in the process needs
/// this before it is built: the gateway's, and `rmcp`'s streamable-HTTP client in `import mcp
/// --url`. [`Gateway::new`] calls it before it builds its client (the importer installs the
/// same provider before it connects).
pub fn install_tls() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// The credential parameter `tool` declares (`auth: true`) named `name` (any case), or without
/// a name its first, from its first endpoint that has one.
fn declared_credential(
    g: &schemarouter_core::artifact::FrozenGraph,
    tool: &str,
    name: Option<&str>,
) -> Option<crate::config::DeclaredCredential> {
    let (_, t) = g.tool(tool)?;
    t.endpoints
        .iter()
        .flat_map(|e| &e.parameters)
        .find(|p| p.auth && name.is_none_or(|n| p.name.eq_ignore_ascii_case(n)))
        .map(|p| crate::config::DeclaredCredential {
            name: p.name.clone(),
            location: p.location.clone(),
            bearer: p.format.as_deref() == Some("bearer"),
            basic: p.format.as_deref() == Some("basic"),
        })
}

/// A warning for each HTTP tool that declares a required credential (a parameter marked
/// `auth`) which the configuration gives no `auth` for: its calls go without it, and the provider
/// answers 401 or 403.
fn credentials_not_given(
    g: &schemarouter_core::artifact::FrozenGraph,
    config: &GatewayConfig,
) -> Vec<String> {
    let mut out = Vec::new();
    for t in &g.tools {
        if config
            .upstreams
            .get(&t.id)
            .is_some_and(|u| !u.auth.is_empty())
        {
            continue;
        }
        let mut names: Vec<&str> = t
            .endpoints
            .iter()
            .filter(|e| !local(e) && e.mcp_tool.is_none())
            .flat_map(|e| &e.parameters)
            .filter(|p| p.auth && p.required)
            .map(|p| p.name.as_str())
            .collect();
        names.sort_unstable();
        names.dedup();
        if names.is_empty() {
            continue;
        }
        let list = names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ");
        out.push(format!(
            "`{}` requires the credential {list} and the configuration gives none: its calls are sent without it (the provider will likely answer 401 or 403); add `auth = {{ env = \"VARIABLE\" }}` under [upstreams.{}]",
            t.id, t.id
        ));
    }
    out
}

/// A warning for each `[upstreams.TOOL]` key that the tool's kind does not read: `url` or
/// `command` (an MCP server's) for a tool whose endpoints are all HTTP, whose calls then still
/// go to the declared host; `base_url` or `declared_base` for a tool whose endpoints are all
/// MCP tools.
fn keys_of_the_other_kind(
    g: &schemarouter_core::artifact::FrozenGraph,
    config: &GatewayConfig,
) -> Vec<String> {
    let mut warnings = Vec::new();
    for (tool, u) in &config.upstreams {
        let Some((_, t)) = g.tool(tool) else { continue };
        let callable: Vec<_> = t.endpoints.iter().filter(|e| !local(e)).collect();
        if callable.is_empty() {
            continue;
        }
        if callable.iter().all(|e| e.mcp_tool.is_none()) && u.base_url.is_none() {
            for (key, given) in [("url", &u.url), ("command", &u.command)] {
                if given.is_some() {
                    warnings.push(format!(
                        "upstreams.{tool}: `{key}` is an MCP server's, and `{tool}` is an HTTP tool: its calls still go to the declared host; write `base_url = \"...\"` to send them elsewhere"
                    ));
                }
            }
        }
        if callable.iter().all(|e| e.mcp_tool.is_none()) && !u.env.is_empty() {
            warnings.push(format!(
                "upstreams.{tool}: `env` is for an MCP server started on stdio, and `{tool}` is an HTTP tool: it is not used"
            ));
        }
        if callable.iter().all(|e| e.mcp_tool.is_some()) && u.base_url.is_some() {
            warnings.push(format!(
                "upstreams.{tool}: `base_url` is an HTTP tool's, and `{tool}` is an MCP tool: it is not used; write `url` (streamable HTTP) or `command` (stdio)"
            ));
        }
    }
    warnings
}

/// Whether endpoint `e` is a function tool's (method `LOCAL`, as `import openai` declares a
/// function, `url: function://...`): the agent's own runtime executes it, the gateway cannot.
pub fn local(e: &schemarouter_core::artifact::EndpointData) -> bool {
    e.method.eq_ignore_ascii_case("LOCAL")
}

/// A warning for each upstream given (`--upstream`, or `[upstreams.TOOL]` with a `base_url`,
/// `url` or `command`) to a tool whose endpoints are all function endpoints ([`local`]).
fn upstreams_of_function_tools(
    g: &schemarouter_core::artifact::FrozenGraph,
    config: &GatewayConfig,
    overrides: &BTreeMap<String, String>,
) -> Vec<String> {
    let configured = config
        .upstreams
        .iter()
        .filter(|(_, u)| u.base_url.is_some() || u.url.is_some() || u.command.is_some())
        .map(|(t, _)| (t.as_str(), "[upstreams.".to_string() + t + "]"));
    let given = overrides
        .keys()
        .map(|t| (t.as_str(), format!("--upstream {t}=...")));
    let mut warnings = Vec::new();
    for (tool, how) in given.chain(configured) {
        if let Some((_, t)) = g.tool(tool)
            && !t.endpoints.is_empty()
            && t.endpoints.iter().all(local)
        {
            warnings.push(format!(
                "`{tool}` is a function tool (its endpoints are LOCAL): the gateway cannot call it, so `{how}` is not used; the agent's runtime executes function tools"
            ));
        }
    }
    warnings
}

/// The gateway over one core.
pub struct Gateway {
    /// The routing core (artifact, limits, metrics, log).
    pub core: Arc<Core>,
    /// The deployment's configuration.
    pub config: GatewayConfig,
    secrets: Secrets,
    client: reqwest::Client,
    /// MCP servers as the declarations recorded them (`mcp_server` of each tool).
    declared: BTreeMap<String, Endpoint>,
    /// `--upstream TOOL=URL`.
    overrides: BTreeMap<String, String>,
    /// Per tool, the configured variables of its MCP server's process (`env`, read at start).
    child_env: BTreeMap<String, BTreeMap<String, String>>,
    mcp: Mutex<BTreeMap<String, Arc<McpUpstream>>>,
}

impl Gateway {
    /// A gateway over `core`. `declared` maps tool ids to the MCP servers the import recorded;
    /// `overrides` are `--upstream TOOL=URL` (an HTTP tool's base URL, an MCP tool's
    /// streamable-HTTP endpoint); credentials are read from the environment variables the
    /// configuration names, sent as configured or as the tool declares its credential parameter
    /// ([`GatewayConfig::resolve_auth`]). Returns the warnings to log (unset variables, by name;
    /// credentials with nowhere to go).
    ///
    /// Errors: the HTTP client cannot be built (no TLS provider).
    pub fn new(
        core: Arc<Core>,
        mut config: GatewayConfig,
        declared: BTreeMap<String, Endpoint>,
        overrides: BTreeMap<String, String>,
    ) -> Result<(Gateway, Vec<String>), String> {
        install_tls();
        tokens::warm();
        let mut warnings = {
            let s = core.snapshot();
            let endpoints: Vec<(String, String)> = s
                .graph()
                .tools
                .iter()
                .flat_map(|t| t.endpoints.iter().map(|e| (t.id.clone(), e.id.clone())))
                .collect();
            let mut w = config.unmatched(&endpoints);
            w.extend(upstreams_of_function_tools(s.graph(), &config, &overrides));
            w.extend(config.resolve_auth(|tool, name| declared_credential(s.graph(), tool, name)));
            w.extend(credentials_not_given(s.graph(), &config));
            w.extend(keys_of_the_other_kind(s.graph(), &config));
            w.extend(config.unused_env());
            w.extend(boundary::unchecked_patterns(s.graph()));
            w
        };
        let (secrets, unset) = Secrets::read(&config, |n| std::env::var(n).ok());
        warnings.extend(unset);
        let mut child_env = BTreeMap::new();
        for tool in config.upstreams.keys() {
            let (env, unset) = config.child_env(tool, |n| std::env::var(n).ok());
            warnings.extend(unset);
            child_env.insert(tool.clone(), env);
        }
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::limited(5))
            .connect_timeout(std::time::Duration::from_millis(
                config.timeout_ms.min(10_000),
            ))
            .build()
            .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
        Ok((
            Gateway {
                core,
                config,
                secrets,
                client,
                declared,
                overrides,
                child_env,
                mcp: Mutex::new(BTreeMap::new()),
            },
            warnings,
        ))
    }

    /// Where `tool`'s MCP server is: `--upstream`, then the configuration, then the
    /// declarations.
    pub fn mcp_endpoint(&self, tool: &str) -> Option<Endpoint> {
        if let Some(u) = self.overrides.get(tool) {
            return Some(Endpoint::Url(u.clone()));
        }
        if let Some(c) = self.config.upstreams.get(tool) {
            if let Some(u) = &c.url {
                return Some(Endpoint::Url(u.clone()));
            }
            if let Some(cmd) = &c.command {
                return Some(Endpoint::Command(cmd.clone()));
            }
        }
        self.declared.get(tool).cloned()
    }

    fn mcp_upstream(&self, tool: &str) -> Result<Arc<McpUpstream>, UpstreamError> {
        let mut map = self.mcp.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(u) = map.get(tool) {
            return Ok(u.clone());
        }
        let endpoint = self.mcp_endpoint(tool).ok_or_else(|| {
            UpstreamError::new(
                tool,
                "not_configured",
                "the declarations record no MCP server for this tool; give `--upstream TOOL=URL` or `command` / `url` under [upstreams.TOOL] in the gateway configuration",
            )
        })?;
        let s = self.core.snapshot();
        let declared = s
            .graph()
            .tool(tool)
            .map(|(_, t)| {
                t.endpoints
                    .iter()
                    .filter(|e| e.mcp_tool.is_some())
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        let core = self.core.clone();
        let warn: upstream::mcp::Warn = Arc::new(move |message: String| {
            core.event(serde_json::json!({"event": "warning", "message": message}));
        });
        let env = upstream::mcp::child_environment(
            |k| std::env::var(k).ok(),
            self.child_env.get(tool).unwrap_or(&BTreeMap::new()),
        );
        let u = Arc::new(McpUpstream::new(
            tool,
            endpoint,
            declared,
            warn,
            self.config.connect_timeout(tool),
            env,
        ));
        map.insert(tool.to_string(), u.clone());
        Ok(u)
    }

    /// The base URL replacing `tool`'s declared one, if any.
    fn http_base(&self, tool: &str) -> Option<String> {
        self.overrides.get(tool).cloned().or_else(|| {
            self.config
                .upstreams
                .get(tool)
                .and_then(|u| u.base_url.clone())
        })
    }
}
