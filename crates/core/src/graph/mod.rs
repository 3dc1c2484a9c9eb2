//! The schema graph: symbol tables over the model ([`index`]) and the typed petgraph graph the
//! compiler freezes.

pub mod build;
pub mod export;
pub mod index;
