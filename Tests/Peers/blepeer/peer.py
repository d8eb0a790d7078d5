"""Wires one test peer: LocalLink + C0 on an H4 transport + the accessory; and the CLI.

Prints one line per event on stdout (flushed), so tests can wait for them:
``READY transport=... address=...`` once the accessory advertises, then ``CONNECTED``,
``SUBSCRIBED``, ``RECEIVED``, ``NOTIFIED``, ``INDICATION-CONFIRMED``, ``LINK-LOSS``,
``DISCONNECTED``, ``CONNECT-CANCELLED``, ``NEVER-ANSWERED``, ``ACL-OVERFLOW``, ...
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import signal
import sys

from bumble import hci
from bumble import link as bumble_link

from . import advertising, services
from .accessory import Accessory
from .security import IO_CAPABILITIES, SecurityOptions, parse_key_distribution
from .behaviour import Behaviour, load as load_behaviour
from .controller import TestController, parse_failure
from .phone import SCRIPTS as PHONE_SCRIPTS, start_phones
from .transport import open_h4_transport


class ConnectionAddressLink(bumble_link.LocalLink):
    """Bumble's LocalLink, sending LE ACL data from the address the sender has *on that
    connection*. The stock link sends it from the controller's random address, so a peripheral
    advertising from an advertising set's own address (Linux with Privacy = device: the set's
    resolvable private address, LE Set Advertising Set Random Address) reached the central under
    an address the central does not know, and every ATT answer was dropped ("no connection for").
    """

    def send_acl_data(self, sender_controller, destination_address, transport, data):
        connection = sender_controller.le_connections.get(destination_address)
        destination = self.find_le_controller(destination_address) if connection is not None else None
        if destination is None or transport != connection.transport:
            super().send_acl_data(sender_controller, destination_address, transport, data)
            return
        source = connection.self_address
        asyncio.get_running_loop().call_soon(lambda: destination.on_link_acl_data(source, transport, data))

DEFAULT_ADDRESS = 'F0:F1:F2:F3:F4:F5'
DEFAULT_C0_ADDRESS = 'C0:11:22:33:44:55'


def report(line: str) -> None:
    print(line, flush=True)


@dataclasses.dataclass
class PeerOptions:
    transport: str
    name: str = 'nb-peer'
    address: str = DEFAULT_ADDRESS
    services: list[str] = dataclasses.field(default_factory=lambda: ['nus', 'test'])
    advertised_uuids: list[str] | None = None  # None: the first offered data-channel service
    manufacturer: list[tuple[int, bytes]] = dataclasses.field(default_factory=list)
    service_data: list[tuple[str, bytes]] = dataclasses.field(default_factory=list)
    tx_power: int | None = None
    name_in_scan_response: bool = False
    no_name: bool = False
    apple_ni_configuration: bytes = b''
    strict: bool = False
    legacy_only: bool = False
    rssi: int | None = None
    never_answer: set[int] = dataclasses.field(default_factory=set)
    stock_cancel: bool = False
    accessories: int = 1
    security: SecurityOptions = dataclasses.field(default_factory=SecurityOptions)
    bt40: bool = False
    refuse_extended_connect: bool = False
    no_connect_while_scanning: bool = False
    controller_fails_encryption: tuple[int, int] | None = None
    connect_to: str | None = None
    pair_as_central: bool = False
    encrypt_as_central: bool = False
    reencrypt_as_central: bool = False
    rpa_irk: bytes | None = None
    second_transport: str | None = None
    phones: int = 0
    phone_scripts: list[str] = dataclasses.field(default_factory=list)
    phone_service: str = '2E938FD0-6A61-11ED-A1EB-0242AC120002'  # Qorvo QNIS
    phone_hold: float = 1.0
    phone_mtu: int = 185

    def accessory_addresses(self) -> list[str]:
        """The first accessory uses `address`; the others count up its last byte."""
        base = self.address.split(':')
        last = int(base[-1], 16)
        return [':'.join(base[:-1] + [f'{(last + index) & 0xFF:02X}']) for index in range(self.accessories)]

    def accessory_name(self, index: int) -> str:
        return self.name if index == 0 else f'{self.name}{index + 1}'


class BLEPeer:
    """One virtual air with C0 (for the host under test) and one or more accessories."""

    def __init__(self, options: PeerOptions, behaviour: Behaviour | None = None) -> None:
        self.options = options
        self.behaviour = behaviour or load_behaviour('echo')
        self.transport = None
        self.c0: TestController | None = None
        self.c0b: TestController | None = None
        self.second_transport = None
        self.phones = []
        self.accessories: list[Accessory] = []

    @property
    def accessory(self) -> Accessory | None:
        """The first accessory."""
        return self.accessories[0] if self.accessories else None

    def advertising_payloads(self, index: int = 0) -> tuple[bytes, bytes]:
        options = self.options
        uuids = options.advertised_uuids
        if uuids is None:
            uuids = [services.DATA_CHANNELS[s].service for s in options.services
                     if s in services.DATA_CHANNELS][:1]
        name = None if options.no_name else options.accessory_name(index)
        adv = advertising.build(
            service_uuids=uuids,
            name=None if options.name_in_scan_response else name,
            manufacturer=options.manufacturer,
            service_data=options.service_data,
            tx_power=options.tx_power,
        )
        scan_response = b''
        if options.name_in_scan_response and name is not None:
            scan_response = advertising.build(flags=None, name=name)
        return adv, scan_response

    async def start(self) -> None:
        options = self.options
        link = ConnectionAddressLink()
        self.transport = await open_h4_transport(options.transport)
        self.c0 = TestController(
            'C0',
            host_source=self.transport.source,
            host_sink=self.transport.sink,
            link=link,
            public_address=DEFAULT_C0_ADDRESS,
            strict=options.strict,
            legacy_only=options.legacy_only,
            rssi=options.rssi,
            never_answer=options.never_answer,
            stock_cancel=options.stock_cancel,
            bt40=options.bt40,
            refuse_extended_connect=options.refuse_extended_connect,
            no_connect_while_scanning=options.no_connect_while_scanning,
            fail_encryption=options.controller_fails_encryption,
            report=report,
        )
        if options.second_transport:
            # A second host under test on the same air (our phone role and our accessory role).
            self.second_transport = await open_h4_transport(options.second_transport)
            self.c0b = TestController(
                'C0B', host_source=self.second_transport.source, host_sink=self.second_transport.sink, link=link,
                public_address='C0:11:22:33:44:66', strict=options.strict, report=report)
        for index, address in enumerate(options.accessory_addresses()):
            adv, scan_response = self.advertising_payloads(index)
            accessory = Accessory(
                link,
                address=address,
                name=options.accessory_name(index),
                offered=options.services,
                advertising_data=adv,
                scan_response_data=scan_response,
                apple_ni_configuration=options.apple_ni_configuration,
                behaviour=self.behaviour.for_accessory(index),
                link_loss=self.c0.drop_links,
                security=options.security,
                rpa_irk=options.rpa_irk,
                # The last accessory is the impostor, when there is one.
                claim_identity=options.security.claim_identity if index == options.accessories - 1 else None,
                report=report,
            )
            await accessory.start()
            self.accessories.append(accessory)
        if options.phones:
            self.phones = await start_phones(
                link, options.phones, options.phone_scripts, service=options.phone_service, hold=options.phone_hold,
                mtu=options.phone_mtu, report=report)
        if options.connect_to:
            asyncio.get_running_loop().create_task(self.accessories[0].connect_to(
                options.connect_to, pair=options.pair_as_central, encrypt=options.encrypt_as_central,
                reencrypt=options.reencrypt_as_central))
        adv, scan_response = self.advertising_payloads() if options.accessories else (b'', b'')
        report(
            f'READY transport={options.transport} address={",".join(options.accessory_addresses())} '
            f'adv={adv.hex()} scan_response={scan_response.hex()}'
        )

    def drop_all_links(self) -> None:
        """Every LE link of C0 ends at once, as when the radio is lost (both sides see a
        connection timeout); the accessories advertise again."""
        if self.c0 is not None:
            dropped = self.c0.drop_links(hci.HCI_ErrorCode.CONNECTION_TIMEOUT_ERROR)
            report(f'LINK-LOSS-ALL links={dropped}')

    async def close(self) -> None:
        if self.transport is not None:
            await self.transport.close()
        if self.second_transport is not None:
            await self.second_transport.close()


def _company_and_bytes(text: str) -> tuple[int, bytes]:
    company, _, payload = text.partition(':')
    return int(company, 16), bytes.fromhex(payload)


def _uuid_and_bytes(text: str) -> tuple[str, bytes]:
    uuid, _, payload = text.partition(':')
    return uuid, bytes.fromhex(payload)


def parse_arguments(argv: list[str] | None = None) -> tuple[PeerOptions, str, str]:
    parser = argparse.ArgumentParser(
        prog='ble_peer.py',
        description="Bumble BLE test peer for nearby's host: C0 on an H4 transport, "
        'an advertising GATT accessory on C1.')
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument('--port', type=int, help='C0 on tcp-server:127.0.0.1:PORT')
    where.add_argument('--transport', help='any Bumble transport for C0, e.g. pty:/tmp/hci')
    parser.add_argument('--name', default='nb-peer', help='complete local name')
    parser.add_argument('--no-name', action='store_true', help='advertise no name')
    parser.add_argument('--name-in-scan-response', action='store_true',
                        help='put the name in the scan response data (seen in strict mode only)')
    parser.add_argument('--address', default=DEFAULT_ADDRESS, help='accessory random static address')
    parser.add_argument('--accessories', type=int, default=1,
                        help='number of accessories (the address counts up, the name gets 2, 3, ...)')
    parser.add_argument('--services', default='nus,test',
                        help=f'comma-separated services to offer: {",".join(services.SERVICE_NAMES)}')
    parser.add_argument('--advertise-uuid', action='append', dest='advertised_uuids',
                        help='service UUID to advertise (4, 8 or 36 hex chars; repeatable); '
                        'default: the first offered data-channel service')
    parser.add_argument('--manufacturer-data', action='append', default=[], type=_company_and_bytes,
                        metavar='CCCC:HEX', help='company ID (hex) and payload (hex); repeatable')
    parser.add_argument('--service-data', action='append', default=[], type=_uuid_and_bytes,
                        metavar='UUID:HEX', help='service UUID and payload (hex); repeatable')
    parser.add_argument('--tx-power', type=int, help='TX power level AD field, dBm')
    parser.add_argument('--apple-ni-config', default='', help='value of the Apple NI config characteristic (hex)')
    parser.add_argument('--strict', action='store_true', help='hardware-like controller (see controller.py)')
    parser.add_argument('--legacy-only', action='store_true', help='C0 without LE extended advertising')
    parser.add_argument('--rssi', type=int, help='RSSI in every advertising report, dBm')
    parser.add_argument('--never-answer', action='append', default=[], type=lambda s: int(s, 16),
                        metavar='OPCODE', help='HCI opcode (hex) C0 never answers; repeatable')
    parser.add_argument('--stock-cancel', action='store_true',
                        help='keep the stock LE Create Connection Cancel (quirk 5)')
    parser.add_argument('--behaviour', default='echo', help='echo, silent or module:Class')
    pairing = parser.add_argument_group('pairing (the accessory runs Bumble\'s Security Manager)')
    pairing.add_argument('--io', default='noio', choices=sorted(IO_CAPABILITIES), help='IO capability')
    pairing.add_argument('--no-mitm', action='store_true', help='do not ask for MITM protection')
    pairing.add_argument('--legacy-pairing', action='store_true', help='no LE Secure Connections (Bluetooth 4.0/4.1)')
    pairing.add_argument('--no-bonding', action='store_true', help='do not bond')
    pairing.add_argument('--key-size', type=int, default=16, help='maximum encryption key size')
    pairing.add_argument('--passkey', type=int, help='the passkey shown (display) or typed (keyboard)')
    pairing.add_argument('--passkey-file', help='type the passkey written to this file (by the test)')
    pairing.add_argument('--refuse-pairing', action='store_true', help='answer Pairing Failed (not supported)')
    pairing.add_argument('--reject-comparison', action='store_true', help='say no to numeric comparison')
    pairing.add_argument('--security-request', action='store_true', help='send a Security Request on connecting')
    pairing.add_argument('--debug-key', action='store_true', help='pair with the SMP debug public key (Bumble debug mode)')
    pairing.add_argument('--extra-key-distribution', type=parse_key_distribution, default=(0, 0), metavar='II:RR',
                         help='bits (hex) ORed into the Pairing Response key distribution, initiator:responder')
    pairing.add_argument('--security-request-flood', type=int, default=0, metavar='N',
                         help='N Security Requests, each after the previous was answered, once the central subscribed to the data channel')
    pairing.add_argument('--claim-identity', metavar='ADDRESS',
                         help='the last accessory distributes ADDRESS (random static) as its identity, with its own IRK')
    pairing.add_argument('--fail-encryption', type=parse_failure, metavar='STATUS[@N]',
                         help="the accessory's controller fails its N-th (1) encryption with STATUS (hex)")
    pairing.add_argument('--rpa-irk', help='advertise with resolvable private addresses from this IRK (hex, MSB first)')
    central = parser.add_argument_group('the accessory as a central (peripheral-role tests of the host)')
    central.add_argument('--connect-to', metavar='ADDRESS', help='connect to this (random) address, retrying')
    central.add_argument('--pair-as-central', action='store_true', help='pair after connecting')
    central.add_argument('--encrypt-as-central', action='store_true', help='encrypt with the stored bond after connecting')
    central.add_argument('--reencrypt-as-central', action='store_true',
                         help='after pairing: disconnect, connect again and encrypt with the new bond')
    quirks = parser.add_argument_group('controller quirks of C0')
    quirks.add_argument('--bt40', action='store_true',
                        help='a Bluetooth 4.0 controller: legacy commands only, LE event mask bits above 4.0 refused')
    quirks.add_argument('--refuse-extended-connect', action='store_true',
                        help='claims extended advertising but answers LE Extended Create Connection with 0x01')
    quirks.add_argument('--no-connect-while-scanning', action='store_true',
                        help='refuse LE (Extended) Create Connection with 0x0C while scanning')
    quirks.add_argument('--controller-fails-encryption', type=parse_failure, metavar='STATUS[@N]',
                        help='C0, as a peripheral, fails its N-th (1) encryption with STATUS (hex) after the host gave the key')
    role = parser.add_argument_group('the host under test as an accessory (blepeer/phone.py)')
    role.add_argument('--phones', type=int, default=0, help='phones (centrals) that find and use the accessory')
    role.add_argument('--phone-script', default='ni', help='comma-separated script per phone (the last repeats): ' + ', '.join(PHONE_SCRIPTS))
    role.add_argument('--phone-service', default=services.QORVO_SERVICE, help='the service UUID phones look for')
    role.add_argument('--phone-hold', type=float, default=1.0, help='seconds ni-stop / ni-leave range before stopping')
    role.add_argument('--phone-mtu', type=int, default=185, help='the ATT_MTU phones ask for (iPhones: 185 or more)')
    role.add_argument('--second-port', type=int, help='a second controller on tcp-server:127.0.0.1:PORT (another host under test)')
    parser.add_argument('--log-level', default='WARNING')
    args = parser.parse_args(argv)
    options = PeerOptions(
        transport=args.transport or f'tcp-server:127.0.0.1:{args.port}',
        name=args.name,
        address=args.address,
        services=[s for s in args.services.split(',') if s],
        advertised_uuids=args.advertised_uuids,
        manufacturer=args.manufacturer_data,
        service_data=args.service_data,
        tx_power=args.tx_power,
        name_in_scan_response=args.name_in_scan_response,
        no_name=args.no_name,
        apple_ni_configuration=bytes.fromhex(args.apple_ni_config),
        strict=args.strict,
        legacy_only=args.legacy_only,
        rssi=args.rssi,
        never_answer=set(args.never_answer),
        stock_cancel=args.stock_cancel,
        accessories=args.accessories,
        security=SecurityOptions(
            io=args.io, mitm=not args.no_mitm, sc=not args.legacy_pairing, bonding=not args.no_bonding,
            key_size=args.key_size, passkey=args.passkey, passkey_file=args.passkey_file,
            refuse=args.refuse_pairing, reject_comparison=args.reject_comparison,
            security_request=args.security_request, debug_key=args.debug_key,
            extra_key_distribution=args.extra_key_distribution, security_request_flood=args.security_request_flood,
            claim_identity=args.claim_identity, fail_encryption=args.fail_encryption),
        bt40=args.bt40,
        refuse_extended_connect=args.refuse_extended_connect,
        no_connect_while_scanning=args.no_connect_while_scanning,
        controller_fails_encryption=args.controller_fails_encryption,
        connect_to=args.connect_to,
        pair_as_central=args.pair_as_central,
        encrypt_as_central=args.encrypt_as_central,
        reencrypt_as_central=args.reencrypt_as_central,
        rpa_irk=bytes.fromhex(args.rpa_irk)[::-1] if args.rpa_irk else None,  # Bumble keeps keys LSB first
        second_transport=f'tcp-server:127.0.0.1:{args.second_port}' if args.second_port else None,
        phones=args.phones,
        phone_scripts=[s for s in args.phone_script.split(',') if s],
        phone_service=args.phone_service,
        phone_hold=args.phone_hold,
        phone_mtu=args.phone_mtu,
    )
    return options, args.behaviour, args.log_level


async def run(options: PeerOptions, behaviour: Behaviour) -> None:
    # A parent may have these blocked (a Swift test process does; Foundation's Process keeps the
    # mask): unblock them, or the handlers below never run.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGUSR1, signal.SIGTERM, signal.SIGINT})
    peer = BLEPeer(options, behaviour)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    # SIGUSR1: every link of C0 is lost at once (a fault for tests under load).
    loop.add_signal_handler(signal.SIGUSR1, peer.drop_all_links)
    await peer.start()
    await stop.wait()
    await peer.close()


def main(argv: list[str] | None = None) -> int:
    try:
        options, behaviour_spec, log_level = parse_arguments(argv)
        behaviour = load_behaviour(behaviour_spec)
        peer = BLEPeer(options, behaviour)
        for index in range(options.accessories):
            peer.advertising_payloads(index)  # validate before opening the transport
    except (ValueError, advertising.AdvertisingError) as error:
        print(f'ble_peer: {error}', file=sys.stderr)
        return 2
    logging.basicConfig(level=log_level.upper(), stream=sys.stderr,
                        format='%(asctime)s %(name)s %(levelname)s %(message)s')
    asyncio.run(run(options, behaviour))
    return 0
