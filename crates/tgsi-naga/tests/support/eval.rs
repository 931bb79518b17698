//! A reference evaluator for the subset of naga IR the translator emits, used by the tests
//! to run translated shaders on the CPU and compare them with softpipe's results. Values
//! follow IEEE arithmetic as the Rust standard library computes it; anything outside the
//! subset is reported as unsupported rather than guessed.

use std::collections::HashMap;

use naga::{
    BinaryOperator as B, Expression, Function, Handle, Literal, MathFunction as M, Module,
    ScalarKind, Statement, TypeInner, UnaryOperator as U,
};

/// A runtime value.
#[derive(Clone, Debug, PartialEq)]
pub enum V {
    Bool(bool),
    U32(u32),
    I32(i32),
    F32(f32),
    U64(u64),
    I64(i64),
    F64(f64),
    /// Vector, array or struct.
    Agg(Vec<V>),
    /// A pointer: root variable and path of indices.
    Ptr(Root, Vec<usize>),
}

/// Where a pointer starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Root {
    Local(Handle<naga::LocalVariable>),
    Global(Handle<naga::GlobalVariable>),
}

/// How a block ended.
enum Flow {
    Normal,
    Break,
    Continue,
    Return(Option<V>),
    Kill,
}

/// What a shader invocation did.
pub enum Outcome {
    Returned(Option<V>),
    Killed,
}

pub type Res<T> = Result<T, String>;

/// Module-level state: the values of global variables.
pub struct Evaluator<'m> {
    pub module: &'m Module,
    pub globals: HashMap<Handle<naga::GlobalVariable>, V>,
}

struct Frame<'f> {
    function: &'f Function,
    args: Vec<V>,
    values: HashMap<Handle<Expression>, V>,
    locals: HashMap<Handle<naga::LocalVariable>, V>,
}

/// The zero value of a type.
pub fn zero(module: &Module, ty: Handle<naga::Type>) -> Res<V> {
    zero_inner(module, &module.types[ty].inner)
}

fn zero_inner(module: &Module, inner: &TypeInner) -> Res<V> {
    Ok(match *inner {
        TypeInner::Scalar(s) | TypeInner::Atomic(s) => scalar_zero(s)?,
        TypeInner::Vector { size, scalar } => Agg(vec![scalar_zero(scalar)?; size as usize]),
        TypeInner::Array {
            base,
            size: naga::ArraySize::Constant(n),
            ..
        } => Agg(vec![zero(module, base)?; n.get() as usize]),
        TypeInner::Struct { ref members, .. } => Agg(members
            .iter()
            .map(|m| zero(module, m.ty))
            .collect::<Res<_>>()?),
        ref other => return Err(format!("no zero value for {other:?}")),
    })
}

use V::Agg;

fn scalar_zero(s: naga::Scalar) -> Res<V> {
    Ok(match (s.kind, s.width) {
        (ScalarKind::Bool, _) => V::Bool(false),
        (ScalarKind::Uint, 4) => V::U32(0),
        (ScalarKind::Sint, 4) => V::I32(0),
        (ScalarKind::Float, 4) => V::F32(0.0),
        (ScalarKind::Uint, 8) => V::U64(0),
        (ScalarKind::Sint, 8) => V::I64(0),
        (ScalarKind::Float, 8) => V::F64(0.0),
        _ => return Err(format!("unsupported scalar {s:?}")),
    })
}

fn path_get<'v>(mut v: &'v V, path: &[usize]) -> Res<&'v V> {
    for &i in path {
        v = match v {
            Agg(items) => items.get(i).ok_or("index out of range")?,
            _ => return Err("indexing a scalar".into()),
        };
    }
    Ok(v)
}

fn path_get_mut<'v>(mut v: &'v mut V, path: &[usize]) -> Res<&'v mut V> {
    for &i in path {
        v = match v {
            Agg(items) => items.get_mut(i).ok_or("index out of range")?,
            _ => return Err("indexing a scalar".into()),
        };
    }
    Ok(v)
}

fn as_index(v: &V) -> Res<usize> {
    match *v {
        V::U32(u) => Ok(u as usize),
        V::I32(i) if i >= 0 => Ok(i as usize),
        ref other => Err(format!("bad index {other:?}")),
    }
}

