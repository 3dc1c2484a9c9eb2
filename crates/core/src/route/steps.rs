//! Algorithm 1, lines 6-8, for one planned tool: project the endpoint's fields (identifiers ∪
//! concept matches ∪ what the projection variant adds), bind the parameters (one step per value
//! where the tool's parameter takes one), and attach unit, source type, licence and provenance;
//! then, over all steps, the plan's unmatched concepts and qualifiers and its status.

use super::algorithm::{
    Options, Projection, QualStatus, bind_parameters, field_meta, qual_status, value_variants,
};
use super::candidates::Request;
use super::ranges;
use super::ranking::Scored;
use super::variants;
use super::{
    FieldReason, MatchKindName, McpCall, Plan, PlanStatus, PlannedField, Step, Understanding,
    UnmatchedQualifier,
};
use crate::artifact::{EndpointData, FrozenGraph, ToolData};
use std::collections::{BTreeMap, BTreeSet};

/// What the planned steps covered, across steps: requested concept indices with a projected
/// field, requested qualifier indices some projected field carries.
#[derive(Default)]
pub(super) struct Tally {
    covered: BTreeSet<usize>,
    qual_met: BTreeSet<usize>,
}

/// What every step of one plan is made from: the artifact, the Understanding, the options and
/// the resolved request.
pub(super) struct Inputs<'a> {
    pub(super) g: &'a FrozenGraph,
    pub(super) u: &'a Understanding,
    pub(super) opts: &'a Options,
    pub(super) rq: &'a Request,
}

/// Plan one ranked tool (its position `rank` among `n_candidates`): project, bind, attach, and
/// push its steps onto the plan.
pub(super) fn emit(
    cx: &Inputs<'_>,
    (rank, n_candidates): (usize, usize),
    scored: Scored,
    plan: &mut Plan,
    tally: &mut Tally,
) {
    let Inputs { g, u, opts, rq } = *cx;
    let (ti, ranked, matches) = scored;
    let ei = ranked.endpoint;
    let t = g.tool_at(ti);
    let e = t.endpoint_at(ei);
    let mut reasons: BTreeMap<u32, Vec<FieldReason>> = BTreeMap::new();
    for f in &e.identifiers {
        reasons.entry(*f).or_default().push(FieldReason::Identifier);
    }
    let mut step_covered: BTreeSet<usize> = BTreeSet::new();
    for (ri, hit) in matches.get(&ei).into_iter().flatten() {
        if !hit.fields.is_empty() {
            tally.covered.insert(*ri);
            step_covered.insert(*ri);
        }
        for (f, why) in &hit.fields {
            for (qi, q) in rq.quals.iter().enumerate() {
                if qual_status(g, e.field_at(*f), q) == QualStatus::Match {
                    tally.qual_met.insert(qi);
                }
            }
            let v = reasons.entry(*f).or_default();
            if !v.contains(why) {
                v.push(why.clone());
            }
        }
    }
    if opts.projection == Projection::Core {
        for (ri, r) in rq.req.iter().enumerate() {
            if step_covered.contains(&ri) {
                continue;
            }
            let found = stand_ins(g, ti, ei, rq, &r.concepts);
            if found.is_empty() {
                continue;
            }
            tally.covered.insert(ri);
            step_covered.insert(ri);
            for (f, concept) in found {
                reasons.entry(f).or_default().push(FieldReason::Concept {
                    concept,
                    via: Some(r.text.clone()),
                    match_kind: MatchKindName::Alias,
                });
            }
        }
    }
    if opts.projection == Projection::Core {
        // A concept the step does not publish is answered by its companions where they are
        // published (a collective name by the concepts it covers, a label by its value).
        for (ri, f, of) in companions(g, ti, ei, rq, &reasons) {
            tally.covered.insert(ri);
            step_covered.insert(ri);
            reasons
                .entry(f)
                .or_default()
                .push(FieldReason::Companion { of });
        }
    }
    let net = step_covered.len() < rq.req.len() || rq.req.is_empty();
    project(g, e, rq, opts.projection, net, &mut reasons);
    let fields: Vec<PlannedField> = reasons
        .into_iter()
        .map(|(fi, reasons)| {
            let fd = e.field_at(fi);
            PlannedField {
                name: fd.name.clone(),
                identifier: fd.identifier,
                meta: opts.metadata.then(|| field_meta(g, t, fd, &reasons)),
                reasons,
            }
        })
        .collect();
    let why = step_why(rq, plan, rank, n_candidates, ranked.score, ranked.qual);
    step_warnings(t, e, rq, &fields, step_covered.is_empty(), plan);
    // Several values of one parameter concept: one step with the list where the tool's
    // parameter takes one, one step per value otherwise.
    let (variants, multi) = value_variants(g, ti, ei, u);
    plan.multi_values.extend(multi);
    for vu in variants {
        let (mut params, missing, auth, unbound, mut warnings) = bind_parameters(g, ti, ei, &vu);
        let step = format!("{}/{}", t.id, e.id);
        warnings.extend(ranges::bind(g, e, &step, &vu.ranges, &mut params));
        for w in warnings {
            push_once(plan, w);
        }
        plan.steps.push(Step {
            tool: t.id.clone(),
            endpoint: e.id.clone(),
            method: e.method.clone(),
            url: e.url.clone(),
            call: e.mcp_tool.as_ref().map(|name| McpCall {
                name: name.clone(),
                arguments: params.clone(),
            }),
            records: e.records.clone(),
            params,
            missing_required: missing,
            auth,
            unbound,
            fields: fields.clone(),
            score: ranked.score,
            rank_score: None,
            why: why.clone(),
        });
    }
}

