//! Typed spans of a question: the values a person writes in running text (a URL, an e-mail
//! address, a file path, a date, a number with its unit, a quoted title, `owner/repo`, an
//! id-shaped token, a capitalised name, the object of a preposition), found without knowing the
//! catalog. [`crate::route::ranked::fill`] matches them to an endpoint's parameters by type, format, name and
//! description.
//!
//! Generic language machinery, not a domain's knowledge: the patterns are those of the values
//! themselves, and the English function words below only say where a value starts or ends.

use super::address;
use regex::Regex;
use std::sync::OnceLock;

/// What a span holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SpanKind {
    /// `https://…`.
    Url,
    /// `someone@example.org`.
    Email,
    /// A telephone number in international form (`+44 20 7946 0958`, `+1 (555) 010-4477`) or
    /// the North American one (`(555) 010-4477`, `555-010-4477`); `value` keeps the digits and
    /// the leading `+` only, `+1` before a North American number (`+442079460958`,
    /// `+15550104477`), the E.164 form services take.
    Phone,
    /// `/root/pdf/report.pdf`, `C:\data\x.csv`, `./notes.md`, `report.pdf`.
    Path,
    /// Text in quotes (`"Dune"`, `'Sky Striker'`, typographic quotes).
    Quoted,
    /// A date (`2024-05-01`, `May 1, 2024`, `1 May 2024`, `25th of December 2023`,
    /// `18-08-2019`, `12/25/2023`); `value` is ISO `YYYY-MM-DD`.
    Date,
    /// A street address with the places written after it (`12 oak street, denver, co 80203`,
    /// `15 rue de Rivoli, Paris`): one value, its house number no number of its own.
    Address,
    /// A postcode (`SW1A 2AA`, `K1A 0B1`, `80203-1234`, a five-digit number after "zip").
    Postcode,
    /// A year (`1999`, `2024`).
    Year,
    /// A number, with the unit word after it when there is one (`3 days`, `9.5g`, `300km`).
    Number,
    /// Two names joined by `/` (`rust-lang/rust`).
    Slash,
    /// A token that mixes letters and digits, or an upper-case code (`NCT04280705`, `AAPL`,
    /// `8812`, `mp-13`).
    Id,
    /// Capitalised words (`New York`, `Lyon`, `Forbidden City`).
    Name,
    /// The object of a preposition, in any case (`in lyon`, `about graph neural networks`).
    Object,
    /// A lower-case word the catalog does not know, in no other span: a name written as people
    /// type it (`gvanrossum`, `mozilla`, `radiohead`). Added per catalog by [`unknown_words`].
    Word,
}

/// One typed span.
#[derive(Clone, Debug, PartialEq)]
pub struct Span {
    /// Its kind.
    pub kind: SpanKind,
    /// The value as the question writes it (quotes removed; a date as ISO `YYYY-MM-DD`).
    pub value: String,
    /// For a number: the unit word written after it (lower case).
    pub unit: Option<String>,
    /// Byte range in the question.
    pub start: usize,
    /// End of the byte range (exclusive).
    pub end: usize,
    /// Up to three lower-case words right before the span (nearest last), without punctuation
    /// between: what the question says the value is ("order 8812", "in Lyon", "top 5").
    pub before: Vec<String>,
    /// Up to three lower-case words right after the span (nearest first), without punctuation
    /// between: a noun written after its value names it too ("the mozilla org", "the rust repo").
    pub after: Vec<String>,
}

impl Span {
    /// The words that may say what the value is: the word right before it ("issue 4512",
    /// "order 8812") and, for a name or an id, the word right after it ("the mozilla org"); a
    /// number's next word is its unit, read apart.
    pub fn labels(&self) -> impl Iterator<Item = &String> {
        let after = match self.kind {
            SpanKind::Number | SpanKind::Year | SpanKind::Date => None,
            _ => self.after.first(),
        };
        [self.before.last(), after].into_iter().flatten()
    }
}

/// Whether `next` follows `last` as the next value of one list ("11, 22 and 33"): of the same
/// kind, after it with a short gap (", ", " and ", ", or ") that holds no word but "and" or
/// "or".
pub fn joined_in_list(last: &Span, next: &Span) -> bool {
    last.kind == next.kind
        && next.start >= last.end
        && next.start - last.end <= 6
        && next
            .before
            .iter()
            .rev()
            .take_while(|w| !last.value.eq_ignore_ascii_case(w))
            .all(|w| matches!(w.as_str(), "and" | "or"))
}

/// Words that introduce a value: where an [`SpanKind::Object`] starts.
pub const PREPOSITIONS: &[&str] = &[
    "about",
    "at",
    "by",
    "called",
    "for",
    "from",
    "in",
    "near",
    "named",
    "of",
    "on",
    "regarding",
    "titled",
    "to",
    "with",
];

