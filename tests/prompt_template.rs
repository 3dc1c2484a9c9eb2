//! The intent-registry prompt with a project template, and the guard that keeps templates
//! inside the project.

use schemarouter::lint::check_path;
use std::path::Path;

fn project_with(config_extra: &str, template: Option<(&str, &str)>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["schemas", "intents", "aliases"] {
        let from = Path::new("tests/fixtures/valid-yaml").join(sub);
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), dir.path().join(sub).join(e.file_name())).unwrap();
        }
    }
    std::fs::write(
        dir.path().join("schemarouter.toml"),
        format!("[project]\nname = \"t\"\nversion = \"1\"\n{config_extra}"),
    )
    .unwrap();
    if let Some((name, text)) = template {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

#[test]
fn custom_template_fills_placeholders() {
    let dir = project_with(
        "[prompt]\ntemplate = \"prompt.tmpl\"\n",
        Some((
            "prompt.tmpl",
            "Pick one of:\n{{intents}}\nParams: {{parameter_concepts}}\nTools: {{tool_names}}\nSources: {{source_types}}",
        )),
    );
    let c = check_path(dir.path()).unwrap();
    assert!(!c.has_errors(), "{:?}", c.diagnostics);
    let g = schemarouter::artifact::build::compile(&c.project, &c.index, &c.units);
    let template = schemarouter::prompt::project_template(&c.project).unwrap();
    let text = schemarouter::prompt::render(&g, template.as_deref());
    assert_eq!(
        text,
        "Pick one of:\n- electronic_property: Band gap, Fermi level and other electronic properties of a material.\nParams: formula\nTools: materials_project\nSources: experimental, calculated, literature, regulatory_filing, web\n"
    );
}

#[test]
fn template_outside_the_project_is_not_read() {
    let dir = project_with("[prompt]\ntemplate = \"../outside.tmpl\"\n", None);
    std::fs::write(dir.path().parent().unwrap().join("outside.tmpl"), "secret").unwrap();
    let c = check_path(dir.path()).unwrap();
    let d = c
        .diagnostics
        .iter()
        .find(|d| d.name == "io-error")
        .expect("an error");
    assert_eq!(
        d.message,
        "prompt template `../outside.tmpl` is outside the project folder; it is not read"
    );
}
