//! Entity paths: the stable names changes are reported under.
//!
//! `tool/<id>`, `tool/<id>/endpoint/<id>`, `tool/<id>/endpoint/<id>/field/<name>`,
//! `tool/<id>/endpoint/<id>/parameter/<name>`, `intent/<id>`, `group/<id>`, `domain/<id>`,
//! `concept/<id>`, `alias/<normalised text>`.

/// `tool/<id>`.
pub fn tool(t: &str) -> String {
    format!("tool/{t}")
}

/// `tool/<id>/endpoint/<id>`.
pub fn endpoint(t: &str, e: &str) -> String {
    format!("tool/{t}/endpoint/{e}")
}

/// `tool/<id>/endpoint/<id>/field/<name>`.
pub fn field(t: &str, e: &str, f: &str) -> String {
    format!("tool/{t}/endpoint/{e}/field/{f}")
}

/// `tool/<id>/endpoint/<id>/parameter/<name>`.
pub fn parameter(t: &str, e: &str, p: &str) -> String {
    format!("tool/{t}/endpoint/{e}/parameter/{p}")
}

/// `intent/<id>`.
pub fn intent(i: &str) -> String {
    format!("intent/{i}")
}

/// `group/<id>`.
pub fn group(g: &str) -> String {
    format!("group/{g}")
}

/// `domain/<id>`.
pub fn domain(d: &str) -> String {
    format!("domain/{d}")
}

/// `concept/<id>`.
pub fn concept(c: &str) -> String {
    format!("concept/{c}")
}

/// `alias/<normalised text>`.
pub fn alias(normalised: &str) -> String {
    format!("alias/{normalised}")
}

/// Key of an attribute of an entity in a [`super::locate::Locator`].
pub fn attr(entity: &str, attr: &str) -> String {
    format!("{entity}#{attr}")
}

/// Key of one item of a list attribute (a group of a field, an enum value of a parameter).
pub fn item(entity: &str, attr: &str, item: &str) -> String {
    format!("{entity}#{attr}={item}")
}
