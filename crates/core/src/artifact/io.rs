//! Writing (atomically) and loading (with format and hash checks) the frozen artifact.
//!
//! `graph.json` is compact JSON (one line; `compile --pretty` writes an indented copy for
//! people). Its `content_hash` is the blake3 of the compact JSON bytes with the 64 hex digits
//! of the `content_hash` value replaced by `0`s: that byte form (serde_json's compact output of
//! the artifact, keys in declaration order, lists sorted, maps ordered, a final newline) is the
//! documented, stable definition of the hash, so a loader verifies a compact file by hashing
//! its bytes, not by re-serialising it; an indented file is verified by re-serialising it
//! compactly. `graph.bin` (see [`super::bin`]) is memory-mapped and carries the same
//! `content_hash` plus blake3 hashes of its two sections.

use super::{FORMAT_VERSION, FrozenGraph, bin};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const HASH_KEY: &[u8] = b"\"content_hash\":\"";
const PRETTY_HASH_KEY: &[u8] = b"\"content_hash\": \"";

/// Why an artifact could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// The file could not be read.
    Io(std::io::Error),
    /// The file is not a well-formed artifact (truncated, not JSON, missing fields).
    Malformed(String),
    /// Well-formed JSON (or another file) that is not a schemarouter artifact at all.
    NotAnArtifact,
    /// Written by an older schemarouter in a format this build no longer reads.
    OldFormat {
        /// The file's format version.
        found: u32,
        /// The format this build reads.
        supported: u32,
    },
    /// Written by a newer schemarouter.
    NewerFormat {
        /// The file's format version.
        found: u32,
        /// The newest this build reads.
        supported: u32,
    },
    /// A JSON artifact whose `format_version` is there but is not a format number (`"2"`,
    /// `2.0`): edited by hand or by another program.
    FormatVersionNotAnInteger {
        /// What it holds, described: ``the string `"2"` ``, ``the number `2.0` ``.
        found: String,
    },
    /// A hash does not match the bytes it covers (edited or corrupted).
    HashMismatch {
        /// Which hash: the content hash (JSON), or a section hash of `graph.bin`.
        hash: Hashed,
        /// Hash recorded in the file.
        recorded: String,
        /// Hash of the bytes, computed while loading.
        actual: String,
    },
}

/// Which hash of an artifact did not match ([`LoadError::HashMismatch`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hashed {
    /// The `content_hash` of a JSON artifact (the hash `compile` prints).
    Content,
    /// The blake3 of `graph.bin`'s routing section, recorded in its header (bytes 24..56).
    RoutingSection,
    /// The blake3 of `graph.bin`'s graph section, recorded in its header (bytes 56..88).
    GraphSection,
}

impl LoadError {
    /// What to do about this error, for the `help:` line under it.
    pub fn help(&self) -> &'static str {
        match self {
            LoadError::Io(e) if e.kind() == std::io::ErrorKind::NotFound => {
                "check the path, or compile the project first (`schemarouter compile PROJECT` writes PROJECT/build/graph.json)"
            }
            LoadError::Io(_) => "check that the file exists and can be read",
            LoadError::Malformed(_) | LoadError::FormatVersionNotAnInteger { .. } => {
                "pass a `graph.json` or `graph.bin` written by `schemarouter compile`; compile the project again if the file is stale or damaged"
            }
            LoadError::HashMismatch { .. } => {
                "artifacts are written whole by `schemarouter compile`, never edited; `compile --check` tells whether a committed artifact matches its sources"
            }
            LoadError::NotAnArtifact => {
                "run `schemarouter compile` to write one (`build/graph.json` or `build/graph.bin`)"
            }
            LoadError::OldFormat { .. } => {
                "artifacts are not converted between format versions: compile the sources again with this schemarouter"
            }
            LoadError::NewerFormat { .. } => {
                "`schemarouter --version` names this build; the artifact was written by a newer one"
            }
        }
    }
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Io(e) => write!(f, "cannot read the artifact: {e}"),
            LoadError::Malformed(m) => write!(f, "the artifact is malformed or truncated: {m}"),
            LoadError::NotAnArtifact => write!(
                f,
                "not a schemarouter artifact (no `format_version`); pass the `graph.json` or `graph.bin` written by `schemarouter compile`"
            ),
            LoadError::OldFormat { found, supported } => write!(
                f,
                "the artifact has format version {found}, older than this schemarouter reads ({supported}); recompile it with `schemarouter compile`"
            ),
            LoadError::NewerFormat { found, supported } => write!(
                f,
                "the artifact has format version {found}, newer than this schemarouter reads ({supported}); upgrade schemarouter or recompile the artifact"
            ),
            LoadError::FormatVersionNotAnInteger { found } => write!(
                f,
                "the artifact's `format_version` must be an integer, found {found}: the file was edited or damaged; recompile it with `schemarouter compile`"
            ),
            LoadError::HashMismatch {
                hash: Hashed::Content,
                recorded,
                actual,
            } => write!(
                f,
                "the artifact's content hash does not match its contents (recorded {recorded}, actual {actual}): it was edited or corrupted; recompile it with `schemarouter compile`"
            ),
            LoadError::HashMismatch {
                hash,
                recorded,
                actual,
            } => write!(
                f,
                "the {} section of the binary artifact does not match its hash in the file's header (recorded {recorded}, computed {actual}): it was edited or corrupted; recompile it with `schemarouter compile`",
                if *hash == Hashed::GraphSection {
                    "graph"
                } else {
                    "routing"
                }
            ),
        }
    }
}

impl std::error::Error for LoadError {}

/// Refuse format versions other than [`FORMAT_VERSION`]: older ones must be recompiled, newer
/// ones need a newer schemarouter.
pub(crate) fn check_version(found: u32) -> Result<(), LoadError> {
    if found < FORMAT_VERSION {
        return Err(LoadError::OldFormat {
            found,
            supported: FORMAT_VERSION,
        });
    }
    if found > FORMAT_VERSION {
        return Err(LoadError::NewerFormat {
            found,
            supported: FORMAT_VERSION,
        });
    }
    Ok(())
}

/// Why JSON `bytes` that did not read as an artifact (`e`) failed: a format version this
/// build does not read, a `format_version` that is not a format number, other JSON without the
/// artifact's header (not an artifact at all), or else `e` itself (a damaged artifact).
fn explain_json_failure(bytes: &[u8], e: LoadError) -> LoadError {
    /// The header field alone, whatever it holds (`null` included).
    #[derive(serde::Deserialize)]
    struct Probe {
        #[serde(default, deserialize_with = "present")]
        format_version: Option<serde_json::Value>,
    }
    fn present<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> Result<Option<serde_json::Value>, D::Error> {
        serde::Deserialize::deserialize(d).map(Some)
    }
    match serde_json::from_slice::<Probe>(bytes) {
        Ok(Probe {
            format_version: Some(v),
        }) => match format_version_of(&v) {
            Ok(found) => check_version(found).err().unwrap_or(e),
            Err(found) => LoadError::FormatVersionNotAnInteger { found },
        },
        // Complete JSON without the artifact's header is some other file.
        Ok(Probe {
            format_version: None,
        }) => LoadError::NotAnArtifact,
        // A header written twice is a damaged artifact, not some other JSON.
        Err(p) if p.to_string().starts_with("duplicate field") => e,
        // JSON that is no object at all (`[1, 2]`), or not JSON.
        Err(_) if serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok() => {
            LoadError::NotAnArtifact
        }
        Err(_) => e,
    }
}

/// The format number a JSON `format_version` holds, or (when it holds none) what it holds,
/// described for [`LoadError::FormatVersionNotAnInteger`].
fn format_version_of(v: &serde_json::Value) -> Result<u32, String> {
    use serde_json::Value;
    Err(match v {
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                return u32::try_from(u)
                    .map_err(|_| format!("the number `{n}`, larger than any format version"));
            }
            if n.is_i64() {
                format!("the negative number `{n}`")
            } else {
                format!("the number `{n}`")
            }
        }
        Value::String(_) => format!("the string `{v}`"),
        Value::Bool(_) | Value::Null => format!("`{v}`"),
        Value::Array(_) => "a list".to_string(),
        Value::Object(_) => "an object".to_string(),
    })
}

/// The start of a file that is neither artifact form, or `None`: JSON starts with `{` (after
/// white space), the binary form with `SRGB`. Only the first bytes are looked at.
fn neither_form(bytes: &[u8]) -> Option<LoadError> {
    if bytes.starts_with(bin::MAGIC) {
        return None;
    }
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace())?;
    if *first == b'{' {
        return None;
    }
    let bom = if bytes.starts_with(b"\xEF\xBB\xBF") {
        ": it starts with a UTF-8 byte order mark, which artifacts never have"
    } else {
        ""
    };
    Some(LoadError::Malformed(format!(
        "not an artifact: it starts with neither `{{` (graph.json) nor the binary magic (graph.bin){bom}"
    )))
}

