//! Picking the faster of two compiled forms of a program by timing its waves.
//!
//! How many quads a call of a program with loops should run has no answer in the
//! program's text: two quads side by side overlap their dependency chains, but every
//! branch either quad takes and every loop trip either quad still needs is run for both,
//! and the values of both compete for registers. Which wins depends on the data and the
//! machine — here the divergent-branches benchmark ran 1.2 times as fast a quad at a time,
//! the Mandelbrot, ray-tracing and integer ones 1.06–1.1 times as fast two at a time, and
//! a Mandelbrot loop at a coarser zoom 1.17 times as fast one at a time.
//!
//! So such a program runs its first form ([`Tuned`]), timing one wave in
//! [`SAMPLE_EVERY`], until it has run some multiple of the time the first form took to
//! compile (`Options::tuning`, by default [`PAYBACK`]); then the wave that crosses that
//! line compiles the second form (a shader run once over a small image never pays for
//! it), the next waves run the two forms by turns and are timed ([`Tuner`]), and after
//! [`SAMPLES`] pairs of them the faster is kept. Both forms compute the same bits; only
//! the speed depends on the choice.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Pairs of waves, one of each form, timed before the choice: 8,192 pixels, an eighth of
/// a 256x256 image (with 24, a Julia set's choice followed the few rows they covered).
pub(crate) const SAMPLES: usize = 128;

/// Waves handed out while timing after which the choice is made with what was timed
/// (waves the interpreter runs instead of the compiled code are not timed).
const MAX_TIMED_WAVES: u32 = 8 * SAMPLES as u32;

/// The first form's run time, in multiples of its compile time, after which the second
/// form is compiled: a few percent of the time run goes to finding a form that may run
/// 10–20 % faster.
pub(crate) const PAYBACK: u32 = 10;

/// One wave in this many of the first form is timed, to estimate how long it has run.
pub(crate) const SAMPLE_EVERY: u32 = 8;

/// Not yet chosen (in [`Tuner::chosen`]).
const UNDECIDED: u8 = u8::MAX;

/// A program's second form `F`, compiled once the first has run long enough, and the
/// choice between the two.
pub(crate) struct Tuned<F> {
    /// The second form once compiled (`None` inside: it did not compile).
    second: OnceLock<Option<F>>,
    /// Whether a wave has taken on compiling it.
    claimed: AtomicBool,
    /// Waves the first form ran before the second existed.
    waves: AtomicU32,
    /// Estimated time those waves took, in nanoseconds.
    ran: AtomicU64,
    /// Run time of the first form after which the second is compiled, in nanoseconds.
    due: u64,
    /// Time compiling the second form took, in nanoseconds.
    compile: AtomicU64,
    tuner: Tuner,
}

/// The form to run a wave with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pick {
    /// The first form, before the second exists; time the wave when `sampled`.
    First {
        /// Whether to time the wave.
        sampled: bool,
    },
    /// Timing the two: run `form` (0 or 1) and report the time; `turn` counts the waves
    /// handed out while timing.
    Timed {
        /// The form to run.
        form: usize,
        /// The wave's place among those timed.
        turn: u32,
    },
    /// Chosen: run form 0 or 1, untimed.
    Chosen(usize),
}

impl Pick {
    /// The form to run.
    pub(crate) fn form(self) -> usize {
        match self {
            Pick::First { .. } => 0,
            Pick::Timed { form, .. } | Pick::Chosen(form) => form,
        }
    }

    /// Whether to time the wave and [`Tuned::report`] it.
    pub(crate) fn timed(self) -> bool {
        matches!(self, Pick::First { sampled: true } | Pick::Timed { .. })
    }
}

impl<F> Tuned<F> {
    /// A second form to compile once the first, which took `compile` to compile, has run
    /// `payback` times as long.
    pub(crate) fn new(compile: Duration, payback: u32) -> Tuned<F> {
        let compile = u64::try_from(compile.as_nanos()).unwrap_or(u64::MAX);
        Tuned {
            second: OnceLock::new(),
            claimed: AtomicBool::new(false),
            waves: AtomicU32::new(0),
            ran: AtomicU64::new(0),
            due: compile.saturating_mul(payback.into()),
            compile: AtomicU64::new(0),
            tuner: Tuner::new(),
        }
    }

    /// The second form, once compiled.
    pub(crate) fn second(&self) -> Option<&F> {
        self.second.get().and_then(Option::as_ref)
    }

    /// The chosen form, if any.
    pub(crate) fn chosen(&self) -> Option<usize> {
        self.tuner.chosen()
    }

    /// Time spent compiling the second form.
    pub(crate) fn compile_time(&self) -> Duration {
        Duration::from_nanos(self.compile.load(Ordering::Relaxed))
    }

    /// The form the next wave runs.
    pub(crate) fn pick(&self) -> Pick {
        match self.second.get() {
            Some(Some(_)) => self.tuner.pick(),
            Some(None) => Pick::Chosen(0),
            None => {
                let n = self.waves.fetch_add(1, Ordering::Relaxed);
                Pick::First {
                    sampled: n.is_multiple_of(SAMPLE_EVERY),
                }
            }
        }
    }

