//! A deterministic generator of large, realistic TGSI text for throughput measurements:
//! declarations of every common kind, immediates, and a mix of ALU instructions with
//! swizzles, write masks, negation, absolute values, saturation, indirect and 2-D
//! addressing, nested IF/ELSE/ENDIF and loops with labels, and texture instructions with
//! targets and texel offsets.
//!
//! The text is written in the printer's canonical form, so `print(parse(text)) == text`.
//! Shared by the `parse` bench, the `big_shader` test and the `big_shader` example
//! (which `scripts/bench-parse.sh` uses to write the file).

use std::fmt::Write;

/// A small xorshift generator, so the output depends on nothing but the size asked for.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 32) as u32
    }

    /// A number in `0..n`.
    fn below(&mut self, n: u32) -> u32 {
        self.next() % n
    }

    /// True with probability `percent` / 100.
    fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u32) as usize]
    }
}

const TEMPS: u32 = 48;
const CONSTS: u32 = 64;
const INPUTS: u32 = 8;
const IMMEDIATES: u32 = 64;
const CHANNELS: [char; 4] = ['x', 'y', 'z', 'w'];

/// Float ALU opcodes by number of sources.
const FLOAT_OPS: [&[&str]; 3] = [
    &[
        "MOV", "RCP", "RSQ", "FRC", "FLR", "EX2", "LG2", "SQRT", "DDX", "DDY",
    ],
    &[
        "ADD", "MUL", "DP3", "DP4", "MIN", "MAX", "SLT", "SGE", "SNE", "POW", "DP2",
    ],
    &["MAD", "LRP", "CMP"],
];
/// Integer ALU opcodes by number of sources.
const INT_OPS: [&[&str]; 3] = [
    &["F2I", "I2F", "U2F", "F2U", "INEG", "NOT"],
    &[
        "UADD", "AND", "OR", "XOR", "SHL", "USHR", "ISHR", "IMUL_HI", "USEQ", "ISLT",
    ],
    &["UMAD", "UCMP"],
];
const TEX_OPS: [&str; 4] = ["TEX", "TXB", "TXL", "TXP"];
const TEX_TARGETS: [&str; 6] = ["2D", "2D", "2D", "CUBE", "3D", "SHADOW2D"];

/// One instruction before numbering: nesting depth and text after the indentation.
struct Line {
    depth: usize,
    text: String,
}

struct Gen {
    rng: Rng,
    lines: Vec<Line>,
    depth: usize,
}

impl Gen {
    fn push(&mut self, text: String) -> usize {
        self.lines.push(Line {
            depth: self.depth,
            text,
        });
        self.lines.len() - 1
    }

    fn mask(&mut self) -> String {
        let bits = match self.rng.below(8) {
            0..=2 => 0xf,
            3..=5 => 1 << self.rng.below(4),
            _ => 1 + self.rng.below(15),
        };
        if bits == 0xf {
            return String::new();
        }
        let mut out = String::from(".");
        for (c, letter) in CHANNELS.iter().enumerate() {
            if bits & (1 << c) != 0 {
                out.push(*letter);
            }
        }
        out
    }

    fn swizzle(&mut self) -> String {
        match self.rng.below(4) {
            0 => String::new(),
            1 => format!(".{0}{0}{0}{0}", CHANNELS[self.rng.below(4) as usize]),
            _ => {
                let mut out = String::from(".");
                for _ in 0..4 {
                    out.push(CHANNELS[self.rng.below(4) as usize]);
                }
                if out == ".xyzw" {
                    out.clear();
                }
                out
            }
        }
    }

    /// `ADDR[0].x` plus an offset of 0 to 7, as the printer writes it.
    fn address(&mut self) -> String {
        match self.rng.below(8) {
            0 => "ADDR[0].x".to_string(),
            n => format!("ADDR[0].x+{n}"),
        }
    }

