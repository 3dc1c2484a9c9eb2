//! The synthetic-inventory generator behind `schemarouter gen`: deterministic, valid schema
//! projects of any size, for the routing-cost scaling measurement (paper Appendix C) and the
//! scale benchmarks.
//!
//! The structure follows the shipped inventory. A project of `N` tools has
//! `ceil(1.25 * sqrt(N))` domains (capped at `N`), each a *subject* (ocean, battery, alloy, ...)
//! seen through a *facet* (observations, simulations, registry, literature, ...) that fixes its
//! tools' source type. Each domain uses three of its subject's aspects (thermal, mechanical,
//! ...); an aspect of a subject is a field group (`ocean_thermal`) and one intent requiring that
//! group, targeting every domain of the subject that uses it. Tools are spread round-robin over
//! the domains; each tool provides two or three of its domain's groups (the first tool of a
//! domain all three), has one endpoint (a fifth of tools two), about 30 response fields (one
//! identifier, four or five identity fields carrying concepts, the rest property fields in the
//! aspect groups, with units in the concept's canonical unit or a convertible one, qualifiers
//! on variants), 7 to 18 parameters (an API key for half the tools, bindings from 12 generic
//! parameter concepts with templates and companion `set` values, range filters, paging) and
//! provenance and a licence (attribution text for the CC-BY family). Response concepts are
//! `<subject>_<property>`, shared by every tool of the subject, with English, symbol and typo
//! aliases (no alias text is used twice); a tenth of tools get a field alias.
//!
//! Every random choice comes from one [`rng::SplitMix64`] stream in a fixed order, and all
//! output is built from sorted or ordered collections, so the same `(tools, seed, fields)` gives
//! the same bytes on every platform. The output passes `schemarouter check` with no errors (at
//! large sizes the registry prompt exceeds the default `prompt-budget`, a warning).

mod concepts;
mod emit;
mod params;
pub mod rng;
pub mod vocab;

use crate::model::normalise_alias;
use concepts::{
    Aliases, IDENTITY, identity_concept, kind_type, property_concept, reference_concept,
};
use emit::{
    ConceptDef, EndpointDef, FieldDef, ToolDef, camel, capitalise, flow, q, render_concept,
    render_tool, snake, title_case,
};
use rng::SplitMix64;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;
use vocab::{Aspect, FACETS, Facet, Kind, PARAM_CONCEPTS, Prop, Subject, aspect, subjects};

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenConfig {
    /// Number of tools (at least 1).
    pub tools: usize,
    /// Seed of every random choice.
    pub seed: u64,
    /// Response fields per tool, about (at least 8; default 30).
    pub fields_per_tool: usize,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            tools: 19,
            seed: 42,
            fields_per_tool: 30,
        }
    }
}

/// One generated file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenFile {
    /// Path relative to the project root, `/`-separated.
    pub path: String,
    /// Contents.
    pub text: String,
}

/// Counts of what was generated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct GenSummary {
    /// Tools.
    pub tools: usize,
    /// Endpoints.
    pub endpoints: usize,
    /// Response fields.
    pub fields: usize,
    /// Parameters.
    pub parameters: usize,
    /// Domains.
    pub domains: usize,
    /// Field groups.
    pub groups: usize,
    /// Intents.
    pub intents: usize,
    /// Concepts (response and parameter).
    pub concepts: usize,
    /// Alias texts (concept aliases and field aliases).
    pub aliases: usize,
}

/// A generated project.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// Files, in a fixed order.
    pub files: Vec<GenFile>,
    /// Counts.
    pub summary: GenSummary,
}

impl Generated {
    /// Write every file under `out` (creating folders). Existing files with the same names are
    /// overwritten; nothing else is touched.
    ///
    /// Errors: the first file or folder that cannot be written.
    pub fn write(&self, out: &Path) -> std::io::Result<()> {
        self.write_with(out, |_| {})
    }

