//! Value types and scalar values used by parameters and response fields.

use schemars::JsonSchema;
use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::{Serialize, Serializer};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

/// Separator between a deserialisation message and its help line (see `error_with_help` in this module).
pub const HELP_SEP: &str = "\u{1f}help: ";

/// A serde error whose message carries a help line; the loader splits it into message and help.
pub(crate) fn error_with_help<E: de::Error>(
    message: impl fmt::Display,
    help: impl fmt::Display,
) -> E {
    E::custom(format!("{message}{HELP_SEP}{help}"))
}

/// The closest candidate to `word` (case-insensitive), when close enough: within
/// Damerau-Levenshtein distance max(1, len/3), or Jaro-Winkler similarity above 0.85. Ties go to
/// the smaller distance, then the higher similarity, then the alphabetically first candidate.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let lw = word.to_lowercase();
    let max_dist = (lw.chars().count() / 3).max(1);
    let mut best: Option<(usize, f64, &str)> = None;
    for c in candidates {
        let lc = c.to_lowercase();
        let dist = strsim::damerau_levenshtein(&lw, &lc);
        let sim = strsim::jaro_winkler(&lw, &lc);
        if dist > max_dist && sim <= 0.85 {
            continue;
        }
        let better = match best {
            None => true,
            Some((bd, bs, bc)) => (dist, -sim, c) < (bd, -bs, bc),
        };
        if better {
            best = Some((dist, sim, c));
        }
    }
    best.map(|(_, _, c)| c)
}

/// The type of a parameter or response field value.
///
/// Written as a string: `string`, `integer`, `number`, `boolean`, `date`, `datetime`, `object`,
/// `any`, or an array of any of these with a `[]` suffix (`number[]`, `number[][]` for a 3×3
/// matrix, `object[]`); `array` alone is an array of `any`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ValueType {
    /// A JSON string.
    String,
    /// A whole number.
    Integer,
    /// A floating-point number.
    Number,
    /// `true` or `false`.
    Boolean,
    /// An ISO-8601 calendar date (or a partial date).
    Date,
    /// An ISO-8601 date and time.
    DateTime,
    /// A JSON object.
    Object,
    /// Anything.
    Any,
    /// An array of the inner type.
    Array(Box<ValueType>),
}

/// Base type names accepted in declarations.
pub const VALUE_TYPE_NAMES: &[&str] = &[
    "string", "integer", "number", "boolean", "date", "datetime", "object", "any", "array",
];

impl ValueType {
    /// Parse the declaration spelling. Errors carry a did-you-mean help line.
    pub fn parse(s: &str) -> Result<ValueType, (String, Option<String>)> {
        let t = s.trim();
        if let Some(inner) = t.strip_suffix("[]") {
            return Ok(ValueType::Array(Box::new(ValueType::parse(inner)?)));
        }
        Ok(match t {
            "string" => ValueType::String,
            "integer" => ValueType::Integer,
            "number" => ValueType::Number,
            "boolean" => ValueType::Boolean,
            "date" => ValueType::Date,
            "datetime" => ValueType::DateTime,
            "object" => ValueType::Object,
            "any" => ValueType::Any,
            "array" => ValueType::Array(Box::new(ValueType::Any)),
            _ => {
                let help = did_you_mean(t, VALUE_TYPE_NAMES.iter().copied())
                    .map(|c| format!("did you mean `{c}`?"))
                    .or_else(|| {
                        Some(format!(
                            "use one of {}, optionally with `[]` for an array",
                            VALUE_TYPE_NAMES.join(", ")
                        ))
                    });
                return Err((format!("unknown value type `{t}`"), help));
            }
        })
    }

    /// True for `integer` and `number` (the types a unit may apply to), and arrays of them.
    pub fn is_numeric(&self) -> bool {
        match self {
            ValueType::Integer | ValueType::Number => true,
            ValueType::Array(inner) => inner.is_numeric(),
            _ => false,
        }
    }

    /// The element type after stripping all array levels.
    pub fn element(&self) -> &ValueType {
        match self {
            ValueType::Array(inner) => inner.element(),
            other => other,
        }
    }
}

impl fmt::Display for ValueType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueType::String => f.write_str("string"),
            ValueType::Integer => f.write_str("integer"),
            ValueType::Number => f.write_str("number"),
            ValueType::Boolean => f.write_str("boolean"),
            ValueType::Date => f.write_str("date"),
            ValueType::DateTime => f.write_str("datetime"),
            ValueType::Object => f.write_str("object"),
            ValueType::Any => f.write_str("any"),
            ValueType::Array(inner) => write!(f, "{inner}[]"),
        }
    }
}

impl Serialize for ValueType {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for ValueType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        ValueType::parse(&s).map_err(|(msg, help)| match help {
            Some(h) => error_with_help(msg, h),
            None => de::Error::custom(msg),
        })
    }
}

