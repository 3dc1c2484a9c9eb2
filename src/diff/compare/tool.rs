//! Tools, endpoints, parameters and response fields.

use super::value::{TypeRelation, UnitRef, json, s, show, type_relation};
use super::{Ctx, pairs, set_diff};
use crate::artifact::{EndpointData, FieldData, LicenceData, ParamData, ToolData};
use crate::diff::entity as ent;
use crate::diff::licence::restriction;
use crate::diff::locate::scalar_key;
use crate::diff::model::codes;
use serde_json::{Value, json as j};
use std::collections::BTreeMap;

/// The tool-level facts a field's effective source type and licence fall back to.
struct ToolPair<'a> {
    old: &'a ToolData,
    new: &'a ToolData,
}

pub(super) fn tools(cx: &mut Ctx) {
    let rows = pairs(
        cx.old.graph.tools.iter().map(|t| (t.id.as_str(), t)),
        cx.new.graph.tools.iter().map(|t| (t.id.as_str(), t)),
    );
    let renamed_to: std::collections::BTreeSet<String> =
        cx.renames.tools.values().cloned().collect();
    for (id, o, n) in rows {
        let e = ent::tool(id);
        match (o, n) {
            (Some(o), None) if cx.renames.tools.contains_key(id) => {
                let to = cx.renames.tools[id].clone();
                let Some(n) = cx.new.graph.tools.iter().find(|t| t.id == to) else {
                    continue;
                };
                let ne = ent::tool(&to);
                cx.renamed(
                    codes::TOOL_RENAMED,
                    &e,
                    &ne,
                    id,
                    &to,
                    format!(
                        "tool `{id}` was renamed to `{to}` (same domain, matched by its endpoints and fields); Understand outputs and clients naming `{id}` no longer resolve it"
                    ),
                );
                tool(cx, &ne, o, n);
            }
            (None, Some(_)) if renamed_to.contains(id) => {}
            (Some(_), None) => {
                cx.removed(
                    codes::TOOL_REMOVED,
                    &e,
                    &[],
                    s(id),
                    format!("tool `{id}` was removed"),
                );
            }
            (None, Some(_)) => {
                cx.added(
                    codes::TOOL_ADDED,
                    &e,
                    &[],
                    s(id),
                    format!("tool `{id}` was added"),
                );
            }
            (Some(o), Some(n)) => tool(cx, &e, o, n),
            (None, None) => {}
        }
    }
}

