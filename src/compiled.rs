//! The one home of "a compiled project": check, compile, prompt, and the output folder's layout
//! and file names.
//!
//! The command line (`compile`, `stats`, `graph`), the Python binding, `diff` (each side) and
//! `eval scaling` build their artifacts here, so every caller gets the same artifact from the
//! same sources: the project checked (`lint`), refused on errors, compiled
//! ([`artifact::build`]), its endpoints embedded when `[search] embeddings` asks for it, and
//! the intent-registry prompt rendered with the project's `[prompt] template`.
//! [`CompiledProject::write`] owns what `compile` writes ([`JSON_FILE`], [`BIN_FILE`],
//! [`PROMPT_FILE`]: all files of a run or none, the other artifact form kept current when git
//! tracks it) and [`CompiledProject::compare`] what `compile --check` compares. Readers find the
//! prompt beside an artifact with [`crate::prompt::read_beside`].
//!
//! Nothing here prints: refusals and notes are values, rendered by the caller.

use crate::artifact::{self, BIN_FILE, FrozenGraph, JSON_FILE, PROMPT_FILE, io};
use crate::diagnostics::Summary;
use crate::lint::{self, Checked};
use crate::prompt;
use std::path::{Path, PathBuf};

/// Which artifact forms a compile writes (the prompt is always written).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Forms {
    /// [`JSON_FILE`] only.
    #[default]
    Json,
    /// [`BIN_FILE`] only.
    Bin,
    /// Both files.
    Both,
}

impl Forms {
    /// Whether [`JSON_FILE`] is asked for.
    pub fn json(self) -> bool {
        matches!(self, Forms::Json | Forms::Both)
    }

    /// Whether [`BIN_FILE`] is asked for.
    pub fn bin(self) -> bool {
        matches!(self, Forms::Bin | Forms::Both)
    }

    /// The file names a compile writes into its output folder, in the order they are shown:
    /// the asked artifact forms, then [`PROMPT_FILE`].
    pub fn file_names(self) -> Vec<&'static str> {
        let mut v = Vec::new();
        if self.json() {
            v.push(JSON_FILE);
        }
        if self.bin() {
            v.push(BIN_FILE);
        }
        v.push(PROMPT_FILE);
        v
    }
}

/// Why a project was not compiled.
pub enum Refused {
    /// The project cannot be read at all (no declaration files, an unreadable folder).
    Fatal(crate::load::FatalError),
    /// A file could not be read, or the check found errors: the checked project with every
    /// finding, for the caller to render.
    Findings(Box<Checked>),
    /// A setting of `schemarouter.toml` cannot be followed (`[prompt] template`, `[search]
    /// embeddings` or `dense-weight`): the message (with the setting's position where known)
    /// and a help line.
    Setting {
        /// What is wrong.
        message: String,
        /// What to do.
        help: String,
    },
}

impl std::fmt::Debug for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Refused({self})")
    }
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Fatal(e) => write!(f, "{e}"),
            Refused::Findings(c) => write!(
                f,
                "refusing to compile: {} error(s)",
                Summary::of(&c.diagnostics).errors
            ),
            Refused::Setting { message, .. } => write!(f, "{message}"),
        }
    }
}

/// Check the project in `path` (load and lint; see [`lint::check_path`]).
///
/// Errors: the project cannot be read at all.
pub fn check(path: &Path) -> Result<Checked, crate::load::FatalError> {
    lint::check_path(path)
}

/// Whether a checked project is refused: a file could not be read or the check found errors
/// (suppressed errors do not count: the comments ask to compile anyway).
pub fn refuses(checked: &Checked) -> bool {
    checked.io_error || checked.has_errors()
}

/// The artifact of a checked project, without its prompt, embeddings or content hash, whatever
/// its findings (`diff` compares sides that `compile` would refuse).
pub fn artifact_of(checked: &Checked) -> FrozenGraph {
    artifact::build::compile(&checked.project, &checked.index, &checked.units)
}

/// A compiled project: the artifact (its content hash computed when it is written or
/// compared) and its prompt.
pub struct CompiledProject {
    /// The artifact.
    pub graph: FrozenGraph,
    /// The intent-registry prompt (written as [`PROMPT_FILE`]).
    pub prompt: String,
    /// The check's counts per severity (errors are suppressed ones only).
    pub summary: Summary,
}

