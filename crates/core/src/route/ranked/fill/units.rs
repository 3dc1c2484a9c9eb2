//! Pass `units`: unit parameters take the unit of the amount the question gives, and a target
//! unit the one it asks for, spelled as the description's examples spell units (`lb` for
//! "pounds" where it says "e.g. kg").

use super::profile::Profile;
use super::words::TARGET_WORDS;
use crate::route::bind;
use crate::search::spans::{self, Span, SpanKind};
use crate::search::unit_words::unit_of;
use serde_json::Value;
use std::collections::BTreeMap;

/// Unit parameters (`unit`, `sourceUnit`, `targetUnit`): the unit word of the amount the
/// question gives ("2 cups" -> `cups`), and for a target unit the unit asked for ("how many
/// grams ...", "... in grams", "... into ounces"), which is not the amount's own.
pub(super) fn units(
    question: &str,
    open: &[Profile],
    spans: &[Span],
    params: &mut BTreeMap<String, Value>,
) {
    let amount = spans.iter().find_map(|s| {
        let u = s.unit.as_deref()?;
        (s.kind == SpanKind::Number && u.chars().count() > 1 && u.chars().all(char::is_alphabetic))
            .then_some(u)
    });
    let Some(unit) = amount else { return };
    let words: Vec<String> = question
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let asked = words.windows(2).find_map(|w| {
        let cue = matches!(w[0].as_str(), "many" | "much" | "in" | "into" | "to");
        let word = &w[1];
        (cue && word != unit
            && word.chars().all(char::is_alphabetic)
            && !spans::is_function_word(word))
        .then(|| word.clone())
    });
    for pr in open.iter().filter(|pr| takes_unit(pr)) {
        if let Some(Value::String(bound)) = params.get(&pr.p.name) {
            // Bound by an earlier pass ("to kilograms" for `to`): spelled as the parameter
            // spells units.
            let v = spelled(pr, bound.clone());
            params.insert(pr.p.name.clone(), Value::String(v));
            continue;
        }
        if params.contains_key(&pr.p.name) {
            continue;
        }
        let value = if pr.named(TARGET_WORDS) {
            asked.clone()
        } else {
            Some(unit.to_string())
        };
        let value = value.map(|v| spelled(pr, v));
        if let Some(v) = value.and_then(|v| bind::coerce(pr.p, Value::String(v)).ok()) {
            params.insert(pr.p.name.clone(), v);
        }
    }
}

/// Whether a parameter takes a unit: named `unit` (`sourceUnit`, `units`), or described as one
/// ("The unit to convert from, e.g. lb") and not a number.
fn takes_unit(pr: &Profile) -> bool {
    !pr.numeric && (pr.named(&["unit", "units"]) || pr.described(&["unit"]))
}

/// A unit word as the parameter spells units: the unit table's symbol (`lb` for "pounds") when
/// the first unit its description writes is a symbol ("e.g. lb"), else as written ("e.g. the
/// grams in ...").
fn spelled(pr: &Profile, word: String) -> String {
    let d = pr.p.description.as_deref().unwrap_or("");
    // The first unit the description writes says how it spells them: "e.g. lb" symbols, "e.g.
    // the grams in ..." words.
    let symbols = d
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '"'))
        .map(|w| w.trim_end_matches('.'))
        // Words only ("e.g" reads as the product of two units).
        .filter(|w| w.chars().all(|c| c.is_alphabetic() || c == '°'))
        .filter(|w| !w.is_empty() && !spans::is_function_word(&w.to_lowercase()))
        .find_map(|w| unit_of(w).map(|u| u == w))
        .unwrap_or(false);
    match unit_of(&word) {
        Some(symbol) if symbols => symbol,
        _ => word,
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;

    #[test]
    fn units_are_spelled_as_the_description_spells_its_first_unit() {
        let mut e = endpoint(
            "https://x.test/convert",
            &[("from", "query"), ("to", "query")],
        );
        e.parameters[0].description = Some("The unit to convert from, e.g. lb".into());
        e.parameters[1].description = Some(
            "The unit to which you want to convert, e.g. the grams in \"2.5 cups of flour to grams\". You can also use \"piece\", e.g. \"3.4 oz tomatoes to piece\"".into(),
        );
        let from = Profile::of(&e.parameters[0], &e.url);
        let to = Profile::of(&e.parameters[1], &e.url);
        assert!(takes_unit(&from) && takes_unit(&to));
        assert_eq!(spelled(&from, "pounds".into()), "lb");
        assert_eq!(spelled(&from, "kilograms".into()), "kg");
        assert_eq!(spelled(&to, "grams".into()), "grams");
    }

    #[test]
    fn an_amount_takes_its_unit_and_a_target_unit_the_one_asked_for() {
        let mut convert = endpoint(
            "https://x.test/convert",
            &[
                ("ingredientName", "query"),
                ("sourceAmount", "query"),
                ("sourceUnit", "query"),
                ("targetUnit", "query"),
            ],
        );
        for p in &mut convert.parameters {
            p.required = true;
        }
        convert.parameters[1].ty = "number".into();
        let want = |amount: i64, source: &str, target: &str, name: &str| {
            BTreeMap::from([
                ("ingredientName".to_string(), Value::from(name)),
                ("sourceAmount".to_string(), Value::from(amount)),
                ("sourceUnit".to_string(), Value::from(source)),
                ("targetUnit".to_string(), Value::from(target)),
            ])
        };
        assert_eq!(
            filled(
                &convert,
                "how many grams is 2 cups of butter",
                &["gram", "cup"]
            ),
            want(2, "cups", "grams", "butter")
        );
        assert_eq!(
            filled(
                &convert,
                "convert 3 tablespoons of sugar into ounces",
                &["convert"]
            ),
            want(3, "tablespoons", "ounces", "sugar")
        );
        // The index may know "2" as a word the endpoint was ranked for; it is a value still.
        assert_eq!(
            filled_for(
                &convert,
                "how many grams is 2 cups of butter",
                &["gram", "cup", "2"],
                &["2", "gram"]
            ),
            want(2, "cups", "grams", "butter")
        );
        // No amount with a unit: no unit either.
        let got = filled(&convert, "how many grams of butter", &["gram"]);
        assert!(
            !got.contains_key("sourceUnit") && !got.contains_key("targetUnit"),
            "{got:?}"
        );
    }
}
