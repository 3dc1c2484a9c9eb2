//! The accessor layer between the routing tables and their storage: a list ([`LazyVec`]) and a
//! sorted string-keyed map ([`LazyMap`]) that are either owned (after `compile`, or loaded from
//! JSON) or backed by the validated, memory-mapped binary archive (`graph.bin`).
//!
//! Backed by the archive, nothing is converted when the artifact is opened: an element (a tool,
//! an index entry) is converted to its owned form the first time it is read and cached, so a
//! `route` at 10,000 tools touches the few tools and index entries its query names. Map lookups
//! binary-search the archived keys in place (zero-copy); only the entry found is converted.
//! Both types serialise (serde) exactly like the `Vec` and `BTreeMap` they replace, so the JSON
//! form and the routing fingerprint are unchanged by the storage.
//!
//! A compact `graph.json` opened for one routing ([`super::io::load_routing_lazy`]) is read the
//! same way: the file is memory-mapped, its syntax checked in one pass that records where each
//! tool and index entry lies, and an element is parsed (serde) from its bytes on first read.
//! A JSON element that is valid JSON but does not fit its type (possible only in a file edited
//! and re-hashed by hand, since the content hash is verified first) cannot be read: the read
//! unwinds to the nearest [`reading`], which returns the error. Work on such an artifact runs
//! inside [`reading`].

use rkyv::collections::util::{Entry, EntryAdapter};
use rkyv::rancor::{Fallible, Source};
use rkyv::ser::{Allocator, Writer};
use rkyv::string::ArchivedString;
use rkyv::vec::{ArchivedVec, VecResolver};
use rkyv::{Archive, Place};
use serde::de::{DeserializeOwned, Error as _};
use serde_json::value::RawValue;
use std::collections::BTreeMap;
use std::ops::{Index, Range};
use std::sync::{Arc, OnceLock};

/// The bytes an archive-backed value points into (a memory map or an aligned copy), kept alive
/// by every value that points into them.
pub(crate) type Backing = Arc<dyn std::any::Any + Send + Sync>;

/// The bytes of an artifact (a memory map) that elements are read from on first use.
pub(crate) type SharedBytes = Arc<dyn AsRef<[u8]> + Send + Sync>;

thread_local! {
    static LAZY_JSON: std::cell::RefCell<Option<SharedBytes>> = const { std::cell::RefCell::new(None) };
}

/// Run `f` (a serde_json deserialisation of exactly `src`'s bytes, on this thread) with every
/// [`LazyVec`] and [`LazyMap`] recording where its elements lie instead of parsing them.
pub(crate) fn with_lazy_json<T>(src: SharedBytes, f: impl FnOnce() -> T) -> T {
    let old = LAZY_JSON.with(|m| m.replace(Some(src)));
    let out = f();
    LAZY_JSON.with(|m| *m.borrow_mut() = old);
    out
}

fn lazy_json() -> Option<SharedBytes> {
    LAZY_JSON.with(|m| m.borrow().clone())
}

/// Where `part` (borrowed from `src`'s bytes by the deserialiser) lies in them.
fn span_in(src: &SharedBytes, part: &str) -> Result<Range<usize>, String> {
    let whole = (**src).as_ref();
    let base = whole.as_ptr() as usize;
    let p = part.as_ptr() as usize;
    if p >= base && p + part.len() <= base + whole.len() {
        Ok(p - base..p - base + part.len())
    } else {
        Err("a lazily read JSON value is not borrowed from the artifact's bytes".to_string())
    }
}

/// Parse one JSON element that starts `at` bytes into the (one-line, compact) file; an error
/// gives its position in the file.
fn parse_json<T: DeserializeOwned>(b: &[u8], at: usize) -> Result<T, String> {
    serde_json::from_slice(b).map_err(|e| {
        let text = e.to_string();
        match text.rfind(" at line ") {
            Some(cut) if e.line() == 1 => {
                format!("{} at line 1 column {}", &text[..cut], at + e.column())
            }
            _ => text,
        }
    })
}

