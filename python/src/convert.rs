//! Direct conversion of projected records to Python objects (the bulk of an extraction result):
//! the same dicts serde would give, with one Python string per distinct key.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use pythonize::depythonize;
use schemarouter::extract::Record;
use schemarouter::extract::prune::Keep;
use serde_json::Value;
use std::collections::HashMap;

/// Python strings for keys seen so far.
#[derive(Default)]
pub struct Keys {
    map: HashMap<String, Py<PyString>>,
}

impl Keys {
    fn get<'py>(&mut self, py: Python<'py>, k: &str) -> Bound<'py, PyString> {
        if let Some(s) = self.map.get(k) {
            return s.bind(py).clone();
        }
        let s = PyString::intern(py, k);
        self.map.insert(k.to_string(), s.clone().unbind());
        s
    }
}

fn value<'py>(py: Python<'py>, v: &Value, keys: &mut Keys) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(a) => {
            let items = a
                .iter()
                .map(|x| value(py, x, keys))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any()
        }
        Value::Object(m) => {
            let d = PyDict::new(py);
            for (k, x) in m {
                d.set_item(keys.get(py, k), value(py, x, keys)?)?;
            }
            d.into_any()
        }
    })
}

fn map<'py>(
    py: Python<'py>,
    m: &std::collections::BTreeMap<String, Value>,
    keys: &mut Keys,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in m {
        d.set_item(keys.get(py, k), value(py, v, keys)?)?;
    }
    Ok(d)
}

/// `[{"at": ..., "values": {...}, "canonical": {...}}]` (`canonical` only when not empty).
pub fn records<'py>(
    py: Python<'py>,
    recs: &[Record],
    keys: &mut Keys,
) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for r in recs {
        let d = PyDict::new(py);
        d.set_item(pyo3::intern!(py, "at"), &r.at)?;
        d.set_item(pyo3::intern!(py, "values"), map(py, &r.values, keys)?)?;
        if !r.canonical.is_empty() {
            d.set_item(pyo3::intern!(py, "canonical"), map(py, &r.canonical, keys)?)?;
        }
        out.append(d)?;
    }
    Ok(out)
}

/// A Python response (dicts, lists, scalars) as JSON, converting only what `keep` names (the
/// same pruning as for JSON text).
pub fn pruned(obj: &Bound<'_, PyAny>, keep: &Keep) -> Result<Value, pythonize::PythonizeError> {
    if keep.keeps_all() {
        return depythonize(obj);
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut out = serde_json::Map::new();
        for (k, v) in d.iter() {
            let Ok(ks) = k.cast::<PyString>() else {
                // Not a JSON object key: convert the whole dict to get serde's error.
                return depythonize(obj);
            };
            let key = ks.to_cow().map_err(pythonize::PythonizeError::from)?;
            if let Some(child) = keep.child(&key) {
                out.insert(key.into_owned(), pruned(&v, &child)?);
            }
        }
        return Ok(Value::Object(out));
    }
    if let Ok(l) = obj.cast::<PyList>() {
        return l
            .iter()
            .map(|x| pruned(&x, keep))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array);
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        return t
            .iter()
            .map(|x| pruned(&x, keep))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array);
    }
    depythonize(obj)
}

/// The deepest nesting of dicts, lists and tuples accepted in data passed in from Python: the
/// same limit JSON text has (serde_json's 128 levels). Converting deeper data would recurse
/// until the thread's stack overflows.
pub const MAX_DEPTH: usize = 128;

/// `Err` with the words for data that nests dicts, lists and tuples deeper than [`MAX_DEPTH`]
/// (`what` names it: `plan`, `response 1`), checked before the data is converted.
pub fn depth_ok(obj: &Bound<'_, PyAny>, what: &str) -> Result<(), String> {
    if too_deep(obj) {
        Err(format!(
            "{what}: nests deeper than {MAX_DEPTH} levels of dicts and lists"
        ))
    } else {
        Ok(())
    }
}

/// Whether `obj` nests dicts, lists and tuples deeper than [`MAX_DEPTH`], checked without
/// recursion (an explicit stack, so that the check itself cannot overflow).
fn too_deep(obj: &Bound<'_, PyAny>) -> bool {
    let mut stack: Vec<(Bound<'_, PyAny>, usize)> = vec![(obj.clone(), 1)];
    while let Some((o, depth)) = stack.pop() {
        let children: Vec<Bound<'_, PyAny>> = if let Ok(d) = o.cast::<PyDict>() {
            d.values().iter().collect()
        } else if let Ok(l) = o.cast::<PyList>() {
            l.iter().collect()
        } else if let Ok(t) = o.cast::<PyTuple>() {
            t.iter().collect()
        } else {
            continue;
        };
        if children.is_empty() {
            continue;
        }
        if depth >= MAX_DEPTH {
            return true;
        }
        stack.extend(children.into_iter().map(|c| (c, depth + 1)));
    }
    false
}
