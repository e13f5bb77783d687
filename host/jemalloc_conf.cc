// jemalloc's options for the programs that link it (moonstack_allocator in
// the top-level CMakeLists.txt: `moonstack` and the benchmarks). jemalloc
// reads this symbol when it starts; $MALLOC_CONF still overrides it.
//
// dirty_decay_ms:-1: jemalloc keeps the pages a program frees, to reuse,
// and never gives them back on its own. Its decay (returning them over a
// period from the moment they are freed) returned what a wide operation had
// just freed — one checkpoint's JSON, a template's parse — and the next
// allocation faulted it back in as fresh pages the kernel zeroes: with a
// 1 s decay, a 10,000-security-group create through `serve` took 3,130
// page faults, without it 1,125 (three runs each). What that saves in time
// is smaller than this VM's noise (the kernel's cost of a first touch
// varies from run to run; bench/README.md). `moonstack serve` gives freed
// memory back itself once a second when no operation runs
// (server/freed_memory.h), so under churn and at rest it holds its live
// heap, as the 1 s decay did (bench/serve_churn.py: 47-51 MB over 1,200
// cycles either way). The CLI runs one command and exits.
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
const char* malloc_conf = "dirty_decay_ms:-1,muzzy_decay_ms:0,thp:always,narenas:1";
}
