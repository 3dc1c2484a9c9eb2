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
/// it) and hold it to the parameter's enum: a text that differs from an enum value only in case
/// takes the enum's spelling (`usd` -> `USD`). Errors: text that does not parse as the declared
/// number or boolean, or a value outside the enum (the message lists the first
/// [`LISTED_ENUM_VALUES`] values and how many there are in all).
///
/// One pass over the enum, without copying it: a long enum costs one comparison per value.
pub fn coerce(param: &ParamData, v: Value) -> Result<Value, String> {
    coerce_as(param, &param.ty, v)
}

/// [`coerce`] with the type `ty` in place of the parameter's own (an array's item type).
fn coerce_as(param: &ParamData, ty: &str, v: Value) -> Result<Value, String> {
    let typed = coerce_type(param, ty, v)?;
    if param.enum_values.is_empty() || param.enum_values.iter().any(|e| same_json(e, &typed)) {
        return Ok(typed);
    }
    if let Value::String(s) = &typed
        && let Some(e) = param
            .enum_values
            .iter()
            .find(|e| matches!(e, Scalar::String(e) if e.eq_ignore_ascii_case(s)))
    {
        return Ok(e.to_json());
    }
    Err(format!(
        "`{}` is not one of the values `{}` takes ({})",
        value_text(&typed),
        param.name,
        listed_values(&param.enum_values)
    ))
}

/// How many enum values a message lists before it says how many there are in all.
pub const LISTED_ENUM_VALUES: usize = 20;

/// An enum's values for a message: each in backticks, comma-separated; past
/// [`LISTED_ENUM_VALUES`] values, the first of them and `... (N in all)`.
pub fn listed_values(values: &[Scalar]) -> String {
    let mut shown: Vec<String> = values
        .iter()
        .take(LISTED_ENUM_VALUES)
        .map(|e| format!("`{}`", value_text(&e.to_json())))
        .collect();
    if values.len() > LISTED_ENUM_VALUES {
        shown.push(format!("... ({} in all)", values.len()));
    }
    shown.join(", ")
}

/// Whether an enum value equals a JSON value (as [`Scalar::to_json`] would, without building
/// it).
fn same_json(e: &Scalar, v: &Value) -> bool {
    match (e, v) {
        (Scalar::String(a), Value::String(b)) => a == b,
        (Scalar::String(_), _) | (_, Value::String(_)) => false,
        (e, v) => &e.to_json() == v,
    }
}