/// Line 6: what the projection variant adds to the identifiers and concept matches. `net` says
/// whether the `core` safety net applies (some requested concept unmatched on this step, or
/// none requested).
fn project(
    g: &FrozenGraph,
    e: &EndpointData,
    rq: &Request,
    projection: Projection,
    net: bool,
    reasons: &mut BTreeMap<u32, Vec<FieldReason>>,
) {
    if projection == Projection::Core {
        add_variants(g, e, rq, reasons);
    }
    match projection {
        Projection::Recall => {
            for gid in &rq.groups {
                for f in e.group_fields.get(gid).into_iter().flatten() {
                    reasons
                        .entry(*f)
                        .or_default()
                        .push(FieldReason::Group { group: gid.clone() });
                }
            }
        }
        // The safety net, only where it is needed: the core fields of the intent's groups (a
        // group the question names as a whole is added after, `every::add_group`).
        Projection::Core if net => {
            for gid in &rq.groups {
                let core = g
                    .groups
                    .binary_search_by(|x| x.id.as_str().cmp(gid))
                    .ok()
                    .map(|i| &g.groups[i].core);
                let (Some(fs), Some(core)) = (e.group_fields.get(gid), core) else {
                    continue;
                };
                // A group that declares no core keeps the whole group (the recall
                // projection's behaviour; rule group-without-core flags it).
                for f in fs {
                    let fd = e.field_at(*f);
                    if (core.is_empty() || fd.concepts.iter().any(|c| core.contains(c)))
                        && !rq
                            .quals
                            .iter()
                            .any(|q| qual_status(g, fd, q) == QualStatus::Contradict)
                    {
                        reasons
                            .entry(*f)
                            .or_default()
                            .push(FieldReason::Group { group: gid.clone() });
                    }
                }
            }
        }
        Projection::Core | Projection::Minimal => {}
        Projection::All => {
            for f in 0..e.fields.len() as u32 {
                reasons.entry(f).or_default().push(FieldReason::AllFields);
            }
        }
    }
}

