//! A response schema inferred from a response example, for a response that the source
//! describes only by an example (OpenAPI 3 `example` / `examples` of a media type, Swagger 2.0
//! `examples` of a response) and gives no `schema`.
//!
//! The schema says what the example shows and nothing more: objects with the example's
//! members, arrays whose items merge every element of the example (an object member found in
//! one element only is kept, a member that is a number in one and an integer in another is a
//! number, members of different kinds give an untyped value), strings, integers, numbers and
//! booleans; `null` gives no type, only `nullable`. A string gets a `format` only where it is
//! unambiguous: `date-time` (RFC 3339 with a time zone), `date` (`YYYY-MM-DD`) and `uri`
//! (`http://` or `https://` with no spaces). The importer marks the endpoint
//! `fields_inferred: example` and says so in a finding (SR707).

use serde_json::{Map, Value, json};

/// The example value of a media type object (OpenAPI 3): its `example`, else the `value` of the
/// first of its `examples` (by name) that has one inline or through a local `$ref`
/// (`#/components/examples/...`) into `doc`.
pub fn media_example<'v>(media: &'v Value, doc: &'v Value) -> Option<&'v Value> {
    if let Some(v) = media.get("example") {
        return Some(v);
    }
    let examples = media.get("examples")?.as_object()?;
    let mut names: Vec<&String> = examples.keys().collect();
    names.sort();
    names.into_iter().find_map(|n| {
        let ex = &examples[n];
        let ex = match ex.get("$ref").and_then(Value::as_str) {
            Some(r) => doc.pointer(r.strip_prefix('#')?)?,
            None => ex,
        };
        ex.get("value")
    })
}

/// The example of a Swagger 2.0 response (`examples`, keyed by media type): the JSON one
/// (`application/json` first, then any other JSON type by name).
pub fn swagger_example(response: &Value) -> Option<&Value> {
    let examples = response.get("examples")?.as_object()?;
    let mut keys: Vec<&String> = examples
        .keys()
        .filter(|k| super::openapi::is_json(k))
        .collect();
    keys.sort_by_key(|k| (!k.to_ascii_lowercase().starts_with("application/json"), *k));
    keys.first().map(|k| &examples[*k])
}

/// The JSON Schema of `example` (see the module documentation).
pub fn infer(example: &Value) -> Value {
    match example {
        Value::Null => json!({"nullable": true}),
        Value::Bool(_) => json!({"type": "boolean"}),
        Value::Number(n) if n.is_i64() || n.is_u64() => json!({"type": "integer"}),
        Value::Number(_) => json!({"type": "number"}),
        Value::String(s) => match format_of(s) {
            Some(f) => json!({"type": "string", "format": f}),
            None => json!({"type": "string"}),
        },
        Value::Array(items) => {
            let merged = items.iter().map(infer).reduce(|a, b| merge(&a, &b));
            match merged {
                Some(items) => json!({"type": "array", "items": items}),
                None => json!({"type": "array"}),
            }
        }
        Value::Object(o) => {
            let props: Map<String, Value> = o.iter().map(|(k, v)| (k.clone(), infer(v))).collect();
            json!({"type": "object", "properties": props})
        }
    }
}

/// The format a string example shows without doubt, if any.
fn format_of(s: &str) -> Option<&'static str> {
    if is_date(s) {
        return Some("date");
    }
    if let Some((date, time)) = s.split_once(['T', 't'])
        && is_date(date)
        && is_time_with_zone(time)
    {
        return Some("date-time");
    }
    let lower = s.to_ascii_lowercase();
    let rest = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"));
    if rest.is_some_and(|r| !r.is_empty() && !s.chars().any(char::is_whitespace)) {
        return Some("uri");
    }
    None
}

/// `YYYY-MM-DD` with a month 01-12 and a day 01-31.
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && [0, 1, 2, 3, 5, 6, 8, 9]
            .iter()
            .all(|i| b[*i].is_ascii_digit())
        && (1..=12).contains(&s[5..7].parse::<u8>().unwrap_or(0))
        && (1..=31).contains(&s[8..10].parse::<u8>().unwrap_or(0))
}

/// `HH:MM:SS[.fff]` followed by `Z` or `+HH:MM` / `-HH:MM` (RFC 3339's `time`).
fn is_time_with_zone(s: &str) -> bool {
    let (time, zone) = if let Some(t) = s.strip_suffix(['Z', 'z']) {
        (t, true)
    } else {
        match s.rfind(['+', '-']) {
            Some(i) => {
                let z = &s.as_bytes()[i + 1..];
                let ok = z.len() == 5
                    && z[2] == b':'
                    && [0, 1, 3, 4].iter().all(|j| z[*j].is_ascii_digit());
                (&s[..i], ok)
            }
            None => (s, false),
        }
    };
    let (hms, frac) = time.split_once('.').unwrap_or((time, "0"));
    let b = hms.as_bytes();
    zone && b.len() == 8
        && b[2] == b':'
        && b[5] == b':'
        && [0, 1, 3, 4, 6, 7].iter().all(|i| b[*i].is_ascii_digit())
        && !frac.is_empty()
        && frac.bytes().all(|c| c.is_ascii_digit())
}

