//! Where a document belongs: file URIs to paths and back, and the project root of a file (the
//! nearest folder above it holding `schemarouter.toml`).

use lsp_types::Uri;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The path of a `file:` URI (`None` for other schemes or a URI that names no path).
pub fn uri_to_path(uri: &Uri) -> Option<PathBuf> {
    let url = url::Url::parse(uri.as_str()).ok()?;
    if url.scheme() != "file" {
        return None;
    }
    url.to_file_path().ok()
}

/// The `file:` URI of an absolute path (`None` for a relative path).
pub fn path_to_uri(path: &Path) -> Option<Uri> {
    let url = url::Url::from_file_path(path).ok()?;
    Uri::from_str(url.as_str()).ok()
}

/// The project root of `file`: the nearest folder above it (the file's own folder first) that
/// holds `schemarouter.toml`; `None` when there is none.
pub fn project_root(file: &Path) -> Option<PathBuf> {
    let mut dir = file.parent();
    while let Some(d) = dir {
        if d.join(crate::load::CONFIG_FILE).is_file() {
            return Some(d.to_path_buf());
        }
        dir = d.parent();
    }
    None
}

/// The display name of `file` inside the project at `root` (`schemas/aflow.yaml`), as the
/// loader names it; `None` outside the root.
pub fn display_name(root: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(root).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    (!parts.is_empty()).then(|| parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_round_trip_with_escapes() {
        let path = PathBuf::from("/tmp/a project/schemas/ü.yaml");
        let uri = path_to_uri(&path).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/a%20project/schemas/%C3%BC.yaml");
        assert_eq!(uri_to_path(&uri), Some(path));
        assert_eq!(
            uri_to_path(&Uri::from_str("untitled:Untitled-1").unwrap()),
            None
        );
    }

    #[test]
    fn the_root_is_the_nearest_folder_with_the_configuration() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("p");
        std::fs::create_dir_all(root.join("schemas/sub")).unwrap();
        std::fs::write(root.join("schemarouter.toml"), "").unwrap();
        let file = root.join("schemas/sub/t.yaml");
        assert_eq!(project_root(&file), Some(root.clone()));
        assert_eq!(
            display_name(&root, &file).as_deref(),
            Some("schemas/sub/t.yaml")
        );
        assert_eq!(project_root(&dir.path().join("x.yaml")), None);
    }
}
