//! `search`: ranked endpoints for a question ("tool search": load only the top k).

use crate::artifact::FrozenGraph;
use clap::Args;
use std::io::IsTerminal;
use std::path::PathBuf;

/// Arguments of `schemarouter search`.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// The question or keywords.
    pub query: String,
    /// Compiled artifact [default: `build/graph.bin` or `build/graph.json` of the project
    /// holding the working directory, the newer of the two; see `compile`].
    #[arg(long)]
    pub artifact: Option<PathBuf>,
    /// How many endpoints to return.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub k: u64,
    /// JSON even on a terminal (the default when piped).
    #[arg(long)]
    pub json: bool,
}

/// The longest query `search` takes, in characters (as `route`).
const MAX_QUERY_CHARS: usize = 10_000;

/// Run `search`.
pub fn run_search(mut args: SearchArgs) -> u8 {
    if args.query.trim().is_empty() {
        return super::usage_error(
            "the query is empty",
            "give a question or keywords, e.g. `schemarouter search \"current weather in London\"`",
        );
    }
    let n = args.query.chars().count();
    if n > MAX_QUERY_CHARS {
        return super::usage_error(
            format!(
                "the query is {n} characters long; `search` takes at most {MAX_QUERY_CHARS} characters"
            ),
            "search with a question or a few keywords, not a document",
        );
    }
    let artifact = match super::locate::artifact(args.artifact.take().as_deref()) {
        Ok(p) => p,
        Err(code) => return code,
    };
    if let Err(code) = super::locate::refuse_broken_config(&artifact) {
        return code;
    }
    let g = match FrozenGraph::load_routing_lazy(&artifact) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {}: {e}", artifact.display());
            eprintln!("help: {}", e.help());
            return super::EXIT_USAGE;
        }
    };
    crate::search::dense::activate_or_warn(&g, Some(&artifact));
    let out = crate::artifact::reading(|| {
        let hits = crate::search::search(&g, &args.query, args.k as usize);
        if args.json || !std::io::stdout().is_terminal() {
            let v = serde_json::json!({
                "query": args.query,
                "artifact_hash": g.content_hash,
                "hits": hits,
            });
            serde_json::to_string_pretty(&v).unwrap_or_default()
        } else {
            table(&hits)
        }
    });
    let code = match out {
        Ok(text) => {
            println!("{text}");
            0
        }
        Err(e) => {
            let e = crate::artifact::LoadError::Malformed(e);
            eprintln!("error: {}: {e}", artifact.display());
            eprintln!("help: {}", e.help());
            super::EXIT_USAGE
        }
    };
    std::mem::forget(g);
    code
}

/// The hits as a table for a terminal.
fn table(hits: &[crate::search::Hit]) -> String {
    if hits.is_empty() {
        return "no endpoint shares a word with the query".to_string();
    }
    let mut s = String::new();
    for h in hits {
        s.push_str(&format!(
            "{:>3}. {}/{}  score {:.3}  {} {}{}\n     matched: {}\n",
            h.rank,
            h.tool,
            h.endpoint,
            h.score,
            h.method,
            h.url,
            h.call
                .as_deref()
                .map(|c| format!("  (call `{c}`)"))
                .unwrap_or_default(),
            h.matched.join(", ")
        ));
    }
    s.pop();
    s
}