/// What a deferred read unwinds with when an element cannot be read (caught by [`reading`];
/// the panic hook never sees it).
struct Unreadable(String);

/// End the work on an artifact that cannot be read: unwinds to the nearest [`reading`] with
/// `msg`, without running the panic hook.
pub(crate) fn unreadable(msg: String) -> ! {
    std::panic::resume_unwind(Box::new(Unreadable(msg)))
}

/// Run `f`, which reads an artifact loaded by [`super::io::load_routing_lazy`]. When a tool or
/// index entry it reads cannot be read (JSON that does not fit its type, or a tool archive that
/// fails validation: only in a file edited and re-hashed by hand), `f` ends there and the error
/// (`tools: element 3: invalid type: ...`) is returned. Any other panic goes on unwinding.
pub fn reading<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(v) => Ok(v),
        Err(payload) => match payload.downcast::<Unreadable>() {
            Ok(e) => Err(e.0),
            Err(other) => std::panic::resume_unwind(other),
        },
    }
}

/// The elements of a list or map read on first use: where each lies in the shared bytes, how
/// to read it (parse JSON, or validate and convert a tool archive), and what the list is called
/// in an error.
struct Deferred<T> {
    src: SharedBytes,
    spans: Box<[Range<usize>]>,
    parse: fn(&[u8], usize) -> Result<T, String>,
    label: &'static str,
}

impl<T> Deferred<T> {
    /// Parse element `i`; `what` names it in the error.
    fn convert(&self, i: usize, what: impl FnOnce() -> String) -> T {
        let span = self.spans[i].clone();
        match (self.parse)(&(*self.src).as_ref()[span.clone()], span.start) {
            Ok(v) => v,
            Err(e) => unreadable(format!("{}: {}: {e}", self.label, what())),
        }
    }
}

/// Read-only pointers to archived values, valid while the [`Backing`] beside them lives. Each
/// has been validated (bytecheck) before the view is made.
struct ArchPtrs<A> {
    ptrs: Box<[*const A]>,
}

impl<A> ArchPtrs<A> {
    fn get(&self, i: usize) -> &A {
        // SAFETY: every pointer is the validated root of an archive inside the backing bytes,
        // which the owning value keeps alive (the `_backing` field) and which are never written.
        unsafe { &*self.ptrs[i] }
    }
}

// SAFETY: as for `ArchSlice`.
unsafe impl<A> Send for ArchPtrs<A> {}
unsafe impl<A> Sync for ArchPtrs<A> {}

/// A read-only view of `len` archived values at `ptr`, valid while the [`Backing`] beside it
/// lives. The archive has been validated (bytecheck) before a view is made.
struct ArchSlice<A> {
    ptr: *const A,
    len: usize,
}

impl<A> ArchSlice<A> {
    fn get(&self, i: usize) -> &A {
        assert!(i < self.len, "index {i} out of range ({})", self.len);
        // SAFETY: `ptr..ptr+len` is a validated archived slice inside the backing bytes, which
        // the owning value keeps alive (the `_backing` field) and which are never written.
        unsafe { &*self.ptr.add(i) }
    }
}

// SAFETY: the archived bytes are immutable for the life of the backing; sharing read-only
// references to them across threads is sound.
unsafe impl<A> Send for ArchSlice<A> {}
unsafe impl<A> Sync for ArchSlice<A> {}

/// Convert one validated archived value to its owned form.
fn convert<T>(a: &T::Archived) -> T
where
    T: Archive,
    T::Archived: rkyv::Deserialize<T, rkyv::api::high::HighDeserializer<rkyv::rancor::Error>>,
{
    match rkyv::deserialize::<T, rkyv::rancor::Error>(a) {
        Ok(v) => v,
        // Deserialising validated archives of these types (strings, lists, maps, shared
        // pointers of one type) cannot fail.
        Err(e) => unreachable!("validated archive failed to convert: {e}"),
    }
}

/// Bound of the element types: archived, and convertible back.
pub trait Stored:
    Archive<
        Archived: rkyv::Deserialize<Self, rkyv::api::high::HighDeserializer<rkyv::rancor::Error>>,
    > + Sized
{
}

