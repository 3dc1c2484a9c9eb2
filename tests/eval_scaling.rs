//! `schemarouter eval scaling`: measured prompt-all vs intent-registry prompt tokens over
//! synthetic inventories, the figure, and the CLI.

use schemarouter::eval::{plots, report, scaling};

#[test]
fn prompt_all_grows_with_fields_the_registry_with_intents_and_tools() {
    let work = tempfile::tempdir().unwrap();
    let r = scaling::run(&[19, 60], 42, 30, work.path(), false, |_| {}).unwrap();
    assert_eq!(r.rows.len(), 2);
    let (small, large) = (&r.rows[0], &r.rows[1]);
    assert_eq!((small.tools, large.tools), (19, 60));
    assert!(large.fields > 3 * small.fields - small.fields / 2);
    for row in &r.rows {
        assert!(row.prompt_all_tokens > 10 * row.registry_tokens, "{row:?}");
        assert!(row.tool_list_tokens > 0 && row.tool_list_tokens < row.registry_tokens);
        assert!(row.route_p50_us > 0.0);
        assert_eq!(
            row.ratio,
            row.prompt_all_tokens as f64 / row.registry_tokens as f64
        );
    }
    // prompt-all grows about with the field count; the registry grows much slower.
    let all_growth = large.prompt_all_tokens as f64 / small.prompt_all_tokens as f64;
    let reg_growth = large.registry_tokens as f64 / small.registry_tokens as f64;
    assert!(all_growth > 2.5, "{all_growth}");
    assert!(reg_growth < all_growth, "{reg_growth} vs {all_growth}");
    // The generated projects are removed unless kept.
    assert_eq!(std::fs::read_dir(work.path()).unwrap().count(), 0);

    let text = report::scaling_text(&r);
    assert!(
        text.contains("prompt-all tokens") && text.contains("\n60 "),
        "{text}"
    );
    let md = report::scaling_markdown(&r);
    assert!(md.contains("| 19 |") && md.contains("| 60 |"), "{md}");
    let svg = plots::prompt_tokens_svg(&r).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("intent registry"));
}

#[test]
fn measuring_the_same_size_twice_gives_the_same_tokens() {
    let work = tempfile::tempdir().unwrap();
    let a = scaling::measure_size(25, 3, 30, work.path(), true).unwrap();
    assert!(
        work.path().join("tools-25/schemarouter.toml").exists(),
        "kept"
    );
    let b = scaling::measure_size(25, 3, 30, work.path(), false).unwrap();
    assert_eq!(
        (a.prompt_all_tokens, a.registry_tokens, a.fields),
        (b.prompt_all_tokens, b.registry_tokens, b.fields)
    );
}

#[test]
fn cli_scaling_json_and_plot() {
    let bin = env!("CARGO_BIN_EXE_schemarouter");
    let d = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(bin)
        .args([
            "eval", "scaling", "--sizes", "5,12", "--seed", "1", "--format", "json",
        ])
        .arg("--work")
        .arg(d.path().join("work"))
        .arg("--plots")
        .arg(d.path().join("plots"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["seed"], 1);
    assert_eq!(v["rows"].as_array().unwrap().len(), 2);
    assert_eq!(v["rows"][1]["tools"], 12);
    assert!(d.path().join("plots").join(plots::PROMPT_TOKENS).exists());
    let out = std::process::Command::new(bin)
        .args(["eval", "scaling", "--sizes", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
