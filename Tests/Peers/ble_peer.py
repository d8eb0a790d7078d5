#!/usr/bin/env python3
"""Bumble BLE test peer for nearby's BLE host. See blepeer/__init__.py; `--help` for options."""

import sys

from blepeer.peer import main

if __name__ == '__main__':
    sys.exit(main())
