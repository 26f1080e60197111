#!/usr/bin/env bash
# bench.sh measures what the issue's note reports and prints one Markdown
# table, each measure with its p50, p95 and mean ± sd and the seed's limit
# beside it: config load, 100 KB tutorial load with images, container
# create+start and reset on the real engine, and one literal run of the
# quickstart against `docker run` of the same commands (the loop's overhead).
# It builds bin/ and the base image first (both cached). The table goes to
# stdout, progress to stderr; it reads no stdin and leaves no containers.
#
# Usage: hack/bench.sh [-n 5] [-loads 200] [-containers 10]
set -euo pipefail
cd "$(dirname "$0")/.."
hack/build.sh >&2 </dev/null
hack/build-image.sh >&2 </dev/null
exec go run ./hack/bench "$@" </dev/null
