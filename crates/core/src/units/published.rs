//! Normalisation of providers' published unit spellings into the unit grammar.

/// Unit words: (lower-case word, symbol, takes prefix words like "kilo"/"giga").
const UNIT_WORDS: &[(&str, &str, bool)] = &[
    ("metre", "m", true),
    ("meter", "m", true),
    ("gram", "g", true),
    ("gramme", "g", true),
    ("second", "s", true),
    ("sec", "s", false),
    ("ampere", "A", true),
    ("kelvin", "K", true),
    ("mole", "mol", true),
    ("candela", "cd", true),
    ("radian", "rad", true),
    ("steradian", "sr", true),
    ("hertz", "Hz", true),
    ("newton", "N", true),
    ("pascal", "Pa", true),
    ("joule", "J", true),
    ("watt", "W", true),
    ("coulomb", "C", true),
    ("volt", "V", true),
    ("farad", "F", true),
    ("ohm", "Ω", true),
    ("siemens", "S", true),
    ("weber", "Wb", true),
    ("tesla", "T", true),
    ("henry", "H", true),
    ("electronvolt", "eV", true),
    ("electron_volt", "eV", true),
    ("litre", "L", true),
    ("liter", "L", true),
    ("bar", "bar", true),
    ("dalton", "Da", true),
    ("angstrom", "Å", false),
    ("ångström", "Å", false),
    ("ångstrom", "Å", false),
    ("angström", "Å", false),
    ("degree", "deg", false),
    ("atomic_mass_unit", "u", false),
    ("bohr_magneton", "μB", false),
    ("electron_mass", "m_e", false),
    ("elementary_charge", "e", false),
    ("boltzmann_constant", "kB", false),
    ("atmosphere", "atm", false),
    ("minute", "min", false),
    ("hour", "h", false),
    ("percent", "%", false),
    ("dimensionless", "1", false),
    ("unitless", "1", false),
    ("atom", "atom", false),
    ("cell", "cell", false),
    ("unit_cell", "cell", false),
    ("formula_unit", "f.u.", false),
];

/// Prefix words and their SI prefix symbols.
const PREFIX_WORDS: &[(&str, &str)] = &[
    ("quetta", "Q"),
    ("ronna", "R"),
    ("yotta", "Y"),
    ("zetta", "Z"),
    ("exa", "E"),
    ("peta", "P"),
    ("tera", "T"),
    ("giga", "G"),
    ("mega", "M"),
    ("kilo", "k"),
    ("hecto", "h"),
    ("deca", "da"),
    ("deka", "da"),
    ("deci", "d"),
    ("centi", "c"),
    ("milli", "m"),
    ("micro", "μ"),
    ("nano", "n"),
    ("pico", "p"),
    ("femto", "f"),
    ("atto", "a"),
    ("zepto", "z"),
    ("yocto", "y"),
    ("ronto", "r"),
    ("quecto", "q"),
];

/// Case-sensitive whole-token rewrites: OQMD's "Ao" for Å, ASCII and subscript spellings of
/// μB and kB, and battery-style run-together products (mAh, Wh).
const EXACT_TOKENS: &[(&str, &str)] = &[
    ("Ao", "Å"),
    ("mu_B", "μB"),
    ("muB", "μB"),
    ("μ_B", "μB"),
    ("k_B", "kB"),
    ("Ah", "A·h"),
    ("mAh", "mA·h"),
    ("Wh", "W·h"),
    ("kWh", "kW·h"),
    ("mWh", "mW·h"),
];

/// Multi-word names joined before word mapping (matched ASCII-case-insensitively).
const PHRASES: &[(&str, &str)] = &[
    ("atomic mass unit", "atomic_mass_unit"),
    ("electron volt", "electron_volt"),
    ("bohr magneton", "bohr_magneton"),
    ("formula unit", "formula_unit"),
    ("unit cell", "cell"),
    ("electron mass", "electron_mass"),
    ("elementary charge", "elementary_charge"),
    ("degrees celsius", "°C"),
    ("degree celsius", "°C"),
    ("degrees fahrenheit", "°F"),
    ("degree fahrenheit", "°F"),
];

