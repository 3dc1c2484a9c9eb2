//! The line screen in front of the MCP SDK's stdio transport. `rmcp` drops a line it cannot
//! decode without an answer, so a client that sends a broken line (a truncated object, text,
//! a batch) waits for a reply that never comes. Each line from stdin is screened first: a line
//! that is not a JSON-RPC 2.0 message gets the JSON-RPC error the specification names (-32700
//! parse error, -32600 invalid request; -32602 invalid params for the request shapes of
//! `tools/call`, `resources/read` and `prompts/get`), with the request's `id` whenever it is
//! readable. Until the session begins, [`Session`] also drops the notifications the SDK would end
//! the connection on. Every other line goes to the SDK unchanged.

use serde_json::{Value, json};

/// What to do with one line read from stdin.
#[derive(Debug, PartialEq)]
pub enum Screened {
    /// A JSON-RPC message: pass it to the SDK.
    Forward,
    /// Blank: nothing to do.
    Ignore,
    /// Not a valid message: write this JSON-RPC error response (one line) to stdout.
    Answer(Value),
}

fn error(id: Value, code: i64, message: String) -> Screened {
    Screened::Answer(
        json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}),
    )
}

/// The shape `method`'s `params` must have, checked before the SDK decodes them (it answers a
/// wrong shape with "method not found"): `Err` says what is wrong.
fn params_fault(method: &str, params: Option<&Value>) -> Option<String> {
    let required_string = |key: &str| -> Option<String> {
        match params.and_then(|p| p.get(key)) {
            Some(Value::String(_)) => None,
            Some(other) => Some(format!(
                "`params.{key}` of `{method}` must be a string, not {}",
                kind(other)
            )),
            None => Some(format!("`{method}` needs `params.{key}` (a string)")),
        }
    };
    let optional_object = |key: &str| -> Option<String> {
        match params.and_then(|p| p.get(key)) {
            None | Some(Value::Object(_)) | Some(Value::Null) => None,
            Some(other) => Some(format!(
                "`params.{key}` of `{method}` must be an object, not {}",
                kind(other)
            )),
        }
    };
    match method {
        "tools/call" | "prompts/get" => {
            required_string("name").or_else(|| optional_object("arguments"))
        }
        "resources/read" => required_string("uri"),
        _ => None,
    }
}

/// The numeric ids the SDK reads (`rmcp`'s `NumberOrString`), in words.
const NUMERIC_ID: &str = "a numeric `id` must be a whole number from -9223372036854775808 to 9223372036854775807 (written with a fraction or exponent, such as `1.0` or `1e5`, only below 2^53 in magnitude)";

