//! Credentials read from the environment variables the configuration names, and the scrubbing
//! that keeps them out of every answer, error, log line and metric.

use crate::config::{Auth, AuthKind, GatewayConfig};
use base64::Engine as _;
use std::collections::BTreeMap;

/// One tool's credential, read at start-up.
#[derive(Clone)]
pub struct Credential {
    /// How it is sent.
    pub auth: Auth,
    /// The secret as it is sent (for `basic`: the base64 of `user:password`).
    value: String,
    /// The texts scrubbed from everything that leaves the gateway: the value, and for `basic`
    /// the password as well (the user name is an identity, not a secret: an upstream's answer
    /// may carry it as data, which scrubbing would damage; the gateway itself never writes it).
    scrubbed: Vec<String>,
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

/// Every tool's credentials.
#[derive(Clone, Debug, Default)]
pub struct Secrets {
    by_tool: BTreeMap<String, Vec<Credential>>,
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
            for auth in &u.auth {
                match credential(auth, &env) {
                Ok(c) => {
                    by_tool.entry(tool.clone()).or_insert_with(Vec::new).push(c);
                }
                Err(why) => warnings.push(format!(
                    "the credential of `{tool}` is read from {why}: calls of `{tool}` are sent without it"
                )),
            }
            }
        }
        (Secrets { by_tool }, warnings)
    }

    /// The credentials of `tool` (none when it has none, or their variables are not set).
    pub fn get(&self, tool: &str) -> &[Credential] {
        self.by_tool.get(tool).map_or(&[], Vec::as_slice)
    }

    /// `text` with every secret replaced by `[redacted]` (applied to every upstream body, error
    /// and raw response before it leaves the gateway: an upstream may echo a key back).
    pub fn scrub(&self, text: &str) -> String {
        self.scrub_owned(text.to_string())
    }

    /// [`Secrets::scrub`] of an owned text: returned as it is (not copied) when it holds no
    /// credential, as upstream responses almost always do.
    pub fn scrub_owned(&self, text: String) -> String {
        self.scrub_flagged(text).0
    }

    /// [`Secrets::scrub_owned`], and whether anything was replaced.
    pub fn scrub_flagged(&self, text: String) -> (String, bool) {
        let mut out = text;
        let mut found = false;
        for secret in self.forms() {
            if out.contains(secret) {
                out = out.replace(secret, "[redacted]");
                found = true;
            }
        }
        (out, found)
    }

    /// `bytes` (a binary body: an image, `application/octet-stream`) with every secret's bytes,
    /// in each form [`Secrets::scrub`] replaces, replaced by the bytes of `[redacted]`; `None`
    /// when they hold none. Applied before the bytes are summarised or base64-encoded for
    /// `raw`, so that no encoding the gateway writes of them carries a credential.
    pub fn scrub_bytes(&self, bytes: &[u8]) -> Option<Vec<u8>> {
        let mut out: Option<Vec<u8>> = None;
        for secret in self.forms().map(|s| s.as_bytes()) {
            let cur = out.as_deref().unwrap_or(bytes);
            if !cur.windows(secret.len()).any(|w| w == secret) {
                continue;
            }
            let mut next = Vec::with_capacity(cur.len());
            let mut i = 0;
            while i < cur.len() {
                if cur[i..].starts_with(secret) {
                    next.extend_from_slice(b"[redacted]");
                    i += secret.len();
                } else {
                    next.push(cur[i]);
                    i += 1;
                }
            }
            out = Some(next);
        }
        out
    }

    /// An MCP `tools/call` result (`text`, its JSON) whose base64 contents carry a credential in
    /// their bytes: each `image` and `audio` content's `data` and each embedded resource's
    /// `blob` is decoded and its bytes scrubbed ([`Secrets::scrub_bytes`]); one that held a
    /// credential is written back as the base64 of the scrubbed bytes, and the result
    /// re-serialised (then `true`). Base64 that does not decode is left to the text's own
    /// scrubbing. Without credentials, or without any `data` or `blob` in the text, the text is
    /// returned as it is, unparsed.
    pub fn scrub_mcp_blobs(&self, text: String) -> (String, bool) {
        if self.forms().next().is_none()
            || !(text.contains("\"data\"") || text.contains("\"blob\""))
        {
            return (text, false);
        }
        let Ok(mut v) = serde_json::from_str::<serde_json::Value>(&text) else {
            return (text, false);
        };
        let b64 = &base64::engine::general_purpose::STANDARD;
        let mut found = false;
        let contents = v.get_mut("content").and_then(|c| c.as_array_mut());
        for item in contents.into_iter().flatten() {
            let slot = match item.get("type").and_then(|t| t.as_str()) {
                Some("image" | "audio") => item.get_mut("data"),
                Some("resource") => item.get_mut("resource").and_then(|r| r.get_mut("blob")),
                _ => None,
            };
            let Some(slot) = slot else { continue };
            let scrubbed = slot
                .as_str()
                .and_then(|d| b64.decode(d).ok())
                .and_then(|bytes| self.scrub_bytes(&bytes));
            if let Some(bytes) = scrubbed {
                *slot = serde_json::Value::String(b64.encode(bytes));
                found = true;
            }
        }
        if found {
            (v.to_string(), true)
        } else {
            (text, false)
        }
    }

    /// Every text scrubbed (each credential's [`Credential::scrubbed`] forms of at least 4
    /// bytes), longest first, so that a form holding another is replaced whole.
    fn forms(&self) -> impl Iterator<Item = &String> {
        let mut all: Vec<&String> = self
            .by_tool
            .values()
            .flatten()
            .flat_map(|c| &c.scrubbed)
            .filter(|s| s.len() >= 4)
            .collect();
        all.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
        all.dedup();
        all.into_iter()
    }
}