/// What [`CompiledProject::write`] did.
#[derive(Debug, Default)]
pub struct Written {
    /// The files asked for, in [`Forms::file_names`] order.
    pub files: Vec<PathBuf>,
    /// The other artifact form, written too because git tracks it.
    pub refreshed: Vec<PathBuf>,
    /// An untracked artifact of the other form left by an earlier run, and whether removing it
    /// worked (readers pick the newer of the two, so a stale one must not stay).
    pub removed: Vec<(PathBuf, std::io::Result<()>)>,
}

/// Why [`CompiledProject::write`] wrote nothing.
#[derive(Debug)]
pub enum WriteError {
    /// The output folder cannot be created.
    Create(std::io::Error),
    /// A file cannot be written (every earlier file of the run is left as it was, and folders
    /// this run created are removed).
    Write(std::io::Error),
}

/// What [`CompiledProject::compare`] found in an output folder.
#[derive(Debug, Default)]
pub struct Compared {
    /// Files that match the sources.
    pub verified: Vec<PathBuf>,
    /// Files that do not, each with why (`differs from the sources`, `is missing`), in the
    /// order they were compared.
    pub stale: Vec<String>,
}

impl CompiledProject {
    /// Check and compile the project in `path`.
    ///
    /// Errors: see [`Refused`].
    pub fn compile(path: &Path) -> Result<CompiledProject, Refused> {
        let checked = check(path).map_err(Refused::Fatal)?;
        if refuses(&checked) {
            return Err(Refused::Findings(Box::new(checked)));
        }
        CompiledProject::from_checked(checked)
    }

    /// Compile a checked project (the caller has refused one with errors, see [`refuses`]).
    /// The project is consumed: its file texts are freed first, and each tool's declaration
    /// as its routing table is built, so the project and the artifact never peak together.
    ///
    /// Errors: [`Refused::Setting`] for a prompt template that cannot be read, embeddings that
    /// cannot be loaded or a dense weight out of range.
    pub fn from_checked(mut checked: Checked) -> Result<CompiledProject, Refused> {
        let summary = Summary::of(&checked.diagnostics);
        let template = prompt::project_template(&checked.project).map_err(|message| {
            Refused::Setting {
                message,
                help: "`[prompt] template` in schemarouter.toml names a file inside the project folder (relative to it); fix the path or remove the setting".to_string(),
            }
        })?;
        let dense = dense_settings(&checked.project)?;
        // File texts are only needed for diagnostics, which are done: free them first (at
        // 10,000 tools they are over 100 MB of the peak).
        drop_in_background(std::mem::take(&mut checked.project.sources));
        let Checked {
            project,
            index,
            units,
            diagnostics,
            ..
        } = checked;
        drop_in_background(diagnostics);
        let mut graph = artifact::build::compile_owned(project, index, &units);
        if let Some(d) = dense {
            d.index(&mut graph)?;
        }
        let prompt = prompt::render(&graph, template.as_deref());
        Ok(CompiledProject {
            graph,
            prompt,
            summary,
        })
    }

    /// Compare the files `compile` would write into `out` (and an artifact of the other form
    /// there) with this project, computing the content hash.
    pub fn compare(&mut self, out: &Path, forms: Forms) -> Compared {
        self.graph.content_hash = io::json_content_hash(&self.graph);
        let mut c = Compared::default();
        let names = forms.file_names();
        for name in &names {
            let p = out.join(name);
            let current = if *name == PROMPT_FILE {
                std::fs::read_to_string(&p).is_ok_and(|t| t == self.prompt)
            } else {
                io::is_current(&self.graph, &p)
            };
            if current {
                c.verified.push(p);
            } else if p.exists() {
                c.stale
                    .push(format!("{} differs from the sources", p.display()));
            } else {
                c.stale.push(format!("{} is missing", p.display()));
            }
        }
        // An artifact of the other form in the folder must match too.
        for name in [JSON_FILE, BIN_FILE] {
            let p = out.join(name);
            if !names.contains(&name) && p.is_file() {
                if io::is_current(&self.graph, &p) {
                    c.verified.push(p);
                } else {
                    c.stale
                        .push(format!("{} differs from the sources", p.display()));
                }
            }
        }
        c
    }

