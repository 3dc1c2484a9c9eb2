//! The passes of the lexical Understand step, one file each, and the one table that orders
//! them ([`PASSES`]). A pass reads the question's [`Reading`] as earlier passes left it, adds its
//! part, and either hands on ([`Flow::Next`]) or finishes the analysis ([`Flow::Done`]: a request
//! no tool serves). A phrasing fix belongs to the pass that reads that part of a question; its
//! test goes beside it.

pub(super) mod basis;
pub(super) mod bind;
pub(super) mod definition;
pub(super) mod entity;
pub(super) mod heads;
pub(super) mod intent;
pub(super) mod mentions;
pub(super) mod named_tool;
pub(super) mod parameters;
pub(super) mod qualifiers;
pub(super) mod ranges;
pub(super) mod scope;
pub(super) mod source;
pub(super) mod topic;
pub(super) mod understanding;
pub(super) mod unit_words;

use super::Lexical;
use super::reading::Reading;

/// What the pipeline does after a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Flow {
    /// Run the next pass.
    Next,
    /// The analysis is complete (the reading's Understanding is the answer).
    Done,
}

/// One pass: reads and writes the reading.
pub(super) type Pass = fn(&Lexical<'_>, &mut Reading) -> Flow;

/// The passes in the order they run, by name.
pub(super) const PASSES: &[(&str, Pass)] = &[
    ("scope", scope::run),
    ("parameters", parameters::run),
    ("definition", definition::run),
    ("mentions", mentions::run),
    ("heads", heads::run),
    ("unit_words", unit_words::run),
    ("basis", basis::run),
    ("qualifiers", qualifiers::run),
    ("source", source::run),
    ("topic", topic::run),
    ("intent", intent::run),
    ("entity", entity::run),
    ("understanding", understanding::run),
    ("ranges", ranges::run),
    ("bind", bind::run),
    ("named_tool", named_tool::run),
];
