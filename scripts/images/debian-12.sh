#!/usr/bin/env bash
# The `debian-12` image of the QEMU driver's image store: a Debian 12 (bookworm) root built from
# Debian's packages with debootstrap, with cloud-init (which reads the agent's NoCloud seed: hostname,
# time zone, the customer's SSH keys for the `debian` user, root's password hash, the panel's
# addresses), OpenSSH, Debian's cloud kernel, booted directly with its own initramfs, and the agent's
# channel (virtio-serial port org.cloudsvc.guest: `set-password`, `check-password`, as the busybox
# guest answers them) with the boot-time password reset from fw_cfg. The disk
# is an ext4 filesystem without a partition table, made from the tree with `mkfs.ext4 -d` and kept as
# qcow2. Built once (about 2.5 minutes, 550 MB); prints the image's directory.
# Needs: root, debootstrap, e2fsprogs, qemu-utils, and a Debian mirror (DEBIAN_MIRROR, default
# http://deb.debian.org/debian).
set -euo pipefail

VERSION=7
source "$(dirname "$0")/store.sh"
exit_if_built debian-12 "$VERSION"

for tool in debootstrap mkfs.ext4 qemu-img; do
  command -v "$tool" >/dev/null || { echo "debian-12 image: $tool is missing" >&2; exit 1; }
done
[[ $(id -u) -eq 0 ]] || { echo "debian-12 image: debootstrap needs root" >&2; exit 1; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
ROOT="$WORK/root"

debootstrap --variant=minbase \
  --include=systemd-sysv,udev,cloud-init,openssh-server,sudo,ifupdown,isc-dhcp-client,python3-cffi-backend,tzdata,linux-image-cloud-amd64 \
  bookworm "$ROOT" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" >&2

# cloud-init looks only for the seed the agent attaches (and falls back to none); the image has no
# locales to generate (minbase), so the locale is left as it is rather than failing the boot's run.
cat >"$ROOT/etc/cloud/cloud.cfg.d/90-cloudsvc.cfg" <<'CFG'
datasource_list: [ NoCloud, None ]
locale: false
# The seed's network-config is rendered at every boot: addresses changed while the guest was
# stopped (or told it over the channel while it ran) are the ones it comes up with.
updates:
  network:
    when: [boot]
CFG
echo '/dev/vda / ext4 defaults,errors=remount-ro 0 1' >"$ROOT/etc/fstab"

# The agent's channel (guest-channel.sh), its requests answered by cloudsvc-guest-request.
cp "$(dirname "$0")/guest-channel.sh" "$ROOT/usr/local/sbin/cloudsvc-guest-channel"
cp "$(dirname "$0")/guest-network.sh" "$ROOT/usr/local/sbin/cloudsvc-guest-network"
chmod +x "$ROOT/usr/local/sbin/cloudsvc-guest-network"
cat >"$ROOT/usr/local/sbin/cloudsvc-guest-request" <<'SH'
#!/bin/sh
# set-password USER HASH: HASH (SHA-512 crypt, made by the agent) becomes USER's.
# check-password USER BASE64: whether the password (base64 of it) is USER's, by the guest's own crypt.
# set-network - BASE64: the NICs' addresses and routes (base64 of cloudsvc-guest-network's lines).
verb=$1 user=$2 arg=$3
if [ "$verb" = set-network ]; then
  echo "ok $(echo "$arg" | base64 -d | /usr/local/sbin/cloudsvc-guest-network)"
  exit
fi
current=$(getent shadow "$user" | cut -d: -f2)
getent shadow "$user" >/dev/null || { echo "error no user $user"; exit; }
case "$verb" in
  set-password)
    case "$arg" in '$6$'*) ;; *) echo "error not a SHA-512 crypt hash"; exit ;; esac
    case "$arg" in *[!a-zA-Z0-9./\$]*) echo "error not a SHA-512 crypt hash"; exit ;; esac
    if [ "$current" = "$arg" ]; then echo "ok unchanged"; exit; fi
    echo "$user:$arg" | chpasswd -e && echo "ok changed" || echo "error the password could not be set"
    ;;
  check-password)
    printf '%s' "$arg" | python3 -W ignore -c '
