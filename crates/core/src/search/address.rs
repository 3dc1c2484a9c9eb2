//! Street addresses and postcodes in running text, each one value ([`super::spans`] makes them
//! [`SpanKind::Address`](super::spans::SpanKind::Address) and
//! [`SpanKind::Postcode`](super::spans::SpanKind::Postcode) spans): "12 oak street, denver, co
//! 80203", "10 Downing Street, London", "15 rue de Rivoli, Paris", "Hauptstraße 5, Berlin";
//! "SW1A 2AA", "K1A 0B1", "80203-1234", "zip 80203".
//!
//! Language data of how addresses are written (street-type words in English, French, Spanish,
//! Italian and German, the shapes of British, Canadian and US postcodes), not any catalog's
//! knowledge. The house number, the street and the places after it (up to three parts after
//! commas, each of at most four words, cut at a function word: "…, london with graphhopper")
//! are one value, so that no part of it (the house number) is read as another value.

use super::spans::is_function_word;
use regex::Regex;
use std::sync::OnceLock;

/// Street-type words written after the street's name ("oak street", "5th ave").
const SUFFIXES: &str = "street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|way|court|ct|place|pl|terrace|parkway|pkwy|highway|hwy|square|sq|circle|cir|crescent|close|trail|alley|plaza|row";
/// Street-type words written before the street's name ("rue de Rivoli", "calle Mayor").
const PREFIXES: &str = "rue|avenue|boulevard|calle|avenida|via|viale|piazza|plaza|carrer|rua";
/// Endings of a German or Dutch street's one-word name, written before the house number
/// ("Hauptstraße 5", "Kalverstraat 1").
const GLUED: &str = "straße|strasse|str\\.|weg|platz|gasse|allee|ring|damm|straat|gracht|laan";

/// Words after a number that say it is a postcode ("zip 80203", "postal code 80203").
const POSTCODE_LABELS: &[&str] = &["zip", "zipcode", "postcode", "postal", "code"];

struct Patterns {
    suffixed: Regex,
    prefixed: Regex,
    glued: Regex,
    uk: Regex,
    ca: Regex,
    zip4: Regex,
    zip: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| {
        let re = |p: &str| Regex::new(p).expect("address pattern");
        Patterns {
            suffixed: re(&format!(
                r"(?i)\b\d{{1,6}}[a-z]?(?:-\d{{1,5}})?,?\s+((?:[\p{{L}}\d.'-]+\s+){{1,4}}?)(?:{SUFFIXES})\b\.?"
            )),
            prefixed: re(&format!(
                r"(?i)\b\d{{1,6}}[a-z]?,?\s+(?:{PREFIXES})\s+((?:[\p{{L}}\d.'-]+\s*){{1,4}})"
            )),
            glued: re(&format!(r"(?i)\b([\p{{L}}-]+(?:{GLUED}))\s+\d{{1,5}}[a-z]?\b")),
            uk: re(r"\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b"),
            ca: re(r"\b[A-Z]\d[A-Z]\s?\d[A-Z]\d\b"),
            zip4: re(r"\b\d{5}-\d{4}\b"),
            zip: re(r"\b\d{5}\b"),
        }
    })
}

/// Whether every word of `words` may be part of a street's name: no function word (so "3
/// blocks down the road" is no address).
fn name_words(words: &str) -> bool {
    words
        .split_whitespace()
        .all(|w| !is_function_word(w.trim_matches(|c: char| !c.is_alphanumeric())))
}

/// The byte ranges of the street addresses of `text`, the places after them included.
pub(super) fn addresses(text: &str) -> Vec<(usize, usize)> {
    let p = patterns();
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut add = |s: usize, e: usize| {
        if !out.iter().any(|&(a, b)| s < b && a < e) {
            let e = places_after(text, e);
            out.push((s, e));
        }
    };
    for c in p.suffixed.captures_iter(text) {
        if c.get(1).is_some_and(|n| name_words(n.as_str())) {
            let m = c.get(0).map_or((0, 0), |m| (m.start(), m.end()));
            add(m.0, m.1);
        }
    }
    for c in p.prefixed.captures_iter(text) {
        let (Some(all), Some(name)) = (c.get(0), c.get(1)) else {
            continue;
        };
        // The name runs to a comma or a function word other than a particle ("de", "del").
        let mut end = name.start();
        for w in name.as_str().split_inclusive(char::is_whitespace) {
            let bare = w.trim().trim_matches(|c: char| !c.is_alphanumeric());
            if bare.is_empty() || (is_function_word(bare) && !is_particle(bare)) {
                break;
            }
            end += w.trim_end().len();
            if w.trim_end().ends_with(',') {
                end -= 1;
                break;
            }
            end += w.len() - w.trim_end().len();
        }
        let end = text[..end].trim_end().len();
        if end > name.start() {
            add(all.start(), end);
        }
    }
    for m in p.glued.find_iter(text) {
        add(m.start(), m.end());
    }
    out.sort_unstable();
    out
}

