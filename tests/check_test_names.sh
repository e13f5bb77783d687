#!/bin/sh
# ctest's Catch2 discovery splits a test name at ';' (a CMake list separator):
# the cut name matches no Catch2 test, and the test "passes" without running.
# A name starting with '-' is passed to the test binary as its argument and
# read as an option, so that test can never run. This check fails while any
# TEST_CASE name has either.
cd "$(dirname "$0")" || exit 2
bad=$(grep -rn -e 'TEST_CASE("[^"]*;' -e 'TEST_CASE("-' --include='*_test.cc' .)
if [ -n "$bad" ]; then
  echo "TEST_CASE names with ';' or a leading '-' (ctest would never run them):"
  echo "$bad"
  exit 1
fi
echo "no TEST_CASE name holds ';' or starts with '-'"
