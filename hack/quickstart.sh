#!/usr/bin/env bash
# README command 1: on a fresh machine with a Docker engine (no registry
# needed), build SMILE and its base image, then check examples/quickstart with
# the literal learner in a real container and print where the report is.
set -euo pipefail
cd "$(dirname "$0")/.."

hack/build.sh
hack/build-image.sh

cd examples/quickstart
# Start from a clean slate so the run is a fresh one every time.
rm -rf .smile smile-report.md smile-report.json smile-audit.log
set +e
../../bin/smile apply -f run.yaml --wait --fail-on none
code=$?
set -e
if [ "$code" -ne 0 ]; then
	echo "quickstart: smile apply failed (exit $code)" >&2
	exit "$code"
fi
echo >&2
echo "quickstart: the report is in examples/quickstart/smile-report.md (and .json, smile-audit.log)" >&2