/// The changes of one tool. Entity paths use the new side's id (a renamed tool's changes are
/// reported under its new id; the old side is located through `Ctx::old_path`).
fn tool(cx: &mut Ctx, e: &str, o: &ToolData, n: &ToolData) {
    let id = n.id.as_str();
    if o.title != n.title {
        cx.attr(
            codes::TOOL_TITLE_CHANGED,
            e,
            "title",
            s(&o.title),
            s(&n.title),
            format!(
                "title of tool `{id}` changed from `{}` to `{}`",
                o.title, n.title
            ),
        );
    }
    let (rm, add) = set_diff(&o.names, &n.names);
    for name in rm {
        cx.item(
            codes::TOOL_NAME_REMOVED,
            e,
            "names",
            name,
            s(name),
            None,
            format!("tool `{id}` is no longer known as `{name}`"),
        );
    }
    for name in add {
        cx.item(
            codes::TOOL_NAME_ADDED,
            e,
            "names",
            name,
            None,
            s(name),
            format!("tool `{id}` is now also known as `{name}`"),
        );
    }
    cx.description(
        e,
        &format!("tool `{id}`"),
        o.description.as_deref(),
        n.description.as_deref(),
    );
    if o.domain != n.domain {
        cx.attr(
            codes::TOOL_DOMAIN_CHANGED,
            e,
            "domain",
            s(&o.domain),
            s(&n.domain),
            format!(
                "tool `{id}` moved from domain `{}` to `{}`; intents that reach it change",
                o.domain, n.domain
            ),
        );
    }
    if o.priority != n.priority {
        cx.attr(
            codes::TOOL_PRIORITY_CHANGED,
            e,
            "priority",
            json(o.priority),
            json(n.priority),
            format!(
                "priority of tool `{id}` changed from {} to {}; rankings may shift",
                o.priority, n.priority
            ),
        );
    }
    if o.source_type != n.source_type {
        cx.attr(
            source_type_code(o.source_type.as_deref()),
            e,
            "source_type",
            json(&o.source_type),
            json(&n.source_type),
            format!(
                "source type of tool `{id}` changed from {} to {}",
                o.source_type.as_deref().unwrap_or("none"),
                n.source_type.as_deref().unwrap_or("none")
            ),
        );
    }
    if o.provenance != n.provenance {
        cx.attr(
            codes::PROVENANCE_CHANGED,
            e,
            "provenance",
            json(&o.provenance),
            json(&n.provenance),
            format!("provenance of tool `{id}` changed"),
        );
    }
    licence(
        cx,
        e,
        &format!("tool `{id}`"),
        o.licence.as_deref(),
        n.licence.as_deref(),
    );
    let pair = ToolPair { old: o, new: n };
    let rows = pairs(
        o.endpoints.iter().map(|x| (x.id.as_str(), x)),
        n.endpoints.iter().map(|x| (x.id.as_str(), x)),
    );
    for (eid, oe, ne) in rows {
        let ee = ent::endpoint(id, eid);
        match (oe, ne) {
            (Some(_), None) => {
                cx.removed(
                    codes::ENDPOINT_REMOVED,
                    &ee,
                    &[e],
                    s(eid),
                    format!("endpoint `{id}/{eid}` was removed"),
                );
            }
            (None, Some(ne)) => {
                let plannable_destroyer =
                    !ne.destructive && cx.new.may_destroy(id, eid, &ne.method);
                let (code, message) = if plannable_destroyer {
                    (
                        codes::DESTRUCTIVE_ENDPOINT_ALLOWED,
                        format!(
                            "endpoint `{id}/{eid}` was added; it may destroy data and is plannable at once (`allow_destructive`)"
                        ),
                    )
                } else {
                    (
                        codes::ENDPOINT_ADDED,
                        format!("endpoint `{id}/{eid}` was added"),
                    )
                };
                cx.added(code, &ee, &[e], s(eid), message);
            }
            (Some(oe), Some(ne)) => endpoint(cx, &pair, &ee, oe, ne),
            (None, None) => {}
        }
    }
}

/// Licence changes of an entity (`what` names it in messages).
fn licence(cx: &mut Ctx, e: &str, what: &str, o: Option<&LicenceData>, n: Option<&LicenceData>) {
    match (o, n) {
        (None, None) => {}
        (None, Some(n)) => {
            cx.attr(
                codes::LICENCE_ADDED,
                e,
                "licence",
                None,
                s(&n.spdx),
                format!("{what} now declares licence {}", n.spdx),
            );
        }
        (Some(o), None) => {
            cx.attr(
                codes::LICENCE_REMOVED,
                e,
                "licence",
                s(&o.spdx),
                None,
                format!("{what} no longer declares a licence (was {})", o.spdx),
            );
        }
        (Some(o), Some(n)) => {
            if o.spdx != n.spdx {
                let (ro, rn) = (restriction(&o.spdx), restriction(&n.spdx));
                let code = if rn > ro {
                    codes::LICENCE_RESTRICTED
                } else {
                    codes::LICENCE_CHANGED
                };
                let how = if rn > ro {
                    "more restrictive"
                } else if rn < ro {
                    "less restrictive"
                } else {
                    "equally restrictive"
                };
                cx.attr(
                    code,
                    e,
                    "licence",
                    s(&o.spdx),
                    s(&n.spdx),
                    format!(
                        "licence of {what} changed from {} ({}) to {} ({}): {how}",
                        o.spdx,
                        ro.as_str(),
                        n.spdx,
                        rn.as_str()
                    ),
                );
            }
            let terms = |l: &LicenceData| {
                j!({
                    "wording": l.wording,
                    "url": l.url,
                    "attribution": l.attribution,
                    "verified": l.verified,
                })
            };
            let (to, tn) = (terms(o), terms(n));
            if to != tn {
                let mut which: Vec<&str> = Vec::new();
                for k in ["wording", "url", "attribution", "verified"] {
                    if to.get(k) != tn.get(k) {
                        which.push(k);
                    }
                }
                cx.attr(
                    codes::LICENCE_TERMS_CHANGED,
                    e,
                    "licence",
                    Some(to),
                    Some(tn),
                    format!("licence terms of {what} changed ({})", which.join(", ")),
                );
            }
        }
    }
}

