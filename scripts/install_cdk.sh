#!/usr/bin/env bash
# Installs the AWS CDK CLI (the `aws-cdk` package, pinned as in
# scripts/cdk_synth.sh) from the npm registry into a project-local directory
# when it is not there yet, and prints the path of its `cdk` executable.
# Nothing is installed globally and nothing in the repository changes
# (.cdk/ is ignored).
#
#   scripts/install_cdk.sh                 # -> <repo>/.cdk/node_modules/.bin/cdk
#   MOONSTACK_CDK_DIR=/tmp/cdk scripts/install_cdk.sh
#
# Exits non-zero, with the reason on stderr, when npm is missing or the
# registry cannot be reached (tests/cdk/cdk_deploy_test.cc then skips).
set -euo pipefail

AWS_CDK_CLI_VERSION=2.1148.1

root=$(cd "$(dirname "$0")/.." && pwd)
dir=${MOONSTACK_CDK_DIR:-$root/.cdk}
cdk="$dir/node_modules/.bin/cdk"

installed() {
  [[ -x $cdk ]] &&
    node -e "process.exit(require('$dir/node_modules/aws-cdk/package.json').version === '$AWS_CDK_CLI_VERSION' ? 0 : 1)" \
      2>/dev/null
}

if ! installed; then
  command -v npm >/dev/null || { echo "install_cdk.sh: npm is not installed" >&2; exit 1; }
  mkdir -p "$dir"
  [[ -f $dir/package.json ]] || echo '{"name":"moonstack-cdk-cli","private":true}' >"$dir/package.json"
  (cd "$dir" && npm install --no-audit --no-fund --save-exact --loglevel=error "aws-cdk@$AWS_CDK_CLI_VERSION" >&2) ||
    { echo "install_cdk.sh: npm could not install aws-cdk@$AWS_CDK_CLI_VERSION" >&2; exit 1; }
  installed || { echo "install_cdk.sh: $cdk is not aws-cdk $AWS_CDK_CLI_VERSION after npm install" >&2; exit 1; }
fi
echo "$cdk"
