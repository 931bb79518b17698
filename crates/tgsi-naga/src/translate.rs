//! The translator: walks a shader's declarations and instructions once, in order, and builds
//! one naga entry point. The per-topic parts live in their own modules (`registers`,
//! `interface`, `resources`, `alu`, `wide`, `flow`, `texture`, `memory`), each adding
//! `impl Translator` methods.

use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use naga::front::Typifier;
use naga::{Expression, Function, Handle, Module, ShaderStage, Span as NagaSpan, Type, TypeInner};
use tgsi::enums::{Processor, PropertyName, ReturnType, Semantic};
use tgsi::ir::{Instruction, Register, Shader, Span};
use tgsi::opcode::{Opcode, OutputMode, Section};
pub use tgsi::sampler::{CompareFunc, MipFilter, Wrap};

use crate::body::Body;
use crate::error::{Error, Result};
use crate::flow::{Frame, LoopBudget};
use crate::geometry_compute::{GeometryCompute, GEOMETRY_WORKGROUP_SIZE};
use crate::geometry_glsl::GeometryStage;
use crate::glsl_stage::StageEnd;
use crate::interface::Interface;
use crate::per_vertex::PerVertexInputs;
use crate::registers::Registers;
use crate::resources::Resources;
use crate::split64::Helpers;
use crate::tess_compute::{control_vertices_out, SharedOutputs, TESS_EVAL_WORKGROUP_SIZE};
use crate::vertex_compute::{VertexCompute, VERTEX_WORKGROUP_SIZE};

/// Name of the generated entry point.
pub const ENTRY_POINT: &str = "main";

/// State while translating one shader.
pub(crate) struct Translator<'s> {
    pub shader: &'s Shader,
    /// How to translate.
    pub options: &'s Options,
    pub module: Module,
    pub body: Body,
    pub typifier: Typifier,
    pub registers: Registers,
    pub interface: Interface,
    pub resources: Resources,
    /// Open control-flow constructs, innermost last.
    pub flow: Vec<Frame>,
    /// Registers loaded by the current instruction (each is loaded once, before any write).
    pub loaded: HashMap<Register, Handle<Expression>>,
    /// Position of the statement being translated.
    pub span: Span,
    /// The statement being translated (opcode or declaration), for error messages.
    pub item: String,
    /// Helper functions created so far.
    pub helpers: Helpers,
    /// Whether the shader calls subroutines (registers are then module-level).
    pub subroutines: bool,
    /// The BGNSUB of the subroutine being translated, if any.
    pub in_subroutine: Option<usize>,
    /// Subroutines translated so far, by the index of their BGNSUB; `None` while in progress.
    pub functions: HashMap<usize, Option<Handle<Function>>>,
    /// The private table of `util_fast_log2` LOD queries read, once made.
    pub log2_table: Option<Handle<naga::GlobalVariable>>,
    /// The vertex a vertex shader run as a compute shader works on
    /// ([`Options::vertex_as_compute`]).
    pub vertex_compute: Option<VertexCompute>,
    /// The invocation a geometry shader run as a compute shader works on
    /// ([`Options::geometry_as_compute`]).
    pub geometry_compute: Option<Rc<GeometryCompute>>,
    /// Whether a geometry or tessellation shader is translated for a GLSL stage
    /// ([`crate::glsl_stage()`]); what it calls before it returns; a geometry shader's
    /// emitting functions.
    pub for_glsl_stage: bool,
    pub glsl_stage_end: Option<StageEnd>,
    /// What a GLSL control shader calls for BARRIER (written out in `main`).
    pub glsl_stage_barrier: Option<Handle<Function>>,
    pub geometry_stage: Option<Rc<GeometryStage>>,
    /// Where the `IN[v][i]` of a geometry or tessellation shader run as a compute shader
    /// are.
    pub per_vertex_inputs: Option<Rc<PerVertexInputs>>,
    /// The output file of a control shader run as a compute shader
    /// ([`Options::tessellation_as_compute`]).
    pub shared_outputs: Option<Rc<SharedOutputs>>,
    /// The iteration counter and the flag buffer of [`Options::loop_budget`], and the
    /// budget.
    pub loop_budget: Option<LoopBudget>,
}