    fn dst(&mut self) -> String {
        let reg = if self.rng.chance(3) {
            format!("OUT[{}]", self.rng.below(2))
        } else if self.rng.chance(3) {
            format!("TEMP[{}](1)", self.address())
        } else {
            format!("TEMP[{}]", self.rng.below(TEMPS))
        };
        let mask = self.mask();
        format!("{reg}{mask}")
    }

    fn src(&mut self) -> String {
        let reg = match self.rng.below(100) {
            0..=54 => format!("TEMP[{}]", self.rng.below(TEMPS)),
            55..=69 => format!("CONST[{}]", self.rng.below(CONSTS)),
            70..=79 => format!("IMM[{}]", self.rng.below(IMMEDIATES)),
            80..=87 => format!("IN[{}]", self.rng.below(INPUTS)),
            88..=92 => format!("CONST[1][{}]", self.rng.below(16)),
            93..=96 => format!("CONST[{}]", self.address()),
            _ => format!("TEMP[{}](1)", self.address()),
        };
        let swizzle = self.swizzle();
        let negate = if self.rng.chance(15) { "-" } else { "" };
        if self.rng.chance(4) {
            format!("{negate}|{reg}{swizzle}|")
        } else {
            format!("{negate}{reg}{swizzle}")
        }
    }

    fn alu(&mut self) {
        let integer = self.rng.chance(20);
        let table = if integer { &INT_OPS } else { &FLOAT_OPS };
        let n = match self.rng.below(10) {
            0..=2 => 1,
            3..=7 => 2,
            _ => 3,
        };
        let op = self.rng.pick(table[n - 1]);
        let sat = if self.rng.chance(8) && !integer {
            "_SAT"
        } else {
            ""
        };
        let mut text = format!("{op}{sat} {}", self.dst());
        for _ in 0..n {
            let src = self.src();
            let _ = write!(text, ", {src}");
        }
        self.push(text);
    }

    fn texture(&mut self) {
        let dst = self.dst();
        let coord = format!("TEMP[{}]", self.rng.below(TEMPS));
        let unit = self.rng.below(8);
        if self.rng.chance(20) {
            self.push(format!(
                "SAMPLE {dst}, {coord}, SVIEW[{unit}], SAMP[{unit}]"
            ));
            return;
        }
        let op = self.rng.pick(&TEX_OPS);
        let target = self.rng.pick(&TEX_TARGETS);
        let mut text = format!("{op} {dst}, {coord}, SAMP[{unit}], {target}");
        if self.rng.chance(10) {
            let _ = write!(text, ", IMM[{}].xyz", self.rng.below(IMMEDIATES));
        }
        self.push(text);
    }

    /// `IF … [ELSE …] ENDIF`, or a loop with a conditional break, around generated code.
    fn block(&mut self, budget: usize) {
        let looped = self.rng.chance(20);
        let cond = format!("TEMP[{}].{}", self.rng.below(TEMPS), {
            let c = CHANNELS[self.rng.below(4) as usize];
            format!("{c}{c}{c}{c}")
        });
        let open = if looped {
            self.push("BGNLOOP :0".to_string())
        } else {
            let op = if self.rng.chance(30) { "UIF" } else { "IF" };
            self.push(format!("{op} {cond} :0"))
        };
        self.depth += 1;
        self.body(budget / 2);
        if looped {
            self.push(format!("UIF {cond} :0"));
            self.depth += 1;
            self.push("BRK".to_string());
            self.depth -= 1;
            self.push("ENDIF".to_string());
            self.depth -= 1;
            let end = self.push("ENDLOOP :0".to_string());
            self.lines[open].text = format!("BGNLOOP :{}", end);
            self.lines[end].text = format!("ENDLOOP :{}", open + 1);
            return;
        }
        if self.rng.chance(50) {
            self.depth -= 1;
            let else_at = self.push("ELSE :0".to_string());
            self.depth += 1;
            self.relabel(open, else_at + 1);
            self.body(budget / 2);
            self.depth -= 1;
            let end = self.push("ENDIF".to_string());
            self.lines[else_at].text = format!("ELSE :{end}");
        } else {
            self.depth -= 1;
            let end = self.push("ENDIF".to_string());
            self.relabel(open, end);
        }
    }

