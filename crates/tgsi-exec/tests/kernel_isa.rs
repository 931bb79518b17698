//! The lane kernels compiled with AVX2 ([`Isa::Avx2`]) give the baseline build's bits: every
//! component-wise (also on four and sixteen lanes), vector and 64-bit kernel of every opcode, on waves
//! of special and random words (NaNs with payloads, signalling NaNs, infinities, zeros, denormals,
//! integral and half-integral floats, integer edges, doubles made of such words).

use tgsi::Opcode;
use tgsi_exec::isa::Isa;
use tgsi_exec::ops::{kind, Kind};
use tgsi_exec::WAVE;

/// Words that sit on the edges of float and integer semantics.
const SPECIAL: &[u32] = &[
    0x0000_0000, // +0
    0x8000_0000, // −0, INT_MIN
    0x3f80_0000, // 1.0
    0xbf80_0000, // −1.0
    0x3fc0_0000, // 1.5
    0xc020_0000, // −2.5
    0x3f00_0000, // 0.5
    0x4f00_0000, // 2^31
    0xcf00_0000, // −2^31
    0x4f80_0000, // 2^32
    0x7f80_0000, // +∞
    0xff80_0000, // −∞
    0x7fc0_0000, // quiet NaN
    0xffc0_1234, // negative quiet NaN with a payload
    0x7f80_0001, // signalling NaN
    0xff80_4321, // negative signalling NaN
    0x0000_0001, // smallest denormal, 1
    0x807f_ffff, // largest negative denormal
    0x7f7f_ffff, // largest float
    0xffff_ffff, // −1, NaN
    0x7fff_ffff, // INT_MAX, NaN
    0x0000_001f, // 31
    0x0000_0020, // 32
    0x0000_0021, // 33
    0x3eff_ffff, // just below 0.5
    0x4b00_0001, // 2^23 + 1
    0x3ff0_0000, // high word of the double 1.0
    0x7ff0_0000, // high word of the double +∞
    0x7ff8_0000, // high word of a double quiet NaN
    0x000f_ffff, // high word of a double denormal
];

/// A small deterministic generator (xorshift64*).
struct Words(u64);

impl Words {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as u32
    }

    /// A special word three times in four, else a random one.
    fn word(&mut self) -> u32 {
        let r = self.next();
        if r & 3 != 0 {
            SPECIAL[(r >> 2) as usize % SPECIAL.len()]
        } else {
            self.next()
        }
    }

    fn wave(&mut self) -> [u32; WAVE] {
        std::array::from_fn(|_| self.word())
    }
}

/// Waves per kernel.
const WAVES: usize = 400;

#[test]
fn avx2_kernels_give_the_baseline_bits() {
    let Some(avx2) = Isa::detect() else {
        eprintln!("skipped: this CPU lacks AVX2/FMA/BMI; only the baseline kernels run");
        return;
    };
    let base = Isa::Baseline;
    let mut words = Words(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0;
    for op in Opcode::all() {
        match kind(op) {
            Some(Kind::Component(k)) => {
                for _ in 0..WAVES {
                    let src: [[u32; WAVE]; 4] = std::array::from_fn(|_| words.wave());
                    let srcs = [&src[0][..], &src[1][..], &src[2][..], &src[3][..]];
                    let (mut a, mut b) = ([0; WAVE], [1; WAVE]);
                    k.run(base, &mut a, srcs);
                    k.run(avx2, &mut b, srcs);
                    assert_eq!(a, b, "{op:?} on {src:08x?}");
                    // Four and sixteen lanes, the widths of the geometry, control and
                    // evaluation machines, take loops of their own: the same words as a
                    // wave's first lanes.
                    for n in [4, 16] {
                        let part = srcs.map(|s| &s[..n]);
                        for isa in [base, avx2] {
                            let mut q = [2; 16];
                            k.run(isa, &mut q[..n], part);
                            assert_eq!(q[..n], a[..n], "{op:?} on {n} lanes of {src:08x?}");
                        }
                    }
                }
            }
            Some(Kind::Vector(v)) => {
                for _ in 0..WAVES {
                    let src: [[[u32; WAVE]; 4]; 3] =
                        std::array::from_fn(|_| std::array::from_fn(|_| words.wave()));
                    let rows = src.each_ref().map(|s| s.each_ref().map(|r| &r[..]));
                    let (mut a, mut b) = ([[0; WAVE]; 4], [[1; WAVE]; 4]);
                    let [a0, a1, a2, a3] = &mut a;
                    v.lanes.run(base, [a0, a1, a2, a3], &rows);
                    let [b0, b1, b2, b3] = &mut b;
                    v.lanes.run(avx2, [b0, b1, b2, b3], &rows);
                    assert_eq!(a, b, "{op:?} on {src:08x?}");
                }
            }
            Some(Kind::Wide(w)) => {
                for _ in 0..WAVES {
                    // Each source's low and high words.
                    let src: [[[u32; WAVE]; 2]; 3] =
                        std::array::from_fn(|_| std::array::from_fn(|_| words.wave()));
                    let rows = src.each_ref().map(|[lo, hi]| [&lo[..], &hi[..]]);
                    let (mut a, mut b) = ([[0; WAVE]; 2], [[1; WAVE]; 2]);
                    let [a0, a1] = &mut a;
                    w.lanes.run(base, [a0, a1], rows);
                    let [b0, b1] = &mut b;
                    w.lanes.run(avx2, [b0, b1], rows);
                    assert_eq!(a, b, "{op:?} on {src:08x?}");
                }
            }
            _ => continue,
        }
        checked += 1;
    }
    // Every ALU opcode family is here: a kernel table that lost its entries fails.
    assert!(checked > 150, "only {checked} opcodes have lane kernels");
    eprintln!("{checked} opcodes' kernels agree");
}
