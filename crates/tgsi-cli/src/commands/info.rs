//! `tgsi info`: what a driver wants to know before compiling a shader — register usage,
//! opcodes, inputs and outputs, features — as text or JSON.

use crate::input::{self, Failure};

/// Runs `tgsi info`. With several files and `--json`, prints a JSON array.
pub fn run(files: &[String], force_tokens: bool, json: bool) -> Result<(), Failure> {
    let several = files.len() > 1;
    let mut reports = Vec::new();
    let invalid = input::for_each_shader(files, force_tokens, |input, shader| {
        let info = tgsi::scan(&shader);
        reports.push(if json {
            info.to_json()
        } else if several {
            format!("== {}\n{info}", input.name)
        } else {
            info.to_string()
        });
        Ok(())
    })?;
    let mut out = if json && several {
        format!("[{}]", reports.join(","))
    } else if json {
        reports.concat()
    } else {
        reports
            .iter()
            .map(|r| r.trim_end_matches('\n').to_string() + "\n")
            .collect()
    };
    if json {
        out.push('\n');
    }
    input::write("-", out.as_bytes())?;
    if invalid {
        Err(Failure::Invalid)
    } else {
        Ok(())
    }
}
