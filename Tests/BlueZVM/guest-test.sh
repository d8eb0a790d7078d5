#!/bin/sh
# The commands `make test-bluez` runs in the guest, through the real bluetoothd: nearby's
# doctor, scan (same JSON as over HCI), range with the Bumble NI accessory (the exchange time in
# its configured event). $NEARBY: the executable; $UWB: the host's virtual UWBS; $ACCESSORY: the
# accessory's address. Lines: GUEST-OUT ... (the host parses them).
set -u
echo "DOCTOR $($NEARBY doctor --json)"
echo "SCAN-BEGIN"
$NEARBY scan --duration 4 --json
echo "SCAN-END status=$?"
# Everything the kernel and the controller say from here on, for the host (btmon's btsnoop).
btmon -w /tmp/connect.btsnoop > /dev/null 2>&1 &
BTMON=$!
# How long BlueZ takes to connect and resolve the services here (TCG is slow).
START=$(cat /proc/uptime | cut -d' ' -f1)
timeout 60 bluetoothctl --timeout 50 connect "$ACCESSORY" > /tmp/connect.log 2>&1
END=$(cat /proc/uptime | cut -d' ' -f1)
echo "BLUETOOTHCTL-CONNECT seconds=$(awk "BEGIN { print $END - $START }") $(grep -c 'Connection successful' /tmp/connect.log) resolved=$(bluetoothctl info "$ACCESSORY" | grep -c 'ServicesResolved: yes')"
bluetoothctl disconnect "$ACCESSORY" > /dev/null 2>&1
sleep 2
echo "RANGE-BEGIN"
# SIGINT after 30 s (a clean stop and summary), SIGKILL 10 s later if it is still connecting.
timeout -k 10 -s INT 30 $NEARBY range "$ACCESSORY" --uwb "$UWB" --json --store /tmp/accessories.json > /tmp/range.out 2> /tmp/range.err
echo "RANGE-STATUS $?"
grep -E '"event":"(configured|state|summary)"' /tmp/range.out
grep -c '"event":"update"' /tmp/range.out | sed 's/^/RANGE-UPDATES /'
tail -5 /tmp/range.err
echo "RANGE-END"
kill $BTMON; sleep 1
echo "BTSNOOP $(base64 -w0 /tmp/connect.btsnoop)"
