//! Credentials read from the environment variables the configuration names, and the scrubbing
//! that keeps them out of every answer, error, log line and metric.

use crate::config::{Auth, GatewayConfig};
use std::collections::BTreeMap;

/// One tool's credential, read at start-up.
#[derive(Clone)]
pub struct Credential {
    /// How it is sent.
    pub auth: Auth,
    /// The secret.
    value: String,
}

impl std::fmt::Debug for Credential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Credential({:?} from ${}, redacted)",
            self.auth.kind, self.auth.env
        )
    }
}

impl Credential {
    /// The secret (only for the request that sends it).
    pub fn value(&self) -> &str {
        &self.value
    }
}

/// Every tool's credential.
#[derive(Clone, Debug, Default)]
pub struct Secrets {
    by_tool: BTreeMap<String, Credential>,
}

impl Secrets {
    /// Read the credentials `config` names from `env` (the process environment in production).
    /// A variable that is not set is reported by name (never by value) in the returned warnings.
    pub fn read(
        config: &GatewayConfig,
        env: impl Fn(&str) -> Option<String>,
    ) -> (Secrets, Vec<String>) {
        let mut by_tool = BTreeMap::new();
        let mut warnings = Vec::new();
        for (tool, u) in &config.upstreams {
            let Some(auth) = &u.auth else { continue };
            match env(&auth.env) {
                Some(v) if !v.is_empty() => {
                    by_tool.insert(
                        tool.clone(),
                        Credential {
                            auth: auth.clone(),
                            value: v,
                        },
                    );
                }
                _ => warnings.push(format!(
                    "the credential of `{tool}` is read from ${}, which is not set: calls of `{tool}` are sent without it",
                    auth.env
                )),
            }
        }
        (Secrets { by_tool }, warnings)
    }

    /// The credential of `tool`.
    pub fn get(&self, tool: &str) -> Option<&Credential> {
        self.by_tool.get(tool)
    }

    /// `text` with every secret replaced by `[redacted]` (applied to every upstream body, error
    /// and raw response before it leaves the gateway: an upstream may echo a key back).
    pub fn scrub(&self, text: &str) -> String {
        self.scrub_owned(text.to_string())
    }

    /// [`Secrets::scrub`] of an owned text: returned as it is (not copied) when it holds no
    /// credential, as upstream responses almost always do.
    pub fn scrub_owned(&self, text: String) -> String {
        let mut out = text;
        for c in self.by_tool.values() {
            if c.value.len() >= 4 && out.contains(&c.value) {
                out = out.replace(&c.value, "[redacted]");
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_read_by_name_and_scrubbed() {
        let c = crate::config::GatewayConfig::parse(
            "[upstreams.a]\nauth = { kind = \"bearer\", env = \"A_KEY\" }\n[upstreams.b]\nauth = { kind = \"query\", name = \"k\", env = \"B_KEY\" }\n",
        )
        .unwrap();
        let (s, w) = Secrets::read(&c, |n| (n == "A_KEY").then(|| "s3cr3t-value".to_string()));
        assert_eq!(
            w,
            vec![
                "the credential of `b` is read from $B_KEY, which is not set: calls of `b` are sent without it"
            ]
        );
        assert_eq!(s.scrub("echo s3cr3t-value!"), "echo [redacted]!");
        assert!(!format!("{:?}", s).contains("s3cr3t"));
    }
}
