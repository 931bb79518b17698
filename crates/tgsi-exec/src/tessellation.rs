//! Tessellation shaders, one patch at a time: the control shader (TCS) turns a patch's
//! input vertices into its output vertices, per-patch outputs and tessellation levels; the
//! evaluation shader (TES) runs once per domain point the [`crate::tessellator`] makes.
//!
//! **Control.** One wave of up to 32 lanes runs the patch: lane `i` is invocation `i`
//! (`SV INVOCATIONID`), `TCS_VERTICES_OUT` lanes are active (a machine of four lanes
//! where they fit, unless the shader reads lanes by number, else of 32). The lanes share the output
//! file, laid out as one copy of the output registers per output vertex: `OUT[v][i]` is
//! register `i` of vertex `v`, a 1-D `OUT[i]` (the per-patch outputs, `PATCH`,
//! `TESSOUTER`, `TESSINNER`) is vertex 0's. A write by any lane is seen by every lane
//! (lanes in order: the last writer wins), and since the lanes run in lockstep, every
//! write before a `BARRIER` is visible after it — reading another invocation's output
//! works as GL requires. `IN[v][i]` is input `i` of patch vertex `v`.
//!
//! **Evaluation.** Waves of 16 domain points; every lane reads the same patch: `IN[v][i]`
//! the control shader's per-vertex outputs (or, without one, the vertex shader's), 1-D
//! `IN[i]` the per-patch ones. Inputs are linked by semantic name and index; an input
//! nothing matches reads 0.
//!
//! System values (x only unless said):
//!
//! | semantic      | stage    | value                                                  |
//! |---------------|----------|--------------------------------------------------------|
//! | `INVOCATIONID`| TCS      | the output vertex                                      |
//! | `VERTICESIN`  | TCS, TES | vertices of the input patch                            |
//! | `PRIM_ID`     | TCS, TES | the patch (counted per instance)                       |
//! | `TESSCOORD`   | TES      | `(u, v, w, 0)` as floats                               |
//! | `TESSOUTER`   | TES      | the four outer levels as the TCS wrote them (unclamped) |
//! | `TESSINNER`   | TES      | the two inner levels in x, y                           |
//!
//! Inputs declared with `TESSOUTER` or `TESSINNER` read the levels too. A control shader
//! that does not declare a `TESSOUTER` (or `TESSINNER`) output leaves those levels at the
//! default ones (as llvmpipe does); declared channels it never writes are 0.

use crate::compile::Program;
use crate::machine::{lane_of, Env, ExecError, Machine};
use crate::ops::Kind;
use crate::tessellator::{Domain, Spacing, TessMode, Tessellation};
use crate::vertex::{output_decls, push_lanes, OutputDecl};
use crate::vertices::Vertices;
use tgsi::{Processor, PropertyName, Semantic, Shader};

/// Largest patch (input vertices, and `TCS_VERTICES_OUT`).
pub const MAX_PATCH_VERTICES: u32 = 32;

/// Largest number of registers a patch may occupy in one file (vertices × registers per
/// vertex), which bounds the machine's memory.
pub const MAX_PATCH_REGISTERS: usize = 1 << 14;

/// Lanes of the control wave (one per output vertex).
const CONTROL_WAVE: usize = 32;

/// Lanes of an evaluation wave.
const EVAL_WAVE: usize = 16;

/// What a tessellation shader's properties say about its execution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TessInfo {
    /// A control shader and its `TCS_VERTICES_OUT`.
    Control {
        /// Output vertices (invocations) per patch.
        vertices_out: u32,
    },
    /// An evaluation shader and how the tessellator runs for it.
    Eval(TessMode),
}

