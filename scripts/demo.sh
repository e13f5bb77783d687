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
echo
echo "== moonstack provider describe AWS::EC2::Subnet   (each property's \"Update requires\")"
"$bin" provider describe AWS::EC2::Subnet
echo
echo "== moonstack provider test examples/providers/server.lua --providers examples/providers"
"$bin" provider test examples/providers/server.lua --providers examples/providers
echo
state=$(mktemp -d)/state.db
echo "== moonstack world call ec2 ...   (the simulated cloud, out of band; state in $state)"
"$bin" world call ec2 CreateVpc '{"CidrBlock":"10.0.0.0/16"}' --state "$state" >/dev/null
"$bin" world call ec2 RunInstances '{"ImageId":"ami-0123456789abcdef0","MinCount":1,"MaxCount":1}' --state "$state" >/dev/null
"$bin" world list --state "$state"
