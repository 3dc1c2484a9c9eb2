//! The deployment's gateway configuration (`schemarouter gateway --config FILE`, TOML): where
//! each tool's upstream is, which credentials to read from which environment variables, which
//! tools and endpoints may be executed, and the limits of upstream calls.
//!
//! ```toml
//! allow = ["materials_project/*", "time/*"]   # tool or tool/endpoint patterns (`*` any run)
//! allow_destructive = []                       # destructive endpoints allowed anyway
//! timeout_ms = 10000                           # per upstream call
//! connect_timeout_ms = 30000                   # an MCP server's start and `initialize`
//! retries = 2                                  # idempotent HTTP methods only
//! max_response_bytes = 8388608                 # larger upstream bodies are refused
//! raw_cap_bytes = 16384                        # raw response returned on request, capped
//!
//! [upstreams.materials_project]
//! base_url = "https://api.materialsproject.org"
//! declared_base = "https://api.materialsproject.org"  # the part of declared URLs base_url replaces
//! auth = { env = "MP_API_KEY" }   # sent as the tool declares its credential (header x-api-key)
//!
//! [upstreams.time]
//! command = "uvx mcp-server-time"             # or url = "http://127.0.0.1:8000/mcp"
//!
//! [upstreams.memory]   # a server started on stdio gets PATH, HOME, ... and its `env` only
//! env = { MEMORY_FILE_PATH = "${MEMORY_FILE_PATH}", MODE = "literal text" }
//! ```
//!
//! Credentials are never in the file: only the name of the environment variable holding them.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::time::Duration;

/// The credential parameter a tool declares (`auth: true`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclaredCredential {
    /// Its name (`x-api-key`, `Authorization`).
    pub name: String,
    /// Where it is sent (`header`, `query`, `cookie`), when declared.
    pub location: Option<String>,
    /// Declared `format: bearer`: a bearer token.
    pub bearer: bool,
    /// Declared `format: basic`: HTTP basic credentials (a user and a password).
    pub basic: bool,
}

/// How a credential is sent.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum AuthKind {
    /// An API key in a request header (`name`).
    Header,
    /// An API key in a query parameter (`name`).
    Query,
    /// `Authorization: Bearer <value>`.
    Bearer,
    /// `Authorization: Basic <base64 of user:password>` (RFC 7617), the user read from
    /// `user_env` and the password from `env`.
    Basic,
}

/// A credential read from an environment variable.
///
/// Without `kind`, the tool's declarations say how it is sent: their credential parameter
/// (`auth: true`), a header when declared `in: header`, else a query parameter, under the
/// declared name ([`GatewayConfig::resolve_auth`]). `auth = { env = "MP_API_KEY" }` is all
/// a tool that declares its credential needs. HTTP basic credentials are two variables:
/// `auth = { user_env = "API_USER", env = "API_PASSWORD" }` (`kind = "basic"` implied).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Auth {
    /// How it is sent (default: as the tool declares its credential parameter).
    #[serde(default)]
    pub kind: Option<AuthKind>,
    /// Header or query parameter name (not used for `bearer`; default: the declared
    /// credential parameter's name).
    #[serde(default)]
    pub name: Option<String>,
    /// The environment variable holding the secret (for `basic`: the password).
    pub env: String,
    /// `basic` only: the environment variable holding the user name.
    #[serde(default)]
    pub user_env: Option<String>,
}

/// Where one tool's upstream is, and how to reach it.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct UpstreamConfig {
    /// HTTP tools: replaces the scheme and authority of the declared URLs; a path it has is put
    /// before the declared path.
    #[serde(default)]
    pub base_url: Option<String>,
    /// HTTP tools: the part of the declared URLs that `base_url` (or `--upstream`) replaces
    /// (the OpenAPI server URL, `https://api.example.org/v1`); without it the scheme and
    /// authority are replaced and the declared path kept.
    #[serde(default)]
    pub declared_base: Option<String>,
    /// MCP tools: the command line starting the server on stdio.
    #[serde(default)]
    pub command: Option<String>,
    /// MCP tools: the server's streamable-HTTP endpoint.
    #[serde(default)]
    pub url: Option<String>,
    /// Credentials to send: one table, or a list when the upstream needs several at once (an
    /// API key and a client id, each in its header).
    #[serde(default, deserialize_with = "one_or_many")]
    pub auth: Vec<Auth>,
    /// Per-call timeout for this upstream in milliseconds (default: the global one).
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    /// MCP tools: how long the server's start and `initialize` may take, in milliseconds
    /// (default: the global one).
    #[serde(default)]
    pub connect_timeout_ms: Option<u64>,
    /// MCP servers started on stdio: the variables their process gets besides the few every
    /// child inherits ([`crate::upstream::mcp::INHERITED_ENV`]; never the gateway's whole
    /// environment, which holds other upstreams' credentials). A value is literal text in
    /// which `${NAME}` is the gateway's variable `NAME` and `$$` a `$`
    /// ([`GatewayConfig::child_env`]).
    #[serde(default)]
    pub env: BTreeMap<String, String>,
}

