//! Where the commands that read a compiled artifact (`route`, `extract`, `eval`, `serve`,
//! `mcp`) find it when `--artifact` is not given: the same place `compile` writes it.
//!
//! `compile PATH` writes into `PATH/build`. Without `--artifact`, the project is the nearest
//! folder at or above the working directory that holds `schemarouter.toml`; when no folder does,
//! the nearest one that holds a `schemas/` folder beside `intents/` or `aliases/` (a project
//! without a configuration file). The artifact is that project's `build/graph.bin` or
//! `build/graph.json`. When both exist the newer one is read (a tie goes to `graph.bin`, which
//! opens fastest): `compile --format both` writes them together, and a later `compile --format
//! json` removes a stale `graph.bin`, so the newer one is what the last compile wrote. Outside
//! any project, `build/` of the working directory is still read (a folder holding only a
//! deployed artifact); when it has none either, the error names every folder searched.
//!
//! A broken `schemarouter.toml` stops every one of them before the artifact is read
//! ([`refuse_broken_config`]): none goes on with default settings in place of the faulty ones.
//!
//! The servers run the same discovery again when a file changes ([`Discovery::current`]), so a
//! compile that writes the other form (and removes the one being served) is followed.

use std::path::{Component, Path, PathBuf};

/// The project configuration file whose folder is the project root.
pub use crate::model::config::CONFIG_FILE;

/// The folder `compile` writes into, under the project folder.
pub const BUILD_DIR: &str = "build";

/// Where the artifact of the working directory is looked for: the build folder, and the
/// working directory it is shown relative to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Discovery {
    /// The project root (`None`: no project holds the working directory; its own `build/` is
    /// read).
    pub root: Option<PathBuf>,
    /// The folder holding `graph.bin` / `graph.json`.
    pub build: PathBuf,
    /// The working directory when discovery ran (paths are shown relative to it).
    pub cwd: PathBuf,
}

impl Discovery {
    /// Discovery from the working directory.
    pub fn from_cwd() -> Discovery {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        Discovery::from(&cwd)
    }

    /// Discovery from `cwd`.
    pub fn from(cwd: &Path) -> Discovery {
        let root = find_project(cwd);
        let build = root.as_deref().unwrap_or(cwd).join(BUILD_DIR);
        Discovery {
            root,
            build,
            cwd: cwd.to_path_buf(),
        }
    }

    /// The artifact to read now (the newer form; relative to the working directory when under
    /// it), or the paths looked for.
    pub fn current(&self) -> Result<PathBuf, Vec<PathBuf>> {
        find_in(&self.build).map(|p| relative_to(&p, &self.cwd))
    }
}

/// The artifact to read: `explicit` when given, else the discovered one (see the module docs).
///
/// # Errors
/// When nothing is given and no artifact is found, prints an error naming every file (or, outside
/// any project, every folder) looked for and a help line with the `compile` command to run, and
/// returns exit code 2.
pub fn artifact(explicit: Option<&Path>) -> Result<PathBuf, u8> {
    if let Some(p) = explicit {
        return Ok(p.to_path_buf());
    }
    let d = Discovery::from_cwd();
    match d.current() {
        Ok(p) => Ok(p),
        Err(looked) => {
            report_missing(&d, &looked);
            Err(super::EXIT_USAGE)
        }
    }
}

/// Refuse to read the artifact at `artifact` when the configuration it is read with (the
/// nearest `schemarouter.toml` at or above its folder, see
/// [`crate::search::dense::config_file_of`]) has errors: `route`, `search`, `extract`, `eval`
/// and the servers (`serve`, `mcp`, `gateway`) would otherwise go on with default settings in
/// place of the faulty ones (an artifact compiled before the file broke, `[search] embeddings`
/// unread). Prints each error with its place and help, and a help line; returns exit code 2.
pub fn refuse_broken_config(artifact: &Path) -> Result<(), u8> {
    let Some(file) = crate::search::dense::config_file_of(artifact) else {
        return Ok(());
    };
    refuse_broken_config_file(&file, "the artifact", "compile the project again")
}

