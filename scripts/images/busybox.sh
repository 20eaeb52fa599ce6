#!/usr/bin/env bash
# The `busybox` image of the QEMU driver's image store, the fast guest of the tests: Debian's cloud kernel, taken out of its package with dpkg-deb
# (never installed), and a busybox-static initramfs whose init prints `tick N` on the serial
# console every second and keeps N in /counter on the guest's disk, so a test can tell that a
# guest kept running (the count goes on) and that its disk moved intact (the file's content).
# It has a root account whose /etc/shadow lives on its disk (so a password set stays across a
# reboot and moves with the disk; a new disk's first boot takes root's hash from QEMU's fw_cfg,
# where the agent puts the instance's first password, hashed, and a reset made while it was stopped
# is applied at its next boot from another fw_cfg file), a virtio-serial port on which /bin/guest-channel answers the
# agent (`set-password`, `check-password`, `set-network`, `reach`, `disks`), and virtio-net NICs it sets up
# from the seed's network-config (guest-network.sh), or with DHCP where the seed gives no address.
# Booted with its `rescue-cmdline` it is its own rescue system (the disk at /disk, no services);
# `boot.iso` beside it boots the same system from a CD-ROM and says so. Its serial console has a root
# shell, as a rescue console does, for console sessions to type into (a real image asks for a login),
# silent until typed into.
# It reads the agent's cloud-init seed (the read-only second disk, ISO 9660 labelled cidata) as far
# as a shell can: it takes the hostname and says on its console what the seed told it. It serves
# HTTP on ports 80 and 8080 (`/` its hostname, `/blob` a MiB of zeros), for the network's tests.
# The disk is a small ext2 filesystem in qcow2. Built once into the image store, outside the
# repository; prints the image's directory (vmlinuz, initrd.img, disk.qcow2).
# Needs: apt-get (download only), dpkg-deb, cpio, gzip, busybox-static, qemu-utils.
set -euo pipefail

VERSION=14
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/store.sh"
exit_if_built busybox "$VERSION"

for tool in apt-get dpkg-deb gzip qemu-img genisoimage; do
  command -v "$tool" >/dev/null || { echo "busybox image: $tool is missing" >&2; exit 1; }
done
# busybox-static installs /bin/busybox; it also supplies cpio and mke2fs for the build.
BUSYBOX=/bin/busybox
if ! "$BUSYBOX" --list 2>/dev/null | grep -qx mke2fs || ldd "$BUSYBOX" >/dev/null 2>&1; then
  echo "busybox image: busybox-static is missing (apt-get install busybox-static)" >&2
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

mkdir -p initramfs/{bin,sbin,etc/init.d,etc/acpi/PWRF,proc,sys,dev,disk,lib/modules,root,usr/share/udhcpc}
cp "$BUSYBOX" initramfs/bin/busybox
for applet in $("$BUSYBOX" --list); do
  [[ "$applet" == busybox ]] || ln -sf busybox "initramfs/bin/$applet"
done
ln -sf ../bin/busybox initramfs/sbin/init
ln -sf bin/busybox initramfs/init
# The kernel opens /dev/console for init before anything can mount devtmpfs.
mknod -m 600 initramfs/dev/console c 5 1
# virtio-blk for the disk, the ACPI button and evdev so that a power-button press (QMP
# system_powerdown) becomes a clean shutdown, virtio_console for the agent's channel, virtio_net
# (after the failover modules it needs) for the NIC, cdrom and isofs for the seed. Loaded in this order.
MODULE_LIST="virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci virtio_blk evdev button virtio_console failover net_failover virtio_net qemu_fw_cfg cdrom isofs"
for module in $MODULE_LIST; do
  path=$(find "$MODULES/kernel" -name "$module.ko*" | head -1)
  [[ -n "$path" ]] || { echo "busybox image: module $module not in $KERNEL_PACKAGE" >&2; exit 1; }
  case "$path" in
    *.xz) xz -dc "$path" >"initramfs/lib/modules/$module.ko" ;;
    *.zst) zstd -dc "$path" >"initramfs/lib/modules/$module.ko" ;;
    *) cp "$path" "initramfs/lib/modules/$module.ko" ;;
  esac
done

echo "$MODULE_LIST" >initramfs/etc/modules

# root's account; its password hash is on the disk (/disk/etc/shadow), written at first boot.
echo 'root:x:0:0:root:/root:/bin/sh' >initramfs/etc/passwd
echo 'root:x:0:' >initramfs/etc/group
ln -sf /disk/etc/shadow initramfs/etc/shadow

