#!/usr/bin/env python3
"""Soak and fault harness for nearby (specs/soak.md): N virtual accessories ranging at a fixed
interval through the whole host path, for minutes or hours, with every sample counted.

The workload is `nearby demo` with its host's virtual kit served over TCP (`--serve-kit`) and
opened as a byte-stream kit (`--kit tcp:...`, or `--kit usb:1915:520f` through the umockdev USB
emulator): kit -> TCP (or USB bulk pipes) -> framer -> UCI client -> sessions -> ranging engine
-> RangingRun -> JSON lines on standard output, and hooks (with coalescing) on every zone change.

The harness
  - counts every `update` line per accessory as it streams (constant memory),
  - samples the nearby process's RSS and CPU time every --sample-seconds,
  - optionally injects faults at fixed times and measures how long ranging takes to resume,
  - at the end compares the updates received with the measurements the kit sent (`--kit-stats`)
    minus the drops the run counted (`dropped_samples`, `dropped_updates`), and checks that RSS
    after the warm-up stays within --rss-tolerance-kb of its first post-warm-up sample.

It prints a JSON report (also written to --report) and exits 0 when every check passed.

Faults (--faults, comma-separated):
  device-error  SIGUSR1 to nearby: the served kit sends CORE_DEVICE_STATUS_NTF(ERROR)
  unplug        with --kit usb: SIGUSR1 to the emulator (unplug), SIGUSR2 after --replug-seconds
  hook-hang     a hook on entering `near` that never ends (sleep) with a 2 s timeout
  full-disk     --record /dev/full: every trace row fails to be written
"""

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EMULATOR = os.path.join(HERE, '..', 'Peers', 'umockdev', 'emulator.py')
TICKS = os.sysconf('SC_CLK_TCK')


def free_port() -> int:
    """A port below the kernel's ephemeral range that a listener can bind now.

    bind(0) would give an ephemeral port, which any outgoing connection may take as its source
    port before the simulator binds it."""
    try:
        with open('/proc/sys/net/ipv4/ip_local_port_range') as f:
            low = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    import random
    for _ in range(200):
        port = random.randrange(max(1025, low - 12000), max(1026, low))
        with socket.socket() as s:
            try:
                s.bind(('127.0.0.1', port))
            except OSError:
                continue
            return port
    raise SystemExit('soak: no free TCP port below the ephemeral range')


