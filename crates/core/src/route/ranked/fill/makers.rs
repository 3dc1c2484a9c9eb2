//! "X by Y": a work and its maker ("bohemian rhapsody by queen", "the shining by stephen king").
//! The value right after "by" is the maker, which goes to a parameter named as one (`artist`,
//! `author`, `creator`); the value right before "by" is the work, which goes to a parameter
//! named as one (`track`, `title`, `song`, `book`). [`super::typed::fit`] adds to a pair that
//! agrees and halves one that crosses.

use super::profile::Profile;
use crate::search::spans::Span;

/// Parameter-name words of a work's maker.
const MAKER_WORDS: &[&str] = &[
    "artist",
    "author",
    "band",
    "composer",
    "creator",
    "director",
    "performer",
    "singer",
    "writer",
];
/// Parameter-name words of a work.
const WORK_WORDS: &[&str] = &["album", "book", "film", "movie", "song", "title", "track"];

/// A fit `base` adjusted by "by": the maker after it, the work before it.
pub(super) fn by_maker(pr: &Profile, s: &Span, base: f64) -> f64 {
    let maker = pr.named(MAKER_WORDS);
    let work = pr.named(WORK_WORDS);
    if maker == work {
        return base;
    }
    let after_by = s.before.last().is_some_and(|w| w == "by");
    let before_by = s.after.first().is_some_and(|w| w == "by");
    match (after_by, before_by) {
        (true, false) if maker => base + 3.0,
        (true, false) => base * 0.5,
        (false, true) if work => base + 3.0,
        (false, true) => base * 0.5,
        _ => base,
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    #[test]
    fn the_value_after_by_is_the_maker_and_the_one_before_the_work() {
        let e = endpoint(
            "https://x.test/matcher.lyrics.get",
            &[("q_artist", "query"), ("q_track", "query")],
        );
        let known = ["lyric", "get", "song"];
        for (q, track, artist) in [
            (
                "get me the lyrics of bohemian rhapsody by queen",
                "bohemian rhapsody",
                "queen",
            ),
            (
                "lyrics of Yesterday by The Beatles",
                "Yesterday",
                "The Beatles",
            ),
        ] {
            assert_eq!(
                filled(&e, q, &known),
                strings(&[("q_artist", artist), ("q_track", track)]),
                "{q}"
            );
        }
        let books = endpoint(
            "https://x.test/search",
            &[("author", "query"), ("title", "query")],
        );
        assert_eq!(
            filled(&books, "find Dune by Frank Herbert", &["find"]),
            strings(&[("author", "Frank Herbert"), ("title", "Dune")])
        );
    }
}