impl JsonSchema for ValueType {
    fn schema_name() -> Cow<'static, str> {
        "ValueType".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "string, integer, number, boolean, date, datetime, object, any, array, or an array of one of them with a `[]` suffix",
            "pattern": "^(string|integer|number|boolean|date|datetime|object|any|array)(\\[\\])*$"
        })
    }
}

/// A scalar value written in a declaration (a parameter default, a fixed companion value, an
/// enum value). Keeps the kind it was written as.
#[derive(Clone, Debug, PartialEq, PartialOrd)]
pub enum Scalar {
    /// A string.
    String(String),
    /// An integer.
    Integer(i64),
    /// A floating-point number.
    Number(f64),
    /// A boolean.
    Boolean(bool),
}

impl Eq for Scalar {}

impl std::hash::Hash for Scalar {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        match self {
            Scalar::String(s) => (0u8, s).hash(state),
            Scalar::Integer(i) => (1u8, i).hash(state),
            Scalar::Number(n) => (2u8, n.to_bits()).hash(state),
            Scalar::Boolean(b) => (3u8, b).hash(state),
        }
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scalar::String(s) => f.write_str(s),
            Scalar::Integer(i) => write!(f, "{i}"),
            Scalar::Number(n) => write!(f, "{n}"),
            Scalar::Boolean(b) => write!(f, "{b}"),
        }
    }
}

impl Scalar {
    /// The value as JSON.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Scalar::String(s) => serde_json::Value::String(s.clone()),
            Scalar::Integer(i) => serde_json::Value::from(*i),
            Scalar::Number(n) => serde_json::Number::from_f64(*n)
                .map(serde_json::Value::Number)
                .unwrap_or(serde_json::Value::Null),
            Scalar::Boolean(b) => serde_json::Value::Bool(*b),
        }
    }
}

impl Serialize for Scalar {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Scalar::String(v) => s.serialize_str(v),
            Scalar::Integer(v) => s.serialize_i64(*v),
            Scalar::Number(v) => s.serialize_f64(*v),
            Scalar::Boolean(v) => s.serialize_bool(*v),
        }
    }
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Scalar;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string, number or boolean")
            }
            fn visit_bool<E>(self, v: bool) -> Result<Scalar, E> {
                Ok(Scalar::Boolean(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Scalar, E> {
                Ok(Scalar::Integer(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Scalar, E> {
                i64::try_from(v)
                    .map(Scalar::Integer)
                    .map_err(|_| E::custom("integer out of range"))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Scalar, E> {
                Ok(Scalar::Number(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Scalar, E> {
                Ok(Scalar::String(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonSchema for Scalar {
    fn schema_name() -> Cow<'static, str> {
        "Scalar".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": ["string", "number", "integer", "boolean"] })
    }
}

/// How a bound parameter value is rendered: a text template (`"doi:{value}"`,
/// `"chemical_formula_reduced=\"{value|alphabetical}\""`) or an object whose values are
/// text templates (for JSON-body parameters such as NOMAD's `query`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Template {
    /// One text template.
    Text(String),
    /// An object of key -> text template.
    Object(BTreeMap<String, String>),
}

impl Serialize for Template {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Template::Text(t) => s.serialize_str(t),
            Template::Object(m) => m.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Template {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Template;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a template string or a map of key to template string")
            }
            fn visit_str<E>(self, v: &str) -> Result<Template, E> {
                Ok(Template::Text(v.to_string()))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Template, A::Error> {
                let mut out = BTreeMap::new();
                while let Some((k, v)) = map.next_entry::<String, String>()? {
                    out.insert(k, v);
                }
                Ok(Template::Object(out))
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonSchema for Template {
    fn schema_name() -> Cow<'static, str> {
        "Template".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A text template with {value} or {value|transform} placeholders, or an object of key -> text template",
            "anyOf": [
                { "type": "string" },
                { "type": "object", "additionalProperties": { "type": "string" } }
            ]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_types_parse_and_print() {
        assert_eq!(ValueType::parse("number").unwrap(), ValueType::Number);
        let m = ValueType::parse("number[][]").unwrap();
        assert_eq!(m.to_string(), "number[][]");
        assert!(m.is_numeric());
        assert_eq!(
            ValueType::parse("array").unwrap(),
            ValueType::Array(Box::new(ValueType::Any))
        );
        let (msg, help) = ValueType::parse("strng").unwrap_err();
        assert_eq!(msg, "unknown value type `strng`");
        assert_eq!(help.unwrap(), "did you mean `string`?");
    }

    #[test]
    fn did_you_mean_picks_closest() {
        assert_eq!(
            did_you_mean("requierd", ["required", "description"]),
            Some("required")
        );
        assert_eq!(did_you_mean("zzz", ["required"]), None);
    }
}
