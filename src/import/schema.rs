//! The JSON-Schema mapping shared by every importer: a request schema becomes parameters, a
//! response schema becomes response fields.
//!
//! | JSON Schema | declaration |
//! |---|---|
//! | nested `properties` | dotted field paths (`bulk_modulus.vrh`) |
//! | `type: array` of objects | `[]` paths (`authors[].name`) |
//! | `type: array` of scalars | one field of type `string[]`, `number[][]`, ... |
//! | `required` | `required: true` (every level of the path required) |
//! | `nullable`, `type: [x, "null"]`, `x-nullable`, `oneOf [x, null]` | `nullable: true` |
//! | `allOf` | properties and `required` merged; each property keeps the references of the member it came from ([`Prop::via`]) |
//! | `oneOf` / `anyOf` of objects | the union of their properties, all optional; a field only some alternatives carry gets the qualifier [`VARIANT_QUALIFIER`] |
//! | several non-null types | `any` |
//! | `format: date` / `date-time` | type `date` / `datetime`; other formats kept in `format` |
//! | a non-object response | one field `result` |
//! | an array of objects, a map keyed by id, an envelope around its records | the records path ([`super::records`]) and the fields of one record |
//! | `$ref` | followed (local pointers, relative files); a cycle is cut with a marker field |
//!
//! Expansion is bounded: at most [`MAX_FIELDS`] fields per endpoint, [`MAX_STEPS`] schema
//! visits per endpoint, [`MAX_PATH_DEPTH`] levels and [`MAX_NESTED_SCHEMAS`] levels reached
//! through named schemas per path; cutting is reported.

use super::refs::{Loc, RefError, Resolver};
use crate::diagnostics::{Diagnostic, Severity};
use crate::model::{Parameter, ResponseField, Scalar, Sp, ValueType};
use serde_json::Value;

/// Most fields and parameters one document may expand to (about the 8 MiB a declaration file
/// may have): past it the import is refused early, with a hint to use `--only`.
pub const MAX_DOCUMENT_FIELDS: usize = 120_000;
/// Most response fields imported for one endpoint.
pub const MAX_FIELDS: usize = 1_000;
/// Most levels of a field path reached through a named schema (a reference target, or a
/// composition member that is one; [`View::named`]) before an object is imported as one field:
/// APIs whose objects embed each other (expandable references) would otherwise expand into
/// every object of the API under every endpoint. A level counts once however many `allOf`
/// layers make it up.
pub const MAX_NESTED_SCHEMAS: usize = 4;
/// Most schema visits for one endpoint (reference expansion budget).
pub const MAX_STEPS: usize = 200_000;
/// Deepest chain of references being expanded at once.
pub const MAX_REF_DEPTH: usize = 64;
/// Deepest field path (object levels).
pub const MAX_PATH_DEPTH: usize = 24;

/// A normalised schema: what a value is, after references, `allOf`, `oneOf`/`anyOf` and type
/// lists are taken into account.
#[derive(Clone, Debug)]
pub struct View<'a> {
    /// The shape.
    pub kind: Kind<'a>,
    /// The value may be null.
    pub nullable: bool,
    /// `description` (or `title` when there is no description).
    pub description: Option<String>,
    /// `format`.
    pub format: Option<String>,
    /// `enum` values that are scalars.
    pub enum_values: Vec<Scalar>,
    /// `default`, when a scalar.
    pub default: Option<Scalar>,
    /// The validation keywords (`minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`,
    /// `minLength`, `maxLength`, `pattern`, `minItems`, `maxItems`; [`bounds_of`]).
    pub bounds: crate::model::Bounds,
    /// The text a YAML source wrote for a number of `enum` or `default` whose spelling is not
    /// the number's own (`0755`, `0x1F`, `1.10`), by the number's canonical text: a text-typed
    /// parameter keeps what was written, as `check` keeps it in a hand-written file.
    pub written: std::collections::BTreeMap<String, String>,
    /// What the `default` is when it is present but not a scalar (`a list`, `an object`;
    /// `null` counts as no default): it cannot be declared, and the importer says so.
    pub default_unscalar: Option<&'static str>,
    /// What a `const` that is a list or an object is ("a list"): no declared enum holds it.
    pub const_unscalar: Option<&'static str>,
    /// References followed to reach this view (pushed on the cycle stack while its children are
    /// walked). References of `allOf` / `oneOf` / `anyOf` members are not among them: each
    /// property keeps those of the member it came from ([`Prop::via`]), since a member is
    /// expanded only for the properties it gives.
    pub via: Vec<String>,
    /// Whether the value is reached through a named schema: a reference, or a composition
    /// member that is one. Such a level counts once against a field path's budget of named
    /// schemas ([`MAX_NESTED_SCHEMAS`]), however many `allOf` layers make it up.
    pub named: bool,
    /// A reference that was not expanded because it is already being expanded (a cycle).
    pub cycle: Option<String>,
    /// The schema of the members of an object that is a map keyed by name or id
    /// (`additionalProperties` holding a schema), for records inferred at a map (`result.{}`).
    pub values: Option<Box<Loc<'a>>>,
    /// `readOnly: true`: sent by the server only (never a request parameter).
    pub read_only: bool,
    /// `writeOnly: true`: sent by the client only (never a response field).
    pub write_only: bool,
    /// The names the schema's `required` lists, with those of its `allOf` members, whether or
    /// not it declares them as properties: an `allOf` member may require a property another
    /// member declares.
    pub required: Vec<String>,
}

impl<'a> View<'a> {
    /// A view of shape `kind` with nothing else known (not nullable, no description, format,
    /// enumeration or default, reached directly, not read- or write-only).
    pub fn of(kind: Kind<'a>) -> Self {
        View {
            kind,
            nullable: false,
            description: None,
            format: None,
            enum_values: Vec::new(),
            default: None,
            bounds: Default::default(),
            written: Default::default(),
            default_unscalar: None,
            const_unscalar: None,
            via: Vec::new(),
            named: false,
            cycle: None,
            values: None,
            read_only: false,
            write_only: false,
            required: Vec::new(),
        }
    }
}

/// One property of an object [`View`].
#[derive(Clone, Debug)]
pub struct Prop<'a> {
    /// The property name.
    pub name: String,
    /// Its schema.
    pub loc: Loc<'a>,
    /// Whether the object requires it.
    pub required: bool,
    /// The references of the `allOf` / `oneOf` / `anyOf` members it came from (outermost
    /// first): on the cycle stack while the property is walked, and only then.
    pub via: Vec<String>,
    /// The alternatives of the nearest `oneOf` / `anyOf` that carry the property when not all of
    /// them do (`Cat`, `Cat or Dog`): see [`VARIANT_QUALIFIER`].
    pub variant: Option<String>,
}

impl<'a> Prop<'a> {
    /// A property declared directly (not through a composition member).
    pub fn new(name: impl Into<String>, loc: Loc<'a>, required: bool) -> Prop<'a> {
        Prop {
            name: name.into(),
            loc,
            required,
            via: Vec::new(),
            variant: None,
        }
    }
}

/// The field qualifier key that names the `oneOf` / `anyOf` alternatives a response field
/// belongs to when not every alternative carries it (`qualifiers: {variant: Cat}`): the
/// alternative's `$ref` name, else its `title`, else `alternative N` (its position, from 1);
/// several joined with ` or `. The nearest union that tells the field apart names it.
pub const VARIANT_QUALIFIER: &str = "variant";

/// The shape of a [`View`].
#[derive(Clone, Debug)]
pub enum Kind<'a> {
    /// An object: its properties in document order.
    Object(Vec<Prop<'a>>),
    /// An array and its item schema (`None`: items not declared).
    Array(Option<Box<Loc<'a>>>),
    /// A scalar of this type.
    Scalar(ValueType),
    /// Anything (no type, several types, a cut cycle).
    Any,
}

/// Maps schemas of one source into parameters and fields, collecting findings.
pub struct Mapper<'r> {
    /// The documents.
    pub r: &'r Resolver,
    /// Findings so far (errors refuse the import; warnings and infos are printed).
    pub findings: Vec<Diagnostic>,
    stack: Vec<String>,
    steps: usize,
    fields: usize,
    cut_reported: bool,
    nesting_reported: bool,
    /// Cycles already reported (by the place of the `$ref`), so that a schema shared by many
    /// endpoints is reported once.
    cycles_reported: std::collections::BTreeSet<String>,
    /// `type` values already reported as no JSON Schema type (by place), once each.
    types_reported: std::collections::BTreeSet<String>,
    /// Levels of the field path being walked that were reached through a named schema
    /// ([`View::named`]), counted against [`MAX_NESTED_SCHEMAS`].
    named_levels: usize,
    /// `required` entries already reported as naming no property (by place), once each.
    required_reported: std::collections::BTreeSet<String>,
    /// Object schemas whose `required` lists were judged (by place): a schema shared by many
    /// endpoints is judged once, not walked again for each.
    required_checked: std::collections::BTreeSet<String>,
    /// How many `allOf`, `oneOf` or `anyOf` members are being normalised around the current
    /// schema: a member's `required` may name a property another member (or the schema around
    /// it) declares, so it is judged only on the merged object.
    member_depth: usize,
    /// Where the current endpoint is, for messages (`pets/list_pets`).
    pub context: String,
    /// The resource the current endpoint lists, when its path or name says one
    /// ([`super::records::resource_of_path`]): a list so named holds the records.
    pub resource: Option<String>,
}

/// One imported response field before it becomes a declaration.
type FieldList = Vec<Sp<ResponseField>>;

/// What a walk over a response schema gives: the fields, and the maps keyed by id met on the
/// way (each written as one `object` field) that records could sit in.
#[derive(Default)]
struct Walked<'a> {
    fields: FieldList,
    maps: Vec<MapCandidate<'a>>,
}

impl Walked<'_> {
    /// Add a field, with the [`VARIANT_QUALIFIER`] when it belongs to some alternatives only.
    fn push(&mut self, mut f: Sp<ResponseField>, variant: Option<&str>) {
        if let Some(v) = variant {
            f.value
                .qualifiers
                .insert(VARIANT_QUALIFIER.to_string(), Sp::synthetic(v.to_string()));
        }
        self.fields.push(f);
    }
}

/// A map keyed by id (`additionalProperties` holding a schema) met at `path`, kept so that its
/// values can be walked as records if the records are found there.
struct MapCandidate<'a> {
    /// The field path of the map.
    path: String,
    /// The schema of its values.
    values: Loc<'a>,
    /// The stack of references being expanded at the map (the values are walked under it).
    stack: Vec<String>,
    /// Named levels above the values.
    named_levels: usize,
    /// The variant the map belongs to.
    variant: Option<String>,
}

fn scalar(v: &Value) -> Option<Scalar> {
    match v {
        Value::String(s) => Some(Scalar::String(s.clone())),
        Value::Bool(b) => Some(Scalar::Boolean(*b)),
        // A whole number beyond `i64` (`18446744073709551615`) keeps its spelling for messages.
        Value::Number(n) => n.as_i64().map(Scalar::Integer).or_else(|| {
            let f = n.as_f64()?;
            Some(match n.as_u64() {
                Some(u) => Scalar::number(f, &u.to_string()),
                None => Scalar::Number(f),
            })
        }),
        _ => None,
    }
}

fn text(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str)
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// The declaration type of a JSON-Schema scalar type name and format.
fn scalar_type(name: &str, format: Option<&str>) -> Option<ValueType> {
    Some(match name {
        "string" => match format {
            Some("date") => ValueType::Date,
            Some("date-time") => ValueType::DateTime,
            _ => ValueType::String,
        },
        "integer" => ValueType::Integer,
        "number" => ValueType::Number,
        "boolean" => ValueType::Boolean,
        // Swagger 2.0 `type: file` (a download or an upload).
        "file" => ValueType::String,
        _ => return None,
    })
}

