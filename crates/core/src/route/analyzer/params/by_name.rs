//! Values written after a parameter's own name ("city Paris", `origin=MAD`): what a named
//! tool's endpoints declare binds without a declared binding.

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
