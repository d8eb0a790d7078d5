"""Phones for testing nearby's accessory role: Bumble devices as BLE centrals (GATT clients) on
the peer's LocalLink, acting like the iOS app of the NI accessory protocol (Qorvo's Nearby
Interaction app, Apple's sample): find the accessory by its advertised service UUID, connect,
exchange the MTU, discover the data channel, subscribe to TX, write 0x0A, expect 0x01 quickly,
write 0x0B (shareable configuration data), expect 0x02.

Each phone runs a script (``--phone-script``, one per phone, comma-separated; the last repeats):

``ni``              the iOS app: 0x0A -> 0x01, 0x0B -> 0x02, then holds the link
``ni-stop``         ``ni``, then after ``--phone-hold`` seconds 0x0C -> 0x03 and disconnects
``ni-leave``        ``ni``, then disconnects after ``--phone-hold`` seconds (no 0x0C)
``android``         the Android dialect: 0xA5 -> 0x01 (18 bytes), 0x0B (14 bytes) -> 0x02
``never-subscribe`` writes 0x0A without subscribing to TX (accepted; the answer waits for a subscription that never comes)
``garbage``         subscribes, writes garbage, an unknown ID, an accessory's own message and
                    invalid shareable data (channel 7): none may start ranging; then ``ni``
``mtu23``           no MTU exchange (ATT_MTU 23): 0x0A gets no 0x01 (38 bytes do not fit);
                    0x0B (31 bytes) goes as a long write (Prepare / Execute Write)
``probe``           GATT checks: services, the GAP name, an unknown handle, a bad offset,
                    Qorvo's SEC characteristic (pairs), then ``ni``
``reencrypt-sec``   reads SEC (pairs), disconnects, connects again, encrypts with the bond and
                    reads SEC again whether the encryption worked or not (the accessory must not
                    serve it over a link whose encryption failed): PHONE-REENCRYPT ok|error=...,
                    PHONE-SEC-AGAIN value=...|error=0xNN
``apple-sample``    Apple's sample app "Implementing spatial interactions with third-party
                    accessories", unmodified (``BluetoothLECentral.swift``,
                    ``AccessoryDemoViewController.swift``; see ``AppleSamplePhone``): finds the
                    accessory only by Nordic UART in its advertising data or scan response,
                    ranges two cycles (the second as the sample's timeout retry: 0x0C then
                    0x0A), disconnects, reconnects at once and writes 0x0A before subscribing
``qorvo-params``    Qorvo's 0x20 / 0x21 device parameters (``ble_niq.c``): get, set, a set of
                    the wrong length and of another version, get again; then ``ni``

Lines printed (each with ``phone=N``): PHONE-SEEN, PHONE-CONNECTED, PHONE-MTU, PHONE-SERVICE,
PHONE-SUBSCRIBED, PHONE-ACD, PHONE-STARTED, PHONE-STOPPED, PHONE-NO-ACD, PHONE-NO-START,
PHONE-WRITE-REFUSED, PHONE-PROBE ..., PHONE-DISCONNECTED, PHONE-ERROR; the Apple sample's
PHONE-EARLY-WRITE, PHONE-RECONNECTING, PHONE-CYCLE-DONE; Qorvo's PHONE-DEVICE-PARAMS and
PHONE-SET-ACK.
"""

from __future__ import annotations

import asyncio
import struct
import time

from bumble import hci
from bumble.att import ATT_Error, ATT_Read_Blob_Request, ATT_Read_Request
from bumble.core import UUID
from bumble.device import Device, DeviceConfiguration, Peer
from bumble.host import Host

from . import services
from .controller import TestController

SCRIPTS = ('ni', 'ni-stop', 'ni-leave', 'android', 'never-subscribe', 'garbage', 'mtu23', 'probe', 'reencrypt-sec',
           'apple-sample', 'qorvo-params')


def uuids_in(advertising: bytes) -> list[str]:
    """The 128-bit service UUIDs of advertising data (complete or incomplete lists)."""
    found, index = [], 0
    while index + 1 < len(advertising):
        length = advertising[index]
        if length == 0 or index + 1 + length > len(advertising):
            break
        kind, value = advertising[index + 1], advertising[index + 2:index + 1 + length]
        if kind in (0x06, 0x07):
            for offset in range(0, len(value) - 15, 16):
                found.append(str(UUID.from_bytes(value[offset:offset + 16])).upper())
        index += 1 + length
    return found


