//! Exact o200k_base token counting with no start-up cost.
//!
//! The vocabulary is a table written by `build.rs` (sorted token bytes with their ranks) and
//! read in place, so the first count does not build anything: tiktoken-rs builds two hash maps of
//! 200k entries (about 120 ms) before its first count. The pre-tokenizer is the o200k_base
//! pattern (compiled once, on first use), then each piece is merged by byte-pair rank exactly as
//! tiktoken does, so counts equal `tiktoken_rs::o200k_base().encode_with_special_tokens(text)`
//! (tested against it on the shipped prompts and a corpus).

use std::sync::LazyLock;

/// The table written by `build.rs`: `n`, `n + 1` offsets, `n` ranks, the bytes (u32 LE).
static TABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_base.bin"));

/// The o200k_base pre-tokenizer pattern (OpenAI's, as shipped by tiktoken).
const PATTERN: &str = concat!(
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    "|",
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    "|",
    r"\p{N}{1,3}",
    "|",
    r" ?[^\s\p{L}\p{N}]+[\r\n/]*",
    "|",
    r"\s*[\r\n]+",
    "|",
    r"\s+(?!\S)",
    "|",
    r"\s+"
);

/// The special tokens `encode_with_special_tokens` keeps whole (one token each).
const SPECIAL: [&str; 2] = ["<|endoftext|>", "<|endofprompt|>"];

static PRETOKENIZER: LazyLock<fancy_regex::Regex> =
    LazyLock::new(|| fancy_regex::Regex::new(PATTERN).expect("the o200k_base pattern compiles"));

fn word(i: usize) -> usize {
    let b = &TABLE[i * 4..i * 4 + 4];
    u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize
}

/// The rank of `bytes` as one token, if the vocabulary has it (binary search over the table).
fn rank(bytes: &[u8]) -> Option<u32> {
    let n = word(0);
    let offsets = 1;
    let ranks = offsets + n + 1;
    let data = (ranks + n) * 4;
    let entry = |i: usize| {
        let (s, e) = (word(offsets + i), word(offsets + i + 1));
        &TABLE[data + s..data + e]
    };
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = (lo + hi) / 2;
        match entry(mid).cmp(bytes) {
            std::cmp::Ordering::Less => lo = mid + 1,
            std::cmp::Ordering::Greater => hi = mid,
            std::cmp::Ordering::Equal => return Some(word(ranks + mid) as u32),
        }
    }
    None
}

/// Tokens of one pre-tokenized piece: byte-pair merges by lowest rank until none applies.
fn piece_tokens(piece: &[u8]) -> usize {
    if piece.len() <= 1 || rank(piece).is_some() {
        return usize::from(!piece.is_empty());
    }
    // `starts[i]` is where part i begins; `pair[i]` the rank of parts i and i+1 merged.
    let mut starts: Vec<usize> = (0..=piece.len()).collect();
    let pair_rank = |starts: &[usize], i: usize| -> u32 {
        if i + 2 < starts.len() {
            rank(&piece[starts[i]..starts[i + 2]]).unwrap_or(u32::MAX)
        } else {
            u32::MAX
        }
    };
    let mut pair: Vec<u32> = (0..starts.len() - 1)
        .map(|i| pair_rank(&starts, i))
        .collect();
    while let Some((i, &best)) = pair.iter().enumerate().min_by_key(|&(i, r)| (*r, i)) {
        if best == u32::MAX {
            break;
        }
        starts.remove(i + 1);
        pair.remove(i + 1);
        pair[i] = pair_rank(&starts, i);
        if i > 0 {
            pair[i - 1] = pair_rank(&starts, i - 1);
        }
    }
    starts.len() - 1
}

/// Tokens of text with no special tokens in it.
fn ordinary_tokens(text: &str) -> usize {
    let mut count = 0;
    let mut at = 0;
    while at < text.len() {
        // The pattern's last branch (`\s+`) and the others cover every character, so a match
        // always exists; should one not, the rest counts byte by byte (never panics).
        match PRETOKENIZER.find_from_pos(text, at) {
            Ok(Some(m)) if m.end() > at => {
                count += piece_tokens(&text.as_bytes()[m.start()..m.end()]);
                at = m.end();
            }
            _ => {
                count += text.len() - at;
                break;
            }
        }
    }
    count
}

/// Number of o200k_base tokens in `text`, special tokens (`<|endoftext|>`, `<|endofprompt|>`)
/// counted as one token each, as tiktoken's `encode_with_special_tokens` does.
pub fn count(text: &str) -> usize {
    let mut total = 0;
    let mut rest = text;
    loop {
        let next = SPECIAL
            .iter()
            .filter_map(|s| rest.find(s).map(|i| (i, s.len())))
            .min();
        match next {
            Some((i, len)) => {
                total += ordinary_tokens(&rest[..i]) + 1;
                rest = &rest[i + len..];
            }
            None => return total + ordinary_tokens(rest),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(text: &str) -> usize {
        tiktoken_rs::o200k_base_singleton()
            .encode_with_special_tokens(text)
            .len()
    }

    #[test]
    fn counts_equal_tiktoken_on_assorted_text() {
        let cases = [
            "",
            " ",
            "a",
            "hello world",
            "Hello, world!  \n\n  tabs\tand\r\nCRLF\r\n",
            "The band gap of GaN, AlN and InN (eV) at 300 K?",
            "Ångström, naïve café, 日本語のテキスト, 한국어 밴드갭, emoji 🚀🧪",
            "<|endoftext|>between<|endofprompt|> and <|endoftext|>",
            "   leading and trailing spaces   ",
            "numbers 1234567 3.14159 1e-10 0x1F 0755",
            "it's they're we've I'm you'll he'd SHE'S",
            "snake_case kebab-case CamelCaseWord HTTPServer mp-149 JVASP-1002 10.1038/nmat1234",
            "{\"json\": [1, 2, 3], \"nested\": {\"k\": null}}",
            "line\n\n\n   \n\tindented\n",
        ];
        for text in cases {
            assert_eq!(count(text), reference(text), "{text:?}");
        }
    }

    #[test]
    fn counts_equal_tiktoken_on_the_repository_docs() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut checked = 0;
        // The OpenAPI sample is public text in many languages and scripts (the corpus).
        for dir in [
            "docs",
            "schemas",
            "intents",
            "aliases",
            "tests/fixtures/openapi",
            "tests/fixtures/responses",
        ] {
            let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
                continue;
            };
            let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
            paths.sort();
            for p in paths {
                if let Ok(text) = std::fs::read_to_string(&p) {
                    assert_eq!(count(&text), reference(&text), "{}", p.display());
                    checked += 1;
                }
            }
        }
        let readme = std::fs::read_to_string(root.join("README.md")).expect("README");
        assert_eq!(count(&readme), reference(&readme));
        assert!(checked > 10, "only {checked} files");
    }

    #[test]
    fn known_tokens_have_their_ranks() {
        assert_eq!(rank(b"hello"), Some(24912));
        assert_eq!(rank(b" world"), Some(2375));
        assert_eq!(rank(b"\xff\xfe\xfd\xfc\xfb"), None);
    }
}