    /// Replaces the `:0` label placeholder at the end of line `at`.
    fn relabel(&mut self, at: usize, label: usize) {
        let text = &mut self.lines[at].text;
        text.truncate(text.len() - 1);
        let _ = write!(text, "{label}");
    }

    /// About `budget` instructions at the current depth.
    fn body(&mut self, budget: usize) {
        let start = self.lines.len();
        while self.lines.len() - start < budget {
            match self.rng.below(100) {
                0..=77 => self.alu(),
                78..=87 => self.texture(),
                88..=91 => {
                    let src = format!("TEMP[{}].xxxx", self.rng.below(TEMPS));
                    self.push(format!("ARL ADDR[0].x, {src}"));
                }
                92..=93 => {
                    let src = self.src();
                    self.push(format!("KILL_IF {src}"));
                }
                _ if self.depth < 3 && budget >= 4 => self.block(budget.min(24)),
                _ => self.alu(),
            }
        }
    }
}

fn declarations(out: &mut String) {
    out.push_str("FRAG\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\n");
    out.push_str("DCL IN[0], POSITION, LINEAR\n");
    for i in 1..INPUTS {
        let _ = writeln!(out, "DCL IN[{i}], GENERIC[{}], PERSPECTIVE", i + 8);
    }
    out.push_str("DCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\n");
    for i in 0..8 {
        let _ = writeln!(out, "DCL SAMP[{i}]");
    }
    for i in 0..8 {
        let _ = writeln!(out, "DCL SVIEW[{i}], 2D, FLOAT");
    }
    let _ = writeln!(out, "DCL CONST[0][0..{}]", CONSTS - 1);
    out.push_str("DCL CONST[1][0..15]\n");
    out.push_str("DCL TEMP[0..7], ARRAY(1), LOCAL\n");
    let _ = writeln!(out, "DCL TEMP[8..{}], LOCAL", TEMPS + 7);
    out.push_str("DCL ADDR[0]\n");
}

fn immediates(rng: &mut Rng, out: &mut String) {
    for i in 0..IMMEDIATES {
        if i % 8 == 7 {
            let v: Vec<String> = (0..4).map(|_| rng.below(1 << 16).to_string()).collect();
            let _ = writeln!(out, "IMM[{i}] UINT32 {{{}}}", v.join(", "));
            continue;
        }
        let v: Vec<String> = (0..4)
            .map(|_| {
                // Multiples of 1/16 print exactly with four decimals.
                let value = (rng.below(1 << 16) as f32 - 32768.0) / 16.0;
                format!("{value:10.4}")
            })
            .collect();
        let _ = writeln!(out, "IMM[{i}] FLT32 {{{}}}", v.join(", "));
    }
}

/// Canonical TGSI text of a fragment shader of at least `min_bytes` bytes (a few
/// kilobytes more).
pub fn generate(min_bytes: usize) -> String {
    let mut gen = Gen {
        rng: Rng(0x9e37_79b9_7f4a_7c15),
        lines: Vec::new(),
        depth: 0,
    };
    let mut out = String::with_capacity(min_bytes + 4096);
    declarations(&mut out);
    immediates(&mut gen.rng, &mut out);
    let header = out.len();
    // What each line will take: "%3d: ", the indentation, the text, the line feed.
    let mut written = 0;
    while header + written < min_bytes {
        let before = gen.lines.len();
        gen.body(256);
        written += gen.lines[before..]
            .iter()
            .enumerate()
            .map(|(k, l)| {
                let digits = (before + k).checked_ilog10().map_or(1, |d| d as usize + 1);
                digits.max(3) + 2 + 2 * l.depth + l.text.len() + 1
            })
            .sum::<usize>();
    }
    gen.push("END".to_string());
    for (i, line) in gen.lines.iter().enumerate() {
        let _ = write!(out, "{i:3}: ");
        for _ in 0..line.depth {
            out.push_str("  ");
        }
        out.push_str(&line.text);
        out.push('\n');
    }
    out
}