impl<'r> Mapper<'r> {
    /// A mapper over the resolver's documents.
    pub fn new(r: &'r Resolver) -> Mapper<'r> {
        Mapper {
            r,
            findings: Vec::new(),
            stack: Vec::new(),
            steps: 0,
            fields: 0,
            cut_reported: false,
            nesting_reported: false,
            cycles_reported: Default::default(),
            types_reported: Default::default(),
            required_reported: Default::default(),
            required_checked: Default::default(),
            named_levels: 0,
            member_depth: 0,
            context: String::new(),
            resource: None,
        }
    }

    /// Start a new endpoint: budgets reset.
    pub fn begin(&mut self, context: impl Into<String>) {
        self.context = context.into();
        self.resource = None;
        self.stack.clear();
        self.named_levels = 0;
        self.steps = 0;
        self.fields = 0;
        self.cut_reported = false;
    }

    /// Report a schema `type` (at `t`: a name or a list of names) that names no JSON Schema
    /// type (`interger`, `7`): the schema is imported as `any`, which would otherwise go
    /// unnoticed. Once per place, however many endpoints share the schema.
    fn check_type_names(&mut self, t: &Loc<'_>) {
        /// The JSON Schema type names, and Swagger 2.0's `file`.
        const TYPES: [&str; 8] = [
            "string", "number", "integer", "boolean", "object", "array", "null", "file",
        ];
        let bad: Vec<String> = match t.value {
            Value::String(n) if !TYPES.contains(&n.as_str()) => vec![format!("`{n}`")],
            Value::String(_) => Vec::new(),
            Value::Array(items) => items
                .iter()
                .filter(|i| !i.as_str().is_some_and(|n| TYPES.contains(&n)))
                .map(|i| match i {
                    Value::String(n) => format!("`{n}`"),
                    other => format!("{} ({other})", super::kind_of(other)),
                })
                .collect(),
            other => vec![format!("{} ({other})", super::kind_of(other))],
        };
        if bad.is_empty() || !self.types_reported.insert(t.key()) {
            return;
        }
        let guess = match t.value {
            Value::String(n) => crate::model::value::did_you_mean(n, TYPES),
            _ => None,
        };
        let list = "string, number, integer, boolean, object, array or null";
        let help = match guess {
            Some(g) => format!(
                "did you mean `{g}`? A JSON Schema `type` is one of {list}, or a list of them"
            ),
            None => format!("a JSON Schema `type` is one of {list}, or a list of them"),
        };
        // In a list, point at the first name that is wrong.
        let first_bad = match t.value {
            Value::Array(items) => items
                .iter()
                .position(|i| !i.as_str().is_some_and(|n| TYPES.contains(&n)))
                .and_then(|i| t.get(&i.to_string())),
            _ => None,
        };
        self.report(
            super::codes::UNSUPPORTED_SOURCE,
            Severity::Warning,
            first_bad.as_ref().unwrap_or(t),
            format!(
                "`type` {} {}; this schema is imported as `any`",
                bad.join(", "),
                if bad.len() == 1 {
                    "is no JSON Schema type"
                } else {
                    "are no JSON Schema types"
                }
            ),
            help,
        );
    }

    /// Reports each name of the object schema's `required` lists (its own and its members', at
    /// `loc`) that none of its properties declares, after members are merged (`required: [nmae]` beside
    /// `properties: {name: ...}`): nothing can be imported for it, and the property it meant
    /// is imported as optional. A schema with no properties, or one that admits other
    /// properties (`additionalProperties` or `unevaluatedProperties` other than `false`,
    /// `patternProperties`), may require names it does not list, and is not judged. Once per
    /// place, however many endpoints share the schema (a warning, SR705).
    fn check_required_names(&mut self, loc: &Loc<'_>, props: &[Prop<'_>]) {
        let Some(o) = loc.value.as_object() else {
            return;
        };
        // `additionalProperties: false` closes the object: a name it requires must be declared.
        let admits_others = |key: &str| o.get(key).is_some_and(|v| v != &Value::Bool(false));
        if props.is_empty()
            || admits_others("additionalProperties")
            || admits_others("unevaluatedProperties")
            || o.contains_key("patternProperties")
            || !self.required_checked.insert(loc.key())
        {
            return;
        }
        let mut entries = Vec::new();
        self.required_entries(loc, 0, &mut entries);
        for (n, at) in entries {
            let n = n.as_str();
            if props.iter().any(|p| same_name(&p.name, n)) {
                continue;
            }
            if !self.required_reported.insert(at.key()) {
                continue;
            }
            let guess = crate::model::value::did_you_mean(n, props.iter().map(|p| p.name.as_str()));
            let ctx = self.context.clone();
            let help = match guess {
                Some(g) => format!("did you mean `{g}`? Fix the `required` list in the source"),
                None => "fix the `required` list in the source, or declare the property it means"
                    .to_string(),
            };
            self.report(
                super::codes::UNSUPPORTED_SOURCE,
                Severity::Warning,
                &at,
                format!("`{ctx}`: `required` names `{n}`, which no property of the object declares; nothing is imported for it"),
                help,
            );
        }
    }

    /// The names of the `required` list of the schema at `loc` and of its `allOf`, `oneOf` and
    /// `anyOf` members (through references, at most 8 levels), each with the place it is
    /// written.
    fn required_entries<'a>(&self, loc: &Loc<'a>, depth: usize, out: &mut Vec<(String, Loc<'a>)>)
    where
        'r: 'a,
    {
        if depth > 8 {
            return;
        }
        let mut loc = loc.clone();
        for _ in 0..8 {
            let Some(r) = loc.value.get("$ref").and_then(Value::as_str) else {
                break;
            };
            match self.r.follow(&loc, r) {
                Ok(t) => loc = t,
                Err(_) => return,
            }
        }
        if let Some(list) = loc.get("required")
            && let Value::Array(names) = list.value
        {
            for (i, n) in names.iter().enumerate() {
                if let (Some(n), Some(at)) = (n.as_str(), list.get(&i.to_string())) {
                    out.push((n.to_string(), at));
                }
            }
        }
        for key in ["allOf", "oneOf", "anyOf"] {
            if let Some(all) = loc.get(key)
                && let Value::Array(members) = all.value
            {
                for i in 0..members.len() {
                    if let Some(m) = all.get(&i.to_string()) {
                        self.required_entries(&m, depth + 1, out);
                    }
                }
            }
        }
    }

    /// A finding at `loc`.
    pub fn report(
        &mut self,
        code: (&'static str, &'static str),
        severity: Severity,
        loc: &Loc<'_>,
        message: impl Into<String>,
        help: impl Into<String>,
    ) {
        let doc = &self.r.docs[loc.doc];
        let span = doc.span_of(&loc.pointer);
        self.findings.push(
            Diagnostic::new(code.0, code.1, severity, message)
                .at(doc.file, span, "")
                .help(help),
        );
    }

    /// Whether the reference cycle closed by the `$ref` in the object at `loc` is met for the
    /// first time (a cycle shared by many endpoints is reported once).
    pub fn first_cycle_at(&mut self, loc: &Loc<'_>) -> bool {
        self.cycles_reported.insert(loc.key())
    }

    /// At the end of a source: refuse it when it gave no endpoint (and nothing else refused it).
    /// `only` is the `--only` pattern when one was given; `none` says what the source lacks.
    pub fn require_endpoints(
        &mut self,
        count: usize,
        loc: &Loc<'_>,
        only: Option<&str>,
        none: &str,
    ) {
        if count > 0 || self.findings.iter().any(|d| d.severity == Severity::Error) {
            return;
        }
        let (why, help) = match only {
            // `{a,b}` is a glob alternation: a templated path (`/pets/{petId}`) matches only
            // with the braces escaped.
            Some(p) if p.contains(['{', '}']) => (
                format!("nothing matches `--only {p}`"),
                "in a glob `{a,b}` means `a` or `b`: to match a templated path write the braces as `[{]` and `[}]`, or a `*` in their place (`/pets/*`)".to_string(),
            ),
            Some(p) => (
                format!("nothing matches `--only {p}`"),
                "`--only` matches endpoint ids (snake case: `get_pet_by_id`), operationIds, MCP tool names and paths; `*` matches any text".to_string(),
            ),
            None => (
                none.to_string(),
                "a tool needs at least one endpoint; check the source".to_string(),
            ),
        };
        self.report(
            super::codes::UNSUPPORTED_SOURCE,
            Severity::Error,
            loc,
            format!("nothing to import: {why}"),
            help,
        );
    }

    fn over_budget(&mut self, loc: &Loc<'_>) -> bool {
        self.steps += 1;
        if self.steps <= MAX_STEPS && self.fields < MAX_FIELDS {
            return false;
        }
        if !self.cut_reported {
            self.cut_reported = true;
            let ctx = self.context.clone();
            self.report(
                super::codes::EXPANSION_LIMIT,
                Severity::Warning,
                loc,
                format!(
                    "`{ctx}`: the schema expands to more than {MAX_FIELDS} fields (or {MAX_STEPS} schema visits); the rest is cut"
                ),
                "fields past the cut are not imported; declare the ones you need by hand, or simplify the schema",
            );
        }
        true
    }

    /// The help of an unresolved `$ref` written at `loc`, with an example pointer of the
    /// document's kind: in a tool's own JSON Schema (an MCP tool's `inputSchema`, whose `#` is
    /// that schema's root) `#/$defs/Name`; in Swagger 2.0 `#/definitions/Name`; else
    /// `#/components/schemas/Name`.
    fn ref_help(&self, loc: &Loc<'_>) -> String {
        if !loc.scope.is_empty() {
            return format!(
                "fix the reference: in a tool's schema `#` is that schema's root (`{}` in this document), e.g. `#/$defs/Name` for a schema under its `$defs`",
                loc.scope
            );
        }
        let example = if self.r.root().value.get("swagger").is_some() {
            "#/definitions/Name"
        } else {
            "#/components/schemas/Name"
        };
        format!(
            "fix the reference so that it points at a schema in this document (e.g. `{example}`)"
        )
    }

    /// Normalise the schema at `loc`.
    pub fn view<'a>(&mut self, loc: &Loc<'a>) -> View<'a>
    where
        'r: 'a,
    {
        let mut via = Vec::new();
        let loc = loc.clone();
        // Follow a reference (a chain of them recursively).
        let hops = 0;
        if let Some(r) = loc.value.get("$ref").and_then(Value::as_str) {
            let r = r.to_string();
            let siblings = loc.clone();
            // Findings about the reference point at its `$ref` value.
            let at_ref = match loc.get("$ref") {
                Some(l) => l,
                None => loc.clone(),
            };
            match self.r.follow(&loc, &r) {
                Ok(target) => {
                    let key = target.key();
                    let cycle = self.stack.contains(&key) || via.contains(&key);
                    if cycle || hops > 64 || self.stack.len() > MAX_REF_DEPTH {
                        let ctx = self.context.clone();
                        // A cut array (a list of lists) stays an array; anything else is
                        // taken for the object most recursive schemas are.
                        let array =
                            target.value.get("type").and_then(Value::as_str) == Some("array");
                        if self.cycles_reported.insert(siblings.key()) {
                            self.report(
                                super::codes::REFERENCE_CYCLE,
                                Severity::Info,
                                &at_ref,
                                if cycle {
                                    format!("`$ref: {r}` refers back to a schema being expanded (a cycle); cut here (first met in `{ctx}`)")
                                } else {
                                    format!("`$ref: {r}` is reached through more than {MAX_REF_DEPTH} nested references (a chain, not a cycle); cut here, at the import's depth limit (first met in `{ctx}`)")
                                },
                                format!(
                                    "the field is imported as an {} marked recursive; declare deeper fields by hand if a plan needs them",
                                    if array { "array" } else { "object" }
                                ),
                            );
                        }
                        let kind = if array { Kind::Array(None) } else { Kind::Any };
                        return View {
                            description: text(siblings.value.get("description")),
                            via,
                            cycle: Some(r),
                            ..View::of(kind)
                        };
                    }
                    via.push(key.clone());
                    // OpenAPI 3.1 / JSON Schema 2020-12 let siblings refine a reference; keep
                    // a sibling description over the target's.
                    let desc = text(siblings.value.get("description"));
                    // While the target is normalised (its `allOf` members may refer back to
                    // it), it counts as being expanded.
                    self.stack.push(key);
                    let mut v = if target.value.get("$ref").is_some() {
                        self.view(&target)
                    } else {
                        self.view_inner(&target, Vec::new())
                    };
                    self.stack.pop();
                    via.extend(std::mem::take(&mut v.via));
                    v.via = via;
                    v.named = true;
                    if desc.is_some() {
                        v.description = desc;
                    }
                    if siblings.value.get("nullable") == Some(&Value::Bool(true)) {
                        v.nullable = true;
                    }
                    v.read_only |= siblings.value.get("readOnly") == Some(&Value::Bool(true));
                    v.write_only |= siblings.value.get("writeOnly") == Some(&Value::Bool(true));
                    // Sibling `properties` and `required` refine the referenced object
                    // (OpenAPI 3.1 and JSON Schema 2020-12 apply them; a 3.0 author who writes
                    // them means them too).
                    let sibling_props = siblings
                        .get("properties")
                        .filter(|p| p.value.as_object().is_some_and(|o| !o.is_empty()));
                    if let Some(p) = sibling_props
                        && let Value::Object(map) = p.value
                        && matches!(v.kind, Kind::Object(_) | Kind::Any)
                        && v.cycle.is_none()
                    {
                        if !matches!(v.kind, Kind::Object(_)) {
                            v.kind = Kind::Object(Vec::new());
                        }
                        if let Kind::Object(ps) = &mut v.kind {
                            let new = map.keys().filter_map(|name| {
                                p.get(name).map(|l| Prop::new(name.clone(), l, false))
                            });
                            merge_props(ps, new);
                        }
                    }
                    if let Some(Value::Array(r)) = siblings.value.get("required") {
                        let names: Vec<String> = r
                            .iter()
                            .filter_map(Value::as_str)
                            .map(str::to_string)
                            .collect();
                        if let Kind::Object(ps) = &mut v.kind {
                            for p in ps.iter_mut() {
                                if names.contains(&p.name) {
                                    p.required = true;
                                }
                            }
                        }
                        v.required.extend(names);
                        v.required.sort();
                        v.required.dedup();
                    }
                    return v;
                }
                Err(e) => {
                    let (code, message, help) = match e {
                        RefError::Remote(r) => (
                            super::codes::REMOTE_REFERENCE,
                            if r.trim_start().starts_with('/') && !r.trim_start().starts_with("//") {
                                format!("`$ref: {r}` is an absolute path; only paths relative to the document are followed")
                            } else {
                                format!("`$ref: {r}` is a remote reference; nothing is fetched")
                            },
                            "download the referenced document beside this one and write the reference as a relative file, or bundle the description first".to_string(),
                        ),
                        RefError::Unresolved { reference, reason } => (
                            super::codes::UNRESOLVED_REFERENCE,
                            format!("`$ref: {reference}` cannot be resolved: {reason}"),
                            self.ref_help(&loc),
                        ),
                    };
                    // A file that could not be read was reported once, where it was read.
                    if !message.ends_with("could not be read") {
                        self.report(code, Severity::Error, &at_ref, message, help);
                    }
                    return View {
                        via,
                        ..View::of(Kind::Any)
                    };
                }
            }
        }
        self.view_inner(&loc, via)
    }

