//! The README's claims that the product can check by itself (issue 17, part 10): the example
//! diagnostic is what `check .` prints first on the shipped project, and the compile line quoted
//! under the set-up commands is what `compile` prints.

use std::process::Command;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// The text of the first fenced block after `heading`.
fn block_after(text: &str, heading: &str) -> String {
    let at = text.find(heading).expect("heading in README");
    let rest = &text[at..];
    let open = rest.find("```text\n").expect("a text block") + "```text\n".len();
    let close = rest[open..].find("\n```").expect("closed block");
    rest[open..open + close].to_string()
}

fn run(args: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_schemarouter"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn the_example_diagnostic_is_what_check_prints_first() {
    let example = block_after(&readme(), "## An example diagnostic");
    let (stdout, _) = run(&["check", "."]);
    assert!(
        stdout.starts_with(&format!("{example}\n")),
        "README example:\n{example}\n\ncheck . prints:\n{stdout}"
    );
}

#[test]
fn the_quoted_compile_line_is_what_compile_prints() {
    let text = readme();
    let quoted = text
        .lines()
        .find_map(|l| l.strip_prefix("`compiled materials-16"))
        .expect("the compile line in README");
    let quoted = format!(
        "compiled materials-16{}",
        quoted.split("; ...`").next().unwrap()
    );
    let dir = tempfile::tempdir().unwrap();
    let (stdout, _) = run(&["compile", ".", "--out", dir.path().to_str().unwrap()]);
    assert!(stdout.starts_with(&quoted), "{quoted}\nvs\n{stdout}");
}