/// The gateway configuration.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct GatewayConfig {
    /// Tool or `tool/endpoint` patterns that may be executed (`*` matches any run of
    /// characters); default: every tool.
    #[serde(default = "all")]
    pub allow: Vec<String>,
    /// Destructive endpoints (`tool/endpoint` patterns) that may be executed anyway.
    #[serde(default)]
    pub allow_destructive: Vec<String>,
    /// Per upstream call, in milliseconds.
    #[serde(default = "default_timeout")]
    pub timeout_ms: u64,
    /// How long an MCP server's start and `initialize` may take, in milliseconds. A connect
    /// runs apart from the calls (a call waits for it at most its own timeout), so a server
    /// slower to start than one call's timeout is up for a later call.
    #[serde(default = "default_connect_timeout")]
    pub connect_timeout_ms: u64,
    /// Retries of idempotent HTTP methods (GET, HEAD, PUT, DELETE, OPTIONS) after a connection
    /// failure, a 429, 502, 503 or 504.
    #[serde(default = "default_retries")]
    pub retries: u32,
    /// Largest upstream response body in bytes.
    #[serde(default = "default_max_response")]
    pub max_response_bytes: usize,
    /// Largest raw response returned to the agent (on request), in bytes.
    #[serde(default = "default_raw_cap")]
    pub raw_cap_bytes: usize,
    /// Per tool id.
    #[serde(default)]
    pub upstreams: BTreeMap<String, UpstreamConfig>,
}

/// `value` with each `${NAME}` replaced by `var(NAME)` and each `$$` by `$` (the syntax of an
/// upstream's `env` values).
///
/// Errors: a `$` followed by neither `{` nor `$`, a `${` without its `}`, a name that is not
/// letters, digits and `_` (not starting with a digit); the names `var` does not know, as one
/// error listing them (`Err` of the inner result).
fn expand(
    value: &str,
    var: impl Fn(&str) -> Option<String>,
) -> Result<Result<String, Vec<String>>, String> {
    let mut out = String::with_capacity(value.len());
    let mut unset = Vec::new();
    let mut rest = value;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(more) = after.strip_prefix('$') {
            out.push('$');
            rest = more;
            continue;
        }
        let Some(inner) = after.strip_prefix('{') else {
            return Err(format!(
                "`{value}`: a `$` starts `${{NAME}}` (a variable of the gateway's environment) or is written `$$`"
            ));
        };
        let Some(end) = inner.find('}') else {
            return Err(format!("`{value}`: `${{` without its `}}`"));
        };
        let name = &inner[..end];
        let valid = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            return Err(format!(
                "`{value}`: `${{{name}}}` names no variable (letters, digits and `_`, not starting with a digit)"
            ));
        }
        match var(name) {
            Some(v) => out.push_str(&v),
            None => unset.push(name.to_string()),
        }
        rest = &inner[end + 1..];
    }
    out.push_str(rest);
    Ok(if unset.is_empty() {
        Ok(out)
    } else {
        Err(unset)
    })
}

/// `auth = { ... }` or `auth = [{ ... }, { ... }]`.
fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Auth>, D::Error> {
    use serde::de::Error;
    // Not an untagged enum: its error ("did not match any variant") hides which key is wrong.
    let value = toml::Value::deserialize(d)?;
    let parsed = match value {
        toml::Value::Array(_) => value.try_into::<Vec<Auth>>(),
        other => other.try_into::<Auth>().map(|a| vec![a]),
    };
    parsed.map_err(|e| {
        D::Error::custom(format!(
            "auth: {}; a credential is `{{ env = \"VARIABLE\" }}` (the environment variable holding the secret) with optional `kind`, `name`, `user_env`",
            e.to_string().trim()
        ))
    })
}

/// The default per-call timeout (`timeout_ms`), in milliseconds.
pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;
/// The default connect timeout (`connect_timeout_ms`), in milliseconds.
pub const DEFAULT_CONNECT_TIMEOUT_MS: u64 = 30_000;

/// The top-level keys of a configuration file, in the order of [`GatewayConfig`]'s fields
/// (a unit test checks them against what the parser accepts); the CLI's help lists them.
pub const KEYS: &[&str] = &[
    "allow",
    "allow_destructive",
    "timeout_ms",
    "connect_timeout_ms",
    "retries",
    "max_response_bytes",
    "raw_cap_bytes",
    "upstreams",
];

