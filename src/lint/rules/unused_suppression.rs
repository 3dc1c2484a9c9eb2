//! # unused-suppression (SR901)
//!
//! ## What it finds
//! A `# schemarouter: allow(rule) -- reason` comment that suppresses no finding of that rule
//! (the problem was fixed, or the comment sits on the wrong line).
//!
//! ## Why it matters for routing
//! Stale suppressions hide the next real finding at that place; dead configuration should be
//! removed like a licence allowed but never seen.
//!
//! ## Fix
//! Safe: the unused rule is taken out of the comment, or the whole comment (its line, when alone
//! on it) when it suppresses nothing at all. Applying it to the invalid example gives the valid
//! example.
//!
//! ## Invalid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   # schemarouter: allow(unknown-domain) -- nothing to suppress here
//!   - id: materials_property
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//! ```
