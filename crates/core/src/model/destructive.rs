//! Whether an endpoint that says nothing of destruction looks destructive by its names or its
//! description (`delete_all`, `removeItems`, "Permanently purges ..."): read by the lint rule
//! `destructive-endpoint` (SR508), which reports it, and by the compiler, which leaves such an
//! endpoint out of planning unless it is declared `allow_destructive` or annotated read-only.

use super::{Endpoint, HttpMethod};

/// The verb lists, declared as language data in `destructive_verbs.txt` beside this file.
const VERB_DATA: &str = include_str!("destructive_verbs.txt");

/// The words of one `[section]` of [`VERB_DATA`], in file order.
fn section(name: &str) -> Vec<&'static str> {
    let mut out = Vec::new();
    let mut current = "";
    for line in VERB_DATA.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if let Some(s) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            current = s;
        } else if current == name {
            out.extend(line.split_whitespace());
        }
    }
    out
}

/// Verbs that say an operation destroys data (any word of a name).
static VERBS: std::sync::LazyLock<Vec<&'static str>> =
    std::sync::LazyLock::new(|| section("destroy"));

/// Verbs that say an operation changes a record's state for good (`suspend`, `revoke`,
/// `cancel`): the first word of a name or of the path's last segment.
static STATE_VERBS: std::sync::LazyLock<Vec<&'static str>> =
    std::sync::LazyLock::new(|| section("state"));

/// Adverbs that may come before the verb of a description ("Permanently deletes ...").
const ADVERBS: &[&str] = &[
    "permanently",
    "irreversibly",
    "completely",
    "immediately",
    "forcibly",
];

/// The verb of `word` when it is one of `verbs` in any inflected form (`deletes`, `Removing`,
/// `dropped`, `cancelled`).
fn verb_in(word: &str, verbs: &[&'static str]) -> Option<&'static str> {
    let w = word.to_lowercase();
    verbs.iter().copied().find(|v| {
        w == *v
            || w.strip_prefix(v).is_some_and(|rest| {
                matches!(rest, "s" | "es" | "d" | "ed" | "ing" | "all")
                    // a doubled last consonant: `dropped`, `banning`, `cancelled`
                    || v.chars().last().is_some_and(|c| {
                        rest.strip_prefix(c).is_some_and(|r| matches!(r, "ed" | "ing"))
                    })
            })
            // `delete` -> `deleting`, `remove` -> `removing`, `erase` -> `erasing`
            || v.strip_suffix('e')
                .is_some_and(|stem| w.strip_prefix(stem) == Some("ing"))
    })
}

/// The destroying verb of `word` (see [`VERBS`]).
fn verb_of(word: &str) -> Option<&'static str> {
    verb_in(word, &VERBS)
}

/// The state-changing verb of `word` (see [`STATE_VERBS`]).
fn state_verb_of(word: &str) -> Option<&'static str> {
    verb_in(word, &STATE_VERBS)
}

/// The first word of `name` when it is a state-changing verb (an id made of method and path,
/// `post_archive_year`, starts with no verb: its path's last segment is read instead).
fn leading_state_verb(name: &str) -> Option<&'static str> {
    words(name).first().and_then(|w| state_verb_of(w))
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

