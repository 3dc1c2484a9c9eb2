//! Records printed as text: many MCP servers answer a list (`mcp-server-git`'s `git_log`) with
//! one text content of blank-line separated blocks of `Key: value` lines rather than JSON. Read
//! so, an endpoint that declares the records' fields gets them projected like any JSON answer.
//!
//! The shape read, and nothing looser:
//! - blocks are separated by one or more blank lines; each block is one record;
//! - a record's lines are `Key: value` (a key starts with a letter, holds letters, digits,
//!   spaces, `_`, `-` and `.`, at most 40 characters; the value follows `: `, or nothing
//!   follows the colon); a line that is no such line continues the value before it when that
//!   value began on its key's line (a multi-line message), and a block that starts with one
//!   continues the last value of the record before it (a message's later paragraphs);
//! - every record starts with the same key (the records repeat), and no key appears twice in
//!   one record;
//! - the text may start with a heading: a first line `Title:` with nothing after the colon,
//!   followed in its block by `Key: value` lines (`Commit history:`); it is not a record.
//!
//! A record's keys are written as field names: lower case, each run of other characters than
//! letters and digits one `_` (`Commit` -> `commit`, `Last modified` -> `last_modified`).

use serde_json::{Map, Value};

/// Records read from a text.
#[derive(Clone, Debug, PartialEq)]
pub struct TextRecords {
    /// The heading line before the records, without its colon.
    pub heading: Option<String>,
    /// The field names of the records, in first-seen order.
    pub keys: Vec<String>,
    /// The records, in text order: field name -> the value's text.
    pub records: Vec<Map<String, Value>>,
}

/// A `Key: value` line's key and value; `None` for any other line.
fn key_line(line: &str) -> Option<(&str, &str)> {
    let (key, rest) = line.split_once(':')?;
    let ok_key = key.len() <= 40
        && key.starts_with(|c: char| c.is_alphabetic())
        && !key.ends_with(' ')
        && key
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '_' | '-' | '.'));
    if !ok_key {
        return None;
    }
    if rest.is_empty() {
        return Some((key, ""));
    }
    rest.strip_prefix(' ').map(|v| (key, v.trim_end()))
}

/// `key` as a field name (`Last modified` -> `last_modified`).
pub fn field_name(key: &str) -> String {
    let mut out = String::new();
    for c in key.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_matches('_').to_string()
}

/// The records `text` is made of; else why it is not records (the first line that breaks the
/// shape, 1-based).
pub fn parse(text: &str) -> Result<TextRecords, String> {
    let text = text.replace("\r\n", "\n");
    let mut lines: Vec<(usize, &str)> = text.lines().enumerate().map(|(i, l)| (i + 1, l)).collect();
    while lines.first().is_some_and(|(_, l)| l.trim().is_empty()) {
        lines.remove(0);
    }
    let mut heading = None;
    if let [(_, first), (_, second), ..] = lines.as_slice()
        && let Some((title, "")) = key_line(first)
        && key_line(second).is_some()
    {
        heading = Some(title.to_string());
        lines.remove(0);
    }
    let mut records: Vec<Map<String, Value>> = Vec::new();
    let mut keys: Vec<String> = Vec::new();
    // The key of the value a continuation line extends, in the last record.
    let mut last: Option<String> = None;
    let mut gap = false;
    for (n, line) in lines {
        if line.trim().is_empty() {
            gap = true;
            continue;
        }
        let new_block = gap || records.is_empty();
        gap = false;
        match (key_line(line), new_block) {
            (Some((k, v)), true) => {
                let name = field_name(k);
                if let Some(first) = keys.first()
                    && *first != name
                {
                    return Err(format!(
                        "line {n} starts a block with `{k}:`, the first record with another key"
                    ));
                }
                records.push(Map::from_iter([(name.clone(), Value::from(v))]));
                if keys.is_empty() {
                    keys.push(name.clone());
                }
                last = Some(name);
            }
            (Some((k, v)), false) => {
                let name = field_name(k);
                let r = records.last_mut().expect("a record is open");
                if r.contains_key(&name) {
                    return Err(format!("line {n}: `{k}` appears twice in one record"));
                }
                r.insert(name.clone(), Value::from(v));
                if !keys.contains(&name) {
                    keys.push(name.clone());
                }
                last = Some(name);
            }
            (None, starts_block) => {
                let (Some(r), Some(k)) = (records.last_mut(), last.as_ref()) else {
                    return Err(format!("line {n} is no `Key: value` line"));
                };
                // Only a value begun on its key's line goes on below it.
                let Some(Value::String(s)) = r.get_mut(k).filter(|v| v.as_str() != Some("")) else {
                    return Err(format!("line {n} is no `Key: value` line"));
                };
                s.push_str(if starts_block { "\n\n" } else { "\n" });
                s.push_str(line.trim_end());
            }
        }
    }
    if records.is_empty() {
        return Err("it holds no `Key: value` line".into());
    }
    Ok(TextRecords {
        heading,
        keys,
        records,
    })
}

