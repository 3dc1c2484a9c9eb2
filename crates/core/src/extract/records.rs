//! The records path of an endpoint: where the records sit in a response (`data[]`,
//! `message.items[]`, `result.{}`, `[]`; the root by default).

use super::path::{Seg, kind, parse};
use serde_json::Value;

/// One record found in a response.
#[derive(Clone, Debug)]
pub struct RecordRef<'a> {
    /// Where it sits (`data[0]`, `result.31452`, `$` for the root).
    pub at: String,
    /// The record.
    pub value: &'a Value,
}

/// Parse a records path (`None` is the root).
pub fn parse_records(path: Option<&str>) -> Result<Vec<Seg>, String> {
    match path {
        None => Ok(Vec::new()),
        Some(p) => parse(p, false),
    }
}

/// What a records path finds in a response.
#[derive(Clone, Debug, Default)]
pub struct Found<'a> {
    /// The records, in document order.
    pub records: Vec<RecordRef<'a>>,
    /// Elements of a list on the path that the rest of the path does not reach (`data[1]` has
    /// no `attributes`): where, and why. The other elements' records are kept.
    pub skipped: Vec<(String, String)>,
}

/// The records of `doc` under `segs`, in document order (object members in key order). A value
/// the path does not reach is a shape error: records never come from somewhere else. Below a
/// list, an element the rest of the path does not reach is skipped and listed
/// ([`Found::skipped`]); the others still give their records.
pub fn find<'a>(doc: &'a Value, segs: &[Seg], xml: bool) -> Result<Found<'a>, String> {
    let mut out = Found::default();
    collect(doc, segs, String::new(), xml, &mut out)?;
    Ok(out)
}

fn collect<'a>(
    v: &'a Value,
    segs: &[Seg],
    at: String,
    xml: bool,
    out: &mut Found<'a>,
) -> Result<(), String> {
    let Some((seg, rest)) = segs.split_first() else {
        out.records.push(RecordRef {
            at: if at.is_empty() { "$".into() } else { at },
            value: v,
        });
        return Ok(());
    };
    let mut cur = v;
    let mut here = at;
    if !seg.key.is_empty() {
        let Value::Object(m) = cur else {
            return Err(format!(
                "expected an object with `{}` at {}, found {}",
                seg.key,
                if here.is_empty() { "the root" } else { &here },
                kind(cur)
            ));
        };
        match m.get(&seg.key) {
            Some(x) => cur = x,
            None => {
                return Err(format!(
                    "no `{}` at {}",
                    seg.key,
                    if here.is_empty() { "the root" } else { &here }
                ));
            }
        }
        if !here.is_empty() {
            here.push('.');
        }
        here.push_str(&seg.key);
    }
    if seg.members {
        let Value::Object(m) = cur else {
            return Err(format!(
                "expected an object at `{here}{{}}`, found {}",
                kind(cur)
            ));
        };
        for (k, x) in m {
            // Members of a map keyed by id: the object values are the records (PubMed's
            // `result` also holds the `uids` list).
            if x.is_object() {
                collect(x, rest, format!("{here}.{k}"), xml, out)?;
            }
        }
        return Ok(());
    }
    arrays(cur, seg.arrays, rest, here, xml, out)
}

fn arrays<'a>(
    v: &'a Value,
    n: usize,
    rest: &[Seg],
    here: String,
    xml: bool,
    out: &mut Found<'a>,
) -> Result<(), String> {
    if n == 0 {
        return collect(v, rest, here, xml, out);
    }
    match v {
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                let at = format!("{here}[{i}]");
                if let Err(why) = arrays(x, n - 1, rest, at.clone(), xml, out) {
                    out.skipped.push((at, why));
                }
            }
            Ok(())
        }
        other if xml && other.is_object() => {
            arrays(other, n - 1, rest, format!("{here}[0]"), xml, out)
        }
        other => Err(format!(
            "expected an array at `{here}[]`, found {}",
            kind(other)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_records_under_each_path_kind() {
        let doc = json!({"message": {"items": [{"a": 1}, {"a": 2}]}});
        let segs = parse_records(Some("message.items[]")).unwrap();
        let r = find(&doc, &segs, false).unwrap().records;
        let at: Vec<&str> = r.iter().map(|x| x.at.as_str()).collect();
        assert_eq!(at, ["message.items[0]", "message.items[1]"]);

        let doc = json!({"result": {"uids": ["2", "1"], "2": {"t": "b"}, "1": {"t": "a"}}});
        let r = find(&doc, &parse_records(Some("result.{}")).unwrap(), false)
            .unwrap()
            .records;
        let at: Vec<&str> = r.iter().map(|x| x.at.as_str()).collect();
        assert_eq!(at, ["result.1", "result.2"]);

        let arr = json!([{"a": 1}]);
        let r = find(&arr, &parse_records(Some("[]")).unwrap(), false)
            .unwrap()
            .records;
        assert_eq!(r[0].at, "[0]");
        let obj = json!({"a": 1});
        let r = find(&obj, &[], false).unwrap().records;
        assert_eq!(r[0].at, "$");
        assert_eq!(
            find(
                &json!({"data": {}}),
                &parse_records(Some("data[]")).unwrap(),
                false
            )
            .unwrap_err(),
            "expected an array at `data[]`, found object"
        );
        assert_eq!(
            find(
                &json!({"meta": {}}),
                &parse_records(Some("data[]")).unwrap(),
                false
            )
            .unwrap_err(),
            "no `data` at the root"
        );
    }

    #[test]
    fn an_element_off_the_path_is_skipped_and_the_others_kept() {
        let doc = json!({"data": [{"attributes": {"jid": "J-2"}}, {"id": "x"}, 5, {"attributes": {"jid": "J-3"}}]});
        let f = find(
            &doc,
            &parse_records(Some("data[].attributes")).unwrap(),
            false,
        )
        .unwrap();
        let at: Vec<&str> = f.records.iter().map(|x| x.at.as_str()).collect();
        assert_eq!(at, ["data[0].attributes", "data[3].attributes"]);
        assert_eq!(
            f.skipped,
            [
                (
                    "data[1]".to_string(),
                    "no `attributes` at data[1]".to_string()
                ),
                (
                    "data[2]".to_string(),
                    "expected an object with `attributes` at data[2], found number".to_string()
                ),
            ]
        );
    }
}
