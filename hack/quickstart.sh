#!/usr/bin/env bash
# README command 1: on a fresh machine with a Docker engine (no registry
# needed), build SMILE and its base image, then check examples/quickstart with
# the literal learner in a real container and print where the report is.
set -euo pipefail
cd "$(dirname "$0")/.."

hack/build.sh
hack/build-image.sh

cd examples/quickstart
# Start from a clean slate so the run is a fresh one every time: forget the
# run (its state and reports, in the workspace's .smile/runs/quickstart).
../../bin/smile delete quickstart >/dev/null 2>&1 || true
set +e
../../bin/smile apply -f run.yaml --wait --fail-on none
code=$?
set -e
if [ "$code" -ne 0 ]; then
	echo "quickstart: smile apply failed (exit $code)" >&2
	exit "$code"
fi
echo >&2
echo "quickstart: the report is the one printed above (report: ...), in the run's own folder .smile/runs/quickstart" >&2