/// Refuse to read the project at `root` when its `schemarouter.toml` has errors (a project
/// without one is read with the default settings, as `check` reads it): for commands that read
/// a project's declarations beside an artifact (`gateway --project`). Prints as
/// [`refuse_broken_config`] does; returns exit code 2.
pub fn refuse_broken_project_config(root: &Path) -> Result<(), u8> {
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let file = root.join(CONFIG_FILE);
    if !file.is_file() {
        return Ok(());
    }
    refuse_broken_config_file(&file, "the project", "run the command again")
}

/// The errors of the configuration file `file`, printed with `what` (the thing not read) and
/// `then` (the step after the fix); exit code 2 when it has any.
fn refuse_broken_config_file(file: &Path, what: &str, then: &str) -> Result<(), u8> {
    use crate::diagnostics::{Position, Severity};
    let (sources, diags) = crate::load::config_findings(file);
    let errors: Vec<_> = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    if errors.is_empty() {
        return Ok(());
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let shown = relative_to(file, &cwd);
    eprintln!(
        "error: `{}` has {} error(s); {what} is not read with default settings in place of the faulty ones",
        shown.display(),
        errors.len()
    );
    for d in errors {
        let place = d
            .primary
            .as_ref()
            .map(|l| {
                let p = Position::resolve(l, &sources);
                format!("{}:{}:{}: ", shown.display(), p.line, p.column)
            })
            .unwrap_or_default();
        eprintln!(
            "  {place}{}[{}/{}] {}",
            d.severity, d.code, d.name, d.message
        );
        if let Some(h) = &d.help {
            eprintln!("    help: {h}");
        }
    }
    let project = relative_to(file.parent().unwrap_or(Path::new(".")), &cwd);
    eprintln!(
        "help: fix the configuration (`schemarouter check {}` shows every finding), then {then}",
        shown_path(&project)
    );
    Err(super::EXIT_USAGE)
}

/// Print why no artifact was found (an error and a help line).
fn report_missing(d: &Discovery, looked: &[PathBuf]) {
    let shown: Vec<String> = looked
        .iter()
        .map(|p| format!("`{}`", relative_to(p, &d.cwd).display()))
        .collect();
    match &d.root {
        Some(root) => {
            eprintln!(
                "error: no compiled artifact found (looked for {})",
                shown.join(" and ")
            );
            eprintln!(
                "help: compile the project first (`schemarouter compile {}`), or pass --artifact FILE",
                shown_path(&relative_to(root, &d.cwd))
            );
        }
        None => {
            let folders: Vec<String> = d
                .cwd
                .ancestors()
                .map(|a| format!("`{}`", a.display()))
                .collect();
            eprintln!(
                "error: no compiled artifact found: no folder holds `{CONFIG_FILE}` or a `schemas/` folder beside `intents/` or `aliases/` (searched {}), and there is no {} here",
                folders.join(", "),
                shown.join(" or ")
            );
            eprintln!(
                "help: pass --artifact FILE, or run `schemarouter compile PROJECT` (it writes PROJECT/build/graph.json) and run this command inside PROJECT"
            );
        }
    }
}

/// `.` for an empty path, else the path.
pub fn shown_path(p: &Path) -> String {
    if p.as_os_str().is_empty() {
        ".".to_string()
    } else {
        p.display().to_string()
    }
}

fn has_project_folders(dir: &Path) -> bool {
    dir.join("schemas").is_dir() && (dir.join("intents").is_dir() || dir.join("aliases").is_dir())
}

/// The nearest folder at or above `start` holding [`CONFIG_FILE`]; when none does, the nearest
/// holding a `schemas/` folder beside `intents/` or `aliases/`; `None` when none does either.
pub fn find_project(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|d| d.join(CONFIG_FILE).is_file())
        .or_else(|| start.ancestors().find(|d| has_project_folders(d)))
        .map(Path::to_path_buf)
}

