//! Tidy tests, in the spirit of rust-analyzer's: structural rules of the code base checked on its
//! source text with a real Rust parser (`syn`), so that they are enforced, not only described.
//!
//! - `no_function_over_200_lines`: every `fn` (free, in an `impl`, a trait's default body, nested,
//!   in a test module) in `src/`, `crates/*/src`, `python/src` and `tests/` is at most
//!   [`MAX_FN_LINES`] lines, counted over the function's span from `fn` to its closing brace
//!   (attributes and doc comments not counted).
//! - `modules_respect_the_architecture_layers`: every path a module's shipped code names
//!   (`use crate::X`, `crate::X::...`, `super::...` resolved, `schemarouter_core::X`, ...) is
//!   checked against the "must not depend on" column of ARCHITECTURE.md's code map, read from
//!   the file itself; a forbidden edge fails with file:line, the path and the edge.

use std::path::{Path, PathBuf};

use syn::spanned::Spanned;
use syn::visit::Visit;

/// The longest a function may be, in lines (`conventions.md`: "No function over 200 lines").
const MAX_FN_LINES: usize = 200;

/// Functions allowed over the limit, as `(file, function)`: none.
const LONG_FN_ALLOWED: &[(&str, &str)] = &[];

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

/// Whether an item is compiled only for tests (`#[cfg(test)]`, `#[test]`): tests beside the code
/// may build their inputs with any layer (as a crate's dev-dependencies may), so the layers are
/// checked on the code that ships.
fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("test")
            || (a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test"))
    })
}

/// One row of ARCHITECTURE.md's code map: the modules it names and the modules they must not
/// depend on.
struct Layer {
    modules: Vec<String>,
    forbidden: Vec<String>,
}

/// The code map's modules in the order the table lists them (the order data flows in).
fn layers() -> Vec<Layer> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let table = text
        .split("## Code map")
        .nth(1)
        .expect("ARCHITECTURE.md has a `## Code map` section");
    let rows: Vec<Vec<&str>> = table
        .lines()
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with('|'))
        .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
        .filter(|cells: &Vec<&str>| cells.len() == 3)
        .skip(2) // the header and the separator
        .collect();
    assert!(!rows.is_empty(), "ARCHITECTURE.md's code map has no rows");
    // Module names: the backticked words of the first cell (`python/` is the Python binding).
    let names = |cell: &str| -> Vec<String> {
        cell.split('`')
            .skip(1)
            .step_by(2)
            .map(|m| m.trim_end_matches('/').to_string())
            .filter(|m| !m.contains(' ') && !m.contains('-'))
            .collect()
    };
    let order: Vec<String> = rows.iter().flat_map(|r| names(r[0])).collect();
    rows.iter()
        .map(|r| {
            let modules = names(r[0]);
            // Notes in parentheses are explanations, not modules.
            let column = r[2].split('(').next().unwrap_or("").trim();
            let mut forbidden: Vec<String> = Vec::new();
            if column == "anything else" {
                forbidden = order.iter().filter(|m| !modules.contains(m)).cloned().collect();
            } else {
                let words: Vec<&str> = column.split(',').map(str::trim).collect();
                for w in &words {
                    match *w {
                        "" | "—" => {}
                        // "...": and every module the table lists after the last one named.
                        "..." => {
                            let last = forbidden.last().expect("`...` follows a module");
                            let at = order.iter().position(|m| m == last).expect("a module");
                            forbidden.extend(order[at + 1..].iter().cloned());
                        }
                        // "lint rules": the lint module, where the rules live.
                        w => {
                            let m = w.split(' ').next().unwrap_or(w).to_string();
                            assert!(
                                order.contains(&m),
                                "ARCHITECTURE.md: `{w}` in the \"must not depend on\" column of {:?} is no module of the code map",
                                modules
                            );
                            forbidden.push(m);
                        }
                    }
                }
            }
            forbidden.retain(|m| !modules.contains(m));
            Layer { modules, forbidden }
        })
        .collect()
}

