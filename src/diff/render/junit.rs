//! JUnit XML: one `<testsuite>` per class (breaking, dangerous, safe), one `<testcase>` per change.
//! Changes at or above the gate fail, accepted changes are skipped with their reason, the rest
//! pass; unmatched acceptances and changed plans get suites of their own. No timestamps, so the
//! output is identical between runs.

use super::RenderOptions;
use crate::diagnostics::render::junit::{escape_xml, escape_xml_text};
use crate::diff::{Change, Class, Report};
use std::fmt::Write as _;

struct Case {
    name: String,
    classname: String,
    body: String,
    failed: bool,
}

fn change_case(c: &Change, failing: bool) -> Case {
    let mut text = format!("{}\nentity: {}", c.message, c.entity);
    if let Some(l) = &c.old_location {
        let _ = write!(text, "\nold: {l}");
    }
    if let Some(l) = &c.new_location {
        let _ = write!(text, "\nnew: {l}");
    }
    let _ = write!(text, "\nfingerprint: {}", c.fingerprint);
    let body = if let Some(r) = &c.accepted {
        format!(
            "      <skipped message=\"{}\"/>\n",
            escape_xml(&format!("accepted: {r}"))
        )
    } else if failing {
        format!(
            "      <failure message=\"{}\" type=\"{}\">{}</failure>\n",
            escape_xml(&c.message),
            escape_xml(c.code),
            escape_xml_text(&text)
        )
    } else {
        format!(
            "      <system-out>{}</system-out>\n",
            escape_xml_text(&text)
        )
    };
    Case {
        name: format!("{} {}", c.code, c.entity),
        classname: c.class.as_str().to_string(),
        body,
        failed: failing && c.accepted.is_none(),
    }
}

fn suite(out: &mut String, name: &str, cases: &[Case]) {
    let failures = cases.iter().filter(|c| c.failed).count();
    let _ = writeln!(
        out,
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\">",
        escape_xml(name),
        cases.len()
    );
    for c in cases {
        if c.body.is_empty() {
            let _ = writeln!(
                out,
                "    <testcase name=\"{}\" classname=\"{}\"/>",
                escape_xml(&c.name),
                escape_xml(&c.classname)
            );
        } else {
            let _ = write!(
                out,
                "    <testcase name=\"{}\" classname=\"{}\">\n{}    </testcase>\n",
                escape_xml(&c.name),
                escape_xml(&c.classname),
                c.body
            );
        }
    }
    let _ = writeln!(out, "  </testsuite>");
}

/// Render the report as JUnit XML.
pub fn render(report: &Report, opts: RenderOptions) -> String {
    let mut suites: Vec<(String, Vec<Case>)> = Vec::new();
    for class in Class::ALL {
        let cases: Vec<Case> = report
            .changes
            .iter()
            .filter(|c| c.class == class)
            .map(|c| change_case(c, opts.fail_on.fails(c.class)))
            .collect();
        if !cases.is_empty() {
            suites.push((class.as_str().to_string(), cases));
        }
    }
    if report.changes.is_empty() {
        suites.push((
            "schema diff".to_string(),
            vec![Case {
                name: "no schema changes".to_string(),
                classname: "schema diff".to_string(),
                body: String::new(),
                failed: false,
            }],
        ));
    }
    if !report.unmatched_acceptances.is_empty() {
        let cases = report
            .unmatched_acceptances
            .iter()
            .map(|a| Case {
                name: format!("acceptance {}", a.fingerprint),
                classname: "acceptances".to_string(),
                body: format!(
                    "      <skipped message=\"{}\"/>\n",
                    escape_xml(&format!("{} (reason: {})", a.why(), a.reason))
                ),
                failed: false,
            })
            .collect();
        suites.push(("unmatched acceptances".to_string(), cases));
    }
    if let Some(p) = &report.plan_impact
        && !p.changed.is_empty()
    {
        let cases = p
            .changed
            .iter()
            .map(|c| Case {
                name: c.id.clone(),
                classname: "plan impact".to_string(),
                body: format!(
                    "      <system-out>{}</system-out>\n",
                    escape_xml_text(&c.summary())
                ),
                failed: false,
            })
            .collect();
        suites.push(("plan impact".to_string(), cases));
    }
    let tests: usize = suites.iter().map(|(_, c)| c.len()).sum();
    let failures: usize = suites
        .iter()
        .map(|(_, c)| c.iter().filter(|x| x.failed).count())
        .sum();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"schemarouter diff\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\">"
    );
    for (name, cases) in &suites {
        suite(&mut out, name, cases);
    }
    out.push_str("</testsuites>\n");
    out
}