    /// Record in `written` the text the YAML source wrote for the number at `rel` under the
    /// schema at `loc`, when it is not the number's canonical spelling (`0755`, `0x1F`, `1.10`).
    fn as_written(
        &self,
        loc: &Loc<'_>,
        rel: &str,
        v: &Value,
        written: &mut std::collections::BTreeMap<String, String>,
    ) {
        let doc = &self.r.docs[loc.doc];
        let Some(plain @ (Scalar::Integer(_) | Scalar::Number(_))) = scalar(v) else {
            return;
        };
        if !matches!(doc.format, super::doc::DocFormat::Yaml) {
            return;
        }
        let span = doc.span_of(&format!("{}{rel}", loc.pointer));
        let raw = doc
            .text
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
            .trim();
        let numeric = !raw.is_empty()
            && raw
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'+' | b'-' | b'_'));
        let canonical = plain.to_string();
        if numeric && raw != canonical {
            written.insert(canonical, raw.to_string());
        }
    }

    fn view_inner<'a>(&mut self, loc: &Loc<'a>, via: Vec<String>) -> View<'a>
    where
        'r: 'a,
    {
        let v = loc.value;
        let mut out = View {
            description: text(v.get("description")).or_else(|| text(v.get("title"))),
            format: text(v.get("format")),
            default: v.get("default").and_then(scalar),
            default_unscalar: match v.get("default") {
                Some(Value::Array(_)) => Some("a list"),
                Some(Value::Object(_)) => Some("an object"),
                _ => None,
            },
            via,
            ..View::of(Kind::Any)
        };
        if self.over_budget(loc) {
            return out;
        }
        let Value::Object(o) = v else {
            // `true` / `{}` schemas accept anything.
            return out;
        };
        if let Some(d) = o.get("default") {
            self.as_written(loc, "/default", d, &mut out.written);
        }
        out.bounds = bounds_of(o);
        out.read_only = o.get("readOnly") == Some(&Value::Bool(true));
        out.write_only = o.get("writeOnly") == Some(&Value::Bool(true));
        if let Some(Value::Array(e)) = o.get("enum") {
            // A repeated value is kept once; a set of the values seen keeps a long list linear.
            let mut seen = std::collections::HashSet::new();
            for (i, x) in e.iter().enumerate() {
                self.as_written(loc, &format!("/enum/{i}"), x, &mut out.written);
                match scalar(x) {
                    Some(s) if seen.insert(EnumKey::of(&s)) => out.enum_values.push(s),
                    Some(_) => {}
                    None if x.is_null() => out.nullable = true,
                    None => {}
                }
            }
        }
        // `const` is an enumeration of one value (JSON Schema draft 6 and later; OpenAPI 3.1).
        if let Some(c) = o.get("const")
            && o.get("enum").is_none()
        {
            match (scalar(c), c) {
                (Some(s), _) => out.enum_values.push(s),
                (None, Value::Null) => out.nullable = true,
                (None, Value::Array(_)) => out.const_unscalar = Some("a list"),
                (None, _) => out.const_unscalar = Some("an object"),
            }
        }
        if o.get("nullable") == Some(&Value::Bool(true))
            || o.get("x-nullable") == Some(&Value::Bool(true))
        {
            out.nullable = true;
        }
        // The declared type(s).
        if let Some(t) = loc.get("type") {
            self.check_type_names(&t);
        }
        let mut types: Vec<&str> = match o.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if types.contains(&"null") {
            out.nullable = true;
            types.retain(|t| *t != "null");
        }
        // allOf: merge every member; oneOf / anyOf: the union, every property optional.
        let mut props: Vec<Prop<'a>> = Vec::new();
        let mut required: Vec<String> = Vec::new();
        let mut objecty = types.contains(&"object") || o.contains_key("properties");
        let mut members = Members::default();
        self.merge_all_of(loc, &mut out, &mut props, &mut required, &mut members);
        self.merge_alternatives(loc, &mut out, &mut props, &mut members);
        objecty |= members.object;
        // Own properties.
        if let Some(p) = loc.get("properties")
            && let Value::Object(map) = p.value
        {
            let new = map
                .keys()
                .filter_map(|name| p.get(name).map(|l| Prop::new(name.clone(), l, false)));
            merge_props(&mut props, new);
        }
        if let Some(Value::Array(r)) = o.get("required") {
            required.extend(r.iter().filter_map(Value::as_str).map(str::to_string));
        }
        for p in props.iter_mut() {
            if required.contains(&p.name) {
                p.required = true;
            }
        }
        if objecty && self.member_depth == 0 {
            self.check_required_names(loc, &props);
        }
        required.sort();
        required.dedup();
        out.required = required;
        // A map keyed by name or id: `additionalProperties` holding a schema.
        out.values = loc
            .get("additionalProperties")
            .filter(|a| a.value.is_object())
            .map(Box::new);
        // Decide the kind.
        let non_object_types: Vec<&str> =
            types.iter().copied().filter(|t| *t != "object").collect();
        out.kind = if members.alternatives_object
            && (!members.alternatives_scalar.is_empty() || members.alternatives_other)
        {
            // An id or an embedded object (`anyOf: [string, Customer]`): no one shape.
            Kind::Any
        } else if objecty && non_object_types.is_empty() {
            Kind::Object(props)
        } else if non_object_types.len() > 1 || (objecty && !non_object_types.is_empty()) {
            Kind::Any
        } else if non_object_types == ["array"] {
            Kind::Array(loc.get("items").map(Box::new))
        } else if let Some(t) = non_object_types.first() {
            match scalar_type(t, out.format.as_deref()) {
                Some(t) => Kind::Scalar(t),
                None => Kind::Any,
            }
        } else if let Some((k, via)) = members.kind {
            if members.alternatives_other || !members.alternatives_scalar.is_empty() {
                Kind::Any
            } else {
                // An array (or scalar) shape from a member: its items are the member's, reached
                // through the member's references.
                out.via.extend(via);
                out.named |= members.named;
                k
            }
        } else if members.alternatives_scalar.len() == 1 && !members.alternatives_other {
            Kind::Scalar(members.alternatives_scalar[0].clone())
        } else if o.contains_key("items") {
            Kind::Array(loc.get("items").map(Box::new))
        } else if o.contains_key("additionalProperties") {
            Kind::Object(Vec::new())
        } else {
            Kind::Any
        };
        if matches!(out.kind, Kind::Object(_)) {
            out.named |= members.named;
        }
        out
    }

    /// Merge the `allOf` members of the schema at `loc`: their properties (each keeping the
    /// member's references in [`Prop::via`]), `required` lists, description, format and
    /// nullability; a member of another shape (an array) is remembered in `members`.
    fn merge_all_of<'a>(
        &mut self,
        loc: &Loc<'a>,
        out: &mut View<'a>,
        props: &mut Vec<Prop<'a>>,
        required: &mut Vec<String>,
        members: &mut Members<'a>,
    ) where
        'r: 'a,
    {
        let Some(all) = loc.get("allOf") else { return };
        let Value::Array(items) = all.value else {
            return;
        };
        for i in 0..items.len() {
            let Some(m) = all.get(&i.to_string()) else {
                continue;
            };
            self.member_depth += 1;
            let mv = self.view(&m);
            self.member_depth -= 1;
            members.named |= mv.named;
            if out.description.is_none() {
                out.description = mv.description.clone();
            }
            if out.format.is_none() {
                out.format = mv.format.clone();
            }
            fill_bounds(&mut out.bounds, &mv.bounds);
            out.nullable |= mv.nullable;
            // A member's `required` may name properties another member declares.
            required.extend(mv.required);
            match mv.kind {
                Kind::Object(ps) => {
                    members.object = true;
                    let new = ps.into_iter().map(|mut p| {
                        p.via.splice(0..0, mv.via.iter().cloned());
                        p
                    });
                    merge_props(props, new);
                }
                Kind::Any => {}
                other => members.kind = Some((other, mv.via)),
            }
        }
    }

    /// Merge the `oneOf` / `anyOf` alternatives of the schema at `loc`: the union of their
    /// properties, all optional, each keeping its alternative's references in [`Prop::via`]
    /// and, when not every object alternative carries it, the alternatives that do in
    /// [`Prop::variant`]; scalar and other shapes are tallied in `members`.
    fn merge_alternatives<'a>(
        &mut self,
        loc: &Loc<'a>,
        out: &mut View<'a>,
        props: &mut Vec<Prop<'a>>,
        members: &mut Members<'a>,
    ) where
        'r: 'a,
    {
        // The union's properties, and for each the labels it stands under in the object
        // alternatives that carry it (its own nearer variant, else the alternative's label).
        let mut union: Vec<Prop<'a>> = Vec::new();
        let mut under: Vec<Vec<(String, bool)>> = Vec::new();
        let mut object_alternatives = 0;
        let mut position = 0;
        for key in ["oneOf", "anyOf"] {
            let Some(alts) = loc.get(key) else { continue };
            let Value::Array(items) = alts.value else {
                continue;
            };
            for i in 0..items.len() {
                let Some(m) = alts.get(&i.to_string()) else {
                    continue;
                };
                position += 1;
                // A bare `{type: null}` alternative only makes the value nullable.
                if m.value.get("type").and_then(Value::as_str) == Some("null") {
                    out.nullable = true;
                    continue;
                }
                self.member_depth += 1;
                let mv = self.view(&m);
                self.member_depth -= 1;
                members.named |= mv.named;
                out.nullable |= mv.nullable;
                if out.description.is_none() {
                    out.description = mv.description.clone();
                }
                match mv.kind {
                    Kind::Object(ps) => {
                        members.object = true;
                        members.alternatives_object = true;
                        object_alternatives += 1;
                        let label = alternative_label(&m, position);
                        for mut p in ps {
                            p.via.splice(0..0, mv.via.iter().cloned());
                            p.required = false;
                            let nearer = p.variant.take();
                            let at = (
                                nearer.clone().unwrap_or_else(|| label.clone()),
                                nearer.is_some(),
                            );
                            match union.iter().position(|q| q.name == p.name) {
                                Some(j) => under[j].push(at),
                                None => {
                                    union.push(p);
                                    under.push(vec![at]);
                                }
                            }
                        }
                    }
                    Kind::Scalar(t) => {
                        if !members.alternatives_scalar.contains(&t) {
                            members.alternatives_scalar.push(t)
                        }
                    }
                    Kind::Array(items) => {
                        members.alternatives_other = true;
                        if members.kind.is_none() {
                            members.kind = Some((Kind::Array(items), mv.via));
                        }
                    }
                    // A cut cycle (`anyOf: [{$ref: Self}, {type: null}]`) is an object.
                    Kind::Any if mv.cycle.is_some() => {
                        members.object = true;
                        members.alternatives_object = true;
                        out.cycle = mv.cycle.clone();
                    }
                    Kind::Any => members.alternatives_other = true,
                }
            }
        }
        for (mut p, at) in union.into_iter().zip(under) {
            // Carried by every object alternative, and by none only under a nearer variant:
            // no variant.
            let everywhere =
                at.len() >= object_alternatives && at.iter().all(|(_, nearer)| !nearer);
            if object_alternatives > 1 && !everywhere {
                let mut labels: Vec<String> = Vec::new();
                for (l, _) in at {
                    for part in l.split(" or ") {
                        if !labels.iter().any(|x| x == part) {
                            labels.push(part.to_string());
                        }
                    }
                }
                p.variant = Some(labels.join(" or "));
            }
            merge_prop(props, p);
        }
    }

    /// The declaration type of a view (arrays with their item types, objects as `object`).
    pub fn value_type(&mut self, v: &View<'_>) -> ValueType {
        match &v.kind {
            Kind::Scalar(t) => t.clone(),
            Kind::Object(_) => ValueType::Object,
            Kind::Any if v.cycle.is_some() => ValueType::Object,
            Kind::Any => ValueType::Any,
            Kind::Array(None) => ValueType::Array(Box::new(ValueType::Any)),
            Kind::Array(Some(items)) => {
                // The references that led here count as being expanded while the items are
                // looked at: an array of itself (`Node: {type: array, items: {$ref: Node}}`) is
                // a cycle, cut there, not a recursion without end.
                let items = (**items).clone();
                let via = v.via.clone();
                self.with_via(&via, false, |m| {
                    let iv = m.view(&items);
                    ValueType::Array(Box::new(m.value_type(&iv)))
                })
            }
        }
    }

    /// Response fields of a response schema, and where the records sit (`records`): `[]` for
    /// a top-level array of objects, `{}` for a top-level map keyed by id whose values are
    /// objects, else the record list of an envelope when it is clear ([`super::records`]:
    /// `data[]`, `result.items[]`, `result.{}`), with the fields of one record named inside it;
    /// `None` when the response is one record.
    pub fn response_fields<'a>(&mut self, loc: &Loc<'a>) -> (FieldList, Option<String>)
    where
        'r: 'a,
    {
        let v = self.view(loc);
        let mut w = Walked::default();
        match &v.kind {
            Kind::Object(props) if !props.is_empty() => {
                let props = props.clone();
                self.with_via(&v.via, v.named, |m| {
                    m.walk(&props, "", true, 0, None, &mut w)
                });
                let records = self.records_of(&mut w);
                (w.fields, records)
            }
            Kind::Object(_) if v.values.is_some() => {
                let values = v.values.clone().map(|b| *b);
                let expanded = values.and_then(|values| {
                    self.with_via(&v.via, v.named, |m| m.map_values(&values, "", None, &mut w))
                });
                match expanded {
                    Some(()) => (w.fields, Some("{}".to_string())),
                    None => {
                        let ty = self.value_type(&v);
                        (vec![leaf("result", ty, &v, true)], None)
                    }
                }
            }
            Kind::Array(Some(items)) => {
                let items = (**items).clone();
                let iv = self.with_via(&v.via, false, |m| m.view(&items));
                if let Kind::Object(props) = &iv.kind
                    && !props.is_empty()
                {
                    let props = props.clone();
                    let mut via = v.via.clone();
                    via.extend(iv.via.iter().cloned());
                    self.with_via(&via, v.named || iv.named, |m| {
                        m.walk(&props, "", true, 0, None, &mut w)
                    });
                    return (w.fields, Some("[]".to_string()));
                }
                let ty = self.with_via(&v.via, false, |m| m.value_type(&iv));
                let mut f = leaf("result", ValueType::Array(Box::new(ty)), &v, true);
                if let Some(r) = &iv.cycle {
                    mark_recursive(&mut f, r);
                }
                (vec![f], None)
            }
            _ => {
                let ty = self.value_type(&v);
                (vec![leaf("result", ty, &v, true)], None)
            }
        }
    }

    /// The records path of walked response fields ([`super::records::infer`]); when it is a map
    /// (`result.{}`), the map's value schema is walked in place of its one `object` field.
    /// Field names are made relative to one record.
    fn records_of<'a>(&mut self, w: &mut Walked<'a>) -> Option<String>
    where
        'r: 'a,
    {
        let maps: Vec<&str> = w.maps.iter().map(|c| c.path.as_str()).collect();
        let found = super::records::infer(&w.fields, &maps, self.resource.as_deref())?;
        let records = match found {
            super::records::Records::List(path) => path,
            super::records::Records::Map(path) => {
                let at = w.maps.iter().position(|c| c.path == path)?;
                let c = w.maps.remove(at);
                let mut inner = Walked::default();
                let saved = (std::mem::take(&mut self.stack), self.named_levels);
                self.stack = c.stack.clone();
                self.named_levels = c.named_levels;
                let prefix = format!("{path}.{{}}");
                let ok = self.map_values(&c.values, &prefix, c.variant.as_deref(), &mut inner);
                (self.stack, self.named_levels) = saved;
                ok?;
                let head = format!("{prefix}.");
                let inside: Vec<&str> = inner
                    .fields
                    .iter()
                    .filter_map(|f| f.value.name.value.strip_prefix(&head))
                    .collect();
                let envelope: Vec<&str> = w
                    .fields
                    .iter()
                    .map(|f| f.value.name.value.as_str())
                    .filter(|n| *n != path)
                    .collect();
                if inner.fields.is_empty() || super::records::clashes(&prefix, &inside, &envelope) {
                    // The map stays one `object` field; what was walked for it is not kept.
                    self.fields -= inner.fields.len();
                    return None;
                }
                let i = w.fields.iter().position(|f| f.value.name.value == path)?;
                w.fields.splice(i..=i, inner.fields);
                prefix
            }
        };
        let head = format!("{records}.");
        for f in &mut w.fields {
            if let Some(rest) = f.value.name.value.strip_prefix(&head) {
                f.value.name.value = rest.to_string();
            }
        }
        Some(records)
    }

    /// Walk the value schema of a map (`additionalProperties`) as one record under `prefix`
    /// (`result.{}`, or empty for a top-level map). `None`, with nothing walked, when the
    /// values are not objects with properties.
    fn map_values<'a>(
        &mut self,
        values: &Loc<'a>,
        prefix: &str,
        variant: Option<&str>,
        w: &mut Walked<'a>,
    ) -> Option<()>
    where
        'r: 'a,
    {
        let vv = self.view(values);
        let Kind::Object(props) = &vv.kind else {
            return None;
        };
        if props.is_empty() || vv.cycle.is_some() {
            return None;
        }
        let props = props.clone();
        self.with_via(&vv.via, vv.named, |m| {
            m.walk(&props, prefix, true, 0, variant, w)
        });
        Some(())
    }

    /// Run `f` with `via` pushed on the stack of references being expanded and, when `named`,
    /// one more level reached through a named schema.
    fn with_via<T>(&mut self, via: &[String], named: bool, f: impl FnOnce(&mut Self) -> T) -> T {
        let n = self.stack.len();
        self.stack.extend(via.iter().cloned());
        self.named_levels += usize::from(named);
        let r = f(self);
        self.named_levels -= usize::from(named);
        self.stack.truncate(n);
        r
    }

    fn walk<'a>(
        &mut self,
        props: &[Prop<'a>],
        prefix: &str,
        required: bool,
        depth: usize,
        variant: Option<&str>,
        w: &mut Walked<'a>,
    ) where
        'r: 'a,
    {
        for prop in props {
            let (name, loc) = (&prop.name, &prop.loc);
            if self.fields >= MAX_FIELDS {
                self.over_budget(loc);
                return;
            }
            // `.`, `[]` and `{}` are path syntax inside a field name (`a.b`, `x[].y`,
            // `m.{}`): a property spelled with them would be read as a path by `extract`.
            if name.is_empty()
                || name.contains(['/', '.', '[', ']', '{', '}'])
                || name.chars().any(char::is_control)
            {
                let ctx = self.context.clone();
                self.report(
                    super::codes::UNSUPPORTED_NAME,
                    Severity::Warning,
                    loc,
                    format!("`{ctx}`: property `{name}` cannot be a field name (empty, or with `/`, `.`, `[`, `]`, `{{`, `}}` or control characters); not imported"),
                    "field names are paths into a record (`.` between keys, `[]` for lists) and fields are addressed as `tool/endpoint/field`; declare the value by hand under another name if a plan needs it",
                );
                continue;
            }
            let path = if prefix.is_empty() {
                name.clone()
            } else {
                format!("{prefix}.{name}")
            };
            let req = required && prop.required;
            let variant = prop.variant.as_deref().or(variant);
            // The property is walked with the references of the members it came from.
            let n = self.stack.len();
            self.stack.extend(prop.via.iter().cloned());
            self.walk_one(loc, path, req, depth, variant, w);
            self.stack.truncate(n);
        }
    }

    /// Walk one property (of schema `loc`, at field path `path`) into fields.
    fn walk_one<'a>(
        &mut self,
        loc: &Loc<'a>,
        path: String,
        req: bool,
        depth: usize,
        variant: Option<&str>,
        w: &mut Walked<'a>,
    ) where
        'r: 'a,
    {
        let v = self.view(loc);
        if v.write_only {
            return;
        }
        if let Some(f) = w
            .fields
            .iter()
            .find(|f| same_name(&f.value.name.value, &path))
        {
            let ctx = self.context.clone();
            let message = if f.value.name.value == path {
                format!(
                    "`{ctx}`: field path `{path}` is reached twice (a property name with `.` next to a nested object); the second is not imported"
                )
            } else {
                format!(
                    "`{ctx}`: field path `{path}` is `{}` spelled with other Unicode code points (NFC and NFD); the second is not imported",
                    f.value.name.value
                )
            };
            self.report(
                super::codes::UNSUPPORTED_NAME,
                Severity::Warning,
                loc,
                message,
                "field paths join names with `.` and are compared in NFC; declare the second value by hand under another name if a plan needs it",
            );
            return;
        }
        let via = v.via.clone();
        // Past the budget of named schemas, an object (or a list of objects) reached through one
        // more is imported as one field: APIs whose objects embed each other would otherwise
        // repeat the whole API under every endpoint. Lists of scalars keep their item type.
        let over = v.named && self.named_levels >= MAX_NESTED_SCHEMAS;
        if over && matches!(&v.kind, Kind::Object(ps) if !ps.is_empty()) {
            self.not_expanded(loc, &path, ValueType::Object, &v, req, variant, w);
            return;
        }
        match &v.kind {
            Kind::Object(ps) if !ps.is_empty() && depth < MAX_PATH_DEPTH => {
                let ps = ps.clone();
                self.with_via(&via, v.named, |m| {
                    m.walk(&ps, &path, req, depth + 1, variant, w)
                });
            }
            Kind::Array(Some(items)) if depth < MAX_PATH_DEPTH => {
                let items = (**items).clone();
                let iv = self.with_via(&via, false, |m| m.view(&items));
                match &iv.kind {
                    Kind::Object(ps) if !ps.is_empty() && over => {
                        let ty = ValueType::Array(Box::new(ValueType::Object));
                        self.not_expanded(loc, &path, ty, &v, req, variant, w);
                    }
                    Kind::Object(ps) if !ps.is_empty() => {
                        let ps = ps.clone();
                        let mut all = via.clone();
                        all.extend(iv.via.iter().cloned());
                        // Within each item (record), requiredness starts afresh.
                        let p = format!("{path}[]");
                        self.with_via(&all, v.named || iv.named, |m| {
                            m.walk(&ps, &p, true, depth + 1, variant, w)
                        });
                    }
                    _ => {
                        let inner = self.with_via(&via, false, |m| m.value_type(&iv));
                        let mut f = leaf(&path, ValueType::Array(Box::new(inner)), &v, req);
                        if let Some(r) = &iv.cycle {
                            mark_recursive(&mut f, r);
                        }
                        w.push(f, variant);
                        self.fields += 1;
                    }
                }
            }
            _ => {
                let ty = self.with_via(&via, false, |m| m.value_type(&v));
                let mut f = leaf(&path, ty, &v, req);
                if let Some(r) = &v.cycle {
                    mark_recursive(&mut f, r);
                } else if depth >= MAX_PATH_DEPTH && matches!(v.kind, Kind::Object(_)) {
                    let ctx = self.context.clone();
                    self.report(
                        super::codes::EXPANSION_LIMIT,
                        Severity::Warning,
                        loc,
                        format!("`{ctx}`: field `{path}` is nested deeper than {MAX_PATH_DEPTH} levels; imported as one object"),
                        "declare the deeper fields by hand if a plan needs them",
                    );
                }
                // A map keyed by id whose values may be records (`result.{}`): remembered, and
                // walked only if the records are found there.
                if let (Kind::Object(ps), Some(values)) = (&v.kind, &v.values)
                    && ps.is_empty()
                    && v.cycle.is_none()
                    && depth < MAX_PATH_DEPTH
                {
                    let mut stack = self.stack.clone();
                    stack.extend(via.iter().cloned());
                    w.maps.push(MapCandidate {
                        path: path.clone(),
                        values: (**values).clone(),
                        stack,
                        named_levels: self.named_levels + usize::from(v.named),
                        variant: variant.map(str::to_string),
                    });
                }
                w.push(f, variant);
                self.fields += 1;
            }
        }
    }

    /// A field past the budget of named schemas ([`MAX_NESTED_SCHEMAS`]): one field of type `ty`
    /// (`object`, `object[]`) saying so in its description; reported once per endpoint (SR704).
    #[allow(clippy::too_many_arguments)]
    fn not_expanded<'a>(
        &mut self,
        loc: &Loc<'a>,
        path: &str,
        ty: ValueType,
        v: &View<'_>,
        req: bool,
        variant: Option<&str>,
        w: &mut Walked<'a>,
    ) {
        let mut f = leaf(path, ty, v, req);
        let note =
            format!("Not expanded: nested inside more than {MAX_NESTED_SCHEMAS} named schemas.");
        f.value.description = Some(Sp::synthetic(match &f.value.description {
            Some(d) => format!("{} {note}", d.value),
            None => note,
        }));
        w.push(f, variant);
        self.fields += 1;
        if !self.nesting_reported {
            self.nesting_reported = true;
            let ctx = self.context.clone();
            self.report(
                super::codes::EXPANSION_LIMIT,
                Severity::Info,
                loc,
                format!("fields nested inside more than {MAX_NESTED_SCHEMAS} named schemas are imported as one object each (first: `{path}` of `{ctx}`)"),
                "declare the deeper fields by hand if a plan needs them",
            );
        }
    }

    /// Parameters from the properties of a request-body (or MCP `inputSchema`) schema; a
    /// non-object body becomes one parameter `body`.
    pub fn body_parameters(
        &mut self,
        loc: &Loc<'_>,
        body_required: bool,
        location: Option<crate::model::ParamLocation>,
    ) -> Vec<Sp<Parameter>> {
        let v = self.view(loc);
        let mut out = Vec::new();
        match &v.kind {
            Kind::Object(props) => {
                let props = props.clone();
                let via = v.via.clone();
                self.with_via(&via, v.named, |m| {
                    for prop in &props {
                        let (name, l, req) = (&prop.name, &prop.loc, &prop.required);
                        let pv = m.with_via(&prop.via, false, |m| m.view(l));
                        if pv.read_only {
                            continue;
                        }
                        if name.is_empty()
                            || name.contains('/')
                            || name.chars().any(char::is_control)
                            || out
                                .iter()
                                .any(|p: &Sp<Parameter>| same_name(&p.value.name.value, name))
                        {
                            let ctx = m.context.clone();
                            m.report(
                                super::codes::UNSUPPORTED_NAME,
                                Severity::Warning,
                                l,
                                format!("`{ctx}`: property `{name}` cannot be a parameter name (empty, repeated, or with `/` or control characters); not imported"),
                                "parameters are addressed by name; declare the value by hand under another name if a plan needs it",
                            );
                            continue;
                        }
                        let mut via = prop.via.clone();
                        via.extend(pv.via.iter().cloned());
                        let ty = m.with_via(&via, false, |m| m.value_type(&pv));
                        out.push(m.param_at(l, name, ty, &pv, body_required && *req, location));
                    }
                });
            }
            Kind::Any if loc.value.as_object().is_none_or(|o| o.is_empty()) => {}
            _ => {
                let ty = self.value_type(&v);
                let mut p = self.param_at(loc, "body", ty, &v, body_required, location);
                // A request body that is no object (an array, a scalar) is this value itself.
                if location == Some(crate::model::ParamLocation::Body) {
                    p.value.whole_body = Some(Sp::synthetic(true));
                }
                out.push(p);
            }
        }
        out
    }

    /// One parameter from its schema (OpenAPI `parameters` entries).
    pub fn parameter(
        &mut self,
        name: &str,
        schema: Option<&Loc<'_>>,
        required: bool,
        location: Option<crate::model::ParamLocation>,
    ) -> Sp<Parameter> {
        match schema {
            Some(s) => {
                let v = self.view(s);
                let ty = self.value_type(&v);
                self.param_at(s, name, ty, &v, required, location)
            }
            None => {
                param(
                    name,
                    ValueType::String,
                    &View::of(Kind::Scalar(ValueType::String)),
                    required,
                    location,
                )
                .0
            }
        }
    }

    /// [`param`], reporting at `loc` (its `default` or `enum` when there) every value the
    /// declaration leaves out: a default or enum value that does not fit the type, a default
    /// outside the enum, a default that is not a scalar (finding SR709, a warning).
    fn param_at(
        &mut self,
        loc: &Loc<'_>,
        name: &str,
        ty: ValueType,
        v: &View<'_>,
        required: bool,
        location: Option<crate::model::ParamLocation>,
    ) -> Sp<Parameter> {
        // An array whose items are an enumeration (`type: array, items: {enum: [a, b]}`) is a
        // parameter whose elements take those values: the declaration's `enum` of an array
        // parameter holds element values.
        let mut at_values = loc.clone();
        let mut item_enum = None;
        if v.enum_values.is_empty() {
            let mut kind = v.kind.clone();
            for _ in 0..MAX_PATH_DEPTH {
                let Kind::Array(Some(items)) = kind else {
                    break;
                };
                let iv = self.view(&items);
                if !iv.enum_values.is_empty() {
                    item_enum = Some((iv.enum_values, iv.written));
                    at_values = (*items).clone();
                    break;
                }
                kind = iv.kind;
            }
        }
        let with_items;
        let v = match item_enum {
            Some((values, item_written)) => {
                let mut written = v.written.clone();
                written.extend(item_written);
                with_items = View {
                    enum_values: values,
                    written,
                    ..v.clone()
                };
                &with_items
            }
            None => v,
        };
        // A list's items keep their number and text bounds (`items: {maximum: 10}`).
        let with_item_bounds;
        let v = match &v.kind {
            Kind::Array(Some(items)) => {
                let iv = self.view(items);
                let mut bounds = v.bounds.clone();
                fill_bounds(
                    &mut bounds,
                    &crate::model::Bounds {
                        min_items: None,
                        max_items: None,
                        ..iv.bounds
                    },
                );
                with_item_bounds = View {
                    bounds,
                    ..v.clone()
                };
                &with_item_bounds
            }
            _ => v,
        };
        self.report_free_form(loc, name, v);
        let (p, dropped) = param(name, ty, v, required, location);
        for d in dropped {
            let at = match d.key {
                "enum" => at_values
                    .get("enum")
                    .or_else(|| at_values.get("const"))
                    .unwrap_or_else(|| at_values.clone()),
                key => loc.get(key).unwrap_or_else(|| loc.clone()),
            };
            let ctx = self.context.clone();
            self.report(
                super::codes::DROPPED_PARAMETER_VALUE,
                Severity::Warning,
                &at,
                format!("`{ctx}`: parameter `{name}`: {}", d.message),
                d.help,
            );
        }
        p
    }
}

