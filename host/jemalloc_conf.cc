// jemalloc's options for the programs that link it (moonstack_allocator in
// the top-level CMakeLists.txt: `moonstack` and the benchmarks). jemalloc
// reads this symbol when it starts; $MALLOC_CONF still overrides it.
//
// Why: an operation frees most of what it allocated when it ends. By
// default jemalloc keeps freed pages for 10 s and gives them back only when
// a thread allocates again, so under create/delete churn `moonstack serve`
// held several times its live heap, and an idle server kept it. A
// background thread returning freed pages after 1 s keeps RSS near the
// live heap (bench/serve_churn.py: 1,200 cycles of a 23-resource stack
// peaked at 574 MB before, see bench/README.md). Not sooner: each return is
// an madvise that flushes the TLB of every core running a thread of ours,
// and the pages fault back in at the next allocation. At 100 ms that was a
// fifth of the CPU of a 1,000-instance rolling update (kernel time 0.55 s
// of 1.6 s; 0.31 s of 1.25 s at 1 s), and serve_churn's RSS at 300 cycles
// was the same (76 MB at 100 ms, 87 MB at 1 s, within its noise).
//
// thp:always: jemalloc asks for transparent huge pages (madvise, where the
// kernel leaves THP to the program, as Debian's does). A wide operation
// allocates its records, events and calls in fresh memory; in 4 KiB pages
// that was a page fault per page, and on a VM each fault is costly: the
// operation thread of a 10,000-security-group create spent half its start
// in the kernel faulting pages in. With huge pages, 10,000 queues through
// `serve` took 0.80 s instead of 0.95 s (server CPU 0.98 s instead of
// 1.29 s), 10,000 security groups 2.45 s instead of 3.0 s. The price is
// RSS: a peak of 148 MB instead of 112 MB for the 10,000 queues, and 60 MB
// instead of 37 MB at rest under bench/serve_churn.py (level all the same).
//
// narenas:1: one arena for every thread. Our threads hand memory to each
// other (an operation's calls to the workers and their outcomes back, the
// world's changes to the writer, a lent Lua session from one operation to
// the next); with jemalloc's default of an arena per thread (4 per core),
// what a thread frees is reused only by its own arena's threads, the
// others fault in fresh pages, and each arena keeps its own dirty pages.
// Measured on 2 cores (medians of 5-6 interleaved runs, CLI create-stack):
// 10,000 SSM parameters 0.81 -> 0.68 s, CPU 1.06 -> 0.85 s (kernel time,
// mostly page faults, 0.35 -> 0.15 s), peak RSS 145 -> 110 MB; 10,000
// security groups CPU 1.98 -> 1.81 s, RSS 175 -> 152 MB; serve_churn at
// rest 60 -> 37 MB; bench_stack's 8 workers no slower (10,000 resources
// 0.45-0.68 -> 0.37-0.38 s). Each thread keeps its own cache (tcache), so
// the one arena's lock is taken when a cache refills or flushes, not per
// allocation.
extern "C" {
// NOLINTNEXTLINE: jemalloc looks this global up by name.
const char* malloc_conf = "background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0,thp:always,narenas:1";
}
