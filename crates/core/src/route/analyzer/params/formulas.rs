//! Chemical formulas (recogniser kind `formula`): formulas written as tokens (`LiFePO4`,
//! `GaN's`, "hematite (Fe2O3)"), and, unless a value of one of the recogniser's `unless` concepts
//! was read, formulas typed without capitals: with a count anywhere (`sio2`), coordinated with a
//! formula already read (`zno and zns`), or an element symbol ending a clause after `of` /
//! `for` / `about` ("band gap of W?"). The recogniser's `except` words are never formulas (the
//! capitalised reading skips their exact spelling, the other any casing).

use super::patterns::PATTERNS;
use super::{Extraction, taken};
use crate::artifact::lexicon::RecogniserData;
use crate::route::formula;
use serde_json::Value;

/// A non-ASCII letter of the Latin script (`á`, `ü`, `ß`, `ł`, `ễ`, ...).
fn latin_letter(ch: char) -> bool {
    matches!(ch, '\u{00C0}'..='\u{024F}' | '\u{1E00}'..='\u{1EFF}')
        && ch != '\u{00D7}'
        && ch != '\u{00F7}'
}

/// A Greek letter or the increment sign `∆` (U+2206), which begin symbols of quantities.
fn greek_or_increment(ch: char) -> bool {
    matches!(ch, '\u{0370}'..='\u{03FF}' | '\u{2206}')
}

/// Whether every `(` in `s` is closed by a later `)` and no `)` comes unopened.
fn balanced_parentheses(s: &str) -> bool {
    let mut depth = 0usize;
    for ch in s.chars() {
        match ch {
            '(' => depth += 1,
            ')' => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            _ => {}
        }
    }
    depth == 0
}

/// Formulas written as tokens, for recogniser `r`.
pub(super) fn capitalised(r: &RecogniserData, query: &str, x: &mut Extraction<'_>) {
    let p = &PATTERNS;
    for c in p.word.find_iter(query) {
        let w = c.as_str().trim_end_matches(['.', '·']);
        let w = w.strip_suffix("'s").unwrap_or(w);
        // A formula in parentheses after a name ("hematite (Fe2O3)"): the parentheses are the
        // sentence's, not a group of the formula (which would need a count after them).
        let (w, at) = match w.strip_prefix('(').and_then(|x| x.strip_suffix(')')) {
            Some(inner) if balanced_parentheses(inner) => (inner, c.start() + 1),
            _ => (w, c.start()),
        };
        if w.len() < 2
            || r.except.iter().any(|e| e == w)
            || taken(&x.used, at, at + w.len())
            // Part of a longer word in a Latin-script language (`Cuál` is not Cu); particles in
            // other scripts attach to formulas (`ZnO의`). After a Greek letter or the increment
            // sign it is part of a symbol (`ΔHf`, `∆G`, `μB`), not a compound.
            || query[..c.start()]
                .chars()
                .next_back()
                .is_some_and(|ch| latin_letter(ch) || greek_or_increment(ch))
            || query[c.end()..].chars().next().is_some_and(latin_letter)
        {
            continue;
        }
        let uppercase = w.chars().filter(|ch| ch.is_ascii_uppercase()).count();
        let has_digit = w.chars().any(|ch| ch.is_ascii_digit());
        let looks = (has_digit || uppercase >= 2 || (w.len() == 2 && uppercase == 1))
            && w.chars()
                .next()
                .is_some_and(|ch| ch.is_ascii_uppercase() || ch == '(');
        if !looks
            || w.chars()
                .all(|ch| ch.is_ascii_uppercase() || ch.is_ascii_digit())
                && !has_digit
                && w.len() > 2
        {
            continue;
        }
        if formula::parse(w).is_some() {
            x.push(&r.concept, Value::String(w.to_string()), at, at + w.len());
        }
    }
}