/// Whether the SDK reads `n` as a request id: an i64, or a number in float form that is an
/// integer below 2^53 in magnitude (exactly represented, so it names one integer).
fn accepted_number_id(n: &serde_json::Number) -> bool {
    const MAX_EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    n.is_i64()
        || (!n.is_u64()
            && n.as_f64()
                .is_some_and(|f| f.fract() == 0.0 && f.abs() < MAX_EXACT))
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// The answer to a message that repeats a key, if it does: a repeated member of the message
/// itself (`id`, `method`) is an invalid request (with `id` null when `id` is the one
/// repeated), a repeated key inside `params` (two `question`s) invalid params. Also used for
/// the bodies of MCP over HTTP.
pub fn repeated_key(message: &[u8], id: &Value) -> Option<Screened> {
    let e = schemarouter_core::json::check_no_repeated_keys(message).err()?;
    let top = top_level_repeat(message);
    let text = e.to_string();
    let text = text.split(" at line ").next().unwrap_or(&text).to_string();
    Some(match top.as_deref() {
        Some("id") => error(Value::Null, -32600, format!("Invalid Request: {text}")),
        Some(_) => error(id.clone(), -32600, format!("Invalid Request: {text}")),
        None => error(
            id.clone(),
            -32602,
            format!("Invalid params: {text}; each key once"),
        ),
    })
}

/// The first key the top-level object of `message` repeats, if any.
fn top_level_repeat(message: &[u8]) -> Option<String> {
    struct Top;
    impl<'de> serde::de::Visitor<'de> for Top {
        type Value = Option<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Option<String>, A::Error> {
            // Read to the end (serde_json checks that the object is closed).
            let mut seen = std::collections::HashSet::new();
            let mut first = None;
            while let Some(k) = map.next_key::<String>()? {
                map.next_value::<serde::de::IgnoredAny>()?;
                if !seen.insert(k.clone()) && first.is_none() {
                    first = Some(k);
                }
            }
            Ok(first)
        }
    }
    use serde::Deserializer;
    serde_json::Deserializer::from_slice(message)
        .deserialize_map(Top)
        .ok()
        .flatten()
}

/// The -32602 answer to a message whose `params` have the wrong shape: `params` that is not
/// an object, or (requests only: a notification gets no answer, whatever it holds) the
/// `params` of `tools/call`, `resources/read` or `prompts/get` without the members the SDK
/// needs to decode them (it would answer "method not found"). `id` is the id to answer with.
/// Both transports use it (each stdin line here, each POST body of MCP over HTTP in
/// [`crate::mcp`]).
pub fn invalid_params(m: &serde_json::Map<String, Value>, id: &Value) -> Option<Screened> {
    let Some(Value::String(method)) = m.get("method") else {
        return None;
    };
    match m.get("params") {
        None | Some(Value::Object(_)) => {}
        Some(other) => {
            return Some(error(
                id.clone(),
                -32602,
                format!(
                    "Invalid params: `params` of `{method}` must be an object, not {}",
                    kind(other)
                ),
            ));
        }
    }
    if m.contains_key("id")
        && let Some(fault) = params_fault(method, m.get("params"))
    {
        return Some(error(
            id.clone(),
            -32602,
            format!("Invalid params: {fault}"),
        ));
    }
    None
}

/// Screen one line (with or without its line break).
pub fn screen(line: &[u8]) -> Screened {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Screened::Ignore;
    }
    let v: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => {
            let e = e.to_string();
            let e = e.split(" at line ").next().unwrap_or(&e);
            return error(
                Value::Null,
                -32700,
                format!("Parse error: {e}; send one JSON-RPC message per line"),
            );
        }
    };
    let Value::Object(m) = &v else {
        let what = if v.is_array() {
            "a batch (a JSON list): MCP sends one JSON-RPC message at a time (a line on stdio, a body over HTTP), batches are not part of it"
        } else {
            "not a JSON object"
        };
        return error(Value::Null, -32600, format!("Invalid Request: {what}"));
    };
    // The id is echoed when it is one JSON-RPC allows (a string, a number or null).
    let id = match m.get("id") {
        Some(id @ (Value::String(_) | Value::Number(_) | Value::Null)) => id.clone(),
        _ => Value::Null,
    };
    if let Some(id @ (Value::Bool(_) | Value::Array(_) | Value::Object(_))) = m.get("id") {
        return error(
            Value::Null,
            -32600,
            format!(
                "Invalid Request: `id` must be a string or a number, not {}",
                kind(id)
            ),
        );
    }
    // The SDK reads a numeric id as an i64 and answers any other number with an error that
    // has no `id` member at all; JSON-RPC 2.0 wants `id` in every response (null when it
    // cannot be read), and the client a reason.
    if let Some(Value::Number(n)) = m.get("id")
        && !accepted_number_id(n)
    {
        return error(
            Value::Null,
            -32600,
            format!("Invalid Request: {NUMERIC_ID}; use such a number or a string as `id`"),
        );
    }
    // serde_json keeps the last of repeated keys; which one was meant is not known.
    if let Some(answer) = repeated_key(line, &id) {
        return answer;
    }
    if m.get("jsonrpc") != Some(&json!("2.0")) {
        return error(
            id,
            -32600,
            "Invalid Request: `jsonrpc` must be \"2.0\"".to_string(),
        );
    }
    if m.get("id") == Some(&Value::Null) && m.contains_key("method") {
        return error(
            Value::Null,
            -32600,
            "Invalid Request: a request's `id` is a string or a number, not null (a notification has no `id`)".to_string(),
        );
    }
    match m.get("method") {
        Some(Value::String(_)) => invalid_params(m, &id).unwrap_or(Screened::Forward),
        Some(other) => error(id, -32600, format!("Invalid Request: `method` must be a string, not {}", kind(other))),
        // A response to a request of the server.
        None if m.contains_key("id") && (m.contains_key("result") || m.contains_key("error")) => Screened::Forward,
        None => error(id, -32600, "Invalid Request: a message has a `method` (a request or notification) or a `result` / `error` (a response)".to_string()),
    }
}

