//! What naga's IR cannot hold, given by SPIR-V ([`crate::Options::spirv_builtins`]): the
//! translation leaves the same empty functions and private variables as for GLSL
//! (`glsl_builtins`), and [`finish`] gives those functions SPIR-V bodies in naga's words
//! (written with debug names, by which it finds them):
//!
//! - `tgsi_glsl_builtins()` fills `tgsi_builtin_layer` from an `Input` variable decorated
//!   `BuiltIn Layer` and `Flat` (capability `Geometry`) and `tgsi_builtin_helper` from one
//!   decorated `BuiltIn HelperInvocation` (`Volatile` from SPIR-V 1.6), as all ones or zero;
//! - `tgsi_glsl_clock()` fills `tgsi_builtin_clock` with `OpReadClockKHR` at subgroup scope
//!   (capability `ShaderClockKHR`, extension `SPV_KHR_shader_clock`): the low word in x;
//! - in each `tgsi_biased_compare_k()`, the `OpImageSampleDrefImplicitLod` gets a `Bias`
//!   image operand, loaded from `tgsi_compare_bias`.
//!
//! New input variables join the entry point's interface; types are reused where naga
//! declared them (SPIR-V forbids a second declaration of a scalar or vector type).

use crate::spv_repair::{first_word, instructions, opcode, HEADER};

const OP_NAME: u32 = 5;
const OP_EXTENSION: u32 = 10;
const OP_ENTRY_POINT: u32 = 15;
const OP_CAPABILITY: u32 = 17;
const OP_TYPE_BOOL: u32 = 20;
const OP_TYPE_INT: u32 = 21;
const OP_TYPE_FLOAT: u32 = 22;
const OP_TYPE_VECTOR: u32 = 23;
const OP_TYPE_POINTER: u32 = 32;
const OP_CONSTANT: u32 = 43;
const OP_FUNCTION: u32 = 54;
const OP_FUNCTION_END: u32 = 56;
const OP_VARIABLE: u32 = 59;
const OP_LOAD: u32 = 61;
const OP_STORE: u32 = 62;
const OP_DECORATE: u32 = 71;
const OP_IMAGE_SAMPLE_DREF_IMPLICIT_LOD: u32 = 89;
const OP_SELECT: u32 = 169;
const OP_LABEL: u32 = 248;
const OP_RETURN: u32 = 253;
const OP_READ_CLOCK_KHR: u32 = 5056;
const CAPABILITY_GEOMETRY: u32 = 2;
const CAPABILITY_SHADER_CLOCK: u32 = 5055;
const STORAGE_INPUT: u32 = 1;
const DECORATION_VOLATILE: u32 = 21;
const DECORATION_FLAT: u32 = 14;
const DECORATION_BUILT_IN: u32 = 11;
const BUILT_IN_LAYER: u32 = 9;
const BUILT_IN_HELPER_INVOCATION: u32 = 23;
const SCOPE_SUBGROUP: u32 = 3;
const IMAGE_OPERANDS_BIAS: u32 = 1;
/// `OpTypeVoid` up to `OpTypeForwardPointer`: where the declarations start.
const TYPES: std::ops::RangeInclusive<u32> = 19..=39;

