//! The fragment entry point wrapper. The translated entry point becomes an ordinary function,
//! called by a new entry point that
//!
//! * turns Vulkan's `FragCoord` into TGSI's POSITION: with the framebuffer's rows in memory
//!   order, x and y lose the ½ under `FS_COORD_PIXEL_CENTER INTEGER`, and y becomes
//!   H − y under `FS_COORD_ORIGIN LOWER_LEFT` (so DDY of it is −1 per row down, as in the
//!   interpreter, and 2×2 quads start at even memory rows);
//! * returns only the collected colour output, at its location (or (0, 0, 0, 0) when the
//!   shader has none), so other outputs (depth, sample mask) change nothing, as in the
//!   interpreter.

use naga::{
    Binding, Block, BuiltIn, Expression, Function, FunctionResult, Handle, Literal, Module, Range,
    Scalar, Span, Statement, StructMember, Type, TypeInner, VectorSize,
};
use tgsi::{CoordOrigin, PixelCenter};

use crate::error::{Error, Result};

/// What the wrapper needs to know about the frame.
pub(crate) struct Frame {
    pub height: u32,
    pub origin: CoordOrigin,
    pub center: PixelCenter,
    /// Location of the collected output in the shader's result, if it has one.
    pub output: Option<u32>,
    /// Location the wrapper writes it to.
    pub location: u32,
}

/// A function under construction: its arena and body.
struct Builder {
    function: Function,
    body: Block,
}

impl Builder {
    /// Appends `e`, emitting it unless naga evaluates it at entry.
    fn expr(&mut self, e: Expression) -> Handle<Expression> {
        let emit = !e.needs_pre_emit() && !matches!(e, Expression::CallResult(_));
        let h = self.function.expressions.append(e, Span::UNDEFINED);
        if emit {
            self.body.push(
                Statement::Emit(Range::new_from_bounds(h, h)),
                Span::UNDEFINED,
            );
        }
        h
    }

    fn f32(&mut self, v: f32) -> Handle<Expression> {
        self.expr(Expression::Literal(Literal::F32(v)))
    }
}

/// Replaces the module's entry point by the wrapper described in the module documentation.
pub(crate) fn wrap(module: &mut Module, frame: &Frame) -> Result<()> {
    let Some(ep) = module.entry_points.first_mut() else {
        return Err(Error::Setup("the translation has no entry point".into()));
    };
    let mut inner = std::mem::take(&mut ep.function);
    let arguments = inner.arguments.clone();
    for a in &mut inner.arguments {
        a.binding = None;
    }
    inner.name = Some("tgsi_fragment".into());
    let has_result = inner.result.is_some();
    let member = match (inner.result.as_ref(), frame.output) {
        (Some(r), Some(location)) => match &module.types[r.ty].inner {
            TypeInner::Struct { members, .. } => members
                .iter()
                .position(|m| matches!(m.binding, Some(Binding::Location { location: l, .. }) if l == location)),
            _ => None,
        },
        _ => None,
    };
    let callee = module.functions.append(inner, Span::UNDEFINED);
    let vec4 = module.types.insert(
        Type {
            name: None,
            inner: TypeInner::Vector {
                size: VectorSize::Quad,
                scalar: Scalar::F32,
            },
        },
        Span::UNDEFINED,
    );
    let result = module.types.insert(
        Type {
            name: Some("Colour".into()),
            inner: TypeInner::Struct {
                members: vec![StructMember {
                    name: Some("colour".into()),
                    ty: vec4,
                    binding: Some(Binding::Location {
                        location: frame.location,
                        interpolation: None,
                        sampling: None,
                        blend_src: None,
                        per_primitive: false,
                    }),
                    offset: 0,
                }],
                span: 16,
            },
        },
        Span::UNDEFINED,
    );
    let mut b = Builder {
        function: Function {
            name: Some(tgsi_naga::ENTRY_POINT.into()),
            arguments,
            result: Some(FunctionResult {
                ty: result,
                binding: None,
            }),
            ..Function::default()
        },
        body: Block::new(),
    };
    let mut values = Vec::new();
    for i in 0..b.function.arguments.len() {
        let arg = b.expr(Expression::FunctionArgument(i as u32));
        let position = matches!(
            b.function.arguments[i].binding,
            Some(Binding::BuiltIn(BuiltIn::Position { .. }))
        );
        values.push(if position {
            position_of(&mut b, arg, vec4, frame)
        } else {
            arg
        });
    }
    let call = has_result.then(|| b.expr(Expression::CallResult(callee)));
    b.body.push(
        Statement::Call {
            function: callee,
            arguments: values,
            result: call,
        },
        Span::UNDEFINED,
    );
    let colour = match (call, member) {
        (Some(base), Some(k)) => b.expr(Expression::AccessIndex {
            base,
            index: k as u32,
        }),
        _ => b.expr(Expression::ZeroValue(vec4)),
    };
    let value = b.expr(Expression::Compose {
        ty: result,
        components: vec![colour],
    });
    b.body
        .push(Statement::Return { value: Some(value) }, Span::UNDEFINED);
    b.function.body = b.body;
    if let Some(ep) = module.entry_points.first_mut() {
        ep.function = b.function;
    }
    Ok(())
}

/// TGSI's POSITION from `FragCoord` (see the module documentation).
fn position_of(
    b: &mut Builder,
    coord: Handle<Expression>,
    vec4: Handle<Type>,
    frame: &Frame,
) -> Handle<Expression> {
    let half = if frame.center == PixelCenter::Integer {
        0.5
    } else {
        0.0
    };
    let offset = b.f32(half);
    let height = b.f32(frame.height as f32);
    let [x, y, z, w] =
        [0, 1, 2, 3].map(|index| b.expr(Expression::AccessIndex { base: coord, index }));
    let sub = |b: &mut Builder, left, right| {
        b.expr(Expression::Binary {
            op: naga::BinaryOperator::Subtract,
            left,
            right,
        })
    };
    let x = sub(b, x, offset);
    let y = match frame.origin {
        CoordOrigin::UpperLeft => y,
        CoordOrigin::LowerLeft => sub(b, height, y),
    };
    let y = sub(b, y, offset);
    b.expr(Expression::Compose {
        ty: vec4,
        components: vec![x, y, z, w],
    })
}
