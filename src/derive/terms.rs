//! Words of names and descriptions: splitting (camelCase, snake_case, kebab-case, dots, array
//! markers), singular and plural forms, stop words, and the head term of a description (its
//! leading noun phrase: "Stock symbol in Yahoo Finance format." gives `stock symbol`).
//!
//! English morphology only, by rule: the derived concept layer is a starting point a person
//! refines, and the rules are the general ones (no domain vocabulary lives here).

/// Words that carry no meaning of their own in a name or at the edge of a noun phrase.
const STOP: &[&str] = &[
    "a", "about", "above", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be",
    "been", "being", "both", "but", "by", "can", "could", "do", "does", "each", "either", "else",
    "etc", "every", "for", "from", "has", "have", "he", "her", "here", "his", "how", "i", "if",
    "in", "into", "is", "it", "its", "may", "me", "might", "more", "most", "must", "my", "no",
    "nor", "not", "of", "on", "one", "only", "or", "other", "our", "out", "over", "own", "per",
    "same", "she", "should", "so", "some", "such", "than", "that", "the", "their", "them", "then",
    "there", "these", "they", "this", "those", "through", "to", "too", "under", "up", "upon", "us",
    "use", "used", "uses", "using", "via", "was", "we", "were", "what", "when", "where", "whether",
    "which", "while", "who", "whom", "whose", "why", "will", "with", "within", "without", "would",
    "you", "your", "e.g", "i.e",
];

/// Words that end a description's head term (prepositions, conjunctions, verbs of relation).
const HEAD_END: &[&str] = &[
    "about",
    "across",
    "after",
    "against",
    "along",
    "among",
    "and",
    "are",
    "around",
    "as",
    "at",
    "based",
    "before",
    "being",
    "between",
    "by",
    "can",
    "containing",
    "contains",
    "could",
    "does",
    "during",
    "either",
    "for",
    "from",
    "given",
    "has",
    "have",
    "if",
    "in",
    "including",
    "into",
    "is",
    "like",
    "matching",
    "may",
    "must",
    "near",
    "of",
    "on",
    "or",
    "over",
    "per",
    "should",
    "since",
    "so",
    "than",
    "that",
    "the",
    "then",
    "through",
    "to",
    "toward",
    "under",
    "until",
    "used",
    "using",
    "via",
    "was",
    "were",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whose",
    "will",
    "with",
    "within",
    "without",
    "would",
];

/// Articles and determiners dropped at the start of a head term.
const LEAD: &[&str] = &[
    "a",
    "an",
    "the",
    "this",
    "that",
    "these",
    "those",
    "its",
    "their",
    "his",
    "her",
    "your",
    "our",
    "my",
    "one",
    "each",
    "every",
    "any",
    "some",
    "optional",
    "required",
    "(optional)",
];

/// Head words that need their complement to mean something (`number of results`).
const NEEDS_COMPLEMENT: &[&str] = &[
    "number",
    "count",
    "list",
    "name",
    "amount",
    "total",
    "type",
    "id",
    "set",
    "kind",
    "array",
    "collection",
    "maximum",
    "minimum",
    "max",
    "min",
    "value",
    "url",
    "identifier",
    "level",
    "size",
    "length",
    "path",
    "date",
    "time",
    "index",
    "code",
    "title",
    "content",
    "text",
];

/// Plural forms that are not the word plus `s` / `es`, and words that look plural but are not.
const IRREGULAR: &[(&str, &str)] = &[
    ("people", "person"),
    ("children", "child"),
    ("men", "man"),
    ("women", "woman"),
    ("indices", "index"),
    ("matrices", "matrix"),
    ("vertices", "vertex"),
    ("criteria", "criterion"),
    ("analyses", "analysis"),
    ("bases", "base"),
    ("leaves", "leaf"),
    ("lives", "life"),
    ("wives", "wife"),
    ("knives", "knife"),
    ("halves", "half"),
    ("shelves", "shelf"),
    ("feet", "foot"),
    ("teeth", "tooth"),
    ("mice", "mouse"),
    ("geese", "goose"),
];

/// Nouns ending in `us`, whose plural `-uses` drops `es`, not `s` (`bonuses` is `bonus`, not
/// `bonuse`; `statuses`, `campuses`); other `-uses` words drop `s` (`causes`, `houses`).
/// Language data, sorted.
const US_NOUNS: &[&str] = &[
    "apparatus",
    "bonus",
    "bus",
    "cactus",
    "campus",
    "census",
    "chorus",
    "consensus",
    "corpus",
    "focus",
    "fungus",
    "genius",
    "minus",
    "nexus",
    "octopus",
    "onus",
    "plus",
    "prospectus",
    "radius",
    "sinus",
    "status",
    "stimulus",
    "surplus",
    "syllabus",
    "thesaurus",
    "virus",
];

