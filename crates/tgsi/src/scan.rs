//! Shader scan: what a driver wants to know before compiling a shader — registers per file,
//! opcodes used, inputs, outputs and system values, and feature flags (kill, derivatives,
//! indirect addressing, textures, images, buffers, memory, atomics, barriers, 64-bit
//! types), in the spirit of Mesa's `tgsi_scan_shader`.
//!
//! [`ShaderInfo`] prints as a human-readable summary ([`std::fmt::Display`]) and as JSON
//! ([`ShaderInfo::to_json`]).
//!
//! ```
//! let shader = tgsi::parse("FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n  0: KILL_IF IN[0]\n  1: MOV OUT[0], IN[0]\n  2: END\n").unwrap();
//! let info = tgsi::scan::scan(&shader);
//! assert!(info.uses_kill);
//! assert_eq!(info.opcodes[&tgsi::Opcode::MOV], 1);
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::{self, Write as _};

use crate::enums::{
    File, ImmType, InterpLocation, Interpolate, MemoryType, Processor, PropertyName, ReturnType,
    Semantic, TextureTarget,
};
use crate::ir::{Declaration, Register, ResourceDecl, Shader, WriteMask};
use crate::opcode::{self, Opcode, OperandType, Section};
use crate::pipe_format::Format;

/// One declared range of a register file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeclRange {
    /// Outer index of a 2-D declaration (`CONST[1][…]`).
    pub dimension: Option<u32>,
    /// First register.
    pub first: u32,
    /// Last register (inclusive).
    pub last: u32,
}

/// Registers of one file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileInfo {
    /// Declared ranges, in declaration order.
    pub ranges: Vec<DeclRange>,
    /// Number of registers the declarations cover (repeats counted once per declaration);
    /// for IMM, the number of immediates.
    pub declared: u64,
    /// Highest register index an operand names directly.
    pub max_index_used: Option<i32>,
    /// Whether an operand indexes the file indirectly.
    pub indirect: bool,
}

/// An input or output declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IoInfo {
    /// First register.
    pub first: u32,
    /// Last register.
    pub last: u32,
    /// Semantic name and index.
    pub semantic: Option<(Semantic, u32)>,
    /// Channels that may be accessed.
    pub usage_mask: WriteMask,
    /// Interpolation mode and location (fragment inputs).
    pub interpolation: Option<(Interpolate, InterpLocation)>,
    /// ArrayID, if any.
    pub array_id: Option<u16>,
    /// `INVARIANT`.
    pub invariant: bool,
}

/// A sampler-view declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SamplerViewInfo {
    /// First register.
    pub index: u32,
    /// Target.
    pub target: TextureTarget,
    /// Return type of channel x.
    pub return_type: ReturnType,
}

/// An image declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageInfo {
    /// First register.
    pub index: u32,
    /// Target.
    pub target: TextureTarget,
    /// Format.
    pub format: Format,
    /// `WR`.
    pub writable: bool,
    /// `RAW`.
    pub raw: bool,
}

/// Everything [`scan`] finds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShaderInfo {
    /// Stage.
    pub processor: Processor,
    /// Instructions (including END).
    pub num_instructions: usize,
    /// Immediates.
    pub num_immediates: usize,
    /// Registers per file, for every file declared or used.
    pub files: BTreeMap<File, FileInfo>,
    /// How often each opcode occurs.
    pub opcodes: BTreeMap<Opcode, usize>,
    /// Input declarations.
    pub inputs: Vec<IoInfo>,
    /// Output declarations.
    pub outputs: Vec<IoInfo>,
    /// System values: register index and semantic.
    pub system_values: Vec<(u32, Semantic)>,
    /// Property values (the last occurrence of each).
    pub properties: BTreeMap<PropertyName, u32>,
    /// Texture targets named by instructions.
    pub texture_targets: BTreeSet<TextureTarget>,
    /// Sampler registers declared.
    pub num_samplers: u64,
    /// Sampler-view declarations.
    pub sampler_views: Vec<SamplerViewInfo>,
    /// Image declarations.
    pub images: Vec<ImageInfo>,
    /// Buffer declarations: index and whether it holds atomic counters only.
    pub buffers: Vec<(u32, bool)>,
    /// Memory types declared (`MEMORY[i], SHARED` …).
    pub memory: BTreeSet<MemoryType>,
    /// KILL, KILL_IF or DEMOTE.
    pub uses_kill: bool,
    /// DDX/DDY (coarse or fine).
    pub uses_derivatives: bool,
    /// Fragment-shader sampling with implicit derivatives (TEX, TXB, TXP, SAMPLE, LOD…).
    pub uses_implicit_derivatives: bool,
    /// Atomic opcodes.
    pub uses_atomics: bool,
    /// BARRIER or MEMBAR.
    pub uses_barrier: bool,
    /// STORE or atomics (memory side effects).
    pub writes_memory: bool,
    /// 64-bit float operands or immediates.
    pub uses_doubles: bool,
    /// 64-bit integer operands or immediates.
    pub uses_int64: bool,
    /// Loops.
    pub uses_loops: bool,
    /// Subroutines (BGNSUB or CAL).
    pub uses_subroutines: bool,
}

