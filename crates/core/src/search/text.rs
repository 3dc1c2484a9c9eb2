//! Search terms of a text: the one tokenizer the index and the queries share.
//!
//! - words by Unicode word boundaries (UAX #29, `unicode-segmentation`), after NFKC;
//! - identifiers split into their parts (`getCurrentWeather`, `stock_price`, `per-page`,
//!   `api.github.com`), the whole word kept beside its parts (`PubChem` gives `pub`, `chem` and
//!   `pubchem`, so a question that writes the name in one word still finds it);
//! - lower case, diacritics folded (`Zürich` = `zurich`), a possessive `'s` dropped;
//! - English stop words left out, Snowball English stemming (`rust-stemmers`) for Latin words
//!   (`forecasts` = `forecast`, `parking` = `park`);
//! - Chinese, Japanese and Korean runs as overlapping character bigrams (a lone character as a
//!   unigram), as Lucene's CJK analyzer does: these scripts are written without spaces, and a
//!   bigram index finds words without a dictionary.
//!
//! Every term keeps the byte range of the text it came from, so a caller can say which words of
//! a question matched.

use rust_stemmers::{Algorithm, Stemmer};
use std::collections::HashMap;
use std::sync::OnceLock;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;
use unicode_segmentation::UnicodeSegmentation;

/// One search term: its indexed form and where in the text it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    /// The indexed form (stemmed, lower case; a bigram for CJK text).
    pub stem: String,
    /// Byte range in the NFKC form of the text the caller passed (see [`terms`]).
    pub start: usize,
    /// End of the byte range (exclusive).
    pub end: usize,
}

/// The form of a question every reader starts from: NFKC, with the invisible format characters
/// that copy and paste brings along taken out (zero-width space, non-joiner and joiner, word
/// joiner, soft hyphen, byte order mark, bidirectional marks, variation selectors, tags):
/// `fore\u{200B}cast` reads `forecast`. These are Unicode's default-ignorable code points.
pub fn normalise(text: &str) -> String {
    text.nfkc().filter(|&c| !invisible(c)).collect()
}

/// Whether a character is a default-ignorable code point (Unicode `DerivedCoreProperties`,
/// `Default_Ignorable_Code_Point`): it has no glyph and no meaning for a reader.
fn invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}'
        | '\u{FFA0}' | '\u{FFF0}'..='\u{FFF8}' | '\u{1BCA0}'..='\u{1BCA3}'
        | '\u{1D173}'..='\u{1D17A}' | '\u{E0000}'..='\u{E0FFF}')
}

