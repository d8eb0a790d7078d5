#!/usr/bin/env python3
"""Converts the LIAS-CUHKSZ planar dynamic UWB data set into nearby traces (specs/trace-format.md).

Usage: convert.py SOURCE_DIR OUTPUT_DIR [RUN_ANCHOR_TAG ...]
SOURCE_DIR holds UWB_dynamic_exp_{fast,mid}.csv and motion_capture_dynamic_exp_{fast,mid}.csv
from Planar_Dataset/Dynamic/ of github.com/LIAS-CUHKSZ/Efficient-Pose-Estimation-via-UWB-measurements.
Default selection: fast_a5_t0 mid_a5_t0 (README.md explains why). Standard library only.
"""
import bisect
import csv
import math
import os
import sys
from datetime import datetime

# Planar_Dataset/Dynamic/README.md of the source: tag positions in the trolley frame and anchor
# positions in the motion-capture frame, metres.
TAGS = [(-0.0689, -0.1423, 0.0011), (-0.0750, 0.1402, 0.0016), (0.2034, 0.1451, -0.0008)]
ANCHORS = [(-3.4203, 3.0053, 1.0442), (0.0016, 3.0110, 1.0446), (3.6056, 2.9795, 1.0463), (3.6011, -0.0008, 1.0422),
           (3.5674, -3.0087, 1.0443), (-0.0072, -2.9652, 1.0444), (-3.4673, -2.9587, 1.0445), (-3.4858, -0.0098, 1.0457)]


def stamp(text):
    return datetime.strptime(text.strip(), '%Y-%m-%d %H:%M:%S.%f').timestamp()


def rotate(q, v):
    """Rotates v by the unit quaternion q = (x, y, z, w) (the column order of the motion-capture file)."""
    x, y, z, w = q
    return (
        (1 - 2 * (y * y + z * z)) * v[0] + 2 * (x * y - w * z) * v[1] + 2 * (x * z + w * y) * v[2],
        2 * (x * y + w * z) * v[0] + (1 - 2 * (x * x + z * z)) * v[1] + 2 * (y * z - w * x) * v[2],
        2 * (x * z - w * y) * v[0] + 2 * (y * z + w * x) * v[1] + (1 - 2 * (x * x + y * y)) * v[2],
    )


def convert(source, run, anchor, tag, out_path):
    rows = [r for r in csv.reader(open(os.path.join(source, f'UWB_dynamic_exp_{run}.csv'))) if r and r[0][:1].isdigit()]
    times = [stamp(r[0]) for r in rows]
    assert all(b >= a for a, b in zip(times, times[1:])), 'UWB times must not decrease'
    mocap = [r for r in csv.reader(open(os.path.join(source, f'motion_capture_dynamic_exp_{run}.csv'))) if r and r[0][:1].isdigit()]
    mt = [stamp(r[0]) for r in mocap]
    tag_positions = []
    for r in mocap:
        centre = [float(v) for v in r[1:4]]
        q = [float(v) for v in r[4:8]]
        n = math.sqrt(sum(c * c for c in q))
        offset = rotate([c / n for c in q], TAGS[tag])
        tag_positions.append([centre[k] + offset[k] for k in range(3)])
    column = 1 + anchor * 3 + tag  # a0-t0, a0-t1, a0-t2, a1-t0, ...
    with open(out_path, 'w') as out:
        out.write('t_s,distance_m,azimuth_deg,elevation_deg,fom,nlos,status,truth_m\n')
        for t, r in zip(times, rows):
            field = r[column].strip()
            ok = field != '' and float(field) > 0
            truth = ''
            if mt[0] <= t <= mt[-1]:
                j = max(1, bisect.bisect_left(mt, t))
                f = (t - mt[j - 1]) / (mt[j] - mt[j - 1]) if mt[j] > mt[j - 1] else 1.0
                p = [tag_positions[j - 1][k] + (tag_positions[j][k] - tag_positions[j - 1][k]) * f for k in range(3)]
                truth = '%.4f' % math.dist(p, ANCHORS[anchor])
            distance = '%.2f' % float(field) if ok else ''
            out.write('%.4f,%s,,,,,%d,%s\n' % (t - times[0], distance, 0 if ok else 1, truth))


if __name__ == '__main__':
    source, output = sys.argv[1], sys.argv[2]
    for name in sys.argv[3:] or ['fast_a5_t0', 'mid_a5_t0']:
        run, a, t = name.split('_')
        convert(source, run, int(a[1:]), int(t[1:]), os.path.join(output, name + '.csv'))
