//! After every pass: the required parameters the question left open ([`open_required`]). An
//! enum that offers a JSON form (`format`: `XML` / `JSON`, `application/json`) takes it, as
//! whoever runs the plan reads JSON (the gateway projects JSON responses); else the declared
//! default; else the one value an enum of one value takes; else an enum's neutral value ("all",
//! "any"); else the parameter stays open, and an enum's warning lists the values it takes.

use super::enums::NEUTRAL_VALUES;
use crate::artifact::{EndpointData, ParamData};
use crate::route::bind;
use serde_json::Value;
use std::collections::BTreeMap;

/// Fill the required parameters of `e` that `params` leaves open: a JSON form, the declared
/// default (`defaults`: the values `bind_parameters` put in, taken out while the question was
/// read), an enum's one value, the neutral value; returns the plan's notes on what was so filled or stays open.
pub fn open_required(
    e: &EndpointData,
    defaults: BTreeMap<String, Value>,
    params: &mut BTreeMap<String, Value>,
) -> Vec<String> {
    let mut notes = Vec::new();
    for p in e
        .parameters
        .iter()
        .filter(|p| p.required && !p.auth && !e.server_parameter(p))
    {
        if params.contains_key(&p.name) {
            continue;
        }
        let default = defaults.get(&p.name);
        if let Some(v) = json_form(p).filter(|j| default.is_none_or(|d| !is_json(d) && d != j)) {
            notes.push(format!(
                "`{}/{}`: required parameter `{}` not given by the request; set to {}, the JSON form it offers{}",
                e.id,
                p.name,
                p.name,
                v,
                default.map_or(String::new(), |d| format!(" (declared default {d})"))
            ));
            params.insert(p.name.clone(), v);
        } else if let Some(d) = default {
            params.insert(p.name.clone(), d.clone());
        } else if let [only] = p.enum_values.as_slice() {
            let v = bind::scalar_json(only);
            notes.push(format!(
                "`{}/{}`: required parameter `{}` not given by the request; set to {}, the one value it takes",
                e.id, p.name, p.name, v
            ));
            params.insert(p.name.clone(), v);
        } else if let Some(v) = neutral(p) {
            notes.push(format!(
                "`{}/{}`: required parameter `{}` not given by the request; set to its neutral value {}",
                e.id, p.name, p.name, v
            ));
            params.insert(p.name.clone(), v);
        } else if !p.enum_values.is_empty() {
            // A long enum is named by its first values and its count, not listed whole.
            let mut values: Vec<String> = p
                .enum_values
                .iter()
                .take(bind::LISTED_ENUM_VALUES)
                .map(|v| bind::value_text(&bind::scalar_json(v)))
                .collect();
            if p.enum_values.len() > bind::LISTED_ENUM_VALUES {
                values.push(format!("... ({} in all)", p.enum_values.len()));
            }
            notes.push(format!(
                "`{}/{}`: required parameter `{}` not given by the request; left open (it takes one of: {})",
                e.id,
                p.name,
                p.name,
                values.join(", ")
            ));
        }
    }
    notes
}

/// Whether a value names JSON: `json`, `JSON`, `application/json`, `application/ld+json`,
/// `geojson` (case ignored; the last word of a media type).
fn is_json(v: &Value) -> bool {
    let t = bind::value_text(v).to_lowercase();
    let last = t.rsplit(['/', '+', '.']).next().unwrap_or("");
    t.len() <= 40 && (last == "json" || last == "geojson")
}

/// The enum value of `p` that names JSON ([`is_json`]), the plainest first (`json` before
/// `application/ld+json`).
fn json_form(p: &ParamData) -> Option<Value> {
    p.enum_values
        .iter()
        .map(bind::scalar_json)
        .filter(is_json)
        .min_by_key(|v| (bind::value_text(v).len(), bind::value_text(v)))
}

