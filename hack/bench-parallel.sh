#!/usr/bin/env bash
# bench-parallel.sh measures how long one `smile apply --wait` takes to check
# 1, 4 and 12 small tutorials (the literal provider, the real Docker engine)
# with --parallel 1, 2 and 4, and prints a table of wall times in seconds.
# Each cell is a fresh scratch Git repository: every run starts from nothing.
# Needs Docker and smile-base:latest (hack/build-image.sh); builds SMILE.
#
# Usage: hack/bench-parallel.sh [-n "1 4 12"] [-p "1 2 4"]
set -euo pipefail
cd "$(dirname "$0")/.."
counts="1 4 12"
parallels="1 2 4"
while [ $# -gt 0 ]; do
  case "$1" in
    -n) counts="$2"; shift 2 ;;
    -p) parallels="$2"; shift 2 ;;
    *) echo "usage: $0 [-n \"1 4 12\"] [-p \"1 2 4\"]" >&2; exit 2 ;;
  esac
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
BIN_DIR="$work/bin" bash hack/build.sh >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
smile="$work/bin/smile"

# scratch N: a repository with N tutorials in one folder, one SmileRun each
# (one multi-document run.yaml), each with its own state file and reports.
scratch() {
  local n="$1" dir="$2" i
  mkdir -p "$dir/docs"
  git init -q "$dir"
  : > "$dir/docs/run.yaml"
  for i in $(seq 1 "$n"); do
    cat > "$dir/docs/t$i.md" <<MD
# Tutorial $i

Make a file and count its lines.

\`\`\`bash
printf 'a\nb\n' > file$i.txt
wc -l < file$i.txt
\`\`\`

You should see:

\`\`\`
2
\`\`\`
MD
    [ "$i" -gt 1 ] && echo "---" >> "$dir/docs/run.yaml"
    cat >> "$dir/docs/run.yaml" <<YAML
apiVersion: smile.dev/v1alpha1
kind: SmileRun
metadata: {name: t$i}
spec: {tutorial: t$i.md, llmProvider: literal, maxIterations: 2, timeout: 300, stateFile: .smile/t$i.json, outputDir: .smile/t$i}
YAML
  done
}

printf '%-10s' "tutorials"
for p in $parallels; do printf '%14s' "--parallel $p"; done
printf '\n'
for n in $counts; do
  printf '%-10s' "$n"
  for p in $parallels; do
    dir="$work/n$n-p$p"
    scratch "$n" "$dir"
    start=$(date +%s.%N)
    if ! (cd "$dir" && "$smile" apply -f docs --wait --parallel "$p" >"$dir.out" 2>"$dir.err"); then
      echo >&2; echo "apply failed for $n tutorials, --parallel $p:" >&2; tail -5 "$dir.out" "$dir.err" >&2; exit 1
    fi
    end=$(date +%s.%N)
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%13.1fs", e - s }'
  done
  printf '\n'
done
printf '\n(wall seconds of one apply --wait; %s CPUs, %s; default --parallel here: %s)\n' \
  "$(nproc)" "$(awk '/MemTotal/ {printf "%.1f GiB memory", $2/1048576}' /proc/meminfo)" \
  "$("$smile" apply --help | sed -n 's/.*default from this machine: \([0-9]*\).*/\1/p')"