/// All unit words with their symbols (for "did you mean").
pub(crate) fn unit_words() -> impl Iterator<Item = (&'static str, &'static str)> {
    UNIT_WORDS.iter().map(|(w, s, _)| (*w, *s))
}

/// Map a unit word to its symbol, case-insensitively, with an optional trailing plural "s"
/// and an optional prefix word: "Joules" → "J", "gigapascal" → "GPa", "grams" → "g",
/// "electron_volt" → "eV". `None` for anything else (symbols are not words: "eV" → None).
pub(crate) fn word_to_symbol(word: &str) -> Option<String> {
    let lower = word.to_lowercase();
    let find = |w: &str| -> Option<String> {
        if let Some((_, s, _)) = UNIT_WORDS.iter().find(|(x, _, _)| *x == w) {
            return Some((*s).to_string());
        }
        PREFIX_WORDS.iter().find_map(|(pw, ps)| {
            let rest = w.strip_prefix(pw)?;
            UNIT_WORDS
                .iter()
                .find(|(x, _, p)| *p && *x == rest)
                .map(|(_, s, _)| format!("{ps}{s}"))
        })
    };
    find(&lower).or_else(|| {
        let singular = lower.strip_suffix('s')?;
        (singular.chars().count() >= 3).then(|| find(singular))?
    })
}

fn named_entity(name: &str) -> Option<&'static str> {
    Some(match name {
        "Aring" | "aring" | "angst" => "Å",
        "mu" | "micro" => "μ",
        "deg" => "°",
        "Omega" | "ohm" => "Ω",
        "middot" | "sdot" | "centerdot" => "·",
        "times" => "×",
        "minus" | "ndash" | "hyphen" => "-",
        "sup1" => "¹",
        "sup2" => "²",
        "sup3" => "³",
        "nbsp" | "thinsp" | "ensp" | "emsp" | "nnbsp" => " ",
        "amp" => "&",
        "lt" => "<",
        "gt" => ">",
        "quot" => "\"",
        "percnt" => "%",
        "sol" | "frasl" => "/",
        "ast" => "*",
        "Hat" => "^",
        "lpar" => "(",
        "rpar" => ")",
        "period" => ".",
        _ => return None,
    })
}