/// The project above `path` (not `path` itself) for a hint, shown relative to `cwd`: for `check`
/// and friends run in a subfolder of a project.
pub fn enclosing_project(path: &Path, cwd: &Path) -> Option<String> {
    let abs = normalize(&cwd.join(path));
    let parent = abs.parent()?;
    let root = find_project(parent)?;
    Some(shown_path(&relative_path(&root, &normalize(cwd))))
}

/// `path` with `.` and `..` components resolved lexically (no file-system access).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push(c);
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// `target` relative to `base` (both absolute and normalised): `../..`, `sub/dir`, or `target`
/// itself when they share no root.
fn relative_path(target: &Path, base: &Path) -> PathBuf {
    let t: Vec<Component> = target.components().collect();
    let b: Vec<Component> = base.components().collect();
    let common = t.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return target.to_path_buf();
    }
    let mut out = PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &t[common..] {
        out.push(c);
    }
    out
}

/// `graph.bin` or `graph.json` in `dir` (the newer; a tie goes to `graph.bin`), or the paths
/// looked for.
fn find_in(dir: &Path) -> Result<PathBuf, Vec<PathBuf>> {
    let bin = dir.join(crate::artifact::BIN_FILE);
    let json = dir.join(crate::artifact::JSON_FILE);
    let mtime = |p: &Path| {
        std::fs::metadata(p)
            .ok()
            .filter(|m| m.is_file())
            .map(|m| m.modified().ok())
    };
    match (mtime(&bin), mtime(&json)) {
        (Some(b), Some(j)) => Ok(if j > b { json } else { bin }),
        (Some(_), None) => Ok(bin),
        (None, Some(_)) => Ok(json),
        (None, None) => Err(vec![bin, json]),
    }
}

