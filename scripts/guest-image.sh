#!/usr/bin/env bash
# The guest the QEMU driver boots: Debian's cloud kernel, taken out of its package with dpkg-deb
# (never installed), and a busybox-static initramfs whose init prints `tick N` on the serial
# console every second and keeps N in /counter on the guest's disk, so a test can tell that a
# guest kept running (the count goes on) and that its disk moved intact (the file's content).
# The base disk is a small ext2 filesystem in qcow2. Built once, cached outside the repository;
# prints the directory holding vmlinuz, initrd.img and base.qcow2.
# Needs: apt-get (download only), dpkg-deb, cpio, gzip, busybox-static, qemu-utils.
set -euo pipefail

VERSION=2
CACHE="${GUEST_IMAGE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/cloudsvc/guest-image-v$VERSION}"
if [[ -f "$CACHE/vmlinuz" && -f "$CACHE/initrd.img" && -f "$CACHE/base.qcow2" ]]; then
  echo "$CACHE"
  exit 0
fi

for tool in apt-get dpkg-deb gzip qemu-img; do
  command -v "$tool" >/dev/null || { echo "guest-image: $tool is missing" >&2; exit 1; }
done
# busybox-static installs /bin/busybox; it also supplies cpio and mke2fs for the build.
BUSYBOX=/bin/busybox
if ! "$BUSYBOX" --list 2>/dev/null | grep -qx mke2fs || ldd "$BUSYBOX" >/dev/null 2>&1; then
  echo "guest-image: busybox-static is missing (apt-get install busybox-static)" >&2
  exit 1
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
chmod 777 "$WORK" # apt-get download runs as _apt where it can

# The metapackage names the current kernel package; only that one is unpacked.
apt-get download linux-image-cloud-amd64 >&2 2>/dev/null || apt-get download linux-image-cloud-amd64 >&2
KERNEL_PACKAGE=$(dpkg-deb -f linux-image-cloud-amd64_*.deb Depends | sed -E 's/^([^ ,]+).*/\1/')
apt-get download "$KERNEL_PACKAGE" >&2 2>/dev/null || apt-get download "$KERNEL_PACKAGE" >&2
dpkg-deb -x "$KERNEL_PACKAGE"_*.deb kernel
MODULES=$(echo kernel/lib/modules/*)

mkdir -p initramfs/{bin,sbin,etc/init.d,etc/acpi/PWRF,proc,sys,dev,disk,lib/modules}
cp "$BUSYBOX" initramfs/bin/busybox
for applet in $("$BUSYBOX" --list); do
  [[ "$applet" == busybox ]] || ln -sf busybox "initramfs/bin/$applet"
done
ln -sf ../bin/busybox initramfs/sbin/init
ln -sf bin/busybox initramfs/init
# The kernel opens /dev/console for init before anything can mount devtmpfs.
mknod -m 600 initramfs/dev/console c 5 1
# virtio-blk for the disk, the ACPI button and evdev so that a power-button press (QMP
# system_powerdown) becomes a clean shutdown.
for module in virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci virtio_blk evdev button; do
  path=$(find "$MODULES/kernel" -name "$module.ko*" | head -1)
  [[ -n "$path" ]] || { echo "guest-image: module $module not in $KERNEL_PACKAGE" >&2; exit 1; }
  case "$path" in
    *.xz) xz -dc "$path" >"initramfs/lib/modules/$module.ko" ;;
    *.zst) zstd -dc "$path" >"initramfs/lib/modules/$module.ko" ;;
    *) cp "$path" "initramfs/lib/modules/$module.ko" ;;
  esac
done

cat >initramfs/etc/inittab <<'EOF'
::sysinit:/etc/init.d/rcS
::respawn:/bin/ticker
::shutdown:/etc/init.d/halt
EOF

cat >initramfs/etc/init.d/rcS <<'EOF'
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci virtio_blk evdev button; do
  insmod /lib/modules/$m.ko 2>/dev/null
done
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -b /dev/vda ] && break; sleep 0.2; done
mount -t ext2 /dev/vda /disk || echo "guest: no disk"
acpid -c /etc/acpi -l /dev/null
echo "guest: booted"
EOF

# The count a stopped guest leaves on its disk is said on the console: where the next boot starts.
cat >initramfs/etc/init.d/halt <<'EOF'
#!/bin/sh
echo "guest: shutting down"
killall ticker 2>/dev/null
sleep 0.2
echo "guest: stopped at $(cat /disk/counter 2>/dev/null || echo 0)"
sync
umount /disk
EOF

# The count survives a reboot through the disk, and a live migration through memory. Written
# before it is printed: a tick on the console is on the disk.
cat >initramfs/bin/ticker <<'EOF'
#!/bin/sh
n=$(cat /disk/counter 2>/dev/null || echo 0)
while true; do
  n=$((n + 1))
  echo "$n" >/disk/counter.new && mv /disk/counter.new /disk/counter && sync
  echo "tick $n" >/dev/console
  sleep 1
done
EOF

cat >initramfs/etc/acpi/PWRF/00000080 <<'EOF'
#!/bin/sh
poweroff
EOF
chmod +x initramfs/etc/init.d/* initramfs/bin/ticker initramfs/etc/acpi/PWRF/00000080

(cd initramfs && find . | "$BUSYBOX" cpio -o -H newc 2>/dev/null | gzip -9) >initrd.img

# The base disk: an empty ext2 filesystem; each instance's disk is a copy, grown to its size.
truncate -s 32M base.raw
"$BUSYBOX" mke2fs -F base.raw >/dev/null
qemu-img convert -q -f raw -O qcow2 base.raw base.qcow2

mkdir -p "$CACHE"
cp kernel/boot/vmlinuz-* "$CACHE/vmlinuz.tmp" && mv "$CACHE/vmlinuz.tmp" "$CACHE/vmlinuz"
cp initrd.img "$CACHE/initrd.img.tmp" && mv "$CACHE/initrd.img.tmp" "$CACHE/initrd.img"
cp base.qcow2 "$CACHE/base.qcow2.tmp" && mv "$CACHE/base.qcow2.tmp" "$CACHE/base.qcow2"
echo "$KERNEL_PACKAGE" >"$CACHE/kernel-package"
echo "$CACHE"
