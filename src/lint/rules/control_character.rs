//! # control-character (SR013)
//!
//! ## What it finds
//! A string or key in a declaration file that holds a control character: a C0 control other
//! than tab and line feed (ESC, BEL, backspace, a carriage return not followed by a line
//! feed, ...), DEL, a C1 control, or a bidirectional
//! embedding, override or isolate control (U+202A-U+202E, U+2066-U+2069). Such characters are
//! invisible in an editor but can be written with escapes in a quoted YAML or TOML string
//! (`"\e[2J"`), and they arrive through imported catalogs.
//!
//! ## Why it matters for routing
//! Titles, names, descriptions and example queries go into the intent-registry prompt the
//! Understand step sends to a model, into plans and into the graph exports: a terminal escape
//! there clears screens or retitles windows where the text is shown, and a bidirectional
//! override makes a name read differently from what it is (the "Trojan Source" trick). The
//! linter's own output shows them escaped (`\u{1b}`); other consumers may not.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//!     description: "Materials \e[2Jproperties"
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: intents/domains.yaml
//! domains:
//!   - id: materials_property
//!     description: Materials properties
//! ```