def name_in(data: bytes) -> str | None:
    index = 0
    while index + 1 < len(data):
        length = data[index]
        if length == 0 or index + 1 + length > len(data):
            break
        if data[index + 1] in (0x08, 0x09):
            return data[index + 2:index + 1 + length].decode(errors='replace')
        index += 1 + length
    return None


def shareable(session_id: int, phone_mac: int, channel: int = 9, preamble: int = 11) -> bytes:
    """Shareable configuration data v1.1 (30 bytes) as an iPhone generates it (TV-2's timing)."""
    return (struct.pack('<HHB', 1, 1, 25) + b'US' + struct.pack('<IBBHHHB', session_id, preamble, channel, 6, 3600, 120, 3)
            + bytes([0x39, 0x7B, 0x28, 0xD4, 0xB8, 0xD7]) + struct.pack('<HH', phone_mac, 100))


def android_config(session_id: int, phone_mac: int) -> bytes:
    """UwbPhoneConfigData (14 bytes, big-endian): config ID 1, the accessory as controlee."""
    return struct.pack('>HHIBBBBH', 0x0100, 0, session_id, 11, 9, 1, 2, phone_mac)


class Phone:
    """One phone: a Bumble Device (central) on its own controller on the link."""

    def __init__(self, link, index: int, script: str, *, service: str, hold: float, mtu: int, report,
                 start_delay: float = 0, previous: 'Phone | None' = None) -> None:
        self.index = index
        self.start_delay = start_delay
        self.previous = previous
        # Set once this phone connected or gave up: the next phone starts only then.
        self.settled = asyncio.Event()
        self.script = script
        self.service = service.upper()
        self.hold = hold
        self.mtu = mtu
        self.report = lambda line: report(f'{line} phone={index}')
        address = f'D0:00:00:00:00:{index:02X}'
        # Phones see the accessory's scan response as iPhones do (iOS matches a service UUID there too).
        self.controller = TestController(f'P{index}', link=link, strict=False, scan_responses=True, report=report)
        host = Host()
        host.controller = self.controller
        self.device = Device(config=DeviceConfiguration(name=f'phone{index}', address=hci.Address(address)), host=host)
        self.notifications: asyncio.Queue[bytes] = asyncio.Queue()
        self.connection = None

    async def run(self) -> None:
        try:
            await self.device.power_on()
            # One after the other: Bumble's link layer has no CONNECT_IND collisions (a second
            # central connecting at the same instant would believe in a link that never was).
            # The order is kept however slow the machine: a phone starts once the one before it
            # connected (or gave up), then waits its delay.
            if self.previous is not None:
                try:
                    await asyncio.wait_for(self.previous.settled.wait(), 180)
                except asyncio.TimeoutError:
                    pass
            await asyncio.sleep(self.start_delay)
            # Apple's sample scans for Nordic UART whatever --phone-service says.
            target = await self.find(services.NUS_SERVICE if self.script == 'apple-sample' else None)
            await self.script_main(target)
        except Exception as error:  # reported, the peer keeps running
            self.report(f'PHONE-ERROR error={type(error).__name__}: {error}')
        finally:
            self.settled.set()

    async def find(self, service: str | None = None, settle: float = 0.3) -> hci.Address:
        """Scans (active, duplicates kept) until an advertising report or a scan response lists
        `service` (default the phone's), as iOS's scanForPeripherals(withServices:) matches
        either; nothing else (no name, no address) selects the accessory."""
        wanted = (service or self.service).upper()
        found: asyncio.Future = asyncio.get_running_loop().create_future()
        names: dict[str, str] = {}

        def on_advertisement(advertisement) -> None:
            # Bumble hands a scannable advertisement over with its scan response (both data).
            data = bytes(advertisement.data_bytes)
            name = name_in(data)
            if name:
                names[str(advertisement.address)] = name
            if wanted in uuids_in(data) and not found.done():
                found.set_result(advertisement.address)

        self.device.on('advertisement', on_advertisement)
        await self.device.start_scanning(active=True, filter_duplicates=False)
        try:
            address = await asyncio.wait_for(found, 120)
            await asyncio.sleep(settle)  # a scan response or two
        finally:
            self.device.remove_listener('advertisement', on_advertisement)
            await self.device.stop_scanning()
        self.report(f'PHONE-SEEN address={address} name={names.get(str(address), "-")} service={wanted}')
        return address

    # ------------------------------------------------------------------------------------------
    async def connect(self, target: hci.Address, exchange_mtu: bool = True) -> Peer:
        try:
            self.connection = await self.device.connect(target, own_address_type=hci.OwnAddressType.RANDOM, timeout=10)
        finally:
            self.settled.set()
        self.connection.on('disconnection', lambda reason: self.report(f'PHONE-DISCONNECTED reason=0x{reason:02x}'))
        self.report(f'PHONE-CONNECTED handle=0x{self.connection.handle:04x}')
        peer = Peer(self.connection)
        if exchange_mtu:
            mtu = await peer.request_mtu(self.mtu)
            self.report(f'PHONE-MTU mtu={mtu}')
        await peer.discover_services()
        return peer

    async def data_channel(self, peer: Peer):
        # The service the phone looked for first (the Qorvo app uses QNIS, Apple's sample NUS).
        ordered = sorted(services.DATA_CHANNELS.values(), key=lambda d: d.service.upper() != self.service)
        for definition in ordered:
            found = peer.get_services_by_uuid(UUID(definition.service))
            if found:
                service = found[0]
                await service.discover_characteristics()
                rx = service.get_characteristics_by_uuid(UUID(definition.rx))[0]
                tx = service.get_characteristics_by_uuid(UUID(definition.tx))[0]
                self.report(f'PHONE-SERVICE name={definition.name}')
                return rx, tx
        raise RuntimeError('no data-channel service found')

    async def subscribe(self, peer: Peer, tx) -> None:
        await peer.subscribe(tx, lambda value: self.notifications.put_nowait(bytes(value)))
        self.report('PHONE-SUBSCRIBED')

    async def expect(self, message_id: int, timeout: float) -> bytes | None:
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            try:
                value = await asyncio.wait_for(self.notifications.get(), remaining)
            except asyncio.TimeoutError:
                return None
            if value[:1] == bytes([message_id]):
                return value
            self.report(f'PHONE-UNEXPECTED data={value.hex()}')

    async def initialize(self, peer: Peer, rx, android: bool = False) -> bool:
        started = time.monotonic()
        await peer.write_value(rx, bytes([0xA5 if android else 0x0A]), with_response=True)
        acd = await self.expect(0x01, 3)
        if acd is None:
            self.report('PHONE-NO-ACD')
            return False
        self.report(f'PHONE-ACD length={len(acd)} hex={acd.hex()} ms={(time.monotonic() - started) * 1000:.1f}')
        return True

    async def configure(self, peer: Peer, rx, android: bool = False) -> bool:
        session_id, mac = 0x5000 + self.index, 0x1100 + self.index
        payload = android_config(session_id, mac) if android else shareable(session_id, mac)
        await peer.write_value(rx, bytes([0x0B]) + payload, with_response=True)
        if await self.expect(0x02, 10) is None:
            self.report('PHONE-NO-START')
            return False
        self.report(f'PHONE-STARTED session=0x{session_id:08X} mac=0x{mac:04X}')
        return True

    async def ni(self, peer: Peer, rx, android: bool = False) -> bool:
        return await self.initialize(peer, rx, android) and await self.configure(peer, rx, android)

    async def stop(self, peer: Peer, rx) -> None:
        await peer.write_value(rx, bytes([0x0C]), with_response=True)
        if await self.expect(0x03, 5) is not None:
            self.report('PHONE-STOPPED')

    # ------------------------------------------------------------------------------------------
    async def script_main(self, target: hci.Address) -> None:
        script = self.script
        if script == 'apple-sample':
            await AppleSamplePhone(self).run(target)
            return
        if script == 'mtu23':
            peer = await self.connect(target, exchange_mtu=False)
            rx, tx = await self.data_channel(peer)
            await self.subscribe(peer, tx)
            await self.initialize(peer, rx)
            # 31 bytes do not fit one write at ATT_MTU 23: Prepare Write + Execute Write.
            await self.configure(peer, rx)
            return
        peer = await self.connect(target)
        if script == 'reencrypt-sec':
            await self.reencrypt_sec(peer, target)
            return
        if script == 'probe':
            await self.probe(peer)
        rx, tx = await self.data_channel(peer)
        if script == 'never-subscribe':
            try:
                await peer.write_value(rx, bytes([0x0A]), with_response=True)
                self.report('PHONE-WRITE-ACCEPTED')
            except ATT_Error as error:
                self.report(f'PHONE-WRITE-REFUSED error=0x{error.error_code:02x}')
            await peer.write_value(rx, bytes([0x0A]), with_response=False)
            if await self.expect(0x01, 1) is None:
                self.report('PHONE-NO-ACD')
            return
        await self.subscribe(peer, tx)
        if script == 'qorvo-params':
            await self.qorvo_params(peer, rx)
            await self.ni(peer, rx)
            return
        if script == 'garbage':
            for garbage in (bytes([0x42, 1, 2, 3]), bytes([0x01]) + bytes(20), bytes([0x0A, 0xFF]), b''):
                await peer.write_value(rx, garbage, with_response=True)
            bad = bytearray(shareable(0x6000 + self.index, 0x1100 + self.index))
            bad[12] = 7  # channel 7: not an NI channel
            await peer.write_value(rx, bytes([0x0B]) + bytes(bad), with_response=True)
            if await self.expect(0x02, 1.5) is None:
                self.report('PHONE-NO-START')
            await self.ni(peer, rx)
            return
        if not await self.ni(peer, rx, android=script == 'android'):
            return
        if script in ('ni-stop', 'ni-leave'):
            await asyncio.sleep(self.hold)
            if script == 'ni-stop':
                await self.stop(peer, rx)
            await self.connection.disconnect()

    async def reencrypt_sec(self, peer: Peer, target: hci.Address) -> None:
        sec = await sec_characteristic(peer)
        self.report(f'PHONE-SEC-FIRST {await read_or_error(sec)}')
        await self.connection.pair()
        self.report(f'PHONE-SEC-PAIRED {await read_or_error(sec)}')
        await asyncio.sleep(0.6)  # the accessory files the bond
        await self.connection.disconnect()
        await asyncio.sleep(0.3)
        target = await self.find()
        peer = await self.connect(target, exchange_mtu=False)
        try:
            await self.connection.encrypt()
            self.report('PHONE-REENCRYPT ok')
        except Exception as error:  # the encryption failed
            self.report(f'PHONE-REENCRYPT error={type(error).__name__}')
        sec = await sec_characteristic(peer)
        self.report(f'PHONE-SEC-AGAIN {await read_or_error(sec)}')

    async def qorvo_params(self, peer: Peer, rx) -> None:
        """Qorvo's device parameters as its firmware answers them (``ble_niq.c``, 2024-25):
        0x20 -> 0x20 + 33 bytes; 0x21 + 33 bytes (version 1) -> 0x22 00; a 0x21 of another
        length -> 0x22 01; of another version -> 0x22 02."""
        await peer.write_value(rx, bytes([0x20]), with_response=True)
        answer = await self.expect(0x20, 3)
        self.report(f'PHONE-DEVICE-PARAMS hex={answer.hex() if answer else "-"}')
        if answer is None or len(answer) != 34:
            return
        wanted = bytearray(answer[1:])
        wanted[5] = 5                                  # channel 5
        wanted[17:21] = struct.pack('<I', 0x12345678)  # session ID
        for label, payload in (('ok', bytes(wanted)), ('bad-length', bytes(wanted) + b'\x00'),
                               ('bad-version', bytes([2]) + bytes(wanted[1:]))):
            await peer.write_value(rx, bytes([0x21]) + payload, with_response=True)
            ack = await self.expect(0x22, 3)
            self.report(f'PHONE-SET-ACK case={label} hex={ack.hex() if ack else "-"}')
        await peer.write_value(rx, bytes([0x20]), with_response=True)
        again = await self.expect(0x20, 3)
        self.report(f'PHONE-DEVICE-PARAMS-AFTER hex={again.hex() if again else "-"}')

    async def probe(self, peer: Peer) -> None:
        uuids = sorted(str(service.uuid).upper() for service in peer.services)
        self.report(f'PHONE-PROBE services={",".join(uuids)}')
        names = await peer.read_characteristics_by_uuid(UUID.from_16_bits(0x2A00))
        self.report(f'PHONE-PROBE name={bytes(names[0]).decode() if names else "-"}')
        client = peer.gatt_client
        for label, request in (('unknown-handle', ATT_Read_Request(attribute_handle=0xFFF0)),
                               ('bad-offset', ATT_Read_Blob_Request(attribute_handle=0x0003, value_offset=200))):
            response = await client.send_request(request)
            code = getattr(response, 'error_code', None)
            self.report(f'PHONE-PROBE {label} error=0x{code:02x}' if code is not None else f'PHONE-PROBE {label} ok')
        qorvo = peer.get_services_by_uuid(UUID(services.QORVO_SERVICE))
        if qorvo:
            await qorvo[0].discover_characteristics()
            sec = qorvo[0].get_characteristics_by_uuid(UUID(services.QORVO_SEC))[0]
            try:
                await sec.read_value()
                self.report('PHONE-PROBE sec-read unencrypted')
            except ATT_Error as error:
                self.report(f'PHONE-PROBE sec error=0x{error.error_code:02x}')
                await self.connection.pair()
                value = await sec.read_value()
                self.report(f'PHONE-PROBE sec-after-pairing value={bytes(value).decode()}')


