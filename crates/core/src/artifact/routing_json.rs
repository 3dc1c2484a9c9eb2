//! Reading the routing part of a JSON artifact without scanning its graph.
//!
//! `compile` writes the `graph` section (the typed node and edge lists, about half of
//! `graph.json`, which Algorithm 1 never reads) last. A routing load reads the header, the
//! routing tables and the indices, and stops at the `graph` key once every other field has been
//! read: the graph's bytes are covered by the content hash (verified by the caller) but not
//! parsed. An artifact with its graph elsewhere (hand-ordered JSON) is read whole, the graph
//! skipped.

use super::{FrozenGraph, GraphData};
use serde::de::{DeserializeSeed, Error as _, IgnoredAny, MapAccess, Visitor};
use std::cell::RefCell;

/// The error that ends the map early; never shown (the stashed artifact replaces it).
const STOP: &str = "schemarouter: routing part read";

/// Deserialise the routing part of compact or indented JSON artifact `bytes` (the result's
/// `graph` is empty). Errors are serde_json's, with line and column, as a full read reports
/// them.
pub(crate) fn from_slice(bytes: &[u8]) -> Result<FrozenGraph, serde_json::Error> {
    let done = RefCell::new(None);
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let read = Routing { done: &done }.deserialize(&mut de);
    match (read, done.into_inner()) {
        (_, Some(fg)) => Ok(fg),
        (Ok(fg), None) => de.end().map(|()| fg),
        // Not an artifact, or a damaged one: the error a full read gives (the same text and
        // position for the same bytes, whichever load found it).
        (Err(e), None) => Err(serde_json::from_slice::<FrozenGraph>(bytes)
            .err()
            .unwrap_or(e)),
    }
}

struct Routing<'s> {
    done: &'s RefCell<Option<FrozenGraph>>,
}

impl<'de> DeserializeSeed<'de> for Routing<'_> {
    type Value = FrozenGraph;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<FrozenGraph, D::Error> {
        d.deserialize_map(self)
    }
}

/// One slot per field of [`FrozenGraph`] but `graph`: `$( $field: $ty )*`.
macro_rules! routing_fields {
    ($($field:ident: $ty:ty),* $(,)?) => {
        #[derive(Default)]
        struct Slots {
            $($field: Option<$ty>,)*
        }

        impl Slots {
            /// Read the value of `key` into its slot; `false` for a key that is not a routing
            /// field.
            fn read<'de, A: MapAccess<'de>>(&mut self, key: &str, m: &mut A) -> Result<bool, A::Error> {
                match key {
                    $(stringify!($field) => {
                        if self.$field.is_some() {
                            return Err(A::Error::duplicate_field(stringify!($field)));
                        }
                        self.$field = Some(m.next_value()?);
                    })*
                    _ => return Ok(false),
                }
                Ok(true)
            }

            fn complete(&self) -> bool {
                true $(&& self.$field.is_some())*
            }

            fn build<E: serde::de::Error>(self) -> Result<FrozenGraph, E> {
                let mut fg = FrozenGraph {
                    $($field: self.$field.ok_or_else(|| E::missing_field(stringify!($field)))?,)*
                    graph: GraphData::default(),
                };
                label(&mut fg);
                Ok(fg)
            }
        }
    };
}

routing_fields! {
    format_version: u32,
    tool_version: String,
    project: super::ProjectInfo,
    content_hash: String,
    routing_fingerprint: String,
    tools: super::LazyVec<super::ToolData>,
    intents: Vec<super::IntentData>,
    concepts: Vec<super::ConceptData>,
    domains: Vec<super::NamedData>,
    groups: Vec<super::NamedData>,
    source_types: Vec<String>,
    lexicon: super::lexicon::Lexicon,
    index: super::Indices,
}

/// Name the lazily read lists and maps in their errors.
fn label(fg: &mut FrozenGraph) {
    fg.tools.label_json("tools");
    let i = &mut fg.index;
    i.alias_to_concept.label_json("index.alias_to_concept");
    i.alias_to_field.label_json("index.alias_to_field");
    i.concept_postings.label_json("index.concept_postings");
    i.param_postings.label_json("index.param_postings");
    i.tool_names.label_json("index.tool_names");
    i.field_names.label_json("index.field_names");
    i.qualifier_values.label_json("index.qualifier_values");
    i.qualifier_keys.label_json("index.qualifier_keys");
    i.search_terms.label_json("index.search_terms");
}

impl<'de> Visitor<'de> for Routing<'_> {
    type Value = FrozenGraph;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("struct FrozenGraph")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<FrozenGraph, A::Error> {
        let mut slots = Slots::default();
        let mut seen_graph = false;
        while let Some(key) = m.next_key::<String>()? {
            if slots.read(&key, &mut m)? {
                continue;
            }
            if key == "graph" {
                if seen_graph {
                    return Err(A::Error::duplicate_field("graph"));
                }
                seen_graph = true;
                if slots.complete() {
                    *self.done.borrow_mut() = Some(slots.build()?);
                    return Err(A::Error::custom(STOP));
                }
            }
            m.next_value::<IgnoredAny>()?;
        }
        if !seen_graph {
            return Err(A::Error::missing_field("graph"));
        }
        slots.build()
    }
}
