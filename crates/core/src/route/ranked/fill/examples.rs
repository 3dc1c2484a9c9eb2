//! The example values a parameter's description gives (`e.g. PHI, BKN`, `Example: 10000507`,
//! `such as 2015REG`), and the shape they share ([`Shape`]): a parameter whose examples are all
//! codes or ids takes only a value of their shape (the same runs of letters and digits, about
//! their length), so a neighbouring word ("roster", "being") is never bound to it and a value of
//! that shape the question writes ("BKN", "2018") is.
//!
//! Examples that are words or phrases ("e.g. merlot, riesling", "e.g. victoria, circle, N133")
//! say nothing about a shape: names vary, so such a parameter takes any value as before.

/// Words that open a description's examples, lower case ("e.g." is matched with its dots).
const CUES: &[&str] = &[
    "e.g.",
    "e.g",
    "eg.",
    "example:",
    "examples:",
    "example",
    "examples",
    "for example",
    "for instance",
    "such as",
    "ex:",
];

/// The example values of a description: the items after a cue ([`CUES`]) up to the end of its
/// sentence or bracket, split at commas, "or" and "and", quotes, backticks and Markdown emphasis
/// (`*`) removed.
pub(super) fn examples(description: &str) -> Vec<String> {
    // ASCII lower case keeps every byte offset of `description`.
    let lower = description.to_ascii_lowercase();
    let mut out: Vec<String> = Vec::new();
    let mut from = 0;
    while from < lower.len() {
        let found = CUES
            .iter()
            .filter_map(|c| lower[from..].find(c).map(|i| (from + i, c.len())))
            .filter(|&(at, _)| {
                at == 0
                    || !lower[..at]
                        .chars()
                        .next_back()
                        .is_some_and(char::is_alphanumeric)
            })
            .min_by_key(|&(at, len)| (at, std::cmp::Reverse(len)));
        let Some((at, len)) = found else { break };
        let start = at + len;
        let rest = &description[start..];
        let end = rest
            .char_indices()
            .find(|&(i, c)| {
                matches!(c, ')' | ']' | ';' | '\n')
                    || (c == '.'
                        && rest[i + 1..].chars().next().is_none_or(char::is_whitespace)
                        && !rest[..i].ends_with("etc"))
            })
            .map_or(rest.len(), |(i, _)| i);
        let items = rest[..end]
            .trim_start_matches([',', ':', ' '])
            .replace(" or ", ",")
            .replace(" and ", ",");
        for item in items.split(',') {
            let v = item
                .trim()
                .trim_end_matches("...")
                // Quotes, backticks and Markdown emphasis (`*Example: USD*`).
                .trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | '“' | '”' | '‘' | '’' | '*'))
                .trim();
            if !v.is_empty() {
                out.push(v.to_string());
            }
        }
        from = start + end.max(1);
    }
    out
}

/// A run of one kind of character in a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Run {
    Letters,
    Digits,
    Other(char),
    /// Letters and digits mixed in more than three runs: a generated id (`m1pe7z60bsw`,
    /// `4d3fe717742d4963`), whose runs differ from one id to the next.
    Mixed,
}

/// The runs of a value; an alphanumeric one of more than three runs is one [`Run::Mixed`].
fn runs(v: &str) -> Vec<Run> {
    let r = plain_runs(v);
    if r.len() > 3 && r.iter().all(|x| matches!(x, Run::Letters | Run::Digits)) {
        return vec![Run::Mixed];
    }
    r
}

fn plain_runs(v: &str) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::new();
    for c in v.chars() {
        let r = if c.is_alphabetic() {
            Run::Letters
        } else if c.is_ascii_digit() {
            Run::Digits
        } else {
            Run::Other(c)
        };
        if out.last() != Some(&r) {
            out.push(r);
        }
    }
    out
}

/// Whether an example is a code or an id: one token of letters, digits, `-`, `_`, and `/` or
/// `.` between them, with a digit or its letters in capitals ("PHI", "2018", "2015REG",
/// "940GZZLUASL", "A2", a currency pair "USD/CAD"), not a word.
fn code_shaped(v: &str) -> bool {
    let n = v.chars().count();
    let letters = v.chars().filter(char::is_ascii_alphabetic).count();
    (1..=40).contains(&n)
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '/' | '.'))
        && v.starts_with(|c: char| c.is_ascii_alphanumeric())
        && v.ends_with(|c: char| c.is_ascii_alphanumeric())
        && (v.chars().any(|c| c.is_ascii_digit())
            || (letters >= 2
                && v.chars()
                    .filter(char::is_ascii_alphabetic)
                    .all(|c| c.is_ascii_uppercase())))
}

