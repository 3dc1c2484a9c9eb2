//! Whether an endpoint that says nothing of destruction looks destructive by its names or its
//! description (`delete_all`, `removeItems`, "Permanently purges ..."): read by the lint rule
//! `destructive-endpoint` (SR508), which reports it, and by the compiler, which leaves such an
//! endpoint out of planning unless it is declared `allow_destructive` or annotated read-only.

use super::{Endpoint, HttpMethod};

/// Verbs that say an operation destroys data.
const VERBS: &[&str] = &[
    "delete", "remove", "drop", "purge", "destroy", "erase", "wipe", "truncate", "clear", "reset",
    "unlink",
];

/// Adverbs that may come before the verb of a description ("Permanently deletes ...").
const ADVERBS: &[&str] = &[
    "permanently",
    "irreversibly",
    "completely",
    "immediately",
    "forcibly",
];

/// The verb of `word` when it is one of [`VERBS`] (`deletes`, `Removing`, `dropped`).
fn verb_of(word: &str) -> Option<&'static str> {
    let w = word.to_lowercase();
    VERBS.iter().copied().find(|v| {
        w == *v
            || w.strip_prefix(v).is_some_and(|rest| {
                matches!(rest, "s" | "es" | "d" | "ed" | "ing" | "ped" | "ping" | "all")
            })
            // `delete` -> `deleting`, `remove` -> `removing`, `erase` -> `erasing`
            || v.strip_suffix('e')
                .is_some_and(|stem| w.strip_prefix(stem) == Some("ing"))
    })
}

/// The words of an identifier, case kept: split at every character that is no letter or digit
/// (`_`, `-`, `.`, `/`, `[`, spaces) and at lower-to-upper case changes (`deleteAll` ->
/// `delete`, `All`). Shared by the destructive-name check and the router's range parameters.
pub fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.push(c);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

impl Endpoint {
    /// Why the endpoint looks destructive by its id, its MCP tool name or the first verb of its
    /// description, if it does (`None` when nothing says so).
    pub fn looks_destructive(&self) -> Option<String> {
        looks_destructive(self)
    }

    /// Whether planning leaves the endpoint out: it may destroy data ([`Endpoint::is_destructive`]),
    /// or its annotations give neither `destructive` nor `read_only`, its method is not a safe
    /// HTTP method, and it looks destructive; and it is not declared `allow_destructive`.
    pub fn unplannable(&self) -> bool {
        if self.destructive_allowed() {
            return false;
        }
        if self.is_destructive() {
            return true;
        }
        let silent = self
            .annotations
            .as_ref()
            .is_none_or(|a| a.destructive.is_none() && a.read_only.is_none());
        let safe_method = matches!(
            self.method.value,
            HttpMethod::Get | HttpMethod::Head | HttpMethod::Options
        );
        silent && !safe_method && self.looks_destructive().is_some()
    }
}

/// Why the endpoint looks destructive by its names or description, if it does.
fn looks_destructive(e: &Endpoint) -> Option<String> {
    for (what, name) in [
        ("id", Some(&e.id.value)),
        ("MCP tool name", e.mcp_tool.as_ref().map(|m| &m.value)),
    ] {
        let Some(name) = name else { continue };
        if let Some(v) = words(name).iter().find_map(|w| verb_of(w)) {
            return Some(format!("its {what} `{name}` says `{v}`"));
        }
    }
    let d = e.description.as_ref()?;
    let first = d
        .value
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .find(|w| !ADVERBS.contains(&w.to_lowercase().as_str()))?;
    verb_of(first).map(|v| format!("its description says `{v}`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_split_into_words() {
        assert_eq!(words("delete_all"), ["delete", "all"]);
        assert_eq!(words("deleteAllItems"), ["delete", "All", "Items"]);
        assert_eq!(words("git-reset.v2"), ["git", "reset", "v2"]);
        assert_eq!(words("HTTPGet"), ["HTTPGet"]);
    }

    #[test]
    fn verbs_and_their_forms_match_and_other_words_do_not() {
        for (w, v) in [
            ("delete", "delete"),
            ("Deletes", "delete"),
            ("deleted", "delete"),
            ("deleting", "delete"),
            ("removes", "remove"),
            ("removing", "remove"),
            ("dropped", "drop"),
            ("drops", "drop"),
            ("PURGE", "purge"),
            ("purging", "purge"),
            ("wipes", "wipe"),
            ("truncated", "truncate"),
            ("clears", "clear"),
            ("resets", "reset"),
            ("unlink", "unlink"),
            ("deleteall", "delete"),
        ] {
            assert_eq!(verb_of(w), Some(v), "{w}");
        }
        for w in [
            "list",
            "dropdown",
            "removal",
            "cleared_at",
            "get",
            "drop_in",
            "resetting_x",
            "clearance",
            "delegate",
        ] {
            assert_eq!(verb_of(w), None, "{w}");
        }
    }
}