/// A question written all in capitals ("FORECAST FOR PARIS"), three words or more with no lower
/// case letter, in lower case: its capitals mark no names, and read as written every word would
/// look like one. Any other text is returned as it is.
pub fn unshout(text: &str) -> std::borrow::Cow<'_, str> {
    let words = text
        .unicode_words()
        .filter(|w| w.chars().any(char::is_alphabetic))
        .count();
    let cased = text.chars().any(char::is_uppercase);
    if words >= 3 && cased && !text.chars().any(char::is_lowercase) {
        std::borrow::Cow::Owned(text.to_lowercase())
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// English words too common to say what a text is about (articles, pronouns, auxiliaries,
/// prepositions, question words, politeness). Language data, not a domain's: kept short so
/// that words which name actions (`get`, `list`, `search`) stay terms.
const STOP_WORDS: &[&str] = &[
    "a", "about", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be",
    "been", "both", "but", "by", "can", "could", "d", "did", "do", "does", "doing", "for", "from",
    "had", "has", "have", "having", "he", "her", "here", "hers", "him", "his", "how", "i", "if",
    "in", "into", "is", "it", "its", "itself", "just", "let", "ll", "m", "many", "me", "might",
    "mine", "much", "must", "my", "myself", "of", "on", "or", "our", "ours", "please", "re", "s",
    "shall", "she", "should", "so", "some", "such", "t", "than", "that", "the", "their", "theirs",
    "them", "then", "there", "these", "they", "this", "those", "to", "too", "us", "ve", "very",
    "was", "we", "were", "what", "whats", "when", "where", "which", "while", "who", "whom",
    "whose", "why", "will", "with", "would", "you", "your", "yours", "yourself",
];

/// English words that carry little of what a request is about, though a catalog may hold them
/// (`next` of a page, `first` air date, `like` of `likes`): prepositions of place and time,
/// quantifiers, vague adverbs and verbs of wanting or giving. Unlike [`STOP_WORDS`] they stay
/// terms, weighing less in a query ([`crate::search::LIGHT_WEIGHT`]): "chance of rain over the
/// next few hours" is about rain, not about `next` links. Language data, sorted.
const LIGHT_WORDS: &[&str] = &[
    "above", "across", "after", "against", "ago", "along", "among", "another", "around", "before",
    "behind", "below", "beside", "besides", "between", "beyond", "coming", "down", "during",
    "each", "either", "else", "enough", "ever", "every", "few", "first", "further", "get", "give",
    "go", "going", "got", "kind", "last", "least", "left", "less", "like", "lot", "lots", "more",
    "most", "near", "need", "never", "next", "no", "nor", "not", "now", "off", "often", "once",
    "one", "only", "other", "out", "over", "own", "past", "really", "right", "same", "several",
    "since", "soon", "still", "sure", "tell", "thing", "things", "three", "through", "today",
    "tonight", "two", "under", "until", "up", "want", "way", "well", "within", "without", "yet",
];

/// Words that make the next unit word (and a number before it) a period of time ending now
/// ("this week", "the past 7 days", "over the last month"), lower case. Language data.
pub const PERIOD_MODIFIERS: &[&str] = &["current", "last", "past", "previous", "recent", "this"];

/// Unit words of a period of time, with its length in hours ("past 24 hours", "this week").
/// Language data.
pub const PERIOD_UNITS: &[(&str, u32)] = &[
    ("day", 24),
    ("days", 24),
    ("fortnight", 336),
    ("fortnights", 336),
    ("hour", 1),
    ("hours", 1),
    ("month", 720),
    ("months", 720),
    ("week", 168),
    ("weeks", 168),
    ("year", 8760),
    ("years", 8760),
];

/// Single words that name a period of time, with its length in hours and how many days before
/// the reference date it ends ("yesterday": a day ending one day ago). Language data.
pub const PERIOD_WORDS: &[(&str, u32, u32)] = &[
    ("annually", 8760, 0),
    ("daily", 24, 0),
    ("monthly", 720, 0),
    ("today", 24, 0),
    ("tonight", 24, 0),
    ("weekly", 168, 0),
    ("yearly", 8760, 0),
    ("yesterday", 24, 1),
];

/// Common English names of countries that differ from their ISO 3166-1 names (which
/// `isocountry` knows: "france", "united states of america"), lower case, with the alpha-2
/// code. Language data, sorted.
pub const COUNTRY_NAMES: &[(&str, &str)] = &[
    ("america", "US"),
    ("britain", "GB"),
    ("england", "GB"),
    ("great britain", "GB"),
    ("holland", "NL"),
    ("north korea", "KP"),
    ("russia", "RU"),
    ("south korea", "KR"),
    ("the netherlands", "NL"),
    ("the uk", "GB"),
    ("the us", "US"),
    ("the usa", "US"),
    ("uk", "GB"),
    ("united kingdom", "GB"),
    ("united states", "US"),
    ("usa", "US"),
];

/// Words that open the next step of a task ("…, then e-mail it", "After that, …"), lower case,
/// word by word: each ends one need and starts another ([`crate::search::needs`]). Language
/// data.
pub const SEQUENCE_PHRASES: &[&[&str]] = &[
    &["after", "that"],
    &["after", "this"],
    &["afterwards"],
    &["and", "then"],
    &["finally"],
    &["followed", "by"],
    &["lastly"],
    &["subsequently"],
    &["then"],
];

/// Words that join two things asked for: a need ends at one when an imperative verb follows
/// ("… and save it to …"); before a noun they join one need's objects. Language data.
pub const JOINING_PHRASES: &[&[&str]] = &[&["and"], &["as", "well", "as"], &["plus"]];

/// Imperative verbs that open a need besides the verbs of asking and composing
/// ([`crate::search::frame::TASK_VERBS`], [`crate::search::frame::FRAME_VERBS`]): verbs of
/// storing, sending, changing, scheduling, buying and browsing. Language data, sorted.
pub const ACTION_VERBS: &[&str] = &[
    "add",
    "attach",
    "book",
    "buy",
    "cancel",
    "capture",
    "click",
    "combine",
    "copy",
    "delete",
    "edit",
    "email",
    "export",
    "fill",
    "filter",
    "forward",
    "insert",
    "invite",
    "mail",
    "map",
    "merge",
    "message",
    "move",
    "navigate",
    "notify",
    "order",
    "play",
    "post",
    "print",
    "publish",
    "put",
    "query",
    "remind",
    "remove",
    "rename",
    "render",
    "reply",
    "schedule",
    "send",
    "set",
    "share",
    "sort",
    "store",
    "submit",
    "take",
    "translate",
    "update",
    "upload",
    "visit",
    "visualise",
    "visualize",
];

/// Verbs of changing data: an endpoint whose id holds one writes (`repos_create_fork`,
/// `add_observations`), and a request that opens with one asks to write ("Create an issue …",
/// "Save the playlist …"); with their common synonyms. Language data, sorted.
pub const WRITE_VERBS: &[&str] = &[
    "add", "append", "cancel", "change", "create", "delete", "edit", "insert", "modify", "patch",
    "post", "put", "remove", "rename", "replace", "save", "send", "set", "submit", "update",
    "upload", "upsert", "write",
];

/// Verbs of computing an answer from what a request sends, with no stored state changed: an
/// HTTP `POST` that does one of them reads (`POST /api/Finance/Vat/Validator`, "Generate brand
/// name suggestions"). Their agent nouns stem alike (`validator`, `converter`, `calculator`,
/// `generator`). Language data, sorted.
pub const COMPUTE_VERBS: &[&str] = &[
    "analyse",
    "analyze",
    "autocomplete",
    "calculate",
    "check",
    "classify",
    "compare",
    "compute",
    "convert",
    "detect",
    "estimate",
    "evaluate",
    "extract",
    "format",
    "generate",
    "guess",
    "humanize",
    "lookup",
    "match",
    "parse",
    "predict",
    "preview",
    "quote",
    "recognize",
    "search",
    "simulate",
    "suggest",
    "summarize",
    "tokenize",
    "transform",
    "translate",
    "validate",
    "verify",
];

/// Verbs of making something other than the records an endpoint reads (a picture, a
/// conversion, a verdict, a guess, a suggestion): an endpoint whose name holds one
/// (`visualize_recipe_equipment_by_id`, `convert_time`, `get_api_phone_validate`) answers a
/// request that asks for that, not one that asks for the records themselves. A subset of
/// [`COMPUTE_VERBS`]; verbs of reading (`search`, `lookup`, `match`) and of forecasting
/// (`predict`, `estimate`) are not in it. Language data, sorted.
pub const PRODUCING_VERBS: &[&str] = &[
    "analyse",
    "analyze",
    "autocomplete",
    "classify",
    "convert",
    "detect",
    "extract",
    "generate",
    "guess",
    "humanize",
    "parse",
    "suggest",
    "summarize",
    "transform",
    "translate",
    "validate",
    "verify",
    "visualise",
    "visualize",
];

/// Nouns of an endpoint's name that say it renders its records (a picture, a widget, a chart)
/// rather than returning them: `equipment_by_id_image`, `nutrition_widget`. A request that
/// does not ask for the rendering asks for the data. Not `graph`, which as often names data
/// (a knowledge graph's `read_graph`). Language data, sorted.
pub const RENDERING_NAMES: &[&str] = &[
    "chart",
    "image",
    "picture",
    "png",
    "svg",
    "thumbnail",
    "widget",
];

/// When a request asks about: what has been, what is now, or what is to come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tense {
    /// What has been (`history`; "the last 72 hours", "what was …").
    Past,
    /// What is now (`current`; "right now", "at the moment").
    Present,
    /// What is to come (`forecast`; "the next 3 days", "will it rain").
    Future,
}

