//! Parameter extraction for the offline analyzer: DOIs, arXiv ids, PubChem CIDs, InChIKeys,
//! material ids, years and year ranges, DART codes, result counts, quoted titles, chemical
//! formulas and names. Each extractor returns the byte range it consumed, so concept matching
//! does not read a DOI's digits as words.

use super::names::{
    COMPOUND_NAMES_EN, COMPOUND_NAMES_KO, ELEMENT_NAMES, FORMULA_STOP_WORDS, MATERIAL_NAMES,
};
use crate::route::formula;
use regex::Regex;
use serde_json::Value;
use std::sync::OnceLock;

/// One extracted parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Extracted {
    /// Parameter concept (`doi`, `formula`, ...).
    pub concept: &'static str,
    /// Value.
    pub value: Value,
    /// Byte range in the query.
    pub range: (usize, usize),
}

/// Latin names (lower case, words joined by one space) -> (value, concept), and names in other
/// scripts sorted longest first.
type NameIndex = (
    std::collections::HashMap<&'static str, (&'static str, &'static str)>,
    Vec<(&'static str, &'static str, &'static str)>,
);

fn name_index() -> &'static NameIndex {
    static I: OnceLock<NameIndex> = OnceLock::new();
    I.get_or_init(|| {
        let mut latin = std::collections::HashMap::new();
        let mut other = Vec::new();
        let all = MATERIAL_NAMES
            .iter()
            .chain(ELEMENT_NAMES.iter())
            .map(|(n, f)| (*n, *f, "formula"))
            .chain(
                COMPOUND_NAMES_KO
                    .iter()
                    .map(|(n, f)| (*n, *f, "compound_name")),
            )
            .chain(COMPOUND_NAMES_EN.iter().map(|n| (*n, *n, "compound_name")));
        for (name, value, concept) in all {
            if name.is_ascii() {
                latin.entry(name).or_insert((value, concept));
            } else {
                other.push((name, value, concept));
            }
        }
        other.sort_by_key(|(n, _, _)| std::cmp::Reverse(n.chars().count()));
        (latin, other)
    })
}

/// A regular expression compiled on first use, and only when the text could match: `needs` is a
/// cheap necessary condition (a literal the pattern cannot match without), so a question without
/// a DOI never pays for compiling the DOI pattern.
struct LazyRegex {
    pattern: &'static str,
    needs: fn(&str) -> bool,
    cell: OnceLock<Regex>,
}

/// A pattern that matches nothing, for texts that fail `needs` (compiles in microseconds).
fn never() -> &'static Regex {
    static N: OnceLock<Regex> = OnceLock::new();
    N.get_or_init(|| Regex::new("[^\\s\\S]").expect("regex"))
}

fn non_empty(h: &str) -> bool {
    !h.is_empty()
}

/// `\d` is any Unicode decimal digit; `char::is_numeric` is a superset.
fn numeric(h: &str) -> bool {
    h.chars().any(char::is_numeric)
}

fn century(h: &str) -> bool {
    h.contains("19") || h.contains("20")
}

impl LazyRegex {
    const fn new(pattern: &'static str, needs: fn(&str) -> bool) -> Self {
        LazyRegex {
            pattern,
            needs,
            cell: OnceLock::new(),
        }
    }

    fn regex(&self, h: &str) -> &Regex {
        if (self.needs)(h) {
            self.cell
                .get_or_init(|| Regex::new(self.pattern).expect("regex"))
        } else {
            never()
        }
    }

    fn captures_iter<'r, 'h>(&'r self, h: &'h str) -> regex::CaptureMatches<'r, 'h> {
        self.regex(h).captures_iter(h)
    }

    fn find_iter<'r, 'h>(&'r self, h: &'h str) -> regex::Matches<'r, 'h> {
        self.regex(h).find_iter(h)
    }
}

struct Patterns {
    doi: LazyRegex,
    arxiv: LazyRegex,
    cid: LazyRegex,
    pmid: LazyRegex,
    sample_id: LazyRegex,
    inchikey: LazyRegex,
    mp_id: LazyRegex,
    jvasp: LazyRegex,
    corp_code: LazyRegex,
    year_range: LazyRegex,
    year_in: LazyRegex,
    year_from: LazyRegex,
    year_to: LazyRegex,
    year_ko: LazyRegex,
    fiscal: LazyRegex,
    bare_year: LazyRegex,
    author: LazyRegex,
    max_results: LazyRegex,
    quoted: LazyRegex,
    smiles: LazyRegex,
    word: LazyRegex,
    ascii_word: LazyRegex,
}

