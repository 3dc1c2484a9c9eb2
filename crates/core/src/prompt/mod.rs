//! The generated intent-registry prompt (the Understand prompt of paper Appendix D, in our own
//! words), the "prompt-all" rendering of the whole schema that the paper's baseline sends, and
//! exact o200k_base token counting ([`tokens`]).
//!
//! The registry prompt lists intents (id and one line), parameter concepts and the tool names
//! users may say; it never contains tool or field descriptions, so it grows with intents, not
//! with fields.

pub mod tokens;

use crate::artifact::FrozenGraph;
use crate::model::normalise_alias;

/// The built-in template. Placeholders: `{{intents}}`, `{{parameter_concepts}}`,
/// `{{tool_names}}`, `{{source_types}}`, `{{qualifiers}}` (the qualifier vocabulary's keys and
/// canonical values, `none` when the project declares none).
pub const DEFAULT_TEMPLATE: &str = r#"You route questions to data tools. Reply with one JSON object only:
{"intent": <intent id or null>, "domain_concepts": [<requested properties, snake_case>], "parameters": {<parameter concept>: <value or list>}, "target_apis": [<tool ids>], "source_constraint": <source type or null>, "qualifiers": {<key>: <value>}, "excluded_apis": [], "out_of_scope": null}
Rules:
- intent: one id below; null if none fits, or if the question asks to do something rather than for data (then out_of_scope says why, all else empty).
- domain_concepts: never empty when intent is set; list every property asked for.
- parameters: only the parameter concepts below; values as written.
- target_apis: tools the user names, else []; excluded_apis: tools ruled out ("not from X").
- qualifiers named: {{qualifiers}}.
- source_constraint: the kind of source the user asks for (measured, computed, from papers), one of: {{source_types}}; else null.
- A vague question about something the intents cover still gets the closest intent.
Intents:
{{intents}}
Parameter concepts: {{parameter_concepts}}
Tools: {{tool_names}}
"#;

/// What the registry prompt is made of.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PromptInputs {
    /// (intent id, one-line description), sorted by id.
    pub intents: Vec<(String, String)>,
    /// Parameter concepts (concepts some parameter binds) with the number of parameters bound
    /// to each, sorted by id.
    pub parameter_concepts: Vec<(String, usize)>,
    /// (tool id, names users say), sorted by id.
    pub tools: Vec<(String, Vec<String>)>,
    /// Known source types.
    pub source_types: Vec<String>,
    /// Qualifier keys with their canonical values, sorted by key.
    pub qualifiers: Vec<(String, Vec<String>)>,
}

impl PromptInputs {
    /// From a compiled artifact.
    pub fn from_artifact(fg: &FrozenGraph) -> PromptInputs {
        PromptInputs {
            intents: fg
                .intents
                .iter()
                .map(|i| (i.id.clone(), i.description.clone()))
                .collect(),
            parameter_concepts: fg
                .concepts
                .iter()
                .filter_map(|c| {
                    let uses = fg.index.param_postings.get(&c.id)?;
                    Some((c.id.clone(), uses.len()))
                })
                .collect(),
            tools: fg
                .tools
                .iter()
                .map(|t| {
                    let mut names = vec![t.title.clone()];
                    names.extend(t.names.iter().cloned());
                    (t.id.clone(), names)
                })
                .collect(),
            source_types: fg.source_types.clone(),
            qualifiers: {
                let mut m: std::collections::BTreeMap<String, Vec<String>> =
                    std::collections::BTreeMap::new();
                for r in fg.index.qualifier_values.values().flatten() {
                    let v = m.entry(r.key.clone()).or_default();
                    if !v.contains(&r.value) {
                        v.push(r.value.clone());
                    }
                }
                m.into_iter()
                    .map(|(k, mut v)| {
                        v.sort();
                        (k, v)
                    })
                    .collect()
            },
        }
    }

    /// Straight from a loaded project (what `check` uses for the `prompt-budget` rule).
    pub fn from_project(
        p: &crate::model::Project,
        ix: &crate::graph::index::Index,
    ) -> PromptInputs {
        let mut intents: Vec<(String, String)> = p
            .intents
            .iter()
            .map(|i| (i.item.id.value.clone(), i.item.description.value.clone()))
            .collect();
        intents.sort();
        intents.dedup_by(|a, b| a.0 == b.0);
        let mut parameter_concepts: Vec<(String, usize)> = ix
            .params_by_concept
            .iter()
            .filter(|(c, _)| ix.concepts.contains_key(*c))
            .map(|(c, uses)| (c.clone(), uses.len()))
            .collect();
        parameter_concepts.sort();
        let mut tools: Vec<(String, Vec<String>)> = p
            .tools
            .iter()
            .map(|t| {
                let mut names: Vec<String> = t.names.iter().map(|n| n.value.clone()).collect();
                names.sort();
                names.dedup();
                names.insert(0, t.title.value.clone());
                (t.id.value.clone(), names)
            })
            .collect();
        tools.sort();
        tools.dedup_by(|a, b| a.0 == b.0);
        let mut qualifiers: Vec<(String, Vec<String>)> = p
            .qualifiers
            .iter()
            .map(|q| {
                let mut v: Vec<String> = q
                    .item
                    .values
                    .iter()
                    .map(|v| v.value.value.value.clone())
                    .collect();
                v.sort();
                v.dedup();
                (q.item.key.value.clone(), v)
            })
            .collect();
        qualifiers.sort();
        qualifiers.dedup_by(|a, b| a.0 == b.0);
        PromptInputs {
            intents,
            parameter_concepts,
            tools,
            source_types: p.source_types(),
            qualifiers,
        }
    }
}

