//! JSON read strictly: an object that repeats a key is refused rather than resolved to the last
//! value (serde_json keeps the last, so which one was meant would be lost without a word). Used
//! wherever a person or a program hands us JSON: route requests (HTTP), Understanding files
//! (`route --understanding`). The artifact's own maps are read through [`UniqueMap`], which
//! refuses a repeated key while the map is deserialised (any serde format: JSON, and the
//! MessagePack graph section of `graph.bin`).

use serde::de::{DeserializeSeed, Deserializer, Error, MapAccess, SeqAccess, Visitor};
use std::collections::BTreeMap;

/// Check that no object in the JSON text `text` repeats a key.
///
/// Errors: the first repeated key as a serde_json error (`duplicate key `k``, with its line and
/// column), or the text's own syntax error when it is not JSON.
pub fn check_no_repeated_keys(text: &[u8]) -> Result<(), serde_json::Error> {
    let mut de = serde_json::Deserializer::from_slice(text);
    NoRepeatedKeys.deserialize(&mut de)?;
    de.end()
}

/// Reads a JSON value and fails at the first object that repeats a key.
struct NoRepeatedKeys;

impl<'de> DeserializeSeed<'de> for NoRepeatedKeys {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for NoRepeatedKeys {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(NoRepeatedKeys)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if seen.contains(&key) {
                return Err(A::Error::custom(format_args!("duplicate key `{key}`")));
            }
            map.next_value_seed(NoRepeatedKeys)?;
            seen.insert(key);
        }
        Ok(())
    }
}

/// The error text for `key` repeated in the map `map` (`None`: a map with no name):
/// ``duplicate key `band_gap` in `index.concept_postings` ``. Control characters, quotes and
/// backslashes in the key are escaped, so the message stays on one line.
pub fn duplicate_key_message(key: &str, map: Option<&str>) -> String {
    let key = key.escape_debug();
    match map {
        Some(map) => format!("duplicate key `{key}` in `{map}`"),
        None => format!("duplicate key `{key}`"),
    }
}

/// A map read with its keys checked: a repeated key is an error (serde's own map impls keep
/// the last value without a word, so an artifact edited by hand could change plans unseen).
/// The artifact's map fields read through it with `deserialize_with` (see
/// `artifact::unique`), which gives each map its name in the error.
pub trait UniqueMap<'de>: Sized {
    /// Deserialise the map; `name` is its place in the document (`index.concept_postings`,
    /// `tools[].endpoints[].fields[].qualifiers`), named in the error with the key:
    /// ``duplicate key `band_gap` in `index.concept_postings` `` (serde_json adds the line and
    /// column of the repeated key).
    fn deserialize_unique<D: Deserializer<'de>>(d: D, name: &'static str)
    -> Result<Self, D::Error>;
}

impl<'de, V: serde::Deserialize<'de>> UniqueMap<'de> for BTreeMap<String, V> {
    fn deserialize_unique<D: Deserializer<'de>>(
        d: D,
        name: &'static str,
    ) -> Result<Self, D::Error> {
        d.deserialize_map(UniqueKeys {
            name: Some(name),
            _value: std::marker::PhantomData,
        })
    }
}

/// Read a map into a `BTreeMap`, refusing a repeated key (see [`UniqueMap`]); `name` (when
/// known) is named in the error.
///
/// Errors: the first repeated key, ``duplicate key `k` in `name` ``, raised as soon as the key
/// is read (so serde_json's position is the key's); the map's own errors otherwise.
pub fn unique_map<'de, D: Deserializer<'de>, V: serde::Deserialize<'de>>(
    d: D,
    name: Option<&'static str>,
) -> Result<BTreeMap<String, V>, D::Error> {
    d.deserialize_map(UniqueKeys {
        name,
        _value: std::marker::PhantomData,
    })
}

/// The visitor of [`unique_map`].
struct UniqueKeys<V> {
    name: Option<&'static str>,
    _value: std::marker::PhantomData<V>,
}

impl<'de, V: serde::Deserialize<'de>> Visitor<'de> for UniqueKeys<V> {
    type Value = BTreeMap<String, V>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a map")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = BTreeMap::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(A::Error::custom(duplicate_key_message(&key, self.name)));
            }
            let value = map.next_value()?;
            out.insert(key, value);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::{UniqueMap, check_no_repeated_keys, unique_map};
    use std::collections::BTreeMap;

    #[test]
    fn a_unique_map_refuses_a_repeated_key_naming_the_map_and_the_key() {
        let read = |text: &str| {
            let mut de = serde_json::Deserializer::from_str(text);
            BTreeMap::<String, u32>::deserialize_unique(&mut de, "index.tool_names")
        };
        assert_eq!(
            read(r#"{"b": 1, "a": 2}"#).unwrap(),
            BTreeMap::from([("a".to_string(), 2), ("b".to_string(), 1)])
        );
        assert_eq!(
            read("{\"a\": 1,\n \"b\": 2, \"a\": 3}")
                .unwrap_err()
                .to_string(),
            "duplicate key `a` in `index.tool_names` at line 2 column 12"
        );
        // The same key spelled with an escape is the same key; control characters are escaped
        // in the message.
        assert_eq!(
            read(r#"{"a\nb": 1, "a\u000ab": 2}"#)
                .unwrap_err()
                .to_string(),
            "duplicate key `a\\nb` in `index.tool_names` at line 1 column 22"
        );
        // Any serde format: MessagePack (the graph section of graph.bin).
        let mut pack = vec![0x82];
        for (k, v) in [("k", 1u8), ("k", 2)] {
            pack.extend_from_slice(&[0xa1, k.as_bytes()[0], v]);
        }
        let e = unique_map::<_, u32>(&mut rmp_serde::Deserializer::new(&pack[..]), None);
        assert_eq!(e.unwrap_err().to_string(), "duplicate key `k`");
    }

    #[test]
    fn a_repeated_key_is_found_at_any_depth_with_its_position() {
        assert!(check_no_repeated_keys(br#"{"a": 1, "b": [{"a": 2}, {"a": 3}]}"#).is_ok());
        let e = check_no_repeated_keys(b"{\"p\": {\"formula\": \"A\",\n \"formula\": \"B\"}}")
            .unwrap_err();
        assert_eq!(e.to_string(), "duplicate key `formula` at line 2 column 10");
        let e = check_no_repeated_keys(br#"[{"x": 1, "x": 1}]"#).unwrap_err();
        assert_eq!(e.to_string(), "duplicate key `x` at line 1 column 13");
    }
}