/// Formulas typed without capitals, for recogniser `r`. When nothing else names the entity: a
/// formula typed without capitals but with a count, anywhere ("density for sio2", "lifepo4
/// stability?"); a one-letter element symbol only after `of`, `for` or `about` and ending the
/// question or a clause ("band gap of W?", "bulk modulus of C from AFLOW"), not "papers about B
/// cells" or "complexity of O(n)". A lower-case formula coordinated with one already read ("zno
/// and zns", "ZnO, zns or gaas") is read too, wherever the first came from.
pub(super) fn folded(r: &RecogniserData, query: &str, x: &mut Extraction<'_>) {
    let p = &PATTERNS;
    if x.out.iter().any(|e| r.unless.contains(&e.concept)) {
        return;
    }
    let entity_free = !x.out.iter().any(|e| e.concept == r.concept);
    const ENDS: &[&str] = &[
        "from",
        "in",
        "on",
        "at",
        "with",
        "using",
        "according",
        "by",
        "and",
        "or",
    ];
    let words: Vec<regex::Match> = p.ascii_word.find_iter(query).collect();
    for (i, c) in words.iter().enumerate() {
        let w = c.as_str();
        let after_of = i > 0 && {
            let x = words[i - 1].as_str();
            x.eq_ignore_ascii_case("of")
                || x.eq_ignore_ascii_case("for")
                || x.eq_ignore_ascii_case("about")
        };
        let rest = query[c.end()..].trim_start();
        let ends = rest.is_empty()
            || rest.starts_with(['?', '.', ',', ';', '!', ':'])
            || words
                .get(i + 1)
                .is_some_and(|n| ENDS.iter().any(|e| e.eq_ignore_ascii_case(n.as_str())))
                && !rest.starts_with(['(', '[', '-', '/']);
        // One capital letter is an element there too ("band gap of W"), but not `I`.
        let single = w.len() == 1 && w != "I" && formula::is_element(w);
        // A word with a count reads as a formula wherever it stands ("lifepo4 stability?",
        // "tio2 refractive index"), unless it is a well-known token of another field
        // (`ipv6`, `k8s`, `her2`) or part of a hyphenated or slashed name (`crispr-cas9`).
        let counted = !single
            && w.bytes().any(|b| b.is_ascii_digit())
            && !r.except.iter().any(|n| n.eq_ignore_ascii_case(w))
            && !query[..c.start()].ends_with(['-', '/', '_', '.'])
            && !query[c.end()..].starts_with(['-', '/', '_']);
        // The word before is `and` / `or` / `vs` (or a comma or slash stands between), and
        // before that a formula was read ("zno and zns", "ZnO, zns").
        let coordinated = i > 0
            && (|| {
                let prev = words[i - 1];
                let conjunction = ["and", "or", "vs", "versus"]
                    .iter()
                    .any(|k| k.eq_ignore_ascii_case(prev.as_str()));
                let before = if conjunction {
                    let b = words[i.checked_sub(2)?];
                    let ok = query[prev.end()..c.start()].trim().is_empty()
                        && matches!(query[b.end()..prev.start()].trim(), "" | ",");
                    ok.then_some(b)?
                } else {
                    matches!(query[prev.end()..c.start()].trim(), "," | "/" | ";")
                        .then_some(prev)?
                };
                Some(x.out.iter().any(|x| {
                    x.concept == r.concept
                        && x.range.0 <= before.start()
                        && before.end() <= x.range.1
                }))
            })()
            .unwrap_or(false);
        if !(entity_free && (after_of && ends || counted) || coordinated && (ends || counted))
            || taken(&x.used, c.start(), c.end())
            || query[..c.start()]
                .chars()
                .next_back()
                .is_some_and(latin_letter)
            || query[c.end()..].chars().next().is_some_and(latin_letter)
            || !single && r.except.iter().any(|s| s.eq_ignore_ascii_case(w))
        {
            continue;
        }
        let single = single.then(|| w.to_string());
        let folded = || {
            formula::from_case_folded(w).or_else(|| {
                coordinated
                    .then(|| formula::from_case_folded_beside_formula(w))
                    .flatten()
            })
        };
        if let Some(f) = single.or_else(folded) {
            x.push(&r.concept, Value::String(f), c.start(), c.end());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{extract, get};
    use serde_json::Value;

    /// A lower-case formula coordinated with one already read is read too, even of letters
    /// only; alone, or beside words that are no formula, it is not. Symbols of quantities that
    /// spell an element (`ΔHf`, `Tc`) are no formulas and leave the place to the real one.
    #[test]
    fn formulas_coordinated_and_symbols_of_quantities() {
        use serde_json::json;
        let all = |q: &str| -> Vec<Value> {
            extract(q)
                .into_iter()
                .filter(|e| e.concept == "formula")
                .map(|e| e.value)
                .collect()
        };
        assert_eq!(
            all("band gaps of zno and zns from materials project"),
            [json!("ZnO"), json!("ZnS")]
        );
        assert_eq!(
            all("band gaps of ZnO and zns from materials project"),
            [json!("ZnO"), json!("ZnS")]
        );
        assert_eq!(
            all("band gap of zno, zns or gaas?"),
            [json!("ZnO"), json!("ZnS"), json!("GaAs")]
        );
        // Two splits with the fewest symbols (`S In`, `Si N`): not read.
        assert_eq!(all("band gap of ZnO and sin?"), [json!("ZnO")]);
        assert_eq!(all("papers on GaN and cats"), [json!("GaN")]);
        // A symbol of a quantity spells no compound (`ΔHf` is no hafnium, `Tc` no technetium).
        assert_eq!(all("ΔHf of li2o in kJ/mol?"), [json!("Li2O")]);
        assert_eq!(all("∆Hf of Li2O"), [json!("Li2O")]);
        assert_eq!(all("Tc of MgB2 in K"), [json!("MgB2")]);
        // Not coordinated: a word of letters only stays a word.
        assert_eq!(all("band gap of ZnO for zns users"), [json!("ZnO")]);
    }

    #[test]
    fn formulas_and_names() {
        assert_eq!(
            get(
                "What is the band gap of LiFePO4 according to MP?",
                "formula"
            ),
            Some("LiFePO4".into())
        );
        assert_eq!(get("Compare GaN's band gap", "formula"), Some("GaN".into()));
        assert_eq!(
            get("Poisson's ratio of tungsten from AFLOW", "formula"),
            Some("W".into())
        );
        assert_eq!(get("Tell me about graphene.", "formula"), Some("C".into()));
        assert_eq!(
            get("What do we know about barium titanate?", "formula"),
            Some("BaTiO3".into())
        );
        assert_eq!(
            get("work function of platinum - what does MP give?", "formula"),
            Some("Pt".into())
        );
        assert_eq!(
            get("Materials Project에서 ZnO의 공간군 번호가 뭐야?", "formula"),
            Some("ZnO".into())
        );
        assert_eq!(
            get("카페인 정보 좀 줘", "compound_name"),
            Some("caffeine".into())
        );
        assert_eq!(get("Is it In the DFT data?", "formula"), None);
        // An ASCII run inside a word with accented letters is not a formula.
        assert_eq!(
            get("¿Cuál es la banda prohibida del silicio?", "formula"),
            None
        );
        assert_eq!(
            get("Über die Dichte von GaN", "formula"),
            Some("GaN".into())
        );
        assert_eq!(get("GaN의 밴드갭", "formula"), Some("GaN".into()));
        // Typed without capitals (a count, or a common compound's name), or one capital
        // letter, after `of` / `for` / `about` at the end of a clause.
        assert_eq!(get("band gap of gaas", "formula"), Some("GaAs".into()));
        assert_eq!(get("gaas band gap", "formula"), Some("GaAs".into()));
        assert_eq!(
            get("What is the density for sio2?", "formula"),
            Some("SiO2".into())
        );
        assert_eq!(get("band gap of li2co3", "formula"), Some("Li2CO3".into()));
        assert_eq!(
            get("What is the band gap of W?", "formula"),
            Some("W".into())
        );
        assert_eq!(
            get("bulk modulus of C from AFLOW", "formula"),
            Some("C".into())
        );
        assert_eq!(get("band gap of I", "formula"), None);
        assert_eq!(get("band gap of water", "formula"), Some("H2O".into()));
        assert_eq!(get("band gap of the sample", "formula"), None);
        assert_eq!(get("formation energy for base metals", "formula"), None);
        assert_eq!(get("band gap of cases", "formula"), None);
        assert_eq!(get("papers about B cells", "formula"), None);
        assert_eq!(get("complexity of O(n)", "formula"), None);
        assert_eq!(get("papers about cop26", "formula"), None);
        assert_eq!(get("density of as", "formula"), None);
        // A formula with a count reads anywhere; tokens of other fields do not.
        assert_eq!(get("lifepo4 stability?", "formula"), Some("LiFePO4".into()));
        assert_eq!(get("tio2 refractive index", "formula"), Some("TiO2".into()));
        assert_eq!(get("cspbbr3?", "formula"), Some("CsPbBr3".into()));
        assert_eq!(get("ipv6 routing tables", "formula"), None);
        assert_eq!(get("her2 expression in tumours", "formula"), None);
        assert_eq!(get("crispr-cas9 papers", "formula"), None);
        assert_eq!(get("h3n2 spread", "formula"), None);
        // English names of molecules are compounds wherever they stand.
        assert_eq!(
            get("Tell me about caffeine.", "compound_name"),
            Some("caffeine".into())
        );
        assert_eq!(
            get("acetaminophen's InChIKey", "compound_name"),
            Some("acetaminophen".into())
        );
        assert_eq!(
            get("boiling point of carbon dioxide", "compound_name"),
            Some("carbon dioxide".into())
        );
        assert_eq!(get("boiling point of carbon dioxide", "formula"), None);
        assert_eq!(
            get(
                "What's the weather forecast for Daejeon tomorrow?",
                "formula"
            ),
            None
        );
    }
}
