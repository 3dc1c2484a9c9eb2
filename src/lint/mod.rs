//! The linter: rule machinery in the style of ruff and biome.
//!
//! Each rule lives in its own file under [`rules`], with its documentation as the file's `//!`
//! doc comment (what it finds, why it matters for routing, an invalid and a valid example). The
//! one table of codes ([`crate::diagnostics::codes`], re-exported as [`RULES`]) gives every rule
//! its stable code, kebab-case name, default severity and category; [`registry`] attaches each
//! rule's check to its code. [`run`] executes the rules over a loaded project, applies the
//! configuration (per-rule levels) and inline suppressions, and returns sorted diagnostics.

pub mod fix;
pub mod registry;
pub mod rules;
pub mod suppress;

use crate::diagnostics::{Diagnostic, Severity, sort_diagnostics};
use crate::graph::index::Index;
use crate::model::{LevelSetting, Profile, Project, Sp};
use crate::source::{FileId, Span};
use crate::units::UnitTable;
pub use registry::{Category, RULES, RuleEntry};

/// Everything a rule may look at.
pub struct Context<'a> {
    /// The loaded project.
    pub project: &'a Project,
    /// Lookups over it.
    pub index: &'a Index,
    /// Known units (built-ins plus the project's `[units]`).
    pub units: &'a UnitTable,
    /// Token count of the generated intent-registry prompt, when it could be built.
    pub prompt_tokens: Option<usize>,
    /// Kinds of declaration files that failed to load (their declarations are missing).
    pub failed_kinds: std::collections::BTreeSet<crate::model::FileKind>,
    /// Units already parsed by some rule (several rules read every field's unit).
    pub unit_cache: UnitMemo,
}

/// Units parsed once per distinct spelling while the rules run: a field's unit is read by
/// `invalid-unit`, `unit-conflict`, `convertible-unit`, `missing-unit`, ..., and a large
/// inventory repeats a few hundred spellings over hundreds of thousands of fields. Shared by
/// the rules' threads; the result is the same as parsing again.
#[derive(Default)]
pub struct UnitMemo {
    declared: std::sync::RwLock<std::collections::HashMap<String, UnitResult>>,
    published: std::sync::RwLock<std::collections::HashMap<String, UnitResult>>,
}

type UnitResult = Result<crate::units::Unit, crate::units::UnitError>;

impl UnitMemo {
    fn get(
        map: &std::sync::RwLock<std::collections::HashMap<String, UnitResult>>,
        s: &str,
        parse: impl FnOnce() -> UnitResult,
    ) -> UnitResult {
        if let Some(r) = map.read().ok().and_then(|m| m.get(s).cloned()) {
            return r;
        }
        let r = parse();
        if let Ok(mut m) = map.write() {
            m.insert(s.to_string(), r.clone());
        }
        r
    }
}

impl Context<'_> {
    /// [`UnitTable::parse`] of `s` in the project's unit table, parsed once per spelling.
    pub fn unit(&self, s: &str) -> UnitResult {
        UnitMemo::get(&self.unit_cache.declared, s, || self.units.parse(s))
    }

    /// [`UnitTable::parse_published`] of `s`, parsed once per spelling.
    pub fn published_unit(&self, s: &str) -> UnitResult {
        UnitMemo::get(&self.unit_cache.published, s, || {
            self.units.parse_published(s)
        })
    }
}

/// A lint rule. Implementations are unit structs registered in [`registry::RULES`].
pub trait Rule: Sync {
    /// Append findings to `out`. Use [`Sink::report`] so the code, name and severity come from
    /// the registry.
    fn check(&self, ctx: &Context, out: &mut Sink);
}

/// Collects one rule's findings.
pub struct Sink {
    entry: &'static RuleEntry,
    /// Findings so far.
    pub diagnostics: Vec<Diagnostic>,
}

