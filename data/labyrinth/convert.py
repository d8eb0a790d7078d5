#!/usr/bin/env python3
"""Converts the TU Chemnitz Labyrinth UWB data set into nearby traces (specs/trace-format.md).

Usage: convert.py DATA_INDOOR_UWB_TXT OUTPUT_DIR
DATA_INDOOR_UWB_TXT is 'datasets/Indoor UWB/Data_Indoor_UWB.txt' of github.com/TUC-ProAut/libRSF at
commit 472342e3f3383eb3728292257cd1a33e08b07d28 (the whole 933 s run; later commits keep only its
first 30 s). Writes one trace per UWB module: a105.csv, a107.csv, a108.csv, a109.csv.
Standard library only.
"""
import math
import os
import sys

# A FiRa UCI range notification carries the distance as an unsigned 16-bit count of centimetres.
UCI_MAX_M = 655.35


def convert(source, output):
    ranges = {}  # module ID -> [(t, range, module x, module y)]
    truth = {}  # t -> (x, y)
    with open(source) as f:
        for line in f:
            fields = line.split()
            if not fields:
                continue
            if fields[0] == 'range2':
                # range2 <t> <range> <std> <module x> <module y> <module ID>
                t, r, x, y = (float(v) for v in (fields[1], fields[2], fields[4], fields[5]))
                ranges.setdefault(int(fields[6]), []).append((t, r, x, y))
            elif fields[0] == 'gt2':
                # gt2 <t> <x> <y>
                truth[float(fields[1])] = (float(fields[2]), float(fields[3]))
    for module, rows in sorted(ranges.items()):
        times = [t for t, _, _, _ in rows]
        assert all(b > a for a, b in zip(times, times[1:])), 'times must increase'
        with open(os.path.join(output, 'a%d.csv' % module), 'w') as out:
            out.write('t_s,distance_m,azimuth_deg,elevation_deg,fom,nlos,status,truth_m\n')
            for t, r, x, y in rows:
                ok = 0 <= r <= UCI_MAX_M
                position = truth.get(t)  # the source stamps every range with a ground-truth row of the same time
                true_range = '' if position is None else '%.4f' % math.hypot(position[0] - x, position[1] - y)
                out.write('%.4f,%s,,,,,%d,%s\n' % (t - times[0], '%.4f' % r if ok else '', 0 if ok else 1, true_range))


if __name__ == '__main__':
    convert(sys.argv[1], sys.argv[2])