impl Mapper<'_> {
    /// Report a parameter whose value is an object (or a list of objects, at any depth) whose
    /// schema declares no `properties`: a free-form object, about which the declaration (and so
    /// the prompt and plans an agent reads) can say nothing (finding SR710, an info). What the
    /// schema does say about its members (`additionalProperties` with a type) is named.
    fn report_free_form(&mut self, loc: &Loc<'_>, name: &str, v: &View<'_>) {
        let mut kind = v.kind.clone();
        let mut values = v.values.clone();
        let mut at = loc.clone();
        let mut depth = 0;
        for _ in 0..MAX_PATH_DEPTH {
            match kind {
                Kind::Array(Some(items)) => {
                    let iv = self.view(&items);
                    kind = iv.kind;
                    values = iv.values;
                    at = (*items).clone();
                    depth += 1;
                }
                _ => break,
            }
        }
        let Kind::Object(props) = kind else {
            return;
        };
        if !props.is_empty() {
            return;
        }
        let what = match depth {
            0 => "an object".to_string(),
            1 => "a list of objects".to_string(),
            _ => "nested lists of objects".to_string(),
        };
        let members = match values {
            Some(values) => {
                let vv = self.view(&values);
                let ty = self.value_type(&vv);
                format!(" (any keys, each holding a value of type `{ty}`)")
            }
            None => " (any keys and values)".to_string(),
        };
        let ctx = self.context.clone();
        self.report(
            super::codes::FREE_FORM_OBJECT,
            Severity::Info,
            &at,
            format!(
                "`{ctx}`: parameter `{name}` takes {what} whose schema declares no `properties`{members}: the declaration cannot tell an agent what to send"
            ),
            "write the keys it takes (and an example) in the parameter's `description`, which the prompt and plans show; or bind it with a template that names its keys",
        );
    }
}