static PATTERNS: Patterns = Patterns {
    doi: LazyRegex::new(r#"(?i)\b(10\.\d{4,9}/[^\s"'<>]+)"#, |h| h.contains("10.")),
    arxiv: LazyRegex::new(r"(?i)(?:arxiv[:\s]*)?\b(\d{4}\.\d{4,5}(?:v\d+)?)\b", |h| {
        h.contains('.')
    }),
    cid: LazyRegex::new(r"(?i)\bcid\s*[:#=]?\s*(\d{1,10})\b", numeric),
    // "PMID 31452104", "PMID: 31452104", "PubMed id 31452104", "PubMed article 31452104",
    // "PubMed 31452104" (PubMed ids have up to 8 digits; after a bare `PubMed` at least 5, so
    // "PubMed 2020" stays a year).
    pmid: LazyRegex::new(
        r"(?i)\b(?:(?:pmid|pubmed\s+(?:id|identifier|article|paper|record|entry|abstract|no\.?|number))\s*[:#=]?\s*(\d{1,9})|pubmed\s*[:#]?\s*(\d{5,9}))\b",
        numeric,
    ),
    // "sample S-12", "sample id: LAB-0042", "samples #7": an id with a digit after `sample`.
    sample_id: LazyRegex::new(
        r"(?i)\bsamples?\s*(?:id\s*)?[:#=]?\s*([A-Za-z0-9][A-Za-z0-9_\-./]*\d[A-Za-z0-9_\-]*)",
        numeric,
    ),
    inchikey: LazyRegex::new(r"\b([A-Z]{14}-[A-Z]{10}-[A-Z])\b", |h| h.contains('-')),
    mp_id: LazyRegex::new(r"\b((?:mp|mvc)-\d+)\b", |h| {
        h.contains("mp-") || h.contains("mvc-")
    }),
    jvasp: LazyRegex::new(r"\b(JVASP-\d+)\b", |h| h.contains("JVASP-")),
    corp_code: LazyRegex::new(r"\b(\d{8})\b", numeric),
    // "2019-2021", "2019–2021", "2019 to 2021", "from 2019 to 2021", "between 2019 and
    // 2021", "in 2019-21": both ends of the range (the second may be written with two digits).
    year_range: LazyRegex::new(
        r"(?i)\b((?:19|20)\d{2})\s*(?:-|–|—|to|until|through|and)\s*((?:19|20)\d{2}|\d{2})\b",
        century,
    ),
    // One year of publication: "published in 2020", "papers from 2021" (the words before it
    // belong to the year, not to a `journal` "published in").
    year_in: LazyRegex::new(
        r"(?i)\b(?:(?:published|appeared|released|came out)\s+(?:in\s+)?|(?:papers|articles|preprints|works|publications|reviews)\s+(?:published\s+)?(?:from|in|of)\s+)((?:19|20)\d{2})\b",
        century,
    ),
    // A month before the year is read and dropped ("since January 2024": from 2024).
    year_from: LazyRegex::new(
        r"(?i)\b(?:since|after|from|starting(?: in)?|published since)\s+(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+)?((?:19|20)\d{2})\b|((?:19|20)\d{2})\s*년?\s*(?:이후|부터)",
        century,
    ),
    year_to: LazyRegex::new(
        r"(?i)\b(?:before|until|up to|through|by)\s+(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+)?((?:19|20)\d{2})\b|((?:19|20)\d{2})\s*년?\s*(?:이전|까지)",
        century,
    ),
    year_ko: LazyRegex::new(r"((?:19|20)\d{2})\s*년", century),
    fiscal: LazyRegex::new(
        r"(?i)\b(?:in|for|fy|fiscal(?: year)?)\s*((?:19|20)\d{2})\b",
        century,
    ),
    bare_year: LazyRegex::new(r"\b((?:19|20)\d{2})\b", century),
    // `by` / `author:` then a capitalised personal name: initials, 1-4 capitalised words,
    // lower-case particles between them (`van der`, `de`).
    author: LazyRegex::new(
        r"\b(?:[Bb]y|[Aa]uthors?:?)\s+(?:(?:Dr|Prof|Professor)\.?\s+)?((?:\p{Lu}\.\s?){0,3}\p{Lu}\p{Ll}+(?:[-'’]\p{Lu}?\p{Ll}+)*(?:\s+(?:(?:van|von|de|der|den|da|di|del|du|la|le)\s+)*(?:\p{Lu}\.\s?){0,3}\p{Lu}\p{Ll}+(?:[-'’]\p{Lu}?\p{Ll}+)*){0,3})\b",
        non_empty,
    ),
    max_results: LazyRegex::new(
        r"(?i)\b(?:up to|top|first|at most|max(?:imum)?(?: of)?)\s+(\d{1,4})\b|최대\s*(\d{1,4})|(\d{1,4})\s*(?:개|편|건)|\b(\d{1,4})\s+(?:[a-z][\w-]*\s+)?(?:results|papers|preprints|articles|publications|hits|records)\b",
        numeric,
    ),
    quoted: LazyRegex::new(r#"["“]([^"”]{3,200})["”]"#, |h| {
        h.contains(['"', '“'])
    }),
    smiles: LazyRegex::new(
        r"(?i)\bsmiles\s*[:=]?\s*([A-Za-z0-9@+\-\[\]\(\)=#$/\\%.]{3,})",
        non_empty,
    ),
    word: LazyRegex::new(r"[A-Za-z0-9()\[\]·.]+", non_empty),
    ascii_word: LazyRegex::new(r"[A-Za-z0-9]+", non_empty),
};

