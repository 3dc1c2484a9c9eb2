//! `compile`, `stats` and `graph`.

use crate::artifact::FrozenGraph;
use crate::compiled::{self, CompiledProject, Forms, Refused, WriteError, Written};
use crate::diagnostics::Summary;
use crate::diagnostics::render::{self, OutputFormat};
use crate::lint;
use crate::prompt;
use clap::Args;
use std::path::{Path, PathBuf};

/// Arguments of `schemarouter compile`.
#[derive(Debug, Args)]
pub struct CompileArgs {
    /// Project folder.
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// Output folder for `graph.json` (or `graph.bin`) and `intent_prompt.txt` [default:
    /// PATH/build, where `route`, `serve`, `mcp`, `eval` and `extract` look for the artifact].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Artifact form: `json` (default, compact), `bin` (the memory-mapped binary form that
    /// `route` opens fastest), or `both`.
    #[arg(long, value_enum, default_value_t = ArtifactFormat::Json)]
    pub format: ArtifactFormat,
    /// Write `graph.json` indented, for people (it carries the compact form's content hash and
    /// loads more slowly).
    #[arg(long)]
    pub pretty: bool,
    /// Do not write: exit 1 when the files in --out differ from what compile would write.
    #[arg(long)]
    pub check: bool,
}

/// Artifact forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ArtifactFormat {
    /// graph.json
    Json,
    /// graph.bin
    Bin,
    /// both files
    Both,
}

impl From<ArtifactFormat> for Forms {
    fn from(f: ArtifactFormat) -> Forms {
        match f {
            ArtifactFormat::Json => Forms::Json,
            ArtifactFormat::Bin => Forms::Bin,
            ArtifactFormat::Both => Forms::Both,
        }
    }
}

/// Check and compile a project ([`compiled`]); on errors print them to stderr and return the
/// exit code. `command` names the subcommand for help lines (`compile`, `stats`, `graph`).
pub fn compile_project(path: &Path, command: &str) -> Result<CompiledProject, u8> {
    let mut checked = match compiled::check(path) {
        Ok(c) => c,
        Err(e) => {
            super::report_fatal(&e, command, path);
            return Err(super::EXIT_USAGE);
        }
    };
    if compiled::refuses(&checked) {
        // Only these failures print file names; show them under the path as typed.
        let prefix = OutputFormat::Concise.path_prefix(path, None);
        checked.project.sources.prefix_names(&prefix);
        return Err(report_refused(&checked, path, command));
    }
    if !checked.suppressed_errors.is_empty() {
        // Compiled anyway, as the comments ask; but what an error concerns is left out of the
        // artifact (a unit that cannot be read carries none), so say which.
        let prefix = OutputFormat::Concise.path_prefix(path, None);
        checked.project.sources.prefix_names(&prefix);
        let n = checked.suppressed_errors.len();
        eprintln!(
            "warning: {n} error finding{} suppressed by `schemarouter: allow(...)` comments; the artifact leaves out what {} concern{}:",
            if n == 1 { " is" } else { "s are" },
            if n == 1 { "it" } else { "they" },
            if n == 1 { "s" } else { "" },
        );
        for d in &checked.suppressed_errors {
            eprint!("  {}", render::concise::line(d, &checked.project.sources));
        }
    }
    let s = Summary::of(&checked.diagnostics);
    if s.warnings + s.infos > 0 {
        eprintln!(
            "note: check found {} warning(s) and {} info(s); run `schemarouter check` for details",
            s.warnings, s.infos
        );
    }
    CompiledProject::from_checked(checked).map_err(|e| match e {
        Refused::Setting { message, help } => super::usage_error(message, help),
        other => super::usage_error(other, "run `schemarouter check` for details"),
    })
}