/// Whether two field or parameter names are one name for `check` (SR102 compares them in NFC:
/// `é` typed as one code point or as `e` and a combining accent).
pub(crate) fn same_name(a: &str, b: &str) -> bool {
    use unicode_normalization::UnicodeNormalization;
    a == b || (!(a.is_ascii() && b.is_ascii()) && a.nfc().eq(b.nfc()))
}

/// A value of a parameter's schema that the declaration leaves out, and why.
struct Dropped {
    /// `default`, `enum` or `const`: where in the schema it is.
    key: &'static str,
    message: String,
    help: String,
}

/// Merge a property into a list: a later declaration of the same name refines the earlier
/// (`allOf` members), keeping `required` if either says so, and a variant only when both
/// declarations carry one (their alternatives joined): a property declared outside any
/// alternative is there whatever the alternative.
fn merge_prop<'a>(props: &mut Vec<Prop<'a>>, p: Prop<'a>) {
    match props.iter_mut().find(|e| e.name == p.name) {
        Some(existing) => merge_into(existing, p),
        None => props.push(p),
    }
}

/// [`merge_prop`] for many properties at once, through an index of the names: linear in the
/// properties (an object with 50,000 properties).
fn merge_props<'a>(props: &mut Vec<Prop<'a>>, new: impl IntoIterator<Item = Prop<'a>>) {
    let mut at: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (i, p) in props.iter().enumerate() {
        at.entry(p.name.clone()).or_insert(i);
    }
    for p in new {
        match at.get(&p.name) {
            Some(&i) => merge_into(&mut props[i], p),
            None => {
                at.insert(p.name.clone(), props.len());
                props.push(p);
            }
        }
    }
}