impl<T> Stored for T where
    T: Archive<
        Archived: rkyv::Deserialize<T, rkyv::api::high::HighDeserializer<rkyv::rancor::Error>>,
    >
{
}

enum VecRepr<T: Archive> {
    Owned(Vec<T>),
    Archived {
        items: ArchPtrs<T::Archived>,
        cells: Box<[OnceLock<T>]>,
        _backing: Backing,
    },
    Deferred {
        parts: Deferred<T>,
        cells: Box<[OnceLock<T>]>,
    },
}

/// A list of routing records (tools), owned or backed by the archive (see the module docs).
/// Indexing and iteration give `&T`; an archived element is converted once, on first read.
pub struct LazyVec<T: Archive> {
    repr: VecRepr<T>,
}

impl<T: Archive> LazyVec<T> {
    /// A list whose element `i` is read from `src[spans[i]]` by `read` (given the bytes and
    /// where they start) on first use; an error
    /// unwinds to [`reading`], naming the element in `label`.
    pub(crate) fn deferred(
        src: SharedBytes,
        spans: Box<[Range<usize>]>,
        read: fn(&[u8], usize) -> Result<T, String>,
        label: &'static str,
    ) -> Self {
        LazyVec {
            repr: VecRepr::Deferred {
                cells: (0..spans.len()).map(|_| OnceLock::new()).collect(),
                parts: Deferred {
                    src,
                    spans,
                    parse: read,
                    label,
                },
            },
        }
    }
}

impl<T: Stored> LazyVec<T> {
    /// A view over archived elements (each the validated root of its own archive).
    ///
    /// # Safety
    /// Every pointer must point at validated bytes that `backing` keeps alive and unchanged.
    pub(crate) unsafe fn archived(items: Vec<*const T::Archived>, backing: Backing) -> Self {
        let n = items.len();
        LazyVec {
            repr: VecRepr::Archived {
                items: ArchPtrs {
                    ptrs: items.into_boxed_slice(),
                },
                cells: (0..n).map(|_| OnceLock::new()).collect(),
                _backing: backing,
            },
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        match &self.repr {
            VecRepr::Owned(v) => v.len(),
            VecRepr::Archived { items, .. } => items.ptrs.len(),
            VecRepr::Deferred { cells, .. } => cells.len(),
        }
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element at `i`, if any.
    pub fn get(&self, i: usize) -> Option<&T> {
        match &self.repr {
            VecRepr::Owned(v) => v.get(i),
            VecRepr::Archived { items, cells, .. } => {
                let cell = cells.get(i)?;
                Some(cell.get_or_init(|| convert::<T>(items.get(i))))
            }
            VecRepr::Deferred { parts, cells } => {
                let cell = cells.get(i)?;
                Some(cell.get_or_init(|| parts.convert(i, || format!("element {i}"))))
            }
        }
    }

    /// Name a list read on first use in its errors (`tools`).
    pub(crate) fn label_json(&mut self, label: &'static str) {
        if let VecRepr::Deferred { parts, .. } = &mut self.repr {
            parts.label = label;
        }
    }

    /// The elements in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + ExactSizeIterator + Clone {
        (0..self.len()).map(move |i| &self[i])
    }

    /// Binary search with a comparator, as [`slice::binary_search_by`] (converts only the
    /// elements it compares).
    pub fn binary_search_by(
        &self,
        mut f: impl FnMut(&T) -> std::cmp::Ordering,
    ) -> Result<usize, usize> {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match f(&self[mid]) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Ok(mid),
            }
        }
        Err(lo)
    }

    /// The owned list, converting every archived element (for callers that edit it).
    pub fn to_mut(&mut self) -> &mut Vec<T> {
        if !matches!(self.repr, VecRepr::Owned(_)) {
            let owned: Vec<T> = (0..self.len()).map(|i| self.take_or_convert(i)).collect();
            self.repr = VecRepr::Owned(owned);
        }
        match &mut self.repr {
            VecRepr::Owned(v) => v,
            _ => unreachable!("made owned above"),
        }
    }

    fn take_or_convert(&mut self, i: usize) -> T {
        match &mut self.repr {
            VecRepr::Owned(_) => unreachable!("only called on stored lists"),
            VecRepr::Archived { items, cells, .. } => match cells[i].take() {
                Some(v) => v,
                None => convert::<T>(items.get(i)),
            },
            VecRepr::Deferred { parts, cells } => match cells[i].take() {
                Some(v) => v,
                None => parts.convert(i, || format!("element {i}")),
            },
        }
    }
}