/// Above this many parameter concepts the prompt lists only the ones most parameters bind (a
/// derived layer over hundreds of tools has hundreds); a parameter the prompt does not list is
/// still bound by its own name.
pub const MAX_LISTED_PARAMETER_CONCEPTS: usize = 60;

/// The prompt's list of parameter concepts: all of them, or the most used ones and a note.
fn parameter_list(concepts: &[(String, usize)]) -> String {
    if concepts.len() <= MAX_LISTED_PARAMETER_CONCEPTS {
        let ids: Vec<&str> = concepts.iter().map(|(c, _)| c.as_str()).collect();
        return ids.join(", ");
    }
    let mut by_use: Vec<&(String, usize)> = concepts.iter().collect();
    by_use.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut ids: Vec<&str> = by_use[..MAX_LISTED_PARAMETER_CONCEPTS]
        .iter()
        .map(|(c, _)| c.as_str())
        .collect();
    ids.sort_unstable();
    format!(
        "{}; {} more: use a tool parameter's own name",
        ids.join(", "),
        concepts.len() - MAX_LISTED_PARAMETER_CONCEPTS
    )
}

/// Above this many tools the prompt stops listing them (their names are resolved by the
/// router's name index instead), so the prompt's size depends on intents, not on tools.
pub const MAX_LISTED_TOOLS: usize = 50;

