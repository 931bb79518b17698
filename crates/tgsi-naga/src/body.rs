//! Building one naga function body: an expression arena whose non-constant expressions are
//! emitted where they are created (so they are evaluated in instruction order), and a stack
//! of statement blocks that structured control flow pushes and pops.

use naga::{
    BinaryOperator, Block, Expression, Function, Handle, Literal, MathFunction, Range, Scalar,
    ScalarKind, Span, Statement, UnaryOperator,
};

/// A function under construction.
pub(crate) struct Body {
    /// The function; its `body` is filled when the outermost block is closed.
    pub function: Function,
    /// Open blocks; the last is where statements go.
    blocks: Vec<Block>,
}

impl Body {
    /// An empty body with one open block.
    pub fn new(function: Function) -> Body {
        Body {
            function,
            blocks: vec![Block::new()],
        }
    }

    /// The finished function with its outermost block as body.
    pub fn finish(mut self) -> Function {
        let mut blocks = self.blocks.drain(..);
        self.function.body = blocks.next().unwrap_or_default();
        self.function
    }

    /// Appends an expression, emitting it in the current block unless naga evaluates it at
    /// function entry (literals, variables, arguments).
    pub fn expr(&mut self, e: Expression) -> Handle<Expression> {
        // Results of statements (atomics, calls) are defined by their statement instead.
        let pre_emitted = e.needs_pre_emit()
            || matches!(
                e,
                Expression::AtomicResult { .. } | Expression::CallResult(_)
            );
        let h = self.function.expressions.append(e, Span::UNDEFINED);
        if !pre_emitted {
            self.emit(h);
        }
        h
    }

    /// Adds `h` to the current block's last `Emit` when it directly follows it.
    fn emit(&mut self, h: Handle<Expression>) {
        let block = self.current();
        if let Some(Statement::Emit(range)) = block.last_mut() {
            if let Some((first, last)) = range.first_and_last() {
                if last.index() + 1 == h.index() {
                    *range = Range::new_from_bounds(first, h);
                    return;
                }
            }
        }
        block.push(
            Statement::Emit(Range::new_from_bounds(h, h)),
            Span::UNDEFINED,
        );
    }

    fn current(&mut self) -> &mut Block {
        // There is always at least the outermost block.
        let last = self.blocks.len() - 1;
        &mut self.blocks[last]
    }

    /// Appends a statement to the current block.
    pub fn stmt(&mut self, s: Statement) {
        self.current().push(s, Span::UNDEFINED);
    }

    /// Opens a nested block.
    pub fn open(&mut self) {
        self.blocks.push(Block::new());
    }

    /// Closes the innermost nested block and returns it (the outermost stays open).
    pub fn close(&mut self) -> Block {
        if self.blocks.len() > 1 {
            self.blocks.pop().unwrap_or_default()
        } else {
            Block::new()
        }
    }

    /// Whether the current block ends in a statement that leaves it.
    pub fn terminated(&self) -> bool {
        self.blocks.last().is_some_and(ends_in_jump)
    }

    // ---- literals

    pub fn u32(&mut self, v: u32) -> Handle<Expression> {
        self.expr(Expression::Literal(Literal::U32(v)))
    }

    pub fn i32(&mut self, v: i32) -> Handle<Expression> {
        self.expr(Expression::Literal(Literal::I32(v)))
    }

    /// A float constant; values naga cannot write as literals (NaN, ±∞) and subnormals (which
    /// a compiler might flush) go through their bits.
    pub fn f32(&mut self, v: f32) -> Handle<Expression> {
        if v.is_normal() || v == 0.0 {
            self.expr(Expression::Literal(Literal::F32(v)))
        } else {
            let bits = self.u32(v.to_bits());
            self.bitcast(bits, ScalarKind::Float)
        }
    }

    pub fn f64(&mut self, v: f64) -> Handle<Expression> {
        self.expr(Expression::Literal(Literal::F64(v)))
    }

    pub fn u64(&mut self, v: u64) -> Handle<Expression> {
        self.expr(Expression::Literal(Literal::U64(v)))
    }

    pub fn i64(&mut self, v: i64) -> Handle<Expression> {
        self.expr(Expression::Literal(Literal::I64(v)))
    }

    /// A literal zero or one of a scalar type.
    pub fn constant(&mut self, scalar: Scalar, v: i8) -> Handle<Expression> {
        match (scalar.kind, scalar.width) {
            (ScalarKind::Float, 8) => self.f64(f64::from(v)),
            (ScalarKind::Float, _) => self.f32(f32::from(v)),
            (ScalarKind::Sint, 8) => self.i64(i64::from(v)),
            (ScalarKind::Sint, _) => self.i32(i32::from(v)),
            (ScalarKind::Uint, 8) => self.u64(v as u64),
            _ => self.u32(v as u32),
        }
    }

    // ---- operations

    /// Reinterprets the bits as another kind of the same width.
    pub fn bitcast(&mut self, expr: Handle<Expression>, kind: ScalarKind) -> Handle<Expression> {
        self.expr(Expression::As {
            expr,
            kind,
            convert: None,
        })
    }

    /// Converts the value to another scalar type.
    pub fn convert(&mut self, expr: Handle<Expression>, to: Scalar) -> Handle<Expression> {
        self.expr(Expression::As {
            expr,
            kind: to.kind,
            convert: Some(to.width),
        })
    }

    pub fn binary(
        &mut self,
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Handle<Expression> {
        self.expr(Expression::Binary { op, left, right })
    }

    pub fn unary(&mut self, op: UnaryOperator, expr: Handle<Expression>) -> Handle<Expression> {
        self.expr(Expression::Unary { op, expr })
    }

    /// `condition ? accept : reject`.
    pub fn select(
        &mut self,
        condition: Handle<Expression>,
        accept: Handle<Expression>,
        reject: Handle<Expression>,
    ) -> Handle<Expression> {
        self.expr(Expression::Select {
            condition,
            accept,
            reject,
        })
    }

    pub fn math(&mut self, fun: MathFunction, args: &[Handle<Expression>]) -> Handle<Expression> {
        self.expr(Expression::Math {
            fun,
            arg: args[0],
            arg1: args.get(1).copied(),
            arg2: args.get(2).copied(),
            arg3: args.get(3).copied(),
        })
    }

    pub fn load(&mut self, pointer: Handle<Expression>) -> Handle<Expression> {
        self.expr(Expression::Load { pointer })
    }

    pub fn store(&mut self, pointer: Handle<Expression>, value: Handle<Expression>) {
        self.stmt(Statement::Store { pointer, value });
    }

    pub fn index(&mut self, base: Handle<Expression>, index: u32) -> Handle<Expression> {
        self.expr(Expression::AccessIndex { base, index })
    }

    pub fn access(
        &mut self,
        base: Handle<Expression>,
        index: Handle<Expression>,
    ) -> Handle<Expression> {
        self.expr(Expression::Access { base, index })
    }

    /// `if condition { accept }` where `accept` is built by the closure.
    pub fn if_then<T>(
        &mut self,
        condition: Handle<Expression>,
        accept: impl FnOnce(&mut Body) -> T,
    ) -> T {
        self.open();
        let out = accept(self);
        let accept = self.close();
        self.stmt(Statement::If {
            condition,
            accept,
            reject: Block::new(),
        });
        out
    }
}

/// Whether a block's last statement leaves it (so nothing after it runs).
pub(crate) fn ends_in_jump(block: &Block) -> bool {
    matches!(
        block.last(),
        Some(Statement::Break | Statement::Continue | Statement::Return { .. } | Statement::Kill)
    )
}
