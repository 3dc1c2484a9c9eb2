//! The regular expressions of the Understand step's own machinery (years, counts, authors,
//! quoted titles, word runs), compiled on first use, and the cache of the patterns a project
//! declares (each compiled once per process).

use regex::Regex;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// A regular expression compiled on first use, and only when the text could match: `needs` is a
/// cheap necessary condition (a literal the pattern cannot match without), so a question without
/// a DOI never pays for compiling the DOI pattern.
pub(super) struct LazyRegex {
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
    pub(super) const fn new(pattern: &'static str, needs: fn(&str) -> bool) -> Self {
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

    pub(super) fn captures_iter<'r, 'h>(&'r self, h: &'h str) -> regex::CaptureMatches<'r, 'h> {
        self.regex(h).captures_iter(h)
    }

    pub(super) fn find_iter<'r, 'h>(&'r self, h: &'h str) -> regex::Matches<'r, 'h> {
        self.regex(h).find_iter(h)
    }
}

pub(super) struct Patterns {
    pub(super) year_range: LazyRegex,
    pub(super) year_in: LazyRegex,
    pub(super) year_from: LazyRegex,
    pub(super) year_to: LazyRegex,
    pub(super) year_ko: LazyRegex,
    pub(super) fiscal: LazyRegex,
    pub(super) bare_year: LazyRegex,
    pub(super) author: LazyRegex,
    pub(super) max_results: LazyRegex,
    pub(super) quoted: LazyRegex,
    pub(super) word: LazyRegex,
    pub(super) ascii_word: LazyRegex,
}

pub(super) static PATTERNS: Patterns = Patterns {
    // "PMID 31452104", "PMID: 31452104", "PubMed id 31452104", "PubMed article 31452104",
    // "PubMed 31452104" (PubMed ids have up to 8 digits; after a bare `PubMed` at least 5, so
    // "PubMed 2020" stays a year).
    // "sample S-12", "sample id: LAB-0042", "samples #7": an id with a digit after `sample`.
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
    // A title in quotes: double (`"…"`, `“…”`, `„…“`), guillemets (`«…»`), corner brackets
    // (`「…」`, `『…』`), or single (`'…'`, `‘…’`, groups 5 and 6) when the quotes stand apart
    // from the words around them (an apostrophe is no quote); the title is the first group that
    // matched (the reader keeps single-quoted text of three words or more: shorter is a term,
    // a formula or a name more often than a title).
    quoted: LazyRegex::new(
        r#"["“„]([^"“”„]{3,200})["”“]|«\s?([^«»]{3,200}?)\s?»|「([^」]{3,200})」|『([^』]{3,200})』|‘([^‘’\s][^‘’]{0,198} [^‘’]{0,198}[^‘’\s])’(?:[^\p{L}\p{N}]|$)|(?:^|[\s(\[{:,])'([^'\s][^']{0,198} [^']{0,198}[^'\s])'(?:[\s.,;:!?)\]}]|$)"#,
        |h| h.contains(['"', '“', '„', '«', '「', '『', '‘', '\'']),
    ),
    word: LazyRegex::new(r"[A-Za-z0-9()\[\]·.]+", non_empty),
    ascii_word: LazyRegex::new(r"[A-Za-z0-9]+", non_empty),
};

/// Declared patterns compiled so far (`None`: the pattern does not compile; `check` reports it),
/// shared by every analyzer of the process. Bounded: a long-lived server that loads many
/// artifacts with different patterns starts over past [`MAX_CACHED`] patterns.
fn declared_cache() -> &'static Mutex<HashMap<String, Option<Regex>>> {
    static C: OnceLock<Mutex<HashMap<String, Option<Regex>>>> = OnceLock::new();
    C.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Most declared patterns kept compiled at once.
const MAX_CACHED: usize = 4096;

/// The declared pattern `pattern` compiled (once per process), or `None` when it does not
/// compile.
pub(super) fn declared(pattern: &str) -> Option<Regex> {
    let mut cache = declared_cache()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(r) = cache.get(pattern) {
        return r.clone();
    }
    if cache.len() >= MAX_CACHED {
        cache.clear();
    }
    let r = Regex::new(pattern).ok();
    cache.insert(pattern.to_string(), r.clone());
    r
}

/// The first capture group that took part in the match (the whole match when the pattern has
/// no groups).
pub(super) fn group<'h>(c: &regex::Captures<'h>) -> Option<regex::Match<'h>> {
    (1..c.len()).find_map(|i| c.get(i)).or_else(|| c.get(0))
}
