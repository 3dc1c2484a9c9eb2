//! Whether a value keeps a parameter's declared [`Bounds`] (JSON Schema's `minimum`,
//! `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `minLength`, `maxLength`, `pattern`,
//! `minItems`, `maxItems`). The router's fill checks the values it reads from a question with
//! it, so that a plan never binds a value the deployment's execution boundary would refuse
//! ("`limit`: 80 is more than its maximum 50"). A `pattern` is ECMA-262, as JSON Schema writes
//! it, read with Rust's `regex` after [`ecma_pattern`].

use super::tool::{Bounds, number_value};
use serde_json::Value;

/// A numeric bound: its limit, whether a value is outside it, and what the message says.
type NumberCheck = (Option<f64>, fn(f64, f64) -> bool, &'static str);

impl Bounds {
    /// `Ok` when `v` keeps these bounds: a list its item counts, then each item (or the value
    /// itself) its number or text bounds. The error names the value, the bound and its limit
    /// (`500 is more than its maximum 100`). A `pattern` is read as ECMA-262 ([`ecma_regex`]);
    /// one that Rust's `regex` cannot read (lookaround or backreferences) is not checked: the
    /// upstream checks it.
    pub fn admits(&self, v: &Value) -> Result<(), String> {
        if self.is_empty() {
            return Ok(());
        }
        if let Value::Array(items) = v {
            let count = items.len() as u64;
            if let Some(m) = self.min_items.filter(|m| count < *m) {
                return Err(format!(
                    "a list of {count} item(s) is fewer than its minItems {m}"
                ));
            }
            if let Some(m) = self.max_items.filter(|m| count > *m) {
                return Err(format!(
                    "a list of {count} item(s) is more than its maxItems {m}"
                ));
            }
            return items.iter().try_for_each(|item| self.admits(item));
        }
        if let Some(x) = v.as_f64() {
            self.admits_number(v, x)?;
        }
        if let Value::String(s) = v {
            self.admits_text(v, s)?;
        }
        Ok(())
    }

    fn admits_number(&self, v: &Value, x: f64) -> Result<(), String> {
        let checks: [NumberCheck; 4] = [
            (
                self.minimum,
                |x: f64, l: f64| x < l,
                "less than its minimum",
            ),
            (
                self.maximum,
                |x: f64, l: f64| x > l,
                "more than its maximum",
            ),
            (
                self.exclusive_minimum,
                |x: f64, l: f64| x <= l,
                "not more than its exclusiveMinimum",
            ),
            (
                self.exclusive_maximum,
                |x: f64, l: f64| x >= l,
                "not less than its exclusiveMaximum",
            ),
        ];
        for (limit, out, what) in checks {
            if let Some(l) = limit
                && out(x, l)
            {
                return Err(format!("{v} is {what} {}", number_value(l)));
            }
        }
        Ok(())
    }

    fn admits_text(&self, v: &Value, s: &str) -> Result<(), String> {
        let chars = s.chars().count() as u64;
        if let Some(m) = self.min_length.filter(|m| chars < *m) {
            return Err(format!(
                "{v} has {chars} character(s), fewer than its minLength {m}"
            ));
        }
        if let Some(m) = self.max_length.filter(|m| chars > *m) {
            return Err(format!(
                "{v} has {chars} character(s), more than its maxLength {m}"
            ));
        }
        if let Some(p) = &self.pattern
            && let Ok(re) = ecma_regex(p)
            && !re.is_match(s)
        {
            return Err(format!("{v} does not match its pattern `{p}`"));
        }
        Ok(())
    }
}

/// The ECMA-262 class escapes a JSON Schema `pattern` means, which Rust's `regex` reads as
/// Unicode classes (`\d` would match `１２３４`): written as the ASCII classes ECMA-262 gives
/// them. Valid inside a character class too (`regex` nests classes).
const ECMA_CLASSES: &[(char, &str)] = &[
    ('d', "[0-9]"),
    ('D', "[^0-9]"),
    ('w', "[0-9A-Za-z_]"),
    ('W', "[^0-9A-Za-z_]"),
];

/// `pattern` (ECMA-262, as JSON Schema writes it) written for Rust's `regex`: each `\d`, `\D`,
/// `\w`, `\W` as its ASCII class (`ECMA_CLASSES`); any other escape (also an escaped
/// backslash, `\\d`) kept as it is.
pub fn ecma_pattern(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(e) => match ECMA_CLASSES.iter().find(|(k, _)| *k == e) {
                Some((_, class)) => out.push_str(class),
                None => {
                    out.push('\\');
                    out.push(e);
                }
            },
            None => out.push('\\'),
        }
    }
    out
}

/// `pattern` compiled as ECMA-262 means it ([`ecma_pattern`]); the error of `regex` when it
/// cannot read it.
pub fn ecma_regex(pattern: &str) -> Result<regex::Regex, regex::Error> {
    regex::Regex::new(&ecma_pattern(pattern))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_are_checked_against_every_kind_of_bound() {
        let b = Bounds {
            minimum: Some(1.0),
            maximum: Some(50.0),
            ..Bounds::default()
        };
        assert_eq!(b.admits(&json!(50)), Ok(()));
        assert_eq!(
            b.admits(&json!(80)),
            Err("80 is more than its maximum 50".into())
        );
        assert_eq!(
            b.admits(&json!(0)),
            Err("0 is less than its minimum 1".into())
        );
        let b = Bounds {
            exclusive_minimum: Some(0.0),
            ..Bounds::default()
        };
        assert_eq!(
            b.admits(&json!(0)),
            Err("0 is not more than its exclusiveMinimum 0".into())
        );
        let b = Bounds {
            min_length: Some(5),
            pattern: Some(r"^VH-\d{4}$".into()),
            ..Bounds::default()
        };
        assert_eq!(
            b.admits(&json!("CA")),
            Err("\"CA\" has 2 character(s), fewer than its minLength 5".into())
        );
        assert_eq!(
            b.admits(&json!("LDN-1")),
            Err("\"LDN-1\" does not match its pattern `^VH-\\d{4}$`".into())
        );
        assert_eq!(b.admits(&json!("VH-0042")), Ok(()));
        // A list: its count, then each item.
        let b = Bounds {
            max_items: Some(2),
            maximum: Some(9.0),
            ..Bounds::default()
        };
        assert_eq!(
            b.admits(&json!([1, 2, 3])),
            Err("a list of 3 item(s) is more than its maxItems 2".into())
        );
        assert_eq!(
            b.admits(&json!([1, 12])),
            Err("12 is more than its maximum 9".into())
        );
        // A pattern the regex crate cannot read is left to the upstream.
        let b = Bounds {
            pattern: Some("(?<=a)b".into()),
            ..Bounds::default()
        };
        assert_eq!(b.admits(&json!("b")), Ok(()));
    }
}
