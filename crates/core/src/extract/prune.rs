//! Reading a JSON response keeps only what projection can reach: the records path, and under
//! each record (and at the root, for envelope fields) the planned fields' paths. Everything
//! else is skipped by the parser without being built (a 1 MB response with a few planned
//! fields costs a fraction of a full `serde_json::Value`). The pruned document walks exactly
//! like the full one along every kept path, so projection results are the same.

use super::path::Seg;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::fmt;

/// What to keep under one node of the document.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Keep {
    /// Keep the whole subtree.
    all: bool,
    /// Keys to descend into (few per node: a linear scan beats hashing).
    children: Vec<(String, Keep)>,
    /// Applies to every member (a `{}` step).
    members: Option<Box<Keep>>,
}

impl Keep {
    fn merge(&mut self, other: &Keep) {
        if self.all {
            return;
        }
        if other.all {
            *self = Keep {
                all: true,
                ..Keep::default()
            };
            return;
        }
        for (k, v) in &other.children {
            self.entry(k).merge(v);
        }
        if let Some(m) = &other.members {
            self.members.get_or_insert_with(Box::default).merge(m);
        }
    }

    fn entry(&mut self, key: &str) -> &mut Keep {
        let i = match self.children.iter().position(|(k, _)| k == key) {
            Some(i) => i,
            None => {
                self.children.push((key.to_string(), Keep::default()));
                self.children.len() - 1
            }
        };
        &mut self.children[i].1
    }

    fn at(&mut self, segs: &[Seg]) -> &mut Keep {
        let mut cur = self;
        for s in segs {
            if !s.key.is_empty() {
                cur = cur.entry(&s.key);
            }
            if s.members {
                cur = cur.members.get_or_insert_with(Box::default);
            }
        }
        cur
    }

    /// The keep-tree for a records path and the field paths inside a record.
    pub fn new(records: &[Seg], fields: &[Vec<Seg>]) -> Keep {
        let mut record = Keep::default();
        for f in fields {
            record.at(f).all = true;
        }
        let mut root = Keep::default();
        root.at(records).merge(&record);
        // Envelope fields are looked up at the root.
        root.merge(&record);
        root
    }
}

impl Keep {
    /// Whether the whole subtree is kept.
    pub fn keeps_all(&self) -> bool {
        self.all
    }

    /// What to keep under member `key` (`None`: skip it).
    pub fn child(&self, key: &str) -> Option<std::borrow::Cow<'_, Keep>> {
        use std::borrow::Cow;
        let child = self.children.iter().find(|(k, _)| k == key).map(|(_, c)| c);
        match (child, self.members.as_deref()) {
            (Some(c), Some(m)) => {
                let mut both = c.clone();
                both.merge(m);
                Some(Cow::Owned(both))
            }
            (Some(c), None) => Some(Cow::Borrowed(c)),
            (None, Some(m)) => Some(Cow::Borrowed(m)),
            (None, None) => None,
        }
    }
}

/// What to keep of a step's response, from its endpoint's records path and planned fields
/// (`None` when a path does not parse: keep everything).
pub fn for_step(g: &crate::artifact::FrozenGraph, step: &crate::route::Step) -> Option<Keep> {
    let e = super::endpoint(g, step)?;
    let records = super::records::parse_records(e.records.as_deref()).ok()?;
    let fields = step
        .fields
        .iter()
        .map(|f| super::path::parse(&f.name, false).ok())
        .collect::<Option<Vec<_>>>()?;
    Some(Keep::new(&records, &fields))
}

enum Key<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl Key<'_> {
    fn as_str(&self) -> &str {
        match self {
            Key::Borrowed(s) => s,
            Key::Owned(s) => s,
        }
    }
}

impl<'de> serde::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key::Borrowed(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key::Owned(v.to_string()))
            }
            fn visit_string<E>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key::Owned(v))
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de> DeserializeSeed<'de> for &Keep {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        if self.all {
            return serde::Deserialize::deserialize(d);
        }
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for &Keep {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        // Arrays are transparent: every element is read with the same keep-tree.
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(self)? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(k) = map.next_key::<Key<'de>>()? {
            let Some(node) = self.child(k.as_str()) else {
                map.next_value::<IgnoredAny>()?;
                continue;
            };
            let v = map.next_value_seed(node.as_ref())?;
            out.insert(
                match k {
                    Key::Owned(s) => s,
                    Key::Borrowed(s) => s.to_string(),
                },
                v,
            );
        }
        Ok(Value::Object(out))
    }
}

/// Parse `text` keeping what `keep` names (the same errors as `serde_json::from_str`).
pub fn parse(text: &str, keep: &Keep) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let v = keep.deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::path;
    use serde_json::json;

    #[test]
    fn keeps_records_fields_and_envelope_only() {
        let text = r#"{"meta": {"total": 2, "x": [1, 2]}, "junk": {"a": 1},
            "data": [{"id": "a", "s": {"v": 1, "w": 2}, "big": [1, 2, 3]}, {"id": "b", "s": null}, 7]}"#;
        let records = path::parse("data[]", false).unwrap();
        let fields = vec![
            path::parse("id", false).unwrap(),
            path::parse("s.v", false).unwrap(),
            path::parse("meta.total", false).unwrap(),
        ];
        let v = parse(text, &Keep::new(&records, &fields)).unwrap();
        assert_eq!(
            v,
            json!({"meta": {"total": 2}, "data": [{"id": "a", "s": {"v": 1}}, {"id": "b", "s": null}, 7]})
        );
        let members = path::parse("result.{}", false).unwrap();
        let v = parse(
            r#"{"result": {"uids": ["1"], "1": {"t": "x", "u": 0}}}"#,
            &Keep::new(&members, &[path::parse("t", false).unwrap()]),
        )
        .unwrap();
        assert_eq!(v, json!({"result": {"uids": ["1"], "1": {"t": "x"}}}));
        assert!(parse("{\"data\": [1,}", &Keep::default()).is_err());
        assert!(parse("{} x", &Keep::default()).is_err());
    }
}
