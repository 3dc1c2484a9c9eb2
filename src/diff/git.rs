//! Reading a project at a git revision without touching the working tree: `git ls-tree` lists
//! the files under the project folder, `git cat-file --batch` reads them, and they are written
//! into a temporary folder that is removed when the returned [`TempTree`] is dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

/// A temporary folder holding an extracted tree; removed on drop.
#[derive(Debug)]
pub struct TempTree {
    path: PathBuf,
}

impl TempTree {
    /// A new, empty temporary folder.
    fn new() -> std::io::Result<TempTree> {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let base = std::env::temp_dir();
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.subsec_nanos())
                .unwrap_or(0);
            let path = base.join(format!(
                "schemarouter-diff-{}-{n}-{nanos}",
                std::process::id()
            ));
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(TempTree { path }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempTree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Run git in `dir` and return its stdout, or its stderr as the error.
fn git(dir: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
        Err(if err.is_empty() {
            format!("`git {}` failed", args.join(" "))
        } else {
            err
        })
    }
}

/// Whether git tracks the file `path` (false when git is not installed, the file is outside a
/// repository, or it is untracked).
pub fn is_tracked(path: &Path) -> bool {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name().and_then(|n| n.to_str())) else {
        return false;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    git(dir, &["ls-files", "--error-unmatch", "--", name]).is_ok()
}

/// The top folder of the repository containing `cwd`.
pub fn toplevel(cwd: &Path) -> Result<PathBuf, String> {
    let out = git(cwd, &["rev-parse", "--show-toplevel"])
        .map_err(|e| format!("not inside a git repository ({e})"))?;
    Ok(PathBuf::from(String::from_utf8_lossy(&out).trim_end()))
}

/// Resolve a `git:REF:PATH` path to a path relative to the repository root: as written (like
/// git's `REF:path`), or relative to the current folder when it starts with `./` or `../` (like
/// git's `REF:./path`). `""` is the repository root.
///
/// Errors: a path that leaves the repository, or git failures.
pub fn resolve_path(cwd: &Path, path: &str) -> Result<String, String> {
    let relative = path == "." || path == ".." || path.starts_with("./") || path.starts_with("../");
    let joined = if relative {
        let prefix = git(cwd, &["rev-parse", "--show-prefix"])?;
        format!("{}{path}", String::from_utf8_lossy(&prefix).trim_end())
    } else {
        path.to_string()
    };
    let mut parts: Vec<&str> = Vec::new();
    for c in joined.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err(format!("`{path}` leads outside the repository"));
                }
            }
            other => parts.push(other),
        }
    }
    Ok(parts.join("/"))
}

/// One blob to extract.
struct Entry {
    oid: String,
    /// Path relative to the project folder.
    rel: PathBuf,
}

/// Extract the files under `sub` (relative to the repository root; "" for the root) at `rev`
/// of the repository containing `cwd` into a temporary folder.
///
/// Errors: not a repository, an unknown revision, a path that is not a folder at that
/// revision, git failures, and I/O errors writing the temporary files.
pub fn extract(cwd: &Path, rev: &str, sub: &str) -> Result<TempTree, String> {
    let top = toplevel(cwd)?;
    if rev.starts_with('-') {
        return Err(format!("`{rev}` is not a revision"));
    }
    let commit = git(
        &top,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{rev}^{{commit}}"),
        ],
    )
    .map_err(|_| format!("unknown git revision `{rev}`"))?;
    let commit = String::from_utf8_lossy(&commit).trim().to_string();
    if !sub.is_empty() {
        let kind = git(&top, &["cat-file", "-t", &format!("{commit}:{sub}")])
            .map_err(|_| format!("`{sub}` does not exist at `{rev}`"))?;
        if String::from_utf8_lossy(&kind).trim() != "tree" {
            return Err(format!("`{sub}` is not a folder at `{rev}`"));
        }
    }
    let mut args = vec!["ls-tree", "-r", "-z", "--full-tree", commit.as_str()];
    if !sub.is_empty() {
        args.push("--");
        args.push(sub);
    }
    let listing = git(&top, &args)?;
    let prefix = if sub.is_empty() {
        String::new()
    } else {
        format!("{sub}/")
    };
    let mut entries = Vec::new();
    for rec in listing.split(|b| *b == 0).filter(|r| !r.is_empty()) {
        let rec = String::from_utf8_lossy(rec);
        let Some((meta, name)) = rec.split_once('\t') else {
            continue;
        };
        let mut parts = meta.split(' ');
        let (Some(mode), Some(kind), Some(oid)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        // Regular files only: no symbolic links (120000) or submodules.
        if kind != "blob" || !(mode == "100644" || mode == "100755") {
            continue;
        }
        let Some(rel) = name.strip_prefix(&prefix) else {
            continue;
        };
        let rel = PathBuf::from(rel);
        if rel
            .components()
            .any(|c| !matches!(c, std::path::Component::Normal(_)))
        {
            continue;
        }
        entries.push(Entry {
            oid: oid.to_string(),
            rel,
        });
    }
    let tree = TempTree::new().map_err(|e| format!("cannot create a temporary folder: {e}"))?;
    write_blobs(&top, &entries, tree.path())?;
    Ok(tree)
}

/// Read the blobs with one `git cat-file --batch` and write them under `dest`.
fn write_blobs(top: &Path, entries: &[Entry], dest: &Path) -> Result<(), String> {
    if entries.is_empty() {
        return Ok(());
    }
    let mut child = Command::new("git")
        .args(["cat-file", "--batch"])
        .current_dir(top)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run git: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("cannot write to git")?;
    let input: String = entries.iter().map(|e| format!("{}\n", e.oid)).collect();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let stdout = child.stdout.take().ok_or("cannot read from git")?;
    let mut reader = BufReader::new(stdout);
    let result = (|| {
        for e in entries {
            let mut header = String::new();
            reader
                .read_line(&mut header)
                .map_err(|err| format!("cannot read from git: {err}"))?;
            let size: usize = header
                .trim_end()
                .rsplit(' ')
                .next()
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| format!("git cannot read `{}`", e.rel.display()))?;
            let mut data = vec![0u8; size + 1];
            reader
                .read_exact(&mut data)
                .map_err(|err| format!("cannot read from git: {err}"))?;
            data.pop();
            let path = dest.join(&e.rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|err| format!("cannot write `{}`: {err}", path.display()))?;
            }
            std::fs::write(&path, &data)
                .map_err(|err| format!("cannot write `{}`: {err}", path.display()))?;
        }
        Ok(())
    })();
    drop(reader);
    let _ = writer.join();
    let _ = child.wait();
    result
}