cat >initramfs/etc/inittab <<'EOF'
::sysinit:/etc/init.d/rcS
::respawn:/bin/ticker
::respawn:/bin/hotplug-online
ttyS0::respawn:/bin/console-shell
::respawn:/bin/guest-channel /bin/guest-request
::respawn:/bin/httpd -f -p 80 -h /www
::respawn:/bin/httpd -f -p 8080 -h /www
::shutdown:/etc/init.d/halt
EOF

cat >initramfs/etc/init.d/rcS <<'EOF'
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in $(cat /etc/modules); do
  insmod /lib/modules/$m.ko 2>/dev/null
done
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -b /dev/vda ] && break; sleep 0.2; done
mount -t ext2 /dev/vda /disk || echo "guest: no disk"
# Rescue mode (the agent boots the image's rescue-cmdline): the disk mounted at /disk, none of the
# guest's services (its ticker waits), and it says so.
case " $(cat /proc/cmdline) " in
  *" cloudsvc.rescue "*)
    touch /rescue
    /bin/seed-read >/dev/null
    echo "guest: rescue, disk at /disk"
    exit 0
    ;;
esac
# A new disk (or one from before the guest had accounts) gets root on its first boot: with the
# hash the agent put in fw_cfg for a new or rebuilt instance, else locked. Later boots keep the
# disk's: a password reset since is not undone.
if [ ! -f /disk/etc/shadow ]; then
  hash=$(cat /sys/firmware/qemu_fw_cfg/by_name/opt/org.cloudsvc/root-hash/raw 2>/dev/null)
  case "$hash" in '$6$'*) ;; *) hash='*' ;; esac
  case "$hash" in *[!a-zA-Z0-9./\$]*) hash='*' ;; esac
  mkdir -p /disk/etc && echo "root:$hash:0:0:99999:7:::" >/disk/etc/shadow.new &&
    chmod 600 /disk/etc/shadow.new && mv /disk/etc/shadow.new /disk/etc/shadow && sync
fi
# A password reset made while the guest was stopped (fw_cfg root-reset, `<id> <hash>`) is written
# over the disk's /etc/shadow once: its id is kept on the disk, so a later boot handed the same
# file again (its acknowledgement not yet seen by the agent) leaves a newer reset over the channel
# alone. The acknowledgement is the console line with the id (never the hash): the agent then
# drops the file.
reset=$(cat /sys/firmware/qemu_fw_cfg/by_name/opt/org.cloudsvc/root-reset/raw 2>/dev/null)
reset_id=${reset%% *} hash=${reset#* }
case "$reset_id" in '' | *[!0-9a-f]*) reset_id= ;; esac
case "$hash" in '$6$'*) ;; *) reset_id= ;; esac
case "$hash" in *[!a-zA-Z0-9./\$]*) reset_id= ;; esac
if [ -n "$reset_id" ] && [ -f /disk/etc/shadow ]; then
  if [ "$(cat /disk/etc/root-reset-applied 2>/dev/null)" != "$reset_id" ]; then
    awk -F: -v OFS=: -v h="$hash" '$1 == "root" { $2 = h } { print }' /disk/etc/shadow >/disk/etc/shadow.new &&
      chmod 600 /disk/etc/shadow.new && sync && mv /disk/etc/shadow.new /disk/etc/shadow && sync &&
      echo "$reset_id" >/disk/etc/root-reset-applied.new &&
      mv /disk/etc/root-reset-applied.new /disk/etc/root-reset-applied && sync
  fi
  [ "$(cat /disk/etc/root-reset-applied 2>/dev/null)" = "$reset_id" ] &&
    echo "guest: password reset $reset_id applied"
fi
/bin/seed-read
mkdir -p /www && hostname >/www/index.html && dd if=/dev/zero of=/www/blob bs=1024 count=1024 2>/dev/null
acpid -c /etc/acpi -l /dev/null
/bin/network-up &
# Started from the image's installer ISO (its boot.iso) rather than the agent's kernel: said once.
case " $(cat /proc/cmdline) " in *" cloudsvc.from=iso "*) echo "guest: started from the iso" ;; esac
echo "guest: booted"
EOF

# The seed's values, read with sed from the agent's own spelling (each value a quoted string).
# The console's root shell, silent until typed into: no prompt enters the console before then, so
# the guest's own lines (its ticks, what it tells the agent) stay whole. The first line typed runs,
# then the shell is interactive.
cat >initramfs/bin/console-shell <<'EOF'
#!/bin/sh
IFS= read -r first || exit 0
[ -n "$first" ] && sh -c "$first"
exec sh -i
EOF

