//! The ids of a loaded project and every place they are written: the declaration of each
//! concept, field group, intent, domain and tool, each reference to one (a field's `concepts`
//! and `groups`, an intent's `required_groups`, `domains` and `entities`, a binding's and an
//! alias's `concept`, a recogniser's `concept` and `unless`, the tool and field of an alias's
//! `field` path), and alias texts. Go to definition, find references and hover read it.

use crate::model::{Project, normalise_id};
use crate::source::{FileId, Span};

/// What an id names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SymbolKind {
    /// A concept (`aliases/`).
    Concept,
    /// A field group (`intents/`).
    Group,
    /// An intent (`intents/`).
    Intent,
    /// A domain (`intents/`).
    Domain,
    /// A tool (`schemas/`).
    Tool,
    /// A response field, by its path `tool/endpoint/field`.
    Field,
    /// An alias text (compared after [`normalise_id`]).
    Alias,
}

impl SymbolKind {
    /// The word shown in hovers.
    pub fn word(self) -> &'static str {
        match self {
            SymbolKind::Concept => "concept",
            SymbolKind::Group => "field group",
            SymbolKind::Intent => "intent",
            SymbolKind::Domain => "domain",
            SymbolKind::Tool => "tool",
            SymbolKind::Field => "response field",
            SymbolKind::Alias => "alias",
        }
    }
}

/// One place an id is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occurrence {
    /// What the id names.
    pub kind: SymbolKind,
    /// The id (for aliases: the normalised text).
    pub key: String,
    /// The file.
    pub file: FileId,
    /// The id's text in the file.
    pub span: Span,
    /// True at a declaration, false at a reference.
    pub definition: bool,
}

/// Every occurrence of every id, in declaration order.
#[derive(Clone, Debug, Default)]
pub struct Symbols {
    /// The occurrences.
    pub all: Vec<Occurrence>,
}

impl Symbols {
    /// Collect the occurrences of `project`.
    pub fn build(project: &Project) -> Symbols {
        let mut s = Symbols::default();
        s.tools(project);
        s.intents(project);
        s.aliases(project);
        s
    }

    fn push(&mut self, kind: SymbolKind, key: &str, file: FileId, span: Span, definition: bool) {
        // Synthesised values have no place in a file.
        if span.is_empty() {
            return;
        }
        self.all.push(Occurrence {
            kind,
            key: key.to_string(),
            file,
            span,
            definition,
        });
    }

    fn tools(&mut self, p: &Project) {
        use SymbolKind::*;
        for t in &p.tools {
            let f = t.file;
            self.push(Tool, &t.id, f, t.id.span, true);
            self.push(Domain, &t.domain, f, t.domain.span, false);
            for e in &t.endpoints {
                for field in &e.fields {
                    let path =
                        crate::graph::index::field_path(&t.id.value, &e.id.value, &field.name);
                    self.push(Field, &path, f, field.name.span, true);
                    for c in &field.concepts {
                        self.push(Concept, c, f, c.span, false);
                    }
                    for g in &field.groups {
                        self.push(Group, g, f, g.span, false);
                    }
                }
                for param in &e.parameters {
                    for b in &param.bind {
                        self.push(Concept, &b.concept, f, b.concept.span, false);
                    }
                }
            }
        }
    }

    fn intents(&mut self, p: &Project) {
        use SymbolKind::*;
        for d in &p.domains {
            self.push(Domain, &d.id, d.file, d.id.span, true);
        }
        for g in &p.groups {
            self.push(Group, &g.id, g.file, g.id.span, true);
            for c in &g.core {
                self.push(Concept, c, g.file, c.span, false);
            }
        }
        for i in &p.intents {
            self.push(Intent, &i.id, i.file, i.id.span, true);
            for d in &i.domains {
                self.push(Domain, d, i.file, d.span, false);
            }
            for g in &i.required_groups {
                self.push(Group, g, i.file, g.span, false);
            }
            for c in &i.entities {
                self.push(Concept, c, i.file, c.span, false);
            }
        }
    }

    fn aliases(&mut self, p: &Project) {
        use SymbolKind::*;
        for c in &p.concepts {
            self.push(Concept, &c.id, c.file, c.id.span, true);
            for texts in c.aliases.values() {
                for t in texts {
                    self.push(Alias, &normalise_id(t), c.file, t.span, true);
                }
            }
        }
        for a in &p.aliases {
            let al = &a.item.value;
            self.push(Alias, &normalise_id(&al.text), a.file, al.text.span, true);
            if let Some(c) = &al.concept {
                self.push(Concept, c, a.file, c.span, false);
            }
            if let Some(field) = &al.field {
                self.field_path(p, a.file, field);
            }
        }
        for r in &p.recognisers {
            self.push(Concept, &r.concept, r.file, r.concept.span, false);
            for u in &r.unless {
                self.push(Concept, u, r.file, u.span, false);
            }
        }
    }

