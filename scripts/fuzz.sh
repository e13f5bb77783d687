#!/usr/bin/env bash
# Builds the libFuzzer target (clang) and runs it for N seconds (default 60)
# over parse + validate + evaluate, seeded with the template corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
scripts/install-deps.sh
cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DMOONSTACK_FUZZ=ON -DMOONSTACK_TESTS=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target fuzz_template
work=build-fuzz/corpus-run
mkdir -p "$work"
seeds=()
for d in fuzz/seeds ../shared/corpus/good ../shared/corpus/bad; do
  [ -d "$d" ] && seeds+=("$d")
done
build-fuzz/fuzz/fuzz_template -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 \
  -timeout=10 -print_final_stats=1 "$work" "${seeds[@]}" 2>&1 | tail -n 15
