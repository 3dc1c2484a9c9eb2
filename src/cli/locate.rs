//! Where the commands that read a compiled artifact (`route`, `extract`, `eval`, `serve`,
//! `mcp`) find it when `--artifact` is not given: the same place `compile` writes it.
//!
//! `compile PATH` writes into `PATH/build`. Without `--artifact`, the project is the nearest
//! folder at or above the working directory that holds `schemarouter.toml` (the working directory
//! itself when none does), and the artifact is its `build/graph.bin` or `build/graph.json`. When
//! both exist the newer one is read (a tie goes to `graph.bin`, which opens fastest): `compile
//! --format both` writes them together, and a later `compile --format json` removes a stale
//! `graph.bin`, so the newer one is what the last compile wrote.

use std::path::{Path, PathBuf};

/// The project configuration file whose folder is the project root.
pub const CONFIG_FILE: &str = "schemarouter.toml";

/// The folder `compile` writes into, under the project folder.
pub const BUILD_DIR: &str = "build";

/// The artifact to read: `explicit` when given, else the discovered one (see the module docs).
///
/// # Errors
/// When nothing is given and no artifact is found, prints an error naming every file looked for
/// and a help line with the `compile` command to run, and returns exit code 2.
pub fn artifact(explicit: Option<&Path>) -> Result<PathBuf, u8> {
    if let Some(p) = explicit {
        return Ok(p.to_path_buf());
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let root = project_root(&cwd);
    match find_in(&root.join(BUILD_DIR)) {
        Ok(p) => Ok(relative_to(&p, &cwd)),
        Err(looked) => {
            let shown: Vec<String> = looked
                .iter()
                .map(|p| format!("`{}`", relative_to(p, &cwd).display()))
                .collect();
            eprintln!(
                "error: no compiled artifact found (looked for {})",
                shown.join(" and ")
            );
            let project = relative_to(&root, &cwd);
            let project = if project.as_os_str().is_empty() {
                ".".to_string()
            } else {
                project.display().to_string()
            };
            eprintln!(
                "help: compile the project first (`schemarouter compile {project}`), or pass --artifact FILE"
            );
            Err(super::EXIT_USAGE)
        }
    }
}

/// The nearest folder at or above `start` holding [`CONFIG_FILE`]; `start` when none does.
pub fn project_root(start: &Path) -> PathBuf {
    start
        .ancestors()
        .find(|d| d.join(CONFIG_FILE).is_file())
        .unwrap_or(start)
        .to_path_buf()
}

/// `graph.bin` or `graph.json` in `dir` (the newer; a tie goes to `graph.bin`), or the paths
/// looked for.
fn find_in(dir: &Path) -> Result<PathBuf, Vec<PathBuf>> {
    let bin = dir.join("graph.bin");
    let json = dir.join("graph.json");
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
        assert_eq!(
            project_root(&d.join("schemas/deep")),
            d.join("schemas/deep")
        );
        std::fs::write(d.join(CONFIG_FILE), "").unwrap();
        assert_eq!(project_root(&d.join("schemas/deep")), d);
        assert_eq!(project_root(&d), d);
        std::fs::remove_dir_all(&d).unwrap();
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