/// Nouns ending in `ie`, whose plural `-ies` is not a `-y` word's (`calories` is `calorie`,
/// not `calory`; `movies`, `cookies`).
const IE_NOUNS: &[&str] = &[
    "auntie",
    "birdie",
    "bookie",
    "brownie",
    "calorie",
    "cookie",
    "eyrie",
    "freebie",
    "genie",
    "goalie",
    "hoodie",
    "lingerie",
    "menagerie",
    "movie",
    "necktie",
    "newbie",
    "oldie",
    "pie",
    "pixie",
    "prairie",
    "rookie",
    "selfie",
    "smoothie",
    "sortie",
    "talkie",
    "techie",
    "tie",
    "veggie",
    "zombie",
];

/// Words ending in `s` that are singular.
const SINGULAR_S: &[&str] = &[
    "address",
    "alias",
    "always",
    "analysis",
    "atlas",
    "bias",
    "bonus",
    "bus",
    "canvas",
    "chaos",
    "class",
    "corpus",
    "news",
    "basis",
    "axis",
    "crisis",
    "diagnosis",
    "thesis",
    "ios",
    "macos",
    "os",
    "plus",
    "process",
    "previous",
    "series",
    "species",
    "status",
    "this",
    "thus",
    "yes",
    "various",
    "virus",
    "campus",
    "census",
    "consensus",
    "focus",
    "genus",
    "minus",
    "nexus",
    "radius",
    "sinus",
    "stimulus",
    "apparatus",
    "syllabus",
    "gas",
    "lens",
    "https",
    "http",
    "has",
    "was",
    "is",
    "its",
    "does",
    "less",
    "unless",
    "across",
    "gps",
    "dns",
    "sms",
    "aws",
    "cors",
    "css",
    "rss",
    "kubernetes",
    "redis",
    "physics",
    "mathematics",
    "statistics",
    "analytics",
    "economics",
    "politics",
    "ethics",
    "logistics",
    "graphics",
    "metadata",
    "settings",
    "details",
];

/// Words whose plural is the word itself.
const UNCOUNTABLE: &[&str] = &[
    "news",
    "series",
    "species",
    "physics",
    "mathematics",
    "statistics",
    "analytics",
    "economics",
    "politics",
    "ethics",
    "logistics",
    "graphics",
    "metadata",
    "settings",
    "details",
    "https",
    "http",
    "ios",
    "macos",
    "os",
    "gps",
    "dns",
    "sms",
    "aws",
    "cors",
    "css",
    "rss",
    "kubernetes",
    "redis",
    "chaos",
    "data",
    "information",
    "weather",
    "software",
    "equipment",
];

pub use crate::model::identifier::words;

/// Whether `w` is a stop word.
pub fn is_stop(w: &str) -> bool {
    STOP.contains(&w)
}

/// The singular of an English word (lower case in, lower case out): `categories` →
/// `category`, `addresses` → `address`, `boxes` → `box`, `repos` → `repo`; words that are
/// singular already (`status`, `news`, `analysis`) and short words stay as they are.
pub fn singular(w: &str) -> String {
    if let Some((_, s)) = IRREGULAR.iter().find(|(p, _)| *p == w) {
        return (*s).to_string();
    }
    if w.chars().count() <= 3
        || !w.is_ascii()
        || SINGULAR_S.contains(&w)
        || w.ends_with("ss")
        || w.ends_with("us")
        || w.ends_with("is")
        || w.ends_with("ous")
        || !w.ends_with('s')
        || w.ends_with(|c: char| c.is_ascii_digit())
    {
        return w.to_string();
    }
    if let Some(stem) = w.strip_suffix("ies")
        && stem.len() >= 2
    {
        let ie = format!("{stem}ie");
        if IE_NOUNS.contains(&ie.as_str()) {
            return ie;
        }
        return format!("{stem}y");
    }
    if let Some(stem) = w.strip_suffix("es")
        && stem.ends_with("us")
        && US_NOUNS.binary_search(&stem).is_ok()
    {
        return stem.to_string();
    }
    for end in ["sses", "xes", "ches", "shes", "zzes"] {
        if let Some(stem) = w.strip_suffix(end) {
            return format!("{stem}{}", &end[..end.len() - 2]);
        }
    }
    w[..w.len() - 1].to_string()
}

