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
/// enum value). Keeps the kind it was written as, and a number's spelling when it is not the
/// canonical one.
#[derive(
    Clone, Debug, PartialEq, PartialOrd, rkyv::Archive, rkyv::Serialize, rkyv::Deserialize,
)]
// `Spelled` holds a `Scalar`: the recursive bounds rkyv needs for that.
#[rkyv(serialize_bounds(
    __S: rkyv::ser::Writer + rkyv::ser::Allocator,
    __S::Error: rkyv::rancor::Source,
))]
#[rkyv(deserialize_bounds(__D::Error: rkyv::rancor::Source))]
#[rkyv(bytecheck(bounds(
    __C: rkyv::validation::ArchiveContext,
    __C::Error: rkyv::rancor::Source,
)))]
pub enum Scalar {
    /// A string.
    String(String),
    /// An integer.
    Integer(i64),
    /// A floating-point number.
    Number(f64),
    /// A boolean.
    Boolean(bool),
    /// A number written in a spelling other than its canonical one (`0755`, `0x1F`, `1.10`,
    /// `+5`, `1e3`): the value (an [`Scalar::Integer`] or [`Scalar::Number`]) and the text as
    /// written. Kept so that `diff` sees an edit from `1.10` to `1.1` or from `0x1F` to `31`, and
    /// so that a string-typed parameter is sent the text the author wrote. In an artifact it is
    /// the object `{"number": 493, "as_written": "0755"}`.
    Spelled(#[rkyv(omit_bounds)] Box<Scalar>, String),
}

/// Marker that opens the sequence the loader's reader hands a number with its spelling to
/// [`Scalar`]'s deserializer (never written by a person: it holds a control character).
#[doc(hidden)]
pub const SCALAR_SPELLED: &str = "\u{1f}schemarouter-spelled-number";

/// Name under which [`Scalar`] asks a deserializer for a number's spelling.
#[doc(hidden)]
pub const SCALAR_NAME: &str = "$__schemarouter_scalar";

impl Eq for Scalar {}

impl std::hash::Hash for Scalar {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        match self {
            Scalar::String(s) => (0u8, s).hash(state),
            Scalar::Integer(i) => (1u8, i).hash(state),
            Scalar::Number(n) => (2u8, n.to_bits()).hash(state),
            Scalar::Boolean(b) => (3u8, b).hash(state),
            Scalar::Spelled(v, s) => {
                4u8.hash(state);
                v.hash(state);
                s.hash(state);
            }
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
            Scalar::Spelled(_, s) => f.write_str(s),
        }
    }
}

impl Scalar {
    /// An integer written as `raw` (spelled when `raw` is not the canonical spelling).
    pub fn integer(value: i64, raw: &str) -> Scalar {
        if raw == value.to_string() {
            Scalar::Integer(value)
        } else {
            Scalar::Spelled(Box::new(Scalar::Integer(value)), raw.to_string())
        }
    }

    /// A number written as `raw` (spelled when `raw` is not the canonical spelling).
    pub fn number(value: f64, raw: &str) -> Scalar {
        // Both shortest spellings are canonical: `1` and `1.0` (what serializers write).
        if raw == value.to_string() || raw == format!("{value:?}") {
            Scalar::Number(value)
        } else {
            Scalar::Spelled(Box::new(Scalar::Number(value)), raw.to_string())
        }
    }

    /// The value without its spelling.
    pub fn value(&self) -> &Scalar {
        match self {
            Scalar::Spelled(v, _) => v.value(),
            other => other,
        }
    }

    /// The text as written: a string itself, a number's spelling, `true`/`false`.
    pub fn as_written(&self) -> String {
        self.to_string()
    }

    /// The value as a declaration file must write it to read back as this value: a string that
    /// a YAML or TOML reader would take for another type (`1`, `0755`, `0x1F`, `1.10`, `true`,
    /// `no`, `null`, or empty) in double quotes, anything else as written. For help lines that
    /// show values to copy.
    pub fn as_source(&self) -> String {
        match self {
            Scalar::String(s) if reads_as_other_type(s) => {
                serde_json::Value::String(s.clone()).to_string()
            }
            other => other.to_string(),
        }
    }

