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
///
/// The merge order is tiktoken's (the adjacent pair of lowest rank first, the leftmost of equal
/// ranks). Short pieces are merged by tiktoken's linear scan; a long unbroken piece (a base64
/// blob, a run of one letter) through a heap of candidate pairs and a linked list of parts, so
/// it costs O(n log n) rather than O(n²).
fn piece_tokens(piece: &[u8]) -> usize {
    if piece.len() <= 1 || rank(piece).is_some() {
        return usize::from(!piece.is_empty());
    }
    if piece.len() <= SHORT_PIECE {
        short_piece_tokens(piece)
    } else {
        long_piece_tokens(piece)
    }
}

/// Up to this many bytes a piece is merged by scanning for the lowest rank (two small vectors,
/// fastest for the short pieces of ordinary text); longer ones use the heap.
const SHORT_PIECE: usize = 64;

/// [`piece_tokens`] for a short piece: tiktoken's own loop (a linear scan per merge).
fn short_piece_tokens(piece: &[u8]) -> usize {
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

/// [`piece_tokens`] for a long piece: a heap of candidate pairs and a linked list of parts.
fn long_piece_tokens(piece: &[u8]) -> usize {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let n = piece.len();
    // Parts are identified by their start byte; `next[s]` is the start of the part after `s`
    // (`n` for the end), `prev[s]` the one before, `alive[s]` whether `s` still starts a part.
    let mut next: Vec<usize> = (1..=n).collect();
    let mut prev: Vec<usize> = (0..n).map(|i| i.wrapping_sub(1)).collect();
    let mut alive = vec![true; n];
    // `pair[s]` is the rank of part `s` merged with the part after it (`u32::MAX`: none).
    let pair_rank = |next: &[usize], s: usize| -> u32 {
        let mid = next[s];
        if mid >= n {
            return u32::MAX;
        }
        let end = next[mid];
        rank(&piece[s..end]).unwrap_or(u32::MAX)
    };
    let mut pair: Vec<u32> = (0..n).map(|s| pair_rank(&next, s)).collect();
    let mut heap: BinaryHeap<Reverse<(u32, usize)>> = pair
        .iter()
        .enumerate()
        .filter(|&(_, &r)| r != u32::MAX)
        .map(|(s, &r)| Reverse((r, s)))
        .collect();
    let mut parts = n;
    while let Some(Reverse((r, s))) = heap.pop() {
        // Entries go stale when their part merged away or a neighbour changed the pair's rank.
        if !alive[s] || pair[s] != r {
            continue;
        }
        let gone = next[s];
        alive[gone] = false;
        next[s] = next[gone];
        if next[s] < n {
            prev[next[s]] = s;
        }
        parts -= 1;
        pair[s] = pair_rank(&next, s);
        if pair[s] != u32::MAX {
            heap.push(Reverse((pair[s], s)));
        }
        let p = prev[s];
        if p < n {
            pair[p] = pair_rank(&next, p);
            if pair[p] != u32::MAX {
                heap.push(Reverse((pair[p], p)));
            }
        }
    }
    parts
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
    fn long_unbroken_pieces_count_as_tiktoken_counts_them() {
        // One pre-tokenized piece each: runs, a base64-like blob, digits, mixed scripts.
        let mut blob = String::new();
        let mut x: u64 = 7;
        for _ in 0..3000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let c = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
                [(x >> 58) as usize];
            blob.push(c as char);
        }
        let cases = [
            "a".repeat(2000),
            "ab".repeat(1000),
            "Z".repeat(1500),
            "7".repeat(999),
            blob,
            "日本語".repeat(300),
            "é".repeat(700),
            " ".repeat(1200) + "x",
            "!".repeat(900),
        ];
        for text in &cases {
            assert_eq!(
                count(text),
                reference(text),
                "{}",
                text.chars().take(20).collect::<String>()
            );
        }
    }

    #[test]
    fn the_short_and_long_merges_agree() {
        let readme = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"),
        )
        .expect("README");
        let bytes = readme.as_bytes();
        let mut checked = 0;
        for len in [2, 3, 5, 8, 13, 21, 40, 64, 65, 100] {
            for start in (0..bytes.len().saturating_sub(len)).step_by(97) {
                let piece = &bytes[start..start + len];
                assert_eq!(
                    short_piece_tokens(piece),
                    long_piece_tokens(piece),
                    "{:?}",
                    String::from_utf8_lossy(piece)
                );
                checked += 1;
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn known_tokens_have_their_ranks() {
        assert_eq!(rank(b"hello"), Some(24912));
        assert_eq!(rank(b" world"), Some(2375));
        assert_eq!(rank(b"\xff\xfe\xfd\xfc\xfb"), None);
    }
}