impl TessInfo {
    /// The tessellation information of `shader` (`None` for other stages), or why it
    /// cannot run.
    pub(crate) fn of(shader: &Shader) -> Result<Option<TessInfo>, String> {
        let prop = |name| shader.property(name).unwrap_or(0);
        match shader.processor {
            Processor::TessCtrl => {
                let n = prop(PropertyName::TcsVerticesOut);
                if !(1..=MAX_PATCH_VERTICES).contains(&n) {
                    return Err(format!(
                        "TCS_VERTICES_OUT {n} is not 1 to {MAX_PATCH_VERTICES}"
                    ));
                }
                Ok(Some(TessInfo::Control { vertices_out: n }))
            }
            Processor::TessEval => {
                let domain = match prop(PropertyName::TesPrimMode) {
                    4 => Domain::Triangles,
                    7 => Domain::Quads,
                    1 => Domain::Isolines,
                    other => {
                        return Err(format!(
                            "TES_PRIM_MODE {other} is not TRIANGLES (4), QUADS (7) or LINES (1)"
                        ))
                    }
                };
                let spacing = match prop(PropertyName::TesSpacing) {
                    0 => Spacing::FractionalOdd,
                    1 => Spacing::FractionalEven,
                    2 => Spacing::Equal,
                    other => {
                        return Err(format!(
                            "TES_SPACING {other} is not FRACTIONAL_ODD (0), FRACTIONAL_EVEN (1) \
                             or EQUAL (2)"
                        ))
                    }
                };
                Ok(Some(TessInfo::Eval(TessMode {
                    domain,
                    spacing,
                    cw: prop(PropertyName::TesVertexOrderCw) != 0,
                    point_mode: prop(PropertyName::TesPointMode) != 0,
                })))
            }
            _ => Ok(None),
        }
    }
}

/// Raw tessellation levels (f32 bits): four outer, two inner.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Levels {
    /// `TESSOUTER`.
    pub outer: [u32; 4],
    /// `TESSINNER` (x, y).
    pub inner: [u32; 2],
}

impl Levels {
    /// Levels given as floats.
    pub fn from_floats(outer: [f32; 4], inner: [f32; 2]) -> Levels {
        Levels {
            outer: outer.map(f32::to_bits),
            inner: inner.map(f32::to_bits),
        }
    }

    /// Tessellate one patch with these levels.
    pub fn tessellate(&self, mode: &TessMode) -> Tessellation {
        crate::tessellator::tessellate(
            mode,
            self.outer.map(f32::from_bits),
            self.inner.map(f32::from_bits),
        )
    }
}

/// One patch as the next stage reads it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Patch {
    /// The semantic of each per-vertex slot.
    pub semantics: Vec<(Semantic, u32)>,
    /// `vertices[v][slot]`: the per-vertex values, a slot per semantic.
    pub vertices: Vertices,
    /// Per-patch outputs by semantic (`PATCH[k]`, `TESSOUTER`, `TESSINNER`).
    pub per_patch: Vec<((Semantic, u32), [u32; 4])>,
    /// The tessellation levels.
    pub levels: Levels,
}

impl Patch {
    /// The value of `semantic` for vertex `v` (0 when nothing matches).
    fn vertex_value(&self, v: usize, semantic: (Semantic, u32)) -> [u32; 4] {
        self.semantics
            .iter()
            .position(|&s| s == semantic)
            .and_then(|slot| self.vertices.get(v)?.get(slot).copied())
            .unwrap_or([0; 4])
    }

    /// The value of a per-patch input of `semantic` (0 when nothing matches).
    fn patch_value(&self, semantic: (Semantic, u32)) -> [u32; 4] {
        match semantic.0 {
            Semantic::TessOuter => self.levels.outer,
            Semantic::TessInner => [self.levels.inner[0], self.levels.inner[1], 0, 0],
            _ => self
                .per_patch
                .iter()
                .find(|(s, _)| *s == semantic)
                .map_or([0; 4], |(_, v)| *v),
        }
    }
}

