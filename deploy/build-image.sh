#!/usr/bin/env bash
# Builds and runs the project's image without Docker and without a registry: what the
# Dockerfile makes, proven on a machine that has neither.
#   1. installs Debian's buildah, podman, runc and debootstrap if they are missing;
#   2. makes a bookworm root filesystem with debootstrap (--variant=minbase) and imports it
#      as the local base image, tagged as the Dockerfile's `debian:bookworm-slim` so that
#      `FROM debian:bookworm-slim` resolves here without a pull (trimmed the way the slim
#      image is: no downloaded packages, package lists, documentation, man pages or locales);
#   3. puts the host's release binary (stripped, as the build stage strips it) in a folder,
#      at the path the Dockerfile's build stage leaves it (src/target/release/crease);
#   4. builds the Dockerfile, unchanged, with buildah: `--build-context build=<that folder>`
#      stands in for the Rust build stage (which is skipped: no Rust image, no registry), so
#      the runtime stage's `COPY --from=build` takes the host's binary; in Docker format, so
#      the HEALTHCHECK is kept (OCI images have none);
#   5. runs the image with podman, waits for /readyz, runs the image's HEALTHCHECK
#      (`crease health`) and prints the image's size and each step's time.
# Where this sandbox refuses a step, the script stops there with the command and its error.
# Not in .ci/run: the root filesystem alone takes minutes.
#
# usage: deploy/build-image.sh     (after `cargo build --release --bin crease`)
# env: BIN (default target/release/crease), IMAGE (localhost/crease:local), PORT (18380),
#      MIRROR (http://deb.debian.org/debian), STORAGE_DRIVER (vfs: overlay is rarely
#      available inside a container), ISOLATION (chroot: no user namespace needed),
#      RUNTIME (runc), CGROUP_MANAGER (cgroupfs): see step 5.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-${CARGO_TARGET_DIR:-target}/release/crease}
IMAGE=${IMAGE:-localhost/crease:local}
PORT=${PORT:-18380}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
export STORAGE_DRIVER=${STORAGE_DRIVER:-vfs}
export BUILDAH_ISOLATION=${ISOLATION:-chroot}
RUNTIME=${RUNTIME:-runc}
CGROUP_MANAGER=${CGROUP_MANAGER:-cgroupfs}
BASE=docker.io/library/debian:bookworm-slim
CONTAINER=crease-image-check
[ -x "$BIN" ] || { echo "no $BIN: build it first (cargo build --release --bin crease)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "needs root (debootstrap, buildah and podman without a user namespace)" >&2; exit 2; }

work=$(mktemp -d /var/tmp/crease-image.XXXXXX)
# The sandbox this was written in mounts cgroup v1 controllers beside a v2 hierarchy, which
# crun (podman's default runtime) refuses ("cgroups in hybrid mode not supported"); runc
# accepts it. There is no systemd, so cgroups are managed by podman itself (cgroupfs).
pod() { podman --runtime "$RUNTIME" --cgroup-manager "$CGROUP_MANAGER" "$@"; }
cleanup() {
  pod rm -f "$CONTAINER" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

started=$SECONDS
step_started=$SECONDS
step() { echo "==> $*"; step_started=$SECONDS; }
took() { echo "    $(($SECONDS - step_started)) s"; }
# Runs a command; on failure prints which step of the sandbox refused what, and stops.
run() {
  if ! "$@" >"$work/out" 2>&1; then
    echo "REFUSED: $*" >&2
    tail -n 15 "$work/out" >&2
    exit 1
  fi
}

step "1. buildah, podman, runc, debootstrap"
missing=()
for tool in buildah podman runc debootstrap; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
  apt-cache show "${missing[@]}" >/dev/null 2>&1 || apt-get update -qq
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "    $(buildah --version), $(podman --version), debootstrap $(dpkg-query -W -f '${Version}' debootstrap); storage $STORAGE_DRIVER, isolation $BUILDAH_ISOLATION"
took

step "2. bookworm root filesystem (debootstrap --variant=minbase) imported as $BASE"
run debootstrap --variant=minbase bookworm "$work/rootfs" "$MIRROR"
before=$(du -sh "$work/rootfs" | cut -f1)
rm -rf "$work"/rootfs/var/cache/apt/archives/*.deb "$work"/rootfs/var/lib/apt/lists/* \
  "$work"/rootfs/usr/share/doc/* "$work"/rootfs/usr/share/man/* "$work"/rootfs/usr/share/info/* \
  "$work"/rootfs/usr/share/locale/*
echo "    root filesystem: $before, $(du -sh "$work/rootfs" | cut -f1) trimmed"
# The slim image's apt settings (debuerreotype's docker-clean and friends): apt deletes its
# downloaded packages and caches after each install, keeps no translations and no suggested
# packages. Without them the Dockerfile's `apt-get update` leaves ~90 MB of caches in the
# image that the official base never would.
cat >"$work/rootfs/etc/apt/apt.conf.d/docker-clean" <<'APT'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
APT
echo 'Acquire::Languages "none";' >"$work/rootfs/etc/apt/apt.conf.d/docker-no-languages"
echo 'Acquire::GzipIndexes "true";' >"$work/rootfs/etc/apt/apt.conf.d/docker-gzip-indexes"
echo 'APT::AutoRemove::SuggestsImportant "false";' >"$work/rootfs/etc/apt/apt.conf.d/docker-autoremove-suggests"
run sh -c "tar -C '$work/rootfs' -c . | podman import --change 'CMD [\"bash\"]' - '$BASE'"
rm -rf "$work/rootfs"
took

step "3. the host's release binary, stripped, where the build stage would leave it"
mkdir -p "$work/build/src/target/release"
cp "$BIN" "$work/build/src/target/release/crease"
strip "$work/build/src/target/release/crease"
echo "    $BIN: $(du -h "$BIN" | cut -f1) -> stripped $(du -h "$work/build/src/target/release/crease" | cut -f1)"
took

step "4. buildah bud of the Dockerfile, the host's binary standing in for its build stage"
run buildah bud --format docker --pull=never --layers=false \
  --build-context build="$work/build" -t "$IMAGE" .
size=$(podman image inspect --format '{{.Size}}' "$IMAGE")
echo "    $IMAGE: $((size / 1024 / 1024)) MiB"
echo "    HEALTHCHECK: $(podman image inspect --format '{{json .HealthCheck}}' "$IMAGE")"
took

step "5. podman run, /readyz, the HEALTHCHECK"
pod rm -f "$CONTAINER" >/dev/null 2>&1 || true
# podman raises a root container's open-file and process limits (1,048,576), which needs
# CAP_SYS_RESOURCE this sandbox does not grant: the shell's own open-file limit and a
# process limit far above the server's threads are set instead. The HEALTHCHECK's periodic
# timer needs systemd (absent here: podman logs an error and goes on); it is run by hand.
run pod run -d --name "$CONTAINER" -p "127.0.0.1:$PORT:8080" \
  --ulimit "nofile=$(ulimit -Sn):$(ulimit -Hn)" --ulimit nproc=4096:4096 "$IMAGE"
launched=$SECONDS
ready=
for _ in $(seq 100); do
  if curl -sf --max-time 1 -o "$work/readyz" "http://127.0.0.1:$PORT/readyz"; then ready=1; break; fi
  sleep 0.2
done
if [ -z "$ready" ]; then
  echo "REFUSED: /readyz never answered on 127.0.0.1:$PORT; the container's log:" >&2
  pod logs "$CONTAINER" 2>&1 | tail -n 15 >&2
  exit 1
fi
echo "    GET /readyz within $((SECONDS - launched)) s of podman run: $(cat "$work/readyz")"
run pod healthcheck run "$CONTAINER"
echo "    podman healthcheck run (the image's HEALTHCHECK, crease health): exit 0, status $(pod inspect --format '{{.State.Health.Status}}' "$CONTAINER")"
echo "    runs as $(pod exec "$CONTAINER" id -un); its database: $(pod exec "$CONTAINER" ls /var/lib/crease | tr '\n' ' ')"
took
# Earlier builds' images of the same tags are left untagged: the storage is this script's.
pod image prune -f >/dev/null 2>&1 || true
echo "build-image: all 5 steps passed in $((SECONDS - started)) s"
