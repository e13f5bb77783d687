#!/usr/bin/env bash
# Configures and builds moonstack. Release by default;
# MOONSTACK_SANITIZE=1 builds with ASan+UBSan into build-asan/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
if [ "${MOONSTACK_SANITIZE:-0}" = "1" ]; then
  dir=build-asan
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMOONSTACK_SANITIZE=ON >/dev/null
else
  dir=build
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$dir" -j"$(nproc)"
echo "$dir"
