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
the raw UWB path against the simulator in another process, and a replay. Names are mangled.

First come the functions a sample executes in the steady state, workload by workload (the raw
UWB path's, then the demo's per update): those whose instruction count grows between a short and
a longer run of the same workload. A sample wakes a process that slept 50 ms with cold caches
and TLBs; its code then spans a few dozen contiguous pages instead of some 85 scattered over
5 MB. Then every other function, first seen first, workloads in the order above (what a run
keeps resident). A stale list is harmless (names no longer in the binary are ignored) and only
loses locality: regenerate it when the sample path changes.

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


def callgrind(binary: str, arguments: list[str], work: str, name: str) -> tuple[list[str], dict[str, int]]:
    """The functions one run executes, first seen first (mangled names), and each one's own
    instruction count (exclusive: a call's cost line after `calls=` belongs to the callee)."""
    out = os.path.join(work, f'callgrind.{name}')
    subprocess.run(['valgrind', '--tool=callgrind', '--demangle=no', f'--callgrind-out-file={out}', binary] + arguments,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=900)
    names: dict[str, str] = {}
    order: list[str] = []
    cost: dict[str, int] = {}
    pattern = re.compile(r'^(c?fn)=\((\d+)\)(?: (.*))?$')
    current = None
    skip_next = False
    with open(out, encoding='utf-8', errors='replace') as lines:
        for line in lines:
            line = line.rstrip('\n')
            match = pattern.match(line)
            if match:
                if match.group(3) and match.group(2) not in names:
                    names[match.group(2)] = match.group(3)
                    order.append(match.group(3))
                if match.group(1) == 'fn':
                    current = names.get(match.group(2))
                continue
            if line.startswith('calls='):
                skip_next = True
                continue
            if line[:1].isdigit() or line[:1] in '+-*':
                if skip_next:
                    skip_next = False
                    continue
                fields = line.split()
                if current and len(fields) >= 2 and fields[1].isdigit():
                    cost[current] = cost.get(current, 0) + int(fields[1])
    keep = [n for n in order if not n.startswith('0x') and ' ' not in n]
    return keep, cost


def steady(short: tuple[list[str], dict[str, int]], long: tuple[list[str], dict[str, int]]) -> list[str]:
    """The functions whose own instruction count grows from the short run to the long one (what
    each sample executes), in the long run's first-seen order."""
    names, cost = long
    return [n for n in names if cost.get(n, 0) > short[1].get(n, 0)]


def raw_path(binary: str, work: str, count: int = 40) -> tuple[list[str], dict[str, int]]:
    """`nearby uwb range` (under callgrind) against `nearby sim uwbs` (not measured) over TCP."""
    sim, port = start_sim(binary)
    try:
        return callgrind(binary, ['uwb', 'range', '--device', f'tcp:127.0.0.1:{port}', '--session-id', '42',
                                  '--interval-ms', '50', '--json', '--count', str(count)], work, f'raw-{count}')
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
        demo = ['demo', '--accessories', '8', '--interval-ms', '10', '--json', '--duration']
        raw_short, raw_long = raw_path(binary, work, 40), raw_path(binary, work, 140)
        demo_short, demo_long = callgrind(binary, demo + ['1'], work, 'demo-json-1'), callgrind(binary, demo + ['2'], work, 'demo-json')
        per_sample = [('uwb range, per sample', steady(raw_short, raw_long)),
                      ('demo --json, per update', steady(demo_short, demo_long))]
        runs = [
            ('demo --json', demo_long[0]),
            ('demo --json, whole scenario', callgrind(binary, ['demo', '--accessories', '4', '--interval-ms', '50', '--json', '--speed', '5'], work, 'demo-scenario')[0]),
            ('demo', callgrind(binary, ['demo', '--accessories', '2', '--speed', '5'], work, 'demo-text')[0]),
            ('uwb range', raw_long[0]),
            ('replay', callgrind(binary, ['replay', '--speed', '0', '--json', TRACE], work, 'replay')[0]),
        ]
    seen: set[str] = set()
    names: list[str] = []
    for _, run in per_sample + runs:
        for name in run:
            if name not in seen:
                seen.add(name)
                names.append(name)
    with open(args.output + '.tmp', 'w', encoding='utf-8') as file:
        file.write('\n'.join(names) + '\n')
    os.replace(args.output + '.tmp', args.output)
    counts = ', '.join(f'{label} {len(run)}' for label, run in per_sample + runs)
    print(f'{args.output}: {len(names)} functions ({counts}) in {time.monotonic() - started:.0f} s')
    return 0


if __name__ == '__main__':
    sys.exit(main())
