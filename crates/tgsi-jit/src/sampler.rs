//! Texture sampling compiled, as llvmpipe compiles its sampler: TEX and TXB (fragment
//! shaders), TXL and TEX_LZ on 2-D targets with direct slots and no texel offsets, where
//! the bound view and sampler are of a kind `tgsi_exec::texture::Compiled` describes (an
//! RGBA8-like texture, linear filters, the linear mip filter or none, REPEAT on
//! power-of-two sides, MIRROR_REPEAT or CLAMP_TO_EDGE, identity swizzle) — the commonest
//! sampling there is — and the texel fetches TXF and TXF_LZ of such a view (any sampler).
//! The kernels' code is written by [`emit`]; on CPUs with AVX2 the filtered kinds sample
//! through `tgsi_exec`'s native kernel instead (`Compiled::sample_quad`: both levels of a
//! trilinear quad in eight-lane vectors, ~1.3× the speed of the emitted 4-lane code), called
//! the same way ([`native_kernel`]), and the emitted ones serve the texel fetches and CPUs
//! without AVX2.
//!
//! A kernel samples one quad in vectors of its four lanes. Kernels are Cranelift functions
//! specialised for the way the LOD is given, the level rule, the wrap modes and the texels' byte order ([`Key`]),
//! compiled on first use and kept for the rest of the process, so programs share them and
//! a shader's own code does not grow: each call of a shader's code gets the description of
//! every such instruction's binding ([`TexDesc`], from the bindings of the moment; null
//! where no kernel samples it), and the code calls the kernel itself for each quad; where
//! there is none or a kernel refuses a quad, the instruction goes to the host
//! (`runtime::texture`, which tries the kernel and then the interpreter's sampling). A kernel follows the steps `Compiled` lists, operation for
//! operation, so its results are the interpreter's bit for bit; a quad where a step would
//! leave them (a coordinate past 2²¹ texels or just below 0, where `util_ifloor` is not
//! `floor`; an index outside its level; a footprint with two tiles in one slot of
//! softpipe's texture cache, which reads one for the other; lanes of one quad on different
//! levels) makes it return 1 before reading
//! any texel, and the interpreter samples that quad.

mod emit;

use cranelift_codegen::ir::types::{I32, I32X4};
use cranelift_codegen::ir::{
    AbiParam, Function, InstBuilder, MemFlagsData, Signature, UserFuncName,
};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, Linkage, Module};
use emit::QuadSampler;
use std::cell::RefCell;
use std::collections::HashMap;
use std::mem::offset_of;
use std::rc::Rc;
use std::sync::atomic::AtomicU32;
use std::sync::Mutex;
use tgsi::Processor;
use tgsi_exec::compile::Inst;
use tgsi_exec::isa::Isa;
use tgsi_exec::texture::{Compiled, CompiledForm, Direct, DirectLod as Lod, DirectOp, Filtering};
use tgsi_exec::Program;

/// The binding of an instruction sampled inline, for one call: what the kernels read (the
/// emitted ones at the byte offsets of [`at`]).
#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct TexDesc {
    /// The kernel for the binding, or none: the host samples.
    kernel: Option<Kernel>,
    /// The texture's words, and how many there are.
    words: *const u32,
    len: usize,
    /// How the instruction gets its LOD.
    how: Lod,
    /// The instruction's compiled form.
    form: CompiledForm,
}

impl TexDesc {
    /// Whether a kernel samples the binding (else the host does).
    pub fn has_kernel(&self) -> bool {
        self.kernel.is_some()
    }

    /// The description of a compiled binding sampled with LODs `how` (its words stay the
    /// texture's while the bindings it came from live); off when no kernel compiles.
    pub fn of(c: &Compiled, how: Lod) -> TexDesc {
        TexDesc::with(c, how, matches!(Isa::host(), Isa::Avx2(_)))
    }

    /// [`TexDesc::of`], sampling through the native kernel only if `native` (which the
    /// CPU must then run: AVX2).
    fn with(c: &Compiled, how: Lod, native: bool) -> TexDesc {
        let key = Key {
            lod: how,
            filter: c.form.filter,
            // Multiples of 8 below 32 (`Compiled::shifts`).
            shifts: c.form.shifts.map(|s| (s & 31) as u8),
        };
        // The native kernel where the CPU runs it (AVX2), for filtered sampling.
        let native = native && c.form.filter.is_some();
        TexDesc {
            kernel: if native {
                Some(native_kernel)
            } else {
                kernel(key)
            },
            words: c.words.as_ptr().cast(),
            len: c.words.len(),
            how,
            form: *c.form,
        }
    }
}

