//! A structure-aware generator: `arbitrary` fills these small types, and [`GenShader::build`]
//! turns them into an IR [`Shader`] drawn from the opcode table, with valid-ish operand
//! counts, register files, indices, swizzles, masks, immediates and declarations.

use arbitrary::Arbitrary;
use tgsi::opcode::{self, OPCODES};
use tgsi::*;

/// A whole shader.
#[derive(Arbitrary, Debug)]
pub struct GenShader {
    processor: u8,
    properties: Vec<GenProperty>,
    declarations: Vec<GenDecl>,
    immediates: Vec<GenImm>,
    instructions: Vec<GenInst>,
    /// Interleaving of statements (each byte picks the next kind); empty = canonical order.
    order: Vec<u8>,
}

#[derive(Arbitrary, Debug)]
struct GenProperty {
    name: u8,
    value: u32,
}

#[derive(Arbitrary, Debug)]
struct GenDecl {
    file: u8,
    first: u16,
    len: u8,
    dimension: Option<u8>,
    mask: u8,
    array_id: Option<u16>,
    local: bool,
    semantic: Option<(u8, u16)>,
    streams: Option<[u8; 4]>,
    interp: Option<(u8, u8)>,
    invariant: bool,
    atomic: bool,
    memory_type: u8,
    target: u8,
    format: u16,
    writable: bool,
    raw: bool,
    return_type: u8,
}

#[derive(Arbitrary, Debug)]
struct GenImm {
    ty: u8,
    words: [u32; 4],
}

#[derive(Arbitrary, Debug)]
struct GenIndirect {
    file: u8,
    index: u8,
    component: u8,
    array_id: u16,
    offset: i16,
}

#[derive(Arbitrary, Debug)]
struct GenReg {
    file: u8,
    index: u16,
    indirect: Option<GenIndirect>,
    dimension: Option<(u16, Option<GenIndirect>)>,
    swizzle: [u8; 4],
    mask: u8,
    absolute: bool,
    negate: bool,
}

#[derive(Arbitrary, Debug)]
struct GenInst {
    opcode: u16,
    saturate: bool,
    precise: bool,
    operands: [Option<GenReg>; 6],
    label: Option<u32>,
    target: u8,
    offsets: Vec<(u8, u16, [u8; 3])>,
    qualifiers: u8,
    mem_target: u8,
    format: u16,
}

fn pick<T: Copy>(all: &[T], n: impl Into<u32>) -> T {
    all[n.into() as usize % all.len()]
}

/// A register file; most often one of the common ones.
fn file(n: u8) -> File {
    const COMMON: [File; 6] = [
        File::Temporary,
        File::Input,
        File::Output,
        File::Constant,
        File::Immediate,
        File::Address,
    ];
    if n < 160 {
        pick(&COMMON, n)
    } else {
        pick(File::ALL, n)
    }
}

fn format(n: u16) -> Format {
    let f = Format(n % 512);
    if f.is_known() {
        f
    } else {
        Format::NONE
    }
}

fn indirect(g: &GenIndirect) -> (Indirect, i32) {
    let ind = Indirect {
        file: if g.file < 200 {
            File::Address
        } else {
            file(g.file)
        },
        index: (g.index % 8) as i32,
        component: g.component % 4,
        array_id: (g.array_id % 1024) * u16::from(g.array_id >= 1024),
    };
    // Offsets fit the 16-bit signed token field.
    (ind, g.offset as i32)
}

fn register(g: &GenReg) -> Register {
    let mut reg = Register::new(file(g.file), (g.index % 32768) as i32);
    if let Some(ind) = &g.indirect {
        let (ind, offset) = indirect(ind);
        reg.indirect = Some(ind);
        reg.index = offset;
    }
    if let Some((index, ind)) = &g.dimension {
        let mut dim = Dimension {
            index: (index % 32768) as i32,
            indirect: None,
        };
        if let Some(ind) = ind {
            let (ind, offset) = indirect(ind);
            dim.indirect = Some(ind);
            dim.index = offset;
        }
        reg.dimension = Some(dim);
    }
    reg
}

