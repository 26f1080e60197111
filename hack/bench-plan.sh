#!/usr/bin/env bash
# bench-plan.sh measures `smile plan`'s reading (reading.Plan) on pages of
# 10 KB, 50 KB and the 100 KB tutorial limit, made of the corpus fixtures'
# pages end to end, and prints a table: p50/p95 per plan and allocation.
# No Docker needed.
#
# Usage: hack/bench-plan.sh [-n 20]
set -euo pipefail
cd "$(dirname "$0")/.."
exec go run ./hack/benchplan "$@"