fn all() -> Vec<String> {
    vec!["*".to_string()]
}
fn default_timeout() -> u64 {
    DEFAULT_TIMEOUT_MS
}
fn default_retries() -> u32 {
    2
}
fn default_connect_timeout() -> u64 {
    DEFAULT_CONNECT_TIMEOUT_MS
}
fn default_max_response() -> usize {
    8 << 20
}
fn default_raw_cap() -> usize {
    16 << 10
}

impl Default for GatewayConfig {
    fn default() -> Self {
        GatewayConfig {
            allow: all(),
            allow_destructive: Vec::new(),
            timeout_ms: default_timeout(),
            connect_timeout_ms: default_connect_timeout(),
            retries: default_retries(),
            max_response_bytes: default_max_response(),
            raw_cap_bytes: default_raw_cap(),
            upstreams: BTreeMap::new(),
        }
    }
}

impl GatewayConfig {
    /// Parse the TOML text of a configuration file.
    ///
    /// Errors: TOML syntax, unknown keys, wrong types (the message has the line and column), a
    /// header or query credential without `name`, a `basic` credential without `user_env`, a
    /// `user_env` on another kind. A credential with `user_env` and no `kind` is `basic`.
    pub fn parse(text: &str) -> Result<GatewayConfig, String> {
        let mut c: GatewayConfig = toml::from_str(text).map_err(|e| e.to_string())?;
        c.check_values()?;
        for (tool, u) in &mut c.upstreams {
            let several = u.auth.len() > 1;
            for a in &mut u.auth {
                match (a.kind, &a.user_env) {
                    (None, Some(_)) => a.kind = Some(AuthKind::Basic),
                    (Some(AuthKind::Basic), None) => {
                        return Err(format!(
                            "upstreams.{tool}.auth: a `basic` credential needs `user_env` (the variable holding the user name; `env` holds the password)"
                        ));
                    }
                    (Some(k), Some(_)) if k != AuthKind::Basic => {
                        return Err(format!(
                            "upstreams.{tool}.auth: `user_env` is for `basic` credentials only"
                        ));
                    }
                    _ => {}
                }
                if let Some(kind @ (AuthKind::Header | AuthKind::Query)) = a.kind
                    && a.name.is_none()
                {
                    return Err(format!(
                        "upstreams.{tool}.auth: a `{}` credential needs `name` (the header or query parameter)",
                        if kind == AuthKind::Header {
                            "header"
                        } else {
                            "query"
                        }
                    ));
                }
                if several && a.name.is_none() && a.kind.is_none() {
                    return Err(format!(
                        "upstreams.{tool}.auth: each of several credentials needs `name` (the declared credential parameter it fills; ${} has none)",
                        a.env
                    ));
                }
            }
        }
        Ok(c)
    }

    /// The values a call would fail on, refused at start: a timeout of 0 ms (every call would
    /// time out), and an upstream `base_url`, `declared_base` or `url` that is no absolute
    /// `http`/`https` URL (`command` is for a local MCP server).
    fn check_values(&self) -> Result<(), String> {
        if self.timeout_ms == 0 {
            return Err(format!(
                "timeout_ms: 0 ms would time out every call; give a timeout in milliseconds (default {DEFAULT_TIMEOUT_MS})"
            ));
        }
        if self.connect_timeout_ms == 0 {
            return Err(format!(
                "connect_timeout_ms: 0 ms would time out every connect; give a timeout in milliseconds (default {DEFAULT_CONNECT_TIMEOUT_MS})"
            ));
        }
        for (tool, u) in &self.upstreams {
            for (key, value) in [
                ("timeout_ms", u.timeout_ms),
                ("connect_timeout_ms", u.connect_timeout_ms),
            ] {
                if value == Some(0) {
                    return Err(format!(
                        "upstreams.{tool}.{key}: 0 ms would time out every call; give a timeout in milliseconds or remove it (the global one applies)"
                    ));
                }
            }
            check_command(tool, u)?;
            for (name, value) in &u.env {
                env_name(name).map_err(|why| format!("upstreams.{tool}.env: {why}"))?;
                if value.contains('\0') {
                    return Err(format!(
                        "upstreams.{tool}.env.{name}: the value holds a NUL character, which no process environment can carry"
                    ));
                }
                expand(value, |_| Some(String::new()))
                    .map(drop)
                    .map_err(|why| format!("upstreams.{tool}.env.{name}: {why}"))?;
            }
            for (key, value) in [
                ("base_url", &u.base_url),
                ("declared_base", &u.declared_base),
                ("url", &u.url),
            ] {
                if let Some(v) = value {
                    http_url(v).map_err(|why| {
                        format!("upstreams.{tool}.{key}: `{v}` {why}; write an absolute URL such as `https://api.example.org/v1`")
                    })?;
                }
            }
        }
        Ok(())
    }