impl<T: Stored> Index<usize> for LazyVec<T> {
    type Output = T;
    fn index(&self, i: usize) -> &T {
        match self.get(i) {
            Some(v) => v,
            None => panic!("index {i} out of range ({})", self.len()),
        }
    }
}

impl<T: Stored> std::ops::IndexMut<usize> for LazyVec<T> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.to_mut()[i]
    }
}

impl<'a, T: Stored> IntoIterator for &'a LazyVec<T> {
    type Item = &'a T;
    type IntoIter = Box<dyn Iterator<Item = &'a T> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl<T: Archive> From<Vec<T>> for LazyVec<T> {
    fn from(v: Vec<T>) -> Self {
        LazyVec {
            repr: VecRepr::Owned(v),
        }
    }
}

impl<T: Archive> Default for LazyVec<T> {
    fn default() -> Self {
        Vec::new().into()
    }
}

impl<T: Stored + Clone> Clone for LazyVec<T> {
    fn clone(&self) -> Self {
        self.iter().cloned().collect::<Vec<T>>().into()
    }
}

impl<T: Stored + std::fmt::Debug> std::fmt::Debug for LazyVec<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Stored + PartialEq> PartialEq for LazyVec<T> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().zip(other.iter()).all(|(a, b)| a == b)
    }
}

impl<T: Stored + serde::Serialize> serde::Serialize for LazyVec<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de, T: Archive + DeserializeOwned> serde::Deserialize<'de> for LazyVec<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let Some(src) = lazy_json() else {
            return Vec::<T>::deserialize(d).map(Into::into);
        };
        let raws = Vec::<&'de RawValue>::deserialize(d)?;
        let spans = raws
            .iter()
            .map(|r| span_in(&src, r.get()))
            .collect::<Result<Box<[_]>, _>>()
            .map_err(D::Error::custom)?;
        Ok(LazyVec::deferred(src, spans, parse_json::<T>, "list"))
    }
}

enum MapRepr<V: Archive> {
    Owned(Vec<(String, V)>),
    Archived {
        entries: ArchSlice<Entry<ArchivedString, V::Archived>>,
        cells: Box<[OnceLock<(String, V)>]>,
        _backing: Backing,
    },
    Deferred {
        keys: Box<[JsonKey]>,
        parts: Deferred<V>,
        cells: Box<[OnceLock<(String, V)>]>,
    },
}

/// A key of a lazily read JSON map: where it lies in the artifact, or (when it has escapes)
/// its text.
enum JsonKey {
    At(Range<usize>),
    Text(Box<str>),
}

/// A map key as serde_json gives it: borrowed from the bytes when it has no escapes.
enum KeyCapture<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl<'de> serde::Deserialize<'de> for KeyCapture<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = KeyCapture<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string key")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(KeyCapture::Borrowed(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
                Ok(KeyCapture::Owned(v.to_string()))
            }
            fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
                Ok(KeyCapture::Owned(v))
            }
        }
        d.deserialize_str(V)
    }
}

/// The text of a recorded key (`whole`: the artifact's bytes). UTF-8 bytes order as their text
/// does.
fn key_bytes<'a>(whole: &'a [u8], k: &'a JsonKey) -> &'a [u8] {
    match k {
        JsonKey::At(r) => &whole[r.clone()],
        JsonKey::Text(t) => t.as_bytes(),
    }
}

/// The keys and value spans of a JSON map, as written; a repeated key is an error naming
/// `name` (see [`crate::json::UniqueMap`]).
struct MapSpans<'a> {
    src: &'a SharedBytes,
    name: Option<&'static str>,
}

