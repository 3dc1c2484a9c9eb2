//! `check --fix`, `--unsafe-fixes`, `--diff` and `--add-suppressions`: the edits are made in
//! memory by [`crate::lint::fix`]; this module prints the diff or writes the changed files, all
//! of them or none (temporary files, fsync, rename).

use super::check::CheckArgs;
use crate::diagnostics::fix::Applicability;
use crate::lint::fix::{self, FileChange, FixOutcome};

/// Run the edit of `args`; returns the project checked after it (its findings are then reported
/// as by `check`), or the exit code when the run ends here (`--diff`, errors).
pub(super) fn run(args: &CheckArgs) -> Result<crate::lint::Checked, u8> {
    let outcome = match &args.add_suppressions {
        Some(reason) if reason.trim().is_empty() => {
            return Err(super::usage_error(
                "`--add-suppressions` needs a reason",
                "say why the findings are accepted: `--add-suppressions \"imported; reviewed later\"`",
            ));
        }
        Some(reason) => fix::add_suppressions(&args.path, reason),
        None => fix::fix_project(
            &args.path,
            if args.unsafe_fixes {
                Applicability::Unsafe
            } else {
                Applicability::Safe
            },
        ),
    };
    let outcome = match outcome {
        Ok(o) => o,
        Err(e) => {
            super::report_fatal(&e, "check", &args.path);
            return Err(super::EXIT_USAGE);
        }
    };
    for (name, why) in &outcome.rolled_back {
        eprintln!("warning: left `{name}` as it was: {why}");
    }
    if outcome.unfinished {
        eprintln!(
            "warning: fixes still applied after {} passes; run `check --fix` again",
            fix::MAX_PASSES
        );
    }
    let remaining = outcome.checked.diagnostics.len();
    if args.diff {
        print!("{}", unified_diff(&outcome.changes));
        eprintln!(
            "{} would be fixed in {} file(s) ({remaining} remaining)",
            outcome.fixed,
            outcome.changes.len()
        );
        return Err(u8::from(!outcome.changes.is_empty()));
    }
    write(&outcome)?;
    let verb = if args.add_suppressions.is_some() {
        "suppressed"
    } else {
        "fixed"
    };
    eprintln!(
        "{} {verb} in {} file(s) ({remaining} remaining)",
        outcome.fixed,
        outcome.changes.len()
    );
    Ok(outcome.checked)
}

/// The unified diff of every changed file, `a/NAME` against `b/NAME` (names relative to the
/// project root), three lines of context.
pub fn unified_diff(changes: &[FileChange]) -> String {
    let mut out = String::new();
    for c in changes {
        let diff = similar::TextDiff::from_lines(&c.before, &c.after);
        out.push_str(
            &diff
                .unified_diff()
                .context_radius(3)
                .header(&format!("a/{}", c.name), &format!("b/{}", c.name))
                .to_string(),
        );
    }
    out
}

/// Write the changed files, all or none; refuse when a file changed on disk since it was read.
fn write(outcome: &FixOutcome) -> Result<(), u8> {
    for c in &outcome.changes {
        let now = std::fs::read(&c.path).unwrap_or_default();
        if now != c.before.as_bytes() {
            return Err(super::usage_error(
                format!(
                    "`{}` changed on disk while it was being fixed (or is not UTF-8); nothing was written",
                    c.path.display()
                ),
                "run the command again",
            ));
        }
    }
    let jobs: Vec<crate::artifact::io::WriteJob> = outcome
        .changes
        .iter()
        .map(|c| {
            let text = c.after.clone();
            (
                c.path.clone(),
                Box::new(move |f: &mut std::fs::File| std::io::Write::write_all(f, text.as_bytes()))
                    as Box<dyn FnOnce(&mut std::fs::File) -> std::io::Result<()>>,
            )
        })
        .collect();
    if jobs.is_empty() {
        return Ok(());
    }
    super::clean_up_on_interrupt();
    crate::artifact::io::write_all_atomic(jobs).map_err(|e| {
        super::usage_error(
            format!("cannot write the fixed files: {e}; nothing was written"),
            "check that the declaration files and their folders are writable",
        )
    })
}
