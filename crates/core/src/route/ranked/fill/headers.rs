//! Pass `headers`: header and cookie parameters, and the server placeholder of an imported
//! description that names no server, filled only where the question names them.

use super::profile::Profile;
use crate::route::bind;
use serde_json::Value;
use std::collections::BTreeMap;

/// Fill the parameters of `open` filled only where named ([`Profile::named_only`]) whose name
/// the question writes with a value.
pub(super) fn pass(question: &str, open: &[Profile], params: &mut BTreeMap<String, Value>) {
    for pr in open.iter().filter(|pr| pr.named_only()) {
        if let Some(raw) = named_header_value(&pr.p.name, question)
            && let Ok(v) = bind::coerce(pr.p, Value::String(raw))
        {
            params.insert(pr.p.name.clone(), v);
        }
    }
}

/// The value written right after a header or cookie parameter's name in the question
/// (`X-Request-Id: abc-1`, `x-request-id=abc-1`), the only way such a parameter is filled.
pub(super) fn named_header_value(name: &str, question: &str) -> Option<String> {
    let q = question.to_lowercase();
    let n = name.to_lowercase();
    let mut from = 0;
    while let Some(at) = q[from..].find(&n).map(|i| i + from) {
        from = at + n.len();
        let bounded =
            |c: Option<char>| c.is_none_or(|c| !(c.is_alphanumeric() || c == '-' || c == '_'));
        if !bounded(q[..at].chars().last()) || !bounded(q[from..].chars().next()) {
            continue;
        }
        let rest = question[from..].trim_start();
        let rest = rest.strip_prefix([':', '=']).unwrap_or(rest).trim_start();
        let rest = rest.trim_start_matches(['"', '\'', '`']);
        let value: String = rest
            .chars()
            .take_while(|c| !c.is_whitespace() && !matches!(c, ',' | ';' | '"' | '\'' | '`'))
            .collect();
        let value = value.trim_end_matches(['.', '?', '!']).to_string();
        if !value.is_empty() {
            return Some(value);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;

    #[test]
    fn headers_are_filled_only_where_the_question_names_them() {
        let mut e = endpoint(
            "https://x.test/podcasts/{id}",
            &[
                ("id", "path"),
                ("X-Request-Id", "header"),
                ("session", "cookie"),
            ],
        );
        e.parameters[1].required = true;
        assert_eq!(
            filled(
                &e,
                "episodes of podcast 4d3fe717742d4963a85562e9f84d8c79",
                &[]
            ),
            strings(&[("id", "4d3fe717742d4963a85562e9f84d8c79")])
        );
        assert_eq!(
            filled(&e, "podcast 4d3fe717742d4963 with X-Request-Id: abc-1", &[]),
            strings(&[("X-Request-Id", "abc-1"), ("id", "4d3fe717742d4963")])
        );
        assert_eq!(
            named_header_value("session", "session=xyz please"),
            Some("xyz".into())
        );
        assert_eq!(named_header_value("session", "the sessions list"), None);
    }

    #[test]
    fn the_server_placeholder_is_no_value_of_the_question() {
        let mut e = endpoint(
            "{base_url}/bills",
            &[
                ("base_url", "path"),
                ("jurisdiction", "query"),
                ("q", "query"),
            ],
        );
        e.parameters[0].required = true;
        let got = filled(&e, "show ohio bills about education", &[]);
        assert!(!got.contains_key("base_url"), "{got:?}");
        assert_eq!(
            filled(&e, "bills with base_url: https://v3.openstates.org", &[])
                .get("base_url")
                .and_then(Value::as_str),
            Some("https://v3.openstates.org")
        );
        // A placeholder inside the path is a value as before.
        let e = endpoint("https://x.test/{state}/bills", &[("state", "path")]);
        assert_eq!(
            filled(&e, "bills of state ohio", &[]),
            strings(&[("state", "ohio")])
        );
    }
}