/// The `core` projection's companions: the fields of the concepts a requested concept declares
/// it is read with (`companions`: the value behind a label, the parts of a collective name, the
/// variants a question often leaves open) that this endpoint publishes and no requested
/// qualifier contradicts, each with what it comes with (the field projected for the requested
/// concept, or the concept's id where the endpoint does not publish it), with the index of the
/// requested concept. Fields already projected stay as they are.
fn companions(
    g: &FrozenGraph,
    ti: u32,
    ei: u32,
    rq: &Request,
    reasons: &BTreeMap<u32, Vec<FieldReason>>,
) -> Vec<(usize, u32, String)> {
    let e = g.tool_at(ti).endpoint_at(ei);
    let mut out: Vec<(usize, u32, String)> = Vec::new();
    let requested = rq
        .req
        .iter()
        .enumerate()
        .flat_map(|(ri, r)| r.concepts.iter().map(move |c| (ri, c)));
    for (ri, c) in requested {
        let Some(cd) = g.concept(c) else { continue };
        // The field projected for the requested concept, when the endpoint publishes one.
        let of = reasons
            .iter()
            .find(|(_, why)| {
                why.iter()
                    .any(|w| matches!(w, FieldReason::Concept { concept, .. } if concept == c))
            })
            .map_or_else(|| c.clone(), |(f, _)| e.field_at(*f).name.clone());
        for k in &cd.companions {
            let postings = g.index.concept_postings.get(k).into_iter().flatten();
            for p in postings.filter(|p| p.tool == ti && p.endpoint == ei) {
                let fd = e.field_at(p.field);
                if reasons.contains_key(&p.field)
                    || out.iter().any(|(_, f, _)| *f == p.field)
                    || rq
                        .quals
                        .iter()
                        .any(|q| qual_status(g, fd, q) == QualStatus::Contradict)
                {
                    continue;
                }
                out.push((ri, p.field, of.clone()));
            }
        }
    }
    out
}

/// The `core` projection's stand-ins for a requested concept the endpoint does not publish as
/// such: the fields of its narrower concepts (declared ids that extend its id, of its
/// dimension: `bulk_modulus_voigt` for `bulk_modulus` on a tool that publishes only the Voigt
/// average) that no requested qualifier contradicts, with the narrower concept's id. The tool
/// gives the value only in its variants; the question is answered with them, not with the
/// intent's groups.
fn stand_ins(
    g: &FrozenGraph,
    ti: u32,
    ei: u32,
    rq: &Request,
    concepts: &[String],
) -> Vec<(u32, String)> {
    let e = g.tool_at(ti).endpoint_at(ei);
    let mut out: Vec<(u32, String)> = Vec::new();
    for c in concepts {
        let Some(cd) = g.concept(c) else { continue };
        let prefix = format!("{c}_");
        let (Ok(start) | Err(start)) = g
            .concepts
            .binary_search_by(|x| x.id.as_str().cmp(prefix.as_str()));
        for n in g.concepts[start..]
            .iter()
            .take_while(|n| n.id.starts_with(&prefix))
            .filter(|n| n.kind == cd.kind && n.dimension == cd.dimension && n.unit == cd.unit)
        {
            let postings = g.index.concept_postings.get(&n.id).into_iter().flatten();
            for p in postings.filter(|p| p.tool == ti && p.endpoint == ei) {
                let fd = e.field_at(p.field);
                if rq
                    .quals
                    .iter()
                    .any(|q| qual_status(g, fd, q) == QualStatus::Contradict)
                    || out.iter().any(|(f, _)| *f == p.field)
                {
                    continue;
                }
                out.push((p.field, n.id.clone()));
            }
        }
        if out.is_empty() {
            out.extend(per_count_stand_ins(g, e, rq, cd));
        }
    }
    out
}