async def sec_characteristic(peer: Peer):
    qorvo = peer.get_services_by_uuid(UUID(services.QORVO_SERVICE))
    await qorvo[0].discover_characteristics()
    return qorvo[0].get_characteristics_by_uuid(UUID(services.QORVO_SEC))[0]


async def read_or_error(characteristic) -> str:
    try:
        return f'value={bytes(await characteristic.read_value()).decode()}'
    except ATT_Error as error:
        return f'error=0x{error.error_code:02x}'

class AppleSamplePhone:
    """Apple's sample app "Implementing spatial interactions with third-party accessories",
    unmodified, step by step (the sample's ``NINearbyAccessorySample/BluetoothSupport/
    BluetoothLECentral.swift`` and ``AccessoryDemoViewController.swift``; public copies:
    oink-c/ and gyeongsu01/ImplementingSpatialInteractionsWithThirdPartyAccessories):

    - ``retrievePeripheral()``: ``scanForPeripherals(withServices: [TransferService.serviceUUID])``,
      the Nordic UART service and nothing else, duplicates allowed; iOS matches the UUID in the
      advertising data or the scan response.
    - ``centralManager(_:didDiscover:...)``: connects to the first peripheral found, no RSSI
      check. iOS exchanges the ATT_MTU by itself right after connecting.
    - ``centralManager(_:didConnect:)``: calls ``accessoryConnectedHandler`` (the view
      controller's ``accessoryConnected`` enables the button that sends 0x0A), then
      ``discoverServices([TransferService.serviceUUID])``; ``didDiscoverCharacteristicsFor``
      calls ``setNotifyValue(true, ...)`` on RX (no notify property: iOS refuses it locally) and
      on TX (the CCCD write).
    - ``buttonAction``: writes 0x0A; ``writeData`` writes with response, cut to
      ``maximumWriteValueLength``, to the last ``rxCharacteristic`` it found, which after a
      reconnection is the previous connection's (never cleared): a user who taps at once writes
      0x0A before the new connection subscribed.
    - ``setupAccessory``: 0x01 -> ``NISession.run``; ``didGenerateShareableConfigurationData``
      writes 0x0B; 0x02 disables the button.
    - ``session(_:didRemove:reason:)`` with ``.timeout``: writes 0x0C then 0x0A (the retry).
    - ``centralManager(_:didDisconnectPeripheral:error:)``: ``retrievePeripheral()`` at once
      (scan again, connect to the first found), up to ``defaultIterations`` (5) connections.
    """

    def __init__(self, phone: Phone) -> None:
        self.phone = phone
        self.rx_handle: int | None = None
        self.cycle = 0

    async def connect(self, target: hci.Address) -> Peer:
        phone = self.phone
        peer = await phone.connect(target)  # didConnect; iOS exchanged the MTU
        return peer

    async def discover_and_subscribe(self, peer: Peer) -> None:
        phone = self.phone
        services_found = peer.get_services_by_uuid(UUID(services.NUS_SERVICE))
        if not services_found:
            raise RuntimeError('the Nordic UART service is not served')
        service = services_found[0]
        await service.discover_characteristics()
        rx = service.get_characteristics_by_uuid(UUID(services.NUS_RX))[0]
        tx = service.get_characteristics_by_uuid(UUID(services.NUS_TX))[0]
        self.rx_handle = rx.handle
        phone.report('PHONE-SERVICE name=nus')
        await phone.subscribe(peer, tx)

    async def write(self, peer: Peer, value: bytes) -> None:
        # writeData: with response, to the remembered RX characteristic (its handle).
        await peer.gatt_client.write_value(self.rx_handle, value, with_response=True)

    async def range_once(self, peer: Peer, retry: bool) -> bool:
        phone = self.phone
        self.cycle += 1
        session_id, mac = 0x5000 + 0x10 * self.cycle + phone.index, 0x1100 + phone.index
        if retry:
            # didRemove(.timeout): stop, then initialize, back to back.
            await self.write(peer, bytes([0x0C]))
            await self.write(peer, bytes([0x0A]))
            if await phone.expect(0x03, 5) is not None:
                phone.report('PHONE-STOPPED')
        else:
            await self.write(peer, bytes([0x0A]))  # buttonAction
        acd = await phone.expect(0x01, 10)
        if acd is None:
            phone.report('PHONE-NO-ACD')
            return False
        phone.report(f'PHONE-ACD length={len(acd)} hex={acd.hex()} cycle={self.cycle}')
        await self.write(peer, bytes([0x0B]) + shareable(session_id, mac))
        if await phone.expect(0x02, 10) is None:
            phone.report('PHONE-NO-START')
            return False
        phone.report(f'PHONE-STARTED session=0x{session_id:08X} mac=0x{mac:04X} cycle={self.cycle}')
        await asyncio.sleep(phone.hold)  # ranging
        phone.report(f'PHONE-CYCLE-DONE cycle={self.cycle}')
        return True

    async def run(self, target: hci.Address) -> None:
        phone = self.phone
        peer = await self.connect(target)
        await self.discover_and_subscribe(peer)
        if not await self.range_once(peer, retry=False):
            return
        if not await self.range_once(peer, retry=True):
            return
        # The link ends (the phone walks away, or the app's cleanup()); didDisconnectPeripheral
        # scans again at once and connects to the first accessory found.
        disconnected = asyncio.get_running_loop().create_future()
        phone.connection.on('disconnection', lambda reason: disconnected.done() or disconnected.set_result(reason))
        await phone.connection.disconnect()
        await asyncio.wait_for(disconnected, 10)
        phone.report('PHONE-RECONNECTING')
        target = await phone.find(services.NUS_SERVICE, settle=0)
        peer = await self.connect(target)
        # The button is enabled on didConnect; the user taps before discovery finished: the
        # write goes to the remembered RX characteristic, before the new link subscribed.
        await self.write(peer, bytes([0x0A]))
        phone.report('PHONE-EARLY-WRITE accepted')
        await self.discover_and_subscribe(peer)
        acd = await phone.expect(0x01, 10)
        if acd is None:
            phone.report('PHONE-NO-ACD after-early-write')
            return
        phone.report(f'PHONE-ACD length={len(acd)} hex={acd.hex()} after-early-write')
        self.cycle += 1
        session_id, mac = 0x5000 + 0x10 * self.cycle + phone.index, 0x1100 + phone.index
        await self.write(peer, bytes([0x0B]) + shareable(session_id, mac))
        if await phone.expect(0x02, 10) is None:
            phone.report('PHONE-NO-START after-early-write')
            return
        phone.report(f'PHONE-STARTED session=0x{session_id:08X} mac=0x{mac:04X} cycle={self.cycle}')
        await asyncio.sleep(phone.hold)
        phone.report(f'PHONE-CYCLE-DONE cycle={self.cycle}')


async def start_phones(link, count: int, scripts: list[str], *, service: str, hold: float, mtu: int, report) -> list[Phone]:
    phones = []
    for index in range(1, count + 1):
        script = scripts[min(index - 1, len(scripts) - 1)] if scripts else 'ni'
        if script not in SCRIPTS:
            raise ValueError(f'unknown phone script {script!r}: use {", ".join(SCRIPTS)}')
        phone = Phone(link, index, script, service=service, hold=hold, mtu=mtu, report=report,
                      start_delay=0.5 if index > 1 else 0, previous=phones[-1] if phones else None)
        phones.append(phone)
        asyncio.get_running_loop().create_task(phone.run())
    return phones