/// `secret` and the forms the gateway or an upstream echoing it writes it in: as the query
/// string carries it (`application/x-www-form-urlencoded`, the HTTP client's encoding of a
/// query credential: space `+`, the rest percent-encoded; and RFC 3986 percent-encoding, space
/// `%20`), and inside a JSON string (`"` and `\\` escaped, `/` written `\\/` as well, as some
/// servers write it), each when it differs from the value.
fn forms_of(secret: &str) -> Vec<String> {
    let form: String = form_urlencoded::byte_serialize(secret.as_bytes()).collect();
    let quoted = serde_json::Value::from(secret).to_string();
    let json = quoted
        .strip_prefix('"')
        .and_then(|j| j.strip_suffix('"'))
        .unwrap_or(secret)
        .to_string();
    let mut all = vec![
        secret.to_string(),
        form,
        crate::upstream::style::encode(secret),
        json.replace('/', "\\/"),
        json,
    ];
    all.sort();
    all.dedup();
    all
}

/// The credential `auth` names, read through `env`; else why not (the variables by name).
/// HTTP basic credentials (RFC 7617) are `user:password` in base64 (standard alphabet, padded);
/// a user name holding `:` cannot be sent so.
fn credential(auth: &Auth, env: &impl Fn(&str) -> Option<String>) -> Result<Credential, String> {
    let read = |name: &str| env(name).filter(|v| !v.is_empty());
    let secret = read(&auth.env);
    if auth.kind != Some(AuthKind::Basic) {
        let value = secret.ok_or_else(|| format!("${}, which is not set", auth.env))?;
        return Ok(Credential {
            auth: auth.clone(),
            scrubbed: forms_of(&value),
            value,
        });
    }
    let user_env = auth.user_env.as_deref().unwrap_or_default();
    let user = read(user_env);
    let (Some(user), Some(password)) = (user, secret) else {
        let unset: Vec<String> = [user_env, auth.env.as_str()]
            .into_iter()
            .filter(|n| read(n).is_none())
            .map(|n| format!("${n}"))
            .collect();
        return Err(format!(
            "${user_env} and ${}, and {} not set",
            auth.env,
            if unset.len() == 1 {
                format!("{} is", unset[0])
            } else {
                format!("{} are", unset.join(" and "))
            }
        ));
    };
    if user.contains(':') {
        return Err(format!(
            "${user_env} and ${}, and the user name holds `:`, which HTTP basic credentials cannot carry",
            auth.env
        ));
    }
    let value = base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"));
    Ok(Credential {
        auth: auth.clone(),
        scrubbed: [forms_of(&value), forms_of(&password)].concat(),
        value,
    })
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

    /// A credential is scrubbed in the forms a query string and a JSON string write it in, and
    /// from a binary body's bytes.
    #[test]
    fn encoded_forms_and_bytes_are_scrubbed() {
        let c = crate::config::GatewayConfig::parse(
            "[upstreams.a]\nauth = { kind = \"query\", name = \"k\", env = \"A_KEY\" }\n",
        )
        .unwrap();
        let (s, _) = Secrets::read(&c, |_| Some("k/y+z \"q\"".to_string()));
        assert_eq!(
            s.scrub(r#"1 k/y+z "q" 2 k%2Fy%2Bz+%22q%22 3 k%2Fy%2Bz%20%22q%22 4 "k/y+z \"q\"" 5 k\/y+z \"q\""#),
            r#"1 [redacted] 2 [redacted] 3 [redacted] 4 "[redacted]" 5 [redacted]"#
        );
        let mut bytes = vec![0u8, 0xff];
        bytes.extend_from_slice(b"k%2Fy%2Bz+%22q%22");
        bytes.push(0xfe);
        assert_eq!(
            s.scrub_bytes(&bytes),
            Some([&[0u8, 0xff][..], b"[redacted]", &[0xfe]].concat())
        );
        assert_eq!(s.scrub_bytes(&[0, 0xff, b'k']), None);
    }

    /// An MCP result's image, audio and resource base64 is decoded and its bytes scrubbed: the
    /// exact base64 of the scrubbed bytes is written back; text without a credential, an image
    /// without one and base64 that does not decode are left as they are.
    #[test]
    fn credentials_in_mcp_base64_contents_are_scrubbed() {
        let c = crate::config::GatewayConfig::parse(
            "[upstreams.a]\nauth = { kind = \"bearer\", env = \"A_KEY\" }\n",
        )
        .unwrap();
        let (s, _) = Secrets::read(&c, |_| Some("sk-live-42".to_string()));
        // b"\x89PNG sk-live-42\x00" and b"RIFFsk-live-42"; b"\x89PNG clean".
        let text = r#"{"content":[{"type":"image","data":"iVBORyBzay1saXZlLTQyAA==","mimeType":"image/png"},{"type":"audio","data":"UklGRnNrLWxpdmUtNDI=","mimeType":"audio/wav"},{"type":"image","data":"iVBORyBjbGVhbg==","mimeType":"image/png"},{"type":"resource","resource":{"uri":"file:///k","blob":"c2stbGl2ZS00Mg=="}},{"type":"image","data":"not base64!"}]}"#;
        let (out, found) = s.scrub_mcp_blobs(text.to_string());
        assert!(found);
        assert_eq!(
            out,
            r#"{"content":[{"data":"iVBORyBbcmVkYWN0ZWRdAA==","mimeType":"image/png","type":"image"},{"data":"UklGRltyZWRhY3RlZF0=","mimeType":"audio/wav","type":"audio"},{"data":"iVBORyBjbGVhbg==","mimeType":"image/png","type":"image"},{"resource":{"blob":"W3JlZGFjdGVkXQ==","uri":"file:///k"},"type":"resource"},{"data":"not base64!","type":"image"}]}"#
        );
        let b64 = &base64::engine::general_purpose::STANDARD;
        assert_eq!(
            b64.decode("iVBORyBbcmVkYWN0ZWRdAA==").unwrap(),
            b"\x89PNG [redacted]\x00"
        );
        let clean = r#"{"content":[{"type":"image","data":"iVBORyBjbGVhbg=="}]}"#;
        assert_eq!(
            s.scrub_mcp_blobs(clean.to_string()),
            (clean.to_string(), false)
        );
        assert_eq!(
            Secrets::default().scrub_mcp_blobs(text.to_string()),
            (text.to_string(), false)
        );
    }

    /// HTTP basic credentials: two variables, `user:password` encoded in standard base64; the
    /// password and the encoded value are scrubbed (the user name is not a secret); an unset variable (either)
    /// and a user name with `:` are warnings naming the variables, never their values.
    #[test]
    fn basic_credentials_are_encoded_and_scrubbed() {
        let c = crate::config::GatewayConfig::parse(
            "[upstreams.a]\nauth = { user_env = \"A_USER\", env = \"A_PASS\" }\n[upstreams.b]\nauth = { user_env = \"B_USER\", env = \"B_PASS\" }\n[upstreams.c]\nauth = { user_env = \"C_USER\", env = \"C_PASS\" }\n",
        )
        .unwrap();
        let env = |n: &str| match n {
            "A_USER" => Some("Aladdin".to_string()),
            "A_PASS" => Some("open sesame".to_string()),
            "B_PASS" => Some("pw-b-123".to_string()),
            "C_USER" => Some("x:y".to_string()),
            "C_PASS" => Some("pw-c-123".to_string()),
            _ => None,
        };
        let (s, w) = Secrets::read(&c, env);
        // RFC 7617 section 2's example.
        assert_eq!(s.get("a")[0].value(), "QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
        assert!(s.get("b").is_empty() && s.get("c").is_empty());
        assert_eq!(
            w,
            vec![
                "the credential of `b` is read from $B_USER and $B_PASS, and $B_USER is not set: calls of `b` are sent without it",
                "the credential of `c` is read from $C_USER and $C_PASS, and the user name holds `:`, which HTTP basic credentials cannot carry: calls of `c` are sent without it",
            ]
        );
        assert_eq!(
            s.scrub("Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ== for Aladdin (open sesame)"),
            "Basic [redacted] for Aladdin ([redacted])"
        );
        assert!(!format!("{:?}", s).contains("sesame"));
    }
}
