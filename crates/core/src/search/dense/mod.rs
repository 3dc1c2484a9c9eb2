//! The dense signal of the search: static token embeddings, read from a local folder, hybridised
//! with BM25F.
//!
//! Where the weights are is declared by the project, never downloaded:
//!
//! ```toml
//! [search]
//! embeddings = "models/wordllama"   # a folder, relative to the project root
//! dense-weight = 2.5                # λ below (optional)
//! ```
//!
//! The folder holds a static embedding model as a registry package ships it (see [`model`]):
//! `pip download wordllama` gives a wheel whose `wordllama/` folder (weights and tokenizer, MIT)
//! can be named as it is. The environment variable [`ENV`] (`SCHEMAROUTER_EMBEDDINGS`), when
//! set, says where that folder is on this machine, for `compile` and for the query side alike.
//!
//! - `compile` ([`index`]) stores one vector per endpoint in the artifact
//!   (`index.search_vectors`, [`SearchVectors`]): the endpoint's name, tool title, description
//!   and parameter names ([`document`]) embedded, quantised to one byte per dimension, with the
//!   model's identity and `λ`. Without `[search] embeddings` the artifact holds no vectors and
//!   nothing changes.
//! - The query side (`search`, `route`, the servers, Python, `eval`) calls [`activate`] once
//!   after loading an artifact that holds vectors: it finds the folder ([`ENV`], or the
//!   `[search] embeddings` of the nearest `schemarouter.toml` at or above the artifact's folder),
//!   loads the model once per process, and checks that it is the model the vectors were made
//!   with. When the weights are missing or differ, search stays lexical, with a warning
//!   ([`activate_or_warn`]), never an error.
//! - [`super::rank`] then adds to each endpoint's BM25F score `λ · s · cos(question, endpoint)`,
//!   with `s` the query's best BM25F score ([`fuse`]): the BM25F scores normalised by the best
//!   one plus `λ` times the cosine, in BM25F's units. Endpoints that share no word with the
//!   question enter through the cosine alone (the [`DENSE_CANDIDATES`] closest).
//!
//! `λ = 2.5` and the linear fusion (rather than reciprocal-rank fusion, which ranked lower) were
//! chosen on LiveMCPBench and BFCL v4 together; see `docs/search.md`.

pub mod document;
pub mod model;
pub mod vectors;

pub use model::Embedder;
pub use vectors::SearchVectors;

use super::{Query, Ranked};
use crate::artifact::FrozenGraph;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

/// The environment variable that names the weights folder on this machine (overrides the
/// project's `[search] embeddings` location).
pub const ENV: &str = "SCHEMAROUTER_EMBEDDINGS";

/// The default weight `λ` of the cosine in the hybrid score.
pub const DEFAULT_WEIGHT: f64 = 2.5;

/// Endpoints that share no word with a question are ranked when they are among this many
/// closest to it by cosine.
pub const DENSE_CANDIDATES: usize = 100;

/// Embed every endpoint of `fg` with `m` and store the vectors in `fg.index.search_vectors`
/// with the model's identity and `weight` (the routing fingerprint is updated; the content hash
/// is computed when the artifact is written). Deterministic: the same model and tools give the
/// same bytes.
pub fn index(fg: &mut FrozenGraph, m: &Embedder, weight: f64) {
    let dims = m.dims();
    let per_tool: Vec<Vec<i8>> = (0..fg.tools.len())
        .into_par_iter()
        .map(|ti| {
            let t = fg.tool_at(ti as u32);
            let mut out = Vec::with_capacity(t.endpoints.len() * dims);
            for e in &t.endpoints {
                out.extend(vectors::quantise(&m.embed(&document::endpoint_text(t, e))));
            }
            out
        })
        .collect();
    fg.index.search_vectors = Some(SearchVectors {
        model: m.id().to_string(),
        dims: dims as u32,
        weight,
        vectors: per_tool.concat(),
    });
    fg.routing_fingerprint = crate::artifact::build::routing_fingerprint(fg);
}

