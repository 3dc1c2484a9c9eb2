//! Source locations of a project's entities, keyed by entity path (see [`super::entity`]), so that
//! changes found on the compiled form can point back at the declarations on both sides.
//!
//! The first declaration of an id wins, as in the compiler. An artifact has no spans, so its
//! locator is empty.

use super::entity as ent;
use super::model::Location;
use crate::diagnostics::{Label, Position};
use crate::model::{Licence, Project, Sp, normalise_alias};
use crate::source::{FileId, Span};
use std::collections::BTreeMap;

/// Entity (and attribute, and list item) -> where it is declared.
#[derive(Clone, Debug, Default)]
pub struct Locator {
    map: BTreeMap<String, Location>,
    /// `[diff] accept` entries: fingerprint -> where the entry is written.
    acceptances: BTreeMap<String, Location>,
    /// Normalised alias text -> the text as first written.
    alias_texts: BTreeMap<String, String>,
}

struct Builder<'a> {
    project: &'a Project,
    prefix: &'a str,
    map: BTreeMap<String, Location>,
}

/// Join a side's folder (as given; empty for the current folder) and a path inside the project.
pub fn join_prefix(prefix: &str, name: &str) -> String {
    let p = prefix.trim_end_matches('/');
    if p.is_empty() || p == "." {
        name.to_string()
    } else {
        format!("{p}/{name}")
    }
}

impl Builder<'_> {
    fn location(&self, file: FileId, span: Span) -> Location {
        let p = Position::resolve(&Label::new(file, span, ""), &self.project.sources);
        Location {
            file: join_prefix(self.prefix, &p.file),
            line: p.line,
            column: p.column,
            end_line: p.end_line,
            end_column: p.end_column,
        }
    }

    fn put(&mut self, key: String, file: FileId, span: Span) {
        if !self.map.contains_key(&key) {
            let loc = self.location(file, span);
            self.map.insert(key, loc);
        }
    }

    fn put_opt<T>(&mut self, entity: &str, attr: &str, file: FileId, v: &Option<Sp<T>>) {
        if let Some(v) = v {
            self.put(ent::attr(entity, attr), file, v.span);
        }
    }

    fn licence(&mut self, entity: &str, file: FileId, l: Option<&Sp<Licence>>) {
        if let Some(l) = l {
            self.put(ent::attr(entity, "licence"), file, l.value.spdx.span);
        }
    }
}

