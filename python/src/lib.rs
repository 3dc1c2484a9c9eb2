//! Python bindings of schemarouter (`import schemarouter_rs`): a thin layer over the core
//! library. A `Router` holds one loaded, verified artifact and routes questions, plans
//! Understandings and projects responses with the GIL released; `check` and `compile` work on a
//! schema project. Values cross the boundary as plain Python dicts and lists (the same shapes
//! as the CLI's JSON and the published JSON Schemas); errors are typed exceptions carrying the
//! message, file, line and column the CLI reports.

mod convert;
mod errors;

use errors::{ArtifactError, CompileError, ExtractError, LoadError, RouteError, SchemaRouterError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};
use pythonize::{depythonize, pythonize};
use schemarouter::artifact::FrozenGraph;
use schemarouter::extract::{self, Document};
use schemarouter::route::analyzer::Analyzer;
use schemarouter::route::analyzer::lexical::Lexical;
use schemarouter::route::{self, Options, Plan, Projection, Understanding};
use serde::Serialize;
use std::path::PathBuf;
use std::sync::Arc;

// As pydantic-core does: projection allocates many small values, and mimalloc is faster at that
// than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

self_cell::self_cell!(
    /// A loaded artifact and the lexical analyzer built over it.
    struct Loaded {
        owner: FrozenGraph,
        #[covariant]
        dependent: Lexical,
    }
);

/// A router over one compiled artifact (`build/graph.json` or `graph.bin`). Immutable and
/// thread-safe: share one instance between threads.
#[pyclass(frozen, module = "schemarouter_rs")]
struct Router {
    loaded: Arc<Loaded>,
    prompt: String,
    path: String,
}

#[derive(Serialize)]
struct Routed<'a> {
    understanding: &'a Understanding,
    plan: &'a Plan,
}

/// The longest question `route` takes, in characters (as the CLI's `route`): the lexical
/// Understand step's time grows faster than the question's length.
const MAX_QUESTION_CHARS: usize = 10_000;

/// Router options from the keyword arguments. `k` is taken as any Python integer and checked
/// here, so that a negative or huge one is a `RouteError` like `k=0`, not an `OverflowError`.
fn options(k: Option<&Bound<'_, PyAny>>, projection: &str) -> PyResult<Options> {
    let k = match k {
        Some(k) if !k.is_none() => k,
        // Not given: one tool per requested source, as the CLI's default.
        _ => return options_k(1, projection),
    };
    // A boolean is a Python integer too, but no count.
    let n = match k.extract::<i128>() {
        Ok(n) if !k.is_instance_of::<pyo3::types::PyBool>() => Ok(n),
        Ok(_) => Err("a boolean".to_string()),
        Err(_) => Err(k
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default()),
    };
    match n {
        Ok(n) if (1..=1000).contains(&n) => options_k(n as usize, projection),
        other => Err(errors::new::<RouteError>(
            format!(
                "k must be an integer from 1 to 1000, not {}",
                other.map_or_else(|t| t, |n| n.to_string())
            ),
            None,
            None,
            None,
        )),
    }
}

/// Router options for a checked `k` and a projection name.
fn options_k(k: usize, projection: &str) -> PyResult<Options> {
    let projection = match projection {
        "core" => Projection::Core,
        "recall" => Projection::Recall,
        "minimal" => Projection::Minimal,
        "all" => Projection::All,
        other => {
            return Err(errors::new::<RouteError>(
                format!(
                    "unknown projection `{other}`; use \"core\", \"recall\", \"minimal\" or \"all\""
                ),
                None,
                None,
                None,
            ));
        }
    };
    Ok(Options {
        k,
        projection,
        ..Options::default()
    })
}

fn to_py<'py, T: Serialize>(py: Python<'py>, v: &T) -> PyResult<Bound<'py, PyAny>> {
    pythonize(py, v).map_err(PyErr::from)
}

