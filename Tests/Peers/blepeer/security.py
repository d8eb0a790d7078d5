"""The accessory's side of pairing: Bumble's own Security Manager, configured per test.

Options (see ``ble_peer.py --help``): IO capability, MITM, Secure Connections or legacy,
bonding, key size, a fixed passkey (shown or typed), a passkey file (the accessory "types"
what the host under test displayed: the test writes it there), refusing pairing, rejecting
the numeric comparison, a Security Request right after connecting.

Report lines: ``PASSKEY-DISPLAYED number=NNNNNN``, ``PASSKEY-TYPED number=NNNNNN``,
``COMPARE number=NNNNNN``, ``PAIRED sc=0|1 ltk=0|1 irk=0|1 identity=ADDR``,
``PAIRING-FAILED reason=0xNN``, ``ENCRYPTED encryption=N key_size=N``,
``ENCRYPTION-FAILED error=0xNN``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os

from bumble.pairing import PairingConfig, PairingDelegate

IO_CAPABILITIES = {
    'noio': PairingDelegate.IoCapability.NO_OUTPUT_NO_INPUT,
    'display': PairingDelegate.IoCapability.DISPLAY_OUTPUT_ONLY,
    'displayyesno': PairingDelegate.IoCapability.DISPLAY_OUTPUT_AND_YES_NO_INPUT,
    'keyboard': PairingDelegate.IoCapability.KEYBOARD_INPUT_ONLY,
    'keyboarddisplay': PairingDelegate.IoCapability.DISPLAY_OUTPUT_AND_KEYBOARD_INPUT,
}


@dataclasses.dataclass
class SecurityOptions:
    io: str = 'noio'
    mitm: bool = True
    sc: bool = True
    bonding: bool = True
    key_size: int = 16
    passkey: int | None = None
    passkey_file: str | None = None
    refuse: bool = False
    reject_comparison: bool = False
    security_request: bool = False


class TestPairingDelegate(PairingDelegate):
    def __init__(self, options: SecurityOptions, report) -> None:
        super().__init__(io_capability=IO_CAPABILITIES[options.io],
                         maximum_encryption_key_size=options.key_size)
        self.options = options
        self.report = report

    async def accept(self) -> bool:
        return not self.options.refuse

    async def compare_numbers(self, number: int, digits: int) -> bool:
        self.report(f'COMPARE number={number:06d}')
        return not self.options.reject_comparison

    async def confirm(self, auto: bool = False) -> bool:
        return True

    async def generate_passkey(self) -> int:
        if self.options.passkey is not None:
            return self.options.passkey
        return await super().generate_passkey()

    async def display_number(self, number: int, digits: int) -> None:
        self.report(f'PASSKEY-DISPLAYED number={number:06d}')

    async def get_number(self) -> int | None:
        number = self.options.passkey
        if self.options.passkey_file:
            # The test writes what the host under test displayed.
            for _ in range(250):
                if os.path.exists(self.options.passkey_file):
                    text = open(self.options.passkey_file).read().strip()
                    if text:
                        number = int(text)
                        break
                await asyncio.sleep(0.1)
        if number is None:
            self.report('PASSKEY-TYPED number=none')
            return None
        self.report(f'PASSKEY-TYPED number={number:06d}')
        return number


def pairing_config(options: SecurityOptions, report) -> PairingConfig:
    return PairingConfig(sc=options.sc, mitm=options.mitm, bonding=options.bonding,
                         delegate=TestPairingDelegate(options, report))


def watch(connection, report) -> None:
    """Reports the connection's pairing and encryption events."""

    def paired(keys) -> None:
        identity = keys.address if getattr(keys, 'address', None) is not None else connection.peer_address
        report(f'PAIRED sc={int(bool(connection.sc))} ltk={int(keys.ltk is not None or keys.ltk_central is not None)} '
               f'irk={int(keys.irk is not None)} identity={identity}')

    connection.on('pairing', paired)
    connection.on('pairing_failure', lambda reason: report(f'PAIRING-FAILED reason=0x{int(reason):02x}'))
    connection.on('connection_encryption_change',
                  lambda: report(f'ENCRYPTED encryption={connection.encryption} key_size={connection.encryption_key_size}'))
    connection.on('connection_encryption_failure',
                  lambda error: report(f'ENCRYPTION-FAILED error=0x{int(error):02x}'))
