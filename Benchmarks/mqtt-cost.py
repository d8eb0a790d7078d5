#!/usr/bin/env python3
"""What publishing to MQTT costs `nearby` at 8 accessories x 100 Hz (specs/mqtt.md, "Cost").

Needs a release build (`make release`) and Debian's mosquitto (`make deps`). Starts its own
broker on a free loopback port and measures CPU time (user + system, from wait4) of child
processes, so a busy machine slows the runs down but hardly changes the figures.

1. replay: one trace of 48,000 samples 10 ms apart (a walk between 0.5 m and 6 m: the same
   number of updates and, per accessory, of publications as 60 s of 8 accessories at 100 Hz),
   `nearby replay --speed 0` without and with `--mqtt` (default throttle, then every update
   published). The difference is the publishing cost; per update x 800 updates/s = the share of
   one core publishing takes at 8 x 100 Hz.
2. demo: `nearby demo --accessories 8 --speed 20` (ranging interval 198 ms / 20 = 9.9 ms, about
   100 Hz per accessory) for 60 s of wall time, without and with `--mqtt`: CPU of the whole
   process (simulator included) and the updates it produced.

Usage: python3 Benchmarks/mqtt-cost.py [--nearby .build/release/nearby] [--repeat 3]
"""

import argparse
import math
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(argv, stdin=None):
    """Runs argv to the end; returns (cpu seconds, wall seconds, stdout+stderr text)."""
    start = time.monotonic()
    out = tempfile.TemporaryFile()
    p = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = status
    wall = time.monotonic() - start
    out.seek(0)
    text = out.read().decode("utf-8", "replace")
    if status != 0:
        sys.exit(f"{' '.join(argv)} failed ({status}):\n{text[-2000:]}")
    return usage.ru_utime + usage.ru_stime, wall, text


def process_cpu(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def make_trace(path, samples=48_000, interval=0.01, seed=7):
    rng = random.Random(seed)
    distance, target, speed = 4.0, 1.0, 1.0
    with open(path, "w") as f:
        f.write("t_s,distance_m,azimuth_deg,elevation_deg,fom,nlos,status,truth_m\n")
        for i in range(samples):
            if abs(target - distance) < 0.05:
                target = rng.uniform(0.5, 6.0)
                speed = rng.uniform(0.5, 1.3)
            distance += math.copysign(min(speed * interval, abs(target - distance)), target - distance)
            measured = distance + rng.gauss(0, 0.03)
            f.write(f"{i * interval:.3f},{measured:.4f},{rng.gauss(10, 5):.2f},{rng.gauss(0, 5):.2f},100,0,0,{distance:.4f}\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--nearby", default=".build/release/nearby")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--demo-seconds", type=float, default=60)
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="nearby-mqtt-cost-")
    port = free_port()
    conf = os.path.join(work, "mosquitto.conf")
    with open(conf, "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\nlog_dest none\n")
        if os.getuid() == 0:
            f.write("user root\n")
    broker = subprocess.Popen(["/usr/sbin/mosquitto", "-c", conf])
    time.sleep(0.5)
    url = f"mqtt://127.0.0.1:{port}"
    unthrottled = os.path.join(work, "every-update.toml")
    with open(unthrottled, "w") as f:
        f.write("[mqtt]\ndistance_rate = 1000\ndistance_step = 0\n")
    trace = os.path.join(work, "walk-100hz.csv")
    make_trace(trace)
    updates = 48_000

    try:
        print(f"nearby {args.nearby}, mosquitto on {url}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
        replay = [args.nearby, "replay", trace, "--speed", "0", "--json"]
        modes = {
            "no MQTT": replay,
            "MQTT, 2 Hz / 0.1 m": replay + ["--mqtt", url],
            "MQTT, every update": replay + ["--mqtt", url, "--config", unthrottled],
        }
        cpu = {name: [] for name in modes}
        broker_cpu = {name: [] for name in modes}
        published = {name: [] for name in modes}
        for _ in range(args.repeat):
            for name, argv in modes.items():
                before = process_cpu(broker.pid)
                seconds, _, text = run(argv)
                cpu[name].append(seconds)
                broker_cpu[name].append(process_cpu(broker.pid) - before)
                found = re.search(r"mqtt: (\d+) messages? published", text)
                published[name].append(int(found.group(1)) if found else 0)
        base = statistics.median(cpu["no MQTT"])
        print(f"\n1. replay of {updates} updates (= 60 s of 8 accessories x 100 Hz), median of {args.repeat}:")
        for name in modes:
            median = statistics.median(cpu[name])
            extra = median - base
            line = f"  {name:22s} nearby {median:6.2f} s CPU"
            if name != "no MQTT":
                messages = statistics.median(published[name])
                per = extra / updates * 1e6
                # At 8 x 100 Hz the publisher sees 800 updates/s and publishes messages/60 s of them.
                share = extra / 60 * 100
                line += f"  +{extra:5.2f} s ({per:5.2f} us/update, {messages:6.0f} messages) = {share:5.2f} % of one core at 8 x 100 Hz"
                line += f"; broker {statistics.median(broker_cpu[name]) / 60 * 100:4.2f} %"
            print(line)
        # Unthrottled, the replay outruns the publisher's task and some states are skipped;
        # solve cost = updates x per_update + messages x per_message from both MQTT runs.
        thr, every = "MQTT, 2 Hz / 0.1 m", "MQTT, every update"
        extra_thr = statistics.median(cpu[thr]) - base
        extra_every = statistics.median(cpu[every]) - base
        m_thr, m_every = statistics.median(published[thr]), statistics.median(published[every])
        if m_every > m_thr:
            per_message = (extra_every - extra_thr) / (m_every - m_thr)
            per_update = max(0.0, (extra_thr - m_thr * per_message) / updates)
            full = updates * per_update + 2 * updates * per_message
            print(f"  per message {per_message * 1e6:.1f} us, per update (the throttle) {per_update * 1e6:.2f} us: "
                  f"publishing all {2 * updates} messages of 60 s at 8 x 100 Hz = {full / 60 * 100:.2f} % of one core")

        scenario = args.demo_seconds * 20
        demo = [args.nearby, "demo", "--accessories", "8", "--speed", "20", "--scenario", "random-walk", "--duration", f"{scenario:g}"]
        print(f"\n2. nearby demo --accessories 8 --speed 20 for {args.demo_seconds:g} s:")
        for name, argv in {"no MQTT": demo, "MQTT, 2 Hz / 0.1 m": demo + ["--mqtt", url]}.items():
            seconds, wall, text = run(argv)
            count = sum(int(n) for n in re.findall(r"^  sim-\d+: (\d+) updates", text, re.M))
            print(f"  {name:22s} {seconds:6.2f} s CPU in {wall:5.1f} s = {100 * seconds / wall:5.1f} % of one core, "
                  f"{count / wall:6.0f} updates/s ({count / wall / 8:4.0f} Hz per accessory)")
    finally:
        broker.terminate()
        broker.wait()


if __name__ == "__main__":
    main()
