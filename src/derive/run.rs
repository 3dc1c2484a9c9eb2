//! One derivation from start to finish: load the project (from disk for `schemarouter derive`,
//! or the files an import is about to write), derive, render every file, check that each loads
//! back to what was meant, and write all of them or none.

use super::files::{self, DERIVED_FILE};
use super::owner::{self, Owners};
use super::{Layer, Stats};
use crate::diagnostics::Severity;
use crate::import::ImportError;
use crate::import::emit;
use crate::import::run::{FileStatus, write_files};
use crate::model::config::Paths;
use crate::model::{FileKind, Project, Tool, normalise_id};
use crate::source::{FileId, Format};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A `schemarouter derive` run.
#[derive(Clone, Debug)]
pub struct DeriveRequest {
    /// The project folder.
    pub project: PathBuf,
    /// Report only; write nothing.
    pub dry_run: bool,
}

/// One file a derivation writes (or would write).
#[derive(Clone, Debug, serde::Serialize)]
pub struct FileChange {
    /// The path.
    pub path: PathBuf,
    /// `new`, `updated` or `unchanged`.
    #[serde(serialize_with = "status_name")]
    pub status: FileStatus,
    /// What it holds (`42 concepts`, `tool github`).
    pub what: String,
}

fn status_name<S: serde::Serializer>(s: &FileStatus, ser: S) -> Result<S::Ok, S::Error> {
    ser.serialize_str(match s {
        FileStatus::New => "new",
        FileStatus::Updated => "updated",
        FileStatus::Unchanged => "unchanged",
    })
}

/// What a derivation did (or would do).
#[derive(Debug, Default, serde::Serialize)]
pub struct DeriveOutcome {
    /// Every file it writes, with its status (unchanged ones too).
    pub files: Vec<FileChange>,
    /// The texts to write (changed files only).
    #[serde(skip)]
    pub jobs: Vec<(PathBuf, String)>,
    /// Notes: tool files left alone and why, edited entries kept.
    pub notes: Vec<String>,
    /// Counts.
    pub stats: Stats,
    /// Whether files were written.
    pub written: bool,
}

/// The files of a project to derive over: the loaded project and each file's path on disk.
pub struct Input<'a> {
    /// The project.
    pub project: &'a Project,
    /// Each source file's path on disk, by file id.
    pub paths: Vec<PathBuf>,
    /// The project folder.
    pub root: PathBuf,
    /// Its declaration folders.
    pub folders: Paths,
}

/// The derived files' paths: (aliases, intents).
fn derived_paths(root: &Path, folders: &Paths) -> (PathBuf, PathBuf) {
    (
        root.join(&folders.aliases).join(DERIVED_FILE),
        root.join(&folders.intents).join(DERIVED_FILE),
    )
}

/// The path of `to` relative to the folder of `from_file`, with `/`.
fn rel(from_file: &Path, to: &Path) -> String {
    let dir = from_file.parent().unwrap_or(Path::new("."));
    emit::relative(&absolute(dir), &absolute(to))
        .to_string_lossy()
        .replace('\\', "/")
}

fn absolute(p: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(p)
    }
}

fn internal(what: &str) -> ImportError {
    ImportError::new(
        format!("internal error: {what} would not load back as written"),
        "please report this with the project; nothing was written",
    )
}