impl<'de> serde::de::DeserializeSeed<'de> for MapSpans<'_> {
    type Value = Vec<(JsonKey, Range<usize>)>;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        struct V<'a>(&'a SharedBytes, Option<&'static str>);
        impl<'de> serde::de::Visitor<'de> for V<'_> {
            type Value = Vec<(JsonKey, Range<usize>)>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> Result<Self::Value, A::Error> {
                let whole: &[u8] = (**self.0).as_ref();
                let mut out: Vec<(JsonKey, Range<usize>)> =
                    Vec::with_capacity(m.size_hint().unwrap_or(0));
                // Written in key order, a key repeats only the one before it; once the keys
                // are out of order (a file edited by hand) every key so far is remembered.
                let mut seen: Option<std::collections::HashSet<Box<[u8]>>> = None;
                while let Some(k) = m.next_key::<KeyCapture<'de>>()? {
                    let key = match k {
                        KeyCapture::Borrowed(k) => {
                            JsonKey::At(span_in(self.0, k).map_err(A::Error::custom)?)
                        }
                        KeyCapture::Owned(k) => JsonKey::Text(k.into_boxed_str()),
                    };
                    let text = key_bytes(whole, &key);
                    let repeated = match (&mut seen, out.last()) {
                        (Some(set), _) => !set.insert(text.into()),
                        (None, None) => false,
                        (None, Some((last, _))) => match key_bytes(whole, last).cmp(text) {
                            std::cmp::Ordering::Less => false,
                            std::cmp::Ordering::Equal => true,
                            std::cmp::Ordering::Greater => {
                                let mut set: std::collections::HashSet<Box<[u8]>> = out
                                    .iter()
                                    .map(|(k, _)| key_bytes(whole, k).into())
                                    .collect();
                                let fresh = set.insert(text.into());
                                seen = Some(set);
                                !fresh
                            }
                        },
                    };
                    if repeated {
                        return Err(A::Error::custom(crate::json::duplicate_key_message(
                            &String::from_utf8_lossy(text),
                            self.1,
                        )));
                    }
                    let v: &'de RawValue = m.next_value()?;
                    out.push((key, span_in(self.0, v.get()).map_err(A::Error::custom)?));
                }
                Ok(out)
            }
        }
        d.deserialize_map(V(self.src, self.name))
    }
}

/// A map from a string key to a routing record (an index of Algorithm 1), sorted by key, owned
/// or backed by the archive (see the module docs). [`LazyMap::get`] binary-searches the keys in
/// place and converts only the entry it finds.
pub struct LazyMap<V: Archive> {
    repr: MapRepr<V>,
}