/// The code map's module a source file belongs to: the first folder (or file) under `src/` of
/// the root and core crates; `serve`, `gateway` and `python` for those crates. `None` for the
/// crate roots.
fn module_of(file: &str) -> Option<(String, Vec<String>)> {
    let (module, rest) = if let Some(r) = file.strip_prefix("crates/core/src/") {
        let mut parts = r.splitn(2, '/');
        let first = parts.next()?.trim_end_matches(".rs").to_string();
        (first.clone(), Some((first, parts.next())))
    } else if let Some(r) = file.strip_prefix("src/") {
        let mut parts = r.splitn(2, '/');
        let first = parts.next()?.trim_end_matches(".rs").to_string();
        (first.clone(), Some((first, parts.next())))
    } else if file.starts_with("crates/server/src/") {
        ("serve".to_string(), None)
    } else if file.starts_with("crates/gateway/src/") {
        ("gateway".to_string(), None)
    } else if file.starts_with("python/src/") {
        ("python".to_string(), None)
    } else {
        return None;
    };
    if matches!(module.as_str(), "lib" | "main") {
        return None;
    }
    // The file's module path inside its crate (for `super::`).
    let path = match rest {
        Some((first, tail)) => {
            let mut p = vec![first];
            if let Some(tail) = tail {
                let tail = tail.trim_end_matches(".rs");
                p.extend(tail.split('/').map(str::to_string));
                if p.last().is_some_and(|l| l == "mod") {
                    p.pop();
                }
            }
            p
        }
        None => Vec::new(),
    };
    Some((module, path))
}

/// The first code-map module a path names, resolved from `crate::`, `super::` or one of our
/// crates' names. `own` is the file's module path (inline `mod`s included).
fn named_module(segments: &[String], own: &[String], in_core_or_root: bool) -> Option<String> {
    let first = segments.first()?;
    match first.as_str() {
        "crate" if in_core_or_root => segments.get(1).cloned(),
        "super" if in_core_or_root => {
            let ups = segments.iter().take_while(|s| *s == "super").count();
            let mut at: Vec<String> = own[..own.len().saturating_sub(ups)].to_vec();
            at.extend(segments[ups..].iter().cloned());
            at.first().cloned()
        }
        "schemarouter_core" | "schemarouter" => segments.get(1).cloned(),
        "schemarouter_server" => Some("serve".to_string()),
        "schemarouter_gateway" => Some("gateway".to_string()),
        _ => None,
    }
}

/// Collects the paths of a file (in `use` trees and in code) with the modules they name.
struct Uses<'a> {
    own: Vec<String>,
    in_core_or_root: bool,
    known: &'a [String],
    found: Vec<(usize, String, String)>,
}

impl Uses<'_> {
    fn check(&mut self, segments: Vec<String>, line: usize) {
        if let Some(m) = named_module(&segments, &self.own, self.in_core_or_root)
            && self.known.contains(&m)
        {
            self.found.push((line, m, segments.join("::")));
        }
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let mut full = prefix.clone();
                full.push(n.ident.to_string());
                self.check(full, n.ident.span().start().line);
            }
            syn::UseTree::Rename(r) => {
                let mut full = prefix.clone();
                full.push(r.ident.to_string());
                self.check(full, r.ident.span().start().line);
            }
            syn::UseTree::Glob(g) => {
                self.check(prefix.clone(), g.star_token.span().start().line);
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix, t);
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for Uses<'_> {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        if !is_cfg_test(&item.attrs) {
            self.use_tree(&mut Vec::new(), &item.tree);
        }
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        if !is_cfg_test(&item.attrs) {
            syn::visit::visit_item_fn(self, item);
        }
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if is_cfg_test(&item.attrs) {
            return;
        }
        if item.content.is_some() {
            self.own.push(item.ident.to_string());
            syn::visit::visit_item_mod(self, item);
            self.own.pop();
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if segments.len() > 1 {
            self.check(segments, path.span().start().line);
        }
        syn::visit::visit_path(self, path);
    }
}

