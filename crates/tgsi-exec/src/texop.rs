//! Texture instructions on the wave: the value sources are fetched for every lane, the
//! `SAMP`/`SVIEW` slots and texel offsets are read from the first lane of each quad (as
//! softpipe does), each 2×2 quad with an active lane is sampled by
//! [`crate::texture::execute_prepared`] with the views and samplers the machine has
//! prepared, and the results are written through the destination's mask for the active
//! lanes. (Sampling has no effect beyond its result, and a quad's result depends on that
//! quad's lanes only, so a quad without active lanes is left out.)

use crate::compile::{Inst, Program, SlotOp, TexOp};
use crate::machine::{lane_of, Env, Machine, Res, Scratch};
use crate::resource::Resources;
use crate::texture::{self, Direct, DirectOp, QuadVec, TexRequest};

/// Value sources of a texture instruction (TXD and SAMPLE_D have three: coordinates and
/// two derivatives; the opcode table gives none more than four).
const MAX_TEX_SOURCES: usize = 4;

impl<const N: usize> Machine<N> {
    /// Execute a texture instruction.
    pub(crate) fn texture(&mut self, inst: &Inst, res: &Res, scratch: &mut Scratch<N>) {
        let Some(tex) = inst.tex.as_deref() else {
            return;
        };
        let exec = self.exec();
        // Every lane samples (helper and inactive lanes feed implicit derivatives), so
        // sources are fetched for all lanes, into the scratch registers (no zeroed array
        // per instruction).
        let all = Self::ALL;
        let nsrc = inst.src.len().min(MAX_TEX_SOURCES);
        let srcs = &mut scratch.src[..nsrc];
        for (v, s) in srcs.iter_mut().zip(&inst.src) {
            for (c, row) in v.iter_mut().enumerate() {
                *row = self.fetch(s, c, all, res);
            }
        }
        let srcs = &*srcs;
        let offsets: Option<[[u32; N]; 3]> = tex
            .offsets
            .as_ref()
            .map(|o| std::array::from_fn(|c| self.fetch(o, c, all, res)));
        let mut out = [[0u32; N]; 4];
        let quads = (0..N / 4).fold(0u64, |m, q| {
            m | u64::from((exec >> (4 * q)) & 0xf != 0) << q
        });
        let lanes = |k: usize, c: usize, base: usize| -> [u32; 4] {
            std::array::from_fn(|l| srcs.get(k).map_or(0, |s| s[c & 3][base + l]))
        };
        let direct = self.texture_direct(
            inst,
            tex,
            res.resources,
            res.implicit_lod,
            quads,
            lanes,
            |base, r| {
                for (o, channel) in out.iter_mut().zip(r) {
                    o[base..base + 4].copy_from_slice(channel);
                }
            },
        );
        // One quad's sources, `[source][lane][channel]`.
        let mut quad = [[[0u32; 4]; 4]; MAX_TEX_SOURCES];
        for q in 0..N / 4 {
            let base = 4 * q;
            if (exec >> base) & 0xf == 0 || direct & (1 << q) != 0 {
                continue;
            }
            for (qs, s) in quad.iter_mut().zip(srcs) {
                for (l, lane) in qs.iter_mut().enumerate() {
                    *lane = lane_of(s, base + l);
                }
            }
            let offsets = offsets.map_or([0; 3], |o| o.map(|ch| ch[base] as i32));
            let result = self.sample_quad(inst, tex, res, &quad[..nsrc], offsets, base);
            for (l, lane) in result.iter().enumerate() {
                for (c, v) in lane.iter().enumerate() {
                    out[c][base + l] = *v;
                }
            }
        }
        self.write(inst, 0, &out, inst.opcode.written_channels(), exec);
    }

    /// Texture instruction `pc` of `program` on one quad whose value sources an engine
    /// keeping its own registers has fetched (`srcs[source][lane][channel]`, in operand
    /// order, swizzled and modified) with the texel offsets of its first lane (used only
    /// where the instruction has offsets in a register): the result,
    /// `[lane][channel]`, before the destination's mask and saturation. The sampler and
    /// view operands must be direct (an indirect index reads the address register of the
    /// wave's lane `base`, which such an engine may not keep here); `None` when `pc` is
    /// not a texture instruction.
    pub fn texture_quad(
        &mut self,
        program: &Program,
        pc: usize,
        env: &Env,
        srcs: &[[[u32; 4]; 4]],
        offsets: [i32; 3],
        base: usize,
    ) -> Option<QuadVec> {
        let inst = program.insts.get(pc)?;
        let tex = inst.tex.as_deref()?;
        let res = Res {
            consts: env.consts,
            imms: &program.imms,
            resources: env.resources,
            implicit_lod: program.processor == tgsi::Processor::Fragment,
            shared: None,
        };
        let n = inst.src.len().min(MAX_TEX_SOURCES).min(srcs.len());
        let offsets = if tex.offsets.is_some() {
            offsets
        } else {
            [0; 3]
        };
        Some(self.sample_quad(inst, tex, &res, &srcs[..n], offsets, base))
    }

