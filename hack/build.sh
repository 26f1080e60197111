#!/usr/bin/env bash
# Builds smile, smile-controller and the static smile-wrapper into bin/.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${BIN_DIR:-bin}
mkdir -p "$out"
version=$(git describe --tags --always --dirty 2>/dev/null || echo dev)
ldflags="-X github.com/smile-loop/smile/cmd/smile/internal/cli.Version=$version"
echo "building smile $version into $out/" >&2
go build -ldflags "$ldflags" -o "$out/smile" ./cmd/smile
go build -ldflags "-X main.version=$version" -o "$out/smile-controller" ./cmd/smile-controller
# The wrapper runs inside containers of any image: static, no cgo.
CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$out/smile-wrapper" ./cmd/smile-wrapper