/// How to translate.
#[derive(Clone, Debug)]
pub struct Options {
    /// Use naga's 64-bit integers for 64-bit values (the most direct code; SPIR-V, MSL and
    /// HLSL have them). Without them a double is built from its words by arithmetic and
    /// 64-bit integers are pairs of 32-bit words, which GLSL (through naga) needs.
    pub native_int64: bool,
    /// Size of a `MEMORY, SHARED` declaration, which TGSI leaves to the dispatch (default:
    /// 32 KiB, the minimum of GL's `GL_MAX_COMPUTE_SHARED_MEMORY_SIZE`).
    pub shared_memory_bytes: u32,
    /// The swizzle of each sampler view that has one, which WebGPU cannot apply to a texture
    /// view: result channel c of sampling or fetching through view i takes
    /// `view_swizzles[i][c]`, in Gallium's `PIPE_SWIZZLE_*` numbering (0–3: channel x–w of
    /// the texel, 4: zero, 5: one). A gather gathers the channel the swizzle gives its
    /// component (or returns zeros or ones). Size queries are not swizzled.
    pub view_swizzles: BTreeMap<u32, [u8; 4]>,
    /// The LOD bias of each sampler that has one (`pipe_sampler_state::lod_bias`), which
    /// WebGPU samplers lack: added, as softpipe adds it, to the implicit LOD, to a TXB
    /// bias, to an explicit LOD (and to the zero LOD of TEX_LZ-like sampling), but not to
    /// LODs from explicit gradients. A biased depth comparison or gather cannot be
    /// translated (naga compares depth only at the implicit LOD or level 0, and gathers
    /// level 0).
    pub lod_biases: BTreeMap<u32, f32>,
    /// The border colour (`pipe_sampler_state::border_color` words) of each sampler whose
    /// colour WebGPU cannot give (it has transparent black, opaque black and opaque white
    /// only). The host samples through such a sampler with a transparent black border and
    /// binds, beside each view sampled through it, a coverage view of the same dimension,
    /// levels and layers with 1.0 in every texel (group 1, binding
    /// [`crate::COVERAGE_BINDING_BASE`] + view). Sampling the coverage view alike gives the
    /// filter's weight inside the texture, `c`; the result is then `texel + border · (1 −
    /// c)` (for a gather, per gathered texel). A depth comparison by such a sampler (not
    /// made by the translation, [`Options::depth_compares`]) cannot be translated.
    pub border_colors: BTreeMap<u32, [u32; 4]>,
    /// Wrap modes WebGPU lacks (GL's CLAMP with linear filtering and the mirror-clamp
    /// modes), emulated on the coordinates (s, t, r) of each sampler that has them: the
    /// host gives the sampler the address mode [`CoordinateWrap`] names, and the
    /// translation transforms the normalised coordinate first. The implicit LOD is then
    /// taken from the derivatives of the untransformed coordinates (explicit gradients);
    /// a TXB-like bias or a texel offset through such a sampler cannot be translated. Cube
    /// coordinates are directions and are left alone.
    pub coordinate_wraps: BTreeMap<u32, [CoordinateWrap; 3]>,
    /// Declare 1-D and 1-D array sampler views as 2-D (arrays) of height 1, for hosts
    /// without 1-D arrays or mipmapped 1-D textures (WebGPU): samples get t = 0.5, texel
    /// fetches y = 0, gradients and texel offsets a zero second component, and size queries
    /// report the 1-D sizes.
    pub one_d_as_2d: bool,
    /// Depth comparisons done by the translation after filtering, as softpipe does them,
    /// instead of by the sampler (which compares each texel before filtering, and needs a
    /// depth texture): with `Some`, shadow views are declared as float textures holding the
    /// depth in channel x, samplers as non-comparison ones, and a shadow sample through
    /// `SAMP[i]` compares its reference with the filtered depth as `depth_compares[i]`
    /// says, giving `(k, k, k, 1)` (a gather: the four gathered depths compared). A sampler
    /// without an entry compares nothing: the texel comes back as it is, as softpipe returns
    /// it when the sampler's comparison is off.
    pub depth_compares: Option<BTreeMap<u32, DepthCompare>>,
    /// The sampler state LODQ and LOD report through each sampler, which naga cannot
    /// query: they are computed in the shader as softpipe computes them (the implicit LOD
    /// through `util_fast_log2`, plus [`Options::lod_biases`]; the level clamped to
    /// `[min_lod, max_lod]` and the view's levels, rounded for a nearest mip filter, 0
    /// without mipmapping). A sampler without an entry reports as GL's default sampler:
    /// linear mipmapping, LODs clamped to [−1000, 1000] (integer samples, which cannot
    /// blend levels: nearest mipmapping).
    pub lod_queries: BTreeMap<u32, LodQuery>,
    /// The texel type of each sampler view the host binds to a format of another type than
    /// its declaration's (Mesa declares some views of integer textures FLOAT; softpipe
    /// returns the texels' words whatever the declaration): the view is declared with this
    /// return type instead (SINT, UINT; any other is FLOAT), so that the host can bind the
    /// texture. The results keep their words either way.
    pub view_return_types: BTreeMap<u32, ReturnType>,
    /// The wrap modes and border colour of each sampler through which integer views are
    /// sampled: naga cannot sample them, so the translation loads the texel softpipe's
    /// nearest filters pick (its level from [`Options::lod_queries`] and
    /// [`Options::lod_biases`]). A sampler without an entry repeats and has a zero border.
    pub texel_samplers: BTreeMap<u32, TexelSampler>,
    /// Translate a vertex shader as a compute shader reading its inputs from and writing its
    /// outputs to storage buffers, one invocation per vertex (see
    /// [`crate::STAGE_IO_GROUP`]): for hosts that need a vertex shader's outputs and have
    /// no transform feedback (WebGPU).
    pub vertex_as_compute: bool,
    /// Translate a geometry shader as a compute shader, one invocation per input primitive
    /// and `GS_INVOCATIONS` invocation, reading its input vertices from and recording the
    /// vertices it emits in storage buffers (see [`crate::GeometryLayout`]): naga has no
    /// geometry stage (nor have WebGPU and Metal). Without it a geometry shader is refused.
    pub geometry_as_compute: bool,
    /// Translate tessellation control and evaluation shaders as compute shaders, a
    /// workgroup per patch and an invocation per domain point, with their inputs and
    /// outputs in storage buffers (see [`crate::tess_compute`]): naga has no tessellation
    /// stages (nor has WebGPU); the host tessellates between the two. Without it
    /// tessellation shaders are refused.
    pub tessellation_as_compute: bool,
    /// Hold every image that an atomic names (`R32_UINT`, `R32_SINT`, `R32_FLOAT`), and
    /// every `BUFFER` image of 32-bit channels (`R32…` to `R32G32B32A32` of `UINT`, `SINT`,
    /// `FLOAT`), in a storage buffer of words at the image's binding instead of a storage
    /// image (layout and rules: [`crate::image_buffer`]): naga's image atomics return no
    /// value, TGSI's return the texel they replaced, and naga has no texel buffers. Without
    /// it an atomic on an image, and a buffer image, are refused.
    pub image_atomics_as_buffers: bool,
    /// Declare a constant buffer (`CONST[d]`) larger than this many bytes as a read-only
    /// storage buffer at the same group and binding instead of a uniform buffer: devices
    /// bound uniform buffers (64 KiB is common, and WebGPU's default), while Mesa declares
    /// up to 16,384 registers (256 KiB) of a buffer it addresses indirectly. `None`: always
    /// uniform.
    pub max_uniform_buffer_bytes: Option<u32>,
    /// The location of each varying a host places itself, by semantic and index (`(COLOR,
    /// 0) → 3`), instead of [`crate::varying_location`]'s: GL has 32 varying locations and
    /// that fixed scheme puts TEXCOORD (32 + n), COLOR (40 + n), BCOLOR, FOG and CLIPDIST
    /// past them, so a GL host linking stages gives the varyings they use locations of its
    /// own. Every stage of a pipeline must be translated with the same map.
    pub varying_locations: BTreeMap<(Semantic, u32), u32>,
    /// Read what naga has no built-in for through GLSL's (`gl_Layer`,
    /// `gl_HelperInvocation` and `gl_FragCoord` redeclared as `FS_COORD_ORIGIN` and
    /// `FS_COORD_PIXEL_CENTER` say in fragment shaders, CLOCK as `clock2x32ARB()`, depth
    /// comparisons with a LOD bias; see `glsl_builtins`): only GLSL (and, without a
    /// redeclared fragment coordinate, SPIR-V) can then be written ([`crate::options_for`]
    /// sets it for GLSL). Without it or `spirv_builtins` those are refused (a POSITION
    /// input is then the target's own fragment coordinate).
    pub glsl_builtins: bool,
    /// Read a fragment shader's `LAYER` input and `HELPER_INVOCATION` system value, CLOCK
    /// and depth comparisons with a LOD bias through SPIR-V's `Layer`, `HelperInvocation`,
    /// `OpReadClockKHR` (`SPV_KHR_shader_clock`) and a `Bias` image operand, which naga's
    /// IR cannot hold (as `glsl_builtins` does for GLSL, but for the fragment coordinate):
    /// only SPIR-V can then be written ([`crate::options_for`] sets it for SPIR-V).
    pub spirv_builtins: bool,
    /// Loop iterations each invocation may run, all loops together, for hosts that must
    /// bound a shader's running time (a GPU has no instruction budget): past them every
    /// loop is left (the results are then meaningless) and word 0 of a storage buffer at
    /// group 0, binding [`crate::LOOP_BUDGET_BINDING`], is set to 1, so the host can report
    /// the run as failed.
    pub loop_budget: Option<u32>,
}