/// Models loaded in this process, by folder (a failed load is remembered too, so it is tried
/// and reported once).
static LOADED: Mutex<BTreeMap<PathBuf, Result<Arc<Embedder>, String>>> =
    Mutex::new(BTreeMap::new());

/// Models activated for an artifact, by identity: [`fuse`] embeds with the one whose identity
/// an artifact's vectors name.
static ACTIVE: RwLock<Vec<Arc<Embedder>>> = RwLock::new(Vec::new());

/// Load the model in `folder`, once per process.
///
/// # Errors
/// [`Embedder::load`]'s message.
pub fn load(folder: &Path) -> Result<Arc<Embedder>, String> {
    let key = folder
        .canonicalize()
        .unwrap_or_else(|_| folder.to_path_buf());
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    loaded
        .entry(key)
        .or_insert_with(|| Embedder::load(folder).map(Arc::new))
        .clone()
}

/// The folder the weights are read from at query time for the artifact at `artifact`: [`ENV`]
/// when set, else the `[search] embeddings` of the nearest `schemarouter.toml` at or above the
/// artifact's folder (relative to that file's folder). `None` when neither names one.
pub fn weights_folder(artifact: Option<&Path>) -> Option<PathBuf> {
    if let Some(v) = std::env::var_os(ENV).filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(v));
    }
    let file = config_file_of(artifact?)?;
    let text = std::fs::read_to_string(&file).ok()?;
    let dir = file.parent()?;
    configured(&text).map(|p| dir.join(p))
}

/// The configuration an artifact is read with: the nearest `schemarouter.toml` at or above the
/// artifact's folder (for `PROJECT/build/graph.json`, the project's own).
pub fn config_file_of(artifact: &Path) -> Option<PathBuf> {
    let start = artifact
        .canonicalize()
        .unwrap_or_else(|_| artifact.to_path_buf());
    start
        .ancestors()
        .skip(1)
        .map(|dir| dir.join(crate::model::config::CONFIG_FILE))
        .find(|file| file.is_file())
}

/// `[search] embeddings` of a configuration file's text (other tables and errors ignored: the
/// file is checked by `check`).
fn configured(toml_text: &str) -> Option<String> {
    let v: toml::Table = toml::from_str(toml_text).ok()?;
    v.get("search")?
        .get("embeddings")?
        .as_str()
        .map(str::to_string)
}

/// What [`activate`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Activation {
    /// The artifact holds no vectors: search is lexical, as configured.
    NotIndexed,
    /// The model is loaded and matches the artifact's vectors: search is hybrid.
    Dense,
    /// The artifact holds vectors but they cannot be used; the reason.
    Unavailable(String),
}

/// Make the hybrid search available for `g` (loaded from `artifact`, when it came from a file):
/// find the weights folder ([`weights_folder`]), load the model once per process, and check
/// that it made `g`'s vectors.
pub fn activate(g: &FrozenGraph, artifact: Option<&Path>) -> Activation {
    let Some(sv) = &g.index.search_vectors else {
        return Activation::NotIndexed;
    };
    let Some(folder) = weights_folder(artifact) else {
        return Activation::Unavailable(format!(
            "the artifact holds dense vectors made by `{}`, but no weights folder is named (set {ENV} or `[search] embeddings` in schemarouter.toml)",
            sv.model
        ));
    };
    let m = match load(&folder) {
        Ok(m) => m,
        Err(e) => {
            return Activation::Unavailable(format!("the dense weights cannot be loaded: {e}"));
        }
    };
    if m.id() != sv.model {
        return Activation::Unavailable(format!(
            "the weights in `{}` are `{}`, but the artifact's vectors were made by `{}` (compile again with these weights)",
            folder.display(),
            m.id(),
            sv.model
        ));
    }
    let docs = g.index.search_offsets.last().copied().unwrap_or(0) as usize;
    if sv.vectors.len() != docs * sv.dims as usize || sv.dims as usize != m.dims() {
        return Activation::Unavailable(format!(
            "the artifact's dense vectors ({} bytes of {} dimensions) do not match its {docs} endpoints",
            sv.vectors.len(),
            sv.dims
        ));
    }
    let mut active = ACTIVE.write().unwrap_or_else(|e| e.into_inner());
    if !active.iter().any(|a| a.id() == m.id()) {
        active.push(m);
    }
    Activation::Dense
}

