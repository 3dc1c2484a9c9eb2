//! The compact JSON form of the artifact, written with its long lists rendered on every core.
//!
//! At 10,000 tools `graph.json` is about 280 MB, nearly all of it in four places: the tools
//! (about 40%), the graph's node and edge lists (about 50%) and the index maps. Rendered by
//! one `serde_json::to_writer` call the whole file is written on one thread while the other
//! cores wait. Here the document is walked field by field in the derived order and each long
//! list is cut into batches: the elements of a batch are rendered on the rayon pool (in tasks
//! of a few elements, each with the commas that precede its elements) while the previous batch
//! is copied into the writer, so the hashing and writing thread overlaps the rendering.
//!
//! The bytes are exactly `serde_json::to_writer(w, fg)` with the serialisation mode of the
//! calling thread (the mode is carried into the workers): the derived `Serialize` of
//! [`FrozenGraph`], [`Indices`] and [`GraphData`] stays the definition, and the tests compare
//! the two byte for byte. Each struct is taken apart without `..`, so a field added to one of
//! them does not compile until it is written here too.

use super::{FrozenGraph, GraphData, Indices, LazyMap, LazyVec, lazy::Stored};
use rayon::prelude::*;
use serde::Serialize;
use std::io::{self, Write};

/// Elements rendered by one rayon task, by list (about 50-100 KB of JSON each).
const TOOLS_PER_TASK: usize = 8;
const NODES_PER_TASK: usize = 512;
const EDGES_PER_TASK: usize = 1024;
const ENTRIES_PER_TASK: usize = 256;
/// Tasks per batch: a batch is rendered while the previous one is written, so about two
/// batches (a few MB) are held at once.
const TASKS_PER_BATCH: usize = 32;

/// Write the compact JSON form of `fg` (no final newline), as `serde_json::to_writer` would.
///
/// # Errors
/// Errors of the writer, and serialisation errors (a tool or index entry of a lazily read
/// artifact that cannot be read unwinds instead, see [`super::reading`]).
pub(crate) fn write<W: Write + Send>(fg: &FrozenGraph, w: &mut W) -> io::Result<()> {
    let FrozenGraph {
        format_version,
        tool_version,
        project,
        content_hash,
        routing_fingerprint,
        tools,
        intents,
        concepts,
        domains,
        groups,
        source_types,
        lexicon,
        index,
        graph,
    } = fg;
    let mut o = Object::open(w)?;
    o.field("format_version", format_version)?;
    o.field("tool_version", &RoutingBlank(tool_version))?;
    o.field("project", project)?;
    o.field("content_hash", &ContentHash(content_hash))?;
    o.field("routing_fingerprint", &RoutingBlank(routing_fingerprint))?;
    o.key("tools")?;
    write_list(o.w, tools.len(), TOOLS_PER_TASK, |i| lazy_at(tools, i))?;
    o.field("intents", intents)?;
    o.field("concepts", concepts)?;
    o.field("domains", domains)?;
    o.field("groups", groups)?;
    o.field("source_types", source_types)?;
    o.field("lexicon", lexicon)?;
    o.key("index")?;
    write_indices(o.w, index)?;
    o.key("graph")?;
    write_graph(o.w, graph)?;
    o.close()
}

fn write_indices<W: Write + Send>(w: &mut W, index: &Indices) -> io::Result<()> {
    let Indices {
        alias_to_concept,
        alias_to_field,
        concept_postings,
        param_postings,
        tool_names,
        field_names,
        max_alias_words,
        qualifier_values,
        qualifier_keys,
        search_terms,
        search_offsets,
        search_vectors,
    } = index;
    let mut o = Object::open(w)?;
    o.map("alias_to_concept", alias_to_concept)?;
    o.map("alias_to_field", alias_to_field)?;
    o.map("concept_postings", concept_postings)?;
    o.map("param_postings", param_postings)?;
    o.map("tool_names", tool_names)?;
    o.map("field_names", field_names)?;
    o.field("max_alias_words", max_alias_words)?;
    // `skip_serializing_if = "LazyMap::is_empty"` on both.
    if !qualifier_values.is_empty() {
        o.map("qualifier_values", qualifier_values)?;
    }
    if !qualifier_keys.is_empty() {
        o.map("qualifier_keys", qualifier_keys)?;
    }
    if !search_terms.is_empty() {
        o.map("search_terms", search_terms)?;
    }
    if !search_offsets.is_empty() {
        o.field("search_offsets", search_offsets)?;
    }
    if let Some(v) = search_vectors {
        o.field("search_vectors", v)?;
    }
    o.close()
}

