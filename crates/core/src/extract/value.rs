//! Reading one value against its declaration: the declared type, the wire `encoding` (numbers
//! sent as strings), the provider's `missing_value` marker, and the conversion to the canonical
//! unit. Nothing is guessed: a value that does not fit is reported, not coerced.

use super::path::kind;
use crate::units::Conversion;
use serde_json::{Number, Value};

/// What became of one leaf value.
#[derive(Clone, Debug, PartialEq)]
pub enum Leaf {
    /// A value of the declared type (decoded from its wire encoding).
    Value(Value),
    /// `null` or the provider's missing-value marker: the provider has no value.
    NoValue,
    /// The value does not fit the declaration (why).
    Mismatch(String),
}

/// How a field's values travel.
#[derive(Clone, Copy, Debug)]
pub struct Wire<'a> {
    /// Declared type (`number`, `string[]`, ...).
    pub ty: &'a str,
    /// `string` when the provider sends the value as text (COD, PubChem; every XML value).
    pub as_string: bool,
    /// The provider's missing-value marker (`na`).
    pub missing: Option<&'a str>,
}

/// Check and decode one value (at the end of the field's path) against its type.
pub fn read(v: Value, w: Wire<'_>) -> Leaf {
    if v.is_null() {
        return Leaf::NoValue;
    }
    if let (Some(m), Value::String(s)) = (w.missing, &v)
        && s == m
    {
        return Leaf::NoValue;
    }
    read_typed(v, w.ty, w)
}

fn read_typed(v: Value, ty: &str, w: Wire<'_>) -> Leaf {
    if let Some(inner) = ty
        .strip_suffix("[]")
        .or(if ty == "array" { Some("any") } else { None })
    {
        let items: Vec<Value> = match v {
            Value::Array(items) => items,
            // An XML element that occurs once is one value of the declared list.
            other if w.as_string && w.ty == ty => vec![other],
            other => return Leaf::Mismatch(format!("expected {ty}, found {}", kind(&other))),
        };
        let mut out = Vec::with_capacity(items.len());
        for x in items {
            if x.is_null() {
                out.push(Value::Null);
                continue;
            }
            match read_typed(x, inner, w) {
                Leaf::Value(v) => out.push(v),
                Leaf::NoValue => out.push(Value::Null),
                Leaf::Mismatch(m) => return Leaf::Mismatch(m),
            }
        }
        return Leaf::Value(Value::Array(out));
    }
    let text = match &v {
        Value::String(s) if w.as_string && ty != "string" => Some(s.trim()),
        _ => None,
    };
    let ok = match (ty, &v) {
        ("any", _) => true,
        ("string", Value::String(_)) => true,
        ("object", Value::Object(_)) => true,
        ("number", Value::Number(_)) => true,
        ("integer", Value::Number(n)) => n.is_i64() || n.is_u64(),
        ("boolean", Value::Bool(_)) => true,
        ("date", Value::String(s)) => is_date(s),
        ("datetime", Value::String(s)) => is_datetime(s),
        _ => false,
    };
    if ok {
        return Leaf::Value(v);
    }
    if let Some(t) = text {
        let decoded = match ty {
            "number" => t
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .and_then(Number::from_f64)
                .map(|n| match t.parse::<i64>() {
                    Ok(i) => Value::Number(i.into()),
                    Err(_) => Value::Number(n),
                }),
            "integer" => t.parse::<i64>().ok().map(|i| Value::Number(i.into())),
            "boolean" => match t {
                "true" | "Y" => Some(Value::Bool(true)),
                "false" | "N" => Some(Value::Bool(false)),
                _ => None,
            },
            _ => None,
        };
        return match decoded {
            Some(d) => Leaf::Value(d),
            None => Leaf::Mismatch(format!("expected {ty} (sent as a string), found {v}")),
        };
    }
    Leaf::Mismatch(format!("expected {ty}, found {} {}", kind(&v), short(&v)))
}

/// A value's JSON, cut at 60 characters (for messages).
pub fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() <= 60 {
        s
    } else {
        let cut: String = s.chars().take(57).collect();
        format!("{cut}...")
    }
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `YYYY`, `YYYY-MM`, `YYYY-MM-DD` or the ISO 8601 basic form `YYYYMMDD` (Open DART).
pub fn is_date(s: &str) -> bool {
    let p: Vec<&str> = s.split('-').collect();
    match p.as_slice() {
        [y] => (y.len() == 4 || y.len() == 8) && digits(y),
        [y, m] => y.len() == 4 && digits(y) && m.len() == 2 && digits(m),
        [y, m, d] => {
            y.len() == 4 && digits(y) && m.len() == 2 && digits(m) && d.len() == 2 && digits(d)
        }
        _ => false,
    }
}

