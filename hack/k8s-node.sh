#!/usr/bin/env bash
# k8s-node.sh starts the one-node test cluster's node (called by
# hack/k8s-up.sh once the apiserver answers): a private containerd with the
# CRI plugin (its own socket, root, state and runc root under $RUN, never
# Docker's), a CNI bridge for the Pods, the images copied in from the Docker
# engine, and a kubelet named localhost.
set -euo pipefail
cd "$(dirname "$0")/.."
. hack/k8s-env.sh

mkdir -p "$CTRD" "$RUN/cni" "$RUN/kubelet"
# restrict_oom_score_adj: runc here may not lower oom_score_adj (no
# CAP_SYS_RESOURCE), and the sandbox asks for -998: every Pod would fail.
cat >"$CTRD/config.toml" <<EOT
version = 2
root = "$CTRD/root"
state = "$CTRD/state"
[grpc]
  address = "$SOCK"
[ttrpc]
  address = "$SOCK.ttrpc"
[plugins."io.containerd.internal.v1.opt"]
  path = "$CTRD/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$SANDBOX_IMAGE"
  stream_server_address = "127.0.0.1"
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        Root = "$RUN/runc"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$RUN/cni"
EOT
# No masquerade: the bridge plugin then leaves iptables alone. Pods reach the
# host (the bridge's address) and each other, not the outside.
cat >"$RUN/cni/10-smile.conflist" <<EOT
{"cniVersion": "1.0.0", "name": "smile-k8s", "plugins": [
  {"type": "bridge", "bridge": "$BRIDGE", "isGateway": true, "ipMasq": false,
   "ipam": {"type": "host-local", "dataDir": "$RUN/cni/ipam",
            "ranges": [[{"subnet": "$POD_CIDR"}]], "routes": [{"dst": "0.0.0.0/0"}]}}]}
EOT
start containerd containerd --config "$CTRD/config.toml"
waitfor containerd 30 ctr -a "$SOCK" version

# Images: no registry, so the sandbox image is built here (a static pause
# from hack/k8spause) and everything goes from the Docker engine into the
# node's containerd with docker save | ctr import. Pods use them with
# imagePullPolicy Never.
pause=$(mktemp -d)
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$pause/pause" ./hack/k8spause
pauseref=${SANDBOX_IMAGE#docker.io/library/}
tar -C "$pause" -c pause | docker import --change 'ENTRYPOINT ["/pause"]' - "$pauseref" >/dev/null
rm -rf "$pause"
read -r -a images <<<"${SMILE_KUBE_IMAGES:-smile-base:latest}"
[ -n "${SMILE_KUBE_IMAGES:-}" ] || hack/build-image.sh
# A Pod cannot mount the host's smile-wrapper (too big for a ConfigMap):
# smile-k8s-base is smile-base with the static wrapper where runs mount it.
ctx=$(mktemp -d)
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$ctx/smile-wrapper" ./cmd/smile-wrapper
printf 'FROM smile-base:latest\nCOPY smile-wrapper %s\n' "$WRAPPER_IN_IMAGE" >"$ctx/Dockerfile"
DOCKER_BUILDKIT=0 docker build -q -t "$WRAPPED_IMAGE" "$ctx" >/dev/null
rm -rf "$ctx"
docker save "$pauseref" "$WRAPPED_IMAGE" "${images[@]}" | ctr -a "$SOCK" -n k8s.io images import --snapshotter overlayfs - >/dev/null
docker image rm "$pauseref" "$WRAPPED_IMAGE" >/dev/null
k8slog "images imported: $pauseref $WRAPPED_IMAGE ${images[*]}"

# cgroupfs and failCgroupV1 false: this host has cgroup v1. The kubelet
# binds loopback only and stays out of the host's iptables.
cat >"$RUN/kubelet/config.yaml" <<EOT
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
failCgroupV1: false
cgroupDriver: cgroupfs
containerRuntimeEndpoint: unix://$SOCK
address: 127.0.0.1
port: $KUBELET_PORT
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: $((KUBELET_PORT - 2))
authentication: {anonymous: {enabled: false}, webhook: {enabled: false}, x509: {clientCAFile: "$PKI/ca.crt"}}
authorization: {mode: AlwaysAllow}
failSwapOn: false
makeIPTablesUtilChains: false
evictionHard: {memory.available: "100Mi", nodefs.available: "1%", imagefs.available: "1%", nodefs.inodesFree: "1%"}
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
registerNode: true
resolvConf: /etc/resolv.conf
EOT
start kubelet "$BIN/kubelet" --config="$RUN/kubelet/config.yaml" --kubeconfig="$KUBECONFIG_FILE" \
	--root-dir="$RUN/kubelet/root" --cert-dir="$RUN/kubelet/pki" --hostname-override=localhost