/// A writer that feeds a blake3 hasher and remembers the first 4 KiB (where the header, with
/// the content hash, is).
struct HashingWriter<W: Write> {
    inner: W,
    hasher: blake3::Hasher,
    head: Vec<u8>,
}

impl<W: Write> Write for HashingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        if self.head.len() < 4096 {
            let take = n.min(4096 - self.head.len());
            self.head.extend_from_slice(&buf[..take]);
        }
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Buffer size in front of the hashing writer: serde emits many tiny writes, and blake3 and
/// the file both run far faster on large chunks (this halves `compile` time at 10,000 tools).
const WRITE_BUFFER: usize = 1 << 18;

/// Serialise the canonical JSON (content hash zeroed) into `out`; returns the content hash and
/// the byte offset where the hash goes.
fn stream_json<W: Write + Send>(
    fg: &FrozenGraph,
    out: W,
) -> std::io::Result<(String, Option<usize>)> {
    let mut w = std::io::BufWriter::with_capacity(
        WRITE_BUFFER,
        HashingWriter {
            inner: out,
            hasher: blake3::Hasher::new(),
            head: Vec::new(),
        },
    );
    super::with_mode(super::SerMode::ZeroHash, || {
        super::compact::write(fg, &mut w)
    })?;
    w.write_all(b"\n")?;
    let mut w = w.into_inner().map_err(|e| e.into_error())?;
    w.flush()?;
    let offset = find(&w.head, HASH_KEY).map(|p| p + HASH_KEY.len());
    Ok((w.hasher.finalize().to_hex().to_string(), offset))
}

/// The content hash the JSON form of `fg` carries (computed by streaming, without a copy).
pub fn json_content_hash(fg: &FrozenGraph) -> String {
    stream_json(fg, std::io::sink())
        .map(|(h, _)| h)
        .unwrap_or_default()
}

/// Serialise to the canonical JSON bytes, with the content hash filled in.
pub fn to_json_bytes(fg: &FrozenGraph) -> Vec<u8> {
    let mut bytes = Vec::new();
    if let Ok((hash, Some(start))) = stream_json(fg, &mut bytes) {
        bytes[start..start + 64].copy_from_slice(hash.as_bytes());
    }
    bytes
}

/// Write `graph.json` atomically without holding the whole text in memory: stream it into a
/// temporary file while hashing, then patch the content hash in place, sync and rename.
/// Returns the content hash.
pub fn write_json(fg: &FrozenGraph, path: &Path) -> std::io::Result<String> {
    let mut hash = String::new();
    write_atomic_with(path, |f| {
        hash = write_json_into(fg, f)?;
        Ok(())
    })?;
    Ok(hash)
}

/// Stream `graph.json` into an open file and patch its content hash; returns the hash.
pub fn write_json_into(fg: &FrozenGraph, f: &mut std::fs::File) -> std::io::Result<String> {
    let mut hash = String::new();
    (|| {
        let (h, offset) = stream_json(fg, &mut *f)?;
        let offset =
            offset.ok_or_else(|| std::io::Error::other("content_hash not found in the header"))?;
        use std::io::{Seek, SeekFrom};
        f.seek(SeekFrom::Start(offset as u64))?;
        f.write_all(h.as_bytes())?;
        hash = h;
        Ok::<(), std::io::Error>(())
    })()?;
    Ok(hash)
}

/// Serialise to the binary form (see [`super::bin`]).
pub fn to_bin_bytes(fg: &FrozenGraph) -> Vec<u8> {
    bin::to_bytes(fg)
}

/// Write `graph.bin` atomically.
pub fn write_bin(fg: &FrozenGraph, path: &Path) -> std::io::Result<()> {
    write_atomic_with(path, |f| write_bin_into(fg, f))
}

/// Stream `graph.bin` into an open file and patch its header.
pub fn write_bin_into(fg: &FrozenGraph, f: &mut std::fs::File) -> std::io::Result<()> {
    bin::write(fg, f)
}

/// Write the indented JSON form (`compile --pretty`) into an open file. It carries the content
/// hash of the compact form (computed here when `fg` has none); returns that hash.
pub fn write_json_pretty_into(fg: &FrozenGraph, f: &mut std::fs::File) -> std::io::Result<String> {
    let hash = if fg.content_hash.is_empty() {
        json_content_hash(fg)
    } else {
        fg.content_hash.clone()
    };
    let mut w = std::io::BufWriter::with_capacity(WRITE_BUFFER, &mut *f);
    let with_hash;
    let fg = if fg.content_hash == hash {
        fg
    } else {
        with_hash = FrozenGraph {
            content_hash: hash.clone(),
            ..fg.clone()
        };
        &with_hash
    };
    serde_json::to_writer_pretty(&mut w, fg).map_err(std::io::Error::other)?;
    w.write_all(b"\n")?;
    w.flush()?;
    Ok(hash)
}

