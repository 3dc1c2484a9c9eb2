//! The binary artifact (`graph.bin`, format version 2): a routing section that is an rkyv
//! archive, memory-mapped and validated (bytecheck) in place, and a separate graph section that
//! only `graph` exports and `diff` read.
//!
//! Layout (all integers little-endian):
//!
//! | offset | size | content |
//! |---:|---:|---|
//! | 0 | 4 | magic `SRGB` |
//! | 4 | 4 | format version (u32, 2) |
//! | 8 | 8 | routing section length `R` (u64) |
//! | 16 | 8 | graph section length `G` (u64) |
//! | 24 | 32 | blake3 of the routing section |
//! | 56 | 32 | blake3 of the graph section |
//! | 88 | 8 | zero |
//! | 96 | `R` | routing section: rkyv 0.8 archive of the artifact without its graph |
//! | 96 + `R` | `G` | graph section: MessagePack of the `graph` (nodes and edges) |
//!
//! The routing section starts at a multiple of 16 from the start of the file, so a memory map
//! (page-aligned) satisfies the archive's alignment. Its strings behind shared pointers (unit
//! spellings, dimensions, source types, licences, provenance) are written once and shared. The
//! routing section carries the artifact's `content_hash`, which is defined over the JSON form
//! (see [`super::io`]); the two section hashes protect the bytes of this file.

use super::lazy::{Backing, LazyMap, LazyVec};
use super::{ArchivedFrozenGraph, FORMAT_VERSION, FrozenGraph, GraphData, Indices, LoadError};
use rkyv::rancor::Error as RkyvError;
use std::io::{Seek, SeekFrom, Write};
use std::sync::Arc;

/// First four bytes of every binary artifact.
pub const MAGIC: &[u8; 4] = b"SRGB";
/// Size of the fixed header in front of the routing section.
pub const HEADER_LEN: usize = 96;

/// A writer that feeds a blake3 hasher and counts bytes.
struct Hashing<W: Write> {
    inner: W,
    hasher: blake3::Hasher,
    len: u64,
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.len += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

fn hashing<W: Write>(inner: W) -> std::io::BufWriter<Hashing<W>> {
    std::io::BufWriter::with_capacity(
        1 << 18,
        Hashing {
            inner,
            hasher: blake3::Hasher::new(),
            len: 0,
        },
    )
}

fn finish<W: Write>(w: std::io::BufWriter<Hashing<W>>) -> std::io::Result<(u64, blake3::Hash)> {
    let mut h = w.into_inner().map_err(|e| e.into_error())?;
    h.flush()?;
    Ok((h.len, h.hasher.finalize()))
}

/// Stream the binary artifact into `out` (positioned at its start), then patch the header.
pub fn write<W: Write + Seek>(fg: &FrozenGraph, out: &mut W) -> std::io::Result<()> {
    out.write_all(&[0u8; HEADER_LEN])?;
    let w = hashing(&mut *out);
    let w = super::shared::sharing(|| {
        rkyv::api::high::to_bytes_in::<_, RkyvError>(fg, rkyv::ser::writer::IoWriter::new(w))
    })
    .map_err(std::io::Error::other)?
    .into_inner();
    let (routing_len, routing_hash) = finish(w)?;
    let mut w = hashing(&mut *out);
    rmp_serde::encode::write_named(&mut w, &fg.graph).map_err(std::io::Error::other)?;
    let (graph_len, graph_hash) = finish(w)?;
    let mut head = Vec::with_capacity(HEADER_LEN);
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    head.extend_from_slice(&routing_len.to_le_bytes());
    head.extend_from_slice(&graph_len.to_le_bytes());
    head.extend_from_slice(routing_hash.as_bytes());
    head.extend_from_slice(graph_hash.as_bytes());
    head.resize(HEADER_LEN, 0);
    out.seek(SeekFrom::Start(0))?;
    out.write_all(&head)?;
    out.seek(SeekFrom::End(0))?;
    Ok(())
}

/// The binary artifact as bytes.
pub fn to_bytes(fg: &FrozenGraph) -> Vec<u8> {
    let mut c = std::io::Cursor::new(Vec::new());
    match write(fg, &mut c) {
        Ok(()) => c.into_inner(),
        Err(_) => Vec::new(),
    }
}

/// The checked header of a binary artifact.
struct Header {
    routing: std::ops::Range<usize>,
    graph: std::ops::Range<usize>,
    routing_hash: [u8; 32],
    graph_hash: [u8; 32],
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

fn header(bytes: &[u8]) -> Result<Header, LoadError> {
    if bytes.len() < 8 {
        return Err(LoadError::Malformed(
            "binary artifact shorter than its header".into(),
        ));
    }
    let version = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]);
    super::io::check_version(version)?;
    if bytes.len() < HEADER_LEN {
        return Err(LoadError::Malformed(
            "binary artifact shorter than its header".into(),
        ));
    }
    let r = u64_at(bytes, 8);
    let g = u64_at(bytes, 16);
    let total = (HEADER_LEN as u64)
        .checked_add(r)
        .and_then(|x| x.checked_add(g));
    if total != Some(bytes.len() as u64) {
        return Err(LoadError::Malformed(format!(
            "binary artifact is {} bytes, its header says {} (truncated or padded)",
            bytes.len(),
            total.map_or("more than 2^64".to_string(), |t| t.to_string())
        )));
    }
    let (r, g) = (r as usize, g as usize);
    let mut routing_hash = [0u8; 32];
    routing_hash.copy_from_slice(&bytes[24..56]);
    let mut graph_hash = [0u8; 32];
    graph_hash.copy_from_slice(&bytes[56..88]);
    Ok(Header {
        routing: HEADER_LEN..HEADER_LEN + r,
        graph: HEADER_LEN + r..HEADER_LEN + r + g,
        routing_hash,
        graph_hash,
    })
}