    /// The variables `tool`'s MCP server process gets besides the inherited ones: its `env`
    /// table with each `${NAME}` replaced by the gateway's variable (`var`: the process
    /// environment in production), and a warning for each variable that names an unset one
    /// (left out of the child's environment, never set empty).
    pub fn child_env(
        &self,
        tool: &str,
        var: impl Fn(&str) -> Option<String>,
    ) -> (BTreeMap<String, String>, Vec<String>) {
        let mut env = BTreeMap::new();
        let mut warnings = Vec::new();
        let Some(u) = self.upstreams.get(tool) else {
            return (env, warnings);
        };
        for (name, value) in &u.env {
            match expand(value, &var) {
                Ok(Ok(v)) => {
                    env.insert(name.clone(), v);
                }
                Ok(Err(unset)) => warnings.push(format!(
                    "upstreams.{tool}.env.{name} reads ${}, which is not set: the server of `{tool}` is started without `{name}`",
                    unset.join(", $")
                )),
                // Refused when the configuration was read.
                Err(why) => warnings.push(format!("upstreams.{tool}.env.{name}: {why}")),
            }
        }
        (env, warnings)
    }

    /// What in this configuration names nothing in the loaded artifact, as warnings: an
    /// `[upstreams.X]` whose X is no tool (a typo leaves the declared host in use), and an
    /// `allow` or `allow_destructive` pattern that matches no tool or endpoint. `endpoints`
    /// lists every `(tool, endpoint)` of the artifact.
    pub fn unmatched(&self, endpoints: &[(String, String)]) -> Vec<String> {
        let mut warnings = Vec::new();
        for tool in self.upstreams.keys() {
            if !endpoints.iter().any(|(t, _)| t == tool) {
                warnings.push(format!(
                    "upstreams.{tool}: no tool `{tool}` in the artifact; this upstream is never used"
                ));
            }
        }
        for (key, patterns) in [
            ("allow", &self.allow),
            ("allow_destructive", &self.allow_destructive),
        ] {
            for p in patterns {
                if !endpoints
                    .iter()
                    .any(|(t, e)| allowed(std::slice::from_ref(p), t, e))
                {
                    warnings.push(format!(
                        "{key}: `{p}` matches no tool or endpoint of the artifact"
                    ));
                }
            }
        }
        warnings
    }

    /// A warning for each upstream with both `url` and `env`: `env` is the environment of a
    /// server the gateway starts on stdio, and a server reached over HTTP runs elsewhere.
    pub fn unused_env(&self) -> Vec<String> {
        self.upstreams
            .iter()
            .filter(|(_, u)| u.url.is_some() && !u.env.is_empty())
            .map(|(tool, _)| {
                format!(
                    "upstreams.{tool}: `env` is for an MCP server started on stdio (`command`), and `{tool}` is reached at its `url`: it is not used"
                )
            })
            .collect()
    }

    /// Give every credential without `kind` the kind and name of the credential parameter its
    /// tool declares (`auth: true`: `bearer` when it is the `Authorization` header declared
    /// `format: bearer`, as the import declares OAuth 2, OpenID Connect and HTTP bearer
    /// schemes; else a header when `in: header`, else a query parameter), as `declared(tool)`
    /// finds it. Returns a warning for each credential whose tool declares none, or declares
    /// HTTP basic credentials while the configuration gives one variable (it is dropped: the
    /// gateway cannot know where to send it, or has half of it).
    pub fn resolve_auth(
        &mut self,
        declared: impl Fn(&str, Option<&str>) -> Option<DeclaredCredential>,
    ) -> Vec<String> {
        let mut warnings = Vec::new();
        for (tool, u) in &mut self.upstreams {
            u.auth
                .retain_mut(|a| resolve_one(tool, a, &declared, &mut warnings));
        }
        warnings
    }

    /// The per-call timeout of `tool`'s upstream.
    pub fn timeout(&self, tool: &str) -> Duration {
        Duration::from_millis(
            self.upstreams
                .get(tool)
                .and_then(|u| u.timeout_ms)
                .unwrap_or(self.timeout_ms),
        )
    }

    /// How long the start and `initialize` of `tool`'s MCP server may take.
    pub fn connect_timeout(&self, tool: &str) -> Duration {
        Duration::from_millis(
            self.upstreams
                .get(tool)
                .and_then(|u| u.connect_timeout_ms)
                .unwrap_or(self.connect_timeout_ms),
        )
    }

    /// Whether `tool/endpoint` is on the allow-list.
    pub fn allows(&self, tool: &str, endpoint: &str) -> bool {
        allowed(&self.allow, tool, endpoint)
    }

