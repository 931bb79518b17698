//! What the GLSL stages naga lacks — geometry
//! ([`crate::geometry_glsl`](fn@crate::geometry_glsl)) and tessellation control and
//! evaluation ([`crate::tessellation_glsl`]) — share. The shader is translated as a
//! compute entry point of one invocation whose stage-specific parts are private variables
//! and calls of empty functions; naga's GLSL back end writes that module, and the writer
//! then replaces the compute layout with the stage's declarations and gives the functions
//! their GLSL bodies (reading `gl_in`, the input varyings and the stage's built-ins, writing
//! the output varyings and built-ins).
//!
//! Inputs: every stage reads `IN[v][i]` from a private copy of its input vertices, laid out
//! as the compute translations' input buffers are (`{ header, inputs }`, `IN[v][i]` at
//! `1 + v · I + i`, slot 0 zero; [`crate::per_vertex`]), which a prologue fills.
//! Varyings keep their locations ([`Options::varying_location`]) and the names naga's GLSL gives
//! them where the stage has a naga counterpart: a vertex shader's outputs are
//! `_vs2fs_location{L}`, so that is what a geometry or control shader reads (as arrays) and
//! what an evaluation shader writes.

use std::fmt::Write as _;

use naga::{Expression, Function, GlobalVariable, Handle, Scalar, StructMember, TypeInner};
use tgsi::enums::{File, Semantic};
use tgsi::ir::{Register, Span};
use tgsi::Shader;

use crate::error::{Error, Result};
use crate::per_vertex::{PerVertexInputs, VertexCount};
use crate::targets::{validate, write, Output, Target, WriteOptions};
use crate::translate::{Options, Translator};

/// The private variables the GLSL bodies read and write.
pub(crate) const INPUTS: &str = "tgsi_inputs";
pub(crate) const OUTPUTS: &str = "tgsi_outputs";
/// The function called first, which fills the inputs.
pub(crate) const PROLOGUE: &str = "tgsi_prologue";

/// What a GLSL stage does before it returns: copy its output registers to a private
/// array (the array and the registers, in its order), then call `function`.
#[derive(Clone)]
pub(crate) struct StageEnd {
    pub function: Handle<Function>,
    pub outputs: Option<(Handle<GlobalVariable>, Vec<u32>)>,
}

/// A declared register (the first declaration of a register counts, as in the other
/// translations).
pub(crate) struct Declared {
    pub index: u32,
    pub semantic: Option<Semantic>,
    pub semantic_index: u32,
    /// Per vertex (`IN[][i]`, a control shader's `OUT[][i]`) rather than per patch.
    pub per_vertex: bool,
    pub span: Span,
}

impl Declared {
    /// An error about this declaration.
    pub fn refuse(&self, file: &str, what: impl Into<String>) -> Error {
        Error::new(self.span, format!("DCL {file}[{}]", self.index), what)
    }
}

/// The declared registers of `file`, in declaration order.
pub(crate) fn declared(shader: &Shader, file: File) -> Vec<Declared> {
    let mut seen = std::collections::HashSet::new();
    shader
        .declarations
        .iter()
        .filter(|d| d.file == file)
        .flat_map(|d| (d.first..=d.last).map(move |i| (i, d)))
        .filter(|&(i, _)| seen.insert(i))
        .map(|(index, d)| Declared {
            index,
            semantic: d.semantic.map(|s| s.name),
            semantic_index: d.semantic.map_or(0, |s| s.index),
            per_vertex: {
                use tgsi::Processor::{Geometry, TessCtrl, TessEval};
                let per_patch = d.semantic.is_some_and(|s| s.name.is_per_patch());
                match (shader.processor, file) {
                    (Geometry, File::Input) => true,
                    (TessCtrl | TessEval, File::Input) | (TessCtrl, File::Output) => !per_patch,
                    _ => false,
                }
            },
            span: d.span,
        })
        .collect()
}

