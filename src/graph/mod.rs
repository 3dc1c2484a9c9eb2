//! The schema graph: symbol tables over the model ([`index`]) and the typed petgraph graph the
//! compiler freezes.

pub mod index;
