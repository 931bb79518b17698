//! The validator: every rule the TGSI spec states or implies, every field width of the
//! token format and every fixed limit of Gallium, checked over a [`Shader`] and reported as
//! [`Diagnostic`]s with the position of the offending item. It is what a host runs on
//! untrusted shaders: a shader without errors can be encoded as Mesa tokens and stays within
//! what a Gallium driver can hold.
//!
//! Rules are split by theme into submodules. Each diagnostic carries a stable [`Code`]; a
//! code always has the same [`Severity`]. Errors mark shaders that no consumer can give a
//! meaning to, or that a Gallium driver cannot hold; warnings mark constructs the spec
//! forbids or discourages but that Mesa's own producers emit (so the Mesa-generated corpus
//! validates without errors) or that only older spec versions define.
//!
//! The validator never panics and runs in time linear (or `n log n`) in the input size;
//! nothing is recursive, so deeply nested input and long call chains are safe.
//!
//! # Rules
//!
//! E = error, W = warning. The limits named are fields of [`Limits`].
//!
//! **Registers** (`registers`)
//! - `undeclared-register` E — an operand names a register no declaration covers, an
//!   immediate that does not exist, or a negative direct index.
//! - `undeclared-memory` W — an undeclared `MEMORY` index while another is declared (Mesa's
//!   nir_to_tgsi declares `MEMORY[1]` and accesses `MEMORY[0]`).
//! - `index-too-large` E — an index within its token field but beyond `max_register_index`
//!   (operands) or `max_declared_index` (declarations), when those are tightened.
//! - `unknown-array-id` E — an indirect operand names an ArrayID no declaration has.
//! - `indirect-without-array` W — indirect addressing without ArrayID outside TEMP and CONST
//!   (the spec allows it only there; Mesa emits it for inputs and outputs).
//! - `bad-address-register` E — the address of an indirect index is in a file holding no
//!   value (SAMP, NULL…).
//! - `non-address-indirect` E — the address is a value register other than ADDR.
//! - `relative-outside-array` E — a relative access whose constant base lies outside the
//!   array its ArrayID names.
//! - `not-writable` E, `not-readable` E, `bad-operand-file` E — an operand position holds a
//!   file that cannot play its role (destination, value, sampler, view, resource, input).
//!
//! **Operands** (`operands`)
//! - `operand-count` E — counts differ from the opcode table.
//! - `bad-write-mask` E — an empty write mask or bits beyond w (the 4-bit field).
//! - `bad-swizzle` E — a source, address or texel-offset swizzle beyond w (2-bit fields).
//! - `unpaired-64bit` W — a 64-bit operand not using whole channel pairs (Mesa emits some).
//! - `abs-on-integer` W, `negate-on-unsigned` W, `modifier-on-64bit` W,
//!   `saturate-non-float` W — modifiers where the spec gives them no meaning.
//!
//! **Control flow** (`control_flow`)
//! - `unbalanced-control-flow` E — unmatched, crossed or unclosed IF/loop/SWITCH/BGNSUB.
//! - `misplaced-case` E, `duplicate-default` E, `case-not-immediate` E — SWITCH structure.
//! - `nested-subroutine` E — BGNSUB inside another block.
//! - `break-outside-loop` E, `continue-outside-loop` E — BRK / CONT placement.
//! - `label-out-of-range` E — a branch label past the last instruction.
//! - `label-mismatch` W, `missing-label` W — labels that disagree with the structure or are
//!   absent (older producers write `:0`).
//! - `bad-call-target` E — CAL without a label or to something other than BGNSUB.
//! - `nesting-too-deep` E — blocks nested deeper than `max_nesting` (256).
//! - `missing-end` E — no END; `duplicate-end` E — a second END in the main program;
//!   `end-inside-block` E — END inside an IF, loop, SWITCH or subroutine.
//!
//! **Calls** (`calls`)
//! - `recursive-call` E — a subroutine reaching itself, directly or through others.
//!
//! **Stage** (`stage`)
//! - `wrong-stage` E — an opcode the stage cannot use (opcode table).
//! - `implausible-system-value` W — a system value the stage does not provide.
//! - `legacy-opcode` E, `legacy-file` E — opcodes and files only older spec versions define
//!   (no Mesa token number: `tokens::encode` refuses them). The interpreter runs them;
//!   [`Limits::allow_legacy`] turns these two rules off (`tgsi check --legacy`).
//! - `gap-opcode` E — `UNKnn` slots.
//! - `emit-without-stream` W — EMIT / ENDPRIM with no stream operand, as geometry shaders
//!   before 2017 wrote them (encodable, and read as stream 0).
//!
//! **Properties** (`properties`)
//! - `property-wrong-stage` W, `duplicate-property` W, `missing-property` W.
//! - `bad-property-value` E — a value outside the property's enumeration or range.
//!
//! **Declarations** (`declarations`)
//! - `bad-range` E — a range whose last register comes before the first.
//! - `overlapping-declaration` E — two declarations of one file sharing registers (the same
//!   TEMP range twice, overlapping arrays, OUT ranges…).
//! - `repeated-declaration` W — an IN, OUT or SV declared again over exactly the same
//!   registers with the same semantic and ArrayID: Mesa emits these (identical geometry
//!   inputs, one declaration per packed component of a varying).
//! - `misplaced-semantic` E, `misplaced-interpolation` W, `misplaced-stream` E,
//!   `bad-usage-mask` E (the 4-bit field), `bad-declaration` E — attributes on files that
//!   cannot carry them.
//! - `duplicate-array-id` E — two declarations of one file with the same ArrayID.
//! - `declaration-after-instruction` E — a declaration or immediate after the first
//!   instruction (single-pass consumers such as virglrenderer's translator see it too late).
//!
//! **Token fields** (`encoding`)
//! - `field-overflow` E — a value wider than its field in Mesa's token layout (declaration
//!   range, dimension, semantic index, ArrayIDs, image and memory formats, memory qualifiers,
//!   operand, dimension, address and texel-offset indices, labels, BodySize).
//!   `tokens::encode` refuses exactly these values instead of truncating them.
//!
//! **Gallium limits** (`gallium`; defaults from `p_state.h`, or softpipe's caps)
//! - `slot-beyond-limit` E — inputs (`max_shader_inputs` 80; vertex shaders
//!   `max_vertex_attribs` 32), outputs (`max_shader_outputs` 80), `SAMP` (`max_samplers`
//!   32), `SVIEW` (`max_sampler_views` 128), `IMAGE` (`max_shader_images` 64), `BUFFER`
//!   (`max_shader_buffers` 32), constant buffers (`max_constant_buffers` 32), atomic
//!   buffers (`max_hw_atomic_buffers` 32), fragment `COLOR` outputs (`max_color_buffers`
//!   8), `CLIPDIST` registers (`max_clip_cull_distances` 8, four per register).
//! - `stream-beyond-limit` E — a declared stream, or EMIT / ENDPRIM on an immediate stream,
//!   at or beyond `max_vertex_streams` (4). A stream in another register is known only at
//!   run time; the interpreter then ignores EMIT / ENDPRIM on streams it does not have.
//! - `property-beyond-limit` E — `GS_MAX_OUTPUT_VERTICES` (`max_gs_output_vertices` 1024),
//!   `GS_INVOCATIONS` (`max_gs_invocations` 32), `TCS_VERTICES_OUT` (`max_patch_vertices`
//!   32), clip + cull distances (8), a compute block whose thread count overflows or
//!   exceeds `max_block_threads` (1024).
//!
//! **Textures** (`textures`) and **memory** (`memory`)
//! - `texture-target-mismatch` E, `shadow-mismatch` W, `missing-texture-target` E,
//!   `too-many-offsets` E (at most 4), `mixed-sampling` W, `missing-sampler-view` W,
//!   `store-to-readonly` W.
//!
//! ```
//! let shader = tgsi::parse("FRAG\nDCL OUT[0], COLOR\n  0: MOV OUT[0], TEMP[0]\n  1: END\n").unwrap();
//! let diags = tgsi::validate::validate(&shader, &tgsi::Limits::DEFAULT);
//! assert_eq!(diags[0].code, tgsi::validate::Code::UndeclaredRegister);
//! assert_eq!(diags[0].to_string(), "3:6: error: TEMP[0] is not declared");
//! ```

