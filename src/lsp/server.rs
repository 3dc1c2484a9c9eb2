//! The server's state and its answers: open documents, one checked [`Snapshot`] per project,
//! and a handler per request and notification. It does no I/O of its own: messages go in
//! through [`Server::handle`], replies come out of [`Server::take_outgoing`], and checks are
//! handed out by [`Server::next_job`] and brought back by [`Server::finish`] (the stdio loop in
//! [`super::serve`] runs them on a thread; tests and [`Server::run_jobs_inline`] run them in place).
//!
//! Stale runs: while a project's check runs, edits only mark it dirty; a check whose project
//! changed meanwhile is dropped unpublished and the next one reads the latest text, so fast
//! typing never queues checks behind each other.

use super::analysis::Snapshot;
use super::text::{LineIndex, apply_change};
use super::workspace::{display_name, path_to_uri, project_root, uri_to_path};
use super::{actions, completion, hover, publish};
use lsp_server::{ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::Notification as _;
use lsp_types::{
    CompletionResponse, GotoDefinitionResponse, Hover, HoverContents, Location, MarkupContent,
    MarkupKind, Position, PublishDiagnosticsParams, Range, Uri,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// An open document.
#[derive(Clone, Debug)]
pub struct Document {
    /// Its URI as the client wrote it.
    pub uri: Uri,
    /// The current text.
    pub text: String,
    /// The client's version number.
    pub version: i32,
}

/// What the server knows of one project.
#[derive(Default)]
struct ProjectState {
    snapshot: Option<Arc<Snapshot>>,
    /// Diagnostics last published, by file.
    published: HashMap<PathBuf, Vec<lsp_types::Diagnostic>>,
    /// Edited since the last check started.
    dirty: bool,
    /// A check is running.
    running: bool,
    /// Open documents edited since their diagnostics were last published.
    touched: BTreeSet<PathBuf>,
    /// The project's files as parsed by the last check: a check parses only changed files.
    cache: Arc<crate::load::ParseCache>,
}

/// A check to run: the project root, and its open documents' texts and versions.
pub struct Job {
    /// The project root.
    pub root: PathBuf,
    /// Display name -> text of the open documents.
    pub overlay: crate::load::Overlay,
    /// Path -> version of the open documents.
    pub versions: HashMap<PathBuf, i32>,
    /// The project's parse cache ([`crate::load::ParseCache`]); one check uses it at a time.
    pub cache: Arc<crate::load::ParseCache>,
}

impl Job {
    /// Run the check ([`Snapshot::check_cached`] with the project's parse cache).
    pub fn check(&self) -> Snapshot {
        Snapshot::check_cached(&self.root, &self.overlay, Some(&self.cache))
    }
}

/// The language server's state.
pub struct Server {
    docs: HashMap<PathBuf, Document>,
    projects: BTreeMap<PathBuf, ProjectState>,
    rules_url: String,
    outgoing: Vec<Message>,
}

impl Server {
    /// A server whose diagnostics link rules to `rules_url` (`docs/rules.md`).
    pub fn new(rules_url: impl Into<String>) -> Server {
        Server {
            docs: HashMap::new(),
            projects: BTreeMap::new(),
            rules_url: rules_url.into(),
            outgoing: Vec::new(),
        }
    }

    /// The current text of an open document.
    pub fn document(&self, uri: &Uri) -> Option<&str> {
        self.docs.get(&uri_to_path(uri)?).map(|d| d.text.as_str())
    }

    /// The messages to send, oldest first.
    pub fn take_outgoing(&mut self) -> Vec<Message> {
        std::mem::take(&mut self.outgoing)
    }

    /// Handle one message from the client. A handler that panics answers its request with an
    /// internal error; the session goes on.
    pub fn handle(&mut self, msg: Message) {
        match msg {
            Message::Request(req) => {
                let id = req.id.clone();
                let answer =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.request(req)));
                let response = match answer {
                    Ok(r) => r,
                    Err(_) => Response::new_err(
                        id,
                        ErrorCode::InternalError as i32,
                        "internal error".into(),
                    ),
                };
                self.outgoing.push(Message::Response(response));
            }
            Message::Notification(n) => {
                let _ =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.notification(n)));
            }
            Message::Response(_) => {}
        }
    }

    fn request(&mut self, req: Request) -> Response {
        use lsp_types::request::*;
        let id = req.id.clone();
        let result = match req.method.as_str() {
            HoverRequest::METHOD => params(&req).map(|p| to_json(self.hover(p))),
            GotoDefinition::METHOD => params(&req).map(|p| to_json(self.definition(p))),
            References::METHOD => params(&req).map(|p| to_json(self.references(p))),
            Completion::METHOD => params(&req).map(|p| to_json(self.completion(p))),
            CodeActionRequest::METHOD => params(&req).map(|p| to_json(self.code_action(p))),
            Shutdown::METHOD => Ok(serde_json::Value::Null),
            _ => {
                return Response::new_err(
                    id,
                    ErrorCode::MethodNotFound as i32,
                    format!("unknown method `{}`", req.method),
                );
            }
        };
        match result {
            Ok(v) => Response::new_ok(id, v),
            Err(message) => Response::new_err(id, ErrorCode::InvalidParams as i32, message),
        }
    }

    fn notification(&mut self, n: Notification) {
        use lsp_types::notification::*;
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Ok(p) =
                    n.extract::<lsp_types::DidOpenTextDocumentParams>(DidOpenTextDocument::METHOD)
                {
                    let d = p.text_document;
                    self.set_document(d.uri, d.text, d.version);
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Ok(p) = n.extract::<lsp_types::DidChangeTextDocumentParams>(
                    DidChangeTextDocument::METHOD,
                ) {
                    self.change(p);
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) =
                    n.extract::<lsp_types::DidCloseTextDocumentParams>(DidCloseTextDocument::METHOD)
                    && let Some(path) = uri_to_path(&p.text_document.uri)
                {
                    self.docs.remove(&path);
                    self.touch(&path);
                }
            }
            DidChangeWatchedFiles::METHOD | DidSaveTextDocument::METHOD => {
                for state in self.projects.values_mut() {
                    state.dirty = true;
                }
            }
            _ => {}
        }
    }

    /// Open (or replace) a document.
    pub fn set_document(&mut self, uri: Uri, text: String, version: i32) {
        let Some(path) = uri_to_path(&uri) else {
            return;
        };
        self.docs
            .insert(path.clone(), Document { uri, text, version });
        self.touch(&path);
    }

    fn change(&mut self, p: lsp_types::DidChangeTextDocumentParams) {
        let Some(path) = uri_to_path(&p.text_document.uri) else {
            return;
        };
        let Some(doc) = self.docs.get_mut(&path) else {
            return;
        };
        for c in p.content_changes {
            apply_change(&mut doc.text, c.range, &c.text);
        }
        doc.version = p.text_document.version;
        self.touch(&path);
    }

    /// Mark the project of `path` for a new check.
    fn touch(&mut self, path: &Path) {
        let Some(root) = project_root(path) else {
            return;
        };
        let state = self.projects.entry(root).or_default();
        state.dirty = true;
        if self.docs.contains_key(path) {
            state.touched.insert(path.to_path_buf());
        }
    }

    /// The next check to run: a project edited since its last check started, with no check
    /// running. The caller runs [`Snapshot::check`] and gives the result to [`Server::finish`].
    pub fn next_job(&mut self) -> Option<Job> {
        let (root, state) = self
            .projects
            .iter_mut()
            .find(|(_, s)| s.dirty && !s.running)?;
        state.dirty = false;
        state.running = true;
        let root = root.clone();
        let mut overlay = crate::load::Overlay::new();
        let mut versions = HashMap::new();
        for (path, doc) in &self.docs {
            if let Some(name) = display_name(&root, path) {
                overlay.insert(name, doc.text.clone());
                versions.insert(path.clone(), doc.version);
            }
        }
        let cache = Arc::clone(&state.cache);
        Some(Job {
            root,
            overlay,
            versions,
            cache,
        })
    }

    /// Take a finished check (`None` when it failed): publish its diagnostics unless the
    /// project changed while it ran.
    pub fn finish(&mut self, job: Job, snapshot: Option<Snapshot>) {
        let Some(state) = self.projects.get_mut(&job.root) else {
            return;
        };
        state.running = false;
        let Some(snapshot) = snapshot else { return };
        if state.dirty {
            return;
        }
        let fresh = publish::by_file(&snapshot, &self.rules_url);
        state.snapshot = Some(Arc::new(snapshot));
        let touched = std::mem::take(&mut state.touched);
        let mut paths: BTreeSet<PathBuf> = fresh.keys().cloned().collect();
        paths.extend(state.published.keys().cloned());
        paths.extend(touched.iter().cloned());
        for path in paths {
            let diagnostics = fresh.get(&path).cloned().unwrap_or_default();
            let open = self.docs.get(&path);
            let changed = state
                .published
                .get(&path)
                .map_or(!diagnostics.is_empty(), |old| *old != diagnostics);
            if !changed && !touched.contains(&path) {
                continue;
            }
            let uri = match open {
                Some(d) => d.uri.clone(),
                None => match path_to_uri(&path) {
                    Some(u) => u,
                    None => continue,
                },
            };
            if diagnostics.is_empty() {
                state.published.remove(&path);
            } else {
                state.published.insert(path.clone(), diagnostics.clone());
            }
            let params =
                PublishDiagnosticsParams::new(uri, diagnostics, job.versions.get(&path).copied());
            self.outgoing.push(Message::Notification(Notification::new(
                lsp_types::notification::PublishDiagnostics::METHOD.to_string(),
                params,
            )));
        }
    }

    /// Run every pending check here and now (for tests and benchmarks of the handlers).
    pub fn run_jobs_inline(&mut self) {
        while let Some(job) = self.next_job() {
            let snapshot = std::panic::catch_unwind(|| job.check()).ok();
            self.finish(job, snapshot);
        }
    }

    /// The snapshot, file and byte offset of a position in a document.
    fn locate(
        &self,
        uri: &Uri,
        pos: Position,
    ) -> Option<(Arc<Snapshot>, crate::source::FileId, usize)> {
        let path = uri_to_path(uri)?;
        let root = project_root(&path)?;
        let snapshot = self.projects.get(&root)?.snapshot.clone()?;
        let file = snapshot.file(&path)?;
        let text = &snapshot.checked.as_ref()?.project.sources.get(file).text;
        let offset = LineIndex::new(text).offset(text, pos)?;
        Some((snapshot, file, offset))
    }

    fn hover(&self, p: lsp_types::HoverParams) -> Option<Hover> {
        let tp = p.text_document_position_params;
        let (snapshot, file, offset) = self.locate(&tp.text_document.uri, tp.position)?;
        let value = hover::hover(&snapshot, file, offset)?;
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value,
            }),
            range: None,
        })
    }

    fn locations<'a>(
        &self,
        snapshot: &Snapshot,
        occurrences: impl Iterator<Item = &'a super::symbols::Occurrence>,
    ) -> Vec<Location> {
        let Some(checked) = &snapshot.checked else {
            return Vec::new();
        };
        occurrences
            .filter_map(|o| {
                let uri = path_to_uri(&snapshot.path(o.file)?)?;
                let text = &checked.project.sources.get(o.file).text;
                let range =
                    LineIndex::new(text).range(text, o.span.start as usize, o.span.end as usize);
                Some(Location::new(uri, range))
            })
            .collect()
    }

    fn definition(&self, p: lsp_types::GotoDefinitionParams) -> Option<GotoDefinitionResponse> {
        let tp = p.text_document_position_params;
        let (snapshot, file, offset) = self.locate(&tp.text_document.uri, tp.position)?;
        let o = snapshot.symbols.at(file, offset)?;
        let defs = snapshot.symbols.definitions(o.kind, &o.key);
        let locations = self.locations(&snapshot, defs.into_iter());
        (!locations.is_empty()).then_some(GotoDefinitionResponse::Array(locations))
    }

    fn references(&self, p: lsp_types::ReferenceParams) -> Option<Vec<Location>> {
        let tp = p.text_document_position;
        let (snapshot, file, offset) = self.locate(&tp.text_document.uri, tp.position)?;
        let o = snapshot.symbols.at(file, offset)?;
        let refs = snapshot
            .symbols
            .references(o.kind, &o.key, p.context.include_declaration);
        Some(self.locations(&snapshot, refs.into_iter()))
    }

    fn completion(&self, p: lsp_types::CompletionParams) -> Option<CompletionResponse> {
        let tp = p.text_document_position;
        let path = uri_to_path(&tp.text_document.uri)?;
        let doc = self.docs.get(&path)?;
        let index = LineIndex::new(&doc.text);
        let offset = index.offset(&doc.text, tp.position)?;
        let line_start = index.line_start(&doc.text, index.line_of(offset));
        let start = line_start + completion::word_start(&doc.text[line_start..offset]);
        let range = Range::new(
            index.position(&doc.text, start),
            index.position(&doc.text, offset),
        );
        let snapshot = project_root(&path).and_then(|r| self.projects.get(&r)?.snapshot.clone());
        let items = completion::complete(snapshot.as_deref(), &doc.text, offset, range);
        Some(CompletionResponse::Array(items))
    }

    fn code_action(&self, p: lsp_types::CodeActionParams) -> Option<lsp_types::CodeActionResponse> {
        let uri = &p.text_document.uri;
        let (snapshot, file, start) = self.locate(uri, p.range.start)?;
        let text = &snapshot.checked.as_ref()?.project.sources.get(file).text;
        let end = LineIndex::new(text)
            .offset(text, p.range.end)
            .unwrap_or(text.len());
        Some(actions::actions(
            &snapshot,
            file,
            uri,
            start,
            end.max(start),
        ))
    }
}

fn params<P: serde::de::DeserializeOwned>(req: &Request) -> Result<P, String> {
    serde_json::from_value(req.params.clone()).map_err(|e| format!("invalid parameters: {e}"))
}

fn to_json<T: serde::Serialize>(v: T) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
}