    /// An alias's `field: tool/endpoint/field`: the tool segment refers to the tool, the whole
    /// path to the field.
    fn field_path(&mut self, p: &Project, file: FileId, field: &crate::model::Sp<String>) {
        let written = p.sources.get(file).slice(field.span);
        let tool = field.value.split('/').next().unwrap_or("");
        match written.find(tool) {
            Some(at) if !tool.is_empty() => {
                let start = field.span.start as usize + at;
                self.push(
                    SymbolKind::Tool,
                    tool,
                    file,
                    Span::new(start, start + tool.len()),
                    false,
                );
                let path_start = start + tool.len();
                let end = (field.span.start as usize + written.trim_end_matches(['"', '\'']).len())
                    .max(path_start);
                self.push(
                    SymbolKind::Field,
                    &field.value,
                    file,
                    Span::new(path_start, end),
                    false,
                );
            }
            _ => self.push(SymbolKind::Field, &field.value, file, field.span, false),
        }
    }

    /// The occurrence at byte `offset` of `file` (the innermost when several hold it).
    pub fn at(&self, file: FileId, offset: usize) -> Option<&Occurrence> {
        self.all
            .iter()
            .filter(|o| {
                o.file == file && o.span.start as usize <= offset && offset <= o.span.end as usize
            })
            .min_by_key(|o| o.span.len())
    }

    /// The declarations of `kind` `key`.
    pub fn definitions(&self, kind: SymbolKind, key: &str) -> Vec<&Occurrence> {
        self.all
            .iter()
            .filter(|o| o.definition && o.kind == kind && o.key == key)
            .collect()
    }

    /// Every occurrence of `kind` `key`, declarations included when `declarations` is set.
    pub fn references(&self, kind: SymbolKind, key: &str, declarations: bool) -> Vec<&Occurrence> {
        self.all
            .iter()
            .filter(|o| o.kind == kind && o.key == key && (declarations || !o.definition))
            .collect()
    }

    /// The distinct declared ids of `kind`, sorted.
    pub fn ids(&self, kind: SymbolKind) -> Vec<&str> {
        let set: std::collections::BTreeSet<&str> = self
            .all
            .iter()
            .filter(|o| o.definition && o.kind == kind)
            .map(|o| o.key.as_str())
            .collect();
        set.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project() -> crate::load::Loaded {
        crate::load::load_sources(
            None,
            &[
                (
                    "schemas/t.yaml",
                    "id: t\ntitle: T\ndomain: d\nendpoints:\n  - id: e\n    method: GET\n    url: https://x.org\n    fields:\n      - name: gap\n        type: number\n        concepts: [band_gap]\n        groups: [electronic]\n",
                ),
                (
                    "intents/i.yaml",
                    "domains:\n  - id: d\ngroups:\n  - id: electronic\n    core: [band_gap]\nintents:\n  - id: ask\n    description: x\n    domains: [d]\n    required_groups: [electronic]\n",
                ),
                (
                    "aliases/a.yaml",
                    "concepts:\n  - id: band_gap\n    aliases: {en: [Band Gap]}\naliases:\n  - text: gap\n    field: t/e/gap\n",
                ),
            ],
        )
    }

    #[test]
    fn declarations_and_references_are_found_across_files() {
        let loaded = project();
        assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
        let s = Symbols::build(&loaded.project);
        let refs = |k, key| {
            s.references(k, key, false)
                .iter()
                .map(|o| loaded.project.sources.get(o.file).name.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            refs(SymbolKind::Concept, "band_gap"),
            ["schemas/t.yaml", "intents/i.yaml"]
        );
        assert_eq!(
            refs(SymbolKind::Group, "electronic"),
            ["schemas/t.yaml", "intents/i.yaml"]
        );
        assert_eq!(
            refs(SymbolKind::Domain, "d"),
            ["schemas/t.yaml", "intents/i.yaml"]
        );
        assert_eq!(refs(SymbolKind::Tool, "t"), ["aliases/a.yaml"]);
        assert_eq!(refs(SymbolKind::Field, "t/e/gap"), ["aliases/a.yaml"]);
        let def = s.definitions(SymbolKind::Concept, "band_gap");
        assert_eq!(def.len(), 1);
        let a = loaded.project.sources.find("aliases/a.yaml").unwrap();
        assert_eq!(loaded.project.sources.get(a).slice(def[0].span), "band_gap");
        // The tool segment of the alias's field path.
        let tool_ref = s.references(SymbolKind::Tool, "t", false)[0];
        assert_eq!(loaded.project.sources.get(a).slice(tool_ref.span), "t");
        assert_eq!(s.ids(SymbolKind::Alias), ["band_gap", "gap"]);
        let at = s.at(
            a,
            loaded.project.sources.get(a).text.find("Band").unwrap() + 2,
        );
        assert_eq!(
            at.map(|o| (o.kind, o.key.as_str())),
            Some((SymbolKind::Alias, "band_gap"))
        );
    }
}
