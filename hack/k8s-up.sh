#!/usr/bin/env bash
# k8s-up.sh stands up SMILE's one-node Kubernetes test cluster from nothing,
# with no registry: Debian packages (containerd, runc, CNI plugins, etcd), the
# kube binaries (hack/k8s-build.sh, cached), a CA and certificates, etcd and
# kube-apiserver and kube-scheduler on loopback, a private containerd (its own
# socket and root, never Docker's) and a kubelet, with the images the tests
# use copied from the Docker engine (smile-base, built by hack/build-image.sh)
# and a sandbox image built here. It prints the admin kubeconfig's path on
# stdout; hack/k8s-down.sh undoes all of it.
#
# Usage: hack/k8s-up.sh
# Environment: K8S_HOME, K8S_VERSION (see hack/k8s-env.sh), SMILE_KUBE_IMAGES
#   (Docker images to copy into the node, default smile-base:latest).
# Needs root. Every listener binds 127.0.0.1. No kube-proxy, no DNS and no
# controller-manager: Pods run, exec and log; Services do not route and
# nothing garbage-collects.
set -euo pipefail
cd "$(dirname "$0")/.."
export K8S_T0=$(date +%s)
. hack/k8s-env.sh

[ "$(id -u)" = 0 ] || { echo "k8s-up: needs root" >&2; exit 1; }

if [ -f "$RUN/kube-apiserver.pid" ] && kill -0 "$(cat "$RUN/kube-apiserver.pid")" 2>/dev/null; then
	k8slog "already up"
	echo "$KUBECONFIG_FILE"
	exit 0
fi
[ ! -e "$RUN" ] || { k8slog "clearing a previous cluster's leftovers"; hack/k8s-down.sh >&2; }

need=()
for p in containerd runc containernetworking-plugins iptables openssl; do
	dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
	k8slog "installing ${need[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq </dev/null >&2
	apt-get install -y -qq --no-install-recommends "${need[@]}" </dev/null >&2
fi
hack/k8s-build.sh >/dev/null
k8slog "binaries ready"

mkdir -p "$RUN" "$LOGS" "$BEFORE"
for s in $SYSCTLS; do sysctl -n "$s" >"$BEFORE/$s"; done
ls /run/netns 2>/dev/null >"$BEFORE/netns" || true

failed() {
	k8slog "bring-up failed; the last lines of each log:"
	for f in "$LOGS"/*.log; do
		[ -f "$f" ] || continue
		echo "== $f" >&2
		tail -n 15 "$f" >&2
	done
	hack/k8s-down.sh >&2 || true
}
trap failed ERR

hack/k8s-pki.sh "$PKI" "$API_PORT" "$KUBECONFIG_FILE"

start etcd etcd --name smile --data-dir "$RUN/etcd" \
	--listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
	--listen-peer-urls "http://127.0.0.1:$((ETCD_PORT + 1))" \
	--initial-advertise-peer-urls "http://127.0.0.1:$((ETCD_PORT + 1))" \
	--initial-cluster "smile=http://127.0.0.1:$((ETCD_PORT + 1))"

# --endpoint-reconciler-type=none: the kubernetes Service's endpoint would be
# the loopback address, which the apiserver refuses. Hostname first: the node
# is named localhost, so exec and logs reach the kubelet over loopback.
start kube-apiserver "$BIN/kube-apiserver" --etcd-servers="http://127.0.0.1:$ETCD_PORT" \
	--bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$API_PORT" \
	--endpoint-reconciler-type=none --service-cluster-ip-range=10.0.0.0/24 \
	--tls-cert-file="$PKI/apiserver.crt" --tls-private-key-file="$PKI/apiserver.key" \
	--client-ca-file="$PKI/ca.crt" --authorization-mode=Node,RBAC \
	--service-account-issuer=https://kubernetes.default.svc --service-account-key-file="$PKI/sa.pub" \
	--service-account-signing-key-file="$PKI/sa.key" \
	--kubelet-preferred-address-types=Hostname \
	--kubelet-client-certificate="$PKI/admin.crt" --kubelet-client-key="$PKI/admin.key"
waitfor "kube-apiserver" 60 kctl get --raw /readyz
k8slog "kube-apiserver ready"

start kube-scheduler "$BIN/kube-scheduler" --kubeconfig="$KUBECONFIG_FILE" \
	--authentication-kubeconfig="$KUBECONFIG_FILE" --authorization-kubeconfig="$KUBECONFIG_FILE" \
	--leader-elect=false --bind-address=127.0.0.1 --secure-port=0

hack/k8s-node.sh
k8slog "containerd and kubelet started"

waitfor "node Ready" 90 kctl wait --for=condition=Ready node/localhost --timeout=1s
# No controller-manager runs: nothing creates the default ServiceAccount
# (Pods are refused without it) or takes the kubelet's registration taint off.
kctl create serviceaccount default >/dev/null 2>&1 || true
kctl taint node localhost node.kubernetes.io/not-ready:NoSchedule- >/dev/null 2>&1 || true
# The kubelet sets vm.overcommit_memory=1, kernel.panic=10 and
# kernel.panic_on_oops=1 once, when it starts: the host gets its own back at
# once (an oops in a test must not reboot it); the kubelet does not look again.
for s in $SYSCTLS; do sysctl -q -w "$s=$(cat "$BEFORE/$s")"; done
trap - ERR
k8slog "cluster up; logs in $LOGS"
echo "$KUBECONFIG_FILE"