    /// Write the asked artifact forms and [`PROMPT_FILE`] into `out` (created when missing),
    /// all files or none; `pretty` indents [`JSON_FILE`]. The other form is written too when
    /// git tracks it there (a committed artifact must not vanish because one run asked for the
    /// other form; `tracked` says whether it does, e.g. `diff::git::is_tracked`), and an
    /// untracked one left by an earlier run is removed. Sets the content hash.
    ///
    /// Errors: see [`WriteError`]; nothing is changed then.
    pub fn write(
        &mut self,
        out: &Path,
        forms: Forms,
        pretty: bool,
        tracked: impl Fn(&Path) -> bool,
    ) -> Result<Written, WriteError> {
        let created = io::create_dir_all_tracked(out).map_err(WriteError::Create)?;
        io::remove_stale_temps(out);
        // The binary form carries the JSON form's content hash: compute it first (streamed,
        // no copy) rather than cloning the artifact to give it one.
        if self.graph.content_hash.is_empty() && forms.bin() {
            self.graph.content_hash = io::json_content_hash(&self.graph);
        }
        let mut wants_json = forms.json();
        let mut wants_bin = forms.bin();
        let mut written = Written::default();
        for (name, wanted) in [(JSON_FILE, &mut wants_json), (BIN_FILE, &mut wants_bin)] {
            let p = out.join(name);
            if !*wanted && p.is_file() && tracked(&p) {
                *wanted = true;
                written.refreshed.push(p);
            }
        }
        let json_hash = self.write_files(out, wants_json, wants_bin, pretty);
        let json_hash = match json_hash {
            Ok(h) => h,
            Err(e) => {
                // Leave no folder this run created behind.
                io::remove_created_dirs(&created);
                return Err(WriteError::Write(e));
            }
        };
        if let Some(h) = json_hash {
            self.graph.content_hash = h;
        }
        for (name, wanted) in [(JSON_FILE, wants_json), (BIN_FILE, wants_bin)] {
            let p = out.join(name);
            if !wanted && p.is_file() {
                let r = std::fs::remove_file(&p);
                written.removed.push((p, r));
            }
        }
        written.files = forms.file_names().iter().map(|n| out.join(n)).collect();
        Ok(written)
    }

    /// The atomic write of one run; returns the JSON form's content hash when it was written.
    fn write_files(
        &self,
        out: &Path,
        wants_json: bool,
        wants_bin: bool,
        pretty: bool,
    ) -> std::io::Result<Option<String>> {
        let json_hash = std::cell::RefCell::new(None);
        let graph = &self.graph;
        let prompt_text = self.prompt.as_str();
        let mut jobs: Vec<io::WriteJob<'_>> = Vec::new();
        if wants_json {
            let h = &json_hash;
            jobs.push((
                out.join(JSON_FILE),
                Box::new(move |f| {
                    *h.borrow_mut() = Some(if pretty {
                        io::write_json_pretty_into(graph, f)?
                    } else {
                        io::write_json_into(graph, f)?
                    });
                    Ok(())
                }),
            ));
        }
        if wants_bin {
            // The binary form carries the JSON form's content hash.
            let mut bin_graph_hash = graph.content_hash.clone();
            if bin_graph_hash.is_empty() {
                bin_graph_hash = io::json_content_hash(graph);
            }
            let bin_graph = if bin_graph_hash == graph.content_hash {
                None
            } else {
                let mut g = graph.clone();
                g.content_hash = bin_graph_hash;
                Some(g)
            };
            jobs.push((
                out.join(BIN_FILE),
                Box::new(move |f| io::write_bin_into(bin_graph.as_ref().unwrap_or(graph), f)),
            ));
        }
        jobs.push((
            out.join(PROMPT_FILE),
            Box::new(move |f| {
                use std::io::Write;
                f.write_all(prompt_text.as_bytes())
            }),
        ));
        io::write_all_atomic(jobs)?;
        Ok(json_hash.into_inner())
    }
}

/// Free a large value (a loaded project, a compiled graph) on another thread. The caller is
/// about to serialise or exit; tearing down hundreds of thousands of small allocations need
/// not hold it up (at 10,000 tools it takes about a fifth of a second).
pub fn drop_in_background<T: Send + 'static>(value: T) {
    // If no thread can be spawned, the closure (and the value) is dropped right here.
    let _ = std::thread::Builder::new()
        .name("drop".into())
        .spawn(move || drop(value));
}

