//! Exact o200k_base counts of upstream responses, fast enough for the response path.
//!
//! The core's counter ([`schemarouter_core::prompt::count_tokens`]) has no start-up cost, which
//! is right for one-shot commands, but its pre-tokenizer is a backtracking regex (the o200k
//! pattern's `\s+(?!\S)` look-ahead), about 1.75 ms for a 20 KB list response (measured last round). The gateway is
//! long-lived, so it counts with GitHub's `bpe-openai` instead: the same o200k_base vocabulary
//! and pattern, the look-ahead emulated on a DFA, and byte-pair encoding by backtracking over
//! an Aho-Corasick automaton (exactly tiktoken's tokens). Its tables are built once ([`warm`],
//! called when the gateway starts), not on the first call.
//!
//! Special tokens count as one token each, as `encode_with_special_tokens` (and the core's
//! counter) count them; the counts equal the core's (tested below on JSON, prose, Unicode,
//! whitespace runs and specials).

/// The special tokens `encode_with_special_tokens` keeps whole (one token each).
const SPECIAL: [&str; 2] = ["<|endoftext|>", "<|endofprompt|>"];

/// Build the tokenizer's tables now rather than on the first count.
pub fn warm() {
    let _ = bpe_openai::o200k_base();
}

/// Number of o200k_base tokens in `text`, special tokens included (one each).
pub fn count(text: &str) -> usize {
    let tok = bpe_openai::o200k_base();
    let mut total = 0;
    let mut rest = text;
    loop {
        let next = SPECIAL
            .iter()
            .filter_map(|s| rest.find(s).map(|i| (i, s.len())))
            .min();
        match next {
            Some((i, len)) => {
                total += tok.count(&rest[..i]) + 1;
                rest = &rest[i + len..];
            }
            None => return total + tok.count(rest),
        }
    }
}

/// Responses at least this long are counted on the blocking pool, beside the parsing and the
/// projection; shorter ones count faster than the hand-over to another thread.
pub const OFFLOAD_BYTES: usize = 2048;

/// The token count of one raw response, started before the response is parsed and projected
/// and collected after: a long response is counted on tokio's blocking pool meanwhile (o200k
/// counting is most of the CPU time of a list response), a short one at once. The count is the
/// same either way ([`count`]).
pub enum RawCount {
    /// Counted at once.
    Done(usize),
    /// Being counted on the blocking pool; the text is kept to count again if that task fails.
    Pending(tokio::task::JoinHandle<usize>, std::sync::Arc<String>),
}

impl RawCount {
    /// Start counting `text`.
    pub fn start(text: &std::sync::Arc<String>) -> RawCount {
        if text.len() < OFFLOAD_BYTES {
            return RawCount::Done(count(text));
        }
        let t = std::sync::Arc::clone(text);
        RawCount::Pending(
            tokio::task::spawn_blocking(move || count(&t)),
            std::sync::Arc::clone(text),
        )
    }

    /// The count (counted here if the pool's task failed).
    pub async fn finish(self) -> usize {
        match self {
            RawCount::Done(n) => n,
            RawCount::Pending(task, text) => match task.await {
                Ok(n) => n,
                Err(_) => count(&text),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use schemarouter_core::prompt::count_tokens;

    #[test]
    fn counts_equal_the_cores_exact_counts() {
        let record = |i: usize| {
            serde_json::json!({
                "material_id": format!("mp-{i}"), "formula_pretty": "GaN", "band_gap": 1.7345 + i as f64,
                "description": "Wurtzite   gallium nitride,\n\tgrown at 1,050 °C — naïve café 日本語 🚀",
                "tags": ["a", "b", null, true, 3e-7], "nested": {"x": [1, 2, 3], "y": "   "}
            })
        };
        let list: Vec<_> = (0..40).map(record).collect();
        let cases = [
            String::new(),
            " ".into(),
            "a".into(),
            "Hello, world!  \n\n  tabs\tand\r\nCRLF\r\n".into(),
            "   leading and trailing spaces   ".into(),
            "<|endoftext|>between<|endofprompt|> and <|endoftext|>".into(),
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".into(),
            "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkwMTIzNDU2Nzg5MA==".repeat(20),
            "I'm sure they'll say it's 12345678 o'clock, WE'RE LATE!".into(),
            serde_json::to_string(&list).unwrap(),
            serde_json::to_string_pretty(&list).unwrap(),
        ];
        for text in &cases {
            assert_eq!(super::count(text), count_tokens(text), "{text:?}");
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn counts_on_the_blocking_pool_are_the_same() {
        let long = std::sync::Arc::new("GaN band gap 3.4 eV, wurtzite; ".repeat(200));
        let short = std::sync::Arc::new("GaN".to_string());
        let pending = super::RawCount::start(&long);
        assert!(matches!(pending, super::RawCount::Pending(..)));
        assert_eq!(pending.finish().await, count_tokens(&long));
        let done = super::RawCount::start(&short);
        assert!(matches!(done, super::RawCount::Done(n) if n == count_tokens(&short)));
        assert_eq!(done.finish().await, count_tokens(&short));
    }
}
