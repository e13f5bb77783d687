#!/usr/bin/env bash
# Installs the AWS SDK for JavaScript v3 clients that Lambda's Node.js
# runtimes ship in /var/runtime/node_modules — the ones CDK's Provider
# framework (custom-resources `Provider`: framework.js requires
# @aws-sdk/client-lambda and @aws-sdk/client-sfn) and most functions need —
# from the npm registry into a project-local directory when they are not
# there yet, and prints that node_modules directory.
#
# moonstack puts it on NODE_PATH for nodejs functions (host/lambda/README.md):
# by default <repo>/.node-sdk/node_modules when it exists, or the directory
# $MOONSTACK_NODE_SDK names. Nothing is installed globally and nothing in the
# repository changes (.node-sdk/ is ignored).
#
#   scripts/install_node_sdk.sh                 # -> <repo>/.node-sdk/node_modules
#   MOONSTACK_NODE_SDK_DIR=/tmp/sdk scripts/install_node_sdk.sh
#
# Exits non-zero, with the reason on stderr, when npm is missing or the
# registry cannot be reached (tests/cdk/cdk_provider_test.cc then skips).
set -euo pipefail

AWS_SDK_VERSION=3.1164.0
# client-ssm and credential-providers: AwsCustomResource (tests/cdk/cdk_aws_custom_resource_test.cc)
# calls SSM, and its handler loads credential-providers.
PACKAGES=(@aws-sdk/client-lambda @aws-sdk/client-sfn @aws-sdk/client-ssm @aws-sdk/credential-providers)

root=$(cd "$(dirname "$0")/.." && pwd)
dir=${MOONSTACK_NODE_SDK_DIR:-$root/.node-sdk}

# Tests start at once under `ctest -j` and each may call this script: one
# installs while the others wait on the lock (flock, util-linux), and the
# tree counts as installed only once the stamp written after a whole npm
# install is there (a half-written node_modules already holds package.json
# files, and functions run on it failed in a fresh clone).
mkdir -p "$dir"
exec 9>"$dir/.install.lock"
flock 9
stamp="$dir/.installed-$AWS_SDK_VERSION"

installed() {
  [[ -f $stamp ]] || return 1
  for p in "${PACKAGES[@]}"; do
    node -e "process.exit(require('$dir/node_modules/$p/package.json').version === '$AWS_SDK_VERSION' ? 0 : 1)" \
      2>/dev/null || return 1
  done
}

if ! installed; then
  command -v npm >/dev/null || { echo "install_node_sdk.sh: npm is not installed" >&2; exit 1; }
  mkdir -p "$dir"
  [[ -f $dir/package.json ]] || echo '{"name":"moonstack-node-sdk","private":true}' >"$dir/package.json"
  specs=()
  for p in "${PACKAGES[@]}"; do specs+=("$p@$AWS_SDK_VERSION"); done
  (cd "$dir" && npm install --no-audit --no-fund --save-exact --loglevel=error "${specs[@]}" >&2) ||
    { echo "install_node_sdk.sh: npm could not install ${specs[*]}" >&2; exit 1; }
  touch "$stamp"
  installed || { echo "install_node_sdk.sh: $dir/node_modules does not hold ${specs[*]} after npm install" >&2; exit 1; }
fi
echo "$dir/node_modules"