#[test]
fn modules_respect_the_architecture_layers() {
    let layers = layers();
    let known: Vec<String> = layers.iter().flat_map(|l| l.modules.clone()).collect();
    let mut broken = Vec::new();
    let mut checked = 0;
    for path in source_files() {
        let file = relative(&path);
        let Some((module, own)) = module_of(&file) else {
            continue;
        };
        let Some(layer) = layers.iter().find(|l| l.modules.contains(&module)) else {
            continue;
        };
        checked += 1;
        let mut uses = Uses {
            own,
            in_core_or_root: file.starts_with("src/") || file.starts_with("crates/core/src/"),
            known: &known,
            found: Vec::new(),
        };
        uses.visit_file(&parse(&path));
        for (line, m, p) in uses.found {
            if layer.forbidden.contains(&m) {
                broken.push(format!(
                    "{file}:{line}: `{p}`: module `{module}` must not depend on `{m}` (ARCHITECTURE.md, code map)"
                ));
            }
        }
    }
    assert!(checked > 100, "only {checked} files were checked");
    broken.sort();
    broken.dedup();
    assert!(
        broken.is_empty(),
        "{} forbidden dependencies:\n{}",
        broken.len(),
        broken.join("\n")
    );
}

/// Collects the string literals that look like a rule code (`SR101`) outside test code.
struct CodeLiterals {
    found: Vec<(usize, String)>,
}

impl<'ast> Visit<'ast> for CodeLiterals {
    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        if !is_cfg_test(&item.attrs) {
            syn::visit::visit_item_fn(self, item);
        }
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if !is_cfg_test(&item.attrs) {
            syn::visit::visit_item_mod(self, item);
        }
    }

    fn visit_lit_str(&mut self, lit: &'ast syn::LitStr) {
        let v = lit.value();
        let b = v.as_bytes();
        if b.len() == 5 && v.starts_with("SR") && b[2..].iter().all(u8::is_ascii_digit) {
            self.found.push((lit.span().start().line, v));
        }
    }
}

#[test]
fn every_rule_code_is_a_row_of_the_one_table() {
    let table: Vec<&str> = schemarouter::diagnostics::codes::RULES
        .iter()
        .map(|e| e.code)
        .collect();
    let mut sorted = table.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(
        sorted, table,
        "the table lists each code once, in code order"
    );
    let mut strays = Vec::new();
    for path in source_files() {
        let file = relative(&path);
        if file == "src/diagnostics/codes.rs" || file.starts_with("tests/") {
            continue;
        }
        let mut v = CodeLiterals { found: Vec::new() };
        v.visit_file(&parse(&path));
        for (line, code) in v.found {
            if !table.contains(&code.as_str()) {
                strays.push(format!(
                    "{file}:{line}: `{code}` is no row of src/diagnostics/codes.rs; add the rule there"
                ));
            }
        }
    }
    assert!(strays.is_empty(), "{}", strays.join("\n"));
}

/// Collects calls of serde-saphyr's readers (`serde_saphyr::from_*`) outside test code.
struct SaphyrReads {
    found: Vec<usize>,
}

impl<'ast> Visit<'ast> for SaphyrReads {
    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        if !is_cfg_test(&item.attrs) {
            syn::visit::visit_item_fn(self, item);
        }
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if !is_cfg_test(&item.attrs) {
            syn::visit::visit_item_mod(self, item);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let s: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if s.len() >= 2 && s[0] == "serde_saphyr" && s[1].starts_with("from") {
            self.found.push(path.span().start().line);
        }
        syn::visit::visit_path(self, path);
    }
}

/// One YAML front end in production: the loader's (granit-parser events into the spanned tree,
/// read by the strict tree reader). serde-saphyr only writes YAML (`import::emit`) and is the
/// reference the loader is tested against.
#[test]
fn shipped_code_reads_yaml_only_through_the_loaders_front_end() {
    let mut found = Vec::new();
    for path in source_files() {
        let file = relative(&path);
        if file.starts_with("tests/") || is_test_module_file(&path) {
            continue;
        }
        let mut v = SaphyrReads { found: Vec::new() };
        v.visit_file(&parse(&path));
        found.extend(v.found.into_iter().map(|l| {
            format!("{file}:{l}: reads YAML with serde-saphyr; use load::yaml::parse and load::de::from_node")
        }));
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// Whether `path` (`dir/name.rs`) is a module its parent declares under `#[cfg(test)]`.
fn is_test_module_file(path: &Path) -> bool {
    let (Some(dir), Some(name)) = (path.parent(), path.file_stem().and_then(|n| n.to_str())) else {
        return false;
    };
    ["mod.rs", "lib.rs"].iter().any(|parent| {
        std::fs::read_to_string(dir.join(parent))
            .is_ok_and(|t| t.contains(&format!("#[cfg(test)]\nmod {name};")))
    })
}
