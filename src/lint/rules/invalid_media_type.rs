//! # invalid-media-type (SR711)
//!
//! ## What it finds
//! A request body media type of an import source that is no media type: OpenAPI 3's
//! `requestBody.content` keys and Swagger 2.0's `consumes`. One rule reads every declared media
//! type, the gateway's too (`crate::model::media_type_fault`): `type/subtype` of RFC 9110
//! tokens (`json` is not one), a type IANA registers (`application`, `audio`, `example`, `font`,
//! `haptics`, `image`, `message`, `model`, `multipart`, `text`, `video`: `plain/text` is not
//! one), `name=value` parameters, and a `charset` that names a registered character set
//! (`utf8` is not one: `utf-8`). A range (`text/*`, `*/*`) is allowed. The message says what
//! is wrong, and the help the media type probably meant when it is clear.
//!
//! A type whose type or subtype is faulty is never chosen as the type the body is sent as: the
//! body is sent as another of its media types, or, when it has none, not imported (the
//! endpoint gets no body parameters; Swagger 2.0: sent as JSON, its default without
//! `consumes`). A type whose only fault is a parameter is sent as its
//! essence (`application/json; charset=utf8` as `application/json`).
//!
//! ## Why it matters for routing
//! The gateway sends a request body by its media type: as JSON, form fields, multipart parts,
//! XML, text, or bytes. A typo gives it no kind to send: read as "some other type", a
//! `plain/text` note would be sent as base64-decoded bytes and a `json` body not at all, and the
//! provider would answer with an error the agent cannot act on. The gateway refuses to call an
//! endpoint whose declared `body_type` has a faulty type or subtype, naming it, and sends a
//! faulty parameter's type as its essence; fix the source document and import again.
//!
//! This finding is made by `schemarouter import` (an import source, not a declaration file, is
//! checked); the examples are import sources.
//!
//! ## Fix
//! None: the change is to the source document; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: source/api.yaml
//! openapi: 3.0.3
//! info: {title: Notes, version: "1"}
//! paths:
//!   /notes:
//!     post:
//!       operationId: add_note
//!       requestBody:
//!         content:
//!           plain/text:
//!             schema: {type: string}
//!       responses:
//!         '200':
//!           description: ok
//!           content:
//!             application/json:
//!               schema: {type: object, properties: {id: {type: string}}}
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: source/api.yaml
//! openapi: 3.0.3
//! info: {title: Notes, version: "1"}
//! paths:
//!   /notes:
//!     post:
//!       operationId: add_note
//!       requestBody:
//!         content:
//!           text/plain; charset=utf-8:
//!             schema: {type: string}
//!       responses:
//!         '200':
//!           description: ok
//!           content:
//!             application/json:
//!               schema: {type: object, properties: {id: {type: string}}}
//! ```