    /// [`Generated::write`], calling `progress` after each file with the count written so far.
    ///
    /// Errors: the first file or folder that cannot be written.
    pub fn write_with(&self, out: &Path, mut progress: impl FnMut(usize)) -> std::io::Result<()> {
        let mut made: BTreeSet<std::path::PathBuf> = BTreeSet::new();
        for (i, f) in self.files.iter().enumerate() {
            let path = out.join(&f.path);
            if let Some(dir) = path.parent()
                && made.insert(dir.to_path_buf())
            {
                std::fs::create_dir_all(dir)?;
            }
            std::fs::write(&path, f.text.as_bytes())?;
            progress(i + 1);
        }
        Ok(())
    }
}

/// Number of domains for `tools` tools: `ceil(1.25 * sqrt(tools))`, at most `tools` and at most
/// the number of (subject, facet) pairs.
pub fn domain_count(tools: usize) -> usize {
    let d = (1.25 * (tools as f64).sqrt()).ceil() as usize;
    d.clamp(1, tools.max(1))
        .min(subjects().len() * FACETS.len())
}

/// Field naming styles (one per tool, as providers each have their own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    Snake,
    Camel,
    Pascal,
    Nested,
    Abbrev,
    Prefixed,
}

const STYLES: [Style; 6] = [
    Style::Snake,
    Style::Camel,
    Style::Pascal,
    Style::Nested,
    Style::Abbrev,
    Style::Prefixed,
];

fn field_name(
    style: Style,
    subject: &Subject,
    aspect: &Aspect,
    prop: &Prop,
    variant: &str,
) -> String {
    let base = match style {
        Style::Snake => prop.id.to_string(),
        Style::Camel => camel(prop.id, false),
        Style::Pascal => camel(prop.id, true),
        Style::Nested => format!("{}.{}", aspect.id, prop.id),
        Style::Abbrev => prop.abbr.to_string(),
        Style::Prefixed => format!("{}_{}", subject.id, prop.id),
    };
    if variant.is_empty() {
        return base;
    }
    match style {
        Style::Camel | Style::Pascal => format!("{base}{}", capitalise(variant)),
        _ => format!("{base}_{variant}"),
    }
}

/// A field group (and its intent): one (subject, aspect) in use.
struct GroupDef {
    subject: &'static Subject,
    aspect: &'static Aspect,
    domains: Vec<String>,
    first_tool: Option<String>,
}

/// Per-domain choices.
struct DomainDef {
    id: String,
    subject: &'static Subject,
    facet: &'static Facet,
    aspects: Vec<&'static Aspect>,
    first_tool: Option<String>,
}

/// A tool's identity: title, id and the names users say.
struct Naming {
    title: String,
    id: String,
    slug: String,
    abbr: String,
    names: Vec<String>,
    abbr_is_name: bool,
    prefix: &'static str,
}

/// Per-tool choices shared by its endpoints.
struct ToolPlan<'a> {
    subject: &'static Subject,
    naming: &'a Naming,
    style: Style,
    qual: (&'static str, &'static [&'static str]),
    source_type: &'static str,
    provided: &'a [&'static Aspect],
    n_props: usize,
    id_field: String,
}

/// The generator's state: one random stream, the alias layer, and what is taken.
struct Gen {
    r: SplitMix64,
    header: String,
    per_tool: usize,
    domains: Vec<DomainDef>,
    aliases: Aliases,
    param_concepts: Vec<ConceptDef>,
    tool_ids: BTreeSet<String>,
    names_taken: BTreeSet<String>,
    used_prefix: BTreeMap<usize, BTreeSet<usize>>,
    bound: BTreeSet<String>,
    summary: GenSummary,
    field_alias_pending: bool,
    /// Priorities given so far: each tool gets its own, as a curated catalog ranks tools that
    /// answer the same concepts (rule `tied-candidates`).
    priorities: BTreeSet<usize>,
}

/// Generate a project.
pub fn generate(cfg: &GenConfig) -> Generated {
    let n = cfg.tools.max(1);
    let mut g = Gen::new(cfg);
    let tool_files: Vec<GenFile> = (0..n).map(|t| g.tool(t)).collect();
    let mut all = vec![g.config_file(n)];
    all.extend(g.intent_files());
    all.extend(g.alias_files());
    all.extend(tool_files);
    g.summary.tools = n;
    Generated {
        files: all,
        summary: g.summary,
    }
}