/// One response as a document: a dict or list (JSON values), or JSON / XML text (str or bytes;
/// JSON text is read keeping only what the step reaches).
fn document(
    obj: &Bound<'_, PyAny>,
    i: usize,
    g: &FrozenGraph,
    step: Option<&route::Step>,
) -> PyResult<Document> {
    let name = format!("response {}", i + 1);
    let text: Option<String> = if let Ok(s) = obj.cast::<PyString>() {
        Some(s.to_cow()?.into_owned())
    } else if let Ok(b) = obj.cast::<PyBytes>() {
        Some(String::from_utf8(b.as_bytes().to_vec()).map_err(|e| {
            errors::new::<ExtractError>(
                format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
                Some(name.clone()),
                None,
                None,
            )
        })?)
    } else {
        None
    };
    if text.is_none() {
        convert::depth_ok(obj, &name)
            .map_err(|m| errors::new::<ExtractError>(m, Some(name.clone()), None, None))?;
    }
    match text {
        Some(t) => match step {
            Some(s) => extract::parse_step_response(&t, Some(&name), g, s),
            None => extract::parse_response(&t, Some(&name)),
        }
        .map_err(errors::extract),
        None => step
            .and_then(|s| extract::prune::for_step(g, s))
            .map_or_else(
                || depythonize::<serde_json::Value>(obj),
                |k| convert::pruned(obj, &k),
            )
            .map(Document::Json)
            .map_err(|e| {
                errors::new::<ExtractError>(
                    format!(
                        "{name}: not a JSON value ({e}); pass a dict, a list, or JSON or XML text"
                    ),
                    Some(name.clone()),
                    None,
                    None,
                )
            }),
    }
}

fn plan_of(obj: &Bound<'_, PyAny>) -> PyResult<Plan> {
    if let Ok(s) = obj.cast::<PyString>() {
        return extract::parse_plan(&s.to_cow()?, Some("plan")).map_err(errors::extract);
    }
    convert::depth_ok(obj, "plan").map_err(|m| errors::new::<ExtractError>(m, None, None, None))?;
    let v: serde_json::Value = depythonize(obj).map_err(|e| {
        errors::new::<ExtractError>(format!("plan: not a JSON value ({e})"), None, None, None)
    })?;
    let text = v.to_string();
    extract::parse_plan(&text, None).map_err(|mut e| {
        // Positions refer to the JSON text made here, not to anything the caller wrote.
        e.line = None;
        e.column = None;
        errors::extract(e)
    })
}

