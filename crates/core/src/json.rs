//! JSON read strictly: an object that repeats a key is refused rather than resolved to the last
//! value (serde_json keeps the last, so which one was meant would be lost without a word). Used
//! wherever a person or a program hands us JSON: route requests (HTTP), Understanding files
//! (`route --understanding`).

use serde::de::{DeserializeSeed, Deserializer, Error, MapAccess, SeqAccess, Visitor};

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

#[cfg(test)]
mod tests {
    use super::check_no_repeated_keys;

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
