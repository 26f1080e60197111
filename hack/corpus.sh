#!/usr/bin/env bash
# Measures the literal learner against the fixture corpus (test/corpus):
# builds SMILE into bin/ with hack/build.sh, then runs every fixture (or
# those matching -run REGEXP) and prints precision and recall per pattern.
#   hack/corpus.sh [-j N] [-run REGEXP] [-no-expect -root DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN_DIR:-bin}
BIN_DIR=$bin bash hack/build.sh
exec go run ./hack/corpus -bin "$bin" "$@"