    /// Whether the destructive endpoint `tool/endpoint` may be executed.
    pub fn allows_destructive(&self, tool: &str, endpoint: &str) -> bool {
        allowed(&self.allow_destructive, tool, endpoint)
    }
}

/// Why `name` cannot name a variable of a process environment, if it cannot: empty, or holding
/// `=` (the separator of `NAME=value`) or a NUL character.
fn env_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("a variable's name is empty; write `NAME = \"value\"`".to_string());
    }
    if name.contains('=') || name.contains('\0') {
        return Err(format!(
            "`{}` is no variable name: it holds `=` or a NUL character (an environment entry is NAME=value)",
            name.escape_default()
        ));
    }
    Ok(())
}

/// Refuses a `command` that names no program (empty or blank), and one given together with
/// `url` (an MCP server is started on stdio or reached over HTTP, not both).
fn check_command(tool: &str, u: &UpstreamConfig) -> Result<(), String> {
    let Some(command) = &u.command else {
        return Ok(());
    };
    if command.trim().is_empty() {
        return Err(format!(
            "upstreams.{tool}.command: empty; give the command line starting the MCP server (`uvx mcp-server-time`), or remove it"
        ));
    }
    if u.url.is_some() {
        return Err(format!(
            "upstreams.{tool}: both `command` and `url`; give `command` (a server started on stdio) or `url` (its streamable-HTTP endpoint), not both"
        ));
    }
    Ok(())
}

/// Why `v` is no absolute `http`/`https` URL, if it is not.
fn http_url(v: &str) -> Result<(), &'static str> {
    match url::Url::parse(v) {
        Ok(u) if matches!(u.scheme(), "http" | "https") && u.has_host() => Ok(()),
        Ok(_) => Err("is no http or https URL"),
        Err(_) => Err("is no URL"),
    }
}

fn allowed(patterns: &[String], tool: &str, endpoint: &str) -> bool {
    let full = format!("{tool}/{endpoint}");
    patterns
        .iter()
        .any(|p| glob(p, &full) || (!p.contains('/') && glob(p, tool)))
}

/// `*` matches any run of characters (also none); everything else itself.
pub fn glob(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    if !text.ends_with(last) {
        return false;
    }
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    true
}

