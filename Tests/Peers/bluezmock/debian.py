"""Debian's dbus-python, dbusmock and PyGObject (python3-dbus, python3-dbusmock, python3-gi) for
the venv's Python: the venv holds Bumble, Debian's packages hold the D-Bus side; both are
built for Python 3.11 (Debian 12)."""

import sys

DEBIAN_PACKAGES = '/usr/lib/python3/dist-packages'


def add() -> None:
    try:
        import dbus  # noqa: F401
        import dbusmock  # noqa: F401
        import gi  # noqa: F401
    except ImportError:
        if sys.version_info[:2] != (3, 11):
            raise SystemExit(f'bluez_mock: Debian 12\'s python3-dbus needs Python 3.11, this is {sys.version.split()[0]}')
        sys.path.append(DEBIAN_PACKAGES)
