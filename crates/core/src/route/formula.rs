//! Chemical formulas: parsing (`Fe2O3`, `Ca(OH)2`, `CuSO4·5H2O`, `Al2 O3`) and the value
//! transforms bindings declare: Hill order with spaces (COD), alphabetical reduced formula
//! (OPTIMADE `chemical_formula_reduced`), element lists and counts (AFLOW `species`/`nspecies`).

use std::collections::BTreeMap;

/// The 118 element symbols.
pub const ELEMENTS: &[&str] = &[
    "H", "He", "Li", "Be", "B", "C", "N", "O", "F", "Ne", "Na", "Mg", "Al", "Si", "P", "S", "Cl",
    "Ar", "K", "Ca", "Sc", "Ti", "V", "Cr", "Mn", "Fe", "Co", "Ni", "Cu", "Zn", "Ga", "Ge", "As",
    "Se", "Br", "Kr", "Rb", "Sr", "Y", "Zr", "Nb", "Mo", "Tc", "Ru", "Rh", "Pd", "Ag", "Cd", "In",
    "Sn", "Sb", "Te", "I", "Xe", "Cs", "Ba", "La", "Ce", "Pr", "Nd", "Pm", "Sm", "Eu", "Gd", "Tb",
    "Dy", "Ho", "Er", "Tm", "Yb", "Lu", "Hf", "Ta", "W", "Re", "Os", "Ir", "Pt", "Au", "Hg", "Tl",
    "Pb", "Bi", "Po", "At", "Rn", "Fr", "Ra", "Ac", "Th", "Pa", "U", "Np", "Pu", "Am", "Cm", "Bk",
    "Cf", "Es", "Fm", "Md", "No", "Lr", "Rf", "Db", "Sg", "Bh", "Hs", "Mt", "Ds", "Rg", "Cn", "Nh",
    "Fl", "Mc", "Lv", "Ts", "Og",
];

/// True for an element symbol.
pub fn is_element(s: &str) -> bool {
    ELEMENTS.contains(&s)
}

/// Element amounts of a formula (element -> amount), or `None` when the text is not a formula.
///
/// Accepts element symbols with integer or decimal counts, parenthesised groups with
/// multipliers, hydrate dots (`·`, `.`, `*`) with a leading multiplier, and spaces between parts.
pub fn parse(formula: &str) -> Option<BTreeMap<String, f64>> {
    let text: String = formula.chars().filter(|c| !c.is_whitespace()).collect();
    if text.is_empty() {
        return None;
    }
    let mut total = BTreeMap::new();
    for part in text.split(['·', '*', '•']) {
        let (mult, rest) = leading_number(part);
        let chars: Vec<char> = rest.chars().collect();
        let mut pos = 0;
        let counts = parse_group(&chars, &mut pos, 0)?;
        if pos != chars.len() {
            return None;
        }
        for (e, n) in counts {
            *total.entry(e).or_insert(0.0) += n * mult.unwrap_or(1.0);
        }
    }
    if total.is_empty() { None } else { Some(total) }
}

/// Elements a case-folded formula may contain ([`from_case_folded`]): those of everyday
/// materials and compounds. Radioactive and synthetic elements and the noble gases are left
/// out, so English words that happen to spell symbols (`water` = W At Er, `bones` = B O N Es)
/// are not read as formulas.
const CASE_FOLDED_ELEMENTS: &[&str] = &[
    "H", "Li", "Be", "B", "C", "N", "O", "F", "Na", "Mg", "Al", "Si", "P", "S", "Cl", "K", "Ca",
    "Sc", "Ti", "V", "Cr", "Mn", "Fe", "Co", "Ni", "Cu", "Zn", "Ga", "Ge", "As", "Se", "Br", "Rb",
    "Sr", "Y", "Zr", "Nb", "Mo", "Ru", "Rh", "Pd", "Ag", "Cd", "In", "Sn", "Sb", "Te", "I", "Cs",
    "Ba", "La", "Ce", "Pr", "Nd", "Sm", "Eu", "Gd", "Tb", "Dy", "Ho", "Er", "Tm", "Yb", "Lu", "Hf",
    "Ta", "W", "Re", "Os", "Ir", "Pt", "Au", "Hg", "Tl", "Pb", "Bi",
];

/// A formula typed without capitals and with a count (`sio2`, `srtio3`, `li2co3`, `lifepo4`)
/// written with them (`SiO2`, `SrTiO3`, `Li2CO3`, `LiFePO4`), or `None` when the word is not
/// read as one formula. A word of letters only is never read here (`base`, `cases`, `bio` spell
/// symbols too; the common compounds people type that way are names, see `MATERIAL_NAMES`).
///
/// The word is split into element symbols (one or two letters, each optionally followed by a
/// count) from `CASE_FOLDED_ELEMENTS`, no element twice. Of the splits with the fewest
/// symbols there must be exactly one (`sio2` is `Si O2`, not `S I O2`), except that `co`
/// before a count is carbon and oxygen when that split exists (`li2co3` is `Li2 C O3`, the
/// carbonate; `co3o4`, which would repeat oxygen, stays `Co3 O4`). The result has at least two
/// distinct elements, no count written as `1` and no count above 20 (`h1n1`, `cop26`).
pub fn from_case_folded(word: &str) -> Option<String> {
    case_folded(word, false)
}

