//! Schema diff: the breaking, dangerous and safe changes between two schema versions, for
//! pull-request review (`schemarouter diff OLD NEW`).
//!
//! Each side ([`side::Side`]) is a project folder, a compiled artifact or a git revision, read
//! into one comparable form: the compiled [`crate::artifact::FrozenGraph`] plus, for projects, a
//! [`locate::Locator`] of declaration positions. [`compare::compare`] walks both forms by id and
//! name (so reordering is never a change) and emits [`model::Change`]s with a stable code, a
//! class, the entity path, old and new values, locations and a fingerprint. [`diff`] then
//! applies the new side's `[diff] accept` entries; [`plans`] optionally routes understandings on
//! both sides; [`render`] prints the [`Report`] as human text, JSON, Markdown, GitHub
//! annotations or JUnit XML.

pub mod compare;
pub mod entity;
pub mod git;
pub mod licence;
pub mod locate;
pub mod model;
pub mod plans;
pub mod render;
pub mod side;

pub use model::{Change, Class, Location, codes};
pub use side::{Side, SideError};

use serde::Serialize;

/// The lowest class that fails the gate (`--fail-on`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum FailOn {
    /// Fail on breaking changes (default).
    #[default]
    Breaking,
    /// Fail on dangerous and breaking changes.
    Dangerous,
    /// Never fail.
    None,
}

impl FailOn {
    /// The lowest failing class, if any.
    pub fn threshold(self) -> Option<Class> {
        match self {
            FailOn::Breaking => Some(Class::Breaking),
            FailOn::Dangerous => Some(Class::Dangerous),
            FailOn::None => None,
        }
    }

    /// Whether an unaccepted change of this class fails the gate.
    pub fn fails(self, class: Class) -> bool {
        self.threshold().is_some_and(|t| class >= t)
    }

    /// Lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            FailOn::Breaking => "breaking",
            FailOn::Dangerous => "dangerous",
            FailOn::None => "none",
        }
    }
}

/// An `[diff] accept` entry that matches no change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UnmatchedAcceptance {
    /// The fingerprint written in the configuration.
    pub fingerprint: String,
    /// Its reason.
    pub reason: String,
    /// Where it is written (new side's `schemarouter.toml`).
    pub location: Option<Location>,
}

impl UnmatchedAcceptance {
    /// Why it matches nothing, for messages: a fingerprint that is no fingerprint at all (not
    /// 16 hexadecimal digits, as `diff` prints them) is named so; else it matches no change
    /// (the change it accepted is gone, or was never there).
    pub fn why(&self) -> String {
        let f = self.fingerprint.trim();
        if f.len() == 16 && f.chars().all(|c| c.is_ascii_hexdigit()) {
            "matches no change".to_string()
        } else {
            "is no change fingerprint (16 hexadecimal digits, as `schemarouter diff` prints them), so it matches no change".to_string()
        }
    }
}

/// Change counts per class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Unaccepted breaking changes.
    pub breaking: usize,
    /// Unaccepted dangerous changes.
    pub dangerous: usize,
    /// Unaccepted safe changes.
    pub safe: usize,
    /// Accepted changes (any class).
    pub accepted: usize,
}

impl Counts {
    /// The count of unaccepted changes of one class.
    pub fn of(&self, class: Class) -> usize {
        match class {
            Class::Breaking => self.breaking,
            Class::Dangerous => self.dangerous,
            Class::Safe => self.safe,
        }
    }
}

/// The outcome of a diff.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The old side as named.
    pub old: String,
    /// The new side as named.
    pub new: String,
    /// Every change, sorted (class, entity, code, values); accepted ones carry their reason.
    pub changes: Vec<Change>,
    /// Acceptances that match no change.
    pub unmatched_acceptances: Vec<UnmatchedAcceptance>,
    /// Plans that change, when understandings were given.
    pub plan_impact: Option<plans::PlanImpact>,
}

impl Report {
    /// Counts per class (unaccepted) and of accepted changes.
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for ch in &self.changes {
            if ch.accepted.is_some() {
                c.accepted += 1;
                continue;
            }
            match ch.class {
                Class::Breaking => c.breaking += 1,
                Class::Dangerous => c.dangerous += 1,
                Class::Safe => c.safe += 1,
            }
        }
        c
    }

    /// True when an unaccepted change at or above `fail_on` remains (exit code 1).
    pub fn fails(&self, fail_on: FailOn) -> bool {
        self.changes
            .iter()
            .any(|c| c.accepted.is_none() && fail_on.fails(c.class))
    }

    /// Unaccepted changes of one class, in report order.
    pub fn of_class(&self, class: Class) -> impl Iterator<Item = &Change> {
        self.changes
            .iter()
            .filter(move |c| c.accepted.is_none() && c.class == class)
    }

    /// Accepted changes, in report order.
    pub fn accepted(&self) -> impl Iterator<Item = &Change> {
        self.changes.iter().filter(|c| c.accepted.is_some())
    }
}

/// Compare two sides and apply the new side's acceptances.
pub fn diff(old: &Side, new: &Side) -> Report {
    let mut changes = compare::compare(old, new);
    let mut matched = std::collections::BTreeSet::new();
    for c in &mut changes {
        if let Some(a) = new
            .acceptances
            .iter()
            .find(|a| a.fingerprint.trim().eq_ignore_ascii_case(&c.fingerprint))
        {
            c.accepted = Some(a.reason.clone());
            matched.insert(a.fingerprint.clone());
        }
    }
    let mut unmatched_acceptances: Vec<UnmatchedAcceptance> = new
        .acceptances
        .iter()
        .filter(|a| !matched.contains(&a.fingerprint))
        .map(|a| UnmatchedAcceptance {
            fingerprint: a.fingerprint.clone(),
            reason: a.reason.clone(),
            location: new.locator.acceptance(&a.fingerprint),
        })
        .collect();
    unmatched_acceptances
        .sort_by(|a, b| (&a.location, &a.fingerprint).cmp(&(&b.location, &b.fingerprint)));
    unmatched_acceptances.dedup();
    Report {
        old: old.label.clone(),
        new: new.label.clone(),
        changes,
        unmatched_acceptances,
        plan_impact: None,
    }
}

/// [`diff`], plus the plan impact of `inputs` (routed on both sides with default options).
pub fn diff_with_plans(old: &Side, new: &Side, inputs: &[plans::PlanInput]) -> Report {
    let mut r = diff(old, new);
    r.plan_impact = Some(plans::plan_impact(&old.graph, &new.graph, inputs));
    r
}