/// Words that end an object: function words, question words, verbs of the request frame and
/// words of time ("in Lyon right now", "in Delhi today").
const OBJECT_STOPS: &[&str] = &[
    "a",
    "about",
    "according",
    "across",
    "after",
    "ago",
    "all",
    "also",
    "an",
    "and",
    "any",
    "anything",
    "are",
    "around",
    "as",
    "at",
    "based",
    "be",
    "before",
    "between",
    "by",
    "can",
    "could",
    "currently",
    "do",
    "does",
    "due",
    "during",
    "each",
    "every",
    "everything",
    "for",
    "from",
    "give",
    "has",
    "have",
    "her",
    "him",
    "how",
    "i",
    "in",
    "including",
    "into",
    "is",
    "it",
    "its",
    "lately",
    "later",
    "like",
    "me",
    "mine",
    "my",
    "near",
    "next",
    "now",
    "of",
    "on",
    "one",
    "ones",
    "onto",
    "or",
    "our",
    "ours",
    "over",
    "per",
    "please",
    "recently",
    "right",
    "show",
    "since",
    "some",
    "something",
    "soon",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "to",
    "today",
    "tomorrow",
    "tonight",
    "under",
    "until",
    "us",
    "using",
    "via",
    "was",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "why",
    "will",
    "with",
    "within",
    "without",
    "would",
    "yesterday",
    "you",
    "your",
    "yours",
];

/// English month names in lower case, in order (date spans; parameter filling reads months in
/// words from it too).
pub(crate) const MONTHS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

