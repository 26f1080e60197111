#!/usr/bin/env bash
# bench-events.sh measures what observers of a running loop get (NFR-001,
# NFR-002, NFR-004, SC-010) and prints two tables: WebSocket event delivery
# latency (p50/p99, from a transition's save to its receipt) with 1, 10 and
# 100 clients on /ws, and GET /api/status throughput and latency while the
# loop runs. It uses a real controller on the in-memory fake runtime: no
# Docker needed.
#
# Usage: hack/bench-events.sh [-cycles N] [-clients 1,10,100] [-concurrency 1,8,32]
set -euo pipefail
cd "$(dirname "$0")/.."
exec go run ./hack/benchevents "$@"
