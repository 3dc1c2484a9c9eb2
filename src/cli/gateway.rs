//! `gateway`: the MCP server and the HTTP API of `mcp` / `serve` over one artifact, plus
//! execution (`call`, `ask`; `POST /v1/call`, `POST /v1/ask`; see `schemarouter_gateway`).

use super::mcp::Transport;
use super::serve::{
    ServerArgs, announce, bind, open_core, runtime, shutdown_signal, start_reloaders, warn_exposed,
};
use clap::Args;
use schemarouter_gateway::Gateway;
use schemarouter_gateway::config::GatewayConfig;
use schemarouter_gateway::upstream::mcp::Endpoint;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Arguments of `schemarouter gateway`.
#[derive(Debug, Args)]
pub struct GatewayArgs {
    /// Shared server options.
    #[command(flatten)]
    pub server: ServerArgs,
    /// Transport: `stdio` (MCP on stdin/stdout) or `http` (MCP at `/mcp` and the HTTP API with
    /// `POST /v1/call` and `POST /v1/ask` on one port).
    #[arg(long, value_enum, default_value_t = Transport::Stdio)]
    pub transport: Transport,
    /// Address to listen on with `--transport http` (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:8082")]
    pub bind: SocketAddr,
    /// `TOOL=URL`: an HTTP tool's base URL (replaces the declared scheme and host), or an MCP
    /// tool's streamable-HTTP endpoint. Repeatable.
    #[arg(long = "upstream", value_name = "TOOL=URL")]
    pub upstreams: Vec<String>,
    /// Gateway configuration (TOML): allow-list, destructive endpoints allowed, credentials
    /// from environment variables, upstream commands and URLs, timeouts, size caps.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Also offer every allowed endpoint as an MCP tool of its own (the upstream's tool name, or
    /// `TOOL__ENDPOINT`), its output trimmed to the declared fields.
    #[arg(long)]
    pub expose: bool,
    /// The schema project whose declarations record the MCP servers' commands and URLs
    /// [default: the project holding the artifact, or the working directory].
    #[arg(long)]
    pub project: Option<PathBuf>,
}

/// Where the declarations say each tool lives, by tool id: MCP servers (`mcp_server` with
/// `command` or `url`) and HTTP tools' server URLs with a base path (`server_url`).
#[derive(Default)]
struct Declared {
    mcp: BTreeMap<String, Endpoint>,
    server_urls: BTreeMap<String, String>,
}

/// The declarations of the project holding the artifact (or `--project`, or the working
/// directory's); nothing when no project loads.
///
/// # Errors
/// Exit code 2 when that project's `schemarouter.toml` has errors (printed): its declarations
/// are not read with default settings in place of the faulty ones.
fn declared_servers(project: Option<&Path>, artifact: &Path) -> Result<Declared, u8> {
    let cwd = std::env::current_dir().unwrap_or_default();
    let root = project
        .map(Path::to_path_buf)
        .or_else(|| project_of(artifact, &cwd));
    let mut out = Declared::default();
    let Some(root) = root else { return Ok(out) };
    super::locate::refuse_broken_project_config(&root)?;
    let Ok(loaded) = crate::load::load_project(&root) else {
        return Ok(out);
    };
    for t in &loaded.project.tools {
        let tool = &t.item.value;
        let id = crate::model::normalise_id(&tool.id.value);
        if let Some(u) = &tool.server_url {
            out.server_urls.insert(id.clone(), u.value.clone());
        }
        let Some(server) = &tool.mcp_server else {
            continue;
        };
        if let Some(u) = &server.value.url {
            out.mcp.insert(id, Endpoint::Url(u.value.clone()));
        } else if let Some(c) = &server.value.command {
            out.mcp.insert(id, Endpoint::Command(c.value.clone()));
        }
    }
    Ok(out)
}

/// The project holding `artifact` (a path relative to `cwd`, or absolute), else the one holding
/// `cwd`. The artifact's path is made absolute first: the parent of `build/graph.json` given
/// relative is `build`, whose last ancestor is the empty path, which names no project to load
/// (the gateway then replaced a tool's origin, not its `server_url`: `/v4/v4/latest/USD`).
fn project_of(artifact: &Path, cwd: &Path) -> Option<std::path::PathBuf> {
    let artifact = cwd.join(artifact);
    let start = artifact.parent().unwrap_or(cwd);
    super::locate::find_project(start).or_else(|| super::locate::find_project(cwd))
}

/// A tool's declared `server_url` is the part of its URLs a base URL replaces, unless the
/// configuration names its own `declared_base`.
fn apply_server_urls(config: &mut GatewayConfig, server_urls: BTreeMap<String, String>) {
    for (tool, url) in server_urls {
        let u = config.upstreams.entry(tool).or_default();
        if u.declared_base.is_none() {
            u.declared_base = Some(url);
        }
    }
}

fn read_config(path: Option<&Path>) -> Result<GatewayConfig, u8> {
    let Some(p) = path else {
        return Ok(GatewayConfig::default());
    };
    let text = std::fs::read_to_string(p).map_err(|e| {
        super::usage_error(
            format!("cannot read `{}`: {e}", p.display()),
            "--config names a readable TOML file",
        )
    })?;
    GatewayConfig::parse(&text)
        .map_err(|e| super::usage_error(format!("{}: {e}", p.display()), config_help()))
}

/// The help line of a configuration error: the keys, from [`schemarouter_gateway::config::KEYS`].
fn config_help() -> String {
    let keys: Vec<String> = schemarouter_gateway::config::KEYS
        .iter()
        .map(|k| match *k {
            "upstreams" => "[upstreams.TOOL]".to_string(),
            k => k.to_string(),
        })
        .collect();
    format!("see docs/gateway.md for the keys ({})", keys.join(", "))
}

