//! Needs a request implies through its values rather than states in words. "Save the summary
//! as Markdown to `/root/notes/x.md`" needs a tool that writes files, though no word of it names
//! one; "trains from Beijing to Shanghai next Wednesday" needs today's date before "next
//! Wednesday" is a date a tool takes. An agent that loads only the top `k` tools of a search
//! misses such tools unless the search adds them.
//!
//! [`implied`] reads two kinds of value (the data is `implied.txt` beside this file: file
//! extensions and their kinds, verbs of writing and reading, words of relative days; language
//! and file-format data, not any catalog's):
//!
//! - a file path ([`SpanKind::Path`]) an output is saved to: the nearest verb before the path
//!   in its clause is one of writing ("save", "generate … at"), not one of reading ("read",
//!   "analyze"), and the word right before it does not make it a source ("a summary of …"),
//!   and the path names a file, not a directory; the implied need is searched with "save write file" and the kind's words for a file of plain
//!   text (`.md`: "markdown text"), "save create" and the kind's words for another
//!   (`.pptx`: "powerpoint presentation slides");
//! - a day named relative to today ("tomorrow", "next Wednesday", "in 3 days", "the last 24h"):
//!   searched with "current date time today". "Today" and "now" imply nothing: a tool answers
//!   for the present unless told otherwise.
//!
//! [`super::rank_needs`] ranks each implied need apart and, unless the question's own first
//! endpoints serve it already, places its best endpoint third in the question's list.

use super::frame;
use super::needs;
use super::spans::{Span, SpanKind};
use std::sync::OnceLock;

/// The data file, declared beside this module.
const DATA: &str = include_str!("implied.txt");

/// One need a request implies: the words it is searched with and the byte range of the value
/// that implies it (in [`super::Query::text`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Implied {
    /// The words the implied need is searched with ("save write file markdown text").
    pub words: String,
    /// Words of which an endpoint must match one to serve the need ("current", "today", "now"
    /// for a relative day): an endpoint that shares only the need's other words does something
    /// else with them.
    pub required: Vec<String>,
    /// Whether the value is a file path an output is saved to (its words say where the output
    /// goes, not what it is about).
    pub destination: bool,
    /// Start of the implying value (byte offset).
    pub start: usize,
    /// End of the implying value (exclusive).
    pub end: usize,
}

/// `implied.txt`, read once.
#[derive(Default)]
struct Data {
    kinds: Vec<(String, String)>,
    plain: Vec<String>,
    write: Vec<String>,
    read: Vec<String>,
    source: Vec<String>,
    day: Vec<String>,
    shift: Vec<String>,
    weekday: Vec<String>,
    unit: Vec<String>,
    now: String,
    need_day: Vec<String>,
    need_file: Vec<String>,
    dir: String,
    need_dir: Vec<String>,
}

fn data() -> &'static Data {
    static D: OnceLock<Data> = OnceLock::new();
    D.get_or_init(|| parse(DATA))
}

fn parse(text: &str) -> Data {
    let mut d = Data::default();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        let mut words = line.split_whitespace().map(str::to_string);
        let Some(head) = words.next() else {
            continue;
        };
        let rest: Vec<String> = words.collect();
        match head.as_str() {
            "kind" if !rest.is_empty() => d.kinds.push((rest[0].clone(), rest[1..].join(" "))),
            "plain" => d.plain.extend(rest),
            "write" => d.write.extend(rest),
            "read" => d.read.extend(rest),
            "source" => d.source.extend(rest),
            "day" => d.day.extend(rest),
            "shift" => d.shift.extend(rest),
            "weekday" => d.weekday.extend(rest),
            "unit" => d.unit.extend(rest),
            "now" => d.now = rest.join(" "),
            "need-day" => d.need_day.extend(rest),
            "need-file" => d.need_file.extend(rest),
            "dir" => d.dir = rest.join(" "),
            "need-dir" => d.need_dir.extend(rest),
            _ => {}
        }
    }
    d
}