/// Why the endpoint looks destructive by its names, its path or description, if it does.
fn looks_destructive(e: &Endpoint) -> Option<String> {
    let names = [
        ("id", Some(&e.id.value)),
        ("MCP tool name", e.mcp_tool.as_ref().map(|m| &m.value)),
    ];
    for (what, name) in names {
        let Some(name) = name else { continue };
        if let Some(v) = words(name).iter().find_map(|w| verb_of(w)) {
            return Some(format!("its {what} `{name}` says `{v}`"));
        }
        if let Some(v) = leading_state_verb(name) {
            return Some(format!("its {what} `{name}` says `{v}`"));
        }
    }
    let url = e.url.value.split(['?', '#']).next().unwrap_or("");
    let path = url
        .split_once("://")
        .map_or(url, |(_, rest)| rest.find('/').map_or("", |i| &rest[i..]));
    let last = path
        .rsplit('/')
        .find(|s| !s.is_empty())
        .filter(|s| !s.starts_with('{'))
        .map(|s| s.split('.').next().unwrap_or(s));
    if let Some(seg) = last
        && let Some(v) = words(seg).first().and_then(|w| state_verb_of(w))
    {
        return Some(format!("its path ends in `{seg}`, which says `{v}`"));
    }
    let d = e.description.as_ref()?;
    let first = d
        .value
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .find(|w| !ADVERBS.contains(&w.to_lowercase().as_str()))?;
    // State-changing verbs are not read from descriptions: their forms open noun phrases too
    // ("Archives of ...", "Archive search").
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
            ("dropping", "drop"),
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
            "suspend",
        ] {
            assert_eq!(verb_of(w), None, "{w}");
        }
    }

    #[test]
    fn state_verbs_and_their_forms_match() {
        for (w, v) in [
            ("suspend", "suspend"),
            ("Suspends", "suspend"),
            ("unpublished", "unpublish"),
            ("banned", "ban"),
            ("banning", "ban"),
            ("cancelled", "cancel"),
            ("canceled", "cancel"),
            ("revoking", "revoke"),
            ("archive", "archive"),
            ("deactivates", "deactivate"),
        ] {
            assert_eq!(state_verb_of(w), Some(v), "{w}");
        }
        for w in [
            "banner",
            "cancellation",
            "archives_list",
            "publish",
            "locale",
        ] {
            assert_eq!(state_verb_of(w), None, "{w}");
        }
    }

    fn endpoint(id: &str, method: HttpMethod, url: &str, description: Option<&str>) -> Endpoint {
        use super::super::Sp;
        Endpoint {
            id: Sp::synthetic(id.to_string()),
            method: Sp::synthetic(method),
            url: Sp::synthetic(url.to_string()),
            description: description.map(|d| Sp::synthetic(d.to_string())),
            mcp_tool: None,
            annotations: None,
            fields_inferred: None,
            operation_id: None,
            allow_destructive: None,
            deprecated: None,
            records: None,
            body_type: None,
            body_xml: Vec::new(),
            parameters: Vec::new(),
            fields: Vec::new(),
        }
    }

    #[test]
    fn state_changing_writes_look_destructive_and_reads_do_not() {
        let cases = [
            (
                "suspend_user",
                HttpMethod::Put,
                "https://x.org/api/users/{id}/suspend",
                None,
                Some("its id `suspend_user` says `suspend`"),
            ),
            (
                "put_api_ads_id_unpublish",
                HttpMethod::Put,
                "https://x.org/api/ads/{id}/unpublish",
                None,
                Some("its path ends in `unpublish`, which says `unpublish`"),
            ),
            (
                "update_order",
                HttpMethod::Post,
                "https://x.org/orders/{id}/cancel.json",
                None,
                Some("its path ends in `cancel`, which says `cancel`"),
            ),
            (
                "update_key",
                HttpMethod::Patch,
                "https://x.org/keys/{id}",
                Some("Revokes an API key."),
                None,
            ),
            (
                "create_article",
                HttpMethod::Post,
                "https://x.org/articles",
                None,
                None,
            ),
            (
                "search_archive",
                HttpMethod::Post,
                "https://x.org/archive/search",
                None,
                None,
            ),
            (
                "post_archive",
                HttpMethod::Post,
                "https://x.org/archive/{year}",
                None,
                None,
            ),
            (
                "toggle_reaction",
                HttpMethod::Post,
                "https://suspend.example.org/",
                None,
                None,
            ),
        ];
        for (id, method, url, description, why) in cases {
            let e = endpoint(id, method, url, description);
            assert_eq!(e.looks_destructive().as_deref(), why, "{id}");
            assert_eq!(e.unplannable(), why.is_some(), "{id}");
        }
        let read = endpoint(
            "suspend_user",
            HttpMethod::Get,
            "https://x.org/users/suspend",
            None,
        );
        assert!(!read.unplannable());
    }
}