mod calls;
mod context;
mod control_flow;
mod declarations;
mod encoding;
mod gallium;
mod memory;
mod operands;
mod properties;
mod registers;
mod stage;
mod textures;

use crate::ir::{Shader, Span};
use crate::limits::Limits;
use context::Ctx;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The shader is invalid.
    Error,
    /// The shader is legal for Mesa but breaks or bends a rule of the spec.
    Warning,
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

macro_rules! codes {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal, $sev:ident; )*) => {
        /// The rule a diagnostic reports; its [`Code::name`] is stable and short.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $( $(#[$doc])* $variant, )*
        }

        impl Code {
            /// Every code.
            pub const ALL: &'static [Code] = &[ $( Code::$variant, )* ];

            /// The stable kebab-case name (`undeclared-register`).
            pub const fn name(self) -> &'static str {
                match self { $( Code::$variant => $name, )* }
            }

            /// The severity every diagnostic with this code has.
            pub const fn severity(self) -> Severity {
                match self { $( Code::$variant => Severity::$sev, )* }
            }
        }
    };
}

codes! {
    // ----- registers -----
    /// A register that no declaration covers (or an immediate that does not exist).
    UndeclaredRegister = "undeclared-register", Error;
    /// An undeclared MEMORY index while another is declared: Mesa's nir_to_tgsi declares
    /// shared memory as `MEMORY[1]` and accesses `MEMORY[0]`; tgsi_exec ignores the index.
    UndeclaredMemory = "undeclared-memory", Warning;
    /// A register index beyond [`Limits::max_register_index`].
    IndexTooLarge = "index-too-large", Error;
    /// An indirect operand names an ArrayID that no declaration of that file has.
    UnknownArrayId = "unknown-array-id", Error;
    /// Indirect addressing without ArrayID outside TEMP and CONST.
    IndirectWithoutArray = "indirect-without-array", Warning;
    /// The address of an indirect operand comes from a file that holds no values.
    BadAddressRegister = "bad-address-register", Error;
    /// The address of an indirect operand is a value register other than ADDR: the spec
    /// and Gallium's drivers index through ADDR only (tgsi_exec would read ADDR anyway).
    NonAddressIndirect = "non-address-indirect", Error;
    /// A relative access naming an ArrayID whose constant base lies outside that array.
    RelativeOutsideArray = "relative-outside-array", Error;
    /// A destination in a file that cannot be written.
    NotWritable = "not-writable", Error;
    /// A value source in a file that holds no values (NULL, SAMP, BUFFER…).
    NotReadable = "not-readable", Error;
    /// A sampler, sampler-view, resource or input operand in the wrong file.
    BadOperandFile = "bad-operand-file", Error;
    // ----- operands -----
    /// Destination or source count differs from the opcode table.
    OperandCount = "operand-count", Error;
    /// An empty write mask, or bits beyond w.
    BadWriteMask = "bad-write-mask", Error;
    /// A swizzle or address component beyond w.
    BadSwizzle = "bad-swizzle", Error;
    /// A 64-bit operand whose mask or swizzle does not use whole channel pairs.
    Unpaired64Bit = "unpaired-64bit", Warning;
    /// Absolute value on an integer operand.
    AbsOnInteger = "abs-on-integer", Warning;
    /// Negate on an unsigned operand (older spec versions allowed it).
    NegateOnUnsigned = "negate-on-unsigned", Warning;
    /// A modifier on a 64-bit operand (undefined; Mesa's interpreter asserts).
    ModifierOn64Bit = "modifier-on-64bit", Warning;
    /// `_SAT` on an instruction whose result is not a float.
    SaturateNonFloat = "saturate-non-float", Warning;
    // ----- control flow -----
    /// An unmatched or mismatched block opener or closer, or a block left open.
    UnbalancedControlFlow = "unbalanced-control-flow", Error;
    /// CASE or DEFAULT not directly inside SWITCH.
    MisplacedCase = "misplaced-case", Error;
    /// A second DEFAULT in one SWITCH.
    DuplicateDefault = "duplicate-default", Error;
    /// A CASE value that is not an immediate.
    CaseNotImmediate = "case-not-immediate", Error;
    /// BGNSUB inside another block.
    NestedSubroutine = "nested-subroutine", Error;
    /// BRK outside any loop or switch.
    BreakOutsideLoop = "break-outside-loop", Error;
    /// CONT outside any loop.
    ContinueOutsideLoop = "continue-outside-loop", Error;
    /// A branch label past the last instruction.
    LabelOutOfRange = "label-out-of-range", Error;
    /// A branch label that disagrees with the block structure (Mesa jumps there).
    LabelMismatch = "label-mismatch", Warning;
    /// IF/UIF/ELSE without a label (softpipe would jump to instruction 0).
    MissingLabel = "missing-label", Warning;
    /// CAL without a label, or whose label is not a BGNSUB.
    BadCallTarget = "bad-call-target", Error;
    /// Blocks nested deeper than [`Limits::max_nesting`].
    NestingTooDeep = "nesting-too-deep", Error;
    /// No END instruction.
    MissingEnd = "missing-end", Error;
    /// A second END in the main program (outside subroutines).
    DuplicateEnd = "duplicate-end", Error;
    /// END inside an IF, loop, switch or subroutine.
    EndInsideBlock = "end-inside-block", Error;
    /// A call that recurses: a subroutine reaching itself, directly or through others.
    RecursiveCall = "recursive-call", Error;
    // ----- stage -----
    /// An opcode the shader's stage cannot use.
    WrongStage = "wrong-stage", Error;
    /// A system value that the stage does not provide, or a non-system semantic on SV.
    ImplausibleSystemValue = "implausible-system-value", Warning;
    // ----- properties -----
    /// A property meant for another stage.
    PropertyWrongStage = "property-wrong-stage", Warning;
    /// A property value outside its range.
    BadPropertyValue = "bad-property-value", Error;
    /// A property given twice with different values.
    DuplicateProperty = "duplicate-property", Warning;
    /// A property every shader of the stage needs is absent.
    MissingProperty = "missing-property", Warning;
    // ----- declarations -----
    /// A declaration range whose last register comes before the first.
    BadRange = "bad-range", Error;
    /// Two declarations of the same file that share registers (other than a repetition).
    OverlappingDeclaration = "overlapping-declaration", Error;
    /// An input, output or system value declared again over the same registers with the
    /// same semantic (Mesa repeats such declarations, e.g. one per packed component).
    RepeatedDeclaration = "repeated-declaration", Warning;
    /// A semantic on a file other than IN, OUT or SV.
    MisplacedSemantic = "misplaced-semantic", Error;
    /// Interpolation on anything but a fragment-shader input.
    MisplacedInterpolation = "misplaced-interpolation", Warning;
    /// A vertex stream on anything but a geometry-shader output.
    MisplacedStream = "misplaced-stream", Error;
    /// An empty usage mask or bits beyond w.
    BadUsageMask = "bad-usage-mask", Error;
    /// File-specific attributes (target, memory type, ATOMIC…) on the wrong file.
    BadDeclaration = "bad-declaration", Error;
    /// Two declarations of one file with the same ArrayID.
    DuplicateArrayId = "duplicate-array-id", Error;
    /// A declaration or immediate after the first instruction.
    DeclarationAfterInstruction = "declaration-after-instruction", Error;
    /// An opcode only older spec versions define.
    LegacyOpcode = "legacy-opcode", Error;
    /// A register file only older spec versions define.
    LegacyFile = "legacy-file", Error;
    /// EMIT / ENDPRIM without a stream operand (pre-2017 geometry shaders).
    EmitWithoutStream = "emit-without-stream", Warning;
    /// A removed opcode slot (`UNKnn`).
    GapOpcode = "gap-opcode", Error;
    // ----- token fields -----
    /// A value wider than the token field that holds it (tokens::encode refuses it).
    FieldOverflow = "field-overflow", Error;
    // ----- Gallium limits -----
    /// A register beyond Gallium's count for its file (inputs, outputs, samplers, sampler
    /// views, images, buffers, constant and atomic buffers, color buffers, clip/cull
    /// distances).
    SlotBeyondLimit = "slot-beyond-limit", Error;
    /// A vertex stream beyond [`Limits::max_vertex_streams`] (declaration or EMIT/ENDPRIM).
    StreamBeyondLimit = "stream-beyond-limit", Error;
    /// A property beyond a Gallium limit (output vertices, invocations, patch size,
    /// clip/cull distances, compute block threads).
    PropertyBeyondLimit = "property-beyond-limit", Error;
    // ----- textures -----
    /// An instruction's texture or image target of another dimensionality than the
    /// declared sampler view or image.
    TextureTargetMismatch = "texture-target-mismatch", Error;
    /// A shadow target on a non-shadow sampler view, or the reverse.
    ShadowMismatch = "shadow-mismatch", Warning;
    /// A texture instruction with no target, or an image access with no memory target.
    MissingTextureTarget = "missing-texture-target", Error;
    /// More than four texel offsets.
    TooManyOffsets = "too-many-offsets", Error;
    /// SAMPLE* and TEX* opcodes in one shader.
    MixedSampling = "mixed-sampling", Warning;
    /// Sampler views are declared, but not for a sampler used by a TEX* opcode.
    MissingSamplerView = "missing-sampler-view", Warning;
    // ----- memory -----
    /// A store or atomic on an image declared without WR.
    StoreToReadOnly = "store-to-readonly", Warning;
}