    /// Report that a wave `pick` asked to time ran `lanes` active lanes in `time`; the
    /// wave that finds the first form has run long enough compiles the second with
    /// `build`.
    pub(crate) fn report(
        &self,
        pick: Pick,
        time: Duration,
        lanes: u32,
        build: impl FnOnce() -> Option<F>,
    ) {
        match pick {
            Pick::First { sampled: true } => {
                let ns = u64::try_from(time.as_nanos()).unwrap_or(u64::MAX);
                let ran = self
                    .ran
                    .fetch_add(ns.saturating_mul(SAMPLE_EVERY.into()), Ordering::Relaxed);
                if ran >= self.due && !self.claimed.swap(true, Ordering::Relaxed) {
                    let start = Instant::now();
                    let second = build();
                    let ns = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
                    self.compile.store(ns, Ordering::Relaxed);
                    // Only the claiming wave sets it.
                    let _ = self.second.set(second);
                }
            }
            Pick::Timed { form, turn } => self.tuner.record(form, turn, time, lanes),
            Pick::First { sampled: false } | Pick::Chosen(_) => {}
        }
    }
}

/// Which of two forms runs a wave, timing them by turns until one is chosen.
///
/// The waves are handed out in pairs, one of each form, and compared pair by pair: a
/// wave's cost follows what it covers (a Julia set's waves differ tenfold across the
/// image), and two waves handed out one after the other mostly cover neighbouring pixels.
struct Tuner {
    /// Waves handed out while timing.
    handed: AtomicU32,
    /// The chosen form, or [`UNDECIDED`].
    chosen: AtomicU8,
    /// What was timed.
    pairs: Mutex<Pairs>,
}

/// For each pair of waves handed out, each form's time in nanoseconds per active lane (0:
/// not reported), and how many pairs have both.
#[derive(Default)]
struct Pairs {
    times: Vec<[u64; 2]>,
    complete: usize,
}

impl Tuner {
    /// A tuner that has timed nothing.
    fn new() -> Tuner {
        Tuner {
            handed: AtomicU32::new(0),
            chosen: AtomicU8::new(UNDECIDED),
            pairs: Mutex::new(Pairs::default()),
        }
    }

    /// The chosen form, if any.
    fn chosen(&self) -> Option<usize> {
        match self.chosen.load(Ordering::Relaxed) {
            UNDECIDED => None,
            form => Some(usize::from(form)),
        }
    }

    /// The form the next wave runs. While timing, the forms take turns in the order
    /// 0, 1, 1, 0, 0, 1, 1, 0…: each pair holds one of each, and neither form keeps the
    /// waves of a pattern that repeats every other wave.
    fn pick(&self) -> Pick {
        if let Some(form) = self.chosen() {
            return Pick::Chosen(form);
        }
        let turn = self.handed.fetch_add(1, Ordering::Relaxed);
        if turn >= MAX_TIMED_WAVES {
            return Pick::Chosen(self.decide());
        }
        Pick::Timed {
            form: ((turn ^ (turn >> 1)) & 1) as usize,
            turn,
        }
    }

    /// Record that the wave of turn `turn`, of form `form`, ran `lanes` active lanes in
    /// `time`; chooses once [`SAMPLES`] pairs have both times.
    fn record(&self, form: usize, turn: u32, time: Duration, lanes: u32) {
        let per_lane = time.as_nanos() / u128::from(lanes.max(1));
        let per_lane = u64::try_from(per_lane).unwrap_or(u64::MAX).max(1);
        let done = {
            let Ok(mut pairs) = self.pairs.lock() else {
                return;
            };
            let pair = (turn / 2) as usize;
            if pairs.times.len() <= pair {
                pairs.times.resize(pair + 1, [0; 2]);
            }
            let times = &mut pairs.times[pair];
            let was_complete = times.iter().all(|&t| t > 0);
            if let Some(t) = times.get_mut(form) {
                *t = per_lane;
            }
            if !was_complete && times.iter().all(|&t| t > 0) {
                pairs.complete += 1;
            }
            pairs.complete >= SAMPLES
        };
        if done {
            self.decide();
        }
    }

