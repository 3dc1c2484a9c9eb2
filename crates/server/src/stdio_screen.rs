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

/// The screen with the one piece of session state it needs: whether the client has begun a
/// session, by a legacy `initialize` request or by a request that carries the protocol version
/// in `params._meta` (the stateless protocol of MCP 2026-07-28, which starts with
/// `server/discover`). Before that, the SDK ends the whole connection on a notification (even
/// one that is well formed, such as an early `notifications/initialized`), and with it every
/// unanswered request. JSON-RPC answers no notification, so until the session begins they are
/// dropped; requests always pass (the SDK answers one without `_meta` by naming the fields it
/// needs).
#[derive(Debug, Default)]
pub struct Session {
    begun: bool,
}

impl Session {
    /// Screen one line in this session (see [`screen`] for a line on its own).
    pub fn screen(&mut self, line: &[u8]) -> Screened {
        let screened = screen(line);
        if self.begun || screened != Screened::Forward {
            return screened;
        }
        let Ok(Value::Object(m)) = serde_json::from_slice::<Value>(line) else {
            return screened;
        };
        let versioned = m
            .get("params")
            .and_then(|p| p.get("_meta"))
            .and_then(|meta| meta.get("io.modelcontextprotocol/protocolVersion"))
            .is_some();
        match (m.get("method"), m.contains_key("id")) {
            (Some(method), true) => {
                self.begun = versioned || method == "initialize";
                Screened::Forward
            }
            (Some(_), false) => Screened::Ignore,
            // A response: the server has sent no request yet, so there is nothing it answers.
            (None, _) => Screened::Ignore,
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
        for begin in [
            &br#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{}}"#[..],
            br#"{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#,
        ] {
            let mut s = Session::default();
            let early = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
            assert_eq!(s.screen(early), Screened::Ignore);
            assert_eq!(
                s.screen(br#"{"jsonrpc":"2.0","id":7,"result":{}}"#),
                Screened::Ignore
            );
            // A request without the version passes (the SDK answers it) and begins nothing.
            let bare = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
            assert_eq!(s.screen(bare), Screened::Forward);
            assert_eq!(s.screen(early), Screened::Ignore);
            // A broken line gets its own answer before and after.
            assert!(matches!(s.screen(b"[]"), Screened::Answer(_)));
            assert_eq!(s.screen(begin), Screened::Forward);
            assert_eq!(s.screen(early), Screened::Forward);
            assert_eq!(s.screen(bare), Screened::Forward);
            assert!(matches!(s.screen(b"[]"), Screened::Answer(_)));
        }
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
}