/// Validates a stage's translation and writes it with naga's back end for `target` (GLSL
/// or HLSL: the stages naga lacks are written around that text).
pub(crate) fn naga_text(
    module: &naga::Module,
    stage: &str,
    target: Target,
    write_options: &WriteOptions,
) -> Result<String> {
    let defect = |e: crate::WriteError| Error::new(Span::default(), stage, e.to_string());
    let info = validate(module).map_err(defect)?;
    match write(module, &info, target, write_options).map_err(defect)? {
        Output::Text(text) => Ok(text),
        Output::Words(_) => Err(Error::new(Span::default(), stage, "not text")),
    }
}

/// A failure to find what naga's back end for `language` (GLSL, HLSL) is known to write
/// (a translator defect).
pub(crate) fn defect(language: &str, what: &str) -> Error {
    Error::new(
        Span::default(),
        language,
        format!("naga's {language} is not as expected: {what}"),
    )
}

/// The name naga's GLSL gives a function named `name` (it separates final digits from the
/// suffixes it adds for uniqueness).
pub(crate) fn written_name(name: &str) -> String {
    if name.ends_with(|c: char| c.is_ascii_digit()) {
        format!("{name}_")
    } else {
        name.to_string()
    }
}

/// Where naga's back ends put a function's opening brace.
#[derive(Clone, Copy)]
pub(crate) enum Braces {
    /// On the line of the signature (GLSL).
    Glsl,
    /// On a line of its own (HLSL).
    Hlsl,
}

/// Gives the parameterless function `name` of naga's GLSL the body `body` (then `return;`).
pub(crate) fn replace_body(glsl: &str, name: &str, body: &str) -> Result<String> {
    replace_function_body(glsl, Braces::Glsl, name, body)
}

/// Gives the parameterless function `name` of naga's GLSL or HLSL (`braces`) the body
/// `body` (then `return;`).
pub(crate) fn replace_function_body(
    text: &str,
    braces: Braces,
    name: &str,
    body: &str,
) -> Result<String> {
    let (head, language) = match braces {
        Braces::Glsl => (format!("void {}() {{\n", written_name(name)), "GLSL"),
        Braces::Hlsl => (format!("void {}()\n{{\n", written_name(name)), "HLSL"),
    };
    let missing = || {
        Error::new(
            Span::default(),
            language,
            format!("naga's {language} is not as expected: {name}"),
        )
    };
    let start = text.find(&head).ok_or_else(missing)? + head.len();
    let end = text[start..]
        .find("\n}\n")
        .map(|e| start + e + 1)
        .ok_or_else(missing)?;
    Ok(format!(
        "{}{body}    return;\n{}",
        &text[..start],
        &text[end..]
    ))
}

/// Replaces every call statement of the parameterless function `name` with `statements`
/// (for what GLSL allows only in `main`, such as a control shader's `barrier()`).
pub(crate) fn replace_calls(glsl: &str, name: &str, statements: &str) -> String {
    let call = format!("{}();\n", written_name(name));
    let mut out = String::with_capacity(glsl.len());
    for line in glsl.split_inclusive('\n') {
        match line.strip_suffix(&call) {
            Some(indent) if indent.chars().all(|c| c == ' ') => {
                for s in statements.lines() {
                    let _ = writeln!(out, "{indent}{s}");
                }
            }
            _ => out.push_str(line),
        }
    }
    out
}

/// Replaces naga's compute layout with a stage's `declarations`.
pub(crate) fn stage_layout(glsl: &str, declarations: &str) -> Result<String> {
    let compute_layout = glsl
        .lines()
        .find(|l| l.starts_with("layout(local_size_x"))
        .ok_or_else(|| defect("GLSL", "no compute layout"))?;
    Ok(glsl
        .replacen(compute_layout, declarations.trim_end(), 1)
        .replacen("#extension GL_ARB_compute_shader : require\n", "", 1))
}

/// The GLSL of an input for a vertex given as GLSL text.
pub(crate) type InputGlsl = Box<dyn Fn(&str) -> String>;

