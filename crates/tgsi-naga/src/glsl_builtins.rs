//! What naga has no built-in for, read through GLSL's when the translation is for GLSL
//! ([`crate::Options::glsl_builtins`]): a fragment shader's `LAYER` input (`gl_Layer`, in
//! all four channels) and `HELPER_INVOCATION` system value (`gl_HelperInvocation`, all
//! ones or zero in all four channels, as the interpreter gives it), and CLOCK
//! (`clock2x32ARB()` of `GL_ARB_shader_clock`: the low word in x, the high word in y).
//! The translation keeps each in a private variable that an empty function fills —
//! `tgsi_glsl_builtins()`, called once at entry, and `tgsi_glsl_clock()` at each CLOCK —
//! and [`crate::write`] gives those functions their GLSL bodies. Only GLSL can be written
//! from such a module; the other back ends refuse it.

use naga::{Expression, Function, Handle, Module, Scalar, TypeInner, VectorSize};
use tgsi::enums::Semantic;
use tgsi::ir::Instruction;

use crate::error::Result;
use crate::glsl_stage::replace_body;
use crate::translate::Translator;

/// The functions whose GLSL bodies [`finish_glsl`] gives.
const BUILTINS: &str = "tgsi_glsl_builtins";
const CLOCK: &str = "tgsi_glsl_clock";

/// The private variables they fill, and the GLSL that fills each.
const FILLED: [(&str, &str); 2] = [
    ("tgsi_builtin_layer", "uint(gl_Layer)"),
    (
        "tgsi_builtin_helper",
        "gl_HelperInvocation ? 0xffffffffu : 0u",
    ),
];
const CLOCK_VALUE: &str = "tgsi_builtin_clock";

/// The function named `name`, if the module has one.
fn function(module: &Module, name: &str) -> Option<Handle<Function>> {
    module
        .functions
        .iter()
        .find(|(_, f)| f.name.as_deref() == Some(name))
        .map(|(h, _)| h)
}

/// Whether `module` reads GLSL built-ins (and so can only be written as GLSL).
pub(crate) fn reads_glsl_builtins(module: &Module) -> bool {
    function(module, BUILTINS).is_some() || function(module, CLOCK).is_some()
}

/// Gives the functions of a module that reads GLSL built-ins their GLSL bodies.
pub(crate) fn finish_glsl(module: &Module, glsl: String) -> std::result::Result<String, String> {
    let mut text = glsl;
    if function(module, BUILTINS).is_some() {
        let mut body = String::new();
        for (name, value) in FILLED {
            if module
                .global_variables
                .iter()
                .any(|(_, v)| v.name.as_deref() == Some(name))
            {
                body.push_str(&format!("    {name} = {value};\n"));
            }
        }
        text = replace_body(&text, BUILTINS, &body).map_err(|e| e.to_string())?;
    }
    if function(module, CLOCK).is_some() {
        text = replace_body(
            &text,
            CLOCK,
            &format!("    {CLOCK_VALUE} = clock2x32ARB();\n"),
        )
        .map_err(|e| e.to_string())?;
        let version_end = text.find('\n').map_or(text.len(), |i| i + 1);
        text.insert_str(version_end, "#extension GL_ARB_shader_clock : require\n");
    }
    Ok(text)
}

impl Translator<'_> {
    /// The `u32` a fragment shader's `LAYER` input or `HELPER_INVOCATION` system value reads
    /// through GLSL (`None` for other semantics): a private variable that
    /// `tgsi_glsl_builtins()`, called here the first time, fills.
    pub(crate) fn glsl_builtin_input(&mut self, semantic: Semantic) -> Option<Handle<Expression>> {
        let name = match semantic {
            Semantic::Layer => FILLED[0].0,
            Semantic::HelperInvocation => FILLED[1].0,
            _ => return None,
        };
        let u32_ty = self.ty(TypeInner::Scalar(Scalar::U32));
        let var = self.private(name, u32_ty);
        if function(&self.module, BUILTINS).is_none() {
            let fill = self.empty_function(BUILTINS);
            self.call_empty(fill);
        }
        let pointer = self.body.expr(Expression::GlobalVariable(var));
        Some(self.body.load(pointer))
    }

    /// CLOCK through `clock2x32ARB()`: x the low word, y the high word.
    pub(crate) fn glsl_clock(&mut self, inst: &Instruction) -> Result<()> {
        let existing = self
            .module
            .global_variables
            .iter()
            .find(|(_, v)| v.name.as_deref() == Some(CLOCK_VALUE))
            .map(|(h, _)| h);
        let var = match existing {
            Some(h) => h,
            None => {
                let ty = self.ty(TypeInner::Vector {
                    size: VectorSize::Bi,
                    scalar: Scalar::U32,
                });
                self.private(CLOCK_VALUE, ty)
            }
        };
        let read = match function(&self.module, CLOCK) {
            Some(f) => f,
            None => self.empty_function(CLOCK),
        };
        self.call_empty(read);
        let pointer = self.body.expr(Expression::GlobalVariable(var));
        let value = self.body.load(pointer);
        let Some(dst) = inst.dst.first() else {
            return Ok(());
        };
        for c in 0..2 {
            if dst.write_mask.0 & (1 << c) != 0 {
                let word = self.body.index(value, c as u32);
                self.write(dst, c, word)?;
            }
        }
        Ok(())
    }
}
