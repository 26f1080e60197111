#!/usr/bin/env bash
# k8s-down.sh takes the one-node test cluster of hack/k8s-up.sh down and
# leaves nothing behind: Pods deleted while the kubelet still runs (so their
# network is torn down properly), the daemons and their container shims
# stopped, every mount under the state folder and every network namespace the
# cluster made removed, the Pod bridge and the kubelet's cgroups deleted, any
# KUBE- iptables chain dropped, the sysctls the kubelet changed put back, and
# the state wiped. It then checks and exits 1 naming whatever is left. The
# built binaries stay in $K8S_HOME for the next k8s-up.sh.
#
# Usage: hack/k8s-down.sh
set -uo pipefail
cd "$(dirname "$0")/.."
K8S_T0=$(date +%s)
. hack/k8s-env.sh

alive() { [ -f "$RUN/$1.pid" ] && kill -0 "$(cat "$RUN/$1.pid")" 2>/dev/null; }

if alive kube-apiserver && alive kubelet; then
	kctl delete pods --all --all-namespaces --grace-period=1 --wait=true --timeout=60s >/dev/null 2>&1 ||
		k8slog "some Pods did not go in 60 s"
fi
if alive containerd; then
	for t in $(ctr -a "$SOCK" -n k8s.io tasks ls -q 2>/dev/null); do
		ctr -a "$SOCK" -n k8s.io tasks kill -s SIGKILL "$t" >/dev/null 2>&1
	done
	sleep 0.5
	for t in $(ctr -a "$SOCK" -n k8s.io tasks ls -q 2>/dev/null); do
		ctr -a "$SOCK" -n k8s.io tasks rm -f "$t" >/dev/null 2>&1
	done
fi

for p in $PROCS; do
	alive "$p" || continue
	pid=$(cat "$RUN/$p.pid")
	kill "$pid" 2>/dev/null
	for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
	kill -9 "$pid" 2>/dev/null
done
# Container shims outlive containerd; ours are the ones given its socket.
# (The pattern's [.] keeps grep from finding its own command line.)
shims() {
	grep -ls -- "${SOCK%.sock}[.]sock" /proc/[0-9]*/cmdline | sed -n 's|^/proc/\([0-9]*\)/cmdline$|\1|p'
}
for pid in $(shims); do kill -9 "$pid" 2>/dev/null; done

# Network namespaces the cluster made (containerd's cni-*), then mounts.
for ns in $(ls /run/netns 2>/dev/null); do
	case $ns in cni-*) ;; *) continue ;; esac
	grep -qxF "$ns" "$BEFORE/netns" 2>/dev/null || ip netns delete "$ns" 2>/dev/null
done
mounts() { awk -v r="$RUN/" 'index($2, r) == 1 { print $2 }' /proc/mounts | sort -r; }
for _ in 1 2 3; do
	for m in $(mounts); do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; done
done
ip link delete "$BRIDGE" 2>/dev/null
for c in /sys/fs/cgroup/*/kubepods /sys/fs/cgroup/kubepods; do
	[ -d "$c" ] && find "$c" -depth -type d -exec rmdir {} \; 2>/dev/null
done
for ipt in iptables ip6tables; do
	for t in filter nat mangle; do
		for c in $($ipt -t "$t" -S 2>/dev/null | awk '$1 == "-N" && $2 ~ /^KUBE-/ { print $2 }'); do
			$ipt -t "$t" -S 2>/dev/null | awk -v c="$c" '$1 == "-A" && $0 ~ "-j " c "( |$)"' |
				while read -r rule; do
					# shellcheck disable=SC2086 # a rule is its words
					$ipt -t "$t" ${rule/-A/-D}
				done
			$ipt -t "$t" -F "$c"
			$ipt -t "$t" -X "$c"
		done
	done
done
for s in $SYSCTLS; do
	[ -f "$BEFORE/$s" ] && sysctl -q -w "$s=$(cat "$BEFORE/$s")"
done
[ -z "$(mounts)" ] && rm -rf "$RUN"

# The check: what is still here is named, and the exit status says so.
left=()
[ -z "$(shims)" ] || left+=("container shims: $(shims | tr '\n' ' ')")
[ -z "$(mounts)" ] || left+=("mounts under $RUN")
[ ! -e "$RUN" ] || left+=("state folder $RUN")
! ip link show "$BRIDGE" >/dev/null 2>&1 || left+=("bridge $BRIDGE")
ls -d /sys/fs/cgroup/*/kubepods >/dev/null 2>&1 && left+=("kubepods cgroups")
iptables-save 2>/dev/null | grep -q '^:KUBE-' && left+=("KUBE- iptables chains")
for s in $SYSCTLS; do
	[ ! -f "$BEFORE/$s" ] || [ "$(sysctl -n "$s")" = "$(cat "$BEFORE/$s")" ] || left+=("sysctl $s")
done
for ns in $(ls /run/netns 2>/dev/null); do
	case $ns in cni-*) grep -qxF "$ns" "$BEFORE/netns" 2>/dev/null || left+=("netns $ns") ;; esac
done
if [ ${#left[@]} -gt 0 ]; then
	printf 'k8s-down: left behind: %s\n' "${left[@]}" >&2
	exit 1
fi
rm -rf "$BEFORE"
k8slog "cluster down, nothing left behind"
