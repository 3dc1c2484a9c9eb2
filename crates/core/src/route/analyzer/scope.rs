//! Out-of-scope detection for the offline Understand step (issue 18): requests that no data
//! tool can serve get `intent: null` and a stated reason, even when they mention a material.
//!
//! A data tool answers questions; it cannot act in the world or stream the present. Four kinds
//! of request are refused, each from a small vocabulary (English and Korean):
//!
//! - **Actions** — order, buy, purchase, send, e-mail, book, reserve, schedule, delete, remove,
//!   post, upload, share, cancel, pay, remind, call, ... — when the verb is the request itself:
//!   the first word of a clause (after "please", "can you", "I want to", ...), never as a noun
//!   ("order of magnitude", "Hill order") and never "send me X" (a request for information).
//! - **Media** — pictures, photos, images, videos, drawings, songs.
//! - **Live data** — stock or share prices, exchange rates, "right now", "real-time", "live",
//!   sensor readings, today's news, and Korean 지금/실시간/현재 with 주가/가격/환율.
//! - **Personal services** — weather and forecasts, e-mail inboxes, calendars and reminders.
//!
//! Each kind has its reason, which the plan carries (`out_of_scope`). The vocabulary is
//! deliberately about the request's form, not its subject, so a new material or tool never
//! changes it. A cue the inventory itself knows is no cue: the analyzer passes what its
//! vocabulary covers ([`out_of_scope_unless`]), so a project that declares a weather tool, an
//! `image` field or a `stock price` concept can be asked about them.

/// Why a request is out of scope: its kind and the word that showed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutOfScope {
    /// `action`, `media`, `live data`, `weather`, `e-mail`, `calendar`, `translation` or
    /// `definition`.
    pub kind: &'static str,
    /// The cue as written in the query.
    pub cue: String,
}

impl OutOfScope {
    /// The reason, one sentence.
    pub fn reason(&self) -> String {
        match self.kind {
            "action" => format!(
                "an action request (`{}`): the inventory's tools only retrieve data, none carries out actions",
                self.cue
            ),
            "media" => format!(
                "a media request (`{}`): no tool returns pictures, video or audio",
                self.cue
            ),
            "live data" => format!(
                "a live-data request (`{}`): no tool serves real-time prices, sensor readings or news",
                self.cue
            ),
            "weather" => format!(
                "a weather request (`{}`): no tool serves weather data",
                self.cue
            ),
            "e-mail" => format!(
                "an e-mail request (`{}`): no tool reads or sends e-mail",
                self.cue
            ),
            "translation" => format!(
                "a translation request (`{}`): no tool translates text",
                self.cue
            ),
            "definition" => format!(
                "a request to define or explain a term (`{}`) with no material, compound, paper or company named: the tools return records, not explanations",
                self.cue
            ),
            _ => format!(
                "a calendar request (`{}`): no tool manages calendars or reminders",
                self.cue
            ),
        }
    }
}

/// Verbs that ask the system to do something (imperative use only).
const ACTION_VERBS: &[&str] = &[
    "order", "buy", "purchase", "send", "email", "e-mail", "mail", "book", "reserve", "schedule",
    "delete", "remove", "erase", "post", "upload", "share", "tweet", "cancel", "pay", "remind",
    "call", "text", "forward", "reply", "cc", "bcc", "ship", "print", "install", "restock",
    "reorder", "publish", "submit", "sell", "rent",
];

/// Words that may come before an imperative verb.
const LEADS: &[&str] = &[
    "please", "can", "could", "would", "will", "you", "kindly", "i", "want", "to", "need", "we",
    "let's", "lets", "help", "me", "us", "go", "and", "then", "also", "just", "now", "i'd", "like",
    "wanna",
];

/// Verbs that ask for a purchase wherever they stand ("where can I buy ...").
const BUY: &[&str] = &["buy", "purchase", "purchasing", "buying"];