fn parse_upstreams(list: &[String]) -> Result<BTreeMap<String, String>, u8> {
    let mut out = BTreeMap::new();
    for u in list {
        match u.split_once('=') {
            Some((tool, url))
                if !tool.is_empty()
                    && (url.starts_with("http://") || url.starts_with("https://")) =>
            {
                out.insert(tool.to_string(), url.to_string());
            }
            _ => {
                return Err(super::usage_error(
                    format!("`--upstream {u}` is not TOOL=URL"),
                    "give the tool id and an http(s) URL, e.g. --upstream my_tool=http://127.0.0.1:4010",
                ));
            }
        }
    }
    Ok(out)
}

/// Run `gateway`.
pub fn run_gateway(args: GatewayArgs) -> u8 {
    if args.transport == Transport::Stdio && args.server.token_file.is_some() {
        return super::usage_error(
            "--token-file applies to --transport http only",
            "over stdio the client that starts the gateway is the only peer",
        );
    }
    let mut config = match read_config(args.config.as_deref()) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let overrides = match parse_upstreams(&args.upstreams) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let core = match open_core(&args.server) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let declared = match declared_servers(args.project.as_deref(), &core.path()) {
        Ok(d) => d,
        Err(code) => return code,
    };
    apply_server_urls(&mut config, declared.server_urls);
    let (gw, warnings) = match Gateway::new(core.clone(), config, declared.mcp, overrides) {
        Ok(g) => g,
        Err(e) => return super::usage_error(e, "the TLS provider could not be set up"),
    };
    let gw = Arc::new(gw);
    let rt = match runtime() {
        Ok(r) => r,
        Err(code) => return code,
    };
    let code = rt.block_on(async move {
        // After `listening` (the first line): credentials whose variables are not set.
        let warn = |core: &crate::serve::Core| {
            for w in &warnings {
                core.event(serde_json::json!({"event": "warning", "message": w}));
            }
        };
        let ext: Arc<dyn crate::serve::mcp::Extension> = Arc::new(
            schemarouter_gateway::faces::Tools::new(gw.clone(), args.expose),
        );
        let result = match args.transport {
            Transport::Stdio => {
                start_reloaders(&core, args.server.watch_ms);
                let stop = shutdown_signal(core.clone());
                announce(&core, "gateway-stdio", "stdio");
                warn(&core);
                let server = crate::serve::mcp::McpServer::with_extension(core.clone(), ext);
                tokio::select! {
                    r = crate::serve::mcp::serve_stdio_with(server) => r,
                    () = stop => Ok(()),
                }
            }
            Transport::Http => {
                let listener = match bind(args.bind).await {
                    Ok(l) => l,
                    Err(code) => return code,
                };
                let addr = listener.local_addr().unwrap_or(args.bind);
                warn_exposed(&core, &addr);
                start_reloaders(&core, args.server.watch_ms);
                let stop = shutdown_signal(core.clone());
                announce(&core, "gateway-http", &format!("http://{addr}"));
                warn(&core);
                let cancel = tokio_util::sync::CancellationToken::new();
                let c = core.clone();
                let mcp = crate::serve::mcp::http_router_with(
                    core.clone(),
                    addr.ip().is_loopback(),
                    cancel.clone(),
                    move || crate::serve::mcp::McpServer::with_extension(c.clone(), ext.clone()),
                );
                let api = crate::serve::http::router_with(
                    core.clone(),
                    schemarouter_gateway::faces::http_routes(gw.clone()),
                );
                // `GET /openapi.json` also describes `POST /v1/call` and `POST /v1/ask`.
                let app = schemarouter_gateway::openapi::describe(mcp.merge(api));
                let shutdown = async move {
                    stop.await;
                    cancel.cancel();
                };
                crate::serve::http::serve(listener, app, shutdown, core.limits.request_timeout)
                    .await
                    .map_err(|e| format!("the server failed: {e}"))
            }
        };
        match result {
            Ok(()) => {
                core.event(serde_json::json!({"event": "stopped"}));
                0
            }
            Err(e) => super::usage_error(e, "see the event lines above; restart the gateway"),
        }
    });
    // A stdio transport's reader may still wait on stdin in a blocking thread, which dropping
    // the runtime would wait for: after a SIGTERM the process said `stopped` and stayed until
    // its client closed stdin.
    rt.shutdown_background();
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_project_of_an_artifact_given_relative_to_the_working_directory() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("proj");
        std::fs::create_dir_all(root.join("build")).unwrap();
        std::fs::write(root.join("schemarouter.toml"), "[project]\nname = \"p\"\n").unwrap();
        // Run in the project (`build/graph.json`), in `build` (`graph.json`), or from anywhere.
        assert_eq!(
            project_of(Path::new("build/graph.json"), &root),
            Some(root.clone())
        );
        assert_eq!(
            project_of(Path::new("graph.json"), &root.join("build")),
            Some(root.clone())
        );
        assert_eq!(
            project_of(&root.join("build/graph.json"), Path::new("/")),
            Some(root.clone())
        );
    }

    #[test]
    fn drift_codes_are_the_diff_codes_with_their_classes() {
        for (code, class) in schemarouter_gateway::drift::CODES {
            assert!(
                crate::diff::codes::find(code).is_some(),
                "`{code}` is no `schemarouter diff` code"
            );
            assert_eq!(
                crate::diff::codes::class_of(code).as_str(),
                *class,
                "{code}"
            );
        }
    }
}
