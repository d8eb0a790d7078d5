#!/usr/bin/env python3
"""Write packaging/nearby.order: the functions `nearby` executes, for the release link (`make
order-file`; specs/runtime.md section 6.1, "What the binary keeps in memory").

The release link puts every function in a section of its own and lays out the ones this file
names first, in its order (lld --symbol-ordering-file): the code a run touches is then a few
contiguous megabytes instead of pages scattered over the whole text, which is what the resident
set of a long run is made of. The list comes from valgrind's callgrind on the release binary
(with its symbols: .build/release/nearby; valgrind 3.19 cannot read DWARF 5, so a copy without
debug sections is run) over the runs users run most: the demo at 8 x 100 Hz, its whole scenario (zones, steps back,
walking away) with JSON and with text output,
the raw UWB path against the simulator in another process, and a replay. Names are mangled;
first seen first, workloads in that order. A stale list is harmless (names no longer in the
binary are ignored) and only loses locality: regenerate it when the sample path changes.

Usage: Tests/Perf/order-file.py [--binary .build/release/nearby] [--output packaging/nearby.order]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perf import ROOT, TRACE, start_sim  # noqa: E402  (the same simulator and trace as make perf)


def callgrind(binary: str, arguments: list[str], work: str, name: str) -> list[str]:
    """The functions one run executes, first seen first (mangled names)."""
    out = os.path.join(work, f'callgrind.{name}')
    subprocess.run(['valgrind', '--tool=callgrind', '--demangle=no', f'--callgrind-out-file={out}', binary] + arguments,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=900)
    names: dict[str, str] = {}
    order: list[str] = []
    pattern = re.compile(r'^c?fn=\((\d+)\)(?: (.*))?$')
    with open(out, encoding='utf-8', errors='replace') as lines:
        for line in lines:
            match = pattern.match(line.rstrip('\n'))
            if match and match.group(2) and match.group(1) not in names:
                names[match.group(1)] = match.group(2)
                order.append(match.group(2))
    return [n for n in order if not n.startswith('0x') and ' ' not in n]


def raw_path(binary: str, work: str) -> list[str]:
    """`nearby uwb range` (under callgrind) against `nearby sim uwbs` (not measured) over TCP."""
    sim, port = start_sim(binary)
    try:
        return callgrind(binary, ['uwb', 'range', '--device', f'tcp:127.0.0.1:{port}', '--session-id', '42',
                                  '--interval-ms', '50', '--json', '--count', '40'], work, 'raw')
    finally:
        sim.kill()
        sim.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--binary', default=os.path.join(ROOT, '.build', 'release', 'nearby'))
    parser.add_argument('--output', default=os.path.join(ROOT, 'packaging', 'nearby.order'))
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        print(f'order-file: {args.binary} does not exist: run make release first', file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as work:
        binary = os.path.join(work, 'nearby')
        subprocess.run(['objcopy', '--strip-debug', args.binary, binary], check=True)
        started = time.monotonic()
        runs = [
            ('demo --json', callgrind(binary, ['demo', '--accessories', '8', '--interval-ms', '10', '--json', '--duration', '2'], work, 'demo-json')),
            ('demo --json, whole scenario', callgrind(binary, ['demo', '--accessories', '4', '--interval-ms', '50', '--json', '--speed', '5'], work, 'demo-scenario')),
            ('demo', callgrind(binary, ['demo', '--accessories', '2', '--speed', '5'], work, 'demo-text')),
            ('uwb range', raw_path(binary, work)),
            ('replay', callgrind(binary, ['replay', '--speed', '0', '--json', TRACE], work, 'replay')),
        ]
    seen: set[str] = set()
    names: list[str] = []
    for _, run in runs:
        for name in run:
            if name not in seen:
                seen.add(name)
                names.append(name)
    with open(args.output + '.tmp', 'w', encoding='utf-8') as file:
        file.write('\n'.join(names) + '\n')
    os.replace(args.output + '.tmp', args.output)
    counts = ', '.join(f'{label} {len(run)}' for label, run in runs)
    print(f'{args.output}: {len(names)} functions ({counts}) in {time.monotonic() - started:.0f} s')
    return 0


if __name__ == '__main__':
    sys.exit(main())
