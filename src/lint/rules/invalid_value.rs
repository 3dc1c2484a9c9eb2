//! # invalid-value (SR007)
//!
//! ## What it finds
//! A value of the wrong type or an unknown enumeration value: a YAML 1.1 `no` where a boolean is
//! expected (booleans are only `true` and `false`), a list where a string is expected, an
//! unknown value type, an HTTP method that does not exist.
//!
//! ## Why it matters for routing
//! Lenient readers turn `no` into `false` in one place and into the text "no" in another; the
//! router must see exactly what the author meant.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: aliases/c.yaml
//! concepts:
//!   - id: band_gap
//!     kind: respons
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: aliases/c.yaml
//! concepts:
//!   - id: band_gap
//!     kind: response
//!     unit: eV
//! ```
