//! How the process's allocator hands memory back to the kernel.
//!
//! glibc's `malloc` returns the free top of its heap to the kernel once it exceeds a
//! threshold that follows the largest block freed so far, so a process that allocates and
//! frees the same large output buffers draw after draw (`tgsi bench` on chained stages, a
//! long `tgsi run`) gets fresh pages from the kernel every time and faults each one in
//! again: a third of a tessellation chain's time on the bench-stages cases. The command
//! line keeps up to [`TRIM_THRESHOLD`] bytes of freed heap for reuse instead and takes
//! blocks up to [`MMAP_THRESHOLD`] from the heap, as a long-running process would be tuned;
//! the libraries leave the allocator to the program that links them.

/// Freed heap kept for reuse before any is returned to the kernel.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TRIM_THRESHOLD: libc::c_int = 256 << 20;

/// Blocks larger than this get their own mapping (32 MiB: glibc's largest for the setting).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: libc::c_int = 32 << 20;

/// Applies the settings above (glibc only; elsewhere nothing).
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only changes the allocator's parameters; it is called before any
    // other thread exists.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD);
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
    }
}
