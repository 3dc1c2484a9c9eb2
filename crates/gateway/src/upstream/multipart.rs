//! `multipart/form-data` request bodies (RFC 7578), one part per body parameter (a list: one
//! part per item, under the same name), each with its declared media type and headers (OpenAPI
//! `encoding.contentType` and `encoding.headers`, recorded by the import as the parameter's
//! `content_type` and `part_headers`).
//!
//! A part's media type: the declared `content_type` (of a list, the first type; a wildcard such
//! as `image/*` is sent as `application/octet-stream`), else OpenAPI's defaults: an object (or a
//! nested list) `application/json`, a `format: binary` string `application/octet-stream`, any
//! other string, number or boolean `text/plain` (RFC 7578's default, so no `Content-Type`
//! line). Its content by that type: JSON text for a JSON type (a whole list as one JSON part),
//! the value's text for a text type ([`schemarouter_core::model::text_media`]), and for any
//! other (binary) type the bytes of the value, which the agent gives base64-encoded (RFC 4648;
//! a binary part also names a `filename`, the parameter's name, as servers expect of a file).
//! The declared headers follow `Content-Type`. The boundary is the first of
//! `schemarouter-boundary-0`, `-1`, ... that no part holds, so the same arguments give the same
//! bytes.

use schemarouter_core::model::text_media;
use serde_json::Value;
use std::collections::BTreeMap;

/// One body parameter to send as a part (or one part per item of a list).
#[derive(Clone, Copy, Debug)]
pub struct Part<'a> {
    /// The parameter's name (the part's `name`).
    pub name: &'a str,
    /// The value.
    pub value: &'a Value,
    /// The declared media type (`encoding.contentType`).
    pub content_type: Option<&'a str>,
    /// The declared JSON-Schema `format` (`binary`: bytes, base64-encoded by the agent).
    pub format: Option<&'a str>,
    /// The declared part headers (`encoding.headers`).
    pub headers: &'a BTreeMap<String, String>,
}

/// Whether `media` is a JSON media type (`application/json`, `*+json`).
pub fn json_media(media: &str) -> bool {
    let m = schemarouter_core::model::tool::media_essence(media);
    m == "application/json" || m.ends_with("+json")
}

/// The media type a declared `contentType` sends: its first type, `application/octet-stream`
/// for a wildcard.
fn sent_type(declared: &str) -> String {
    let first = declared.split(',').next().unwrap_or("").trim();
    if first.is_empty() || first.contains('*') {
        "application/octet-stream".into()
    } else {
        first.to_string()
    }
}

impl Part<'_> {
    /// The media type of an item of this part (`None`: `text/plain`, no header).
    fn media(&self, item: &Value) -> Option<String> {
        match (self.content_type, item) {
            (Some(t), _) => Some(sent_type(t)),
            (None, Value::Object(_) | Value::Array(_)) => Some("application/json".into()),
            (None, _) if self.format == Some("binary") => Some("application/octet-stream".into()),
            (None, _) => None,
        }
    }

    /// Whether the agent gives this part's value base64-encoded (its media type is binary).
    pub fn takes_base64(&self) -> bool {
        match self.content_type {
            Some(t) => {
                let t = sent_type(t);
                !text_media(&t) && !json_media(&t)
            }
            None => self.format == Some("binary"),
        }
    }
}

/// One part, encoded.
struct Encoded<'a> {
    /// The `name` of its `Content-Disposition`.
    name: String,
    /// Its `Content-Type` (`None`: `text/plain`).
    media: Option<String>,
    /// Bytes decoded from base64 (named with a `filename`).
    binary: bool,
    /// Its content.
    data: Vec<u8>,
    /// Its declared headers.
    headers: &'a BTreeMap<String, String>,
}

