//! Token round trips over the whole shared corpus: `encode(parse(text))` equals the words
//! Mesa 22.3's translator produced, printing `decode(words)` gives Mesa's print, and
//! text → tokens → text is the identity.

mod common;

#[test]
fn corpus_tokens_match_mesa() {
    let Some(corpus) = common::corpus_dir() else {
        return;
    };
    let mut failures = Vec::new();
    let mut checked = 0;
    for rel in common::corpus_shaders(&corpus) {
        let Some(tokens_path) = common::golden(&corpus, &rel, "tokens") else {
            continue;
        };
        checked += 1;
        let text = std::fs::read_to_string(corpus.join(&rel)).expect("utf-8 corpus file");
        let golden = common::read_words(&tokens_path);
        let expected_print = match common::golden(&corpus, &rel, "dump.tgsi") {
            Some(p) => std::fs::read_to_string(p).expect("golden dump"),
            None => text.clone(),
        };
        let name = rel.display();
        let shader = match tgsi::parse(&text) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{name}: parse: {e}"));
                continue;
            }
        };
        match tgsi::tokens::encode(&shader) {
            Ok(words) if words == golden => {}
            Ok(words) => {
                let at = words
                    .iter()
                    .zip(&golden)
                    .position(|(a, b)| a != b)
                    .unwrap_or(words.len().min(golden.len()));
                failures.push(format!(
                    "{name}: encoded words differ at word {at}: ours {:08x?} mesa {:08x?} (lengths {} / {})",
                    words.get(at),
                    golden.get(at),
                    words.len(),
                    golden.len()
                ));
            }
            Err(e) => failures.push(format!("{name}: encode: {e}")),
        }
        match tgsi::tokens::decode(&golden) {
            Ok(decoded) => {
                let printed = tgsi::print(&decoded);
                if printed != expected_print {
                    failures.push(format!(
                        "{name}: print(decode(mesa words)) differs from Mesa's print"
                    ));
                }
                match tgsi::tokens::encode(&decoded) {
                    Ok(again) if again == golden => {}
                    _ => {
                        failures.push(format!("{name}: encode(decode(words)) is not the identity"))
                    }
                }
            }
            Err(e) => failures.push(format!("{name}: decode: {e}")),
        }
    }
    eprintln!("{checked} files with golden tokens checked");
    assert!(checked > 2000, "only {checked} golden token files found");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