/// The stand-ins for a value asked per count (per atom, per formula unit) on an endpoint that
/// publishes it only for the whole cell: the cell value ([`variants::whole_cell_value`]) and the
/// count of the basis ([`variants::counts`]), both kept, so the reader can divide; none unless
/// both are there.
fn per_count_stand_ins(
    g: &FrozenGraph,
    e: &EndpointData,
    rq: &Request,
    cd: &crate::artifact::ConceptData,
) -> Vec<(u32, String)> {
    let Some((quantity, basis)) = cd.dimension.as_deref().and_then(variants::per_count) else {
        return Vec::new();
    };
    let text = |c: &str| {
        g.concept(c).map_or_else(
            || c.to_string(),
            |d| {
                let mut t = d.id.clone();
                d.aliases.values().flatten().for_each(|a| {
                    t.push(' ');
                    t.push_str(a);
                });
                t
            },
        )
    };
    let open = |fd: &crate::artifact::FieldData| {
        !rq.quals
            .iter()
            .any(|q| qual_status(g, fd, q) == QualStatus::Contradict)
    };
    let mut values = Vec::new();
    let mut count = Vec::new();
    for (i, fd) in e.fields.iter().enumerate() {
        let own = || {
            fd.concepts
                .first()
                .cloned()
                .unwrap_or_else(|| cd.id.clone())
        };
        if variants::whole_cell_value(fd, &cd.id, quantity) && open(fd) {
            values.push((i as u32, own()));
        } else if variants::counts(fd, basis, &text) {
            count.push((i as u32, own()));
        }
    }
    if values.is_empty() || count.is_empty() {
        return Vec::new();
    }
    values.extend(count);
    values
}

/// The `core` projection's variants: beside each field projected for a requested concept, the
/// fields that publish the same value another way ([`variants::is_variant`]), unless a requested
/// qualifier rules them out.
fn add_variants(
    g: &FrozenGraph,
    e: &EndpointData,
    rq: &Request,
    reasons: &mut BTreeMap<u32, Vec<FieldReason>>,
) {
    // The fields matched for a requested concept, with the words the request used.
    let matched: Vec<(u32, String)> = reasons
        .iter()
        .filter_map(|(f, why)| {
            why.iter().find_map(|w| match w {
                FieldReason::Concept { concept, via, .. } => {
                    Some((*f, via.clone().unwrap_or_else(|| concept.clone())))
                }
                _ => None,
            })
        })
        .collect();
    for (f, asked) in matched {
        let fd = e.field_at(f);
        for (gi, gd) in e.fields.iter().enumerate() {
            let gi = gi as u32;
            if reasons.contains_key(&gi)
                || rq
                    .quals
                    .iter()
                    .any(|q| qual_status(g, gd, q) == QualStatus::Contradict)
            {
                continue;
            }
            let of = fd.name.clone();
            if variants::named_by(fd, gd) {
                reasons
                    .entry(gi)
                    .or_default()
                    .push(FieldReason::Companion { of });
            } else if variants::is_variant(fd, gd) && !variants::chosen_over(fd, gd, &asked) {
                reasons
                    .entry(gi)
                    .or_default()
                    .push(FieldReason::Variant { of });
            }
        }
    }
}

/// The step's `why`: named, or its rank among the candidates, with the qualifiers carried.
fn step_why(
    rq: &Request,
    plan: &Plan,
    rank: usize,
    n_candidates: usize,
    score: u32,
    qual: u32,
) -> String {
    if rq.has_named {
        return "named in the request".to_string();
    }
    let mut why = format!(
        "rank {} of {n_candidates} candidate(s) for intent `{}` (score {score})",
        rank + 1,
        plan.intent.as_deref().unwrap_or("-")
    );
    if !rq.quals.is_empty() {
        let wanted: Vec<String> = rq
            .quals
            .iter()
            .map(|q| format!("{} = {}", q.key, q.value))
            .collect();
        why.push_str(&format!(
            "; {qual} of {} requested qualifier(s) carried ({})",
            rq.quals.len(),
            wanted.join(", ")
        ));
    }
    why
}

