//! # yaml11-boolean (SR016)
//!
//! ## What it finds
//! An unquoted YAML 1.1 boolean spelling (`yes`, `no`, `on`, `off`, `y`, `n`, in any case:
//! `Yes`, `OFF`, `N`) as the value of a string field, or of a parameter's `default` or `enum`.
//! The loader reads YAML 1.2, where these are the strings they spell; YAML 1.1 readers (PyYAML,
//! many editors and CI tools) read them as `true` and `false`.
//!
//! ## Why it matters for routing
//! A file that means different things to different readers: an enumeration value `no` (Norway),
//! a unit symbol `N` (newton) or a title `On` becomes a boolean the moment another tool reads or
//! rewrites the file. Quoted, every reader sees the same string. (In a boolean field, `yes` is
//! an `invalid-value` error instead, whose help says to write `true`.)
//!
//! ## Fix
//! Safe: the value is quoted (`yes` -> `"yes"`); every YAML 1.2 reader already read it as that
//! string. Applying it to the invalid example gives the valid example.
//!
//! ## Invalid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//!     description: yes
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//!     description: "yes"
//! ```