fn write_graph<W: Write + Send>(w: &mut W, graph: &GraphData) -> io::Result<()> {
    let GraphData { nodes, edges } = graph;
    let mut o = Object::open(w)?;
    o.key("nodes")?;
    write_list(o.w, nodes.len(), NODES_PER_TASK, |i| &nodes[i])?;
    o.key("edges")?;
    write_list(o.w, edges.len(), EDGES_PER_TASK, |i| &edges[i])?;
    o.close()
}

fn lazy_at<T: Stored>(v: &LazyVec<T>, i: usize) -> &T {
    &v[i]
}

/// The tool version or routing fingerprint, as `#[serde(serialize_with = "ser_routing_blank")]`.
struct RoutingBlank<'a>(&'a str);

impl Serialize for RoutingBlank<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        super::ser_routing_blank(self.0, s)
    }
}

/// The content hash, as `#[serde(serialize_with = "ser_content_hash")]`.
struct ContentHash<'a>(&'a str);

impl Serialize for ContentHash<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        super::ser_content_hash(self.0, s)
    }
}

/// An object being written: `{`, then `"key":value` pairs with commas, then `}`.
struct Object<'w, W: Write> {
    w: &'w mut W,
    first: bool,
}

impl<'w, W: Write> Object<'w, W> {
    fn open(w: &'w mut W) -> io::Result<Self> {
        w.write_all(b"{")?;
        Ok(Object { w, first: true })
    }

    fn key(&mut self, key: &str) -> io::Result<()> {
        if !self.first {
            self.w.write_all(b",")?;
        }
        self.first = false;
        serde_json::to_writer(&mut *self.w, key).map_err(io::Error::other)?;
        self.w.write_all(b":")
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> io::Result<()> {
        self.key(key)?;
        serde_json::to_writer(&mut *self.w, value).map_err(io::Error::other)
    }

    fn close(self) -> io::Result<()> {
        self.w.write_all(b"}")
    }
}

impl<W: Write + Send> Object<'_, W> {
    /// A map of the index, its entries rendered in parallel (`collect_map` order).
    fn map<V: Stored + Serialize + Send + Sync>(
        &mut self,
        key: &str,
        map: &LazyMap<V>,
    ) -> io::Result<()> {
        self.key(key)?;
        let n = map.len();
        let at = |i: usize| map.entry(i);
        self.w.write_all(b"{")?;
        write_parts(self.w, n, ENTRIES_PER_TASK, |i, buf| {
            let (k, v) = at(i);
            serde_json::to_writer(&mut *buf, k)?;
            buf.push(b':');
            serde_json::to_writer(&mut *buf, v)
        })?;
        self.w.write_all(b"}")
    }
}

/// `[` elements `]`, the elements rendered in parallel.
fn write_list<'a, T, W>(
    w: &mut W,
    n: usize,
    per_task: usize,
    at: impl Fn(usize) -> &'a T + Sync,
) -> io::Result<()>
where
    T: Serialize + Sync + 'a,
    W: Write + Send,
{
    w.write_all(b"[")?;
    write_parts(w, n, per_task, |i, buf| serde_json::to_writer(buf, at(i)))?;
    w.write_all(b"]")
}