/// A later declaration `p` of the property `existing` (see [`merge_prop`]).
fn merge_into<'a>(existing: &mut Prop<'a>, p: Prop<'a>) {
    existing.required |= p.required;
    existing.variant = match (existing.variant.take(), p.variant) {
        (Some(a), Some(b)) => {
            let mut labels: Vec<&str> = a.split(" or ").collect();
            for part in b.split(" or ") {
                if !labels.contains(&part) {
                    labels.push(part);
                }
            }
            Some(labels.join(" or "))
        }
        _ => None,
    };
    // Keep the first schema: allOf members that restate a property usually only narrow it.
}

/// The label of the `position`th (from 1) alternative of a `oneOf` / `anyOf`, at `m`: the name
/// its `$ref` points at (the last segment of the pointer, decoded: `#/components/schemas/Cat`
/// gives `Cat`; a whole file `cat.yaml` gives `cat`), else its `title`, else `alternative N`.
fn alternative_label(m: &Loc<'_>, position: usize) -> String {
    if let Some(r) = m.value.get("$ref").and_then(Value::as_str) {
        let name = match r.split_once('#') {
            Some((_, frag)) => frag.rsplit('/').next().unwrap_or(""),
            None => r
                .rsplit('/')
                .next()
                .map(|f| f.split('.').next().unwrap_or(f))
                .unwrap_or(""),
        };
        let name = super::refs::percent_decode(name)
            .replace("~1", "/")
            .replace("~0", "~");
        let name = name.trim();
        if !name.is_empty() {
            return name.to_string();
        }
    }
    match text(m.value.get("title")) {
        Some(t) => t,
        None => format!("alternative {position}"),
    }
}

/// What the `allOf`, `oneOf` and `anyOf` members of a schema add up to, besides properties.
#[derive(Default)]
struct Members<'a> {
    /// A member is an object (or a cut cycle taken for one).
    object: bool,
    /// An alternative is an object.
    alternatives_object: bool,
    /// The scalar types of alternatives.
    alternatives_scalar: Vec<ValueType>,
    /// An alternative of another shape (an array, anything).
    alternatives_other: bool,
    /// The first non-object shape of a member, and the references that led to it.
    kind: Option<(Kind<'a>, Vec<String>)>,
    /// A member is reached through a named schema.
    named: bool,
}

/// Note on a field where a reference cycle was cut.
fn mark_recursive(f: &mut Sp<ResponseField>, reference: &str) {
    let note = format!("Recursive: `{reference}` is not expanded again (reference cycle).");
    f.value.description = Some(Sp::synthetic(match &f.value.description {
        Some(d) => format!("{} {note}", d.value),
        None => note,
    }));
}

fn leaf(name: &str, ty: ValueType, v: &View<'_>, required: bool) -> Sp<ResponseField> {
    Sp::synthetic(ResponseField {
        description: v.description.clone().map(Sp::synthetic),
        required: required.then(|| Sp::synthetic(true)),
        nullable: v.nullable.then(|| Sp::synthetic(true)),
        format: published_format(v),
        ..ResponseField::new(name, ty)
    })
}

/// The `format` worth keeping (dates and date-times are types of their own).
fn published_format(v: &View<'_>) -> Option<Sp<String>> {
    v.format
        .clone()
        .filter(|f| f != "date" && f != "date-time")
        .map(Sp::synthetic)
}

/// A parameter from its schema view, and the values it leaves out ([`Dropped`]): the declared
/// `enum` keeps the values the type takes (`"false"` for a boolean becomes `false`), the
/// `default` is kept when the type takes it and the enum (when there is one) holds it. What is
/// left out would make `check` fail (SR110) or the router send a value the provider rejects.
fn param(
    name: &str,
    ty: ValueType,
    v: &View<'_>,
    required: bool,
    location: Option<crate::model::ParamLocation>,
) -> (Sp<Parameter>, Vec<Dropped>) {
    let mut dropped = Vec::new();
    let mut enum_values = Vec::new();
    // A number of a text-typed parameter is the text the source wrote (`0755`, `1.10`).
    let text = |f: Scalar| match f {
        Scalar::Integer(_) | Scalar::Number(_) | Scalar::Spelled(..)
            if crate::load::written::takes_text(&ty) =>
        {
            let shown = f.to_string();
            Scalar::String(v.written.get(&shown).cloned().unwrap_or(f.as_written()))
        }
        f => f,
    };
    for e in &v.enum_values {
        match fit(e, &ty).map(text) {
            Some(f) => enum_values.push(f),
            None => dropped.push(Dropped {
                key: "enum",
                message: format!(
                    "enum value `{}` does not fit its type `{ty}`{}; left out of the enum",
                    shown(e),
                    why_not(e, &ty)
                ),
                help: "fix the enum in the source, or declare the value by hand if the provider takes it".to_string(),
            }),
        }
    }
    let mut default = None;
    if let Some(d) = &v.default {
        match fit(d, &ty).map(text) {
            None => dropped.push(Dropped {
                key: "default",
                message: format!(
                    "default `{}` does not fit its type `{ty}`{}; imported without a default",
                    shown(d),
                    why_not(d, &ty)
                ),
                help: default_help(required),
            }),
            Some(f)
                if !enum_values.is_empty()
                    && !enum_values.iter().any(|e: &Scalar| e.same_value(&f)) =>
            {
                let list: Vec<String> = enum_values
                    .iter()
                    .map(|e| format!("`{}`", shown(e)))
                    .collect();
                dropped.push(Dropped {
                    key: "default",
                    message: format!(
                        "default `{}` is not one of its enum values ({}); imported without a default",
                        shown(d),
                        list.join(", ")
                    ),
                    help: default_help(required),
                });
            }
            Some(f) => default = Some(f),
        }
    } else if let Some(what) = v.default_unscalar {
        dropped.push(Dropped {
            key: "default",
            message: format!(
                "default is {what}; a declared default is one value (text, number or boolean), so it is imported without a default"
            ),
            help: default_help(required),
        });
    }
    if let Some(what) = v.const_unscalar {
        dropped.push(Dropped {
            key: "const",
            message: format!(
                "`const` is {what}; a declared enum holds single values (text, number or boolean), so it is imported without one"
            ),
            help: "declare the parameter's value by hand (in its description) if the provider requires it".to_string(),
        });
    }
    // A required argument that may be null is one the caller may leave without a value: OpenAI
    // strict mode spells an optional argument so (every property `required`, optional ones
    // `type: [x, "null"]`). A path parameter stays required: the URL needs it.
    let required = required && !(v.nullable && location != Some(crate::model::ParamLocation::Path));
    let mut p = Parameter::new(name, ty.clone());
    declare_bounds(&mut p, &v.bounds);
    let p = Sp::synthetic(Parameter {
        enum_values: (!enum_values.is_empty())
            .then(|| enum_values.into_iter().map(Sp::synthetic).collect()),
        required: required.then(|| Sp::synthetic(true)),
        default: default.map(Sp::synthetic),
        description: v.description.clone().map(Sp::synthetic),
        location: location.map(Sp::synthetic),
        format: published_format(v),
        ..p
    });
    (p, dropped)
}

/// The validation keywords of a schema object: `minimum`, `maximum`, `exclusiveMinimum`,
/// `exclusiveMaximum` (a number as in JSON Schema 2019+ and OpenAPI 3.1; OpenAPI 3.0's and
/// Swagger 2.0's `true`, which makes `minimum` / `maximum` exclusive, read as that number),
/// `minLength`, `maxLength`, `pattern`, `minItems`, `maxItems`. A keyword of another type
/// (`maximum: "100"`), a number beyond a double's range or a count beyond a 64-bit signed
/// integer's is not read.
pub fn bounds_of(o: &serde_json::Map<String, Value>) -> crate::model::Bounds {
    let number = |k: &str| o.get(k).and_then(Value::as_f64).filter(|n| n.is_finite());
    // A count a declaration can hold (YAML integers are 64-bit signed).
    let count = |k: &str| {
        o.get(k)
            .and_then(Value::as_u64)
            .filter(|n| i64::try_from(*n).is_ok())
    };
    let mut b = crate::model::Bounds {
        minimum: number("minimum"),
        maximum: number("maximum"),
        exclusive_minimum: number("exclusiveMinimum"),
        exclusive_maximum: number("exclusiveMaximum"),
        min_length: count("minLength"),
        max_length: count("maxLength"),
        pattern: o.get("pattern").and_then(Value::as_str).map(str::to_string),
        min_items: count("minItems"),
        max_items: count("maxItems"),
    };
    if o.get("exclusiveMinimum") == Some(&Value::Bool(true)) {
        b.exclusive_minimum = b.minimum.take();
    }
    if o.get("exclusiveMaximum") == Some(&Value::Bool(true)) {
        b.exclusive_maximum = b.maximum.take();
    }
    b
}

/// Give `to` each bound `from` has that `to` lacks (an `allOf` member's, a list's items').
fn fill_bounds(to: &mut crate::model::Bounds, from: &crate::model::Bounds) {
    fn fill<T: Clone>(to: &mut Option<T>, from: &Option<T>) {
        if to.is_none() {
            to.clone_from(from);
        }
    }
    fill(&mut to.minimum, &from.minimum);
    fill(&mut to.maximum, &from.maximum);
    fill(&mut to.exclusive_minimum, &from.exclusive_minimum);
    fill(&mut to.exclusive_maximum, &from.exclusive_maximum);
    fill(&mut to.min_length, &from.min_length);
    fill(&mut to.max_length, &from.max_length);
    fill(&mut to.pattern, &from.pattern);
    fill(&mut to.min_items, &from.min_items);
    fill(&mut to.max_items, &from.max_items);
}

