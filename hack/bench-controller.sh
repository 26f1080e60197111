#!/usr/bin/env bash
# bench-controller.sh measures the controller on the real Docker engine and
# prints one table (p50/p95/max):
#   - from saving run.yaml (then tutorial.md) to the new generation's Student
#     container running (docker events), over 20 saves of each;
#   - from kill -9 of the controller to the resumed run's next transition in
#     the state file (smile-controller --dir started again at once), and to
#     the resumed Student container running, over 5 kills.
#
# Usage: hack/bench-controller.sh [-saves N] [-kills N]
set -euo pipefail
cd "$(dirname "$0")/.."

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
BIN_DIR="$bin" hack/build.sh
hack/build-image.sh >&2
go run ./hack/benchcontroller -bin "$bin" "$@"