cat >initramfs/bin/seed-read <<'EOF'
#!/bin/sh
mkdir -p /seed
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -b /dev/vdb ] && break; sleep 0.2; done
if ! mount -t iso9660 -o ro /dev/vdb /seed 2>/dev/null; then echo "guest: no seed"; exit 0; fi
value() { sed -n "s/^$1: \"\(.*\)\"\$/\1/p" "/seed/$2" | head -1; }
id=$(value instance-id meta-data)
name=$(value local-hostname meta-data)
zone=$(value timezone user-data)
keys=$(grep -c '^  - "' /seed/user-data)
[ -n "$name" ] && hostname "$name"
cp /seed/network-config /etc/network-config 2>/dev/null
echo "guest: seed $id hostname $(hostname) timezone $zone ssh-keys $keys"
umount /seed
EOF

# The NICs, as the seed's network-config says, or by DHCP where it gives no address (QEMU's
# user-mode network answers it); in the background, so that a guest without a network boots as
# fast. Says what eth0 got: `guest: eth0 <mac> <address or none>`.
cat >initramfs/bin/network-up <<'EOF'
#!/bin/sh
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -e /sys/class/net/eth0 ] && break; sleep 0.2; done
if [ ! -e /sys/class/net/eth0 ]; then echo "guest: no eth0" >/dev/console; exit 0; fi
ip link set lo up
ip link set eth0 up
if grep -q '^      - "' /etc/network-config 2>/dev/null; then
  /bin/guest-network /etc/network-config >/dev/null
else
  udhcpc -i eth0 -n -q -t 3 -T 1 -s /usr/share/udhcpc/default.script >/dev/null 2>&1
fi
address=$(ip -4 -o addr show dev eth0 | awk '{ print $4 }')
echo "guest: eth0 $(cat /sys/class/net/eth0/address) ${address:-none}" >/dev/console
EOF

cat >initramfs/usr/share/udhcpc/default.script <<'EOF'
#!/bin/sh
case "$1" in
  deconfig) ip -4 addr flush dev "$interface" ;;
  bound|renew)
    ip -4 addr flush dev "$interface"
    ip -4 addr add "$ip/${mask:-24}" dev "$interface"
    for r in $router; do ip -4 route add default via "$r" dev "$interface"; break; done
    : >/etc/resolv.conf
    for d in $dns; do echo "nameserver $d" >>/etc/resolv.conf; done
    ;;
esac
EOF

# The agent's channel (guest-channel.sh), its requests answered by /bin/guest-request.
cp "$HERE/guest-channel.sh" initramfs/bin/guest-channel
cp "$HERE/guest-network.sh" initramfs/bin/guest-network

cat >initramfs/bin/guest-request <<'EOF'
#!/bin/sh
# set-password USER HASH: HASH (crypt, made by the agent) becomes USER's in /etc/shadow.
# check-password USER BASE64: whether the password (base64 of it) is USER's.
# set-network - BASE64: the NICs' addresses and routes (base64 of guest-network's lines).
# reach - ADDRESS: whether ADDRESS answers a ping from here.
# disks - -: each virtio disk the guest sees and its size in bytes (`vda=<bytes>,vdb=<bytes>`).
verb=$1 user=$2 arg=$3
case "$verb" in
  disks)
    list=
    for d in /sys/block/vd*; do list="$list${list:+,}${d##*/}=$(($(cat "$d/size") * 512))"; done
    echo "ok ${list:-none}"
    exit
    ;;
  set-network) echo "ok $(echo "$arg" | base64 -d | /bin/guest-network)"; exit ;;
  reach)
    case "$arg" in *[!0-9a-f.:]* | '') echo "error not an address"; exit ;; esac
    ping -c 1 -W 2 "$arg" >/dev/null 2>&1 && echo "ok reachable" || echo "ok unreachable"
    exit
    ;;
esac
shadow=/disk/etc/shadow
[ -f "$shadow" ] || { echo "error no shadow file on the disk"; exit; }
current=$(awk -F: -v u="$user" '$1 == u { print $2 }' "$shadow")
[ -n "$current" ] || { echo "error no user $user"; exit; }
case "$verb" in
  set-password)
    case "$arg" in
      '$6$'*) ;;
      *) echo "error not a SHA-512 crypt hash"; exit ;;
    esac
    case "$arg" in *[!a-zA-Z0-9./\$]*) echo "error not a SHA-512 crypt hash"; exit ;; esac
    if [ "$current" = "$arg" ]; then echo "ok unchanged"; exit; fi
    awk -F: -v OFS=: -v u="$user" -v h="$arg" '$1 == u { $2 = h } { print }' "$shadow" >"$shadow.new" &&
      chmod 600 "$shadow.new" && sync && mv "$shadow.new" "$shadow" && sync &&
      echo "ok changed" || echo "error the shadow file could not be written"
    ;;
  check-password)
    salt=$(echo "$current" | cut -d'$' -f3)
    case "$current" in '$6$'*) ;; *) echo "ok mismatch"; exit ;; esac
    computed=$(echo "$arg" | base64 -d | mkpasswd -m sha512 -S "$salt" -P 0)
    [ "$computed" = "$current" ] && echo "ok match" || echo "ok mismatch"
    ;;
  *) echo "error unknown request $verb" ;;