/// The plural of an English word (lower case): `category` → `categories`, `box` → `boxes`,
/// `repo` → `repos`; a word [`singular`] leaves alone that ends in `s` stays as it is.
pub fn plural(w: &str) -> String {
    if let Some((p, _)) = IRREGULAR.iter().find(|(_, s)| *s == w) {
        return (*p).to_string();
    }
    if !w.is_ascii() || w.is_empty() || w.ends_with(|c: char| c.is_ascii_digit()) {
        return w.to_string();
    }
    // Uncountable, or plural already (`observations`).
    if UNCOUNTABLE.contains(&w) || singular(w) != w {
        return w.to_string();
    }
    let b = w.as_bytes();
    if w.ends_with('y') && b.len() >= 2 && !b"aeiou".contains(&b[b.len() - 2]) {
        return format!("{}ies", &w[..w.len() - 1]);
    }
    if ["s", "x", "ch", "sh", "z"].iter().any(|e| w.ends_with(e)) {
        return format!("{w}es");
    }
    format!("{w}s")
}

/// The words of a name in singular form, stop words dropped (`get_all_repos` → `[get,
/// repo]`); the key two names share when they mean the same.
pub fn key_words(name: &str) -> Vec<String> {
    words(name)
        .iter()
        .filter(|w| !is_stop(w))
        .map(|w| singular(w))
        .collect()
}

/// The first sentence of a text: up to the first `. `, `; ` or blank line (or a CJK full
/// stop), its whitespace collapsed; a first line that only introduces what follows
/// (`Returns:`) is skipped.
pub fn first_sentence(text: &str) -> String {
    let mut t = text.trim();
    if let Some((first, rest)) = t.split_once('\n')
        && first.trim_end().ends_with(':')
        && first.split_whitespace().count() <= 3
        && !rest.trim().is_empty()
    {
        t = rest.trim();
    }
    let mut end = t.len();
    for pat in [". ", ".\n", "\n\n", "; ", "。", "！", "？"] {
        if let Some(i) = t.find(pat) {
            end = end.min(i);
        }
    }
    let s: String = t[..end].split_whitespace().collect::<Vec<_>>().join(" ");
    s.strip_suffix('.').unwrap_or(&s).trim().to_string()
}

/// Whether a character belongs to a script written without spaces between words (Han, kana,
/// Hangul syllables count too: Korean is spaced, but its phrases are matched whole).
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0xAC00..=0xD7AF)
}

/// The language code of a text for an alias: `ja` with kana, `ko` with Hangul, `zh` with Han
/// only, else `en`.
pub fn lang_of(text: &str) -> &'static str {
    let mut han = false;
    for c in text.chars() {
        match c as u32 {
            0x3040..=0x30FF => return "ja",
            0xAC00..=0xD7AF => return "ko",
            0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF => han = true,
            _ => {}
        }
    }
    if han { "zh" } else { "en" }
}

/// The head term of a description: its leading noun phrase, lower case, at most four words
/// (`The end date in YYYY-MM-DD format.` → `end date`; `Maximum number of results to return`
/// → `maximum number of results`; `Get the current stock price based on symbol` with
/// `skip_verbs` → `current stock price`). In a description written in a script without spaces
/// (Chinese, Japanese), the first clause up to 12 characters. `None` when nothing is left.
pub fn head_term(description: &str, skip_verbs: &[&str]) -> Option<String> {
    let s = first_sentence(description);
    let s = s.as_str();
    if s.chars().filter(|c| is_cjk(*c)).count() * 2 > s.chars().count().max(1) {
        let clause: String = s
            .chars()
            .take_while(|c| !matches!(c, '，' | '、' | '：' | '（' | '(' | ',' | ':' | '。' | ' '))
            .take(12)
            .collect();
        return (clause.chars().count() >= 2).then_some(clause);
    }
    let raw: Vec<String> = s
        .split(|c: char| c.is_whitespace())
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
                .to_lowercase()
        })
        .collect();
    let mut ws: Vec<String> = Vec::new();
    let mut i = 0;
    // A word followed by punctuation ends the phrase (`name, or ...`).
    let tokens: Vec<&str> = s.split(|c: char| c.is_whitespace()).collect();
    while i < raw.len() && (raw[i].is_empty() || LEAD.contains(&raw[i].as_str())) {
        i += 1;
    }
    if i < raw.len() && skip_verbs.iter().any(|v| v.eq_ignore_ascii_case(&raw[i])) {
        i += 1;
        // `Navigate to a URL`: the verb's preposition and article go too.
        while i < raw.len()
            && (raw[i].is_empty()
                || LEAD.contains(&raw[i].as_str())
                || matches!(
                    raw[i].as_str(),
                    "to" | "for" | "from" | "on" | "in" | "into" | "at" | "with" | "about"
                ))
        {
            i += 1;
        }
    }
    while i < raw.len() && ws.len() < 4 {
        let w = &raw[i];
        if w.is_empty() {
            break;
        }
        if HEAD_END.contains(&w.as_str()) {
            // `number of results`: a head that needs its complement takes `of` and the next
            // content words.
            let needs = ws
                .last()
                .is_some_and(|l| NEEDS_COMPLEMENT.contains(&l.as_str()));
            if w == "of" && needs && ws.len() < 3 {
                ws.push(w.clone());
                i += 1;
                continue;
            }
            break;
        }
        if w.chars().all(|c| c.is_ascii_digit()) || w.contains('\'') && w.ends_with("'s") {
            // A possessive starts over: `the user's login` → `login`.
            if w.ends_with("'s") {
                ws.clear();
                i += 1;
                continue;
            }
            break;
        }
        ws.push(w.clone());
        let ends_clause = tokens
            .get(i)
            .is_some_and(|t| t.ends_with([',', ':', ')', '(']));
        i += 1;
        if ends_clause {
            break;
        }
    }
    while ws.last().is_some_and(|w| w == "of" || is_stop(w)) {
        ws.pop();
    }
    if ws.is_empty() || ws.iter().all(|w| is_stop(w)) {
        return None;
    }
    Some(ws.join(" "))
}

