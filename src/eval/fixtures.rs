//! Deterministic fixture values for every response field, and the retrieved context a reader
//! LLM would get from a plan (paper: downstream-proxy cost in tokens).
//!
//! A field's value depends only on the seed and the field's `tool/endpoint/name` path (a keyed
//! [`SplitMix64`] stream), so it is the same in every plan and on every platform. Values follow
//! the declared type; numbers take a magnitude from the unit's dimension (band gaps of a few
//! eV, moduli of tens to hundreds of GPa, ...) and are printed with four significant digits;
//! strings follow the field name (DOIs, URLs, titles, abstracts, formulas, names) and otherwise
//! are one to three words.

use super::metrics::PlanStep;
use crate::artifact::{FieldData, FrozenGraph};
use crate::prompt::count_tokens;
use crate::synth::rng::SplitMix64;
use std::fmt::Write as _;

const WORDS: &[&str] = &[
    "phase",
    "stable",
    "crystal",
    "sample",
    "measured",
    "energy",
    "thin",
    "film",
    "oxide",
    "layer",
    "structure",
    "surface",
    "bulk",
    "model",
    "data",
    "high",
    "low",
    "temperature",
    "pressure",
    "electronic",
    "transport",
    "magnetic",
    "defect",
    "interface",
    "battery",
    "cathode",
    "anode",
    "electrolyte",
    "catalyst",
    "polymer",
    "alloy",
    "grain",
    "boundary",
    "strain",
    "doping",
    "band",
    "gap",
    "carrier",
    "mobility",
    "spectrum",
    "optical",
    "thermal",
    "conductivity",
    "synthesis",
    "growth",
    "deposition",
    "annealing",
    "diffraction",
    "refinement",
    "method",
    "analysis",
    "approach",
    "learning",
    "network",
    "prediction",
    "screening",
    "database",
    "design",
    "performance",
    "efficiency",
    "stability",
    "degradation",
    "mechanism",
    "kinetics",
    "reaction",
    "solution",
    "solid",
    "liquid",
    "porous",
    "composite",
    "nanoparticle",
    "ceramic",
    "glass",
    "metal",
    "semiconductor",
    "insulator",
    "perovskite",
    "spinel",
    "lithium",
    "sodium",
    "silicon",
    "carbon",
    "nitride",
    "sulfide",
    "halide",
    "hydride",
    "organic",
    "molecular",
    "quantum",
    "topological",
    "ferroelectric",
    "piezoelectric",
    "elastic",
    "modulus",
    "hardness",
];

const ELEMENTS: &[&str] = &[
    "Li", "Na", "K", "Mg", "Ca", "Ti", "V", "Cr", "Mn", "Fe", "Co", "Ni", "Cu", "Zn", "Ga", "Al",
    "Si", "O", "S", "N", "C", "P", "Se", "Te", "Sr", "Ba", "La", "Zr", "Nb", "Mo", "W", "Bi",
];

fn words(r: &mut SplitMix64, n: usize) -> String {
    (0..n).map(|_| *r.pick(WORDS)).collect::<Vec<_>>().join(" ")
}

fn alnum(r: &mut SplitMix64, n: usize) -> String {
    const A: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    (0..n).map(|_| A[r.below(A.len())] as char).collect()
}

/// Four significant digits, plain notation for moderate magnitudes.
fn sig4(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    let mag = x.abs().log10().floor() as i32;
    if !(-4..6).contains(&mag) {
        return format!("{x:.3e}");
    }
    let decimals = (3 - mag).max(0) as usize;
    format!("{x:.decimals$}")
}

/// Typical (low, high) magnitude of a quantity by its dimension (human form) and unit.
fn range_for(f: &FieldData) -> (f64, f64) {
    let Some(u) = &f.unit else {
        return (0.0, 1000.0);
    };
    let dim: &str = &u.dimension;
    let canonical: &str = &u.canonical;
    match canonical {
        "eV" | "meV" if dim == "energy" => (0.0, 8.0),
        "eV/atom" => (-4.0, 1.0),
        "GPa" => (5.0, 400.0),
        "MPa" => (50.0, 2000.0),
        "K" => (50.0, 2000.0),
        "Å" => (2.0, 15.0),
        "Å^3" => (20.0, 2000.0),
        "g/cm^3" => (0.8, 20.0),
        "1" | "%" => (0.0, 1.0),
        "μB" | "μB/cell" => (0.0, 10.0),
        _ => match dim {
            "energy" => (0.0, 10.0),
            "pressure" => (1.0, 1000.0),
            "length" => (0.5, 500.0),
            "temperature" => (50.0, 2000.0),
            "angle" => (0.0, 180.0),
            _ => (0.01, 1000.0),
        },
    }
}

fn formula(r: &mut SplitMix64) -> String {
    let n = 1 + r.below(3);
    (0..n)
        .map(|_| {
            let c = 1 + r.below(4);
            let e = *r.pick(ELEMENTS);
            if c == 1 {
                e.to_string()
            } else {
                format!("{e}{c}")
            }
        })
        .collect()
}