fn endpoint(cx: &mut Ctx, tp: &ToolPair, e: &str, o: &EndpointData, n: &EndpointData) {
    let path = format!("{}/{}", tp.old.id, o.id);
    if o.method != n.method {
        cx.attr(
            codes::ENDPOINT_METHOD_CHANGED,
            e,
            "method",
            s(&o.method),
            s(&n.method),
            format!(
                "HTTP method of `{path}` changed from {} to {}",
                o.method, n.method
            ),
        );
    }
    if o.url != n.url {
        cx.attr(
            codes::ENDPOINT_URL_CHANGED,
            e,
            "url",
            s(&o.url),
            s(&n.url),
            format!("URL of `{path}` changed from {} to {}", o.url, n.url),
        );
    }
    if o.destructive != n.destructive {
        let (code, message) = if o.destructive {
            (
                codes::DESTRUCTIVE_ENDPOINT_ALLOWED,
                format!("`{path}` may destroy data and is now plannable (it was never planned)"),
            )
        } else {
            (
                codes::ENDPOINT_NO_LONGER_PLANNED,
                format!("`{path}` may destroy data and is no longer planned"),
            )
        };
        let show = |d: bool| if d { "never planned" } else { "plannable" };
        cx.attr(
            code,
            e,
            "destructive",
            s(show(o.destructive)),
            s(show(n.destructive)),
            message,
        );
    }
    if o.records != n.records {
        let show = |r: &Option<String>| r.as_deref().unwrap_or("the root").to_string();
        cx.attr(
            codes::ENDPOINT_RECORDS_CHANGED,
            e,
            "records",
            s(&show(&o.records)),
            s(&show(&n.records)),
            format!(
                "records of `{path}` changed from {} to {}",
                show(&o.records),
                show(&n.records)
            ),
        );
    }
    cx.description(
        e,
        &format!("endpoint `{path}`"),
        o.description.as_deref(),
        n.description.as_deref(),
    );
    let tool_e = ent::tool(&tp.old.id);
    let rows = pairs(
        o.parameters.iter().map(|x| (x.name.as_str(), x)),
        n.parameters.iter().map(|x| (x.name.as_str(), x)),
    );
    for (name, op, np) in rows {
        let pe = ent::parameter(&tp.new.id, &o.id, name);
        match (op, np) {
            (Some(_), None) => {
                cx.removed(
                    codes::PARAMETER_REMOVED,
                    &pe,
                    &[e, &tool_e],
                    s(name),
                    format!("parameter `{name}` was removed from `{path}`"),
                );
            }
            (None, Some(np)) => {
                let (code, msg) = if np.required
                    && !np.auth
                    && let Some(d) = &np.default
                {
                    (
                        codes::PARAMETER_ADDED_REQUIRED_WITH_DEFAULT,
                        format!(
                            "required parameter `{name}` was added to `{path}` with default {}; the router sends the default, so existing calls keep working",
                            show(Some(&d.to_json()))
                        ),
                    )
                } else if np.required {
                    (
                        codes::PARAMETER_ADDED_REQUIRED,
                        format!(
                            "required parameter `{name}` was added to `{path}`; existing calls lack it"
                        ),
                    )
                } else {
                    (
                        codes::PARAMETER_ADDED,
                        format!("optional parameter `{name}` was added to `{path}`"),
                    )
                };
                cx.added(code, &pe, &[e, &tool_e], s(name), msg);
            }
            (Some(op), Some(np)) => parameter(cx, &pe, &format!("{path}/{name}"), op, np),
            (None, None) => {}
        }
    }
    fields(cx, tp, e, &path, o, n);
}

