//! Generated request parameters: credentials, bindings from the generic parameter concepts
//! (with templates and companion `set` values), range filters, paging and format switches.

use super::emit::{BindDef, FieldDef, ParamDef};
use super::rng::SplitMix64;

/// Parameters of one endpoint (tool index `t` decides which optional concept it surely binds,
/// so that every parameter concept is bound once there are 9 tools).
pub(super) fn endpoint_params(
    t: usize,
    id_field: &str,
    fields: &[FieldDef],
    numeric: &[String],
    r: &mut SplitMix64,
) -> Vec<ParamDef> {
    let mut ps: Vec<ParamDef> = Vec::new();
    if r.chance(0.5) {
        let name = r.pick(&["api_key", "apikey", "x-api-key", "token"]);
        let mut p = ParamDef::new(name, "string", "API key, sent as an HTTP header.".into());
        p.required = true;
        p.auth = true;
        ps.push(p);
    }
    let lookup_by = r.chance(0.15);
    let entity_name = r.chance(0.5);
    if lookup_by {
        // PubChem-style: one `identifier` whose meaning a companion enum fixes.
        let mut by = ParamDef::new("by", "string", "What `identifier` holds.".into());
        by.enum_values = vec!["id".into(), "name".into()];
        by.required = true;
        let mut ident = ParamDef::new(
            "identifier",
            "string",
            "The record id or name to look up (see `by`).".into(),
        );
        ident.required = true;
        for (concept, by_value) in [("record_id", "id"), ("entity_name", "name")] {
            ident.binds.push(BindDef {
                concept: concept.into(),
                template: None,
                set: vec![("by".into(), by_value.into())],
            });
        }
        ps.push(by);
        ps.push(ident);
    } else {
        let name = if r.chance(0.5) {
            id_field.to_string()
        } else {
            "ids".to_string()
        };
        ps.push(
            ParamDef::new(&name, "string", "Comma-separated record ids.".into())
                .bind("record_id", None),
        );
        if entity_name {
            let name = r.pick(&["name", "label", "title_contains"]);
            let template = r.chance(0.3).then_some("{value|lower}");
            ps.push(
                ParamDef::new(
                    name,
                    "string",
                    "Name of the record (exact or prefix).".into(),
                )
                .bind("entity_name", template),
            );
        }
    }
    let search = r.pick(&["q", "query", "search", "text"]);
    let mut sp = ParamDef::new(
        search,
        "string",
        "Free-text search over the records.".into(),
    )
    .bind("search_text", None);
    sp.required = !lookup_by && r.chance(0.15);
    ps.push(sp);
    if r.chance(0.4) {
        match r.below(3) {
            0 => {
                ps.push(
                    ParamDef::new("from_year", "integer", "Earliest year (inclusive).".into())
                        .bind("year_from", None),
                );
                ps.push(
                    ParamDef::new("to_year", "integer", "Latest year (inclusive).".into())
                        .bind("year_to", None),
                );
            }
            1 => {
                ps.push(
                    ParamDef::new("since", "string", "Earliest date, ISO 8601.".into())
                        .bind("year_from", Some("{value}-01-01")),
                );
                ps.push(
                    ParamDef::new("until", "string", "Latest date, ISO 8601.".into())
                        .bind("year_to", Some("{value}-12-31")),
                );
            }
            _ => {
                ps.push(
                    ParamDef::new("start_year", "integer", "First year of the range.".into())
                        .bind("year_from", None),
                );
            }
        }
    }
    // Optional concepts: one by tool index (coverage), the rest by chance.
    let optional = ["region", "doi", "author", "country", "language", "status"];
    for (i, concept) in optional.iter().enumerate() {
        if t % optional.len() != i && !r.chance(0.2) {
            continue;
        }
        let (name, template) = match *concept {
            "country" => ("country", Some("{value|upper}")),
            "language" => ("lang", None),
            c => (c, None),
        };
        if ps.iter().any(|p| p.name == name) {
            continue;
        }
        ps.push(
            ParamDef::new(name, "string", format!("Only records with this {concept}."))
                .bind(concept, template),
        );
    }
    let limit = r.pick(&["limit", "per_page", "rows", "size"]);
    let mut lp =
        ParamDef::new(limit, "integer", "Results per page.".into()).bind("max_results", None);
    lp.default = Some("20".into());
    ps.push(lp);
    ps.push(ParamDef::new(
        if r.chance(0.5) { "page" } else { "offset" },
        "integer",
        "Page number or offset.".into(),
    ));
    let mut nums: Vec<&String> = numeric
        .iter()
        .filter(|n| fields.iter().any(|f| &&f.name == n))
        .collect();
    r.shuffle(&mut nums);
    for f in nums.into_iter().take(1 + r.below(3)) {
        let base = f.replace('.', "_");
        for (suffix, word) in [("min", "Lower"), ("max", "Upper")] {
            let name = format!("{base}_{suffix}");
            if ps.iter().any(|p| p.name == name) {
                continue;
            }
            ps.push(ParamDef::new(
                &name,
                "number",
                format!("{word} bound on `{f}`."),
            ));
        }
    }
    if r.chance(0.5) {
        ps.push(ParamDef::new(
            "fields",
            "string",
            "Comma-separated response fields to return.".into(),
        ));
    }
    if r.chance(0.5) {
        let mut p = ParamDef::new("format", "string", "Response format.".into());
        p.enum_values = vec!["json".into(), "csv".into()];
        p.default = Some("\"json\"".into());
        p.required = r.chance(0.5);
        ps.push(p);
    }
    if r.chance(0.4) {
        ps.push(ParamDef::new(
            "sort",
            "string",
            "Sort key (prefix `-` for descending).".into(),
        ));
    }
    ps
}
