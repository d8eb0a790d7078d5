"""The accessory's side of pairing: Bumble's own Security Manager, configured per test.

Options (see ``ble_peer.py --help``): IO capability, MITM, Secure Connections or legacy,
bonding, key size, a fixed passkey (shown or typed), a passkey file (the accessory "types"
what the host under test displayed: the test writes it there), refusing pairing, rejecting
the numeric comparison, a Security Request right after connecting.

Misbehaviour for the pairing-policy tests (issue 24), each what a real accessory can do:
- ``bonding=False``: No Bonding, and like a real accessory it then keeps no keys (Bumble keeps
  them anyway, specs/reference/ble.md §7): the next encryption with old keys would get PIN or
  Key Missing.
- ``debug_key``: Bumble's SMP debug mode: the debug public key of Vol 3 Part H 2.3.5.6.1 (as
  firmware built with debug keys does, e.g. Zephyr's ``CONFIG_BT_USE_DEBUG_KEYS``).
- ``extra_key_distribution``: bits ORed into the Pairing Response's key distribution (keys the
  request did not offer).
- ``security_request_flood``: that many Security Requests, each once the previous one was
  answered, once the central subscribed to the data channel.
- ``claim_identity``: distribute this address as the identity (with the accessory's own IRK).
- ``fail_encryption``: the accessory's controller fails the n-th encryption (controller.py).

Report lines: ``PASSKEY-DISPLAYED number=NNNNNN``, ``PASSKEY-TYPED number=NNNNNN``,
``COMPARE number=NNNNNN``, ``PAIRED sc=0|1 ltk=0|1 irk=0|1 identity=ADDR``,
``PAIRING-FAILED reason=0xNN``, ``ENCRYPTED encryption=N key_size=N``,
``ENCRYPTION-FAILED error=0xNN``, ``SECURITY-REQUEST-SENT n=N``, ``SECURITY-REQUEST-FLOOD-DONE``,
``PAIRING-FAILED-RECEIVED reason=0xNN`` (accessory.py: a Pairing Failed from the central).
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
    debug_key: bool = False
    extra_key_distribution: tuple[int, int] = (0, 0)
    security_request_flood: int = 0
    claim_identity: str | None = None
    fail_encryption: tuple[int, int] | None = None


class TestPairingDelegate(PairingDelegate):
    def __init__(self, options: SecurityOptions, report) -> None:
        super().__init__(io_capability=IO_CAPABILITIES[options.io],
                         maximum_encryption_key_size=options.key_size)
        self.options = options
        self.report = report

    async def accept(self) -> bool:
        return not self.options.refuse

    async def key_distribution_response(self, peer_initiator_key_distribution: int,
                                        peer_responder_key_distribution: int) -> tuple[int, int]:
        initiator, responder = await super().key_distribution_response(
            peer_initiator_key_distribution, peer_responder_key_distribution)
        extra_initiator, extra_responder = self.options.extra_key_distribution
        if extra_initiator or extra_responder:
            self.report(f'KEY-DISTRIBUTION-EXTRA initiator=0x{extra_initiator:02x} responder=0x{extra_responder:02x}')
        return initiator | extra_initiator, responder | extra_responder

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


def pairing_config(options: SecurityOptions, report, claims_identity: bool = False) -> PairingConfig:
    return PairingConfig(sc=options.sc, mitm=options.mitm, bonding=options.bonding,
                         delegate=TestPairingDelegate(options, report),
                         identity_address_type=PairingConfig.AddressType.RANDOM if claims_identity else None)


def parse_key_distribution(text: str) -> tuple[int, int]:
    """``II:RR`` (hex bits added to the initiator's and the responder's key distribution)."""
    initiator, _, responder = text.partition(':')
    return int(initiator or '0', 16), int(responder or '0', 16)


async def flood_security_requests(device, connection, count: int, report) -> None:
    """``count`` Security Requests on one connection (the central under test must bound the
    pairings they cause and keep the link usable). Each goes out once the previous one was
    answered (a pairing that failed or completed, or a Pairing Failed) or after 1 s without an
    answer, then 50 ms later: the order of events is the same however loaded the machine."""
    answered = asyncio.Event()
    connection.on('pairing_failure', lambda reason: answered.set())
    connection.on('pairing', lambda keys: answered.set())
    connection.on('pairing_failed_received', lambda reason: answered.set())
    for index in range(1, count + 1):
        answered.clear()
        try:
            device.request_pairing(connection)
        except Exception as error:  # the link went down
            report(f'SECURITY-REQUEST-FAILED error={type(error).__name__}')
            break
        report(f'SECURITY-REQUEST-SENT n={index}')
        try:
            await asyncio.wait_for(answered.wait(), 1.0)
        except asyncio.TimeoutError:
            pass
        await asyncio.sleep(0.05)
    report('SECURITY-REQUEST-FLOOD-DONE')


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
