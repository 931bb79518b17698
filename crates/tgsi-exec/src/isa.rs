//! The instruction sets the interpreter's lane kernels are compiled for, chosen when the
//! program runs.
//!
//! A release build targets baseline x86-64 (SSE2), where a loop over a wave's lanes runs
//! four lanes per instruction at best, and rounding (`FLR`, `ROUND`, `F2I`…), blends and
//! unsigned conversions have no vector instruction at all. Every lane kernel of
//! [`crate::ops`] is therefore compiled twice from one body (`compiled!`): once for the
//! baseline and once with AVX2, FMA, BMI and LZCNT enabled (x86-64-v3: Intel's cores
//! since Haswell, 2013, AMD's since Excavator, 2015, though not every low-end part), and
//! [`Isa::host`] picks the second where the CPU has them.
//! Both compile the same Rust, whose float operations are exact IEEE arithmetic (no
//! contraction into fused multiply-adds, NaN operands chosen explicitly by
//! [`crate::scalar`]), so they give the same bits; `tests/kernel_isa.rs` checks that on
//! every kernel. The AVX2 kernels of ADD, SUB, MUL, DIV and MAD are the one exception:
//! the SSE instructions their scalar functions define, in inline assembly (`crate::sse`),
//! checked by the same test.
//!
//! `TGSI_EXEC_ISA=baseline` in the environment makes [`Isa::host`] choose the baseline
//! (to compare the two, or to run the baseline code on a machine that has AVX2).

use std::sync::OnceLock;

/// An instruction set a `compiled!` kernel can run with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// Baseline x86-64 (or whatever the build targets on another architecture).
    Baseline,
    /// x86-64 with AVX2, FMA, BMI1, BMI2, LZCNT and POPCNT, which this CPU has.
    Avx2(Avx2),
}

/// Proof that the CPU has the features of [`Isa::Avx2`]: made only by [`Isa::detect`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx2(());

impl Isa {
    /// The best instruction set of this CPU, unless `TGSI_EXEC_ISA=baseline` asks for
    /// the baseline (decided once per process).
    pub fn host() -> Isa {
        static HOST: OnceLock<Isa> = OnceLock::new();
        *HOST.get_or_init(|| match std::env::var("TGSI_EXEC_ISA").as_deref() {
            Ok("baseline") => Isa::Baseline,
            _ => Isa::detect().unwrap_or(Isa::Baseline),
        })
    }

    /// [`Isa::Avx2`] if this CPU has its features.
    pub fn detect() -> Option<Isa> {
        #[cfg(target_arch = "x86_64")]
        {
            let has = std::is_x86_feature_detected!("avx2")
                && std::is_x86_feature_detected!("fma")
                && std::is_x86_feature_detected!("bmi1")
                && std::is_x86_feature_detected!("bmi2")
                && std::is_x86_feature_detected!("lzcnt")
                && std::is_x86_feature_detected!("popcnt");
            if has {
                return Some(Isa::Avx2(Avx2(())));
            }
        }
        None
    }
}

/// Declare a kernel type: a function of the given signature compiled for each [`Isa`],
/// with `run` calling the one for an [`Isa`].
macro_rules! kernel_type {
    ($(#[$meta:meta])* $name:ident, fn($($arg:ident: $ty:ty),* $(,)?)) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug)]
        pub struct $name {
            /// Compiled for the baseline.
            pub(crate) base: fn($($ty),*),
            /// Compiled with the features of [`Isa::Avx2`](crate::isa::Isa::Avx2): to be
            /// called only where the CPU has them.
            #[cfg(target_arch = "x86_64")]
            pub(crate) avx2: unsafe fn($($ty),*),
        }

        impl $name {
            /// Run the kernel compiled for `isa`.
            #[inline]
            pub fn run(&self, isa: $crate::isa::Isa, $($arg: $ty),*) {
                match isa {
                    $crate::isa::Isa::Baseline => (self.base)($($arg),*),
                    #[cfg(target_arch = "x86_64")]
                    // SAFETY: an `Isa::Avx2` holds an `Avx2`, which only `Isa::detect` makes,
                    // after finding every feature `avx2` was compiled with.
                    $crate::isa::Isa::Avx2(_) => unsafe { (self.avx2)($($arg),*) },
                    #[cfg(not(target_arch = "x86_64"))]
                    $crate::isa::Isa::Avx2(_) => (self.base)($($arg),*),
                }
            }
        }
    };
}
pub(crate) use kernel_type;

/// A `kernel_type!` value from one body, compiled for each [`Isa`]:
/// `compiled!(Type, |out: &mut [u32], s: [&[u32]; 4]| { … })`. The body is inlined into
/// both functions, and with it whatever it calls that the compiler inlines.
macro_rules! compiled {
    ($name:ident, |$($arg:ident: $ty:ty),* $(,)?| $body:block) => {{
        #[inline(always)]
        fn body($($arg: $ty),*) $body
        fn base($($arg: $ty),*) {
            body($($arg),*)
        }
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
        fn avx2($($arg: $ty),*) {
            body($($arg),*)
        }
        $name {
            base,
            #[cfg(target_arch = "x86_64")]
            avx2,
        }
    }};
}
pub(crate) use compiled;
