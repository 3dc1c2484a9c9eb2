//! A serde `Deserializer` over the spanned [`Node`] tree: typed model values are read strictly
//! (a boolean field takes only `true`/`false`, a string field keeps `no` and `1.10` as written),
//! every error carries the span of the node at fault, unknown keys get a "did you mean", and
//! [`crate::model::Sp`] values receive their spans.

use super::node::{Key, Node, NodeKind};
use crate::model::spanned::{SPANNED_END, SPANNED_NAME, SPANNED_START, SPANNED_VALUE};
use crate::model::value::{HELP_SEP, SCALAR_NAME, SCALAR_SPELLED, did_you_mean};
use crate::source::Span;
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, IntoDeserializer, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};
use std::fmt;

/// What went wrong while reading a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeErrorKind {
    /// A key the declaration kind does not have.
    UnknownKey,
    /// A required key is absent.
    MissingKey,
    /// A value of the wrong type or out of range.
    InvalidValue,
}

/// A deserialisation error with the span of the offending node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeError {
    /// Kind of error.
    pub kind: DeErrorKind,
    /// Message.
    pub message: String,
    /// Help line.
    pub help: Option<String>,
    /// Where (set by the innermost node that knows).
    pub span: Option<Span>,
}

impl DeError {
    /// The error for a map that lacks the required key `field` (span unset).
    pub fn missing_key(field: &str) -> DeError {
        DeError::new(
            DeErrorKind::MissingKey,
            format!("missing required key `{field}`"),
            Some(format!("add `{field}` to this map")),
        )
    }

    fn new(kind: DeErrorKind, message: impl Into<String>, help: Option<String>) -> DeError {
        DeError {
            kind,
            message: message.into(),
            help,
            span: None,
        }
    }

    fn at(mut self, span: Span) -> DeError {
        if self.span.is_none() {
            self.span = Some(span);
        }
        self
    }
}

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        let s = msg.to_string();
        match s.split_once(HELP_SEP) {
            Some((m, h)) => DeError::new(DeErrorKind::InvalidValue, m, Some(h.to_string())),
            None => DeError::new(DeErrorKind::InvalidValue, s, None),
        }
    }

    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        let help = match did_you_mean(field, expected.iter().copied()) {
            Some(c) => format!("did you mean `{c}`?"),
            None if expected.is_empty() => "this map takes no keys".to_string(),
            None => format!("expected one of: {}", expected.join(", ")),
        };
        DeError::new(
            DeErrorKind::UnknownKey,
            format!("unknown key `{field}`"),
            Some(help),
        )
    }

    fn missing_field(field: &'static str) -> Self {
        DeError::missing_key(field)
    }

    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Self {
        let help = match did_you_mean(variant, expected.iter().copied()) {
            Some(c) => format!("did you mean `{c}`?"),
            None => format!("expected one of: {}", expected.join(", ")),
        };
        DeError::new(
            DeErrorKind::InvalidValue,
            format!("unknown value `{variant}`"),
            Some(help),
        )
    }
}

thread_local! {
    /// Spans of strings read into string fields that spell a YAML 1.1 boolean, while
    /// [`noting_yaml11_booleans`] runs on this thread.
    static YAML11_STRINGS: std::cell::RefCell<Option<Vec<Span>>> =
        const { std::cell::RefCell::new(None) };
}

/// Note a string read into a string field (or a parameter value) when it spells a YAML 1.1
/// boolean.
fn note_string(s: &str, span: Span) {
    // The spellings are 1 to 3 bytes long: longer strings (nearly all) are not compared.
    if s.len() <= 3 && YAML11_BOOLS.contains(&s) {
        YAML11_STRINGS.with(|n| {
            if let Some(spans) = n.borrow_mut().as_mut() {
                spans.push(span);
            }
        });
    }
}

