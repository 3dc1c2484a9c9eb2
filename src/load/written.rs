//! Number-like values of text-typed parameters kept as the text a person wrote.
//!
//! A `string` (also `date`, `datetime`, and arrays of them) parameter's `default` or `enum`
//! value written as a plain number-like scalar (`0755`, `0x1F`, `1.10`, `1e3`, `7`) is a number
//! to a YAML reader; sent to the provider as a number, it would lose its spelling (`0755`
//! becomes `755`, `1.10` becomes `1.1`). The parameter's type says it is text, so the loader
//! keeps the exact source text as a string, and the artifact, the prompt and plans carry it.

use crate::model::value::Scalar;
use crate::model::{Sp, Tool, ValueType};

/// Whether a parameter of this type takes text (its elements, for an array).
pub(crate) fn takes_text(ty: &ValueType) -> bool {
    matches!(
        ty.element(),
        ValueType::String | ValueType::Date | ValueType::DateTime
    )
}

/// A number read from the source, as the string it was written as; other values unchanged.
fn as_text(v: &mut Sp<Scalar>) {
    if matches!(
        v.value,
        Scalar::Integer(_) | Scalar::Number(_) | Scalar::Spelled(..)
    ) {
        v.value = Scalar::String(v.value.as_written());
    }
}

/// Keep the written text of number-like `default` and `enum` values of the tool's text-typed
/// parameters (see the module documentation).
pub(crate) fn keep_written_text(tool: &mut Tool) {
    for e in &mut tool.endpoints {
        for p in &mut e.value.parameters {
            let p = &mut p.value;
            if !takes_text(&p.ty.value) {
                continue;
            }
            if let Some(d) = &mut p.default {
                as_text(d);
            }
            for v in p.enum_values.iter_mut().flatten() {
                as_text(v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;

    fn sp(v: Scalar) -> Sp<Scalar> {
        Sp::new(v, Span::new(0, 0))
    }

    #[test]
    fn numbers_become_their_written_text_only_for_text_types() {
        let spelled = |v: Scalar, raw: &str| Scalar::Spelled(Box::new(v), raw.to_string());
        let cases = [
            (spelled(Scalar::Integer(755), "0755"), "0755"),
            (spelled(Scalar::Integer(31), "0x1F"), "0x1F"),
            (spelled(Scalar::Number(1.1), "1.10"), "1.10"),
            (spelled(Scalar::Number(1000.0), "1e3"), "1e3"),
            (Scalar::Integer(7), "7"),
            (Scalar::Number(2.5), "2.5"),
        ];
        for (value, text) in cases {
            let mut v = sp(value.clone());
            as_text(&mut v);
            assert_eq!(v.value, Scalar::String(text.to_string()));
        }
        let mut b = sp(Scalar::Boolean(true));
        as_text(&mut b);
        assert_eq!(b.value, Scalar::Boolean(true));
        assert!(takes_text(&ValueType::Array(Box::new(ValueType::String))));
        assert!(takes_text(&ValueType::Date));
        assert!(!takes_text(&ValueType::Integer));
        assert!(!takes_text(&ValueType::Any));
    }
}