/// Print why a checked project is refused (an I/O error: exit 2; error findings: exit 1).
fn report_refused(checked: &lint::Checked, path: &Path, command: &str) -> u8 {
    if checked.io_error {
        eprint!(
            "{}",
            render::render(
                OutputFormat::Concise,
                &checked.diagnostics,
                &checked.project.sources,
                false
            )
        );
        return super::EXIT_USAGE;
    }
    let errors = Summary::of(&checked.diagnostics).errors;
    // The errors are shown, and the note of the checks a broken file made `check` skip
    // (`checks-skipped`), as `check` shows it; the count line counts every finding.
    let shown_findings: Vec<_> = checked
        .diagnostics
        .iter()
        .filter(|d| d.severity == crate::diagnostics::Severity::Error || d.name == "checks-skipped")
        .cloned()
        .collect();
    let shown = render::render(
        OutputFormat::Human,
        &shown_findings,
        &checked.project.sources,
        false,
    );
    let frames = shown
        .strip_suffix(&render::human::summary_line(&shown_findings))
        .unwrap_or(&shown);
    eprint!(
        "{frames}{}",
        render::human::summary_line(&checked.diagnostics)
    );
    eprintln!("error: refusing to compile: `schemarouter check` found {errors} error(s)");
    eprintln!(
        "help: fix the errors above (`schemarouter check {}` shows every finding), then run `schemarouter {command}` again",
        path.display()
    );
    1
}

/// Run `compile`.
pub fn run_compile(mut args: CompileArgs) -> u8 {
    let out = args.out.take().unwrap_or_else(|| {
        if args.path == Path::new(".") {
            PathBuf::from(super::locate::BUILD_DIR)
        } else {
            args.path.join(super::locate::BUILD_DIR)
        }
    });
    // Before the (possibly long) compile: --out must be a folder or not exist yet, and so must
    // every folder above it.
    if let Some(bad) = out.ancestors().find(|a| a.exists() && !a.is_dir()) {
        let what = if bad == out {
            format!("`{}` exists and is not a folder", out.display())
        } else {
            format!(
                "`{}` (in --out `{}`) exists and is not a folder",
                bad.display(),
                out.display()
            )
        };
        let verb = if args.check {
            "nothing was compared"
        } else {
            "nothing was written"
        };
        return super::usage_error(
            format!("{what}; {verb}"),
            "pass a folder to --out (it is created when missing)",
        );
    }
    let mut compiled = match compile_project(&args.path, "compile") {
        Ok(c) => c,
        Err(code) => return code,
    };
    let forms = Forms::from(args.format);
    if args.check {
        let compared = compiled.compare(&out, forms);
        if compared.stale.is_empty() {
            println!(
                "up to date: {}; verified {}",
                summary_line(&compiled),
                shown_files(&compared.verified)
            );
            return 0;
        }
        for s in &compared.stale {
            eprintln!("stale: {s}");
        }
        eprintln!("error: the committed artifact does not match the sources");
        eprintln!(
            "help: run `{}` and commit the result",
            rewrite_command(&args, &out)
        );
        return 1;
    }
    super::clean_up_on_interrupt();
    let written = match compiled.write(&out, forms, args.pretty, crate::diff::git::is_tracked) {
        Ok(w) => w,
        Err(WriteError::Create(e)) => {
            return super::usage_error(
                format!(
                    "cannot create `{}`: {e}; nothing was written",
                    out.display()
                ),
                "pass a folder you can write to with --out",
            );
        }
        Err(WriteError::Write(e)) => {
            return super::usage_error(
                format!(
                    "cannot write into `{}`: {e}; nothing was changed",
                    out.display()
                ),
                "check that the folder is writable and the disk has room, or pass another folder with --out",
            );
        }
    };
    report_other_form(&written);
    println!(
        "{} -> {}",
        summary_line(&compiled),
        shown_files(&written.files)
    );
    // The process ends right after: leave the artifact to the operating system.
    std::mem::forget(compiled);
    0
}

/// After a compile: say which git-tracked artifact of the other form was kept current, and
/// which untracked one left by an earlier run was removed (readers pick the newer of the two,
/// so a stale one must not stay).
fn report_other_form(written: &Written) {
    for p in &written.refreshed {
        eprintln!(
            "note: also wrote {} (the other artifact form): git tracks it, so it is kept current rather than removed; pass `--format both` to ask for it, or `git rm` it to stop",
            p.display()
        );
    }
    for (p, r) in &written.removed {
        match r {
            Ok(()) => eprintln!(
                "note: removed stale {} (the other artifact form; readers would otherwise pick the newer of the two)",
                p.display()
            ),
            Err(e) => eprintln!(
                "warning: {} (the other artifact form) is stale and could not be removed: {e}; delete it, or readers may pick it",
                p.display()
            ),
        }
    }
}