impl Gen {
    /// A priority drawn as `5 * (0..=20)`, moved up by one until no other tool has it.
    fn distinct_priority(&mut self) -> usize {
        let mut p = 5 * self.r.below(21);
        while !self.priorities.insert(p) {
            p += 1;
        }
        p
    }

    /// Seed the stream, sample the domains, declare the parameter concepts.
    fn new(cfg: &GenConfig) -> Gen {
        let n = cfg.tools.max(1);
        let per_tool = cfg.fields_per_tool.max(8);
        let mut r = SplitMix64::new(cfg.seed);
        // Domains: a seeded sample of (subject, facet) pairs, three aspects each.
        let mut pairs: Vec<(usize, usize)> = (0..subjects().len())
            .flat_map(|s| (0..FACETS.len()).map(move |f| (s, f)))
            .collect();
        r.shuffle(&mut pairs);
        let domains: Vec<DomainDef> = pairs[..domain_count(n)]
            .iter()
            .map(|&(s, f)| {
                let subject = &subjects()[s];
                let mut idx = [0usize, 1, 2, 3, 4];
                r.shuffle(&mut idx);
                let mut chosen = idx[..3].to_vec();
                chosen.sort_unstable();
                DomainDef {
                    id: format!("{}_{}", subject.id, FACETS[f].id),
                    subject,
                    facet: &FACETS[f],
                    aspects: chosen.iter().map(|&i| aspect(subject.aspects[i])).collect(),
                    first_tool: None,
                }
            })
            .collect();
        let mut aliases = Aliases {
            taken: BTreeSet::new(),
            by_subject: BTreeMap::new(),
            known: BTreeSet::new(),
            field_aliases: Vec::new(),
            count: 0,
        };
        let mut param_concepts = Vec::new();
        for (id, texts, description) in PARAM_CONCEPTS {
            aliases.claim(id);
            let kept: Vec<(&'static str, String)> = texts
                .iter()
                .filter(|t| aliases.claim(t))
                .map(|t| ("en", t.to_string()))
                .collect();
            param_concepts.push(ConceptDef {
                id: id.to_string(),
                unit: None,
                dimension: None,
                aliases: kept,
                description: description.to_string(),
            });
        }
        Gen {
            r,
            header: format!(
                "# Generated by `schemarouter gen --tools {n} --seed {} --fields {per_tool}`: a synthetic inventory (not real services).\n",
                cfg.seed
            ),
            per_tool,
            domains,
            aliases,
            param_concepts,
            tool_ids: BTreeSet::new(),
            names_taken: BTreeSet::new(),
            used_prefix: BTreeMap::new(),
            bound: BTreeSet::new(),
            summary: GenSummary::default(),
            field_alias_pending: false,
            priorities: BTreeSet::new(),
        }
    }

    /// Title, id and names: a prefix unused within the domain, numbered on a clash.
    fn naming(&mut self, di: usize) -> Naming {
        let (subject, facet) = (self.domains[di].subject, self.domains[di].facet);
        let used = self.used_prefix.entry(di).or_default();
        let mut pi = self.r.below(vocab::PREFIXES.len());
        let mut tries = 0;
        while used.contains(&pi) && tries < vocab::PREFIXES.len() {
            pi = (pi + 1) % vocab::PREFIXES.len();
            tries += 1;
        }
        used.insert(pi);
        let prefix = vocab::PREFIXES[pi];
        let mut title = format!("{prefix} {} {}", title_case(subject.words), facet.title);
        let mut id = snake(&title);
        let mut k = 2;
        while self.tool_ids.contains(&id) {
            title = format!("{prefix} {} {} {k}", title_case(subject.words), facet.title);
            id = snake(&title);
            k += 1;
        }
        self.tool_ids.insert(id.clone());
        let abbr: String = title
            .split(' ')
            .filter_map(|w| w.chars().next())
            .filter(|c| c.is_alphanumeric())
            .collect::<String>()
            .to_uppercase();
        let mut names = Vec::new();
        let abbr_is_name = self.names_taken.insert(normalise_alias(&abbr));
        if abbr_is_name {
            names.push(abbr.clone());
        }
        let short = format!("{prefix} {}", subject.words);
        if self.names_taken.insert(normalise_alias(&short)) {
            names.push(short);
        }
        Naming {
            slug: id.replace('_', "-"),
            title,
            id,
            abbr,
            names,
            abbr_is_name,
            prefix,
        }
    }

    /// One tool file.
    fn tool(&mut self, t: usize) -> GenFile {
        let di = t % self.domains.len();
        let subject = self.domains[di].subject;
        let facet = self.domains[di].facet;
        let first_of_domain = self.domains[di].first_tool.is_none();
        let naming = self.naming(di);
        let style = *self.r.pick(&STYLES);
        let qual = *self.r.pick(vocab::QUALIFIERS);
        // Aspects this tool provides: all three for a domain's first tool, else two or three.
        let mut provided: Vec<&'static Aspect> = self.domains[di].aspects.clone();
        if !first_of_domain && self.r.chance(0.4) {
            provided.remove(self.r.below(provided.len()));
        }
        let two_endpoints = provided.len() >= 2 && self.r.chance(0.2);
        let ep_aspects: Vec<Vec<&'static Aspect>> = if two_endpoints {
            let last = provided.len() - 1;
            vec![provided[..last].to_vec(), vec![provided[last]]]
        } else {
            vec![provided.clone()]
        };
        let id_field = match self.r.below(4) {
            0 => "id".to_string(),
            1 => format!("{}_id", snake(subject.entity)),
            2 => "accession".to_string(),
            _ => "uuid".to_string(),
        };
        let plan = ToolPlan {
            subject,
            naming: &naming,
            style,
            qual,
            source_type: facet.source_type,
            provided: &provided,
            n_props: self.per_tool.saturating_sub(5).max(provided.len()),
            id_field,
        };
        self.field_alias_pending = naming.abbr_is_name && self.r.chance(0.1);
        let mut numeric: Vec<String> = Vec::new();
        let mut endpoints = Vec::new();
        for (ei, asps) in ep_aspects.iter().enumerate() {
            let ep_id = facet.endpoints[ei].to_string();
            let fields = self.fields(&plan, ei, &ep_id, asps, &mut numeric);
            let params = params::endpoint_params(t, &plan.id_field, &fields, &numeric, &mut self.r);
            self.bound.extend(
                params
                    .iter()
                    .flat_map(|p| p.binds.iter().map(|b| b.concept.clone())),
            );
            let method = if self.r.chance(0.15) { "POST" } else { "GET" };
            endpoints.push(EndpointDef {
                url: format!(
                    "https://api.{}.example.org/v{}/{ep_id}",
                    naming.slug,
                    1 + self.r.below(3)
                ),
                description: format!(
                    "{} {} {} records ({}).",
                    facet.phrase,
                    subject.words,
                    subject.entity,
                    asps.iter().map(|a| a.words).collect::<Vec<_>>().join(", ")
                ),
                id: ep_id,
                method,
                params,
                fields,
            });
        }
        if first_of_domain {
            self.domains[di].first_tool = Some(naming.title.clone());
        }
        let institution = self.r.pick(vocab::INSTITUTIONS);
        let publisher = format!(
            "{} {} {institution}",
            naming.prefix,
            title_case(subject.words)
        );
        let year = 2005 + self.r.below(20);
        let citation = format!("10.{}/{}.{year}", 5000 + self.r.below(4000), naming.slug);
        let (spdx, attribution) = *self.r.pick(vocab::LICENCES);
        let site = format!("https://{}.example.org", naming.slug);
        let tool = ToolDef {
            id: naming.id.clone(),
            title: naming.title.clone(),
            names: naming.names.clone(),
            description: format!(
                "{} {} {}s: {} data, one record per {}.",
                facet.phrase,
                subject.words,
                subject.entity,
                provided
                    .iter()
                    .map(|a| a.words)
                    .collect::<Vec<_>>()
                    .join(", "),
                subject.entity
            ),
            domain: self.domains[di].id.clone(),
            source_type: facet.source_type,
            priority: self.distinct_priority(),
            publisher: publisher.clone(),
            method: facet.method,
            citation: citation.clone(),
            url: site.clone(),
            spdx,
            wording: spdx.starts_with("LicenseRef-").then(|| {
                (
                    format!(
                        "Use is governed by the terms of service of {}.",
                        naming.title
                    ),
                    format!("{site}/terms"),
                )
            }),
            attribution: attribution.then(|| {
                format!(
                    "Data from {} ({publisher}, doi:{citation}), licensed {spdx}.",
                    naming.title
                )
            }),
            endpoints,
        };
        for e in &tool.endpoints {
            self.summary.endpoints += 1;
            self.summary.fields += e.fields.len();
            self.summary.parameters += e.params.len();
        }
        GenFile {
            path: format!("schemas/{}.yaml", naming.id),
            text: render_tool(&self.header, &tool),
        }
    }