/// Words of an endpoint's name that say when the records it returns are from, by their stems'
/// words. Language data, sorted.
pub const TENSE_NAMES: &[(&str, Tense)] = &[
    ("archive", Tense::Past),
    ("current", Tense::Present),
    ("forecast", Tense::Future),
    ("future", Tense::Future),
    ("historical", Tense::Past),
    ("history", Tense::Past),
    ("live", Tense::Present),
    ("now", Tense::Present),
    ("past", Tense::Past),
    ("realtime", Tense::Present),
    ("upcoming", Tense::Future),
];

/// Words of a request that say when what it asks about is (whole words, lower case). Language
/// data, sorted.
pub const TENSE_CUES: &[(&str, Tense)] = &[
    ("ago", Tense::Past),
    ("current", Tense::Present),
    ("currently", Tense::Present),
    ("forecast", Tense::Future),
    ("historical", Tense::Past),
    ("history", Tense::Past),
    ("last", Tense::Past),
    ("next", Tense::Future),
    ("now", Tense::Present),
    ("past", Tense::Past),
    ("tomorrow", Tense::Future),
    ("upcoming", Tense::Future),
    ("was", Tense::Past),
    ("were", Tense::Past),
    ("will", Tense::Future),
    ("yesterday", Tense::Past),
];