impl Sink {
    /// A sink for one rule.
    pub fn new(entry: &'static RuleEntry) -> Sink {
        Sink {
            entry,
            diagnostics: Vec::new(),
        }
    }

    /// Start a finding at `file`/`span` with `message`; returns it for labels and help.
    pub fn report(
        &mut self,
        file: FileId,
        span: Span,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        self.diagnostics.push(
            Diagnostic::new(
                self.entry.code,
                self.entry.name,
                self.entry.default_severity,
                message,
            )
            .at(file, span, ""),
        );
        self.diagnostics.last_mut().expect("just pushed")
    }

    /// Start a finding with no file (project-wide).
    pub fn report_project(&mut self, message: impl Into<String>) -> &mut Diagnostic {
        self.diagnostics.push(Diagnostic::new(
            self.entry.code,
            self.entry.name,
            self.entry.default_severity,
            message,
        ));
        self.diagnostics.last_mut().expect("just pushed")
    }
}

/// Builder helpers on a diagnostic held by mutable reference.
pub trait DiagnosticExt {
    /// Set the primary label's text.
    fn label(&mut self, text: impl Into<String>) -> &mut Self;
    /// Add a secondary label.
    fn with(&mut self, file: FileId, span: Span, text: impl Into<String>) -> &mut Self;
    /// Set the help line.
    fn fix(&mut self, help: impl Into<String>) -> &mut Self;
    /// Attach edits that resolve the finding ([`crate::diagnostics::fix::Fix`]).
    fn autofix(&mut self, fix: crate::diagnostics::fix::Fix) -> &mut Self;
}

impl DiagnosticExt for Diagnostic {
    fn label(&mut self, text: impl Into<String>) -> &mut Self {
        if let Some(p) = &mut self.primary {
            p.message = text.into();
        }
        self
    }
    fn with(&mut self, file: FileId, span: Span, text: impl Into<String>) -> &mut Self {
        self.secondary
            .push(crate::diagnostics::Label::new(file, span, text));
        self
    }
    fn fix(&mut self, help: impl Into<String>) -> &mut Self {
        self.help = Some(help.into());
        self
    }
    fn autofix(&mut self, fix: crate::diagnostics::fix::Fix) -> &mut Self {
        self.fix = Some(Box::new(fix));
        self
    }
}

/// The project's lint profile (`[lint] profile`; `standard` when unset).
pub fn profile(project: &Project) -> Profile {
    project
        .config
        .lint
        .profile
        .as_ref()
        .map(|p| p.value)
        .unwrap_or_default()
}

/// The effective level of a rule after configuration: the level `[lint.rules]` sets, else the
/// rule's default when the project's profile includes the rule, else off. Rules that cannot be
/// configured (syntax errors) always keep their default.
pub fn effective_level(project: &Project, entry: &RuleEntry) -> Option<Severity> {
    let cfg = &project.config.lint.rules;
    let setting = cfg
        .get(entry.name)
        .or_else(|| {
            cfg.iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(entry.code))
                .map(|(_, v)| v)
        })
        .map(|s: &Sp<LevelSetting>| s.value);
    match setting {
        None if !entry.configurable || entry.profile <= profile(project) => {
            Some(entry.default_severity)
        }
        None => None,
        Some(_) if !entry.configurable => Some(entry.default_severity),
        Some(LevelSetting::Off) => None,
        Some(LevelSetting::Info) => Some(Severity::Info),
        Some(LevelSetting::Warn) => Some(Severity::Warning),
        Some(LevelSetting::Error) => Some(Severity::Error),
    }
}