/// Name particles of French, Spanish, Italian and Portuguese streets ("rue de la Paix").
fn is_particle(w: &str) -> bool {
    matches!(
        w.to_lowercase().as_str(),
        "de" | "del" | "della" | "des" | "du" | "la" | "le" | "les" | "da" | "do" | "dos"
    )
}

/// The end of the places written after a street at byte `end`: up to three parts after a comma
/// (a city, a state or region, a postcode), each of at most four words, each cut at its first
/// function word (the part ends there, and so does the address).
fn places_after(text: &str, mut end: usize) -> usize {
    for _ in 0..3 {
        let rest = &text[end..];
        let Some(after_comma) = rest.strip_prefix(',') else {
            break;
        };
        let part_start = end + 1 + (after_comma.len() - after_comma.trim_start().len());
        let part = &text[part_start..];
        let stop = part
            .find([',', ';', '?', '!', '(', ')', '"', '\n'])
            .or_else(|| part.find(". "))
            .unwrap_or(part.len());
        let part = part[..stop].trim_end_matches('.');
        let mut taken_end = part_start;
        let mut words = 0;
        let mut cut = false;
        let mut at = 0;
        for w in part.split_whitespace() {
            let off = at + part[at..].find(w).unwrap_or(0);
            at = off + w.len();
            let bare = w.trim_matches(|c: char| !c.is_alphanumeric());
            if bare.is_empty() || is_function_word(bare) || words == 4 {
                cut = true;
                break;
            }
            words += 1;
            taken_end = part_start + off + w.len();
            // A postcode ends the address ("…, co 80203 worth").
            if bare.chars().all(|c| c.is_ascii_digit()) && bare.len() >= 4 {
                cut = true;
                break;
            }
        }
        if words == 0 {
            break;
        }
        end = taken_end;
        if cut {
            break;
        }
    }
    end
}

/// The byte ranges of the postcodes of `text` outside `taken`: British (`SW1A 2AA`) and Canadian
/// (`K1A 0B1`) ones in capitals, US ZIP+4 (`80203-1234`), and a five-digit number its label says
/// is one ("zip 80203", "postal code 80203").
pub(super) fn postcodes(text: &str) -> Vec<(usize, usize)> {
    let p = patterns();
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut add = |s: usize, e: usize| {
        if !out.iter().any(|&(a, b)| s < b && a < e) {
            out.push((s, e));
        }
    };
    for re in [&p.uk, &p.ca, &p.zip4] {
        for m in re.find_iter(text) {
            // A British code is letters, a digit, a space and a digit and two letters: an
            // id of letters and digits alone (`A1B2C3D`) is none.
            add(m.start(), m.end());
        }
    }
    for m in p.zip.find_iter(text) {
        let head = text[..m.start()].trim_end().to_lowercase();
        let label = head
            .rsplit(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap_or("");
        if POSTCODE_LABELS.contains(&label) {
            add(m.start(), m.end());
        }
    }
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        addresses(text)
            .into_iter()
            .map(|(s, e)| &text[s..e])
            .collect()
    }

    #[test]
    fn a_street_address_is_one_value_with_its_places() {
        for (q, want) in [
            (
                "what is 12 oak street, denver, co 80203 worth",
                "12 oak street, denver, co 80203",
            ),
            (
                "find the postcode and city of 10 downing street, london with graphhopper",
                "10 downing street, london",
            ),
            (
                "rent estimate for 1600 Pennsylvania Ave NW",
                "1600 Pennsylvania Ave",
            ),
            (
                "value of 221B Baker Street, London NW1 6XE?",
                "221B Baker Street, London NW1 6XE",
            ),
            (
                "restaurants near 15 rue de Rivoli, Paris",
                "15 rue de Rivoli, Paris",
            ),
            ("hotels at Hauptstraße 5, Berlin", "Hauptstraße 5, Berlin"),
            ("homes near 4 Elm Dr.", "4 Elm Dr."),
        ] {
            assert_eq!(found(q), [want], "{q}");
        }
        // Counts, ranks and directions are no addresses.
        for q in [
            "top 5 streets in denver",
            "walk 3 blocks down the road",
            "give me 2 ways to cook rice",
            "the 10 best restaurants in paris",
        ] {
            assert!(found(q).is_empty(), "{q}");
        }
    }

    #[test]
    fn postcodes_by_their_shape_or_their_label() {
        let codes = |q: &str| -> Vec<String> {
            postcodes(q)
                .into_iter()
                .map(|(s, e)| q[s..e].to_string())
                .collect()
        };
        assert_eq!(codes("homes for sale in SW1A 2AA"), ["SW1A 2AA"]);
        assert_eq!(codes("weather at K1A 0B1"), ["K1A 0B1"]);
        assert_eq!(codes("listings in 80203-1234"), ["80203-1234"]);
        assert_eq!(codes("rentals in zip 80203"), ["80203"]);
        assert_eq!(codes("rentals in postal code 10115"), ["10115"]);
        // A five-digit number nothing labels is a number ("asteroid 54321").
        assert!(codes("is asteroid 54321 hazardous").is_empty());
        assert!(codes("tempo of the track 11dFghVXANMlKmJXsNCbNl").is_empty());
    }
}