/// Whether a lower-case word is a light word: a preposition of place or time, a quantifier, a
/// vague adverb or a verb of wanting or giving (`next`, `over`, `few`, `now`, `want`).
pub fn is_light_word(w: &str) -> bool {
    LIGHT_WORDS.binary_search(&w).is_ok()
}

/// Whether a lower-case word is a stop word.
pub fn is_stop_word(w: &str) -> bool {
    STOP_WORDS.binary_search(&w).is_ok()
}

/// The stem of each word of `derivations.txt` mapped to the stem of its verb
/// ("definit" -> "defin"), so that a question's verb finds a catalog's noun. Built once.
fn derivations() -> &'static HashMap<String, String> {
    static D: OnceLock<HashMap<String, String>> = OnceLock::new();
    D.get_or_init(|| {
        include_str!("derivations.txt")
            .lines()
            .map(|l| l.split('#').next().unwrap_or("").trim())
            .filter_map(|line| line.split_once(' '))
            .map(|(verb, noun)| {
                (
                    stemmer().stem(noun).into_owned(),
                    stemmer().stem(verb).into_owned(),
                )
            })
            .collect()
    })
}

/// Whether `stem` is the stem of a verb of `derivations.txt` whose noun a
/// catalog may use instead ("defin" of "define" for `definitions`).
pub fn derived(stem: &str) -> bool {
    derivations().values().any(|v| v == stem)
}

fn stemmer() -> &'static Stemmer {
    static S: OnceLock<Stemmer> = OnceLock::new();
    S.get_or_init(|| Stemmer::create(Algorithm::English))
}

/// Whether a character belongs to a script written without spaces between words (Han,
/// Hiragana, Katakana) or to Hangul, which the CJK bigram pass covers too.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF      // Hiragana, Katakana
        | 0x31F0..=0x31FF    // Katakana phonetic extensions
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0xFF66..=0xFF9D    // half-width Katakana
        | 0x1100..=0x11FF    // Hangul Jamo
        | 0xAC00..=0xD7AF    // Hangul syllables
        | 0x20000..=0x2FA1F) // CJK extensions B-F and compatibility supplement
}