/// The `uvec4` GLSL of a per-vertex input of `semantic[index]`, vertex `v` (GLSL text),
/// declaring the varying array it reads (`{prefix}{L}[]`) in `declarations`; `None` where
/// GLSL has no such per-vertex input.
pub(crate) fn per_vertex_input(
    options: &Options,
    semantic: Semantic,
    index: u32,
    prefix: &str,
    declarations: &mut String,
) -> Option<InputGlsl> {
    match semantic {
        Semantic::Position => Some(Box::new(|v| {
            format!("floatBitsToUint(gl_in[{v}].gl_Position)")
        })),
        Semantic::PSize => Some(Box::new(|v| {
            format!("uvec4(floatBitsToUint(gl_in[{v}].gl_PointSize), 0u, 0u, 0u)")
        })),
        _ => {
            let location = options.varying_location(semantic, index)?;
            let name = format!("{prefix}{location}");
            let _ = writeln!(
                declarations,
                "layout(location = {location}) in vec4 {name}[];"
            );
            Some(Box::new(move |v| format!("floatBitsToUint({name}[{v}])")))
        }
    }
}

/// Where a stage writes an output register's words.
pub(crate) struct OutputTarget<'a> {
    /// Where the varyings are ([`Options::varying_location`]).
    pub options: &'a Options,
    /// The built-in block the stage writes (`gl_Position` or `gl_out[gl_InvocationID]`
    /// with a `.` after it).
    pub builtins: &'a str,
    /// The name of the output varying at a location.
    pub varying: &'a dyn Fn(u32) -> String,
    /// A `[gl_InvocationID]` (per-vertex outputs of a control shader), or nothing.
    pub element: &'a str,
    /// The private distances a `CLIPVERTEX` output was turned into, if any.
    pub clip_distances: Option<&'a str>,
}

/// GLSL statements writing the `uvec4` words `words` of the output register `d` where its
/// semantic goes, declaring its varying in `declarations` (`out vec4 name{array};`);
/// returns them, and the location of its varying if it has one.
pub(crate) fn output_statements(
    d: &Declared,
    words: &str,
    to: &OutputTarget<'_>,
    stage: &str,
    declarations: &mut String,
) -> Result<(String, Option<u32>)> {
    let Some(semantic) = d.semantic else {
        return Err(d.refuse("OUT", "an output needs a semantic"));
    };
    let b = to.builtins;
    let line = match semantic {
        Semantic::Position => format!("{b}gl_Position = uintBitsToFloat({words});"),
        Semantic::PSize => format!("{b}gl_PointSize = uintBitsToFloat({words}.x);"),
        Semantic::Layer if to.element.is_empty() => format!("gl_Layer = int({words}.x);"),
        Semantic::ViewportIndex if to.element.is_empty() => {
            format!("gl_ViewportIndex = int({words}.x);")
        }
        Semantic::PrimId if to.element.is_empty() => format!("gl_PrimitiveID = int({words}.x);"),
        Semantic::ClipVertex => match to.clip_distances {
            Some(distances) => (0..8)
                .map(|i| format!("{b}gl_ClipDistance[{i}] = {distances}[{i}];"))
                .collect::<Vec<_>>()
                .join("\n"),
            None => return Err(d.refuse("OUT", format!("CLIPVERTEX has no {stage} output"))),
        },
        _ => {
            let Some(location) = to.options.varying_location(semantic, d.semantic_index) else {
                return Err(d.refuse("OUT", format!("{semantic} has no {stage} output")));
            };
            let name = (to.varying)(location);
            let array = if to.element.is_empty() { "" } else { "[]" };
            let _ = writeln!(
                declarations,
                "layout(location = {location}) out vec4 {name}{array};"
            );
            let mut line = format!("{name}{} = uintBitsToFloat({words});", to.element);
            if semantic == Semantic::ClipDist {
                // Fragment shaders read the varying; clipping uses the built-in.
                for c in 0..4 {
                    let i = 4 * d.semantic_index + c;
                    let _ = write!(
                        line,
                        "\n{b}gl_ClipDistance[{i}] = uintBitsToFloat({words}[{c}]);"
                    );
                }
            }
            return Ok((line, Some(location)));
        }
    };
    Ok((line, None))
}

