//! The lexical analyzer's note that a question is about something the inventory does not hold,
//! and how a plan keeps it honest.
//!
//! Pass `entity` writes the note when one word of a concept's name is the question's only
//! evidence ("what's the traffic like on the a2 road": `like` is a field's word, `traffic a2
//! road` nothing declared explains). The analyzer cannot know what the ranked router finds for
//! the other words: when a plan's steps are about them (an endpoint whose id, description or
//! parameters hold one of them: `get_road_ids` holds `road`; or each of them is a value a step
//! takes or a field it projects: "Define serendipity" takes `serendipity` and projects
//! `definitions`), the note is not true and is dropped; when the steps are about none of them,
//! the note is true and a `planned` plan says `partial` (its steps answer another question
//! than the one asked).

use super::text::content_words;
use crate::artifact::FrozenGraph;
use crate::route::{Plan, PlanStatus};
use std::collections::HashSet;

/// The words the note ends with.
const NOT_HELD: &str = "the question is about something the inventory does not hold";

/// The note: only `word` matches a declared concept, and nothing declared explains `others`.
pub(super) fn not_held(word: &str, others: &str) -> String {
    format!(
        "only the word `{word}` matches a declared concept, and nothing declared explains `{others}`: {NOT_HELD}"
    )
}

/// The words the note says nothing declared explains; `None` for any other warning.
fn unexplained(note: &str) -> Option<&str> {
    let head = note.strip_suffix(NOT_HELD)?;
    let rest = head.split("nothing declared explains `").nth(1)?;
    rest.strip_suffix("`: ")
}

/// The content words of a step's endpoint: its tool's id, its own id and description and its
/// parameters' names (what the endpoint is about; not its response fields' names, of which a
/// large record holds many incidental words: GitHub's subscriptions carry `free_trial`).
fn endpoint_words(g: &FrozenGraph, tool: &str, endpoint: &str) -> HashSet<String> {
    let mut words = HashSet::new();
    let Some((_, t)) = g.tool(tool) else {
        return words;
    };
    let Some(e) = t.endpoints.iter().find(|e| e.id == endpoint) else {
        return words;
    };
    let mut add =
        |text: &str| words.extend(content_words(&text.replace(['_', '.', '[', ']'], " ")));
    add(&t.id);
    add(&e.id);
    add(e.description.as_deref().unwrap_or_default());
    for p in &e.parameters {
        add(&p.name);
    }
    words
}

/// The content words a step takes or projects: the values of its parameters (the word the
/// question gives, "serendipity"), and the last names of the fields it projects (what the
/// question asks for, "Define" for `definitions`; a plan's own projection, not every field of
/// a large record).
fn step_words(s: &crate::route::Step) -> HashSet<String> {
    let mut words = HashSet::new();
    for v in s.params.values() {
        if let Some(text) = v.as_str() {
            words.extend(content_words(text));
        }
    }
    for f in &s.fields {
        let last = f.name.rsplit('.').next().unwrap_or(&f.name);
        words.extend(content_words(&last.replace(['_', '[', ']'], " ")));
    }
    words
}

