#!/usr/bin/env bash
# The pre-commit hook's entry (.pre-commit-hooks.yaml). pre-commit runs it
# from its own clone of SMILE; the first run builds SMILE there with
# hack/build.sh, which makes smile-wrapper static (CGO_ENABLED=0) so it runs in
# any image. Needs Go and Docker. Arguments go to `smile hook`.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
bin="$src/bin"
if [ ! -x "$bin/smile" ] || [ ! -x "$bin/smile-wrapper" ] || [ ! -x "$bin/smile-controller" ]; then
	echo "smile: building SMILE for pre-commit (once)" >&2
	(cd "$src" && BIN_DIR="$bin" bash hack/build.sh) >&2
fi
exec "$bin/smile" hook "$@"
