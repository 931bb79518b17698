//! The workers of a multi-threaded run: the calling thread and as many more as the run
//! asks, sharing the work through whatever the job takes its next piece from (rows of
//! waves, workgroups). The caller works too rather than waiting, so a run on `n` threads
//! starts only `n − 1`.

use crate::machine::ExecError;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Run `work` on `threads` threads (at least the calling one) until each returns; the first
/// error in thread order, a panic being one.
pub(crate) fn run(
    threads: usize,
    work: impl Fn() -> Result<(), ExecError> + Sync,
) -> Result<(), ExecError> {
    let panicked = || ExecError::Setup("worker panicked".into());
    std::thread::scope(|scope| {
        let others: Vec<_> = (1..threads).map(|_| scope.spawn(&work)).collect();
        let mine = catch_unwind(AssertUnwindSafe(&work)).unwrap_or_else(|_| Err(panicked()));
        others.into_iter().fold(mine, |first, other| {
            let result = other.join().unwrap_or_else(|_| Err(panicked()));
            first.and(result)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

    /// Every thread works, the calling one among them; an error or a panic on any thread
    /// is the run's error once all have finished.
    #[test]
    fn every_thread_works_and_any_failure_is_the_runs() {
        let caller = std::thread::current().id();
        let (runs, on_caller) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let ok = run(4, || {
            runs.fetch_add(1, Relaxed);
            if std::thread::current().id() == caller {
                on_caller.fetch_add(1, Relaxed);
            }
            Ok(())
        });
        assert!(ok.is_ok());
        assert_eq!((runs.load(Relaxed), on_caller.load(Relaxed)), (4, 1));
        let turn = AtomicUsize::new(0);
        let failed = run(3, || match turn.fetch_add(1, Relaxed) {
            1 => Err(ExecError::Setup("second".into())),
            _ => Ok(()),
        });
        assert!(matches!(failed, Err(ExecError::Setup(m)) if m == "second"));
        let finished = AtomicUsize::new(0);
        let panicked = run(3, || {
            if std::thread::current().id() == caller {
                panic!("a bug");
            }
            finished.fetch_add(1, Relaxed);
            Ok(())
        });
        assert!(matches!(panicked, Err(ExecError::Setup(m)) if m == "worker panicked"));
        assert_eq!(finished.load(Relaxed), 2);
    }
}