impl Translator<'_> {
    /// An empty function named `name`, whose GLSL body the writer gives.
    pub(crate) fn empty_function(&mut self, name: &str) -> Handle<Function> {
        let mut function = Function {
            name: Some(name.to_string()),
            ..Function::default()
        };
        function.body.push(
            naga::Statement::Return { value: None },
            naga::Span::UNDEFINED,
        );
        self.module
            .functions
            .append(function, naga::Span::UNDEFINED)
    }

    /// Calls a function without arguments.
    pub(crate) fn call_empty(&mut self, function: Handle<Function>) {
        self.body.stmt(naga::Statement::Call {
            function,
            arguments: Vec::new(),
            result: None,
        });
    }

    /// Declares the private input file of up to `vertices` vertices of `stride` registers
    /// (refused past Gallium's inputs, to keep it and its GLSL small) and makes `IN[v][i]`
    /// read it: `count` vertices, `primitive_ids` as [`PerVertexInputs`] has them.
    pub(crate) fn private_inputs(
        &mut self,
        vertices: u32,
        count: VertexCount,
        stride: u32,
        primitive_ids: Option<(Handle<GlobalVariable>, Vec<u32>)>,
    ) -> Result<()> {
        let most = tgsi::Limits::default().max_shader_inputs;
        if stride > most {
            return Err(Error::new(
                Span::default(),
                self.shader.processor.name(),
                format!("declares IN registers past Gallium's {most} inputs"),
            ));
        }
        let u32_ty = self.ty(TypeInner::Scalar(Scalar::U32));
        let vec4 = self.vec4(Scalar::U32);
        let slots = 1 + vertices * stride;
        let input_array = self.array_of(vec4, slots);
        let member = |name: &str, ty, offset| StructMember {
            name: Some(name.to_string()),
            ty,
            binding: None,
            offset,
        };
        let inputs_ty = self.module.types.insert(
            naga::Type {
                name: Some("TgsiInputs".to_string()),
                inner: TypeInner::Struct {
                    members: vec![member("header", vec4, 0), member("inputs", input_array, 16)],
                    span: 16 * (slots + 1),
                },
            },
            naga::Span::UNDEFINED,
        );
        let buffer = self.private(INPUTS, inputs_ty);
        let first = self.private("tgsi_first_input", u32_ty);
        let b = &mut self.body;
        let one = b.u32(1);
        let pointer = b.expr(Expression::GlobalVariable(first));
        b.store(pointer, one);
        self.per_vertex_inputs = Some(std::rc::Rc::new(PerVertexInputs {
            buffer,
            first,
            vertices: count,
            stride,
            primitive_ids,
        }));
        Ok(())
    }

    /// A private `array<vec4<u32>, n>` (at least one element) for outputs on their way out.
    pub(crate) fn private_outputs(&mut self, n: usize) -> Handle<GlobalVariable> {
        let vec4 = self.vec4(Scalar::U32);
        let ty = self.array_of(vec4, (n as u32).max(1));
        self.private(OUTPUTS, ty)
    }

    /// Copies `OUT[registers[k]]` to element `k` of `outputs`.
    pub(crate) fn copy_outputs(
        &mut self,
        outputs: Handle<GlobalVariable>,
        registers: &[u32],
    ) -> Result<()> {
        for (k, &r) in registers.iter().enumerate() {
            let pointer = self.register_pointer(&Register::new(File::Output, r as i32))?;
            let b = &mut self.body;
            let words = b.load(pointer);
            let array = b.expr(Expression::GlobalVariable(outputs));
            let slot = b.index(array, k as u32);
            b.store(slot, words);
        }
        Ok(())
    }
}
