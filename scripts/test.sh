#!/usr/bin/env bash
# Installs what moonstack needs, builds it and runs the whole test suite:
# a short run of the template fuzzer, then the Catch2 tests through ctest
# (last, so its summary closes the output).
# MOONSTACK_SANITIZE=1 runs the suite under ASan+UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(scripts/build.sh | tail -n 1)
scripts/fuzz.sh "${MOONSTACK_FUZZ_SECONDS:-20}"
ctest --test-dir "$dir" --output-on-failure -j"$(nproc)"