/// Byte offsets of [`TexDesc`] fields.
mod at {
    use super::*;
    use tgsi_exec::texture::CompiledLevel;
    const FORM: usize = offset_of!(TexDesc, form);
    pub const FIRST_LEVEL: i32 = (FORM + offset_of!(CompiledForm, first_level)) as i32;
    pub const LAST_LEVEL: i32 = (FORM + offset_of!(CompiledForm, last_level)) as i32;
    pub const LOD_BIAS: i32 = (FORM + offset_of!(CompiledForm, lod_bias)) as i32;
    pub const MIN_LOD: i32 = (FORM + offset_of!(CompiledForm, min_lod)) as i32;
    pub const MAX_LOD: i32 = (FORM + offset_of!(CompiledForm, max_lod)) as i32;
    pub const SIZE: i32 = (FORM + offset_of!(CompiledForm, size)) as i32;
    pub const WORDS: i32 = offset_of!(TexDesc, words) as i32;
    pub const LEVELS: i32 = (FORM + offset_of!(CompiledForm, levels)) as i32;
    pub const LEVEL_BYTES: i64 = size_of::<CompiledLevel>() as i64;
    pub const L_FIRST: i32 = offset_of!(CompiledLevel, first) as i32;
    pub const L_ROW: i32 = offset_of!(CompiledLevel, row) as i32;
    pub const L_WIDTH: i32 = offset_of!(CompiledLevel, width) as i32;
    pub const L_HEIGHT: i32 = offset_of!(CompiledLevel, height) as i32;
}

/// How texture instruction `inst` of `program` gets its LOD, if a kernel may sample it:
/// the TEX family's direct instructions and fetches (`tgsi_exec::texture::DirectOp`), the
/// LOD from the quad only in fragment shaders (whether a kernel does sample it depends on its operands
/// and bindings: `Machine::direct_texture`, `Direct::compiled`).
pub(crate) fn kernel_lod(program: &Program, inst: &Inst) -> Option<Lod> {
    let op = DirectOp::new(inst.opcode, inst.tex.as_deref()?.target)?;
    let lod = op.lod();
    let quad = matches!(lod, Lod::Implicit | Lod::Bias);
    let frag = program.processor == Processor::Fragment;
    (!op.sample_family() && (frag || !quad)).then_some(lod)
}

/// A texture instruction a kernel may sample ([`kernel_instructions`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KernelTexture {
    /// Its place in the program.
    pub pc: usize,
    /// How it gets its LOD.
    pub how: Lod,
    /// An earlier entry of the list with the same sampler and view operands and LOD kind,
    /// which any bindings describe as they describe this one.
    pub same_as: Option<usize>,
}

/// The texture instructions of `program` a kernel may sample, in order.
pub(crate) fn kernel_instructions(program: &Program) -> Vec<KernelTexture> {
    let mut list: Vec<KernelTexture> = Vec::new();
    // The first entry of each LOD kind and sampler and view operands.
    let mut firsts = HashMap::new();
    for (pc, inst) in program.insts.iter().enumerate() {
        let (Some(how), Some(tex)) = (kernel_lod(program, inst), inst.tex.as_deref()) else {
            continue;
        };
        let same_as = firsts.get(&(how, tex.sampler, tex.view)).copied();
        firsts
            .entry((how, tex.sampler, tex.view))
            .or_insert(list.len());
        list.push(KernelTexture { pc, how, same_as });
    }
    list
}

/// The description of a bound instruction sampled with LODs `how`, if it is of the
/// compiled kind and its kernel compiles. The thread remembers the last few (by the
/// binding's number, which names one view and sampler for the rest of the process), so a
/// draw's waves describe each binding once.
pub(crate) fn describe(direct: Direct, how: Lod) -> Option<Rc<TexDesc>> {
    const KEEP: usize = 32;
    type Known = Vec<(u64, Lod, Option<Rc<TexDesc>>)>;
    thread_local! {
        static KNOWN: RefCell<Known> = const { RefCell::new(Vec::new()) };
    }
    let binding = direct.binding();
    KNOWN.with_borrow_mut(|known| {
        if let Some((_, _, desc)) = known.iter().find(|(b, h, _)| *b == binding && *h == how) {
            return desc.clone();
        }
        let desc = direct.compiled().map(|c| Rc::new(TexDesc::of(&c, how)));
        if known.len() == KEEP {
            known.remove(0);
        }
        known.push((binding, how, desc.clone()));
        desc
    })
}

