//! The container image carries every program the server starts: the Dockerfile's runtime
//! stage installs the Debian package of each tool in `command::sandbox::TOOLS` and of each
//! OCR model in `OCR_LANGUAGES`, and every tool the code starts (`run_tool("...")`) is on
//! that list. A new tool without a Dockerfile line fails here.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The packages `apt-get install` names in the Dockerfile's last stage (the runtime).
fn runtime_packages() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("Dockerfile")).expect("Dockerfile");
    let runtime = text.rsplit("\nFROM ").next().expect("a runtime stage");
    let joined = runtime.replace("\\\n", " ");
    let mut out = Vec::new();
    for line in joined.lines() {
        for command in line.split("&&") {
            let words: Vec<&str> = command.split_whitespace().collect();
            if let Some(i) = words.iter().position(|w| *w == "install")
                && words[..i].contains(&"apt-get")
            {
                out.extend(
                    words[i + 1..]
                        .iter()
                        .filter(|w| !w.starts_with('-'))
                        .map(|w| w.to_string()),
                );
            }
        }
    }
    out
}

fn sources(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    for entry in std::fs::read_dir(dir).expect("dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((path.clone(), std::fs::read_to_string(&path).expect("read")));
        }
    }
}

#[test]
fn the_image_installs_every_tool_and_ocr_model_the_server_starts() {
    let packages = runtime_packages();
    assert!(
        packages.iter().any(|p| p == "ca-certificates"),
        "the Dockerfile's install line was not found: {packages:?}"
    );
    for (tool, package) in command::sandbox::TOOLS {
        assert!(
            packages.iter().any(|p| p == package),
            "the server starts {tool}, but the image does not install {package}: {packages:?}"
        );
    }
    for (language, package) in command::sandbox::OCR_LANGUAGES {
        assert!(
            packages.iter().any(|p| p == package),
            "tesseract is asked for {language}, but the image does not install {package}"
        );
    }
}

#[test]
fn every_tool_the_code_starts_is_on_the_list() {
    let mut files = Vec::new();
    sources(&root().join("command/src"), &mut files);
    let mut started = Vec::new();
    for (path, text) in &files {
        for (i, _) in text.match_indices("run_tool(") {
            let rest = text[i + "run_tool(".len()..].trim_start();
            if let Some(lit) = rest.strip_prefix('"') {
                let name = lit.split('"').next().unwrap_or_default().to_string();
                started.push((path.display().to_string(), name));
            }
        }
    }
    assert!(
        started.iter().any(|(_, n)| n == "tesseract"),
        "the scan found no tool: {started:?}"
    );
    for (path, name) in started {
        assert!(
            command::sandbox::TOOLS.iter().any(|(t, _)| *t == name),
            "{path} starts {name}, which command::sandbox::TOOLS does not list"
        );
    }
}
