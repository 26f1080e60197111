#!/usr/bin/env bash
# Scores a first-contact round (test/firstcontact/roundN; see
# test/firstcontact/README.md). With -labels-only it prints the round's
# recorded figures from its labels (no build, no Docker); otherwise it builds
# SMILE into bin/ with hack/build.sh, runs the literal learner on copies of
# the round's pages kept outside the repository, and scores the gaps it
# reports against the labels. Paths are taken from the repository's top.
#   hack/firstcontact.sh -round test/firstcontact/round5 [-labels-only]
#       [-copies DIR] [-mirrors DIR] [-j N] [-run REGEXP]
set -euo pipefail
cd "$(dirname "$0")/.."
for arg in "$@"; do
	case $arg in
	-labels-only | --labels-only | -labels-only=true | --labels-only=true)
		exec go run ./hack/firstcontact "$@"
		;;
	esac
done
bin=${BIN_DIR:-bin}
BIN_DIR=$bin bash hack/build.sh
exec go run ./hack/firstcontact -bin "$bin" "$@"