impl GenShader {
    /// Builds the IR shader.
    pub fn build(&self) -> Shader {
        let mut s = Shader::new(pick(Processor::ALL, self.processor));
        for p in self.properties.iter().take(8) {
            let name = pick(PropertyName::ALL, p.name);
            let value = match name.value_kind() {
                PropertyValueKind::Primitive => pick(Primitive::ALL, p.value).number(),
                PropertyValueKind::CoordOrigin => pick(CoordOrigin::ALL, p.value).number(),
                PropertyValueKind::PixelCenter => pick(PixelCenter::ALL, p.value).number(),
                PropertyValueKind::Processor => pick(Processor::ALL, p.value).number(),
                PropertyValueKind::Number => p.value,
            };
            s.properties.push(Property {
                name,
                value,
                span: Span::default(),
            });
        }
        for g in self.declarations.iter().take(64) {
            s.declarations.push(self.declaration(g));
        }
        for g in self.immediates.iter().take(64) {
            s.immediates.push(Immediate {
                ty: pick(ImmType::ALL, g.ty),
                words: g.words,
                span: Span::default(),
            });
        }
        for g in self.instructions.iter().take(256) {
            s.instructions.push(instruction(g));
        }
        // Interleave: each order byte names a kind; kinds run out, then the rest follow
        // canonically.
        if !self.order.is_empty() {
            let mut left = [
                s.properties.len(),
                s.declarations.len(),
                s.immediates.len(),
                s.instructions.len(),
            ];
            let kinds = [
                ItemKind::Property,
                ItemKind::Declaration,
                ItemKind::Immediate,
                ItemKind::Instruction,
            ];
            for &b in &self.order {
                let k = b as usize % 4;
                if left[k] > 0 {
                    left[k] -= 1;
                    s.order.push(kinds[k]);
                }
            }
            for k in 0..4 {
                for _ in 0..left[k] {
                    s.order.push(kinds[k]);
                }
            }
        }
        s
    }

    fn declaration(&self, g: &GenDecl) -> Declaration {
        let f = file(g.file);
        let first = (g.first % 32768) as u32;
        let last = (first + g.len as u32).min(32767);
        let mut d = Declaration::new(f, first, last);
        d.dimension = g.dimension.map(u32::from);
        d.usage_mask = WriteMask(if g.mask == 0 { 0xf } else { g.mask % 16 }.max(1));
        d.array_id = g.array_id.map(|a| a % 1024);
        d.local = g.local;
        d.semantic = g.semantic.map(|(name, index)| SemanticDecl {
            name: pick(Semantic::ALL, name),
            index: index as u32,
            streams: g.streams.map_or([0; 4], |s| s.map(|x| x % 4)),
        });
        d.interp = g.interp.map(|(mode, loc)| InterpDecl {
            mode: pick(Interpolate::ALL, mode),
            location: pick(InterpLocation::ALL, loc),
        });
        d.invariant = g.invariant;
        d.atomic = g.atomic && f == File::Buffer;
        if f == File::Memory {
            d.memory_type = pick(MemoryType::ALL, g.memory_type);
        }
        let target = pick(TextureTarget::ALL, g.target);
        d.resource = match f {
            File::Image => Some(ResourceDecl::Image {
                target,
                format: format(g.format),
                writable: g.writable,
                raw: g.raw,
            }),
            File::Resource => Some(ResourceDecl::Image {
                target,
                format: Format::NONE,
                writable: g.writable,
                raw: g.raw,
            }),
            File::SamplerView => Some(ResourceDecl::SamplerView {
                target,
                // UNKNOWN (5) has no text spelling.
                return_types: [pick(&ReturnType::ALL[..5], g.return_type); 4],
            }),
            _ => None,
        };
        d
    }
}

fn instruction(g: &GenInst) -> Instruction {
    let op = Opcode::all()
        .nth(g.opcode as usize % OPCODES.len())
        .unwrap_or(Opcode::NOP);
    let info = op.info();
    let mut inst = Instruction::new(op);
    inst.saturate = g.saturate;
    inst.precise = g.precise;
    let mut operands = g.operands.iter().flatten();
    let fallback = GenReg {
        file: 0,
        index: 0,
        indirect: None,
        dimension: None,
        swizzle: [0, 1, 2, 3],
        mask: 15,
        absolute: false,
        negate: false,
    };
    for _ in 0..info.num_dst {
        let r = operands.next().unwrap_or(&fallback);
        inst.dst.push(Dst {
            reg: register(r),
            write_mask: WriteMask((r.mask % 16).max(1)),
        });
    }
    for _ in 0..info.num_src {
        let r = operands.next().unwrap_or(&fallback);
        inst.src.push(Src {
            reg: register(r),
            swizzle: Swizzle(r.swizzle.map(|c| c % 4)),
            absolute: r.absolute,
            negate: r.negate,
        });
    }
    if info.has(opcode::BRANCH) {
        inst.label = g.label.map(|l| l % (1 << 24));
    }
    if info.has(opcode::TEX) || info.has(opcode::SVIEW_OFFSETS) {
        let target = if info.has(opcode::TEX) {
            pick(TextureTarget::ALL, g.target)
        } else {
            TextureTarget::Unknown
        };
        inst.texture = Some(Box::new(TextureInfo {
            target,
            return_type: ReturnType::Unknown,
            offsets: g
                .offsets
                .iter()
                .take(4)
                .map(|&(f, index, swz)| TexOffset {
                    file: file(f),
                    index: (index % 32768) as i32,
                    swizzle: swz.map(|c| c % 4),
                })
                .collect(),
        }));
    }
    if info.has(opcode::MEM) {
        inst.memory = Some(MemoryInfo {
            qualifiers: g.qualifiers % 16,
            target: pick(TextureTarget::ALL, g.mem_target),
            format: format(g.format),
        });
    }
    inst
}