impl<V: Stored> LazyMap<V> {
    /// A view over an archived sorted entry list.
    ///
    /// # Safety
    /// `entries` must point into validated bytes that `backing` keeps alive and unchanged.
    pub(crate) unsafe fn archived(
        entries: &ArchivedVec<Entry<ArchivedString, V::Archived>>,
        backing: Backing,
    ) -> Self {
        let s = entries.as_slice();
        LazyMap {
            repr: MapRepr::Archived {
                entries: ArchSlice {
                    ptr: s.as_ptr(),
                    len: s.len(),
                },
                cells: (0..s.len()).map(|_| OnceLock::new()).collect(),
                _backing: backing,
            },
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        match &self.repr {
            MapRepr::Owned(v) => v.len(),
            MapRepr::Archived { entries, .. } => entries.len,
            MapRepr::Deferred { cells, .. } => cells.len(),
        }
    }

    /// Name a map read lazily from JSON in its errors (`index.field_names`).
    pub(crate) fn label_json(&mut self, label: &'static str) {
        if let MapRepr::Deferred { parts, .. } = &mut self.repr {
            parts.label = label;
        }
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn key_at(&self, i: usize) -> &str {
        match &self.repr {
            MapRepr::Owned(v) => &v[i].0,
            MapRepr::Archived { entries, .. } => entries.get(i).key.as_str(),
            MapRepr::Deferred { keys, parts, .. } => match &keys[i] {
                // Borrowed by serde_json from the bytes it checked as UTF-8.
                JsonKey::At(r) => {
                    std::str::from_utf8(&(*parts.src).as_ref()[r.clone()]).unwrap_or("")
                }
                JsonKey::Text(t) => t,
            },
        }
    }

    fn json_entry(&self, i: usize) -> (String, V) {
        match &self.repr {
            MapRepr::Deferred { parts, .. } => {
                let key = self.key_at(i);
                (
                    key.to_string(),
                    parts.convert(i, || format!("entry `{key}`")),
                )
            }
            _ => unreachable!("only called on JSON maps"),
        }
    }

    /// The entry at `i` in key order (converted on first read).
    pub(crate) fn entry(&self, i: usize) -> (&String, &V) {
        match &self.repr {
            MapRepr::Owned(v) => (&v[i].0, &v[i].1),
            MapRepr::Archived { entries, cells, .. } => {
                let (k, v) = cells[i].get_or_init(|| {
                    let e = entries.get(i);
                    (e.key.as_str().to_string(), convert::<V>(&e.value))
                });
                (k, v)
            }
            MapRepr::Deferred { cells, .. } => {
                let (k, v) = cells[i].get_or_init(|| self.json_entry(i));
                (k, v)
            }
        }
    }

    fn position(&self, key: &str) -> Option<usize> {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.key_at(mid).cmp(key) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    /// The value for `key`.
    pub fn get(&self, key: &str) -> Option<&V> {
        self.position(key).map(|i| self.entry(i).1)
    }

    /// The stored key and value for `key`.
    pub fn get_key_value(&self, key: &str) -> Option<(&String, &V)> {
        self.position(key).map(|i| self.entry(i))
    }

    /// Whether `key` has an entry (no conversion).
    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// Entries in key order.
    pub fn iter(
        &self,
    ) -> impl DoubleEndedIterator<Item = (&String, &V)> + ExactSizeIterator + Clone {
        (0..self.len()).map(move |i| self.entry(i))
    }

    /// Keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &String> + ExactSizeIterator {
        self.iter().map(|(k, _)| k)
    }

    /// Values in key order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.iter().map(|(_, v)| v)
    }

    /// Keys in order without converting the values (zero-copy when archived).
    pub fn key_strs(&self) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator {
        (0..self.len()).map(move |i| self.key_at(i))
    }

    /// The owned entries, converting every archived one (for callers that edit them).
    pub fn to_mut(&mut self) -> &mut Vec<(String, V)> {
        if !matches!(self.repr, MapRepr::Owned(_)) {
            let n = self.len();
            let mut owned = Vec::with_capacity(n);
            if let MapRepr::Deferred { .. } = &self.repr {
                for i in 0..n {
                    owned.push(self.json_entry(i));
                }
            }
            if let MapRepr::Archived { entries, cells, .. } = &mut self.repr {
                for i in 0..n {
                    owned.push(match cells[i].take() {
                        Some(kv) => kv,
                        None => {
                            let e = entries.get(i);
                            (e.key.as_str().to_string(), convert::<V>(&e.value))
                        }
                    });
                }
            }
            self.repr = MapRepr::Owned(owned);
        }
        match &mut self.repr {
            MapRepr::Owned(v) => v,
            _ => unreachable!("made owned above"),
        }
    }
}

impl<V: Stored> Index<&str> for LazyMap<V> {
    type Output = V;
    fn index(&self, key: &str) -> &V {
        match self.get(key) {
            Some(v) => v,
            None => panic!("no entry for key {key:?}"),
        }
    }
}

impl<V: Archive> From<BTreeMap<String, V>> for LazyMap<V> {
    fn from(m: BTreeMap<String, V>) -> Self {
        LazyMap {
            repr: MapRepr::Owned(m.into_iter().collect()),
        }
    }
}

impl<V: Archive> Default for LazyMap<V> {
    fn default() -> Self {
        BTreeMap::new().into()
    }
}

impl<'a, V: Stored> IntoIterator for &'a LazyMap<V> {
    type Item = (&'a String, &'a V);
    type IntoIter = Box<dyn Iterator<Item = (&'a String, &'a V)> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl<V: Stored + Clone> Clone for LazyMap<V> {
    fn clone(&self) -> Self {
        LazyMap {
            repr: MapRepr::Owned(self.iter().map(|(k, v)| (k.clone(), v.clone())).collect()),
        }
    }
}

impl<V: Stored + std::fmt::Debug> std::fmt::Debug for LazyMap<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<V: Stored + PartialEq> PartialEq for LazyMap<V> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().zip(other.iter()).all(|(a, b)| a == b)
    }
}