impl<'m> Evaluator<'m> {
    /// Runs an entry point's function with the given arguments.
    pub fn run(&mut self, function: &Function, args: Vec<V>) -> Res<Outcome> {
        let mut frame = Frame {
            function,
            args,
            values: HashMap::new(),
            locals: HashMap::new(),
        };
        for (h, local) in function.local_variables.iter() {
            let value = match local.init {
                Some(init) => self.expr(&mut frame, init)?,
                None => zero(self.module, local.ty)?,
            };
            frame.locals.insert(h, value);
        }
        Ok(match self.block(&mut frame, &function.body)? {
            Flow::Return(v) => Outcome::Returned(v),
            Flow::Kill => Outcome::Killed,
            Flow::Normal => Outcome::Returned(None),
            Flow::Break | Flow::Continue => return Err("break outside a loop".into()),
        })
    }

    fn block(&mut self, f: &mut Frame, block: &naga::Block) -> Res<Flow> {
        for stmt in block.iter() {
            let flow = self.statement(f, stmt)?;
            if !matches!(flow, Flow::Normal) {
                return Ok(flow);
            }
        }
        Ok(Flow::Normal)
    }

    fn statement(&mut self, f: &mut Frame, stmt: &Statement) -> Res<Flow> {
        match *stmt {
            Statement::Emit(ref range) => {
                for h in range.clone() {
                    let v = self.expr(f, h)?;
                    f.values.insert(h, v);
                }
            }
            Statement::Block(ref b) => return self.block(f, b),
            Statement::If {
                condition,
                ref accept,
                ref reject,
            } => {
                let c = self.value(f, condition)?;
                return self.block(f, if c == V::Bool(true) { accept } else { reject });
            }
            Statement::Switch {
                selector,
                ref cases,
            } => {
                let s = self.value(f, selector)?;
                let matches = |v: &naga::SwitchValue| match (*v, &s) {
                    (naga::SwitchValue::U32(a), V::U32(b)) => a == *b,
                    (naga::SwitchValue::I32(a), V::I32(b)) => a == *b,
                    _ => false,
                };
                let start = cases.iter().position(|c| matches(&c.value)).or_else(|| {
                    cases
                        .iter()
                        .position(|c| c.value == naga::SwitchValue::Default)
                });
                if let Some(start) = start {
                    for case in &cases[start..] {
                        match self.block(f, &case.body)? {
                            Flow::Normal if case.fall_through => continue,
                            Flow::Normal | Flow::Break => break,
                            other => return Ok(other),
                        }
                    }
                }
            }
            Statement::Loop {
                ref body,
                ref continuing,
                break_if,
            } => loop {
                match self.block(f, body)? {
                    Flow::Break => break,
                    Flow::Normal | Flow::Continue => {}
                    other => return Ok(other),
                }
                self.block(f, continuing)?;
                if let Some(b) = break_if {
                    if self.value(f, b)? == V::Bool(true) {
                        break;
                    }
                }
            },
            Statement::Break => return Ok(Flow::Break),
            Statement::Continue => return Ok(Flow::Continue),
            Statement::Return { value } => {
                let v = match value {
                    Some(h) => Some(self.value(f, h)?),
                    None => None,
                };
                return Ok(Flow::Return(v));
            }
            Statement::Kill => return Ok(Flow::Kill),
            Statement::Store { pointer, value } => {
                let p = self.value(f, pointer)?;
                let v = self.value(f, value)?;
                self.write(f, &p, v)?;
            }
            Statement::Call {
                function,
                ref arguments,
                result,
            } => {
                let args = arguments
                    .iter()
                    .map(|&a| self.value(f, a))
                    .collect::<Res<Vec<_>>>()?;
                let callee = &self.module.functions[function];
                let r = match self.run(callee, args)? {
                    Outcome::Returned(v) => v,
                    Outcome::Killed => return Ok(Flow::Kill),
                };
                if let (Some(h), Some(v)) = (result, r) {
                    f.values.insert(h, v);
                }
            }
            ref other => return Err(format!("unsupported statement {other:?}")),
        }
        Ok(Flow::Normal)
    }

    fn write(&mut self, f: &mut Frame, p: &V, v: V) -> Res<()> {
        let V::Ptr(root, path) = p else {
            return Err("store through a non-pointer".into());
        };
        let slot = match *root {
            Root::Local(l) => f.locals.get_mut(&l).ok_or("unknown local")?,
            Root::Global(g) => self.globals.get_mut(&g).ok_or("unknown global")?,
        };
        *path_get_mut(slot, path)? = v;
        Ok(())
    }

