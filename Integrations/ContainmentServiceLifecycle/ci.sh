#!/usr/bin/env bash
# CI for the ContainmentServiceLifecycle integration package: points SwiftPM
# at the vendored git bundles (../shared/vendor beside the repository root;
# read-only, the clones go to $TMPDIR or /tmp), checks the format, then runs
# the package's tests — among them a real SIGTERM sent to
# containment-service-demo. Fails on a compiler warning in this package's or
# the core's sources. Runs from a fresh clone; every step has a timeout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
vendor="$root/../shared/vendor"
if [ ! -x "$vendor/use-mirrors" ]; then
  echo "ci.sh: $vendor/use-mirrors not found: ../shared must be beside the repository root" >&2
  exit 1
fi

step() { printf '\n== %s\n' "$*"; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT

step "mirrors: swift-service-lifecycle and swift-log from the vendored bundles"
(cd "$root" && "$vendor/use-mirrors" "$here")

step "format: swift-format lint --strict (the repository's .swift-format)"
(cd "$here" && swift-format lint --strict --recursive --configuration "$root/.swift-format" Package.swift Sources Tests)

step "swift test (ContainmentServiceLifecycle)"
(cd "$here" && timeout 1200 swift test 2>&1) | tee "$log"
if grep -E "^$root/(Integrations/ContainmentServiceLifecycle/)?(Sources|Tests)/.*: warning:" "$log"; then
  echo "compiler warnings in our own code" >&2
  exit 1
fi
