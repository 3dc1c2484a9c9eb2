//! File paths as the renderers print them.
//!
//! The loader names every file relative to the project root (`schemas/mp.yaml`). When the
//! project is checked from another folder (`schemarouter check path/to/project`, as CI runs it
//! from the repository root), the name alone no longer leads to the file, so the command line
//! puts a prefix in front of every name ([`crate::source::SourceMap::prefix_names`]):
//!
//! - [`typed_prefix`], for the human and concise formats: the project path as the user typed
//!   it (`path/to/project/`), so the paths can be pasted into the same shell;
//! - [`cwd_prefix`], for the CI formats (SARIF, GitHub annotations, GitLab Code Quality, JUnit):
//!   the project's path relative to the current folder (the repository root in CI), with `/`
//!   separators, or its absolute path when the project does not lie under the current folder.
//!
//! Both are empty for `check .`, so the names stay as they are.

use std::path::{Component, Path, PathBuf};

/// `path` with `/` separators (on Windows `\` becomes `/`; elsewhere `\` is an ordinary file
/// name character and stays).
pub fn slash(path: &Path) -> String {
    let s = path.to_string_lossy();
    if cfg!(windows) {
        s.replace('\\', "/")
    } else {
        s.into_owned()
    }
}

/// `path` without `.` components, and with each `..` removing the component before it (when
/// there is one to remove), without touching the file system.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.components().next_back(), Some(Component::Normal(_))) {
                    out.pop();
                } else if !out.has_root() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// `s` ending in exactly one `/`, or empty when `s` is empty.
fn as_prefix(s: String) -> String {
    if s.is_empty() || s.ends_with('/') {
        s
    } else {
        s + "/"
    }
}

/// The prefix for the human and concise formats: the project path as typed, without `.`
/// components, with `/` separators and a final `/` (`./path/to/project` -> `path/to/project/`);
/// empty for `.`.
pub fn typed_prefix(root: &Path) -> String {
    let cleaned: PathBuf = root
        .components()
        .filter(|c| *c != Component::CurDir)
        .collect();
    as_prefix(slash(&cleaned))
}

/// The prefix for the CI formats: the project's path relative to `cwd` with `/` separators and
/// a final `/` (`path/to/project/`; empty when the project is `cwd` itself), or its absolute
/// path (`/elsewhere/project/`) when it does not lie under `cwd`.
///
/// The comparison is lexical first (a project reached through a symbolic link inside `cwd`
/// keeps its path inside `cwd`), checked against the canonical paths when the file system can
/// resolve them, then on the canonical paths alone.
pub fn cwd_prefix(root: &Path, cwd: &Path) -> String {
    let cwd = normalize(cwd);
    let absolute = normalize(&cwd.join(root));
    let canonical_root = root.canonicalize().ok();
    if let Ok(rel) = absolute.strip_prefix(&cwd) {
        let same = match (&canonical_root, cwd.join(rel).canonicalize()) {
            (Some(a), Ok(b)) => *a == b,
            _ => true,
        };
        if same {
            return as_prefix(slash(rel));
        }
    }
    if let (Some(r), Ok(c)) = (&canonical_root, cwd.canonicalize())
        && let Ok(rel) = r.strip_prefix(&c)
    {
        return as_prefix(slash(rel));
    }
    as_prefix(slash(&absolute))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_prefixes() {
        assert_eq!(typed_prefix(Path::new(".")), "");
        assert_eq!(typed_prefix(Path::new("./")), "");
        assert_eq!(typed_prefix(Path::new("proj")), "proj/");
        assert_eq!(typed_prefix(Path::new("./path/to/proj/")), "path/to/proj/");
        assert_eq!(typed_prefix(Path::new("../proj")), "../proj/");
        assert_eq!(typed_prefix(Path::new("/abs/proj")), "/abs/proj/");
        assert_eq!(typed_prefix(Path::new("/")), "/");
    }

    #[test]
    fn normalizing() {
        assert_eq!(normalize(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
        assert_eq!(normalize(Path::new("/../a")), PathBuf::from("/a"));
        assert_eq!(normalize(Path::new("../a/..")), PathBuf::from(".."));
    }

    #[cfg(unix)]
    #[test]
    fn cwd_prefixes_without_the_file_system() {
        // Paths that do not exist: the lexical comparison decides.
        let cwd = Path::new("/no/such/repo");
        assert_eq!(cwd_prefix(Path::new("."), cwd), "");
        assert_eq!(cwd_prefix(Path::new("sub/proj"), cwd), "sub/proj/");
        assert_eq!(cwd_prefix(Path::new("./sub/../proj/"), cwd), "proj/");
        assert_eq!(cwd_prefix(Path::new("/no/such/repo/proj"), cwd), "proj/");
        assert_eq!(cwd_prefix(Path::new("../other"), cwd), "/no/such/other/");
        assert_eq!(cwd_prefix(Path::new("/elsewhere"), cwd), "/elsewhere/");
    }
}
