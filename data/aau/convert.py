#!/usr/bin/env python3
"""Converts the AAU CNS drone two-way-ranging sample recording into nearby traces (specs/trace-format.md).

Usage: convert.py SOURCE_DIR OUTPUT_DIR
SOURCE_DIR is test/sample_data/ of github.com/aau-cns/cnspy_ranging_evaluation: it holds
fcu_recording_loiter2_2023-08-31-20-58-20/{a01,a02,a03,d01}_ranges.csv (the measured ranges, one
file per initiating device) and loiter2_fixed/d01_mavros_vision_pose_pose.csv (the true tag-anchor
ranges the authors' ROSBag_TrueRanges computed from the motion-capture pose). Standard library only.
"""
import bisect
import csv
import math
import os
import sys

# test/sample_data/config.yaml of the source: anchor positions in the motion-capture frame, metres.
ANCHORS = {1: (-1.306, -4.146, 0.662), 2: (1.748, -4.173, 1.878), 3: (2.928, 2.47, 2.153)}
TAG = 0
RECORDING = 'fcu_recording_loiter2_2023-08-31-20-58-20'
TRUTH = os.path.join('loiter2_fixed', 'd01_mavros_vision_pose_pose.csv')
# A FiRa UCI range notification carries the distance as an unsigned 16-bit count of centimetres.
UCI_MAX_M = 655.35

# Output file -> (file of the initiating device, initiator ID, responder ID).
TRACES = {
    'loiter_tag_a1': ('d01', 0, 1), 'loiter_tag_a2': ('d01', 0, 2), 'loiter_tag_a3': ('d01', 0, 3),
    'loiter_a1_tag': ('a01', 1, 0), 'loiter_a2_tag': ('a02', 2, 0), 'loiter_a3_tag': ('a03', 3, 0),
    'static_a1_a2': ('a01', 1, 2), 'static_a1_a3': ('a01', 1, 3), 'static_a2_a3': ('a02', 2, 3),
}


def read(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def true_ranges(source):
    """Anchor ID -> (times, true tag-anchor ranges), in time order."""
    series = {}
    for row in read(os.path.join(source, TRUTH)):
        series.setdefault(int(row['UWB_ID2']), []).append((float(row['t']), float(row['range_raw'])))
    return {k: ([t for t, _ in sorted(v)], [r for _, r in sorted(v)]) for k, v in series.items()}


def interpolate(times, values, t):
    if not times or t < times[0] or t > times[-1]:
        return None
    j = max(1, bisect.bisect_left(times, t))
    span = times[j] - times[j - 1]
    f = (t - times[j - 1]) / span if span > 0 else 1.0
    return values[j - 1] + (values[j] - values[j - 1]) * f


def convert(source, name, out_path, truths):
    device, first, second = TRACES[name]
    rows = [r for r in read(os.path.join(source, RECORDING, device + '_ranges.csv'))
            if int(r['UWB_ID1']) == first and int(r['UWB_ID2']) == second]
    times = [float(r['t']) for r in rows]
    assert all(b >= a for a, b in zip(times, times[1:])), 'times must not decrease'
    static = TAG not in (first, second)
    with open(out_path, 'w') as out:
        out.write('t_s,distance_m,azimuth_deg,elevation_deg,fom,nlos,status,truth_m\n')
        for t, r in zip(times, rows):
            measured = float(r['range_raw'])
            ok = 0 <= measured <= UCI_MAX_M
            if static:
                truth = math.dist(ANCHORS[first], ANCHORS[second])
            else:
                truth = interpolate(*truths[second if first == TAG else first], t)
            out.write('%.4f,%s,,,,,%d,%s\n' % (
                t - times[0], '%.4f' % measured if ok else '', 0 if ok else 1, '' if truth is None else '%.4f' % truth))


if __name__ == '__main__':
    source, output = sys.argv[1], sys.argv[2]
    truths = true_ranges(source)
    for name in TRACES:
        convert(source, name, os.path.join(output, name + '.csv'), truths)
