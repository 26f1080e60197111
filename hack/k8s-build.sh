#!/usr/bin/env bash
# k8s-build.sh builds the Kubernetes binaries SMILE's one-node test cluster
# needs (kube-apiserver, kube-scheduler, kubelet, kubectl) from
# k8s.io/kubernetes through the Go module proxy, there being no other source
# of them here. etcd comes from Debian (etcd-server). The binaries land in
# $K8S_HOME/<version>/bin and are reused while they are there: a second run
# is a no-op. It also lays out $K8S_HOME/<version>/assets, the folder envtest's
# KUBEBUILDER_ASSETS names (etcd, kube-apiserver, kubectl).
#
# Usage: hack/k8s-build.sh          prints the bin folder on stdout
# Environment: K8S_HOME (default $HOME/.cache/smile-k8s), K8S_VERSION
#   (default v1.37.2). Progress goes to stderr. The build is polite on a
#   shared machine: nice 19 and one package at a time (go build -p 1); cold,
#   it takes about 8 minutes on 2 cores.
set -euo pipefail

K8S_HOME=${K8S_HOME:-$HOME/.cache/smile-k8s}
KV=${K8S_VERSION:-v1.37.2}
TOP=$K8S_HOME/$KV
BIN=$TOP/bin
CMDS=(kube-apiserver kube-scheduler kubelet kubectl)

log() { printf 'k8s-build: %s\n' "$*" >&2; }

missing=()
for c in "${CMDS[@]}"; do [ -x "$BIN/$c" ] || missing+=("$c"); done

if ! command -v etcd >/dev/null 2>&1; then
	log "installing etcd-server with apt-get"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq </dev/null >&2
	apt-get install -y -qq --no-install-recommends etcd-server </dev/null >&2
fi

if [ ${#missing[@]} -gt 0 ]; then
	started=$(date +%s)
	src=$TOP/src
	mkdir -p "$src" "$BIN"
	# k8s.io/kubernetes replaces its staging modules (k8s.io/api, client-go,
	# ...) with folders inside its own repository, which a module download
	# does not have: a throwaway module requires it and points each of those
	# at the published module of the matching version (v1.37.2 -> v0.37.2).
	gomod=$(cd "$src" && GOFLAGS=-mod=mod go mod download -json "k8s.io/kubernetes@$KV" |
		sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')
	[ -f "$gomod" ] || { log "error: no go.mod for k8s.io/kubernetes@$KV"; exit 1; }
	staging=$(awk '/=> \.\/staging\/src\// { print $1 }' "$gomod")
	{
		printf 'module smilek8sbuild\n\ngo 1.26.0\n\nrequire k8s.io/kubernetes %s\n\nreplace (\n' "$KV"
		for m in $staging; do printf '\t%s => %s v0.%s\n' "$m" "$m" "${KV#v1.}"; done
		printf ')\n'
	} >"$src/go.mod"
	{
		printf '//go:build tools\n\npackage tools\n\nimport (\n'
		for c in "${CMDS[@]}"; do printf '\t_ "k8s.io/kubernetes/cmd/%s"\n' "$c"; done
		printf ')\n'
	} >"$src/tools.go"
	log "resolving the modules of k8s.io/kubernetes@$KV"
	(cd "$src" && GOFLAGS=-mod=mod nice -n 19 go mod tidy -e >"$TOP/tidy.log" 2>&1) ||
		{ tail -n 20 "$TOP/tidy.log" >&2; exit 1; }
	minor=${KV#v1.}
	minor=${minor%%.*}
	ld="-s -w"
	for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
		ld="$ld -X $p.gitVersion=$KV -X $p.gitMajor=1 -X $p.gitMinor=$minor -X $p.gitTreeState=clean"
	done
	pkgs=()
	for c in "${missing[@]}"; do pkgs+=("k8s.io/kubernetes/cmd/$c"); done
	log "building ${missing[*]} (nice, go build -p 1; about 8 minutes cold)"
	(cd "$src" && CGO_ENABLED=0 nice -n 19 go build -p 1 -trimpath -ldflags "$ld" -o "$BIN/" "${pkgs[@]}")
	log "built ${missing[*]} in $(($(date +%s) - started)) s"
else
	log "binaries present in $BIN"
fi

assets=$TOP/assets
mkdir -p "$assets"
ln -sfn "$(command -v etcd)" "$assets/etcd"
ln -sfn "$BIN/kube-apiserver" "$assets/kube-apiserver"
ln -sfn "$BIN/kubectl" "$assets/kubectl"
echo "$BIN"