    /// Choose (once): form 1 where the median over the complete pairs of its time over
    /// form 0's is below one, else (a tie, or no complete pair) form 0.
    fn decide(&self) -> usize {
        if let Some(form) = self.chosen() {
            return form;
        }
        let form = match self.pairs.lock() {
            Ok(pairs) => {
                let mut ratios: Vec<f64> = pairs
                    .times
                    .iter()
                    .filter(|p| p[0] > 0 && p[1] > 0)
                    .map(|p| p[1] as f64 / p[0] as f64)
                    .collect();
                ratios.sort_unstable_by(f64::total_cmp);
                match ratios.get(ratios.len() / 2) {
                    Some(&r) if r < 1.0 => 1,
                    _ => 0,
                }
            }
            Err(_) => 0,
        };
        // The first decision stands (another thread may have decided meanwhile).
        match self.chosen.compare_exchange(
            UNDECIDED,
            form as u8,
            Ordering::Relaxed,
            Ordering::Relaxed,
        ) {
            Ok(_) => form,
            Err(earlier) => usize::from(earlier),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs waves through `tuned` until it chooses (or `limit` waves), wave `wave` of
    /// form `k` taking `time(k, wave)` nanoseconds a lane.
    fn run(tuned: &Tuned<&str>, limit: usize, time: impl Fn(usize, usize) -> u64) {
        for wave in 0..limit {
            let pick = tuned.pick();
            if let Pick::Chosen(_) = pick {
                return;
            }
            if pick.timed() {
                let ns = time(pick.form(), wave);
                tuned.report(pick, Duration::from_nanos(ns * 32), 32, || Some("second"));
            }
        }
    }

    #[test]
    fn the_second_form_is_compiled_only_after_the_first_has_run_long_enough() {
        // Compiled in 32 µs: the second is due after 320 µs of waves of 1 µs.
        let tuned = Tuned::<&str>::new(Duration::from_micros(32), 10);
        let mut waves = 0;
        while tuned.second().is_none() {
            let pick = tuned.pick();
            assert_eq!(pick.form(), 0);
            if pick.timed() {
                tuned.report(pick, Duration::from_micros(1), 32, || Some("second"));
            }
            waves += 1;
            assert!(waves < 1000, "never compiled");
        }
        // Sampled one wave in eight: due after about 320 waves.
        assert!((300..=340).contains(&waves), "{waves}");
        assert_eq!(tuned.second(), Some(&"second"));
        assert!(matches!(tuned.pick(), Pick::Timed { .. }));
    }

    #[test]
    fn the_faster_form_is_chosen_and_kept() {
        for (a, b, want) in [(100, 80, 1), (70, 80, 0), (80, 80, 0)] {
            let tuned = Tuned::<&str>::new(Duration::ZERO, 10);
            run(&tuned, 10_000, |k, _| if k == 0 { a } else { b });
            assert_eq!(tuned.chosen(), Some(want), "{a} against {b}");
            assert_eq!(tuned.pick(), Pick::Chosen(want));
            // A late report does not change the choice.
            let late = Pick::Timed {
                form: 1 - want,
                turn: 0,
            };
            tuned.report(late, Duration::from_nanos(1), 32, || None);
            assert_eq!(tuned.pick(), Pick::Chosen(want));
        }
    }

    #[test]
    fn forms_take_turns_and_each_is_timed_enough() {
        let tuner = Tuner::new();
        let mut counts = [0usize; 2];
        for _ in 0..2 * SAMPLES - 1 {
            match tuner.pick() {
                Pick::Timed { form, turn } => {
                    counts[form] += 1;
                    tuner.record(form, turn, Duration::from_micros(1), 32);
                }
                other => panic!("{other:?} after {counts:?}"),
            }
        }
        assert_eq!(tuner.chosen(), None);
        assert_eq!(counts[0].abs_diff(counts[1]), 1, "{counts:?}");
    }

    #[test]
    fn neighbouring_waves_are_compared() {
        // The waves' cost swings tenfold across the image (slowly, as from one wave to
        // the next) and form 1 is 10 % faster than form 0 on the same pixels: taken
        // apart, each form's median depends on where its waves fell.
        for phase in 0..8 {
            let tuned = Tuned::<&str>::new(Duration::ZERO, 10);
            run(&tuned, 10_000, |k, wave| {
                let x = (wave + 7 * phase) as f64 / 9.0;
                let cost = 1000.0 * (5.5 + 4.5 * x.sin());
                (if k == 1 { 0.9 * cost } else { cost }) as u64
            });
            assert_eq!(tuned.chosen(), Some(1), "phase {phase}");
        }
    }

    #[test]
    fn outliers_do_not_decide() {
        // Form 0 is faster but for the waves the system interrupted.
        let tuned = Tuned::<&str>::new(Duration::ZERO, 10);
        run(&tuned, 10_000, |k, wave| match k {
            0 if wave % 8 == 0 => 100_000,
            0 => 50,
            _ => 60,
        });
        assert_eq!(tuned.chosen(), Some(0));
    }

    #[test]
    fn a_second_form_that_does_not_compile_leaves_the_first() {
        let tuned = Tuned::<&str>::new(Duration::ZERO, 10);
        let pick = tuned.pick();
        tuned.report(pick, Duration::from_micros(1), 32, || None);
        assert_eq!(tuned.second(), None);
        assert_eq!(tuned.pick(), Pick::Chosen(0));
    }

    #[test]
    fn untimed_waves_end_the_timing_with_the_first_form() {
        // The waves went to the interpreter: nothing was timed.
        let tuner = Tuner::new();
        let mut last = None;
        for _ in 0..=MAX_TIMED_WAVES {
            last = Some(tuner.pick());
        }
        assert_eq!(last, Some(Pick::Chosen(0)));
        assert_eq!(tuner.chosen(), Some(0));
    }
}
