//! Pass `slash`: `owner/repo` written in the question fills a URL template's `{a}/{b}` pair.

use crate::artifact::EndpointData;
use crate::search::spans::{Span, SpanKind};
use serde_json::Value;
use std::collections::BTreeMap;

/// `owner/repo` written in the question for a URL template with `{a}/{b}`: both filled.
pub(super) fn slash_pair(
    e: &EndpointData,
    spans: &[Span],
    params: &mut BTreeMap<String, Value>,
    only: Option<&[String]>,
) -> bool {
    let Some(s) = spans.iter().find(|s| s.kind == SpanKind::Slash) else {
        return false;
    };
    let url = &e.url;
    let mut rest = url.as_str();
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        let a = &after[..close];
        if let Some(next) = after[close + 1..].strip_prefix("/{")
            && let Some(end) = next.find('}')
        {
            let b = &next[..end];
            let allowed = only.is_none_or(|o| o.iter().any(|x| x == a) && o.iter().any(|x| x == b));
            if allowed && !params.contains_key(a) && !params.contains_key(b) {
                let (x, y) = s.value.split_once('/').unwrap_or((&s.value, ""));
                params.insert(a.to_string(), Value::String(x.to_string()));
                params.insert(b.to_string(), Value::String(y.to_string()));
                return true;
            }
        }
        rest = &after[close + 1..];
    }
    false
}