/// `path` relative to `base` when it lies under it (messages stay short), else `path`.
fn relative_to(path: &Path, base: &Path) -> PathBuf {
    path.strip_prefix(base)
        .map(Path::to_path_buf)
        .unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("sr-locate-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn the_project_root_is_the_nearest_folder_with_the_config() {
        let d = temp("root");
        std::fs::create_dir_all(d.join("schemas/deep")).unwrap();
        // `schemas/` alone is not a project (a folder of that name is common).
        assert_eq!(find_project(&d.join("schemas/deep")), None);
        std::fs::write(d.join(CONFIG_FILE), "").unwrap();
        assert_eq!(find_project(&d.join("schemas/deep")), Some(d.clone()));
        assert_eq!(find_project(&d), Some(d.clone()));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn without_a_config_the_nearest_folder_with_the_project_folders_is_the_root() {
        let d = temp("folders");
        std::fs::create_dir_all(d.join("p/schemas/deep")).unwrap();
        std::fs::create_dir_all(d.join("p/intents")).unwrap();
        assert_eq!(find_project(&d.join("p/schemas/deep")), Some(d.join("p")));
        assert_eq!(find_project(&d.join("p")), Some(d.join("p")));
        assert_eq!(find_project(&d), None);
        // `aliases/` does as well as `intents/`.
        std::fs::create_dir_all(d.join("q/schemas")).unwrap();
        std::fs::create_dir_all(d.join("q/aliases")).unwrap();
        assert_eq!(find_project(&d.join("q/schemas")), Some(d.join("q")));
        // A configuration file further up wins over the folders nearer by.
        std::fs::write(d.join(CONFIG_FILE), "").unwrap();
        assert_eq!(find_project(&d.join("q/schemas")), Some(d.clone()));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn the_enclosing_project_is_shown_relative_to_the_working_directory() {
        let d = temp("enclosing");
        std::fs::create_dir_all(d.join("p/schemas/deep")).unwrap();
        std::fs::create_dir_all(d.join("p/aliases")).unwrap();
        let p = d.join("p");
        assert_eq!(
            enclosing_project(Path::new("."), &p.join("schemas/deep")),
            Some("../..".to_string())
        );
        assert_eq!(
            enclosing_project(Path::new("schemas"), &p),
            Some(".".to_string())
        );
        assert_eq!(
            enclosing_project(Path::new("p/schemas/deep"), &d),
            Some("p".to_string())
        );
        assert_eq!(
            enclosing_project(Path::new("../schemas/./deep"), &p.join("aliases")),
            Some("..".to_string())
        );
        // The folder itself is not its own enclosing project.
        assert_eq!(enclosing_project(Path::new("."), &p), None);
        assert_eq!(enclosing_project(Path::new("."), &d), None);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn discovery_follows_the_newest_form_and_falls_back_to_the_working_directory() {
        let d = temp("discovery");
        std::fs::create_dir_all(d.join("p/schemas")).unwrap();
        std::fs::create_dir_all(d.join("p/intents")).unwrap();
        std::fs::create_dir_all(d.join("p/build")).unwrap();
        let disc = Discovery::from(&d.join("p/schemas"));
        assert_eq!(disc.root, Some(d.join("p")));
        assert_eq!(disc.build, d.join("p/build"));
        assert_eq!(
            disc.current(),
            Err(vec![
                d.join("p/build/graph.bin"),
                d.join("p/build/graph.json")
            ])
        );
        std::fs::write(d.join("p/build/graph.json"), "{}").unwrap();
        assert_eq!(disc.current(), Ok(d.join("p/build/graph.json")));
        std::fs::write(d.join("p/build/graph.bin"), "x").unwrap();
        std::fs::remove_file(d.join("p/build/graph.json")).unwrap();
        assert_eq!(disc.current(), Ok(d.join("p/build/graph.bin")));
        // At the root the artifact is shown relative to it.
        assert_eq!(
            Discovery::from(&d.join("p")).current(),
            Ok(PathBuf::from("build/graph.bin"))
        );
        // Outside any project: the working directory's own `build/`.
        let outside = Discovery::from(&d);
        assert_eq!(outside.root, None);
        assert_eq!(outside.build, d.join("build"));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn relative_paths_walk_up_and_down() {
        let r = |t: &str, b: &str| relative_path(Path::new(t), Path::new(b));
        assert_eq!(r("/a/b", "/a/b/c/d"), PathBuf::from("../.."));
        assert_eq!(r("/a/b/c", "/a/b"), PathBuf::from("c"));
        assert_eq!(r("/a/x", "/a/b"), PathBuf::from("../x"));
        assert_eq!(r("/a", "/a"), PathBuf::new());
        assert_eq!(
            normalize(Path::new("/a/b/../c/./d")),
            PathBuf::from("/a/c/d")
        );
    }

    #[test]
    fn the_newer_form_wins_and_a_tie_goes_to_the_binary() {
        let d = temp("find");
        assert_eq!(
            find_in(&d),
            Err(vec![d.join("graph.bin"), d.join("graph.json")])
        );
        std::fs::write(d.join("graph.json"), "{}").unwrap();
        assert_eq!(find_in(&d), Ok(d.join("graph.json")));
        std::fs::write(d.join("graph.bin"), "x").unwrap();
        let t = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
        let set = |name: &str, t| {
            std::fs::File::options()
                .write(true)
                .open(d.join(name))
                .unwrap()
                .set_modified(t)
                .unwrap()
        };
        set("graph.bin", t);
        set("graph.json", t);
        assert_eq!(find_in(&d), Ok(d.join("graph.bin")));
        set("graph.json", t + std::time::Duration::from_secs(1));
        assert_eq!(find_in(&d), Ok(d.join("graph.json")));
        set("graph.bin", t + std::time::Duration::from_secs(2));
        assert_eq!(find_in(&d), Ok(d.join("graph.bin")));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn relative_paths_stay_short() {
        assert_eq!(
            relative_to(Path::new("/a/b/build/graph.json"), Path::new("/a/b")),
            PathBuf::from("build/graph.json")
        );
        assert_eq!(
            relative_to(Path::new("/x/build"), Path::new("/a")),
            PathBuf::from("/x/build")
        );
    }
}
