//! A global allocator that forwards to the system allocator and counts: live heap bytes,
//! their peak, and the number of allocations. Shared by the benches that measure memory
//! (`bounded.rs`, `memory.rs`), each of which installs it as its own global allocator:
//!
//! ```ignore
//! #[path = "counting.rs"]
//! mod counting;
//! #[global_allocator]
//! static ALLOCATOR: counting::Counting = counting::Counting;
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting live bytes, their peak and the allocations made.
#[derive(Debug)]
pub struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

fn grew(size: usize) {
    let live = LIVE.fetch_add(size, Ordering::Relaxed) + size;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

/// Counts a block of `size` bytes handed out (a null pointer is a failure: not counted).
fn counted(ptr: *mut u8, size: usize) -> *mut u8 {
    if !ptr.is_null() {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        grew(size);
    }
    ptr
}

// SAFETY: every call is forwarded to `System` with the caller's layout unchanged; the
// counters are plain atomics and never influence the allocation itself.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is (see the impl).
        counted(unsafe { System.alloc(layout) }, layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is (see the impl).
        counted(unsafe { System.alloc_zeroed(layout) }, layout.size())
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as is (see the impl).
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded as is (see the impl).
        let out = unsafe { System.realloc(ptr, layout, new_size) };
        if !out.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        // A reallocation counts as one allocation: it may move the block.
        counted(out, new_size)
    }
}

/// What one operation did to the heap.
#[derive(Debug, Clone, Copy, Default)]
pub struct Usage {
    /// The highest number of live bytes above those live before it.
    pub peak: usize,
    /// Bytes still live after it, held by what it returned.
    pub retained: usize,
    /// Allocations (and reallocations) made during it.
    pub allocations: usize,
}

/// Runs `operation` and reports its heap use; the result is returned alive, so
/// [`Usage::retained`] is what it holds. The counters are process-wide: run nothing else
/// meanwhile.
pub fn measure<T>(operation: impl FnOnce() -> T) -> (T, Usage) {
    let before = LIVE.load(Ordering::Relaxed);
    let allocations = ALLOCATIONS.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let result = operation();
    let usage = Usage {
        peak: PEAK.load(Ordering::Relaxed).saturating_sub(before),
        retained: LIVE.load(Ordering::Relaxed).saturating_sub(before),
        allocations: ALLOCATIONS.load(Ordering::Relaxed) - allocations,
    };
    (result, usage)
}