/// Sample the quads of a wave with a lane in `active` (bit `l`: lane `l`) through the
/// kernel of `desc`, from the lanes' words of s, t and the explicit LOD; `put(base,
/// result)` takes each quad's results (`[channel][lane]`). Returns the quads done (bit q:
/// lanes `4q..4q + 4`); the others need the interpreter.
pub(crate) fn sample_quads(
    desc: &TexDesc,
    s: &[u32],
    t: &[u32],
    lod: &[u32],
    active: u64,
    mut put: impl FnMut(usize, &[[u32; 4]; 4]),
) -> u64 {
    let Some(kernel) = desc.kernel else {
        return 0;
    };
    let mut done = 0;
    for (q, base) in (0..s.len().min(t.len()).min(lod.len()) / 4).map(|q| (q, 4 * q)) {
        if (active >> base) & 0xf == 0 {
            continue;
        }
        let mut io = [0u32; IO_WORDS];
        io[0..4].copy_from_slice(&s[base..base + 4]);
        io[4..8].copy_from_slice(&t[base..base + 4]);
        io[8..12].copy_from_slice(&lod[base..base + 4]);
        // SAFETY: `desc` was described from bindings alive for the call, and `io` holds the
        // words a kernel reads and writes.
        if unsafe { kernel(desc, io.as_mut_ptr()) } != 0 {
            continue;
        }
        let r: [[u32; 4]; 4] = std::array::from_fn(|c| {
            let at = IO_OUT + 4 * c;
            [io[at], io[at + 1], io[at + 2], io[at + 3]]
        });
        put(base, &r);
        done |= 1 << q;
    }
    done
}

/// A sampling kernel: `kernel(desc, io)` samples the quad whose coordinates `s`, `t` and
/// explicit LOD are words `0..4`, `4..8` and `8..12` of `io` with the binding `desc`
/// describes (which must be on) and writes the four result channels to words `12..28`
/// (returning 0), or returns 1 having written nothing when the interpreter must sample
/// the quad.
pub(crate) type Kernel = unsafe extern "C" fn(*const TexDesc, *mut u32) -> i32;

/// Words of a kernel's `io` buffer.
pub(crate) const IO_WORDS: usize = 28;
/// Where a kernel's results start in `io`, in words.
pub(crate) const IO_OUT: usize = 12;

/// The [`Kernel`] that samples with `tgsi_exec`'s native kernel (`Compiled::sample_quad`).
///
/// # Safety
///
/// `desc` must point to a [`TexDesc`] whose words are alive, and `io` to [`IO_WORDS`]
/// words.
unsafe extern "C" fn native_kernel(desc: *const TexDesc, io: *mut u32) -> i32 {
    // SAFETY: as the caller promises.
    let (desc, io) = unsafe { (&*desc, &mut *io.cast::<[u32; IO_WORDS]>()) };
    // SAFETY: the words of a binding alive for the call (`TexDesc::of`).
    let words = unsafe { std::slice::from_raw_parts(desc.words.cast::<AtomicU32>(), desc.len) };
    let c = Compiled {
        form: &desc.form,
        words,
    };
    let quad = |at: usize| [io[at], io[at + 1], io[at + 2], io[at + 3]];
    match c.sample_quad(desc.how, quad(0), quad(4), quad(8)) {
        Some(r) => {
            for (c, r) in r.iter().enumerate() {
                io[IO_OUT + 4 * c..IO_OUT + 4 * c + 4].copy_from_slice(r);
            }
            0
        }
        None => 1,
    }
}

/// Byte offset of a [`TexDesc`]'s kernel (a function pointer, null for none), for the
/// shaders' code, which calls it itself.
pub(crate) const KERNEL_AT: i32 = offset_of!(TexDesc, kernel) as i32;

/// What a kernel is specialised for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    lod: Lod,
    /// The levels and wraps of a sampling kernel; none for a texel fetch.
    filter: Option<Filtering>,
    /// Where each component is in a texel's word (the format's byte order), so that the
    /// code extracts it with constant shifts.
    shifts: [u8; 4],
}