    /// The fields of endpoint `ei`: an identifier, identity fields (all on the first endpoint,
    /// the name on others), maybe a literature reference, and the property fields of `asps`.
    fn fields(
        &mut self,
        plan: &ToolPlan<'_>,
        ei: usize,
        ep_id: &str,
        asps: &[&'static Aspect],
        numeric: &mut Vec<String>,
    ) -> Vec<FieldDef> {
        let subject = plan.subject;
        let mut fields: Vec<FieldDef> = Vec::new();
        let mut seen: BTreeSet<String> = BTreeSet::new();
        seen.insert(plan.id_field.clone());
        fields.push(FieldDef {
            name: plan.id_field.clone(),
            ty: "string",
            unit: None,
            identifier: true,
            group: None,
            concept: None,
            qualifier: None,
            source_type: None,
            description: format!("{} id of the {} record.", plan.naming.title, subject.entity),
        });
        let n_identity = if ei == 0 { IDENTITY.len() } else { 1 };
        for (which, &(suffix, words, choices, kind)) in IDENTITY.iter().enumerate().take(n_identity)
        {
            let name = if plan.style == Style::Prefixed {
                format!("{}_{suffix}", subject.id)
            } else {
                choices[self.r.below(3)].to_string()
            };
            if !seen.insert(name.clone()) {
                continue;
            }
            let concept = identity_concept(subject, which, &mut self.aliases);
            fields.push(FieldDef {
                name,
                ty: kind_type(kind),
                unit: None,
                identifier: false,
                group: None,
                concept: Some(concept),
                qualifier: None,
                source_type: None,
                description: format!("The {words} of the {}.", subject.entity),
            });
        }
        if ei == 0 && plan.source_type != "literature" && self.r.chance(0.3) {
            let concept = reference_concept(subject, &mut self.aliases);
            let name = if plan.style == Style::Prefixed {
                format!("{}_reference", subject.id)
            } else {
                "reference_doi".to_string()
            };
            if seen.insert(name.clone()) {
                fields.push(FieldDef {
                    name,
                    ty: "string",
                    unit: None,
                    identifier: false,
                    group: None,
                    concept: Some(concept),
                    qualifier: None,
                    source_type: Some("literature"),
                    description: "DOI of the paper the values were published in.".into(),
                });
            }
        }
        // Property fields, spread evenly over the tool's aspects; when an aspect has fewer
        // properties than it needs, variants with a qualifier fill the rest.
        let total = plan.provided.len();
        for asp in asps {
            let ai = plan
                .provided
                .iter()
                .position(|x| x.id == asp.id)
                .unwrap_or_default();
            let need = plan.n_props / total + usize::from(ai < plan.n_props % total);
            let mut props: Vec<&Prop> = asp.props.iter().collect();
            self.r.shuffle(&mut props);
            let m = props.len();
            let group = format!("{}_{}", subject.id, asp.id);
            for j in 0..need {
                let round = j / m;
                let has_variants = need > m && j % m < need - m;
                let (mut f, kind) =
                    self.property_field(plan, asp, props[j % m], round, has_variants, &group);
                let base = f.name.clone();
                let mut k = 2;
                while seen.contains(&f.name) {
                    f.name = format!("{base}_{k}");
                    k += 1;
                }
                seen.insert(f.name.clone());
                if matches!(kind, Kind::Quantity { .. }) && f.qualifier.is_none() {
                    numeric.push(f.name.clone());
                }
                if self.field_alias_pending {
                    let text = format!("{} {}", plan.naming.abbr, props[j % m].words);
                    if self.aliases.claim(&text) {
                        self.aliases.field_aliases.push((
                            text,
                            f.concept.clone().unwrap_or_default(),
                            format!("{}/{ep_id}/{}", plan.naming.id, f.name),
                        ));
                        self.aliases.count += 1;
                    }
                    self.field_alias_pending = false;
                }
                fields.push(f);
            }
        }
        fields
    }

    /// A property field: `round` 0 is the property itself, later rounds are variants; when a
    /// property `has_variants`, every round of it carries the tool's qualifier.
    fn property_field(
        &mut self,
        plan: &ToolPlan<'_>,
        asp: &Aspect,
        prop: &Prop,
        round: usize,
        has_variants: bool,
        group: &str,
    ) -> (FieldDef, Kind) {
        let qualifier = if has_variants {
            Some((plan.qual.0, plan.qual.1[round % plan.qual.1.len()]))
        } else if self.r.chance(0.15) {
            Some((
                "method",
                *self.r.pick(&["measured", "modelled", "estimated"]),
            ))
        } else {
            None
        };
        let variant = if round > 0 {
            qualifier.map(|q| q.1).unwrap_or("alt")
        } else {
            ""
        };
        let name = field_name(plan.style, plan.subject, asp, prop, variant);
        let concept = property_concept(plan.subject, prop, &mut self.r, &mut self.aliases);
        let unit = match prop.kind {
            Kind::Quantity { canonical, .. } => {
                let alternatives = prop.kind.alternatives();
                Some(if !alternatives.is_empty() && self.r.chance(0.25) {
                    self.r.pick(&alternatives).to_string()
                } else {
                    canonical.to_string()
                })
            }
            Kind::Ratio { percent } => Some(if percent && self.r.chance(0.5) {
                "%".to_string()
            } else {
                "1".to_string()
            }),
            _ => None,
        };
        let qual_note = qualifier
            .map(|(k, v)| format!(" ({k}: {v})"))
            .unwrap_or_default();
        let unit_note = match &unit {
            Some(u) if u != "1" => format!(", in {u}"),
            _ => String::new(),
        };
        let field = FieldDef {
            name,
            ty: kind_type(prop.kind),
            unit,
            identifier: false,
            group: Some(group.to_string()),
            concept: Some(concept),
            qualifier,
            source_type: None,
            description: format!(
                "{} of the {}{qual_note}{unit_note}.",
                capitalise(prop.words),
                plan.subject.entity
            ),
        };
        (field, prop.kind)
    }

    /// `schemarouter.toml`.
    fn config_file(&self, n: usize) -> GenFile {
        GenFile {
            path: crate::model::config::CONFIG_FILE.into(),
            text: format!(
                "{}[project]\nname = \"synthetic-{n}\"\nversion = \"1.0.0\"\n\n[lint]\nfail-level = \"error\"\n# The registry prompt grows with the intents (about 3 per domain).\nprompt-budget = {}\n",
                self.header,
                1500 + 75 * domain_count(n)
            ),
        }
    }

    /// Domains, groups and intents: one group and one intent per (subject, aspect) in use.
    fn intent_files(&mut self) -> Vec<GenFile> {
        let mut groups: BTreeMap<String, GroupDef> = BTreeMap::new();
        for dom in &self.domains {
            for asp in &dom.aspects {
                groups
                    .entry(format!("{}_{}", dom.subject.id, asp.id))
                    .or_insert_with(|| GroupDef {
                        subject: dom.subject,
                        aspect: asp,
                        domains: Vec::new(),
                        first_tool: dom.first_tool.clone(),
                    })
                    .domains
                    .push(dom.id.clone());
            }
        }
        let mut dtext = self.header.clone();
        let _ = writeln!(dtext, "domains:");
        let mut sorted: Vec<&DomainDef> = self.domains.iter().collect();
        sorted.sort_by(|a, b| a.id.cmp(&b.id));
        for dom in &sorted {
            let _ = writeln!(dtext, "  - id: {}", q(&dom.id));
            let _ = writeln!(
                dtext,
                "    description: {}",
                q(&format!(
                    "{} {} {}s.",
                    dom.facet.phrase, dom.subject.words, dom.subject.entity
                ))
            );
        }
        let mut gtext = self.header.clone();
        let _ = writeln!(gtext, "groups:");
        let mut itext = self.header.clone();
        let _ = writeln!(itext, "intents:");
        for (gid, g) in &groups {
            let (subject, asp) = (g.subject, g.aspect);
            let props: Vec<&str> = asp.props.iter().take(4).map(|p| p.words).collect();
            let _ = writeln!(gtext, "  - id: {}", q(gid));
            let _ = writeln!(
                gtext,
                "    description: {}",
                q(&format!(
                    "{} quantities of {} {}s ({}, ...).",
                    capitalise(asp.words),
                    subject.words,
                    subject.entity,
                    props.join(", ")
                ))
            );
            let _ = writeln!(itext, "  - id: {}", q(gid));
            let _ = writeln!(
                itext,
                "    description: {}",
                q(&format!(
                    "{} {} data: {}.",
                    capitalise(subject.words),
                    asp.words,
                    props[..props.len().min(3)].join(", ")
                ))
            );
            let _ = writeln!(itext, "    domains: {}", flow(&g.domains));
            let _ = writeln!(
                itext,
                "    required_groups: {}",
                flow(std::slice::from_ref(gid))
            );
            let code = format!(
                "{}{}-{}",
                (b'A' + self.r.below(26) as u8) as char,
                (b'A' + self.r.below(26) as u8) as char,
                100 + self.r.below(900)
            );
            let p1 = asp.props[0].words;
            let p2 = asp.props[1 % asp.props.len()].words;
            let thing = if subject.words.ends_with(subject.entity) {
                subject.words.to_string()
            } else {
                format!("{} {}", subject.words, subject.entity)
            };
            let mut examples = vec![format!("What is the {p1} of {thing} {code}?")];
            if let Some(tool) = &g.first_tool {
                examples.push(format!(
                    "{} and {p2} of {} {code} from {tool}",
                    capitalise(p1),
                    subject.entity
                ));
            }
            let _ = writeln!(itext, "    examples:");
            for ex in &examples {
                let _ = writeln!(itext, "      - {}", q(ex));
            }
        }
        self.summary.domains = self.domains.len();
        self.summary.groups = groups.len();
        self.summary.intents = groups.len();
        vec![
            GenFile {
                path: "intents/domains.yaml".into(),
                text: dtext,
            },
            GenFile {
                path: "intents/groups.yaml".into(),
                text: gtext,
            },
            GenFile {
                path: "intents/intents.yaml".into(),
                text: itext,
            },
        ]
    }

    /// Parameter concepts (only those some parameter binds), one concept file per subject, and
    /// the field aliases.
    fn alias_files(&mut self) -> Vec<GenFile> {
        let mut files = Vec::new();
        let mut ptext = self.header.clone();
        let _ = writeln!(ptext, "concepts:");
        for c in self
            .param_concepts
            .iter()
            .filter(|c| self.bound.contains(&c.id))
        {
            render_concept(&mut ptext, c, Some("parameter"));
            self.summary.concepts += 1;
            self.aliases.count += c.aliases.len();
        }
        files.push(GenFile {
            path: "aliases/parameters.yaml".into(),
            text: ptext,
        });
        for (subject, concepts) in &self.aliases.by_subject {
            let mut t = self.header.clone();
            let _ = writeln!(t, "concepts:");
            for c in concepts {
                render_concept(&mut t, c, None);
            }
            self.summary.concepts += concepts.len();
            files.push(GenFile {
                path: format!("aliases/{subject}.yaml"),
                text: t,
            });
        }
        if !self.aliases.field_aliases.is_empty() {
            let mut t = self.header.clone();
            let _ = writeln!(t, "aliases:");
            for (text, concept, field) in &self.aliases.field_aliases {
                let _ = writeln!(
                    t,
                    "  - {{text: {}, lang: \"en\", concept: {}, field: {}}}",
                    q(text),
                    q(concept),
                    q(field)
                );
            }
            files.push(GenFile {
                path: "aliases/fields.yaml".into(),
                text: t,
            });
        }
        self.summary.aliases = self.aliases.count;
        files
    }
}