fn patterns() -> &'static Patterns {
    &PATTERNS
}

/// A non-ASCII letter of the Latin script (`á`, `ü`, `ß`, `ł`, `ễ`, ...).
fn latin_letter(ch: char) -> bool {
    matches!(ch, '\u{00C0}'..='\u{024F}' | '\u{1E00}'..='\u{1EFF}')
        && ch != '\u{00D7}'
        && ch != '\u{00F7}'
}

fn taken(ranges: &[(usize, usize)], s: usize, e: usize) -> bool {
    ranges.iter().any(|(a, b)| s < *b && *a < e)
}

/// A Greek letter or the increment sign `∆` (U+2206), which begin symbols of quantities.
fn greek_or_increment(ch: char) -> bool {
    matches!(ch, '\u{0370}'..='\u{03FF}' | '\u{2206}')
}

fn group<'h>(c: &regex::Captures<'h>) -> Option<regex::Match<'h>> {
    (1..c.len()).find_map(|i| c.get(i))
}

/// Lower-case words with a count that split into element symbols but name something else:
/// network, software, hardware and biomedical tokens.
const NOT_FORMULAS: &[&str] = &[
    "ipv4", "ipv6", "k8s", "k3s", "b2c", "b2b", "ps2", "ps3", "ps4", "ps5", "her2", "cas9",
    "cas12", "cas13", "h3n2", "h5n1", "h7n9", "cop26", "cop28",
];

/// Capitalised words that start a phrase after `by` but are not a personal name.
const NOT_NAMES: &[&str] = &[
    "The", "This", "That", "These", "Those", "A", "An", "Which", "What", "Whom", "Each", "Using",
    "Source", "Year", "Date", "Type", "Default",
];

