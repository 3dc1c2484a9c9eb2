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
//! | 88 | 8 | length `T` of the tool area at the start of the routing section (u64) |
//! | 96 | `R` | routing section: the tool area (`T` bytes: one rkyv 0.8 archive per tool, each starting at a multiple of 16), then the root archive (the artifact without its graph; `tools` is the list of (offset, length) of the tools' archives) |
//! | 96 + `R` | `G` | graph section: MessagePack of the `graph` (nodes and edges) |
//!
//! Every archive starts at a multiple of 16 from the start of the file, so a memory map
//! (page-aligned) satisfies its alignment. Each tool is its own archive so that the tools are
//! validated in parallel (and their shared strings are looked up in small tables); texts that a
//! tool repeats, and the unit, source type and licence values behind shared pointers, are
//! written once per tool. The routing section carries the artifact's `content_hash`, which is
//! defined over the JSON form (see [`super::io`]); the two section hashes protect the bytes of
//! this file.

use super::io::Hashed;
use super::lazy::{Backing, LazyMap, LazyVec};
use super::{
    ArchivedFrozenGraph, ArchivedToolData, FORMAT_VERSION, FrozenGraph, GraphData, Indices,
    LoadError, ToolData,
};
use rayon::prelude::*;
// Validation reports through `BoxedError`, which keeps the reason in release builds
// (`rancor::Error` keeps it only with debug assertions).
use rkyv::rancor::{BoxedError, Error as RkyvError, Fallible};
use rkyv::ser::{Allocator, Writer};
use rkyv::vec::{ArchivedVec, VecResolver};
use rkyv::with::{ArchiveWith, SerializeWith};
use std::cell::RefCell;
use std::io::{Seek, SeekFrom, Write};
use std::sync::Arc;

/// Where one tool's archive sits in the tool area.
#[derive(Clone, Copy, Debug, rkyv::Archive, rkyv::Serialize)]
pub struct ToolSpan {
    /// Byte offset from the start of the routing section (a multiple of 16).
    pub offset: u64,
    /// Length in bytes.
    pub len: u64,
}

thread_local! {
    /// The spans of the tool archives being written on this thread (set by [`write`]).
    static SPANS: RefCell<Vec<ToolSpan>> = const { RefCell::new(Vec::new()) };
}

/// `with` wrapper for `FrozenGraph::tools` in the root archive: the list of [`ToolSpan`]s of
/// the tools' own archives (written before the root by [`write()`]).
pub struct ToolSpans;

impl ArchiveWith<LazyVec<ToolData>> for ToolSpans {
    type Archived = ArchivedVec<ArchivedToolSpan>;
    type Resolver = VecResolver;
    fn resolve_with(
        _: &LazyVec<ToolData>,
        resolver: VecResolver,
        out: rkyv::Place<Self::Archived>,
    ) {
        let n = SPANS.with(|s| s.borrow().len());
        ArchivedVec::resolve_from_len(n, resolver, out);
    }
}

