#!/bin/sh
# build-test-image.sh builds smile-fakes:latest, the image the provider tests
# run: smile-base:latest plus the fake agent CLIs (test/fakes/agentcli) as
# /usr/local/bin/claude, codex and gemini. No registry: the Dockerfile starts
# FROM the local smile-base image (hack/build-image.sh builds it) and the
# legacy builder runs it. The image carries the sha256 of its inputs as the
# label smile.dev/recipe, so a second run is a no-op until they change.
#
# Usage: hack/build-test-image.sh [--force]
# Environment: SMILE_FAKES_IMAGE (default smile-fakes:latest),
#   SMILE_BASE_IMAGE (default smile-base:latest).
set -eu

IMAGE=${SMILE_FAKES_IMAGE:-smile-fakes:latest}
BASE=${SMILE_BASE_IMAGE:-smile-base:latest}
RECIPE_LABEL=smile.dev/recipe
LOCK=${TMPDIR:-/tmp}/smile-build-test-image.lock

log() { printf 'build-test-image: %s\n' "$*" >&2; }
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

if command -v flock >/dev/null 2>&1; then
	exec 9>"$LOCK"
	flock 9
fi

base_id=$(docker image inspect --format '{{.Id}}' "$BASE")
recipe=$( (cat "$0" test/fakes/agentcli/*.go go.mod; echo "$base_id") | sha256sum | cut -d' ' -f1)
current=$(docker image inspect --format "{{ index .Config.Labels \"$RECIPE_LABEL\" }}" "$IMAGE" 2>/dev/null || true)
if [ "$force" = 0 ] && [ "$current" = "$recipe" ]; then
	log "$IMAGE is up to date (recipe $recipe)"
	exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/smile-fakes.XXXXXX")
trap 'rm -rf "$work"' EXIT
log "building the fake CLIs"
CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$work/agentcli" ./test/fakes/agentcli
cat >"$work/Dockerfile" <<DOCKERFILE
FROM $BASE
COPY agentcli /usr/local/bin/agentcli
RUN ln -sf agentcli /usr/local/bin/claude && ln -sf agentcli /usr/local/bin/codex && ln -sf agentcli /usr/local/bin/gemini
LABEL $RECIPE_LABEL=$recipe
DOCKERFILE
log "building $IMAGE from $BASE (legacy builder: no registry needed)"
old_id=$(docker image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || true)
DOCKER_BUILDKIT=0 docker build -q -t "$IMAGE" "$work" >/dev/null
new_id=$(docker image inspect --format '{{.Id}}' "$IMAGE")
if [ -n "$old_id" ] && [ "$old_id" != "$new_id" ]; then
	docker image rm "$old_id" >/dev/null 2>&1 || true
fi
log "built $IMAGE (recipe $recipe)"
