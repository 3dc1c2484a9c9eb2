//! Pass `qualifiers`: values of the qualifier vocabulary (the DFT functional, the averaging
//! scheme, ...) anywhere outside tool names and identifiers, inside a concept's words too
//! ("electron effective mass", "n-type Seebeck"), longest first; a temperature written as
//! `300 K` when the vocabulary has a `temperature` key; a value named by its kind ("a hybrid
//! functional": the one value whose fields' descriptions say "hybrid"); two values of one key
//! asked side by side ("the Voigt and Reuss bounds") qualify nothing.
//!
//! Reads the tokens and `extracted`; writes `qualifiers`.

use super::Flow;
use crate::route::analyzer::lexical::Lexical;
use crate::route::analyzer::lexical::reading::Reading;
use crate::route::analyzer::lexical::text::{STOP, Token};

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
        // Each value read: its key, its value and its byte range in the query.
        let mut read: Vec<(String, String, (usize, usize))> = Vec::new();
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
                        // "upper and lower bounds": the word before `and` shares this value's
                        // head; with it, a value of its own.
                        if let Some(other) = shared_head(lx, tokens, k, len, &consumed) {
                            read.push(other);
                        }
                        let range = (span[0].range.0, span[len - 1].range.1);
                        read.push((q.key.clone(), q.value.clone(), range));
                        step = len;
                        break;
                    }
                }
            }
            k += step;
        }
        read.sort_by_key(|(_, _, r)| *r);
        let described = described_values(lx, tokens, &consumed, &read);
        read.extend(described);
        read.sort_by_key(|(_, _, r)| *r);
        for (key, value, _) in &read {
            if !asked_together(query, &read, key) {
                qualifiers
                    .entry(key.clone())
                    .or_insert_with(|| value.clone());
            }
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

/// The value a word right before `and` / `or` / `&` names with the head of the value read at
/// `tokens[k..k + len]` ("upper" in "upper and lower bounds": the value of "upper bounds"), with
/// its key and the byte range of that word.
fn shared_head(
    lx: &Lexical<'_>,
    tokens: &[Token],
    k: usize,
    len: usize,
    consumed: &dyn Fn(&Token) -> bool,
) -> Option<(String, String, (usize, usize))> {
    if len < 2 || k < 2 || !matches!(tokens[k - 1].norm.as_str(), "and" | "or" | "&") {
        return None;
    }
    let before = &tokens[k - 2];
    if consumed(before) {
        return None;
    }
    let mut other = vec![before.clone()];
    other.extend_from_slice(&tokens[k + 1..k + len]);
    let (refs, _) = lx.lookup(&lx.g.index.qualifier_values, &other)?;
    let q = refs.first()?;
    Some((q.key.clone(), q.value.clone(), before.range))
}

/// Values named by their kind ("from a **hybrid functional**", "the **screened** functional"):
/// a word right before a qualifier key's name that the descriptions of fields carrying one
/// value of the key hold, and those of no field carrying another value of it (`hse_gap`, "HSE06
/// hybrid-functional band gap", is the only field of the `functional` key that says "hybrid").
/// The tools' own declarations say which value the word means. A word that is a value's name
/// ("the PBE functional") was read as that value; of several values of one key, the first
/// written qualifies the request unless they are asked together ([`asked_together`]).
fn described_values(
    lx: &Lexical<'_>,
    tokens: &[Token],
    consumed: &dyn Fn(&Token) -> bool,
    read: &[(String, String, (usize, usize))],
) -> Vec<(String, String, (usize, usize))> {
    let index = &lx.g.index;
    let mut out: Vec<(String, String, (usize, usize))> = Vec::new();
    for i in 1..tokens.len() {
        let max = lx.max_words.min(tokens.len() - i);
        let Some(key) = (1..=max)
            .rev()
            .find_map(|len| lx.lookup(&index.qualifier_keys, &tokens[i..i + len]))
            .map(|(k, _)| k.clone())
        else {
            continue;
        };
        let before = &tokens[i - 1];
        let named = |(_, _, r): &(String, String, (usize, usize))| {
            r.0 <= before.range.0 && before.range.1 <= r.1
        };
        if out.iter().any(|(k, _, _)| *k == key)
            || read.iter().any(named)
            || consumed(before)
            || STOP.contains(&before.norm.as_str())
        {
            continue;
        }
        let words = lx.value_words();
        let values = std::iter::once(&before.norm)
            .chain(&before.stems)
            .find_map(|w| words.get(&(key.clone(), w.clone())));
        if let Some(values) = values
            && values.len() == 1
            && let Some(value) = values.first()
        {
            out.push((key, value.clone(), before.range));
        }
    }
    out
}

/// Whether the question names two values of `key` side by side, joined only by `and`, `or`,
/// `&`, `vs`, `versus`, commas or slashes ("the Voigt and Reuss bounds", "upper and lower
/// bounds", "HSE vs PBE"): it asks for each of them, so no one value qualifies the request.
/// Values of one key apart from each other ("from a hybrid functional, GGA gaps are useless")
/// leave the first value read.
fn asked_together(query: &str, read: &[(String, String, (usize, usize))], key: &str) -> bool {
    let mut of_key: Vec<&(String, String, (usize, usize))> =
        read.iter().filter(|(k, _, _)| k == key).collect();
    of_key.sort_by_key(|(_, _, r)| *r);
    of_key.windows(2).any(|w| {
        let ((_, a, ra), (_, b, rb)) = (w[0], w[1]);
        a != b
            && ra.1 <= rb.0
            && query[ra.1..rb.0]
                .split(|c: char| c.is_whitespace() || matches!(c, ',' | '/'))
                .all(|w| {
                    matches!(
                        w.to_lowercase().as_str(),
                        "" | "and" | "or" | "&" | "vs" | "vs." | "versus"
                    )
                })
    })
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

    #[test]
    fn a_value_named_by_its_kind_is_the_one_whose_fields_say_so() {
        let one = |k: &str, v: &str| BTreeMap::from([(k.to_string(), v.to_string())]);
        for q in [
            "band gap of ZnO from a hybrid functional",
            "calculated band gap of GaN with a hybrid functional, PBE underestimates it",
        ] {
            assert_eq!(qualifiers(q), one("functional", "HSE06"), "{q}");
        }
        // A word the fields of several values hold (`dielectric`: TBmBJ's and OptB88vdW's),
        // or of none, names no value.
        assert_eq!(
            qualifiers("band gap of ZnO and the dielectric functional"),
            BTreeMap::new()
        );
        assert_eq!(
            qualifiers("band gap of ZnO for each functional"),
            BTreeMap::new()
        );
        assert_eq!(
            qualifiers("band gap of ZnO from a fancy functional"),
            BTreeMap::new()
        );
    }

    #[test]
    fn values_of_one_key_asked_together_qualify_nothing() {
        let none = BTreeMap::new();
        for q in [
            "shear modulus of TiC in MP with the Voigt and Reuss averages",
            "bulk modulus of Si, upper and lower bounds",
            "band gap of GaN: HSE vs PBE",
            "band gap of ZnO with mBJ or OptB88vdW in JARVIS",
        ] {
            assert_eq!(qualifiers(q), none, "{q}");
        }
        // One value stays a qualifier; values apart leave the first one read.
        let one = |k: &str, v: &str| BTreeMap::from([(k.to_string(), v.to_string())]);
        assert_eq!(
            qualifiers("bulk modulus of Si, the lower bound"),
            one("average", "Reuss")
        );
        assert_eq!(
            qualifiers("band gap of ZnO with HSE; the PBE gap is too small"),
            one("functional", "HSE06")
        );
    }
}