/// [`from_case_folded`] for a word coordinated with a formula already read ("zno and zns",
/// "ZnO, gaas"), where a word of letters only is read too: the company it keeps says it names
/// a compound. The same split rules hold (`zns` is `ZnS`; `sin`, which splits as `S In` and
/// `Si N`, is not read).
pub fn from_case_folded_beside_formula(word: &str) -> Option<String> {
    case_folded(word, true)
}

fn case_folded(word: &str, letters_only: bool) -> Option<String> {
    type Split = Vec<(usize, usize, u32)>;
    fn splits(w: &[u8], at: usize, cur: &mut Split, out: &mut Vec<Split>) {
        if at == w.len() {
            out.push(cur.clone());
            return;
        }
        for len in [1, 2] {
            let end = at + len;
            if end > w.len() || !w[at..end].iter().all(u8::is_ascii_alphabetic) {
                continue;
            }
            let sym = &w[at..end];
            if !CASE_FOLDED_ELEMENTS
                .iter()
                .any(|e| e.as_bytes().eq_ignore_ascii_case(sym))
                || cur
                    .iter()
                    .any(|(a, b, _)| w[*a..*b].eq_ignore_ascii_case(sym))
            {
                continue;
            }
            let mut next = end;
            while next < w.len() && w[next].is_ascii_digit() {
                next += 1;
            }
            // A count is a positive number without a leading zero.
            if next > end && w[end] == b'0' {
                continue;
            }
            let count = std::str::from_utf8(&w[end..next])
                .ok()
                .and_then(|c| c.parse().ok())
                .unwrap_or(0);
            cur.push((at, end, count));
            splits(w, next, cur, out);
            cur.pop();
        }
    }
    let w = word.as_bytes();
    if w.len() < 3
        || w.len() > 24
        || !w.iter().all(u8::is_ascii_alphanumeric)
        || w[0].is_ascii_digit()
        || !letters_only && !w.iter().any(u8::is_ascii_digit)
    {
        return None;
    }
    let mut all = Vec::new();
    splits(w, 0, &mut Vec::new(), &mut all);
    // `co` before a count: carbon and oxygen (a carbonate) when that split exists.
    let carbonate = |s: &Split| {
        s.windows(2).any(|p| {
            let (c, o) = (&p[0], &p[1]);
            c.1 - c.0 == 1
                && o.1 - o.0 == 1
                && w[c.0].eq_ignore_ascii_case(&b'c')
                && w[o.0].eq_ignore_ascii_case(&b'o')
                && c.2 == 0
                && o.2 > 0
        })
    };
    let split = match all.iter().find(|s| carbonate(s)) {
        Some(s) => s.clone(),
        None => {
            let fewest = all.iter().map(Vec::len).min()?;
            let mut best = all.into_iter().filter(|s| s.len() == fewest);
            let split = best.next()?;
            if best.next().is_some() {
                return None;
            }
            split
        }
    };
    let symbol = |a: usize, b: usize| {
        let mut s = word[a..b].to_ascii_lowercase();
        s[..1].make_ascii_uppercase();
        s
    };
    // An explicit `1` count (`h1n1`) is no way to write a formula.
    if split.len() < 2 || split.iter().any(|(_, _, n)| *n == 1 || *n > 20) {
        return None;
    }
    let mut out = String::with_capacity(word.len());
    let mut last = 0;
    for (a, b, _) in &split {
        out.push_str(&word[last..*a]);
        out.push_str(&symbol(*a, *b));
        last = *b;
    }
    out.push_str(&word[last..]);
    Some(out)
}

fn leading_number(s: &str) -> (Option<f64>, &str) {
    let end = s
        .char_indices()
        .find(|(_, c)| !c.is_ascii_digit())
        .map(|(i, _)| i)
        .unwrap_or(s.len());
    if end == 0 {
        (None, s)
    } else {
        (s[..end].parse().ok(), &s[end..])
    }
}

fn number(chars: &[char], pos: &mut usize) -> Option<f64> {
    let start = *pos;
    while *pos < chars.len() && (chars[*pos].is_ascii_digit() || chars[*pos] == '.') {
        *pos += 1;
    }
    if *pos == start {
        return None;
    }
    let s: String = chars[start..*pos].iter().collect();
    s.parse().ok()
}