/// Kinds of the files whose load errors left their declarations out of the project.
pub fn failed_kinds(
    project: &Project,
    load_diagnostics: &[Diagnostic],
) -> std::collections::BTreeSet<crate::model::FileKind> {
    load_diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error && d.code < crate::diagnostics::codes::IO_ERROR.0)
        .filter_map(|d| d.primary.as_ref().map(|l| (d, l)))
        // A duplicate key (SR005) in YAML keeps the file (the first entry is used); the TOML
        // parser stops at one.
        .filter(|(d, l)| {
            d.code != crate::diagnostics::codes::DUPLICATE_KEY.0
                || project.sources.get(l.file).name.ends_with(".toml")
        })
        .map(|(_, l)| l)
        .filter_map(|l| project.file_kinds.get(l.file.0 as usize).copied())
        .collect()
}

/// Whether a rule's findings would be misleading because files of these kinds failed to load
/// (a failed alias file makes concepts look undeclared, a failed tool file makes groups look
/// empty, ...).
fn depends_on_failed(
    rule: &str,
    failed: &std::collections::BTreeSet<crate::model::FileKind>,
) -> bool {
    use crate::model::FileKind::{Alias, Config, Intent, Tool};
    if failed.is_empty() {
        return false;
    }
    let needs: &[crate::model::FileKind] = match rule {
        "dangling-reference" => &[Intent, Alias],
        "unknown-domain" | "unroutable-tool" => &[Intent],
        // Groups whose fields are all identifiers are exempt: that needs the tools.
        "unreachable-group" => &[Intent, Tool],
        "dangling-alias" => &[Alias],
        "orphan-concept" | "empty-group" | "unsatisfiable-intent" => &[Tool],
        "prompt-budget" => &[Tool, Intent, Alias, Config],
        "unknown-source-type" => &[Config],
        _ => &[],
    };
    needs.iter().any(|k| failed.contains(k))
}

/// Run every enabled rule, apply levels and suppressions, and return sorted diagnostics
/// (load diagnostics passed in are included and go through the same levels and suppressions).
pub fn run(ctx: &Context, load_diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    run_with_suppressed(ctx, load_diagnostics).0
}

/// [`run`], also returning the suppressed findings of error severity, sorted.
pub fn run_with_suppressed(
    ctx: &Context,
    load_diagnostics: Vec<Diagnostic>,
) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    // When files failed to load, checks about what is missing would report consequences
    // ("undeclared concept") instead of the cause: skip those that depend on the failed kinds.
    let failed = &ctx.failed_kinds;
    let mut all = load_diagnostics;
    let mut skipped: Vec<&str> = Vec::new();
    let mut active = Vec::new();
    for entry in RULES.iter() {
        let Some(rule) = registry::check_of(entry.code) else {
            continue;
        };
        if effective_level(ctx.project, entry).is_none() {
            continue;
        }
        if depends_on_failed(entry.name, failed) {
            skipped.push(entry.name);
            continue;
        }
        active.push((entry, rule));
    }
    // Rules are independent readers of the context: run them in parallel; `collect` keeps the
    // registry order, so the output does not depend on scheduling.
    use rayon::prelude::*;
    let found: Vec<Vec<Diagnostic>> = active
        .par_iter()
        .map(|(entry, rule)| {
            let mut sink = Sink::new(entry);
            rule.check(ctx, &mut sink);
            sink.diagnostics
        })
        .collect();
    all.extend(found.into_iter().flatten());
    if !failed.is_empty() {
        // Whether a suppression is used depends on every file: none is reported unused.
        skipped.push("unused-suppression");
    }
    if !skipped.is_empty() {
        all.push(registry::diagnostic_project(
            "checks-skipped",
            format!(
                "some declaration files could not be read; skipped: {}",
                skipped.join(", ")
            ),
            "fix the errors above and run `schemarouter check` again for the full report",
        ));
    }
    // Configuration problems (unknown rule names in [lint.rules]).
    all.extend(registry::config_diagnostics(ctx.project));
    // Levels.
    let mut leveled = Vec::with_capacity(all.len());
    for mut d in all {
        if let Some(entry) = RULES.iter().find(|e| e.code == d.code) {
            match effective_level(ctx.project, entry) {
                None => continue,
                Some(level) => {
                    if entry.configurable {
                        d.severity = level;
                    }
                }
            }
        }
        leveled.push(d);
    }
    // Suppressions.
    let (mut out, mut suppressed) = suppress::apply(ctx.project, leveled, !failed.is_empty());
    sort_diagnostics(&mut out, &ctx.project.sources);
    sort_diagnostics(&mut suppressed, &ctx.project.sources);
    (out, suppressed)
}