/// Declare on `p` the bounds its type takes: the numeric ones on a number or integer (or a
/// list of them), the text ones on a text, date or date-time (or a list of them), the item
/// counts on a list.
fn declare_bounds(p: &mut Parameter, b: &crate::model::Bounds) {
    let numeric = matches!(p.ty.value.element(), ValueType::Integer | ValueType::Number);
    let textual = matches!(
        p.ty.value.element(),
        ValueType::String | ValueType::Date | ValueType::DateTime
    );
    let list = matches!(p.ty.value, ValueType::Array(_));
    let sp = |on: bool, n: Option<f64>| n.filter(|_| on).map(Sp::synthetic);
    let count = |on: bool, n: Option<u64>| n.filter(|_| on).map(Sp::synthetic);
    p.minimum = sp(numeric, b.minimum);
    p.maximum = sp(numeric, b.maximum);
    p.exclusive_minimum = sp(numeric, b.exclusive_minimum);
    p.exclusive_maximum = sp(numeric, b.exclusive_maximum);
    p.min_length = count(textual, b.min_length);
    p.max_length = count(textual, b.max_length);
    p.pattern = b.pattern.clone().filter(|_| textual).map(Sp::synthetic);
    p.min_items = count(list, b.min_items);
    p.max_items = count(list, b.max_items);
}

/// `value` as a parameter of type `ty` takes it ([`Scalar::fitted`]), where a whole number
/// written with a fraction (`3.0`) is the integer it is for an `integer` type (JSON Schema counts
/// it as one) and is kept as that integer (`3`). A number out of the range of a double
/// (`1e400`, read as infinity) fits no type.
fn fit(value: &Scalar, ty: &ValueType) -> Option<Scalar> {
    let fitted = if let (ValueType::Integer, Scalar::Number(n)) = (ty.element(), value.value())
        && n.fract() == 0.0
        && n.abs() < 9.0e18
    {
        Scalar::Integer(*n as i64).fitted(ty)
    } else {
        value.fitted(ty)
    };
    // A number too large for a double (`1e400`, whether read as a number or converted from
    // text) is no value a declaration can hold.
    fitted.filter(|f| !matches!(f.value(), Scalar::Number(n) if !n.is_finite()))
}

/// Why a number fits no numeric type, when the type alone does not say: ` (beyond the range of
/// a 64-bit integer)`, ` (beyond the range of a double)`; else nothing.
fn why_not(value: &Scalar, ty: &ValueType) -> &'static str {
    let n = match value.value() {
        Scalar::Number(n) => *n,
        Scalar::String(s) => match s.trim().parse::<f64>() {
            Ok(n) => n,
            Err(_) => return "",
        },
        _ => return "",
    };
    if !n.is_finite() {
        " (beyond the range of a double)"
    } else if matches!(ty.element(), ValueType::Integer) && n.fract() == 0.0 && n.abs() >= 9.0e18 {
        " (beyond the range of a 64-bit integer)"
    } else {
        ""
    }
}

/// A value for a message: a number in its shortest spelling (`1e300`, not 301 digits).
fn shown(value: &Scalar) -> String {
    match value.value() {
        Scalar::Number(n) if !matches!(value, Scalar::Spelled(..)) => {
            let short = format!("{n:?}");
            if short.contains('e') {
                short
            } else {
                value.to_string()
            }
        }
        _ => value.to_string(),
    }
}

fn default_help(required: bool) -> String {
    if required {
        "fix the default in the source: the router sends a required parameter's default when nothing binds it, so a wrong one would be sent on every plan".to_string()
    } else {
        "fix the default in the source; without it the provider's own default applies".to_string()
    }
}

/// What makes two enumeration values the same one (as `Scalar`'s `==` does: numbers by value,
/// `-0.0` as `0.0`; a spelled number by its value and its spelling), as a hashable key.
#[derive(Hash, PartialEq, Eq)]
enum EnumKey {
    Text(String),
    Integer(i64),
    Number(u64),
    Boolean(bool),
    Spelled(Box<EnumKey>, String),
}