#[pymethods]
impl Router {
    /// Load and verify an artifact (JSON or binary). Raises `LoadError` when the file cannot
    /// be read and `ArtifactError` when it is not a valid artifact.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Router> {
        let shown = path.display().to_string();
        let (loaded, prompt) = py
            .detach(|| {
                // `graph.bin` is memory-mapped; only the routing part is read.
                let g = schemarouter::artifact::io::load_routing(&path).map_err(|e| match e {
                    schemarouter::artifact::LoadError::Io(e) => (true, format!("cannot read: {e}")),
                    e => (false, e.to_string()),
                })?;
                schemarouter::search::dense::activate_or_warn(&g, Some(&path));
                let (prompt, _) = schemarouter::prompt::read_beside(&path, &g);
                Ok::<_, (bool, String)>((Loaded::new(g, |g| Lexical::new(g)), prompt))
            })
            .map_err(|(io, m)| {
                if io {
                    errors::new::<LoadError>(m, Some(shown.clone()), None, None)
                } else {
                    errors::new::<ArtifactError>(m, Some(shown.clone()), None, None)
                }
            })?;
        Ok(Router {
            loaded: Arc::new(loaded),
            prompt,
            path: shown,
        })
    }

    /// Plan a question: the lexical Understand step, then Algorithm 1. Returns
    /// `{"understanding": {...}, "plan": {...}}` (what `schemarouter route --json` prints).
    #[pyo3(signature = (question, *, k = None, projection = "core"))]
    fn route<'py>(
        &self,
        py: Python<'py>,
        question: &str,
        k: Option<&Bound<'py, PyAny>>,
        projection: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let opts = options(k, projection)?;
        let chars = question.chars().count();
        if chars > MAX_QUESTION_CHARS {
            return Err(errors::new::<RouteError>(
                format!(
                    "the question is {chars} characters long; `route` takes one question of at most {MAX_QUESTION_CHARS} characters"
                ),
                None,
                None,
                None,
            ));
        }
        let loaded = &self.loaded;
        let (u, plan) = py
            .detach(|| {
                // An artifact edited by hand to name a tool it lacks: the error, not a crash.
                schemarouter::artifact::reading(|| {
                    let analysis = loaded
                        .borrow_dependent()
                        .understand(question)
                        .map_err(|e| e.to_string())?;
                    let mut plan = route::route_question(
                        loaded.borrow_owner(),
                        question,
                        &analysis.understanding,
                        &opts,
                    );
                    let mut warnings = analysis.warnings;
                    warnings.append(&mut plan.warnings);
                    plan.warnings = warnings;
                    Ok::<_, String>((analysis.understanding, plan))
                })
                .map_err(|e| format!("the artifact cannot be read: {e}"))?
            })
            .map_err(|m| errors::new::<RouteError>(m, None, None, None))?;
        to_py(
            py,
            &Routed {
                understanding: &u,
                plan: &plan,
            },
        )
    }

    /// Rank the endpoints for a question or keywords ("tool search"). Returns
    /// `{"query": ..., "hits": [...], "artifact_hash": ...}` (what `schemarouter search --json`
    /// prints): each hit has rank, tool, endpoint, score, method, url, call (the MCP tool name or
    /// None) and the words that matched. Raises `RouteError` for an empty or too long query or a
    /// `k` out of 1 to 1000.
    #[pyo3(signature = (query, *, k = None))]
    fn search<'py>(
        &self,
        py: Python<'py>,
        query: &str,
        k: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let k = match k {
            Some(k) if !k.is_none() => options(Some(k), "core")?.k,
            _ => 10,
        };
        let chars = query.chars().count();
        if query.trim().is_empty() || chars > MAX_QUESTION_CHARS {
            return Err(errors::new::<RouteError>(
                if chars > MAX_QUESTION_CHARS {
                    format!(
                        "the query is {chars} characters long; `search` takes at most {MAX_QUESTION_CHARS} characters"
                    )
                } else {
                    "the query is empty; give a question or keywords".to_string()
                },
                None,
                None,
                None,
            ));
        }
        let g = self.loaded.borrow_owner();
        let hits = py
            .detach(|| {
                schemarouter::artifact::reading(|| schemarouter::search::search(g, query, k))
            })
            .map_err(|e| {
                errors::new::<RouteError>(
                    format!("the artifact cannot be read: {e}"),
                    None,
                    None,
                    None,
                )
            })?;
        to_py(
            py,
            &serde_json::json!({
                "query": query,
                "hits": hits,
                "artifact_hash": g.content_hash,
            }),
        )
    }

    /// Plan an Understanding (a dict following the Understanding JSON Schema). Returns the
    /// plan dict. Raises `RouteError` when the dict is not a valid Understanding.
    #[pyo3(signature = (understanding, *, k = None, projection = "core"))]
    fn route_understanding<'py>(
        &self,
        py: Python<'py>,
        understanding: &Bound<'py, PyAny>,
        k: Option<&Bound<'py, PyAny>>,
        projection: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let opts = options(k, projection)?;
        convert::depth_ok(understanding, "not a valid Understanding")
            .map_err(|m| errors::new::<RouteError>(m, None, None, None))?;
        // NaN and infinity are no JSON values: converted, they would become null (no value)
        // and the parameter would vanish without a word.
        if let Ok(d) = understanding.cast::<pyo3::types::PyDict>()
            && let Some(params) = d.get_item("parameters")?
            && let Ok(params) = params.cast::<pyo3::types::PyDict>()
        {
            for (k, v) in params.iter() {
                let values: Vec<Bound<'_, PyAny>> = match v.cast::<PyList>() {
                    Ok(l) => l.iter().collect(),
                    Err(_) => vec![v.clone()],
                };
                if values.iter().any(|x| {
                    x.cast::<pyo3::types::PyFloat>()
                        .is_ok_and(|f| !f.value().is_finite())
                }) {
                    return Err(errors::new::<RouteError>(
                        format!(
                            "not a valid Understanding: parameter `{k}` is NaN or infinite, which no JSON value can be"
                        ),
                        None,
                        None,
                        None,
                    ));
                }
            }
        }
        // Through a JSON value, as the CLI reads it: a string where a list belongs is refused,
        // not read as a sequence of characters.
        let u: Understanding = depythonize::<serde_json::Value>(understanding)
            .map_err(|e| e.to_string())
            .and_then(|v| serde_json::from_value(v).map_err(|e| e.to_string()))
            .map_err(|e| {
                errors::new::<RouteError>(
                    format!("not a valid Understanding: {e}"),
                    None,
                    None,
                    None,
                )
            })?;
        let g = self.loaded.borrow_owner();
        let plan = py
            .detach(|| {
                schemarouter::artifact::reading(|| {
                    route::route_question(g, &route::ranked::question_of(&u), &u, &opts)
                })
            })
            .map_err(|e| {
                errors::new::<RouteError>(
                    format!("the artifact cannot be read: {e}"),
                    None,
                    None,
                    None,
                )
            })?;
        to_py(py, &plan)
    }

    /// Project the raw responses of a plan's steps (one per step, in step order; each a dict,
    /// a list, or JSON or XML text) to the planned fields with unit, source type, licence and
    /// provenance. `plan` is a plan dict, what `route` returns, or their JSON text. Returns
    /// `{"steps": [...], "issues": [...], "context": str, "context_tokens": int}`
    /// (`context_tokens` left out with `count_tokens=False`).
    #[pyo3(signature = (plan, responses, *, count_tokens = true))]
    fn extract<'py>(
        &self,
        py: Python<'py>,
        plan: &Bound<'py, PyAny>,
        responses: &Bound<'py, PyAny>,
        count_tokens: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let plan = plan_of(plan)?;
        let items: Vec<Bound<'py, PyAny>> = if let Ok(l) = responses.cast::<PyList>() {
            l.iter().collect()
        } else if responses.is_instance_of::<PyString>() || responses.is_instance_of::<PyBytes>() {
            return Err(errors::new::<ExtractError>(
                "responses must be a list with one response per plan step".into(),
                None,
                None,
                None,
            ));
        } else {
            responses.try_iter()?.collect::<PyResult<Vec<_>>>()?
        };
        let g = self.loaded.borrow_owner();
        let docs = items
            .iter()
            .enumerate()
            .map(|(i, o)| document(o, i, g, plan.steps.get(i)))
            .collect::<PyResult<Vec<_>>>()?;
        let mut x = py
            .detach(|| extract::extract_with(g, &plan, &docs, count_tokens))
            .map_err(errors::extract)?;
        // The records are the bulk of the result: convert them directly, with one Python string
        // per field name, instead of through serde.
        let records: Vec<Vec<extract::Record>> = x
            .steps
            .iter_mut()
            .map(|s| std::mem::take(&mut s.records))
            .collect();
        let out = to_py(py, &x)?;
        let steps = out.get_item("steps")?;
        let mut keys = convert::Keys::default();
        for (i, recs) in records.iter().enumerate() {
            steps
                .get_item(i)?
                .set_item("records", convert::records(py, recs, &mut keys)?)?;
        }
        Ok(out)
    }

    /// The intent-registry prompt (what the Understand step's model reads).
    #[getter]
    fn prompt(&self) -> &str {
        &self.prompt
    }

    /// The intents: `[{"id", "description", "domains", "required_groups", "examples"}]`.
    #[getter]
    fn intents<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        #[derive(Serialize)]
        struct Intent<'a> {
            id: &'a str,
            description: &'a str,
            domains: &'a [String],
            required_groups: &'a [String],
            examples: &'a [String],
        }
        let list: Vec<Intent<'_>> = self
            .loaded
            .borrow_owner()
            .intents
            .iter()
            .map(|i| Intent {
                id: &i.id,
                description: &i.description,
                domains: &i.domains,
                required_groups: &i.required_groups,
                examples: &i.examples,
            })
            .collect();
        to_py(py, &list)
    }

    /// Name, version, hashes and counts of the loaded artifact, and its path.
    #[getter]
    fn artifact_info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let g = self.loaded.borrow_owner();
        let info = serde_json::json!({
            "path": self.path,
            "project": g.project.name,
            "version": g.project.version,
            "format_version": g.format_version,
            "tool_version": g.tool_version,
            "content_hash": g.content_hash,
            "routing_fingerprint": g.routing_fingerprint,
            "tools": g.tools.len(),
            "endpoints": g.tools.iter().map(|t| t.endpoints.len()).sum::<usize>(),
            "fields": g.field_count(),
            "concepts": g.concepts.len(),
            "intents": g.intents.len(),
        });
        to_py(py, &info)
    }

    fn __repr__(&self) -> String {
        let g = self.loaded.borrow_owner();
        format!(
            "Router({:?}: {} {}, {} tools)",
            self.path,
            g.project.name,
            g.project.version,
            g.tools.len()
        )
    }
}

