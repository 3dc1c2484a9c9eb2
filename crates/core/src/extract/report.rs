//! What projection could not do: planned fields the response lacks, values the provider marks
//! as missing, values whose type does not match the declaration, and responses whose shape does
//! not match the records path. Reported, never guessed.

use serde::{Deserialize, Serialize};

/// Kinds of finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IssueKind {
    /// The plan was made against another artifact (routing fingerprints differ).
    FingerprintMismatch,
    /// The response does not have the declared shape (records path, a non-object record, an
    /// array where the field path expects an object).
    Shape,
    /// The planned field is not in (some of) the records nor in the envelope.
    Missing,
    /// The provider sent `null` or its missing-value marker.
    NoValue,
    /// The value does not match the declared type (it is left out, not coerced).
    TypeMismatch,
    /// The plan names a field the endpoint does not declare.
    UnknownField,
    /// The step was executed and failed after earlier steps answered (`schemarouter gateway`):
    /// the answer is partial, holding the steps that ran.
    StepFailed,
}

/// At most this many record locations are listed per finding (`count` has the total).
pub const MAX_LISTED: usize = 5;

/// One finding, aggregated over the records of a step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Issue {
    /// Step number in the plan, counted from 1 as `--response N=` and the messages count; 0
    /// for a finding about the whole plan (a routing-fingerprint mismatch).
    pub step: usize,
    /// Tool id.
    pub tool: String,
    /// Endpoint id.
    pub endpoint: String,
    /// The planned field, when the finding is about one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// Kind.
    pub kind: IssueKind,
    /// How many records it concerns (0 for step-level findings).
    pub count: usize,
    /// Where, for the first few records (`data[3]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub records: Vec<String>,
    /// What was found (the first occurrence).
    pub message: String,
}

/// Accumulates one kind of finding for one field over records.
#[derive(Default)]
pub(crate) struct Tally {
    pub count: usize,
    pub records: Vec<String>,
    pub message: Option<String>,
}

impl Tally {
    /// A step-level finding (no record count).
    pub fn one(message: String) -> Tally {
        Tally {
            count: 0,
            records: Vec::new(),
            message: Some(message),
        }
    }

    pub fn add(&mut self, at: &str, message: impl FnOnce() -> String) {
        self.count += 1;
        if self.records.len() < MAX_LISTED {
            self.records.push(at.to_string());
        }
        if self.message.is_none() {
            self.message = Some(message());
        }
    }
}
