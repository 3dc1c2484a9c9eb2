//! Pass `qualifiers`: values of the qualifier vocabulary (the DFT functional, the averaging
//! scheme, ...) anywhere outside tool names and identifiers, inside a concept's words too
//! ("electron effective mass", "n-type Seebeck"), longest first; a temperature written as
//! `300 K` when the vocabulary has a `temperature` key.
//!
//! Reads the tokens and `extracted`; writes `qualifiers`.

use super::Flow;
use crate::route::analyzer::lexical::Lexical;
use crate::route::analyzer::lexical::reading::Reading;
use crate::route::analyzer::lexical::text::Token;

pub(in crate::route::analyzer::lexical) fn run(lx: &Lexical<'_>, r: &mut Reading) -> Flow {
    let g = lx.g;
    let tokens = &r.tokens;
    let consumed = |t: &Token| r.consumed(&lx.recognisers, t);
    let query = &r.query;
    let mut qualifiers = std::collections::BTreeMap::new();
    // Field qualifiers: values of the qualifier vocabulary anywhere outside tool names and
    // identifiers (inside a concept's words too: "electron effective mass", "n-type
    // Seebeck"), longest first; temperatures written as `300 K`.
    if !g.index.qualifier_values.is_empty() {
        let tool_token = |k: usize| {
            (0..tokens.len()).any(|a| {
                (a + 1..=tokens.len().min(a + lx.max_words)).any(|b| {
                    a <= k && k < b && lx.lookup(&g.index.tool_names, &tokens[a..b]).is_some()
                })
            })
        };
        let mut k = 0;
        while k < tokens.len() {
            let mut step = 1;
            if !consumed(&tokens[k]) && !tool_token(k) {
                let max = lx.max_words.min(tokens.len() - k);
                for len in (1..=max).rev() {
                    let span = &tokens[k..k + len];
                    if span.iter().any(consumed) {
                        continue;
                    }
                    if let Some((refs, _)) = lx.lookup(&g.index.qualifier_values, span)
                        && let Some(q) = refs.first()
                    {
                        qualifiers
                            .entry(q.key.clone())
                            .or_insert_with(|| q.value.clone());
                        step = len;
                        break;
                    }
                }
            }
            k += step;
        }
        if let Some(key) = g.index.qualifier_keys.get("temperature")
            && !qualifiers.contains_key(key)
            && let Some(t) = temperature(query)
        {
            qualifiers.insert(key.clone(), t);
        }
    }
    r.qualifiers = qualifiers;
    Flow::Next
}

/// A temperature written as `300 K` / `300K` / `298.15 K`, normalised to `300 K`.
fn temperature(query: &str) -> Option<String> {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| regex::Regex::new(r"\b(\d{1,4}(?:\.\d+)?)\s?K\b").expect("regex"));
    re.captures(query)
        .and_then(|c| c.get(1))
        .map(|m| format!("{} K", m.as_str()))
}

#[cfg(test)]
mod tests {
    use crate::route::analyzer::testing::understand;
    use std::collections::BTreeMap;

    fn qualifiers(q: &str) -> BTreeMap<String, String> {
        understand(q).qualifiers
    }

    #[test]
    fn qualifier_values_and_temperatures() {
        let one = |k: &str, v: &str| BTreeMap::from([(k.to_string(), v.to_string())]);
        assert_eq!(
            qualifiers("band gap of Si with OptB88vdW"),
            one("functional", "OptB88vdW")
        );
        // An alias of a value gives the value.
        assert_eq!(
            qualifiers("band gap of GaN with HSE, not from Materials Project"),
            one("functional", "HSE06")
        );
        assert_eq!(
            qualifiers("Seebeck coefficient of Bi2Te3 at 300 K"),
            one("temperature", "300 K")
        );
    }
}