/// blake3 of a section, on every core for large sections.
fn hash(b: &[u8]) -> blake3::Hash {
    let mut h = blake3::Hasher::new();
    if b.len() > 1 << 20 {
        h.update_rayon(b);
    } else {
        h.update(b);
    }
    h.finalize()
}

fn verify(recorded: &[u8; 32], actual: blake3::Hash) -> Result<(), LoadError> {
    if actual.as_bytes() != recorded {
        return Err(LoadError::HashMismatch {
            recorded: blake3::Hash::from_bytes(*recorded).to_hex().to_string(),
            actual: actual.to_hex().to_string(),
        });
    }
    Ok(())
}

/// Bytes of a loaded file.
pub(crate) enum Bytes {
    /// A read-only memory map of the file.
    Map(memmap2::Mmap),
    /// The routing section copied into aligned memory (loading from a byte slice).
    Aligned(rkyv::util::AlignedVec<16>),
}

impl Bytes {
    fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Map(m) => m,
            Bytes::Aligned(v) => v,
        }
    }
}

/// Load a verified binary artifact from a file: memory-mapped, routing section hashed and
/// validated in place; the graph section is read (hashed, decoded) only when `with_graph`.
pub(crate) fn load_file(file: &std::fs::File, with_graph: bool) -> Result<FrozenGraph, LoadError> {
    // SAFETY: the map is read-only. `compile` replaces artifacts by renaming a new file over
    // the old one, so a mapped file is never written in place by schemarouter; another program
    // truncating it while it is mapped is outside what a reader can defend against.
    let map = unsafe { memmap2::Mmap::map(file) }.map_err(LoadError::Io)?;
    let h = header(&map)?;
    let graph = if with_graph {
        Some(load_graph(&map, &h)?)
    } else {
        None
    };
    let routing = h.routing.clone();
    let fg = load_routing_section(Arc::new(Bytes::Map(map)), routing, &h.routing_hash)?;
    Ok(with(fg, graph))
}

/// [`load_file`] over bytes in memory (the routing section is copied into aligned memory).
pub(crate) fn load_slice(bytes: &[u8], with_graph: bool) -> Result<FrozenGraph, LoadError> {
    let h = header(bytes)?;
    let graph = if with_graph {
        Some(load_graph(bytes, &h)?)
    } else {
        None
    };
    let mut v = rkyv::util::AlignedVec::<16>::with_capacity(h.routing.len());
    v.extend_from_slice(&bytes[h.routing.clone()]);
    let len = v.len();
    let fg = load_routing_section(Arc::new(Bytes::Aligned(v)), 0..len, &h.routing_hash)?;
    Ok(with(fg, graph))
}

fn with(mut fg: FrozenGraph, graph: Option<GraphData>) -> FrozenGraph {
    if let Some(g) = graph {
        fg.graph = g;
    }
    fg
}

fn load_graph(bytes: &[u8], h: &Header) -> Result<GraphData, LoadError> {
    let section = &bytes[h.graph.clone()];
    verify(&h.graph_hash, hash(section))?;
    rmp_serde::from_slice(section)
        .map_err(|e| LoadError::Malformed(format!("graph section of the binary artifact: {e}")))
}

fn load_routing_section(
    backing: Arc<Bytes>,
    range: std::ops::Range<usize>,
    recorded: &[u8; 32],
) -> Result<FrozenGraph, LoadError> {
    let section = &backing.as_slice()[range];
    // Hash on one core while the other validates.
    let (checked, actual) = rayon::join(
        || rkyv::access::<ArchivedFrozenGraph, RkyvError>(section),
        || hash(section),
    );
    verify(recorded, actual)?;
    let a = checked.map_err(|e| {
        LoadError::Malformed(format!("routing section of the binary artifact: {e}"))
    })?;
    let owner: Backing = backing.clone();
    let de = |e: RkyvError| LoadError::Malformed(format!("routing section: {e}"));
    let version = a.format_version.to_native();
    super::io::check_version(version)?;
    // SAFETY (every `archived` call below): `a` was validated above and points into `backing`,
    // which each view keeps alive; the bytes are never written.
    let index = unsafe {
        Indices {
            alias_to_concept: LazyMap::archived(&a.index.alias_to_concept, owner.clone()),
            alias_to_field: LazyMap::archived(&a.index.alias_to_field, owner.clone()),
            concept_postings: LazyMap::archived(&a.index.concept_postings, owner.clone()),
            param_postings: LazyMap::archived(&a.index.param_postings, owner.clone()),
            tool_names: LazyMap::archived(&a.index.tool_names, owner.clone()),
            field_names: LazyMap::archived(&a.index.field_names, owner.clone()),
            max_alias_words: a.index.max_alias_words.to_native(),
        }
    };
    Ok(FrozenGraph {
        format_version: version,
        tool_version: a.tool_version.as_str().to_string(),
        project: rkyv::deserialize(&a.project).map_err(de)?,
        content_hash: a.content_hash.as_str().to_string(),
        routing_fingerprint: a.routing_fingerprint.as_str().to_string(),
        graph: GraphData::default(),
        tools: unsafe { LazyVec::archived(&a.tools, owner) },
        intents: rkyv::deserialize(&a.intents).map_err(de)?,
        concepts: rkyv::deserialize(&a.concepts).map_err(de)?,
        domains: rkyv::deserialize(&a.domains).map_err(de)?,
        groups: rkyv::deserialize(&a.groups).map_err(de)?,
        source_types: rkyv::deserialize(&a.source_types).map_err(de)?,
        index,
    })
}