/// The boundary and the encoded body of `parts`, in order.
///
/// Errors: a binary part whose value is not a base64 string (naming the part).
pub fn encode(parts: &[Part<'_>]) -> Result<(String, Vec<u8>), String> {
    let mut fields: Vec<Encoded<'_>> = Vec::new();
    for part in parts {
        let whole = part.content_type.is_some_and(|t| json_media(&sent_type(t)));
        let items: Vec<&Value> = match part.value {
            Value::Array(a) if !whole => a.iter().collect(),
            other => vec![other],
        };
        for item in items {
            let media = part.media(item);
            let binary = part.takes_base64();
            let data = match &media {
                Some(m) if json_media(m) => item.to_string().into_bytes(),
                _ if binary => match item {
                    Value::String(s) => super::base64_bytes(s)
                        .map_err(|e| format!("the part `{}`: {e}", part.name))?,
                    _ => {
                        return Err(format!(
                            "the part `{}` ({}) takes its bytes as a base64 string",
                            part.name,
                            media.as_deref().unwrap_or("application/octet-stream")
                        ));
                    }
                },
                _ => super::style::text(item).into_bytes(),
            };
            fields.push(Encoded {
                name: disposition_name(part.name),
                media,
                binary,
                data,
                headers: part.headers,
            });
        }
    }
    let boundary = (0u64..)
        .map(|n| format!("schemarouter-boundary-{n}"))
        .find(|b| {
            !fields.iter().any(|f| {
                contains(&f.data, b.as_bytes())
                    || f.name.contains(b.as_str())
                    || f.headers.values().any(|v| v.contains(b.as_str()))
            })
        })
        .unwrap_or_default();
    let mut out = Vec::new();
    for f in &fields {
        let name = &f.name;
        let filename = if f.binary {
            format!("; filename=\"{name}\"")
        } else {
            String::new()
        };
        out.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"{filename}\r\n"
            )
            .as_bytes(),
        );
        if let Some(t) = &f.media {
            out.extend_from_slice(format!("Content-Type: {t}\r\n").as_bytes());
        }
        for (k, v) in f.headers {
            out.extend_from_slice(format!("{k}: {v}\r\n").as_bytes());
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(&f.data);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    Ok((boundary, out))
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
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
    use super::Part;
    use serde_json::{Value, json};
    use std::collections::BTreeMap;

    fn part<'a>(name: &'a str, value: &'a Value, none: &'a BTreeMap<String, String>) -> Part<'a> {
        Part {
            name,
            value,
            content_type: None,
            format: None,
            headers: none,
        }
    }

    #[test]
    fn parts_follow_the_default_content_types() {
        let (title, tags, meta) = (json!("GaN \"x\""), json!(["a", 2]), json!({"k": 1}));
        let none = BTreeMap::new();
        let (b, bytes) = super::encode(&[
            part("title", &title, &none),
            part("tags", &tags, &none),
            part("me\"ta", &meta, &none),
        ])
        .unwrap();
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

    /// `encoding.contentType` and `encoding.headers` per part: a PNG given base64-encoded is
    /// sent as its bytes (with a filename), an XML part as its text, a JSON part as JSON (a list
    /// whole), a wildcard as `application/octet-stream`; the fixed headers after the type.
    #[test]
    fn declared_content_types_and_headers_shape_each_part() {
        let png = json!("iVBORw0KGgo=");
        let xml = json!("<a>1</a>");
        let ids = json!([1, 2]);
        let any = json!("AAE=");
        let headers = BTreeMap::from([
            ("X-Rate-Limit".to_string(), "10".to_string()),
            ("Content-Language".to_string(), "en".to_string()),
        ]);
        let none = BTreeMap::new();
        let (b, bytes) = super::encode(&[
            Part {
                content_type: Some("image/png, image/jpeg"),
                headers: &headers,
                ..part("image", &png, &none)
            },
            Part {
                content_type: Some("application/xml; charset=utf-8"),
                ..part("doc", &xml, &none)
            },
            Part {
                content_type: Some("application/json"),
                ..part("ids", &ids, &none)
            },
            Part {
                content_type: Some("image/*"),
                ..part("thumb", &any, &none)
            },
            Part {
                format: Some("binary"),
                ..part("raw", &any, &none)
            },
        ])
        .unwrap();
        assert_eq!(b, "schemarouter-boundary-0");
        let mut want: Vec<u8> = Vec::new();
        want.extend_from_slice(b"--schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"image\"; filename=\"image\"\r\nContent-Type: image/png\r\nContent-Language: en\r\nX-Rate-Limit: 10\r\n\r\n");
        want.extend_from_slice(&[0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n']);
        want.extend_from_slice(b"\r\n--schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"doc\"\r\nContent-Type: application/xml; charset=utf-8\r\n\r\n<a>1</a>\r\n");
        want.extend_from_slice(b"--schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"ids\"\r\nContent-Type: application/json\r\n\r\n[1,2]\r\n");
        want.extend_from_slice(b"--schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"thumb\"; filename=\"thumb\"\r\nContent-Type: application/octet-stream\r\n\r\n\x00\x01\r\n");
        want.extend_from_slice(b"--schemarouter-boundary-0\r\nContent-Disposition: form-data; name=\"raw\"; filename=\"raw\"\r\nContent-Type: application/octet-stream\r\n\r\n\x00\x01\r\n");
        want.extend_from_slice(b"--schemarouter-boundary-0--\r\n");
        assert_eq!(bytes, want);
        // A binary part that is not base64 names the part.
        let bad = json!("not base64!");
        let e = super::encode(&[Part {
            content_type: Some("image/png"),
            ..part("image", &bad, &none)
        }])
        .unwrap_err();
        assert_eq!(
            e,
            "the part `image`: not base64 (RFC 4648; the standard or the URL-safe alphabet): Invalid symbol 32, offset 3."
        );
    }

    #[test]
    fn the_boundary_is_not_in_any_part() {
        let v = json!("text with --schemarouter-boundary-0 inside");
        let none = BTreeMap::new();
        let (b, _) = super::encode(&[part("x", &v, &none)]).unwrap();
        assert_eq!(b, "schemarouter-boundary-1");
    }
}