impl ShaderInfo {
    /// Files indexed indirectly.
    pub fn indirect_files(&self) -> impl Iterator<Item = File> + '_ {
        self.files
            .iter()
            .filter(|(_, f)| f.indirect)
            .map(|(&file, _)| file)
    }
}

/// Scans a shader.
pub fn scan(shader: &Shader) -> ShaderInfo {
    let mut info = ShaderInfo {
        processor: shader.processor,
        num_instructions: shader.instructions.len(),
        num_immediates: shader.immediates.len(),
        files: BTreeMap::new(),
        opcodes: BTreeMap::new(),
        inputs: Vec::new(),
        outputs: Vec::new(),
        system_values: Vec::new(),
        properties: shader
            .properties
            .iter()
            .map(|p| (p.name, p.value))
            .collect(),
        texture_targets: BTreeSet::new(),
        num_samplers: 0,
        sampler_views: Vec::new(),
        images: Vec::new(),
        buffers: Vec::new(),
        memory: BTreeSet::new(),
        uses_kill: false,
        uses_derivatives: false,
        uses_implicit_derivatives: false,
        uses_atomics: false,
        uses_barrier: false,
        writes_memory: false,
        uses_doubles: shader.immediates.iter().any(|i| i.ty == ImmType::Float64),
        uses_int64: shader
            .immediates
            .iter()
            .any(|i| matches!(i.ty, ImmType::Int64 | ImmType::Uint64)),
        uses_loops: false,
        uses_subroutines: false,
    };
    for decl in &shader.declarations {
        declaration(&mut info, decl);
    }
    for inst in &shader.instructions {
        let op = inst.opcode;
        let op_info = op.info();
        *info.opcodes.entry(op).or_default() += 1;
        info.uses_kill |= op_info.has(opcode::KILLS);
        info.uses_derivatives |= op_info.has(opcode::DERIVATIVE);
        match op {
            Opcode::BARRIER | Opcode::MEMBAR => info.uses_barrier = true,
            Opcode::BGNLOOP | Opcode::BGNFOR | Opcode::REP => info.uses_loops = true,
            Opcode::BGNSUB | Opcode::CAL | Opcode::CALLNZ => info.uses_subroutines = true,
            _ => {}
        }
        if shader.processor == Processor::Fragment && op_info.has(opcode::IMPLICIT_DERIVATIVES) {
            info.uses_implicit_derivatives = true;
        }
        if op_info.section == Section::Atomic {
            info.uses_atomics = true;
        }
        if op_info.has(opcode::STORE) {
            info.writes_memory = true;
        }
        let types = (0..inst.dst.len())
            .map(|i| op_info.dst_type(i))
            .chain((0..inst.src.len()).map(|i| op_info.src_type(i)));
        for ty in types {
            match ty {
                OperandType::F64 => info.uses_doubles = true,
                OperandType::I64 | OperandType::U64 => info.uses_int64 = true,
                _ => {}
            }
        }
        if let Some(tex) = &inst.texture {
            if op_info.has(opcode::TEX) {
                info.texture_targets.insert(tex.target);
            }
            for offset in &tex.offsets {
                used(&mut info, &Register::new(offset.file, offset.index));
            }
        }
        for reg in inst
            .dst
            .iter()
            .map(|d| &d.reg)
            .chain(inst.src.iter().map(|s| &s.reg))
        {
            used(&mut info, reg);
        }
    }
    if !shader.immediates.is_empty() {
        // Immediates are declared by existing.
        info.files.entry(File::Immediate).or_default().declared = shader.immediates.len() as u64;
    }
    info
}

