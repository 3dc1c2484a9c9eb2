//! An interrupted compile (issue 38, part 2): temporary files a killed compile left in `build/`
//! are ignored by `check`, `compile --check` and `route`, and removed by the next `compile`
//! (never one a running process is writing); Ctrl-C or `SIGTERM` during the write leaves none.

use std::path::Path;
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_schemarouter"))
}

fn run(cwd: &Path, args: &[&str]) -> Output {
    bin().current_dir(cwd).args(args).output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A copy of the shipped project in a fresh folder.
fn shipped_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for sub in ["schemas", "intents", "aliases"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        for e in std::fs::read_dir(root.join(sub)).unwrap() {
            let p = e.unwrap().path();
            std::fs::copy(&p, dir.path().join(sub).join(p.file_name().unwrap())).unwrap();
        }
    }
    std::fs::copy(
        root.join("schemarouter.toml"),
        dir.path().join("schemarouter.toml"),
    )
    .unwrap();
    dir
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[cfg(target_os = "linux")]
#[test]
fn the_next_compile_removes_what_a_killed_one_left_and_spares_a_live_writer() {
    let dir = shipped_copy();
    let p = dir.path();
    let o = run(p, &["compile", "."]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let build = p.join("build");
    // A concurrent writer, still running.
    let mut sleeper = Command::new("sleep").arg("30").spawn().unwrap();
    let live = sleeper.id();
    let dead = ".graph.json.tmp-4294967294-0".to_string();
    let writing = format!(".graph.json.tmp-{live}-0");
    let reused = format!(".intent_prompt.txt.tmp-{live}-1");
    for n in [&dead, &writing, &reused] {
        std::fs::write(build.join(n), "half a file").unwrap();
    }
    // Written an hour before the process now holding its id started: its writer is gone.
    std::fs::File::options()
        .write(true)
        .open(build.join(&reused))
        .unwrap()
        .set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(3600))
        .unwrap();
    let planted = names(&build);
    assert_eq!(planted.len(), 5);

    // Readers ignore them and leave them.
    let o = run(p, &["check", ".", "--format", "concise"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    let o = run(p, &["compile", ".", "--check"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).starts_with("up to date: "),
        "{}",
        text(&o.stdout)
    );
    let o = run(p, &["route", "--json", "band gap of GaN"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(names(&build), planted);

    // The next compile removes the dead writers' files, never the live one's.
    let o = run(p, &["compile", "."]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let _ = sleeper.kill();
    let _ = sleeper.wait();
    assert_eq!(
        names(&build),
        vec![
            writing,
            "graph.json".to_string(),
            "intent_prompt.txt".to_string()
        ]
    );
}

/// Ctrl-C (and `SIGTERM`) while a compile writes its files: the process ends with 130 (143),
/// no temporary file is left, and the files in `build/` are whole (the earlier artifact, or
/// the new one when the renames had begun). A big generated project, so that the write lasts
/// long enough to be caught; a run that ends before the signal lands is tried again.
#[cfg(unix)]
#[test]
fn an_interrupted_compile_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let o = run(p, &["gen", "--tools", "800", "--out", "big"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let big = p.join("big");
    let o = run(&big, &["compile", ".", "--format", "both"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let build = big.join("build");
    let before = std::fs::read(build.join("graph.json")).unwrap();
    for (signal, code) in [("INT", 130), ("TERM", 143)] {
        let mut caught = false;
        for _ in 0..8 {
            let mut child = bin()
                .current_dir(&big)
                .args(["compile", ".", "--format", "both"])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            let started = std::time::Instant::now();
            let mut seen = false;
            while started.elapsed() < std::time::Duration::from_secs(120) {
                if names(&build).iter().any(|n| n.contains(".tmp-")) {
                    seen = true;
                    break;
                }
                if child.try_wait().unwrap().is_some() {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            if seen {
                let k = Command::new("kill")
                    .args([&format!("-{signal}"), &child.id().to_string()])
                    .status()
                    .unwrap();
                assert!(k.success());
            }
            let out = child.wait_with_output().unwrap();
            if out.status.code() == Some(code) {
                caught = true;
                // The temporary files in flight when the signal landed (none when the
                // renames had just ended).
                let err = text(&out.stderr);
                for l in err.lines().filter(|l| l.starts_with("interrupted")) {
                    assert!(
                        l.starts_with("interrupted: removed ")
                            && l.ends_with(
                                " temporary file(s); the files being written are as they were"
                            ),
                        "{err}"
                    );
                }
                break;
            }
            assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        }
        assert!(caught, "no compile was caught writing by SIG{signal}");
        assert_eq!(
            names(&build),
            ["graph.bin", "graph.json", "intent_prompt.txt"],
            "SIG{signal}"
        );
        assert_eq!(std::fs::read(build.join("graph.json")).unwrap(), before);
        let o = run(&big, &["compile", ".", "--format", "both", "--check"]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    }
}