/// Elements `0..n`, comma-separated, each rendered by `render` on the rayon pool; batch `k + 1`
/// is rendered while batch `k` is written.
fn write_parts<W: Write + Send>(
    w: &mut W,
    n: usize,
    per_task: usize,
    render: impl Fn(usize, &mut Vec<u8>) -> serde_json::Result<()> + Sync,
) -> io::Result<()> {
    let mode = super::mode();
    let per_batch = per_task * TASKS_PER_BATCH;
    let batch = |start: usize| -> io::Result<Vec<Vec<u8>>> {
        let end = (start + per_batch).min(n);
        (start..end)
            .step_by(per_task)
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|from| {
                super::with_mode(mode, || {
                    let mut buf = Vec::new();
                    for i in from..(from + per_task).min(end) {
                        if i > 0 {
                            buf.push(b',');
                        }
                        render(i, &mut buf)?;
                    }
                    Ok::<_, serde_json::Error>(buf)
                })
                .map_err(io::Error::other)
            })
            .collect()
    };
    if n == 0 {
        return Ok(());
    }
    let mut ready = batch(0)?;
    let mut start = per_batch;
    loop {
        let more = start < n;
        let (next, written) = rayon::join(
            || more.then(|| batch(start)).transpose(),
            || ready.iter().try_for_each(|part| w.write_all(part)),
        );
        written?;
        match next? {
            Some(parts) => ready = parts,
            None => return Ok(()),
        }
        start += per_batch;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::artifact::{SerMode, io, with_mode};
    use std::path::Path;

    fn shipped_path() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../build/graph.json")
    }

    fn compact(fg: &FrozenGraph) -> Vec<u8> {
        let mut out = Vec::new();
        write(fg, &mut out).expect("writes into a Vec");
        out
    }

    #[test]
    fn lists_match_serde_json_for_every_task_and_batch_size() {
        let words: Vec<String> = (0..1000).map(|i| format!("w\"{i}\u{e9}")).collect();
        for n in [0, 1, 2, 5, 31, 32, 33, 100, 1000] {
            let items = &words[..n];
            let expected = serde_json::to_vec(items).unwrap();
            for per_task in [1, 2, 3, 7, 64] {
                let mut out = Vec::new();
                write_list(&mut out, n, per_task, |i| &items[i]).unwrap();
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    String::from_utf8(expected.clone()).unwrap(),
                    "n = {n}, per task = {per_task}"
                );
            }
        }
    }

    #[test]
    fn maps_match_serde_json() {
        let owned: Vec<(String, Vec<u32>)> = (0..700)
            .map(|i| (format!("k{i:04}\n"), (0..i % 5).collect()))
            .collect();
        let map: LazyMap<Vec<u32>> = owned
            .clone()
            .into_iter()
            .collect::<std::collections::BTreeMap<_, _>>()
            .into();
        let expected = serde_json::to_vec(&map).unwrap();
        let mut out = Vec::new();
        let mut o = Object::open(&mut out).unwrap();
        o.map("m", &map).unwrap();
        o.close().unwrap();
        let mut want = b"{\"m\":".to_vec();
        want.extend_from_slice(&expected);
        want.push(b'}');
        assert_eq!(
            String::from_utf8(out).unwrap(),
            String::from_utf8(want).unwrap()
        );
    }

    #[test]
    fn the_shipped_artifact_has_the_same_bytes_as_serde_json_in_each_mode() {
        for fg in [
            io::load(&shipped_path()).unwrap(),
            io::load_routing(&shipped_path()).unwrap(),
            io::load_routing_lazy(&shipped_path()).unwrap(),
        ] {
            assert!(!fg.graph.nodes.is_empty() || fg.tools.len() == 16);
            for mode in [SerMode::Normal, SerMode::ZeroHash, SerMode::Routing] {
                let ours = with_mode(mode, || compact(&fg));
                let reference = with_mode(mode, || serde_json::to_vec(&fg).unwrap());
                assert_eq!(ours.len(), reference.len(), "{mode:?}");
                assert!(ours == reference, "{mode:?}: bytes differ");
            }
        }
    }

    #[test]
    fn the_written_file_is_the_committed_one() {
        // The committed artifact was written by `compile`; writing its loaded form again gives
        // the same file, content hash included.
        let bytes = std::fs::read(shipped_path()).unwrap();
        let fg = io::load(&shipped_path()).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("graph.json");
        let hash = io::write_json(&fg, &p).unwrap();
        assert_eq!(hash, fg.content_hash);
        assert!(std::fs::read(&p).unwrap() == bytes);
    }
}