/// Media nouns (anywhere in the request).
const MEDIA: &[&str] = &[
    "picture",
    "pictures",
    "photo",
    "photos",
    "photograph",
    "photographs",
    "image",
    "images",
    "video",
    "videos",
    "movie",
    "movies",
    "drawing",
    "sketch",
    "illustration",
    "wallpaper",
    "song",
    "songs",
    "music",
    "podcast",
    "gif",
    "meme",
    "selfie",
];

/// Weather words.
const WEATHER: &[&str] = &[
    "weather", "forecast", "rain", "raining", "snow", "snowing", "sunny", "humidity", "typhoon",
];

/// Calendar words.
const CALENDAR: &[&str] = &["calendar", "appointment", "reminder", "reminders", "alarm"];

/// E-mail words.
const EMAIL: &[&str] = &["inbox", "email", "e-mail", "emails", "mailbox"];

/// Live-data phrases (lower case, matched on word boundaries).
const LIVE: &[&str] = &[
    "stock price",
    "share price",
    "stock quote",
    "stock market",
    "exchange rate",
    "right now",
    "real-time",
    "real time",
    "live feed",
    "live reading",
    "live data",
    "sensor reading",
    "current reading",
    "current price",
    "today's price",
    "spot price",
    "market price",
    "today's news",
    "latest news",
    "breaking news",
    "traffic",
];

/// Korean cues: (substring, kind).
const KO: &[(&str, &str)] = &[
    ("주가", "live data"),
    ("실시간", "live data"),
    ("환율", "live data"),
    ("시세", "live data"),
    ("날씨", "weather"),
    ("일기예보", "weather"),
    ("메일", "e-mail"),
    ("일정", "calendar"),
    ("캘린더", "calendar"),
    ("알람", "calendar"),
    ("사진", "media"),
    ("이미지", "media"),
    ("동영상", "media"),
    ("영상", "media"),
    ("그림", "media"),
    ("주문해", "action"),
    ("주문 해", "action"),
    ("구매해", "action"),
    ("사줘", "action"),
    ("보내줘", "action"),
    ("보내 줘", "action"),
    ("예약해", "action"),
    ("삭제해", "action"),
    ("지워줘", "action"),
    ("올려줘", "action"),
];

fn words(query: &str) -> Vec<String> {
    query
        .to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’' || c == '-'))
        .map(|w| {
            w.trim_matches(|c| c == '\'' || c == '’' || c == '-')
                .replace('’', "'")
        })
        .filter(|w| !w.is_empty())
        .collect()
}

fn has_phrase(lower: &str, phrase: &str) -> bool {
    let mut from = 0;
    while let Some(i) = lower[from..].find(phrase) {
        let s = from + i;
        let e = s + phrase.len();
        let before = s == 0
            || !lower[..s]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric);
        let after =
            e == lower.len() || !lower[e..].chars().next().is_some_and(char::is_alphanumeric);
        if before && after {
            return true;
        }
        from = e;
    }
    false
}

/// Whether the query is out of scope, and why. `None` means it may be a data question (the
/// intent evidence then decides).
pub fn out_of_scope(query: &str) -> Option<OutOfScope> {
    out_of_scope_unless(query, |_| false)
}

