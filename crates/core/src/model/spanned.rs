//! [`Sp<T>`]: a declared value together with the byte span it was read from.

use crate::source::Span;
use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde::{Serialize, Serializer};
use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

/// Struct name the loader's deserializer recognises to hand out spans.
pub const SPANNED_NAME: &str = "$__schemarouter_spanned";
/// Field carrying the span start (byte offset).
pub const SPANNED_START: &str = "$__start";
/// Field carrying the span end (byte offset).
pub const SPANNED_END: &str = "$__end";
/// Field carrying the value.
pub const SPANNED_VALUE: &str = "$__value";
/// The field names of the spanned-value protocol.
pub const SPANNED_FIELDS: &[&str] = &[SPANNED_START, SPANNED_END, SPANNED_VALUE];

/// A value with the span (byte range in its declaring file) it was read from.
///
/// Equality, ordering and hashing look at the value only, so that two declarations that say the
/// same thing in different places compare equal (the diff relies on this). Serialises as the bare
/// value. Deserialises only through the project loader, which knows spans; any other deserializer
/// must provide the value under the private field names and gets an empty span otherwise.
#[derive(Clone, Default)]
pub struct Sp<T> {
    /// The declared value.
    pub value: T,
    /// Where it was declared (byte range in the declaring file; empty for synthesised values).
    pub span: Span,
}

impl<T> Sp<T> {
    /// A value with a span.
    pub fn new(value: T, span: Span) -> Sp<T> {
        Sp { value, span }
    }

    /// A value without a source position (generated or defaulted).
    pub fn synthetic(value: T) -> Sp<T> {
        Sp {
            value,
            span: Span::default(),
        }
    }

    /// Map the value, keeping the span.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Sp<U> {
        Sp {
            value: f(self.value),
            span: self.span,
        }
    }
}

impl<T> Deref for Sp<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl Borrow<str> for Sp<String> {
    fn borrow(&self) -> &str {
        &self.value
    }
}

impl<T: fmt::Debug> fmt::Debug for Sp<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}

impl<T: fmt::Display> fmt::Display for Sp<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}

impl<T: PartialEq> PartialEq for Sp<T> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl<T: Eq> Eq for Sp<T> {}

impl<T: PartialOrd> PartialOrd for Sp<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.value.partial_cmp(&other.value)
    }
}

impl<T: Ord> Ord for Sp<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.value.cmp(&other.value)
    }
}

impl<T: Hash> Hash for Sp<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.value.hash(state)
    }
}

impl<T: Serialize> Serialize for Sp<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(s)
    }
}

/// A key of the map a spanned value is read from ([`SPANNED_FIELDS`]), read without making a
/// `String` of it (three keys per spanned value, millions in a large project).
enum SpKey {
    Start,
    End,
    Value,
}

impl<'de> Deserialize<'de> for SpKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = SpKey;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a spanned value's key")
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<SpKey, E> {
                match key {
                    SPANNED_START => Ok(SpKey::Start),
                    SPANNED_END => Ok(SpKey::End),
                    SPANNED_VALUE => Ok(SpKey::Value),
                    other => Err(E::unknown_field(other, SPANNED_FIELDS)),
                }
            }
        }
        d.deserialize_identifier(KeyVisitor)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Sp<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct SpVisitor<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for SpVisitor<T> {
            type Value = Sp<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Sp<T>, A::Error> {
                let mut start = 0usize;
                let mut end = 0usize;
                let mut value = None;
                while let Some(key) = map.next_key::<SpKey>()? {
                    match key {
                        SpKey::Start => start = map.next_value()?,
                        SpKey::End => end = map.next_value()?,
                        SpKey::Value => value = Some(map.next_value()?),
                    }
                }
                let value = value.ok_or_else(|| de::Error::missing_field(SPANNED_VALUE))?;
                Ok(Sp {
                    value,
                    span: Span::new(start, end),
                })
            }
        }
        d.deserialize_struct(
            SPANNED_NAME,
            SPANNED_FIELDS,
            SpVisitor(std::marker::PhantomData),
        )
    }
}

impl<T: schemars::JsonSchema> schemars::JsonSchema for Sp<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}
