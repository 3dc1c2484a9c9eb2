//! `graph`: export the schema graph.

use crate::graph::export::{self, CypherDialect, Focus};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `schemarouter graph`.
#[derive(Debug, Args)]
pub struct GraphArgs {
    /// Project folder (ignored with --artifact).
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// Read a compiled artifact instead of compiling the project.
    #[arg(long)]
    pub artifact: Option<PathBuf>,
    /// Output format. Mermaid refuses a graph beyond Mermaid's default limits (50,000
    /// characters, 500 edges); export a subgraph with --tool or --intent.
    #[arg(long, value_enum, default_value_t = GraphFormat::Dot)]
    pub format: GraphFormat,
    /// Cypher dialect (with --format cypher): `neo4j` (default; Neo4j 5, FalkorDB: an index per
    /// label, then one statement per line) or `kuzu` (node and relationship table definitions
    /// first, as Kuzu needs a schema).
    #[arg(long, value_enum)]
    pub dialect: Option<Dialect>,
    /// Only this tool's neighbourhood: the tool, its endpoints, parameters and response fields,
    /// and what those point at.
    #[arg(long, conflicts_with = "intent")]
    pub tool: Option<String>,
    /// Only this intent's neighbourhood: the intent, its field groups and domains, and its
    /// candidate tools.
    #[arg(long)]
    pub intent: Option<String>,
}

/// Cypher dialects of `--dialect`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Dialect {
    /// Neo4j 5 and FalkorDB (openCypher).
    Neo4j,
    /// Kuzu (schema first: CREATE NODE TABLE / CREATE REL TABLE).
    Kuzu,
}

/// Export formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GraphFormat {
    /// Graphviz DOT.
    Dot,
    /// Mermaid flowchart.
    Mermaid,
    /// A Cypher script (see --dialect).
    Cypher,
}

/// Run `graph`. Exit 2 for an unknown --tool / --intent, --dialect without --format cypher, or
/// a Mermaid diagram beyond Mermaid's limits (nothing is written to stdout then).
pub fn run_graph(args: GraphArgs) -> u8 {
    if args.dialect.is_some() && args.format != GraphFormat::Cypher {
        eprintln!("error: --dialect applies to --format cypher only");
        eprintln!("help: drop --dialect, or pass --format cypher");
        return super::EXIT_USAGE;
    }
    let (g, _) = match super::compile::graph_for(&args.path, args.artifact.as_deref(), "graph") {
        Ok(x) => x,
        Err(c) => return c,
    };
    let focus = match (args.tool, args.intent) {
        (Some(t), _) => Focus::Tool(t),
        (None, Some(i)) => Focus::Intent(i),
        _ => Focus::All,
    };
    let (nodes, edges) = match export::select(&g, &focus) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            eprintln!("help: {}", focus_help(&g, &focus));
            return super::EXIT_USAGE;
        }
    };
    let out = match args.format {
        GraphFormat::Dot => export::to_dot(&nodes, &edges),
        GraphFormat::Mermaid => match export::to_mermaid_checked(&nodes, &edges) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("error: {e}");
                eprintln!(
                    "help: export a subgraph with `--tool ID` or `--intent ID`, or use --format dot"
                );
                return super::EXIT_USAGE;
            }
        },
        GraphFormat::Cypher => {
            let dialect = match args.dialect {
                Some(Dialect::Kuzu) => CypherDialect::Kuzu,
                Some(Dialect::Neo4j) | None => CypherDialect::Neo4j,
            };
            export::to_cypher(&g, &nodes, &edges, dialect)
        }
    };
    print!("{out}");
    0
}

/// The help line for a --tool / --intent that names nothing: the closest id of the artifact, or
/// where the ids are.
fn focus_help(g: &crate::artifact::FrozenGraph, focus: &Focus) -> String {
    let (word, ids, what): (&str, Vec<&str>, &str) = match focus {
        Focus::Tool(t) => (t, g.tools.iter().map(|t| t.id.as_str()).collect(), "a tool"),
        Focus::Intent(i) => (
            i,
            g.intents.iter().map(|i| i.id.as_str()).collect(),
            "an intent",
        ),
        Focus::All => return String::new(),
    };
    match crate::model::value::did_you_mean(word, ids.iter().copied()) {
        Some(id) => format!("did you mean `{id}`?"),
        None => format!(
            "pass the id of {what} in the artifact ({} of them, e.g. `{}`)",
            ids.len(),
            ids.first().copied().unwrap_or("")
        ),
    }
}