impl Locator {
    /// Locations of every entity of a loaded project; file names are prefixed with `prefix`
    /// (the side's folder as the user gave it, or "" for the current folder).
    pub fn from_project(project: &Project, prefix: &str) -> Locator {
        let mut b = Builder {
            project,
            prefix,
            map: BTreeMap::new(),
        };
        for t in &project.tools {
            let f = t.file;
            let te = ent::tool(&t.id.value);
            if b.map.contains_key(&te) {
                continue;
            }
            b.put(te.clone(), f, t.id.span);
            b.put(ent::attr(&te, "title"), f, t.title.span);
            for n in &t.names {
                b.put(ent::item(&te, "names", &n.value), f, n.span);
            }
            b.put_opt(&te, "description", f, &t.description);
            b.put(ent::attr(&te, "domain"), f, t.domain.span);
            b.put_opt(&te, "source_type", f, &t.source_type);
            b.put_opt(&te, "priority", f, &t.priority);
            b.put_opt(&te, "provenance", f, &t.provenance);
            b.licence(&te, f, t.licence.as_ref());
            for e in &t.endpoints {
                let ee = ent::endpoint(&t.id.value, &e.id.value);
                if b.map.contains_key(&ee) {
                    continue;
                }
                b.put(ee.clone(), f, e.id.span);
                b.put(ent::attr(&ee, "method"), f, e.method.span);
                b.put(ent::attr(&ee, "url"), f, e.url.span);
                // Where an endpoint's plannability is decided: `allow_destructive`, else its method.
                match &e.allow_destructive {
                    Some(a) => b.put(ent::attr(&ee, "destructive"), f, a.span),
                    None => b.put(ent::attr(&ee, "destructive"), f, e.method.span),
                }
                b.put_opt(&ee, "description", f, &e.description);
                for p in &e.parameters {
                    let pe = ent::parameter(&t.id.value, &e.id.value, &p.name.value);
                    if b.map.contains_key(&pe) {
                        continue;
                    }
                    b.put(pe.clone(), f, p.name.span);
                    b.put(ent::attr(&pe, "type"), f, p.ty.span);
                    b.put_opt(&pe, "required", f, &p.required);
                    b.put_opt(&pe, "default", f, &p.default);
                    b.put_opt(&pe, "auth", f, &p.auth);
                    b.put_opt(&pe, "join", f, &p.join);
                    b.put_opt(&pe, "description", f, &p.description);
                    if let Some(vals) = &p.enum_values {
                        if let Some(first) = vals.first() {
                            b.put(ent::attr(&pe, "enum"), f, first.span);
                        }
                        for v in vals {
                            b.put(ent::item(&pe, "enum", &scalar_key(&v.value)), f, v.span);
                        }
                    }
                    for bind in &p.bind {
                        b.put(
                            ent::item(&pe, "bind", &bind.concept.value),
                            f,
                            bind.concept.span,
                        );
                    }
                }
                for fd in &e.fields {
                    let fe = ent::field(&t.id.value, &e.id.value, &fd.name.value);
                    if b.map.contains_key(&fe) {
                        continue;
                    }
                    b.put(fe.clone(), f, fd.name.span);
                    b.put(ent::attr(&fe, "type"), f, fd.ty.span);
                    b.put_opt(&fe, "unit", f, &fd.unit);
                    b.put_opt(&fe, "unit_as_published", f, &fd.unit_as_published);
                    b.put_opt(&fe, "identifier", f, &fd.identifier);
                    b.put_opt(&fe, "source_type", f, &fd.source_type);
                    b.put_opt(&fe, "encoding", f, &fd.encoding);
                    b.put_opt(&fe, "missing_value", f, &fd.missing_value);
                    b.put_opt(&fe, "description", f, &fd.description);
                    b.licence(&fe, f, fd.licence.as_deref());
                    for g in &fd.groups {
                        b.put(ent::item(&fe, "groups", &g.value), f, g.span);
                    }
                    for c in &fd.concepts {
                        b.put(ent::item(&fe, "concepts", &c.value), f, c.span);
                    }
                    for (k, v) in &fd.qualifiers {
                        b.put(ent::item(&fe, "qualifiers", k), f, v.span);
                    }
                }
            }
        }
        for i in &project.intents {
            let ie = ent::intent(&i.id.value);
            if b.map.contains_key(&ie) {
                continue;
            }
            b.put(ie.clone(), i.file, i.id.span);
            b.put(ent::attr(&ie, "description"), i.file, i.description.span);
            if let Some(d) = i.domains.first() {
                b.put(ent::attr(&ie, "domains"), i.file, d.span);
            }
            if let Some(g) = i.required_groups.first() {
                b.put(ent::attr(&ie, "required_groups"), i.file, g.span);
            }
            if let Some(x) = i.examples.first() {
                b.put(ent::attr(&ie, "examples"), i.file, x.span);
            }
        }
        for g in &project.groups {
            let ge = ent::group(&g.id.value);
            b.put(ge.clone(), g.file, g.id.span);
            b.put_opt(&ge, "description", g.file, &g.description);
        }
        for d in &project.domains {
            let de = ent::domain(&d.id.value);
            b.put(de.clone(), d.file, d.id.span);
            b.put_opt(&de, "description", d.file, &d.description);
        }
        for c in &project.concepts {
            let ce = ent::concept(&c.id.value);
            if b.map.contains_key(&ce) {
                continue;
            }
            b.put(ce.clone(), c.file, c.id.span);
            b.put_opt(&ce, "kind", c.file, &c.kind);
            b.put_opt(&ce, "unit", c.file, &c.unit);
            b.put_opt(&ce, "dimension", c.file, &c.dimension);
            b.put_opt(&ce, "description", c.file, &c.description);
        }
        let mut alias_texts = BTreeMap::new();
        for u in crate::lint::alias_uses(project) {
            if u.implicit {
                continue;
            }
            let key = normalise_alias(u.text);
            b.put(ent::alias(&key), u.file, u.span);
            alias_texts.entry(key).or_insert_with(|| u.text.to_string());
        }
        let mut acceptances = BTreeMap::new();
        if let Some(cf) = project.config_file {
            for a in &project.config.diff.accept {
                let loc = b.location(cf, a.value.fingerprint.span);
                acceptances
                    .entry(a.value.fingerprint.value.clone())
                    .or_insert(loc);
            }
        }
        Locator {
            map: b.map,
            acceptances,
            alias_texts,
        }
    }

    /// True when nothing is located (an artifact side).
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Where `entity` declares `attr` (or the entity itself when the attribute is not written).
    pub fn attr(&self, entity: &str, attr: Option<&str>) -> Option<Location> {
        attr.and_then(|a| self.map.get(&ent::attr(entity, a)))
            .or_else(|| self.map.get(entity))
            .cloned()
    }

    /// Where one item of a list attribute is written (falling back to the attribute, then the
    /// entity).
    pub fn item(&self, entity: &str, attr: &str, item: &str) -> Option<Location> {
        self.map
            .get(&ent::item(entity, attr, item))
            .cloned()
            .or_else(|| self.attr(entity, Some(attr)))
    }

    /// The first located entity of `candidates` (an entity, then its parents).
    pub fn first(&self, candidates: &[&str]) -> Option<Location> {
        candidates.iter().find_map(|c| self.map.get(*c).cloned())
    }

    /// An alias text as written, from its normalised form.
    pub fn alias_text(&self, normalised: &str) -> Option<&str> {
        self.alias_texts.get(normalised).map(String::as_str)
    }

    /// Where the `[diff] accept` entry with this fingerprint is written.
    pub fn acceptance(&self, fingerprint: &str) -> Option<Location> {
        self.acceptances.get(fingerprint).cloned()
    }
}

/// The key of a scalar in locations and values: its compact JSON (a spelled number as written,
/// so `0x1F` and `31` are different values).
pub fn scalar_key(s: &crate::model::Scalar) -> String {
    serde_json::to_string(&s.to_json_as_written()).unwrap_or_default()
}