fn parse_group(chars: &[char], pos: &mut usize, depth: usize) -> Option<BTreeMap<String, f64>> {
    if depth > 8 {
        return None;
    }
    let mut out: BTreeMap<String, f64> = BTreeMap::new();
    while *pos < chars.len() {
        let c = chars[*pos];
        if c == '(' || c == '[' {
            *pos += 1;
            let inner = parse_group(chars, pos, depth + 1)?;
            if *pos >= chars.len() || !matches!(chars[*pos], ')' | ']') {
                return None;
            }
            *pos += 1;
            let n = number(chars, pos).unwrap_or(1.0);
            for (e, k) in inner {
                *out.entry(e).or_insert(0.0) += k * n;
            }
        } else if c == ')' || c == ']' {
            break;
        } else if c.is_ascii_uppercase() {
            let mut sym = c.to_string();
            if *pos + 1 < chars.len() && chars[*pos + 1].is_ascii_lowercase() {
                let two = format!("{c}{}", chars[*pos + 1]);
                if is_element(&two) {
                    sym = two;
                }
            }
            if !is_element(&sym) {
                return None;
            }
            *pos += sym.len();
            let n = number(chars, pos).unwrap_or(1.0);
            *out.entry(sym).or_insert(0.0) += n;
        } else {
            return None;
        }
    }
    Some(out)
}

fn count(n: f64) -> String {
    if (n - 1.0).abs() < 1e-9 {
        String::new()
    } else if (n - n.round()).abs() < 1e-9 {
        format!("{}", n.round() as i64)
    } else {
        format!("{n}")
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Divide integer amounts by their greatest common divisor (`Li2O2` -> `LiO`).
fn reduce(m: &BTreeMap<String, f64>) -> BTreeMap<String, f64> {
    if m.values()
        .all(|v| (v - v.round()).abs() < 1e-9 && *v >= 1.0)
    {
        let g = m.values().fold(0u64, |g, v| gcd(g, v.round() as u64));
        if g > 1 {
            return m.iter().map(|(k, v)| (k.clone(), v / g as f64)).collect();
        }
    }
    m.clone()
}

/// Hill order (C first, then H, then alphabetical; alphabetical when there is no carbon), parts
/// separated by spaces: `Al2O3` -> `Al2 O3`, `C8H10N4O2` -> `C8 H10 N4 O2`.
pub fn hill_spaced(m: &BTreeMap<String, f64>) -> String {
    let mut keys: Vec<&String> = m.keys().collect();
    if m.contains_key("C") {
        keys.sort_by_key(|k| match k.as_str() {
            "C" => (0, k.as_str()),
            "H" => (1, k.as_str()),
            other => (2, other),
        });
    }
    keys.iter()
        .map(|k| format!("{k}{}", count(m[*k])))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reduced formula with elements in alphabetical order: `WS2` -> `S2W`, `NaCl` -> `ClNa`.
pub fn alphabetical(m: &BTreeMap<String, f64>) -> String {
    reduce(m)
        .iter()
        .map(|(k, v)| format!("{k}{}", count(*v)))
        .collect()
}

/// Elements, alphabetical, comma-separated: `NaCl` -> `Cl,Na`.
pub fn elements_csv(m: &BTreeMap<String, f64>) -> String {
    m.keys().cloned().collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_transforms() {
        let f = parse("Al2O3").unwrap();
        assert_eq!(hill_spaced(&f), "Al2 O3");
        assert_eq!(alphabetical(&f), "Al2O3");
        assert_eq!(elements_csv(&f), "Al,O");
        assert_eq!(alphabetical(&parse("WS2").unwrap()), "S2W");
        assert_eq!(alphabetical(&parse("NaCl").unwrap()), "ClNa");
        assert_eq!(hill_spaced(&parse("C8H10N4O2").unwrap()), "C8 H10 N4 O2");
        assert_eq!(hill_spaced(&parse("GaN").unwrap()), "Ga N");
        assert_eq!(alphabetical(&parse("Li2O2").unwrap()), "LiO");
        assert_eq!(hill_spaced(&parse("Ca(OH)2").unwrap()), "Ca H2 O2");
        assert_eq!(parse("CuSO4·5H2O").unwrap()["O"], 9.0);
        assert_eq!(alphabetical(&parse("Al2 O3").unwrap()), "Al2O3");
    }

    #[test]
    fn reads_formulas_typed_without_capitals() {
        for (word, formula) in [
            ("sio2", Some("SiO2")),
            ("srtio3", Some("SrTiO3")),
            ("lifepo4", Some("LiFePO4")),
            ("bi2te3", Some("Bi2Te3")),
            ("mos2", Some("MoS2")),
            ("cuinse2", Some("CuInSe2")),
            ("li2co3", Some("Li2CO3")),
            ("caco3", Some("CaCO3")),
            ("co3o4", Some("Co3O4")),
            ("licoo2", Some("LiCoO2")),
            ("TIO2", Some("TiO2")),
            ("gaas", None),
            ("base", None),
            ("cases", None),
            ("aspirin", None),
            ("h1n1", None),
            ("hiv1", None),
            ("cop26", None),
            ("o20", None),
            ("2gaas", None),
            ("ga-as", None),
        ] {
            assert_eq!(from_case_folded(word).as_deref(), formula, "{word}");
        }
    }

    #[test]
    fn rejects_non_formulas() {
        assert!(parse("Hello").is_none());
        assert!(parse("band").is_none());
        assert!(parse("").is_none());
        assert!(parse("Xy2").is_none());
        assert!(parse("Fe2O3)").is_none());
    }
}