fn parameter(cx: &mut Ctx, e: &str, path: &str, o: &ParamData, n: &ParamData) {
    let what = format!("parameter `{path}`");
    if o.required != n.required {
        let (code, msg) = if n.required
            && !n.auth
            && let Some(d) = &n.default
        {
            (
                codes::PARAMETER_MADE_REQUIRED_WITH_DEFAULT,
                format!(
                    "{what} is now required, with default {}; the router sends the default where it sent nothing",
                    show(Some(&d.to_json()))
                ),
            )
        } else if n.required {
            (
                codes::PARAMETER_MADE_REQUIRED,
                format!("{what} is now required"),
            )
        } else {
            (
                codes::PARAMETER_MADE_OPTIONAL,
                format!("{what} is now optional"),
            )
        };
        cx.attr(code, e, "required", json(o.required), json(n.required), msg);
    }
    let rel = type_relation(&o.ty, &n.ty);
    let type_code = match rel {
        TypeRelation::Same => None,
        TypeRelation::Narrower => Some((codes::PARAMETER_TYPE_NARROWED, "narrowed")),
        TypeRelation::Wider => Some((codes::PARAMETER_TYPE_WIDENED, "widened")),
        TypeRelation::Unrelated => Some((codes::PARAMETER_TYPE_CHANGED, "changed")),
    };
    if let Some((code, how)) = type_code {
        cx.attr(
            code,
            e,
            "type",
            s(&o.ty),
            s(&n.ty),
            format!("type of {what} {how} from {} to {}", o.ty, n.ty),
        );
    }
    enums(cx, e, &what, o, n);
    if o.default != n.default {
        cx.attr(
            codes::PARAMETER_DEFAULT_CHANGED,
            e,
            "default",
            o.default.as_ref().map(|d| d.to_json_as_written()),
            n.default.as_ref().map(|d| d.to_json_as_written()),
            format!(
                "default of {what} changed from {} to {}",
                show(o.default.as_ref().map(|d| d.to_json_as_written()).as_ref()),
                show(n.default.as_ref().map(|d| d.to_json_as_written()).as_ref())
            ),
        );
    }
    if o.auth != n.auth {
        cx.attr(
            codes::PARAMETER_AUTH_CHANGED,
            e,
            "auth",
            json(o.auth),
            json(n.auth),
            if n.auth {
                format!("{what} is now a client credential (never bound from a query)")
            } else {
                format!("{what} is no longer a client credential")
            },
        );
    }
    if o.join != n.join {
        cx.attr(
            codes::PARAMETER_JOIN_CHANGED,
            e,
            "join",
            json(&o.join),
            json(&n.join),
            format!(
                "join separator of {what} changed from {} to {}",
                show(json(&o.join).as_ref()),
                show(json(&n.join).as_ref())
            ),
        );
    }
    let renames = cx.renames.clone();
    let ob: BTreeMap<&str, _> = o
        .bind
        .iter()
        .rev()
        .map(|b| (renames.concept(&b.concept), b))
        .collect();
    let nb: BTreeMap<&str, _> = n
        .bind
        .iter()
        .rev()
        .map(|b| (b.concept.as_str(), b))
        .collect();
    for (c, x, y) in pairs(ob, nb) {
        let body = |b: &crate::artifact::BindingData| j!({"template": b.template, "set": b.set});
        match (x, y) {
            (Some(_), None) => {
                cx.item(
                    codes::PARAMETER_BINDING_REMOVED,
                    e,
                    "bind",
                    c,
                    s(c),
                    None,
                    format!("{what} no longer binds from concept `{c}`"),
                );
            }
            (None, Some(_)) => {
                cx.item(
                    codes::PARAMETER_BINDING_ADDED,
                    e,
                    "bind",
                    c,
                    None,
                    s(c),
                    format!("{what} now binds from concept `{c}`"),
                );
            }
            (Some(x), Some(y)) if body(x) != body(y) => {
                cx.item(
                    codes::PARAMETER_BINDING_CHANGED,
                    e,
                    "bind",
                    c,
                    Some(j!({"concept": c, "template": x.template, "set": x.set})),
                    Some(j!({"concept": c, "template": y.template, "set": y.set})),
                    format!("binding of {what} from concept `{c}` renders values differently"),
                );
            }
            _ => {}
        }
    }
    cx.description(e, &what, o.description.as_deref(), n.description.as_deref());
}

