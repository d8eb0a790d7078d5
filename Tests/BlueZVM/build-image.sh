#!/bin/bash
# Builds the guest for `make test-bluez`: a Debian 12 root with bluez (bluetoothd, btattach),
# dbus and Debian's kernel, from Debian's packages (debootstrap), into $OUT (default
# .build/bluez-vm): vmlinuz, initrd.img and root.ext4. Nothing here is committed; the Makefile
# runs it when the image is missing. Needs root (debootstrap, chroot).
set -euo pipefail
OUT=${OUT:-.build/bluez-vm}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
SUITE=bookworm
ROOT="$OUT/rootfs"
mkdir -p "$OUT"
if [ ! -x "$ROOT/usr/libexec/bluetooth/bluetoothd" ]; then
  rm -rf "$ROOT"
  # bluez: bluetoothd, btattach, bluetoothctl; the kernel and its initramfs; what nearby links
  # (libsystemd0 is in the base; libusb, libmosquitto, libbluetooth, libstdc++); iproute2 for the
  # network to the host's virtual UWBS.
  debootstrap --variant=minbase \
    --include=systemd-sysv,dbus,bluez,kmod,udev,iproute2,linux-image-amd64,initramfs-tools,libusb-1.0-0,libmosquitto1,libbluetooth3,libstdc++6,libcurl4,libxml2,procps \
    "$SUITE" "$ROOT" "$MIRROR"
fi
# The modules the guest needs before its root is mounted (virtio disk) and after (9p for the host's
# build tree, hci_uart for btattach).
cat > "$ROOT/etc/initramfs-tools/modules" <<'MODULES'
virtio_pci
virtio_blk
virtio_console
ext4
MODULES
chroot "$ROOT" update-initramfs -u -k all >/dev/null
# PID 1: mounts the host's worktree (9p, read-only) and runs its Tests/BlueZVM/guest-init.sh, so
# changing the guest's script needs no new image.
cat > "$ROOT/sbin/nearby-init" <<'INIT'
#!/bin/sh
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys 2>/dev/null
mount -t devtmpfs devtmpfs /dev 2>/dev/null
modprobe 9pnet_virtio; modprobe 9p
WORKTREE=$(sed -n 's/.*nearby.worktree=\([^ ]*\).*/\1/p' /proc/cmdline)
mkdir -p "$WORKTREE"
mount -t 9p -o trans=virtio,version=9p2000.L,ro worktree "$WORKTREE" && exec sh "$WORKTREE/Tests/BlueZVM/guest-init.sh"
echo "GUEST-ERROR cannot mount the worktree at $WORKTREE" > /dev/ttyS0
echo o > /proc/sysrq-trigger
INIT
chmod 0755 "$ROOT/sbin/nearby-init"
cp -L "$ROOT"/boot/vmlinuz-* "$OUT/vmlinuz"
cp -L "$ROOT"/boot/initrd.img-* "$OUT/initrd.img"
rm -f "$OUT/root.ext4"
mkfs.ext4 -q -F -L root -d "$ROOT" "$OUT/root.ext4" 2G
echo "built $OUT: vmlinuz, initrd.img, root.ext4"