impl EnumKey {
    fn of(s: &Scalar) -> EnumKey {
        match s {
            Scalar::String(t) => EnumKey::Text(t.clone()),
            Scalar::Integer(i) => EnumKey::Integer(*i),
            Scalar::Number(f) => EnumKey::Number(if *f == 0.0 { 0 } else { f.to_bits() }),
            Scalar::Boolean(b) => EnumKey::Boolean(*b),
            Scalar::Spelled(v, raw) => EnumKey::Spelled(Box::new(EnumKey::of(v)), raw.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::doc::SourceDoc;
    use crate::source::{SourceFile, SourceMap};
    use std::path::Path;

    fn resolver(v: serde_json::Value) -> Resolver {
        let text = v.to_string();
        let mut sources = SourceMap::new();
        let id = sources.add(SourceFile::new("a.json", "a.json", text.clone()));
        Resolver::new(
            SourceDoc::parse("a.json", Path::new("a.json"), id, text).unwrap(),
            sources,
        )
    }

    fn names(fields: &FieldList) -> Vec<String> {
        fields
            .iter()
            .map(|f| {
                let mut s = format!("{}: {}", f.name.value, f.ty.value);
                if f.required.is_some() {
                    s.push_str(" required");
                }
                if f.nullable.is_some() {
                    s.push_str(" nullable");
                }
                if let Some(v) = f.qualifiers.get(VARIANT_QUALIFIER) {
                    s.push_str(&format!(" [{}]", v.value));
                }
                s
            })
            .collect()
    }

    fn fields_of(doc: serde_json::Value) -> (Vec<String>, Option<String>, Vec<String>) {
        let r = resolver(doc);
        let mut m = Mapper::new(&r);
        m.begin("t/e");
        let loc = r.root().get("schema").unwrap();
        let (f, records) = m.response_fields(&loc);
        let findings = m
            .findings
            .iter()
            .map(|d| format!("{} {}", d.code, d.message))
            .collect();
        (names(&f), records, findings)
    }

    #[test]
    fn nested_objects_and_arrays_flatten() {
        let (f, records, _) = fields_of(serde_json::json!({"schema": {
        "type": "object", "required": ["id", "authors"],
        "properties": {
            "id": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "matrix": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}},
            "authors": {"type": "array", "items": {"type": "object", "required": ["name"],
                "properties": {"name": {"type": "string"}, "orcid": {"type": ["string", "null"]}}}},
            "meta": {"type": "object", "properties": {"created": {"type": "string", "format": "date-time"}}},
            "extra": {"type": "object", "additionalProperties": true}
        }}}));
        assert_eq!(
            f,
            vec![
                "authors[].name: string required",
                "authors[].orcid: string nullable",
                "extra: object",
                "id: string required",
                "matrix: number[][]",
                "meta.created: datetime",
                "tags: string[]",
            ]
        );
        assert_eq!(records, None);
    }

    #[test]
    fn all_of_merges_and_one_of_is_optional_union() {
        let (f, _, _) = fields_of(serde_json::json!({
        "components": {"schemas": {
            "Base": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}},
            "Cat": {"type": "object", "required": ["meow"], "properties": {"meow": {"type": "boolean"}}},
            "Dog": {"type": "object", "properties": {"bark": {"type": "string"}}}
        }},
        "schema": {"allOf": [
            {"$ref": "#/components/schemas/Base"},
            {"type": "object", "properties": {"pet": {"oneOf": [
                {"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}]}}}
        ]}}));
        assert_eq!(
            f,
            vec![
                "id: integer required",
                "pet.meow: boolean [Cat]",
                "pet.bark: string [Dog]"
            ]
        );
    }

    #[test]
    fn all_of_required_applies_to_properties_of_other_members() {
        let (f, _, _) = fields_of(serde_json::json!({
        "components": {"schemas": {
            "Id": {"type": "object", "properties": {"id": {"type": "integer"}}},
            "NeedsId": {"required": ["id"]}
        }},
        "schema": {"allOf": [
            {"type": "object", "properties": {"id": {"type": "integer"}, "tag": {"type": "string"}}},
            {"type": "object", "required": ["id", "name"], "properties": {"name": {"type": "string"}}},
            {"type": "object", "properties": {"sub": {"allOf": [
                {"$ref": "#/components/schemas/Id"},
                {"$ref": "#/components/schemas/NeedsId"}
            ]}}, "required": ["sub"]}
        ]}}));
        assert_eq!(
            f,
            vec![
                "id: integer required",
                "tag: string",
                "name: string required",
                "sub.id: integer required",
            ]
        );
        // A member with nothing but `required` (a request body).
        let r = resolver(serde_json::json!({"schema": {"allOf": [
            {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}},
            {"required": ["id"]}
        ]}}));
        let mut m = Mapper::new(&r);
        let loc = r.root().get("schema").unwrap();
        let p = m.body_parameters(&loc, true, None);
        let shown: Vec<(String, bool)> = p
            .iter()
            .map(|p| (p.name.value.clone(), p.is_required()))
            .collect();
        assert_eq!(
            shown,
            [("id".to_string(), true), ("name".to_string(), false)]
        );
    }

    #[test]
    fn whole_numbers_written_with_a_fraction_are_integers() {
        let r = resolver(
            serde_json::json!({"schema": {"type": "object", "properties": {
                "n": {"type": "integer", "default": 3.0, "enum": [1.0, 2.5, 3]},
                "ns": {"type": "array", "items": {"type": "integer"}, "default": -2.0},
                "big": {"type": "integer", "default": 1e19}
            }}}),
        );
        let mut m = Mapper::new(&r);
        m.begin("t/e");
        let loc = r.root().get("schema").unwrap();
        let p = m.body_parameters(&loc, true, None);
        let shown: Vec<(String, Option<Vec<Scalar>>, Option<Scalar>)> = p
            .iter()
            .map(|p| {
                (
                    p.name.value.clone(),
                    p.enum_values
                        .as_ref()
                        .map(|e| e.iter().map(|v| v.value.clone()).collect()),
                    p.default.as_ref().map(|d| d.value.clone()),
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                ("big".to_string(), None, None),
                (
                    "n".to_string(),
                    Some(vec![Scalar::Integer(1), Scalar::Integer(3)]),
                    Some(Scalar::Integer(3))
                ),
                ("ns".to_string(), None, Some(Scalar::Integer(-2))),
            ]
        );
        let findings: Vec<String> = m
            .findings
            .iter()
            .map(|d| format!("{} {}", d.code, d.message))
            .collect();
        assert_eq!(
            findings,
            [
                "SR709 `t/e`: parameter `big`: default `1e19` does not fit its type `integer` (beyond the range of a 64-bit integer); imported without a default",
                "SR709 `t/e`: parameter `n`: enum value `2.5` does not fit its type `integer`; left out of the enum",
            ]
        );
    }

    #[test]
    fn names_equal_in_nfc_are_one_parameter() {
        assert!(same_name("e\u{301}", "é"));
        assert!(same_name("a", "a"));
        assert!(!same_name("a", "A"));
        let r = resolver(
            serde_json::json!({"schema": {"type": "object", "properties": {
                "e\u{301}": {"type": "string"}, "é": {"type": "integer"}
            }}}),
        );
        let mut m = Mapper::new(&r);
        m.begin("t/e");
        let loc = r.root().get("schema").unwrap();
        let p = m.body_parameters(&loc, true, None);
        assert_eq!(p.len(), 1);
        assert_eq!(m.findings.len(), 1);
        assert_eq!(m.findings[0].code, "SR706");
    }

    #[test]
    fn a_cycle_is_cut_with_a_marker() {
        let (f, _, findings) = fields_of(serde_json::json!({
            "components": {"schemas": {"Node": {"type": "object", "properties": {
                "name": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}}}}},
            "schema": {"$ref": "#/components/schemas/Node"}}));
        assert_eq!(f, vec!["children: object[]", "name: string"]);
        assert_eq!(findings.len(), 1);
        assert!(findings[0].starts_with("SR703 `$ref: #/components/schemas/Node` refers back"));
    }

    #[test]
    fn a_root_array_of_records_and_a_scalar_response() {
        let (f, records, _) = fields_of(serde_json::json!({"schema": {
            "type": "array", "items": {"type": "object", "properties": {"id": {"type": "integer"}}}}}));
        assert_eq!(f, vec!["id: integer"]);
        assert_eq!(records.as_deref(), Some("[]"));
        let (f, records, _) = fields_of(serde_json::json!({"schema": {"type": "string"}}));
        assert_eq!(f, vec!["result: string required"]);
        assert_eq!(records, None);
        let (f, _, _) = fields_of(
            serde_json::json!({"schema": {"type": "array", "items": {"type": "integer"}}}),
        );
        assert_eq!(f, vec!["result: integer[] required"]);
    }

    #[test]
    fn nullable_spellings() {
        let (f, _, _) = fields_of(
            serde_json::json!({"schema": {"type": "object", "properties": {
                "a": {"type": "string", "nullable": true},
                "b": {"anyOf": [{"type": "number"}, {"type": "null"}]},
                "c": {"type": "integer", "x-nullable": true},
                "d": {"type": ["string", "integer"]}
            }}}),
        );
        assert_eq!(
            f,
            vec![
                "a: string nullable",
                "b: number nullable",
                "c: integer nullable",
                "d: any"
            ]
        );
    }

    #[test]
    fn a_dangling_and_a_remote_reference_are_errors() {
        let (_, _, findings) = fields_of(
            serde_json::json!({"schema": {"type": "object", "properties": {
            "a": {"$ref": "#/components/schemas/Missing"},
            "b": {"$ref": "https://example.org/x.json"}}}}),
        );
        assert_eq!(
            findings,
            vec![
                "SR702 `$ref: #/components/schemas/Missing` cannot be resolved: the pointer leads nowhere in the document",
                "SR701 `$ref: https://example.org/x.json` is a remote reference; nothing is fetched",
            ]
        );
    }

    #[test]
    fn exponential_schemas_are_cut() {
        // Each level refers to the next twice: 2^30 paths without a budget.
        let mut schemas = serde_json::Map::new();
        for i in 0..30 {
            schemas.insert(
                format!("L{i}"),
                serde_json::json!({"type": "object", "properties": {
                    "a": {"$ref": format!("#/components/schemas/L{}", i + 1)},
                    "b": {"$ref": format!("#/components/schemas/L{}", i + 1)}}}),
            );
        }
        schemas.insert("L30".into(), serde_json::json!({"type": "string"}));
        let (f, _, findings) = fields_of(serde_json::json!({
            "components": {"schemas": schemas},
            "schema": {"$ref": "#/components/schemas/L0"}}));
        assert!(f.len() <= MAX_FIELDS);
        assert!(findings.iter().any(|x| x.starts_with("SR704")));
    }

    #[test]
    fn an_all_of_base_is_no_cycle_for_the_other_members() {
        // `Parent` = `Attr` + a list of `Attr`: the list is no recursion.
        let (f, _, findings) = fields_of(serde_json::json!({
            "components": {"schemas": {
                "Attr": {"type": "object", "properties": {"name": {"type": "string"}}},
                "Parent": {"allOf": [{"$ref": "#/components/schemas/Attr"}, {"type": "object",
                    "properties": {"sub": {"type": "array", "items": {"$ref": "#/components/schemas/Attr"}}}}]}
            }},
            "schema": {"$ref": "#/components/schemas/Parent"}}));
        assert_eq!(f, vec!["name: string", "sub[].name: string"]);
        assert_eq!(findings, Vec::<String>::new());
        // A base that does refer back to itself is still cut (one level deeper at most).
        let (f, _, findings) = fields_of(serde_json::json!({
            "components": {"schemas": {
                "Node": {"type": "object", "properties": {"name": {"type": "string"},
                    "parent": {"$ref": "#/components/schemas/Node"}}},
                "Named": {"allOf": [{"$ref": "#/components/schemas/Node"}, {"type": "object",
                    "properties": {"kind": {"type": "string"}}}]}
            }},
            "schema": {"$ref": "#/components/schemas/Named"}}));
        assert_eq!(f, vec!["name: string", "parent: object", "kind: string"]);
        assert_eq!(findings.len(), 1, "{findings:?}");
        assert!(findings[0].starts_with("SR703 `$ref: #/components/schemas/Node` refers back"));
    }

    #[test]
    fn all_of_layers_are_one_level_of_the_budget() {
        // `L4` = `L3` = `L2` = `L1` = `Base`, each an `allOf` of the next: one level, however
        // deep; objects below it are expanded up to the budget of levels.
        let mut schemas = serde_json::Map::new();
        schemas.insert(
            "Base".into(),
            serde_json::json!({"type": "object", "properties": {"id": {"type": "string"}}}),
        );
        for i in 1..=6 {
            let below = if i == 1 {
                "Base".to_string()
            } else {
                format!("L{}", i - 1)
            };
            schemas.insert(
                format!("L{i}"),
                serde_json::json!({"allOf": [{"$ref": format!("#/components/schemas/{below}")},
                    {"type": "object", "properties": {format!("p{i}"): {"type": "string"}}}]}),
            );
        }
        // A chain of objects, each a named schema: `chain` and three `next` are levels 1 to 4 (the
        // root is written inline: no named level); the fourth `next` is past the budget.
        for (name, next) in [("A", "B"), ("B", "C"), ("C", "D"), ("D", "E")] {
            schemas.insert(
                name.into(),
                serde_json::json!({"type": "object", "properties": {
                    "x": {"type": "string"},
                    "next": {"$ref": format!("#/components/schemas/{next}")}}}),
            );
        }
        schemas.insert(
            "E".into(),
            serde_json::json!({"type": "object", "properties": {"y": {"type": "string"}}}),
        );
        let (f, _, findings) = fields_of(serde_json::json!({
            "components": {"schemas": schemas},
            "schema": {"type": "object", "properties": {
                "layered": {"$ref": "#/components/schemas/L6"},
                "chain": {"$ref": "#/components/schemas/A"}}}}));
        assert_eq!(
            f,
            vec![
                "chain.next.next.next.next: object",
                "chain.next.next.next.x: string",
                "chain.next.next.x: string",
                "chain.next.x: string",
                "chain.x: string",
                "layered.id: string",
                "layered.p1: string",
                "layered.p2: string",
                "layered.p3: string",
                "layered.p4: string",
                "layered.p5: string",
                "layered.p6: string",
            ]
        );
        assert_eq!(
            findings,
            [
                "SR704 fields nested inside more than 4 named schemas are imported as one object each (first: `chain.next.next.next.next` of `t/e`)"
            ]
        );
    }

    #[test]
    fn the_nearest_union_names_the_variant() {
        let (f, _, _) = fields_of(serde_json::json!({
        "components": {"schemas": {
            "Owner": {"type": "object", "properties": {"owner": {"type": "string"},
                "pet": {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}]}}},
            "Stray": {"type": "object", "title": "Stray animal", "properties": {"found_at": {"type": "string"},
                "animal": {"type": "object", "properties": {"meow": {"type": "boolean"}}}}},
            "Cat": {"type": "object", "properties": {"meow": {"type": "boolean"}, "name": {"type": "string"}}},
            "Dog": {"type": "object", "properties": {"bark": {"type": "string"}, "name": {"type": "string"}}}
        }},
        "schema": {"allOf": [
            {"type": "object", "properties": {"id": {"type": "string"}}},
            {"anyOf": [{"$ref": "#/components/schemas/Owner"}, {"$ref": "#/components/schemas/Stray"},
                {"type": "object", "properties": {"id": {"type": "string"}, "note": {"type": "string"}}}]}
        ]}}));
        assert_eq!(
            f,
            vec![
                "id: string",
                "owner: string [Owner]",
                "pet.meow: boolean [Cat]",
                "pet.name: string [Owner]",
                "pet.bark: string [Dog]",
                "animal.meow: boolean [Stray]",
                "found_at: string [Stray]",
                "note: string [alternative 3]",
            ]
        );
    }

    #[test]
    fn records_of_envelopes_and_maps() {
        let (f, records, _) = fields_of(
            serde_json::json!({"schema": {"type": "object", "properties": {
            "data": {"type": "array", "items": {"type": "object", "required": ["id"],
                "properties": {"id": {"type": "string"}, "tags": {"type": "array", "items": {"type": "object", "properties": {"k": {"type": "string"}}}}}}},
            "total": {"type": "integer"}, "next": {"type": "string"}}}}),
        );
        assert_eq!(records.as_deref(), Some("data[]"));
        assert_eq!(
            f,
            vec![
                "id: string required",
                "tags[].k: string",
                "next: string",
                "total: integer"
            ]
        );
        // A map keyed by id, at the root and inside an envelope.
        let (f, records, _) = fields_of(serde_json::json!({"schema": {"type": "object",
            "additionalProperties": {"type": "object", "properties": {"title": {"type": "string"}}}}}));
        assert_eq!(
            (f, records.as_deref()),
            (vec!["title: string".to_string()], Some("{}"))
        );
        let (f, records, _) = fields_of(
            serde_json::json!({"schema": {"type": "object", "properties": {
            "header": {"type": "object", "properties": {"version": {"type": "string"}}},
            "result": {"type": "object", "additionalProperties": {"type": "object", "properties": {"title": {"type": "string"}}}}}}}),
        );
        assert_eq!(records.as_deref(), Some("result.{}"));
        assert_eq!(f, vec!["header.version: string", "title: string"]);
        // A map of scalars is no record list: one `object` field, no records path.
        let (f, records, _) = fields_of(
            serde_json::json!({"schema": {"type": "object", "properties": {
            "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
            "total": {"type": "integer"}}}}),
        );
        assert_eq!(
            (f, records),
            (
                vec!["counts: object".to_string(), "total: integer".to_string()],
                None
            )
        );
        // A record field named like an envelope field: full paths, no records path.
        let (f, records, _) = fields_of(
            serde_json::json!({"schema": {"type": "object", "properties": {
            "items": {"type": "array", "items": {"type": "object", "properties": {"total": {"type": "number"}}}},
            "total": {"type": "integer"}}}}),
        );
        assert_eq!(
            (f, records),
            (
                vec![
                    "items[].total: number".to_string(),
                    "total: integer".to_string()
                ],
                None
            )
        );
    }

    #[test]
    fn body_parameters_keep_array_items_and_required() {
        let r = resolver(serde_json::json!({"schema": {"allOf": [
            {"type": "object", "required": ["ids"], "properties": {"ids": {"type": "array", "items": {"type": "integer"}}}},
            {"type": "object", "properties": {"mode": {"type": "string", "enum": ["a", "b"], "default": "a"}}}
        ]}}));
        let mut m = Mapper::new(&r);
        let loc = r.root().get("schema").unwrap();
        let p = m.body_parameters(&loc, true, None);
        let shown: Vec<String> = p
            .iter()
            .map(|p| {
                format!(
                    "{} {} {} {:?} {:?}",
                    p.name.value,
                    p.ty.value,
                    p.is_required(),
                    p.enum_values.as_ref().map(|e| e.len()),
                    p.default.as_ref().map(|d| d.value.to_string())
                )
            })
            .collect();
        assert_eq!(
            shown,
            vec![
                "ids integer[] true None None",
                "mode string false Some(2) Some(\"a\")"
            ]
        );
    }
}