/// Run `read` (which reads typed values with [`from_node`]) and return, with its result, the
/// spans of the strings it read into string fields or parameter values that spell a YAML 1.1
/// boolean (`yes`, `Off`, `n`, ...), in reading order, each once. Whether a value was written
/// unquoted is the caller's to check against the source text.
pub fn noting_yaml11_booleans<R>(read: impl FnOnce() -> R) -> (R, Vec<Span>) {
    let outer = YAML11_STRINGS.with(|n| n.borrow_mut().replace(Vec::new()));
    let r = read();
    let mut spans = YAML11_STRINGS
        .with(|n| std::mem::replace(&mut *n.borrow_mut(), outer))
        .unwrap_or_default();
    let mut seen = std::collections::HashSet::new();
    spans.retain(|s| seen.insert(*s));
    (r, spans)
}

/// Read a typed value from a node.
pub fn from_node<'de, T: serde::Deserialize<'de>>(node: &'de Node) -> Result<T, DeError> {
    T::deserialize(NodeDe { node, root: true })
}

struct NodeDe<'a> {
    node: &'a Node,
    /// The file's top node (a bare value there is no map's first key written alone).
    root: bool,
}

const YAML11_BOOLS: &[&str] = &[
    "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off",
    "OFF",
];

impl<'a> NodeDe<'a> {
    fn mismatch(&self, expected: &str) -> DeError {
        let mut help = None;
        if let NodeKind::Str(s) = &self.node.kind
            && expected.starts_with("a boolean")
            && YAML11_BOOLS.contains(&s.as_str())
        {
            let b = matches!(s.to_ascii_lowercase().as_str(), "y" | "yes" | "on");
            help = Some(format!(
                "`{s}` is a string here: a boolean is written `true` or `false`, without quotes; write `{b}`"
            ));
        }
        if let NodeKind::Bool(b) = &self.node.kind
            && expected.starts_with("a string")
        {
            help = Some(format!("quote it (`\"{b}\"`) if you mean the text"));
        }
        if matches!(self.node.kind, NodeKind::Null) && expected.starts_with("a string") {
            help = Some("write a value, or remove the key".to_string());
        }
        if help.is_none() {
            help = mismatch_help(&self.node.kind, expected);
        }
        DeError::new(
            DeErrorKind::InvalidValue,
            format!("expected {expected}, found {}", self.node.describe()),
            help,
        )
        .at(self.node.span)
    }

    fn int(&self) -> Result<i64, DeError> {
        match &self.node.kind {
            NodeKind::Int(i, _) => Ok(*i),
            _ => Err(self.mismatch("an integer")),
        }
    }
}

/// The help line for a value of the wrong kind when no more specific one applies: how to write
/// what was expected, using the value that was written when it can be reused.
fn mismatch_help(found: &NodeKind, expected: &str) -> Option<String> {
    if let NodeKind::Str(s) = found
        && (expected.starts_with("an integer") || expected.starts_with("a number"))
        && crate::model::value::is_non_finite(s)
    {
        return Some(format!(
            "`{}` is not a finite number: write a finite number (in range; not NaN or infinity)",
            s.trim()
        ));
    }
    let help = if expected.starts_with("an integer") {
        match found {
            NodeKind::Str(s) if s.trim().parse::<i64>().is_ok() => {
                format!("write the number without quotes: `{}`", s.trim())
            }
            NodeKind::Float(f, _) if f.fract() == 0.0 && f.abs() < 9.0e18 => {
                format!(
                    "write a whole number (no decimal point, exponent or `!!float` tag): `{}`",
                    *f as i64
                )
            }
            NodeKind::Float(_, raw)
                if raw
                    .trim_start_matches(['-', '+'])
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == '_') =>
            {
                format!(
                    "the number is too large: write a whole number up to {}",
                    i64::MAX
                )
            }
            _ => "write a whole number, e.g. `10`".to_string(),
        }
    } else if expected.starts_with("a number") {
        match found {
            NodeKind::Str(s) if s.trim().parse::<f64>().is_ok() => {
                format!("write the number without quotes: `{}`", s.trim())
            }
            _ => "write a number, e.g. `1.5`".to_string(),
        }
    } else if expected.starts_with("a boolean") {
        "write `true` or `false`".to_string()
    } else if expected.starts_with("a list") {
        match found {
            NodeKind::Str(s) if !s.trim().is_empty() && !s.contains(['\n', '[', ']']) => {
                format!(
                    "write a list, even of one item: `[{}]`, or one `- item` per line",
                    s.trim()
                )
            }
            _ => "write a list: `[a, b]`, or one `- item` per line".to_string(),
        }
    } else if expected.starts_with("a string") {
        match found {
            NodeKind::Seq(_) | NodeKind::Map(_) => {
                "write a single value; quote it (`\"...\"`) if it starts with `[` or `{` or holds `: `"
                    .to_string()
            }
            _ => return None,
        }
    } else if expected.starts_with("a map") {
        "write a map: one `key: value` per line (TOML: a table)".to_string()
    } else {
        return None;
    };
    Some(help)
}

