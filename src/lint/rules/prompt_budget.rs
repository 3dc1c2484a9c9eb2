//! # prompt-budget (SR601)
//!
//! ## What it finds
//! The generated intent-registry prompt (the Understand step's prompt: intents, parameter
//! concepts and tool names) is larger than the token budget, counted with the o200k_base
//! tokenizer. The budget is `prompt-budget` under `[lint]` in `schemarouter.toml` (default 600).
//!
//! ## Why it matters for routing
//! The paper's point is that routing cost stays small and flat (about 360 tokens for 13 intents)
//! while the prompt-all baseline grows with every field. A registry prompt over budget gives that
//! advantage away on every query.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: schemarouter.toml
//! [lint]
//! prompt-budget = 100
//! # file: intents/a.yaml
//! domains:
//!   - id: materials_property
//! intents:
//!   - id: electronic_property
//!     description: Band gap, Fermi level and other electronic properties of a material.
//!     domains: [materials_property]
//!     required_groups: []
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/a.yaml
//! domains:
//!   - id: materials_property
//! intents:
//!   - id: electronic_property
//!     description: Band gap, Fermi level and other electronic properties of a material.
//!     domains: [materials_property]
//!     required_groups: []
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};

/// Budget when the configuration sets none.
pub const DEFAULT_BUDGET: u32 = 600;

/// See the module documentation.
pub struct PromptBudget;

impl Rule for PromptBudget {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        let Some(tokens) = ctx.prompt_tokens else {
            return;
        };
        let cfg = ctx.project.config.lint.prompt_budget.as_ref();
        let budget = cfg.map(|b| b.value).unwrap_or(DEFAULT_BUDGET);
        if tokens as u64 <= budget as u64 {
            return;
        }
        let msg = format!(
            "the intent-registry prompt is {tokens} tokens, over the budget of {budget} ({} intents, {} tools)",
            ctx.project.intents.len(),
            ctx.project.tools.len()
        );
        let d = match (ctx.project.config_file, cfg) {
            (Some(f), Some(b)) => out.report(f, b.span, msg).label("budget set here"),
            _ => out.report_project(msg),
        };
        d.fix("shorten intent descriptions, merge intents, or raise `prompt-budget` under [lint]");
    }
}