/// Decode HTML character references: named ones from a small table, `&#197;`, `&#x3bc;`.
/// Unknown or malformed references are left as they are.
fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let decoded = rest[1..].find(';').filter(|&j| j <= 10).and_then(|j| {
            let body = &rest[1..1 + j];
            let text = if let Some(num) = body.strip_prefix('#') {
                let code = match num.strip_prefix(['x', 'X']) {
                    Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                    None => num.parse().ok()?,
                };
                char::from_u32(code)?.to_string()
            } else {
                named_entity(body)?.to_string()
            };
            Some((text, j + 2))
        });
        match decoded {
            Some((text, used)) => {
                out.push_str(&text);
                rest = &rest[used..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Replace `<sup>` by `^`, `<sub>` by `_`, and drop every other tag (and closing tags).
fn strip_tags(s: &str) -> String {
    if !s.contains('<') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('<') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let tag = rest.find('>').map(|j| &rest[1..j]).filter(|body| {
            let b = body.strip_prefix('/').unwrap_or(body);
            b.starts_with(|c: char| c.is_ascii_alphabetic())
        });
        match tag {
            Some(body) => {
                let name: String = body
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric())
                    .collect::<String>()
                    .to_ascii_lowercase();
                match name.as_str() {
                    "sup" => out.push('^'),
                    "sub" => out.push('_'),
                    _ => {}
                }
                rest = &rest[body.len() + 2..];
            }
            None => {
                out.push('<');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn fold_chars(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\u{00B5}' => '\u{03BC}',
            '\u{212B}' => '\u{00C5}',
            '\u{2126}' => '\u{03A9}',
            '\u{212A}' => 'K',
            '\u{2212}' | '\u{2010}' | '\u{2011}' | '\u{2013}' => '-',
            '\u{22C5}' | '\u{2219}' | '\u{2022}' => '·',
            '\u{2044}' | '\u{2215}' => '/',
            c if c.is_whitespace() => ' ',
            c => c,
        })
        .collect()
}

fn replace_phrases(s: &str) -> String {
    let mut out = s.to_string();
    for (phrase, joined) in PHRASES {
        while let Some(i) = out.to_ascii_lowercase().find(phrase) {
            out.replace_range(i..i + phrase.len(), joined);
        }
    }
    out
}

fn is_op(c: char) -> bool {
    matches!(c, '/' | '*' | '·' | '^' | '×')
}

/// Collapse whitespace runs to one space and drop whitespace next to operators, after '('
/// and before ')'.
fn tidy_spaces(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == ' ' {
            let mut j = i;
            while j < chars.len() && chars[j] == ' ' {
                j += 1;
            }
            let before = out.chars().last();
            let after = chars.get(j).copied();
            let drop = match (before, after) {
                (None, _) | (_, None) => true,
                (Some(b), Some(a)) => is_op(b) || is_op(a) || b == '(' || a == ')',
            };
            if !drop {
                out.push(' ');
            }
            i = j;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_word_char(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

/// Rewrite whole words: exact tokens (Ao, mu_B, k_B), "per" → "/", unit words and prefixed
/// unit words (case-insensitive, plural "s") → symbols. Words shorter than three characters
/// are symbols, not words, and are left alone.
fn map_words(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(start) = rest.find(is_word_char) {
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest.find(|c: char| !is_word_char(c)).unwrap_or(rest.len());
        let word = &rest[..end];
        let preceded_by_digit = out.chars().last().is_some_and(|c| c.is_ascii_digit());
        if let Some((_, to)) = EXACT_TOKENS.iter().find(|(from, _)| *from == word) {
            out.push_str(to);
        } else if preceded_by_digit || word.chars().count() < 3 {
            out.push_str(word);
        } else if word.eq_ignore_ascii_case("per") {
            out.push('/');
        } else if let Some(sym) = word_to_symbol(word) {
            out.push_str(&sym);
        } else {
            out.push_str(word);
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// "cm3" → "cm^3", "m-3" → "m^-3": a letter run (not part of a number such as "1e21")
/// directly followed by digits is a symbol with an exponent.
fn insert_carets(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len() + 4);
    let mut run_in_number = false;
    for (i, &c) in chars.iter().enumerate() {
        out.push(c);
        if !c.is_alphabetic() {
            continue;
        }
        let run_start = i == 0 || !chars[i - 1].is_alphabetic();
        if run_start {
            run_in_number = i > 0 && chars[i - 1].is_ascii_digit();
        }
        let next = chars.get(i + 1).copied();
        let next2 = chars.get(i + 2).copied();
        let exponent_follows = next.is_some_and(|n| n.is_ascii_digit())
            || (next == Some('-') && next2.is_some_and(|n| n.is_ascii_digit()));
        if exponent_follows && !run_in_number {
            out.push('^');
        }
    }
    out
}

fn is_superscript_exponent(c: char) -> bool {
    matches!(c, '⁻' | '⁺' | '⁰' | '²'..='³' | '⁴'..='⁹')
}

/// A bare "A" raised to a power other than 1 ("A^3", "A^-1", "A³", "eV/A^2") is the
/// angstrom written in ASCII, not the ampere: providers use it for volumes, areas and
/// reciprocal lengths, where ampere powers do not occur.
fn powered_a_is_angstrom(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    for (i, &c) in chars.iter().enumerate() {
        let alone = c == 'A'
            && (i == 0 || !is_word_char(chars[i - 1]))
            && chars.get(i + 1).is_none_or(|&n| !is_word_char(n));
        let powered = match chars.get(i + 1) {
            Some('^') => {
                let exp: String = chars[i + 2..]
                    .iter()
                    .skip_while(|&&c| c == '(')
                    .take_while(|&&c| c.is_ascii_digit() || c == '-' || c == '+')
                    .collect();
                !exp.is_empty() && exp != "1" && exp != "+1"
            }
            Some(&n) => {
                is_superscript_exponent(n)
                    || (n == '¹' && chars.get(i + 2).is_some_and(|&m| superscript_digit_like(m)))
            }
            None => false,
        };
        out.push(if alone && powered { 'Å' } else { c });
    }
    out
}

fn superscript_digit_like(c: char) -> bool {
    matches!(c, '⁰' | '¹' | '²' | '³' | '⁴'..='⁹')
}

/// Remove trailing stray punctuation ("μB/f.u. ." → "μB/f.u."), keeping the dot of "f.u.".
fn strip_trailing_junk(s: &str) -> String {
    let mut out = s.trim().to_string();
    loop {
        if out.ends_with("f.u.") {
            break;
        }
        match out.chars().last() {
            Some('.' | ',' | ';' | ':') => {
                out.pop();
                let t = out.trim_end().len();
                out.truncate(t);
            }
            _ => break,
        }
    }
    out
}

/// With a single '/', no parentheses after it and a product after it, read everything after
/// the '/' as the denominator: "W/m*K" → "W/(m*K)", "J/mol K" → "J/(mol K)".
fn wrap_denominator(s: &str) -> String {
    if s.matches('/').count() != 1 {
        return s.to_string();
    }
    let (head, tail) = s.split_once('/').expect("one slash");
    if tail.contains(['(', ')']) || tail.is_empty() {
        return s.to_string();
    }
    let probe = tail.replace("f.u.", "").replace("f.u", "");
    let mut prev: Option<char> = None;
    let mut product = false;
    for c in probe.chars() {
        if matches!(c, ' ' | '*' | '·' | '×')
            || (c == '.' && !prev.is_some_and(|p| p.is_ascii_digit()))
        {
            product = true;
            break;
        }
        prev = Some(c);
    }
    if product {
        format!("{head}/({tail})")
    } else {
        s.to_string()
    }
}

/// Normalise a provider's spelling to the unit grammar. Total (never fails); the result is
/// meant for [`super::UnitTable::parse`]. Steps, in order:
///
/// 1. HTML character references: `&Aring;` `&mu;` `&micro;` `&deg;` `&Omega;` `&middot;`
///    `&sup2;` `&nbsp;` ..., decimal `&#197;` and hex `&#x3bc;`.
/// 2. Tags: `<sup>3</sup>` → `^3`, `<sub>B</sub>` → `_B`, other tags dropped.
/// 3. Look-alike characters: µ → μ, Å (U+212B) → Å, Ω sign → Ω, Unicode minus → `-`,
///    `⋅`/`∙` → `·`, all whitespace → space.
/// 4. pint/python style: `**` → `^`; whitespace around operators dropped, runs collapsed
///    (`kg / m ** 3` → `kg/m^3`).
/// 5. Words, case-insensitively and with plural "s": joule, pascal, radian, angstrom,
///    grams, degree, dimensionless (→ `1`), atom(s), cell(s), electron volt, bohr magneton,
///    formula unit, prefix words (gigapascal → GPa), "per" → `/`; OQMD's `Ao` → Å;
///    `mu_B`/`μ_B` → μB, `k_B` → kB. This also repairs case slips in words (`eV/Atom`).
/// 6. Exponents without a caret: `cm3` → `cm^3`, `m-3` → `m^-3`. A bare `A` with a power
///    other than 1 is read as Å (`A^3`, `eV/A^2`, `A^-1`); a bare `A` stays the ampere.
/// 7. Trailing junk such as the " ." of Materials Project's `μB/f.u. .`; outer `[...]`.
/// 8. A single `/` followed by an unparenthesised product takes the whole product as its
///    denominator: `W/m*K` → `W/(m*K)` (providers mean W/(m·K); the strict grammar would
///    reject it as ambiguous).
///
/// Unicode superscripts (`10²¹V/m^2`) are left for the parser. Case slips in symbols
/// (`ev`, `gpa`) are repaired by [`super::UnitTable::parse_published`], which knows the table.
pub fn normalise_published(s: &str) -> String {
    let s = decode_entities(s);
    let s = strip_tags(&s);
    let s = fold_chars(&s);
    let s = replace_phrases(&s);
    let s = s.replace("**", "^");
    let s = tidy_spaces(&s);
    let s = map_words(&s);
    let s = tidy_spaces(&s);
    let s = insert_carets(&s);
    let s = powered_a_is_angstrom(&s);
    let mut s = strip_trailing_junk(&s);
    if s.starts_with('[') && s.ends_with(']') {
        s = strip_trailing_junk(&s[1..s.len() - 1]);
    }
    wrap_denominator(&s)
}

#[cfg(test)]
mod tests {
    use super::super::{Dimension, UnitTable};
    use super::*;

    #[test]
    fn words() {
        assert_eq!(word_to_symbol("Joules").as_deref(), Some("J"));
        assert_eq!(word_to_symbol("gigapascal").as_deref(), Some("GPa"));
        assert_eq!(word_to_symbol("grams").as_deref(), Some("g"));
        assert_eq!(word_to_symbol("kilogram").as_deref(), Some("kg"));
        assert_eq!(word_to_symbol("electron_volt").as_deref(), Some("eV"));
        assert_eq!(word_to_symbol("Ångström").as_deref(), Some("Å"));
        assert_eq!(word_to_symbol("siemens").as_deref(), Some("S"));
        assert_eq!(word_to_symbol("atoms").as_deref(), Some("atom"));
        assert_eq!(word_to_symbol("eV"), None);
        assert_eq!(word_to_symbol("kiloangstrom"), None);
        assert_eq!(word_to_symbol("s"), None);
    }

    #[test]
    fn normalised_strings() {
        let n = normalise_published;
        assert_eq!(n("eV/Atom"), "eV/atom");
        assert_eq!(n("degrees Celsius"), "°C");
        assert_eq!(n("Degree Fahrenheit per minute"), "°F/min");
        assert_eq!(n("μB/f.u. ."), "μB/f.u.");
        assert_eq!(n("Ao"), "Å");
        assert_eq!(n("Ao^3"), "Å^3");
        assert_eq!(n("&Aring;"), "Å");
        assert_eq!(n("&#197;"), "Å");
        assert_eq!(n("&#x3bc;m"), "μm");
        assert_eq!(n("&Aring;<sup>3</sup>"), "Å^3");
        assert_eq!(n("&Aring;<sup>3</sup>/atom"), "Å^3/atom");
        assert_eq!(n("grams/cm<sup>3</sup>"), "g/cm^3");
        assert_eq!(n("&mu;<sub>B</sub>"), "μB");
        assert_eq!(n("&mu;<sub>B</sub>/atom"), "μB/atom");
        assert_eq!(n("W/m*K"), "W/(m*K)");
        assert_eq!(n("J/mol K"), "J/(mol K)");
        assert_eq!(n("m ** 3"), "m^3");
        assert_eq!(n("kg / m ** 3"), "kg/m^3");
        assert_eq!(n("1 / m ** 3"), "1/m^3");
        assert_eq!(n("angstrom"), "Å");
        assert_eq!(n("dimensionless"), "1");
        assert_eq!(n("joule"), "J");
        assert_eq!(n("pascal"), "Pa");
        assert_eq!(n("radian"), "rad");
        assert_eq!(n("degree"), "deg");
        assert_eq!(n("10²¹V/m^2"), "10²¹V/m^2");
        assert_eq!(n("eV per atom"), "eV/atom");
        assert_eq!(n("electron volt / atom"), "eV/atom");
        assert_eq!(n("gram / centimeter ** 3"), "g/cm^3");
        assert_eq!(n("g/cm3"), "g/cm^3");
        assert_eq!(n("m-3"), "m^-3");
        assert_eq!(n("g.cm-3"), "g.cm^-3");
        assert_eq!(n("eV/f.u"), "eV/f.u");
        assert_eq!(n("mAh/g"), "mA·h/g");
        assert_eq!(n("A^3/atom"), "Å^3/atom");
        assert_eq!(n("eV/A^2"), "eV/Å^2");
        assert_eq!(n("A^-1"), "Å^-1");
        assert_eq!(n("A³"), "Å³");
        assert_eq!(n("A"), "A");
        assert_eq!(n("A/m^2"), "A/m^2");
        assert_eq!(n("A^1"), "A^1");
        assert_eq!(n("mA^2"), "mA^2");
        assert_eq!(n("A¹"), "A¹");
        assert_eq!(n("A¹²"), "Å¹²");
        assert_eq!(n("1e21 V/m^2"), "1e21 V/m^2");
        assert_eq!(n("[eV]"), "eV");
        assert_eq!(n("  eV  "), "eV");
        assert_eq!(n("cm<sup>&minus;1</sup>"), "cm^-1");
        assert_eq!(n("m<SUP>2</SUP>/s"), "m^2/s");
        assert_eq!(n("<i>k</i><sub>B</sub>"), "kB");
        assert_eq!(n("a < b"), "a < b");
        assert_eq!(n("&bogus; &"), "&bogus; &");
        assert_eq!(n("\u{00B5}V/K"), "μV/K");
        assert_eq!(n(""), "");
    }

    fn dim(name: &str) -> Dimension {
        Dimension::from_name(name).unwrap()
    }

    /// Every published spelling from the brief, with its dimension and canonical spelling.
    #[test]
    fn published_spellings_parse() {
        let t = UnitTable::builtin();
        let cases: &[(&str, &str, &str)] = &[
            ("eV/Atom", "energy_per_atom", "eV/atom"),
            ("μB/f.u. .", "magnetic_moment_per_formula_unit", "μB/f.u."),
            ("Ao", "length", "Å"),
            ("Ao^3", "volume", "Å^3"),
            ("&Aring;", "length", "Å"),
            ("&Aring;<sup>3</sup>", "volume", "Å^3"),
            ("&Aring;<sup>3</sup>/atom", "volume_per_atom", "Å^3/atom"),
            ("grams/cm<sup>3</sup>", "mass_density", "g/cm^3"),
            ("&mu;<sub>B</sub>", "magnetic_moment", "μB"),
            (
                "&mu;<sub>B</sub>/atom",
                "magnetic_moment_per_atom",
                "μB/atom",
            ),
            ("W/m*K", "thermal_conductivity", "W/(m·K)"),
            ("kB/cell", "heat_capacity_per_cell", "kB/cell"),
            ("angstrom", "length", "Å"),
            ("dimensionless", "dimensionless", "1"),
            ("m ** 3", "volume", "m^3"),
            ("kg / m ** 3", "mass_density", "kg/m^3"),
            ("1 / m ** 3", "inverse_volume", "1/m^3"),
            ("joule", "energy", "J"),
            ("pascal", "pressure", "Pa"),
            ("radian", "angle", "rad"),
            ("meV/atom", "energy_per_atom", "meV/atom"),
            ("pC/N", "piezoelectric_coefficient", "pC/N"),
            ("10²¹V/m^2", "electric_field_gradient", "10^21 V/m^2"),
            ("m_e", "mass", "m_e"),
            ("μV/K", "seebeck_coefficient", "μV/K"),
            ("μW/(m·K²)", "power_factor", "μW/(m·K^2)"),
            ("J/m²", "energy_per_area", "J/m^2"),
            ("eV/Å²", "energy_per_area", "eV/Å^2"),
            ("g/mol", "molar_mass", "g/mol"),
            ("Å²", "area", "Å^2"),
            ("K", "temperature", "K"),
            ("kPa", "pressure", "kPa"),
            ("degree", "angle", "deg"),
        ];
        for (s, d, canonical) in cases {
            let u = t
                .parse_published(s)
                .unwrap_or_else(|e| panic!("{s}: {e:?}"));
            assert_eq!(u.dim, dim(d), "{s}");
            assert_eq!(u.canonical, *canonical, "{s}");
        }
    }

    #[test]
    fn published_factors() {
        let t = UnitTable::builtin();
        let f = |s: &str| t.parse_published(s).unwrap().factor;
        assert_eq!(f("grams/cm<sup>3</sup>"), 1000.0);
        assert_eq!(f("&Aring;<sup>3</sup>"), 1e-30);
        assert_eq!(f("10²¹V/m^2"), 1e21);
        assert_eq!(f("pC/N"), 1e-12);
        assert_eq!(f("μW/(m·K²)"), 1e-6);
        assert_eq!(f("degree"), std::f64::consts::PI / 180.0);
        assert_eq!(f("kPa"), 1000.0);
    }
}
