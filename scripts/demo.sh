#!/usr/bin/env bash
# Installs what moonstack needs, builds it and runs the main demo: a web
# stack (VPC, subnet, security group, IAM role, instance, wait condition)
# deployed against the simulated cloud in virtual time, its events, the
# world it left, and its deletion.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(scripts/build.sh | tail -n 1)
bin="$dir/host/moonstack"
state=$(mktemp -d)/state.db
export MOONSTACK_STATE="$state"

echo "== moonstack deploy --template-file examples/templates/web-app.yaml --stack-name web ..."
"$bin" deploy --template-file examples/templates/web-app.yaml --stack-name web \
  --capabilities CAPABILITY_IAM --scenario examples/scenarios/signal-when-booted.lua
echo
echo "== moonstack list-stack-resources --stack-name web --output text"
"$bin" list-stack-resources --stack-name web --output text | cut -c1-150
echo
echo "== moonstack world list --kind ec2.instance   (the simulated cloud; state in $state)"
"$bin" world list --kind ec2.instance
echo
echo "== moonstack delete-stack --stack-name web; moonstack list-stacks --output text"
"$bin" delete-stack --stack-name web
"$bin" list-stacks --output text
echo
echo "== moonstack provider test examples/providers/server.lua --providers examples/providers"
"$bin" provider test examples/providers/server.lua --providers examples/providers | tail -n 3