/// The needs `text` (a question as [`super::Query::text`] holds it) implies through its values,
/// in text order, each set of words once; `clauses` are the question's own needs
/// ([`needs::needs`] of `text`), which bound how far back a verb is read.
pub fn implied(text: &str, spans: &[Span], clauses: &[needs::Need]) -> Vec<Implied> {
    let d = data();
    let words = frame::words(text);
    let mut out: Vec<Implied> = Vec::new();
    for s in spans.iter().filter(|s| s.kind == SpanKind::Path) {
        let clause_start = clauses
            .iter()
            .find(|n| n.start <= s.start && s.start < n.end)
            .map_or(0, |n| n.start);
        // The nearest verb of writing or reading before the path in its clause, unless the
        // word right before it makes it a source.
        let mut before = words
            .iter()
            .rev()
            .filter(|w| clause_start <= w.0 && w.1 <= s.start)
            .peekable();
        if before.peek().is_some_and(|w| d.source.contains(&w.2)) {
            continue;
        }
        let writes = before.find_map(|w| {
            if d.write.contains(&w.2) {
                Some(true)
            } else if d.read.contains(&w.2) {
                Some(false)
            } else {
                None
            }
        });
        // A directory read or named (not written to) needs its files listed; a directory
        // written to says nothing of the file's kind; a file read implies nothing.
        let ext = extension(&s.value);
        if ext.is_none() && writes != Some(true) && !d.dir.is_empty() {
            push(
                &mut out,
                d.dir.clone(),
                &d.need_dir,
                (s.start, s.end),
                false,
            );
            continue;
        }
        let (Some(true), Some(ext)) = (writes, ext) else {
            continue;
        };
        let kind = d
            .kinds
            .iter()
            .find(|(e, _)| *e == ext)
            .map(|(_, k)| k.as_str());
        let words = match kind {
            Some(kind) if !d.plain.contains(&ext) => format!("save create {kind}"),
            kind => format!("save write file {}", kind.unwrap_or("")),
        };
        push(&mut out, words, &d.need_file, (s.start, s.end), true);
    }
    if let Some(range) = relative_day(d, &words) {
        push(&mut out, d.now.clone(), &d.need_day, range, false);
    }
    out.sort_by_key(|i| i.start);
    out
}

fn push(
    out: &mut Vec<Implied>,
    words: String,
    required: &[String],
    (start, end): (usize, usize),
    destination: bool,
) {
    let words = words.trim().to_string();
    if !out.iter().any(|i| i.words == words) {
        out.push(Implied {
            words,
            required: required.to_vec(),
            destination,
            start,
            end,
        });
    }
}

/// The lower-case extension of a path's last segment (`/root/x/report.PDF` -> `pdf`), `None`
/// for a directory.
fn extension(path: &str) -> Option<String> {
    let path = path.trim_end_matches(|c: char| !c.is_alphanumeric());
    let last = path.rsplit(['/', '\\']).next()?;
    let (stem, ext) = last.rsplit_once('.')?;
    (!stem.is_empty() && !ext.is_empty() && ext.chars().all(|c| c.is_ascii_alphanumeric()))
        .then(|| ext.to_ascii_lowercase())
}

