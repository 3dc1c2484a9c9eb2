//! Field and records paths: parsing the declared spelling (`a.b`, `items[]`, `result.{}`,
//! `category@term`) and walking a JSON value along it.

use serde_json::Value;

/// One step of a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seg {
    /// Object key (empty for a step that starts at the current value, as in `[]`).
    pub key: String,
    /// How many `[]` follow the key (each iterates one array level).
    pub arrays: usize,
    /// `{}` after the key: iterate the object's members (records path only).
    pub members: bool,
}

/// A parse error of a path: what is wrong.
pub type PathError = String;

/// Parse a path. `xml` splits `element@attribute` into two steps (attributes are `@name` keys
/// in the document an XML response is read into).
pub fn parse(path: &str, xml: bool) -> Result<Vec<Seg>, PathError> {
    if path.trim() != path || path.is_empty() {
        return Err("is empty or has surrounding spaces".into());
    }
    let mut out = Vec::new();
    for part in path.split('.') {
        let mut key = part;
        let mut members = false;
        if let Some(k) = key.strip_suffix("{}") {
            key = k;
            members = true;
        }
        let mut arrays = 0;
        while let Some(k) = key.strip_suffix("[]") {
            key = k;
            arrays += 1;
        }
        if members && arrays > 0 {
            return Err(format!("segment `{part}` mixes `[]` and `{{}}`"));
        }
        if key.contains(['[', ']', '{', '}']) {
            return Err(format!(
                "segment `{part}` has brackets other than a trailing `[]` or `{{}}`"
            ));
        }
        if key.is_empty() && arrays == 0 && !members {
            return Err("has an empty segment (`..` or a leading or trailing `.`)".into());
        }
        if xml
            && let Some((el, attr)) = key.split_once('@')
            && !el.is_empty()
        {
            if arrays > 0 || members {
                return Err(format!("segment `{part}`: an attribute is a single value"));
            }
            out.push(Seg {
                key: el.to_string(),
                arrays: 0,
                members: false,
            });
            out.push(Seg {
                key: format!("@{attr}"),
                arrays: 0,
                members: false,
            });
            continue;
        }
        out.push(Seg {
            key: key.to_string(),
            arrays,
            members,
        });
    }
    Ok(out)
}

/// The result of walking a field path in one record.
#[derive(Clone, Debug, PartialEq)]
pub enum Walked {
    /// A key on the path is absent.
    Absent,
    /// The value (arrays of values, one level per `[]`, with `null` where an element lacks the
    /// rest of the path).
    Found(Value),
    /// The response's shape does not match the path (what was expected, what was found).
    Shape(String),
}

/// A JSON type name for messages.
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Walk `segs` from `v`. In `xml` documents an element may occur once or many times, so a key
/// step over an array maps over its elements and a `[]` step over a single value takes it as a
/// one-element array.
pub fn walk(v: &Value, segs: &[Seg], xml: bool) -> Walked {
    let Some((seg, rest)) = segs.split_first() else {
        return Walked::Found(v.clone());
    };
    let mut cur = v;
    if !seg.key.is_empty() {
        match cur {
            Value::Object(m) => match m.get(&seg.key) {
                Some(x) => cur = x,
                None => return Walked::Absent,
            },
            Value::Null => return Walked::Found(Value::Null),
            Value::Array(items) if xml => {
                let vals: Vec<Value> = items
                    .iter()
                    .map(|x| match walk(x, segs, xml) {
                        Walked::Found(v) => v,
                        _ => Value::Null,
                    })
                    .collect();
                return Walked::Found(Value::Array(vals));
            }
            other => {
                return Walked::Shape(format!(
                    "expected an object with `{}`, found {}",
                    seg.key,
                    kind(other)
                ));
            }
        }
    }
    iterate(cur, seg.arrays, rest, xml, &seg.key)
}

fn iterate(v: &Value, arrays: usize, rest: &[Seg], xml: bool, key: &str) -> Walked {
    if arrays == 0 {
        return walk(v, rest, xml);
    }
    let single;
    let items: &[Value] = match v {
        Value::Array(items) => items,
        Value::Null => return Walked::Found(Value::Null),
        other if xml => {
            single = [other.clone()];
            &single
        }
        other => {
            return Walked::Shape(format!(
                "expected an array at `{key}[]`, found {}",
                kind(other)
            ));
        }
    };
    let mut out = Vec::with_capacity(items.len());
    for x in items {
        match iterate(x, arrays - 1, rest, xml, key) {
            Walked::Found(v) => out.push(v),
            Walked::Absent => out.push(Value::Null),
            Walked::Shape(s) => return Walked::Shape(s),
        }
    }
    Walked::Found(Value::Array(out))
}

/// Number of `[]` levels on a field path (the depth of the arrays [`walk`] builds).
pub fn depth(segs: &[Seg]) -> usize {
    segs.iter().map(|s| s.arrays).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_declared_spellings() {
        let p = parse("authorships[].institutions[].display_name", false).unwrap();
        assert_eq!(p.len(), 3);
        assert_eq!((p[0].key.as_str(), p[0].arrays), ("authorships", 1));
        assert_eq!(parse("[]", false).unwrap()[0].arrays, 1);
        assert!(parse("result.{}", false).unwrap()[1].members);
        let x = parse("arxiv:primary_category@term", true).unwrap();
        assert_eq!(x[1].key, "@term");
        assert_eq!(
            parse("a..b", false).unwrap_err(),
            "has an empty segment (`..` or a leading or trailing `.`)"
        );
        assert!(parse("a[0]", false).is_err());
        assert!(parse("", false).is_err());
    }

    #[test]
    fn walks_nested_arrays_keeping_alignment() {
        let v = json!({"a": [{"b": [{"c": 1}, {"d": 2}]}, {"x": 0}]});
        let segs = parse("a[].b[].c", false).unwrap();
        assert_eq!(
            walk(&v, &segs, false),
            Walked::Found(json!([[1, null], null]))
        );
        assert_eq!(
            walk(&json!({"a": 3}), &segs, false),
            Walked::Shape("expected an array at `a[]`, found number".into())
        );
        assert_eq!(walk(&json!({}), &segs, false), Walked::Absent);
        assert_eq!(
            walk(&json!({"a": null}), &segs, false),
            Walked::Found(Value::Null)
        );
    }
}