/// A loaded and checked project.
pub struct Checked {
    /// The project as loaded.
    pub project: Project,
    /// Lookups over it.
    pub index: Index,
    /// Units known to the project.
    pub units: UnitTable,
    /// All findings, sorted.
    pub diagnostics: Vec<Diagnostic>,
    /// Findings of error severity that a suppression comment hid, sorted: `compile` still
    /// writes the artifact, leaving out what they concern (a unit it cannot read, say), and
    /// names them.
    pub suppressed_errors: Vec<Diagnostic>,
    /// True when a file could not be read (exit code 2).
    pub io_error: bool,
}

impl Checked {
    /// True when any finding is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

/// Load the project at `root` and run every rule.
///
/// Errors: only when the root itself cannot be read ([`crate::load::FatalError`]).
pub fn check_path(root: &std::path::Path) -> Result<Checked, crate::load::FatalError> {
    let loaded = crate::load::load_project(root)?;
    Ok(check_loaded(loaded))
}

/// Run every rule over an already loaded project (from disk or from
/// [`crate::load::load_sources`]).
pub fn check_loaded(loaded: crate::load::Loaded) -> Checked {
    let project = loaded.project;
    let (index, (units, mut unit_diags)) =
        rayon::join(|| Index::build(&project), || project_units(&project));
    let prompt_tokens = match crate::prompt::project_template(&project) {
        Ok(template) => {
            let inputs = crate::prompt::PromptInputs::from_project(&project, &index);
            let text = crate::prompt::render_inputs(&inputs, template.as_deref());
            Some(crate::prompt::count_tokens(&text))
        }
        Err(message) => {
            let mut d = Diagnostic::new(
                crate::diagnostics::codes::IO_ERROR.0,
                crate::diagnostics::codes::IO_ERROR.1,
                Severity::Error,
                message,
            )
            .help("fix `[prompt] template` in schemarouter.toml");
            if let (Some(cf), Some(t)) = (project.config_file, &project.config.prompt.template) {
                d = d.at(cf, t.span, "");
            }
            unit_diags.push(d);
            None
        }
    };
    let mut failed_kinds = failed_kinds(&project, &loaded.diagnostics);
    failed_kinds.extend(loaded.failed_kinds.iter().copied());
    let ctx = Context {
        project: &project,
        index: &index,
        units: &units,
        prompt_tokens,
        failed_kinds,
        unit_cache: UnitMemo::default(),
    };
    let mut load = loaded.diagnostics;
    load.append(&mut unit_diags);
    let (mut diagnostics, suppressed_errors) = if loaded.declarations_unread {
        // Nothing but the configuration was read: no rule has anything to judge, and no
        // setting (levels, suppressions) is known.
        sort_diagnostics(&mut load, &project.sources);
        (load, Vec::new())
    } else {
        run_with_suppressed(&ctx, load)
    };
    crate::load::Loaded::annotate_aliases(&loaded.alias_uses, &mut diagnostics);
    Checked {
        project,
        index,
        units,
        diagnostics,
        suppressed_errors,
        io_error: loaded.io_error,
    }
}

/// The project's unit table (built-ins plus `[units]`), with findings for bad definitions.
pub fn project_units(project: &Project) -> (UnitTable, Vec<Diagnostic>) {
    let builtin = UnitTable::builtin();
    if project.config.units.is_empty() {
        return (builtin, Vec::new());
    }
    let defs: std::collections::BTreeMap<String, String> = project
        .config
        .units
        .iter()
        .map(|(k, v)| (k.clone(), v.value.clone()))
        .collect();
    match builtin.with_extensions(&defs) {
        Ok(t) => (t, Vec::new()),
        Err((name, e)) => {
            let mut d = Diagnostic::new(
                crate::diagnostics::codes::INVALID_VALUE.0,
                crate::diagnostics::codes::INVALID_VALUE.1,
                Severity::Error,
                format!("unit `{name}` in [units] is not valid: {}", e.message),
            )
            .help(if e.message.contains("would shadow the known unit") {
                // The suggestion is the known unit itself.
                "a built-in unit needs no entry: remove this one to use it, or give your unit another name".to_string()
            } else if e.message.contains("offset temperature scale") {
                "`°C` and `°F` are built in and need no entry; define a unit of temperature from `K`, or a degree size from `delta_degC`/`delta_degF`, e.g. `rankine = \"1 delta_degF\"`".to_string()
            } else if e.message.starts_with("invalid unit name") {
                "name the unit with letters and `_` only, e.g. `bohr = \"0.529177210903 Å\"`".to_string()
            } else {
                match &e.suggestion {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => "write the definition as `<number> <unit>`, e.g. `0.529177210903 Å`"
                        .to_string(),
                }
            });
            if let (Some(cf), Some(v)) = (project.config_file, project.config.units.get(&name)) {
                d = d.at(cf, v.span, "");
            }
            (builtin, vec![d])
        }
    }
}

/// The span of `offset..offset+len` (bytes) inside the string value declared at `span`,
/// skipping an opening quote when the value is quoted in the source. The whole `span` when the
/// source is not the value's text: a YAML alias (`*unit`, whose value is written at its anchor)
/// or a block scalar (`|`, `>`).
pub fn inner_span(project: &Project, file: FileId, span: Span, offset: usize, len: usize) -> Span {
    let text = project.sources.get(file).slice(span);
    if text.starts_with(['*', '|', '>']) {
        return span;
    }
    let skip = usize::from(text.starts_with('"') || text.starts_with('\''));
    let start = span.start as usize + skip + offset;
    let end = (start + len.max(1)).min(span.end as usize).max(start);
    Span::new(start, end)
}

/// Every alias text of the project with what it leads to, in declaration order.
pub fn alias_uses(project: &Project) -> Vec<AliasUse<'_>> {
    let mut out = Vec::new();
    for c in &project.concepts {
        out.push(AliasUse {
            text: &c.item.id.value,
            file: c.file,
            span: c.item.id.span,
            concept: &c.item.id.value,
            field: None,
            implicit: true,
        });
        for texts in c.item.aliases.values() {
            for t in texts {
                out.push(AliasUse {
                    text: &t.value,
                    file: c.file,
                    span: t.span,
                    concept: &c.item.id.value,
                    field: None,
                    implicit: false,
                });
            }
        }
    }
    for a in &project.aliases {
        let al = &a.item.value;
        if let Some(c) = &al.concept {
            out.push(AliasUse {
                text: &al.text.value,
                file: a.file,
                span: al.text.span,
                concept: &c.value,
                field: al.field.as_ref().map(|f| f.value.as_str()),
                implicit: false,
            });
        } else if let Some(f) = &al.field {
            out.push(AliasUse {
                text: &al.text.value,
                file: a.file,
                span: al.text.span,
                concept: "",
                field: Some(&f.value),
                implicit: false,
            });
        }
    }
    out
}

/// One alias text and its target.
#[derive(Clone, Debug)]
pub struct AliasUse<'a> {
    /// The text as written.
    pub text: &'a str,
    /// Declaring file.
    pub file: FileId,
    /// Where the text is written.
    pub span: Span,
    /// Target concept id ("" for a field-only alias).
    pub concept: &'a str,
    /// Target field path, for field aliases.
    pub field: Option<&'a str>,
    /// True for a concept's own id (every concept id is also an alias of itself).
    pub implicit: bool,
}
