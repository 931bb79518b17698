//! What naga has no built-in for, read through GLSL's when the translation is for GLSL
//! ([`crate::Options::glsl_builtins`]): a fragment shader's `LAYER` input (`gl_Layer`, in
//! all four channels) and `HELPER_INVOCATION` system value (`gl_HelperInvocation`, all
//! ones or zero in all four channels, as the interpreter gives it), CLOCK
//! (`clock2x32ARB()` of `GL_ARB_shader_clock`: the low word in x, the high word in y), and
//! depth comparisons with a LOD bias (`texture(samplerShadow, coord, bias)`: naga compares
//! only at the implicit level or level 0): each such sample is a function
//! `tgsi_biased_compare_k()` that compares at the implicit level, and the writer adds the
//! bias, `tgsi_compare_bias`, to its `texture()`. A fragment shader's POSITION reads
//! `gl_FragCoord` redeclared with the shader's `FS_COORD_ORIGIN` and
//! `FS_COORD_PIXEL_CENTER` where they differ from GL's defaults (`origin_upper_left` —
//! TGSI's default —, `pixel_center_integer`; GLSL ES has neither).
//! The translation keeps each in a private variable that an empty function fills —
//! `tgsi_glsl_builtins()`, called once at entry, and `tgsi_glsl_clock()` at each CLOCK —
//! and [`crate::write`] gives those functions their GLSL bodies. The same module, but for
//! the fragment coordinate, serves SPIR-V ([`crate::Options::spirv_builtins`]), whose
//! bodies `spv_builtins` writes. Only GLSL and SPIR-V can be written from such a module;
//! the other back ends refuse it.

use naga::{Expression, Function, GlobalVariable, Handle, Module, Scalar, TypeInner, VectorSize};
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

/// The private `vec4<f32>` a fragment POSITION reads from a redeclared `gl_FragCoord`; its
/// name goes on with the layout qualifiers it needs.
const FRAG_COORD: &str = "tgsi_builtin_frag_coord";
const UPPER_LEFT: &str = "_upper_left";
const INTEGER_CENTER: &str = "_integer_center";

/// The functions of biased depth comparisons (a number follows), and what they read.
const BIASED_COMPARE: &str = "tgsi_biased_compare_";
const COMPARE_BIAS: &str = "tgsi_compare_bias";

/// The function named `name`, if the module has one.
fn function(module: &Module, name: &str) -> Option<Handle<Function>> {
    module
        .functions
        .iter()
        .find(|(_, f)| f.name.as_deref() == Some(name))
        .map(|(h, _)| h)
}

/// The global variable named `name`, if the module has one.
fn global(module: &Module, name: &str) -> Option<Handle<GlobalVariable>> {
    module
        .global_variables
        .iter()
        .find(|(_, v)| v.name.as_deref() == Some(name))
        .map(|(h, _)| h)
}

/// Whether `module` reads built-ins naga lacks (and so can only be written as GLSL or,
/// without a redeclared fragment coordinate, SPIR-V).
pub(crate) fn reads_glsl_builtins(module: &Module) -> bool {
    function(module, BUILTINS).is_some()
        || function(module, CLOCK).is_some()
        || biased_compares(module).next().is_some()
}

/// The names of the module's biased-comparison functions.
fn biased_compares(module: &Module) -> impl Iterator<Item = &str> {
    module
        .functions
        .iter()
        .filter_map(|(_, f)| f.name.as_deref())
        .filter(|n| n.starts_with(BIASED_COMPARE))
}

/// Adds `, tgsi_compare_bias` to the `texture(` call of naga's GLSL function `name`.
fn add_bias(glsl: &str, name: &str) -> std::result::Result<String, String> {
    let head = format!("{}() {{\n", crate::glsl_stage::written_name(name));
    let missing = || format!("naga's GLSL is not as expected: {name}");
    let body = glsl.find(&head).ok_or_else(missing)? + head.len();
    let call = body + glsl[body..].find("texture(").ok_or_else(missing)? + "texture(".len();
    // The call's closing parenthesis.
    let mut depth = 1;
    let close = glsl[call..]
        .char_indices()
        .find(|&(_, c)| {
            depth += match c {
                '(' => 1,
                ')' => -1,
                _ => 0,
            };
            depth == 0
        })
        .map(|(i, _)| call + i)
        .ok_or_else(missing)?;
    Ok(format!(
        "{}, {COMPARE_BIAS}{}",
        &glsl[..close],
        &glsl[close..]
    ))
}