/// Warnings a step earns: it writes; nothing selects a field to project; a named tool declares
/// no field for any requested concept.
fn step_warnings(
    t: &ToolData,
    e: &EndpointData,
    rq: &Request,
    fields: &[PlannedField],
    nothing_covered: bool,
    plan: &mut Plan,
) {
    // Say so when a step writes (its annotations, or `PUT`, `PATCH`, `DELETE`): a plan is
    // for fetching, and carrying this one out changes data.
    let http_write = matches!(e.method.as_str(), "PUT" | "PATCH" | "DELETE");
    if e.writes || http_write {
        let how = if http_write {
            format!("HTTP {}", e.method)
        } else {
            "annotated as not read-only".to_string()
        };
        push_once(
            plan,
            format!(
                "`{}/{}` changes data ({how}): carrying out this plan writes; confirm before running it",
                t.id, e.id
            ),
        );
    }
    // A named tool with no requested concept: nothing selects a field to project.
    if fields.is_empty() && !e.fields.is_empty() && rq.req.is_empty() {
        push_once(
            plan,
            format!(
                "no concept of the request selects a field of `{}/{}`, so none is projected ({} field(s) with the projection `all`)",
                t.id,
                e.id,
                e.fields.len()
            ),
        );
    }
    // A named tool that declares no field for any requested concept: its step fetches
    // identifiers (and group core fields) only; say so rather than plan a silent call.
    if rq.has_named && !rq.req.is_empty() && nothing_covered {
        let wanted: Vec<String> = rq.req.iter().map(|r| format!("`{}`", r.text)).collect();
        push_once(
            plan,
            format!(
                "`{}/{}` was named, but declares no field for {}; its step fetches {}",
                t.id,
                e.id,
                wanted.join(", "),
                if fields.iter().all(|f| f.identifier) {
                    "identifiers only"
                } else {
                    "only the core fields of the intent's groups"
                }
            ),
        );
    }
}

fn push_once(plan: &mut Plan, w: String) {
    if !plan.warnings.contains(&w) {
        plan.warnings.push(w);
    }
}

/// After every step: the requested concepts no step covers, the requested qualifiers no planned
/// field carries (with the reason), and the plan's status.
pub(super) fn finish(rq: &Request, tally: &Tally, plan: &mut Plan) {
    for (ri, r) in rq.req.iter().enumerate() {
        if !tally.covered.contains(&ri) {
            plan.unmatched_concepts.push(r.text.clone());
        }
    }
    for (qi, q) in rq.quals.iter().enumerate() {
        if tally.qual_met.contains(&qi) {
            continue;
        }
        let reason = if !q.known {
            format!(
                "`{}` is not a declared value of qualifier `{}`; no field is known to carry it",
                q.value, q.key
            )
        } else if plan.steps.is_empty() {
            "no step was planned".to_string()
        } else {
            format!(
                "no planned field carries {} = {}; the concept's fields are projected whatever their {}",
                q.key, q.value, q.key
            )
        };
        plan.unmatched_qualifiers.push(UnmatchedQualifier {
            key: q.key.clone(),
            value: q.value.clone(),
            reason,
        });
    }
    plan.status = if plan.steps.is_empty() {
        PlanStatus::NoSuitableTool
    } else if plan.steps.iter().any(|s| !s.missing_required.is_empty()) {
        PlanStatus::MissingRequiredParameter
    } else if !plan.unmatched_concepts.is_empty() || !plan.skipped_tools.is_empty() {
        PlanStatus::Partial
    } else {
        PlanStatus::Planned
    };
}

#[cfg(test)]
mod tests {
    use crate::route::analyzer::testing::planned_for;
    use serde_json::json;

    /// The fields planned on `tool` for `concepts` asked of `formula` under `intent`.
    fn on(tool: &str, intent: &str, concepts: &[&str]) -> Vec<String> {
        asked(tool, intent, concepts, "")
    }

