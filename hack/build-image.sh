#!/bin/sh
# build-image.sh builds SMILE's offline base image, smile-base:latest, without a
# registry: a minimal Debian bookworm from the machine's own apt mirror
# (debootstrap), imported into Docker. The image carries the sha256 of this
# script as the label smile.dev/recipe, so a second run is a no-op until the
# script changes.
#
# Usage: hack/build-image.sh [--force]
#   --force  rebuild even when the image is up to date
# Environment: SMILE_BASE_IMAGE (default smile-base:latest),
#   SMILE_DEBIAN_MIRROR (default: the first Debian mirror in the apt sources),
#   SMILE_DEBIAN_SUITE (default bookworm).
# Needs root (debootstrap) and a running Docker daemon. Progress goes to stderr.
set -eu

IMAGE=${SMILE_BASE_IMAGE:-smile-base:latest}
SUITE=${SMILE_DEBIAN_SUITE:-bookworm}
NAME=build-image
. "$(dirname "$0")/lib/image.sh"
image_args "$@"

script=$(readlink -f "$0")
recipe=$(sha256sum "$script" | cut -d' ' -f1)

image_need_docker
image_lock
image_up_to_date "$recipe"

[ "$(id -u)" = 0 ] || die "debootstrap needs root: run as root (or with sudo)"

if ! command -v debootstrap >/dev/null 2>&1; then
	log "installing debootstrap with apt-get"
	DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap </dev/null >&2
fi

# mirror prints the first Debian archive URL of the machine's apt sources
# (deb822 .sources files first, then the one-line format), so the build uses
# whatever mirror or proxy this machine is allowed to reach.
mirror() {
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk 'tolower($1) == "uris:" { for (i = 2; i <= NF; i++) print $i }' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; break } }' "$f"
	done
}
MIRROR=${SMILE_DEBIAN_MIRROR:-$(mirror | grep -v -e security -e '-updates' | head -n 1)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}

work=$(mktemp -d "${TMPDIR:-/tmp}/smile-base.XXXXXX")
root=$work/root
cleanup() {
	# debootstrap mounts /proc and /sys in the target while it runs; unmount
	# anything left there before deleting, or rm would walk into the host's.
	if [ -r /proc/mounts ]; then
		awk -v dir="$work/" 'index($2, dir) == 1 { print $2 }' /proc/mounts | sort -r |
			while read -r m; do umount -l "$m" 2>/dev/null || true; done
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

started=$(date +%s)
log "building $IMAGE: debootstrap --variant=minbase $SUITE from $MIRROR"
debootstrap --variant=minbase "$SUITE" "$root" "$MIRROR" </dev/null >"$work/debootstrap.log" 2>&1 || {
	tail -n 30 "$work/debootstrap.log" >&2
	die "debootstrap failed (last lines above)"
}

log "trimming apt lists, caches, docs, man pages and locales"
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/* "$root"/var/cache/debconf/*-old \
	"$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* \
	"$root"/usr/share/locale/* "$root"/usr/share/lintian/* \
	"$root"/debootstrap
find "$root/var/log" -type f -delete
# Keep packages installed later inside the image from bringing the docs back.
mkdir -p "$root/etc/dpkg/dpkg.cfg.d"
cat >"$root/etc/dpkg/dpkg.cfg.d/01-smile-nodoc" <<'EOF'
path-exclude=/usr/share/doc/*
path-exclude=/usr/share/man/*
path-exclude=/usr/share/info/*
path-exclude=/usr/share/locale/*
path-include=/usr/share/locale/locale.alias
EOF

# A page's `apt-get install PKG` asks "Do you want to continue? [Y/n]", and
# its reader answers yes; the Student has no terminal to answer on, and apt
# would abort. So apt assumes the reader's yes.
mkdir -p "$root/etc/apt/apt.conf.d"
echo 'APT::Get::Assume-Yes "true";' >"$root/etc/apt/apt.conf.d/90-smile-reader-says-yes"

# A reader's Debian has /usr/share/man/man1; Java's packages (default-jdk,
# openjdk-17-jre-headless) register their man pages there with
# update-alternatives and fail to configure without it.
mkdir -p "$root/usr/share/man/man1"

mkdir -p "$root/workspace/tutorial" "$root/workspace/work" "$root/workspace/logs"

# The reset between attempts (runtime.Reset) runs this before it removes the
# container: processes get SIGTERM and a few seconds to write their files to
# the mounted folders, instead of the SIGKILL of a forced removal.
cat >"$root/usr/local/bin/smile-cleanup" <<'EOF'
#!/bin/sh
# smile-cleanup asks every process in this container to end (SIGTERM) except
# PID 1, itself and, when PID 1 is an init (docker run --init), the command
# that init started: sparing it keeps the container up, so this script's exit
# status reaches SMILE and the others get their full time. It waits up to 5
# seconds for them and exits 0. SMILE runs it before replacing the container
# between attempts; the removal that follows ends the rest.

# Command substitutions would fork subshells that the scan then finds, so
# these helpers set variables instead of printing.

# field sets $value to one field of /proc/PID/status ("" once it is gone).
field() {
	value=
	while read -r key value; do
		[ "$key" = "$2:" ] && return
	done 2>/dev/null <"/proc/$1/status"
	value=
}

main=
field 1 Name
case $value in
docker-init | tini | dumb-init | catatonit)
	for d in /proc/[0-9]*; do
		p=${d#/proc/}
		field "$p" PPid
		[ "$value" = 1 ] || continue
		if [ -z "$main" ] || [ "$p" -lt "$main" ]; then main=$p; fi
	done
	;;
esac

# others sets $pids to the processes this script ends, skipping zombies.
others() {
	pids=
	for d in /proc/[0-9]*; do
		p=${d#/proc/}
		case $p in 1 | "$$" | "$main") continue ;; esac
		field "$p" State
		case $value in "" | Z*) continue ;; esac
		pids="$pids $p"
	done
}

others
[ -z "$pids" ] || kill -TERM $pids 2>/dev/null
n=0
while [ "$n" -lt 50 ]; do
	others
	[ -z "$pids" ] && break
	sleep 0.1
	n=$((n + 1))
done
exit 0
EOF
chmod 0755 "$root/usr/local/bin/smile-cleanup"

old_id=$(docker image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || true)
log "importing into Docker as $IMAGE"
tar -C "$root" --numeric-owner -c . |
	docker import \
		--change 'CMD ["/bin/bash"]' \
		--change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
		--change 'ENV LANG=C.UTF-8' \
		--change 'WORKDIR /workspace/work' \
		--change "LABEL $RECIPE_LABEL=$recipe" \
		--message "hack/build-image.sh $SUITE from $MIRROR" \
		- "$IMAGE" >/dev/null

# The image this one replaces is now untagged; drop it unless a container
# still uses it.
image_replace "$old_id"

size=$(docker image inspect --format '{{.Size}}' "$IMAGE")
log "built $IMAGE in $(($(date +%s) - started)) s, $((size / 1000000)) MB (recipe $recipe)"
