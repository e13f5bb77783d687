#!/usr/bin/env bash
# Builds the libFuzzer targets (clang) and runs them for N seconds in all
# (default 60), half each: fuzz_template over parse + validate + evaluate,
# seeded with the template corpus; fuzz_query over the Query API's request
# reading (host/server), with a dictionary of its names.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
template_seconds=$(( (seconds + 1) / 2 ))
query_seconds=$(( seconds - template_seconds ))
scripts/install-deps.sh
cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DMOONSTACK_FUZZ=ON -DMOONSTACK_TESTS=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target fuzz_template fuzz_query

run() {  # target seconds corpus-dir [options and seed dirs...]
  local target=$1 budget=$2 work=$3
  shift 3
  mkdir -p "$work"
  echo "== $target: $budget s"
  build-fuzz/fuzz/"$target" -max_total_time="$budget" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    "$work" "$@" 2>&1 | tail -n 15
}

seeds=()
for d in fuzz/seeds ../shared/corpus/good ../shared/corpus/bad; do
  [ -d "$d" ] && seeds+=("$d")
done
run fuzz_template "$template_seconds" build-fuzz/corpus-run -max_len=65536 "${seeds[@]}"
if [ "$query_seconds" -gt 0 ]; then
  run fuzz_query "$query_seconds" build-fuzz/corpus-query -max_len=8192 -dict=fuzz/query.dict
fi
