//! Reports of an [`EvalReport`]: an aligned text table (the default on a terminal), JSON (every
//! per-query score too) and markdown (tables and the metric definitions, for a README).

use super::EvalReport;
use super::metrics::{Ci, Count, DEFINITIONS, Summary};
use super::scaling::ScalingReport;

/// Report formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Aligned text tables.
    Text,
    /// Pretty JSON.
    Json,
    /// Markdown tables with definitions.
    Markdown,
}

fn pct(v: Option<f64>) -> String {
    v.map(|x| format!("{:.1}", 100.0 * x))
        .unwrap_or_else(|| "-".into())
}

fn pct_ci(v: Option<f64>, ci: Option<Ci>) -> String {
    match (v, ci) {
        (Some(x), Some(c)) => format!(
            "{:.1} [{:.1}, {:.1}]",
            100.0 * x,
            100.0 * c.lo,
            100.0 * c.hi
        ),
        _ => pct(v),
    }
}

fn rate(c: Count) -> String {
    pct(c.rate())
}

fn ratio(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.2}x")).unwrap_or_else(|| "-".into())
}

fn micros(us: f64) -> String {
    if us >= 10_000.0 {
        format!("{:.0} ms", us / 1000.0)
    } else if us >= 100.0 {
        format!("{us:.0} µs")
    } else {
        format!("{us:.1} µs")
    }
}

