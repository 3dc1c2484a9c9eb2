//! Tidy tests, in the spirit of rust-analyzer's: structural rules of the code base checked on its
//! source text with a real Rust parser (`syn`), so that they are enforced, not only described.
//!
//! - `no_function_over_200_lines`: every `fn` (free, in an `impl`, a trait's default body, nested,
//!   in a test module) in `src/`, `crates/*/src`, `python/src` and `tests/` is at most
//!   [`MAX_FN_LINES`] lines, counted over the function's span from `fn` to its closing brace
//!   (attributes and doc comments not counted).

use std::path::{Path, PathBuf};

use syn::spanned::Spanned;
use syn::visit::Visit;

/// The longest a function may be, in lines (`conventions.md`: "No function over 200 lines").
const MAX_FN_LINES: usize = 200;

/// Functions allowed over the limit, as `(file, function)`. Exactly one entry, owned by the
/// routing work: Algorithm 1's `route` is being split into named passes in
/// `crates/core/src/route/` by the integrator, who removes this entry when that lands.
const LONG_FN_ALLOWED: &[(&str, &str)] = &[("crates/core/src/route/algorithm.rs", "route")];

/// The repository root (this package's manifest folder).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, sorted, with paths relative to the repository root.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The source folders the rules apply to: `src/`, each `crates/*/src`, `python/src`, `tests/`.
fn source_files() -> Vec<PathBuf> {
    let root = root();
    let mut dirs = vec![
        root.join("src"),
        root.join("python/src"),
        root.join("tests"),
    ];
    let mut crates: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .expect("crates/ is readable")
        .filter_map(|e| e.ok().map(|e| e.path().join("src")))
        .filter(|p| p.is_dir())
        .collect();
    crates.sort();
    dirs.extend(crates);
    let mut files = Vec::new();
    for dir in &dirs {
        rust_files(dir, &mut files);
    }
    files
}

/// `path` relative to the repository root, with `/` separators.
fn relative(path: &Path) -> String {
    let rel = path.strip_prefix(root()).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// One function found by [`FnLengths`]: its name, first line and length in lines.
struct FnSpan {
    name: String,
    line: usize,
    lines: usize,
}

/// Collects every function's span in a file, nested ones included.
#[derive(Default)]
struct FnLengths {
    found: Vec<FnSpan>,
}

impl FnLengths {
    /// Records a function from its `fn` keyword to the end of its body.
    fn record(&mut self, name: &syn::Ident, fn_token: &syn::token::Fn, block: &syn::Block) {
        let start = fn_token.span().start().line;
        let end = block.brace_token.span.close().end().line;
        self.found.push(FnSpan {
            name: name.to_string(),
            line: start,
            lines: end + 1 - start,
        });
    }
}

impl<'ast> Visit<'ast> for FnLengths {
    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        self.record(&item.sig.ident, &item.sig.fn_token, &item.block);
        syn::visit::visit_item_fn(self, item);
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        self.record(&item.sig.ident, &item.sig.fn_token, &item.block);
        syn::visit::visit_impl_item_fn(self, item);
    }

    fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
        if let Some(block) = &item.default {
            self.record(&item.sig.ident, &item.sig.fn_token, block);
        }
        syn::visit::visit_trait_item_fn(self, item);
    }
}

/// Parses one file, failing the test with its path when it is not valid Rust.
fn parse(path: &Path) -> syn::File {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: cannot read: {e}", relative(path)));
    syn::parse_file(&text).unwrap_or_else(|e| {
        let at = e.span().start();
        panic!(
            "{}:{}:{}: not parsed by syn: {e}",
            relative(path),
            at.line,
            at.column + 1
        )
    })
}

#[test]
fn no_function_over_200_lines() {
    let mut long = Vec::new();
    let mut allowed_seen = Vec::new();
    for path in source_files() {
        let file = relative(&path);
        let mut lengths = FnLengths::default();
        lengths.visit_file(&parse(&path));
        for f in lengths.found {
            if f.lines <= MAX_FN_LINES {
                continue;
            }
            if LONG_FN_ALLOWED.contains(&(file.as_str(), f.name.as_str())) {
                allowed_seen.push((file.clone(), f.name));
                continue;
            }
            long.push(format!(
                "{file}:{}: fn `{}` is {} lines (at most {MAX_FN_LINES}); split it into named passes",
                f.line, f.name, f.lines
            ));
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_FN_LINES} lines:\n{}",
        long.join("\n")
    );
    for (file, name) in LONG_FN_ALLOWED {
        assert!(
            allowed_seen.iter().any(|(f, n)| f == file && n == name),
            "{file}: fn `{name}` is allowed over {MAX_FN_LINES} lines but is no longer over it \
             (or is gone): remove it from LONG_FN_ALLOWED"
        );
    }
}