    /// Texture instruction `inst` bound for the direct path, if it qualifies: direct
    /// slots, no texel offsets, and a view and sampler the specialised path reads.
    fn direct(
        &mut self,
        inst: &Inst,
        tex: &TexOp,
        resources: &Resources,
        implicit_lod: bool,
    ) -> Option<Direct<'_>> {
        let op = DirectOp::new(inst.opcode, tex.target)?;
        let direct_slot = |s: &Option<SlotOp>| match s {
            Some(SlotOp {
                index,
                indirect: None,
                ..
            }) => u32::try_from(*index).ok(),
            _ => None,
        };
        let sampler = direct_slot(&tex.sampler);
        let view = match &tex.view {
            Some(_) => direct_slot(&tex.view),
            None => sampler,
        };
        if tex.offsets.is_some() {
            return None;
        }
        let view = resources.sampler_view(view?)?;
        let sampler = resources.sampler(sampler?)?;
        let swizzle = tex.view.map_or([0, 1, 2, 3], |v| v.swizzle);
        Direct::bind(
            op,
            view,
            sampler,
            resources.seamless_cube_map,
            implicit_lod,
            swizzle,
            &mut self.textures,
        )
    }

    /// Texture instruction `pc` of `program` bound to its view and sampler in `env` for the
    /// direct path, if it qualifies ([`texture::Direct`]): direct slots, no texel
    /// offsets, a view and sampler the specialised path reads.
    pub fn direct_texture(
        &mut self,
        program: &Program,
        pc: usize,
        env: &Env,
    ) -> Option<texture::Direct<'_>> {
        let inst = program.insts.get(pc)?;
        let tex = inst.tex.as_deref()?;
        let frag = program.processor == tgsi::Processor::Fragment;
        self.direct(inst, tex, env.resources, frag)
    }

    /// The quads of texture instruction `inst` the direct path takes ([`texture::Direct`]):
    /// `quads` has bit q set for the quad of lanes `4q..4q + 4`, `lanes(source, channel,
    /// base)` gives a quad's words of a value source (swizzled and modified), and `put(base,
    /// result)` takes a quad's results (`[channel][lane]`). Returns the quads done; the
    /// others (all of them when the instruction has indirect slots or texel offsets, or
    /// its view and sampler are not of the direct kind) need [`Self::sample_quad`].
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn texture_direct(
        &mut self,
        inst: &Inst,
        tex: &TexOp,
        resources: &Resources,
        implicit_lod: bool,
        quads: u64,
        lanes: impl Fn(usize, usize, usize) -> [u32; 4],
        mut put: impl FnMut(usize, &[[u32; 4]; 4]),
    ) -> u64 {
        let Some(direct) = self.direct(inst, tex, resources, implicit_lod) else {
            return 0;
        };
        let op = direct.op();
        let mut done = 0;
        let mut left = quads;
        while left != 0 {
            let q = left.trailing_zeros();
            left &= left - 1;
            let base = 4 * q as usize;
            let lod = op.lod_source().map_or([0; 4], |(k, c)| lanes(k, c, base));
            if let Some(r) = direct.quad(lanes(0, 0, base), lanes(0, 1, base), lod) {
                put(base, &r);
                done |= 1 << q;
            }
        }
        done
    }

    /// The direct path ([`texture::Direct`]) for an engine keeping its own registers: the
    /// quads of texture instruction `pc` of `program` (bit q of `quads`: lanes `4q..4q +
    /// 4`) that the direct path samples from the words `lanes(source, channel, base)` gives,
    /// their results (`[channel][lane]`, before the destination's mask and saturation)
    /// handed to `put(base, result)`. Returns the quads done; the others need
    /// [`Self::texture_quad`].
    pub fn texture_quads_direct(
        &mut self,
        program: &Program,
        pc: usize,
        env: &Env,
        quads: u64,
        lanes: impl Fn(usize, usize, usize) -> [u32; 4],
        put: impl FnMut(usize, &[[u32; 4]; 4]),
    ) -> u64 {
        let Some((inst, tex)) = program
            .insts
            .get(pc)
            .and_then(|i| Some((i, i.tex.as_deref()?)))
        else {
            return 0;
        };
        let frag = program.processor == tgsi::Processor::Fragment;
        self.texture_direct(inst, tex, env.resources, frag, quads, lanes, put)
    }

    /// One quad of a texture instruction (lanes `base..base + 4` of the wave).
    fn sample_quad(
        &mut self,
        inst: &Inst,
        tex: &TexOp,
        res: &Res,
        srcs: &[[[u32; 4]; 4]],
        offsets: [i32; 3],
        base: usize,
    ) -> QuadVec {
        let sampler_slot = tex.sampler.map(|s| self.slot_index(&s, base));
        let view_slot = tex.view.map(|s| self.slot_index(&s, base)).or(sampler_slot);
        let view = view_slot
            .flatten()
            .and_then(|i| res.resources.sampler_view(i));
        let sampler = sampler_slot
            .flatten()
            .and_then(|i| res.resources.sampler(i));
        let req = TexRequest {
            opcode: inst.opcode,
            target: tex.target,
            srcs,
            offsets,
            view,
            sampler,
            seamless_cube_map: res.resources.seamless_cube_map,
            implicit_lod: res.implicit_lod,
            sview_swizzle: tex.view.map_or([0, 1, 2, 3], |v| v.swizzle),
        };
        texture::execute_prepared(&req, &mut self.textures)
    }

    /// The slot a `SAMP`/`SVIEW` operand names for the quad starting at lane `base`
    /// (`None` when an indirect index is negative).
    fn slot_index(&self, s: &SlotOp, base: usize) -> Option<u32> {
        let offset = match s.indirect {
            None => 0,
            Some(ind) => ind
                .file
                .lane_file()
                .and_then(|f| self.regs[f].get(ind.index as usize))
                .map_or(0, |r| r[ind.comp as usize & 3][base] as i32),
        };
        u32::try_from(i64::from(s.index) + i64::from(offset)).ok()
    }
}
