//! A human-readable rendering of a plan: why each tool and each field.

use super::{FieldReason, MatchKindName, Plan, PlanStatus};

/// Explain a plan in plain text.
pub fn explain(plan: &Plan) -> String {
    let mut out = String::new();
    let status = match plan.status {
        PlanStatus::Planned => "planned",
        PlanStatus::Partial => "partial",
        PlanStatus::MissingRequiredParameter => "missing required parameter",
        PlanStatus::NoSuitableTool => "no suitable tool",
        PlanStatus::NotUnderstood => "not understood",
    };
    out.push_str(&format!(
        "Plan: {status} (intent: {}, source: {})\n",
        plan.intent.as_deref().unwrap_or("none"),
        plan.source_constraint.as_deref().unwrap_or("any")
    ));
    for (i, s) in plan.steps.iter().enumerate() {
        out.push_str(&format!(
            "\n{}. {} {} ({} {})\n   why: {}\n",
            i + 1,
            s.tool,
            s.endpoint,
            s.method,
            s.url,
            s.why
        ));
        if s.params.is_empty() {
            out.push_str("   parameters: none\n");
        } else {
            out.push_str("   parameters:\n");
            for (k, v) in &s.params {
                out.push_str(&format!("     {k} = {v}\n"));
            }
        }
        for m in &s.missing_required {
            out.push_str(&format!("   MISSING required parameter: {m}\n"));
        }
        for a in &s.auth {
            out.push_str(&format!("   credential to supply: {a}\n"));
        }
        for u in &s.unbound {
            out.push_str(&format!("   not bound here: {u}\n"));
        }
        out.push_str("   fields:\n");
        for f in &s.fields {
            let why: Vec<String> = f
                .reasons
                .iter()
                .map(|r| match r {
                    FieldReason::Identifier => "identifier".to_string(),
                    FieldReason::Concept {
                        concept,
                        via,
                        match_kind,
                    } => {
                        let how = match match_kind {
                            MatchKindName::Exact => "exact",
                            MatchKindName::Alias => "alias",
                            MatchKindName::FieldAlias => "field alias",
                        };
                        match via {
                            Some(v) => format!("concept {concept} via \"{v}\" ({how})"),
                            None => format!("concept {concept} ({how})"),
                        }
                    }
                    FieldReason::Group { group } => format!("group {group}"),
                    FieldReason::AllFields => "all fields".to_string(),
                    FieldReason::Variant { of } => format!("variant of {of}"),
                    FieldReason::Companion { of } => format!("read with {of}"),
                    FieldReason::Asked { field_kind } => format!("asked for as a {field_kind}"),
                    FieldReason::Term { words } => format!("words {}", words.join(", ")),
                    FieldReason::Record => "whole record".to_string(),
                })
                .collect();
            let mut line = format!("     {}  <- {}", f.name, why.join("; "));
            if let Some(m) = &f.meta {
                let mut bits = Vec::new();
                if let Some(u) = &m.unit {
                    bits.push(u.to_string());
                }
                if let (Some(fac), Some(cu)) = (m.factor_to_canonical, &m.canonical_unit) {
                    match m.offset_to_canonical.filter(|o| *o != 0.0) {
                        Some(off) => {
                            let c = crate::units::Conversion {
                                factor: fac,
                                offset: off,
                            };
                            bits.push(format!("{} -> {cu}", c.describe()));
                        }
                        None if fac != 1.0 => bits.push(format!("x{fac:e} -> {cu}")),
                        None => {}
                    }
                }
                if let Some(st) = &m.source_type {
                    bits.push(st.to_string());
                }
                if let Some(l) = &m.licence {
                    bits.push(if l.verified {
                        l.spdx.to_string()
                    } else {
                        format!("{} (unverified)", l.spdx)
                    });
                }
                if !bits.is_empty() {
                    line.push_str(&format!("  [{}]", bits.join(", ")));
                }
            }
            out.push_str(&line);
            out.push('\n');
        }
    }
    if !plan.unmatched_concepts.is_empty() {
        out.push_str(&format!(
            "\nUnmatched concepts: {}\n",
            plan.unmatched_concepts.join(", ")
        ));
    }
    for s in &plan.skipped_tools {
        out.push_str(&format!(
            "Skipped named tool `{}`: {}\n",
            s.requested, s.reason
        ));
    }
    for w in &plan.warnings {
        out.push_str(&format!("Note: {w}\n"));
    }
    out
}
