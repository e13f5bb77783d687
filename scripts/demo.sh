#!/usr/bin/env bash
# Installs what moonstack needs, builds it and runs the main demo.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(scripts/build.sh | tail -n 1)
bin="$dir/host/moonstack"
example=examples/templates/web-vpc.yaml

echo "== moonstack validate-template --template-body file://$example"
"$bin" validate-template --template-body "file://$example"
echo
echo "== moonstack graph --template-body file://$example --format mermaid"
"$bin" graph --template-body "file://$example" --format mermaid