/// The screen with the one piece of session state it needs: whether the SDK has begun a
/// session, by a legacy `initialize` request or by the first request that carries the
/// protocol metadata in `params._meta` (the stateless protocol of MCP 2026-07-28). Before
/// that, the SDK ends the whole connection on a notification (even one that is well formed,
/// such as an early `notifications/initialized` or a `notifications/cancelled`), and with it
/// every unanswered request. JSON-RPC answers no notification, so until the session begins
/// they are dropped; requests always pass (the SDK answers one without `_meta` by naming the
/// fields it needs). `server/discover` and `ping` are answered before a session without
/// beginning one, and so is a request whose `_meta` names a version the server does not speak
/// or lacks the client's capabilities: none of them begins the session here either.
#[derive(Debug)]
pub struct Session {
    begun: bool,
    /// The protocol versions the server speaks (the SDK refuses a request naming another).
    versions: Vec<String>,
}

impl Default for Session {
    /// A session of a server that speaks every version the SDK knows (its default).
    fn default() -> Self {
        Self::new(
            rmcp::model::ProtocolVersion::KNOWN_VERSIONS
                .iter()
                .map(|v| v.as_str().to_string())
                .collect(),
        )
    }
}

impl Session {
    /// A session of a server that speaks `versions` (the server's
    /// `supported_protocol_versions`).
    pub fn new(versions: Vec<String>) -> Self {
        Self {
            begun: false,
            versions,
        }
    }

    /// Whether the SDK begins a session with this request: `initialize`, or a request other
    /// than `server/discover` and `ping` whose `_meta` names a version the server speaks and
    /// the client's capabilities (what the SDK checks before it serves one).
    fn begins(&self, m: &serde_json::Map<String, Value>) -> bool {
        let method = m.get("method").and_then(Value::as_str).unwrap_or("");
        if method == "initialize" {
            return true;
        }
        if matches!(method, "server/discover" | "ping") {
            return false;
        }
        let meta = m.get("params").and_then(|p| p.get("_meta"));
        let version = meta
            .and_then(|meta| meta.get("io.modelcontextprotocol/protocolVersion"))
            .and_then(Value::as_str);
        let capabilities = meta
            .and_then(|meta| meta.get("io.modelcontextprotocol/clientCapabilities"))
            .cloned()
            .and_then(|c| serde_json::from_value::<rmcp::model::ClientCapabilities>(c).ok());
        version.is_some_and(|v| self.versions.iter().any(|s| s == v)) && capabilities.is_some()
    }

    /// Screen one line in this session (see [`screen`] for a line on its own).
    pub fn screen(&mut self, line: &[u8]) -> Screened {
        let screened = screen(line);
        if self.begun || screened != Screened::Forward {
            return screened;
        }
        let Ok(Value::Object(m)) = serde_json::from_slice::<Value>(line) else {
            return screened;
        };
        match (m.contains_key("method"), m.contains_key("id")) {
            (true, true) => {
                self.begun = self.begins(&m);
                Screened::Forward
            }
            (true, false) => Screened::Ignore,
            // A response: the server has sent no request yet, so there is nothing it answers.
            (false, _) => Screened::Ignore,
        }
    }
}

/// Finds the `id` of a message too long to keep, from its bytes as they stream past (in any
/// number of pieces, memory bounded): the value of the top-level object's `id` member,
/// wherever it stands in the line. A line that is not an object, an `id` written twice or one
/// JSON-RPC does not allow gives null, as does an `id` longer than [`IdScan::MAX_ID`] bytes.
#[derive(Debug, Default)]
pub struct IdScan {
    /// Nesting depth (objects and lists); 0 before the top-level object opens.
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// The line is no object (or the scan gave up): no id.
    failed: bool,
    /// At depth 1: the next string is a member name (after `{` or `,`).
    expect_key: bool,
    /// The member name being read at depth 1 (its first bytes; `None` when longer).
    key: Option<Vec<u8>>,
    /// The last member name read at depth 1 was `id`.
    key_is_id: bool,
    /// The bytes of the `id` value being read, while it is read.
    value: Option<Vec<u8>>,
    /// The `id` values read.
    ids: Vec<Vec<u8>>,
}

