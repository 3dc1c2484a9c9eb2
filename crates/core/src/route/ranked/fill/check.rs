//! Pass `check`, run last: the type check of every value the passes bound. A value the
//! parameter's declaration cannot take is dropped, whichever pass bound it: a date goes only into
//! a parameter that takes a date (`format: date`/`date-time`, named or described as a date), a
//! number only into an `integer` (a whole one) or a `number`, and a `integer`/`number` parameter
//! takes nothing else; a value outside the parameter's declared bounds (`maximum`, `minLength`,
//! `pattern`, ...: [`crate::model::Bounds::admits`]) is dropped too, so that a plan never binds
//! what the execution boundary would refuse; a parameter named for a well-known identifier
//! (`isbn`, `doi`, `uuid`: `id_shapes.txt`) takes only a value of its shape, and a parameter
//! that takes a language or a country code only a code or a name of its kind
//! ([`super::codes::admits`]: "serendipity" is no `source_lang`). A value bound to a list
//! parameter (`string[]`) is sent as a list.

use super::profile::Profile;
use serde_json::Value;
use std::collections::BTreeMap;

/// Drop the values of `filled` (names of `open` parameters the passes bound) that their
/// parameter cannot take; returns the names kept.
pub(super) fn pass(
    open: &[Profile],
    filled: Vec<String>,
    params: &mut BTreeMap<String, Value>,
) -> Vec<String> {
    filled
        .into_iter()
        .filter(|name| {
            let Some(pr) = open.iter().find(|pr| &pr.p.name == name) else {
                return true;
            };
            let ok = params.get_mut(name).is_none_or(|v| {
                takes(pr, v)
                    && formed(pr, v)
                    && known_shape(pr, v)
                    && coded(pr, v)
                    && pr.p.bounds.admits(v).is_ok()
            });
            if !ok {
                params.remove(name);
            } else if pr.p.ty.ends_with("[]")
                && let Some(v) = params.get_mut(name)
                && !v.is_array()
            {
                // A list parameter takes a list: one value read from the question is a list of
                // one (the execution boundary checks the declared type as written).
                *v = Value::Array(vec![v.take()]);
            }
            ok
        })
        .collect()
}