/// The dense signal's settings (`[search] embeddings`, `dense-weight`), read before the
/// configuration's text is freed.
struct DenseSettings {
    /// The weights folder (`SCHEMAROUTER_EMBEDDINGS`, or the configured path under the root).
    folder: PathBuf,
    /// `λ`.
    weight: f64,
    /// `FILE:LINE:COL` of the `embeddings` setting.
    at: String,
}

impl DenseSettings {
    /// Embed every endpoint of `graph` (an error when the weights cannot be loaded: the project
    /// asks for them, and an artifact must not depend on which machine compiled it).
    fn index(&self, graph: &mut FrozenGraph) -> Result<(), Refused> {
        let m = crate::search::dense::load(&self.folder).map_err(|e| Refused::Setting {
            message: format!("{}: `[search] embeddings`: {e}", self.at),
            help: format!(
                "name a folder holding the weights (`*.safetensors`) and tokenizer (`*tokenizer*.json`) of a static embedding model, e.g. the `wordllama` folder of PyPI's `wordllama` wheel; {} overrides where it is; remove the setting for a lexical search only",
                crate::search::dense::ENV
            ),
        })?;
        crate::search::dense::index(graph, &m, self.weight);
        Ok(())
    }
}

/// Where a span of the configuration file is, as `FILE:LINE:COL`.
fn config_at(p: &crate::model::Project, span: &crate::source::Span) -> String {
    match p.config_file {
        Some(id) => {
            let f = p.sources.get(id);
            let (line, col) = f.line_col(span.start as usize);
            format!("{}:{line}:{col}", f.name)
        }
        None => crate::model::config::CONFIG_FILE.to_string(),
    }
}

/// The dense settings of `p` (`None` without `[search] embeddings`); an error for a weight out
/// of range.
fn dense_settings(p: &crate::model::Project) -> Result<Option<DenseSettings>, Refused> {
    let s = &p.config.search;
    let weight = match &s.dense_weight {
        Some(w) if !(0.0..=100.0).contains(&w.value) => {
            return Err(Refused::Setting {
                message: format!(
                    "{}: `[search] dense-weight` is {}; it must be between 0 and 100",
                    config_at(p, &w.span),
                    w.value
                ),
                help: format!(
                    "the cosine's weight against the best BM25F score; {} is the default",
                    crate::search::dense::DEFAULT_WEIGHT
                ),
            });
        }
        Some(w) => w.value,
        None => crate::search::dense::DEFAULT_WEIGHT,
    };
    let Some(e) = &s.embeddings else {
        return Ok(None);
    };
    let folder = match std::env::var_os(crate::search::dense::ENV).filter(|v| !v.is_empty()) {
        Some(v) => PathBuf::from(v),
        None => p.root.join(&e.value),
    };
    Ok(Some(DenseSettings {
        folder,
        weight,
        at: config_at(p, &e.span),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_output_layout_names_the_asked_forms_then_the_prompt() {
        assert_eq!(
            Forms::Json.file_names(),
            ["graph.json", "intent_prompt.txt"]
        );
        assert_eq!(Forms::Bin.file_names(), ["graph.bin", "intent_prompt.txt"]);
        assert_eq!(
            Forms::Both.file_names(),
            ["graph.json", "graph.bin", "intent_prompt.txt"]
        );
    }

    #[test]
    fn a_project_with_errors_is_refused_with_its_findings() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("schemas")).unwrap();
        std::fs::write(dir.path().join("schemas/t.yaml"), "id: t\nbogus: 1\n").unwrap();
        match CompiledProject::compile(dir.path()) {
            Err(Refused::Findings(c)) => assert!(c.has_errors()),
            Err(e) => panic!("refused otherwise: {e}"),
            Ok(_) => panic!("compiled a project with errors"),
        }
    }

    #[test]
    fn the_shipped_project_compiles_to_the_committed_build_folder() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut c = CompiledProject::compile(root).expect("the shipped project compiles");
        let compared = c.compare(&root.join("build"), Forms::Json);
        assert_eq!(compared.stale, Vec::<String>::new());
        assert_eq!(
            compared.verified,
            [
                root.join("build/graph.json"),
                root.join("build/intent_prompt.txt")
            ]
        );
    }
}