impl<const N: usize> Machine<N> {
    /// Size the input file for `vertices` input vertices and, for a control shader, the
    /// shared output file for `outputs` vertices.
    fn patch_layout(
        &mut self,
        program: &Program,
        vertices: usize,
        outputs: Option<usize>,
    ) -> Result<(), ExecError> {
        let stride = program.sizes[1];
        let out_stride = program.sizes[2].max(1);
        let needed = (vertices * stride).max(outputs.unwrap_or(0) * out_stride);
        if needed > MAX_PATCH_REGISTERS {
            return Err(ExecError::Setup(format!(
                "a patch of {vertices} vertices needs {needed} registers, more than the limit \
                 of {MAX_PATCH_REGISTERS}"
            )));
        }
        self.input_stride = stride;
        self.regs[1].resize(vertices * stride, [[0; N]; 4]);
        if let Some(n) = outputs {
            self.output_stride = out_stride;
            self.regs[2].resize(n * out_stride, [[0; N]; 4]);
        }
        Ok(())
    }

    /// Set every input of `program` from `patch`, the same for all lanes (written in
    /// place: no file is built per patch).
    fn set_patch_inputs(&mut self, program: &Program, patch: &Patch) {
        let regs = &mut self.regs[1];
        regs.fill([[0; N]; 4]);
        each_patch_input(program, patch, |at, v| {
            if let Some(r) = regs.get_mut(at) {
                *r = v.map(|x| [x; N]);
            }
        });
    }
}

/// The input file a patch gives `program`, and its stride `S` (one more than the largest
/// `IN` index): `S` registers per patch vertex, `IN[v][i]` at `v · S + i`, each input linked
/// by semantic (0 when nothing matches), per-patch inputs (`PATCH`, `TESSOUTER`,
/// `TESSINNER`) in vertex 0's slots. Engines that run tessellation shaders elsewhere lay
/// their inputs out from it.
pub fn patch_input_file(program: &Program, patch: &Patch) -> (usize, Vec<[u32; 4]>) {
    let stride = program.sizes[1];
    let mut file = vec![[0; 4]; patch.vertices.len() * stride];
    each_patch_input(program, patch, |at, v| {
        if let Some(r) = file.get_mut(at) {
            *r = v;
        }
    });
    (stride, file)
}

/// Every input [`patch_input_file`] holds that a declaration links: `set(at, value)` for
/// its place in the file.
fn each_patch_input(program: &Program, patch: &Patch, mut set: impl FnMut(usize, [u32; 4])) {
    let stride = program.sizes[1];
    for d in &program.inputs {
        let semantic = (d.semantic, d.semantic_index);
        if d.semantic.is_per_patch() && d.semantic != Semantic::PrimId {
            set(d.index as usize, patch.patch_value(semantic));
            continue;
        }
        for v in 0..patch.vertices.len() {
            set(
                v * stride + d.index as usize,
                patch.vertex_value(v, semantic),
            );
        }
    }
}

/// What a control shader's declared outputs become in its patch, worked out once per
/// program rather than per patch ([`ControlOutputs::patch`]). Engines that run control
/// shaders elsewhere build their patches with it.
pub struct ControlOutputs {
    /// The per-vertex outputs' semantics and registers, in register order.
    semantics: Vec<(Semantic, u32)>,
    registers: Vec<usize>,
    /// The per-patch outputs (TESSOUTER, TESSINNER, PATCH) and their registers, in register
    /// order (a later one of the same level semantic overrides an earlier one).
    per_patch: Vec<((Semantic, u32), usize)>,
}

impl ControlOutputs {
    /// The outputs of `program`, a control shader.
    pub fn of(program: &Program) -> ControlOutputs {
        let mut outputs = ControlOutputs {
            semantics: Vec::new(),
            registers: Vec::new(),
            per_patch: Vec::new(),
        };
        for d in output_decls(program) {
            let Some(semantic) = d.semantic else { continue };
            let index = d.index as usize;
            match semantic.0 {
                Semantic::TessOuter | Semantic::TessInner | Semantic::Patch => {
                    outputs.per_patch.push((semantic, index));
                }
                _ => {
                    outputs.semantics.push(semantic);
                    outputs.registers.push(index);
                }
            }
        }
        outputs
    }