    /// The value of an already emitted (or pre-emitted) expression.
    fn value(&mut self, f: &mut Frame, h: Handle<Expression>) -> Res<V> {
        if let Some(v) = f.values.get(&h) {
            return Ok(v.clone());
        }
        if f.function.expressions[h].needs_pre_emit() {
            return self.expr(f, h);
        }
        Err(format!("expression {h:?} used before it was emitted"))
    }

    fn expr(&mut self, f: &mut Frame, h: Handle<Expression>) -> Res<V> {
        let e = &f.function.expressions[h];
        Ok(match *e {
            Expression::Literal(l) => match l {
                Literal::U32(v) => V::U32(v),
                Literal::I32(v) => V::I32(v),
                Literal::F32(v) => V::F32(v),
                Literal::F64(v) => V::F64(v),
                Literal::U64(v) => V::U64(v),
                Literal::I64(v) => V::I64(v),
                Literal::Bool(v) => V::Bool(v),
                other => return Err(format!("unsupported literal {other:?}")),
            },
            Expression::ZeroValue(ty) => zero(self.module, ty)?,
            Expression::Compose { ref components, .. } => Agg(components
                .iter()
                .map(|&c| self.value(f, c))
                .collect::<Res<_>>()?),
            Expression::FunctionArgument(i) => f.args.get(i as usize).cloned().ok_or("argument")?,
            Expression::LocalVariable(l) => V::Ptr(Root::Local(l), Vec::new()),
            Expression::GlobalVariable(g) => V::Ptr(Root::Global(g), Vec::new()),
            Expression::Access { base, index } => {
                let i = self.value(f, index)?;
                let i = as_index(&i)?;
                self.element(f, base, i)?
            }
            Expression::AccessIndex { base, index } => self.element(f, base, index as usize)?,
            Expression::Load { pointer } => {
                let V::Ptr(root, path) = self.value(f, pointer)? else {
                    return Err("load through a non-pointer".into());
                };
                let slot = match root {
                    Root::Local(l) => f.locals.get(&l).ok_or("unknown local")?,
                    Root::Global(g) => self.globals.get(&g).ok_or("unknown global")?,
                };
                path_get(slot, &path)?.clone()
            }
            Expression::Unary { op, expr } => {
                let x = self.value(f, expr)?;
                map1(&x, &|x| unary(op, x))?
            }
            Expression::Binary { op, left, right } => {
                let a = self.value(f, left)?;
                let b = self.value(f, right)?;
                map2(&a, &b, &|a, b| binary(op, a, b))?
            }
            Expression::Select {
                condition,
                accept,
                reject,
            } => {
                let c = self.value(f, condition)?;
                let a = self.value(f, accept)?;
                let r = self.value(f, reject)?;
                match c {
                    V::Bool(true) => a,
                    V::Bool(false) => r,
                    other => return Err(format!("vector select {other:?}")),
                }
            }
            Expression::Math {
                fun,
                arg,
                arg1,
                arg2,
                ..
            } => {
                let a = self.value(f, arg)?;
                let b = arg1.map(|x| self.value(f, x)).transpose()?;
                let c = arg2.map(|x| self.value(f, x)).transpose()?;
                math(fun, a, b, c)?
            }
            Expression::As {
                expr,
                kind,
                convert,
            } => {
                let x = self.value(f, expr)?;
                map1(&x, &|x| cast(x, kind, convert))?
            }
            ref other => return Err(format!("unsupported expression {other:?}")),
        })
    }

    /// Element `i` of a value, or a pointer to it.
    fn element(&mut self, f: &mut Frame, base: Handle<Expression>, i: usize) -> Res<V> {
        match self.value(f, base)? {
            V::Ptr(root, mut path) => {
                path.push(i);
                Ok(V::Ptr(root, path))
            }
            Agg(items) => items
                .get(i)
                .cloned()
                .ok_or_else(|| "index out of range".into()),
            other => Err(format!("indexing {other:?}")),
        }
    }
}

fn map1(x: &V, op: &dyn Fn(&V) -> Res<V>) -> Res<V> {
    match x {
        Agg(items) => Ok(Agg(items
            .iter()
            .map(|i| map1(i, op))
            .collect::<Res<_>>()?)),
        _ => op(x),
    }
}

fn map2(a: &V, b: &V, op: &dyn Fn(&V, &V) -> Res<V>) -> Res<V> {
    match (a, b) {
        (Agg(x), Agg(y)) => Ok(Agg(x
            .iter()
            .zip(y)
            .map(|(x, y)| map2(x, y, op))
            .collect::<Res<_>>()?)),
        _ => op(a, b),
    }
}