/// Records one declaration.
fn declaration(info: &mut ShaderInfo, decl: &Declaration) {
    let file = info.files.entry(decl.file).or_default();
    file.ranges.push(DeclRange {
        dimension: decl.dimension,
        first: decl.first,
        last: decl.last,
    });
    let count = u64::from(decl.last.saturating_sub(decl.first)) + 1;
    if decl.first <= decl.last {
        file.declared += count;
    }
    let io = || IoInfo {
        first: decl.first,
        last: decl.last,
        semantic: decl.semantic.map(|s| (s.name, s.index)),
        usage_mask: decl.usage_mask,
        interpolation: decl.interp.map(|i| (i.mode, i.location)),
        array_id: decl.array_id,
        invariant: decl.invariant,
    };
    match decl.file {
        File::Input => info.inputs.push(io()),
        File::Output => info.outputs.push(io()),
        File::SystemValue => {
            if let Some(sem) = decl.semantic {
                info.system_values.push((decl.first, sem.name));
            }
        }
        File::Sampler if decl.first <= decl.last => info.num_samplers += count,
        File::Buffer => info.buffers.push((decl.first, decl.atomic)),
        File::Memory => {
            info.memory.insert(decl.memory_type);
        }
        _ => {}
    }
    match decl.resource {
        Some(ResourceDecl::SamplerView {
            target,
            return_types,
        }) => info.sampler_views.push(SamplerViewInfo {
            index: decl.first,
            target,
            return_type: return_types[0],
        }),
        Some(ResourceDecl::Image {
            target,
            format,
            writable,
            raw,
        }) => info.images.push(ImageInfo {
            index: decl.first,
            target,
            format,
            writable,
            raw,
        }),
        None => {}
    }
}

/// Records one register operand.
fn used(info: &mut ShaderInfo, reg: &Register) {
    if reg.file == File::Null {
        return;
    }
    let file = info.files.entry(reg.file).or_default();
    match reg.indirect {
        Some(ind) => {
            file.indirect = true;
            address_used(info, ind.file, ind.index);
        }
        None => file.max_index_used = file.max_index_used.max(Some(reg.index)),
    }
    if let Some(ind) = reg.dimension.and_then(|d| d.indirect) {
        address_used(info, ind.file, ind.index);
    }
}

fn address_used(info: &mut ShaderInfo, file: File, index: i32) {
    let entry = info.files.entry(file).or_default();
    entry.max_index_used = entry.max_index_used.max(Some(index));
}

/// `xyzw` letters of a mask.
fn mask_letters(mask: WriteMask) -> String {
    (0..4u8)
        .filter(|&c| mask.has(c as usize))
        .map(crate::ir::channel_letter)
        .collect()
}

/// A minimal JSON writer: values separated by commas, strings escaped.
struct Json {
    out: String,
    /// Whether the innermost open object or array has a member already.
    has_member: Vec<bool>,
}

impl Json {
    fn new() -> Json {
        Json {
            out: String::new(),
            has_member: Vec::new(),
        }
    }

    fn separator(&mut self) {
        if let Some(has) = self.has_member.last_mut() {
            if *has {
                self.out.push(',');
            }
            *has = true;
        }
    }

    fn string(&mut self, s: &str) {
        self.out.push('"');
        for c in s.chars() {
            match c {
                '"' => self.out.push_str("\\\""),
                '\\' => self.out.push_str("\\\\"),
                '\n' => self.out.push_str("\\n"),
                '\r' => self.out.push_str("\\r"),
                '\t' => self.out.push_str("\\t"),
                c if (c as u32) < 0x20 => {
                    let _ = write!(self.out, "\\u{:04x}", c as u32);
                }
                c => self.out.push(c),
            }
        }
        self.out.push('"');
    }

    fn key(&mut self, key: &str) {
        self.separator();
        self.string(key);
        self.out.push(':');
        // The value that follows is not a new member.
        if let Some(has) = self.has_member.last_mut() {
            *has = false;
        }
    }

    fn open(&mut self, bracket: char) {
        self.separator();
        self.out.push(bracket);
        self.has_member.push(false);
    }

    fn close(&mut self, bracket: char) {
        self.out.push(bracket);
        self.has_member.pop();
        if let Some(has) = self.has_member.last_mut() {
            *has = true;
        }
    }

    fn value_str(&mut self, s: &str) {
        self.separator();
        self.string(s);
    }