macro_rules! signed {
    ($name:ident, $visit:ident, $t:ty) => {
        fn $name<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
            let i = self.int()?;
            let n = <$t>::try_from(i).map_err(|_| {
                DeError::new(
                    DeErrorKind::InvalidValue,
                    format!("integer {i} is out of range"),
                    // Values are read as i64 first: that bounds the u64 range too.
                    Some(format!(
                        "write a whole number from {} to {}",
                        <$t>::MIN,
                        (<$t>::MAX as i128).min(i64::MAX as i128)
                    )),
                )
                .at(self.node.span)
            })?;
            v.$visit(n).map_err(|e: DeError| e.at(self.node.span))
        }
    };
}

impl<'de> Deserializer<'de> for NodeDe<'de> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        let span = self.node.span;
        let r = match &self.node.kind {
            NodeKind::Null => v.visit_unit(),
            NodeKind::Bool(b) => v.visit_bool(*b),
            NodeKind::Int(i, _) => v.visit_i64(*i),
            NodeKind::Float(f, _) => v.visit_f64(*f),
            NodeKind::Str(s) => v.visit_str(s),
            NodeKind::Seq(items) => v.visit_seq(SeqDe { iter: items.iter() }),
            NodeKind::Map(entries) => v.visit_map(MapDe {
                iter: entries.iter(),
                value: None,
            }),
        };
        r.map_err(|e: DeError| e.at(span))
    }

    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        match &self.node.kind {
            NodeKind::Bool(b) => v.visit_bool(*b).map_err(|e: DeError| e.at(self.node.span)),
            _ => Err(self.mismatch("a boolean (true or false)")),
        }
    }

    signed!(deserialize_i8, visit_i8, i8);
    signed!(deserialize_i16, visit_i16, i16);
    signed!(deserialize_i32, visit_i32, i32);
    signed!(deserialize_i64, visit_i64, i64);
    signed!(deserialize_u8, visit_u8, u8);
    signed!(deserialize_u16, visit_u16, u16);
    signed!(deserialize_u32, visit_u32, u32);
    signed!(deserialize_u64, visit_u64, u64);

    fn deserialize_f32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.deserialize_f64(v)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        let f = match &self.node.kind {
            NodeKind::Int(i, _) => *i as f64,
            NodeKind::Float(f, _) => *f,
            _ => return Err(self.mismatch("a number")),
        };
        v.visit_f64(f).map_err(|e: DeError| e.at(self.node.span))
    }

    fn deserialize_char<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.deserialize_str(v)
    }

    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        let r = match &self.node.kind {
            NodeKind::Str(s) => {
                note_string(s, self.node.span);
                v.visit_str(s)
            }
            // Numbers in string fields keep their spelling (`1.10`, `007`).
            NodeKind::Int(_, raw) | NodeKind::Float(_, raw) => v.visit_str(raw),
            _ => return Err(self.mismatch("a string")),
        };
        r.map_err(|e: DeError| e.at(self.node.span))
    }

    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.deserialize_str(v)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.deserialize_str(v)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.deserialize_str(v)
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        match &self.node.kind {
            NodeKind::Null => v.visit_none(),
            _ => v.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        match &self.node.kind {
            NodeKind::Null => v.visit_unit(),
            _ => Err(self.mismatch("null")),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_unit(v)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value, DeError> {
        if name == SCALAR_NAME {
            // A scalar value keeps a number's spelling (`0755`, `1.10`).
            let parts = match &self.node.kind {
                NodeKind::Int(i, raw) => Some(("int", i.to_string(), raw)),
                NodeKind::Float(f, raw) => Some(("float", f.to_string(), raw)),
                _ => None,
            };
            if let Some((kind, canonical, raw)) = parts {
                let items = vec![
                    SCALAR_SPELLED.to_string(),
                    kind.to_string(),
                    canonical,
                    raw.clone(),
                ];
                return v
                    .visit_seq(de::value::SeqDeserializer::new(items.into_iter()))
                    .map_err(|e: DeError| e.at(self.node.span));
            }
            if let NodeKind::Str(s) = &self.node.kind {
                note_string(s, self.node.span);
            }
            return self.deserialize_any(v);
        }
        v.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        match &self.node.kind {
            NodeKind::Seq(items) => v
                .visit_seq(SeqDe { iter: items.iter() })
                .map_err(|e: DeError| e.at(self.node.span)),
            _ => Err(self.mismatch("a list")),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value, DeError> {
        self.deserialize_seq(v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        v: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_seq(v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        match &self.node.kind {
            NodeKind::Map(entries) => v
                .visit_map(MapDe {
                    iter: entries.iter(),
                    value: None,
                })
                .map_err(|e: DeError| e.at(self.node.span)),
            _ => Err(self.mismatch("a map")),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, DeError> {
        if name == SPANNED_NAME {
            return v.visit_map(SpannedDe {
                node: self.node,
                state: 0,
            });
        }
        match &self.node.kind {
            NodeKind::Map(entries) => v
                .visit_map(MapDe {
                    iter: entries.iter(),
                    value: None,
                })
                .map_err(|e: DeError| e.at(self.node.span)),
            _ => {
                let mut e = self.mismatch("a map");
                if !fields.is_empty() {
                    // A bare value where a map is expected is most often the map's first key
                    // written alone (`bind: [formula]` for `bind: [{concept: formula}]`).
                    e.help = Some(match &self.node.kind {
                        _ if self.root => format!(
                            "a declaration file is a map with the keys {}",
                            fields.join(", ")
                        ),
                        NodeKind::Str(s)
                            if !s.trim().is_empty() && !s.contains(['\n', '{', '}', ':']) =>
                        {
                            format!(
                                "write a map with keys {}: `{{{}: {}}}`",
                                fields.join(", "),
                                fields[0],
                                s.trim()
                            )
                        }
                        _ => format!("expected a map with keys: {}", fields.join(", ")),
                    });
                }
                Err(e)
            }
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, DeError> {
        match &self.node.kind {
            NodeKind::Str(s) => v
                .visit_enum(UnitEnum { text: s })
                .map_err(|e: DeError| e.at(self.node.span)),
            _ => {
                let mut e = self.mismatch("one of the allowed values");
                e.help = Some(format!("expected one of: {}", variants.join(", ")));
                Err(e)
            }
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.deserialize_str(v)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        v.visit_unit()
    }
}

struct SeqDe<'a> {
    iter: std::slice::Iter<'a, Node>,
}

impl<'de> SeqAccess<'de> for SeqDe<'de> {
    type Error = DeError;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        match self.iter.next() {
            Some(node) => seed
                .deserialize(NodeDe { node, root: false })
                .map(Some)
                .map_err(|e: DeError| e.at(node.span)),
            None => Ok(None),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

struct MapDe<'a> {
    iter: std::slice::Iter<'a, (Key, Node)>,
    value: Option<&'a Node>,
}

impl<'de> MapAccess<'de> for MapDe<'de> {
    type Error = DeError;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        match self.iter.next() {
            Some((key, value)) => {
                self.value = Some(value);
                seed.deserialize(KeyDe { key })
                    .map(Some)
                    .map_err(|e: DeError| e.at(key.span))
            }
            None => Ok(None),
        }
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        let node = self
            .value
            .take()
            .ok_or_else(|| <DeError as de::Error>::custom("value requested before key"))?;
        seed.deserialize(NodeDe { node, root: false })
            .map_err(|e: DeError| e.at(node.span))
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

struct KeyDe<'a> {
    key: &'a Key,
}

impl<'de> Deserializer<'de> for KeyDe<'de> {
    type Error = DeError;
    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        v.visit_str(&self.key.text)
            .map_err(|e: DeError| e.at(self.key.span))
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value, DeError> {
        v.visit_newtype_struct(self)
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, DeError> {
        if name == SPANNED_NAME {
            self.text_key()?;
            let node = Node {
                kind: NodeKind::Str(self.key.text.clone()),
                span: self.key.span,
            };
            // Keys are short-lived: deserialise the span wrapper from an owned node.
            let r: Result<V::Value, DeError> = v.visit_map(OwnedSpannedDe { node, state: 0 });
            return r;
        }
        Err(
            DeError::new(DeErrorKind::InvalidValue, "a map key cannot be a map", None)
                .at(self.key.span),
        )
    }
    // A map whose keys are free text (languages, parameter names, qualifiers) takes only keys
    // written as text; a struct's field names (identifiers) report an unknown key instead.
    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.text_key()?;
        self.deserialize_any(v)
    }
    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        self.text_key()?;
        self.deserialize_any(v)
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char
        bytes byte_buf option unit unit_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}

impl KeyDe<'_> {
    /// An error unless the key is written as text (a YAML key `1`, `true`, `null` or `[a]`
    /// would otherwise become the text `1`, `true`, `null` or `<complex key>`).
    fn text_key(&self) -> Result<(), DeError> {
        if self.key.string {
            return Ok(());
        }
        let text = &self.key.text;
        let (message, help) = if text == "<complex key>" {
            (
                "a key here must be text, not a list or map".to_string(),
                "write the key as text".to_string(),
            )
        } else {
            let what = match text.as_str() {
                "null" => "null",
                "true" | "false" => "a boolean",
                _ => "a number",
            };
            (
                format!("a key here must be text, but `{text}` is read as {what}"),
                format!("quote the key (`\"{text}\"`) if you mean the text"),
            )
        };
        Err(DeError::new(DeErrorKind::InvalidValue, message, Some(help)).at(self.key.span))
    }
}

struct UnitEnum<'a> {
    text: &'a str,
}

impl<'de> EnumAccess<'de> for UnitEnum<'de> {
    type Error = DeError;
    type Variant = UnitOnly;
    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, UnitOnly), DeError> {
        let de: de::value::StrDeserializer<'_, DeError> = self.text.into_deserializer();
        Ok((seed.deserialize(de)?, UnitOnly))
    }
}

struct UnitOnly;

impl<'de> VariantAccess<'de> for UnitOnly {
    type Error = DeError;
    fn unit_variant(self) -> Result<(), DeError> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value, DeError> {
        Err(<DeError as de::Error>::custom("expected a plain value"))
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _v: V) -> Result<V::Value, DeError> {
        Err(<DeError as de::Error>::custom("expected a plain value"))
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _v: V,
    ) -> Result<V::Value, DeError> {
        Err(<DeError as de::Error>::custom("expected a plain value"))
    }
}

/// Hands `Sp<T>` its start, end and value.
struct SpannedDe<'a> {
    node: &'a Node,
    state: u8,
}

impl<'de> MapAccess<'de> for SpannedDe<'de> {
    type Error = DeError;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        let key = match self.state {
            0 => SPANNED_START,
            1 => SPANNED_END,
            2 => SPANNED_VALUE,
            _ => return Ok(None),
        };
        seed.deserialize(key.into_deserializer()).map(Some)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        let state = self.state;
        self.state += 1;
        // A value's span is the one findings about it point at (a block mapping's first key).
        let span = self.node.finding_span();
        match state {
            0 => seed.deserialize((span.start as u64).into_deserializer()),
            1 => seed.deserialize((span.end as u64).into_deserializer()),
            _ => seed.deserialize(NodeDe {
                node: self.node,
                root: false,
            }),
        }
    }
}

