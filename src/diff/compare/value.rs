//! Value-level comparisons: type compatibility, unit changes, JSON helpers.

use crate::model::ValueType;
use crate::units::{UnitTable, conversion};
use serde::Serialize;
use serde_json::Value;

/// `a` ⊆ `b`: every value of type `a` is a value of type `b` (`integer` ⊆ `number`, `date` and
/// `datetime` ⊆ `string`, anything ⊆ `any`, element-wise for arrays).
pub fn is_subtype(a: &ValueType, b: &ValueType) -> bool {
    use ValueType::*;
    match (a, b) {
        _ if a == b => true,
        (_, Any) => true,
        (Integer, Number) => true,
        (Date | DateTime, String) => true,
        (Array(x), Array(y)) => is_subtype(x, y),
        _ => false,
    }
}

/// How a new type relates to the old one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeRelation {
    /// Same type.
    Same,
    /// The new type accepts fewer values.
    Narrower,
    /// The new type accepts more values.
    Wider,
    /// Neither contains the other.
    Unrelated,
}

/// Relation of `new` to `old` (type spellings as in the artifact).
pub fn type_relation(old: &str, new: &str) -> TypeRelation {
    let (Ok(o), Ok(n)) = (ValueType::parse(old), ValueType::parse(new)) else {
        return if old == new {
            TypeRelation::Same
        } else {
            TypeRelation::Unrelated
        };
    };
    if o == n {
        TypeRelation::Same
    } else if is_subtype(&n, &o) {
        TypeRelation::Narrower
    } else if is_subtype(&o, &n) {
        TypeRelation::Wider
    } else {
        TypeRelation::Unrelated
    }
}

/// A unit as the artifact records it: canonical spelling and the dimension's human form.
#[derive(Clone, Copy, Debug)]
pub struct UnitRef<'a> {
    /// Canonical spelling (`eV/atom`).
    pub canonical: &'a str,
    /// Dimension, human form (`energy per atom`), when known.
    pub dimension: Option<&'a str>,
}

/// What happened to a unit that is declared on both sides.
#[derive(Clone, Debug, PartialEq)]
pub enum UnitChange {
    /// Another dimension or count basis.
    Dimension,
    /// Same dimension; values rescale (new = old × factor; `None` when the factor is unknown
    /// because a unit does not parse, e.g. a project unit read back from an artifact).
    Rescaled(Option<f64>),
    /// Same dimension, another offset temperature scale: new = old × factor + offset (°C → K:
    /// × 1 + 273.15).
    Shifted(crate::units::Conversion),
    /// Same unit, spelled differently.
    Respelled,
}

/// Compare two declared units; `None` when they are the same.
pub fn unit_change(
    old: UnitRef,
    old_units: &UnitTable,
    new: UnitRef,
    new_units: &UnitTable,
) -> Option<UnitChange> {
    if old.canonical == new.canonical {
        return None;
    }
    match (
        old_units.parse(old.canonical),
        new_units.parse(new.canonical),
    ) {
        (Ok(o), Ok(n)) => {
            if o.dim != n.dim {
                return Some(UnitChange::Dimension);
            }
            match conversion(&o, &n) {
                Some(c) if c.offset != 0.0 => Some(UnitChange::Shifted(c)),
                Some(c) if (c.factor - 1.0).abs() <= 1e-12 => Some(UnitChange::Respelled),
                Some(c) => Some(UnitChange::Rescaled(Some(c.factor))),
                None => Some(UnitChange::Rescaled(None)),
            }
        }
        _ => {
            if old.dimension != new.dimension {
                Some(UnitChange::Dimension)
            } else {
                Some(UnitChange::Rescaled(None))
            }
        }
    }
}

/// A value as JSON (`None` for JSON null).
pub fn json<T: Serialize>(v: T) -> Option<Value> {
    match serde_json::to_value(v) {
        Ok(Value::Null) | Err(_) => None,
        Ok(v) => Some(v),
    }
}

/// A string as JSON.
pub fn s(v: &str) -> Option<Value> {
    Some(Value::String(v.to_string()))
}

/// A value for messages: strings bare, lists of strings as `[a, b]`, `none` for null, other
/// values as compact JSON.
pub fn show(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => "none".to_string(),
        Some(Value::String(s)) => s.clone(),
        // A number with its spelling (`crate::model::Scalar::Spelled`): shown as written.
        Some(Value::Object(m)) if m.len() == 2 && m.contains_key("number") => m
            .get("as_written")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_default(),
        Some(Value::Array(items)) if items.iter().all(Value::is_string) => format!(
            "[{}]",
            items
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Some(v) => serde_json::to_string(v).unwrap_or_default(),
    }
}

/// A sorted, de-duplicated list of strings as JSON.
pub fn set_json<'a>(items: impl IntoIterator<Item = &'a String>) -> Option<Value> {
    let mut v: Vec<&String> = items.into_iter().collect();
    v.sort();
    v.dedup();
    json(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_relations() {
        assert_eq!(type_relation("number", "integer"), TypeRelation::Narrower);
        assert_eq!(type_relation("integer", "number"), TypeRelation::Wider);
        assert_eq!(type_relation("string", "integer"), TypeRelation::Unrelated);
        assert_eq!(type_relation("any", "string"), TypeRelation::Narrower);
        assert_eq!(type_relation("string", "date"), TypeRelation::Narrower);
        assert_eq!(type_relation("integer[]", "number[]"), TypeRelation::Wider);
        assert_eq!(type_relation("number[]", "number"), TypeRelation::Unrelated);
        assert_eq!(type_relation("number", "number"), TypeRelation::Same);
    }

    #[test]
    fn unit_changes() {
        let t = UnitTable::builtin();
        let u = |c| UnitRef {
            canonical: c,
            dimension: None,
        };
        assert_eq!(
            unit_change(u("eV"), &t, u("meV"), &t),
            Some(UnitChange::Rescaled(Some(1000.0)))
        );
        assert_eq!(
            unit_change(u("eV/atom"), &t, u("eV/cell"), &t),
            Some(UnitChange::Dimension)
        );
        assert_eq!(
            unit_change(u("eV"), &t, u("GPa"), &t),
            Some(UnitChange::Dimension)
        );
        assert_eq!(
            unit_change(u("kg/m^3"), &t, u("g/L"), &t),
            Some(UnitChange::Respelled)
        );
        assert_eq!(unit_change(u("eV"), &t, u("eV"), &t), None);
    }
}