/// The shape a parameter's example codes share: their runs of letters and digits, and their
/// length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Shape {
    runs: Vec<Vec<Run>>,
    /// For a generated id of three parts or more (a UUID `0bfba3d3-6a04-4779-bb0a-…`): its
    /// separators and the length of each part, which any letters and digits may fill.
    parts: Vec<(Vec<char>, Vec<usize>)>,
    min: usize,
    max: usize,
}

/// A value's separators and the length of each part between them, when it has three parts or
/// more, each of letters and digits.
fn parts(v: &str) -> Option<(Vec<char>, Vec<usize>)> {
    let seps: Vec<char> = v.chars().filter(|c| !c.is_ascii_alphanumeric()).collect();
    let lens: Vec<usize> = v
        .split(|c: char| !c.is_ascii_alphanumeric())
        .map(str::len)
        .collect();
    (lens.len() >= 3 && lens.iter().all(|&n| n > 0)).then_some((seps, lens))
}

impl Shape {
    /// The shape of a description's examples, when every one is a code ([`code_shaped`]).
    pub(super) fn of(description: &str) -> Option<Shape> {
        let ex = examples(description);
        if ex.is_empty() || !ex.iter().all(|v| code_shaped(v)) {
            return None;
        }
        let mut shape_runs: Vec<Vec<Run>> = Vec::new();
        for v in &ex {
            let r = runs(v);
            if !shape_runs.contains(&r) {
                shape_runs.push(r);
            }
        }
        let lens = ex.iter().map(|v| v.chars().count());
        Some(Shape {
            parts: ex.iter().filter_map(|v| parts(v)).collect(),
            runs: shape_runs,
            min: lens.clone().min().unwrap_or(0),
            max: lens.max().unwrap_or(0),
        })
    }

    /// Whether a value (each item of a comma-separated list) has this shape: the same runs of
    /// letters and digits as an example (letters in any case: "a2" for `A406, A2`), and its
    /// length: exactly the examples' for short codes, within two of it for ids of five
    /// characters or more.
    pub(super) fn fits(&self, value: &str) -> bool {
        let slack = if self.min >= 5 { 2 } else { 0 };
        value.split(',').map(str::trim).all(|v| {
            let n = v.chars().count();
            let generated = parts(v).is_some_and(|p| self.parts.contains(&p));
            generated
                || (n + slack >= self.min && n <= self.max + slack && self.runs.contains(&runs(v)))
        })
    }

