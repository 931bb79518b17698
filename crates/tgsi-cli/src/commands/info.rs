//! `tgsi info`: what a driver wants to know before compiling a shader — register usage,
//! opcodes, inputs and outputs, features — as text or JSON.

use crate::input::{self, Failure};

/// Runs `tgsi info`. With several files and `--json`, prints a JSON array.
pub fn run(files: &[String], force_tokens: bool, json: bool) -> Result<(), Failure> {
    let mut invalid = false;
    let mut out = String::new();
    let mut first = true;
    if json && files.len() > 1 {
        out.push('[');
    }
    for path in files {
        let input = input::read(path)?;
        let shader = match input.shader(force_tokens) {
            Ok(s) => s,
            Err(Failure::Invalid) => {
                invalid = true;
                continue;
            }
            Err(e) => return Err(e),
        };
        let info = tgsi::scan(&shader);
        if json {
            if !first {
                out.push(',');
            }
            out.push_str(&info.to_json());
        } else {
            if files.len() > 1 {
                out.push_str(&format!("== {}\n", input.name));
            }
            out.push_str(&info.to_string());
            if !out.ends_with('\n') {
                out.push('\n');
            }
        }
        first = false;
    }
    if json {
        if files.len() > 1 {
            out.push(']');
        }
        out.push('\n');
    }
    input::write("-", out.as_bytes())?;
    if invalid {
        Err(Failure::Invalid)
    } else {
        Ok(())
    }
}
