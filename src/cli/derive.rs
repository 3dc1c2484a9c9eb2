//! `schemarouter derive [PATH] [--dry-run]`: derive the concept layer of a project and write it
//! (or say what would change).

use crate::derive::{DeriveOutcome, DeriveRequest, derive_project};
use crate::import::run::FileStatus;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `derive`.
#[derive(Debug, Args)]
pub struct DeriveArgs {
    /// The project folder (default: the current folder).
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// Print what would change; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the result as one JSON document.
    #[arg(long)]
    pub json: bool,
}

/// Print each file the derivation writes (or would), skipping those `skip` says another report
/// already listed; unchanged files are not listed.
pub fn print_files(d: &DeriveOutcome, dry_run: bool, skip: impl Fn(&str) -> bool) {
    for f in &d.files {
        let status = match (f.status, dry_run) {
            (FileStatus::New, false) => "new",
            (FileStatus::Updated, false) => "updated",
            (FileStatus::New, true) => "would add",
            (FileStatus::Updated, true) => "would update",
            (FileStatus::Unchanged, _) => continue,
        };
        if skip(&f.what) && f.status == FileStatus::New {
            continue;
        }
        println!("{status:<9} {}  ({})", f.path.display(), f.what);
    }
    for n in &d.notes {
        println!("note: {n}");
    }
}

/// Print the derivation's counts.
pub fn print_summary(d: &DeriveOutcome) {
    let s = &d.stats;
    println!(
        "derived: {} response concept(s), {} parameter concept(s), {} alias(es), {} field group(s), {} intent(s); {} field(s) with a concept, {} parameter binding(s), {} identifier field(s) marked",
        s.response_concepts,
        s.parameter_concepts,
        s.aliases,
        s.groups,
        s.intents,
        s.fields_with_concepts,
        s.bindings,
        s.identifiers
    );
}

/// Run `derive`.
pub fn run_derive(args: DeriveArgs) -> u8 {
    super::clean_up_on_interrupt();
    let req = DeriveRequest {
        project: args.path.clone(),
        dry_run: args.dry_run,
    };
    let out = match derive_project(&req) {
        Ok(o) => o,
        Err(e) => return super::usage_error(e.message, e.help),
    };
    if args.json {
        let mut v = serde_json::to_value(&out).unwrap_or_default();
        v["dry_run"] = serde_json::Value::Bool(args.dry_run);
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        return 0;
    }
    print_files(&out, args.dry_run, |_| false);
    print_summary(&out);
    if args.dry_run {
        println!("dry run: nothing was written");
    } else if !out.written {
        println!("nothing to change: the derived layer is up to date");
    }
    0
}