fn unary(op: U, x: &V) -> Res<V> {
    Ok(match (op, x) {
        (U::Negate, V::F32(v)) => V::F32(-v),
        (U::Negate, V::F64(v)) => V::F64(-v),
        (U::Negate, V::I32(v)) => V::I32(v.wrapping_neg()),
        (U::Negate, V::I64(v)) => V::I64(v.wrapping_neg()),
        (U::LogicalNot, V::Bool(v)) => V::Bool(!v),
        (U::BitwiseNot, V::U32(v)) => V::U32(!v),
        (U::BitwiseNot, V::I32(v)) => V::I32(!v),
        _ => return Err(format!("unsupported {op:?} {x:?}")),
    })
}

fn int_binary<T>(op: B, a: T, b: T) -> Option<T>
where
    T: Copy
        + PartialOrd
        + std::ops::BitAnd<Output = T>
        + std::ops::BitOr<Output = T>
        + std::ops::BitXor<Output = T>,
{
    match op {
        B::And => Some(a & b),
        B::InclusiveOr => Some(a | b),
        B::ExclusiveOr => Some(a ^ b),
        _ => None,
    }
}

fn compare<T: PartialOrd>(op: B, a: T, b: T) -> Option<V> {
    Some(V::Bool(match op {
        B::Equal => a == b,
        B::NotEqual => a != b,
        B::Less => a < b,
        B::LessEqual => a <= b,
        B::Greater => a > b,
        B::GreaterEqual => a >= b,
        _ => return None,
    }))
}

fn binary(op: B, a: &V, b: &V) -> Res<V> {
    let unsupported = || format!("unsupported {op:?} on {a:?}, {b:?}");
    if let Some(v) = match (a, b) {
        (V::F32(x), V::F32(y)) => compare(op, x, y),
        (V::F64(x), V::F64(y)) => compare(op, x, y),
        (V::U32(x), V::U32(y)) => compare(op, x, y),
        (V::I32(x), V::I32(y)) => compare(op, x, y),
        (V::U64(x), V::U64(y)) => compare(op, x, y),
        (V::I64(x), V::I64(y)) => compare(op, x, y),
        (V::Bool(x), V::Bool(y)) if matches!(op, B::Equal | B::NotEqual) => compare(op, x, y),
        _ => None,
    } {
        return Ok(v);
    }
    Ok(match (a, b) {
        (&V::Bool(x), &V::Bool(y)) => match op {
            B::LogicalAnd => V::Bool(x && y),
            B::LogicalOr => V::Bool(x || y),
            _ => return Err(unsupported()),
        },
        (&V::F32(x), &V::F32(y)) => V::F32(match op {
            B::Add => x + y,
            B::Subtract => x - y,
            B::Multiply => x * y,
            B::Divide => x / y,
            _ => return Err(unsupported()),
        }),
        (&V::F64(x), &V::F64(y)) => V::F64(match op {
            B::Add => x + y,
            B::Subtract => x - y,
            B::Multiply => x * y,
            B::Divide => x / y,
            _ => return Err(unsupported()),
        }),
        (&V::U32(x), &V::U32(y)) => V::U32(match op {
            B::Add => x.wrapping_add(y),
            B::Subtract => x.wrapping_sub(y),
            B::Multiply => x.wrapping_mul(y),
            B::Divide => x.checked_div(y).ok_or("division by zero")?,
            B::Modulo => x.checked_rem(y).ok_or("division by zero")?,
            B::ShiftLeft if y < 32 => x << y,
            B::ShiftRight if y < 32 => x >> y,
            _ => int_binary(op, x, y).ok_or_else(unsupported)?,
        }),
        (&V::I32(x), &V::I32(y)) => V::I32(match op {
            B::Add => x.wrapping_add(y),
            B::Subtract => x.wrapping_sub(y),
            B::Multiply => x.wrapping_mul(y),
            B::Divide => x.checked_div(y).ok_or("division overflow")?,
            B::Modulo => x.checked_rem(y).ok_or("division overflow")?,
            _ => int_binary(op, x, y).ok_or_else(unsupported)?,
        }),
        (&V::I32(x), &V::U32(y)) if y < 32 => match op {
            B::ShiftLeft => V::I32(x << y),
            B::ShiftRight => V::I32(x >> y),
            _ => return Err(unsupported()),
        },
        (&V::U64(x), &V::U64(y)) => V::U64(match op {
            B::Add => x.wrapping_add(y),
            B::Subtract => x.wrapping_sub(y),
            B::Multiply => x.wrapping_mul(y),
            B::Divide => x.checked_div(y).ok_or("division by zero")?,
            B::Modulo => x.checked_rem(y).ok_or("division by zero")?,
            _ => int_binary(op, x, y).ok_or_else(unsupported)?,
        }),
        (&V::I64(x), &V::I64(y)) => V::I64(match op {
            B::Add => x.wrapping_add(y),
            B::Subtract => x.wrapping_sub(y),
            B::Multiply => x.wrapping_mul(y),
            B::Divide => x.checked_div(y).ok_or("division overflow")?,
            B::Modulo => x.checked_rem(y).ok_or("division overflow")?,
            _ => int_binary(op, x, y).ok_or_else(unsupported)?,
        }),
        (&V::U64(x), &V::U32(y)) if y < 64 => match op {
            B::ShiftLeft => V::U64(x << y),
            B::ShiftRight => V::U64(x >> y),
            _ => return Err(unsupported()),
        },
        (&V::I64(x), &V::U32(y)) if y < 64 => match op {
            B::ShiftLeft => V::I64(x << y),
            B::ShiftRight => V::I64(x >> y),
            _ => return Err(unsupported()),
        },
        _ => return Err(unsupported()),
    })
}

