//! EMIT and ENDPRIM: what each lane of a geometry-shader wave has emitted.
//!
//! Every lane keeps its own record ([`Emission`]), so lanes that diverge emit their own
//! vertex counts. `EMIT src` appends, for every active lane, a vertex holding the current
//! values of the declared output registers ([`crate::geometry::GeometryInfo::outputs`]) to
//! the open primitive of the lane's stream `src.x` (a u32); `ENDPRIM src` closes that
//! stream's open primitive (an empty one yields nothing). Following the spec where softpipe
//! differs:
//!
//! * `GS_MAX_OUTPUT_VERTICES` bounds the vertices a lane emits over all streams; later EMITs
//!   are dropped (softpipe counts per open primitive);
//! * a primitive's vertices are the ones emitted on its stream, in emission order (softpipe
//!   reads interleaved streams from one shared sequence);
//! * the end of the run closes the open primitive of every stream (softpipe closes only
//!   stream 0's).
//!
//! A stream number of 4 or more names no stream: the EMIT or ENDPRIM does nothing.

use crate::compile::Inst;
use crate::machine::{lane_of, Machine, Res};

/// Vertex streams.
pub const STREAMS: usize = 4;

/// One stream's output of one lane.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StreamEmission {
    /// The emitted vertices' output registers, vertex after vertex (each vertex has one
    /// vec4 per declared output register).
    pub values: Vec<[u32; 4]>,
    /// Vertex counts of the closed primitives, in emission order.
    pub primitives: Vec<u32>,
    /// Vertices of the open primitive (the last ones of `values`).
    pub open: u32,
}

impl StreamEmission {
    /// Close the open primitive, if it has vertices.
    fn end_primitive(&mut self) {
        if self.open > 0 {
            self.primitives.push(self.open);
            self.open = 0;
        }
    }
}

/// What one lane emitted during a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Emission {
    /// Per stream.
    pub streams: [StreamEmission; STREAMS],
    /// Vertices emitted on all streams (at most `GS_MAX_OUTPUT_VERTICES`).
    pub vertices: u32,
}

impl Emission {
    /// Forget everything (keeping the allocations).
    pub(crate) fn clear(&mut self) {
        for s in &mut self.streams {
            s.values.clear();
            s.primitives.clear();
            s.open = 0;
        }
        self.vertices = 0;
    }

    /// Close the open primitive of every stream (the end of an invocation).
    pub(crate) fn close(&mut self) {
        self.streams
            .iter_mut()
            .for_each(StreamEmission::end_primitive);
    }
}

impl<const N: usize> Machine<N> {
    /// EMIT (`end` false) or ENDPRIM (`end` true) for the active lanes that are neither
    /// helpers nor discarded. `outputs` are the registers a vertex records and
    /// `max_vertices` the limit per lane.
    pub(crate) fn emit(
        &mut self,
        inst: &Inst,
        res: &Res,
        end: bool,
        outputs: &[u32],
        max_vertices: u32,
    ) {
        let lanes = self.exec() & !self.helpers & !self.kill;
        if lanes == 0 {
            return;
        }
        let Some(src) = inst.src.first() else { return };
        let stream = self.fetch(src, 0, lanes, res);
        for (l, &s) in stream.iter().enumerate() {
            if lanes & (1 << l) == 0 {
                continue;
            }
            let out = &self.regs[2];
            let record = &mut self.emission[l];
            let Some(st) = record.streams.get_mut(s as usize) else {
                continue;
            };
            if end {
                st.end_primitive();
            } else if record.vertices < max_vertices {
                record.vertices += 1;
                st.open += 1;
                st.values.extend(
                    outputs
                        .iter()
                        .map(|&r| out.get(r as usize).map_or([0; 4], |reg| lane_of(reg, l))),
                );
            }
        }
    }

    /// What lane `lane` has emitted since the run started (empty outside geometry shaders).
    pub fn emission(&self, lane: usize) -> Option<&Emission> {
        self.emission.get(lane)
    }
}