impl<V: Stored + serde::Serialize> serde::Serialize for LazyMap<V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de, V: Archive + DeserializeOwned> serde::Deserialize<'de> for LazyMap<V> {
    /// A map without repeated keys (``duplicate key `k` ``; see [`crate::json::UniqueMap`]).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        LazyMap::deserialize_checked(d, None)
    }
}

impl<'de, V: Archive + DeserializeOwned> crate::json::UniqueMap<'de> for LazyMap<V> {
    fn deserialize_unique<D: serde::Deserializer<'de>>(
        d: D,
        name: &'static str,
    ) -> Result<Self, D::Error> {
        LazyMap::deserialize_checked(d, Some(name))
    }
}

impl<V: Archive + DeserializeOwned> LazyMap<V> {
    /// Deserialise owned, or (inside [`with_lazy_json`]) as recorded spans; a repeated key is
    /// an error naming the map `name`, in both ways at the same position.
    fn deserialize_checked<'de, D: serde::Deserializer<'de>>(
        d: D,
        name: Option<&'static str>,
    ) -> Result<Self, D::Error> {
        let Some(src) = lazy_json() else {
            return crate::json::unique_map::<_, V>(d, name).map(Into::into);
        };
        let mut entries = serde::de::DeserializeSeed::deserialize(MapSpans { src: &src, name }, d)?;
        let whole: &[u8] = (*src).as_ref();
        let text = |k| key_bytes(whole, k);
        // Written in key order; keys out of order (a file edited by hand, without repeats:
        // those were refused above) are put in order as the owned form would be.
        let in_order = entries.windows(2).all(|w| text(&w[0].0) < text(&w[1].0));
        if !in_order {
            entries.sort_by(|a, b| key_bytes(whole, &a.0).cmp(key_bytes(whole, &b.0)));
        }
        let (keys, spans): (Vec<JsonKey>, Vec<Range<usize>>) = entries.into_iter().unzip();
        Ok(LazyMap {
            repr: MapRepr::Deferred {
                cells: (0..keys.len()).map(|_| OnceLock::new()).collect(),
                keys: keys.into_boxed_slice(),
                parts: Deferred {
                    src,
                    spans: spans.into_boxed_slice(),
                    parse: parse_json::<V>,
                    label: "map",
                },
            },
        })
    }
}

impl<V: Archive> Archive for LazyMap<V> {
    type Archived = ArchivedVec<Entry<ArchivedString, V::Archived>>;
    type Resolver = VecResolver;
    fn resolve(&self, resolver: VecResolver, out: Place<Self::Archived>) {
        let len = match &self.repr {
            MapRepr::Owned(v) => v.len(),
            MapRepr::Archived { entries, .. } => entries.len,
            MapRepr::Deferred { cells, .. } => cells.len(),
        };
        ArchivedVec::resolve_from_len(len, resolver, out);
    }
}

impl<V, S> rkyv::Serialize<S> for LazyMap<V>
where
    V: Stored + rkyv::Serialize<S>,
    S: Fallible + Allocator + Writer + ?Sized,
    S::Error: Source,
{
    fn serialize(&self, s: &mut S) -> Result<VecResolver, S::Error> {
        ArchivedVec::<Entry<ArchivedString, V::Archived>>::serialize_from_iter::<
            EntryAdapter<&String, &V, String, V>,
            _,
            _,
        >(self.iter().map(|(k, v)| EntryAdapter::new(k, v)), s)
    }
}
