#!/usr/bin/env bash
# Installs what moonstack needs, builds it and runs the whole test suite:
# the Catch2 tests through ctest, then a short run of the template fuzzer.
# MOONSTACK_SANITIZE=1 runs the suite under ASan+UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(scripts/build.sh | tail -n 1)
ctest --test-dir "$dir" --output-on-failure -j"$(nproc)"
scripts/fuzz.sh "${MOONSTACK_FUZZ_SECONDS:-20}"
