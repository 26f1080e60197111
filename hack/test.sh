#!/usr/bin/env bash
# README command 2: install what the tests need, build the base image, and run
# the whole test suite: unit tests and the end-to-end tests on the real
# Docker engine (real containers, the real wrapper, a real browser, the real
# pre-commit). Needs root for apt-get and debootstrap; no registry. The
# browser is Debian's chromium in an image of its own (smile-browser, built
# from smile-base), so the host needs none.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v pre-commit >/dev/null 2>&1 || need+=(pre-commit)
command -v xmllint >/dev/null 2>&1 || need+=(libxml2-utils)
command -v debootstrap >/dev/null 2>&1 || need+=(debootstrap)
if [ ${#need[@]} -gt 0 ]; then
	echo "test: installing ${need[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq </dev/null >&2
	apt-get install -y -qq --no-install-recommends "${need[@]}" </dev/null >&2
fi

hack/build-image.sh
hack/build-browser-image.sh
go vet ./...
test -z "$(gofmt -l .)" || { gofmt -l . >&2; echo "test: gofmt would change the files above" >&2; exit 1; }
go test -count=1 -timeout 30m ./... "$@"
