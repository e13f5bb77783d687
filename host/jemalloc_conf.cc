// jemalloc's options for the programs that link it (moonstack_allocator in
// the top-level CMakeLists.txt: `moonstack` and the benchmarks). jemalloc
// reads this symbol when it starts; $MALLOC_CONF still overrides it.
//
// Why: an operation frees most of what it allocated when it ends. By
// default jemalloc keeps freed pages for 10 s and gives them back only when
// a thread allocates again, so under create/delete churn `moonstack serve`
// held several times its live heap, and an idle server kept it. A
// background thread returning freed pages after 100 ms keeps RSS near the
// live heap (bench/serve_churn.py: 1,200 cycles of a 23-resource stack
// peaked at 574 MB before, see bench/README.md); bench_stack's 10,000-
// resource create and delete ran no slower than with 1 s (0 cost ~15%).
extern "C" {
// NOLINTNEXTLINE: jemalloc looks this global up by name.
const char* malloc_conf = "background_thread:true,dirty_decay_ms:100,muzzy_decay_ms:0";
}