fn enums(cx: &mut Ctx, e: &str, what: &str, o: &ParamData, n: &ParamData) {
    let key = |v: &crate::model::Scalar| (scalar_key(v), v.to_json_as_written());
    let ov: BTreeMap<String, Value> = o.enum_values.iter().map(key).collect();
    let nv: BTreeMap<String, Value> = n.enum_values.iter().map(key).collect();
    let list = |m: &BTreeMap<String, Value>| Some(Value::Array(m.values().cloned().collect()));
    match (ov.is_empty(), nv.is_empty()) {
        (true, true) => {}
        (true, false) => {
            cx.attr(
                codes::ENUM_CONSTRAINT_ADDED,
                e,
                "enum",
                None,
                list(&nv),
                format!("{what} now only accepts {}", show(list(&nv).as_ref())),
            );
        }
        (false, true) => {
            cx.attr(
                codes::ENUM_CONSTRAINT_DROPPED,
                e,
                "enum",
                list(&ov),
                None,
                format!(
                    "{what} is no longer limited to {}",
                    show(list(&ov).as_ref())
                ),
            );
        }
        (false, false) => {
            for (k, v) in &ov {
                if !nv.contains_key(k) {
                    cx.item(
                        codes::ENUM_VALUE_REMOVED,
                        e,
                        "enum",
                        k,
                        Some(v.clone()),
                        None,
                        format!("{what} no longer accepts {}", show(Some(v))),
                    );
                }
            }
            for (k, v) in &nv {
                if !ov.contains_key(k) {
                    cx.item(
                        codes::ENUM_VALUE_ADDED,
                        e,
                        "enum",
                        k,
                        None,
                        Some(v.clone()),
                        format!("{what} now also accepts {}", show(Some(v))),
                    );
                }
            }
        }
    }
}

fn unit_ref(f: &FieldData) -> Option<UnitRef<'_>> {
    f.unit.as_ref().map(|u| UnitRef {
        canonical: &u.canonical,
        dimension: Some(&u.dimension),
    })
}

/// Same concepts (at least one), unit and type: a removed and an added field that are one
/// field under a new name.
fn same_meaning(renames: &super::rename::Renames, a: &FieldData, b: &FieldData) -> bool {
    let mut concepts = renames.concepts_of(&a.concepts);
    concepts.sort();
    !a.concepts.is_empty()
        && concepts == b.concepts
        && a.ty == b.ty
        && a.unit.as_ref().map(|u| &u.canonical) == b.unit.as_ref().map(|u| &u.canonical)
}

fn fields(cx: &mut Ctx, tp: &ToolPair, e: &str, path: &str, o: &EndpointData, n: &EndpointData) {
    let tid = tp.new.id.as_str();
    let tool_e = ent::tool(tid);
    let of: BTreeMap<&str, &FieldData> = o.fields.iter().map(|f| (f.name.as_str(), f)).collect();
    let nf: BTreeMap<&str, &FieldData> = n.fields.iter().map(|f| (f.name.as_str(), f)).collect();
    let removed: Vec<&FieldData> = o
        .fields
        .iter()
        .filter(|f| !nf.contains_key(f.name.as_str()))
        .collect();
    let mut added: Vec<Option<&FieldData>> = n
        .fields
        .iter()
        .filter(|f| !of.contains_key(f.name.as_str()))
        .map(Some)
        .collect();
    for r in removed {
        let re = ent::field(tid, &o.id, &r.name);
        let partner = added
            .iter_mut()
            .find(|a| a.is_some_and(|a| same_meaning(&cx.renames, r, a)))
            .and_then(Option::take);
        match partner {
            Some(a) => {
                let ae = ent::field(tid, &o.id, &a.name);
                let ol = cx.old.locator.attr(&re, None);
                let nl = cx.new.locator.attr(&ae, None);
                cx.emit(
                    codes::FIELD_RENAMED,
                    &re,
                    s(&r.name),
                    s(&a.name),
                    format!(
                        "field `{}` of `{path}` was renamed to `{}` (same concepts, unit and type); readers of `{}` break",
                        r.name, a.name, r.name
                    ),
                    ol,
                    nl,
                );
                cx.old_paths.insert(ae.clone(), re.clone());
                field(cx, tp, &ae, &format!("{path}/{}", a.name), r, a);
            }
            None => {
                cx.removed(
                    codes::FIELD_REMOVED,
                    &re,
                    &[e, &tool_e],
                    s(&r.name),
                    format!("field `{}` was removed from `{path}`", r.name),
                );
            }
        }
    }
    for a in added.into_iter().flatten() {
        cx.added(
            codes::FIELD_ADDED,
            &ent::field(tid, &o.id, &a.name),
            &[e, &tool_e],
            s(&a.name),
            format!("field `{}` was added to `{path}`", a.name),
        );
    }
    for (name, x, y) in pairs(of, nf) {
        if let (Some(x), Some(y)) = (x, y) {
            field(
                cx,
                tp,
                &ent::field(tid, &o.id, name),
                &format!("{path}/{name}"),
                x,
                y,
            );
        }
    }
}

