#!/usr/bin/env python3
"""A bluetoothd for nearby's BlueZ backend tests. See bluezmock/__init__.py; `--help` for options."""

import sys

from bluezmock.daemon import main

if __name__ == '__main__':
    sys.exit(main())