import base64, crypt, sys
password = base64.b64decode(sys.stdin.read()).decode()
print("ok match" if sys.argv[1].startswith("$6$") and crypt.crypt(password, sys.argv[1]) == sys.argv[1] else "ok mismatch")
' "$current"
    ;;
  *) echo "error unknown request $verb" ;;
esac
SH
# A reset made while the guest was stopped (fw_cfg root-reset, `<id> <hash>`): applied once, after
# cloud-init's first-boot password, its id kept on the disk; said on the console by id, never hash.
cat >"$ROOT/usr/local/sbin/cloudsvc-root-reset" <<'SH'
#!/bin/sh
reset=$(cat /sys/firmware/qemu_fw_cfg/by_name/opt/org.cloudsvc/root-reset/raw 2>/dev/null) || exit 0
reset_id=${reset%% *} hash=${reset#* }
case "$reset_id" in '' | *[!0-9a-f]*) exit 0 ;; esac
case "$hash" in '$6$'*) ;; *) exit 0 ;; esac
case "$hash" in *[!a-zA-Z0-9./\$]*) exit 0 ;; esac
applied=/var/lib/cloudsvc/root-reset-applied
if [ "$(cat "$applied" 2>/dev/null)" != "$reset_id" ]; then
  echo "root:$hash" | chpasswd -e || exit 1
  mkdir -p /var/lib/cloudsvc && echo "$reset_id" >"$applied.new" && mv "$applied.new" "$applied" && sync
fi
# On a line of its own, and written again until the write lands: the console is ttyS0, which
# other units write to as well.
for _ in 1 2 3 4 5; do
  printf '\nguest: password reset %s applied\n' "$reset_id" >/dev/ttyS0 && exit 0
  sleep 1
done
exit 1
SH
chmod 755 "$ROOT"/usr/local/sbin/cloudsvc-*
cat >"$ROOT/etc/systemd/system/cloudsvc-guest-channel.service" <<'UNIT'
[Unit]
Description=cloudsvc agent channel
[Service]
ExecStart=/usr/local/sbin/cloudsvc-guest-channel /usr/local/sbin/cloudsvc-guest-request
Restart=always
RestartSec=1
[Install]
WantedBy=multi-user.target
UNIT
cat >"$ROOT/etc/systemd/system/cloudsvc-root-reset.service" <<'UNIT'
[Unit]
Description=cloudsvc password reset made while stopped
# Before the serial console's getty, whose start hangs up the terminal this unit writes its line to.
After=cloud-config.service
Before=serial-getty@ttyS0.service
[Service]
Type=oneshot
ExecStart=/usr/local/sbin/cloudsvc-root-reset
[Install]
WantedBy=multi-user.target
UNIT
echo qemu_fw_cfg >"$ROOT/etc/modules-load.d/cloudsvc.conf"
chroot "$ROOT" systemctl enable cloudsvc-guest-channel.service cloudsvc-root-reset.service >&2
# Whatever identifies one machine is made at each guest's first boot, not shared by all of them.
rm -f "$ROOT"/etc/ssh/ssh_host_* "$ROOT/etc/hostname"
: >"$ROOT/etc/machine-id"
rm -f "$ROOT/var/lib/dbus/machine-id"
rm -rf "$ROOT"/var/cache/apt/archives/*.deb "$ROOT"/var/lib/apt/lists/*

mkdir -p "$WORK/image"
cp "$ROOT"/boot/vmlinuz-* "$WORK/image/vmlinuz"
cp "$ROOT"/boot/initrd.img-* "$WORK/image/initrd.img"
# net.ifnames=0: the NIC is eth0, as the seed's network-config names it.
echo 'root=/dev/vda rw console=ttyS0 net.ifnames=0 panic=-1' >"$WORK/image/cmdline"
truncate -s 2G "$WORK/disk.raw"
mkfs.ext4 -q -F -L root -d "$ROOT" "$WORK/disk.raw"
qemu-img convert -q -f raw -O qcow2 "$WORK/disk.raw" "$WORK/image/disk.qcow2"
install_image "$WORK/image" debian-12 "$VERSION"