/// Whether `short` abbreviates `long`: same first letter, `short`'s letters in order inside
/// `long`, and `long` at least two letters longer (`temp` / `temperature`, `qty` / `quantity`,
/// `desc` / `description`, `q` / `query`).
pub fn abbreviates(short: &str, long: &str) -> bool {
    if short.is_empty() || long.len() < short.len() + 2 || !short.is_ascii() || !long.is_ascii() {
        return false;
    }
    if short.as_bytes()[0] != long.as_bytes()[0] {
        return false;
    }
    let mut it = long.bytes();
    short.bytes().all(|c| it.any(|l| l == c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_into_words() {
        assert_eq!(words("stargazersCount"), ["stargazers", "count"]);
        assert_eq!(words("main.temp"), ["main", "temp"]);
        assert_eq!(
            words("authorships[].author.display_name"),
            ["authorships", "author", "display", "name"]
        );
        assert_eq!(words("per-page"), ["per", "page"]);
        assert_eq!(words("HTTPStatus"), ["http", "status"]);
    }

    #[test]
    fn singular_and_plural_forms() {
        for (p, s) in [
            ("categories", "category"),
            ("addresses", "address"),
            ("boxes", "box"),
            ("repos", "repo"),
            ("status", "status"),
            ("news", "news"),
            ("people", "person"),
            ("branches", "branch"),
            ("ids", "ids"),
            ("prices", "price"),
            ("files", "file"),
            ("calories", "calorie"),
            ("movies", "movie"),
            ("cookies", "cookie"),
            ("pies", "pie"),
            ("stories", "story"),
            ("bonuses", "bonus"),
            ("statuses", "status"),
            ("buses", "bus"),
            ("causes", "cause"),
            ("houses", "house"),
        ] {
            assert_eq!(singular(p), s, "{p}");
        }
        assert_eq!(plural("category"), "categories");
        assert_eq!(plural("calorie"), "calories");
        assert_eq!(plural("movie"), "movies");
        assert_eq!(plural("box"), "boxes");
        assert_eq!(plural("key"), "keys");
        assert_eq!(plural("status"), "statuses");
        assert_eq!(plural("news"), "news");
        assert_eq!(plural("person"), "people");
        assert_eq!(plural("observations"), "observations");
    }

    #[test]
    fn head_terms_of_descriptions() {
        assert_eq!(
            head_term("The end date in YYYY-MM-DD format.", &[]).as_deref(),
            Some("end date")
        );
        assert_eq!(
            head_term("Stock symbol in Yahoo Finance format.", &[]).as_deref(),
            Some("stock symbol")
        );
        assert_eq!(
            head_term("Maximum number of results to return", &[]).as_deref(),
            Some("maximum number of results")
        );
        assert_eq!(
            head_term(
                "Get the current stock price based on stock symbol.",
                &["get"]
            )
            .as_deref(),
            Some("current stock price")
        );
        assert_eq!(
            head_term("The user's login name", &[]).as_deref(),
            Some("login name")
        );
        assert_eq!(head_term("The", &[]), None);
        assert_eq!(
            head_term("天气预报查询，返回未来三天", &[]).as_deref(),
            Some("天气预报查询")
        );
    }

    #[test]
    fn abbreviations() {
        assert!(abbreviates("temp", "temperature"));
        assert!(abbreviates("qty", "quantity"));
        assert!(abbreviates("q", "query"));
        assert!(abbreviates("lat", "latitude"));
        assert!(!abbreviates("lat", "lot"));
        assert!(!abbreviates("name", "names"));
        assert!(!abbreviates("temp", "pressure"));
    }
}