    /// [`on`], for the question `q`.
    fn asked(tool: &str, intent: &str, concepts: &[&str], q: &str) -> Vec<String> {
        let u = json!({
            "intent": intent,
            "domain_concepts": concepts,
            "parameters": {"formula": "CuO"},
            "target_apis": [tool],
            "source_constraint": null,
        });
        let plan = planned_for(q, u);
        assert_eq!(plan.len(), 1, "{plan:?}");
        assert_eq!(plan[0].0, tool);
        plan[0].1.clone()
    }

    #[test]
    fn a_label_is_read_with_the_value_behind_it() {
        // A yes/no with the number it is decided by.
        assert_eq!(
            on("materials_project", "electronic_property", &["is_metal"]),
            ["band_gap", "is_gap_direct", "is_metal"]
        );
        assert_eq!(
            on(
                "materials_project",
                "thermodynamic_stability",
                &["is_stable"]
            ),
            ["energy_above_hull", "is_stable"]
        );
        // OQMD publishes no yes/no: its hull distance answers it (no safety net of the group's
        // core fields is needed).
        assert_eq!(
            on("oqmd", "thermodynamic_stability", &["is_stable"]),
            ["stability"]
        );
        // A label with the value it classifies.
        assert_eq!(
            on(
                "materials_project",
                "magnetic_property",
                &["magnetic_ordering"]
            ),
            ["ordering", "total_magnetization"]
        );
        // A tool that publishes no field of the label itself is read through the companions.
        assert_eq!(
            on("aflow", "electronic_property", &["is_metal"]),
            ["Egap", "Egap_type"]
        );
    }

    #[test]
    fn a_value_told_apart_by_an_omitted_qualifier_keeps_its_variants() {
        // "mass" without "average" or "monoisotopic": every mass PubChem publishes.
        assert_eq!(
            on("pubchem", "chemical_compound_lookup", &["molecular_weight"]),
            ["ExactMass", "MolecularWeight", "MonoisotopicMass"]
        );
        // A moment per cell, per volume or per site: each where the question does not say.
        assert_eq!(
            on("aflow", "magnetic_property", &["magnetic_moment"]),
            ["spinD", "spin_atom", "spin_cell"]
        );
        // A question that names the variant gets that one.
        assert_eq!(
            on(
                "pubchem",
                "chemical_compound_lookup",
                &["monoisotopic_mass"]
            ),
            ["MonoisotopicMass"]
        );
        // Materials records publish no molecular mass variant: nothing is added.
        assert_eq!(
            on(
                "materials_project",
                "thermodynamic_stability",
                &["formation_energy"]
            ),
            ["formation_energy_per_atom"]
        );
    }

    #[test]
    fn a_group_named_as_a_whole_keeps_the_group() {
        // No concept but the intent, and a word that names the group as a whole: "the elastic
        // properties of WC", "AFLOW's thermal data", "magnetic stuff".
        let elastic = "the elastic properties of WC";
        assert_eq!(
            asked("materials_project", "mechanical_property", &[], elastic),
            [
                "bulk_modulus.reuss",
                "bulk_modulus.voigt",
                "bulk_modulus.vrh",
                "homogeneous_poisson",
                "shear_modulus.reuss",
                "shear_modulus.voigt",
                "shear_modulus.vrh",
                "universal_anisotropy"
            ]
        );
        assert_eq!(
            asked(
                "aflow",
                "thermodynamic_stability",
                &[],
                "pull the AGL thermal data of Si"
            ),
            [
                "agl_debye",
                "agl_heat_capacity_Cp_300K",
                "agl_thermal_conductivity_300K",
                "energy_atom",
                "energy_cell",
                "enthalpy_formation_atom",
                "enthalpy_formation_cell"
            ]
        );
        assert_eq!(
            asked(
                "jarvis_dft",
                "magnetic_property",
                &[],
                "magnetic stuff for Fe in jarvis"
            ),
            ["magmom_oszicar", "magmom_outcar"]
        );
        // Without such a word ("pyrite?", "papers on perovskites"): the group's core fields.
        assert_eq!(
            asked("materials_project", "electronic_property", &[], "pyrite?"),
            ["band_gap", "is_metal"]
        );
        // A group of descriptive fields (a literature search) keeps its core fields.
        assert_eq!(
            asked(
                "crossref",
                "literature_search",
                &[],
                "papers with data on perovskites"
            ),
            ["title"]
        );
        // An intent of several groups keeps their core fields.
        assert_eq!(
            asked("pubchem", "chemical_compound_lookup", &[], "caffeine data"),
            ["IUPACName", "MolecularFormula", "MolecularWeight"]
        );
        // A concept of the group asked: its fields, not the group.
        assert_eq!(
            on("jarvis_dft", "mechanical_property", &["bulk_modulus"]),
            ["bulk_modulus_kv"]
        );
    }

