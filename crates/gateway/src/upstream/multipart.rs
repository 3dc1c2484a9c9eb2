//! `multipart/form-data` request bodies (RFC 7578), one part per body parameter with the
//! OpenAPI default content types: a string, number or boolean as a `text/plain` part (RFC 7578's
//! default, so no `Content-Type` line), an object as an `application/json` part, and a list as
//! one part per item under the same name (each item by the same rule). The boundary is the
//! first of `schemarouter-boundary-0`, `-1`, ... that no part holds, so the same arguments give
//! the same bytes.

use serde_json::Value;

/// The boundary and the encoded body of `parts` (name, value), in order.
pub fn encode(parts: &[(&str, &Value)]) -> (String, Vec<u8>) {
    let mut fields: Vec<(String, Option<&str>, String)> = Vec::new();
    for (name, v) in parts {
        let items: Vec<&Value> = match v {
            Value::Array(a) => a.iter().collect(),
            other => vec![other],
        };
        for item in items {
            let (content_type, data) = match item {
                Value::Object(_) | Value::Array(_) => (Some("application/json"), item.to_string()),
                other => (None, super::style::text(other)),
            };
            fields.push((disposition_name(name), content_type, data));
        }
    }
    let boundary = (0u64..)
        .map(|n| format!("schemarouter-boundary-{n}"))
        .find(|b| {
            !fields
                .iter()
                .any(|(n, _, d)| d.contains(b) || n.contains(b))
        })
        .unwrap_or_default();
    let mut out = Vec::new();
    for (name, content_type, data) in &fields {
        out.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n")
                .as_bytes(),
        );
        if let Some(t) = content_type {
            out.extend_from_slice(format!("Content-Type: {t}\r\n").as_bytes());
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(data.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (boundary, out)
}

/// A field name for the quoted `name` parameter: `"`, CR and LF percent-encoded (as HTML's
/// form submission does, which RFC 7578 section 4.2 refers to).
fn disposition_name(name: &str) -> String {
    name.replace('"', "%22")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn parts_follow_the_default_content_types() {
        let (title, tags, meta) = (json!("GaN \"x\""), json!(["a", 2]), json!({"k": 1}));
        let (b, bytes) = super::encode(&[("title", &title), ("tags", &tags), ("me\"ta", &meta)]);
        assert_eq!(b, "schemarouter-boundary-0");
        assert_eq!(
            String::from_utf8(bytes).unwrap(),
            "--schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nGaN \"x\"\r\n\
             --schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"tags\"\r\n\r\na\r\n\
             --schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"tags\"\r\n\r\n2\r\n\
             --schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"me%22ta\"\r\nContent-Type: application/json\r\n\r\n{\"k\":1}\r\n\
             --schemarouter-boundary-0--\r\n"
        );
    }

    #[test]
    fn the_boundary_is_not_in_any_part() {
        let v = json!("text with --schemarouter-boundary-0 inside");
        let (b, _) = super::encode(&[("x", &v)]);
        assert_eq!(b, "schemarouter-boundary-1");
    }
}
