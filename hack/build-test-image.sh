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
NAME=build-test-image
. "$(dirname "$0")/lib/image.sh"
image_args "$@"

cd "$(dirname "$0")/.."
image_need_docker
docker image inspect "$BASE" >/dev/null 2>&1 || die "$BASE not found: build it first with hack/build-image.sh"
image_lock

base_id=$(docker image inspect --format '{{.Id}}' "$BASE")
recipe=$( (cat "$0" hack/lib/image.sh test/fakes/agentcli/*.go go.mod; echo "$base_id") | sha256sum | cut -d' ' -f1)
image_up_to_date "$recipe"

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
image_build_from "$BASE" "$work"
log "built $IMAGE (recipe $recipe)"