fn field(cx: &mut Ctx, tp: &ToolPair, e: &str, path: &str, o: &FieldData, n: &FieldData) {
    let what = format!("field `{path}`");
    field_shape(cx, e, &what, o, n);
    field_membership(cx, e, &what, o, n);
    field_values(cx, e, &what, o, n);
    // Effective source type: reported here only when the tool-level change does not explain it.
    let explained = o.source_type.as_deref() == tp.old.source_type.as_deref()
        && n.source_type.as_deref() == tp.new.source_type.as_deref();
    if o.source_type != n.source_type && !explained {
        cx.attr(
            source_type_code(o.source_type.as_deref().or(tp.old.source_type.as_deref())),
            e,
            "source_type",
            json(&o.source_type),
            json(&n.source_type),
            format!(
                "source type of {what} changed from {} to {}",
                o.source_type.as_deref().unwrap_or("none"),
                n.source_type.as_deref().unwrap_or("none")
            ),
        );
    }
    // Effective licence (override or the tool's), when an override is involved.
    if o.licence.is_some() || n.licence.is_some() {
        let ol = o.licence.as_deref().or(tp.old.licence.as_deref());
        let nl = n.licence.as_deref().or(tp.new.licence.as_deref());
        let explained = ol == tp.old.licence.as_deref() && nl == tp.new.licence.as_deref();
        if ol != nl && !explained {
            licence(cx, e, &what, ol, nl);
        }
    }
    cx.description(e, &what, o.description.as_deref(), n.description.as_deref());
}

/// A field's identifier flag, type and unit (canonical and as published).
fn field_shape(cx: &mut Ctx, e: &str, what: &str, o: &FieldData, n: &FieldData) {
    if o.identifier != n.identifier {
        if o.identifier {
            cx.attr(
                codes::IDENTIFIER_REMOVED,
                e,
                "identifier",
                json(true),
                json(false),
                format!("{what} is no longer an identifier; plans stop projecting it by default"),
            );
        } else {
            cx.attr(
                codes::IDENTIFIER_ADDED,
                e,
                "identifier",
                json(false),
                json(true),
                format!("{what} is now an identifier (always projected)"),
            );
        }
    }
    match type_relation(&o.ty, &n.ty) {
        TypeRelation::Same => {}
        TypeRelation::Narrower => {
            cx.attr(
                codes::FIELD_TYPE_NARROWED,
                e,
                "type",
                s(&o.ty),
                s(&n.ty),
                format!(
                    "type of {what} narrowed from {} to {}; old readers accept every value",
                    o.ty, n.ty
                ),
            );
        }
        _ => {
            cx.attr(
                codes::FIELD_TYPE_CHANGED,
                e,
                "type",
                s(&o.ty),
                s(&n.ty),
                format!(
                    "type of {what} changed from {} to {}; old readers may get values they do not expect",
                    o.ty, n.ty
                ),
            );
        }
    }
    cx.unit(e, what, unit_ref(o), unit_ref(n));
    let (oc, nc) = (
        o.unit.as_ref().map(|u| &u.canonical),
        n.unit.as_ref().map(|u| &u.canonical),
    );
    let (op, np) = (
        o.unit.as_ref().and_then(|u| u.as_published.as_ref()),
        n.unit.as_ref().and_then(|u| u.as_published.as_ref()),
    );
    if oc == nc && op != np {
        cx.attr(
            codes::UNIT_AS_PUBLISHED_CHANGED,
            e,
            "unit_as_published",
            json(op),
            json(np),
            format!(
                "published unit spelling of {what} changed from {} to {}",
                op.map(|s| &**s).unwrap_or("none"),
                np.map(|s| &**s).unwrap_or("none")
            ),
        );
    }
}

