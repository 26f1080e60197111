#!/usr/bin/env bash
# k8s-pki.sh writes the one-node test cluster's keys with openssl: a CA, the
# apiserver's serving certificate (localhost, 127.0.0.1, the kubernetes
# Service names), an admin client certificate (group system:masters), the
# service-account signing key pair, and an admin kubeconfig.
#
# Usage: hack/k8s-pki.sh DIR API_PORT KUBECONFIG   (called by hack/k8s-up.sh)
set -euo pipefail
dir=$1 port=$2 kubeconfig=$3
mkdir -p "$dir"
cd "$dir"
umask 077

openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 30 \
	-subj /CN=smile-k8s-ca 2>/dev/null

# sign NAME SUBJECT EXTENSIONS: a key and a certificate signed by the CA.
sign() {
	printf '[ext]\n%s\n' "$3" >"$1.cnf"
	openssl req -newkey rsa:2048 -nodes -keyout "$1.key" -out "$1.csr" -subj "$2" 2>/dev/null
	openssl x509 -req -in "$1.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -out "$1.crt" -days 30 \
		-extfile "$1.cnf" -extensions ext 2>/dev/null
	rm -f "$1.csr" "$1.cnf"
}
sign apiserver /CN=kube-apiserver "$(printf '%s\n%s' \
	'subjectAltName=DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,IP:127.0.0.1,IP:10.0.0.1' \
	'extendedKeyUsage=serverAuth')"
sign admin /CN=smile-admin/O=system:masters extendedKeyUsage=clientAuth
openssl genrsa -out sa.key 2048 2>/dev/null
openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null

cat >"$kubeconfig" <<EOT
apiVersion: v1
kind: Config
clusters:
- name: smile-k8s
  cluster: {server: "https://127.0.0.1:$port", certificate-authority: "$dir/ca.crt"}
users:
- name: admin
  user: {client-certificate: "$dir/admin.crt", client-key: "$dir/admin.key"}
contexts:
- name: smile-k8s
  context: {cluster: smile-k8s, user: admin}
current-context: smile-k8s
EOT