impl<S> SerializeWith<LazyVec<ToolData>, S> for ToolSpans
where
    S: Fallible + Allocator + Writer + ?Sized,
    S::Error: rkyv::rancor::Source,
{
    fn serialize_with(_: &LazyVec<ToolData>, s: &mut S) -> Result<VecResolver, S::Error> {
        let spans = SPANS.with(|sp| sp.borrow().clone());
        ArchivedVec::serialize_from_slice(&spans, s)
    }
}

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
/// The tools' archives are built in parallel and written in tool order.
pub fn write<W: Write + Seek>(fg: &FrozenGraph, out: &mut W) -> std::io::Result<()> {
    let tools: Vec<rkyv::util::AlignedVec> = (0..fg.tools.len())
        .into_par_iter()
        .map(|i| super::shared::sharing(|| rkyv::to_bytes::<RkyvError>(&fg.tools[i])))
        .collect::<Result<_, _>>()
        .map_err(std::io::Error::other)?;
    out.write_all(&[0u8; HEADER_LEN])?;
    let mut w = hashing(&mut *out);
    let mut spans = Vec::with_capacity(tools.len());
    let mut at = 0u64;
    for t in &tools {
        spans.push(ToolSpan {
            offset: at,
            len: t.len() as u64,
        });
        w.write_all(t)?;
        at += t.len() as u64;
        let pad = (16 - at % 16) % 16;
        w.write_all(&[0u8; 16][..pad as usize])?;
        at += pad;
    }
    drop(tools);
    let tool_area = at;
    let old = SPANS.with(|s| s.replace(spans));
    let root = super::shared::sharing(|| {
        rkyv::api::high::to_bytes_in::<_, RkyvError>(fg, rkyv::ser::writer::IoWriter::new(w))
    });
    SPANS.with(|s| *s.borrow_mut() = old);
    let w = root.map_err(std::io::Error::other)?.into_inner();
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
    head.extend_from_slice(&tool_area.to_le_bytes());
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
    tool_area: usize,
    graph: std::ops::Range<usize>,
    routing_hash: [u8; 32],
    graph_hash: [u8; 32],
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

/// Above this, a header's format version is read as damage rather than a newer format.
const MAX_PLAUSIBLE_VERSION: u32 = 1000;

fn header(bytes: &[u8]) -> Result<Header, LoadError> {
    if bytes.len() < 8 {
        return Err(LoadError::Malformed(
            "binary artifact shorter than its header".into(),
        ));
    }
    let version = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]);
    // Versions count up by one per format change: four bytes of noise after the magic are a
    // damaged file, not a newer schemarouter's.
    if version > MAX_PLAUSIBLE_VERSION {
        return Err(LoadError::Malformed(format!(
            "the binary artifact's header gives format version {version}, which no schemarouter writes: the file is damaged"
        )));
    }
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
    let t = u64_at(bytes, 88);
    if t > r as u64 || !t.is_multiple_of(16) {
        return Err(LoadError::Malformed(format!(
            "binary artifact: tool area of {t} bytes does not fit a routing section of {r}"
        )));
    }
    let mut routing_hash = [0u8; 32];
    routing_hash.copy_from_slice(&bytes[24..56]);
    let mut graph_hash = [0u8; 32];
    graph_hash.copy_from_slice(&bytes[56..88]);
    Ok(Header {
        routing: HEADER_LEN..HEADER_LEN + r,
        tool_area: t as usize,
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

/// Compare a section's hash with the one its header records; `section` names it in the error.
fn verify(section: Hashed, recorded: &[u8; 32], actual: blake3::Hash) -> Result<(), LoadError> {
    if actual.as_bytes() != recorded {
        return Err(LoadError::HashMismatch {
            hash: section,
            recorded: blake3::Hash::from_bytes(*recorded).to_hex().to_string(),
            actual: actual.to_hex().to_string(),
        });
    }
    Ok(())
}

/// Bytes of a loaded file. Either way, an offset into them is an offset into the file.
pub(crate) enum Bytes {
    /// A read-only memory map of the file.
    Map(memmap2::Mmap),
    /// The header and routing section copied into aligned memory (loading from a byte slice).
    Aligned(rkyv::util::AlignedVec<16>),
}

/// An rkyv validation message with the memory addresses it prints (`ptr 0x00007fa496ba6d05`:
/// different on every run) replaced by byte offsets in the file, so the same file always gives
/// the same message, on one line (one of rkyv's messages breaks its line). `bytes` are the
/// validated bytes, which start `at` bytes into the file.
fn located(message: &str, bytes: &[u8], at: usize) -> String {
    // rkyv prints an address as `0x` and `usize::BITS / 4` zero-padded hex digits.
    const DIGITS: usize = (usize::BITS / 4) as usize;
    let base = bytes.as_ptr() as usize;
    let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = String::with_capacity(message.len());
    let mut rest = message.as_str();
    let mut found = false;
    while let Some(i) = rest.find("0x") {
        let digits = &rest[i + 2..];
        let hex = digits.bytes().take_while(u8::is_ascii_hexdigit).count();
        out.push_str(&rest[..i]);
        if hex == DIGITS
            && let Ok(address) = usize::from_str_radix(&digits[..hex], 16)
        {
            // Signed: a damaged pointer may point before the bytes.
            let offset = address as i128 - base as i128 + at as i128;
            out.push_str(&offset.to_string());
            found = true;
        } else {
            out.push_str(&rest[i..i + 2 + hex]);
        }
        rest = &digits[hex..];
    }
    out.push_str(rest);
    if found {
        out.push_str(" (byte offsets in the file)");
    }
    out
}

impl Bytes {
    fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Map(m) => m,
            Bytes::Aligned(v) => v,
        }
    }
}

impl AsRef<[u8]> for Bytes {
    fn as_ref(&self) -> &[u8] {
        self.as_slice()
    }
}

/// When the tools' archives are validated: all at open (in parallel), or each on first read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tools {
    /// Validate every tool's archive before the artifact is returned.
    Validated,
    /// Validate a tool's archive when it is first read (the routing section is still hashed
    /// at open); a failure unwinds to [`super::reading`].
    OnFirstRead,
}

