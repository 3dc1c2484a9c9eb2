//! Out-of-scope detection for the offline Understand step: requests that no tool of the project
//! serves get `intent: null` and a stated reason, even when they mention a known entity.
//!
//! What is out of scope is the project's declaration (alias files, `cues.out_of_scope`; compiled
//! into the artifact's [`TopicData`]), not code: each topic lists the words, verbs, phrases,
//! substrings and clause shapes that show it, and its reason. A project that declares no topic
//! refuses nothing here. This module holds the mechanism, which is English grammar only:
//!
//! - **verbs** count as the request itself only as the first word of a clause (after "please",
//!   "can you", "I want to", ...), never as a noun ("order of magnitude", "Book chapters on ...")
//!   and never "send me X" (a request for information);
//! - **words** count anywhere, **phrases** on word boundaries (the first declared that the
//!   question holds), **substrings** inside words too (scripts written without spaces);
//! - **clauses** (`what does * mean`) match a clause that starts with the words before `*` and ends
//!   with the words after it.
//!
//! Topics are checked in two stages: before parameters are read, the topics of any question;
//! after, those declared `without_entity` (a term to define is a data question when it names an
//! entity). Within a stage: substrings, then each clause's verb and shapes, then words, then
//! phrases; topics in artifact order (by name). A cue the inventory itself knows is no cue: the
//! analyzer passes what its vocabulary covers (`known`), so a project that declares a weather
//! tool, an `image` field or a `stock price` concept can be asked about them.

use crate::artifact::lexicon::TopicData;

/// Why a request is out of scope: its topic and the word that showed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutOfScope<'a> {
    /// The topic (`action`, `weather`, ...), as declared.
    pub kind: &'a str,
    /// The cue as written in the query (lower case), or the clause shape's cue.
    pub cue: String,
    /// The topic's reason, `{cue}` standing for the cue.
    reason: &'a str,
    /// A named tool serves the topic only when one of its endpoints writes.
    pub needs_writing_endpoint: bool,
}

impl OutOfScope<'_> {
    /// The reason, one sentence: the topic's declared reason with its cue.
    pub fn reason(&self) -> String {
        self.reason.replace("{cue}", &self.cue)
    }
}

/// Words that may come before an imperative verb.
const LEADS: &[&str] = &[
    "please", "can", "could", "would", "will", "you", "kindly", "i", "want", "to", "need", "we",
    "let's", "lets", "help", "me", "us", "go", "and", "then", "also", "just", "now", "i'd", "like",
    "wanna",
];

/// Verbs of sending: "send me the band gap" asks for information.
const SENDING: &[&str] = &["send", "email", "e-mail", "mail", "text"];

/// Words after a clause's first word that make it a noun ("Order of the phase transition?",
/// "Book chapters on ...").
const NOUN_NEXT: &[&str] = &["of", "chapter", "chapters", "parameter"];

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

/// Whether the clause's word at `first` is used as an imperative verb: not the clause's last
/// word, not followed by a word that makes it a noun, and not "send me" without "to".
fn imperative(w: &[String], first: usize) -> bool {
    let verb = w[first].as_str();
    let next = w.get(first + 1).map(String::as_str);
    let info = SENDING.contains(&verb)
        && matches!(next, Some("me" | "us"))
        && !w.iter().any(|x| x == "to");
    let noun = next.is_some_and(|n| NOUN_NEXT.contains(&n)) || next.is_none();
    !info && !noun
}

/// Whether the clause words from `first` have the shape `pattern` (words, one `*` for any words;
/// without `*`, exactly those words).
fn clause_shape(w: &[String], first: usize, pattern: &str) -> bool {
    let w = &w[first..];
    let parts: Vec<&str> = pattern.split_whitespace().collect();
    let Some(star) = parts.iter().position(|p| *p == "*") else {
        return w.iter().map(String::as_str).eq(parts.iter().copied());
    };
    let (prefix, suffix) = (&parts[..star], &parts[star + 1..]);
    w.len() >= prefix.len() + suffix.len()
        && w.iter().zip(prefix).all(|(a, b)| a == b)
        && w.iter().rev().zip(suffix.iter().rev()).all(|(a, b)| a == b)
}

/// The first topic of `topics` whose stage is `without_entity` that the query shows, and why;
/// `None` means it may be a data question (the intent evidence then decides). `known` skips
/// every cue the inventory declares (a tool's name, a concept or field alias): it names something
/// a tool serves ("weather" when the project has a weather tool). `known` gets the cue as
/// declared (lower case).
pub fn out_of_scope_unless<'a>(
    topics: &'a [TopicData],
    query: &str,
    without_entity: bool,
    known: impl Fn(&str) -> bool,
) -> Option<OutOfScope<'a>> {
    let topics: Vec<&TopicData> = topics
        .iter()
        .filter(|t| t.without_entity == without_entity)
        .collect();
    if topics.is_empty() {
        return None;
    }
    let found = |t: &'a TopicData, cue: &str| OutOfScope {
        kind: &t.topic,
        cue: cue.to_string(),
        reason: &t.reason,
        needs_writing_endpoint: t.needs_writing_endpoint,
    };
    for t in &topics {
        for cue in &t.substrings {
            if query.contains(cue.as_str()) && !known(cue) {
                return Some(found(t, cue));
            }
        }
    }
    let lower = query.to_lowercase();
    // Clauses: split on sentence punctuation and semicolons.
    for clause in lower.split(['.', '?', '!', ';', ':', ',']) {
        let w = words(clause);
        // The first word after the leads is the request's verb.
        let Some(first) = w.iter().position(|x| !LEADS.contains(&x.as_str())) else {
            continue;
        };
        let verb = w[first].as_str();
        if let Some(t) = topics.iter().find(|t| t.verbs.iter().any(|v| v == verb))
            && !known(verb)
            && imperative(&w, first)
        {
            // A noun of another topic in the clause says what the verb acts on ("add the
            // group meeting to my calendar" is a calendar request, not an action on data).
            let other = topics.iter().filter(|o| o.topic != t.topic).find_map(|o| {
                w.iter()
                    .find(|x| o.words.contains(x) && !known(x))
                    .map(|x| (*o, x.as_str()))
            });
            return Some(match other {
                Some((o, noun)) => found(o, noun),
                None => found(t, verb),
            });
        }
        for t in &topics {
            if let Some((_, cue)) = t.clauses.iter().find(|(p, _)| clause_shape(&w, first, p)) {
                return Some(found(t, cue));
            }
        }
    }
    let all = words(&lower);
    for t in &topics {
        if let Some(c) = all.iter().find(|x| t.words.contains(x) && !known(x)) {
            return Some(found(t, c));
        }
    }
    for t in &topics {
        if let Some(p) = t
            .phrases
            .iter()
            .find(|p| has_phrase(&lower, p) && !known(p))
        {
            return Some(found(t, p));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shipped inventory's topics (`aliases/scope.yaml`).
    fn topics() -> &'static [TopicData] {
        &crate::route::analyzer::testing::shipped()
            .lexicon
            .out_of_scope
    }

    fn out_of_scope(q: &str) -> Option<OutOfScope<'static>> {
        out_of_scope_unless(q, |_| false)
    }

    fn out_of_scope_unless(q: &str, known: impl Fn(&str) -> bool) -> Option<OutOfScope<'static>> {
        super::out_of_scope_unless(topics(), q, false, known)
    }

    fn definition_request(q: &str, known: impl Fn(&str) -> bool) -> Option<OutOfScope<'static>> {
        super::out_of_scope_unless(topics(), q, true, known)
    }

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