    fn value_raw(&mut self, raw: &str) {
        self.separator();
        self.out.push_str(raw);
    }

    fn field_str(&mut self, key: &str, value: &str) {
        self.key(key);
        self.value_str(value);
    }

    fn field(&mut self, key: &str, value: impl fmt::Display) {
        self.key(key);
        self.value_raw(&value.to_string());
    }

    fn field_opt(&mut self, key: &str, value: Option<impl fmt::Display>) {
        match value {
            Some(v) => self.field(key, v),
            None => self.field(key, "null"),
        }
    }
}

impl ShaderInfo {
    /// The scan as one line of JSON (object keys in a fixed order).
    pub fn to_json(&self) -> String {
        let mut j = Json::new();
        j.open('{');
        j.field_str("processor", self.processor.name());
        j.field("instructions", self.num_instructions);
        j.field("immediates", self.num_immediates);
        j.key("files");
        j.open('{');
        for (file, f) in &self.files {
            j.key(file.name());
            j.open('{');
            j.field("declared", f.declared);
            j.key("ranges");
            j.open('[');
            for r in &f.ranges {
                j.open('{');
                j.field_opt("dimension", r.dimension);
                j.field("first", r.first);
                j.field("last", r.last);
                j.close('}');
            }
            j.close(']');
            j.field_opt("max_index_used", f.max_index_used);
            j.field("indirect", f.indirect);
            j.close('}');
        }
        j.close('}');
        j.key("opcodes");
        j.open('{');
        for (op, n) in &self.opcodes {
            j.field(op.name(), n);
        }
        j.close('}');
        for (key, list) in [("inputs", &self.inputs), ("outputs", &self.outputs)] {
            j.key(key);
            j.open('[');
            for io in list {
                io_json(&mut j, io);
            }
            j.close(']');
        }
        j.key("system_values");
        j.open('[');
        for (index, sem) in &self.system_values {
            j.open('{');
            j.field("index", index);
            j.field_str("semantic", sem.name());
            j.close('}');
        }
        j.close(']');
        j.key("properties");
        j.open('{');
        for (name, value) in &self.properties {
            j.field(name.name(), value);
        }
        j.close('}');
        j.key("texture_targets");
        j.open('[');
        for t in &self.texture_targets {
            j.value_str(t.name());
        }
        j.close(']');
        j.field("samplers", self.num_samplers);
        j.key("sampler_views");
        j.open('[');
        for v in &self.sampler_views {
            j.open('{');
            j.field("index", v.index);
            j.field_str("target", v.target.name());
            j.field_str("return_type", v.return_type.name());
            j.close('}');
        }
        j.close(']');
        j.key("images");
        j.open('[');
        for img in &self.images {
            j.open('{');
            j.field("index", img.index);
            j.field_str("target", img.target.name());
            match img.format.name() {
                Some(name) => j.field_str("format", &name),
                None => j.field("format", img.format.0),
            }
            j.field("writable", img.writable);
            j.field("raw", img.raw);
            j.close('}');
        }
        j.close(']');
        j.key("buffers");
        j.open('[');
        for (index, atomic) in &self.buffers {
            j.open('{');
            j.field("index", index);
            j.field("atomic", atomic);
            j.close('}');
        }
        j.close(']');
        j.key("memory");
        j.open('[');
        for m in &self.memory {
            j.value_str(m.name());
        }
        j.close(']');
        j.key("indirect_files");
        j.open('[');
        for file in self.indirect_files() {
            j.value_str(file.name());
        }
        j.close(']');
        j.key("uses");
        j.open('{');
        for (name, flag) in self.flags() {
            j.field(name, flag);
        }
        j.close('}');
        j.close('}');
        j.out
    }