impl Options {
    /// The location of the varying `semantic[index]`: [`Options::varying_locations`]'s, or
    /// [`crate::varying_location`]'s.
    pub fn varying_location(&self, semantic: Semantic, index: u32) -> Option<u32> {
        self.varying_locations
            .get(&(semantic, index))
            .copied()
            .or_else(|| crate::varying_location(semantic, index))
    }

    /// Whether the writer gives what naga lacks (`glsl_builtins` or `spirv_builtins`).
    pub(crate) fn writer_builtins(&self) -> bool {
        self.glsl_builtins || self.spirv_builtins
    }
}

/// The sampler state of a LOD query ([`Options::lod_queries`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LodQuery {
    /// How the sampler chooses mip levels.
    pub mip_filter: MipFilter,
    /// The lowest LOD (`pipe_sampler_state::min_lod`).
    pub min_lod: f32,
    /// The highest LOD (`pipe_sampler_state::max_lod`).
    pub max_lod: f32,
}

impl Default for LodQuery {
    /// GL's default sampler: linear mipmapping, LODs in [−1000, 1000].
    fn default() -> LodQuery {
        LodQuery {
            mip_filter: MipFilter::Linear,
            min_lod: -1000.0,
            max_lod: 1000.0,
        }
    }
}

/// The state of a sampler through which integer views are sampled
/// ([`Options::texel_samplers`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TexelSampler {
    /// The wrap modes of s, t and r.
    pub wrap: [Wrap; 3],
    /// The border colour's words, as the view's texels hold them (integers).
    pub border: [u32; 4],
}