/// The well-known identifier shapes of `id_shapes.txt`, by the name word that calls for them.
fn id_shapes() -> &'static [(&'static str, regex::Regex)] {
    static SHAPES: std::sync::OnceLock<Vec<(&'static str, regex::Regex)>> =
        std::sync::OnceLock::new();
    SHAPES.get_or_init(|| {
        crate::route::data_lines(include_str!("id_shapes.txt"))
            .filter_map(|line| line.split_once(' '))
            .map(|(word, re)| {
                (
                    word,
                    regex::Regex::new(re.trim()).expect("id_shapes.txt pattern"),
                )
            })
            .collect()
    })
}

/// Whether a text value is one a country or language parameter takes ([`super::codes::admits`]).
fn coded(pr: &Profile, v: &Value) -> bool {
    match v {
        Value::String(s) => super::codes::admits(pr, s),
        Value::Array(items) => items.iter().all(|x| coded(pr, x)),
        _ => true,
    }
}

/// Whether a text value has the shape of the well-known identifier the parameter's name calls
/// for (`isbn` takes "9780593135204", never "PAD"); true for a parameter of no such name.
fn known_shape(pr: &Profile, v: &Value) -> bool {
    match v {
        Value::String(s) => shaped_as(pr, s).unwrap_or(true),
        Value::Array(items) => items.iter().all(|x| known_shape(pr, x)),
        _ => true,
    }
}

/// Whether `value` has the shape of the well-known identifier the parameter is named for, by
/// its name or by the first word of its description (`id_shapes.txt`; hyphens and spaces taken
/// out); `None` for a parameter of no such name.
pub(super) fn shaped_as(pr: &Profile, value: &str) -> Option<bool> {
    let compact: String = value
        .trim()
        .chars()
        .filter(|c| *c != '-' && !c.is_whitespace())
        .collect();
    // The description's first word past an article names what the value is ("The IP address
    // to search against" for `address`, "An ISBN-13" for `code`).
    let head =
        pr.p.description
            .as_deref()
            .unwrap_or("")
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .find(|w| !matches!(w.as_str(), "the" | "a" | "an" | "your"));
    let mut shapes = id_shapes()
        .iter()
        .filter(|(word, _)| pr.words.iter().any(|w| w == word) || head.as_deref() == Some(*word))
        .peekable();
    shapes.peek()?;
    Some(shapes.all(|(_, re)| re.is_match(&compact)))
}

/// Whether the parameter `pr` can take `v` by its type and format.
fn takes(pr: &Profile, v: &Value) -> bool {
    if pr.p.ty.trim_end_matches("[]") == "object" {
        // A free-form or deepObject filter (`start[gte]=...`) takes an object, which no span of
        // a question is: a plain value would be refused by the gateway's `arguments` check.
        return match v {
            Value::Object(_) => true,
            Value::Array(items) => items.iter().all(|x| takes(pr, x)),
            _ => false,
        };
    }
    if pr.numeric {
        return match v {
            Value::Number(n) => !pr.integer || n.is_i64() || n.is_u64(),
            Value::Array(items) => items.iter().all(|x| takes(pr, x)),
            _ => false,
        };
    }
    match v {
        Value::String(s) => !date_shaped(s) || pr.dated(),
        Value::Array(items) => items.iter().all(|x| takes(pr, x)),
        _ => true,
    }
}

/// A value in the form the parameter's description gives: an ISO date written in its date form
/// (`dd-MM-yyyy`, `2015-JUL-31`); false when the description's example codes give a shape
/// the value does not have (`e.g. PHI, BKN` refuses "roster").
fn formed(pr: &Profile, v: &mut Value) -> bool {
    match v {
        Value::Array(items) => items.iter_mut().all(|x| formed(pr, x)),
        Value::String(s) => {
            if let Some(form) = &pr.date_form
                && date_shaped(s)
                && let Some(written) = form.render(s)
            {
                *s = written;
            }
            pr.shape.as_ref().is_none_or(|sh| sh.fits(s))
        }
        Value::Number(n) => pr.shape.as_ref().is_none_or(|sh| sh.fits(&n.to_string())),
        _ => true,
    }
}

/// Whether a text is an ISO date (`2024-05-01`, optionally with a time after `T`).
pub(super) fn date_shaped(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-'
        && b[8..10].iter().all(u8::is_ascii_digit)
        && (b.len() == 10 || b[10] == b'T' || b[10] == b' ')
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;

    #[test]
    fn a_date_goes_only_into_a_parameter_that_takes_one() {
        assert!(date_shaped("2024-05-01"));
        assert!(date_shaped("2024-05-01T00:00:00Z"));
        assert!(!date_shaped("2024-05"));
        assert!(!date_shaped("20240501"));
        // `from` described as a currency takes no date; `since` described as a date does.
        let mut e = endpoint(
            "https://x.test/rates",
            &[("from", "query"), ("since", "query")],
        );
        e.parameters[0].description = Some("The currency to convert from".into());
        e.parameters[1].description = Some("Only rates updated after this date".into());
        assert_eq!(
            filled(&e, "rates from 2024-05-01", &["rate"]),
            strings(&[("since", "2024-05-01")])
        );
        e.parameters.remove(1);
        assert!(filled(&e, "rates from 2024-05-01", &["rate"]).is_empty());
    }

    #[test]
    fn a_language_or_country_parameter_takes_only_its_kind() {
        let mut e = endpoint(
            "https://x.test/stats/frequency/word/{source_lang}/",
            &[("source_lang", "path"), ("corpus", "query")],
        );
        e.parameters[0].required = true;
        e.parameters[0].description = Some("IANA language code".into());
        let lang = Profile::of(&e.parameters[0], &e.url);
        for (value, ok) in [
            ("en", true),
            ("en-GB", true),
            ("English", true),
            ("deu", true),
            ("serendipity", false),
            ("poem", false),
        ] {
            assert_eq!(super::super::codes::admits(&lang, value), ok, "{value}");
        }
        let mut c = endpoint("https://x.test/rates", &[("country_code", "query")]);
        c.parameters[0].description = Some("The 2 digit country code".into());
        let country = Profile::of(&c.parameters[0], &c.url);
        for (value, ok) in [
            ("DE", true),
            ("Germany", true),
            ("FRA", true),
            ("banana", false),
        ] {
            assert_eq!(super::super::codes::admits(&country, value), ok, "{value}");
        }
        // A `region` takes other places too.
        let r = endpoint("https://x.test/servers", &[("region", "query")]);
        let region = Profile::of(&r.parameters[0], &r.url);
        assert!(super::super::codes::admits(&region, "eu-west-1"));
    }

    #[test]
    fn a_parameter_named_for_a_well_known_identifier_takes_only_its_shape() {
        let e = endpoint(
            "https://x.test/lists",
            &[("isbn", "query"), ("doi", "query")],
        );
        assert!(filled(&e, "book a train ticket from PAD to Oxford", &["book"]).is_empty());
        assert!(filled(&e, "find the book with isbn 12345", &["book"]).is_empty());
        assert_eq!(
            filled(&e, "the book with ISBN 978-0-306-40615-7", &["book"]),
            strings(&[("isbn", "978-0-306-40615-7")])
        );
        assert_eq!(
            filled(&e, "citations of the paper 10.1038/nature14539", &["paper"]),
            strings(&[("doi", "10.1038/nature14539")])
        );
        assert_eq!(
            filled(&e, "weeks on the list for ISBN 9780593135204", &["list"]),
            strings(&[("isbn", "9780593135204")])
        );
        for (word, re) in id_shapes() {
            assert!(re.is_match(match *word {
                "doi" => "10.1000/xyz123",
                "ean" => "4006381333931",
                "iban" => "DE89370400440532013000",
                "ip" => "81.2.69.142",
                "isbn" | "isbn13" => "9780306406157",
                "isbn10" => "0306406152",
                "issn" => "20493630",
                "orcid" => "0000000218250097",
                "uuid" => "123e4567e89b12d3a456426614174000",
                other => panic!("no example for {other}"),
            }));
        }
    }

    #[test]
    fn a_number_parameter_takes_numbers_only() {
        let e = typed(
            endpoint("https://x.test/top", &[("limit", "query")]),
            "limit",
            "integer",
            None,
        );
        let open = [Profile::of(&e.parameters[0], &e.url)];
        let mut params = strings(&[("limit", "ten")]);
        assert!(pass(&open, vec!["limit".into()], &mut params).is_empty());
        assert!(params.is_empty());
        let mut params = BTreeMap::from([("limit".to_string(), Value::from(2.5))]);
        assert!(pass(&open, vec!["limit".into()], &mut params).is_empty());
        let mut params = BTreeMap::from([("limit".to_string(), Value::from(5))]);
        assert_eq!(pass(&open, vec!["limit".into()], &mut params), ["limit"]);
    }

    #[test]
    fn a_value_outside_the_declared_bounds_is_dropped() {
        let mut e = typed(
            endpoint(
                "https://x.test/depots/{depot}/vehicles",
                &[("depot", "path"), ("limit", "query")],
            ),
            "limit",
            "integer",
            None,
        );
        e.parameters[1].bounds.maximum = Some(50.0);
        e.parameters[0].bounds.min_length = Some(5);
        let open: Vec<Profile> = e
            .parameters
            .iter()
            .map(|p| Profile::of(p, &e.url))
            .collect();
        let mut params = BTreeMap::from([
            ("limit".to_string(), Value::from(80)),
            ("depot".to_string(), Value::from("LDN")),
        ]);
        assert!(pass(&open, vec!["depot".into(), "limit".into()], &mut params).is_empty());
        assert!(params.is_empty());
        let mut params = BTreeMap::from([
            ("limit".to_string(), Value::from(20)),
            ("depot".to_string(), Value::from("LDN-NORTH")),
        ]);
        assert_eq!(
            pass(&open, vec!["depot".into(), "limit".into()], &mut params),
            ["depot", "limit"]
        );
    }

    #[test]
    fn a_declared_pattern_says_which_value_a_parameter_takes() {
        let mut e = endpoint(
            "https://x.test/vehicles/{vehicle_id}/temperatures",
            &[("vehicle_id", "path"), ("depot", "query")],
        );
        e.parameters[0].bounds.pattern = Some(r"^VH-\d{4}$".into());
        e.parameters[1].bounds.pattern = Some("^[A-Z]{3}$".into());
        // Each value to the parameter whose pattern it matches, whatever their order.
        assert_eq!(
            filled(
                &e,
                "cargo temperature history of VH-0042 at depot LDN",
                &["temperature"]
            ),
            strings(&[("depot", "LDN"), ("vehicle_id", "VH-0042")])
        );
        assert_eq!(
            filled(
                &e,
                "depot LDN: cargo temperatures of VH-0042",
                &["temperature"]
            ),
            strings(&[("depot", "LDN"), ("vehicle_id", "VH-0042")])
        );
        // A value that matches no pattern fills nothing.
        assert_eq!(
            filled(
                &e,
                "cargo temperature history of truck 42",
                &["temperature"]
            ),
            strings(&[])
        );
    }

    #[test]
    fn an_object_parameter_takes_no_plain_value() {
        // A deepObject filter (`start[gte]=2021-12-10`) described with an ISO example date:
        // neither a date nor a word of the question is its value.
        let mut e = typed(
            endpoint("https://x.test/bookings", &[("start", "query")]),
            "start",
            "object",
            None,
        );
        e.parameters[0].description =
            Some("Filter on the arrival date in ISO 8601 format (e.g. `2021-12-01`)".into());
        let open: Vec<Profile> = e
            .parameters
            .iter()
            .map(|p| Profile::of(p, &e.url))
            .collect();
        for v in [
            Value::from("2025-07-03"),
            Value::from("otters"),
            Value::from(3),
        ] {
            let mut params = BTreeMap::from([("start".to_string(), v)]);
            assert!(pass(&open, vec!["start".into()], &mut params).is_empty());
        }
        let mut params = BTreeMap::from([(
            "start".to_string(),
            serde_json::json!({"gte": "2025-07-03"}),
        )]);
        assert_eq!(pass(&open, vec!["start".into()], &mut params), ["start"]);
        assert_eq!(
            filled(&e, "bookings arriving 2025-07-03", &["booking"]),
            strings(&[])
        );
    }

    #[test]
    fn a_list_parameter_gets_a_list() {
        let e = typed(
            endpoint(
                "https://x.test/pets",
                &[("tags", "query"), ("ids", "query")],
            ),
            "tags",
            "string[]",
            None,
        );
        let e = typed(e, "ids", "integer[]", None);
        let open: Vec<Profile> = e
            .parameters
            .iter()
            .map(|p| Profile::of(p, &e.url))
            .collect();
        let mut params = BTreeMap::from([
            ("tags".to_string(), Value::from("cute")),
            ("ids".to_string(), serde_json::json!([3, 4])),
        ]);
        assert_eq!(
            pass(&open, vec!["ids".into(), "tags".into()], &mut params),
            ["ids", "tags"]
        );
        assert_eq!(params["tags"], serde_json::json!(["cute"]));
        assert_eq!(params["ids"], serde_json::json!([3, 4]));
    }
}
