//! The validator: every rule the TGSI spec states or implies, checked over a [`Shader`] and
//! reported as [`Diagnostic`]s with the position of the offending item.
//!
//! Rules are split by theme into submodules (registers, operands, control flow, stage,
//! declarations, properties, textures, memory). Each diagnostic carries a stable [`Code`];
//! a code always has the same [`Severity`]. Errors mark shaders that no consumer can give a
//! meaning to; warnings mark constructs the spec forbids or discourages but that Mesa's own
//! producers emit or that softpipe tolerates (repeated declarations, legacy opcodes…).
//!
//! The validator never panics and runs in time linear (or `n log n`) in the input size;
//! nothing is recursive, so deeply nested input is safe.
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
    LegacyOpcode = "legacy-opcode", Warning;
    /// A register file only older spec versions define.
    LegacyFile = "legacy-file", Warning;
    /// A removed opcode slot (`UNKnn`).
    GapOpcode = "gap-opcode", Error;
    // ----- token fields -----
    /// A value wider than the token field that holds it (tokens::encode refuses it).
    FieldOverflow = "field-overflow", Error;
    // ----- Gallium limits -----
    /// A register beyond Gallium's count for its file (inputs, outputs, samplers, sampler
    /// views, images, buffers, constant and atomic buffers, clip/cull distances).
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