    /// The feature flags with their JSON / summary names.
    fn flags(&self) -> [(&'static str, bool); 10] {
        [
            ("kill", self.uses_kill),
            ("derivatives", self.uses_derivatives),
            ("implicit_derivatives", self.uses_implicit_derivatives),
            ("atomics", self.uses_atomics),
            ("barrier", self.uses_barrier),
            ("memory_writes", self.writes_memory),
            ("doubles", self.uses_doubles),
            ("int64", self.uses_int64),
            ("loops", self.uses_loops),
            ("subroutines", self.uses_subroutines),
        ]
    }
}

fn io_json(j: &mut Json, io: &IoInfo) {
    j.open('{');
    j.field("first", io.first);
    j.field("last", io.last);
    match io.semantic {
        Some((name, index)) => {
            j.field_str("semantic", name.name());
            j.field("semantic_index", index);
        }
        None => {
            j.field("semantic", "null");
            j.field("semantic_index", "null");
        }
    }
    j.field_str("usage_mask", &mask_letters(io.usage_mask));
    match io.interpolation {
        Some((mode, location)) => {
            j.field_str("interpolation", mode.name());
            j.field_str("location", location.name());
        }
        None => {
            j.field("interpolation", "null");
            j.field("location", "null");
        }
    }
    j.field_opt("array_id", io.array_id);
    j.field("invariant", io.invariant);
    j.close('}');
}

/// `FILE[a..b]` or `FILE[a]`.
fn range_text(file: &str, first: u32, last: u32) -> String {
    if first == last {
        format!("{file}[{first}]")
    } else {
        format!("{file}[{first}..{last}]")
    }
}

impl fmt::Display for ShaderInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} shader: {} instructions, {} immediates",
            self.processor.name(),
            self.num_instructions,
            self.num_immediates
        )?;
        for (file, info) in &self.files {
            write!(f, "  {:<9} {} declared", file.name(), info.declared)?;
            if let Some(max) = info.max_index_used {
                write!(f, ", highest used {max}")?;
            }
            if info.indirect {
                f.write_str(", indirect")?;
            }
            writeln!(f)?;
        }
        for (label, list, file) in [
            ("inputs", &self.inputs, "IN"),
            ("outputs", &self.outputs, "OUT"),
        ] {
            if list.is_empty() {
                continue;
            }
            writeln!(f, "  {label}:")?;
            for io in list {
                write!(f, "    {}", range_text(file, io.first, io.last))?;
                if let Some((name, index)) = io.semantic {
                    write!(f, " {}[{index}]", name.name())?;
                }
                if io.usage_mask != WriteMask::XYZW {
                    write!(f, " .{}", mask_letters(io.usage_mask))?;
                }
                if let Some((mode, location)) = io.interpolation {
                    write!(f, " {} {}", mode.name(), location.name())?;
                }
                writeln!(f)?;
            }
        }
        if !self.system_values.is_empty() {
            let list: Vec<String> = self
                .system_values
                .iter()
                .map(|(i, s)| format!("SV[{i}] {}", s.name()))
                .collect();
            writeln!(f, "  system values: {}", list.join(", "))?;
        }
        let ops: Vec<String> = self
            .opcodes
            .iter()
            .map(|(op, n)| format!("{} {n}", op.name()))
            .collect();
        writeln!(f, "  opcodes: {}", ops.join(", "))?;
        if !self.texture_targets.is_empty() {
            let targets: Vec<&str> = self.texture_targets.iter().map(|t| t.name()).collect();
            writeln!(f, "  texture targets: {}", targets.join(", "))?;
        }
        for img in &self.images {
            writeln!(
                f,
                "  IMAGE[{}] {} {}{}{}",
                img.index,
                img.target.name(),
                img.format
                    .name()
                    .unwrap_or_else(|| img.format.0.to_string()),
                if img.writable { " WR" } else { "" },
                if img.raw { " RAW" } else { "" }
            )?;
        }
        if !self.properties.is_empty() {
            let props: Vec<String> = self
                .properties
                .iter()
                .map(|(n, v)| format!("{} {v}", n.name()))
                .collect();
            writeln!(f, "  properties: {}", props.join(", "))?;
        }
        let uses: Vec<&str> = self
            .flags()
            .iter()
            .filter(|(_, on)| *on)
            .map(|(name, _)| *name)
            .collect();
        let uses = if uses.is_empty() {
            "nothing special".to_string()
        } else {
            uses.join(", ")
        };
        writeln!(f, "  uses: {uses}")
    }
}

#[cfg(test)]
mod tests {
    use super::Json;

    #[test]
    fn json_strings_are_escaped_and_members_separated() {
        let mut j = Json::new();
        j.open('{');
        j.field_str("a\"b", "x\\y\n\t\u{1}é");
        j.key("list");
        j.open('[');
        j.value_str("1");
        j.value_raw("2");
        j.open('{');
        j.close('}');
        j.close(']');
        j.field("n", 3);
        j.close('}');
        assert_eq!(
            j.out,
            r#"{"a\"b":"x\\y\n\t\u0001é","list":["1",2,{}],"n":3}"#
        );
    }
}
