//! Strings shared instead of repeated in `graph.bin`: a field marked `#[rkyv(with = Shared)]`
//! (or a map marked `SharedKeys`) is archived as a shared pointer to its text, and every equal
//! text in one archive points at one copy (concept ids, group ids, source types, descriptions
//! that many fields repeat). Validation checks each shared text once. The owned (and JSON)
//! form is an ordinary `String`.

use rkyv::collections::util::Entry;
use rkyv::rancor::Fallible;
use rkyv::rc::{ArcFlavor, ArchivedRc, RcResolver};
use rkyv::ser::{Allocator, Writer};
use rkyv::vec::{ArchivedVec, VecResolver};
use rkyv::with::{ArchiveWith, DeserializeWith, SerializeWith};
use rkyv::{Archive, Deserialize, Place, Serialize, SerializeUnsized};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

thread_local! {
    /// Text -> position of its one copy in the archive being written on this thread.
    static WRITTEN: RefCell<Option<HashMap<String, usize>>> = const { RefCell::new(None) };
}

/// Run one archive serialisation on this thread with string sharing (positions are only
/// meaningful inside one archive, so the table lives exactly as long as `f`).
pub(crate) fn sharing<T>(f: impl FnOnce() -> T) -> T {
    let old = WRITTEN.with(|w| w.replace(Some(HashMap::new())));
    let out = f();
    WRITTEN.with(|w| *w.borrow_mut() = old);
    out
}

/// The shared copy of `text`: written on first use, its position reused afterwards.
fn serialize_text<S>(text: &str, s: &mut S) -> Result<RcResolver, S::Error>
where
    S: Fallible + Writer + ?Sized,
{
    if let Some(pos) = WRITTEN.with(|w| w.borrow().as_ref().and_then(|m| m.get(text).copied())) {
        return Ok(RcResolver::from_pos(pos));
    }
    let pos = text.serialize_unsized(s)?;
    WRITTEN.with(|w| {
        if let Some(m) = w.borrow_mut().as_mut() {
            m.insert(text.to_string(), pos);
        }
    });
    Ok(RcResolver::from_pos(pos))
}

/// The archived form of a shared string.
pub type ArchivedShared = ArchivedRc<str, ArcFlavor>;

/// `with` wrapper: a `String` archived as a shared text.
pub struct Shared;

impl ArchiveWith<String> for Shared {
    type Archived = ArchivedShared;
    type Resolver = RcResolver;
    fn resolve_with(field: &String, resolver: RcResolver, out: Place<ArchivedShared>) {
        ArchivedShared::resolve_from_ref(field.as_str(), resolver, out);
    }
}

impl<S: Fallible + Writer + ?Sized> SerializeWith<String, S> for Shared {
    fn serialize_with(field: &String, s: &mut S) -> Result<RcResolver, S::Error> {
        serialize_text(field, s)
    }
}

impl<D: Fallible + ?Sized> DeserializeWith<ArchivedShared, String, D> for Shared {
    fn deserialize_with(field: &ArchivedShared, _: &mut D) -> Result<String, D::Error> {
        Ok(field.get().to_string())
    }
}

/// A borrowed key archived as a shared text (inside [`SharedKeys`]).
struct SharedKey<'a>(&'a str);

impl Archive for SharedKey<'_> {
    type Archived = ArchivedShared;
    type Resolver = RcResolver;
    fn resolve(&self, resolver: RcResolver, out: Place<ArchivedShared>) {
        ArchivedShared::resolve_from_ref(self.0, resolver, out);
    }
}

impl<S: Fallible + Writer + ?Sized> Serialize<S> for SharedKey<'_> {
    fn serialize(&self, s: &mut S) -> Result<RcResolver, S::Error> {
        serialize_text(self.0, s)
    }
}

/// `with` wrapper: a `BTreeMap<String, V>` archived as a sorted list of entries whose keys are
/// shared texts (smaller than an archived B-tree for the one- or two-entry maps fields carry).
pub struct SharedKeys;

impl<V: Archive> ArchiveWith<BTreeMap<String, V>> for SharedKeys {
    type Archived = ArchivedVec<Entry<ArchivedShared, V::Archived>>;
    type Resolver = VecResolver;
    fn resolve_with(
        field: &BTreeMap<String, V>,
        resolver: VecResolver,
        out: Place<Self::Archived>,
    ) {
        ArchivedVec::resolve_from_len(field.len(), resolver, out);
    }
}

impl<V, S> SerializeWith<BTreeMap<String, V>, S> for SharedKeys
where
    V: Serialize<S>,
    S: Fallible + Allocator + Writer + ?Sized,
{
    fn serialize_with(field: &BTreeMap<String, V>, s: &mut S) -> Result<VecResolver, S::Error> {
        let entries: Vec<
            rkyv::collections::util::EntryAdapter<SharedKey<'_>, &V, SharedKey<'_>, V>,
        > = field
            .iter()
            .map(|(k, v)| rkyv::collections::util::EntryAdapter::new(SharedKey(k), v))
            .collect();
        ArchivedVec::serialize_from_slice(&entries, s)
    }
}

impl<V, D> DeserializeWith<ArchivedVec<Entry<ArchivedShared, V::Archived>>, BTreeMap<String, V>, D>
    for SharedKeys
where
    V: Archive,
    V::Archived: Deserialize<V, D>,
    D: Fallible + ?Sized,
{
    fn deserialize_with(
        field: &ArchivedVec<Entry<ArchivedShared, V::Archived>>,
        d: &mut D,
    ) -> Result<BTreeMap<String, V>, D::Error> {
        let mut out = BTreeMap::new();
        for e in field.iter() {
            out.insert(e.key.get().to_string(), e.value.deserialize(d)?);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Archive, Serialize, Deserialize, Debug, PartialEq)]
    struct Sample {
        #[rkyv(with = Shared)]
        a: String,
        #[rkyv(with = rkyv::with::Map<Shared>)]
        b: Vec<String>,
        #[rkyv(with = SharedKeys)]
        m: BTreeMap<String, u32>,
    }

    #[test]
    fn equal_texts_are_written_once_and_round_trip() {
        let text = "a text long enough not to be inlined";
        let v = Sample {
            a: text.into(),
            b: vec![
                text.into(),
                "other text, also long enough".into(),
                text.into(),
            ],
            m: [(text.to_string(), 1), ("k".to_string(), 2)].into(),
        };
        let bytes = sharing(|| rkyv::to_bytes::<rkyv::rancor::Error>(&v)).unwrap();
        let n = bytes
            .windows(text.len())
            .filter(|w| *w == text.as_bytes())
            .count();
        assert_eq!(n, 1);
        let a = rkyv::access::<ArchivedSample, rkyv::rancor::Error>(&bytes).unwrap();
        let back: Sample = rkyv::deserialize::<Sample, rkyv::rancor::Error>(a).unwrap();
        assert_eq!(back, v);
        // Outside `sharing`, every text is written where it is used (still valid).
        let plain = rkyv::to_bytes::<rkyv::rancor::Error>(&v).unwrap();
        let n = plain
            .windows(text.len())
            .filter(|w| *w == text.as_bytes())
            .count();
        assert_eq!(n, 4);
    }
}