fn math(fun: M, a: V, b: Option<V>, c: Option<V>) -> Res<V> {
    let unsupported = || format!("unsupported {fun:?} on {a:?}");
    Ok(match (fun, &a, &b, &c) {
        (M::Abs, V::F32(x), _, _) => V::F32(x.abs()),
        (M::Abs, V::F64(x), _, _) => V::F64(x.abs()),
        (M::Abs, V::I32(x), _, _) => V::I32(x.wrapping_abs()),
        (M::Min, V::I32(x), Some(V::I32(y)), _) => V::I32(*x.min(y)),
        (M::Max, V::I32(x), Some(V::I32(y)), _) => V::I32(*x.max(y)),
        (M::Min, V::U32(x), Some(V::U32(y)), _) => V::U32(*x.min(y)),
        (M::Max, V::U32(x), Some(V::U32(y)), _) => V::U32(*x.max(y)),
        (M::Min, V::I64(x), Some(V::I64(y)), _) => V::I64(*x.min(y)),
        (M::Max, V::I64(x), Some(V::I64(y)), _) => V::I64(*x.max(y)),
        (M::Min, V::U64(x), Some(V::U64(y)), _) => V::U64(*x.min(y)),
        (M::Max, V::U64(x), Some(V::U64(y)), _) => V::U64(*x.max(y)),
        // Only called with non-NaN operands by the translator's MIN/MAX.
        (M::Min, V::F32(x), Some(V::F32(y)), _) => V::F32(x.min(*y)),
        (M::Max, V::F32(x), Some(V::F32(y)), _) => V::F32(x.max(*y)),
        (M::Floor, V::F32(x), _, _) => V::F32(x.floor()),
        (M::Ceil, V::F32(x), _, _) => V::F32(x.ceil()),
        (M::Trunc, V::F32(x), _, _) => V::F32(x.trunc()),
        (M::Round, V::F32(x), _, _) => V::F32(x.round_ties_even()),
        (M::Floor, V::F64(x), _, _) => V::F64(x.floor()),
        (M::Ceil, V::F64(x), _, _) => V::F64(x.ceil()),
        (M::Trunc, V::F64(x), _, _) => V::F64(x.trunc()),
        (M::Round, V::F64(x), _, _) => V::F64(x.round_ties_even()),
        (M::Sqrt, V::F32(x), _, _) => V::F32(x.sqrt()),
        (M::Sqrt, V::F64(x), _, _) => V::F64(x.sqrt()),
        (M::Exp2, V::F32(x), _, _) => V::F32(x.exp2()),
        (M::Log, V::F32(x), _, _) => V::F32(x.ln()),
        (M::Pow, V::F32(x), Some(V::F32(y)), _) => V::F32(x.powf(*y)),
        (M::Sin, V::F32(x), _, _) => V::F32(x.sin()),
        (M::Cos, V::F32(x), _, _) => V::F32(x.cos()),
        (M::Fma, V::F32(x), Some(V::F32(y)), Some(V::F32(z))) => V::F32(x.mul_add(*y, *z)),
        (M::Fma, V::F64(x), Some(V::F64(y)), Some(V::F64(z))) => V::F64(x.mul_add(*y, *z)),
        (M::Ldexp, V::F32(x), Some(V::I32(n)), _) => V::F32(ldexp64(f64::from(*x), *n) as f32),
        (M::Ldexp, V::F64(x), Some(V::I32(n)), _) => V::F64(ldexp64(*x, *n)),
        (M::CountOneBits, V::U32(x), _, _) => V::U32(x.count_ones()),
        (M::ReverseBits, V::U32(x), _, _) => V::U32(x.reverse_bits()),
        (M::FirstTrailingBit, V::I32(x), _, _) => V::I32(if *x == 0 {
            -1
        } else {
            x.trailing_zeros() as i32
        }),
        (M::FirstLeadingBit, V::U32(x), _, _) => V::U32(if *x == 0 {
            u32::MAX
        } else {
            31 - x.leading_zeros()
        }),
        (M::FirstLeadingBit, V::I32(x), _, _) => {
            let v = if *x < 0 { !*x } else { *x } as u32;
            V::I32(if v == 0 {
                -1
            } else {
                31 - v.leading_zeros() as i32
            })
        }
        _ => return Err(unsupported()),
    })
}