/// The `compile` command that writes what `compile --check` compared: the project, `--out`,
/// and every option that changes the written bytes (`--format`, and `--pretty` when
/// `graph.json` is written), each path quoted for the shell when it needs to be.
fn rewrite_command(args: &CompileArgs, out: &Path) -> String {
    let mut cmd = format!(
        "schemarouter compile {} --out {}",
        shell_word(&args.path.to_string_lossy()),
        shell_word(&out.to_string_lossy())
    );
    match args.format {
        ArtifactFormat::Json => {}
        ArtifactFormat::Bin => cmd.push_str(" --format bin"),
        ArtifactFormat::Both => cmd.push_str(" --format both"),
    }
    if args.pretty && args.format != ArtifactFormat::Bin {
        cmd.push_str(" --pretty");
    }
    cmd
}

/// `word` as one POSIX shell word: as it is when it holds only characters no shell treats
/// specially, else in single quotes (a `'` inside written `'\''`).
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-.,/:@%+=".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// `compiled NAME VERSION: counts; content hash; prompt tokens`.
fn summary_line(c: &CompiledProject) -> String {
    let g = &c.graph;
    let endpoints: usize = g.tools.iter().map(|t| t.endpoints.len()).sum();
    format!(
        "compiled {} {}: {} tools, {} endpoints, {} fields, {} concepts, {} intents; content hash {}; prompt {} tokens",
        g.project.name,
        g.project.version,
        g.tools.len(),
        endpoints,
        g.field_count(),
        g.concepts.len(),
        g.intents.len(),
        g.content_hash.get(..16).unwrap_or(""),
        prompt::count_tokens(&c.prompt),
    )
}

