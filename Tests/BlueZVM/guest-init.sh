#!/bin/sh
# PID 1 of the guest of `make test-bluez` (Tests/BlueZVM/run.py): a real bluetoothd on the
# kernel's hci0, which is Bumble's controller attached with btattach over a virtio console
# (/dev/hvc0, H4), then the test's commands with nearby from the host's build tree (9p).
# Every line the host reads starts with GUEST-.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
# (The image's /sbin/nearby-init mounted /proc, /sys, /dev and the worktree, then ran this.)
say() { echo "GUEST-$*" > /dev/ttyS0; }
arg() { sed -n "s/.*nearby.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
WORKTREE=$(arg worktree); SWIFT=$(arg swift)
mkdir -p /dev/pts /run /tmp
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /run
# A tmpfs on /tmp would hide a worktree checked out under /tmp (mounted there already); the
# root is a throw-away snapshot, so /tmp on it is as good.
case "$WORKTREE" in /tmp/*) ;; *) mount -t tmpfs tmpfs /tmp ;; esac
hostname nearby-bluez-vm
say "BOOTED kernel=$(uname -r)"

# The Swift runtime at the same path as on the host (read-only), so nearby's RUNPATH holds.
mkdir -p "$SWIFT"
mount -t 9p -o trans=virtio,version=9p2000.L,ro swift "$SWIFT" || say "ERROR mount swift"

# User-mode network: the host (its virtual UWBS) is 10.0.2.2.
ip link set lo up
ip link set eth0 up && ip addr add 10.0.2.15/24 dev eth0 && ip route add default via 10.0.2.2

# D-Bus and bluetoothd, as Debian starts them (without systemd).
mkdir -p /run/dbus
dbus-daemon --system --fork --nopidfile
modprobe hci_uart
btattach -B /dev/hvc0 -P h4 > /tmp/btattach.log 2>&1 &
for i in $(seq 1 100); do [ -e /sys/class/bluetooth/hci0 ] && break; sleep 0.2; done
[ -e /sys/class/bluetooth/hci0 ] || say "ERROR no hci0 after btattach: $(cat /tmp/btattach.log)"
# LE privacy (main.conf Privacy=device): the kernel connects from a resolvable private address.
# Bumble's virtual link drops ATT between devices that connect from public addresses
# (specs/reference/ble.md §2, quirk 1), and private addresses are what a desktop BlueZ with
# privacy uses.
mkdir -p /etc/bluetooth
printf '[General]\nPrivacy = device\n' > /etc/bluetooth/main.conf
/usr/libexec/bluetooth/bluetoothd -n --experimental > /tmp/bluetoothd.log 2>&1 &
for i in $(seq 1 100); do bluetoothctl list 2>/dev/null | grep -q Controller && break; sleep 0.2; done
bluetoothctl power on > /tmp/power.log 2>&1
say "BLUETOOTHD $(bluetoothd --version) $(bluetoothctl list | tr '\n' ' ')"

# The test: a script from the host's tree, with its arguments (Tests/BlueZVM/guest-test.sh).
TEST=$(arg test)
if [ -n "$TEST" ]; then
  NEARBY="$(arg nearby)" UWB="$(arg uwb)" ACCESSORY="$(arg accessory)" sh "$WORKTREE/$TEST" 2>&1 | sed -u 's/^/GUEST-OUT /' > /dev/ttyS0
fi
say "BLUETOOTHD-LOG $(tail -c 2000 /tmp/bluetoothd.log | tr '\n' '|')"
say "DONE"
sync
echo o > /proc/sysrq-trigger
sleep 5
poweroff -f