    /// The patch the program makes: `read(v, i)` is `OUT[v][i]` after the run (`OUT[0][i]`
    /// for per-patch outputs), `levels` the ones it gets when it declares none.
    pub fn patch(
        &self,
        vertices_out: usize,
        levels: Levels,
        read: impl Fn(usize, usize) -> [u32; 4],
    ) -> Patch {
        let mut patch = Patch {
            semantics: self.semantics.clone(),
            vertices: Vertices::from_fn(self.registers.len(), vertices_out, |v, s| {
                read(v, self.registers[s])
            }),
            per_patch: Vec::new(),
            levels,
        };
        for &(semantic, index) in &self.per_patch {
            let v = read(0, index);
            match semantic.0 {
                Semantic::TessOuter => patch.levels.outer = v,
                Semantic::TessInner => patch.levels.inner = [v[0], v[1]],
                _ => patch.per_patch.push((semantic, v)),
            }
        }
        patch
    }
}

/// The x value of a system value, the same for all lanes (`None`: not one of these).
fn common_system_value(semantic: Semantic, vertices_in: u32, patch: u32) -> Option<u32> {
    match semantic {
        Semantic::VerticesIn => Some(vertices_in),
        Semantic::PrimId => Some(patch),
        _ => None,
    }
}

/// The output vertices (invocations) per patch of `program`, or why it is not a
/// tessellation control shader.
pub fn control_vertices_out(program: &Program) -> Result<u32, ExecError> {
    match program.tessellation {
        Some(TessInfo::Control { vertices_out }) => Ok(vertices_out),
        _ => Err(ExecError::Setup(format!(
            "the control stage must be a tessellation control shader, not {}",
            program.processor
        ))),
    }
}

/// How the tessellator runs for `program`, or why it is not a tessellation evaluation
/// shader.
pub fn eval_mode(program: &Program) -> Result<TessMode, ExecError> {
    match program.tessellation {
        Some(TessInfo::Eval(mode)) => Ok(mode),
        _ => Err(ExecError::Setup(format!(
            "the evaluation stage must be a tessellation evaluation shader, not {}",
            program.processor
        ))),
    }
}

/// Runs a control shader patch by patch, keeping its machine between patches.
pub struct ControlStage<'a> {
    program: &'a Program,
    vertices_out: usize,
    outputs: ControlOutputs,
    machine: ControlMachine,
}

/// The machine a control shader's patches run on: four lanes where its invocations fit in
/// them, else a whole wave. The lanes past the invocations never execute, so the fewer
/// give the same results, unless an instruction reads a lane by number (READ_INVOC could
/// name one past the four); such programs keep the wave.
enum ControlMachine {
    Quad(Box<Machine<4>>),
    Wave(Box<Machine<CONTROL_WAVE>>),
}

impl ControlMachine {
    fn new(program: &Program, vertices_out: usize, quad: bool) -> ControlMachine {
        let reads_lanes = program
            .insts
            .iter()
            .any(|i| matches!(i.kind, Kind::ReadInvoc));
        if quad && vertices_out <= 4 && !reads_lanes {
            ControlMachine::Quad(Box::new(Machine::new(program)))
        } else {
            ControlMachine::Wave(Box::new(Machine::new(program)))
        }
    }
}