/// Whether the artifact at `path` is exactly what `fg` would write: its bytes verify against
/// its own content hash and that hash equals `fg`'s.
pub fn is_current(fg: &FrozenGraph, path: &Path) -> bool {
    match load(path) {
        Ok(existing) => {
            let ours = if fg.content_hash.is_empty() {
                json_content_hash(fg)
            } else {
                fg.content_hash.clone()
            };
            existing.content_hash == ours
        }
        Err(_) => false,
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn recorded_hash(bytes: &[u8]) -> Option<String> {
    let head = &bytes[..bytes.len().min(4096)];
    let pos = find(head, HASH_KEY)? + HASH_KEY.len();
    let h = bytes.get(pos..pos + 64)?;
    std::str::from_utf8(h).ok().map(str::to_string)
}

/// Load and verify an artifact from bytes (JSON or binary, detected by the magic).
pub fn load_bytes(bytes: &[u8]) -> Result<FrozenGraph, LoadError> {
    load_bytes_with(bytes, false, None)
}

/// [`load_bytes`] for routing: the bytes are verified in full, but the `graph` section (the
/// typed node and edge lists, about 40% of the artifact, which Algorithm 1 does not read) is
/// skipped, and the result's `graph` is empty.
pub fn load_routing_bytes(bytes: &[u8]) -> Result<FrozenGraph, LoadError> {
    load_bytes_with(bytes, true, None)
}

/// Load `bytes`; with `lazy` (the same bytes, shared), a compact JSON artifact's tools and
/// index entries are recorded where they lie and parsed on first read (see [`super::lazy`]).
fn load_bytes_with(
    bytes: &[u8],
    skip_graph: bool,
    lazy: Option<&super::lazy::SharedBytes>,
) -> Result<FrozenGraph, LoadError> {
    let parse = || {
        let f = || {
            if skip_graph {
                super::routing_json::from_slice(bytes)
            } else {
                serde_json::from_slice(bytes)
            }
            .map_err(|e| LoadError::Malformed(e.to_string()))
        };
        match lazy {
            Some(src) => super::lazy::with_lazy_json(src.clone(), f),
            None => f(),
        }
    };
    if bytes.starts_with(bin::MAGIC) {
        return bin::load_slice(bytes, !skip_graph);
    }
    // Not the binary form, and not JSON of an object: other JSON (`[1, 2]`) is no artifact,
    // anything else starts like neither form.
    if let Some(neither) = neither_form(bytes) {
        return Err(
            match serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
                Ok(_) => LoadError::NotAnArtifact,
                Err(_) => neither,
            },
        );
    }
    if find(&bytes[..bytes.len().min(4096)], HASH_KEY).is_none()
        && find(&bytes[..bytes.len().min(4096)], PRETTY_HASH_KEY).is_some()
    {
        return load_pretty(bytes, skip_graph);
    }
    // Verify the hash on one core while the other parses. A routing load stops at the graph;
    // unless it reads lazily (one `route`), the other core also checks that the whole file is
    // JSON, as a full load does.
    let (parsed, (actual, syntax)) = rayon::join(parse, || {
        let syntax = match (skip_graph, lazy) {
            (true, None) => serde_json::from_slice::<serde::de::IgnoredAny>(bytes).err(),
            _ => None,
        };
        (json_hash_of(bytes), syntax)
    });
    let fg: FrozenGraph = match parsed {
        Ok(fg) => fg,
        Err(e) => return Err(explain_json_failure(bytes, e)),
    };
    check_version(fg.format_version)?;
    if let Some(e) = syntax {
        return Err(LoadError::Malformed(e.to_string()));
    }
    let recorded = recorded_hash(bytes).ok_or_else(|| {
        LoadError::Malformed(
            "no content_hash in the first 4 KiB (compile writes it in the header, before the tools)"
                .into(),
        )
    })?;
    let actual = actual.ok_or_else(|| LoadError::Malformed("no content_hash".into()))?;
    if actual != recorded {
        return Err(LoadError::HashMismatch {
            hash: Hashed::Content,
            recorded,
            actual,
        });
    }
    Ok(fg)
}

/// blake3 (hex) of JSON artifact bytes with the recorded content hash replaced by zeros; `None`
/// when the header has no content hash.
fn json_hash_of(bytes: &[u8]) -> Option<String> {
    let head = &bytes[..bytes.len().min(4096)];
    let pos = find(head, HASH_KEY)? + HASH_KEY.len();
    let rest = bytes.get(pos + 64..)?;
    let mut hasher = blake3::Hasher::new();
    hasher.update(&bytes[..pos]);
    hasher.update(&[b'0'; 64]);
    hasher.update(rest);
    Some(hasher.finalize().to_hex().to_string())
}

/// Load an indented (`compile --pretty`) JSON artifact: parsed in full and verified by
/// re-serialising it compactly (the content hash is defined over the compact form).
fn load_pretty(bytes: &[u8], skip_graph: bool) -> Result<FrozenGraph, LoadError> {
    let mut fg: FrozenGraph = serde_json::from_slice(bytes)
        .map_err(|e| explain_json_failure(bytes, LoadError::Malformed(e.to_string())))?;
    check_version(fg.format_version)?;
    let actual = json_content_hash(&fg);
    if actual != fg.content_hash {
        return Err(LoadError::HashMismatch {
            hash: Hashed::Content,
            recorded: fg.content_hash,
            actual,
        });
    }
    if skip_graph {
        fg.graph = super::GraphData::default();
    }
    Ok(fg)
}

/// Load and verify an artifact file (`graph.json` or `graph.bin`).
///
/// Errors: unreadable file, malformed or truncated content, a newer format, a hash mismatch.
pub fn load(path: &Path) -> Result<FrozenGraph, LoadError> {
    load_path(path, false, false)
}

/// Open `path`: a binary artifact (by its magic) is memory-mapped, anything else read (or, when
/// `lazy`, memory-mapped and read lazily).
fn load_path(path: &Path, skip_graph: bool, lazy: bool) -> Result<FrozenGraph, LoadError> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).map_err(LoadError::Io)?;
    let mut magic = [0u8; 4];
    let n = file.read(&mut magic).map_err(LoadError::Io)?;
    // A pipe or other stream (`--artifact /dev/stdin`, `<(...)`) cannot be memory-mapped:
    // read it whole.
    if !file.metadata().map_err(LoadError::Io)?.is_file() {
        // An artifact starts with the binary magic or with JSON's `{` (after white space): a
        // stream that does not (`/dev/zero`, `/dev/urandom`) is refused before it is read, and
        // any stream is read up to a limit.
        let head = &magic[..n];
        if !bin::MAGIC.starts_with(head)
            && let Some(e) = neither_form(head)
        {
            return Err(e);
        }
        let mut bytes = head.to_vec();
        let rest = crate::input::read_limited(&mut file, crate::input::MAX_ARTIFACT_STREAM_BYTES)
            .map_err(LoadError::Io)?;
        bytes.extend_from_slice(&rest);
        if bytes.is_empty() {
            return Err(LoadError::Malformed(
                "the file is empty (0 bytes)".to_string(),
            ));
        }
        return load_bytes_with(&bytes, skip_graph, None);
    }
    if n == 4 && &magic == bin::MAGIC {
        if lazy {
            // One `route`: the file is memory-mapped and only the pages it reads are touched.
            return bin::load_file(&file, !skip_graph, bin::Tools::OnFirstRead);
        }
        // Every other reader keeps the artifact for long (the servers, `eval`, Python) or
        // reads all of it: read into memory, never mapped, so a file truncated or rewritten
        // in place later (`cp new.bin graph.bin` over a served file) cannot end the process
        // with SIGBUS; a reload then refuses the damaged file and keeps the loaded one.
        let mut bytes = magic.to_vec();
        file.read_to_end(&mut bytes).map_err(LoadError::Io)?;
        return bin::load_slice(&bytes, !skip_graph);
    }
    // Not the binary form: JSON, whatever the file's name (`graph.json` renamed `x.bin` loads
    // as JSON; what is neither form says so).
    if lazy && n > 0 {
        // SAFETY: as for the binary form (`bin::load_file`): read-only, and `compile` replaces
        // artifacts by renaming, never by writing a mapped file in place.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(LoadError::Io)?;
        let head = &map[..map.len().min(4096)];
        if find(head, HASH_KEY).is_some() {
            let src: super::lazy::SharedBytes = Arc::new(map);
            return load_bytes_with((*src).as_ref(), skip_graph, Some(&src));
        }
        // Indented (or not an artifact at all): the eager path says which.
        return load_bytes_with(&map, skip_graph, None);
    }
    let mut bytes = magic[..n].to_vec();
    file.read_to_end(&mut bytes).map_err(LoadError::Io)?;
    if bytes.is_empty() {
        return Err(LoadError::Malformed(
            "the file is empty (0 bytes)".to_string(),
        ));
    }
    load_bytes_with(&bytes, skip_graph, None)
}

/// Load and verify an artifact file for routing (`route`, `eval`): like [`load`], but the
/// `graph` section is skipped and left empty (see [`load_routing_bytes`]).
pub fn load_routing(path: &Path) -> Result<FrozenGraph, LoadError> {
    load_path(path, true, false)
}

/// [`load_routing`] for one routing (the `route` command): a compact `graph.json` is
/// memory-mapped, verified (content hash and JSON syntax of the routing part), and its tools
/// and index entries are parsed only when first read; a `graph.bin` is hashed in full, and
/// each tool's archive is validated when the tool is first read rather than all at open.
///
/// Use the artifact inside [`super::reading`]: an element that is valid JSON but does not fit
/// its type, or a tool archive that fails validation (only in a file edited and re-hashed by
/// hand), cannot be read, and `reading` returns its error instead of the result. Indented JSON
/// loads as with [`load_routing`].
pub fn load_routing_lazy(path: &Path) -> Result<FrozenGraph, LoadError> {
    load_path(path, true, true)
}

impl FrozenGraph {
    /// Load and verify an artifact file; see [`load`].
    pub fn load(path: &Path) -> Result<FrozenGraph, LoadError> {
        load(path)
    }

    /// Load and verify an artifact file without its `graph` section; see [`load_routing`].
    pub fn load_routing(path: &Path) -> Result<FrozenGraph, LoadError> {
        load_routing(path)
    }

    /// Load for one routing, reading JSON lazily; see [`load_routing_lazy`].
    pub fn load_routing_lazy(path: &Path) -> Result<FrozenGraph, LoadError> {
        load_routing_lazy(path)
    }
}

/// Write `bytes` to `path` atomically: a temporary file in the same folder, flushed and synced,
/// then renamed over the target. On any error the previous file is left untouched and the
/// temporary file removed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |f| f.write_all(bytes))
}

/// One file to write: its path and the writer that fills it.
pub type WriteJob<'a> = (
    PathBuf,
    Box<dyn FnOnce(&mut std::fs::File) -> std::io::Result<()> + 'a>,
);

/// Write several files all-or-nothing: each goes to a temporary file in its folder (synced);
/// only when every one succeeded are they renamed into place, and a rename that fails part way
/// puts back the files already replaced (`rename_all_or_none`). On any error every temporary
/// file is removed and every target is as it was.
pub fn write_all_atomic(jobs: Vec<WriteJob<'_>>) -> std::io::Result<()> {
    // A target that exists but is not a file would fail the rename half-way through.
    for (path, _) in &jobs {
        if path.exists() && !path.is_file() {
            return Err(std::io::Error::other(format!(
                "{} exists and is not a file",
                path.display()
            )));
        }
    }
    let mut temps: Vec<(PathBuf, PathBuf)> = Vec::new();
    let mut result = Ok(());
    for (path, job) in jobs {
        let tmp = temp_path(&path);
        let r = (|| {
            // Registered and created under one lock: [`abandon_writes`] removes it or never
            // lets it be created.
            let mut f = {
                let mut flying = in_flight();
                flying.insert(tmp.clone());
                std::fs::File::create(&tmp)?
            };
            job(&mut f)?;
            f.sync_all()
        })();
        if let Err(e) = r {
            result = Err(std::io::Error::new(
                e.kind(),
                format!("{}: {e}", path.display()),
            ));
            temps.push((tmp, path));
            break;
        }
        temps.push((tmp, path));
    }
    if result.is_ok() {
        result = rename_all_or_none(&temps);
    }
    if result.is_err() {
        for (tmp, _) in &temps {
            let _ = std::fs::remove_file(tmp);
        }
    }
    let mut flying = in_flight();
    for (tmp, _) in &temps {
        flying.remove(tmp);
    }
    result
}