def proc_rss_kb(pid: int) -> int | None:
    try:
        with open(f'/proc/{pid}/status') as f:
            for line in f:
                if line.startswith('VmRSS:'):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def proc_cpu_seconds(pid: int) -> float | None:
    try:
        with open(f'/proc/{pid}/stat') as f:
            fields = f.read().rsplit(')', 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS
    except (OSError, IndexError, ValueError):
        return None


def find_nearby(root: int, executable: str) -> int | None:
    """The `nearby` process: `root` itself or a descendant (under the USB emulator), found by
    its executable (a copy under another name counts: its comm is not `nearby` then)."""
    wanted = os.path.realpath(executable)
    pending = [root]
    while pending:
        pid = pending.pop()
        try:
            try:
                if os.path.realpath(os.readlink(f'/proc/{pid}/exe')) == wanted:
                    return pid
            except OSError:
                pass
            with open(f'/proc/{pid}/comm') as f:
                if f.read().strip() == 'nearby':
                    return pid
            with open(f'/proc/{pid}/task/{pid}/children') as f:
                pending += [int(child) for child in f.read().split()]
        except OSError:
            continue
    return None


class Counter:
    """Counts the JSON lines of the run as they stream."""

    def __init__(self, accessories: int) -> None:
        self.lock = threading.Lock()
        self.updates = {f'sim-{i + 1}': 0 for i in range(accessories)}
        self.events: dict[str, int] = {}
        self.last_update = {}          # accessory -> wall time of its last update
        self.summaries = []
        self.hooks = {'runs': 0, 'timed_out': 0, 'coalesced_events': 0}
        self.lines = 0
        self.errors: list[str] = []
        self.watches: list[dict] = []   # faults whose recovery is being timed

    def watch(self, injected: float, window: float) -> dict:
        """Times the recovery from a fault injected at `injected`: for each accessory, its
        longest silence (time between two updates) that ends within `window` seconds after the
        fault and began no earlier than it, and when that silence ended (ranging resumed)."""
        watch = {'injected': injected, 'until': injected + window, 'resumed': {}, 'silence': {}, 'replugged': None}
        with self.lock:
            self.watches.append(watch)
        return watch

    def feed(self, line: str) -> None:
        now = time.monotonic()
        with self.lock:
            self.lines += 1
            if '"event":"update"' in line:
                start = line.find('"accessory":"')
                if start >= 0:
                    end = line.find('"', start + 13)
                    name = line[start + 13:end]
                    self.updates[name] = self.updates.get(name, 0) + 1
                    previous = self.last_update.get(name, now)
                    for watch in self.watches:
                        if not watch['injected'] < now <= watch['until']:
                            continue
                        silence = now - max(previous, watch['injected'])
                        if silence > watch['silence'].get(name, -1):
                            watch['silence'][name] = silence
                            watch['resumed'][name] = now - watch['injected']
                    self.last_update[name] = now
                return
            try:
                obj = json.loads(line)
            except ValueError:
                return
            kind = obj.get('event', '?')
            self.events[kind] = self.events.get(kind, 0) + 1
            if kind == 'summary':
                self.summaries.append(obj)
            elif kind == 'hook':
                self.hooks['runs'] += 1
                self.hooks['timed_out'] += 1 if obj.get('timed_out') else 0
                self.hooks['coalesced_events'] += obj.get('coalesced_events') or 0
            elif kind == 'error' and len(self.errors) < 20:
                self.errors.append(line.strip())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--nearby', required=True, help='the nearby executable')
    parser.add_argument('--seconds', type=float, default=120, help='how long to range')
    parser.add_argument('--accessories', type=int, default=8)
    parser.add_argument('--interval-ms', type=int, default=10)
    parser.add_argument('--sample-seconds', type=float, default=60, help='RSS / CPU sampling period')
    parser.add_argument('--warmup-seconds', type=float, default=60, help='RSS samples before this are not compared')
    parser.add_argument('--rss-tolerance-kb', type=int, default=2048)
    parser.add_argument('--kit', choices=['tcp', 'usb'], default='tcp')
    parser.add_argument('--faults', default='', help='comma-separated: device-error, unplug, hook-hang, full-disk')
    parser.add_argument('--fault-every', type=float, default=45, help='seconds between injected faults')
    parser.add_argument('--replug-seconds', type=float, default=2)
    parser.add_argument('--report', help='write the JSON report here too')
    args = parser.parse_args()
    faults = [f for f in args.faults.split(',') if f]
    for fault in faults:
        if fault not in ('device-error', 'unplug', 'hook-hang', 'full-disk'):
            parser.error(f'unknown fault {fault}')
    if 'unplug' in faults and args.kit != 'usb':
        parser.error('the unplug fault needs --kit usb')

    work = tempfile.mkdtemp(prefix='nearby-soak-')
    config = os.path.join(work, 'config.toml')
    with open(config, 'w') as f:
        f.write('[[hook]]\non = "enter"\nrun = ["/bin/true"]\n\n[[hook]]\non = "exit"\nrun = ["/bin/true"]\n')
        if 'hook-hang' in faults:
            f.write('\n[[hook]]\nname = "hang"\non = "enter"\nzone = "near"\nrun = ["/bin/sleep", "3600"]\ntimeout = 2\n')
    port = free_port()
    command = [
        args.nearby, 'demo', '--scenario', 'random-walk', '--accessories', str(args.accessories),
        '--interval-ms', str(args.interval_ms), '--duration', str(args.seconds),
        '--serve-kit', f'127.0.0.1:{port}', '--json', '--kit-stats', '--config', config,
    ]
    if args.kit == 'tcp':
        command += ['--kit', f'tcp:127.0.0.1:{port}']
    else:
        command += ['--kit', 'usb:1915:520f']
        command = ['/usr/bin/python3', EMULATOR, '--kit', 'dwm3001cdk', '--quiet-packets',
                   '--uci', f'tcp:127.0.0.1:{port}', '--'] + command
    if 'full-disk' in faults:
        command += ['--record', '/dev/full']

    counter = Counter(args.accessories)
    stderr_lines: list[str] = []
    important: list[str] = []
    environment = dict(os.environ, SWIFT_BACKTRACE='enable=no')
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
                               env=environment)

    def read_stdout() -> None:
        for line in process.stdout:
            counter.feed(line)

    def read_stderr() -> None:
        for line in process.stderr:
            line = line.rstrip('\n')
            # Keep the kit's counts, warnings, errors and the emulator's events; a tail of the rest.
            if line.startswith('{"kit_packets"') or 'warning' in line or 'error' in line or line.startswith('emulator:'):
                important.append(line)
            stderr_lines.append(line)
            if len(stderr_lines) > 200:
                del stderr_lines[:100]

    readers = [threading.Thread(target=read_stdout, daemon=True), threading.Thread(target=read_stderr, daemon=True)]
    for reader in readers:
        reader.start()

    samples = []
    fault_log = []
    schedule = []
    at = args.fault_every
    for fault in faults:
        if fault in ('device-error', 'unplug'):
            schedule.append((at, fault))
            at += args.fault_every
    nearby_pid = None
    next_sample = started + min(args.sample_seconds, 5)
    while process.poll() is None:
        time.sleep(0.2)
        now = time.monotonic()
        if nearby_pid is None:
            nearby_pid = find_nearby(process.pid, args.nearby)
        if nearby_pid and now >= next_sample:
            rss, cpu = proc_rss_kb(nearby_pid), proc_cpu_seconds(nearby_pid)
            if rss is not None and cpu is not None:
                with counter.lock:
                    total = sum(counter.updates.values())
                samples.append({'t_s': round(now - started, 1), 'rss_kb': rss, 'cpu_s': round(cpu, 2), 'updates': total})
            next_sample += args.sample_seconds
        if schedule and now - started >= schedule[0][0] and nearby_pid:
            _, fault = schedule.pop(0)
            injected = time.monotonic()
            if fault == 'device-error':
                os.kill(nearby_pid, signal.SIGUSR1)
                resume_from = injected
            else:
                os.kill(process.pid, signal.SIGUSR1)      # the emulator: unplug
                time.sleep(args.replug_seconds)
                os.kill(process.pid, signal.SIGUSR2)      # replug
                resume_from = time.monotonic()
            watch = counter.watch(injected, min(args.fault_every - 1, 15))
            if fault == 'unplug':
                watch['replugged'] = resume_from
            fault_log.append({'fault': fault, 't_s': round(injected - started, 1), 'watch': watch})
    for reader in readers:
        reader.join(timeout=10)
    ended = time.monotonic()

    report: dict = {
        'command': ' '.join(command), 'exit_status': process.returncode, 'seconds': round(ended - started, 1),
        'accessories': args.accessories, 'interval_ms': args.interval_ms, 'kit': args.kit, 'faults': faults,
    }
    kit = {}
    for line in important:
        if line.startswith('{"kit_packets"'):
            kit = json.loads(line)
    updates = sum(counter.updates.values())
    accessory_summaries = [s for s in counter.summaries if s.get('accessory')]
    run_summary = next((s for s in counter.summaries if not s.get('accessory')), {})
    dropped_samples = sum(s.get('dropped_samples', 0) for s in accessory_summaries)
    # Samples of a UWB session that had stopped (a retry's old session): discarded and counted.
    discarded_samples = sum(s.get('discarded_samples', 0) for s in accessory_summaries)
    dropped_updates = run_summary.get('dropped_updates', 0)
    summary_updates = sum(s.get('updates', 0) for s in accessory_summaries)
    report['counts'] = {
        'kit_session_info_ntf': kit.get('kit_session_info_ntf'), 'kit_measurements': kit.get('kit_measurements'),
        'updates_received': updates, 'updates_in_summary': summary_updates, 'per_accessory': counter.updates,
        'dropped_samples': dropped_samples, 'discarded_samples': discarded_samples, 'dropped_updates': dropped_updates,
        'host_unrouted_measurements': kit.get('host_unrouted_measurements'),
        'unaccounted': None if not kit else
            kit['kit_measurements'] - updates - dropped_samples - discarded_samples - dropped_updates
            - kit.get('host_unrouted_measurements', 0),
        'events': counter.events, 'hooks': counter.hooks, 'hook_runs_in_summary': run_summary.get('hook_runs'),
        'hook_events_dropped': run_summary.get('hook_events_dropped'), 'errors': counter.errors,
    }
    report['samples'] = samples
    warm = [s for s in samples if s['t_s'] >= args.warmup_seconds]
    if warm:
        base = warm[0]['rss_kb']
        report['rss'] = {'after_warmup_kb': base, 'min_kb': min(s['rss_kb'] for s in warm),
                         'max_kb': max(s['rss_kb'] for s in warm),
                         'max_drift_kb': max(abs(s['rss_kb'] - base) for s in warm), 'samples': len(warm)}
    if len(samples) >= 2:
        first, last = samples[0], samples[-1]
        report['cpu_percent'] = round(100 * (last['cpu_s'] - first['cpu_s']) / max(0.001, last['t_s'] - first['t_s']), 1)
    report['faults_injected'] = []
    for fault in fault_log:
        watch = fault['watch']
        resumed, silence = watch['resumed'], watch['silence']
        entry = {
            'fault': fault['fault'], 't_s': fault['t_s'], 'accessories_resumed': len(resumed),
            'longest_silence_s': round(max(silence.values()), 3) if silence else None,
            'all_resumed_after_s': round(max(resumed.values()), 3) if resumed else None,
            'first_resumed_after_s': round(min(resumed.values()), 3) if resumed else None,
        }
        if watch['replugged'] is not None and resumed:
            entry['all_resumed_after_replug_s'] = round(max(resumed.values()) - (watch['replugged'] - watch['injected']), 3)
        report['faults_injected'].append(entry)
    report['stderr_notable'] = [l for l in important if not l.startswith('{"kit_packets"')][-30:]
    report['stderr_tail'] = [l for l in stderr_lines if not l.startswith('{"kit_packets"')][-10:]

    checks = {'exited_cleanly': process.returncode == 0, 'kit_counted': bool(kit), 'every_accessory_ranged':
              all(n > 0 for n in counter.updates.values())}
    if kit:
        # An unplug loses what was in flight between the kit and the host (the emulator's
        # buffer, the socket to the kit): the kit counted it as sent, the host never saw it
        # (specs/soak.md §3). That is allowed, up to one second of rounds per unplug, and
        # reported; anything else must be accounted for exactly.
        unplugs = sum(1 for fault in fault_log if fault['fault'] == 'unplug')
        unaccounted = report['counts']['unaccounted']
        if unplugs:
            bound = unplugs * args.accessories * max(1, round(1000 / args.interval_ms))
            report['counts']['lost_in_unplugs'] = unaccounted
            report['counts']['lost_in_unplugs_bound'] = bound
            checks['nothing_unaccounted'] = 0 <= unaccounted <= bound
        else:
            checks['nothing_unaccounted'] = unaccounted == 0
    checks['summary_matches_stream'] = summary_updates == updates
    if 'rss' in report:
        checks['rss_within_tolerance'] = report['rss']['max_drift_kb'] <= args.rss_tolerance_kb
    elif args.seconds > args.warmup_seconds + args.sample_seconds:
        checks['rss_sampled'] = False       # the nearby process was never found to sample
    for fault in report['faults_injected']:
        checks[f"resumed_after_{fault['fault']}_at_{fault['t_s']}s"] = fault['accessories_resumed'] == args.accessories
    if 'hook-hang' in faults:
        checks['hung_hook_reported'] = counter.hooks['timed_out'] > 0
    if 'full-disk' in faults:
        checks['full_disk_reported'] = any('--record' in l and 'warning' in l for l in important)
    report['checks'] = checks
    report['passed'] = all(checks.values())
    text = json.dumps(report, indent=2)
    print(text)
    if args.report:
        with open(args.report, 'w') as f:
            f.write(text + '\n')
    return 0 if report['passed'] else 1


if __name__ == '__main__':
    sys.exit(main())