/// Render the intent-registry prompt, with the built-in template or a custom one (placeholders
/// as in [`DEFAULT_TEMPLATE`]).
pub fn render_inputs(inputs: &PromptInputs, template: Option<&str>) -> String {
    let intents: Vec<String> = inputs
        .intents
        .iter()
        .map(|(id, d)| format!("- {id}: {}", d.trim()))
        .collect();
    // Tool id and title only: other names users say are resolved by the router's name index.
    let tools: Vec<String> = inputs
        .tools
        .iter()
        .map(|(id, names)| match names.first() {
            Some(title) if normalise_alias(title) != normalise_alias(id) => {
                format!("{id} ({title})")
            }
            _ => id.clone(),
        })
        .collect();
    let tool_list = if tools.len() > MAX_LISTED_TOOLS {
        format!(
            "{} registered; copy the names the user writes, the router resolves them",
            tools.len()
        )
    } else {
        tools.join(", ")
    };
    let mut out = template
        .unwrap_or(DEFAULT_TEMPLATE)
        .replace("{{intents}}", &intents.join("\n"))
        .replace(
            "{{parameter_concepts}}",
            &parameter_list(&inputs.parameter_concepts),
        )
        .replace("{{tool_names}}", &tool_list)
        .replace("{{source_types}}", &inputs.source_types.join(", "))
        .replace("{{qualifiers}}", &{
            let q: Vec<String> = inputs
                .qualifiers
                .iter()
                .map(|(k, v)| format!("{k} ({})", v.join(", ")))
                .collect();
            if q.is_empty() {
                "none".to_string()
            } else {
                q.join("; ")
            }
        });
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// Render the intent-registry prompt of an artifact.
pub fn render(fg: &FrozenGraph, template: Option<&str>) -> String {
    render_inputs(&PromptInputs::from_artifact(fg), template)
}

/// The prompt that goes with the artifact at `artifact`: the [`crate::artifact::PROMPT_FILE`]
/// beside it, or the prompt rendered from `g` with the built-in template when there is none.
/// The second value says why a prompt file that is there was not used (not UTF-8, unreadable;
/// the rendered prompt is returned then too), for a reader that reports it (the servers).
pub fn read_beside(artifact: &std::path::Path, g: &FrozenGraph) -> (String, Option<String>) {
    let prompt_path = artifact.with_file_name(crate::artifact::PROMPT_FILE);
    let rendered = "serving the prompt rendered from the artifact instead";
    match std::fs::read(&prompt_path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => (text, None),
            Err(e) => (
                render(g, None),
                Some(format!(
                    "`{}` is not valid UTF-8 ({}); {rendered}: save it as UTF-8 or remove it",
                    prompt_path.display(),
                    e.utf8_error()
                )),
            ),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => (render(g, None), None),
        Err(e) => (
            render(g, None),
            Some(format!(
                "`{}` cannot be read ({e}); {rendered}",
                prompt_path.display()
            )),
        ),
    }
}

/// Read the project's custom template, if `[prompt] template` names one.
///
/// Errors: the file cannot be read (message names the path).
pub fn project_template(p: &crate::model::Project) -> Result<Option<String>, String> {
    let Some(t) = &p.config.prompt.template else {
        return Ok(None);
    };
    let path = p.root.join(&t.value);
    // Declarations never make the tool read outside the project.
    let inside = match (path.canonicalize(), p.root.canonicalize()) {
        (Ok(file), Ok(root)) => file.starts_with(root),
        _ => false,
    };
    if path.exists() && !inside {
        return Err(format!(
            "prompt template `{}` is outside the project folder; it is not read",
            t.value
        ));
    }
    crate::input::read_file_to_string_limited(&path, crate::input::MAX_INPUT_BYTES)
        .map(Some)
        .map_err(|e| format!("cannot read prompt template `{}`: {e}", t.value))
}

/// The "prompt-all" rendering: every tool, endpoint, parameter and field with types, units and
/// descriptions, as the paper's prompt-all baseline would send it (Appendix C).
pub fn render_prompt_all(fg: &FrozenGraph) -> String {
    let mut out = String::from(
        "You can call the following tools. Choose the tools, endpoint, parameters and response fields that answer the user's question.\n\n",
    );
    for t in &fg.tools {
        out.push_str(&format!("Tool {} ({})", t.id, t.title));
        if let Some(st) = &t.source_type {
            out.push_str(&format!(" [{st}]"));
        }
        out.push('\n');
        if let Some(d) = &t.description {
            out.push_str(&format!("  {d}\n"));
        }
        for e in &t.endpoints {
            out.push_str(&format!("  Endpoint {} {} {}\n", e.id, e.method, e.url));
            if let Some(d) = &e.description {
                out.push_str(&format!("    {d}\n"));
            }
            for p in &e.parameters {
                out.push_str(&format!(
                    "    param {}: {}{}",
                    p.name,
                    p.ty,
                    if p.required { " (required)" } else { "" }
                ));
                if !p.enum_values.is_empty() {
                    let v: Vec<String> = p.enum_values.iter().map(|s| s.to_string()).collect();
                    out.push_str(&format!(" one of {}", v.join("|")));
                }
                if let Some(d) = &p.description {
                    out.push_str(&format!(" - {d}"));
                }
                out.push('\n');
            }
            for f in &e.fields {
                out.push_str(&format!("    field {}: {}", f.name, f.ty));
                if let Some(u) = &f.unit {
                    out.push_str(&format!(" [{}]", u.canonical));
                }
                if let Some(d) = &f.description {
                    out.push_str(&format!(" - {d}"));
                }
                out.push('\n');
            }
        }
        out.push('\n');
    }
    out
}

/// Number of o200k_base tokens in `text` (exact; see [`tokens`]).
pub fn count_tokens(text: &str) -> usize {
    tokens::count(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs(n: usize) -> PromptInputs {
        PromptInputs {
            intents: vec![("electronic_property".into(), "Band gaps.".into())],
            parameter_concepts: vec![("formula".into(), 3)],
            tools: (0..n)
                .map(|i| (format!("tool_{i}"), vec![format!("Tool {i}")]))
                .collect(),
            source_types: vec!["calculated".into()],
            qualifiers: Vec::new(),
        }
    }

    #[test]
    fn parameter_concepts_are_listed_up_to_the_cap() {
        let few = vec![("b".to_string(), 1), ("a".to_string(), 2)];
        assert_eq!(parameter_list(&few), "b, a");
        let many: Vec<(String, usize)> = (0..MAX_LISTED_PARAMETER_CONCEPTS + 2)
            .map(|i| (format!("c{i:03}"), if i < 2 { 1 } else { 5 }))
            .collect();
        let listed = parameter_list(&many);
        assert!(listed.starts_with("c002, c003, "), "{listed}");
        assert!(
            !listed.contains("c000") && !listed.contains("c001,"),
            "{listed}"
        );
        assert!(
            listed.ends_with("c061; 2 more: use a tool parameter's own name"),
            "{listed}"
        );
    }

    #[test]
    fn tools_are_listed_up_to_the_cap() {
        let p = render_inputs(&inputs(2), None);
        assert!(p.ends_with("Tools: tool_0, tool_1\n"), "{p}");
        let p = render_inputs(&inputs(MAX_LISTED_TOOLS + 1), None);
        assert!(
            p.ends_with(
                "Tools: 51 registered; copy the names the user writes, the router resolves them\n"
            ),
            "{p}"
        );
    }
}