/// A piece of text as the tokenizer walks it, with its byte offset in the text.
pub(crate) enum Piece<'a> {
    /// A word of no CJK character (UAX #29 word segment with a letter or digit).
    Word(&'a str, usize),
    /// A run of adjacent segments holding CJK characters (bigrams, see [`terms`]).
    Cjk(&'a str, usize),
}

/// Walks `text` piece by piece, in text order: the one segmentation [`terms`] and the index
/// builder's word cache share.
pub(crate) fn walk(text: &str, mut f: impl FnMut(Piece<'_>)) {
    // A run of adjacent CJK segments (UAX #29 gives one ideograph or kana per segment).
    let mut run: Option<(usize, usize)> = None;
    for (start, word) in text.split_word_bound_indices() {
        let end = start + word.len();
        if word.chars().any(is_cjk) {
            run = match run {
                Some((s, e)) if e == start => Some((s, end)),
                Some((s, e)) => {
                    f(Piece::Cjk(&text[s..e], s));
                    Some((start, end))
                }
                None => Some((start, end)),
            };
            continue;
        }
        if let Some((s, e)) = run.take() {
            f(Piece::Cjk(&text[s..e], s));
        }
        if word.chars().any(char::is_alphanumeric) {
            f(Piece::Word(word, start));
        }
    }
    if let Some((s, e)) = run {
        f(Piece::Cjk(&text[s..e], s));
    }
}

/// The terms of one piece of [`walk`], appended to `out`.
pub(crate) fn piece_terms(piece: Piece<'_>, out: &mut Vec<Term>) {
    match piece {
        Piece::Word(w, start) => word_terms(w, start, out),
        Piece::Cjk(r, start) => cjk_terms(r, start, out),
    }
}

/// The search terms of `text`, in text order (repeats kept: the index counts them). Ranges are
/// byte ranges into `text` itself when it is already in NFKC (questions are normalised by the
/// caller; declaration text is indexed without needing ranges).
pub fn terms(text: &str) -> Vec<Term> {
    let mut out = Vec::new();
    walk(text, |piece| piece_terms(piece, &mut out));
    out
}

/// The indexed forms of `text` only (for building the index).
pub fn stems(text: &str) -> impl Iterator<Item = String> {
    terms(text).into_iter().map(|t| t.stem)
}

/// Bigrams of the CJK runs of a run of adjacent segments (joined by [`terms`]); other letters
/// in it go through [`word_terms`].
fn cjk_terms(word: &str, start: usize, out: &mut Vec<Term>) {
    let mut rest_start = None;
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        if is_cjk(c) {
            if let Some(s) = rest_start.take() {
                word_terms(&word[s..at], start + s, out);
            }
            let run_start = i;
            while i < chars.len() && is_cjk(chars[i].1) {
                i += 1;
            }
            let run = &chars[run_start..i];
            let end_of = |k: usize| {
                chars
                    .get(run_start + k + 1)
                    .map(|(b, _)| *b)
                    .unwrap_or(word.len())
            };
            if run.len() == 1 {
                out.push(Term {
                    stem: run[0].1.to_string(),
                    start: start + run[0].0,
                    end: start + end_of(0),
                });
            }
            for k in 0..run.len().saturating_sub(1) {
                out.push(Term {
                    stem: [run[k].1, run[k + 1].1].iter().collect(),
                    start: start + run[k].0,
                    end: start + end_of(k + 1),
                });
            }
        } else {
            rest_start.get_or_insert(at);
            i += 1;
        }
    }
    if let Some(s) = rest_start {
        word_terms(&word[s..], start + s, out);
    }
}

/// Terms of one non-CJK word: the whole word and, for an identifier, its parts.
fn word_terms(word: &str, start: usize, out: &mut Vec<Term>) {
    let parts = split_identifier(word);
    let whole = fold(word);
    let whole_len = parts.len();
    for (s, e) in &parts {
        push_word(&word[*s..*e], start + s, start + e, out);
    }
    // The whole word beside its parts, once (`PubChem` -> `pubchem`; `stock_price` ->
    // `stockprice`), when the parts are more than one.
    if whole_len > 1 {
        let joined: String = whole.chars().filter(|c| c.is_alphanumeric()).collect();
        if joined.chars().count() > 1 && !is_stop_word(&joined) {
            out.push(Term {
                stem: stem_word(&joined),
                start,
                end: start + word.len(),
            });
        }
    }
}

fn push_word(part: &str, start: usize, end: usize, out: &mut Vec<Term>) {
    let mut w = fold(part);
    if let Some(stripped) = w.strip_suffix("'s").or_else(|| w.strip_suffix("’s")) {
        w = stripped.to_string();
    }
    w.retain(|c| c.is_alphanumeric());
    if w.is_empty() || is_stop_word(&w) {
        return;
    }
    // A lone Latin letter says nothing ("a", "x"); a lone digit may (a version, a count).
    if w.chars().count() == 1 && w.chars().all(|c| c.is_alphabetic()) {
        return;
    }
    out.push(Term {
        stem: stem_word(&w),
        start,
        end,
    });
}

/// Lower case with diacritics removed (NFD, combining marks dropped, NFC again).
/// The indexed form of two adjacent words written as one identifier (`default branch` ->
/// the stem of `defaultbranch`, as `default_branch` is indexed beside its parts), or `None`
/// when either is not a word of letters.
pub fn compound(a: &str, b: &str) -> Option<String> {
    let (a, b) = (fold(a), fold(b));
    if a.is_empty() || b.is_empty() || !(a.chars().chain(b.chars())).all(char::is_alphabetic) {
        return None;
    }
    if is_stop_word(&a) || is_stop_word(&b) {
        return None;
    }
    Some(stem_word(&format!("{a}{b}")))
}

fn fold(s: &str) -> String {
    let lower = s.to_lowercase();
    if lower.is_ascii() {
        return lower;
    }
    lower
        .nfd()
        .filter(|c| !is_combining_mark(*c))
        .nfc()
        .collect()
}

/// Snowball English for words of Latin letters; other words (digits, other scripts) as they
/// are.
fn stem_word(w: &str) -> String {
    if w.chars().all(|c| c.is_ascii_lowercase()) {
        let s = stemmer().stem(w);
        match derivations().get(s.as_ref()) {
            Some(verb) => verb.clone(),
            None => s.into_owned(),
        }
    } else {
        w.to_string()
    }
}

/// Byte ranges of the parts of an identifier-like word: split at `_`, `.`, `-`, `'`-free
/// separators, at lower-to-upper case changes (`getWeather`), before the last capital of a run
/// followed by a lower-case letter (`HTTPServer` -> `HTTP`, `Server`), and between letters and
/// digits only where the digits end the word part (`v2` stays one part).
pub fn split_identifier(word: &str) -> Vec<(usize, usize)> {
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    let mut parts = Vec::new();
    let mut start: Option<usize> = None;
    for (k, &(at, c)) in chars.iter().enumerate() {
        if !c.is_alphanumeric() && c != '\'' && c != '’' {
            if let Some(s) = start.take() {
                parts.push((s, at));
            }
            continue;
        }
        if let Some(s) = start {
            let prev = chars[k - 1].1;
            let next = chars.get(k + 1).map(|x| x.1);
            let camel = prev.is_lowercase() && c.is_uppercase();
            let acronym_end =
                prev.is_uppercase() && c.is_uppercase() && next.is_some_and(char::is_lowercase);
            if camel || acronym_end {
                parts.push((s, at));
                start = Some(at);
            }
        } else {
            start = Some(at);
        }
    }
    if let Some(s) = start {
        parts.push((s, word.len()));
    }
    parts
}

/// The path of a URL (after the host), without query or fragment.
pub fn url_path(url: &str) -> &str {
    let path = url
        .split_once("://")
        .map_or(url, |(_, r)| r.split_once('/').map_or("", |(_, p)| p));
    path.split(['?', '#']).next().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stems_of(s: &str) -> Vec<String> {
        stems(s).collect()
    }

    #[test]
    fn a_verb_and_its_noun_share_a_stem() {
        assert_eq!(stems_of("define definitions"), ["defin", "defin"]);
        assert_eq!(
            stems_of("pronounce pronunciations"),
            ["pronounc", "pronounc"]
        );
        assert_eq!(stems_of("directed director"), ["direct", "direct"]);
        assert_eq!(stems_of("wrote writers"), ["write", "write"]);
        // A noun that names something else as often keeps its own stem, and an adjective its
        // quality's noun.
        assert_eq!(stems_of("produce products"), ["produc", "product"]);
        assert_eq!(stems_of("high height"), ["high", "height"]);
        // Every pair of the data maps a noun that does not already share its verb's stem.
        for line in include_str!("derivations.txt").lines() {
            let line = line.split('#').next().unwrap_or("").trim();
            if let Some((verb, noun)) = line.split_once(' ') {
                assert_eq!(stems_of(verb), stems_of(noun), "{line}");
                assert_ne!(
                    stemmer().stem(verb),
                    stemmer().stem(noun),
                    "{line} needs no entry"
                );
            }
        }
    }

    #[test]
    fn period_data_is_sorted() {
        let units: Vec<&str> = PERIOD_UNITS.iter().map(|(w, _)| *w).collect();
        let words: Vec<&str> = PERIOD_WORDS.iter().map(|(w, _, _)| *w).collect();
        let countries: Vec<&str> = COUNTRY_NAMES.iter().map(|(w, _)| *w).collect();
        for list in [PERIOD_MODIFIERS.to_vec(), units, words, countries] {
            let mut sorted = list.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, list);
        }
    }

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        assert!(WRITE_VERBS.windows(2).all(|w| w[0] < w[1]));
        assert!(COMPUTE_VERBS.windows(2).all(|w| w[0] < w[1]));
        assert!(RENDERING_NAMES.windows(2).all(|w| w[0] < w[1]));
        assert!(TENSE_NAMES.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(TENSE_CUES.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(PRODUCING_VERBS.windows(2).all(|w| w[0] < w[1]));
        assert!(
            PRODUCING_VERBS
                .iter()
                .all(|v| COMPUTE_VERBS.contains(v) || v.starts_with("visuali"))
        );
        let mut sorted = STOP_WORDS.to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted, STOP_WORDS);
        let mut light = LIGHT_WORDS.to_vec();
        light.sort();
        light.dedup();
        assert_eq!(light, LIGHT_WORDS);
        assert!(LIGHT_WORDS.iter().all(|w| !is_stop_word(w)));
    }

    #[test]
    fn identifiers_split_and_keep_the_whole() {
        assert_eq!(
            stems_of("getCurrentStockPrice"),
            ["get", "current", "stock", "price", "getcurrentstockpric"]
        );
        assert_eq!(stems_of("stock_price"), ["stock", "price", "stockpric"]);
        assert_eq!(stems_of("HTTPServer"), ["http", "server", "httpserver"]);
        assert_eq!(
            stems_of("api.github.com"),
            ["api", "github", "com", "apigithubcom"]
        );
        assert_eq!(stems_of("per-page"), ["per", "page"]);
        assert_eq!(stems_of("PubChem"), ["pub", "chem", "pubchem"]);
        assert_eq!(stems_of("ipv4 v2"), ["ipv4", "v2"]);
    }

    #[test]
    fn sentences_lose_stop_words_and_stem() {
        assert_eq!(
            stems_of("What's the current weather in London?"),
            ["current", "weather", "london"]
        );
        assert_eq!(
            stems_of("Find parking near the stations"),
            ["find", "park", "near", "station"]
        );
        assert_eq!(stems_of("Zürich café"), ["zurich", "cafe"]);
    }

    #[test]
    fn cjk_text_becomes_bigrams() {
        assert_eq!(stems_of("天气预报"), ["天气", "气预", "预报"]);
        assert_eq!(stems_of("株価"), ["株価"]);
        assert_eq!(stems_of("東京の天気"), ["東京", "京の", "の天", "天気"]);
        assert_eq!(stems_of("날씨를 알려줘"), ["날씨", "씨를", "알려", "려줘"]);
        assert_eq!(stems_of("get 天气"), ["get", "天气"]);
        assert_eq!(stems_of("猫"), ["猫"]);
    }

    #[test]
    fn ranges_point_at_the_words() {
        let q = "weather in Lyon";
        let t = terms(q);
        assert_eq!(
            t.iter().map(|t| &q[t.start..t.end]).collect::<Vec<_>>(),
            ["weather", "Lyon"]
        );
    }

    #[test]
    fn invisible_characters_are_taken_out() {
        assert_eq!(
            normalise("fore\u{200B}cast for Pa\u{00AD}ris"),
            "forecast for Paris"
        );
        assert_eq!(
            normalise("\u{FEFF}weather\u{200D} in \u{2060}Lyon"),
            "weather in Lyon"
        );
        // NFKC still applies: a full-width letter and a ligature.
        assert_eq!(normalise("\u{FF26}\u{FB01}"), "Ffi");
        // Letters and CJK text are untouched.
        assert_eq!(normalise("上海的天气"), "上海的天气");
    }

    #[test]
    fn a_question_in_capitals_is_read_in_lower_case() {
        assert_eq!(unshout("FORECAST FOR PARIS"), "forecast for paris");
        assert_eq!(
            unshout("WHAT'S THE WEATHER IN NYC?"),
            "what's the weather in nyc?"
        );
        // Fewer than three words, or any lower case letter: as written.
        assert_eq!(unshout("NYC WEATHER"), "NYC WEATHER");
        assert_eq!(unshout("weather in NYC today"), "weather in NYC today");
        assert_eq!(unshout("上海 的 天气"), "上海 的 天气");
    }
}
