#!/usr/bin/env python3
"""`make test-bluez`: nearby through a real bluetoothd (Debian 12's, BlueZ 5.66) in a qemu guest.

Host: `nearby sim uwbs` (the dev kits), a Bumble peer (ble_peer.py: controller C0 + the NI
accessory ranging through the virtual UWBS), and, for comparison in the same run, `nearby range`
over this program's own host on a second Bumble peer. Guest (Tests/BlueZVM/build-image.sh:
Debian's kernel + a debootstrap root with bluez): C0 is attached with btattach over a virtio
console (H4 over the socket qemu connects to the peer), bluetoothd owns hci0, and nearby (the
host's build, over 9p) runs Tests/BlueZVM/guest-test.sh through it: doctor, scan, range.

Prints what it saw and exits 0 when the guest's scan found the accessory, BlueZ's own Device1.Connect
connected it with its services resolved, and nearby's range reached the accessory (a configured
event, at least 5 updates) and stopped cleanly on SIGINT with its summary, the accessory having got
nearby's stop message (0x0C) before the link ended. It reports (does not yet require) whether
`nearby setup --pair` paired through bluetoothd with nearby's agent (the same number on both
sides, the bond BlueZ's) and forget removed the device, and whether the guest's `nearby accessory`
(a GATT application and an advertisement through bluetoothd) ranged with the host's phone
(`nearby range` on the peer's second controller, having found it by name), went idle when the
phone left and stopped cleanly. The exchange times of both backends are printed.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ACCESSORY = 'F0:F1:F2:F3:F4:F5'


def free_port() -> int:
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def wait_line(process: subprocess.Popen, pattern: str, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if line:
            match = re.search(pattern, line)
            if match:
                return match.group(0)
        elif process.poll() is not None:
            raise SystemExit(f'test-bluez: {process.args[:2]} ended before {pattern!r}')
    raise SystemExit(f'test-bluez: no {pattern!r} within {timeout} s')


class Phone:
    """The phone for the guest's `nearby accessory`: nearby's own host on the peer's second
    controller finds the advertisement named "door" (`nearby scan`; with Privacy = device the
    guest advertises from a resolvable private address), ranges with it until 5 updates, then
    stops with SIGINT (the accessory then goes idle, which ends the guest's accessory phase)."""

    def __init__(self, nearby: str, port: int, uwbs_port: int) -> None:
        self.nearby, self.port, self.uwbs_port = nearby, port, uwbs_port
        self.thread: threading.Thread | None = None
        self.found = ''
        self.updates = 0
        self.last_distance: float | None = None
        self.exchange: list[float] = []
        self.status: int | None = None
        self.error = ''
        self.process: subprocess.Popen | None = None

    def kill(self) -> None:
        """Ends a `nearby range` still running (the guest never got that far)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()

    def start(self) -> None:
        if self.thread is None:
            self.thread = threading.Thread(target=self.run, daemon=True)
            self.thread.start()

    def join(self) -> None:
        if self.thread is not None:
            self.thread.join(150)

    def run(self) -> None:
        hci = f'tcp:127.0.0.1:{self.port}'
        scan = subprocess.run([self.nearby, 'scan', '--name', 'door', '--duration', '20', '--json', '--hci', hci],
                              capture_output=True, text=True, timeout=90)
        seen = [json.loads(l) for l in scan.stdout.splitlines() if l.startswith('{')]
        if not seen:
            self.error = f'scan found no "door": {scan.stderr[-1500:]}'
            return
        self.found = f'{seen[0]["address"]}/{seen[0].get("address_type", "random")}'
        store = f'/tmp/nearby-test-bluez-phone-{os.getpid()}.json'
        self.process = phone = subprocess.Popen([self.nearby, 'range', self.found, '--hci', hci, '--uwb', f'tcp:127.0.0.1:{self.uwbs_port}',
                                  '--json', '--store', store], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 90
        for line in phone.stdout:
            if '"event":"configured"' in line:
                self.exchange.append(json.loads(line)['exchange_ms'])
            if '"event":"update"' in line:
                self.updates += 1
                self.last_distance = json.loads(line).get('distance_m')
            if self.updates >= 5 or time.monotonic() > deadline:
                break
        phone.send_signal(signal.SIGINT)
        try:
            _, errors = phone.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            phone.kill()
            _, errors = phone.communicate()
        self.status = phone.returncode
        if self.updates < 5 or self.status != 0:
            self.error = f'range: {errors[-1500:]}'


def accelerator() -> list[str]:
    """TCG unless NEARBY_QEMU_ACCEL=kvm: on this project's machines /dev/kvm exists but a guest
    hangs right after the kernel is decompressed (nested virtualization without VMX), so KVM is
    opt-in."""
    if os.environ.get('NEARBY_QEMU_ACCEL') == 'kvm':
        return ['-enable-kvm']
    return ['-accel', 'tcg']


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument('--nearby', required=True)
    parser.add_argument('--image', default=os.path.join(ROOT, '.build/bluez-vm'))
    parser.add_argument('--python', default=os.path.join(ROOT, '.build/venv/bin/python'))
    parser.add_argument('--timeout', type=float, default=900)
    options = parser.parse_args()
    nearby = os.path.abspath(options.nearby)
    children: list[subprocess.Popen] = []
    phones: list[Phone] = []

    def start(arguments, env=None):
        child = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                 env={**os.environ, 'PYTHONUNBUFFERED': '1', **(env or {})})
        children.append(child)
        return child

    try:
        uwbs = start([nearby, 'sim', 'uwbs', '--listen', '127.0.0.1:0', '--noise', 'ideal'])
        uwbs_port = int(wait_line(uwbs, r'127\.0\.0\.1:(\d+)', 60).split(':')[1])
        ni = ['--behaviour', 'blepeer.ni_accessory:NIAccessoryBehaviour']
        # C0 hardware-like (blepeer/controller.py's strict mode): it honours the event masks, so
        # after LE Extended Create Connection it sends LE Enhanced Connection Complete, the event
        # Linux (6.1's hci_le_ext_create_conn_sync) waits for. Stock Bumble sends the legacy LE
        # Connection Complete; the kernel then timed out, cancelled an established link's
        # creation, and bluetoothctl's connect took 51 s with the services never resolved.
        strict = ['--strict']
        peer_port, own_port, phone_port = free_port(), free_port(), free_port()
        # --second-port: a second controller on the same air for the phone that ranges with the
        # guest's `nearby accessory` (nearby's own host, on the host).
        # --io displayyesno: the guest pairs with it through bluetoothd (numeric comparison).
        peer = start([options.python, os.path.join(ROOT, 'Tests/Peers/ble_peer.py'), '--port', str(peer_port), *ni, *strict,
                      '--second-port', str(phone_port), '--io', 'displayyesno'],
                     env={'NEARBY_NI_UWBS': f'127.0.0.1:{uwbs_port}'})
        wait_line(peer, 'READY', 60)

        # The own host, same kind of peer, same virtual UWBS: the comparison of the same run.
        own_peer = start([options.python, os.path.join(ROOT, 'Tests/Peers/ble_peer.py'), '--port', str(own_port), *ni],
                         env={'NEARBY_NI_UWBS': f'127.0.0.1:{uwbs_port}'})
        wait_line(own_peer, 'READY', 60)
        own = subprocess.run(['timeout', '-s', 'INT', '12', nearby, 'range', ACCESSORY, '--hci', f'tcp:127.0.0.1:{own_port}',
                              '--uwb', f'tcp:127.0.0.1:{uwbs_port}', '--json', '--store', f'/tmp/nearby-test-bluez-{os.getpid()}.json'],
                             capture_output=True, text=True)
        own_exchange = [json.loads(l)['exchange_ms'] for l in own.stdout.splitlines() if '"event":"configured"' in l]
        print(f'own host (HCI over TCP to Bumble): configured exchange_ms={own_exchange}', flush=True)

        accel = accelerator()
        print(f'qemu: {"KVM" if "-enable-kvm" in accel else "TCG"}', flush=True)
        append = ' '.join([
            'root=/dev/vda', 'rw', 'console=ttyS0', 'init=/sbin/nearby-init', 'net.ifnames=0', 'quiet', 'loglevel=4',
            f'nearby.worktree={ROOT}', 'nearby.swift=/opt/swift', 'nearby.test=Tests/BlueZVM/guest-test.sh',
            f'nearby.nearby={nearby}', f'nearby.uwb=tcp:10.0.2.2:{uwbs_port}', f'nearby.accessory={ACCESSORY}',
        ])
        qemu = start([
            'qemu-system-x86_64', *accel, '-machine', 'q35', '-m', '1024', '-smp', '2', '-nographic', '-no-reboot',
            '-kernel', os.path.join(options.image, 'vmlinuz'), '-initrd', os.path.join(options.image, 'initrd.img'),
            '-append', append,
            '-drive', f'file={os.path.join(options.image, "root.ext4")},format=raw,if=virtio,snapshot=on',
            '-device', 'virtio-serial-pci',
            '-chardev', f'socket,id=hci,host=127.0.0.1,port={peer_port}', '-device', 'virtconsole,chardev=hci',
            '-fsdev', f'local,id=wt,path={ROOT},security_model=none,readonly=on', '-device', 'virtio-9p-pci,fsdev=wt,mount_tag=worktree',
            '-fsdev', 'local,id=sw,path=/opt/swift,security_model=none,readonly=on', '-device', 'virtio-9p-pci,fsdev=sw,mount_tag=swift',
            '-netdev', 'user,id=n0', '-device', 'virtio-net-pci,netdev=n0',
        ])
        phone = Phone(nearby, phone_port, uwbs_port)
        phones.append(phone)
        lines: list[str] = []
        deadline = time.monotonic() + options.timeout
        while time.monotonic() < deadline:
            line = qemu.stdout.readline()
            if not line:
                if qemu.poll() is not None:
                    break
                continue
            line = line.rstrip('\r\n')
            if 'GUEST-' in line:
                line = line[line.index('GUEST-'):]
                lines.append(line)
                if not line.startswith('GUEST-OUT BTSNOOP'):
                    print(line, flush=True)
                if line.startswith('GUEST-OUT ACCESSORY-WAITING'):
                    phone.start()
                if line == 'GUEST-DONE':
                    break
            elif os.environ.get('NEARBY_QEMU_VERBOSE'):
                print(line, flush=True)
        outputs = [l[len('GUEST-OUT '):] for l in lines if l.startswith('GUEST-OUT ')]
        for snoop in (l[len('BTSNOOP '):] for l in outputs if l.startswith('BTSNOOP ')):
            path = os.path.join(options.image, 'guest.btsnoop')
            with open(path, 'wb') as file:
                file.write(base64.b64decode(snoop))
            print(f'the guest\'s HCI trace (btmon): {path}', flush=True)
        scan = [json.loads(l) for l in outputs if l.startswith('{"address"')]
        configured = [json.loads(l) for l in outputs if '"event":"configured"' in l]
        updates = next((int(l.split()[1]) for l in outputs if l.startswith('RANGE-UPDATES')), 0)
        connect = next((l for l in outputs if l.startswith('CONNECT ')), '')
        resolved = 'status=0 ' in connect and 'resolved=1' in connect
        # Stopped by SIGINT: the run's own summary, marked interrupted (a clean stop, not a kill).
        summary = any('"event":"summary"' in l and '"interrupted":true' in l for l in outputs)
        found = any(o.get('address') == ACCESSORY and o.get('name') == 'nb-peer' for o in scan)
        stop_seconds = next((l.split()[1] for l in outputs if l.startswith('RANGE-STOP-SECONDS')), '?')
        # The accessory got nearby's 0x0C stop before the link ended (bluetoothd's 2 s DISCONNECT_TIMER).
        peer.terminate()
        try:
            peer_output = peer.communicate(timeout=10)[0]
        except subprocess.TimeoutExpired:
            peer.kill()
            peer_output = peer.communicate()[0]
        stopped = 'NI-STOP' in peer_output
        with open(os.path.join(options.image, 'peer.log'), 'w') as file:
            file.write(peer_output)
        # The accessory role: the guest's accessory ranged with the host's phone and went idle, then stopped.
        phone.join()
        begin = next((i for i, l in enumerate(outputs) if l.startswith('ACCESSORY-STATUS')), len(outputs))
        end = next((i for i, l in enumerate(outputs) if l == 'ACCESSORY-END'), len(outputs))
        accessory_states = [json.loads(l).get('state') for l in outputs[begin:end] if l.startswith('{') and '"event":"state"' in l]
        accessory_updates = next((int(l.split()[1]) for l in outputs if l.startswith('ACCESSORY-UPDATES')), 0)
        accessory_status = next((l.split()[1] for l in outputs if l.startswith('ACCESSORY-STATUS')), '?')
        # Reported, not yet required: in 1 of 7 runs no notification reached the phone after its
        # first write; the cause, in nearby, is fixed (specs/ble-bluez.md §5, §9.1).
        accessory_ok = (accessory_status == '0' and accessory_updates >= 3 and 'ranging' in accessory_states
                        and accessory_states[-1:] == ['stopped'] and phone.updates >= 5 and phone.status == 0)
        print(f'guest accessory (nearby accessory through bluetoothd; reported, not required): {"passed" if accessory_ok else "FAILED"}: status {accessory_status}, states {accessory_states}, '
              f'updates {accessory_updates}; host phone: found {phone.found or "nothing"}, {phone.updates} updates '
              f'(last {phone.last_distance} m), exit {phone.status}; configured exchange_ms={phone.exchange}', flush=True)
        if phone.error:
            print(f'host phone: {phone.error}', flush=True)
        # Pairing through bluetoothd's Device1.Pair with nearby's agent: the same number on both
        # sides, the bond BlueZ's, then gone after forget.
        pair_status = next((l.split()[1] for l in outputs if l.startswith('PAIR-STATUS')), '?')
        pair_record = next((json.loads(l) for l in outputs if l.startswith('{') and '"bond_holder"' in l), {})
        guest_numbers = re.findall(r'\b(\d{6})\b', ' '.join(l for l in outputs if 'numeric comparison' in l))
        peer_numbers = re.findall(r'COMPARE number=(\d{6})', peer_output)
        bonded = any(l.startswith('PAIR-BONDED') and l.endswith('b true') for l in outputs)
        # The device object is gone (busctl: "... doesn't exist" / UnknownObject).
        forgotten = any(l.startswith('FORGET-STATUS 0') and ("doesn't exist" in l or 'UnknownObject' in l) for l in outputs)
        paired_ok = (pair_status == '0' and pair_record.get('bond_holder') == 'bluez' and bool(peer_numbers)
                     and peer_numbers[:1] == guest_numbers[:1] and 'PAIRED sc=1' in peer_output and bonded and forgotten)
        # Reported, not yet required: with three busy loops beside qemu, `setup` once heard no
        # accessory in 30 s right after the range phase (specs/ble-bluez.md §9.1).
        print(f'guest pairing (nearby setup --pair through bluetoothd; reported, not required): {"passed" if paired_ok else "FAILED"}: status {pair_status}, bond_holder {pair_record.get("bond_holder")}, '
              f'numbers guest {guest_numbers[:1]} accessory {peer_numbers[:1]}, BlueZ paired {bonded}, forgotten {forgotten}', flush=True)
        print(f'guest: scan objects {len(scan)} (accessory found: {found}); Device1.Connect and services resolved: {resolved}; '
              f'range configured {len(configured)}, updates {updates}, clean stop with a summary: {summary} '
              f'({stop_seconds} s from SIGINT to exit); the accessory got the stop message: {stopped}', flush=True)
        if configured:
            print(f'BlueZ 5.66 in qemu (real bluetoothd, btattach to Bumble): configured exchange_ms={[c["exchange_ms"] for c in configured]}',
                  flush=True)
        return 0 if found and resolved and configured and updates >= 5 and summary and stopped else 1
    finally:
        for phone in phones:
            phone.kill()
        for child in reversed(children):
            child.terminate()
        for child in children:
            try:
                child.wait(10)
            except subprocess.TimeoutExpired:
                child.kill()


if __name__ == '__main__':
    sys.exit(main())
