#!/usr/bin/env bash
# bench-checkpoint.sh measures resume from checkpoints (issue 12) on the real
# engine and prints its table, then the quickstart's loop overhead against
# `docker run` of the same commands (hack/bench's row):
#   (a) a 20 s setup step then four gaps: resume checkpoint vs fromStart;
#   (b) the last step edited while the controller runs: save → report, with
#       and without the cache;
#   (c) one checkpoint of a 100 MB work folder, p50/p95, and disk used;
#   (d) the quickstart's loop overhead.
# It needs the base image (hack/build-image.sh) and builds bin/.
#
# Usage: hack/bench-checkpoint.sh [-setup 20] [-n 10] [-parts abc] [-quickstart-runs 3]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3
args=()
while [ $# -gt 0 ]; do
	case "$1" in
	-quickstart-runs) runs="$2"; shift 2 ;;
	*) args+=("$1"); shift ;;
	esac
done
docker image inspect smile-base:latest >/dev/null || { echo "smile-base:latest is missing: run hack/build-image.sh" >&2; exit 1; }
hack/build.sh >&2 </dev/null
go run ./hack/benchcheckpoint -bin bin "${args[@]}" </dev/null
echo
echo "(d) quickstart overhead (hack/bench, $runs runs; target ≤ ×1.5):"
go run ./hack/bench -n "$runs" -loads 1 -containers 1 </dev/null | grep -E '^\| (Measure|---|quickstart|same commands|loop overhead)'
