//! Routing-cost scaling (paper Appendix C, measured rather than extrapolated): for synthetic
//! inventories of growing size made by [`crate::synth`], the tokens of the prompt-all schema
//! rendering against those of the intent-registry prompt, and Algorithm 1's latency.
//!
//! Each size is generated into a work folder, loaded and checked like any project (a check
//! error aborts the run), compiled in memory, measured, and removed unless kept.

use crate::artifact::FrozenGraph;
use crate::prompt::{self, PromptInputs, count_tokens};
use crate::route::{self, Options, Understanding};
use crate::synth::{self, GenConfig};
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// The sizes of the paper's scaling table.
pub const DEFAULT_SIZES: [usize; 7] = [19, 50, 100, 200, 500, 1000, 5000];

/// Most queries timed per size (one per intent, spread over the intents).
pub const ROUTE_QUERIES: usize = 200;

/// One inventory's measurements.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScalingRow {
    /// Row label (the tool count, or `16 (shipped)`).
    pub label: String,
    /// Tools.
    pub tools: usize,
    /// Endpoints.
    pub endpoints: usize,
    /// Response fields.
    pub fields: usize,
    /// Intents.
    pub intents: usize,
    /// Concepts.
    pub concepts: usize,
    /// Tokens of the prompt-all rendering.
    pub prompt_all_tokens: usize,
    /// Tokens of the intent-registry prompt.
    pub registry_tokens: usize,
    /// Tokens the registry prompt spends on the tool list.
    pub tool_list_tokens: usize,
    /// prompt_all_tokens / registry_tokens.
    pub ratio: f64,
    /// Median Algorithm 1 time, microseconds.
    pub route_p50_us: f64,
    /// Warnings `check` reported (errors abort the run); absent for a measured artifact.
    pub check_warnings: Option<usize>,
}

/// The scaling measurement.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScalingReport {
    /// Generator seed.
    pub seed: u64,
    /// Generator fields per tool.
    pub fields_per_tool: usize,
    /// Rows by size.
    pub rows: Vec<ScalingRow>,
}

/// One request per intent (at most [`ROUTE_QUERIES`], evenly spread): the intent and the first
/// concept of a field in its first required group.
fn probe_queries(g: &FrozenGraph) -> Vec<Understanding> {
    let step = g.intents.len().div_ceil(ROUTE_QUERIES).max(1);
    g.intents
        .iter()
        .step_by(step)
        .filter_map(|i| {
            let group = i.required_groups.first()?;
            let concept = i.candidates.iter().find_map(|t| {
                g.tool_at(*t).endpoints.iter().find_map(|e| {
                    let f = e.group_fields.get(group)?.first()?;
                    e.field_at(*f).concepts.first().cloned()
                })
            })?;
            Some(Understanding {
                intent: Some(i.id.clone()),
                domain_concepts: vec![concept],
                ..Understanding::default()
            })
        })
        .collect()
}

/// Measure one compiled inventory (`registry` is its intent-registry prompt text).
pub fn measure(
    label: &str,
    g: &FrozenGraph,
    registry: &str,
    check_warnings: Option<usize>,
) -> ScalingRow {
    let prompt_all_tokens = count_tokens(&prompt::render_prompt_all(g));
    let registry_tokens = count_tokens(registry);
    let mut no_tools = PromptInputs::from_artifact(g);
    no_tools.tools.clear();
    let without = count_tokens(&prompt::render_inputs(&no_tools, None));
    let full = count_tokens(&prompt::render(g, None));
    let mut times = Vec::new();
    for u in probe_queries(g) {
        let mut reps = Vec::with_capacity(5);
        for _ in 0..5 {
            let start = Instant::now();
            let plan = route::route(g, &u, &Options::default());
            reps.push(start.elapsed().as_secs_f64() * 1e6);
            std::hint::black_box(plan);
        }
        times.push(super::metrics::median(&reps));
    }
    ScalingRow {
        label: label.to_string(),
        tools: g.tools.len(),
        endpoints: g.tools.iter().map(|t| t.endpoints.len()).sum(),
        fields: g.field_count(),
        intents: g.intents.len(),
        concepts: g.concepts.len(),
        prompt_all_tokens,
        registry_tokens,
        tool_list_tokens: full.saturating_sub(without),
        ratio: if registry_tokens == 0 {
            0.0
        } else {
            prompt_all_tokens as f64 / registry_tokens as f64
        },
        route_p50_us: super::metrics::median(&times),
        check_warnings,
    }
}

/// Generate, check, compile and measure one size under `work` (the project folder is
/// `work/tools-N`; removed afterwards unless `keep`).
///
/// Errors: the project cannot be written or read, or `check` finds errors.
pub fn measure_size(
    tools: usize,
    seed: u64,
    fields_per_tool: usize,
    work: &Path,
    keep: bool,
) -> Result<ScalingRow, String> {
    let dir = work.join(format!("tools-{tools}"));
    if dir.exists() {
        std::fs::remove_dir_all(&dir)
            .map_err(|e| format!("cannot clear {}: {e}", dir.display()))?;
    }
    let generated = synth::generate(&GenConfig {
        tools,
        seed,
        fields_per_tool,
    });
    generated
        .write(&dir)
        .map_err(|e| format!("cannot write {}: {e}", dir.display()))?;
    let result = (|| {
        let checked = crate::compiled::check(&dir).map_err(|e| e.to_string())?;
        let errors = checked
            .diagnostics
            .iter()
            .filter(|d| d.severity == crate::diagnostics::Severity::Error)
            .count();
        if crate::compiled::refuses(&checked) {
            return Err(format!(
                "the generated {tools}-tool project has {errors} check error(s); inspect it with `schemarouter gen --tools {tools} --seed {seed} --out DIR && schemarouter check DIR`"
            ));
        }
        let warnings = checked
            .diagnostics
            .iter()
            .filter(|d| d.severity == crate::diagnostics::Severity::Warning)
            .count();
        let c =
            crate::compiled::CompiledProject::from_checked(checked).map_err(|e| e.to_string())?;
        Ok(measure(
            &tools.to_string(),
            &c.graph,
            &c.prompt,
            Some(warnings),
        ))
    })();
    if !keep {
        let _ = std::fs::remove_dir_all(&dir);
    }
    result
}

/// Measure every size in order; `progress` is called before each.
///
/// Errors: as [`measure_size`].
pub fn run(
    sizes: &[usize],
    seed: u64,
    fields_per_tool: usize,
    work: &Path,
    keep: bool,
    mut progress: impl FnMut(usize),
) -> Result<ScalingReport, String> {
    let mut rows = Vec::new();
    for &n in sizes {
        progress(n);
        rows.push(measure_size(n, seed, fields_per_tool, work, keep)?);
    }
    Ok(ScalingReport {
        seed,
        fields_per_tool,
        rows,
    })
}