/// Two inferred schemas as one (array items, see the module documentation).
fn merge(a: &Value, b: &Value) -> Value {
    let ty = |v: &Value| v.get("type").and_then(Value::as_str).map(str::to_string);
    let nullable = |v: &Value| v.get("nullable").and_then(Value::as_bool) == Some(true);
    let mut out = match (ty(a), ty(b)) {
        (None, _) if nullable(a) => b.clone(),
        (_, None) if nullable(b) => a.clone(),
        (Some(x), Some(y)) if x == y => match x.as_str() {
            "object" => {
                let mut props = a["properties"].as_object().cloned().unwrap_or_default();
                for (k, v) in b["properties"].as_object().into_iter().flatten() {
                    let m = match props.get(k) {
                        Some(old) => merge(old, v),
                        None => v.clone(),
                    };
                    props.insert(k.clone(), m);
                }
                json!({"type": "object", "properties": props})
            }
            "array" => match (a.get("items"), b.get("items")) {
                (Some(x), Some(y)) => json!({"type": "array", "items": merge(x, y)}),
                (Some(x), None) | (None, Some(x)) => json!({"type": "array", "items": x}),
                (None, None) => json!({"type": "array"}),
            },
            "string" if a.get("format") != b.get("format") => json!({"type": "string"}),
            _ => a.clone(),
        },
        (Some(x), Some(y))
            if matches!(
                (x.as_str(), y.as_str()),
                ("integer", "number") | ("number", "integer")
            ) =>
        {
            json!({"type": "number"})
        }
        _ => json!({}),
    };
    if (nullable(a) || nullable(b))
        && let Some(o) = out.as_object_mut()
        && o.contains_key("type")
    {
        o.insert("nullable".to_string(), Value::Bool(true));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_and_unambiguous_formats() {
        for (v, schema) in [
            (json!(true), json!({"type": "boolean"})),
            (json!(3), json!({"type": "integer"})),
            (json!(-3), json!({"type": "integer"})),
            (json!(3.5), json!({"type": "number"})),
            (json!(null), json!({"nullable": true})),
            (json!("hello"), json!({"type": "string"})),
            (
                json!("2025-10-15"),
                json!({"type": "string", "format": "date"}),
            ),
            (
                json!("2025-10-15T13:51:02.784Z"),
                json!({"type": "string", "format": "date-time"}),
            ),
            (
                json!("2025-10-15T13:51:02+02:00"),
                json!({"type": "string", "format": "date-time"}),
            ),
            (json!("2025-10-15T13:51:02"), json!({"type": "string"})),
            (json!("2025-13-15"), json!({"type": "string"})),
            (
                json!("https://dev.to/x"),
                json!({"type": "string", "format": "uri"}),
            ),
            (json!("https://"), json!({"type": "string"})),
            (json!("http://a b"), json!({"type": "string"})),
            (json!("/username/new-article"), json!({"type": "string"})),
        ] {
            assert_eq!(infer(&v), schema, "{v}");
        }
    }

    #[test]
    fn arrays_merge_their_elements() {
        let v = json!([
            {"id": 1, "score": 2, "tags": ["a"], "edited_at": null, "user": {"name": "x"}},
            {"id": 2, "score": 2.5, "tags": [], "edited_at": "2025-10-15T13:51:02Z", "extra": true, "user": {"name": "y", "url": "https://x.org/y"}},
        ]);
        assert_eq!(
            infer(&v),
            json!({"type": "array", "items": {"type": "object", "properties": {
                "edited_at": {"type": "string", "format": "date-time", "nullable": true},
                "extra": {"type": "boolean"},
                "id": {"type": "integer"},
                "score": {"type": "number"},
                "tags": {"type": "array", "items": {"type": "string"}},
                "user": {"type": "object", "properties": {
                    "name": {"type": "string"},
                    "url": {"type": "string", "format": "uri"}
                }}
            }}})
        );
        assert_eq!(infer(&json!([])), json!({"type": "array"}));
        assert_eq!(
            infer(&json!([1, "a"])),
            json!({"type": "array", "items": {}})
        );
        assert_eq!(
            infer(&json!(["2025-01-01", "x"])),
            json!({"type": "array", "items": {"type": "string"}})
        );
    }

    #[test]
    fn examples_are_found_in_each_place() {
        let doc = json!({"components": {"examples": {"one": {"value": {"a": 1}}}}});
        let media = json!({"example": {"b": 2}, "examples": {"x": {"value": 1}}});
        assert_eq!(media_example(&media, &doc), Some(&json!({"b": 2})));
        let media =
            json!({"examples": {"z": {"value": 3}, "a": {"$ref": "#/components/examples/one"}}});
        assert_eq!(media_example(&media, &doc), Some(&json!({"a": 1})));
        assert_eq!(media_example(&json!({}), &doc), None);
        let resp = json!({"examples": {"text/plain": "x", "application/json": {"c": true}}});
        assert_eq!(swagger_example(&resp), Some(&json!({"c": true})));
        assert_eq!(
            swagger_example(&json!({"examples": {"text/plain": "x"}})),
            None
        );
    }
}