/// One finding of the validator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning (always `code.severity()`).
    pub severity: Severity,
    /// The rule.
    pub code: Code,
    /// Position of the offending item.
    pub span: Span,
    /// What is wrong, in words.
    pub message: String,
}

impl Diagnostic {
    /// A diagnostic with the severity of its code.
    pub fn new(code: Code, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: code.severity(),
            code,
            span,
            message: message.into(),
        }
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}: {}", self.span, self.severity, self.message)
    }
}

/// Checks every rule over `shader`; diagnostics come sorted by position.
pub fn validate(shader: &Shader, limits: &Limits) -> Vec<Diagnostic> {
    let mut ctx = Ctx::new(shader, limits);
    declarations::check(&mut ctx);
    properties::check(&mut ctx);
    stage::check(&mut ctx);
    control_flow::check(&mut ctx);
    calls::check(&mut ctx);
    encoding::check(&mut ctx);
    gallium::check(&mut ctx);
    for inst in &shader.instructions {
        operands::check_instruction(&mut ctx, inst);
        registers::check_instruction(&mut ctx, inst);
        textures::check_instruction(&mut ctx, inst);
        memory::check_instruction(&mut ctx, inst);
    }
    textures::check_shader(&mut ctx);
    let mut diags = ctx.finish();
    diags.sort_by_key(|d| d.span);
    diags
}

/// Whether `diags` holds any error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}