/// [`activate`], printing `warning: ...; search is lexical only` to stderr when the vectors
/// cannot be used (once per reason in a process). Whether the search is hybrid.
pub fn activate_or_warn(g: &FrozenGraph, artifact: Option<&Path>) -> bool {
    static WARNED: Mutex<Vec<String>> = Mutex::new(Vec::new());
    match activate(g, artifact) {
        Activation::Dense => true,
        Activation::NotIndexed => false,
        Activation::Unavailable(why) => {
            let mut warned = WARNED.lock().unwrap_or_else(|e| e.into_inner());
            if !warned.contains(&why) {
                eprintln!("warning: {why}; search is lexical only");
                warned.push(why);
            }
            false
        }
    }
}

/// The activated model whose identity is `id`.
fn active(id: &str) -> Option<Arc<Embedder>> {
    ACTIVE
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|m| m.id() == id)
        .cloned()
}

/// The hybrid score, when `g` holds vectors of an activated model: each lexical hit's score
/// gains `λ · s · cos` (`s`: the best lexical score, or 1 when nothing matched a word), and the
/// [`DENSE_CANDIDATES`] closest endpoints without a lexical hit join with `λ · s · cos` alone
/// (those with a positive cosine). Each hit's `similarity` is set. Nothing changes otherwise.
pub fn fuse(g: &FrozenGraph, q: &Query, hits: &mut Vec<Ranked>) {
    let Some(sv) = &g.index.search_vectors else {
        return;
    };
    let Some(m) = active(&sv.model) else {
        return;
    };
    let offsets = &g.index.search_offsets;
    let dims = sv.dims as usize;
    let n = offsets.last().copied().unwrap_or(0) as usize;
    if dims == 0 || sv.vectors.len() != n * dims {
        return;
    }
    let cos = vectors::cosines(&vectors::quantise(&m.embed(&q.text)), &sv.vectors, dims);
    let best = hits.iter().fold(0f64, |b, h| b.max(h.score));
    let scale = sv.weight * if best > 0.0 { best } else { 1.0 };
    let mut seen = vec![false; n];
    for h in hits.iter_mut() {
        let doc = (offsets[h.tool as usize] + h.endpoint) as usize;
        seen[doc] = true;
        h.similarity = Some(cos[doc] as f64);
        h.score += scale * cos[doc] as f64;
    }
    let mut rest: Vec<usize> = (0..n).filter(|&d| !seen[d] && cos[d] > 0.0).collect();
    let closer = |a: &usize, b: &usize| cos[*b].total_cmp(&cos[*a]).then(a.cmp(b));
    if rest.len() > DENSE_CANDIDATES {
        rest.select_nth_unstable_by(DENSE_CANDIDATES - 1, closer);
        rest.truncate(DENSE_CANDIDATES);
    }
    for doc in rest {
        let tool = offsets.partition_point(|o| *o as usize <= doc) - 1;
        hits.push(Ranked {
            tool: tool as u32,
            endpoint: (doc - offsets[tool] as usize) as u32,
            score: scale * cos[doc] as f64,
            lexical: 0.0,
            coverage: 0.0,
            matched: 0,
            similarity: Some(cos[doc] as f64),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_configured_folder_is_read_from_the_search_table() {
        assert_eq!(
            configured("[project]\nname = \"x\"\n[search]\nembeddings = \"models/wl\"\n"),
            Some("models/wl".to_string())
        );
        assert_eq!(configured("[search]\n"), None);
        assert_eq!(configured("not toml ["), None);
    }
}
