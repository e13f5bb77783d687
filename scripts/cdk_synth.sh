#!/usr/bin/env bash
# Regenerates the CDK fixtures: synthesizes every app under examples/cdk/
# twice (-c version=1 and -c version=2; provider-framework three times) into
# tests/cdk/fixtures/<app>/v1|v2|v3 (nested-stacks: also its asset manifest), and the bootstrap template (`cdk bootstrap --show-template`) into
# tests/cdk/fixtures/bootstrap/bootstrap.yaml.
#
# Needs node and npm and, the first time, the npm registry: aws-cdk-lib and
# the aws-cdk CLI are installed (pinned below) into a cache directory, never
# into the repository. The test suite itself only reads the committed
# fixtures and never needs any of this.
#
#   scripts/cdk_synth.sh            # every app
#   scripts/cdk_synth.sh vpc-sg     # one app
#   CDK_CACHE=/tmp/cdk scripts/cdk_synth.sh
set -euo pipefail

AWS_CDK_LIB_VERSION=2.276.0
AWS_CDK_CLI_VERSION=2.1148.1
CONSTRUCTS_VERSION=10.8.1

root=$(cd "$(dirname "$0")/.." && pwd)
cache=${CDK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/moonstack-cdk}
mkdir -p "$cache"
if [[ ! -f "$cache/package.json" ]]; then
  echo '{"name":"moonstack-cdk-cache","private":true}' >"$cache/package.json"
fi
have() { node -e "process.exit(require('$cache/node_modules/$1/package.json').version === '$2' ? 0 : 1)" 2>/dev/null; }
if ! have aws-cdk-lib "$AWS_CDK_LIB_VERSION" || ! have aws-cdk "$AWS_CDK_CLI_VERSION" ||
   ! have constructs "$CONSTRUCTS_VERSION"; then
  (cd "$cache" && npm install --no-audit --no-fund --save-exact \
    "aws-cdk-lib@$AWS_CDK_LIB_VERSION" "aws-cdk@$AWS_CDK_CLI_VERSION" "constructs@$CONSTRUCTS_VERSION")
fi
cdk="$cache/node_modules/.bin/cdk"
export NODE_PATH="$cache/node_modules"   # the apps' require('aws-cdk-lib')
export CDK_DISABLE_VERSION_CHECK=1

fixtures="$root/tests/cdk/fixtures"
apps=("$@")
if [[ ${#apps[@]} -eq 0 ]]; then
  for d in "$root"/examples/cdk/*/; do apps+=("$(basename "$d")"); done
fi

for app in "${apps[@]}"; do
  src="$root/examples/cdk/$app"
  versions=(1 2)
  [[ $app == provider-framework || $app == provider-waiter ]] && versions=(1 2 3)  # v3: an update that fails
  for v in "${versions[@]}"; do
    out=$(mktemp -d)
    (cd "$src" && "$cdk" synth --quiet --no-notices -c "version=$v" -o "$out" >/dev/null)
    dest="$fixtures/$app/v$v"
    rm -rf "$dest"
    mkdir -p "$dest"
    # Only the templates: assets and manifests are not what moonstack reads.
    cp "$out"/*.template.json "$dest/"
    # A NestedStack app's nested templates are file assets
    # (*.nested.template.json): its asset manifest says under which key of
    # the bootstrap bucket each goes, the object its TemplateURL names
    # (tests/cdk/cdk_nested_stack_test.cc uploads them there).
    [[ $app == nested-stacks ]] && cp "$out"/*.assets.json "$dest/"
    if [[ $app == bucket-policy || $app == provider-framework || $app == provider-waiter || $app == aws-custom-resource ]]; then
      # The whole cloud assembly too, for `cdk deploy --app <dir>` in
      # tests/cdk/cdk_deploy_test.cc (no synthesis there, so no aws-cdk-lib)
      # and the file assets tests/cdk/cdk_provider_test.cc publishes,
      # without the tree and feature-flag report the CLI does not need.
      assembly="$fixtures/assembly/$app/v$v"
      rm -rf "$assembly"
      mkdir -p "$assembly"
      cp "$out"/manifest.json "$out"/cdk.out "$out"/*.assets.json "$out"/*.template.json "$assembly/"
      for a in "$out"/asset.*; do [[ -e $a ]] && cp -r "$a" "$assembly/"; done
      node -e '
        const fs = require("fs"), f = process.argv[1], m = JSON.parse(fs.readFileSync(f));
        for (const [k, a] of Object.entries(m.artifacts)) {
          if (a.type !== "aws:cloudformation:stack" && a.type !== "cdk:asset-manifest") delete m.artifacts[k];
          else delete a.additionalMetadataFile;
        }
        fs.writeFileSync(f, JSON.stringify(m, null, 1) + "\n");' "$assembly/manifest.json"
    fi
    rm -rf "$out"
    echo "$app v$v: $(cd "$dest" && ls | tr '\n' ' ')"
  done
done

if [[ $# -eq 0 ]]; then
  mkdir -p "$fixtures/bootstrap"
  (cd "$root/examples/cdk/vpc-sg" && "$cdk" bootstrap --show-template --no-notices) >"$fixtures/bootstrap/bootstrap.yaml"
  echo "bootstrap: bootstrap.yaml"
fi