/// A depth comparison the translation makes ([`Options::depth_compares`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DepthCompare {
    /// The function, `reference FUNC depth` (Gallium's `PIPE_FUNC_*`).
    pub func: CompareFunc,
    /// Clamp the reference to [0, 1] first (softpipe does unless the view format is a
    /// float format).
    pub clamp_reference: bool,
}

/// What the translation does to one coordinate of a sampler whose wrap mode WebGPU lacks
/// ([`Options::coordinate_wraps`]), and the address mode the host gives that sampler.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CoordinateWrap {
    /// Nothing: the mode is WebGPU's own.
    #[default]
    Keep,
    /// Clamped to [0, 1], then clamped to the border (GL's CLAMP, linear filtering).
    Clamp,
    /// `|x|`, then clamped to the edge (MIRROR_CLAMP_TO_EDGE, and MIRROR_CLAMP with
    /// nearest filtering) or to the border (MIRROR_CLAMP_TO_BORDER).
    Mirror,
    /// `|x|` clamped to [0, 1], then clamped to the border (MIRROR_CLAMP, linear filtering).
    MirrorClamp,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            native_int64: true,
            shared_memory_bytes: 32768,
            view_swizzles: BTreeMap::new(),
            lod_biases: BTreeMap::new(),
            border_colors: BTreeMap::new(),
            coordinate_wraps: BTreeMap::new(),
            one_d_as_2d: false,
            depth_compares: None,
            lod_queries: BTreeMap::new(),
            view_return_types: BTreeMap::new(),
            texel_samplers: BTreeMap::new(),
            vertex_as_compute: false,
            geometry_as_compute: false,
            tessellation_as_compute: false,
            image_atomics_as_buffers: false,
            max_uniform_buffer_bytes: None,
            varying_locations: BTreeMap::new(),
            glsl_builtins: false,
            spirv_builtins: false,
            loop_budget: None,
        }
    }
}