impl IdScan {
    /// The longest `id` value (in bytes, as written) that is kept.
    pub const MAX_ID: usize = 1024;

    /// Read the next bytes of the line.
    pub fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if self.failed {
                return;
            }
            self.step(b);
        }
    }

    fn step(&mut self, b: u8) {
        if let Some(v) = self.value.as_mut() {
            let ends = !self.in_string && self.depth == 1 && (b == b',' || b == b'}');
            if !ends {
                v.push(b);
                if v.len() > Self::MAX_ID {
                    self.failed = true;
                    return;
                }
            } else if let Some(v) = self.value.take() {
                self.ids.push(v);
            }
        }
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_string = false;
                if let Some(k) = self.key.take() {
                    self.key_is_id = k == b"id";
                }
                return;
            }
            // Three bytes tell `id` from every longer name.
            if let Some(k) = self.key.as_mut().filter(|k| k.len() < 3) {
                k.push(b);
            }
            return;
        }
        match b {
            b'"' => {
                self.in_string = true;
                if self.depth == 1 && self.expect_key {
                    self.key = Some(Vec::new());
                    self.expect_key = false;
                }
            }
            b'{' | b'[' => {
                if self.depth == 0 && b == b'[' {
                    self.failed = true;
                }
                self.depth += 1;
                if self.depth == 1 {
                    self.expect_key = true;
                }
            }
            b'}' | b']' => self.depth = self.depth.saturating_sub(1),
            b',' if self.depth == 1 => self.expect_key = true,
            b':' if self.depth == 1 && self.key_is_id => {
                self.key_is_id = false;
                self.value = Some(Vec::new());
            }
            b if self.depth == 0 && !b.is_ascii_whitespace() => self.failed = true,
            _ => {}
        }
    }

    /// The id to answer with: the one `id` read, when JSON-RPC allows it (a string or a
    /// number the SDK reads), else null.
    pub fn id(&self) -> Value {
        let [only] = self.ids.as_slice() else {
            return Value::Null;
        };
        match serde_json::from_slice::<Value>(only) {
            Ok(Value::String(s)) => Value::String(s),
            Ok(Value::Number(n)) if accepted_number_id(&n) => Value::Number(n),
            _ => Value::Null,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(line: &str) -> String {
        match screen(line.as_bytes()) {
            Screened::Answer(v) => v.to_string(),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn before_the_session_begins_notifications_are_dropped_and_requests_pass() {
        let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
        let versioned =
            format!(r#"{{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{{{meta}}}}}"#);
        for begin in [
            r#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{}}"#.to_string(),
            versioned,
        ] {
            let mut s = Session::default();
            let early = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
            let cancel =
                br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}"#;
            assert_eq!(s.screen(early), Screened::Ignore);
            assert_eq!(
                s.screen(br#"{"jsonrpc":"2.0","id":7,"result":{}}"#),
                Screened::Ignore
            );
            // Requests the SDK answers before a session pass and begin nothing: one without
            // the metadata, `server/discover` and `ping` (with the metadata), one naming a
            // version the server does not speak, one without the client's capabilities.
            let bare = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
            let discover = format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{{{meta}}}}}"#
            );
            let ping = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{{meta}}}}}"#);
            let unknown_version = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
            let no_capabilities = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
            for request in [
                &bare[..],
                discover.as_bytes(),
                ping.as_bytes(),
                unknown_version.as_bytes(),
                no_capabilities.as_bytes(),
            ] {
                assert_eq!(s.screen(request), Screened::Forward);
                assert_eq!(s.screen(early), Screened::Ignore);
                assert_eq!(s.screen(cancel), Screened::Ignore);
            }
            // A broken line gets its own answer before and after.
            assert!(matches!(s.screen(b"[]"), Screened::Answer(_)));
            assert_eq!(s.screen(begin.as_bytes()), Screened::Forward);
            assert_eq!(s.screen(early), Screened::Forward);
            assert_eq!(s.screen(cancel), Screened::Forward);
            assert_eq!(s.screen(bare), Screened::Forward);
            assert!(matches!(s.screen(b"[]"), Screened::Answer(_)));
        }
        // A server that speaks only older versions: the 2026-07-28 request begins nothing.
        let mut s = Session::new(vec!["2025-06-18".to_string()]);
        let request =
            format!(r#"{{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{{{meta}}}}}"#);
        assert_eq!(s.screen(request.as_bytes()), Screened::Forward);
        assert_eq!(
            s.screen(br#"{"jsonrpc":"2.0","method":"notifications/cancelled"}"#),
            Screened::Ignore
        );
    }

    #[test]
    fn messages_pass_and_broken_lines_are_answered() {
        for ok in [
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"0"}}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"route","arguments":{"question":"q"}}}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":{}}"#,
        ] {
            assert_eq!(screen(ok.as_bytes()), Screened::Forward, "{ok}");
        }
        assert_eq!(screen(b"  \r\n"), Screened::Ignore);
        let cases = [
            (
                "hello, not json",
                r#"{"error":{"code":-32700,"message":"Parse error: expected value; send one JSON-RPC message per line"},"id":null,"jsonrpc":"2.0"}"#,
            ),
            (
                r#"{"jsonrpc":"2.0","id":13,"method":"ping""#,
                r#"{"error":{"code":-32700,"message":"Parse error: EOF while parsing an object; send one JSON-RPC message per line"},"id":null,"jsonrpc":"2.0"}"#,
            ),
            (
                "[]",
                r#"{"error":{"code":-32600,"message":"Invalid Request: a batch (a JSON list): MCP sends one JSON-RPC message at a time (a line on stdio, a body over HTTP), batches are not part of it"},"id":null,"jsonrpc":"2.0"}"#,
            ),
            (
                "42",
                r#"{"error":{"code":-32600,"message":"Invalid Request: not a JSON object"},"id":null,"jsonrpc":"2.0"}"#,
            ),
            (
                r#"{"jsonrpc":"2.0","id":2,"id":3,"method":"ping"}"#,
                r#"{"error":{"code":-32600,"message":"Invalid Request: duplicate key `id`"},"id":null,"jsonrpc":"2.0"}"#,
            ),
            (
                r#"{"jsonrpc":"2.0","id":4,"method":"ping","method":"tools/list"}"#,
                r#"{"error":{"code":-32600,"message":"Invalid Request: duplicate key `method`"},"id":4,"jsonrpc":"2.0"}"#,
            ),
            (
                r#"{"jsonrpc":"2.0","id":"q","method":"tools/call","params":{"name":"route","arguments":{"question":"band gap of GaAs","question":"x"}}}"#,
                r#"{"error":{"code":-32602,"message":"Invalid params: duplicate key `question`; each key once"},"id":"q","jsonrpc":"2.0"}"#,
            ),
            (
                r#"{"id":5,"method":"tools/list"}"#,
                r#"{"error":{"code":-32600,"message":"Invalid Request: `jsonrpc` must be \"2.0\""},"id":5,"jsonrpc":"2.0"}"#,
            ),
            (
                r#"{"jsonrpc":"2.0","id":6}"#,
                r#"{"error":{"code":-32600,"message":"Invalid Request: a message has a `method` (a request or notification) or a `result` / `error` (a response)"},"id":6,"jsonrpc":"2.0"}"#,
            ),
            (
                r#"{"jsonrpc":"2.0","id":{"obj":1},"method":"tools/list"}"#,
                r#"{"error":{"code":-32600,"message":"Invalid Request: `id` must be a string or a number, not an object"},"id":null,"jsonrpc":"2.0"}"#,
            ),
            (
                r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":"string"}"#,
                r#"{"error":{"code":-32602,"message":"Invalid params: `params` of `tools/call` must be an object, not a string"},"id":8,"jsonrpc":"2.0"}"#,
            ),
            (
                r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"route","arguments":[1,2]}}"#,
                r#"{"error":{"code":-32602,"message":"Invalid params: `params.arguments` of `tools/call` must be an object, not a list"},"id":9,"jsonrpc":"2.0"}"#,
            ),
            (
                r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}}"#,
                r#"{"error":{"code":-32602,"message":"Invalid params: `tools/call` needs `params.name` (a string)"},"id":7,"jsonrpc":"2.0"}"#,
            ),
            (
                r#"{"jsonrpc":"2.0","id":12,"method":"resources/read","params":{"uri":123}}"#,
                r#"{"error":{"code":-32602,"message":"Invalid params: `params.uri` of `resources/read` must be a string, not a number"},"id":12,"jsonrpc":"2.0"}"#,
            ),
        ];
        for (line, want) in cases {
            assert_eq!(answer(line), want, "{line}");
        }
    }

    /// A numeric id the SDK cannot read as an i64 gets -32600 with `"id": null` and says which
    /// ids are accepted (the SDK answered without any `id` member); the numbers it reads pass.
    #[test]
    fn numeric_ids_beyond_i64_are_answered_with_a_null_id() {
        let want = r#"{"error":{"code":-32600,"message":"Invalid Request: a numeric `id` must be a whole number from -9223372036854775808 to 9223372036854775807 (written with a fraction or exponent, such as `1.0` or `1e5`, only below 2^53 in magnitude); use such a number or a string as `id`"},"id":null,"jsonrpc":"2.0"}"#;
        for id in [
            "1.5",
            "12345678901234567890",
            "-9223372036854775809",
            "9223372036854775808",
            "1e300",
            "9007199254740992.0",
        ] {
            let line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
            assert_eq!(answer(&line), want, "{line}");
        }
        for id in [
            "1",
            "-1",
            "1.0",
            "1e5",
            "9223372036854775807",
            "-9223372036854775808",
            "-9007199254740991.0",
        ] {
            let line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
            assert_eq!(screen(line.as_bytes()), Screened::Forward, "{line}");
        }
    }

    /// The id of an over-long line is read as it streams past, in pieces of any size.
    #[test]
    fn the_id_of_a_long_line_is_found_wherever_it_stands() {
        let big = "x".repeat(5000);
        let cases = [
            (
                format!(
                    r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"a":"{big}"}}}}"#
                ),
                json!(2),
            ),
            (
                format!(
                    r#"{{"method":"tools/call","params":{{"id":9,"a":"{big}","b":[{{"id":8}}]}},"jsonrpc":"2.0","id":"req-\"7\""}}"#
                ),
                json!("req-\"7\""),
            ),
            (
                format!(r#" {{ "id" : -12 , "params":{{"a":"{big}"}}}}"#),
                json!(-12),
            ),
            (
                format!(r#"{{"params":{{"a":"{big}"}},"jsonrpc":"2.0","id":3}}"#),
                json!(3),
            ),
            (
                format!(r#"{{"idx":1,"params":{{"a":"{big}"}}}}"#),
                Value::Null,
            ),
            (
                format!(r#"{{"id":1,"id":2,"params":{{"a":"{big}"}}}}"#),
                Value::Null,
            ),
            (
                format!(r#"{{"id":{{"x":1}},"params":{{"a":"{big}"}}}}"#),
                Value::Null,
            ),
            (
                format!(r#"{{"id":1.5,"params":{{"a":"{big}"}}}}"#),
                Value::Null,
            ),
            (
                format!(r#"[{{"id":1,"params":{{"a":"{big}"}}}}]"#),
                Value::Null,
            ),
            (format!(r#"{{"id":"{big}"}}"#), Value::Null),
            (format!(r#"{{"a":"\\","id":5,"b":"{big}"}}"#), json!(5)),
        ];
        for (line, want) in cases {
            for piece in [1, 7, 4096, line.len()] {
                let mut scan = IdScan::default();
                for chunk in line.as_bytes().chunks(piece) {
                    scan.feed(chunk);
                }
                assert_eq!(
                    scan.id(),
                    want,
                    "{} (pieces of {piece})",
                    &line[..60.min(line.len())]
                );
            }
        }
    }
}