/// The JSON document `records` make at the records path `segs` (the endpoint's, parsed): the
/// list of records where the path's one `[]` level is (`[]`: the document is the list;
/// `data[]`: `{"data": [...]}`), or the one record at the root for an endpoint without a records
/// path; else why the records cannot be placed so.
pub fn document(
    records: Vec<Map<String, Value>>,
    records_path: Option<&str>,
) -> Result<Value, String> {
    let segs = schemarouter_core::extract::records::parse_records(records_path)?;
    let Some((leaf, outer)) = segs.split_last() else {
        return match <[_; 1]>::try_from(records) {
            Ok([one]) => Ok(Value::Object(one)),
            Err(r) => Err(format!(
                "the text holds {} records and the endpoint declares no records path (one record)",
                r.len()
            )),
        };
    };
    if leaf.arrays != 1 || leaf.members || outer.iter().any(|s| s.arrays > 0 || s.members) {
        return Err(format!(
            "records path `{}` is not one list under object keys",
            records_path.unwrap_or_default()
        ));
    }
    let mut v = Value::Array(records.into_iter().map(Value::Object).collect());
    for s in segs.iter().rev().filter(|s| !s.key.is_empty()) {
        v = Value::Object(Map::from_iter([(s.key.clone(), v)]));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `mcp-server-git` 2025's `git_log` answer, as the test harness's repository gives it.
    const GIT_LOG: &str = "Commit history:\nCommit: 2a24d522\nAuthor: Tester\nDate: 2026-01-08 12:00:00+00:00\nMessage: commit number 25: change f.txt\n\n\nCommit: d6de4e3b\nAuthor: Tester\nDate: 2026-01-07 12:00:00+00:00\nMessage: commit number 24: change f.txt\n\n";

    #[test]
    fn blocks_of_key_value_lines_are_records() {
        let r = parse(GIT_LOG).unwrap();
        assert_eq!(r.heading.as_deref(), Some("Commit history"));
        assert_eq!(r.keys, ["commit", "author", "date", "message"]);
        assert_eq!(
            Value::Array(r.records.into_iter().map(Value::Object).collect()),
            json!([
                {"commit": "2a24d522", "author": "Tester", "date": "2026-01-08 12:00:00+00:00", "message": "commit number 25: change f.txt"},
                {"commit": "d6de4e3b", "author": "Tester", "date": "2026-01-07 12:00:00+00:00", "message": "commit number 24: change f.txt"}
            ])
        );
        // A message over several lines and paragraphs; CRLF; keys with spaces; an empty value.
        let text = "Name: a.txt\r\nLast modified: 2026-01-01\r\nNote: first line\r\n  second line\r\n\r\nmore words\r\n\r\nName: b.txt\r\nLast modified:\r\n";
        let r = parse(text).unwrap();
        assert_eq!(r.heading, None);
        assert_eq!(
            Value::Array(r.records.into_iter().map(Value::Object).collect()),
            json!([
                {"name": "a.txt", "last_modified": "2026-01-01", "note": "first line\n  second line\n\nmore words"},
                {"name": "b.txt", "last_modified": ""}
            ])
        );
    }

    #[test]
    fn other_texts_are_not_records() {
        for (text, why) in [
            (
                "Repository status:\nOn branch main\nnothing to commit, working tree clean",
                "line 2 is no `Key: value` line",
            ),
            ("just words\n", "line 1 is no `Key: value` line"),
            ("", "it holds no `Key: value` line"),
            (
                "Commit: a\nAuthor: x\n\nAuthor: y\nCommit: b\n",
                "line 4 starts a block with `Author:`, the first record with another key",
            ),
            (
                "Commit: a\nCommit: b\n",
                "line 2: `Commit` appears twice in one record",
            ),
            ("see http://x.org/a: b\n", "line 1 is no `Key: value` line"),
        ] {
            assert_eq!(parse(text), Err(why.to_string()), "{text:?}");
        }
        assert_eq!(field_name("Last  modified (UTC)"), "last_modified_utc");
    }

    #[test]
    fn records_are_placed_at_the_records_path() {
        let recs = || parse(GIT_LOG).unwrap().records;
        assert_eq!(
            document(recs(), Some("[]")).unwrap()[1]["commit"],
            "d6de4e3b"
        );
        assert_eq!(
            document(recs(), Some("data.log[]")).unwrap()["data"]["log"][0]["author"],
            "Tester"
        );
        assert_eq!(
            document(parse("Commit: a\n").unwrap().records, None).unwrap(),
            json!({"commit": "a"})
        );
        assert_eq!(
            document(recs(), None),
            Err(
                "the text holds 2 records and the endpoint declares no records path (one record)"
                    .to_string()
            )
        );
        assert_eq!(
            document(recs(), Some("a[].b[]")),
            Err("records path `a[].b[]` is not one list under object keys".to_string())
        );
    }
}