/// [`out_of_scope`], skipping every cue for which `known` is true: a word or phrase the
/// inventory declares (a tool's name, a concept or field alias) names something a tool serves,
/// so it shows no out-of-scope request ("weather" when the project has a weather tool). `known`
/// gets the cue as written in the vocabulary above (lower case).
pub fn out_of_scope_unless(query: &str, known: impl Fn(&str) -> bool) -> Option<OutOfScope> {
    let lower = query.to_lowercase();
    for (cue, kind) in KO {
        if query.contains(cue) && !known(cue) {
            return Some(OutOfScope {
                kind,
                cue: cue.to_string(),
            });
        }
    }
    // Clauses: split on sentence punctuation and semicolons.
    for clause in lower.split(['.', '?', '!', ';', ':', ',']) {
        let w = words(clause);
        // The first word after the leads is the request's verb.
        let Some(first) = w.iter().position(|x| !LEADS.contains(&x.as_str())) else {
            continue;
        };
        let verb = w[first].as_str();
        if ACTION_VERBS.contains(&verb) && !known(verb) {
            // "send me the band gap" asks for information; "post-annealing" is no verb.
            let next = w.get(first + 1).map(String::as_str);
            let info = matches!(verb, "send" | "email" | "e-mail" | "mail" | "text")
                && matches!(next, Some("me" | "us"))
                && !w.iter().any(|x| x == "to");
            // "order" / "book" / "post" / "text" as nouns at a clause start ("Order of the
            // phase transition?", "Book chapters on ...").
            let noun = matches!(next, Some("of" | "chapter" | "chapters" | "parameter"))
                || (w.len() == first + 1);
            if !info && !noun {
                return Some(OutOfScope {
                    kind: match verb {
                        "email" | "e-mail" | "mail" | "forward" | "reply" | "cc" | "bcc" => {
                            "e-mail"
                        }
                        "schedule" | "remind" => "calendar",
                        _ => "action",
                    },
                    cue: verb.to_string(),
                });
            }
        }
    }
    let all = words(&lower);
    let find = |list: &[&str]| {
        all.iter()
            .find(|x| list.contains(&x.as_str()) && !known(x))
            .cloned()
    };
    if let Some(c) = find(BUY) {
        return Some(OutOfScope {
            kind: "action",
            cue: c,
        });
    }
    if let Some(c) = find(WEATHER) {
        return Some(OutOfScope {
            kind: "weather",
            cue: c,
        });
    }
    if let Some(c) = find(EMAIL) {
        return Some(OutOfScope {
            kind: "e-mail",
            cue: c,
        });
    }
    if let Some(c) = find(CALENDAR) {
        return Some(OutOfScope {
            kind: "calendar",
            cue: c,
        });
    }
    if let Some(c) = find(MEDIA) {
        return Some(OutOfScope {
            kind: "media",
            cue: c,
        });
    }
    if let Some(p) = LIVE.iter().find(|p| has_phrase(&lower, p) && !known(p)) {
        return Some(OutOfScope {
            kind: "live data",
            cue: p.to_string(),
        });
    }
    None
}

