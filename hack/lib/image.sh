# hack/lib/image.sh: what SMILE's image scripts share (build-image.sh,
# build-test-image.sh, build-browser-image.sh). Each image carries the
# sha256 of its inputs as the label smile.dev/recipe, so a second run is a
# no-op until they change; builds from parallel test packages wait for each
# other on a lock, and the second then finds the image up to date.
#
# Source it after setting NAME (the script's name in its log lines) and
# IMAGE; then:
#   image_args "$@"          --force, -h/--help (the script's header), or die
#   image_need_docker        the docker command and a reachable daemon
#   image_lock               wait for any other build of the same script
#   image_up_to_date RECIPE  exit 0 when IMAGE already carries RECIPE
#   image_replace OLD_ID     remove the image IMAGE replaced, if any
#   image_build_from BASE DIR [docker build flags]: IMAGE from DIR's
#                            Dockerfile with the legacy builder (no registry)

RECIPE_LABEL=smile.dev/recipe

log() { printf '%s: %s\n' "$NAME" "$*" >&2; }
die() { log "error: $*"; exit 1; }

force=0

image_args() {
	for arg in "$@"; do
		case $arg in
		--force) force=1 ;;
		-h | --help)
			awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
			exit 0
			;;
		*) die "unknown argument $arg (try --help)" ;;
		esac
	done
}

image_need_docker() {
	command -v docker >/dev/null 2>&1 || die "Docker is required but not available: no docker command"
	docker version --format '{{.Server.Version}}' >/dev/null 2>&1 ||
		die "Docker is required but not available: cannot reach the daemon (docker version fails)"
}

image_lock() {
	if command -v flock >/dev/null 2>&1; then
		exec 9>"${TMPDIR:-/tmp}/smile-$NAME.lock"
		flock 9
	fi
}

image_up_to_date() {
	current=$(docker image inspect --format "{{ index .Config.Labels \"$RECIPE_LABEL\" }}" "$IMAGE" 2>/dev/null || true)
	if [ "$force" = 0 ] && [ "$current" = "$1" ]; then
		log "$IMAGE is up to date (recipe $1)"
		exit 0
	fi
}

image_replace() {
	new_id=$(docker image inspect --format '{{.Id}}' "$IMAGE")
	if [ -n "$1" ] && [ "$1" != "$new_id" ]; then
		docker image rm "$1" >/dev/null 2>&1 || true
	fi
}

image_build_from() {
	base=$1 dir=$2
	shift 2
	docker image inspect "$base" >/dev/null 2>&1 || die "$base not found: build it first with hack/build-image.sh"
	old_id=$(docker image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || true)
	DOCKER_BUILDKIT=0 docker build -q "$@" -t "$IMAGE" "$dir" >/dev/null
	image_replace "$old_id"
}