/// The kernel for `key`, compiled on first use and kept for the rest of the process
/// (`None` if Cranelift cannot compile it for this CPU, and then never).
fn kernel(key: Key) -> Option<Kernel> {
    // Few keys ever occur (3 × 3 × 3 × 3 modes and 2 fetches by the few byte orders of
    // RGBA8-like formats), so a list serves.
    static KERNELS: Mutex<Vec<(Key, Option<Kernel>)>> = Mutex::new(Vec::new());
    let mut kernels = KERNELS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&(_, k)) = kernels.iter().find(|(k, _)| *k == key) {
        return k;
    }
    let k = build_kernel(key);
    // Debug builds verify the kernels: an ill-formed one is a bug, not a reason to sample
    // on the host.
    debug_assert!(!k.as_ref().is_err_and(|e| e.contains("Verifier")), "{k:?}");
    let k = k.ok();
    kernels.push((key, k));
    k
}

/// Compile the kernel for `key` into a module kept for the rest of the process.
fn build_kernel(key: Key) -> Result<Kernel, String> {
    let isa = crate::isa("backtracking")?;
    let ptr = isa.pointer_type();
    let frontend = isa.frontend_config();
    let mut signature = Signature::new(isa.default_call_conv());
    signature
        .params
        .extend([AbiParam::new(ptr), AbiParam::new(ptr)]);
    signature.returns.push(AbiParam::new(I32));
    let mut module = JITModule::new(JITBuilder::with_isa(isa, default_libcall_names()));
    let mut ctx = module.make_context();
    let mut fctx = FunctionBuilderContext::new();
    let id = module
        .declare_function("sample_quad", Linkage::Local, &signature)
        .map_err(|e| format!("cranelift: {e}"))?;
    ctx.func = Function::with_name_signature(UserFuncName::user(0, id.as_u32()), signature);
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        b.seal_block(entry);
        let (desc, io) = (b.block_params(entry)[0], b.block_params(entry)[1]);
        let fallback = b.create_block();
        let mem = MemFlagsData::trusted();
        let [s, t, lod] = [0, 16, 32].map(|at| b.ins().load(I32X4, mem, io, at));
        let mut q = QuadSampler {
            b: &mut b,
            ptr,
            key,
            desc,
            fallback,
        };
        let out = q.quad(s, t, lod);
        for (c, v) in out.into_iter().enumerate() {
            b.ins().store(mem, v, io, 4 * (IO_OUT + 4 * c) as i32);
        }
        let ok = b.ins().iconst(I32, 0);
        b.ins().return_(&[ok]);
        b.switch_to_block(fallback);
        b.seal_block(fallback);
        let no = b.ins().iconst(I32, 1);
        b.ins().return_(&[no]);
        b.finalize(frontend);
    }
    ctx.set_disasm(std::env::var_os("TGSI_JIT_DUMP").is_some());
    module
        .define_function(id, &mut ctx)
        .map_err(|e| format!("cranelift could not compile the sampler: {e:?}"))?;
    if let Some(code) = ctx.compiled_code().and_then(|c| c.vcode.as_ref()) {
        // Only present when `TGSI_JIT_DUMP` asked for it.
        eprintln!("sampling kernel {key:?}\n{code}");
    }
    module.clear_context(&mut ctx);
    module
        .finalize_definitions()
        .map_err(|e| format!("cranelift: {e}"))?;
    let code = module.get_finalized_function(id);
    // The kernel serves every program for the rest of the process.
    std::mem::forget(module);
    // SAFETY: the function was built with the `Kernel` signature in the platform's C
    // calling convention.
    Ok(unsafe { std::mem::transmute::<*const u8, Kernel>(code) })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::sync::Arc;
    use tgsi::{Format, Opcode, TextureTarget};
    use tgsi_exec::resource::{
        Filter, MipFilter, Resource, SamplerState, SamplerView, Storage, Swizzle, Target, Wrap,
    };
    use tgsi_exec::texture::{execute_prepared, Direct, DirectOp, Prepared, TexRequest};

    /// A xorshift generator from `seed` (not 0).
    pub(crate) fn xorshift(mut x: u32) -> impl FnMut() -> u32 {
        move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        }
    }

    /// A 2-D texture of `format` with every level, bytes from `seed`.
    fn texture(format: &str, w: u32, h: u32, seed: u32) -> Arc<Resource> {
        let levels = 32 - w.max(h).leading_zeros();
        let mut r = Resource {
            target: Target::Tex2D,
            format: Format::from_name(format).expect("format"),
            width0: w,
            height0: h,
            depth0: 1,
            array_size: 1,
            last_level: levels - 1,
            nr_samples: 0,
            data: Storage::zeroed(0),
        };
        let mut x = seed | 1;
        let n = r.layout_bytes(4).expect("layout");
        let bytes: Vec<u8> = (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x as u8
            })
            .collect();
        r.data = Storage::from_bytes(&bytes);
        Arc::new(r)
    }

    /// A 2-D view of levels `first..=last` of `res`, unswizzled.
    fn view_of(res: &Arc<Resource>, first_level: u32, last_level: u32) -> SamplerView {
        SamplerView {
            first_level,
            last_level,
            ..SamplerView::whole(res)
        }
    }

    /// The compiled form of `opcode` sampling `view` with `sampler`, if there is one.
    fn compiled<'p>(
        opcode: Opcode,
        view: &SamplerView,
        sampler: &SamplerState,
        prepared: &'p mut Prepared,
    ) -> Option<Compiled<'p>> {
        let op = DirectOp::new(opcode, TextureTarget::Tex2D).expect("direct");
        Direct::bind(op, view, sampler, false, true, [0, 1, 2, 3], prepared)
            .expect("bound")
            .compiled()
    }

    /// The words a kernel left in `io`, `[lane][channel]`.
    fn kernel_words(io: &[u32; IO_WORDS]) -> [[u32; 4]; 4] {
        std::array::from_fn(|j| std::array::from_fn(|c| io[IO_OUT + 4 * c + j]))
    }

    /// The interpreter's sampling of a quad at `s`, `t` with per-lane LODs `lod`.
    fn interpreter_words(
        opcode: Opcode,
        view: &SamplerView,
        sampler: &SamplerState,
        quad: [[f32; 4]; 3],
        implicit_lod: bool,
    ) -> [[u32; 4]; 4] {
        let words = quad.map(|v| v.map(f32::to_bits));
        interpreter_words_of(opcode, view, sampler, words, implicit_lod)
    }

    /// [`interpreter_words`] of sources given as words (a fetch's integers).
    fn interpreter_words_of(
        opcode: Opcode,
        view: &SamplerView,
        sampler: &SamplerState,
        [s, t, lod]: [[u32; 4]; 3],
        implicit_lod: bool,
    ) -> [[u32; 4]; 4] {
        let src: [[u32; 4]; 4] = std::array::from_fn(|j| [s[j], t[j], 0, lod[j]]);
        let req = TexRequest {
            opcode,
            target: TextureTarget::Tex2D,
            srcs: &[src],
            offsets: [0; 3],
            view: Some(view),
            sampler: Some(sampler),
            seamless_cube_map: false,
            implicit_lod,
            sview_swizzle: [0, 1, 2, 3],
        };
        execute_prepared(&req, &mut Prepared::default())
    }

    /// Every quad a kernel samples gives the interpreter's words: TEX (implicit LOD from
    /// the quad), TXB (plus a bias per lane), TXL (per-lane LODs, on one level pair or not)
    /// and TEX_LZ on textures from 1×1 to 256 wide (footprints wrapping across tiles) and of
    /// other sizes, RGBA and BGRA, views of some levels, REPEAT, MIRROR_REPEAT and
    /// CLAMP_TO_EDGE on either axis, the linear mip filter (on power-of-two textures or
    /// not) or none, LOD biases and ranges, at coordinates inside, around and far outside
    /// the texture (NaN, infinities, tiny negatives); and the kernels take most quads.
    #[test]
    fn kernels_give_the_interpreters_words() {
        let mut next = xorshift(0x2545_f491);
        let (mut taken, mut total, mut bindings) = (0u32, 0u32, 0u32);
        let textures = [
            ("PIPE_FORMAT_R8G8B8A8_UNORM", 64, 64),
            ("PIPE_FORMAT_B8G8R8A8_UNORM", 256, 64),
            ("PIPE_FORMAT_R8G8B8A8_UNORM", 1, 1),
            ("PIPE_FORMAT_A8B8G8R8_UNORM", 8, 32),
            ("PIPE_FORMAT_R8G8B8A8_UNORM", 48, 20),
            ("PIPE_FORMAT_B8G8R8A8_UNORM", 5, 3),
        ];
        let wraps = [Wrap::Repeat, Wrap::MirrorRepeat, Wrap::ClampToEdge];
        for (round, &(format, w, h)) in textures.iter().cycle().take(54).enumerate() {
            let res = texture(format, w, h, round as u32 + 7);
            let last = res.last_level;
            let first_level = if round % 3 == 2 { last.min(1) } else { 0 };
            let last_level = last - (round as u32 % 2).min(last - first_level);
            let view = view_of(&res, first_level, last_level);
            let mip = [MipFilter::Linear, MipFilter::None][round % 2];
            let wrap = [wraps[round / 6 % 3], wraps[round / 18 % 3], Wrap::Repeat];
            let sampler = SamplerState {
                wrap,
                min_img_filter: Filter::Linear,
                mag_img_filter: Filter::Linear,
                min_mip_filter: mip,
                lod_bias: [0.0, 0.75, -1.5][round % 3],
                min_lod: [0.0, 0.5, -2.0][round / 3 % 3],
                max_lod: [1000.0, 2.25, 0.0][round / 9 % 3],
                ..SamplerState::default()
            };
            let pot = w.is_power_of_two() && h.is_power_of_two();
            for (opcode, how) in [
                (Opcode::TEX, Lod::Implicit),
                (Opcode::TXB, Lod::Bias),
                (Opcode::TXL, Lod::Explicit),
                (Opcode::TEX_LZ, Lod::Zero),
            ] {
                let mut prepared = Prepared::default();
                let Some(compiled) = compiled(opcode, &view, &sampler, &mut prepared) else {
                    // Only REPEAT on other sizes than powers of two is left out here.
                    let repeat = wrap[..2].contains(&Wrap::Repeat);
                    assert!(!pot && repeat, "{format} {w}x{h} {wrap:?}");
                    continue;
                };
                bindings += 1;
                // The emitted kernel, and the native one where the CPU runs it.
                let descs: Vec<(bool, TexDesc)> = [false, true]
                    .into_iter()
                    .filter(|&native| !native || matches!(Isa::host(), Isa::Avx2(_)))
                    .map(|native| (native, TexDesc::with(&compiled, how, native)))
                    .collect();
                for k in 0..300 {
                    let mut coord = || -> [f32; 4] {
                        let base = (next() >> 8) as f32 / (1 << 24) as f32 * 4.0 - 2.0;
                        let spread = [0.001, 0.02, 0.3, 3.0][k % 4];
                        std::array::from_fn(|_| {
                            base + (next() >> 8) as f32 / (1 << 24) as f32 * spread
                        })
                    };
                    let (mut s, t) = (coord(), coord());
                    if k % 50 == 7 {
                        s[next() as usize % 4] = [f32::NAN, f32::INFINITY, -1e-9, 3e6][k / 50 % 4];
                    }
                    let lod: [f32; 4] = if k % 2 == 0 {
                        [(next() % 80) as f32 / 8.0 - 2.0; 4]
                    } else {
                        std::array::from_fn(|_| (next() % 80) as f32 / 8.0 - 2.0)
                    };
                    let words = |v: [f32; 4]| v.map(f32::to_bits);
                    for (native, desc) in &descs {
                        let kernel = desc.kernel.expect("the kernel compiles");
                        let mut io = [0u32; IO_WORDS];
                        io[0..4].copy_from_slice(&words(s));
                        io[4..8].copy_from_slice(&words(t));
                        io[8..12].copy_from_slice(&words(lod));
                        // SAFETY: `desc` describes a live texture and `io` has the words a
                        // kernel reads and writes.
                        let status = unsafe { kernel(desc, io.as_mut_ptr()) };
                        total += 1;
                        if status != 0 {
                            continue;
                        }
                        taken += 1;
                        let want = interpreter_words(opcode, &view, &sampler, [s, t, lod], true);
                        let got = kernel_words(&io);
                        assert_eq!(
                            got, want,
                            "{format} {w}x{h} round {round} {wrap:?} {mip:?} {opcode:?} s {s:?} \
                             t {t:?} lod {lod:?} native {native}"
                        );
                    }
                }
            }
        }
        assert!(bindings > 100, "{bindings} bindings compiled");
        assert!(
            taken * 10 > total * 7,
            "the kernels took {taken} of {total}"
        );
        // Bindings outside the compiled kind: another wrap mode, a swizzled view.
        let res = texture("PIPE_FORMAT_R8G8B8A8_UNORM", 16, 16, 3);
        let mut view = view_of(&res, 0, res.last_level);
        let clamp = SamplerState {
            wrap: [Wrap::ClampToEdge; 3],
            min_img_filter: Filter::Linear,
            mag_img_filter: Filter::Linear,
            ..SamplerState::default()
        };
        let mut prepared = Prepared::default();
        assert!(compiled(Opcode::TEX, &view, &clamp, &mut prepared).is_none());
        view.swizzle[0] = Swizzle::One;
        let repeat = SamplerState {
            wrap: [Wrap::Repeat; 3],
            ..clamp
        };
        assert!(compiled(Opcode::TEX, &view, &repeat, &mut prepared).is_none());
    }

    /// Footprints across cache tiles: the kernel takes those whose tiles keep their own
    /// slots in softpipe's cache, with the interpreter's words, and refuses those where one
    /// tile's slot holds another's — the 256-wide REPEAT seam across a tile row, whose
    /// texel (255, 31) reads as (224, 63) on softpipe (`tests/data/texref`'s
    /// `bilinear-wrap-tiles`).
    #[test]
    fn kernels_refuse_exactly_the_footprints_the_cache_aliases() {
        let sampler = SamplerState {
            wrap: [Wrap::Repeat; 3],
            min_img_filter: Filter::Linear,
            mag_img_filter: Filter::Linear,
            min_mip_filter: MipFilter::None,
            ..SamplerState::default()
        };
        // (width, column of the footprint's first texel, row, whether the cache aliases):
        // the seam of a 256-wide texture across rows 31 and 32 aliases, on one row it does
        // not; a 128-wide texture's seam and an inner tile boundary never do.
        for (w, x0, y0, aliased) in [
            (256, 255, 31, true),
            (256, 255, 30, false),
            (128, 127, 31, false),
            (256, 31, 31, false),
        ] {
            let res = texture("PIPE_FORMAT_R8G8B8A8_UNORM", w, 64, w + 5);
            let view = view_of(&res, 0, 0);
            let mut prepared = Prepared::default();
            let compiled = compiled(Opcode::TEX_LZ, &view, &sampler, &mut prepared)
                .expect("a compiled binding");
            let desc = TexDesc::of(&compiled, Lod::Zero);
            let kernel = desc.kernel.expect("the kernel compiles");
            // A quarter texel past the centre of (x0, y0): the footprint is x0, x0 + 1
            // (wrapping) by y0, y0 + 1.
            let s = (x0 as f32 + 0.75) / w as f32;
            let t = (y0 as f32 + 0.75) / 64.0;
            let mut io = [0u32; IO_WORDS];
            io[0..4].copy_from_slice(&[s.to_bits(); 4]);
            io[4..8].copy_from_slice(&[t.to_bits(); 4]);
            // SAFETY: `desc` describes a live texture and `io` has the words a kernel
            // reads and writes.
            let status = unsafe { kernel(&desc, io.as_mut_ptr()) };
            assert_eq!(status != 0, aliased, "{w} wide at ({x0}, {y0})");
            if aliased {
                continue;
            }
            let quad = [[s; 4], [t; 4], [0.0; 4]];
            let want = interpreter_words(Opcode::TEX_LZ, &view, &sampler, quad, false);
            assert_eq!(kernel_words(&io), want, "{w} wide at ({x0}, {y0})");
        }
    }

    /// Fetch kernels give the interpreter's words for every quad: TXF (the level from
    /// lane 0's LOD) and TXF_LZ on RGBA, BGRA and ABGR textures from 1×1 to 256 wide, views
    /// of some levels, samplers the filtering kernels refuse, integer coordinates and LODs
    /// inside, around and far outside the levels.
    #[test]
    fn fetch_kernels_give_the_interpreters_words() {
        let mut next = xorshift(0x6a09_e667);
        let textures = [
            ("PIPE_FORMAT_R8G8B8A8_UNORM", 64, 64),
            ("PIPE_FORMAT_B8G8R8A8_UNORM", 256, 64),
            ("PIPE_FORMAT_R8G8B8A8_UNORM", 1, 1),
            ("PIPE_FORMAT_A8B8G8R8_UNORM", 8, 32),
            ("PIPE_FORMAT_B8G8R8A8_UNORM", 5, 3),
        ];
        // Nearest filters and a border wrap: no sampling kernel takes these.
        let sampler = SamplerState {
            wrap: [Wrap::ClampToBorder; 3],
            ..SamplerState::default()
        };
        for (round, &(format, w, h)) in textures.iter().cycle().take(15).enumerate() {
            let res = texture(format, w, h, round as u32 + 3);
            let last = res.last_level;
            let first_level = (round as u32 / 5).min(last);
            let view = view_of(
                &res,
                first_level,
                last - (round as u32 % 2).min(last - first_level),
            );
            for (opcode, how) in [(Opcode::TXF, Lod::Fetch), (Opcode::TXF_LZ, Lod::FetchZero)] {
                let mut prepared = Prepared::default();
                let compiled = compiled(opcode, &view, &sampler, &mut prepared)
                    .expect("a fetch of the view compiles");
                let desc = TexDesc::of(&compiled, how);
                let kernel = desc.kernel.expect("the kernel compiles");
                for k in 0..200 {
                    let range: i64 = [3, 300, 1 << 31][k % 3];
                    let mut int = || (i64::from(next()) % (2 * range) - range) as i32;
                    let s: [i32; 4] = std::array::from_fn(|_| int());
                    let t: [i32; 4] = std::array::from_fn(|_| int());
                    let lod: [i32; 4] = match k % 10 {
                        0 => [i32::MAX; 4],
                        1 => [i32::MIN; 4],
                        _ => std::array::from_fn(|_| (next() % 14) as i32 - 4),
                    };
                    let words = |v: [i32; 4]| v.map(|x| x as u32);
                    let mut io = [0u32; IO_WORDS];
                    io[0..4].copy_from_slice(&words(s));
                    io[4..8].copy_from_slice(&words(t));
                    io[8..12].copy_from_slice(&words(lod));
                    // SAFETY: `desc` describes a live texture and `io` has the words a
                    // kernel reads and writes.
                    let status = unsafe { kernel(&desc, io.as_mut_ptr()) };
                    assert_eq!(status, 0, "a fetch never falls back");
                    let quad = [words(s), words(t), words(lod)];
                    let want = interpreter_words_of(opcode, &view, &sampler, quad, false);
                    assert_eq!(
                        kernel_words(&io),
                        want,
                        "{format} {w}x{h} levels {first_level}..={} {opcode:?} s {s:?} t {t:?} \
                         lod {lod:?}",
                        view.last_level
                    );
                }
            }
        }
    }

    /// Instructions with the same sampler and view operands and LOD kind share a
    /// description: the second TEX of SAMP[0] and the second TXF of SAMP[1], not the TEX of
    /// SAMP[1] or the TXL of SAMP[0].
    #[test]
    fn instructions_of_the_same_operands_share_their_description() {
        let text = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n\
            DCL SAMP[0]\nDCL SAMP[1]\nDCL SVIEW[0], 2D, FLOAT\nDCL SVIEW[1], 2D, FLOAT\n\
            DCL TEMP[0]\n\
            0: TEX TEMP[0], IN[0], SAMP[0], 2D\n\
            1: TEX TEMP[0], TEMP[0], SAMP[1], 2D\n\
            2: TXL TEMP[0], TEMP[0], SAMP[0], 2D\n\
            3: TEX TEMP[0], TEMP[0], SAMP[0], 2D\n\
            4: SAMPLE TEMP[0], TEMP[0], SVIEW[1], SAMP[0]\n\
            5: TXF TEMP[0], TEMP[0], SAMP[1], 2D\n\
            6: TXF TEMP[0], TEMP[0], SAMP[1], 2D\n\
            7: MOV OUT[0], TEMP[0]\n\
            8: END\n";
        let program = Program::compile(&tgsi::parse(text).expect("parses")).expect("compiles");
        let list = kernel_instructions(&program);
        let got: Vec<(usize, Option<usize>)> = list.iter().map(|k| (k.pc, k.same_as)).collect();
        // The SAMPLE family has no kernel.
        assert_eq!(
            got,
            [
                (0, None),
                (1, None),
                (2, None),
                (3, Some(0)),
                (5, None),
                (6, Some(4))
            ]
        );
    }
}