/// Plan a derivation: every file text, and which of them differ from the disk.
///
/// Errors: a file that would not load back as written (an internal error).
pub fn plan(input: &Input) -> Result<DeriveOutcome, ImportError> {
    let p = input.project;
    let (alias_path, intent_path) = derived_paths(&input.root, &input.folders);
    let in_derived: BTreeSet<FileId> = p
        .sources
        .iter()
        .filter(|(id, _)| {
            let path = &input.paths[id.0 as usize];
            *path == alias_path || *path == intent_path
        })
        .map(|(id, _)| id)
        .collect();
    let owners = Owners::of(p, &in_derived);
    let mut out = DeriveOutcome::default();
    // The tool files that can be rewritten.
    let mut chosen: Vec<(usize, Format, String)> = Vec::new();
    for (i, t) in p.tools.iter().enumerate() {
        let path = &input.paths[t.file.0 as usize];
        let text = &p.sources.get(t.file).text;
        let Some(format) = Format::from_path(path) else {
            continue;
        };
        match files::leading_block(text, format) {
            Ok(lead) => chosen.push((i, format, lead)),
            Err(why) => out.notes.push(format!(
                "{}: not derived: {why}; move the comment into the leading comment block to derive this tool",
                path.display()
            )),
        }
    }
    let tools: Vec<Tool> = chosen
        .iter()
        .map(|(i, _, _)| p.tools[*i].item.value.clone())
        .collect();
    let layer = super::derive(p, tools, &owners);
    out.stats = layer.stats;
    tool_files(input, &chosen, &layer, &mut out)?;
    alias_file(input, &alias_path, &in_derived, &layer, &mut out)?;
    intent_file(input, &intent_path, &in_derived, &layer, &mut out)?;
    let edited: Vec<String> = owners
        .concepts
        .iter()
        .chain(&owners.groups)
        .chain(&owners.intents)
        .filter(|(_, o)| **o == owner::Owner::Edited)
        .map(|(id, _)| format!("`{id}`"))
        .collect();
    if !edited.is_empty() {
        out.notes.push(format!(
            "kept as edited by a person: {} (delete their `derived:` line to make them yours)",
            edited.join(", ")
        ));
    }
    let schema = input.root.join("docs/schema/alias.schema.json");
    if !out.jobs.is_empty() && !schema.exists() {
        out.files.push(FileChange {
            path: schema.clone(),
            status: FileStatus::New,
            what: "the alias files' JSON Schema".into(),
        });
        out.jobs
            .push((schema, crate::model::json_schema(FileKind::Alias)));
    }
    Ok(out)
}

fn record(out: &mut DeriveOutcome, path: &Path, text: String, what: String) {
    let old = std::fs::read_to_string(path).ok();
    let status = match &old {
        None => FileStatus::New,
        Some(o) if *o == text => FileStatus::Unchanged,
        Some(_) => FileStatus::Updated,
    };
    if status != FileStatus::Unchanged {
        out.jobs.push((path.to_path_buf(), text));
    }
    out.files.push(FileChange {
        path: path.to_path_buf(),
        status,
        what,
    });
}

fn tool_files(
    input: &Input,
    chosen: &[(usize, Format, String)],
    layer: &Layer,
    out: &mut DeriveOutcome,
) -> Result<(), ImportError> {
    let p = input.project;
    for ((i, format, lead), tool) in chosen.iter().zip(&layer.tools) {
        let decl = &p.tools[*i];
        let path = &input.paths[decl.file.0 as usize];
        let old_text = &p.sources.get(decl.file).text;
        let (carried, _) = emit::carried_comments(old_text, *format, &decl.item.value);
        let text = files::render_tool(tool, *format, lead, &carried)
            .map_err(|_| internal(&format!("the tool file `{}`", path.display())))?;
        match emit::parse_tool(&text, *format) {
            Some(back) if back == *tool => {}
            _ => return Err(internal(&format!("the tool file `{}`", path.display()))),
        }
        record(out, path, text, format!("tool `{}`", tool.id.value));
    }
    Ok(())
}

fn alias_file(
    input: &Input,
    path: &Path,
    in_derived: &BTreeSet<FileId>,
    layer: &Layer,
    out: &mut DeriveOutcome,
) -> Result<(), ImportError> {
    let p = input.project;
    let derived_ids: BTreeSet<String> = layer
        .concepts
        .iter()
        .map(|c| normalise_id(&c.id.value))
        .collect();
    // Entries of the derived file that stay: a person's and edited ones.
    let mut all: Vec<crate::model::Concept> = p
        .concepts
        .iter()
        .filter(|c| in_derived.contains(&c.file))
        .filter(|c| {
            let marked = c.item.derived.as_ref();
            marked.is_none_or(|m| owner::digest(&c.item.value) != m.value)
        })
        .filter(|c| !derived_ids.contains(&normalise_id(&c.item.id.value)))
        .map(|c| c.item.value.clone())
        .collect();
    all.extend(layer.concepts.iter().cloned());
    all.sort_by(|a, b| a.id.value.cmp(&b.id.value));
    if all.is_empty() && !path.exists() {
        return Ok(());
    }
    let n = all.len();
    let schema = rel(path, &input.root.join("docs/schema/alias.schema.json"));
    let text = files::render_aliases(all.clone(), &schema)
        .map_err(|_| internal("the derived alias file"))?;
    match files::parse_aliases(&text) {
        Some(back) if back.concepts.iter().map(|c| &c.value).eq(all.iter()) => {}
        _ => return Err(internal("the derived alias file")),
    }
    record(out, path, text, format!("{n} concept(s)"));
    Ok(())
}