fn scalar(r: &mut SplitMix64, ty: &str, f: &FieldData, tool: &str) -> String {
    let name = f.name.to_ascii_lowercase();
    if f.identifier {
        let prefix: String = tool
            .chars()
            .filter(|c| c.is_ascii_alphabetic())
            .take(3)
            .collect();
        return format!("{prefix}-{}", 1000 + r.below(9_000_000));
    }
    match ty {
        "integer" => {
            if name.contains("year") {
                (1995 + r.below(30)).to_string()
            } else {
                r.range(0, 500).to_string()
            }
        }
        "number" => {
            let (lo, hi) = range_for(f);
            sig4(lo + (hi - lo) * r.unit())
        }
        "boolean" => r.chance(0.5).to_string(),
        "date" => format!(
            "{}-{:02}-{:02}",
            1995 + r.below(30),
            1 + r.below(12),
            1 + r.below(28)
        ),
        "datetime" => format!(
            "{}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
            2000 + r.below(25),
            1 + r.below(12),
            1 + r.below(28),
            r.below(24),
            r.below(60),
            r.below(60)
        ),
        "object" => format!("{{\"{}\": {}}}", *r.pick(WORDS), sig4(r.unit() * 100.0)),
        _ => {
            if name.contains("doi") {
                format!("10.{}/{}", 1000 + r.below(9000), alnum(r, 8))
            } else if name.contains("url") || name.contains("link") || name.contains("href") {
                format!(
                    "https://{}.example.org/r/{}",
                    tool.replace('_', "-"),
                    alnum(r, 8)
                )
            } else if name.contains("abstract")
                || name.contains("summary")
                || name.contains("body")
                || name.contains("snippet")
                || name.contains("description")
            {
                let n = 40 + r.below(40);
                words(r, n)
            } else if name.contains("title") {
                let n = 8 + r.below(7);
                words(r, n)
            } else if name.contains("formula") || name.contains("composition") {
                formula(r)
            } else if name.contains("author") || name.contains("name") {
                {
                    let (a, b) = (*r.pick::<&str>(WORDS), *r.pick::<&str>(WORDS));
                    format!("{} {}", capital(a), capital(b))
                }
            } else if name.contains("date") {
                format!(
                    "{}-{:02}-{:02}",
                    1995 + r.below(30),
                    1 + r.below(12),
                    1 + r.below(28)
                )
            } else {
                let n = 1 + r.below(3);
                words(r, n)
            }
        }
    }
}