/// [`GatewayConfig::resolve_auth`] of one credential of `tool`: `false` when it is dropped
/// (with a warning).
fn resolve_one(
    tool: &str,
    a: &mut Auth,
    declared: &impl Fn(&str, Option<&str>) -> Option<DeclaredCredential>,
    warnings: &mut Vec<String>,
) -> bool {
    if a.kind.is_some() {
        return true;
    }
    match declared(tool, a.name.as_deref()) {
        Some(d) => {
            let header = d.location.as_deref() == Some("header");
            let authorization = header && d.name.eq_ignore_ascii_case("authorization");
            if d.basic && authorization {
                warnings.push(format!(
                    "upstreams.{tool}.auth: `{tool}` declares HTTP basic credentials: give `user_env` (the user name's variable) beside `env` (the password's); ${} is not sent",
                    a.env
                ));
                return false;
            }
            a.kind = Some(if d.bearer && authorization {
                AuthKind::Bearer
            } else if header {
                AuthKind::Header
            } else {
                AuthKind::Query
            });
            a.name = Some(d.name);
            true
        }
        None => {
            warnings.push(format!(
                "upstreams.{tool}.auth has no `kind` and `{tool}` declares no credential parameter (`auth: true`){}: give `kind` (header, query, bearer, basic) and `name`; ${} is not sent",
                a.name.as_deref().map(|n| format!(" named `{n}`")).unwrap_or_default(),
                a.env
            ));
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An upstream's `env`: literal text, `${NAME}` from the gateway's environment, `$$` a
    /// `$`; an unset variable is a warning and leaves the variable out; a faulty value is
    /// refused when the file is read.
    #[test]
    fn child_env_values_name_the_gateways_variables() {
        let c = GatewayConfig::parse(
            "[upstreams.memory]\nenv = { MEMORY_FILE_PATH = \"${DATA}/memory.jsonl\", MODE = \"plain $$5\", TOKEN = \"${NOPE}\" }\n",
        )
        .unwrap();
        let var = |n: &str| (n == "DATA").then(|| "/srv/data".to_string());
        let (env, warnings) = c.child_env("memory", var);
        assert_eq!(
            env,
            BTreeMap::from([
                (
                    "MEMORY_FILE_PATH".to_string(),
                    "/srv/data/memory.jsonl".to_string()
                ),
                ("MODE".to_string(), "plain $5".to_string()),
            ])
        );
        assert_eq!(
            warnings,
            vec!["upstreams.memory.env.TOKEN reads $NOPE, which is not set: the server of `memory` is started without `TOKEN`".to_string()]
        );
        assert_eq!(c.child_env("other", var), (BTreeMap::new(), Vec::new()));
        for (value, why) in [
            (
                "$HOME",
                "`$HOME`: a `$` starts `${NAME}` (a variable of the gateway's environment) or is written `$$`",
            ),
            ("${HOME", "`${HOME`: `${` without its `}`"),
            (
                "${1X}",
                "`${1X}`: `${1X}` names no variable (letters, digits and `_`, not starting with a digit)",
            ),
        ] {
            let text = format!("[upstreams.m]\nenv = {{ A = '{value}' }}\n");
            assert_eq!(
                GatewayConfig::parse(&text).unwrap_err(),
                format!("upstreams.m.env.A: {why}")
            );
        }
    }

    /// What no process environment or command line can carry is refused when the file is
    /// read, naming the key; `env` beside `url` is a warning (a server reached over HTTP runs
    /// elsewhere).
    #[test]
    fn env_names_and_commands_are_checked() {
        for (text, message) in [
            (
                "[upstreams.m]\nenv = { \"\" = \"1\" }\n",
                "upstreams.m.env: a variable's name is empty; write `NAME = \"value\"`",
            ),
            (
                "[upstreams.m]\nenv = { \"A=B\" = \"1\" }\n",
                "upstreams.m.env: `A=B` is no variable name: it holds `=` or a NUL character (an environment entry is NAME=value)",
            ),
            (
                "[upstreams.m]\nenv = { \"A\\u0000\" = \"1\" }\n",
                "upstreams.m.env: `A\\u{0}` is no variable name: it holds `=` or a NUL character (an environment entry is NAME=value)",
            ),
            (
                "[upstreams.m]\nenv = { X = \"a\\u0000b\" }\n",
                "upstreams.m.env.X: the value holds a NUL character, which no process environment can carry",
            ),
            (
                "[upstreams.m]\ncommand = \" \"\n",
                "upstreams.m.command: empty; give the command line starting the MCP server (`uvx mcp-server-time`), or remove it",
            ),
            (
                "[upstreams.m]\ncommand = \"python x.py\"\nurl = \"http://127.0.0.1:1/mcp\"\n",
                "upstreams.m: both `command` and `url`; give `command` (a server started on stdio) or `url` (its streamable-HTTP endpoint), not both",
            ),
        ] {
            assert_eq!(GatewayConfig::parse(text).unwrap_err(), message, "{text}");
        }
        let c = GatewayConfig::parse(
            "[upstreams.m]\nurl = \"http://127.0.0.1:1/mcp\"\nenv = { A = \"1\" }\n[upstreams.s]\ncommand = \"x\"\nenv = { A = \"1\" }\n",
        )
        .unwrap();
        assert_eq!(
            c.unused_env(),
            [
                "upstreams.m: `env` is for an MCP server started on stdio (`command`), and `m` is reached at its `url`: it is not used"
            ]
        );
    }

    /// A credential without `env` names the missing key (not serde's "did not match any
    /// variant"), alone or in a list.
    #[test]
    fn a_credential_without_env_names_the_key() {
        let hint = "a credential is `{ env = \"VARIABLE\" }` (the environment variable holding the secret) with optional `kind`, `name`, `user_env`";
        for text in [
            "[upstreams.d]\nauth = { kind = \"header\" }\n",
            "[upstreams.d]\nauth = [{ kind = \"header\" }]\n",
        ] {
            let e = GatewayConfig::parse(text).unwrap_err();
            assert!(
                e.ends_with(&format!("auth: missing field `env`; {hint}\n")),
                "{e}"
            );
        }
    }

    /// The default in the zero-timeout message is the one used; [`KEYS`] are the keys the
    /// parser accepts, in order.
    #[test]
    fn defaults_and_keys_have_one_source() {
        assert_eq!(GatewayConfig::default().timeout_ms, 10_000);
        assert_eq!(
            GatewayConfig::parse("timeout_ms = 0\n").unwrap_err(),
            "timeout_ms: 0 ms would time out every call; give a timeout in milliseconds (default 10000)"
        );
        let e = GatewayConfig::parse("alow = []\n").unwrap_err();
        let expected: Vec<String> = KEYS.iter().map(|k| format!("`{k}`")).collect();
        assert!(
            e.contains(&format!("expected one of {}\n", expected.join(", "))),
            "{e}"
        );
    }

    #[test]
    fn patterns_match_tools_and_endpoints() {
        assert!(glob("*", "a/b"));
        assert!(glob("time/*", "time/get_current_time"));
        assert!(!glob("time/*", "timex/get"));
        assert!(glob("a*c*e", "abcde"));
        assert!(!glob("a*c*e", "abde"));
        let c = GatewayConfig {
            allow: vec!["time".into(), "mem/read_*".into()],
            ..GatewayConfig::default()
        };
        assert!(c.allows("time", "convert_time"));
        assert!(c.allows("mem", "read_graph"));
        assert!(!c.allows("mem", "delete_entities"));
        assert!(!c.allows("other", "x"));
    }

    #[test]
    fn values_a_call_would_fail_on_are_refused_at_start() {
        for (text, message) in [
            (
                "timeout_ms = 0\n",
                "timeout_ms: 0 ms would time out every call; give a timeout in milliseconds (default 10000)",
            ),
            (
                "[upstreams.w]\ntimeout_ms = 0\n",
                "upstreams.w.timeout_ms: 0 ms would time out every call; give a timeout in milliseconds or remove it (the global one applies)",
            ),
            (
                "[upstreams.w]\nbase_url = \"not a url\"\n",
                "upstreams.w.base_url: `not a url` is no URL; write an absolute URL such as `https://api.example.org/v1`",
            ),
            (
                "[upstreams.w]\nbase_url = \"ftp://x\"\n",
                "upstreams.w.base_url: `ftp://x` is no http or https URL; write an absolute URL such as `https://api.example.org/v1`",
            ),
            (
                "[upstreams.w]\nurl = \"localhost:8080/mcp\"\n",
                "upstreams.w.url: `localhost:8080/mcp` is no http or https URL; write an absolute URL such as `https://api.example.org/v1`",
            ),
        ] {
            assert_eq!(GatewayConfig::parse(text).unwrap_err(), message, "{text}");
        }
        assert!(
            GatewayConfig::parse("[upstreams.w]\nbase_url = \"http://127.0.0.1:4010/v1\"\n")
                .is_ok()
        );
    }

    #[test]
    fn names_the_artifact_lacks_are_warned_of() {
        let c = GatewayConfig::parse(
            "allow = [\"weather\", \"nope_tool\", \"weather/get_*\"]\nallow_destructive = [\"pets/delete_pet\"]\n[upstreams.weather]\nbase_url = \"http://127.0.0.1:1\"\n[upstreams.wether]\nbase_url = \"http://127.0.0.1:1\"\n",
        )
        .unwrap();
        let endpoints = [
            ("weather".to_string(), "get_forecast".to_string()),
            ("pets".to_string(), "list_pets".to_string()),
        ];
        assert_eq!(
            c.unmatched(&endpoints),
            [
                "upstreams.wether: no tool `wether` in the artifact; this upstream is never used",
                "allow: `nope_tool` matches no tool or endpoint of the artifact",
                "allow_destructive: `pets/delete_pet` matches no tool or endpoint of the artifact",
            ]
        );
    }

    #[test]
    fn config_files_are_checked() {
        let c = GatewayConfig::parse(
            "allow = [\"x\"]\n[upstreams.x]\nbase_url = \"http://127.0.0.1:1\"\nauth = { kind = \"bearer\", env = \"TOKEN\" }\n",
        )
        .unwrap();
        assert_eq!(c.allow, vec!["x"]);
        assert_eq!(c.upstreams["x"].auth[0].env, "TOKEN");
        let e = GatewayConfig::parse("[upstreams.x]\nauth = { kind = \"header\", env = \"K\" }\n")
            .unwrap_err();
        assert_eq!(
            e,
            "upstreams.x.auth: a `header` credential needs `name` (the header or query parameter)"
        );
        let mut c = GatewayConfig::parse(
            "[upstreams.mp]\nauth = { env = \"MP_API_KEY\" }\n[upstreams.q]\nauth = { env = \"Q\" }\n[upstreams.o]\nauth = { env = \"O\" }\n[upstreams.none]\nauth = { env = \"N\" }\n",
        )
        .unwrap();
        let declared = |name: &str, location: Option<&str>, bearer| {
            Some(DeclaredCredential {
                name: name.into(),
                location: location.map(str::to_string),
                bearer,
                basic: false,
            })
        };
        let w = c.resolve_auth(|t, _| match t {
            "mp" => declared("x-api-key", Some("header"), false),
            "q" => declared("api_key", None, false),
            "o" => declared("Authorization", Some("header"), true),
            _ => None,
        });
        let auth = |t: &str| {
            c.upstreams[t]
                .auth
                .first()
                .map(|a| (a.kind, a.name.clone()))
        };
        assert_eq!(
            auth("mp"),
            Some((Some(AuthKind::Header), Some("x-api-key".into())))
        );
        assert_eq!(
            auth("q"),
            Some((Some(AuthKind::Query), Some("api_key".into())))
        );
        assert_eq!(
            auth("o"),
            Some((Some(AuthKind::Bearer), Some("Authorization".into())))
        );
        assert_eq!(auth("none"), None);
        assert_eq!(
            w,
            vec![
                "upstreams.none.auth has no `kind` and `none` declares no credential parameter (`auth: true`): give `kind` (header, query, bearer, basic) and `name`; $N is not sent"
            ]
        );
        assert!(
            GatewayConfig::parse("alow = []\n")
                .unwrap_err()
                .contains("alow")
        );
    }

    /// HTTP basic credentials are two variables: `user_env` makes a credential `basic`; a
    /// `basic` one needs it, another kind refuses it; a tool declaring basic credentials and
    /// configured with one variable gets nothing sent and a warning.
    #[test]
    fn basic_credentials_take_a_user_and_a_password_variable() {
        let mut c = GatewayConfig::parse(
            "[upstreams.a]\nauth = { user_env = \"A_USER\", env = \"A_PASS\" }\n[upstreams.b]\nauth = { kind = \"basic\", user_env = \"B_USER\", env = \"B_PASS\" }\n[upstreams.c]\nauth = { env = \"C_PASS\" }\n",
        )
        .unwrap();
        let w = c.resolve_auth(|_, _| {
            Some(DeclaredCredential {
                name: "Authorization".into(),
                location: Some("header".into()),
                bearer: false,
                basic: true,
            })
        });
        let a = c.upstreams["a"].auth[0].clone();
        assert_eq!(
            (a.kind, a.user_env.as_deref(), a.env.as_str()),
            (Some(AuthKind::Basic), Some("A_USER"), "A_PASS")
        );
        assert_eq!(c.upstreams["b"].auth[0].kind, Some(AuthKind::Basic));
        assert_eq!(c.upstreams["c"].auth, []);
        assert_eq!(
            w,
            vec![
                "upstreams.c.auth: `c` declares HTTP basic credentials: give `user_env` (the user name's variable) beside `env` (the password's); $C_PASS is not sent"
            ]
        );
        assert_eq!(
            GatewayConfig::parse("[upstreams.x]\nauth = { kind = \"basic\", env = \"P\" }\n")
                .unwrap_err(),
            "upstreams.x.auth: a `basic` credential needs `user_env` (the variable holding the user name; `env` holds the password)"
        );
        assert_eq!(
            GatewayConfig::parse(
                "[upstreams.x]\nauth = { kind = \"bearer\", user_env = \"U\", env = \"P\" }\n"
            )
            .unwrap_err(),
            "upstreams.x.auth: `user_env` is for `basic` credentials only"
        );
        assert!(
            GatewayConfig::parse("alow = []\n")
                .unwrap_err()
                .contains("alow")
        );
    }

    /// Several credentials at once (an API key and a client id, each a declared header): a
    /// list, each entry naming the declared parameter it fills (its kind from the
    /// declaration); an entry without `name` or `kind` in a list is refused.
    #[test]
    fn several_credentials_are_a_list_of_named_ones() {
        let mut c = GatewayConfig::parse(
            "[upstreams.setu]\nauth = [{ name = \"X-APISETU-APIKEY\", env = \"K\" }, { name = \"x-apisetu-clientid\", env = \"C\" }, { name = \"nope\", env = \"N\" }]\n",
        )
        .unwrap();
        let w = c.resolve_auth(|_, name| {
            ["X-APISETU-APIKEY", "X-APISETU-CLIENTID"]
                .into_iter()
                .find(|d| name.is_none_or(|n| n.eq_ignore_ascii_case(d)))
                .map(|d| DeclaredCredential {
                    name: d.into(),
                    location: Some("header".into()),
                    bearer: false,
                    basic: false,
                })
        });
        let got: Vec<(Option<AuthKind>, Option<&str>, &str)> = c.upstreams["setu"]
            .auth
            .iter()
            .map(|a| (a.kind, a.name.as_deref(), a.env.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (Some(AuthKind::Header), Some("X-APISETU-APIKEY"), "K"),
                (Some(AuthKind::Header), Some("X-APISETU-CLIENTID"), "C")
            ]
        );
        assert_eq!(
            w,
            [
                "upstreams.setu.auth has no `kind` and `setu` declares no credential parameter (`auth: true`) named `nope`: give `kind` (header, query, bearer, basic) and `name`; $N is not sent"
            ]
        );
        assert_eq!(
            GatewayConfig::parse(
                "[upstreams.x]\nauth = [{ env = \"A\" }, { name = \"b\", env = \"B\" }]\n"
            )
            .unwrap_err(),
            "upstreams.x.auth: each of several credentials needs `name` (the declared credential parameter it fills; $A has none)"
        );
    }
}
