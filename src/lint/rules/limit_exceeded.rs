//! # limit-exceeded (SR009)
//!
//! ## What it finds
//! Input beyond the configured limits: a file larger than `max-file-bytes`, a project larger than
//! `max-project-bytes` or with more than `max-files` files, a string value or key longer than
//! `max-scalar-bytes` (256 KiB: a title or description reaches the intent-registry prompt,
//! whose exact token count takes time in the length of its longest unbroken word), nesting
//! deeper than `max-depth`, an `enum` of a tool file with more than `max-enum-values` values
//! (10,000: the router reads a parameter's enum for each question; the finding is at the `enum`
//! key, and the rest of the file is still read), or
//! YAML aliases expanded more than `max-aliases` times (an "alias bomb"), to more than 200,000
//! nodes, or to more than `max-file-bytes` bytes of text (a large anchored value replayed many
//! times: a file may not grow through its aliases past the size it may have written out; the
//! finding is at the alias use that passes the budget and names its anchor). `import` reads YAML
//! sources with the same budgets, at its own built-in 64 MiB.
//!
//! Other long lists cost time in proportion to their length, so they are bounded by
//! `max-file-bytes` alone: a list that does not fit in one file is refused with this finding. An
//! enum of a raised `max-enum-values` is read in linear time too (check, compile and `route`).
//!
//! ## Why it matters for routing
//! The linter runs in CI on untrusted pull requests; it must stop on hostile input with a clear
//! message instead of exhausting memory.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: schemarouter.toml
//! [limits]
//! max-depth = 5
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//!     description: {a: {b: {c: d}}}
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//! ```
