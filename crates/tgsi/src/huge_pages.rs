//! Huge pages for the few buffers that grow to megabytes: a large shader's instruction
//! list, its printed text, its token words.
//!
//! Writing into fresh memory makes the kernel map it one 4 KiB page at a time, with a fault
//! for each. On a 16 MB shader the instruction list alone is some 65 MB, and those faults
//! (with unmapping the pages again when the shader is dropped) took about a third of the
//! time `parse` spent. Where Linux offers transparent huge pages on request
//! (`/sys/kernel/mm/transparent_hugepage/enabled` set to `madvise`, the usual default, or
//! `always`), [`advise`] marks the unwritten part of such a buffer with
//! `madvise(MADV_HUGEPAGE)` before it is filled, so that it is mapped 2 MiB at a time.
//!
//! It is a hint and nothing else: no byte of the buffer changes, the allocator still owns
//! the memory, and where the hint is not taken (another system, huge pages off, a buffer
//! smaller than one huge page) the buffer works as it always does. At most one partly
//! written huge page per buffer is memory the buffer would not otherwise have touched.
//! Shaders of ordinary size (kilobytes) never reach it. The cost is the system's to set:
//! where `/sys/kernel/mm/transparent_hugepage/defrag` lets the kernel compact memory for
//! advised regions when they are touched (`madvise`, the usual default), a first touch
//! can wait for that. Measured on this project's machine: a single parse of the 16 MB
//! benchmark shader in a fresh process took 37–45 ms over 20 runs (64–81 ms without the
//! advice), once 155 ms right after a process had used and freed some 300 MB.

/// The huge page size of x86-64 and of 4 KiB-page AArch64, and a multiple of every base
/// page size, so a range aligned to it is one `madvise` accepts.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// Asks the kernel to map the spare capacity of `buffer` (the part not yet written) with
/// huge pages: the whole 2 MiB-aligned stretches of it, if any. Call it after reserving the
/// capacity a large result will need and before filling it.
pub(crate) fn advise<T>(buffer: &mut Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        let spare = buffer.spare_capacity_mut();
        let start = spare.as_mut_ptr().cast::<u8>();
        let bytes = std::mem::size_of_val(spare);
        let first = (start as usize).next_multiple_of(HUGE_PAGE) - start as usize;
        let end = (start as usize + bytes) & !(HUGE_PAGE - 1);
        let len = end.saturating_sub(start as usize + first);
        if len > 0 {
            // SAFETY: `start + first .. start + first + len` lies within the spare capacity
            // of `buffer`, memory the allocator has mapped for it and nothing else uses;
            // MADV_HUGEPAGE only changes how the kernel backs it on first touch, never its
            // contents or whether it is mapped. A refusal (huge pages unavailable) leaves
            // the memory as it was, so the result is not needed.
            unsafe {
                libc::madvise(start.add(first).cast(), len, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buffer;
}

#[cfg(test)]
mod tests {
    use super::advise;

    #[test]
    fn a_buffer_advised_holds_what_is_written_to_it() {
        for capacity in [0, 1, 1000, 3 << 20, 9 << 20] {
            let mut words: Vec<u32> = Vec::with_capacity(capacity);
            words.extend(0..17);
            advise(&mut words);
            words.extend(17..capacity as u32);
            assert!(words.iter().enumerate().all(|(i, &w)| w == i as u32));
        }
    }

    /// The flags `/proc/self/smaps` lists for the mapping that holds `address`.
    #[cfg(target_os = "linux")]
    fn mapping_flags(address: usize) -> Option<String> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
        let mut inside = false;
        for line in smaps.lines() {
            let range = line
                .split_whitespace()
                .next()
                .and_then(|r| r.split_once('-'));
            if let Some((start, end)) = range {
                if let (Ok(start), Ok(end)) = (
                    usize::from_str_radix(start, 16),
                    usize::from_str_radix(end, 16),
                ) {
                    inside = (start..end).contains(&address);
                    continue;
                }
            }
            if let Some(flags) = line.strip_prefix("VmFlags:").filter(|_| inside) {
                return Some(flags.trim().to_string());
            }
        }
        None
    }

    /// Whether the kernel offers transparent huge pages (saying so when not, as the tests
    /// that need them are then skipped).
    #[cfg(target_os = "linux")]
    fn kernel_has_huge_pages() -> bool {
        let has = std::path::Path::new("/sys/kernel/mm/transparent_hugepage/enabled").exists();
        if !has {
            eprintln!("skipping: this kernel has no transparent huge pages");
        }
        has
    }

    /// The kernel records the advice as the mapping's `hg` flag (whether or not a huge
    /// page is free at the moment the memory is touched).
    #[cfg(target_os = "linux")]
    #[test]
    fn the_spare_capacity_of_a_large_buffer_is_advised_for_huge_pages() {
        if !kernel_has_huge_pages() {
            return;
        }
        // Larger than glibc ever serves from its heap, so a mapping of its own that no
        // earlier advice can have marked.
        let mut bytes: Vec<u8> = Vec::with_capacity(40 << 20);
        let middle = bytes.as_ptr() as usize + (20 << 20);
        let before = mapping_flags(middle).expect("the buffer's mapping is listed");
        advise(&mut bytes);
        let after = mapping_flags(middle).expect("the buffer's mapping is listed");
        let huge = |flags: &str| flags.split_whitespace().any(|flag| flag == "hg");
        assert!(!huge(&before), "{before}");
        assert!(huge(&after), "{after}");
    }

    /// `parse` reserves a large shader's instruction list at once and advises it.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_large_shader_is_parsed_into_huge_pages() {
        if !kernel_has_huge_pages() {
            return;
        }
        // 250,000 instructions: more than 40 MB of them, a mapping of their own.
        let mut text = String::from("FRAG\nDCL TEMP[0..2]\n");
        for _ in 0..250_000 {
            text.push_str("ADD TEMP[0], TEMP[1], TEMP[2]\n");
        }
        text.push_str("END\n");
        let shader = crate::parse(&text).expect("the text parses");
        let list = &shader.instructions;
        let middle = list.as_ptr() as usize + std::mem::size_of_val(list.as_slice()) / 2;
        let flags = mapping_flags(middle).expect("the list's mapping is listed");
        assert!(flags.split_whitespace().any(|flag| flag == "hg"), "{flags}");
    }
}