struct Patterns {
    url: Regex,
    email: Regex,
    ipv4: Regex,
    phone: Regex,
    path: Regex,
    quoted: Regex,
    iso_date: Regex,
    text_date: Regex,
    day_month_date: Regex,
    numeric_date: Regex,
    slash: Regex,
    joined: Regex,
    dashed: Regex,
    pair: Regex,
    number: Regex,
    token: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| {
        let re = |p: &str| Regex::new(p).expect("span pattern");
        Patterns {
            url: re(r#"(?i)\b(?:https?|ftp)://[^\s<>"'`]+[^\s<>"'`.,;:!?)\]]"#),
            email: re(r"(?i)\b[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}\b"),
            ipv4: re(r"\b(?:\d{1,3}\.){3}\d{1,3}\b"),
            phone: re(
                r"(?:^|[^\w+])(\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?)(?:[ .-]?\d{2,5}){1,4}|\(\d{3}\) ?\d{3}[ .-]\d{4}|\b\d{3}[.-]\d{3}[.-]\d{4})\b",
            ),
            path: re(
                r"(?:~?/(?:[\w.@-]+/)*[\w.@-]+/?|[A-Za-z]:\\[\w\\. -]+|\./[\w./-]+|\b[\w-]+\.(?:md|txt|csv|json|pdf|docx?|xlsx?|pptx?|html?|png|jpe?g|svg|ts|js|py|rs|yaml|yml|toml|xml|zip|wav|mp3|mp4|bib)\b)",
            ),
            quoted: re(r#""([^"]{1,200})"|“([^”]{1,200})”|‘([^’]{1,200})’|「([^」]{1,200})」|(?:^|[\s(])'([^']{1,200})'(?:[\s).,;:!?]|$)"#),
            // An ISO 8601 date, with the time of a date-time when one is written
            // (`2024-05-01T10:00:00Z`, `2024-05-01 10:00`).
            iso_date: re(
                r"\b(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?\b",
            ),
            text_date: re(
                r"(?i)\b(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b",
            ),
            day_month_date: re(
                r"(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?,?\s+(\d{4})\b",
            ),
            numeric_date: re(r"\b(\d{1,2})([-/.])(\d{1,2})([-/.])(\d{4})\b"),
            slash: re(r"\b([A-Za-z0-9][\w.-]*)/([A-Za-z0-9][\w.-]*)\b"),
            joined: re(r"[\p{L}\p{N}]+(?:(?:-,?|,-?)[\p{L}\p{N}]+){2,}"),
            dashed: re(r"\b[0-9A-Fa-f]+(?:-[0-9A-Fa-f]+){2,}-[0-9A-Fa-fXx]+\b"),
            pair: re(r"(?:^|[^\w.,-])([-+]?\d{1,3}\.\d+),\s?([-+]?\d{1,3}\.\d+)\b"),
            number: re(
                r"(?i)(?:^|[^\w.#-])([-+]?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?))\s?(%|[a-zµμ°]+)?\b",
            ),
            token: re(r"[\p{L}\p{N}][\p{L}\p{N}_.:#-]*[\p{L}\p{N}]|[\p{L}\p{N}]"),
        }
    })
}

fn month_number(m: &str) -> Option<u32> {
    let m = m.to_lowercase();
    MONTHS
        .iter()
        .position(|full| full.starts_with(&m[..m.len().min(3)]))
        .map(|i| i as u32 + 1)
}

/// Whether a byte range overlaps one already taken.
fn taken(done: &[Span], s: usize, e: usize) -> bool {
    done.iter().any(|d| s < d.end && d.start < e)
}

/// The lower-case words right before byte `at` (at most three, nearest last), stopping at
/// punctuation other than a space.
fn words_before(text: &str, at: usize) -> Vec<String> {
    let head = &text[..at];
    let cut = head
        .rfind([',', ';', '.', '?', '!', ':', '(', ')', '"'])
        .map_or(0, |i| i + 1);
    let mut words: Vec<String> = head[cut..]
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect();
    let n = words.len();
    words.drain(..n.saturating_sub(3));
    words
}

/// Every typed span of `text`, in text order; a byte belongs to one span at most (the first
/// kind in [`SpanKind`] order that claims it).
pub fn spans(text: &str) -> Vec<Span> {
    let p = patterns();
    let mut out: Vec<Span> = Vec::new();
    let push = |out: &mut Vec<Span>, kind, value: String, unit, s: usize, e: usize| {
        if !taken(out, s, e) && !value.trim().is_empty() {
            out.push(Span {
                kind,
                value,
                unit,
                start: s,
                end: e,
                before: words_before(text, s),
                after: Vec::new(),
            });
        }
    };
    for m in p.url.find_iter(text) {
        push(
            &mut out,
            SpanKind::Url,
            m.as_str().into(),
            None,
            m.start(),
            m.end(),
        );
    }
    for m in p.email.find_iter(text) {
        push(
            &mut out,
            SpanKind::Email,
            m.as_str().into(),
            None,
            m.start(),
            m.end(),
        );
    }
    // An IPv4 address (`81.2.69.142`) is one id, not numbers.
    for m in p.ipv4.find_iter(text) {
        let octets = m
            .as_str()
            .split('.')
            .all(|o| o.parse::<u16>().is_ok_and(|n| n <= 255));
        if octets {
            push(
                &mut out,
                SpanKind::Id,
                m.as_str().into(),
                None,
                m.start(),
                m.end(),
            );
        }
    }
    for c in p.phone.captures_iter(text) {
        let m = c.get(1).expect("phone group");
        let digits: String = m.as_str().chars().filter(char::is_ascii_digit).collect();
        // E.164 holds at most 15 digits; fewer than 8 is a short code or a sum ("+12").
        if (8..=15).contains(&digits.len()) {
            // The North American form ("(555) 010-4477") is country code 1.
            let plus = if m.as_str().starts_with('+') {
                "+"
            } else {
                "+1"
            };
            push(
                &mut out,
                SpanKind::Phone,
                format!("{plus}{digits}"),
                None,
                m.start(),
                m.end(),
            );
        }
    }
    for m in p.path.find_iter(text) {
        // A lone `/` or a fraction-like `a/b` is no path; `owner/repo` is read as a pair.
        let v = m.as_str();
        // A path starts a word: `/rust` inside `rust-lang/rust` is no path.
        if text[..m.start()].chars().last().is_some_and(|c| {
            !c.is_whitespace() && !matches!(c, '(' | '[' | '"' | '\'' | '`' | '=' | '“' | '‘')
        }) {
            continue;
        }
        let absolute = v.starts_with('/') || v.starts_with("~/") || v.starts_with("./");
        if (absolute && v.len() > 1 && v[1..].contains(|c: char| c.is_alphanumeric()))
            || v.contains('\\')
            || (!absolute && v.contains('.'))
        {
            push(&mut out, SpanKind::Path, v.into(), None, m.start(), m.end());
        }
    }
    for c in p.quoted.captures_iter(text) {
        if let Some(inner) = (1..=5).find_map(|i| c.get(i)) {
            push(
                &mut out,
                SpanKind::Quoted,
                inner.as_str().trim().into(),
                None,
                inner.start(),
                inner.end(),
            );
        }
    }
    // A latitude and a longitude written as one pair (`48.8584,2.2945`): one value, not two
    // numbers.
    for c in p.pair.captures_iter(text) {
        let (s, e) = (
            c.get(1).map_or(0, |m| m.start()),
            c.get(0).map_or(0, |m| m.end()),
        );
        push(&mut out, SpanKind::Id, text[s..e].into(), None, s, e);
    }
    // An id written as words joined by dashes and commas without a space
    // (`5500-Grand-Lake-Dr,-San-Antonio,-TX-78244`, an address made a key): one value.
    for m in p.joined.find_iter(text) {
        let v = m.as_str();
        if v.contains(',') && v.contains('-') && v.contains(|c: char| c.is_alphabetic()) {
            push(&mut out, SpanKind::Id, v.into(), None, m.start(), m.end());
        }
    }
    // Groups of digits (or hex) joined by dashes, four or more (`978-0-306-40615-7`,
    // `0000-0002-1825-0097`, a UUID): one code, never a date (three groups) or numbers.
    for m in p.dashed.find_iter(text) {
        if m.as_str().contains(|c: char| c.is_ascii_digit()) {
            push(
                &mut out,
                SpanKind::Id,
                m.as_str().into(),
                None,
                m.start(),
                m.end(),
            );
        }
    }
    dates(text, &mut out);
    for (s, e) in address::addresses(text) {
        push(&mut out, SpanKind::Address, text[s..e].into(), None, s, e);
    }
    for (s, e) in address::postcodes(text) {
        push(&mut out, SpanKind::Postcode, text[s..e].into(), None, s, e);
    }
    for c in p.slash.captures_iter(text) {
        let m = c.get(0).map_or((0, 0), |m| (m.start(), m.end()));
        let (a, b) = (&c[1], &c[2]);
        // Numbers on both sides are a ratio or a date, not a pair of names.
        if a.chars().all(|ch| ch.is_ascii_digit()) && b.chars().all(|ch| ch.is_ascii_digit()) {
            continue;
        }
        push(&mut out, SpanKind::Slash, c[0].into(), None, m.0, m.1);
    }
    numbers(text, &mut out);
    tokens(text, &mut out);
    objects(text, &mut out);
    finish(text, &mut out);
    out
}

/// Text order, and each span's words after it.
fn finish(text: &str, out: &mut [Span]) {
    out.sort_by_key(|s| (s.start, s.end));
    for s in out.iter_mut() {
        s.after = words_after(text, s.end);
    }
}

/// The lower-case words right after byte `at` (at most three, nearest first), stopping at
/// punctuation other than a space.
fn words_after(text: &str, at: usize) -> Vec<String> {
    let tail = &text[at..];
    let cut = tail
        .find([',', ';', '.', '?', '!', ':', '(', ')', '"'])
        .unwrap_or(tail.len());
    tail[..cut]
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .take(3)
        .collect()
}

/// The word tokens of `text` (letters and digits, with inner `_ . : # -`) as byte ranges.
pub fn word_tokens(text: &str) -> Vec<(usize, usize)> {
    patterns()
        .token
        .find_iter(text)
        .map(|m| (m.start(), m.end()))
        .collect()
}

/// The word tokens of `text` ([`word_tokens`]) and each token's text in lower case, index for
/// index.
pub fn lower_words(text: &str) -> (Vec<(usize, usize)>, Vec<String>) {
    let toks = word_tokens(text);
    let words = toks
        .iter()
        .map(|&(a, b)| text[a..b].to_lowercase())
        .collect();
    (toks, words)
}

/// A span of `kind` over bytes `start..end` of `text`, with the words around it.
pub fn span_at(text: &str, kind: SpanKind, start: usize, end: usize) -> Span {
    Span {
        kind,
        value: text[start..end].to_string(),
        unit: None,
        start,
        end,
        before: words_before(text, start),
        after: words_after(text, end),
    }
}

/// Add a [`SpanKind::Word`] span for every lower-case word of `text` that no span holds, that is
/// no function word, at least three letters long, and whose stems `known` does not know (the
/// catalog's index): a name typed in lower case ("how many followers does gvanrossum have").
/// Words of the catalog are what is asked, not values; a word it does not know is either a
/// value or a word the catalog cannot answer, and [`crate::route::ranked::fill`] takes it only
/// for a parameter that names an entity.
pub fn unknown_words(text: &str, out: &mut Vec<Span>, known: &dyn Fn(&str) -> bool) {
    let toks: Vec<(usize, usize, &str)> = patterns()
        .token
        .find_iter(text)
        .map(|m| (m.start(), m.end(), m.as_str()))
        .collect();
    for (s, e, w) in toks {
        let plain = w.chars().all(|c| c.is_alphabetic() && !c.is_uppercase());
        if !plain || w.chars().count() < 3 || taken(out, s, e) || is_function_word(w) {
            continue;
        }
        let mut stems = crate::search::text::stems(w).peekable();
        if stems.peek().is_none() || stems.any(|st| known(&st)) {
            continue;
        }
        push_token(text, out, SpanKind::Word, s, e);
    }
    finish(text, out);
}

fn dates(text: &str, out: &mut Vec<Span>) {
    let p = patterns();
    let mut found: Vec<(usize, usize, String)> = Vec::new();
    for c in p.iso_date.captures_iter(text) {
        let (y, m, d) = (&c[1], c[2].parse::<u32>(), c[3].parse::<u32>());
        if let (Ok(m), Ok(d)) = (m, d)
            && (1..=12).contains(&m)
            && (1..=31).contains(&d)
        {
            let all = c.get(0).map_or((0, 0), |x| (x.start(), x.end()));
            // A time keeps its seconds and zone as written, the hour padded.
            let time = match (c.get(4), c.get(5)) {
                (Some(h), Some(min)) => format!(
                    "T{:02}:{}:{}{}",
                    h.as_str().parse::<u32>().unwrap_or(0),
                    min.as_str(),
                    c.get(6).map_or("00", |x| x.as_str()),
                    c.get(7).map_or("", |x| x.as_str())
                ),
                _ => String::new(),
            };
            found.push((all.0, all.1, format!("{y}-{m:02}-{d:02}{time}")));
        }
    }
    for (re, month_at, day_at) in [(&p.text_date, 1, 2), (&p.day_month_date, 2, 1)] {
        for c in re.captures_iter(text) {
            let (Some(m), Ok(d)) = (month_number(&c[month_at]), c[day_at].parse::<u32>()) else {
                continue;
            };
            if (1..=31).contains(&d) {
                let all = c.get(0).map_or((0, 0), |x| (x.start(), x.end()));
                found.push((all.0, all.1, format!("{}-{m:02}-{d:02}", &c[3])));
            }
        }
    }
    for c in p.numeric_date.captures_iter(text) {
        if let Some((m, d)) = month_day(&c)
            && let Some(all) = c.get(0)
        {
            found.push((all.start(), all.end(), format!("{}-{m:02}-{d:02}", &c[5])));
        }
    }
    for (s, e, v) in found {
        if !taken(out, s, e) {
            out.push(Span {
                kind: SpanKind::Date,
                value: v,
                unit: None,
                start: s,
                end: e,
                before: words_before(text, s),
                after: Vec::new(),
            });
        }
    }
}

/// The month and the day of a date written in numbers with the year last (`18-08-2019`,
/// `12/25/2023`, `1.5.2024`): the one above 12 is the day; when both could be either, a `/`
/// says month first (as in the US), a `-` or a `.` day first. Both separators must be the same.
fn month_day(c: &regex::Captures) -> Option<(u32, u32)> {
    if c[2] != c[4] {
        return None;
    }
    let (a, b): (u32, u32) = (c[1].parse().ok()?, c[3].parse().ok()?);
    let (m, d) = if a > 12 {
        (b, a)
    } else if b > 12 || &c[2] == "/" {
        (a, b)
    } else {
        (b, a)
    };
    ((1..=12).contains(&m) && (1..=31).contains(&d)).then_some((m, d))
}

fn numbers(text: &str, out: &mut Vec<Span>) {
    for c in patterns().number.captures_iter(text) {
        let Some(n) = c.get(1) else { continue };
        let unit = c.get(2).map(|u| u.as_str().to_lowercase());
        let (s, mut e) = (n.start(), n.end());
        if let Some(u) = c.get(2) {
            e = u.end();
        }
        if taken(out, s, e) {
            continue;
        }
        // Letters glued to the number in mixed case are no unit but the rest of an id
        // (`11dFghVXANMlKmJXsNCbNl`); `9.5g`, `300km`, `45.76N` are units.
        if let Some(u) = c.get(2)
            && u.start() == n.end()
            && glued_id_tail(n.as_str(), u.as_str())
        {
            continue;
        }
        let v = number_value(n.as_str());
        // A bare four-digit number from 1800 to 2199 is a year.
        let kind = if unit.is_none()
            && v.len() == 4
            && v.parse::<u32>().is_ok_and(|y| (1800..2200).contains(&y))
        {
            SpanKind::Year
        } else {
            SpanKind::Number
        };
        // "8812th" or a unit that is really the next word ("5 results") are both kept: the
        // unit word helps the matcher ("3 days", "top 5 results").
        out.push(Span {
            kind,
            value: v,
            unit: unit.filter(|u| !u.is_empty()),
            start: s,
            end: e,
            before: words_before(text, s),
            after: Vec::new(),
        });
    }
}

/// The value of a number as written: commas that group thousands (`1,000`, `1,000,000.50`)
/// are dropped; a lone comma before other than three digits is a decimal comma (`2,5`).
fn number_value(n: &str) -> String {
    let (whole, frac) = n.split_once('.').unwrap_or((n, ""));
    let digits = whole.trim_start_matches(['-', '+']);
    let mut groups = digits.split(',');
    let grouped = digits.contains(',')
        && groups.next().is_some_and(|g| (1..=3).contains(&g.len()))
        && groups.all(|g| g.len() == 3);
    if grouped {
        let mut v = whole.replace(',', "");
        if !frac.is_empty() {
            v.push('.');
            v.push_str(frac);
        }
        v
    } else {
        n.replace(',', ".")
    }
}

/// Whether letters glued to number `n` are the rest of an id rather than its unit: mixed case
/// (`11dFghVXANMlKmJXsNCbNl`), four upper-case letters or more (`940GZZLUOXC`), or upper-case
/// letters after a whole number of five digits or more (`490008660N`); `9.5g`, `300km`,
/// `300K`, `45.76N` and `5GB` are units.
fn glued_id_tail(n: &str, u: &str) -> bool {
    let upper = u.chars().filter(|c| c.is_uppercase()).count();
    let lower = u.chars().filter(|c| c.is_lowercase()).count();
    let long_whole = n.len() >= 5 && n.chars().all(|c| c.is_ascii_digit());
    (upper > 0 && lower > 0) || (lower == 0 && (upper >= 4 || long_whole))
}

/// Id-shaped tokens and runs of capitalised words.
fn tokens(text: &str, out: &mut Vec<Span>) {
    let toks: Vec<(usize, usize, &str)> = patterns()
        .token
        .find_iter(text)
        .map(|m| (m.start(), m.end(), m.as_str()))
        .collect();
    let sentence_start = |at: usize| {
        text[..at]
            .trim_end()
            .chars()
            .last()
            .is_none_or(|c| matches!(c, '.' | '?' | '!' | ':' | '\n'))
    };
    let mut i = 0;
    while i < toks.len() {
        let (s, e, w) = toks[i];
        if taken(out, s, e) {
            i += 1;
            continue;
        }
        let has_alpha = w.chars().any(char::is_alphabetic);
        if id_shaped(w) {
            push_token(text, out, SpanKind::Id, s, e);
            i += 1;
            continue;
        }
        let capitalised = w.chars().next().is_some_and(char::is_uppercase) && has_alpha;
        if capitalised && !(sentence_start(s) && is_function_word(w)) {
            let mut j = i;
            while j + 1 < toks.len() {
                let (ns, ne, nw) = toks[j + 1];
                let gap = &text[toks[j].1..ns];
                let joins = gap.trim().is_empty() || gap.trim() == "-";
                let cap = nw.chars().next().is_some_and(char::is_uppercase);
                if !joins || !cap || id_shaped(nw) || taken(out, ns, ne) {
                    break;
                }
                j += 1;
            }
            let end = toks[j].1;
            // A sentence's first word alone is capitalised by the sentence, not as a name.
            if !(j == i && sentence_start(s)) {
                push_token(text, out, SpanKind::Name, s, end);
            }
            i = j + 1;
            continue;
        }
        i += 1;
    }
}

/// A token that mixes letters and digits, an upper-case code of two letters or more, or one
/// with `#` or `:` (`NCT04280705`, `AAPL`, `#42`).
fn id_shaped(w: &str) -> bool {
    let has_digit = w.chars().any(|c| c.is_ascii_digit());
    let has_alpha = w.chars().any(char::is_alphabetic);
    let upper_code = w.chars().count() >= 2
        && w.chars().all(|c| c.is_uppercase() || c.is_ascii_digit())
        && has_alpha;
    (has_digit && has_alpha) || upper_code || w.contains(['#', ':'])
}

/// Whether `w` is a function word (any case): an English stop word or a word that ends an
/// object ("the", "right", "today", "due", "according"), never a value.
pub fn is_function_word(w: &str) -> bool {
    let l = w.to_lowercase();
    OBJECT_STOPS.contains(&l.as_str()) || crate::search::text::is_stop_word(&l)
}

fn push_token(text: &str, out: &mut Vec<Span>, kind: SpanKind, s: usize, e: usize) {
    out.push(Span {
        kind,
        value: text[s..e].to_string(),
        unit: None,
        start: s,
        end: e,
        before: words_before(text, s),
        after: Vec::new(),
    });
}

/// The object of each preposition: the words after it up to punctuation or a function word
/// (at most five), when no other span took them ("weather in lyon" -> `lyon`, "papers about
/// graph neural networks" -> `graph neural networks`).
fn objects(text: &str, out: &mut Vec<Span>) {
    let toks: Vec<(usize, usize, &str)> = patterns()
        .token
        .find_iter(text)
        .map(|m| (m.start(), m.end(), m.as_str()))
        .collect();
    let mut found = Vec::new();
    for (i, (_, pe, w)) in toks.iter().enumerate() {
        if !PREPOSITIONS.contains(&w.to_lowercase().as_str()) {
            continue;
        }
        let mut j = i + 1;
        let mut end = None;
        let mut start = None;
        // Words right before another value label it ("for order 8812"): no object then.
        let mut labels = false;
        while j < toks.len() && j <= i + 5 {
            let (s, e, nw) = toks[j];
            let gap = &text[toks[j - 1].1..s];
            if gap.contains([',', ';', '.', '?', '!', ':', '(', ')']) {
                break;
            }
            if taken(out, s, e) {
                labels = start.is_some();
                break;
            }
            let l = nw.to_lowercase();
            if OBJECT_STOPS.contains(&l.as_str()) {
                // "the" right after the preposition is skipped; later it ends the object.
                if start.is_none() && matches!(l.as_str(), "the" | "a" | "an" | "my") {
                    j += 1;
                    continue;
                }
                break;
            }
            start.get_or_insert(s);
            end = Some(e);
            j += 1;
        }
        if let (Some(s), Some(e)) = (start, end)
            && s >= *pe
            && !labels
        {
            found.push((s, e));
        }
    }
    for (s, e) in found {
        if !taken(out, s, e) {
            push_token(text, out, SpanKind::Object, s, e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(q: &str) -> Vec<(SpanKind, String)> {
        spans(q).into_iter().map(|s| (s.kind, s.value)).collect()
    }

    #[test]
    fn ids_joined_by_dashes_and_commas_and_coordinate_pairs_are_one_value() {
        assert_eq!(
            kinds("how many square feet is property 5500-Grand-Lake-Dr,-San-Antonio,-TX-78244"),
            [(
                SpanKind::Id,
                "5500-Grand-Lake-Dr,-San-Antonio,-TX-78244".to_string()
            )]
        );
        assert_eq!(
            kinds("reverse geocode 48.8584,2.2945: which street is that"),
            [(SpanKind::Id, "48.8584,2.2945".to_string())]
        );
        assert_eq!(
            kinds("what can i reach from -33.86, 151.2 by bike"),
            [
                (SpanKind::Id, "-33.86, 151.2".to_string()),
                (SpanKind::Object, "bike".to_string())
            ]
        );
        // A list written with commas and spaces stays a list; a dashed slug without a comma is
        // read as before.
        assert_eq!(
            kinds("prices of 3, 4 and 5"),
            [
                (SpanKind::Number, "3".to_string()),
                (SpanKind::Number, "4".to_string()),
                (SpanKind::Number, "5".to_string())
            ]
        );
    }

    #[test]
    fn values_in_running_text() {
        use SpanKind::*;
        assert_eq!(
            kinds("What's the current weather in London?"),
            [(Name, "London".into())]
        );
        assert_eq!(
            kinds("what's the weather in lyon"),
            [(Object, "lyon".into())]
        );
        assert_eq!(
            kinds("How many stars does rust-lang/rust have"),
            [(Slash, "rust-lang/rust".into())]
        );
        assert_eq!(kinds("status of order 8812"), [(Number, "8812".into())]);
        assert_eq!(
            kinds("rates for the address 81.2.69.142"),
            [(Id, "81.2.69.142".into())]
        );
        assert_eq!(
            kinds("Save it to /root/markdown/NCT04280705.md please"),
            [(Path, "/root/markdown/NCT04280705.md".into())]
        );
        assert_eq!(
            kinds("mail bob@example.org the link https://example.org/a?b=1."),
            [
                (Email, "bob@example.org".into()),
                (Url, "https://example.org/a?b=1".into())
            ]
        );
        assert_eq!(
            kinds("Is +44 20 7946 0958 a valid phone number? Or call (555) 010-4477, 555.010.4478"),
            [
                (Phone, "+442079460958".into()),
                (Phone, "+15550104477".into()),
                (Phone, "+15550104478".into())
            ]
        );
        assert_eq!(
            kinds("+1 (415) 555-0100 or +33 1 42 68 53 00"),
            [
                (Phone, "+14155550100".into()),
                (Phone, "+33142685300".into())
            ]
        );
        assert_eq!(
            kinds(
                "ISBN 978-0-306-40615-7 or 0-306-40615-X, ORCID 0000-0002-1825-0097 on 2024-05-01"
            ),
            [
                (Id, "ISBN".into()),
                (Id, "978-0-306-40615-7".into()),
                (Id, "0-306-40615-X".into()),
                (Id, "ORCID".into()),
                (Id, "0000-0002-1825-0097".into()),
                (Date, "2024-05-01".into())
            ]
        );
        // A sum, a date and a short signed number are no telephone numbers.
        assert_eq!(
            kinds("add +12 to 2024-05-01"),
            [(Number, "+12".into()), (Date, "2024-05-01".into())]
        );
        assert_eq!(
            kinds("books titled \"Dune\" from May 3, 2021"),
            [(Quoted, "Dune".into()), (Date, "2021-05-03".into())]
        );
        assert_eq!(
            kinds("papers about graph neural networks since 2020"),
            [
                (Object, "graph neural networks".into()),
                (Year, "2020".into())
            ]
        );
        assert_eq!(
            kinds("Get AAPL and NCT04280705"),
            [(Id, "AAPL".into()), (Id, "NCT04280705".into())]
        );
        assert_eq!(
            kinds("a trip to New York for 3 days"),
            [(Name, "New York".into()), (Number, "3".into())]
        );
    }

    #[test]
    fn ids_that_open_with_digits_and_places_before_words_of_time() {
        assert_eq!(
            kinds("tempo of the track 11dFghVXANMlKmJXsNCbNl"),
            [(SpanKind::Id, "11dFghVXANMlKmJXsNCbNl".to_string())]
        );
        assert_eq!(
            kinds("the temperature in lyon right now"),
            [(SpanKind::Object, "lyon".to_string())]
        );
        assert_eq!(
            kinds("the air in delhi today"),
            [(SpanKind::Object, "delhi".to_string())]
        );
    }

    #[test]
    fn words_the_catalog_does_not_know_are_read_as_names_with_the_words_around_them() {
        let q = "how many public repositories does the mozilla org have?";
        let mut s = spans(q);
        unknown_words(q, &mut s, &|st| {
            ["public", "repositori", "org"].contains(&st)
        });
        let words: Vec<(SpanKind, &str, &[String])> = s
            .iter()
            .map(|s| (s.kind, s.value.as_str(), s.after.as_slice()))
            .collect();
        assert_eq!(
            words,
            [(
                SpanKind::Word,
                "mozilla",
                &["org".to_string(), "have".to_string()][..]
            )]
        );
        // Capitalised names and objects keep their kind; short words are no names.
        let q = "is it windy in wellington, ok";
        let mut s = spans(q);
        unknown_words(q, &mut s, &|_| false);
        let kinds: Vec<(SpanKind, String)> = s.into_iter().map(|s| (s.kind, s.value)).collect();
        assert_eq!(
            kinds,
            [
                (SpanKind::Word, "windy".to_string()),
                (SpanKind::Object, "wellington".to_string())
            ]
        );
    }

    #[test]
    fn ids_that_open_with_digits_are_one_span_and_units_stay_units() {
        use SpanKind::*;
        for (q, want) in [
            ("arrivals at stop point 940GZZLUOXC", (Id, "940GZZLUOXC")),
            (
                "episodes of podcast 4d3fe717742d4963a85562e9f84d8c79",
                (Id, "4d3fe717742d4963a85562e9f84d8c79"),
            ),
            ("the 2b3c9e parcel", (Id, "2b3c9e")),
            ("a salary of 300K", (Number, "300")),
            ("Lyon is at 45.76N", (Number, "45.76")),
            ("a disk of 5GB", (Number, "5")),
            ("lift 5 kg", (Number, "5")),
            ("convert 1,000 euros", (Number, "1000")),
            ("convert 1,000,000.50 euros", (Number, "1000000.50")),
            ("a gap of 2,5 eV", (Number, "2.5")),
            ("a gap of 12,75 eV", (Number, "12.75")),
            ("sold on 2021-08-24", (Date, "2021-08-24")),
        ] {
            let got: Vec<(SpanKind, String)> = kinds(q);
            assert_eq!(got, [(want.0, want.1.to_string())], "{q}");
        }
        let s = spans("a salary of 300K");
        assert_eq!(s[0].unit.as_deref(), Some("k"));
    }

    #[test]
    fn numbers_keep_their_unit_word_and_the_words_before() {
        let s = spans("I have 9.5g gold and want the top 5 results");
        assert_eq!(s[0].value, "9.5");
        assert_eq!(s[0].unit.as_deref(), Some("g"));
        assert_eq!(s[1].value, "5");
        assert_eq!(s[1].before, ["want", "the", "top"]);
        assert_eq!(s[1].unit.as_deref(), Some("results"));
    }

    #[test]
    fn dates_in_numbers_and_words_and_addresses_are_one_value() {
        use SpanKind::*;
        for (q, want) in [
            ("the show on 18-08-2019", (Date, "2019-08-18")),
            ("the show on 12/25/2023", (Date, "2023-12-25")),
            ("the show on 04/07/2023", (Date, "2023-04-07")),
            ("the show on 04.07.2023", (Date, "2023-07-04")),
            (
                "the show on the 25th of December 2023",
                (Date, "2023-12-25"),
            ),
            (
                "rent at 12 oak street, denver, co 80203",
                (Address, "12 oak street, denver, co 80203"),
            ),
            ("homes in zip 80203", (Postcode, "80203")),
            // A date-time keeps its time.
            (
                "shows from 2024-05-01T00:00:00Z on",
                (Date, "2024-05-01T00:00:00Z"),
            ),
            (
                "spins after 2024-05-01 9:30 only",
                (Date, "2024-05-01T09:30:00"),
            ),
            (
                "the sky at 2024-06-01T12:00:00.000+02:00 please",
                (Date, "2024-06-01T12:00:00+02:00"),
            ),
        ] {
            assert_eq!(kinds(q), [(want.0, want.1.to_string())], "{q}");
        }
    }
}