/// The words of a string operand (NUL-terminated, padded to a word).
fn string_words(s: &str) -> Vec<u32> {
    let mut bytes = s.as_bytes().to_vec();
    bytes.resize(s.len() / 4 * 4 + 4, 0);
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The string operand starting at `words[0]`.
fn string_of(words: &[u32]) -> String {
    let bytes: Vec<u8> = words
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .take_while(|&b| b != 0)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A module being extended: its instructions, and the new ids.
struct Patch {
    insts: Vec<Vec<u32>>,
    bound: u32,
    version: u32,
    capabilities: Vec<u32>,
    extensions: Vec<&'static str>,
    decorations: Vec<Vec<u32>>,
    declarations: Vec<Vec<u32>>,
    interface: Vec<u32>,
}

impl Patch {
    fn id(&mut self) -> u32 {
        self.bound += 1;
        self.bound - 1
    }

    /// The id `OpName` gives `name`.
    fn named(&self, name: &str) -> Option<u32> {
        self.insts
            .iter()
            .find(|i| opcode(i) == OP_NAME && i.len() > 2 && string_of(&i[2..]) == name)
            .map(|i| i[1])
    }

    /// A type naga declared with these operands, or a new declaration of it.
    fn ty(&mut self, op: u32, operands: &[u32]) -> u32 {
        let found = self
            .insts
            .iter()
            .chain(&self.declarations)
            .find(|i| opcode(i) == op && i.get(2..) == Some(operands));
        if let Some(t) = found {
            return t[1];
        }
        let id = self.id();
        let mut inst = vec![first_word(op, 2 + operands.len()), id];
        inst.extend_from_slice(operands);
        self.declarations.push(inst);
        id
    }

    fn uint(&mut self) -> u32 {
        self.ty(OP_TYPE_INT, &[32, 0])
    }

    fn constant(&mut self, ty: u32, value: u32) -> u32 {
        let id = self.id();
        self.declarations
            .push(vec![first_word(OP_CONSTANT, 4), ty, id, value]);
        id
    }

    /// A new `Input` variable of type `ty` decorated as built-in `builtin`.
    fn input(&mut self, ty: u32, builtin: u32, extra: &[u32]) -> u32 {
        let pointer = self.ty(OP_TYPE_POINTER, &[STORAGE_INPUT, ty]);
        let var = self.id();
        self.declarations.push(vec![
            first_word(OP_VARIABLE, 4),
            pointer,
            var,
            STORAGE_INPUT,
        ]);
        self.decorations.push(vec![
            first_word(OP_DECORATE, 4),
            var,
            DECORATION_BUILT_IN,
            builtin,
        ]);
        for &d in extra {
            self.decorations
                .push(vec![first_word(OP_DECORATE, 3), var, d]);
        }
        self.interface.push(var);
        var
    }

    /// Replace the body of function `name` with `body` (between its label and return).
    fn set_body(&mut self, name: &str, body: Vec<Vec<u32>>) -> Result<(), String> {
        let f = self
            .named(name)
            .ok_or_else(|| format!("naga's SPIR-V has no function {name}"))?;
        let start = self
            .insts
            .iter()
            .position(|i| opcode(i) == OP_FUNCTION && i.get(2) == Some(&f))
            .ok_or_else(|| format!("naga's SPIR-V does not define {name}"))?;
        let end = start
            + self.insts[start..]
                .iter()
                .position(|i| opcode(i) == OP_FUNCTION_END)
                .ok_or_else(|| format!("{name} has no end"))?;
        let label = self.id();
        let mut new = vec![vec![first_word(OP_LABEL, 2), label]];
        new.extend(body);
        new.push(vec![first_word(OP_RETURN, 1)]);
        self.insts.splice(start + 1..end, new);
        Ok(())
    }

    /// The words of the finished module.
    fn finish(mut self, header: &[u32]) -> Vec<u32> {
        // Each kind of new instruction goes to the end of its section.
        let last = |insts: &[Vec<u32>], op: u32| insts.iter().rposition(|i| opcode(i) == op);
        let mut capabilities: Vec<Vec<u32>> = Vec::new();
        for c in std::mem::take(&mut self.capabilities) {
            let has = self
                .insts
                .iter()
                .chain(&capabilities)
                .any(|i| opcode(i) == OP_CAPABILITY && i.get(1) == Some(&c));
            if !has {
                capabilities.push(vec![first_word(OP_CAPABILITY, 2), c]);
            }
        }
        let extensions: Vec<Vec<u32>> = self
            .extensions
            .iter()
            .map(|e| {
                let s = string_words(e);
                let mut inst = vec![first_word(OP_EXTENSION, 1 + s.len())];
                inst.extend(s);
                inst
            })
            .collect();
        let at = last(&self.insts, OP_CAPABILITY).map_or(0, |i| i + 1);
        self.insts
            .splice(at..at, capabilities.into_iter().chain(extensions));
        if let Some(entry) = self.insts.iter_mut().find(|i| opcode(i) == OP_ENTRY_POINT) {
            entry.extend(&self.interface);
            entry[0] = first_word(OP_ENTRY_POINT, entry.len());
        }
        let types = self
            .insts
            .iter()
            .position(|i| TYPES.contains(&opcode(i)))
            .unwrap_or(self.insts.len());
        let decorations = std::mem::take(&mut self.decorations);
        self.insts.splice(types..types, decorations);
        let functions = self
            .insts
            .iter()
            .position(|i| opcode(i) == OP_FUNCTION)
            .unwrap_or(self.insts.len());
        let declarations = std::mem::take(&mut self.declarations);
        self.insts.splice(functions..functions, declarations);
        let mut out = header.to_vec();
        out[3] = self.bound;
        out.extend(self.insts.into_iter().flatten());
        out
    }
}

/// Gives the functions of a module that reads built-ins naga lacks their SPIR-V bodies in
/// naga's SPIR-V `words` (see the module documentation).
pub(crate) fn finish(words: Vec<u32>) -> Result<Vec<u32>, String> {
    let bad = || "naga's SPIR-V is not well formed".to_string();
    let insts = instructions(&words).ok_or_else(bad)?;
    let mut p = Patch {
        insts: insts.into_iter().map(<[u32]>::to_vec).collect(),
        bound: *words.get(3).ok_or_else(bad)?,
        version: *words.get(1).ok_or_else(bad)?,
        capabilities: Vec::new(),
        extensions: Vec::new(),
        decorations: Vec::new(),
        declarations: Vec::new(),
        interface: Vec::new(),
    };
    if p.insts.iter().any(|i| {
        opcode(i) == OP_NAME
            && i.len() > 2
            && string_of(&i[2..]).starts_with("tgsi_builtin_frag_coord")
    }) {
        return Err(
            "the module reads gl_FragCoord as GLSL redeclares it (Options::glsl_builtins): \
                    only GLSL can be written"
                .into(),
        );
    }
    if p.named("tgsi_glsl_builtins").is_some() {
        let mut body = Vec::new();
        if let Some(layer) = p.named("tgsi_builtin_layer") {
            let uint = p.uint();
            p.capabilities.push(CAPABILITY_GEOMETRY);
            let input = p.input(uint, BUILT_IN_LAYER, &[DECORATION_FLAT]);
            let value = p.id();
            body.push(vec![first_word(OP_LOAD, 4), uint, value, input]);
            body.push(vec![first_word(OP_STORE, 3), layer, value]);
        }
        if let Some(helper) = p.named("tgsi_builtin_helper") {
            let uint = p.uint();
            let bool_ty = p.ty(OP_TYPE_BOOL, &[]);
            // SPIR-V 1.6 needs a helper invocation's variable volatile.
            let volatile: &[u32] = if p.version >= 0x0001_0600 {
                &[DECORATION_VOLATILE]
            } else {
                &[]
            };
            let input = p.input(bool_ty, BUILT_IN_HELPER_INVOCATION, volatile);
            let (ones, zero) = (p.constant(uint, u32::MAX), p.constant(uint, 0));
            let (is, value) = (p.id(), p.id());
            body.push(vec![first_word(OP_LOAD, 4), bool_ty, is, input]);
            body.push(vec![first_word(OP_SELECT, 6), uint, value, is, ones, zero]);
            body.push(vec![first_word(OP_STORE, 3), helper, value]);
        }
        p.set_body("tgsi_glsl_builtins", body)?;
    }
    if p.named("tgsi_glsl_clock").is_some() {
        let clock = p
            .named("tgsi_builtin_clock")
            .ok_or_else(|| "naga's SPIR-V has no tgsi_builtin_clock".to_string())?;
        let uint = p.uint();
        let pair = p.ty(OP_TYPE_VECTOR, &[uint, 2]);
        let scope = p.constant(uint, SCOPE_SUBGROUP);
        p.capabilities.push(CAPABILITY_SHADER_CLOCK);
        p.extensions.push("SPV_KHR_shader_clock");
        let value = p.id();
        let body = vec![
            vec![first_word(OP_READ_CLOCK_KHR, 4), pair, value, scope],
            vec![first_word(OP_STORE, 3), clock, value],
        ];
        p.set_body("tgsi_glsl_clock", body)?;
    }
    add_biases(&mut p)?;
    Ok(p.finish(&words[..HEADER]))
}

/// Give the depth comparison of each `tgsi_biased_compare_k()` its `Bias` operand.
fn add_biases(p: &mut Patch) -> Result<(), String> {
    let functions: Vec<u32> = p
        .insts
        .iter()
        .filter(|i| {
            opcode(i) == OP_NAME
                && i.len() > 2
                && string_of(&i[2..]).starts_with("tgsi_biased_compare_")
        })
        .map(|i| i[1])
        .collect();
    if functions.is_empty() {
        return Ok(());
    }
    let bias_var = p
        .named("tgsi_compare_bias")
        .ok_or_else(|| "naga's SPIR-V has no tgsi_compare_bias".to_string())?;
    let float = p.ty(OP_TYPE_FLOAT, &[32]);
    for f in functions {
        let start = p
            .insts
            .iter()
            .position(|i| opcode(i) == OP_FUNCTION && i.get(2) == Some(&f))
            .ok_or_else(|| "naga's SPIR-V does not define a biased comparison".to_string())?;
        let sample = start
            + p.insts[start..]
                .iter()
                .take_while(|i| opcode(i) != OP_FUNCTION_END)
                .position(|i| opcode(i) == OP_IMAGE_SAMPLE_DREF_IMPLICIT_LOD)
                .ok_or_else(|| "a biased comparison has no depth sample".to_string())?;
        let bias = p.id();
        let inst = &mut p.insts[sample];
        // Result type, result, sampled image, coordinate, reference, then any operands.
        match inst.len() {
            6 => inst.extend([IMAGE_OPERANDS_BIAS, bias]),
            n if n > 6 && inst[6] & IMAGE_OPERANDS_BIAS == 0 => {
                // Bias is the lowest operand bit: its id comes first.
                inst[6] |= IMAGE_OPERANDS_BIAS;
                inst.insert(7, bias);
            }
            _ => return Err("a biased comparison's sample is not as expected".into()),
        }
        inst[0] = first_word(OP_IMAGE_SAMPLE_DREF_IMPLICIT_LOD, inst.len());
        p.insts
            .insert(sample, vec![first_word(OP_LOAD, 4), float, bias, bias_var]);
    }
    Ok(())
}