/// The naga stage of a TGSI processor, or why there is none.
fn stage(shader: &Shader) -> Result<ShaderStage> {
    match shader.processor {
        Processor::Vertex => Ok(ShaderStage::Vertex),
        Processor::Fragment => Ok(ShaderStage::Fragment),
        Processor::Compute => Ok(ShaderStage::Compute),
        Processor::Geometry => Err(Error::new(
            Span::default(),
            Processor::Geometry.name(),
            "naga 30 has no geometry stage: translate it to GLSL or HLSL, which have one \
             (tgsi_naga::geometry_glsl, tgsi_naga::geometry_hlsl, `tgsi translate --to \
             glsl|hlsl`), or as a compute shader that records what it emits \
             (Options::geometry_as_compute, `tgsi translate --geometry-as-compute`)",
        )),
        other => Err(Error::new(
            Span::default(),
            other.name(),
            "naga 30 has no tessellation stages: translate it to GLSL, which has them \
             (tgsi_naga::tessellation_glsl, `tgsi translate --to glsl`), to HLSL with its \
             partner as hull and domain shaders (tgsi_naga::tessellation_hlsl, `tgsi \
             translate tcs.tgsi tes.tgsi --to hlsl`), or as a compute shader \
             (Options::tessellation_as_compute, `tgsi translate --tessellation-as-compute`)",
        )),
    }
}

/// Translates a whole shader into a module with one entry point, [`ENTRY_POINT`].
pub(crate) fn translate(shader: &Shader, options: &Options) -> Result<Module> {
    translate_module(shader, options, false).map(|(module, _)| module)
}

/// Translates a geometry or tessellation shader as one invocation of a compute entry point
/// whose stage-specific parts are private variables and calls of empty functions, for the
/// GLSL and HLSL stages written around it ([`crate::glsl_stage()`], `hlsl_stage`): the
/// module, and a geometry shader's emitting functions.
pub(crate) fn translate_one_invocation(
    shader: &Shader,
    options: &Options,
) -> Result<(Module, Option<Rc<GeometryStage>>)> {
    if !matches!(
        shader.processor,
        Processor::Geometry | Processor::TessCtrl | Processor::TessEval
    ) {
        return Err(Error::new(
            Span::default(),
            shader.processor.name(),
            "is not a geometry or tessellation shader",
        ));
    }
    translate_module(shader, options, true)
}

