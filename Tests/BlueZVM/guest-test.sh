#!/bin/sh
# The commands `make test-bluez` runs in the guest, through the real bluetoothd: nearby's
# doctor, scan (same JSON as over HCI), range with the Bumble NI accessory (the exchange time in
# its configured event), pairing with nearby's agent (numeric comparison) and forget, then the
# accessory role (`nearby accessory`, a phone on the host ranges
# with it). $NEARBY: the executable; $UWB: the host's virtual UWBS; $ACCESSORY: the
# accessory's address. Lines: GUEST-OUT ... (the host parses them).
set -u
echo "DOCTOR $($NEARBY doctor --json)"
echo "SCAN-BEGIN"
# Up to four 4 s scans until the accessory is heard (the guest is slow under TCG on a busy host:
# one 4 s scan heard nothing once while the host built a release beside it).
for i in 1 2 3 4; do
  $NEARBY scan --duration 4 --json > /tmp/scan.out
  STATUS=$?
  cat /tmp/scan.out
  grep -q "\"$ACCESSORY\"" /tmp/scan.out && break
done
echo "SCAN-END status=$STATUS"
# Everything the kernel and the controller say from here on, for the host (btmon's btsnoop).
btmon -w /tmp/connect.btsnoop > /dev/null 2>&1 &
BTMON=$!
# How long BlueZ takes to connect and resolve the services here: Device1.Connect called directly
# (busctl returns with its reply; bluetoothctl in non-interactive mode stays until its --timeout),
# then ServicesResolved polled for up to 20 s.
DEVICE=/org/bluez/hci0/dev_$(echo "$ACCESSORY" | tr : _)
START=$(cut -d' ' -f1 /proc/uptime)
busctl --timeout=60 call org.bluez "$DEVICE" org.bluez.Device1 Connect > /tmp/connect.log 2>&1
CONNECT=$?
END=$(cut -d' ' -f1 /proc/uptime)
RESOLVED=0
for i in $(seq 1 100); do
  busctl get-property org.bluez "$DEVICE" org.bluez.Device1 ServicesResolved 2>/dev/null | grep -q true && { RESOLVED=1; break; }
  sleep 0.2
done
RESOLVED_AT=$(cut -d' ' -f1 /proc/uptime)
echo "CONNECT status=$CONNECT seconds=$(awk "BEGIN { print $END - $START }") resolved=$RESOLVED resolved_seconds=$(awk "BEGIN { print $RESOLVED_AT - $START }") $(tr '\n' ' ' < /tmp/connect.log)"
busctl --timeout=20 call org.bluez "$DEVICE" org.bluez.Device1 Disconnect > /dev/null 2>&1
sleep 2
echo "RANGE-BEGIN"
# SIGINT after 30 s (a clean stop and summary), SIGKILL 10 s later if it is still connecting.
RANGE_START=$(cut -d' ' -f1 /proc/uptime)
timeout -k 10 -s INT 30 $NEARBY range "$ACCESSORY" --uwb "$UWB" --json --store /tmp/accessories.json > /tmp/range.out 2> /tmp/range.err
echo "RANGE-STATUS $?"
# From SIGINT to exit: the stop message, then Device1.Disconnect (bluetoothd's DISCONNECT_TIMER).
echo "RANGE-STOP-SECONDS $(awk "BEGIN { print $(cut -d' ' -f1 /proc/uptime) - $RANGE_START - 30 }")"
grep -E '"event":"(configured|state|summary)"' /tmp/range.out
grep -c '"event":"update"' /tmp/range.out | sed 's/^/RANGE-UPDATES /'
tail -5 /tmp/range.err
echo "RANGE-END"

# Pairing through bluetoothd with nearby's agent: numeric comparison (the accessory displays and
# confirms, --confirm answers here), the bond kept by BlueZ; then forget removes the device.
timeout -k 10 -s INT 90 $NEARBY setup --pick first --timeout 30 --name Tag --pair --confirm --store /tmp/pair-store.json --json \
  > /tmp/pair.out 2> /tmp/pair.err
echo "PAIR-STATUS $?"
cat /tmp/pair.out
grep -E "paired|numeric comparison|error" /tmp/pair.err; tail -3 /tmp/pair.err
echo "PAIR-BONDED $(busctl get-property org.bluez "$DEVICE" org.bluez.Device1 Paired 2>&1)"
$NEARBY accessories forget Tag --store /tmp/pair-store.json 2>&1
echo "FORGET-STATUS $? $(busctl get-property org.bluez "$DEVICE" org.bluez.Device1 Paired 2>&1 | head -1)"
echo "PAIR-END"

# The accessory role through bluetoothd: a GATT application and an advertisement ("door"); the
# host's phone (nearby's own host on a second Bumble controller of the same air) finds it by
# name and ranges, then leaves; once this accessory is idle again it is stopped with SIGINT.
timeout -k 10 -s INT 150 $NEARBY accessory --uwb "$UWB" --name door --json --store /tmp/accessory-store.json \
  > /tmp/accessory.out 2> /tmp/accessory.err &
ACCESSORY_PID=$!
for i in $(seq 1 300); do grep -q "waiting for phones" /tmp/accessory.err && break; sleep 0.2; done
echo "ACCESSORY-WAITING $(grep -c 'waiting for phones' /tmp/accessory.err)"
# The phone came, ranged and left: a state "idle" after "ranging" (at most 120 s).
for i in $(seq 1 600); do
  grep '"event":"state"' /tmp/accessory.out | grep -A1000 '"state":"ranging"' | grep -q '"state":"idle"' && break
  sleep 0.2
done
kill -INT $ACCESSORY_PID
wait $ACCESSORY_PID
echo "ACCESSORY-STATUS $?"
grep -E '"event":"(state|summary)"' /tmp/accessory.out
grep -c '"event":"update"' /tmp/accessory.out | sed 's/^/ACCESSORY-UPDATES /'
tail -5 /tmp/accessory.err
echo "ACCESSORY-END"
kill $BTMON; sleep 1
echo "BTSNOOP $(base64 -w0 /tmp/connect.btsnoop)"