/// Keep a plan's "does not hold" note true (see the module documentation): dropped when a step
/// is about a word it names; kept with status `partial` (from `planned`) when none is.
pub fn settle(g: &FrozenGraph, plan: &mut Plan) {
    if plan.steps.is_empty() {
        return;
    }
    let Some(i) = plan.warnings.iter().position(|w| unexplained(w).is_some()) else {
        return;
    };
    let asked = content_words(unexplained(&plan.warnings[i]).unwrap_or_default());
    let stems_of = |words: HashSet<String>| -> HashSet<String> {
        words
            .iter()
            .flat_map(|w| crate::search::text::stems(w).collect::<Vec<_>>())
            .collect()
    };
    let about = plan.steps.iter().any(|s| {
        let words = endpoint_words(g, &s.tool, &s.endpoint);
        let stems = stems_of(words.clone());
        asked.iter().any(|w| {
            words.contains(w) || crate::search::text::stems(w).any(|st| stems.contains(&st))
        })
    });
    // A value taken is no evidence alone ("the a2 road" read into some `id`): every word must
    // be a value taken or a field projected, by the steps together.
    // Compared by the index's stems, which hold a verb and its noun as one ("define",
    // `definitions`).
    let taken: HashSet<String> = stems_of(
        plan.steps
            .iter()
            .flat_map(|s| {
                let mut words = endpoint_words(g, &s.tool, &s.endpoint);
                words.extend(step_words(s));
                words
            })
            .collect(),
    );
    // A value the question names by word and a step takes as its code ("euros" as `EUR`).
    let note = unexplained(&plan.warnings[i]).unwrap_or_default();
    let coded: HashSet<String> = crate::route::ranked::fill::named_codes(note)
        .into_iter()
        .filter(|(_, _, code)| {
            plan.steps.iter().any(|s| {
                s.params
                    .values()
                    .any(|v| v.as_str().is_some_and(|v| v.eq_ignore_ascii_case(code)))
            })
        })
        .flat_map(|(a, b, _)| stems_of(content_words(&note[a..b])))
        .collect();
    let taken: HashSet<String> = taken.union(&coded).cloned().collect();
    let answered = about
        || asked
            .iter()
            .all(|w| crate::search::text::stems(w).all(|st| taken.contains(&st)));
    if answered {
        plan.warnings.remove(i);
    } else if plan.status == PlanStatus::Planned {
        plan.status = PlanStatus::Partial;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::analyzer::testing::shipped;

    /// A plan of one step, `tool/endpoint`, with status `planned` and the one warning `note`.
    fn plan_of(g: &FrozenGraph, tool: &str, endpoint: &str, note: &str) -> Plan {
        let u = crate::route::Understanding {
            target_apis: vec![format!("{tool}/{endpoint}")],
            ..Default::default()
        };
        let mut plan = crate::route::route(g, &u, &crate::route::Options::default());
        assert_eq!(plan.steps.len(), 1, "{plan:?}");
        plan.status = PlanStatus::Planned;
        plan.warnings = vec![note.to_string()];
        plan
    }

    #[test]
    fn the_note_round_trips() {
        let n = not_held("like", "traffic a2 road");
        assert_eq!(unexplained(&n), Some("traffic a2 road"));
        assert_eq!(unexplained("no intent fits the evidence"), None);
    }

    #[test]
    fn a_step_about_the_unexplained_words_drops_the_note() {
        let g = shipped();
        let t = &g.tools[0];
        let e = &t.endpoints[0];
        // A word of the endpoint's own id is explained by the step.
        let word =
            e.id.split('_')
                .find(|w| w.len() > 3)
                .unwrap_or(&e.id)
                .to_string();
        let mut plan = plan_of(
            g,
            &t.id,
            &e.id,
            &not_held("score", &format!("weekly {word}")),
        );
        settle(g, &mut plan);
        assert!(plan.warnings.is_empty(), "{:?}", plan.warnings);
        assert_eq!(plan.status, PlanStatus::Planned);
    }

    #[test]
    fn steps_about_other_words_make_the_plan_partial() {
        let g = shipped();
        let t = &g.tools[0];
        let e = &t.endpoints[0];
        let note = not_held("score", "quidditch zeppelin");
        let mut plan = plan_of(g, &t.id, &e.id, &note);
        settle(g, &mut plan);
        assert_eq!(plan.warnings, vec![note]);
        assert_eq!(plan.status, PlanStatus::Partial);
        // No steps: nothing to settle.
        let mut empty = plan_of(g, &t.id, &e.id, "x");
        empty.steps.clear();
        settle(g, &mut empty);
        assert_eq!(empty.status, PlanStatus::Planned);
    }
}