/// Rename every `(temporary, target)` pair into place, or none: each target that exists is kept
/// as a backup first (a hard link, or a copy where the file system has none, named as a
/// temporary file so that [`remove_stale_temps`] clears it after a crash); when a rename fails
/// part way, the targets already replaced get their backups back (and targets that did not exist
/// are removed), so the folder is as it was.
fn rename_all_or_none(temps: &[(PathBuf, PathBuf)]) -> std::io::Result<()> {
    // An interruption waits for the renames to end ([`abandon_writes`]).
    let _committing = committing();
    let mut backups: Vec<Option<PathBuf>> = Vec::new();
    let mut result = Ok(());
    for (_, path) in temps {
        if !path.is_file() {
            backups.push(None);
            continue;
        }
        let b = temp_path(path);
        backups.push(Some(b.clone()));
        let kept = {
            let mut flying = in_flight();
            flying.insert(b.clone());
            std::fs::hard_link(path, &b).or_else(|_| std::fs::copy(path, &b).map(|_| ()))
        };
        if let Err(e) = kept {
            result = Err(std::io::Error::new(
                e.kind(),
                format!("{}: cannot keep a backup: {e}", path.display()),
            ));
            break;
        }
    }
    if result.is_ok() {
        for (done, (tmp, path)) in temps.iter().enumerate() {
            if let Err(e) = std::fs::rename(tmp, path) {
                result = Err(std::io::Error::new(
                    e.kind(),
                    format!("{}: {e}", path.display()),
                ));
                for ((_, p), b) in temps.iter().zip(&backups).take(done) {
                    let _ = match b {
                        Some(b) => std::fs::rename(b, p),
                        None => std::fs::remove_file(p),
                    };
                }
                break;
            }
        }
    }
    let mut flying = in_flight();
    for b in backups.iter().flatten() {
        let _ = std::fs::remove_file(b);
        flying.remove(b);
    }
    result
}

/// The temporary files this process is writing now (on any thread; unique names, see
/// `temp_path`), which [`remove_stale_temps`] must leave alone and [`abandon_writes`] removes.
fn in_flight() -> std::sync::MutexGuard<'static, std::collections::BTreeSet<PathBuf>> {
    static IN_FLIGHT: std::sync::Mutex<std::collections::BTreeSet<PathBuf>> =
        std::sync::Mutex::new(std::collections::BTreeSet::new());
    IN_FLIGHT.lock().unwrap_or_else(|e| e.into_inner())
}

/// Held while the temporary files of one [`write_all_atomic`] are renamed into place.
fn committing() -> std::sync::MutexGuard<'static, ()> {
    static COMMITTING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    COMMITTING.lock().unwrap_or_else(|e| e.into_inner())
}

/// For a process about to end on an interruption (Ctrl-C, `SIGTERM`): wait until a rename of
/// [`write_all_atomic`] in progress has put every file of its run in place (or put them all
/// back), then remove every temporary file this process is writing and keep any other write
/// from starting or renaming. Returns the temporary files removed. The caller ends the process
/// next: a write on another thread waits for ever.
pub fn abandon_writes() -> Vec<PathBuf> {
    std::mem::forget(committing());
    let flying = in_flight();
    let removed: Vec<PathBuf> = flying
        .iter()
        .filter(|t| std::fs::remove_file(t).is_ok())
        .cloned()
        .collect();
    std::mem::forget(flying);
    removed
}

/// Create `dir` and its missing parents; returns the folders this call created (outermost
/// first), so that a failed run can remove them again ([`remove_created_dirs`]).
///
/// # Errors
/// A folder cannot be created; the ones created before the failure are removed.
pub fn create_dir_all_tracked(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    if let Some(file) = dir.ancestors().find(|a| a.exists() && !a.is_dir()) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            format!("`{}` exists and is not a folder", file.display()),
        ));
    }
    let mut missing: Vec<PathBuf> = dir
        .ancestors()
        .filter(|a| !a.as_os_str().is_empty())
        .take_while(|a| !a.exists())
        .map(Path::to_path_buf)
        .collect();
    missing.reverse();
    let mut created = Vec::new();
    for d in missing {
        match std::fs::create_dir(&d) {
            Ok(()) => created.push(d),
            // Created meanwhile by someone else: not ours to remove.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && d.is_dir() => {}
            Err(e) => {
                remove_created_dirs(&created);
                return Err(e);
            }
        }
    }
    Ok(created)
}

/// Remove folders created by [`create_dir_all_tracked`], innermost first, each only if it is
/// empty (nothing else is ever removed).
pub fn remove_created_dirs(created: &[PathBuf]) {
    for d in created.iter().rev() {
        let _ = std::fs::remove_dir(d);
    }
}

/// The temporary file used while writing `path`.
fn temp_path(path: &Path) -> PathBuf {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // One name per write, so that threads writing the same file never share one.
    static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    dir.join(format!(".{name}.tmp-{}-{n}", std::process::id()))
}