/// Load a verified binary artifact from a file: memory-mapped, routing section hashed and
/// validated in place; the graph section hashed, and decoded only when `with_graph`.
pub(crate) fn load_file(
    file: &std::fs::File,
    with_graph: bool,
    tools: Tools,
) -> Result<FrozenGraph, LoadError> {
    // SAFETY: the map is read-only. `compile` replaces artifacts by renaming a new file over
    // the old one, so a mapped file is never written in place by schemarouter. Only one-shot
    // readers (`route`) map the file (see `io::load_path`); another program truncating it during
    // those milliseconds is outside what a reader can defend against.
    let map = unsafe { memmap2::Mmap::map(file) }.map_err(LoadError::Io)?;
    let h = header(&map)?;
    let graph = if with_graph {
        Some(load_graph(&map, &h)?)
    } else {
        verify_graph_hash(&map, &h)?;
        None
    };
    let routing = h.routing.clone();
    let fg = load_routing_section(
        Arc::new(Bytes::Map(map)),
        routing,
        h.tool_area,
        &h.routing_hash,
        tools,
    )?;
    Ok(with(fg, graph))
}

/// [`load_file`] over bytes in memory (the routing section is copied into aligned memory).
pub(crate) fn load_slice(bytes: &[u8], with_graph: bool) -> Result<FrozenGraph, LoadError> {
    let h = header(bytes)?;
    let graph = if with_graph {
        Some(load_graph(bytes, &h)?)
    } else {
        verify_graph_hash(bytes, &h)?;
        None
    };
    // The header too, so that offsets into the copy are offsets into the file (the routing
    // section starts at 96, a multiple of 16, so its archives keep their alignment).
    let mut v = rkyv::util::AlignedVec::<16>::with_capacity(h.routing.end);
    v.extend_from_slice(&bytes[..h.routing.end]);
    let fg = load_routing_section(
        Arc::new(Bytes::Aligned(v)),
        h.routing.clone(),
        h.tool_area,
        &h.routing_hash,
        Tools::Validated,
    )?;
    Ok(with(fg, graph))
}

fn with(mut fg: FrozenGraph, graph: Option<GraphData>) -> FrozenGraph {
    if let Some(g) = graph {
        fg.graph = g;
    }
    fg
}

/// A routing load verifies the graph section's hash too, without decoding it: every byte of
/// the file is checked at open, whichever command reads it (one `route` included), so a file
/// damaged where a command does not read is refused all the same.
fn verify_graph_hash(bytes: &[u8], h: &Header) -> Result<(), LoadError> {
    verify(
        Hashed::GraphSection,
        &h.graph_hash,
        hash(&bytes[h.graph.clone()]),
    )
}

fn load_graph(bytes: &[u8], h: &Header) -> Result<GraphData, LoadError> {
    let section = &bytes[h.graph.clone()];
    verify(Hashed::GraphSection, &h.graph_hash, hash(section))?;
    rmp_serde::from_slice(section)
        .map_err(|e| LoadError::Malformed(format!("graph section of the binary artifact: {e}")))
}

/// Validate one tool's archive, which starts `at` bytes into the file (for the error's
/// offsets).
fn check_tool(bytes: &[u8], at: usize) -> Result<&ArchivedToolData, String> {
    // Sized for the tool's shared pointers up front (no rehashing while validating).
    let mut ctx = rkyv::validation::Validator::new(
        rkyv::validation::archive::ArchiveValidator::new(bytes),
        rkyv::validation::shared::SharedValidator::with_capacity(bytes.len() / 48),
    );
    rkyv::api::access_with_context::<ArchivedToolData, _, BoxedError>(bytes, &mut ctx)
        .map_err(|e| located(&e.to_string(), bytes, at))
}

/// Validate and convert one tool's archive (a tool read on first use, [`Tools::OnFirstRead`]),
/// which starts `at` bytes into the file (offsets into [`Bytes`] are offsets into the file).
fn read_tool(bytes: &[u8], at: usize) -> Result<ToolData, String> {
    let a = check_tool(bytes, at)?;
    rkyv::deserialize::<ToolData, BoxedError>(a).map_err(|e| e.to_string())
}

/// The tools' archives as validated pointers, or (for [`Tools::OnFirstRead`]) as byte ranges
/// of the routing section, bounds-checked.
enum ToolArchives {
    Validated(Vec<usize>),
    Spans(Vec<std::ops::Range<usize>>),
}

/// Validate the root archive and (unless `tools` defers it) every tool's archive, in parallel;
/// returns the root and where the tools' archives are. `section` starts `at` bytes into the
/// file (errors give offsets in the file).
fn validate(
    section: &[u8],
    at: usize,
    tool_area: usize,
    tools: Tools,
) -> Result<(&ArchivedFrozenGraph, ToolArchives), String> {
    let (area, root) = section.split_at(tool_area);
    let a = rkyv::access::<ArchivedFrozenGraph, BoxedError>(root)
        .map_err(|e| located(&e.to_string(), root, at + tool_area))?;
    let span = |i: usize, s: &ArchivedToolSpan| {
        let (off, len) = (s.offset.to_native(), s.len.to_native());
        off.checked_add(len)
            .filter(|end| off.is_multiple_of(16) && *end <= area.len() as u64)
            .map(|end| off as usize..end as usize)
            .ok_or_else(|| format!("tool {i}: archive span {off}+{len} is out of bounds"))
    };
    let spans = a.tools.as_slice();
    let found = match tools {
        Tools::OnFirstRead => ToolArchives::Spans(
            spans
                .iter()
                .enumerate()
                .map(|(i, s)| span(i, s))
                .collect::<Result<_, _>>()?,
        ),
        Tools::Validated => ToolArchives::Validated(
            spans
                .par_iter()
                .enumerate()
                .map(|(i, s)| {
                    let span = span(i, s)?;
                    check_tool(&area[span.clone()], at + span.start)
                        .map(|t| t as *const ArchivedToolData as usize)
                        .map_err(|e| format!("tool {i}: {e}"))
                })
                .collect::<Result<_, String>>()?,
        ),
    };
    Ok((a, found))
}

