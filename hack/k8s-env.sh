# shellcheck shell=bash
# k8s-env.sh is sourced by hack/k8s-up.sh and hack/k8s-down.sh: where the
# one-node test cluster keeps its binaries and its state, and its loopback
# ports. Everything the cluster writes is under $RUN, which k8s-down.sh wipes.
K8S_HOME=${K8S_HOME:-$HOME/.cache/smile-k8s}
K8S_VERSION=${K8S_VERSION:-v1.37.2}
BIN=$K8S_HOME/$K8S_VERSION/bin
RUN=$K8S_HOME/run
PKI=$RUN/pki
LOGS=$RUN/log
KUBECONFIG_FILE=$RUN/admin.kubeconfig
CTRD=$RUN/containerd
SOCK=$CTRD/containerd.sock
# The host's state before the cluster came up (sysctls, network namespaces),
# kept beside $RUN so that k8s-down.sh can put it back and check.
BEFORE=$K8S_HOME/host-before
BRIDGE=smilek8s0
POD_CIDR=10.244.0.0/24
API_PORT=${K8S_API_PORT:-16443}
ETCD_PORT=${K8S_ETCD_PORT:-12379}
KUBELET_PORT=${K8S_KUBELET_PORT:-20250}
# Sysctls the kubelet (and the CNI bridge) set; k8s-down.sh restores them.
SYSCTLS="vm.overcommit_memory kernel.panic kernel.panic_on_oops net.ipv4.ip_forward"
# Processes, stopped in this order.
PROCS="kubelet kube-scheduler kube-apiserver etcd containerd"
SANDBOX_IMAGE=docker.io/library/smile-k8s-pause:$K8S_VERSION
# smile-base with smile-wrapper inside, where runs mount it (status/wire's
# ContainerWrapperPath).
WRAPPED_IMAGE=smile-k8s-base:latest
WRAPPER_IN_IMAGE=/opt/smile/bin/smile-wrapper

k8slog() { printf 'k8s: [%ss] %s\n' "$(($(date +%s) - ${K8S_T0:-$(date +%s)}))" "$*" >&2; }
kctl() { "$BIN/kubectl" --kubeconfig "$KUBECONFIG_FILE" "$@"; }

# start NAME CMD...: a daemon in its own session, logging to its own file.
start() {
	local name=$1
	shift
	setsid "$@" </dev/null >"$LOGS/$name.log" 2>&1 &
	echo $! >"$RUN/$name.pid"
}

# waitfor WHAT SECONDS CMD...: until CMD succeeds, or fail.
waitfor() {
	local what=$1 limit=$2 i
	shift 2
	for ((i = 0; i < limit * 5; i++)); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	k8slog "timed out waiting for $what"
	return 1
}
