//! Binary answers (an image, a PDF, `application/octet-stream`; an MCP image, audio or blob
//! content): never read as text. The agent gets a typed summary instead — the media type, the
//! length in bytes and the SHA-256 of the bytes — and the bytes themselves only when it asks for
//! the raw response (`raw: true`), base64-encoded and cut at `raw_cap_bytes`.

use base64::Engine as _;
use serde_json::{Value, json};
use sha2::Digest as _;

/// The media type of a body whose bytes carry no text: a binary family (`image/*` but SVG,
/// `audio/*`, `video/*`, `font/*`, `model/*`) or a known binary container
/// (`application/octet-stream`, `application/pdf`, archives, WebAssembly, Office documents).
/// Text types (`text/*`, JSON, XML, YAML and their `+json`/`+xml` suffixes, forms) are never
/// binary; an answer of any other type is binary when its bytes are not UTF-8.
pub fn binary_media(content_type: &str) -> bool {
    if schemarouter_core::model::tool::text_media(content_type) {
        return false;
    }
    let m = schemarouter_core::model::tool::media_essence(content_type);
    let top = m.split('/').next().unwrap_or("");
    matches!(top, "image" | "audio" | "video" | "font" | "model")
        || [
            "application/octet-stream",
            "application/pdf",
            "application/zip",
            "application/gzip",
            "application/x-gzip",
            "application/x-tar",
            "application/x-bzip2",
            "application/x-7z-compressed",
            "application/x-rar-compressed",
            "application/wasm",
            "application/msword",
            "application/x-protobuf",
            "application/vnd.ms-excel",
        ]
        .contains(&m.as_str())
        || m.starts_with("application/vnd.openxmlformats-officedocument.")
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let d = sha2::Sha256::digest(bytes);
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// The summary of a binary body: `{"content_type", "bytes", "sha256"}`.
pub fn summary(content_type: &str, bytes: &[u8]) -> Value {
    json!({
        "content_type": content_type,
        "bytes": bytes.len(),
        "sha256": sha256_hex(bytes),
    })
}

/// `bytes` as standard base64, cut to at most `cap` characters on a 4-character boundary (so
/// the text decodes to a prefix of the bytes); with whether it was cut.
pub fn base64_capped(bytes: &[u8], cap: usize) -> (String, bool) {
    let keep = (cap / 4 * 3).min(bytes.len());
    let text = base64::engine::general_purpose::STANDARD.encode(&bytes[..keep]);
    (text, keep < bytes.len())
}

/// The base64 text of `bytes` whole (what an agent would receive were the bytes passed on:
/// what the raw side of the token accounting counts).
pub fn base64_all(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// An MCP content item (`image`, `audio`, or a `resource` holding a `blob`) as its summary
/// (`type`, `content_type`, `bytes`, `sha256`, a resource's `uri`), its base64 data decoded;
/// `None` for a text item or any other. Data that is not base64 is summarised as its text.
pub fn mcp_content(c: &Value) -> Option<Value> {
    let kind = c.get("type").and_then(Value::as_str)?;
    let (data, mime, uri) = match kind {
        "image" | "audio" => (
            c.get("data").and_then(Value::as_str)?,
            c.get("mimeType").and_then(Value::as_str),
            None,
        ),
        "resource" => {
            let r = c.get("resource")?;
            (
                r.get("blob").and_then(Value::as_str)?,
                r.get("mimeType").and_then(Value::as_str),
                r.get("uri").and_then(Value::as_str),
            )
        }
        _ => return None,
    };
    let bytes = super::base64_bytes(data).unwrap_or_else(|_| data.as_bytes().to_vec());
    let mut s = summary(mime.unwrap_or("application/octet-stream"), &bytes);
    let o = s.as_object_mut()?;
    o.insert("type".into(), Value::String(kind.to_string()));
    if let Some(u) = uri {
        o.insert("uri".into(), Value::String(u.to_string()));
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_media_types_and_bytes() {
        for t in [
            "image/png",
            "application/pdf",
            "application/octet-stream",
            "audio/mpeg; x=1",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        ] {
            assert!(binary_media(t), "{t}");
        }
        for t in [
            "image/svg+xml",
            "application/json",
            "text/csv",
            "application/problem+json",
            "application/x-ndjson",
            "application/csv",
        ] {
            assert!(!binary_media(t), "{t}");
        }
    }

    #[test]
    fn summaries_and_capped_base64() {
        assert_eq!(
            summary("image/png", b"abc"),
            json!({"content_type": "image/png", "bytes": 3,
                   "sha256": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"})
        );
        assert_eq!(base64_capped(b"abcdef", 8), ("YWJjZGVm".to_string(), false));
        assert_eq!(base64_capped(b"abcdefg", 8), ("YWJjZGVm".to_string(), true));
        assert_eq!(base64_capped(b"abcdefg", 7), ("YWJj".to_string(), true));
        assert_eq!(
            mcp_content(&json!({"type": "image", "data": "YWJj", "mimeType": "image/png"})),
            Some(
                json!({"type": "image", "content_type": "image/png", "bytes": 3,
                        "sha256": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"})
            )
        );
        assert_eq!(
            mcp_content(
                &json!({"type": "resource", "resource": {"uri": "file:///a", "blob": "YWJj"}})
            )
            .unwrap()["uri"],
            json!("file:///a")
        );
        assert_eq!(mcp_content(&json!({"type": "text", "text": "x"})), None);
    }
}
