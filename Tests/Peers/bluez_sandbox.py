#!/usr/bin/env python3
"""A BlueZ sandbox for trying `--hci bluez` without hardware (docs/bluez.md): a private
dbus-daemon, the mock bluetoothd of the tests (bluez_mock.py) with a Bumble controller as its
radio, a Bumble NI accessory ("nb-peer", F0:F1:F2:F3:F4:F5) and `nearby sim uwbs` as the dev kit
both range through. Prints the environment to use, then runs until Ctrl-C.

    .build/venv/bin/python Tests/Peers/bluez_sandbox.py --nearby .build/debug/nearby
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def wait_for(process: subprocess.Popen, pattern: str, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            if process.poll() is not None:
                raise SystemExit(f'bluez_sandbox: {process.args[0]} ended before printing {pattern!r}')
            continue
        match = re.search(pattern, line)
        if match:
            return match.group(0)
    raise SystemExit(f'bluez_sandbox: no {pattern!r} within {timeout} s')


def main() -> int:
    parser = argparse.ArgumentParser(description='a private bus with a mock bluetoothd and a Bumble NI accessory')
    parser.add_argument('--nearby', default='.build/debug/nearby', help='the nearby executable (for `nearby sim uwbs`)')
    parser.add_argument('--bluez', default='', help='more bluez_mock.py options, e.g. "--powered-off"')
    options = parser.parse_args()
    directory = tempfile.mkdtemp(prefix='nearby-bluez-sandbox-')
    address = f'unix:path={directory}/bus'
    with open(f'{directory}/bus.conf', 'w') as config:
        config.write(f'''<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>custom</type><listen>{address}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/></policy></busconfig>
''')
    children = []

    def start(arguments, env=None, **kwargs):
        child = subprocess.Popen(arguments, stdout=subprocess.PIPE, text=True, env={**os.environ, 'PYTHONUNBUFFERED': '1', **(env or {})}, **kwargs)
        children.append(child)
        return child

    try:
        bus = start(['dbus-daemon', f'--config-file={directory}/bus.conf', '--nofork', '--nopidfile', '--print-address=1'])
        wait_for(bus, 'unix:path=')
        uwbs = start([options.nearby, 'sim', 'uwbs', '--listen', '127.0.0.1:0', '--noise', 'ideal'])
        uwbs_address = wait_for(uwbs, r'127\.0\.0\.1:\d+')
        hci_port = free_port()
        peer = start([sys.executable, os.path.join(HERE, 'ble_peer.py'), '--port', str(hci_port),
                      '--behaviour', 'blepeer.ni_accessory:NIAccessoryBehaviour'], env={'NEARBY_NI_UWBS': uwbs_address})
        wait_for(peer, 'READY')
        mock = start([sys.executable, os.path.join(HERE, 'bluez_mock.py'), '--hci', f'tcp-client:127.0.0.1:{hci_port}',
                      *options.bluez.split()], env={'DBUS_SYSTEM_BUS_ADDRESS': address})
        wait_for(mock, 'BLUEZ-READY')
        print(f'export DBUS_SYSTEM_BUS_ADDRESS={address} NEARBY_SANDBOX_UWB=tcp:{uwbs_address}', flush=True)
        print('# the accessory: F0:F1:F2:F3:F4:F5 ("nb-peer", Nordic UART); the dev kit: $NEARBY_SANDBOX_UWB; Ctrl-C ends the sandbox',
              flush=True)
        signal.sigwait({signal.SIGINT, signal.SIGTERM})
    except KeyboardInterrupt:
        pass
    finally:
        for child in reversed(children):
            child.terminate()
        for child in children:
            try:
                child.wait(5)
            except subprocess.TimeoutExpired:
                child.kill()
    return 0


if __name__ == '__main__':
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    sys.exit(main())