    /// Whether the examples are years (four digits), as a season's or an edition's are.
    pub(super) fn years(&self) -> bool {
        self.runs == [vec![Run::Digits]] && self.min == 4 && self.max == 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_joined_by_a_slash_have_a_shape() {
        let pairs = Shape::of(
            "comma separated list of currency pairs. For example: USD/CAD,USD/EUR,USD/AUD",
        )
        .expect("a shape");
        assert!(pairs.fits("EUR/USD"));
        assert!(pairs.fits("eur/usd"));
        assert!(!pairs.fits("move"));
        assert!(!pairs.fits("EURUSD"));
    }

    #[test]
    fn examples_after_their_cue() {
        assert_eq!(
            examples("Team abbreviation (e.g. PHI, BKN)"),
            ["PHI", "BKN"]
        );
        assert_eq!(
            examples("Year of the season. Examples: 2015, 2016."),
            ["2015", "2016"]
        );
        assert_eq!(
            examples("The player id, for example `10000507`"),
            ["10000507"]
        );
        assert_eq!(
            examples("Season, such as 2015REG or 2015POST; the year alone is the regular season"),
            ["2015REG", "2015POST"]
        );
        assert_eq!(
            examples(
                "A comma-separated list of line ids e.g. victoria,circle,N133. Max. approx. 20 ids."
            ),
            ["victoria", "circle", "N133"]
        );
        // Markdown emphasis around the example is no part of it.
        assert_eq!(
            examples("**Base Currency**. *Example: USD*. Any ISO 4217 code we support."),
            ["USD"]
        );
        assert!(examples("The name of the team").is_empty());
        // "example" inside a word is no cue.
        assert!(examples("A counterexample-free text").is_empty());
    }

    #[test]
    fn codes_give_a_shape_and_words_none() {
        let teams = Shape::of("Team abbreviation (e.g. PHI, BKN)").expect("shape");
        assert!(teams.fits("BKN") && teams.fits("phi"));
        assert!(!teams.fits("roster") && !teams.fits("Brooklyn") && !teams.fits("2018"));
        let seasons = Shape::of("Year of the season (e.g. 2018)").expect("shape");
        assert!(seasons.fits("2024") && seasons.years());
        assert!(!seasons.fits("being") && !seasons.fits("24") && !seasons.fits("4"));
        let with_kind = Shape::of("Season, e.g. 2015REG, 2015POST, 2015").expect("shape");
        assert!(with_kind.fits("2024REG") && with_kind.fits("2024") && !with_kind.years());
        let players = Shape::of("Unique id of the player, e.g. 10000507").expect("shape");
        assert!(players.fits("20000571") && players.fits("1000050"));
        assert!(!players.fits("4") && !players.fits("roster"));
        let roads = Shape::of("road identifiers e.g. \"A406, A2\"").expect("shape");
        assert!(roads.fits("a2") && roads.fits("M25") && !roads.fits("the"));
        let playlists =
            Shape::of("Playlist id (always 11 characters, e.g., m1pe7z60bsw)").expect("shape");
        assert!(playlists.fits("x9ab2c3d4ef") && !playlists.fits("favourites"));
        let mbids = Shape::of("a Musicbrainz MBID, e.g. 0bfba3d3-6a04-4779-bb0a-df07df5b0558")
            .expect("shape");
        assert!(mbids.fits("a74b1b7f-71a5-4011-9441-d0b5e4122711"));
        assert!(!mbids.fits("radiohead") && !mbids.fits("a74b1b7f-71a5"));
        let stops = Shape::of("station naptan code e.g. 940GZZLUASL").expect("shape");
        assert!(stops.fits("940GZZLUOXC") && !stops.fits("victoria"));
        // Words and phrases as examples: no shape.
        for d in [
            "A single line id e.g. victoria",
            "line ids e.g. victoria,circle,N133",
            "The name of the wine, e.g. \"merlot\", \"riesling\"",
            "Search term, e.g., person, place, topic...",
            "Limit search results to a region (e.g., us, gb, in...)",
            "The player's name",
        ] {
            assert_eq!(Shape::of(d), None, "{d}");
        }
    }

    #[test]
    fn a_parameter_with_example_codes_takes_only_a_value_of_their_shape() {
        use super::super::testing::*;
        let mut e = endpoint("https://x.test/json/Players/{team}", &[("team", "path")]);
        e.parameters[0].description =
            Some("The abbreviation of the requested team (e.g. PHI, BKN)".into());
        assert_eq!(
            filled(&e, "who is on the BKN roster", &["roster"]),
            strings(&[("team", "BKN")])
        );
        assert!(filled(&e, "who is on the brooklyn roster", &["roster"]).is_empty());
        // Ranked for "BKN" too (the description lists it): still the value.
        assert_eq!(
            filled_for(
                &e,
                "who is on the BKN roster",
                &["roster", "bkn"],
                &["roster", "bkn"]
            ),
            strings(&[("team", "BKN")])
        );
        assert!(filled(&e, "show me the team roster", &["roster", "team"]).is_empty());
        // A season by its year examples: "the 2024 season"; a word is none.
        let mut s = endpoint("https://x.test/standings/{season}", &[("season", "path")]);
        s.parameters[0].description =
            Some("Year of the season (with an optional kind). Examples: 2018, 2018POST".into());
        assert_eq!(
            filled(&s, "standings of the 2024 season", &["stand"]),
            strings(&[("season", "2024")])
        );
        assert!(filled(&s, "standings being updated", &["stand", "updat"]).is_empty());
        // An id by its examples: a count is none.
        let mut p = endpoint("https://x.test/player/{playerid}", &[("playerid", "path")]);
        p.parameters[0].description = Some("Unique id of the player. Example: 10000507".into());
        assert_eq!(
            filled(&p, "stats of player 20000571", &["stat"]),
            strings(&[("playerid", "20000571")])
        );
        assert!(filled(&p, "the 4 best players", &["player"]).is_empty());
    }
}
