//! The exception hierarchy: `SchemaRouterError` and one subclass per failure family, each
//! instance carrying `message`, `file`, `line` and `column` (None when not about a file).

use pyo3::prelude::*;
use pyo3::{PyTypeInfo, create_exception};

create_exception!(
    schemarouter_rs,
    SchemaRouterError,
    pyo3::exceptions::PyException,
    "Base class of every schemarouter error; carries message, file, line and column."
);
create_exception!(
    schemarouter_rs,
    LoadError,
    SchemaRouterError,
    "A file or project could not be read, or a compile could not write its output."
);
create_exception!(
    schemarouter_rs,
    ArtifactError,
    SchemaRouterError,
    "A file is not a valid artifact (malformed, newer format, or its content hash does not match)."
);
create_exception!(
    schemarouter_rs,
    RouteError,
    SchemaRouterError,
    "Bad routing input: an invalid Understanding, projection or k."
);
create_exception!(
    schemarouter_rs,
    ExtractError,
    SchemaRouterError,
    "Projection could not run: a malformed plan or response, or responses that do not match the plan's steps."
);
create_exception!(
    schemarouter_rs,
    CompileError,
    SchemaRouterError,
    "The project has errors; `diagnostics` lists them."
);

/// A new exception of type `T` with its attributes set.
pub fn new<T: PyTypeInfo>(
    message: String,
    file: Option<String>,
    line: Option<usize>,
    column: Option<usize>,
) -> PyErr {
    Python::attach(|py| {
        let shown = match (&file, line, column) {
            (Some(f), Some(l), Some(c)) => format!("{f}:{l}:{c}: {message}"),
            (Some(f), _, _) if !message.starts_with(f.as_str()) => format!("{f}: {message}"),
            _ => message.clone(),
        };
        let make = || -> PyResult<PyErr> {
            let value = T::type_object(py).call1((shown,))?;
            value.setattr("message", &message)?;
            value.setattr("file", file.clone())?;
            value.setattr("line", line)?;
            value.setattr("column", column)?;
            Ok(PyErr::from_value(value))
        };
        make().unwrap_or_else(|e| e)
    })
}

/// An `ExtractError` from the core's error.
pub fn extract(e: schemarouter::extract::ExtractError) -> PyErr {
    new::<ExtractError>(e.message, e.file, e.line, e.column)
}

/// Add the exception types to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("SchemaRouterError", py.get_type::<SchemaRouterError>())?;
    m.add("LoadError", py.get_type::<LoadError>())?;
    m.add("ArtifactError", py.get_type::<ArtifactError>())?;
    m.add("RouteError", py.get_type::<RouteError>())?;
    m.add("ExtractError", py.get_type::<ExtractError>())?;
    m.add("CompileError", py.get_type::<CompileError>())?;
    Ok(())
}