/// A field's field groups, concepts (under the new ids of renamed ones) and qualifiers.
fn field_membership(cx: &mut Ctx, e: &str, what: &str, o: &FieldData, n: &FieldData) {
    // Under the new ids of renamed groups and concepts (the rename is one change of its own).
    let old_groups = cx.renames.groups_of(&o.groups);
    let (rm, add) = set_diff(&old_groups, &n.groups);
    for g in rm {
        cx.item(
            codes::FIELD_GROUP_REMOVED,
            e,
            "groups",
            g,
            s(g),
            None,
            format!("{what} left group `{g}`; intents requiring `{g}` no longer project it"),
        );
    }
    for g in add {
        cx.item(
            codes::FIELD_GROUP_ADDED,
            e,
            "groups",
            g,
            None,
            s(g),
            format!("{what} joined group `{g}`"),
        );
    }
    let old_concepts = cx.renames.concepts_of(&o.concepts);
    let (rm, add) = set_diff(&old_concepts, &n.concepts);
    for c in rm {
        cx.item(
            codes::FIELD_CONCEPT_REMOVED,
            e,
            "concepts",
            c,
            s(c),
            None,
            format!("{what} no longer carries concept `{c}`; requests for `{c}` may miss it"),
        );
    }
    for c in add {
        cx.item(
            codes::FIELD_CONCEPT_ADDED,
            e,
            "concepts",
            c,
            None,
            s(c),
            format!("{what} now carries concept `{c}`"),
        );
    }
    for (k, x, y) in pairs(
        o.qualifiers.iter().map(|(k, v)| (k.as_str(), v)),
        n.qualifiers.iter().map(|(k, v)| (k.as_str(), v)),
    ) {
        if x != y {
            cx.item(
                codes::FIELD_QUALIFIER_CHANGED,
                e,
                "qualifiers",
                k,
                x.map(|v| j!({ k: v })),
                y.map(|v| j!({ k: v })),
                format!(
                    "qualifier `{k}` of {what} changed from {} to {}",
                    x.map(String::as_str).unwrap_or("none"),
                    y.map(String::as_str).unwrap_or("none")
                ),
            );
        }
    }
}

/// A field's wire encoding, whether it is required or nullable, and its missing-value marker.
fn field_values(cx: &mut Ctx, e: &str, what: &str, o: &FieldData, n: &FieldData) {
    if o.encoding != n.encoding {
        cx.attr(
            codes::FIELD_ENCODING_CHANGED,
            e,
            "encoding",
            json(&o.encoding),
            json(&n.encoding),
            format!(
                "wire encoding of {what} changed from {} to {}",
                o.encoding.as_deref().unwrap_or("its type"),
                n.encoding.as_deref().unwrap_or("its type")
            ),
        );
    }
    let req = |x: Option<bool>| x == Some(true);
    if req(o.required) != req(n.required) {
        let (code, message) = if req(o.required) {
            (
                codes::FIELD_BECAME_OPTIONAL,
                format!("{what} is no longer required: records may lack it"),
            )
        } else {
            (
                codes::FIELD_BECAME_REQUIRED,
                format!("{what} is now required in every record"),
            )
        };
        cx.attr(
            code,
            e,
            "required",
            json(o.required),
            json(n.required),
            message,
        );
    }
    if req(o.nullable) != req(n.nullable) {
        let (code, message) = if req(n.nullable) {
            (
                codes::FIELD_BECAME_NULLABLE,
                format!("{what} may now be null"),
            )
        } else {
            (
                codes::FIELD_NO_LONGER_NULLABLE,
                format!("{what} may no longer be null"),
            )
        };
        cx.attr(
            code,
            e,
            "nullable",
            json(o.nullable),
            json(n.nullable),
            message,
        );
    }
    if o.missing_value != n.missing_value {
        cx.attr(
            codes::FIELD_MISSING_VALUE_CHANGED,
            e,
            "missing_value",
            json(&o.missing_value),
            json(&n.missing_value),
            format!(
                "missing-value marker of {what} changed from {} to {}",
                o.missing_value.as_deref().unwrap_or("none"),
                n.missing_value.as_deref().unwrap_or("none")
            ),
        );
    }
}

/// The code of a source-type change, by the old effective source type: from none it is
/// `source-type-added` (dangerous: a source-constrained route may now include the tool, which it
/// left out before); from one type to another or to none it is `source-type-changed`
/// (breaking: routes constrained to the old type lose the tool or field).
fn source_type_code(old_effective: Option<&str>) -> &'static str {
    if old_effective.is_none() {
        codes::SOURCE_TYPE_ADDED
    } else {
        codes::SOURCE_TYPE_CHANGED
    }
}

#[cfg(test)]
mod tests {
    use super::super::value::set_json;
    use super::*;

    #[test]
    fn set_json_sorts() {
        let v = ["b".to_string(), "a".to_string(), "a".to_string()];
        assert_eq!(set_json(&v), Some(j!(["a", "b"])));
    }
}