/// Gives the functions of a module that reads GLSL built-ins their GLSL bodies.
pub(crate) fn finish_glsl(module: &Module, glsl: String) -> std::result::Result<String, String> {
    let mut text = glsl;
    if function(module, BUILTINS).is_some() {
        let mut body = String::new();
        for (name, value) in FILLED {
            if global(module, name).is_some() {
                body.push_str(&format!("    {name} = {value};\n"));
            }
        }
        let frag_coord = module
            .global_variables
            .iter()
            .filter_map(|(_, v)| v.name.as_deref())
            .find(|n| n.starts_with(FRAG_COORD));
        if let Some(name) = frag_coord {
            let qualifiers: Vec<&str> = [
                (UPPER_LEFT, "origin_upper_left"),
                (INTEGER_CENTER, "pixel_center_integer"),
            ]
            .into_iter()
            .filter(|(suffix, _)| name.contains(suffix))
            .map(|(_, q)| q)
            .collect();
            if text.lines().next().is_some_and(|l| l.ends_with(" es")) {
                return Err(format!(
                    "GLSL ES has no {} for FS_COORD_ORIGIN/FS_COORD_PIXEL_CENTER",
                    qualifiers.join(" or ")
                ));
            }
            let version_end = text.find('\n').map_or(text.len(), |i| i + 1);
            text.insert_str(
                version_end,
                &format!("layout({}) in vec4 gl_FragCoord;\n", qualifiers.join(", ")),
            );
            body.push_str(&format!("    {name} = gl_FragCoord;\n"));
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
    for name in biased_compares(module) {
        text = add_bias(&text, name)?;
    }
    Ok(text)
}

impl Translator<'_> {
    /// The private variable `name` (made with type `inner` the first time: the writer fills
    /// and reads it by name, so there is one).
    fn private_once(&mut self, name: &str, inner: TypeInner) -> Handle<GlobalVariable> {
        match global(&self.module, name) {
            Some(var) => var,
            None => {
                let ty = self.ty(inner);
                self.private(name, ty)
            }
        }
    }

    /// Loads the private variable `var` that `tgsi_glsl_builtins()` fills, calling that
    /// function (at entry) the first time.
    fn load_filled(&mut self, var: Handle<GlobalVariable>) -> Handle<Expression> {
        if function(&self.module, BUILTINS).is_none() {
            let fill = self.empty_function(BUILTINS);
            self.call_empty(fill);
        }
        let pointer = self.body.expr(Expression::GlobalVariable(var));
        self.body.load(pointer)
    }
    /// The `u32` a fragment shader's `LAYER` input or `HELPER_INVOCATION` system value reads
    /// through GLSL (`None` for other semantics): a private variable that
    /// `tgsi_glsl_builtins()`, called here the first time, fills.
    pub(crate) fn glsl_builtin_input(&mut self, semantic: Semantic) -> Option<Handle<Expression>> {
        let name = match semantic {
            Semantic::Layer => FILLED[0].0,
            Semantic::HelperInvocation => FILLED[1].0,
            _ => return None,
        };
        let var = self.private_once(name, TypeInner::Scalar(Scalar::U32));
        Some(self.load_filled(var))
    }

    /// The `vec4<f32>` a fragment shader's POSITION reads through a redeclared
    /// `gl_FragCoord`, where its `FS_COORD_ORIGIN` is UPPER_LEFT (TGSI's default, not GL's)
    /// or its `FS_COORD_PIXEL_CENTER` INTEGER; `None` where GL's `gl_FragCoord` is it, and
    /// for other targets than GLSL (SPIR-V's own fragment coordinate is TGSI's origin).
    pub(crate) fn glsl_frag_coord(&mut self) -> Option<Handle<Expression>> {
        use tgsi::enums::{CoordOrigin, PixelCenter, PropertyName};
        if !self.options.glsl_builtins {
            return None;
        }
        let property = |name| self.shader.property(name).unwrap_or(0);
        let upper_left = CoordOrigin::from_number(property(PropertyName::FsCoordOrigin))
            != Some(CoordOrigin::LowerLeft);
        let integer = PixelCenter::from_number(property(PropertyName::FsCoordPixelCenter))
            == Some(PixelCenter::Integer);
        if !upper_left && !integer {
            return None;
        }
        let name = format!(
            "{FRAG_COORD}{}{}",
            if upper_left { UPPER_LEFT } else { "" },
            if integer { INTEGER_CENTER } else { "" }
        );
        let var = self.private_once(
            &name,
            TypeInner::Vector {
                size: VectorSize::Quad,
                scalar: Scalar::F32,
            },
        );
        Some(self.load_filled(var))
    }

    /// A depth comparison of `reference` at the implicit level plus `bias` through GLSL: the
    /// operands go to private variables, a new function `tgsi_biased_compare_k()` samples
    /// them at the implicit level (the writer adds the bias) and leaves the result in
    /// another, which this returns.
    pub(crate) fn glsl_biased_compare(
        &mut self,
        image: Handle<naga::GlobalVariable>,
        sampler: Handle<naga::GlobalVariable>,
        coordinate: Handle<Expression>,
        array_index: Option<Handle<Expression>>,
        reference: Handle<Expression>,
        bias: Handle<Expression>,
    ) -> Result<Handle<Expression>> {
        let k = biased_compares(&self.module).count();
        let f32_ty = self.ty(TypeInner::Scalar(Scalar::F32));
        let coordinate_ty = self.type_of(coordinate)?;
        let coordinate_ty = self.ty(coordinate_ty);
        let index_ty = match array_index {
            Some(i) => {
                let inner = self.type_of(i)?;
                Some(self.ty(inner))
            }
            None => None,
        };
        let bias_var = self.private_once(COMPARE_BIAS, TypeInner::Scalar(Scalar::F32));
        let coordinate_var = self.private(&format!("tgsi_compare_coordinate_{k}"), coordinate_ty);
        let index_var = index_ty.map(|ty| self.private(&format!("tgsi_compare_layer_{k}"), ty));
        let reference_var = self.private(&format!("tgsi_compare_reference_{k}"), f32_ty);
        let result_var = self.private(&format!("tgsi_compare_result_{k}"), f32_ty);
        let stores = [
            (Some(coordinate_var), Some(coordinate)),
            (index_var, array_index),
            (Some(reference_var), Some(reference)),
            (Some(bias_var), Some(bias)),
        ];
        for (var, value) in stores {
            if let (Some(var), Some(value)) = (var, value) {
                let pointer = self.body.expr(Expression::GlobalVariable(var));
                self.body.store(pointer, value);
            }
        }
        // The sample in a function of its own, where the writer finds it.
        let function = Function {
            name: Some(format!("{BIASED_COMPARE}{k}")),
            ..Function::default()
        };
        let mut b = crate::body::Body::new(function);
        let load = |b: &mut crate::body::Body, var| {
            let pointer = b.expr(Expression::GlobalVariable(var));
            b.load(pointer)
        };
        let coordinate = load(&mut b, coordinate_var);
        let array_index = index_var.map(|v| load(&mut b, v));
        let depth_ref = Some(load(&mut b, reference_var));
        let image = b.expr(Expression::GlobalVariable(image));
        let sampler = b.expr(Expression::GlobalVariable(sampler));
        let sample = b.expr(Expression::ImageSample {
            image,
            sampler,
            gather: None,
            coordinate,
            array_index,
            offset: None,
            level: naga::SampleLevel::Auto,
            depth_ref,
            clamp_to_edge: false,
        });
        let result = b.expr(Expression::GlobalVariable(result_var));
        b.store(result, sample);
        b.stmt(naga::Statement::Return { value: None });
        let function = self
            .module
            .functions
            .append(b.finish(), naga::Span::UNDEFINED);
        self.call_empty(function);
        let pointer = self.body.expr(Expression::GlobalVariable(result_var));
        Ok(self.body.load(pointer))
    }

    /// CLOCK through `clock2x32ARB()`: x the low word, y the high word.
    pub(crate) fn glsl_clock(&mut self, inst: &Instruction) -> Result<()> {
        let var = self.private_once(
            CLOCK_VALUE,
            TypeInner::Vector {
                size: VectorSize::Bi,
                scalar: Scalar::U32,
            },
        );
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