fn intent_file(
    input: &Input,
    path: &Path,
    in_derived: &BTreeSet<FileId>,
    layer: &Layer,
    out: &mut DeriveOutcome,
) -> Result<(), ImportError> {
    let p = input.project;
    let gids: BTreeSet<String> = layer
        .groups
        .iter()
        .map(|g| normalise_id(&g.id.value))
        .collect();
    let iids: BTreeSet<String> = layer
        .intents
        .iter()
        .map(|i| normalise_id(&i.id.value))
        .collect();
    let domains: Vec<crate::model::Domain> = p
        .domains
        .iter()
        .filter(|d| in_derived.contains(&d.file))
        .map(|d| d.item.value.clone())
        .collect();
    let mut groups: Vec<crate::model::FieldGroup> = p
        .groups
        .iter()
        .filter(|g| in_derived.contains(&g.file))
        .filter(|g| {
            g.item
                .derived
                .as_ref()
                .is_none_or(|m| owner::digest(&g.item.value) != m.value)
        })
        .filter(|g| !gids.contains(&normalise_id(&g.item.id.value)))
        .map(|g| g.item.value.clone())
        .collect();
    groups.extend(layer.groups.iter().cloned());
    groups.sort_by(|a, b| a.id.value.cmp(&b.id.value));
    let mut intents: Vec<crate::model::Intent> = p
        .intents
        .iter()
        .filter(|i| in_derived.contains(&i.file))
        .filter(|i| {
            i.item
                .derived
                .as_ref()
                .is_none_or(|m| owner::digest(&i.item.value) != m.value)
        })
        .filter(|i| !iids.contains(&normalise_id(&i.item.id.value)))
        .map(|i| i.item.value.clone())
        .collect();
    intents.extend(layer.intents.iter().cloned());
    intents.sort_by(|a, b| a.id.value.cmp(&b.id.value));
    if domains.is_empty() && groups.is_empty() && intents.is_empty() && !path.exists() {
        return Ok(());
    }
    let what = format!("{} group(s), {} intent(s)", groups.len(), intents.len());
    let schema = rel(path, &input.root.join("docs/schema/intent.schema.json"));
    let text = files::render_intents(domains.clone(), groups.clone(), intents.clone(), &schema)
        .map_err(|_| internal("the derived intent file"))?;
    match files::parse_intents(&text) {
        Some(back)
            if back.groups.iter().map(|g| &g.value).eq(groups.iter())
                && back.intents.iter().map(|i| &i.value).eq(intents.iter())
                && back.domains.iter().map(|d| &d.value).eq(domains.iter()) => {}
        _ => return Err(internal("the derived intent file")),
    }
    record(out, path, text, what);
    Ok(())
}