/// Extract parameters from a query.
pub fn extract(query: &str) -> Vec<Extracted> {
    let p = patterns();
    let mut out: Vec<Extracted> = Vec::new();
    let mut used: Vec<(usize, usize)> = Vec::new();
    let push = |out: &mut Vec<Extracted>,
                used: &mut Vec<(usize, usize)>,
                concept: &'static str,
                value: Value,
                s: usize,
                e: usize| {
        if taken(used, s, e) {
            return;
        }
        used.push((s, e));
        // Entity concepts keep every distinct value ("GaN, AlN and InN"); others the first.
        let multi = matches!(
            concept,
            "formula"
                | "material_id"
                | "doi"
                | "cid"
                | "inchikey"
                | "arxiv_id"
                | "pmid"
                | "corp_code"
        );
        if !out
            .iter()
            .any(|x| x.concept == concept && (!multi || x.value == value))
        {
            out.push(Extracted {
                concept,
                value,
                range: (s, e),
            });
        }
    };
    let lower = query.to_lowercase();
    let has_digit = query.bytes().any(|b| b.is_ascii_digit());
    for c in p
        .doi
        .captures_iter(if query.contains("10.") { query } else { "" })
    {
        let m = c.get(1).expect("group");
        let doi = m
            .as_str()
            .trim_end_matches(['.', ',', ';', ')', '?', ']', '!', ':']);
        push(
            &mut out,
            &mut used,
            "doi",
            Value::String(doi.to_string()),
            m.start(),
            m.start() + doi.len(),
        );
    }
    for c in p
        .inchikey
        .captures_iter(if query.contains('-') { query } else { "" })
    {
        let m = c.get(1).expect("group");
        push(
            &mut out,
            &mut used,
            "inchikey",
            Value::String(m.as_str().into()),
            m.start(),
            m.end(),
        );
    }
    for c in p
        .cid
        .captures_iter(if lower.contains("cid") { query } else { "" })
    {
        let m = c.get(1).expect("group");
        if let Ok(n) = m.as_str().parse::<i64>() {
            let all = c.get(0).expect("match");
            push(
                &mut out,
                &mut used,
                "cid",
                Value::from(n),
                all.start(),
                all.end(),
            );
        }
    }
    for c in p
        .pmid
        .captures_iter(if lower.contains("pmid") || lower.contains("pubmed") {
            query
        } else {
            ""
        })
    {
        let m = group(&c).expect("group");
        let all = c.get(0).expect("match");
        // "PubMed article 31452104" names the tool too: only the number is the parameter.
        let (s0, e0) = if all.as_str()[..3].eq_ignore_ascii_case("pub") {
            (m.start(), m.end())
        } else {
            (all.start(), all.end())
        };
        push(
            &mut out,
            &mut used,
            "pmid",
            Value::String(m.as_str().into()),
            s0,
            e0,
        );
    }
    for c in p
        .sample_id
        .captures_iter(if lower.contains("sample") { query } else { "" })
    {
        let m = c.get(1).expect("group");
        let all = c.get(0).expect("match");
        push(
            &mut out,
            &mut used,
            "sample_id",
            Value::String(m.as_str().trim_end_matches(['.', '/']).into()),
            all.start(),
            all.end(),
        );
    }
    for c in p
        .mp_id
        .captures_iter(query)
        .chain(p.jvasp.captures_iter(query))
    {
        let m = c.get(1).expect("group");
        push(
            &mut out,
            &mut used,
            "material_id",
            Value::String(m.as_str().into()),
            m.start(),
            m.end(),
        );
    }
    for c in p.arxiv.captures_iter(if has_digit && query.contains('.') {
        query
    } else {
        ""
    }) {
        let m = c.get(1).expect("group");
        push(
            &mut out,
            &mut used,
            "arxiv_id",
            Value::String(m.as_str().into()),
            m.start(),
            m.end(),
        );
    }
    for c in p
        .smiles
        .captures_iter(if lower.contains("smiles") { query } else { "" })
    {
        let m = c.get(1).expect("group");
        if m.as_str().chars().any(|ch| "=()#[]@".contains(ch)) {
            push(
                &mut out,
                &mut used,
                "smiles",
                Value::String(m.as_str().into()),
                m.start(),
                m.end(),
            );
        }
    }
    let dart_context = [
        "dart",
        "고유번호",
        "corp code",
        "corp_code",
        "공시",
        "사업보고서",
        "보고서",
        "재무",
        "filing",
        "financial statement",
        "disclosure",
        "annual report",
    ]
    .iter()
    .any(|k| lower.contains(k));
    if dart_context {
        for c in p.corp_code.captures_iter(query) {
            let m = c.get(1).expect("group");
            push(
                &mut out,
                &mut used,
                "corp_code",
                Value::String(m.as_str().into()),
                m.start(),
                m.end(),
            );
        }
        for (needle, code) in [
            ("사업보고서", "11011"),
            ("annual report", "11011"),
            ("annual", "11011"),
            ("반기", "11012"),
            ("half-year", "11012"),
            ("semi-annual", "11012"),
            ("1분기", "11013"),
            ("first quarter", "11013"),
            ("q1", "11013"),
            ("3분기", "11014"),
            ("third quarter", "11014"),
            ("q3", "11014"),
        ] {
            if let Some(i) = lower.find(needle) {
                push(
                    &mut out,
                    &mut used,
                    "report_code",
                    Value::String(code.into()),
                    i,
                    i + needle.len(),
                );
                break;
            }
        }
    }
    let numeric = if has_digit { query } else { "" };
    // Years: the first group of each match, as an integer, bound to `concept`. "after 2020"
    // starts in 2021 and "before 2020" ends in 2019 (bounds are inclusive; "since" and "until"
    // include the year).
    let push_years = |out: &mut Vec<Extracted>,
                      used: &mut Vec<(usize, usize)>,
                      matches: &mut dyn Iterator<Item = regex::Captures>,
                      concept: &'static str| {
        for c in matches {
            let m = group(&c).expect("group");
            let lead = c.get(0).map(|a| a.as_str().to_ascii_lowercase());
            // With a month ("after March 2020") the year itself is still in the range.
            let strict = lead.as_deref().map_or(0, |l| {
                let bare = l.split_whitespace().count() == 2;
                match concept {
                    "year_from" if bare && l.starts_with("after") => 1,
                    "year_to" if bare && l.starts_with("before") => -1,
                    _ => 0,
                }
            });
            if let Ok(y) = m.as_str().parse::<i64>() {
                push(
                    out,
                    used,
                    concept,
                    Value::from(y + strict),
                    m.start(),
                    m.end(),
                );
            }
        }
    };
    for c in p.year_range.captures_iter(numeric) {
        let (Some(a), Some(b)) = (c.get(1), c.get(2)) else {
            continue;
        };
        let before = numeric[..a.start()].trim_end().to_ascii_lowercase();
        // "and" joins a range only after "between" ("2019 and 2021 papers" are two years).
        let joined_by_and = numeric[a.end()..b.start()]
            .trim()
            .eq_ignore_ascii_case("and");
        if joined_by_and && !before.ends_with("between") {
            continue;
        }
        let (Ok(from), Ok(to)) = (a.as_str().parse::<i64>(), b.as_str().parse::<i64>()) else {
            continue;
        };
        // "2019-21": the century of the first year.
        let to = if b.as_str().len() == 2 {
            from / 100 * 100 + to
        } else {
            to
        };
        // Not a range: an id or page range written with years' digits ("2019-2015"), or a
        // span from a word like "1990-2100-..." that the word boundary let through.
        if to < from || taken(&used, a.start(), b.end()) {
            continue;
        }
        push(
            &mut out,
            &mut used,
            "year_from",
            Value::from(from),
            a.start(),
            a.end(),
        );
        push(
            &mut out,
            &mut used,
            "year_to",
            Value::from(to),
            b.start(),
            b.end(),
        );
    }
    if !dart_context {
        for c in p.year_in.captures_iter(numeric) {
            let (Some(all), Some(y)) = (c.get(0), c.get(1)) else {
                continue;
            };
            let Ok(year) = y.as_str().parse::<i64>() else {
                continue;
            };
            // Consumed with the year: "published in" (no `journal` then), or the preposition.
            let text = &numeric[all.start()..y.start()];
            let lower = text.to_ascii_lowercase();
            let lead = ["published", "appeared", "released", "came out"]
                .iter()
                .filter_map(|w| lower.find(w))
                .min()
                .unwrap_or_else(|| {
                    text.trim_end()
                        .rfind(char::is_whitespace)
                        .map_or(0, |i| i + 1)
                });
            let lead_start = all.start() + lead;
            if taken(&used, lead_start, y.end()) {
                continue;
            }
            push(
                &mut out,
                &mut used,
                "year_from",
                Value::from(year),
                lead_start,
                y.end(),
            );
            used.pop();
            push(
                &mut out,
                &mut used,
                "year_to",
                Value::from(year),
                lead_start,
                y.end(),
            );
        }
    }
    push_years(
        &mut out,
        &mut used,
        &mut p.year_from.captures_iter(numeric),
        "year_from",
    );
    push_years(
        &mut out,
        &mut used,
        &mut p.year_to.captures_iter(numeric),
        "year_to",
    );
    if dart_context {
        let mut stated = p
            .year_ko
            .captures_iter(query)
            .chain(p.fiscal.captures_iter(query));
        push_years(&mut out, &mut used, &mut stated, "fiscal_year");
        // A bare year in a filing question is the business year ("operating profit 2022"),
        // unless the question already gives a range.
        let ranged = out
            .iter()
            .any(|x| x.concept == "year_from" || x.concept == "year_to");
        if !ranged {
            push_years(
                &mut out,
                &mut used,
                &mut p.bare_year.captures_iter(query),
                "fiscal_year",
            );
        }
    }
    for c in p.max_results.captures_iter(numeric) {
        let m = group(&c).expect("group");
        if let Ok(n) = m.as_str().parse::<i64>()
            && (1..=1000).contains(&n)
        {
            push(
                &mut out,
                &mut used,
                "max_results",
                Value::from(n),
                m.start(),
                m.end(),
            );
        }
    }
    // Authors: a capitalised name after `by` (not `published by`, a publisher; not a name
    // starting with an article or question word). The analyzer drops names of tools.
    for c in p
        .author
        .captures_iter(if lower.contains("by") || lower.contains("author") {
            query
        } else {
            ""
        })
    {
        let all = c.get(0).expect("match");
        let m = c.get(1).expect("group");
        let name = m.as_str();
        let name = name
            .strip_suffix("'s")
            .or(name.strip_suffix("’s"))
            .unwrap_or(name);
        let first = name.split_whitespace().next().unwrap_or("");
        let before = lower[..all.start()].trim_end();
        if before.ends_with("published") || before.ends_with("cited") || NOT_NAMES.contains(&first)
        {
            continue;
        }
        push(
            &mut out,
            &mut used,
            "author",
            Value::String(name.to_string()),
            m.start(),
            m.start() + name.len(),
        );
    }
    for c in p.quoted.captures_iter(if query.contains(['"', '“']) {
        query
    } else {
        ""
    }) {
        let m = c.get(1).expect("group");
        push(
            &mut out,
            &mut used,
            "title",
            Value::String(m.as_str().trim().into()),
            m.start(),
            m.end(),
        );
    }
    // Formulas written as tokens, then chemical names.
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
            || FORMULA_STOP_WORDS.contains(&w)
            || taken(&used, at, at + w.len())
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
            push(
                &mut out,
                &mut used,
                "formula",
                Value::String(w.to_string()),
                at,
                at + w.len(),
            );
        }
    }
    // A material id already names the entity; a name beside it only describes it.
    let wanted = |out: &Vec<Extracted>, concept: &str| {
        !out.iter()
            .any(|x| x.concept == concept || (concept == "formula" && x.concept == "material_id"))
    };
    let (latin, other) = name_index();
    // Latin names: n-grams of words (longest first) looked up in a table.
    let words: Vec<(usize, usize)> = {
        let mut v = Vec::new();
        let mut start = None;
        for (i, ch) in lower.char_indices() {
            if ch.is_ascii_alphanumeric() {
                start.get_or_insert(i);
            } else if let Some(s0) = start.take() {
                v.push((s0, i));
            }
        }
        if let Some(s0) = start {
            v.push((s0, lower.len()));
        }
        v
    };
    'latin: for n in (1..=3).rev() {
        for w in words.windows(n) {
            let (s0, e0) = (w[0].0, w[n - 1].1);
            // Words of one name are separated by spaces or hyphens only.
            if w.windows(2)
                .any(|p| !lower[p[0].1..p[1].0].chars().all(|c| c == ' ' || c == '-'))
            {
                continue;
            }
            let key: String = w
                .iter()
                .map(|(a, b)| &lower[*a..*b])
                .collect::<Vec<_>>()
                .join(" ");
            if let Some((value, concept)) = latin.get(key.as_str())
                && wanted(&out, concept)
                && !taken(&used, s0, e0)
            {
                push(
                    &mut out,
                    &mut used,
                    concept,
                    Value::String(value.to_string()),
                    s0,
                    e0,
                );
                if !wanted(&out, "formula") && !wanted(&out, "compound_name") {
                    break 'latin;
                }
            }
        }
    }
    // When nothing else names the entity: a formula typed without capitals but with a count,
    // anywhere ("density for sio2", "lifepo4 stability?"); a one-letter element symbol only
    // after `of`, `for` or `about` and ending the question or a clause ("band gap of W?", "bulk
    // modulus of C from AFLOW"), not "papers about B cells" or "complexity of O(n)".
    // A lower-case formula coordinated with one already read ("zno and zns", "ZnO, zns or
    // gaas") is read too, wherever the first came from.
    let entity_free = wanted(&out, "formula") && wanted(&out, "compound_name");
    let formulas_only = !entity_free
        && wanted(&out, "compound_name")
        && out.iter().all(|x| x.concept != "material_id");
    if entity_free || formulas_only {
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
                && !NOT_FORMULAS.iter().any(|n| n.eq_ignore_ascii_case(w))
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
                    Some(out.iter().any(|x| {
                        x.concept == "formula"
                            && x.range.0 <= before.start()
                            && before.end() <= x.range.1
                    }))
                })()
                .unwrap_or(false);
            if !(entity_free && (after_of && ends || counted) || coordinated && (ends || counted))
                || taken(&used, c.start(), c.end())
                || query[..c.start()]
                    .chars()
                    .next_back()
                    .is_some_and(latin_letter)
                || query[c.end()..].chars().next().is_some_and(latin_letter)
                || !single && FORMULA_STOP_WORDS.iter().any(|s| s.eq_ignore_ascii_case(w))
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
                push(
                    &mut out,
                    &mut used,
                    "formula",
                    Value::String(f),
                    c.start(),
                    c.end(),
                );
            }
        }
    }
    // Other scripts (Korean): substring search, longest first; a particle may follow.
    if !lower.is_ascii() {
        for (name, value, concept) in other {
            if !wanted(&out, concept) {
                continue;
            }
            if let Some(s0) = lower.find(name) {
                let e0 = s0 + name.len();
                let before_ok = s0 == 0
                    || !lower[..s0]
                        .chars()
                        .next_back()
                        .is_some_and(char::is_alphanumeric);
                if before_ok && name.chars().count() > 1 && !taken(&used, s0, e0) {
                    push(
                        &mut out,
                        &mut used,
                        concept,
                        Value::String(value.to_string()),
                        s0,
                        e0,
                    );
                }
            }
        }
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    fn get(q: &str, concept: &str) -> Option<Value> {
        extract(q)
            .into_iter()
            .find(|e| e.concept == concept)
            .map(|e| e.value)
    }

    #[test]
    fn identifiers() {
        assert_eq!(
            get(
                "How many citations does Crossref record for 10.1063/1.4812323?",
                "doi"
            ),
            Some("10.1063/1.4812323".into())
        );
        assert_eq!(
            get("doi 10.1103/PhysRevLett.120.145301): Crossref", "doi"),
            Some("10.1103/PhysRevLett.120.145301".into())
        );
        assert_eq!(
            get("PubChem CID 702: what's the TPSA", "cid"),
            Some(702.into())
        );
        assert_eq!(
            get("InChIKey BSYNRYMUTXBXSQ-UHFFFAOYSA-N? I need", "inchikey"),
            Some("BSYNRYMUTXBXSQ-UHFFFAOYSA-N".into())
        );
        assert_eq!(
            get("magnetic moment of mp-13 (bcc iron)", "material_id"),
            Some("mp-13".into())
        );
        assert_eq!(
            get("title and abstract of PMID 31452104", "pmid"),
            Some("31452104".into())
        );
        assert_eq!(get("PubMed id: 31452104?", "pmid"), Some("31452104".into()));
        assert_eq!(get("a pmid-free question", "pmid"), None);
        assert_eq!(
            get("authors of PubMed article 31452104", "pmid"),
            Some("31452104".into())
        );
        assert_eq!(get("pubmed 31452104", "pmid"), Some("31452104".into()));
        assert_eq!(get("PubMed 2020 papers on perovskites", "pmid"), None);
        assert_eq!(
            get("conductivity of sample LAB-0042?", "sample_id"),
            Some("LAB-0042".into())
        );
        assert_eq!(
            get(
                "Which technique did we use on sample id: S-12.",
                "sample_id"
            ),
            Some("S-12".into())
        );
        assert_eq!(get("our CdTe samples", "sample_id"), None);
        assert_eq!(
            get("see arXiv:2106.01234v2 please", "arxiv_id"),
            Some("2106.01234v2".into())
        );
    }

    #[test]
    fn years_and_counts() {
        assert_eq!(
            get("papers published since 2022; list titles", "year_from"),
            Some(2022.into())
        );
        assert_eq!(get("2020년 이후 논문", "year_from"), Some(2020.into()));
        assert_eq!(
            get("DART filings of 00164779 since January 2024", "year_from"),
            Some(2024.into())
        );
        assert_eq!(
            get("DART filings of 00164779 since January 2024", "fiscal_year"),
            None
        );
        assert_eq!(
            get("papers published before Sept. 2019", "year_to"),
            Some(2019.into())
        );
        // "after" and "before" a bare year exclude it; "since" and "until" include it.
        assert_eq!(get("preprints after 2020", "year_from"), Some(2021.into()));
        assert_eq!(get("preprints since 2020", "year_from"), Some(2020.into()));
        assert_eq!(get("papers before 2019", "year_to"), Some(2018.into()));
        assert_eq!(get("papers until 2019", "year_to"), Some(2019.into()));
        assert_eq!(
            get("papers after March 2020", "year_from"),
            Some(2020.into())
        );
        // Ranges of years, both ends; not a date, and "and" only after "between".
        for (q, from, to) in [
            (
                "perovskite LEDs published 2019–2021",
                Some(2019),
                Some(2021),
            ),
            ("papers on MXenes 2019-21", Some(2019), Some(2021)),
            ("works from 2015 to 2018", Some(2015), Some(2018)),
            ("papers between 2018 and 2020", Some(2018), Some(2020)),
            (
                "papers on graphene published in 2020",
                Some(2020),
                Some(2020),
            ),
            ("preprints from 2021 on MXenes", Some(2021), Some(2021)),
            ("compare 2018 and 2020 papers", None, None),
            ("deposited on 2021-03-15", None, None),
        ] {
            assert_eq!(get(q, "year_from"), from.map(Value::from), "{q}");
            assert_eq!(get(q, "year_to"), to.map(Value::from), "{q}");
        }
        assert_eq!(
            get("find 3 arXiv papers on electrolytes", "max_results"),
            Some(3.into())
        );
        assert_eq!(
            get("Find up to 5 arXiv preprints", "max_results"),
            Some(5.into())
        );
        assert_eq!(
            get("give me 10 results on MOFs", "max_results"),
            Some(10.into())
        );
        assert_eq!(get("2023 papers on MOFs", "max_results"), None);
        assert_eq!(
            get(
                "DART에서 고유번호 00126380 회사의 2023년 사업보고서 기준 매출액",
                "corp_code"
            ),
            Some("00126380".into())
        );
        assert_eq!(
            get(
                "DART에서 고유번호 00126380 회사의 2023년 사업보고서 기준 매출액",
                "fiscal_year"
            ),
            Some(2023.into())
        );
        assert_eq!(
            get(
                "DART에서 고유번호 00126380 회사의 2023년 사업보고서 기준 매출액",
                "report_code"
            ),
            Some("11011".into())
        );
    }

    #[test]
    fn authors_and_bare_filing_years() {
        assert_eq!(
            get("articles by Prof. Anubhav Jain since 2019", "author"),
            Some("Anubhav Jain".into())
        );
        assert_eq!(
            get("work by Jan van der Berg's group", "author"),
            Some("Jan van der Berg".into())
        );
        assert_eq!(get("papers published by Elsevier", "author"), None);
        assert_eq!(get("sorted by The Date field", "author"), None);
        assert_eq!(get("band gap by DFT", "author"), None);
        // "Li Chen" is a name, not lithium.
        assert_eq!(get("papers by Li Chen", "formula"), None);
        assert_eq!(
            get("net income 2019 in the annual report (DART)", "fiscal_year"),
            Some(2019.into())
        );
        assert_eq!(get("papers on MOFs, 2019", "fiscal_year"), None);
    }

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

/// The value a question writes right after the name of parameter `name` ("city Paris",
/// "job id 7sX8", "the city of Paris", `origin=MAD`, `timezone: "Europe/Paris"`,
/// `query is 'red shoes'`), or `None`. The name is matched as written, with `_` and `-` as
/// spaces and camelCase split (`siteId` is "site id"), at word boundaries, case-insensitively.
/// Without `=` or `:` between them, the value must look like one: quoted, or with a digit, a
/// capital letter or punctuation inside (so "the type of crystal" gives no `type`); a name of
/// one letter (`q`) needs `=` or `:`.
pub fn value_after_name(query: &str, name: &str) -> Option<String> {
    let lower = query.to_lowercase();
    if lower.len() != query.len() {
        // Offsets would not carry over.
        return None;
    }
    let mut phrases = vec![name.to_lowercase()];
    let spaced = split_name(name);
    if !phrases.contains(&spaced) {
        phrases.push(spaced);
    }
    for phrase in phrases.iter().filter(|p| !p.trim().is_empty()) {
        let mut from = 0;
        while let Some(i) = lower[from..].find(phrase.as_str()) {
            let s = from + i;
            let e = s + phrase.len();
            from = e;
            let before = lower[..s].chars().next_back();
            let after = lower[e..].chars().next();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                || after.is_some_and(|c| c.is_alphanumeric() || c == '_')
            {
                continue;
            }
            if let Some(v) = value_at(&query[e..], phrase.chars().count() < 2) {
                return Some(v);
            }
        }
    }
    None
}

/// `siteId` -> `site id`, `site_id` -> `site id`, `X-Api-Key` -> `x api key`.
fn split_name(name: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c == '_' || c == '-' || c == '.' || c.is_whitespace() {
            if !out.ends_with(' ') && !out.is_empty() {
                out.push(' ');
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower {
            out.push(' ');
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        out.extend(c.to_lowercase());
    }
    out.trim().to_string()
}

/// The value at the start of `rest` (the text after a parameter's name), see
/// [`value_after_name`].
fn value_at(rest: &str, needs_separator: bool) -> Option<String> {
    let mut r = rest.trim_start();
    let mut separated = false;
    if let Some(x) = r.strip_prefix(['=', ':']) {
        r = x.trim_start();
        separated = true;
    } else {
        for w in ["is ", "of ", "equals "] {
            if r.len() >= w.len() && r[..w.len()].eq_ignore_ascii_case(w) {
                r = r[w.len()..].trim_start();
                break;
            }
        }
    }
    if needs_separator && !separated {
        return None;
    }
    let quotes = [('"', '"'), ('\'', '\''), ('`', '`'), ('“', '”'), ('‘', '’')];
    if let Some((open, close)) = quotes.iter().find(|(o, _)| r.starts_with(*o)) {
        let inner = &r[open.len_utf8()..];
        let end = inner.find(*close)?;
        let v = inner[..end].trim();
        return (!v.is_empty()).then(|| v.to_string());
    }
    let end = r
        .find(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '?' | '!' | ')'))
        .unwrap_or(r.len());
    let v = r[..end].trim_end_matches(['.', ':']);
    if v.is_empty() {
        return None;
    }
    let looks_like_value = v.chars().any(|c| c.is_ascii_digit() || c.is_uppercase())
        || v.chars().any(|c| !c.is_alphanumeric());
    (separated || looks_like_value).then(|| v.to_string())
}

#[cfg(test)]
mod value_after_name_tests {
    use super::value_after_name as v;

    #[test]
    fn values_written_after_a_parameter_name() {
        let some = |s: &str| Some(s.to_string());
        assert_eq!(
            v("weather for city Paris with travel_tools", "city"),
            some("Paris")
        );
        assert_eq!(v("the city of Paris, please", "city"), some("Paris"));
        assert_eq!(
            v("transcript for job id 7sX8 from revai", "id"),
            some("7sX8")
        );
        assert_eq!(
            v("Show the Rumble site with site id 1234", "site_id"),
            some("1234")
        );
        assert_eq!(v("Show site 1234", "siteId"), None);
        assert_eq!(v("flights with origin=MAD", "origin"), some("MAD"));
        assert_eq!(
            v("timezone: \"Europe/Paris\" now", "timezone"),
            some("Europe/Paris")
        );
        assert_eq!(
            v("a query is 'red shoes' today", "query"),
            some("red shoes")
        );
        assert_eq!(v("search with q=perovskite", "q"), some("perovskite"));
        // Not a value: a plain lower-case word with no `=` or `:`.
        assert_eq!(v("the type of crystal structure", "type"), None);
        assert_eq!(v("What is the name of the company?", "name"), None);
        // A short name needs `=` or `:`; a name inside a word is no name.
        assert_eq!(v("q 5", "q"), None);
        assert_eq!(v("the velocity 5", "city"), None);
        assert_eq!(
            v("artist_name: Radiohead", "artist_name"),
            some("Radiohead")
        );
    }
}
