//! YAML emission for the generator: quoting, the declaration shapes it writes, and their
//! rendering (the generator writes text directly, so the output is byte-stable).

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Quote a YAML scalar (double-quoted style).
pub(super) fn q(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

pub(super) fn flow(items: &[String]) -> String {
    let v: Vec<String> = items.iter().map(|s| q(s)).collect();
    format!("[{}]", v.join(", "))
}

pub(super) fn capitalise(s: &str) -> String {
    // Keep words whose second letter is upper case as written (`pH`, `eV`).
    if s.chars().nth(1).is_some_and(char::is_uppercase) {
        return s.to_string();
    }
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

pub(super) fn title_case(s: &str) -> String {
    s.split(' ').map(capitalise).collect::<Vec<_>>().join(" ")
}

pub(super) fn snake(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_string()
}

pub(super) fn camel(id: &str, pascal: bool) -> String {
    let mut out = String::new();
    for (i, part) in id.split('_').enumerate() {
        if i == 0 && !pascal {
            out.push_str(part);
        } else {
            out.push_str(&capitalise(part));
        }
    }
    out
}

/// A concept ready to render.
pub(super) struct ConceptDef {
    pub(super) id: String,
    pub(super) unit: Option<String>,
    pub(super) dimension: Option<&'static str>,
    pub(super) aliases: Vec<(&'static str, String)>,
    pub(super) description: String,
}

/// A response field ready to render.
pub(super) struct FieldDef {
    pub(super) name: String,
    pub(super) ty: &'static str,
    pub(super) unit: Option<String>,
    pub(super) identifier: bool,
    pub(super) group: Option<String>,
    pub(super) concept: Option<String>,
    pub(super) qualifier: Option<(&'static str, &'static str)>,
    pub(super) source_type: Option<&'static str>,
    pub(super) description: String,
}

/// A binding ready to render: concept, template, companion `set` values.
pub(super) struct BindDef {
    pub(super) concept: String,
    pub(super) template: Option<String>,
    pub(super) set: Vec<(String, String)>,
}

/// A parameter ready to render.
pub(super) struct ParamDef {
    pub(super) name: String,
    pub(super) ty: &'static str,
    pub(super) enum_values: Vec<String>,
    pub(super) required: bool,
    pub(super) auth: bool,
    pub(super) default: Option<String>,
    pub(super) binds: Vec<BindDef>,
    pub(super) description: String,
}

impl ParamDef {
    pub(super) fn new(name: &str, ty: &'static str, description: String) -> ParamDef {
        ParamDef {
            name: name.to_string(),
            ty,
            enum_values: Vec::new(),
            required: false,
            auth: false,
            default: None,
            binds: Vec::new(),
            description,
        }
    }

    pub(super) fn bind(mut self, concept: &str, template: Option<&str>) -> ParamDef {
        self.binds.push(BindDef {
            concept: concept.to_string(),
            template: template.map(str::to_string),
            set: Vec::new(),
        });
        self
    }
}

pub(super) struct EndpointDef {
    pub(super) id: String,
    pub(super) method: &'static str,
    pub(super) url: String,
    pub(super) description: String,
    pub(super) params: Vec<ParamDef>,
    pub(super) fields: Vec<FieldDef>,
}

pub(super) fn render_concept(out: &mut String, c: &ConceptDef, kind: Option<&str>) {
    let _ = writeln!(out, "  - id: {}", q(&c.id));
    if let Some(k) = kind {
        let _ = writeln!(out, "    kind: {k}");
    }
    if let Some(u) = &c.unit {
        let _ = writeln!(out, "    unit: {}", q(u));
    }
    if let Some(d) = c.dimension {
        let _ = writeln!(out, "    dimension: {}", q(d));
    }
    if !c.aliases.is_empty() {
        let _ = writeln!(out, "    aliases:");
        let mut by_lang: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for (lang, text) in &c.aliases {
            by_lang.entry(lang).or_default().push(text.clone());
        }
        for (lang, texts) in by_lang {
            let _ = writeln!(out, "      {lang}: {}", flow(&texts));
        }
    }
    let _ = writeln!(out, "    description: {}", q(&c.description));
}

pub(super) fn render_endpoint(out: &mut String, e: &EndpointDef) {
    let _ = writeln!(out, "  - id: {}", q(&e.id));
    let _ = writeln!(out, "    method: {}", e.method);
    let _ = writeln!(out, "    url: {}", q(&e.url));
    let _ = writeln!(out, "    description: {}", q(&e.description));
    if !e.params.is_empty() {
        let _ = writeln!(out, "    parameters:");
    }
    for p in &e.params {
        let _ = writeln!(out, "      - name: {}", q(&p.name));
        let _ = writeln!(out, "        type: {}", p.ty);
        if !p.enum_values.is_empty() {
            let _ = writeln!(out, "        enum: {}", flow(&p.enum_values));
        }
        if p.required {
            let _ = writeln!(out, "        required: true");
        }
        if p.auth {
            let _ = writeln!(out, "        auth: true");
        }
        if let Some(d) = &p.default {
            let _ = writeln!(out, "        default: {d}");
        }
        if !p.binds.is_empty() {
            let _ = writeln!(out, "        bind:");
            for BindDef {
                concept,
                template,
                set,
            } in &p.binds
            {
                let _ = writeln!(out, "          - concept: {}", q(concept));
                if let Some(t) = template {
                    let _ = writeln!(out, "            template: {}", q(t));
                }
                if !set.is_empty() {
                    let kv: Vec<String> =
                        set.iter().map(|(k, v)| format!("{k}: {}", q(v))).collect();
                    let _ = writeln!(out, "            set: {{{}}}", kv.join(", "));
                }
            }
        }
        let _ = writeln!(out, "        description: {}", q(&p.description));
    }
    let _ = writeln!(out, "    fields:");
    for f in &e.fields {
        let _ = writeln!(out, "      - name: {}", q(&f.name));
        let _ = writeln!(out, "        type: {}", f.ty);
        if let Some(u) = &f.unit {
            let _ = writeln!(out, "        unit: {}", q(u));
        }
        if f.identifier {
            let _ = writeln!(out, "        identifier: true");
        }
        if let Some(g) = &f.group {
            let _ = writeln!(out, "        groups: {}", flow(std::slice::from_ref(g)));
        }
        if let Some(c) = &f.concept {
            let _ = writeln!(out, "        concepts: {}", flow(std::slice::from_ref(c)));
        }
        if let Some((k, v)) = f.qualifier {
            let _ = writeln!(out, "        qualifiers: {{{k}: {}}}", q(v));
        }
        if let Some(s) = f.source_type {
            let _ = writeln!(out, "        source_type: {}", q(s));
        }
        let _ = writeln!(out, "        description: {}", q(&f.description));
    }
}

/// A tool ready to render.
pub(super) struct ToolDef {
    pub(super) id: String,
    pub(super) title: String,
    pub(super) names: Vec<String>,
    pub(super) description: String,
    pub(super) domain: String,
    pub(super) source_type: &'static str,
    pub(super) priority: usize,
    pub(super) publisher: String,
    pub(super) method: &'static str,
    pub(super) citation: String,
    pub(super) url: String,
    pub(super) spdx: &'static str,
    /// Provider wording and terms URL (for `LicenseRef-*`).
    pub(super) wording: Option<(String, String)>,
    pub(super) attribution: Option<String>,
    pub(super) endpoints: Vec<EndpointDef>,
}

/// A tool file: the header comment, then the declaration.
pub(super) fn render_tool(header: &str, t: &ToolDef) -> String {
    let mut text = header.to_string();
    let _ = writeln!(text, "id: {}", q(&t.id));
    let _ = writeln!(text, "title: {}", q(&t.title));
    if !t.names.is_empty() {
        let _ = writeln!(text, "names:");
        for nm in &t.names {
            let _ = writeln!(text, "  - {}", q(nm));
        }
    }
    let _ = writeln!(text, "description: {}", q(&t.description));
    let _ = writeln!(text, "domain: {}", q(&t.domain));
    let _ = writeln!(text, "source_type: {}", q(t.source_type));
    let _ = writeln!(text, "priority: {}", t.priority);
    let _ = writeln!(text, "provenance:");
    let _ = writeln!(text, "  publisher: {}", q(&t.publisher));
    let _ = writeln!(text, "  method: {}", q(t.method));
    let _ = writeln!(text, "  citation: {}", q(&t.citation));
    let _ = writeln!(text, "  url: {}", q(&t.url));
    let _ = writeln!(text, "licence:");
    let _ = writeln!(text, "  spdx: {}", q(t.spdx));
    if let Some((wording, url)) = &t.wording {
        let _ = writeln!(text, "  wording: {}", q(wording));
        let _ = writeln!(text, "  url: {}", q(url));
    }
    if let Some(a) = &t.attribution {
        let _ = writeln!(text, "  attribution: {}", q(a));
    }
    let _ = writeln!(text, "endpoints:");
    for e in &t.endpoints {
        render_endpoint(&mut text, e);
    }
    text
}