fn capital(w: &str) -> String {
    let mut c = w.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// The fixture value of a field (same seed and path, same value).
pub fn value(seed: u64, tool: &str, endpoint: &str, f: &FieldData) -> String {
    let mut r = SplitMix64::keyed(seed, &format!("{tool}/{endpoint}/{}", f.name));
    match f.ty.strip_suffix("[]") {
        Some(inner) => {
            let items: Vec<String> = (0..3).map(|_| scalar(&mut r, inner, f, tool)).collect();
            format!("[{}]", items.join(", "))
        }
        None => scalar(&mut r, &f.ty, f, tool),
    }
}

/// The retrieval a reader LLM would get from these steps: per step a `[tool/endpoint]` line,
/// then `name=value` for each planned field the endpoint declares, `name.unit=` when the plan
/// carries a unit (other than `1`), and the step's `source_type=`, `licence=`, `attribution=`
/// and `provenance=` lines when the plan carries them (a field whose source type or licence
/// differs from the step's first gets its own `name.source_type=` / `name.licence=` line).
/// Steps on undeclared tools and undeclared fields return nothing.
pub fn render_context(g: &FrozenGraph, steps: &[PlanStep], seed: u64) -> String {
    let mut out = String::new();
    for s in steps {
        let Some(ep) = super::metrics::endpoint(g, &s.tool, &s.endpoint) else {
            continue;
        };
        let _ = writeln!(out, "[{}/{}]", s.tool, s.endpoint);
        let mut step_source: Option<&str> = None;
        let mut step_licence: Option<&crate::artifact::LicenceData> = None;
        let mut provenance: Option<&crate::artifact::ProvenanceData> = None;
        let mut extra = String::new();
        for pf in &s.fields {
            let Some(fd) = ep.fields.iter().find(|f| f.name == pf.name) else {
                continue;
            };
            let _ = writeln!(out, "{}={}", fd.name, value(seed, &s.tool, &s.endpoint, fd));
            let Some(m) = &pf.meta else { continue };
            if let Some(u) = m.unit.as_deref().filter(|u| *u != "1") {
                let _ = writeln!(out, "{}.unit={u}", fd.name);
            }
            if let Some(st) = m.source_type.as_deref() {
                match step_source {
                    None => step_source = Some(st),
                    Some(first) if first != st => {
                        let _ = writeln!(extra, "{}.source_type={st}", fd.name);
                    }
                    _ => {}
                }
            }
            if let Some(l) = &m.licence {
                match step_licence {
                    None => step_licence = Some(l),
                    Some(first) if first.spdx != l.spdx => {
                        let _ = writeln!(extra, "{}.licence={}", fd.name, l.spdx);
                    }
                    _ => {}
                }
            }
            if provenance.is_none() {
                provenance = m.provenance.as_deref();
            }
        }
        if let Some(st) = step_source {
            let _ = writeln!(out, "source_type={st}");
        }
        if let Some(l) = step_licence {
            let _ = writeln!(out, "licence={}", l.spdx);
            if let Some(a) = &l.attribution {
                let _ = writeln!(out, "attribution={a}");
            }
        }
        if let Some(p) = provenance {
            let parts: Vec<&str> = [p.publisher.as_deref(), p.citation.as_deref()]
                .into_iter()
                .flatten()
                .collect();
            if !parts.is_empty() {
                let _ = writeln!(out, "provenance={}", parts.join("; "));
            }
        }
        out.push_str(&extra);
    }
    out
}

/// o200k_base tokens of [`render_context`].
pub fn context_tokens(g: &FrozenGraph, steps: &[PlanStep], seed: u64) -> usize {
    let text = render_context(g, steps, seed);
    if text.is_empty() {
        0
    } else {
        count_tokens(&text)
    }
}

/// The fixture value of a field as JSON (the same draws as [`value`]: numbers, integers and
/// booleans typed, everything else a string; arrays of three).
pub fn json_value(seed: u64, tool: &str, endpoint: &str, f: &FieldData) -> serde_json::Value {
    let mut r = SplitMix64::keyed(seed, &format!("{tool}/{endpoint}/{}", f.name));
    let typed = |s: String, ty: &str| -> serde_json::Value {
        let parsed = match ty {
            "integer" | "number" if !f.identifier => serde_json::from_str(&s).ok(),
            "boolean" => serde_json::from_str(&s).ok(),
            _ => None,
        };
        parsed.unwrap_or(serde_json::Value::String(s))
    };
    match f.ty.strip_suffix("[]") {
        Some(inner) => serde_json::Value::Array(
            (0..3)
                .map(|_| typed(scalar(&mut r, inner, f, tool), inner))
                .collect(),
        ),
        None => typed(scalar(&mut r, &f.ty, f, tool), &f.ty),
    }
}

/// A response of `tool/endpoint` holding one record with the fixture values of `fields`, at
/// their declared paths, under the endpoint's records path: what [`render_context`] assumes
/// the provider answered.
pub fn response(
    g: &FrozenGraph,
    tool: &str,
    endpoint: &str,
    fields: &[&str],
    seed: u64,
) -> serde_json::Value {
    use serde_json::{Map, Value};
    let Some(ep) = super::metrics::endpoint(g, tool, endpoint) else {
        return Value::Null;
    };
    let mut record = Value::Object(Map::new());
    for name in fields {
        let Some(fd) = ep.fields.iter().find(|f| f.name == *name) else {
            continue;
        };
        let Ok(segs) = crate::extract::path::parse(&fd.name, false) else {
            continue;
        };
        place(&mut record, &segs, json_value(seed, tool, endpoint, fd));
    }
    let segs = crate::extract::records::parse_records(ep.records.as_deref()).unwrap_or_default();
    wrap(record, &segs)
}

/// Put `v` at `segs` inside `at`, one element per `[]` (shared with earlier fields).
fn place(at: &mut serde_json::Value, segs: &[crate::extract::path::Seg], v: serde_json::Value) {
    use serde_json::{Map, Value};
    let Some((seg, rest)) = segs.split_first() else {
        *at = v;
        return;
    };
    let mut cur = at;
    if !seg.key.is_empty() {
        let Value::Object(m) = cur else { return };
        cur = m.entry(seg.key.clone()).or_insert_with(|| {
            if seg.arrays > 0 || !rest.is_empty() {
                Value::Null
            } else {
                Value::Object(Map::new())
            }
        });
    }
    for _ in 0..seg.arrays {
        if !cur.is_array() {
            *cur = Value::Array(vec![Value::Null]);
        }
        let Value::Array(a) = cur else { return };
        cur = &mut a[0];
    }
    if rest.is_empty() {
        *cur = v;
    } else {
        if !cur.is_object() {
            *cur = Value::Object(Map::new());
        }
        place(cur, rest, v);
    }
}

/// Wrap a record in its records path (`data[]` -> `{"data": [record]}`).
fn wrap(record: serde_json::Value, segs: &[crate::extract::path::Seg]) -> serde_json::Value {
    use serde_json::{Map, Value};
    let mut v = record;
    for seg in segs.iter().rev() {
        if seg.members {
            let mut m = Map::new();
            m.insert("1".into(), v);
            v = Value::Object(m);
        }
        for _ in 0..seg.arrays {
            v = Value::Array(vec![v]);
        }
        if !seg.key.is_empty() {
            let mut m = Map::new();
            m.insert(seg.key.clone(), v);
            v = Value::Object(m);
        }
    }
    v
}