/// Refuse a project whose files do not load: a derivation over what could be read would write
/// a layer for part of it.
fn refuse_broken(loaded: &crate::load::Loaded, root: &Path) -> Result<(), ImportError> {
    let broken: BTreeSet<String> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .filter_map(|d| d.primary.as_ref())
        .map(|l| loaded.project.sources.get(l.file).name.clone())
        .collect();
    if broken.is_empty() {
        return Ok(());
    }
    Err(ImportError::new(
        format!(
            "the project's file(s) {} do not load, so a derivation would see only part of the project",
            broken
                .iter()
                .map(|b| format!("`{b}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        format!(
            "fix them (`schemarouter check {}`), then derive again",
            root.display()
        ),
    ))
}

/// `schemarouter derive`: derive the concept layer of the project on disk and write it.
///
/// Errors (exit code 2): the project cannot be read or does not load, a file cannot be written.
pub fn derive_project(req: &DeriveRequest) -> Result<DeriveOutcome, ImportError> {
    let loaded =
        crate::load::load_project(&req.project).map_err(|e| ImportError::new(e.message, e.help))?;
    refuse_broken(&loaded, &req.project)?;
    let p = &loaded.project;
    let paths: Vec<PathBuf> = p.sources.iter().map(|(_, f)| f.path.clone()).collect();
    let input = Input {
        project: p,
        paths,
        root: req.project.clone(),
        folders: p.config.paths.clone(),
    };
    let mut out = plan(&input)?;
    if !req.dry_run && !out.jobs.is_empty() {
        write_files(&out.jobs)?;
        out.written = true;
    }
    Ok(out)
}

/// The derivation an import runs before it writes: over the project as it will be (the files on
/// disk, with `jobs` written over them), giving the texts to write with the import's.
///
/// `existing` is the project as loaded before the import (if there was one); `jobs` are the
/// import's files (path and text).
///
/// Errors: the would-be project does not load (an internal error of the import), or a derived
/// file would not load back.
pub fn for_import(
    root: &Path,
    existing: Option<&crate::load::Loaded>,
    jobs: &[(PathBuf, String)],
) -> Result<DeriveOutcome, ImportError> {
    let folders = existing
        .map(|l| l.project.config.paths.clone())
        .unwrap_or_default();
    let config = existing.and_then(|l| {
        l.project
            .config_file
            .map(|c| l.project.sources.get(c).text.clone())
    });
    // Every declaration file by its path on disk, the import's texts over the old ones.
    let mut files: std::collections::BTreeMap<PathBuf, (FileKind, String)> = Default::default();
    if let Some(l) = existing {
        for (id, f) in l.project.sources.iter() {
            let kind = l.project.file_kinds[id.0 as usize];
            if kind != FileKind::Config {
                files.insert(f.path.clone(), (kind, f.text.clone()));
            }
        }
    }
    let dirs = [
        (FileKind::Tool, root.join(&folders.schemas)),
        (FileKind::Intent, root.join(&folders.intents)),
        (FileKind::Alias, root.join(&folders.aliases)),
    ];
    for (path, text) in jobs {
        if let Some((kind, _)) = dirs.iter().find(|(_, d)| path.starts_with(d))
            && Format::from_path(path).is_some()
        {
            files.insert(path.clone(), (*kind, text.clone()));
        }
    }
    // Loaded under the folder names the in-memory loader knows.
    let mut names: Vec<(String, PathBuf)> = Vec::new();
    for (path, (kind, _)) in &files {
        let (prefix, dir) = match kind {
            FileKind::Tool => ("schemas", &dirs[0].1),
            FileKind::Intent => ("intents", &dirs[1].1),
            _ => ("aliases", &dirs[2].1),
        };
        let rel = path.strip_prefix(dir).unwrap_or(path);
        names.push((
            format!("{prefix}/{}", rel.to_string_lossy().replace('\\', "/")),
            path.clone(),
        ));
    }
    let pairs: Vec<(&str, &str)> = names
        .iter()
        .map(|(n, p)| (n.as_str(), files[p].1.as_str()))
        .collect();
    let loaded = crate::load::load_sources(config.as_deref(), &pairs);
    refuse_broken(&loaded, root)?;
    let paths: Vec<PathBuf> = loaded
        .project
        .sources
        .iter()
        .map(|(_, f)| {
            names
                .iter()
                .find(|(n, _)| *n == f.name)
                .map(|(_, p)| p.clone())
                .unwrap_or_else(|| f.path.clone())
        })
        .collect();
    let input = Input {
        project: &loaded.project,
        paths,
        root: root.to_path_buf(),
        folders,
    };
    plan(&input)
}
