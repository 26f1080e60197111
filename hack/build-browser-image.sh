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
NAME=build-browser-image
. "$(dirname "$0")/lib/image.sh"
image_args "$@"

cd "$(dirname "$0")/.."
image_need_docker
docker image inspect "$BASE" >/dev/null 2>&1 || die "$BASE not found: build it first with hack/build-image.sh"
image_lock

base_id=$(docker image inspect --format '{{.Id}}' "$BASE")
recipe=$( (cat "$0" hack/lib/image.sh; echo "$base_id") | sha256sum | cut -d' ' -f1)
image_up_to_date "$recipe"

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
image_build_from "$BASE" "$work" --network host
size=$(docker image inspect --format '{{.Size}}' "$IMAGE")
log "built $IMAGE in $(($(date +%s) - started)) s, $((size / 1000000)) MB (recipe $recipe)"