/// Full paths, comma-separated: where the files are is not always where the user looks.
fn shown_files(files: &[PathBuf]) -> String {
    files
        .iter()
        .map(|p| {
            std::path::absolute(p)
                .unwrap_or_else(|_| p.clone())
                .display()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Arguments of `schemarouter stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Project folder (ignored with --artifact).
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// Read a compiled artifact instead of compiling the project.
    #[arg(long)]
    pub artifact: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = StatsFormat::Table)]
    pub format: StatsFormat,
}

/// Output formats of `stats`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum StatsFormat {
    /// Aligned text tables.
    Table,
    /// One JSON object (`nodes`, `edges`, `alias_texts`, `prompt_tokens`,
    /// `prompt_all_tokens`, `ratio`).
    Json,
    /// Markdown tables (for a pull-request comment or a README).
    Markdown,
}

/// Load an artifact, or compile the project in memory (`command` names the subcommand for help
/// lines).
pub fn graph_for(
    path: &Path,
    artifact: Option<&Path>,
    command: &str,
) -> Result<(FrozenGraph, String), u8> {
    match artifact {
        Some(a) => match FrozenGraph::load(a) {
            Ok(g) => {
                let (prompt, _) = prompt::read_beside(a, &g);
                Ok((g, prompt))
            }
            Err(e) => Err(super::usage_error(
                format!("{}: {e}", a.display()),
                super::artifact_help(a),
            )),
        },
        None => compile_project(path, command).map(|c| (c.graph, c.prompt)),
    }
}

/// The `stats` numbers.
#[derive(Debug, serde::Serialize)]
pub struct Stats {
    /// Node counts per kind.
    pub nodes: std::collections::BTreeMap<String, usize>,
    /// Edge count.
    pub edges: usize,
    /// Alias texts in the index.
    pub alias_texts: usize,
    /// Intent-registry prompt tokens (o200k_base).
    pub prompt_tokens: usize,
    /// Prompt-all rendering tokens (o200k_base).
    pub prompt_all_tokens: usize,
    /// prompt_all_tokens / prompt_tokens.
    pub ratio: f64,
}

/// Compute stats of an artifact and its prompt.
pub fn stats(g: &FrozenGraph, prompt_text: &str) -> Stats {
    let mut nodes = std::collections::BTreeMap::new();
    for n in &g.graph.nodes {
        *nodes.entry(format!("{:?}", n.kind)).or_insert(0) += 1;
    }
    let prompt_tokens = prompt::count_tokens(prompt_text);
    let prompt_all_tokens = prompt::count_tokens(&prompt::render_prompt_all(g));
    Stats {
        nodes,
        edges: g.graph.edges.len(),
        alias_texts: g.index.alias_to_concept.len() + g.index.alias_to_field.len(),
        prompt_tokens,
        prompt_all_tokens,
        ratio: if prompt_tokens == 0 {
            0.0
        } else {
            prompt_all_tokens as f64 / prompt_tokens as f64
        },
    }
}

/// Render stats as a table.
pub fn stats_table(s: &Stats) -> String {
    let mut out = String::from("node kind          count\n");
    for (k, v) in &s.nodes {
        out.push_str(&format!("{k:<18} {v:>5}\n"));
    }
    out.push_str(&format!("{:<18} {:>5}\n", "edges", s.edges));
    out.push_str(&format!("{:<18} {:>5}\n\n", "alias texts", s.alias_texts));
    out.push_str("routing prompt                 tokens (o200k_base)\n");
    out.push_str(&format!(
        "{:<30} {:>7}\n",
        "intent registry (ours)", s.prompt_tokens
    ));
    out.push_str(&format!(
        "{:<30} {:>7}\n",
        "prompt-all (whole schema)", s.prompt_all_tokens
    ));
    out.push_str(&format!("{:<30} {:>7.1}x\n", "ratio", s.ratio));
    out
}

/// Render stats as two Markdown tables (the same rows as [`stats_table`]).
pub fn stats_markdown(s: &Stats) -> String {
    let mut out = String::from("| node kind | count |\n|---|---:|\n");
    for (k, v) in &s.nodes {
        out.push_str(&format!("| {k} | {v} |\n"));
    }
    out.push_str(&format!("| edges | {} |\n", s.edges));
    out.push_str(&format!("| alias texts | {} |\n\n", s.alias_texts));
    out.push_str("| routing prompt | tokens (o200k_base) |\n|---|---:|\n");
    out.push_str(&format!(
        "| intent registry (ours) | {} |\n",
        s.prompt_tokens
    ));
    out.push_str(&format!(
        "| prompt-all (whole schema) | {} |\n",
        s.prompt_all_tokens
    ));
    out.push_str(&format!("| ratio | {:.1}x |\n", s.ratio));
    out
}

/// Run `stats`.
pub fn run_stats(args: StatsArgs) -> u8 {
    let (g, prompt_text) = match graph_for(&args.path, args.artifact.as_deref(), "stats") {
        Ok(x) => x,
        Err(c) => return c,
    };
    let s = stats(&g, &prompt_text);
    match args.format {
        StatsFormat::Table => print!("{}", stats_table(&s)),
        StatsFormat::Markdown => print!("{}", stats_markdown(&s)),
        StatsFormat::Json => {
            println!("{}", serde_json::to_string_pretty(&s).unwrap_or_default())
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(format: ArtifactFormat, pretty: bool, path: &str) -> CompileArgs {
        CompileArgs {
            path: PathBuf::from(path),
            out: None,
            format,
            pretty,
            check: true,
        }
    }

    #[test]
    fn the_rewrite_command_repeats_every_option_that_changes_the_written_bytes() {
        let out = Path::new("chk");
        let cases = [
            (
                ArtifactFormat::Json,
                false,
                "proj",
                "schemarouter compile proj --out chk",
            ),
            (
                ArtifactFormat::Json,
                true,
                "proj",
                "schemarouter compile proj --out chk --pretty",
            ),
            (
                ArtifactFormat::Both,
                true,
                "proj",
                "schemarouter compile proj --out chk --format both --pretty",
            ),
            // `--pretty` indents `graph.json`; `graph.bin` alone is the same without it.
            (
                ArtifactFormat::Bin,
                true,
                "proj",
                "schemarouter compile proj --out chk --format bin",
            ),
            (
                ArtifactFormat::Json,
                false,
                "my proj/it's",
                "schemarouter compile 'my proj/it'\\''s' --out chk",
            ),
        ];
        for (format, pretty, path, want) in cases {
            assert_eq!(rewrite_command(&args(format, pretty, path), out), want);
        }
    }
}
