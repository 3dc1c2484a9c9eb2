//! Names: the lower snake case every id is derived in ([`snake`]), and the names and
//! descriptions that read as a record's identifier ([`reads_as_identifier`]), shared by the
//! deriver (which marks such fields `identifier: true`) and the `missing-identifier` rule
//! (which names them in its help).

/// The words of a name, lower case: its [`snake`] form split at `_`, so camel case, separators,
/// array markers and other punctuation all split; digits stay with their word (`v2`, `ipv6`).
/// `stargazersCount` → `[stargazers, count]`, `main.temp` → `[main, temp]`,
/// `authorships[].author.display_name` → `[authorships, author, display, name]`.
pub fn words(name: &str) -> Vec<String> {
    snake(name)
        .split('_')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Lower snake case of a name: camel-case boundaries and every run of other characters become
/// `_` (`getPetById` → `get_pet_by_id`, `GET /pets/{id}` → `get_pets_id`, `HTTPServer` →
/// `http_server`; a plural acronym stays one word: `Yodlee Core APIs` → `yodlee_core_apis`). The name is read in
/// NFC (a decomposed `é` is one letter), combining marks left over are dropped, and so is what
/// lower-casing adds that is no letter or digit (`İ` lower-cases to `i` and a combining dot), so
/// the result holds only letters, digits and `_`: a valid id (SR107) unless it is empty.
pub fn snake(s: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    use unicode_normalization::char::is_combining_mark;
    let mut out = String::with_capacity(s.len() + 4);
    let chars: Vec<char> = s.nfc().collect();
    let mut pending = false;
    for (i, &c) in chars.iter().enumerate() {
        if is_combining_mark(c) && !c.is_alphanumeric() {
            continue;
        }
        if c.is_alphanumeric() {
            let boundary = c.is_uppercase()
                && i > 0
                && (chars[i - 1].is_lowercase()
                    || chars[i - 1].is_ascii_digit()
                    || (chars[i - 1].is_uppercase()
                        && chars.get(i + 1).is_some_and(|n| n.is_lowercase())
                        // A plural acronym ("APIs", "IDs", "URLs") is one word.
                        && !(chars[i + 1] == 's'
                            && chars.get(i + 2).is_none_or(|n| !n.is_lowercase()))));
            if (pending || boundary) && !out.is_empty() && !out.ends_with('_') {
                out.push('_');
            }
            pending = false;
            out.extend(c.to_lowercase().filter(|l| l.is_alphanumeric()));
        } else {
            pending = true;
        }
    }
    out
}

/// Whole names that identify a record by themselves (`slug`, `href`, `code`).
const ID_NAMES: &[&str] = &[
    "id",
    "uuid",
    "guid",
    "key",
    "url",
    "uri",
    "href",
    "slug",
    "code",
    "permalink",
];

/// Last words that make a name an identifier (`article_slug`, `api_key`, `user_uuid`, `node_id`).
const ID_LAST_WORDS: &[&str] = &["id", "uuid", "guid", "slug", "key"];

/// Whether a record-level field name reads as an identifier by itself: a name of `ID_NAMES`,
/// a last word of `ID_LAST_WORDS` (`article_slug`, `nodeId`), or the word `id` anywhere
/// (`id_code`, `idStr`).
pub fn id_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    if ID_NAMES.contains(&lower.trim_start_matches('_')) {
        return true;
    }
    let w = words(name);
    w.last()
        .is_some_and(|l| ID_LAST_WORDS.contains(&l.as_str()))
        || w.iter().any(|x| x == "id")
}

/// Whether a field's description says it identifies the record: "unique" (or "uniquely")
/// with "identifier", "id", "key" or "identifies" ("The unique identifier of the venue",
/// "Uniquely identifies the word").
pub fn id_description(description: &str) -> bool {
    let w = words(description);
    let unique = w.iter().any(|x| x == "unique" || x == "uniquely");
    unique
        && w.iter().any(|x| {
            matches!(
                x.as_str(),
                "identifier" | "id" | "key" | "identifies" | "identify"
            )
        })
}

/// Whether a record-level field reads as an identifier by its name ([`id_name`]) or its
/// description ([`id_description`]). Shared by the deriver and the `missing-identifier` rule.
pub fn reads_as_identifier(field: &super::ResponseField) -> bool {
    let name = field.name.value.as_str();
    if name.contains('.') || name.contains('[') {
        return false;
    }
    id_name(name)
        || field
            .description
            .as_ref()
            .is_some_and(|d| id_description(&d.value))
}