/// The enum value of `p` that asks for no restriction ([`NEUTRAL_VALUES`]: "all", "any",
/// "all-sections"; case and separators ignored).
fn neutral(p: &ParamData) -> Option<Value> {
    p.enum_values
        .iter()
        .find(|v| {
            let t = bind::value_text(&bind::scalar_json(v)).to_lowercase();
            t.split(|c: char| !c.is_alphanumeric())
                .next()
                .is_some_and(|first| NEUTRAL_VALUES.contains(&first))
        })
        .map(bind::scalar_json)
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use crate::model::value::Scalar;

    fn with_enum(
        mut e: EndpointData,
        name: &str,
        values: &[&str],
        default: Option<&str>,
    ) -> EndpointData {
        let p = e
            .parameters
            .iter_mut()
            .find(|p| p.name == name)
            .expect("parameter");
        p.required = true;
        p.enum_values = values.iter().map(|v| Scalar::String((*v).into())).collect();
        p.default = default.map(|d| Scalar::String(d.into()));
        e
    }

    #[test]
    fn a_required_enum_left_open_takes_its_json_form_first() {
        // Shapes: a bare `format`, a media type, a JSON form listed last, and one with a
        // declared default in another form.
        for (values, default, want) in [
            (&["XML", "JSON"][..], None, "JSON"),
            (&["xml", "json", "csv"][..], None, "json"),
            (
                &["text/csv", "application/json", "application/ld+json"][..],
                None,
                "application/json",
            ),
            (&["XML", "JSON"][..], Some("XML"), "JSON"),
        ] {
            let e = with_enum(
                endpoint("https://x.test/{format}/players", &[("format", "path")]),
                "format",
                values,
                default,
            );
            let defaults: BTreeMap<String, Value> = default
                .map(|d| ("format".to_string(), Value::from(d)))
                .into_iter()
                .collect();
            let mut params = BTreeMap::new();
            let notes = open_required(&e, defaults, &mut params);
            assert_eq!(params, strings(&[("format", want)]), "{values:?}");
            assert_eq!(notes.len(), 1, "{values:?}");
        }
    }

    #[test]
    fn else_the_declared_default_else_the_neutral_value_else_open_with_a_warning() {
        let e = with_enum(
            endpoint("https://x.test/news", &[("section", "query")]),
            "section",
            &["world", "all-sections"],
            None,
        );
        let mut params = BTreeMap::new();
        assert_eq!(open_required(&e, BTreeMap::new(), &mut params).len(), 1);
        assert_eq!(params, strings(&[("section", "all-sections")]));
        // A declared default is the API's own choice: kept, with no note.
        let mut params = BTreeMap::new();
        let defaults = BTreeMap::from([("section".to_string(), Value::from("world"))]);
        assert!(open_required(&e, defaults, &mut params).is_empty());
        assert_eq!(params, strings(&[("section", "world")]));
        // No JSON form, no default, no neutral value: open, and the warning lists the values.
        let e = with_enum(
            endpoint("https://x.test/rank", &[("order", "query")]),
            "order",
            &["newest", "oldest"],
            None,
        );
        let mut params = BTreeMap::new();
        let notes = open_required(&e, BTreeMap::new(), &mut params);
        assert!(params.is_empty());
        assert_eq!(
            notes,
            [
                "`e/order`: required parameter `order` not given by the request; left open (it takes one of: newest, oldest)"
            ]
        );
        // A long enum is named by its first values and its count, not listed whole.
        let many: Vec<String> = (0..25_000).map(|i| format!("r{i:05}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let e = with_enum(
            endpoint("https://x.test/rank", &[("region", "query")]),
            "region",
            &many,
            None,
        );
        let notes = open_required(&e, BTreeMap::new(), &mut BTreeMap::new());
        assert_eq!(
            notes,
            [
                "`e/region`: required parameter `region` not given by the request; left open (it takes one of: r00000, r00001, r00002, r00003, r00004, r00005, r00006, r00007, r00008, r00009, r00010, r00011, r00012, r00013, r00014, r00015, r00016, r00017, r00018, r00019, ... (25000 in all))"
            ]
        );
        // An enum of one value: that value, with a note.
        let e = with_enum(
            endpoint(
                "https://x.test/entries/{source_lang}/{word_id}",
                &[("source_lang", "path"), ("word_id", "path")],
            ),
            "source_lang",
            &["en"],
            None,
        );
        let mut params = strings(&[("word_id", "happy")]);
        let notes = open_required(&e, BTreeMap::new(), &mut params);
        assert_eq!(
            params,
            strings(&[("source_lang", "en"), ("word_id", "happy")])
        );
        assert_eq!(
            notes,
            [
                "`e/source_lang`: required parameter `source_lang` not given by the request; set to \"en\", the one value it takes"
            ]
        );
        // A value the question gave is never replaced.
        let e = with_enum(
            endpoint("https://x.test/{format}/teams", &[("format", "path")]),
            "format",
            &["XML", "JSON"],
            None,
        );
        let mut params = strings(&[("format", "XML")]);
        assert!(open_required(&e, BTreeMap::new(), &mut params).is_empty());
        assert_eq!(params, strings(&[("format", "XML")]));
    }
}