/// Lint a schema project; returns its diagnostics as dicts (the `check --format json` shape).
/// Raises `LoadError` when the project cannot be read.
#[pyfunction]
fn check<'py>(py: Python<'py>, path: PathBuf) -> PyResult<Bound<'py, PyAny>> {
    let shown = path.display().to_string();
    let json = py
        .detach(|| {
            let c = schemarouter::lint::check_path(&path)?;
            Ok::<_, schemarouter::load::FatalError>(
                schemarouter::diagnostics::render::json::render(&c.diagnostics, &c.project.sources),
            )
        })
        .map_err(|e| errors::new::<LoadError>(e.to_string(), Some(shown), None, None))?;
    let v: serde_json::Value = serde_json::from_str(&json)
        .map_err(|e| errors::new::<SchemaRouterError>(e.to_string(), None, None, None))?;
    to_py(py, &v["diagnostics"])
}

/// Check and compile a schema project into `out` (`graph.json` and `intent_prompt.txt`,
/// written atomically). Returns a summary dict. Raises `CompileError` (with the first error's
/// position and `diagnostics`) when the project has errors, `LoadError` when it cannot be read.
#[pyfunction]
fn compile<'py>(py: Python<'py>, path: PathBuf, out: PathBuf) -> PyResult<Bound<'py, PyAny>> {
    let shown = path.display().to_string();
    if out.as_os_str().is_empty() {
        return Err(errors::new::<LoadError>(
            "`out` is empty; name the folder to write graph.json and intent_prompt.txt into"
                .to_string(),
            None,
            None,
            None,
        ));
    }
    let result = py.detach(|| compile_into(&path, &out));
    match result {
        Ok(summary) => to_py(py, &summary),
        Err(Failure::Load(m)) => Err(errors::new::<LoadError>(m, Some(shown), None, None)),
        Err(Failure::Write(m)) => Err(errors::new::<LoadError>(
            m,
            Some(out.display().to_string()),
            None,
            None,
        )),
        Err(Failure::Diagnostics(json)) => {
            let v: serde_json::Value = serde_json::from_str(&json).unwrap_or_default();
            let diags = v["diagnostics"].clone();
            let first = diags
                .as_array()
                .and_then(|d| d.iter().find(|d| d["severity"] == "error"))
                .cloned()
                .unwrap_or_default();
            let loc = &first["location"];
            let n = diags
                .as_array()
                .map_or(0, |d| d.iter().filter(|d| d["severity"] == "error").count());
            let err = errors::new::<CompileError>(
                format!(
                    "refusing to compile: {n} error(s); first: {} {}: {}",
                    first["code"].as_str().unwrap_or(""),
                    first["name"].as_str().unwrap_or(""),
                    first["message"].as_str().unwrap_or("")
                ),
                loc["file"].as_str().map(str::to_string),
                loc["line"].as_u64().map(|x| x as usize),
                loc["column"].as_u64().map(|x| x as usize),
            );
            err.value(py).setattr("diagnostics", to_py(py, &diags)?)?;
            Err(err)
        }
    }
}

