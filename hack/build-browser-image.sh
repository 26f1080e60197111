#!/bin/sh
# build-browser-image.sh builds smile-browser:latest, the headless browser the
# dashboard's tests drive: smile-base:latest plus Debian's chromium and a
# font, from the machine's apt mirror (the base image's sources). No
# registry: the Dockerfile starts FROM the local smile-base image
# (hack/build-image.sh builds it) and the legacy builder runs it. The image
# carries the sha256 of its inputs as the label smile.dev/recipe, so a second
# run is a no-op until they change.
#
# Usage: hack/build-browser-image.sh [--force]
# Environment: SMILE_BROWSER_IMAGE (default smile-browser:latest),
#   SMILE_BASE_IMAGE (default smile-base:latest).
set -eu

IMAGE=${SMILE_BROWSER_IMAGE:-smile-browser:latest}
BASE=${SMILE_BASE_IMAGE:-smile-base:latest}
RECIPE_LABEL=smile.dev/recipe
LOCK=${TMPDIR:-/tmp}/smile-build-browser-image.lock

log() { printf 'build-browser-image: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

force=0
for arg in "$@"; do
	case $arg in
	--force) force=1 ;;
	-h | --help)
		sed -n '2,12s/^# \{0,1\}//p' "$0" >&2
		exit 0
		;;
	*) die "unknown argument $arg (try --help)" ;;
	esac
done

cd "$(dirname "$0")/.."
command -v docker >/dev/null 2>&1 || die "Docker is required but not available: no docker command"
docker image inspect "$BASE" >/dev/null 2>&1 || die "$BASE not found: build it first with hack/build-image.sh"

# Parallel test packages wait for each other; the second finds it up to date.
if command -v flock >/dev/null 2>&1; then
	exec 9>"$LOCK"
	flock 9
fi

base_id=$(docker image inspect --format '{{.Id}}' "$BASE")
recipe=$( (cat "$0"; echo "$base_id") | sha256sum | cut -d' ' -f1)
current=$(docker image inspect --format "{{ index .Config.Labels \"$RECIPE_LABEL\" }}" "$IMAGE" 2>/dev/null || true)
if [ "$force" = 0 ] && [ "$current" = "$recipe" ]; then
	log "$IMAGE is up to date (recipe $recipe)"
	exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/smile-browser.XXXXXX")
trap 'rm -rf "$work"' EXIT
# chromium runs as an unprivileged user: its sandbox needs no root, and the
# tests pass --no-sandbox anyway (a container has no user namespaces to
# spare). fonts-dejavu-core: screenshots with text in them.
cat >"$work/Dockerfile" <<DOCKERFILE
FROM $BASE
RUN apt-get update -qq \\
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null \\
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /usr/share/doc /usr/share/man \\
 && useradd -m -u 10001 browser
USER browser
WORKDIR /home/browser
LABEL $RECIPE_LABEL=$recipe
DOCKERFILE
started=$(date +%s)
log "building $IMAGE from $BASE with Debian's chromium (legacy builder: no registry needed)"
old_id=$(docker image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || true)
DOCKER_BUILDKIT=0 docker build -q --network host -t "$IMAGE" "$work" >/dev/null
new_id=$(docker image inspect --format '{{.Id}}' "$IMAGE")
if [ -n "$old_id" ] && [ "$old_id" != "$new_id" ]; then
	docker image rm "$old_id" >/dev/null 2>&1 || true
fi
size=$(docker image inspect --format '{{.Size}}' "$IMAGE")
log "built $IMAGE in $(($(date +%s) - started)) s, $((size / 1000000)) MB (recipe $recipe)"