    /// The value as JSON (a spelled number gives its value: `0x1F` is `31`).
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Scalar::String(s) => serde_json::Value::String(s.clone()),
            Scalar::Integer(i) => serde_json::Value::from(*i),
            Scalar::Number(n) => serde_json::Number::from_f64(*n)
                .map(serde_json::Value::Number)
                .unwrap_or(serde_json::Value::Null),
            Scalar::Boolean(b) => serde_json::Value::Bool(*b),
            Scalar::Spelled(v, _) => v.to_json(),
        }
    }

    /// The value as JSON with a spelled number shown as written (`{"number": 493,
    /// "as_written": "0755"}`), for change reports.
    pub fn to_json_as_written(&self) -> serde_json::Value {
        match self {
            Scalar::Spelled(v, s) => {
                serde_json::json!({"number": v.to_json(), "as_written": s})
            }
            other => other.to_json(),
        }
    }

    /// Why this value does not fit a parameter of type `ty`, with a help line; `None` when it
    /// fits. Strings fit text types (`string`, `date`, `datetime`); numbers also fit `string`
    /// (they are sent as written); an `integer` takes whole numbers only; a `number` any number;
    /// a `boolean` only `true`/`false`; an array type takes a value that fits its item type (one
    /// item); `any` takes everything and `object` nothing a scalar can be.
    pub fn misfit(&self, ty: &ValueType) -> Option<(String, String)> {
        let v = self.value();
        let shown = match self {
            Scalar::String(s) => format!("the string `{s}`"),
            Scalar::Boolean(b) => format!("the boolean `{b}`"),
            other => format!("the number `{other}`"),
        };
        let bad = |help: String| Some((format!("{shown} is not of type `{ty}`"), help));
        if let Scalar::String(s) = v
            && matches!(ty, ValueType::Integer | ValueType::Number)
            && is_non_finite(s)
        {
            return Some((
                format!("`{}` is not a finite number", s.trim()),
                "write a finite number (in range; not NaN or infinity), or change the parameter's type"
                    .to_string(),
            ));
        }
        match ty {
            ValueType::Any => None,
            ValueType::Array(inner) => self.misfit(inner),
            ValueType::String | ValueType::Date | ValueType::DateTime => match v {
                Scalar::Boolean(b) => bad(format!("quote it (`\"{b}\"`) if you mean the text")),
                _ => None,
            },
            ValueType::Integer => match v {
                Scalar::Integer(_) => None,
                Scalar::Number(n) if n.fract() == 0.0 && n.abs() >= 9.2e18 => bad(format!(
                    "the number is too large for an integer: write a whole number up to {}, or change the parameter's type to `number`",
                    i64::MAX
                )),
                Scalar::Number(n) if n.fract() == 0.0 => {
                    bad(format!("write it as a whole number: `{n}`"))
                }
                Scalar::String(s) if s.trim().parse::<i64>().is_ok() => {
                    bad(format!("write the number without quotes: `{}`", s.trim()))
                }
                _ => bad("write a whole number, or change the parameter's type".to_string()),
            },
            ValueType::Number => match v {
                Scalar::Integer(_) | Scalar::Number(_) => None,
                Scalar::String(s) if s.trim().parse::<f64>().is_ok() => {
                    bad(format!("write the number without quotes: `{}`", s.trim()))
                }
                _ => bad("write a number, or change the parameter's type".to_string()),
            },
            ValueType::Boolean => match v {
                Scalar::Boolean(_) => None,
                Scalar::String(s) => {
                    let l = s.to_ascii_lowercase();
                    let b = match l.as_str() {
                        "y" | "yes" | "on" | "true" | "1" => Some(true),
                        "n" | "no" | "off" | "false" | "0" => Some(false),
                        _ => None,
                    };
                    match b {
                        Some(b) => bad(format!(
                            "a boolean is written `true` or `false`, without quotes: write `{b}`"
                        )),
                        None => bad("write `true` or `false`".to_string()),
                    }
                }
                _ => bad("write `true` or `false`".to_string()),
            },
            ValueType::Object => bad(
                "an object parameter has no scalar default; remove it, or change the type"
                    .to_string(),
            ),
        }
    }

    /// This value as a parameter of type `ty` takes it: itself when it fits
    /// ([`Scalar::misfit`]), a string that spells a value of the type exactly (`"false"` for a
    /// `boolean`, `"1"` for an `integer`, as some OpenAPI documents write defaults), or `None`
    /// when it cannot be read as one. Importers use it so that what they write checks clean.
    pub fn fitted(&self, ty: &ValueType) -> Option<Scalar> {
        if self.misfit(ty).is_none() {
            return Some(self.clone());
        }
        let Scalar::String(s) = self.value() else {
            return None;
        };
        let converted = match ty.element() {
            ValueType::Boolean => match s.as_str() {
                "true" => Some(Scalar::Boolean(true)),
                "false" => Some(Scalar::Boolean(false)),
                _ => None,
            },
            ValueType::Integer => s.parse::<i64>().ok().map(|i| Scalar::integer(i, s)),
            ValueType::Number => s.parse::<f64>().ok().map(|f| Scalar::number(f, s)),
            _ => None,
        };
        converted.filter(|c| c.misfit(ty).is_none())
    }

    /// Whether two values mean the same (numbers compare by value: `1`, `1.0` and `0x1`).
    pub fn same_value(&self, other: &Scalar) -> bool {
        let (a, b) = (self.value(), other.value());
        match (a, b) {
            (Scalar::Integer(x), Scalar::Number(y)) | (Scalar::Number(y), Scalar::Integer(x)) => {
                *x as f64 == *y
            }
            _ => a == b,
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
            Scalar::Spelled(v, raw) => {
                use serde::ser::SerializeMap;
                let mut m = s.serialize_map(Some(2))?;
                m.serialize_entry("number", v.as_ref())?;
                m.serialize_entry("as_written", raw)?;
                m.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
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
            fn visit_newtype_struct<D2: Deserializer<'de>>(
                self,
                d: D2,
            ) -> Result<Scalar, D2::Error> {
                d.deserialize_any(self)
            }
            /// The declaration reader's `[marker, "int"|"float", canonical, as written]`.
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Scalar, A::Error> {
                let bad =
                    || de::Error::custom("expected a string, number or boolean, found a list");
                let marker: String = seq.next_element()?.ok_or_else(bad)?;
                if marker != SCALAR_SPELLED {
                    return Err(bad());
                }
                let kind: String = seq.next_element()?.ok_or_else(bad)?;
                let canonical: String = seq.next_element()?.ok_or_else(bad)?;
                let raw: String = seq.next_element()?.ok_or_else(bad)?;
                match kind.as_str() {
                    "int" => canonical
                        .parse()
                        .map(|i| Scalar::integer(i, &raw))
                        .map_err(|_| bad()),
                    _ => canonical
                        .parse()
                        .map(|f| Scalar::number(f, &raw))
                        .map_err(|_| bad()),
                }
            }
            /// An artifact's `{"number": .., "as_written": ..}`.
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Scalar, A::Error> {
                let mut number: Option<Scalar> = None;
                let mut raw: Option<String> = None;
                while let Some(k) = map.next_key::<String>()? {
                    match k.as_str() {
                        "number" if number.is_some() => {
                            return Err(de::Error::duplicate_field("number"));
                        }
                        "as_written" if raw.is_some() => {
                            return Err(de::Error::duplicate_field("as_written"));
                        }
                        "number" => number = Some(map.next_value()?),
                        "as_written" => raw = Some(map.next_value()?),
                        _ => {
                            return Err(de::Error::custom(
                                "expected a string, number or boolean, found a map",
                            ));
                        }
                    }
                }
                match (number, raw) {
                    (Some(n @ (Scalar::Integer(_) | Scalar::Number(_))), Some(r)) => {
                        Ok(Scalar::Spelled(Box::new(n), r))
                    }
                    _ => Err(de::Error::custom(
                        "expected a string, number or boolean, found a map",
                    )),
                }
            }
        }
        d.deserialize_newtype_struct(SCALAR_NAME, V)
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
#[derive(
    Clone,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
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

/// Whether plain (unquoted) text `s` reads as something other than a string in YAML 1.1/1.2 or
/// TOML: a number in any spelling, a boolean or null word, or nothing at all.
fn reads_as_other_type(s: &str) -> bool {
    let t = s.trim();
    if t.is_empty() || t != s {
        return true;
    }
    let lower = t.to_ascii_lowercase();
    const WORDS: &[&str] = &[
        "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~",
    ];
    if WORDS.contains(&lower.as_str()) {
        return true;
    }
    let digits = lower.trim_start_matches(['+', '-']);
    digits.parse::<f64>().is_ok()
        || ["0x", "0o", "0b"].iter().any(|p| {
            digits.strip_prefix(p).is_some_and(|r| {
                !r.is_empty() && r.chars().all(|c| c.is_ascii_hexdigit() || c == '_')
            })
        })
        || is_non_finite(t)
}

/// Whether `s` spells a number no declaration can carry: NaN, an infinity (`.nan`, `-.inf`,
/// `inf`, `nan`) or a numeral out of `f64` range (`1e999`).
pub fn is_non_finite(s: &str) -> bool {
    let t = s.trim();
    let unsigned = t.trim_start_matches(['+', '-']).to_ascii_lowercase();
    matches!(unsigned.as_str(), ".nan" | ".inf" | "nan" | "inf")
        || t.parse::<f64>().is_ok_and(|f| !f.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_to_copy_is_quoted_where_a_reader_would_take_another_type() {
        let src = |s: &str| Scalar::String(s.to_string()).as_source();
        for (s, want) in [
            ("1", "\"1\""),
            ("0755", "\"0755\""),
            ("0x1F", "\"0x1F\""),
            ("1.10", "\"1.10\""),
            ("-2", "\"-2\""),
            ("true", "\"true\""),
            ("No", "\"No\""),
            ("off", "\"off\""),
            ("null", "\"null\""),
            ("", "\"\""),
            (" a", "\" a\""),
            ("asc", "asc"),
            ("GGA+U", "GGA+U"),
            ("x1", "x1"),
        ] {
            assert_eq!(src(s), want, "{s}");
        }
        assert_eq!(Scalar::Integer(1).as_source(), "1");
    }

    #[test]
    fn a_spelled_number_in_an_artifact_names_a_field_written_twice() {
        let read = |t: &str| serde_json::from_str::<Scalar>(t);
        assert_eq!(
            read(r#"{"number": 493, "as_written": "0755"}"#).unwrap(),
            Scalar::Spelled(Box::new(Scalar::Integer(493)), "0755".into())
        );
        assert_eq!(
            read(r#"{"number": 493, "as_written": "0755", "number": 7}"#)
                .unwrap_err()
                .to_string(),
            "duplicate field `number` at line 1 column 46"
        );
        assert_eq!(
            read(r#"{"as_written": "1", "number": 1, "as_written": "01"}"#)
                .unwrap_err()
                .to_string(),
            "duplicate field `as_written` at line 1 column 45"
        );
    }

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
    fn values_are_checked_against_types() {
        let t = |s: &str| ValueType::parse(s).unwrap();
        let misfit = |v: Scalar, ty: &str| v.misfit(&t(ty)).map(|(m, _)| m);
        assert_eq!(misfit(Scalar::Boolean(true), "boolean"), None);
        assert_eq!(
            misfit(Scalar::String("off".into()), "boolean").unwrap(),
            "the string `off` is not of type `boolean`"
        );
        assert_eq!(
            Scalar::String("off".into())
                .misfit(&t("boolean"))
                .unwrap()
                .1,
            "a boolean is written `true` or `false`, without quotes: write `false`"
        );
        assert!(misfit(Scalar::String("abc".into()), "integer").is_some());
        assert!(misfit(Scalar::Number(1.5), "integer").is_some());
        assert_eq!(misfit(Scalar::Integer(3), "number"), None);
        assert_eq!(misfit(Scalar::Number(1.1), "string"), None);
        assert!(misfit(Scalar::Boolean(false), "string").is_some());
        assert_eq!(misfit(Scalar::Integer(3), "integer[]"), None);
        assert!(misfit(Scalar::String("x".into()), "integer[]").is_some());
        assert!(misfit(Scalar::Integer(1), "object").is_some());
        assert_eq!(misfit(Scalar::Integer(1), "any"), None);
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
