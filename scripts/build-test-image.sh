#!/usr/bin/env bash
# Builds jobdeck/busybox:local from the host's busybox-static: no registry is needed.
set -euo pipefail
IMAGE=${1:-jobdeck/busybox:local}
# Bumped when the image's content changes, so an older build on a machine is replaced.
VERSION=2
if [ "$(docker image inspect -f '{{index .Config.Labels "jobdeck.test-image"}}' "$IMAGE" 2>/dev/null)" = "$VERSION" ]; then exit 0; fi
BUSYBOX=$(command -v busybox || true)
[ -n "$BUSYBOX" ] || { echo "busybox-static is missing: apt-get install -y busybox-static" >&2; exit 1; }
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin" "$root/tmp" "$root/etc"
chmod 1777 "$root/tmp" # as in any distribution: jobs that run as another user need it
cp "$BUSYBOX" "$root/bin/busybox"
for applet in $("$BUSYBOX" --list); do
  [ "$applet" = busybox ] || ln -s busybox "$root/bin/$applet"
done
echo 'root:x:0:0:root:/:/bin/sh' > "$root/etc/passwd"
tar -C "$root" -c . | docker import -c 'ENV PATH=/bin' -c "LABEL jobdeck.test-image=$VERSION" - "$IMAGE" >/dev/null
echo "built $IMAGE"