/// A request to translate, define or explain a term rather than to look a value up ("Translate
/// 'band gap' into Japanese", "What does band gap mean?", "Explain what a band gap is",
/// "Define exfoliation energy"). The analyzer asks this only of questions that name no entity
/// (no formula, compound, identifier or company): "Explain why GaN's band gap is wide" is a
/// data question about GaN. `known` skips a cue the inventory declares (a dictionary tool).
pub fn definition_request(query: &str, known: impl Fn(&str) -> bool) -> Option<OutOfScope> {
    let lower = query.to_lowercase();
    for clause in lower.split(['.', '?', '!', ';', ':', ',']) {
        let w = words(clause);
        let Some(first) = w.iter().position(|x| !LEADS.contains(&x.as_str())) else {
            continue;
        };
        let verb = w[first].as_str();
        let next = w.get(first + 1).map(String::as_str);
        let kind = match verb {
            "translate" => Some("translation"),
            "define" => Some("definition"),
            // "explain what / how / why X is", "explain the term X" (not "explain the band gap
            // of GaN": that one names an entity and is not asked here).
            "explain" => Some("definition"),
            _ => None,
        };
        if let Some(kind) = kind
            && next.is_some()
            && !known(verb)
        {
            return Some(OutOfScope {
                kind,
                cue: verb.to_string(),
            });
        }
        // "what does X mean", "what does X stand for", "what is meant by X".
        let asks_meaning = w.len() >= first + 3
            && w[first] == "what"
            && w[first + 1] == "does"
            && (w.last().is_some_and(|x| x == "mean")
                || w.ends_with(&["stand".to_string(), "for".to_string()]));
        if asks_meaning {
            return Some(OutOfScope {
                kind: "definition",
                cue: "what does ... mean".to_string(),
            });
        }
    }
    ["meaning of", "definition of", "what is meant by"]
        .iter()
        .find(|p| has_phrase(&lower, p) && !known(p))
        .map(|p| OutOfScope {
            kind: "definition",
            cue: p.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(q: &str) -> Option<&'static str> {
        out_of_scope(q).map(|o| o.kind)
    }

    #[test]
    fn terms_to_define_or_translate() {
        let kind = |q: &str| definition_request(q, |_| false).map(|o| (o.kind, o.cue));
        assert_eq!(
            kind("Please translate 'band gap' into Korean"),
            Some(("translation", "translate".to_string()))
        );
        assert_eq!(
            kind("What does DFT stand for?"),
            Some(("definition", "what does ... mean".to_string()))
        );
        assert_eq!(
            kind("the meaning of exfoliation energy"),
            Some(("definition", "meaning of".to_string()))
        );
        assert_eq!(kind("What is the band gap?"), None);
        assert_eq!(kind("What does the band gap of Si come to?"), None);
        // A cue the inventory declares is no cue.
        assert_eq!(
            definition_request("Translate this", |c| c == "translate"),
            None
        );
    }

    #[test]
    fn actions_media_live_data_and_services_are_out_of_scope() {
        assert_eq!(
            kind("Order 25 g of LiPF6 from Sigma-Aldrich"),
            Some("action")
        );
        assert_eq!(
            kind("Can you buy me a kilo of high-purity gallium?"),
            Some("action")
        );
        assert_eq!(
            kind("Please delete entry LAB-0042 from our notebook."),
            Some("action")
        );
        assert_eq!(kind("Book the XRD instrument for Friday"), Some("action"));
        assert_eq!(kind("Where can I buy 99.99% pure indium?"), Some("action"));
        assert_eq!(kind("Forward the DFT results to Kim"), Some("e-mail"));
        assert_eq!(kind("Show me a photo of a pyrite crystal"), Some("media"));
        assert_eq!(
            kind("What is Samsung's share price right now?"),
            Some("live data")
        );
        assert_eq!(kind("Will it rain in Seoul tomorrow?"), Some("weather"));
        assert_eq!(
            kind("Add the group meeting to my calendar"),
            Some("calendar")
        );
        assert_eq!(kind("오늘 서울 날씨 어때?"), Some("weather"));
        assert_eq!(kind("LG화학 실시간 시세 알려줘"), Some("live data"));
        assert_eq!(kind("탄산리튬 1kg 주문해줘"), Some("action"));
    }

    #[test]
    fn data_questions_are_not() {
        for q in [
            "Send me the band gap of GaN from the Materials Project",
            "Order of the phase transition in BaTiO3?",
            "What is the Hill order formula of corundum in COD?",
            "Post-annealing lattice constant of ZnO films we measured",
            "Find papers on real-space DFT methods",
            "Band gap of TiO2 with PBE",
            "Magnetic moment of bcc iron (mp-13)?",
            "How do I remove the Hubbard U correction in VASP? Check the forums.",
            "What's the current density of LiCoO2 cathodes in papers since 2020?",
        ] {
            assert_eq!(out_of_scope(q), None, "{q}");
        }
    }

    #[test]
    fn cues_the_inventory_knows_are_skipped() {
        let known = |c: &str| matches!(c, "weather" | "images" | "stock price" | "날씨" | "delete");
        for q in [
            "What is the weather in Paris?",
            "Show me the images of entry 42",
            "Stock price of ACME on 2024-01-02",
            "오늘 서울 날씨 어때?",
            "Delete entry 42",
        ] {
            assert_eq!(out_of_scope_unless(q, known), None, "{q}");
        }
        // Another cue in the same request still counts.
        assert_eq!(
            out_of_scope_unless("Weather photos of Paris", known).map(|o| o.kind),
            Some("media")
        );
    }

    #[test]
    fn the_reason_names_the_cue() {
        let o = out_of_scope("Email the XRD results to my co-author").expect("out of scope");
        assert_eq!(
            o.reason(),
            "an e-mail request (`email`): no tool reads or sends e-mail"
        );
    }
}