/// Like [`SpannedDe`] for map keys (an owned string node).
struct OwnedSpannedDe {
    node: Node,
    state: u8,
}

impl<'de> MapAccess<'de> for OwnedSpannedDe {
    type Error = DeError;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        let key = match self.state {
            0 => SPANNED_START,
            1 => SPANNED_END,
            2 => SPANNED_VALUE,
            _ => return Ok(None),
        };
        seed.deserialize(key.into_deserializer()).map(Some)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        let state = self.state;
        self.state += 1;
        match state {
            0 => seed.deserialize((self.node.span.start as u64).into_deserializer()),
            1 => seed.deserialize((self.node.span.end as u64).into_deserializer()),
            _ => match &self.node.kind {
                NodeKind::Str(s) => seed.deserialize(s.clone().into_deserializer()),
                _ => Err(<DeError as de::Error>::custom("expected a string key")),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Licence, Sp, Tool};

    fn yaml(text: &str) -> Node {
        crate::load::yaml::parse(text, &Default::default()).unwrap()
    }

    #[test]
    fn spans_reach_sp_values() {
        let n = yaml("spdx: CC-BY-4.0\nverified: false\n");
        let l: Licence = from_node(&n).unwrap();
        assert_eq!(l.spdx.value, "CC-BY-4.0");
        assert_eq!(l.spdx.span, Span::new(6, 15));
        assert!(!l.verified.unwrap().value);
    }

    #[test]
    fn yaml11_booleans_are_not_booleans() {
        let n = yaml("spdx: x\nverified: no\n");
        let e = from_node::<Licence>(&n).unwrap_err();
        assert_eq!(
            e.message,
            "expected a boolean (true or false), found the string `no`"
        );
        assert_eq!(e.span, Some(Span::new(18, 20)));
        assert_eq!(
            e.help.as_deref(),
            Some(
                "`no` is a string here: a boolean is written `true` or `false`, without quotes; write `false`"
            )
        );
    }

    #[test]
    fn string_fields_keep_no_and_numbers_as_written() {
        let n = yaml("spdx: no\nwording: 1.10\nurl: 007\n");
        let l: Licence = from_node(&n).unwrap();
        assert_eq!(l.spdx.value, "no");
        assert_eq!(l.wording.unwrap().value, "1.10");
        assert_eq!(l.url.unwrap().value, "007");
    }

    #[test]
    fn unknown_keys_suggest() {
        let n = yaml("spdx: x\nverifed: true\n");
        let e = from_node::<Licence>(&n).unwrap_err();
        assert_eq!(e.kind, DeErrorKind::UnknownKey);
        assert_eq!(e.message, "unknown key `verifed`");
        assert_eq!(e.help.as_deref(), Some("did you mean `verified`?"));
        assert_eq!(e.span, Some(Span::new(8, 15)));
    }

    #[test]
    fn missing_keys_are_named() {
        let n = yaml("wording: x\n");
        let e = from_node::<Licence>(&n).unwrap_err();
        assert_eq!(e.kind, DeErrorKind::MissingKey);
        assert_eq!(e.message, "missing required key `spdx`");
    }

    #[test]
    fn map_keys_can_be_spanned() {
        let n = yaml("a: 1\n");
        let m: std::collections::BTreeMap<Sp<String>, i64> = from_node(&n).unwrap();
        let (k, v) = m.into_iter().next().unwrap();
        assert_eq!((k.value.as_str(), k.span, v), ("a", Span::new(0, 1), 1));
    }

    #[test]
    fn wrong_kinds_get_a_help_line() {
        let help = |text: &str| {
            let e = from_node::<Tool>(&yaml(text)).unwrap_err();
            (e.message, e.help.unwrap_or_default())
        };
        let tool = |priority: &str| {
            format!("id: t\ntitle: T\ndomain: d\npriority: {priority}\nendpoints: []\n")
        };
        assert_eq!(
            help(&tool("high")),
            (
                "expected an integer, found the string `high`".into(),
                "write a whole number, e.g. `10`".into()
            )
        );
        assert_eq!(
            help(&tool("\"90\"")).1,
            "write the number without quotes: `90`"
        );
        assert_eq!(
            help(&tool("2.0")).1,
            "write a whole number (no decimal point, exponent or `!!float` tag): `2`"
        );
        assert_eq!(
            help(&tool("99999999999999999999999")).1,
            "the number is too large: write a whole number up to 9223372036854775807"
        );
        assert_eq!(
            help("id: t\ntitle: [a, b]\ndomain: d\nendpoints: []\n").1,
            "write a single value; quote it (`\"...\"`) if it starts with `[` or `{` or holds `: `"
        );
        assert_eq!(
            help("id: t\ntitle: T\ndomain: d\nendpoints: 5\n").1,
            "write a list: `[a, b]`, or one `- item` per line"
        );
        assert_eq!(
            help("id: t\ntitle: T\ndomain: d\nendpoints: []\nnames: alpha\n").1,
            "write a list, even of one item: `[alpha]`, or one `- item` per line"
        );
    }

    #[test]
    fn out_of_range_integers_name_the_range() {
        let n = yaml("a: -1\n");
        let e = from_node::<std::collections::BTreeMap<String, u32>>(&n).unwrap_err();
        assert_eq!(e.message, "integer -1 is out of range");
        assert_eq!(
            e.help.as_deref(),
            Some("write a whole number from 0 to 4294967295")
        );
        let n = yaml("a: -1\n");
        let e = from_node::<std::collections::BTreeMap<String, u64>>(&n).unwrap_err();
        assert_eq!(
            e.help.as_deref(),
            Some("write a whole number from 0 to 9223372036854775807")
        );
    }

    #[test]
    fn enum_values_suggest() {
        let n = yaml(
            "id: t\ntitle: T\ndomain: d\nendpoints:\n  - id: e\n    method: GTE\n    url: u\n",
        );
        let e = from_node::<Tool>(&n).unwrap_err();
        assert_eq!(e.message, "unknown value `GTE`");
        assert_eq!(e.help.as_deref(), Some("did you mean `GET`?"));
    }

    fn read_scalar(yaml: &str) -> crate::model::value::Scalar {
        let node = crate::load::parse_text(
            yaml,
            crate::source::Format::Yaml,
            &crate::model::config::Limits::default(),
        )
        .unwrap();
        crate::load::de::from_node::<crate::model::value::Scalar>(&node).unwrap()
    }

    #[test]
    fn numbers_keep_a_spelling_that_is_not_canonical() {
        assert_eq!(read_scalar("10"), crate::model::value::Scalar::Integer(10));
        assert_eq!(read_scalar("1.5"), crate::model::value::Scalar::Number(1.5));
        assert_eq!(
            read_scalar("abc"),
            crate::model::value::Scalar::String("abc".into())
        );
        assert_eq!(
            read_scalar("true"),
            crate::model::value::Scalar::Boolean(true)
        );
        let spelled = read_scalar("1.10");
        assert_eq!(
            spelled,
            crate::model::value::Scalar::Spelled(
                Box::new(crate::model::value::Scalar::Number(1.1)),
                "1.10".into()
            )
        );
        assert_ne!(spelled, read_scalar("1.1"));
        assert!(spelled.same_value(&read_scalar("1.1")));
        let hex = read_scalar("0x1F");
        assert_eq!(hex.to_string(), "0x1F");
        assert_eq!(hex.to_json(), serde_json::json!(31));
        assert_ne!(hex, read_scalar("31"));
        assert_eq!(read_scalar("0755").to_string(), "0755");
        // The artifact form reads back to the same value.
        let json = serde_json::to_string(&hex).unwrap();
        assert_eq!(json, r#"{"number":31,"as_written":"0x1F"}"#);
        assert_eq!(
            serde_json::from_str::<crate::model::value::Scalar>(&json).unwrap(),
            hex
        );
        assert_eq!(
            serde_json::from_str::<crate::model::value::Scalar>("31").unwrap(),
            crate::model::value::Scalar::Integer(31)
        );
        // A list is not a scalar, whatever it holds.
        let node = crate::load::parse_text(
            "[a, b]",
            crate::source::Format::Yaml,
            &crate::model::config::Limits::default(),
        )
        .unwrap();
        assert!(crate::load::de::from_node::<crate::model::value::Scalar>(&node).is_err());
    }
}
