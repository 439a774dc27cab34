//! Every `console` example in README.md is run and its output compared, so the
//! README cannot drift from what `raum` does.

use std::process::Command;

/// Splits a command line on spaces, honouring double quotes.
fn split_args(line: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    args.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            _ => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        args.push(cur);
    }
    args
}

fn normalise(text: &str) -> Vec<String> {
    text.lines().map(|l| l.trim_end().to_string()).collect()
}

#[test]
fn readme_examples_run_as_shown() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).expect("README.md");
    let mut examples = 0;
    let mut in_block = false;
    let mut current: Option<(String, String)> = None;
    let mut finished = Vec::new();
    for line in readme.lines() {
        if line.trim_start().starts_with("```") {
            if in_block {
                finished.extend(current.take());
            }
            in_block = line.trim() == "```console";
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ ") {
            finished.extend(current.take());
            current = Some((cmd.to_string(), String::new()));
        } else if let Some((_, out)) = current.as_mut() {
            out.push_str(line);
            out.push('\n');
        }
    }
    for (cmd, expected) in finished {
        let args = split_args(&cmd);
        assert_eq!(args[0], "raum", "README example does not run raum: {cmd}");
        // From the repository's root, as the README's reader runs them.
        let o = Command::new(env!("CARGO_BIN_EXE_raum"))
            .args(&args[1..])
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .output()
            .expect("raum runs");
        assert!(o.status.success(), "{cmd}: {}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(normalise(&String::from_utf8_lossy(&o.stdout)), normalise(&expected), "README example: {cmd}");
        examples += 1;
    }
    assert!(examples >= 6, "only {examples} README examples found");
}