enum Failure {
    /// The project cannot be read.
    Load(String),
    /// `out` cannot be written (the error names `out`, not the project).
    Write(String),
    /// The project has errors.
    Diagnostics(String),
}

fn compile_into(
    path: &std::path::Path,
    out: &std::path::Path,
) -> Result<serde_json::Value, Failure> {
    use schemarouter::compiled::{CompiledProject, Forms, Refused, WriteError};
    let mut c = CompiledProject::compile(path).map_err(|e| match e {
        Refused::Findings(c) => Failure::Diagnostics(
            schemarouter::diagnostics::render::json::render(&c.diagnostics, &c.project.sources),
        ),
        e => Failure::Load(e.to_string()),
    })?;
    let written = c
        .write(out, Forms::Json, false, schemarouter::diff::git::is_tracked)
        .map_err(|e| match e {
            WriteError::Create(e) => {
                Failure::Write(format!("cannot create `{}`: {e}", out.display()))
            }
            WriteError::Write(e) => {
                Failure::Write(format!("cannot write into `{}`: {e}", out.display()))
            }
        })?;
    let g = &c.graph;
    Ok(serde_json::json!({
        "project": g.project.name,
        "version": g.project.version,
        "tools": g.tools.len(),
        "endpoints": g.tools.iter().map(|t| t.endpoints.len()).sum::<usize>(),
        "fields": g.field_count(),
        "concepts": g.concepts.len(),
        "intents": g.intents.len(),
        "content_hash": g.content_hash,
        "prompt_tokens": schemarouter::prompt::count_tokens(&c.prompt),
        "files": written.files.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
    }))
}

/// The `schemarouter_rs` module.
#[pymodule]
fn schemarouter_rs(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Router>()?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(compile, m)?)?;
    errors::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