impl<'a> ControlStage<'a> {
    /// A runner for `program`, which must be a tessellation control shader.
    pub fn new(program: &'a Program) -> Result<ControlStage<'a>, ExecError> {
        ControlStage::with_machine(program, true)
    }

    /// [`ControlStage::new`], on four lanes where they serve (`quad`) or on a whole wave.
    fn with_machine(program: &'a Program, quad: bool) -> Result<ControlStage<'a>, ExecError> {
        let vertices_out = control_vertices_out(program)? as usize;
        Ok(ControlStage {
            program,
            vertices_out,
            outputs: ControlOutputs::of(program),
            machine: ControlMachine::new(program, vertices_out, quad),
        })
    }

    /// Run patch `id` whose input vertices are `input` (their semantics and values).
    pub fn run(&mut self, input: &Patch, id: u32, env: &Env) -> Result<Patch, ExecError> {
        let (program, n, outputs) = (self.program, self.vertices_out, &self.outputs);
        match &mut self.machine {
            ControlMachine::Quad(m) => run_control(program, n, outputs, m, input, id, env),
            ControlMachine::Wave(m) => run_control(program, n, outputs, m, input, id, env),
        }
    }
}

/// [`ControlStage::run`] on a machine of `N` lanes, `n ≤ N` of them the invocations.
fn run_control<const N: usize>(
    program: &Program,
    n: usize,
    outputs: &ControlOutputs,
    m: &mut Machine<N>,
    input: &Patch,
    id: u32,
    env: &Env,
) -> Result<Patch, ExecError> {
    m.patch_layout(program, input.vertices.len(), Some(n))?;
    m.set_patch_inputs(program, input);
    let svs = m.system_values_mut();
    for d in &program.system_values {
        let Some(r) = svs.get_mut(d.index as usize) else {
            continue;
        };
        let x = match d.semantic {
            Semantic::InvocationId => std::array::from_fn(|l| l as u32),
            s => [common_system_value(s, input.vertices.len() as u32, id).unwrap_or(0); N],
        };
        *r = [x, [0; N], [0; N], [0; N]];
    }
    run_first_lanes(m, program, env, n)?;
    let stride = m.output_stride;
    let file = m.outputs();
    // Levels the shader does not declare keep the default ones.
    Ok(outputs.patch(n, input.levels, |v, i| {
        file.get(v * stride + i).map_or([0; 4], |r| lane_of(r, 0))
    }))
}

/// Run `program` on the first `n` lanes of `m` (1 to `N`), the others helpers.
fn run_first_lanes<const N: usize>(
    m: &mut Machine<N>,
    program: &Program,
    env: &Env,
    n: usize,
) -> Result<(), ExecError> {
    let active = Machine::<N>::ALL >> (N - n);
    m.run_lanes(
        program,
        &Env {
            helpers: !active,
            ..*env
        },
        active,
    )?;
    Ok(())
}

/// What an evaluation shader gives for a patch: per domain point, a vec4 per declared
/// output.
pub type PointOutputs = Vertices;

/// Runs an evaluation shader over the domain points of patch after patch.
pub struct EvalStage<'a> {
    program: &'a Program,
    mode: TessMode,
    machine: Box<Machine<EVAL_WAVE>>,
    /// The declared outputs, by register index.
    pub outputs: Vec<OutputDecl>,
}

impl<'a> EvalStage<'a> {
    /// A runner for `program`, which must be a tessellation evaluation shader.
    pub fn new(program: &'a Program) -> Result<EvalStage<'a>, ExecError> {
        Ok(EvalStage {
            program,
            mode: eval_mode(program)?,
            machine: Box::new(Machine::new(program)),
            outputs: output_decls(program),
        })
    }

    /// How the tessellator runs for this shader.
    pub fn mode(&self) -> TessMode {
        self.mode
    }

    /// Run the points of `tess` for patch `id`: one vec4 per declared output per point.
    pub fn run(
        &mut self,
        patch: &Patch,
        tess: &Tessellation,
        id: u32,
        env: &Env,
    ) -> Result<PointOutputs, ExecError> {
        let program = self.program;
        let m = &mut self.machine;
        m.patch_layout(program, patch.vertices.len(), None)?;
        m.set_patch_inputs(program, patch);
        let mut values = Vertices::with_capacity(self.outputs.len(), tess.points.len());
        for first in (0..tess.points.len()).step_by(EVAL_WAVE) {
            let lanes = (tess.points.len() - first).min(EVAL_WAVE);
            let coords: [[u32; 3]; EVAL_WAVE] =
                std::array::from_fn(|l| tess.coord(first + l, self.mode.domain).map(f32::to_bits));
            let svs = m.system_values_mut();
            for d in &program.system_values {
                let Some(r) = svs.get_mut(d.index as usize) else {
                    continue;
                };
                let splat = |v: [u32; 4]| v.map(|x| [x; EVAL_WAVE]);
                *r = match d.semantic {
                    Semantic::TessCoord => std::array::from_fn(|c| {
                        std::array::from_fn(|l| coords[l].get(c).copied().unwrap_or(0))
                    }),
                    Semantic::TessOuter | Semantic::TessInner => {
                        splat(patch.patch_value((d.semantic, 0)))
                    }
                    s => splat([
                        common_system_value(s, patch.vertices.len() as u32, id).unwrap_or(0),
                        0,
                        0,
                        0,
                    ]),
                };
            }
            run_first_lanes(m, program, env, lanes)?;
            push_lanes(&mut values, m.outputs(), &self.outputs, lanes);
        }
        Ok(values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::DEFAULT_BUDGET;
    use crate::resource::Resources;
    use std::path::Path;

    /// Every control shader of the shared corpus whose invocations fit in four lanes gives
    /// on four lanes exactly what it gives on a whole wave — patches, levels, errors (a
    /// small budget included) — over patches of varied inputs.
    #[test]
    fn control_shaders_give_the_same_on_four_lanes_as_on_a_wave() {
        let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
        let mut files: Vec<_> = ["virgl/tcs", "tessref"]
            .iter()
            .flat_map(|d| walk(&corpus.join(d)))
            .filter(|f| f.to_string_lossy().contains("tcs"))
            .collect();
        if files.is_empty() {
            println!("skipped: shared corpus absent");
            return;
        }
        files.sort();
        let mut next = crate::test_support::xorshift(0x9e37_79b9);
        let constants = vec![
            (0..64)
                .map(|i| [i % 5, 0x3f80_0000, 0x3f00_0000, 3])
                .collect();
            4
        ];
        let resources = Resources::default();
        let mut compared = 0;
        for f in &files {
            let text = std::fs::read_to_string(f).expect("readable");
            let Ok(program) = tgsi::parse(&text)
                .map_err(|_| ())
                .and_then(|s| Program::compile(&s).map_err(|_| ()))
            else {
                continue;
            };
            let (Ok(mut quad), Ok(mut wave)) = (
                ControlStage::with_machine(&program, true),
                ControlStage::with_machine(&program, false),
            ) else {
                continue;
            };
            if !matches!(quad.machine, ControlMachine::Quad(_)) {
                continue;
            }
            let semantics: Vec<(Semantic, u32)> = program
                .inputs
                .iter()
                .filter(|d| !d.semantic.is_per_patch())
                .map(|d| (d.semantic, d.semantic_index))
                .collect();
            for (patch_id, budget) in [(0, DEFAULT_BUDGET), (1, DEFAULT_BUDGET), (2, 30)] {
                let vertices = 1 + next() as usize % 4;
                let input = Patch {
                    semantics: semantics.clone(),
                    vertices: Vertices::from_fn(semantics.len(), vertices, |_, _| {
                        let f = (next() % 4096) as f32 / 512.0 - 4.0;
                        [f.to_bits(), next() % 8, (-f).to_bits(), next() % 3]
                    }),
                    per_patch: Vec::new(),
                    levels: Levels::default(),
                };
                let env = Env {
                    resources: &resources,
                    consts: &constants,
                    budget,
                    helpers: 0,
                };
                let on_quad = quad.run(&input, patch_id, &env);
                let on_wave = wave.run(&input, patch_id, &env);
                assert_eq!(on_quad, on_wave, "{} patch {patch_id}", f.display());
            }
            compared += 1;
        }
        assert!(compared >= 10, "only {compared} control shaders compared");
        println!("{compared} of {} control shaders compared", files.len());
    }

    fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
        let mut out = Vec::new();
        let Ok(entries) = std::fs::read_dir(dir) else {
            return out;
        };
        for p in entries.flatten().map(|e| e.path()) {
            if p.is_dir() {
                out.extend(walk(&p));
            } else if p.extension().is_some_and(|x| x == "tgsi") {
                out.push(p);
            }
        }
        out
    }
}
