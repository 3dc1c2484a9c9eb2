//! `graph`: export the schema graph.

use crate::graph::export::{self, Focus};
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
    /// Output format.
    #[arg(long, value_enum, default_value_t = GraphFormat::Dot)]
    pub format: GraphFormat,
    /// Only this tool's neighbourhood.
    #[arg(long, conflicts_with = "intent")]
    pub tool: Option<String>,
    /// Only this intent's neighbourhood.
    #[arg(long)]
    pub intent: Option<String>,
}

/// Export formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GraphFormat {
    /// Graphviz DOT.
    Dot,
    /// Mermaid flowchart.
    Mermaid,
    /// Cypher CREATE statements.
    Cypher,
}

/// Run `graph`.
pub fn run_graph(args: GraphArgs) -> u8 {
    let (g, _) = match super::compile::graph_for(&args.path, args.artifact.as_deref()) {
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
            return super::EXIT_USAGE;
        }
    };
    let out = match args.format {
        GraphFormat::Dot => export::to_dot(&nodes, &edges),
        GraphFormat::Mermaid => export::to_mermaid(&nodes, &edges),
        GraphFormat::Cypher => export::to_cypher(&nodes, &edges),
    };
    print!("{out}");
    0
}