fn coerce_type(param: &ParamData, ty: &str, v: Value) -> Result<Value, String> {
    if let Value::Number(n) = &v
        && ty == "integer"
        && n.as_i64().is_none()
        && n.as_u64().is_none()
    {
        return Err(format!("`{n}` is not an integer for `{}`", param.name));
    }
    let Value::String(s) = &v else { return Ok(v) };
    match ty {
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

/// Whether the parameter's declared type is an array (`string[]`, `array`).
pub fn is_array(param: &ParamData) -> bool {
    param.ty.ends_with("[]") || param.ty == "array"
}

/// [`coerce`] for one value read from a question: typed as the item type of an array-typed
/// parameter (`5` for a `number[]` is the number 5, a list of one once checked), else as
/// [`coerce`] types it.
pub fn coerce_one(param: &ParamData, v: Value) -> Result<Value, String> {
    if param.ty.ends_with("[]") {
        coerce_item(param, v)
    } else {
        coerce(param, v)
    }
}

/// [`coerce`] for one item of an array-typed parameter (typed as the item type).
fn coerce_item(param: &ParamData, v: Value) -> Result<Value, String> {
    coerce_as(param, param.ty.strip_suffix("[]").unwrap_or("any"), v)
}

/// Render an Understanding value for a parameter through a binding's template and type it
/// ([`render`] then [`coerce`]). For an array-typed parameter each item of an array value is
/// rendered and typed on its own, and the result is a JSON array (never the items silently
/// joined into one text); [`combine`] then sends it as the parameter declares.
///
/// Errors: a transform that does not apply, a value that does not parse as the declared type
/// (a fraction for an integer), or one outside the parameter's declared bounds
/// ([`crate::model::Bounds::admits`]: "`per-page`: -5 is less than its minimum 1").
pub fn render_for(
    param: &ParamData,
    template: Option<&Template>,
    value: &Value,
) -> Result<Value, String> {
    let admitted = |v: Value| {
        param
            .bounds
            .admits(&v)
            .map(|()| v)
            .map_err(|m| format!("`{}`: {m}", param.name))
    };
    if !is_array(param) {
        return render(template, value)
            .and_then(|v| coerce(param, v))
            .and_then(admitted);
    }
    let items: Vec<&Value> = match value {
        Value::Array(items) => items.iter().collect(),
        one => vec![one],
    };
    items
        .into_iter()
        .map(|it| render(template, it).and_then(|v| coerce_item(param, v)))
        .collect::<Result<Vec<_>, _>>()
        .map(Value::Array)
        .and_then(admitted)
}

/// The one value a plan sends for a parameter that the bindings filled with `values` (in
/// declaration order, duplicates removed). An array-typed parameter gets all the items, sent
/// as the declaration says ([`crate::model::ArrayEncoding`]: a JSON array for repeated query
/// parameters and JSON bodies, one string joined with the declared separator otherwise). Any
/// other parameter gets the values joined with its `join` separator when it declares one, and
/// otherwise the first binding in declaration order wins.
pub fn combine(param: &ParamData, values: Vec<Value>) -> Value {
    if is_array(param) {
        let mut items: Vec<Value> = Vec::new();
        for v in values {
            let list = match v {
                Value::Array(list) => list,
                one => vec![one],
            };
            for it in list {
                if !items.contains(&it) {
                    items.push(it);
                }
            }
        }
        return match &param.array {
            Some(crate::model::ArrayEncoding::Joined(sep)) => {
                Value::String(items.iter().map(value_text).collect::<Vec<_>>().join(sep))
            }
            _ => Value::Array(items),
        };
    }
    match (&param.join, values.len()) {
        (Some(sep), n) if n > 1 => {
            Value::String(values.iter().map(value_text).collect::<Vec<_>>().join(sep))
        }
        _ => values.into_iter().next().unwrap_or(Value::Null),
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
    let enum_ok = param.enum_values.is_empty() || param.enum_values.iter().any(|e| same_json(e, v));
    type_ok && enum_ok
}

/// A scalar as JSON.
pub fn scalar_json(s: &Scalar) -> Value {
    s.to_json()
}

/// The value sent for a parameter's declared default: for a text-typed parameter (`string`,
/// `date`, `datetime`) the default as written (`1.10` stays `"1.10"`, `0755` stays `"0755"`),
/// otherwise its JSON value.
pub fn default_json(param: &ParamData, default: &Scalar) -> Value {
    match param.ty.as_str() {
        "string" | "date" | "datetime" => Value::String(default.as_written()),
        _ => default.to_json(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_are_held_to_the_enum() {
        let p = ParamData {
            name: "units".into(),
            enum_values: vec![
                Scalar::String("metric".into()),
                Scalar::String("USD".into()),
            ],
            ..param("string", None, None)
        };
        let s = |x: &str| Value::String(x.into());
        assert_eq!(coerce(&p, s("metric")), Ok(s("metric")));
        assert_eq!(coerce(&p, s("usd")), Ok(s("USD")));
        assert_eq!(
            coerce(&p, s("kelvin")),
            Err("`kelvin` is not one of the values `units` takes (`metric`, `USD`)".to_string())
        );
        // A long enum: its first values and its count.
        let long = ParamData {
            enum_values: (0..30).map(Scalar::Integer).collect(),
            ..param("integer", None, None)
        };
        assert_eq!(coerce(&long, s("29")), Ok(json!(29)));
        assert_eq!(
            coerce(&long, s("30")),
            Err("`30` is not one of the values `p` takes (`0`, `1`, `2`, `3`, `4`, `5`, `6`, `7`, `8`, `9`, `10`, `11`, `12`, `13`, `14`, `15`, `16`, `17`, `18`, `19`, ... (30 in all))".to_string())
        );
        // Each item of an array parameter.
        let list = ParamData {
            ty: "string[]".into(),
            ..p.clone()
        };
        assert_eq!(
            render_for(&list, None, &json!(["Metric", "usd"])),
            Ok(json!(["metric", "USD"]))
        );
    }

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
            array: None,
            style: None,
            explode: None,
            allow_reserved: false,
            whole_body: false,
            bounds: Default::default(),
            content_type: None,
            part_headers: Default::default(),
            description: None,
            format: None,
            location: None,
        };
        assert_eq!(
            coerce(&p, Value::String("2".into())).unwrap(),
            Value::from(2)
        );
        assert!(coerce(&p, Value::String("two".into())).is_err());
        assert_eq!(value_text(&serde_json::json!(2023)), "2023");
        assert_eq!(value_text(&serde_json::json!(["Ti", "O"])), "Ti,O");
    }

    #[test]
    fn an_understanding_s_value_keeps_the_type_and_bounds_declared() {
        let mut p = param("integer", None, None);
        p.bounds.minimum = Some(1.0);
        p.bounds.maximum = Some(200.0);
        assert_eq!(
            render_for(&p, None, &serde_json::json!(25)).unwrap(),
            Value::from(25)
        );
        assert_eq!(
            render_for(&p, None, &serde_json::json!(-99999999999i64)).unwrap_err(),
            "`p`: -99999999999 is less than its minimum 1"
        );
        assert_eq!(
            render_for(&p, None, &serde_json::json!("500")).unwrap_err(),
            "`p`: 500 is more than its maximum 200"
        );
        assert_eq!(
            render_for(&p, None, &serde_json::json!(2.5)).unwrap_err(),
            "`2.5` is not an integer for `p`"
        );
        // A list's item count is a bound of the list.
        let mut l = param("string[]", None, None);
        l.bounds.max_items = Some(2);
        assert!(render_for(&l, None, &serde_json::json!(["a", "b"])).is_ok());
        assert_eq!(
            render_for(&l, None, &serde_json::json!(["a", "b", "c"])).unwrap_err(),
            "`p`: a list of 3 item(s) is more than its maxItems 2"
        );
    }

    fn param(
        ty: &str,
        join: Option<&str>,
        array: Option<crate::model::ArrayEncoding>,
    ) -> ParamData {
        ParamData {
            name: "p".into(),
            ty: ty.into(),
            enum_values: vec![],
            required: false,
            auth: false,
            default: None,
            bind: vec![],
            join: join.map(str::to_string),
            array,
            style: None,
            explode: None,
            allow_reserved: false,
            whole_body: false,
            bounds: Default::default(),
            content_type: None,
            part_headers: Default::default(),
            description: None,
            format: None,
            location: None,
        }
    }

    #[test]
    fn array_parameters_are_sent_as_declared_never_silently_joined() {
        use crate::model::ArrayEncoding;
        use serde_json::json;
        let items = json!(["Ti", "O"]);
        // Repeated query parameters and JSON bodies: the items as a JSON array.
        for enc in [ArrayEncoding::Repeated, ArrayEncoding::Json] {
            let p = param("string[]", None, Some(enc));
            let v = render_for(&p, None, &items).unwrap();
            assert_eq!(v, json!(["Ti", "O"]));
            assert_eq!(
                combine(&p, vec![v, json!(["O", "Fe"])]),
                json!(["Ti", "O", "Fe"])
            );
        }
        // A declared separator: one joined value.
        let p = param(
            "string[]",
            Some("|"),
            Some(ArrayEncoding::Joined("|".into())),
        );
        let v = render_for(&p, None, &items).unwrap();
        assert_eq!(combine(&p, vec![v]), json!("Ti|O"));
        // Items are typed as the item type; a single value is one item.
        let p = param("integer[]", None, Some(ArrayEncoding::Repeated));
        assert_eq!(
            render_for(&p, None, &json!(["1", "2"])).unwrap(),
            json!([1, 2])
        );
        assert_eq!(render_for(&p, None, &json!("3")).unwrap(), json!([3]));
        assert!(render_for(&p, None, &json!(["x"])).is_err());
        // Not an array: several bindings join only with `join`; otherwise the first wins.
        let p = param("string", None, None);
        assert_eq!(combine(&p, vec![json!("a"), json!("b")]), json!("a"));
        let p = param("string", Some(","), None);
        assert_eq!(combine(&p, vec![json!("a"), json!("b")]), json!("a,b"));
    }

    #[test]
    fn text_parameters_get_a_default_as_written() {
        let p = param("string", None, None);
        let d = Scalar::Spelled(Box::new(Scalar::Number(1.1)), "1.10".into());
        assert_eq!(default_json(&p, &d), Value::String("1.10".into()));
        let p = param("number", None, None);
        assert_eq!(default_json(&p, &d), serde_json::json!(1.1));
    }
}