fn load_routing_section(
    backing: Arc<Bytes>,
    range: std::ops::Range<usize>,
    tool_area: usize,
    recorded: &[u8; 32],
    tools: Tools,
) -> Result<FrozenGraph, LoadError> {
    let start = range.start;
    let section = &backing.as_slice()[range];
    // Hash while validating (both spread over every core).
    let (checked, actual) = rayon::join(
        || validate(section, start, tool_area, tools),
        || hash(section),
    );
    verify(Hashed::RoutingSection, recorded, actual)?;
    let (a, tool_ptrs) = checked.map_err(|e| {
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
            qualifier_values: LazyMap::archived(&a.index.qualifier_values, owner.clone()),
            qualifier_keys: LazyMap::archived(&a.index.qualifier_keys, owner.clone()),
            search_terms: LazyMap::archived(&a.index.search_terms, owner.clone()),
            search_offsets: a
                .index
                .search_offsets
                .iter()
                .map(|o| o.to_native())
                .collect(),
            max_alias_words: a.index.max_alias_words.to_native(),
            search_vectors: rkyv::deserialize(&a.index.search_vectors).map_err(de)?,
        }
    };
    Ok(FrozenGraph {
        format_version: version,
        tool_version: a.tool_version.as_str().to_string(),
        project: rkyv::deserialize(&a.project).map_err(de)?,
        content_hash: a.content_hash.as_str().to_string(),
        routing_fingerprint: a.routing_fingerprint.as_str().to_string(),
        graph: GraphData::default(),
        tools: match tool_ptrs {
            ToolArchives::Validated(ptrs) => unsafe {
                LazyVec::archived(
                    ptrs.into_iter()
                        .map(|p| p as *const ArchivedToolData)
                        .collect(),
                    owner,
                )
            },
            ToolArchives::Spans(spans) => LazyVec::deferred(
                backing.clone(),
                spans
                    .into_iter()
                    .map(|r| start + r.start..start + r.end)
                    .collect(),
                read_tool,
                "tools",
            ),
        },
        intents: rkyv::deserialize(&a.intents).map_err(de)?,
        concepts: rkyv::deserialize(&a.concepts).map_err(de)?,
        domains: rkyv::deserialize(&a.domains).map_err(de)?,
        groups: rkyv::deserialize(&a.groups).map_err(de)?,
        source_types: rkyv::deserialize(&a.source_types).map_err(de)?,
        lexicon: rkyv::deserialize(&a.lexicon).map_err(de)?,
        index,
    })
}

#[cfg(test)]
mod tests {
    use super::located;

    #[test]
    fn validation_messages_give_file_offsets_for_addresses_on_one_line() {
        let bytes = [0u8; 64];
        let base = bytes.as_ptr() as usize;
        // As rkyv prints an address.
        let addr = |offset: usize| {
            format!(
                "{:#0w$x}",
                base.wrapping_add(offset),
                w = (usize::BITS / 4 + 2) as usize
            )
        };
        let message = format!(
            "subtree pointer overran range: ptr {} size 11 in range {}..{}",
            addr(0usize.wrapping_sub(8)),
            addr(16),
            addr(32)
        );
        assert_eq!(
            located(&message, &bytes, 96),
            "subtree pointer overran range: ptr 88 size 11 in range 112..128 (byte offsets in the file)"
        );
        assert_eq!(
            located(
                &format!(
                    "unaligned pointer: ptr {} unaligned for alignment 8",
                    addr(3)
                ),
                &bytes,
                1000
            ),
            "unaligned pointer: ptr 1003 unaligned for alignment 8 (byte offsets in the file)"
        );
        // Nothing else changes but the line breaks: hex that is no address, plain messages.
        assert_eq!(located("invalid UTF-8", &bytes, 96), "invalid UTF-8");
        assert_eq!(
            located(
                "claimed as the same type with\n            different pointer metadata (0x1f)",
                &bytes,
                96
            ),
            "claimed as the same type with different pointer metadata (0x1f)"
        );
    }
}