/// The first day the words name relative to today: a day word ("tomorrow"), a shift before a
/// weekday ("next wednesday"), a count of a unit shifted from today ("in 3 days", "2 weeks
/// ago", "the last 24h", "the past 48 hours"); its byte range.
fn relative_day(d: &Data, words: &[(usize, usize, String)]) -> Option<(usize, usize)> {
    let is = |list: &[String], i: usize| words.get(i).is_some_and(|w| list.contains(&w.2));
    let is_count = |i: usize| {
        words
            .get(i)
            .is_some_and(|w| w.2.chars().next().is_some_and(|c| c.is_ascii_digit()))
    };
    // A count with its unit written on it ("24h", "3days").
    let count_with_unit = |i: usize| {
        words.get(i).is_some_and(|w| {
            let unit = w.2.trim_start_matches(|c: char| c.is_ascii_digit());
            unit.len() < w.2.len() && !unit.is_empty() && d.unit.iter().any(|u| u == unit)
        })
    };
    for i in 0..words.len() {
        let span = |last: usize| Some((words[i].0, words[last].1));
        if is(&d.day, i) {
            return span(i);
        }
        let shifted = is(&d.shift, i) || words[i].2 == "in";
        if shifted && is(&d.weekday, i + 1) && words[i].2 != "in" {
            return span(i + 1);
        }
        if shifted && is_count(i + 1) && is(&d.unit, i + 2) {
            return span(i + 2);
        }
        if shifted && count_with_unit(i + 1) {
            return span(i + 1);
        }
        if is_count(i) && is(&d.unit, i + 1) && words.get(i + 2).is_some_and(|w| w.2 == "ago") {
            return span(i + 2);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Query;

    fn words_of(q: &str) -> Vec<String> {
        let q = Query::new(q);
        implied(&q.text, &q.spans, &needs::needs(&q.text))
            .into_iter()
            .map(|i| i.words)
            .collect()
    }

    #[test]
    fn a_path_an_output_is_saved_to_implies_writing_a_file_of_its_kind() {
        assert_eq!(
            words_of("Generate a deep report of bitcoin and save it in /root/markdown/bitcoin.md"),
            ["save write file markdown text"]
        );
        assert_eq!(
            words_of("Make a web page about AI saved at /root/html/ai.html."),
            ["save write file html web page"]
        );
        // A file that is not plain text needs a tool of its kind, not one that writes text.
        assert_eq!(
            words_of("summarize it in a PPT and save it to /root/ppt/apple.pptx"),
            ["save create powerpoint presentation slides"]
        );
        assert_eq!(
            words_of("generate a report at /root/out/report.PDF"),
            ["save create pdf document"]
        );
        // An extension not listed is written as a file.
        assert_eq!(words_of("write it to /tmp/out.qqq"), ["save write file"]);
        // Two paths: the nearest verb of each one's clause decides; a path read implies nothing.
        assert_eq!(
            words_of(
                "Read the sales data under ./sales.xlsx, plot it by month and save it in ./figs/sale.png"
            ),
            ["save create image picture"]
        );
        // A path read, a path with no verb of either kind, a directory: nothing.
        for q in [
            "Read the data under /root/excel/people_data.xlsx and tell me Sophia's bmi.",
            "generate a summary of /root/pdf/paper.pdf",
            "an analysis of the audio file located at /root/music/alarm.wav",
            "Generate a report and save it in /root/pdf",
        ] {
            assert!(words_of(q).is_empty(), "{q}");
        }
    }

    #[test]
    fn a_directory_read_or_named_implies_listing_it() {
        for q in [
            "What files are in my /root/music folder?",
            "Read all the articles in the /root/pdf/embodied_ai_papers directory and compare them",
            "tell me about the repository in /root/git",
        ] {
            assert_eq!(words_of(q), ["list directory files folder contents"], "{q}");
        }
        // A directory an output is saved to, or a file: no listing.
        for q in [
            "Generate a report and save it in /root/pdf",
            "Read the file /root/docs/exchange.docx",
        ] {
            assert!(words_of(q).is_empty(), "{q}");
        }
    }

    #[test]
    fn a_day_relative_to_today_implies_the_current_date() {
        for q in [
            "train tickets from Beijing to Shanghai on next Wednesday",
            "homestays in Paris, I want to stay tomorrow",
            "Analyze the last 24h of BTC",
            "what changed in the past 48 hours",
            "remind me in 3 days",
            "the orders placed 2 weeks ago",
        ] {
            assert_eq!(words_of(q), ["current date time today"], "{q}");
        }
        // The present needs no date; nor do a weekday or a count of units alone.
        for q in [
            "Find today's top news",
            "what time is it now",
            "open on Wednesday",
            "a 3 day trip",
            "the last chapter",
        ] {
            assert!(words_of(q).is_empty(), "{q}");
        }
    }

    #[test]
    fn each_kind_line_has_an_extension_and_words() {
        let d = parse(DATA);
        assert!(d.kinds.len() > 50);
        for (ext, kind) in &d.kinds {
            assert!(!kind.is_empty(), "{ext}");
            assert_eq!(ext, &ext.to_lowercase());
        }
        assert_eq!(d.now, "current date time today");
        assert_eq!(d.need_day, ["current", "today", "now"]);
        assert_eq!(d.need_file, ["save", "write", "create"]);
    }
}
