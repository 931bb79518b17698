//! Text round trips over the whole shared corpus: parse → print must give Mesa 22.3's
//! print byte for byte, and files Mesa rejects must parse where old spec syntax allows and
//! print stably.

mod common;

use std::collections::BTreeMap;

#[test]
fn corpus_prints_like_mesa() {
    let Some(corpus) = common::corpus_dir() else {
        return;
    };
    let files = common::corpus_shaders(&corpus);
    assert!(
        files.len() > 2500,
        "corpus looks incomplete: {} files",
        files.len()
    );
    let mut failures = Vec::new();
    let mut rejected = BTreeMap::new();
    let mut mesa_ok = 0;
    for rel in &files {
        let text = std::fs::read_to_string(corpus.join(rel)).expect("utf-8 corpus file");
        let accepted_by_mesa = common::golden(&corpus, rel, "tokens").is_some();
        let parsed = tgsi::parse(&text);
        if accepted_by_mesa {
            mesa_ok += 1;
            let expected = match common::golden(&corpus, rel, "dump.tgsi") {
                Some(p) => std::fs::read_to_string(p).expect("golden dump"),
                None => text.clone(),
            };
            match parsed {
                Ok(shader) => {
                    let printed = tgsi::print(&shader);
                    if printed != expected {
                        let line = printed
                            .lines()
                            .zip(expected.lines())
                            .position(|(a, b)| a != b);
                        let detail = match line {
                            Some(i) => format!(
                                "line {}:\n  ours: {}\n  mesa: {}",
                                i + 1,
                                printed.lines().nth(i).unwrap_or(""),
                                expected.lines().nth(i).unwrap_or("")
                            ),
                            None => "length differs".to_string(),
                        };
                        failures.push(format!("{}: print differs at {detail}", rel.display()));
                    }
                }
                Err(e) => failures.push(format!(
                    "{}: Mesa accepts it, we reject: {e}",
                    rel.display()
                )),
            }
        } else {
            match parsed {
                Ok(shader) => {
                    let once = tgsi::print(&shader);
                    match tgsi::parse(&once) {
                        Ok(again) => {
                            if tgsi::print(&again) != once {
                                failures.push(format!(
                                    "{}: print → parse → print is not stable",
                                    rel.display()
                                ));
                            }
                        }
                        Err(e) => failures
                            .push(format!("{}: our print does not parse: {e}", rel.display())),
                    }
                }
                Err(e) => {
                    rejected.insert(rel.display().to_string(), e.to_string());
                }
            }
        }
    }
    let expected_rejects = expected_rejects();
    for (file, err) in &rejected {
        if !expected_rejects.contains_key(file.as_str()) {
            failures.push(format!("{file}: unexpectedly rejected: {err}"));
        }
    }
    for file in expected_rejects.keys() {
        if files.iter().any(|f| f.display().to_string() == *file) && !rejected.contains_key(*file) {
            failures.push(format!(
                "{file}: listed in corpus-rejects.txt but now parses; remove it from the list"
            ));
        }
    }
    eprintln!(
        "{} files, {} accepted by Mesa, {} rejected by us as expected",
        files.len(),
        mesa_ok,
        rejected.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Files of the corpus that are not TGSI any spec version defines (printf templates with
/// `%s`, Mesa-internal files), with the reason.
fn expected_rejects() -> BTreeMap<&'static str, &'static str> {
    include_str!("data/corpus-rejects.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .collect()
}
