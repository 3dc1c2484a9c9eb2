//! # invalid-binding (SR106)
//!
//! ## What it finds
//! A parameter binding that cannot produce a valid call: a `set` naming a parameter the endpoint
//! does not have or a value outside that parameter's enum, or a template with an unknown
//! transform or without a `{value}` placeholder.
//!
//! ## Why it matters for routing
//! Plans must be valid by construction (paper section 4): every parameter the router binds must
//! exist on the endpoint with a value of the declared type.
//!
//! ## Fix
//! None: the change needs a person's decision; the help line says what to write.
//!
//! ## Invalid example
//! ```yaml
//! # file: aliases/c.yaml
//! concepts:
//!   - id: compound_name
//!     kind: parameter
//! # file: schemas/pubchem.yaml
//! id: pubchem
//! title: PubChem
//! domain: chemistry
//! endpoints:
//!   - id: compound_property
//!     method: GET
//!     url: https://pubchem.ncbi.nlm.nih.gov/rest/pug/compound/{namespace}/{identifier}/property
//!     parameters:
//!       - name: namespace
//!         type: string
//!         enum: [cid, name, smiles]
//!       - name: identifier
//!         type: string
//!         bind:
//!           - concept: compound_name
//!             set: {namespace: compound}
//! ```
//!
//! ## Valid example
//! ```yaml
//! # file: aliases/c.yaml
//! concepts:
//!   - id: compound_name
//!     kind: parameter
//! # file: schemas/pubchem.yaml
//! id: pubchem
//! title: PubChem
//! domain: chemistry
//! endpoints:
//!   - id: compound_property
//!     method: GET
//!     url: https://pubchem.ncbi.nlm.nih.gov/rest/pug/compound/{namespace}/{identifier}/property
//!     parameters:
//!       - name: namespace
//!         type: string
//!         enum: [cid, name, smiles]
//!       - name: identifier
//!         type: string
//!         bind:
//!           - concept: compound_name
//!             set: {namespace: name}
//! ```

use crate::lint::{Context, DiagnosticExt, Rule, Sink};
use crate::model::Template;
use crate::model::value::did_you_mean;

/// See the module documentation.
pub struct InvalidBinding;

/// Transforms a template placeholder may apply (`{value|name}`).
pub const TRANSFORMS: &[&str] = &[
    "hill_spaced",
    "alphabetical",
    "elements_csv",
    "element_count",
    "lower",
    "upper",
    "string",
];

/// Check one template text; returns a message and help when it is invalid.
pub fn check_template(text: &str) -> Option<(String, String)> {
    let mut found = false;
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            return Some((
                format!("template `{text}` has an unclosed `{{`"),
                "close the placeholder: `{value}`".to_string(),
            ));
        };
        let inner = &rest[open + 1..open + close];
        let mut parts = inner.split('|');
        if parts.next() == Some("value") {
            found = true;
            for t in parts {
                if !TRANSFORMS.contains(&t) {
                    let help = match did_you_mean(t, TRANSFORMS.iter().copied()) {
                        Some(c) => format!("did you mean `{c}`?"),
                        None => format!("known transforms: {}", TRANSFORMS.join(", ")),
                    };
                    return Some((format!("unknown template transform `{t}`"), help));
                }
            }
        }
        rest = &rest[open + close + 1..];
    }
    if found {
        None
    } else {
        Some((
            format!("template `{text}` has no `{{value}}` placeholder"),
            "put `{value}` where the bound value goes".to_string(),
        ))
    }
}

impl Rule for InvalidBinding {
    fn check(&self, ctx: &Context, out: &mut Sink) {
        for t in &ctx.project.tools {
            for e in &t.endpoints {
                for param in &e.parameters {
                    for b in &param.bind {
                        if let Some(tpl) = &b.template {
                            let texts: Vec<&str> = match &tpl.value {
                                Template::Text(s) => vec![s.as_str()],
                                Template::Object(m) => m.values().map(String::as_str).collect(),
                            };
                            if let Some((msg, help)) = texts.iter().find_map(|s| check_template(s))
                            {
                                out.report(t.file, tpl.span, msg)
                                    .label("in this template")
                                    .fix(help);
                            }
                        }
                        for (name, value) in &b.set {
                            match e.parameters.iter().find(|x| &x.name.value == name) {
                                None => {
                                    let help = match did_you_mean(
                                        name,
                                        e.parameters.iter().map(|x| x.name.value.as_str()),
                                    ) {
                                        Some(c) => format!("did you mean `{c}`?"),
                                        None => {
                                            "declare the parameter on this endpoint".to_string()
                                        }
                                    };
                                    out.report(
                                        t.file,
                                        value.span,
                                        format!(
                                            "binding sets `{name}`, which endpoint `{}` does not have",
                                            e.id.value
                                        ),
                                    )
                                    .label("unknown parameter")
                                    .fix(help);
                                }
                                Some(target) => {
                                    if let Some(values) = &target.enum_values
                                        && !values.iter().any(|v| v.value == value.value)
                                    {
                                        let list: Vec<String> =
                                            values.iter().map(|v| v.value.to_string()).collect();
                                        out.report(
                                            t.file,
                                            value.span,
                                            format!(
                                                "binding sets `{name}` to `{}`, which is not one of its values",
                                                value.value
                                            ),
                                        )
                                        .label("not in the enum")
                                        .with(t.file, target.name.span, "parameter declared here")
                                        .fix(format!("use one of: {}", list.join(", ")));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