esac
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
# In rescue mode the guest's own services do not run.
while [ -e /rescue ]; do sleep 3600; done
n=$(cat /disk/counter 2>/dev/null || echo 0)
while true; do
  n=$((n + 1))
  echo "$n" >/disk/counter.new && mv /disk/counter.new /disk/counter && sync
  echo "tick $n" >/dev/console
  sleep 1
done
EOF

# vCPUs and memory the hypervisor adds to the running guest (ACPI hotplug, a hot plan change) come
# offline: the kernel onlines no CPU by itself, and memory only when told to (memhp_default_state).
# They are put online here within a second, and the guest's new size said once on its console.
cat >initramfs/bin/hotplug-online <<'EOF'
#!/bin/sh
while true; do
  added=
  for f in /sys/devices/system/cpu/cpu[0-9]*/online; do
    [ -f "$f" ] && [ "$(cat "$f")" = 0 ] && echo 1 >"$f" 2>/dev/null && added=1
  done
  for f in /sys/devices/system/memory/memory[0-9]*/state; do
    [ -f "$f" ] && [ "$(cat "$f")" = offline ] && echo online >"$f" 2>/dev/null && added=1
  done
  [ -n "$added" ] && echo "guest: online cpus $(nproc) memory $(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) kB" >/dev/console
  sleep 1
done
EOF

cat >initramfs/etc/acpi/PWRF/00000080 <<'EOF'
#!/bin/sh
poweroff
EOF
chmod +x initramfs/etc/init.d/* initramfs/bin/ticker initramfs/bin/hotplug-online initramfs/bin/console-shell initramfs/bin/seed-read initramfs/bin/network-up initramfs/bin/guest-channel initramfs/bin/guest-network \
  initramfs/bin/guest-request initramfs/usr/share/udhcpc/default.script initramfs/etc/acpi/PWRF/00000080

(cd initramfs && find . | "$BUSYBOX" cpio -o -H newc 2>/dev/null | gzip -9) >initrd.img

# The disk: an empty ext2 filesystem; each instance's disk is a copy, grown to its size.
mkdir -p image
truncate -s 32M disk.raw
"$BUSYBOX" mke2fs -F disk.raw >/dev/null
qemu-img convert -q -f raw -O qcow2 disk.raw image/disk.qcow2
cp kernel/boot/vmlinuz-* image/vmlinuz
cp initrd.img image/initrd.img
echo "$KERNEL_PACKAGE" >image/kernel-package
# Its rescue system: the same kernel and initramfs, told to mount the disk and start nothing.
echo 'console=ttyS0 quiet panic=-1 cloudsvc.rescue' >image/rescue-cmdline

# boot.iso: a bootable ISO of the same kernel and initramfs (isolinux, from Debian's packages),
# what a customer's installer ISO stands for in the tests: a guest booted from it says so.
apt-get download isolinux syslinux-common >&2 2>/dev/null || apt-get download isolinux syslinux-common >&2
dpkg-deb -x isolinux_*.deb iso-tools
dpkg-deb -x syslinux-common_*.deb iso-tools
mkdir -p bootiso/isolinux
cp iso-tools/usr/lib/ISOLINUX/isolinux.bin iso-tools/usr/lib/syslinux/modules/bios/ldlinux.c32 bootiso/isolinux/
cp image/vmlinuz bootiso/vmlinuz
cp initrd.img bootiso/initrd.img
printf 'DEFAULT iso\nLABEL iso\n  KERNEL /vmlinuz\n  APPEND initrd=/initrd.img console=ttyS0 quiet panic=-1 cloudsvc.from=iso\n' \
  >bootiso/isolinux/isolinux.cfg
genisoimage -quiet -o image/boot.iso -b isolinux/isolinux.bin -c isolinux/boot.cat -no-emul-boot \
  -boot-load-size 4 -boot-info-table -V CLOUDSVC bootiso
install_image "$WORK/image" busybox "$VERSION"
