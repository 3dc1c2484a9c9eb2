//! Parameter binding (Algorithm 1, parameter binding): render an Understanding value through a
//! binding's template and type it as the tool's parameter declares.

use super::formula;
use crate::artifact::ParamData;
use crate::model::Scalar;
use crate::model::Template;
use serde_json::Value;

/// The text of a JSON value as a template input (`2023` -> "2023", arrays joined with `,`).
pub fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.to_string(),
            None => n.to_string(),
        },
        Value::Bool(b) => b.to_string(),
        Value::Array(items) => items.iter().map(value_text).collect::<Vec<_>>().join(","),
        Value::Null => String::new(),
        Value::Object(_) => v.to_string(),
    }
}

fn transform(value: &str, name: &str) -> Result<String, String> {
    let parsed =
        || formula::parse(value).ok_or_else(|| format!("`{value}` is not a chemical formula"));
    Ok(match name {
        "hill_spaced" => formula::hill_spaced(&parsed()?),
        "alphabetical" => formula::alphabetical(&parsed()?),
        "elements_csv" => formula::elements_csv(&parsed()?),
        "element_count" => parsed()?.len().to_string(),
        "lower" => value.to_lowercase(),
        "upper" => value.to_uppercase(),
        "string" => value.to_string(),
        other => return Err(format!("unknown transform `{other}`")),
    })
}

/// Render a text template: every `{value}` / `{value|t1|t2}` placeholder is replaced.
///
/// Errors: a transform that does not apply (a formula transform on a non-formula).
pub fn render_text(template: &str, value: &str) -> Result<String, String> {
    let mut out = String::with_capacity(template.len() + value.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            out.push_str(&rest[open..]);
            return Ok(out);
        };
        let inner = &rest[open + 1..open + close];
        let mut parts = inner.split('|');
        if parts.next() == Some("value") {
            let mut v = value.to_string();
            for t in parts {
                v = transform(&v, t)?;
            }
            out.push_str(&v);
        } else {
            out.push_str(&rest[open..open + close + 1]);
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Render a binding's template (default `{value}`).
pub fn render(template: Option<&Template>, value: &Value) -> Result<Value, String> {
    let text = value_text(value);
    match template {
        None => Ok(Value::String(text)),
        Some(Template::Text(t)) => Ok(Value::String(render_text(t, &text)?)),
        Some(Template::Object(m)) => {
            let mut obj = serde_json::Map::new();
            for (k, t) in m {
                obj.insert(k.clone(), Value::String(render_text(t, &text)?));
            }
            Ok(Value::Object(obj))
        }
    }
}

/// Type a rendered value as the parameter declares (`integer` parses the text, `string` keeps
/// it). Errors: text that does not parse as the declared number or boolean.
pub fn coerce(param: &ParamData, v: Value) -> Result<Value, String> {
    let Value::String(s) = &v else { return Ok(v) };
    match param.ty.as_str() {
        "integer" => s
            .trim()
            .parse::<i64>()
            .map(Value::from)
            .map_err(|_| format!("`{s}` is not an integer for `{}`", param.name)),
        "number" => s
            .trim()
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number)
            .ok_or_else(|| format!("`{s}` is not a number for `{}`", param.name)),
        "boolean" => match s.trim() {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err(format!("`{s}` is not a boolean for `{}`", param.name)),
        },
        _ => Ok(v),
    }
}

/// Whether a value has the parameter's declared type (and is one of its enum values).
pub fn value_is_valid(param: &ParamData, v: &Value) -> bool {
    let type_ok = match param.ty.as_str() {
        "string" | "date" | "datetime" => v.is_string(),
        "integer" => v.as_i64().is_some(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        t if t.ends_with("[]") || t == "array" => v.is_array() || v.is_string(),
        _ => true,
    };
    let enum_ok =
        param.enum_values.is_empty() || param.enum_values.iter().any(|e| &e.to_json() == v);
    type_ok && enum_ok
}

/// A scalar as JSON.
pub fn scalar_json(s: &Scalar) -> Value {
    s.to_json()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_render() {
        assert_eq!(
            render_text("chemical_formula_reduced=\"{value|alphabetical}\"", "WS2").unwrap(),
            "chemical_formula_reduced=\"S2W\""
        );
        assert_eq!(
            render_text("{value|hill_spaced}", "Al2O3").unwrap(),
            "Al2 O3"
        );
        assert_eq!(
            render_text("from_publication_date:{value}-01-01", "2022").unwrap(),
            "from_publication_date:2022-01-01"
        );
        assert_eq!(render_text("{value|element_count}", "NaCl").unwrap(), "2");
        assert!(render_text("{value|alphabetical}", "caffeine").is_err());
    }

    #[test]
    fn values_are_typed() {
        let p = ParamData {
            name: "nspecies".into(),
            ty: "integer".into(),
            enum_values: vec![],
            required: false,
            auth: false,
            default: None,
            bind: vec![],
            join: None,
            description: None,
        };
        assert_eq!(
            coerce(&p, Value::String("2".into())).unwrap(),
            Value::from(2)
        );
        assert!(coerce(&p, Value::String("two".into())).is_err());
        assert_eq!(value_text(&serde_json::json!(2023)), "2023");
        assert_eq!(value_text(&serde_json::json!(["Ti", "O"])), "Ti,O");
    }
}
