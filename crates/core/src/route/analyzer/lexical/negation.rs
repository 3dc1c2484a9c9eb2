//! Negation in the lexical Understand step: a tool named after "not", "except", "other than",
//! ... (or before Korean 말고 / 제외 / 빼고) is ruled out, and a source cue after a negation
//! (or before a Korean one) counts against its source type.

use super::text::Token;

/// Words that, right before a tool's name, rule it out ("not from", "other than", "except",
/// "excluding", "instead of", "apart from", "without", "avoid").
pub(super) fn negated_before(tokens: &[Token], at: usize, floor: usize) -> bool {
    let from = at.saturating_sub(3).max(floor);
    let window: Vec<&str> = tokens[from..at].iter().map(|t| t.norm.as_str()).collect();
    window.iter().enumerate().any(|(k, w)| {
        let next = window.get(k + 1).copied();
        match *w {
            "not" | "except" | "excluding" | "exclude" | "excludes" | "without" | "avoid"
            | "avoiding" | "besides" | "nor" => true,
            "other" | "rather" => next == Some("than"),
            "instead" => next == Some("of"),
            "apart" | "aside" => next == Some("from"),
            "no" => next.is_none_or(|n| n == "data" || n == "values"),
            _ => false,
        }
    })
}

/// Korean negation after a tool's name ("Materials Project 말고", "MP 제외", "OQMD 빼고").
pub(super) fn negated_after_ko(tokens: &[Token], last: usize) -> bool {
    const KO_EXCLUDE: &[&str] = &["말고", "제외", "빼고", "아닌", "대신"];
    let own = &tokens[last].norm;
    KO_EXCLUDE.iter().any(|n| own.ends_with(n))
        || tokens
            .get(last + 1)
            .is_some_and(|t| KO_EXCLUDE.iter().any(|n| t.norm.starts_with(n)))
}

/// Words that negate a source cue within the three words before it.
pub(super) const NEGATIONS: &[&str] = &[
    "not", "no", "without", "rather", "instead", "except", "never",
];
/// Korean words that negate a source cue right after it.
pub(super) const KO_NEGATIONS: &[&str] = &["말고", "아닌", "아니라", "대신", "제외"];
