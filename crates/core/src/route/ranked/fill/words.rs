//! The words the passes read a question and a parameter's declaration by: English naming
//! conventions of parameters (a `limit` takes a count, a `city` a place) and the shapes of words
//! that are no values (verb forms, adverbs, words of rank and time), not any domain's knowledge.

/// Parameter-name words of a count or page size.
pub(super) const COUNT_WORDS: &[&str] = &[
    "count", "k", "limit", "max", "maximum", "n", "num", "number", "per", "qty", "quantity",
    "results", "size", "top",
];
/// Words next to a number that make it a count ("top 5", "5 results").
pub(super) const COUNT_CUES: &[&str] = &[
    "first", "items", "last", "latest", "most", "recent", "results", "top",
];
/// Parameter-name words of an amount measured in a unit (`sourceAmount`, `quantity`).
pub(super) const AMOUNT_WORDS: &[&str] = &["amount", "qty", "quantity", "value"];
/// Parameter-name words of the unit an amount is wanted in (`targetUnit`, `to_unit`).
pub(super) const TARGET_WORDS: &[&str] = &["dest", "destination", "output", "target", "to"];
/// Parameter-name words of free text: a search query, a title, a name.
pub(super) const TEXT_WORDS: &[&str] = &[
    "keyword", "keywords", "name", "prompt", "q", "query", "question", "search", "term", "text",
    "title", "topic", "word",
];
/// Parameter-name words of a place.
pub(super) const PLACE_WORDS: &[&str] = &[
    "address",
    "area",
    "city",
    "country",
    "destination",
    "location",
    "origin",
    "place",
    "region",
    "state",
    "town",
];
/// Parameter-name words of a street address (`address`, `streetAddress`, `addr`).
pub(super) const ADDRESS_WORDS: &[&str] = &["address", "addr", "street"];
/// Parameter-name words of a postcode (`zip`, `zipCode`, `postal_code`, `postcode`).
pub(super) const POSTCODE_WORDS: &[&str] = &["zip", "zipcode", "postal", "postalcode", "postcode"];
/// Parameter-name words of a place an address can stand for (a geocoder's `location`, a
/// route's `origin`), not one part of it (`city`, `state`, `country`).
pub(super) const LOCATION_WORDS: &[&str] = &["destination", "location", "origin", "place", "point"];
/// Prepositions before a place.
pub(super) const PLACE_CUES: &[&str] = &["at", "from", "in", "near", "to"];
/// Parameter-name words of an identifier.
pub(super) const ID_WORDS: &[&str] = &[
    "code",
    "id",
    "identifier",
    "isbn",
    "key",
    "number",
    "ref",
    "slug",
    "symbol",
    "ticker",
];
/// Parameter-name words of a key written as words: a slug, a name, a user name
/// (`videogame_id_or_slug`, `username`, `screen_name`). Such a key takes a name typed in lower
/// case even where its name also holds `id`.
pub(super) const NAME_KEY_WORDS: &[&str] = &["handle", "login", "name", "slug", "username"];
/// Parameter-name words of a date.
pub(super) const DATE_WORDS: &[&str] = &[
    "after", "before", "date", "day", "end", "from", "since", "start", "until",
];
/// Parameter-name words of a year (`year`, `maxYear`, `start_year`).
pub(super) const YEAR_WORDS: &[&str] = &["year", "years", "yr"];
/// Parameter-name words of the lower end of a range (`minYear`, `start_date`, `since`).
pub(super) const LOWER_WORDS: &[&str] = &[
    "after", "begin", "from", "min", "minimum", "since", "start", "starting",
];
/// Parameter-name words of the upper end of a range (`maxYear`, `end_date`, `until`).
pub(super) const UPPER_WORDS: &[&str] = &[
    "before", "end", "ending", "max", "maximum", "through", "till", "to", "until",
];
/// Words right before a value that make it the lower end of a range ("since 2019").
pub(super) const LOWER_CUES: &[&str] = &["after", "between", "from", "since", "starting"];
/// Words right before a value that make it the upper end of a range ("until 2021").
pub(super) const UPPER_CUES: &[&str] = &["before", "through", "till", "to", "until"];
/// Description words of a parameter that takes a date.
pub(super) const DATE_DESCRIBED: &[&str] = &[
    "date",
    "dates",
    "datetime",
    "day",
    "iso8601",
    "time",
    "timestamp",
    "yyyy",
];
pub(super) const URL_WORDS: &[&str] = &["href", "link", "site", "uri", "url", "website"];
/// Words naming an e-mail address parameter (`email`, `mail`), or its description's.
pub(super) const EMAIL_WORDS: &[&str] = &["email", "mail"];
/// Words naming a telephone number parameter (`phone`, `msisdn`), or its description's.
pub(super) const PHONE_WORDS: &[&str] = &["msisdn", "phone", "telephone", "tel"];
pub(super) const PATH_WORDS: &[&str] = &["dir", "directory", "file", "filename", "folder", "path"];

/// Whether a number is written as a year (four digits, 1800 to 2199).
pub(super) fn year_like(v: &str) -> bool {
    v.len() == 4 && v.parse::<u32>().is_ok_and(|y| (1800..2200).contains(&y))
}

/// Whether a lower-case word has the shape of a verb form or an adverb (`running`,
/// `normally`, `delayed`), which a name rarely has.
pub(super) fn verb_shaped(w: &str) -> bool {
    let n = w.chars().count();
    (w.ends_with("ing") && n > 5) || (w.ends_with("ly") && n > 4) || (w.ends_with("ed") && n >= 6)
}

/// Adjectives of rank and amount, which say what is asked of a value, not which one.
pub(super) const RANK_WORDS: &[&str] = &[
    "bad", "best", "better", "few", "good", "less", "many", "more", "much", "new", "old", "worse",
    "worst",
];

/// Generic adjectives of time and state, which say which version of a thing is asked for
/// ("the current weather", "latest commits", "new releases"), never a value.
pub(super) const GENERIC_WORDS: &[&str] = &[
    "current",
    "currently",
    "latest",
    "newest",
    "oldest",
    "popular",
    "present",
    "previous",
    "recent",
    "upcoming",
];

/// Whether an unlabelled lower-case word may be a name: no verb form or adverb, no word of
/// rank or amount ("best", "latest", "top").
pub(super) fn name_shaped(w: &str) -> bool {
    !verb_shaped(w) && !generic(w)
}

/// Whether a lower-case word is a word of rank, amount, time or state ([`RANK_WORDS`],
/// [`GENERIC_WORDS`], "top", "first"): it qualifies what is asked, it is no value.
pub(super) fn generic(w: &str) -> bool {
    RANK_WORDS.contains(&w) || GENERIC_WORDS.contains(&w) || COUNT_CUES.contains(&w)
}

/// English number words from one to nineteen, in order ([`super::numerals`]).
pub(super) const NUMBER_UNITS: &[&str] = &[
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];

/// English words of the tens from twenty to ninety, in order ([`super::numerals`]).
pub(super) const NUMBER_TENS: &[&str] = &[
    "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];

/// English month names, in order ([`super::numerals`]: "april 2024"): the date spans' list.
pub(super) use crate::search::spans::MONTHS as MONTH_NAMES;
