#!/usr/bin/env bash
# Installs the Debian packages moonstack builds and tests with. Idempotent:
# packages already present are skipped, and apt is not touched at all when
# nothing is missing.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config
  clang                      # libFuzzer target and sanitizer builds
  libluajit-5.1-dev          # Lua provider runtime
  luajit                     # the interpreter: runs the lua-sdk tests
  nlohmann-json3-dev         # JSON <-> Lua, CLI output
  libspdlog-dev              # logging
  catch2                     # tests (v2: catch2/catch.hpp)
  libyaml-cpp-dev            # YAML templates
  libcli11-dev               # CLI
  libcpp-httplib-dev         # Query API server
  libsqlite3-dev             # store
  libjemalloc-dev            # the programs' allocator
  jq                         # README.md's nested-stacks example (its upload loop), run by a test
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