/// [`translate`], or with `glsl_stage` a geometry or tessellation shader's translation for
/// a GLSL stage.
fn translate_module(
    shader: &Shader,
    options: &Options,
    glsl_stage: bool,
) -> Result<(Module, Option<Rc<GeometryStage>>)> {
    let vertex_as_compute = options.vertex_as_compute && shader.processor == Processor::Vertex;
    let geometry_as_compute =
        !glsl_stage && options.geometry_as_compute && shader.processor == Processor::Geometry;
    let tessellation_as_compute = !glsl_stage
        && options.tessellation_as_compute
        && matches!(shader.processor, Processor::TessCtrl | Processor::TessEval);
    let stage = if vertex_as_compute || geometry_as_compute || glsl_stage || tessellation_as_compute
    {
        ShaderStage::Compute
    } else {
        stage(shader)?
    };
    let function = Function {
        name: Some(ENTRY_POINT.to_string()),
        ..Function::default()
    };
    let mut t = Translator {
        shader,
        options,
        module: Module::default(),
        body: Body::new(function),
        typifier: Typifier::new(),
        registers: Registers::default(),
        interface: Interface::default(),
        resources: Resources::default(),
        flow: Vec::new(),
        loaded: HashMap::new(),
        span: Span::default(),
        item: String::new(),
        helpers: Helpers::default(),
        log2_table: None,
        vertex_compute: None,
        geometry_compute: None,
        for_glsl_stage: glsl_stage,
        glsl_stage_end: None,
        glsl_stage_barrier: None,
        geometry_stage: None,
        per_vertex_inputs: None,
        shared_outputs: None,
        loop_budget: None,
        subroutines: shader.instructions.iter().any(|i| i.opcode == Opcode::CAL),
        in_subroutine: None,
        functions: HashMap::new(),
    };
    t.declare_resources()?;
    t.declare_registers()?;
    if vertex_as_compute {
        t.declare_vertex_compute()?;
    } else if geometry_as_compute {
        t.declare_geometry_compute()?;
    } else if glsl_stage && shader.processor == Processor::Geometry {
        t.geometry_stage = Some(t.declare_geometry_stage()?);
    } else if glsl_stage && shader.processor == Processor::TessCtrl {
        t.declare_tess_control_stage()?;
    } else if glsl_stage {
        t.declare_tess_eval_stage()?;
    } else if tessellation_as_compute && shader.processor == Processor::TessCtrl {
        t.declare_tess_control_compute()?;
    } else if tessellation_as_compute {
        t.declare_tess_eval_compute()?;
    } else {
        t.declare_interface(stage)?;
    }
    if let Some(budget) = options.loop_budget {
        t.declare_loop_budget(budget);
    }
    t.program(0)?;
    if !t.body.terminated() {
        t.store_outputs_and_return()?;
    }
    let workgroup_size = t.workgroup_size(stage)?;
    let early_depth_test = None;
    let function = t.body.finish();
    let geometry_stage = t.geometry_stage;
    let mut module = t.module;
    module.entry_points.push(naga::EntryPoint {
        name: ENTRY_POINT.to_string(),
        stage,
        early_depth_test,
        workgroup_size,
        workgroup_size_overrides: None,
        function,
        mesh_info: None,
        task_payload: None,
        incoming_ray_payload: None,
    });
    Ok((module, geometry_stage))
}