/// A date, then `T` or a space, then `HH:MM` and anything after it (seconds, zone).
pub fn is_datetime(s: &str) -> bool {
    let Some((d, t)) = s.split_once(['T', ' ']) else {
        return false;
    };
    let b = t.as_bytes();
    d.len() == 10
        && is_date(d)
        && b.len() >= 5
        && b[2] == b':'
        && digits(&t[..2])
        && digits(&t[3..5])
}

/// Convert every number in `v` (`x × factor + offset`; arrays at any depth; `null` stays
/// `null`). An offset applies to each value as an absolute temperature.
pub fn convert(v: &Value, c: &Conversion) -> Value {
    match v {
        Value::Number(n) => n
            .as_f64()
            .map(|x| round_sig(x * c.factor + c.offset))
            .and_then(Number::from_f64)
            .map(Value::Number)
            .unwrap_or(Value::Null),
        Value::Array(a) => Value::Array(a.iter().map(|x| convert(x, c)).collect()),
        other => other.clone(),
    }
}

/// Round to 6 significant digits (drops the binary noise of a factor multiplication; providers
/// publish fewer digits than that).
pub fn round_sig(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let s = format!("{x:.5e}");
    s.parse().unwrap_or(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn w(ty: &str) -> Wire<'_> {
        Wire {
            ty,
            as_string: false,
            missing: None,
        }
    }

    #[test]
    fn types_encodings_and_markers() {
        assert_eq!(read(json!(1.5), w("number")), Leaf::Value(json!(1.5)));
        assert_eq!(
            read(json!(1.5), w("integer")),
            Leaf::Mismatch("expected integer, found number 1.5".into())
        );
        assert_eq!(read(json!(null), w("number")), Leaf::NoValue);
        let s = Wire {
            ty: "number",
            as_string: true,
            missing: Some("na"),
        };
        assert_eq!(read(json!("5.4307"), s), Leaf::Value(json!(5.4307)));
        assert_eq!(read(json!("12"), s), Leaf::Value(json!(12)));
        assert_eq!(read(json!("na"), s), Leaf::NoValue);
        assert_eq!(
            read(json!("5.43(2)"), s),
            Leaf::Mismatch("expected number (sent as a string), found \"5.43(2)\"".into())
        );
        let b = Wire {
            ty: "boolean",
            as_string: true,
            missing: None,
        };
        assert_eq!(read(json!("Y"), b), Leaf::Value(json!(true)));
        assert_eq!(
            read(json!([[1, 2], [3]]), w("integer[][]")),
            Leaf::Value(json!([[1, 2], [3]]))
        );
        assert_eq!(
            read(json!(["a", 1]), w("string[]")),
            Leaf::Mismatch("expected string, found number 1".into())
        );
        let x = Wire {
            ty: "string[]",
            as_string: true,
            missing: None,
        };
        assert_eq!(read(json!("cond-mat"), x), Leaf::Value(json!(["cond-mat"])));
        assert_eq!(
            read(json!("2024-01-31"), w("date")),
            Leaf::Value(json!("2024-01-31"))
        );
        assert!(matches!(
            read(json!("31/01/2024"), w("date")),
            Leaf::Mismatch(_)
        ));
        assert!(is_datetime("2023-05-04T17:59:59Z"));
        assert!(!is_datetime("2023-05-04"));
        assert!(is_date("20240312"));
    }

    #[test]
    fn converts_with_six_significant_digits() {
        assert_eq!(
            convert(
                &json!([1.0e-19, null]),
                &Conversion {
                    factor: 6.241509074460763e18,
                    offset: 0.0
                }
            ),
            json!([0.624151, null])
        );
    }

    #[test]
    fn converts_offset_scales_as_absolute_temperatures() {
        let c_to_k = Conversion {
            factor: 1.0,
            offset: 273.15,
        };
        assert_eq!(
            convert(&json!([25, -273.15, [0.0]]), &c_to_k),
            json!([298.15, 0.0, [273.15]])
        );
        let c_to_f = Conversion {
            factor: 1.8,
            offset: 32.0,
        };
        assert_eq!(convert(&json!(100), &c_to_f), json!(212.0));
    }
}