/// `x · 2^n`, exact (through two steps so intermediate powers stay finite).
fn ldexp64(x: f64, n: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let n = n.clamp(-2200, 2200);
    let half = n / 2;
    x * 2f64.powi(half) * 2f64.powi(n - half)
}

fn cast(x: &V, kind: ScalarKind, convert: Option<u8>) -> Res<V> {
    let bad = || format!("unsupported cast of {x:?} to {kind:?} {convert:?}");
    Ok(match (convert, kind, x) {
        (None, ScalarKind::Uint, V::F32(v)) => V::U32(v.to_bits()),
        (None, ScalarKind::Uint, V::I32(v)) => V::U32(*v as u32),
        (None, ScalarKind::Uint, V::U32(v)) => V::U32(*v),
        (None, ScalarKind::Sint, V::U32(v)) => V::I32(*v as i32),
        (None, ScalarKind::Float, V::U32(v)) => V::F32(f32::from_bits(*v)),
        (None, ScalarKind::Float, V::U64(v)) => V::F64(f64::from_bits(*v)),
        (None, ScalarKind::Uint, V::F64(v)) => V::U64(v.to_bits()),
        (None, ScalarKind::Uint, V::I64(v)) => V::U64(*v as u64),
        (None, ScalarKind::Sint, V::U64(v)) => V::I64(*v as i64),
        (Some(4), ScalarKind::Sint, V::F32(v)) => V::I32(*v as i32),
        (Some(4), ScalarKind::Uint, V::F32(v)) => V::U32(*v as u32),
        (Some(4), ScalarKind::Float, V::I32(v)) => V::F32(*v as f32),
        (Some(4), ScalarKind::Float, V::U32(v)) => V::F32(*v as f32),
        (Some(4), ScalarKind::Float, V::F64(v)) => V::F32(*v as f32),
        (Some(4), ScalarKind::Sint, V::F64(v)) => V::I32(*v as i32),
        (Some(4), ScalarKind::Uint, V::F64(v)) => V::U32(*v as u32),
        (Some(4), ScalarKind::Uint, V::U64(v)) => V::U32(*v as u32),
        (Some(4), ScalarKind::Sint, V::I64(v)) => V::I32(*v as i32),
        (Some(4), ScalarKind::Float, V::I64(v)) => V::F32(*v as f32),
        (Some(4), ScalarKind::Float, V::U64(v)) => V::F32(*v as f32),
        (Some(8), ScalarKind::Float, V::F32(v)) => V::F64(f64::from(*v)),
        (Some(8), ScalarKind::Float, V::I32(v)) => V::F64(f64::from(*v)),
        (Some(8), ScalarKind::Float, V::U32(v)) => V::F64(f64::from(*v)),
        (Some(8), ScalarKind::Float, V::I64(v)) => V::F64(*v as f64),
        (Some(8), ScalarKind::Float, V::U64(v)) => V::F64(*v as f64),
        (Some(8), ScalarKind::Uint, V::U32(v)) => V::U64(u64::from(*v)),
        (Some(8), ScalarKind::Sint, V::I32(v)) => V::I64(i64::from(*v)),
        (Some(8), ScalarKind::Sint, V::F64(v)) => V::I64(*v as i64),
        (Some(4), ScalarKind::Uint, V::I64(v)) => V::U32(*v as u32),
        _ => return Err(bad()),
    })
}
