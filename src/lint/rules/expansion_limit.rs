//! # expansion-limit (SR704)
//!
//! ## What it finds
//! A response schema that expands past the importer's budget: a field path running through more
//! than 4 named schemas (imported as one object; an info), more than 1,000 fields or 200,000
//! schema visits for one endpoint, or paths deeper than 24 levels (the rest is cut; a warning); or
//! a document too large for one declaration file (more than 120,000 fields and parameters, or more
//! than the 8 MiB `check` reads per file; the import is refused with a hint to use `--only`).
//!
//! ## Why it matters for routing
//! Schemas that reuse the same sub-schema under many properties grow exponentially when expanded;
//! a budget keeps the import fast and the declaration readable, and says where it cut.
//!
//! This finding is made by `schemarouter import` (an import source, not a declaration file, is
//! checked); the examples are import sources.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: source/api.yaml
//! openapi: 3.0.3
//! info: {title: Wide, version: "1"}
//! paths:
//!   /x:
//!     get:
//!       responses:
//!         '200':
//!           description: ok
//!           content:
//!             application/json:
//!               schema: {$ref: '#/components/schemas/L0'}
//! components:
//!   schemas:
//!     L0: {type: object, properties: {a: {$ref: '#/components/schemas/L1'}, b: {$ref: '#/components/schemas/L1'}, c: {$ref: '#/components/schemas/L1'}, d: {$ref: '#/components/schemas/L1'}}}
//!     L1: {type: object, properties: {a: {$ref: '#/components/schemas/L2'}, b: {$ref: '#/components/schemas/L2'}, c: {$ref: '#/components/schemas/L2'}, d: {$ref: '#/components/schemas/L2'}}}
//!     L2: {type: object, properties: {a: {$ref: '#/components/schemas/L3'}, b: {$ref: '#/components/schemas/L3'}, c: {$ref: '#/components/schemas/L3'}, d: {$ref: '#/components/schemas/L3'}}}
//!     L3: {type: object, properties: {a: {$ref: '#/components/schemas/L4'}, b: {$ref: '#/components/schemas/L4'}, c: {$ref: '#/components/schemas/L4'}, d: {$ref: '#/components/schemas/L4'}}}
//!     L4: {type: object, properties: {a: {$ref: '#/components/schemas/L5'}, b: {$ref: '#/components/schemas/L5'}, c: {$ref: '#/components/schemas/L5'}, d: {$ref: '#/components/schemas/L5'}}}
//!     L5: {type: object, properties: {a: {$ref: '#/components/schemas/L6'}, b: {$ref: '#/components/schemas/L6'}, c: {$ref: '#/components/schemas/L6'}, d: {$ref: '#/components/schemas/L6'}}}
//!     L6: {type: string}
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: source/api.yaml
//! openapi: 3.0.3
//! info: {title: Narrow, version: "1"}
//! paths:
//!   /x:
//!     get:
//!       responses:
//!         '200':
//!           description: ok
//!           content:
//!             application/json:
//!               schema: {type: object, properties: {a: {type: string}, b: {type: integer}}}
//! ```