/// Remove temporary files (`.NAME.tmp-PID-N`, or `.NAME.tmp-PID` of older versions) left in
/// `dir` by an interrupted earlier run. Where `/proc` lists processes, a temporary file whose
/// process is still running (a concurrent compile or import, still writing) is left alone, unless
/// that process started after the file was last written (its id was reused), and so is one this
/// process is writing on another thread.
pub fn remove_stale_temps(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let proc = Path::new("/proc/self").exists();
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some((_, tail)) = name.rsplit_once(".tmp-") else {
            continue;
        };
        if !name.starts_with('.') {
            continue;
        }
        let pid = tail.split('-').next().unwrap_or(tail);
        let modified = e.metadata().and_then(|m| m.modified()).ok();
        let running = proc
            && pid.parse::<u32>().is_ok_and(|p| {
                p != std::process::id()
                    && Path::new("/proc").join(p.to_string()).exists()
                    // A process that started after the file was last written did not write
                    // it: its id was reused.
                    && !modified.is_some_and(|m| started_after(p, m))
            });
        let writing = in_flight()
            .iter()
            .any(|t| t.file_name() == Some(e.file_name().as_os_str()));
        if !running && !writing {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Whether process `pid` started more than a second after `time` (from `/proc/PID/stat`, its
/// start in clock ticks since boot, and the boot time of `/proc/stat`; the kernel gives these
/// ticks at 100 per second whatever its timer). `false` when either cannot be read.
fn started_after(pid: u32, time: std::time::SystemTime) -> bool {
    let start = (|| {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // The fields after the command name (in parentheses, which may hold spaces): the
        // start time is field 22 of the line, the 20th after the name.
        let after_name = &stat[stat.rfind(')')? + 1..];
        let ticks: u64 = after_name.split_whitespace().nth(19)?.parse().ok()?;
        let boot: u64 = std::fs::read_to_string("/proc/stat")
            .ok()?
            .lines()
            .find_map(|l| l.strip_prefix("btime "))?
            .trim()
            .parse()
            .ok()?;
        Some(
            std::time::UNIX_EPOCH
                + std::time::Duration::from_secs(boot)
                + std::time::Duration::from_millis(ticks * 10),
        )
    })();
    start.is_some_and(|s| {
        s.duration_since(time)
            .is_ok_and(|d| d > std::time::Duration::from_secs(1))
    })
}

/// [`write_atomic`] with a caller-supplied writer (used by tests to fail mid-write): one
/// [`write_all_atomic`] job.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    write_all_atomic(vec![(path.to_path_buf(), Box::new(write))])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rename that fails part way (here the second target's folder vanishes after its file
    /// was written) puts back the first target, already replaced, as it was.
    #[test]
    fn a_rename_that_fails_part_way_puts_every_target_back() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("one/a.txt"), dir.path().join("two/b.txt"));
        std::fs::create_dir_all(a.parent().unwrap()).unwrap();
        std::fs::create_dir_all(b.parent().unwrap()).unwrap();
        std::fs::write(&a, "old a").unwrap();
        let two = dir.path().join("two");
        let jobs: Vec<WriteJob<'_>> = vec![
            (a.clone(), Box::new(|f| f.write_all(b"new a"))),
            (
                b.clone(),
                Box::new(move |f| {
                    f.write_all(b"new b")?;
                    std::fs::remove_dir_all(&two)
                }),
            ),
        ];
        assert!(write_all_atomic(jobs).is_err());
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "old a");
        let left: Vec<_> = std::fs::read_dir(dir.path().join("one"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, [std::ffi::OsString::from("a.txt")]);
        // Without a failure both are replaced and no backup is left.
        std::fs::create_dir_all(b.parent().unwrap()).unwrap();
        let jobs: Vec<WriteJob<'_>> = vec![
            (a.clone(), Box::new(|f| f.write_all(b"new a"))),
            (b.clone(), Box::new(|f| f.write_all(b"new b"))),
        ];
        write_all_atomic(jobs).unwrap();
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "new a");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "new b");
        assert_eq!(
            std::fs::read_dir(dir.path().join("one")).unwrap().count(),
            1
        );
    }

    #[test]
    fn tracked_folders_are_created_and_only_they_are_removed() {
        let dir = std::env::temp_dir().join(format!("sr-io-dirs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("a")).unwrap();
        let created = create_dir_all_tracked(&dir.join("a/b/c")).unwrap();
        assert_eq!(created, vec![dir.join("a/b"), dir.join("a/b/c")]);
        assert!(dir.join("a/b/c").is_dir());
        // Nothing to create: nothing to remove.
        assert_eq!(
            create_dir_all_tracked(&dir.join("a/b")).unwrap(),
            Vec::<PathBuf>::new()
        );
        // A folder that gained a file is kept.
        std::fs::write(dir.join("a/b/keep"), "x").unwrap();
        remove_created_dirs(&created);
        assert!(!dir.join("a/b/c").exists());
        assert!(dir.join("a/b/keep").is_file());
        // A file in the way: an error, and what was created before it is removed again.
        std::fs::write(dir.join("a/file"), "x").unwrap();
        assert!(create_dir_all_tracked(&dir.join("a/file/x")).is_err());
        assert!(create_dir_all_tracked(&dir.join("a/new/file")).is_ok());
        std::fs::write(dir.join("f"), "x").unwrap();
        let before: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert!(create_dir_all_tracked(&dir.join("f/g/h")).is_err());
        let after: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(before.len(), after.len());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn failed_write_leaves_previous_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("graph.json");
        write_atomic(&p, b"old").unwrap();
        let r = write_atomic_with(&p, |f| {
            f.write_all(b"partial")?;
            Err(std::io::Error::other("disk full"))
        });
        assert!(r.is_err());
        assert_eq!(std::fs::read(&p).unwrap(), b"old");
        let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 1);
    }

    /// A process is taken for the writer of a temporary file only if it started before the file
    /// was last written: a later one got a dead writer's id.
    #[test]
    fn a_process_that_started_after_a_file_was_written_did_not_write_it() {
        if !Path::new("/proc/self/stat").exists() {
            return;
        }
        let me = std::process::id();
        let now = std::time::SystemTime::now();
        let hour = std::time::Duration::from_secs(3600);
        assert!(started_after(me, now - hour));
        assert!(!started_after(me, now));
        assert!(!started_after(me, now + hour));
        // No such process: nothing is known.
        assert!(!started_after(u32::MAX - 1, now - hour));
    }

    /// Stale temporary files: one of a dead process and one whose id a later process reuses are
    /// removed; one of a running process that started before it was written is kept, and so
    /// are files that are no temporary files of a write.
    #[test]
    fn stale_temporary_files_are_removed_and_a_live_writers_kept() {
        if !Path::new("/proc/self/stat").exists() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let live = child.id();
        let at = |name: String| dir.path().join(name);
        let dead = at(".graph.json.tmp-4294967294-0".to_string());
        let writing = at(format!(".graph.json.tmp-{live}-0"));
        let reused = at(format!(".graph.bin.tmp-{live}-1"));
        let older = at(".graph.json.tmp-4294967294".to_string());
        let kept = ["graph.json", "graph.json.tmp-1-0", "notes.tmp-1"].map(|n| at(n.to_string()));
        for p in [&dead, &writing, &reused, &older].into_iter().chain(&kept) {
            std::fs::write(p, "half a file").unwrap();
        }
        // Written an hour before the process holding its id started.
        std::fs::File::options()
            .write(true)
            .open(&reused)
            .unwrap()
            .set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(3600))
            .unwrap();
        remove_stale_temps(dir.path());
        let _ = child.kill();
        let _ = child.wait();
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        let mut want = vec![
            format!(".graph.json.tmp-{live}-0"),
            "graph.json".to_string(),
            "graph.json.tmp-1-0".to_string(),
            "notes.tmp-1".to_string(),
        ];
        want.sort();
        assert_eq!(left, want);
    }

    /// The shipped project's committed artifact (kept current by `compile --check` in CI; the
    /// linter that compiles it lives in the crate above this one).
    fn shipped() -> FrozenGraph {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../build/graph.json");
        load(&path).expect("the committed build/graph.json loads")
    }

    #[test]
    fn a_loaded_binary_artifact_outlives_its_file_being_rewritten_in_place() {
        // A server keeps what it loaded while `cp` truncates and rewrites the file: were the
        // file mapped, reading the loaded tools would end the process with SIGBUS.
        let fg = shipped();
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("graph.bin");
        std::fs::write(&p, to_bin_bytes(&fg)).unwrap();
        let loaded = load_routing(&p).unwrap();
        std::fs::File::create(&p).unwrap(); // truncated to 0 bytes, in place
        let mut without = fg.clone();
        without.graph = crate::artifact::GraphData::default();
        assert_eq!(loaded, without);
        std::fs::write(&p, b"SRGB").unwrap();
        assert_eq!(loaded, without);
    }

    #[test]
    fn noise_where_the_binary_format_version_is_is_damage_not_a_newer_format() {
        let mut bytes = to_bin_bytes(&shipped());
        bytes[4..8].copy_from_slice(b"garb");
        assert_eq!(
            load_bytes(&bytes).unwrap_err().to_string(),
            "the artifact is malformed or truncated: the binary artifact's header gives format version 1651663207, which no schemarouter writes: the file is damaged"
        );
        bytes[4..8].copy_from_slice(&4u32.to_le_bytes());
        assert!(matches!(
            load_bytes(&bytes).unwrap_err(),
            LoadError::NewerFormat { .. }
        ));
    }

    #[test]
    fn other_json_is_not_an_artifact_but_a_cut_artifact_is_malformed() {
        for other in [&b"{\"tools\": []}"[..], b"[1, 2]", b"\"text\""] {
            let e = load_bytes(other).unwrap_err();
            assert!(matches!(e, LoadError::NotAnArtifact), "{e}");
            assert_eq!(
                e.to_string(),
                "not a schemarouter artifact (no `format_version`); pass the `graph.json` or `graph.bin` written by `schemarouter compile`"
            );
        }
        let json = to_json_bytes(&shipped());
        let cut = &json[..json.len() / 2];
        assert!(matches!(load_bytes(cut), Err(LoadError::Malformed(_))));
    }

    #[test]
    fn routing_load_skips_only_the_graph_in_both_forms() {
        let fg = shipped();
        assert!(!fg.graph.nodes.is_empty());
        let mut without = fg.clone();
        without.graph = crate::artifact::GraphData::default();
        for bytes in [to_json_bytes(&fg), to_bin_bytes(&fg)] {
            assert_eq!(load_bytes(&bytes).unwrap(), fg);
            assert_eq!(load_routing_bytes(&bytes).unwrap(), without);
        }
    }

    #[test]
    fn routing_load_still_verifies_the_skipped_graph_in_json() {
        let fg = shipped();
        // Change one byte inside the graph section: both loads refuse it.
        let mut json = to_json_bytes(&fg);
        let at = find(&json, b"\"nodes\":[{\"id\":\"concept:").unwrap() + 25;
        json[at] = if json[at] == b'a' { b'b' } else { b'a' };
        assert!(matches!(
            load_bytes(&json),
            Err(LoadError::HashMismatch { .. })
        ));
        assert!(matches!(
            load_routing_bytes(&json),
            Err(LoadError::HashMismatch { .. })
        ));
    }

    /// The routing and graph sections of `graph.bin`.
    fn sections(bin: &[u8]) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
        let r = u64::from_le_bytes(bin[8..16].try_into().unwrap()) as usize;
        let g = u64::from_le_bytes(bin[16..24].try_into().unwrap()) as usize;
        (96..96 + r, 96 + r..96 + r + g)
    }

    #[test]
    fn binary_sections_are_hashed_separately() {
        let fg = shipped();
        let bin = to_bin_bytes(&fg);
        let (routing, graph) = sections(&bin);
        assert_eq!(graph.end, bin.len());
        // A changed graph byte: every load refuses it, the routing loads too (they hash the
        // graph section without decoding it).
        let mut bad = bin.clone();
        bad[graph.start + 40] ^= 1;
        assert!(matches!(
            load_bytes(&bad),
            Err(LoadError::HashMismatch { .. })
        ));
        assert!(matches!(
            load_routing_bytes(&bad),
            Err(LoadError::HashMismatch { .. })
        ));
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("graph.bin");
        std::fs::write(&p, &bad).unwrap();
        for r in [load_routing(&p), load_routing_lazy(&p)] {
            let e = r.unwrap_err();
            assert!(
                e.to_string().starts_with(
                    "the graph section of the binary artifact does not match its hash"
                ),
                "{e}"
            );
        }
        // The undamaged file loads the same through every routing load.
        let mut without = fg.clone();
        without.graph = crate::artifact::GraphData::default();
        std::fs::write(&p, &bin).unwrap();
        assert_eq!(load_routing_lazy(&p).unwrap(), without);
        // A changed routing byte: both refuse.
        let mut bad = bin.clone();
        bad[routing.start + routing.len() / 2] ^= 1;
        for r in [load_bytes(&bad), load_routing_bytes(&bad)] {
            assert!(matches!(r, Err(LoadError::HashMismatch { .. })), "{r:?}");
        }
    }

    #[test]
    fn truncated_and_padded_binary_artifacts_are_malformed() {
        let bin = to_bin_bytes(&shipped());
        for cut in [0, 3, 7, 8, 50, 95, 96, 97, bin.len() / 2, bin.len() - 1] {
            let e = load_routing_bytes(&bin[..cut]).unwrap_err();
            if cut < 4 {
                // Too short to carry the magic: not recognised as binary at all.
                assert!(!matches!(e, LoadError::HashMismatch { .. }), "{cut}: {e}");
                continue;
            }
            assert!(matches!(e, LoadError::Malformed(_)), "{cut}: {e}");
        }
        let mut padded = bin.clone();
        padded.push(0);
        let e = load_bytes(&padded).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "the artifact is malformed or truncated: binary artifact is {} bytes, its header says {} (truncated or padded)",
                bin.len() + 1,
                bin.len()
            )
        );
    }

    /// Bytes whose section hash was recomputed after a change: only validation stands between
    /// them and the router.
    fn rehashed(mut bin: Vec<u8>) -> Vec<u8> {
        let (routing, _) = sections(&bin);
        let h = blake3::hash(&bin[routing]);
        bin[24..56].copy_from_slice(h.as_bytes());
        bin
    }

    #[test]
    fn damaged_routing_sections_with_a_matching_hash_fail_validation_never_panic() {
        let fg = shipped();
        let bin = to_bin_bytes(&fg);
        let (routing, _) = sections(&bin);
        let mut refused = 0;
        let step = (routing.len() / 151).max(1);
        for at in (routing.clone()).step_by(step) {
            for flip in [0x01u8, 0xff] {
                let mut bad = bin.clone();
                bad[at] ^= flip;
                let bad = rehashed(bad);
                // Either refused by validation, or a valid archive whose every element converts.
                match load_routing_bytes(&bad) {
                    Err(LoadError::Malformed(m)) => {
                        assert!(m.starts_with("routing section"), "{m}");
                        refused += 1;
                    }
                    Err(e) => panic!("unexpected error at {at}: {e}"),
                    Ok(g) => {
                        let _ = serde_json::to_vec(&g).unwrap();
                    }
                }
            }
        }
        assert!(refused > 20, "only {refused} damaged archives were refused");
        // The root object itself (rkyv writes it last: the archive's last bytes).
        let root = std::mem::size_of::<crate::artifact::ArchivedFrozenGraph>();
        let mut bad = bin.clone();
        for b in &mut bad[routing.end - root..routing.end] {
            *b = 0xff;
        }
        let r = load_routing_bytes(&rehashed(bad));
        assert!(
            matches!(r, Err(LoadError::Malformed(_))),
            "{:?}",
            r.map(|_| ())
        );
    }

    #[test]
    fn version_one_artifacts_ask_for_a_recompile() {
        let fg = shipped();
        let mut bin = to_bin_bytes(&fg);
        bin[4..8].copy_from_slice(&1u32.to_le_bytes());
        let json = String::from_utf8(to_json_bytes(&fg)).unwrap().replacen(
            "\"format_version\":3",
            "\"format_version\":1",
            1,
        );
        // A version-1 file as written by the previous release: indented, MessagePack binary.
        let v1_json = json.replacen("{", "{\n  ", 1);
        let mut v1_bin = b"SRGB".to_vec();
        v1_bin.extend_from_slice(&1u32.to_le_bytes());
        v1_bin.extend_from_slice(&[0u8; 32]);
        v1_bin.extend_from_slice(b"\x8f\xaeformat_version\x01");
        let want = "the artifact has format version 1, older than this schemarouter reads (3); recompile it with `schemarouter compile`";
        for bytes in [bin, json.into_bytes(), v1_json.into_bytes(), v1_bin] {
            for e in [
                load_bytes(&bytes).unwrap_err(),
                load_routing_bytes(&bytes).unwrap_err(),
            ] {
                assert!(
                    matches!(
                        e,
                        LoadError::OldFormat {
                            found: 1,
                            supported: 3
                        }
                    ),
                    "{e}"
                );
                assert_eq!(e.to_string(), want);
            }
        }
    }

    #[test]
    fn json_is_compact_and_pretty_json_carries_the_compact_hash() {
        let fg = shipped();
        let json = to_json_bytes(&fg);
        assert_eq!(json.iter().filter(|b| **b == b'\n').count(), 1);
        assert!(json.starts_with(b"{\"format_version\":3,"));
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("graph.json");
        let mut f = std::fs::File::create(&p).unwrap();
        let h = write_json_pretty_into(&fg, &mut f).unwrap();
        drop(f);
        assert_eq!(h, fg.content_hash);
        let pretty = std::fs::read(&p).unwrap();
        assert!(pretty.starts_with(b"{\n  \"format_version\": 3,"));
        assert_eq!(load(&p).unwrap(), fg);
        assert!(is_current(&fg, &p));
        let edited =
            String::from_utf8(pretty)
                .unwrap()
                .replacen("\"priority\": 90", "\"priority\": 91", 1);
        assert!(matches!(
            load_bytes(edited.as_bytes()),
            Err(LoadError::HashMismatch { .. })
        ));
    }

    #[test]
    fn binary_files_are_memory_mapped_and_equal_the_compiled_artifact() {
        let fg = shipped();
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("graph.bin");
        write_bin(&fg, &p).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), to_bin_bytes(&fg));
        assert_eq!(load(&p).unwrap(), fg);
        let routed = load_routing(&p).unwrap();
        assert!(routed.graph.nodes.is_empty());
        assert_eq!(routed.tools, fg.tools);
        assert_eq!(routed.index, fg.index);
        assert!(is_current(&fg, &p));
    }

    /// JSON artifact bytes with their content hash recomputed (as a hand edit that re-hashes).
    fn rehashed_json(mut json: Vec<u8>) -> Vec<u8> {
        let at = find(&json, HASH_KEY).unwrap() + HASH_KEY.len();
        json[at..at + 64].copy_from_slice(ZERO_HASH.as_bytes());
        let h = json_hash_of(&json).unwrap();
        json[at..at + 64].copy_from_slice(h.as_bytes());
        json
    }

    use super::super::ZERO_HASH;

    /// Load `bytes` as a `graph.json` file for one routing (lazily).
    fn lazy(bytes: &[u8]) -> Result<FrozenGraph, LoadError> {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("graph.json");
        std::fs::write(&p, bytes).unwrap();
        load_routing_lazy(&p)
    }

    #[test]
    fn graph_is_written_last_and_lazy_json_reads_equal_the_eager_load() {
        let fg = shipped();
        let json = to_json_bytes(&fg);
        let graph_at = find(&json, b",\"graph\":{\"nodes\":[").unwrap();
        assert!(find(&json, b",\"index\":{").unwrap() < graph_at);
        assert!(json.ends_with(b"]}}\n"));
        let eager = load_routing_bytes(&json).unwrap();
        let l = lazy(&json).unwrap();
        assert!(l.graph.nodes.is_empty());
        // Comparing reads every tool and index entry.
        assert_eq!(super::super::reading(|| l == eager), Ok(true));
        // The indented form and graph.bin load eagerly through the same call.
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("graph.json");
        write_atomic_with(&p, |f| write_json_pretty_into(&fg, f).map(|_| ())).unwrap();
        assert_eq!(load_routing_lazy(&p).unwrap(), eager);
        let b = dir.path().join("graph.bin");
        write_bin(&fg, &b).unwrap();
        assert_eq!(load_routing_lazy(&b).unwrap(), eager);
    }

    #[test]
    fn a_graph_written_before_the_routing_part_still_loads() {
        let fg = shipped();
        let json = String::from_utf8(to_json_bytes(&fg)).unwrap();
        // Move the graph section in front of `tools`, as artifacts of the previous build had it.
        let g = json.find(",\"graph\":{").unwrap();
        let graph = &json[g..json.len() - 2];
        let t = json.find(",\"tools\":[").unwrap();
        let moved = format!("{}{}{}}}\n", &json[..t], graph, &json[t..g]);
        assert_eq!(moved.len(), json.len());
        let moved = rehashed_json(moved.into_bytes());
        let mut fg = fg.clone();
        fg.content_hash = recorded_hash(&moved).unwrap();
        let mut without = fg.clone();
        without.graph = crate::artifact::GraphData::default();
        assert_eq!(load_bytes(&moved).unwrap(), fg);
        assert_eq!(load_routing_bytes(&moved).unwrap(), without);
        assert_eq!(lazy(&moved).unwrap(), without);
        // Without a graph at all, or with two, the routing load says so as the full load does.
        let none = rehashed_json(format!("{}}}\n", &json[..g]).into_bytes());
        for e in [load_routing_bytes(&none), lazy(&none), load_bytes(&none)] {
            assert_eq!(
                e.unwrap_err().to_string(),
                format!(
                    "the artifact is malformed or truncated: missing field `graph` at line 1 column {}",
                    g + 1
                )
            );
        }
    }

    #[test]
    fn lazy_json_that_does_not_fit_its_type_is_reported_after_use_never_a_panic() {
        let fg = shipped();
        let json = String::from_utf8(to_json_bytes(&fg)).unwrap();
        // The first tool's priority as a string: valid JSON, the right hash, the wrong type.
        let at = json.find(",\"tools\":[").unwrap();
        let p = at + json[at..].find("\"priority\":").unwrap() + "\"priority\":".len();
        let end = p + json[p..].find(',').unwrap();
        let bad = format!("{}\"high\"{}", &json[..p], &json[end..]);
        let bad = rehashed_json(bad.into_bytes());
        // Read eagerly: refused at load.
        let e = load_routing_bytes(&bad).unwrap_err().to_string();
        assert!(
            e.starts_with("the artifact is malformed or truncated: invalid type: string \"high\", expected i64"),
            "{e}"
        );
        // Read lazily: it loads, the other tools read, and reading the edited one ends the work
        // with its error (no panic message; the panic hook is not run).
        let l = lazy(&bad).unwrap();
        use super::super::reading;
        assert_eq!(reading(|| l.tools[1] == fg.tools[1]), Ok(true));
        let e = reading(|| l.tools[0].id.len()).unwrap_err();
        assert!(
            e.starts_with(
                "tools: element 0: invalid type: string \"high\", expected i64 at line 1 column "
            ),
            "{e}"
        );
        // A panic of another kind is not caught.
        let other = std::panic::catch_unwind(|| {
            reading(|| -> u8 { std::panic::resume_unwind(Box::new(7u8)) })
        });
        assert_eq!(
            other.unwrap_err().downcast::<u8>().ok().map(|b| *b),
            Some(7)
        );
    }

    #[test]
    fn lazy_json_maps_order_keys_as_the_owned_map_does() {
        let fg = shipped();
        let json = String::from_utf8(to_json_bytes(&fg)).unwrap();
        // Put an escaped key and keys out of order into `tool_names`, re-hash, and compare the
        // lazy map with the eager (BTreeMap) one.
        let key = "\"tool_names\":{";
        let at = json.find(key).unwrap() + key.len();
        let edited = format!(
            "{}\"zz\\u00e9\\\"q\":7,\"zz\":3,\"a0\":2,{}",
            &json[..at],
            &json[at..]
        );
        let edited = rehashed_json(edited.into_bytes());
        let eager = load_routing_bytes(&edited).unwrap();
        let l = lazy(&edited).unwrap();
        let keys: Vec<&str> = l.index.tool_names.key_strs().collect();
        let want: Vec<&str> = eager.index.tool_names.key_strs().collect();
        assert_eq!(keys, want);
        assert_eq!(l.index.tool_names.get("zz"), Some(&3));
        assert_eq!(l.index.tool_names.get("zz\u{e9}\"q"), Some(&7));
        assert_eq!(l.index.tool_names.get("a0"), Some(&2));
        assert_eq!(l.index, eager.index);
    }

    /// `json` with `entry` inserted at the start of the map `map` (its key and `{`), the first
    /// one after `anchor`; re-hashed.
    fn with_entry(json: &str, anchor: &str, map: &str, entry: &str) -> Vec<u8> {
        let from = json.find(anchor).unwrap_or_else(|| panic!("{anchor}"));
        let at = from + json[from..].find(map).unwrap_or_else(|| panic!("{map}")) + map.len();
        rehashed_json(format!("{}{entry}{}", &json[..at], &json[at..]).into_bytes())
    }

    #[test]
    fn a_repeated_key_in_any_map_of_a_json_artifact_is_refused_naming_the_map_and_the_key() {
        let fg = shipped();
        let json = String::from_utf8(to_json_bytes(&fg)).unwrap();
        let (name, value) = fg.index.concept_postings.iter().next().unwrap();
        let (name, value) = (name.clone(), serde_json::to_string(value).unwrap());
        let group = fg.tools[0].endpoints[0].group_fields.keys().next().unwrap();
        let concept = fg.concepts.iter().find(|c| !c.aliases.is_empty()).unwrap();
        let lang = concept.aliases.keys().next().unwrap();
        let node = fg.graph.nodes.iter().find(|n| !n.props.is_empty()).unwrap();
        let (prop, _) = node.props.iter().next().unwrap();
        let node_at = format!("{{\"id\":{},", serde_json::to_string(&node.id).unwrap());
        // A second entry for a key the map has (in order, as `compile` writes keys, and out of
        // order), then a key repeated in each kind of map: index, tool, concept and graph.
        let cases = [
            (
                with_entry(
                    &json,
                    "\"index\":{",
                    "\"concept_postings\":{",
                    &format!("\"{name}\":{value},"),
                ),
                format!("duplicate key `{name}` in `index.concept_postings`"),
            ),
            (
                with_entry(
                    &json,
                    "\"index\":{",
                    "\"concept_postings\":{",
                    &format!("\"zzz\":[],\"{name}\":{value},"),
                ),
                format!("duplicate key `{name}` in `index.concept_postings`"),
            ),
            (
                with_entry(&json, "\"index\":{", "\"tool_names\":{", "\"x\":0,\"x\":1,"),
                "duplicate key `x` in `index.tool_names`".to_string(),
            ),
            (
                with_entry(
                    &json,
                    "\"tools\":[",
                    "\"group_fields\":{",
                    &format!("\"{group}\":[0],"),
                ),
                format!("duplicate key `{group}` in `tools[].endpoints[].group_fields`"),
            ),
            (
                with_entry(
                    &json,
                    &format!("{{\"id\":\"{}\",\"kind\":", concept.id),
                    "\"aliases\":{",
                    &format!("\"{lang}\":[\"a\"],"),
                ),
                format!("duplicate key `{lang}` in `concepts[].aliases`"),
            ),
            (
                with_entry(
                    &json,
                    &node_at,
                    "\"props\":{",
                    &format!("\"{prop}\":\"x\","),
                ),
                format!("duplicate key `{prop}` in `graph.nodes[].props`"),
            ),
        ];
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("graph.json");
        for (bytes, want) in cases {
            std::fs::write(&path, &bytes).unwrap();
            // Every load refuses it at the same position (the routing loads never read the
            // graph's maps).
            let mut loads = vec![("load", load_bytes(&bytes).map(|_| ()))];
            if !want.contains("graph.") {
                loads.push(("routing", load_routing_bytes(&bytes).map(|_| ())));
            }
            let first = loads[0].1.as_ref().unwrap_err().to_string();
            let prefix = "the artifact is malformed or truncated: ";
            assert!(
                first.starts_with(&format!("{prefix}{want} at line 1 column ")),
                "{first}"
            );
            for (how, r) in loads {
                let e = r.unwrap_err();
                assert!(matches!(e, LoadError::Malformed(_)), "{how}: {e}");
                assert_eq!(e.to_string(), first, "{how}");
            }
            // Read lazily (`route`): a tool's map when the tool is read (tools are parsed on
            // first read), with the tool named; the other routing maps at open.
            if want.contains("tools[]") {
                let l = load_routing_lazy(&path).unwrap();
                let e = super::super::reading(|| l.tools[0].id.len()).unwrap_err();
                assert_eq!(
                    format!("{prefix}{e}"),
                    first.replacen(prefix, &format!("{prefix}tools: element 0: "), 1)
                );
            } else if !want.contains("graph.") {
                assert_eq!(load_routing_lazy(&path).unwrap_err().to_string(), first);
            }
        }
    }

    #[test]
    fn binary_tools_validated_on_first_read_refuse_the_same_damage_when_read() {
        let fg = shipped();
        let bin = to_bin_bytes(&fg);
        let (routing, _) = sections(&bin);
        let tool_area = u64::from_le_bytes(bin[88..96].try_into().unwrap()) as usize;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("graph.bin");
        let (mut refused, mut same) = (0, 0);
        let step = (tool_area / 97).max(1);
        for at in (routing.start..routing.start + tool_area).step_by(step) {
            let mut bad = bin.clone();
            bad[at] ^= 0xff;
            let bad = rehashed(bad);
            std::fs::write(&p, &bad).unwrap();
            // Validated at open or on first read: the same verdict, never a panic.
            let eager = load_routing_bytes(&bad);
            let lazy = load_routing_lazy(&p).expect("the root archive is not touched");
            let read = super::super::reading(|| serde_json::to_vec(&lazy).unwrap());
            match eager {
                Err(LoadError::Malformed(m)) => {
                    let e = read.unwrap_err();
                    assert!(e.starts_with("tools: element "), "{e}");
                    assert!(!e.contains("without error information"), "{e}");
                    assert!(!m.contains("without error information"), "{m}");
                    let i: usize = m["routing section of the binary artifact: tool ".len()..]
                        .split(':')
                        .next()
                        .unwrap()
                        .parse()
                        .unwrap();
                    assert!(e.starts_with(&format!("tools: element {i}: ")), "{e} / {m}");
                    refused += 1;
                }
                Err(e) => panic!("unexpected error at {at}: {e}"),
                Ok(g) => {
                    assert_eq!(read.unwrap(), serde_json::to_vec(&g).unwrap());
                    same += 1;
                }
            }
        }
        assert!(refused > 10 && same > 0, "{refused} refused, {same} read");
    }

    #[test]
    fn a_routing_load_checks_the_json_after_the_graph_unless_it_reads_lazily() {
        let fg = shipped();
        let json = String::from_utf8(to_json_bytes(&fg)).unwrap();
        let g = json.find(",\"graph\":{").unwrap() + ",\"graph\":".len();
        let bad = rehashed_json(format!("{}{{{{ not json}}\n", &json[..g]).into_bytes());
        let e = load_routing_bytes(&bad).unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "the artifact is malformed or truncated: key must be a string at line 1 column {}",
                g + 2
            )
        );
        assert!(lazy(&bad).is_ok());
        // A header field written twice is a damaged artifact, not some other JSON.
        let at = json.find(",\"tools\":[").unwrap();
        let twice = rehashed_json(
            format!("{},\"format_version\":3{}", &json[..at], &json[at..]).into_bytes(),
        );
        let e = load_routing_bytes(&twice).unwrap_err().to_string();
        assert!(
            e.starts_with(
                "the artifact is malformed or truncated: duplicate field `format_version`"
            ),
            "{e}"
        );
    }

    #[test]
    fn the_form_is_chosen_by_content_whatever_the_file_name() {
        let fg = shipped();
        let mut without = fg.clone();
        without.graph = crate::artifact::GraphData::default();
        let json = to_json_bytes(&fg);
        let bin = to_bin_bytes(&fg);
        let dir = tempfile::tempdir().unwrap();
        let cases: [(&str, &[u8]); 6] = [
            ("renamed.bin", &json),
            ("x.BIN", &json),
            ("noext", &json),
            ("graph.json", &json),
            ("renamed.json", &bin),
            ("graph", &bin),
        ];
        for (name, bytes) in cases {
            let p = dir.path().join(name);
            std::fs::write(&p, bytes).unwrap();
            assert_eq!(load(&p).unwrap(), fg, "{name}");
            assert_eq!(load_routing(&p).unwrap(), without, "{name}");
            let l = load_routing_lazy(&p).unwrap();
            assert_eq!(super::super::reading(|| l == without), Ok(true), "{name}");
        }
        // What is neither form says so, whatever its name.
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
        let bom = [&b"\xEF\xBB\xBF"[..], &json].concat();
        let neither = "the artifact is malformed or truncated: not an artifact: it starts with neither `{` (graph.json) nor the binary magic (graph.bin)";
        for (name, bytes, want) in [
            ("x.bin", &png[..], neither.to_string()),
            ("x.json", &png[..], neither.to_string()),
            (
                "bom.json",
                &bom[..],
                format!(
                    "{neither}: it starts with a UTF-8 byte order mark, which artifacts never have"
                ),
            ),
        ] {
            let p = dir.path().join(name);
            std::fs::write(&p, bytes).unwrap();
            for e in [
                load(&p).unwrap_err(),
                load_routing(&p).unwrap_err(),
                load_routing_lazy(&p).unwrap_err(),
                load_bytes(bytes).unwrap_err(),
            ] {
                assert!(matches!(e, LoadError::Malformed(_)), "{name}: {e}");
                assert_eq!(e.to_string(), want, "{name}");
            }
        }
    }

    #[test]
    fn a_format_version_that_is_not_an_integer_says_so() {
        let fg = shipped();
        let json = String::from_utf8(to_json_bytes(&fg)).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let mut pretty_file = std::fs::File::create(dir.path().join("pretty.json")).unwrap();
        write_json_pretty_into(&fg, &mut pretty_file).unwrap();
        let pretty = std::fs::read_to_string(dir.path().join("pretty.json")).unwrap();
        let path = dir.path().join("graph.json");
        for (value, found) in [
            ("\"2\"", "the string `\"2\"`"),
            ("2.0", "the number `2.0`"),
            ("-1", "the negative number `-1`"),
            (
                "5000000000",
                "the number `5000000000`, larger than any format version",
            ),
            ("true", "`true`"),
            ("null", "`null`"),
            ("[2]", "a list"),
            ("{\"v\":2}", "an object"),
        ] {
            let want = format!(
                "the artifact's `format_version` must be an integer, found {found}: the file was edited or damaged; recompile it with `schemarouter compile`"
            );
            let compact = rehashed_json(
                json.replacen(
                    "\"format_version\":3,",
                    &format!("\"format_version\":{value},"),
                    1,
                )
                .into_bytes(),
            );
            let indented = pretty
                .replacen(
                    "\"format_version\": 3,",
                    &format!("\"format_version\": {value},"),
                    1,
                )
                .into_bytes();
            std::fs::write(&path, &compact).unwrap();
            for e in [
                load_bytes(&compact).unwrap_err(),
                load_routing_bytes(&compact).unwrap_err(),
                load_routing_lazy(&path).unwrap_err(),
                load_bytes(&indented).unwrap_err(),
                load_routing_bytes(&indented).unwrap_err(),
            ] {
                assert!(
                    matches!(e, LoadError::FormatVersionNotAnInteger { .. }),
                    "{value}: {e}"
                );
                assert_eq!(e.to_string(), want);
                assert_eq!(
                    e.help(),
                    "pass a `graph.json` or `graph.bin` written by `schemarouter compile`; compile the project again if the file is stale or damaged"
                );
            }
        }
        // Without the field it is no artifact; a number it is not: as before.
        let none = rehashed_json(json.replacen("\"format_version\":3,", "", 1).into_bytes());
        assert!(matches!(
            load_bytes(&none).unwrap_err(),
            LoadError::NotAnArtifact
        ));
    }

    #[test]
    fn a_section_hash_mismatch_names_the_section_and_both_hashes() {
        let fg = shipped();
        let bin = to_bin_bytes(&fg);
        let (routing, graph) = sections(&bin);
        let hex = |b: &[u8]| blake3::Hash::from_bytes(b.try_into().unwrap()).to_hex();
        let cases = [
            ("routing", routing.start + routing.len() / 2, 24..56),
            ("graph", graph.start + 40, 56..88),
        ];
        for (section, at, recorded) in cases {
            let mut bad = bin.clone();
            bad[at] ^= 1;
            let (range, hashed) = if section == "routing" {
                (routing.clone(), Hashed::RoutingSection)
            } else {
                (graph.clone(), Hashed::GraphSection)
            };
            let want = format!(
                "the {section} section of the binary artifact does not match its hash in the file's header (recorded {}, computed {}): it was edited or corrupted; recompile it with `schemarouter compile`",
                hex(&bad[recorded.clone()]),
                blake3::hash(&bad[range]).to_hex()
            );
            for e in [
                load_bytes(&bad).unwrap_err(),
                load_routing_bytes(&bad).unwrap_err(),
            ] {
                assert!(
                    matches!(&e, LoadError::HashMismatch { hash, .. } if *hash == hashed),
                    "{e:?}"
                );
                assert_eq!(e.to_string(), want);
                assert_eq!(
                    e.help(),
                    "artifacts are written whole by `schemarouter compile`, never edited; `compile --check` tells whether a committed artifact matches its sources"
                );
            }
            // The content hash `compile` prints is not what is named.
            assert!(!want.contains(&fg.content_hash));
        }
    }

    #[test]
    fn validation_errors_give_file_offsets_not_memory_addresses() {
        let fg = shipped();
        let bin = to_bin_bytes(&fg);
        let (routing, _) = sections(&bin);
        let tool_area = u64::from_le_bytes(bin[88..96].try_into().unwrap()) as usize;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("graph.bin");
        // Damage the root archive and each tool's archive here and there; compare what a load
        // from memory (an aligned copy) and two loads of the file (two memory maps, at other
        // addresses) say: the same, and no address.
        let mut with_pointer = 0;
        let step = (routing.len() / 61).max(1);
        for at in (routing.start..routing.end).step_by(step) {
            let mut bad = bin.clone();
            bad[at] ^= 0x80;
            let bad = rehashed(bad);
            std::fs::write(&p, &bad).unwrap();
            let messages: Vec<String> = [
                load_routing_bytes(&bad).err(),
                load_routing(&p).err(),
                load_routing(&p).err(),
            ]
            .into_iter()
            .map(|e| e.map(|e| e.to_string()).unwrap_or_default())
            .collect();
            assert_eq!(messages[0], messages[1], "{at}");
            assert_eq!(messages[1], messages[2], "{at}");
            assert!(!messages[0].contains("0x"), "{at}: {}", messages[0]);
            assert!(!messages[0].contains('\n'), "{at}: {}", messages[0]);
            if messages[0].contains(" ptr ") {
                assert!(
                    messages[0].ends_with(" (byte offsets in the file)"),
                    "{}",
                    messages[0]
                );
                with_pointer += 1;
            }
            // A tool validated on first read (`route`) says what its eager load says.
            if at < routing.start + tool_area && messages[0].contains("tool ") {
                let l = load_routing_lazy(&p).unwrap();
                let read = super::super::reading(|| serde_json::to_vec(&l).unwrap());
                let e = read.unwrap_err();
                let eager = &messages[0];
                let (_, detail) = eager.split_once(": tool ").unwrap();
                let (i, detail) = detail.split_once(": ").unwrap();
                assert_eq!(e, format!("tools: element {i}: {detail}"));
            }
        }
        assert!(with_pointer > 3, "only {with_pointer} pointer errors");
    }
}