/// A table: header and rows of cells; the first column is left-aligned, the others right.
struct Table {
    head: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    fn new(head: &[&str]) -> Table {
        Table {
            head: head.iter().map(|s| s.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    fn text(&self) -> String {
        let n = self.head.len();
        let width: Vec<usize> = (0..n)
            .map(|i| {
                self.rows
                    .iter()
                    .map(|r| r[i].chars().count())
                    .chain(std::iter::once(self.head[i].chars().count()))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |cells: &[String]| {
            let mut s = String::new();
            for (i, c) in cells.iter().enumerate() {
                let pad = width[i] - c.chars().count();
                if i == 0 {
                    s.push_str(c);
                    s.push_str(&" ".repeat(pad));
                } else {
                    s.push_str("  ");
                    s.push_str(&" ".repeat(pad));
                    s.push_str(c);
                }
            }
            s.trim_end().to_string() + "\n"
        };
        let mut out = line(&self.head);
        let total: usize = width.iter().sum::<usize>() + 2 * (n.saturating_sub(1));
        out.push_str(&"-".repeat(total));
        out.push('\n');
        for r in &self.rows {
            out.push_str(&line(r));
        }
        out
    }

    fn markdown(&self) -> String {
        let mut out = format!("| {} |\n", self.head.join(" | "));
        let seps: Vec<&str> = (0..self.head.len())
            .map(|i| if i == 0 { "---" } else { "---:" })
            .collect();
        out.push_str(&format!("| {} |\n", seps.join(" | ")));
        for r in &self.rows {
            out.push_str(&format!("| {} |\n", r.join(" | ")));
        }
        out
    }
}

fn planning(r: &EvalReport) -> Table {
    let mut t = Table::new(&[
        "router",
        "tool exact",
        "field P",
        "field R",
        "field F1",
        "neg. right",
        "param valid",
        "param acc",
        "executable",
        "over-fetch",
    ]);
    for x in &r.routers {
        let s = &x.summary;
        t.rows.push(vec![
            x.router.clone(),
            pct_ci(Some(s.tool_exact), s.tool_exact_ci),
            pct_ci(s.precision, s.precision_ci),
            pct_ci(s.recall, s.recall_ci),
            pct_ci(s.f1, s.f1_ci),
            rate(s.negative_right),
            rate(s.param_validity),
            rate(s.param_accuracy),
            rate(s.executable),
            ratio(s.over_fetch),
        ]);
    }
    t
}

fn downstream(r: &EvalReport) -> Table {
    let mut t = Table::new(&[
        "router",
        "unit",
        "provenance",
        "source match",
        "licence",
        "ctx tokens",
        "latency p50",
        "latency p95",
        "errors",
    ]);
    for x in &r.routers {
        let s = &x.summary;
        t.rows.push(vec![
            x.router.clone(),
            rate(s.unit),
            rate(s.provenance),
            rate(s.source_match),
            rate(s.licence),
            format!("{:.1}", s.context_tokens_mean),
            micros(s.latency_p50_us),
            micros(s.latency_p95_us),
            s.errors.to_string(),
        ]);
    }
    t
}

fn by_category(r: &EvalReport, cell: impl Fn(&Summary) -> String) -> Table {
    let mut head = vec!["category".to_string(), "n".to_string()];
    head.extend(r.routers.iter().map(|x| x.router.clone()));
    let mut t = Table {
        head,
        rows: Vec::new(),
    };
    for (c, n) in &r.run.categories {
        let mut row = vec![c.clone(), n.to_string()];
        for x in &r.routers {
            row.push(
                x.categories
                    .iter()
                    .find(|(k, _)| k == c)
                    .map(|(_, s)| cell(s))
                    .unwrap_or_else(|| "-".into()),
            );
        }
        t.rows.push(row);
    }
    t
}

fn run_line(r: &EvalReport) -> String {
    let i = &r.run;
    format!(
        "benchmark {} (inventory {}): {} queries, {} negative; artifact {} (routing fingerprint {}); --from {}; seed {} (bootstrap B = {}, fixture values); latency = median of {} timed runs per query{}",
        i.bench,
        i.inventory,
        i.queries,
        i.negative_queries,
        i.artifact,
        i.routing_fingerprint,
        i.mode.as_str(),
        i.seed,
        i.resamples,
        i.repeats,
        i.llm_model
            .as_ref()
            .map(|m| format!("; prompt-all model {m}"))
            .unwrap_or_default(),
    ) + &unknown_note(r)
}

/// `; N gold references unknown to the artifact ...` when there are any, else nothing.
fn unknown_note(r: &EvalReport) -> String {
    let u = &r.run.unknown_gold_references;
    if u.is_empty() {
        return String::new();
    }
    let mut queries: Vec<&str> = u.iter().map(|x| x.query.as_str()).collect();
    queries.dedup();
    const SHOWN: usize = 10;
    let mut list = queries[..queries.len().min(SHOWN)].join(", ");
    if queries.len() > SHOWN {
        list.push_str(&format!(" and {} more", queries.len() - SHOWN));
    }
    format!(
        "; {} gold reference{} unknown to the artifact, in {} quer{} ({list}): their scores do not measure routing",
        u.len(),
        if u.len() == 1 { "" } else { "s" },
        queries.len(),
        if queries.len() == 1 { "y" } else { "ies" },
    )
}

/// The text report.
pub fn text(r: &EvalReport) -> String {
    let mut out = run_line(r);
    out.push_str("\n\nPlanning quality (percent; [95% bootstrap CI])\n");
    out.push_str(&planning(r).text());
    out.push_str("\nMetadata completeness and cost (percent; tokens per query, mean)\n");
    out.push_str(&downstream(r).text());
    out.push_str("\nField F1 by category (percent)\n");
    out.push_str(&by_category(r, |s| pct(s.f1)).text());
    out.push_str("\nTool exact by category (percent)\n");
    out.push_str(&by_category(r, |s| pct(Some(s.tool_exact))).text());
    out
}

/// The JSON report (every per-query score included).
pub fn json(r: &EvalReport) -> String {
    let mut s = serde_json::to_string_pretty(r).unwrap_or_default();
    s.push('\n');
    s
}

/// The markdown report: run facts, routers, the four tables and the metric definitions.
pub fn markdown(r: &EvalReport) -> String {
    let mut out = format!("{}.\n\n", capital(&run_line(r)));
    out.push_str("Routers:\n\n");
    for x in &r.routers {
        out.push_str(&format!("- `{}`: {}\n", x.router, x.description));
    }
    out.push_str("\n**Planning quality** (percent, 95% bootstrap CI in brackets)\n\n");
    out.push_str(&planning(r).markdown());
    out.push_str("\n**Metadata completeness and cost** (percent; retrieved-context tokens per query, mean)\n\n");
    out.push_str(&downstream(r).markdown());
    out.push_str("\n**Field F1 by category** (percent; `-` where undefined: no gold and no planned fields)\n\n");
    out.push_str(&by_category(r, |s| pct(s.f1)).markdown());
    out.push_str("\n**Tool exact by category** (percent)\n\n");
    out.push_str(&by_category(r, |s| pct(Some(s.tool_exact))).markdown());
    out.push_str("\n**Definitions**\n\n");
    for (k, v) in DEFINITIONS {
        out.push_str(&format!("- *{k}*: {v}.\n"));
    }
    out
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

fn scaling_table(r: &ScalingReport) -> Table {
    let mut t = Table::new(&[
        "tools",
        "endpoints",
        "fields",
        "intents",
        "concepts",
        "prompt-all tokens",
        "registry tokens",
        "of which tool list",
        "ratio",
        "route p50",
    ]);
    for row in &r.rows {
        t.rows.push(vec![
            row.label.clone(),
            row.endpoints.to_string(),
            row.fields.to_string(),
            row.intents.to_string(),
            row.concepts.to_string(),
            row.prompt_all_tokens.to_string(),
            row.registry_tokens.to_string(),
            row.tool_list_tokens.to_string(),
            format!("{:.1}x", row.ratio),
            micros(row.route_p50_us),
        ]);
    }
    t
}

fn scaling_line(r: &ScalingReport) -> String {
    format!(
        "Routing-prompt cost by inventory size: synthetic inventories from `schemarouter gen --tools N --seed {} --fields {}`, checked (0 errors) and compiled; tokens are o200k_base; route p50 = median Algorithm 1 time over one query per intent (at most {})",
        r.seed,
        r.fields_per_tool,
        super::scaling::ROUTE_QUERIES
    )
}

/// The scaling report as text.
pub fn scaling_text(r: &ScalingReport) -> String {
    format!("{}\n\n{}", scaling_line(r), scaling_table(r).text())
}

/// The scaling report as markdown.
pub fn scaling_markdown(r: &ScalingReport) -> String {
    format!(
        "{}.\n\n{}\n*prompt-all tokens*: the whole schema rendered as the prompt-all baseline sends it (every tool, endpoint, parameter and field with types, units and descriptions). *registry tokens*: the generated intent-registry prompt SchemaRouter's Understand step sends (intents, parameter concepts, tool ids); *of which tool list*: the part spent on listing tool ids and titles. *ratio*: prompt-all / registry.\n",
        scaling_line(r),
        scaling_table(r).markdown()
    )
}

/// The scaling report as JSON.
pub fn scaling_json(r: &ScalingReport) -> String {
    let mut s = serde_json::to_string_pretty(r).unwrap_or_default();
    s.push('\n');
    s
}