    #[test]
    fn concepts_read_from_the_query_by_their_synonyms() {
        use crate::route::analyzer::testing::planned_fields;
        let has = |q: &str, tool: &str, want: &[&str]| {
            let plan = planned_fields(q);
            let step = plan.iter().find(|(t, _)| t == tool);
            let fields = &step.unwrap_or_else(|| panic!("{q}: {plan:?}")).1;
            for f in want {
                assert!(
                    fields.contains(&f.to_string()),
                    "{q}: {f} not in {fields:?}"
                );
            }
        };
        // "on the convex hull" is stability; the hull distance comes with it.
        has(
            "is LiFePO4 on the convex hull according to the Materials Project?",
            "materials_project",
            &["is_stable", "energy_above_hull"],
        );
        has("OQMD: is NaCl on convex hull?", "oqmd", &["stability"]);
        // "metal or semiconductor" asks whether it is a metal, read with the gap.
        has(
            "GaAs in MP - metal or semiconductor?",
            "materials_project",
            &["is_metal", "band_gap"],
        );
        // The kind of calculation behind a value.
        has(
            "NOMAD band gaps of GaN and what kind of calculation gave each",
            "nomad",
            &["results.method.method_name"],
        );
        // "how hard": no source publishes a hardness; the moduli it is estimated from answer.
        has(
            "how hard is boron carbide B4C in the materials project",
            "materials_project",
            &["bulk_modulus.vrh", "shear_modulus.vrh"],
        );
    }

    #[test]
    fn a_collective_name_keeps_the_fields_it_covers() {
        // "The lattice parameters": the lengths and the angles, wherever a tool publishes them.
        assert_eq!(
            on("cod", "crystal_structure", &["lattice_parameters"]),
            ["a", "alpha", "b", "beta", "c", "gamma"]
        );
        assert_eq!(
            on("jarvis_dft", "crystal_structure", &["lattice_parameters"]),
            ["atoms.abc", "atoms.angles"]
        );
        // "Its composition": the formula and the elements; no field carries the name itself.
        assert_eq!(
            on("materials_project", "crystal_structure", &["composition"]),
            ["elements", "formula_pretty"]
        );
    }

    #[test]
    fn a_companion_asked_for_itself_keeps_its_own_reason() {
        let u = json!({
            "intent": "electronic_property",
            "domain_concepts": ["is_metal", "band_gap"],
            "parameters": {"formula": "CuO"},
            "target_apis": ["materials_project"],
            "source_constraint": null,
        });
        let g = crate::route::analyzer::testing::shipped();
        let plan = crate::route::route_question(
            g,
            "",
            &crate::route::analyzer::testing::want(u),
            &crate::route::Options::default(),
        );
        let gap = plan.steps[0].fields.iter().find(|f| f.name == "band_gap");
        let reasons = &gap.expect("band_gap is planned").reasons;
        assert_eq!(reasons.len(), 1, "{reasons:?}");
        assert!(
            matches!(&reasons[0], crate::route::FieldReason::Concept { concept, .. } if concept == "band_gap"),
            "{reasons:?}"
        );
    }
}