impl Translator<'_> {
    /// Translates instructions from `start` to the end of the program (END at the top level)
    /// or, inside a subroutine, to its ENDSUB.
    fn program(&mut self, start: usize) -> Result<()> {
        let shader = self.shader;
        for inst in &shader.instructions[start.min(shader.instructions.len())..] {
            self.span = inst.span;
            self.item = inst.opcode.name().to_string();
            self.loaded.clear();
            let top = self.flow.is_empty();
            match inst.opcode {
                Opcode::END if top && self.in_subroutine.is_none() => break,
                Opcode::END if self.in_subroutine.is_some() => {
                    return Err(self.unsupported("inside a subroutine cannot end the program"))
                }
                Opcode::ENDSUB if top && self.in_subroutine.is_some() => break,
                // Reached in the main program: BGNSUB does nothing, ENDSUB returns.
                Opcode::BGNSUB => {}
                Opcode::ENDSUB if top => {
                    if !self.body.terminated() {
                        self.store_outputs_and_return()?;
                    }
                }
                Opcode::CAL => self.call_subroutine(inst)?,
                _ => self.instruction(inst)?,
            }
        }
        match self.flow.last() {
            Some(open) => Err(Error::new(self.span, open.name(), "is never closed")),
            None => Ok(()),
        }
    }

    /// CAL: a call of the subroutine its label designates (its BGNSUB or the instruction after
    /// it), translated into a function the first time.
    fn call_subroutine(&mut self, inst: &Instruction) -> Result<()> {
        let at = |i: u32| {
            let i = i as usize;
            let is_sub = |i: usize| {
                self.shader
                    .instructions
                    .get(i)
                    .is_some_and(|x| x.opcode == Opcode::BGNSUB)
            };
            if is_sub(i) {
                Some(i)
            } else if i > 0 && is_sub(i - 1) {
                Some(i - 1)
            } else {
                None
            }
        };
        let start = inst
            .label
            .and_then(at)
            .ok_or_else(|| self.unsupported("label is not a BGNSUB"))?;
        let function = match self.functions.get(&start) {
            Some(Some(f)) => *f,
            Some(None) => return Err(self.unsupported("calls a subroutine recursively")),
            None => self.subroutine(start)?,
        };
        self.body.stmt(naga::Statement::Call {
            function,
            arguments: Vec::new(),
            result: None,
        });
        Ok(())
    }

    /// Translates the subroutine whose BGNSUB is at `start` into a function.
    fn subroutine(&mut self, start: usize) -> Result<Handle<Function>> {
        self.functions.insert(start, None);
        let function = Function {
            name: Some(format!("sub{start}")),
            ..Function::default()
        };
        let main_body = std::mem::replace(&mut self.body, Body::new(function));
        let main_typifier = std::mem::replace(&mut self.typifier, Typifier::new());
        let main_flow = std::mem::take(&mut self.flow);
        let main_sub = self.in_subroutine.replace(start);
        let (span, item) = (self.span, self.item.clone());
        let result = self.program(start + 1);
        let body = std::mem::replace(&mut self.body, main_body);
        self.typifier = main_typifier;
        self.flow = main_flow;
        self.in_subroutine = main_sub;
        self.loaded.clear();
        (self.span, self.item) = (span, item);
        result?;
        let handle = self
            .module
            .functions
            .append(body.finish(), naga::Span::UNDEFINED);
        self.functions.insert(start, Some(handle));
        Ok(handle)
    }

    /// Translates one instruction.
    fn instruction(&mut self, inst: &Instruction) -> Result<()> {
        let info = inst.opcode.info();
        match inst.opcode {
            Opcode::NOP => Ok(()),
            Opcode::IF
            | Opcode::UIF
            | Opcode::ELSE
            | Opcode::ENDIF
            | Opcode::BGNLOOP
            | Opcode::ENDLOOP
            | Opcode::BRK
            | Opcode::CONT
            | Opcode::SWITCH
            | Opcode::CASE
            | Opcode::DEFAULT
            | Opcode::ENDSWITCH
            | Opcode::RET
            | Opcode::END => self.flow(inst),
            Opcode::KILL | Opcode::KILL_IF | Opcode::DEMOTE => self.kill(inst),
            Opcode::CLOCK if self.options.writer_builtins() => self.glsl_clock(inst),
            Opcode::DDX | Opcode::DDY | Opcode::DDX_FINE | Opcode::DDY_FINE => {
                self.derivative(inst)
            }
            Opcode::INTERP_OFFSET => self.interp_offset(inst),
            Opcode::BARRIER | Opcode::MEMBAR => self.barrier(inst),
            Opcode::EMIT | Opcode::ENDPRIM => self.emit(inst),
            Opcode::LOAD | Opcode::STORE => self.memory(inst),
            Opcode::RESQ => self.resource_query(inst),
            _ if info.section == Section::Atomic => self.atomic(inst),
            _ if info.has(tgsi::opcode::TEX)
                || info.has(tgsi::opcode::SVIEW_OFFSETS)
                || matches!(inst.opcode, Opcode::SVIEWINFO | Opcode::LOD) =>
            {
                self.texture(inst)
            }
            _ if (0..inst.src.len()).any(|i| info.src_type(i).is_64bit())
                || (info.num_dst > 0 && info.dst_type(0).is_64bit()) =>
            {
                self.wide(inst)
            }
            _ if info.section != Section::Legacy
                && matches!(
                    info.output,
                    OutputMode::Component | OutputMode::Replicate | OutputMode::Channel
                ) =>
            {
                self.alu(inst)
            }
            Opcode::INTERP_CENTROID | Opcode::INTERP_SAMPLE => self.alu(inst),
            _ => Err(self.unsupported("is not translated yet")),
        }
    }

    /// The name of what is being translated (the opcode), for errors.
    pub(crate) fn item(&self) -> String {
        self.item.clone()
    }

    /// An error about the current instruction.
    pub(crate) fn unsupported(&self, reason: impl Into<String>) -> Error {
        Error::new(self.span, self.item(), reason)
    }

    /// A type handle (naga deduplicates).
    pub(crate) fn ty(&mut self, inner: TypeInner) -> Handle<Type> {
        self.module
            .types
            .insert(Type { name: None, inner }, NagaSpan::UNDEFINED)
    }

    /// `array<base, len>` (with the 16-byte stride of `vec4` elements).
    pub(crate) fn array_of(&mut self, base: Handle<Type>, len: u32) -> Handle<Type> {
        let size = std::num::NonZeroU32::new(len)
            .map_or(naga::ArraySize::Dynamic, naga::ArraySize::Constant);
        let stride = self.module.types[base].inner.size(self.module.to_ctx());
        self.ty(TypeInner::Array { base, size, stride })
    }

    /// The compute block size from the `CS_FIXED_BLOCK_*` properties.
    fn workgroup_size(&self, stage: ShaderStage) -> Result<[u32; 3]> {
        if stage != ShaderStage::Compute {
            return Ok([0; 3]);
        }
        if self.vertex_compute.is_some() {
            return Ok([VERTEX_WORKGROUP_SIZE, 1, 1]);
        }
        if self.geometry_compute.is_some() {
            return Ok([GEOMETRY_WORKGROUP_SIZE, 1, 1]);
        }
        if self.for_glsl_stage {
            return Ok([1, 1, 1]);
        }
        if self.shared_outputs.is_some() {
            return Ok([control_vertices_out(self.shader)?, 1, 1]);
        }
        if self.shader.processor == Processor::TessEval {
            return Ok([TESS_EVAL_WORKGROUP_SIZE, 1, 1]);
        }
        let names = [
            PropertyName::CsFixedBlockWidth,
            PropertyName::CsFixedBlockHeight,
            PropertyName::CsFixedBlockDepth,
        ];
        let mut size = [1; 3];
        for (s, name) in size.iter_mut().zip(names) {
            *s = self.shader.property(name).ok_or_else(|| {
                Error::new(
                    Span::default(),
                    name.name(),
                    "is missing: a block size chosen at dispatch time cannot be expressed",
                )
            })?;
        }
        Ok(size)
    }
}
