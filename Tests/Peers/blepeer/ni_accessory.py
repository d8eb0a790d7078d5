"""An NI accessory for the Bumble test peer: the accessory side of the Nearby Interaction accessory
protocol over the peer's GATT data channel, ranging through a virtual UWBS over TCP (raw UCI).

Select it with ``ble_peer.py --behaviour blepeer.ni_accessory:NIAccessoryBehaviour`` and give the
UWBS address in the environment: ``NEARBY_NI_UWBS=127.0.0.1:7000`` (``nearby sim uwbs --listen``,
or a ``VirtualUWBSServer`` in a test). Optional settings:

* ``NEARBY_NI_MAC``: the accessory's UWB short address, hex (default 0A01). Apple dialect: the
  value, sent little-endian as Qorvo does. Android dialect: the two bytes in the order written
  (``0A01`` → ``0A 01``), as NXP's firmware holds its random MAC.
* ``NEARBY_NI_ROLE``: ``responder`` (default) or ``initiator``.
* ``NEARBY_NI_UWB_CONFIG_LENGTH``: pad the UWB config data to this length (Qorvo's struct holds
  64 bytes); ``NEARBY_NI_TRAILING``: bytes after it, beyond the announced length.
* ``NEARBY_NI_SLOTS``: Android slots per round (NXP's table: 10; its older SDK: 6).

Apple dialect, like Qorvo's firmware (``ble_niq.c``, ``niq.h``; derivation as our Swift
``NIFiRaDerivation``):

* ``0x0A`` initialize: stops a running session, re-initializes (``niq_reinit()``), answers
  ``0x01`` + ACD (NI 1.0, UWB config v1.1, Qorvo's IDs, the role, the MAC, 25 ppm).
* ``0x0B`` configureAndStart: parses the shareable data and answers ``0x02`` at once (Qorvo
  answers any 0x0B it accepts before UWB confirms anything), then opens a FiRa session on the
  UWBS as controlee / responder (controller / initiator for role 1) with the phone's channel,
  preamble, session ID, slot duration, interval, round control, STS IV (vendor 0x004C, AOSP byte
  order), DST = the phone's MAC, and starts it. After a stop, a ``0x0B`` without a new ``0x0A``
  is answered ``0x02`` but starts nothing (``niq_reinit()`` "must be called every time UWB TWR
  session is stopped"): it prints ``NI-STALE-START``.
* ``0x0C`` stop: stops and deinitializes the session, always answers ``0x03``.

Android dialect (after ``0xA5``), like NXP's ``demo_nearby_interaction`` and
``UwbApi_ConfigureData_Android``: ``0xA5`` answers ``0x01`` + the 18-byte UwbDeviceConfigData
(big-endian fields, config IDs 1-3, both roles, the MAC bytes as an array); ``0x0B`` must carry
exactly 14 bytes (else no answer), config ID 1-3 (else no answer), role 1 or 2; the session uses
NXP's table (240 / 200 / 240 ms, AoA off for ID 3, 2400 RSTU, the slots, STS IV 01..06, vendor
08 07) with DEVICE_MAC = its MAC bytes and DST_MAC = the phone's two bytes, both copied
unchanged; then ``0x02``.

disconnection: stops the session. Test control ``0x20 03`` stops the session as if the firmware
ended it and sends ``0x03``. It prints ``NI-ACD``, ``NI-START session=0x...``,
``NI-ANDROID-START ...``, ``NI-STOP``, ``NI-ERROR ...`` lines for tests.
"""

from __future__ import annotations

import asyncio
import os
import struct

from .behaviour import Behaviour, Channel


def report(line: str) -> None:
    print(line, flush=True)


# ------------------------------------------------------------------------------------------------
# UCI over TCP (raw packets, as google/pica and nearby's virtual UWBS speak them)

class UCIError(Exception):
    pass


class UCIDevice:
    """One UWBS connection: commands one at a time, responses matched by GID/OID."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.responses: asyncio.Queue[tuple[int, int, bytes]] = asyncio.Queue()
        self.read_task: asyncio.Task | None = None
        self.lock = asyncio.Lock()

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        self.read_task = asyncio.get_running_loop().create_task(self._read())
        await self.command(0, 0x00, bytes([0x00]))            # CORE_DEVICE_RESET

    async def _read(self) -> None:
        assert self.reader is not None
        pending: dict[tuple[int, int, int], bytearray] = {}
        while True:
            try:
                header = await self.reader.readexactly(4)
                payload = await self.reader.readexactly(header[3])
            except (asyncio.IncompleteReadError, ConnectionError):
                return
            message_type, segmented, gid, oid = header[0] >> 5, header[0] & 0x10, header[0] & 0x0F, header[1] & 0x3F
            key = (message_type, gid, oid)
            pending.setdefault(key, bytearray()).extend(payload)
            if segmented:
                continue
            whole = bytes(pending.pop(key))
            if message_type == 2:                             # response
                await self.responses.put((gid, oid, whole))

    async def command(self, gid: int, oid: int, payload: bytes) -> bytes:
        """Sends a command, returns its response payload; raises UCIError on a failure status."""
        assert self.writer is not None
        async with self.lock:
            self.writer.write(bytes([0x20 | gid, oid, 0, len(payload)]) + payload)
            await self.writer.drain()
            while True:
                got_gid, got_oid, response = await asyncio.wait_for(self.responses.get(), 2)
                if (got_gid, got_oid) == (gid, oid):
                    break
            if not response or response[0] != 0:
                raise UCIError(f'GID {gid:#x} OID {oid:#x} failed: status {response[:1].hex() or "none"}')
            return response

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        if self.read_task is not None:
            self.read_task.cancel()


def tlv(identifier: int, value: bytes) -> bytes:
    return bytes([identifier, len(value)]) + value


def accessory_app_configs(shareable: dict, own_mac: int, controller: bool) -> bytes:
    """The FiRa app configuration Qorvo's firmware derives (in pica's order)."""
    configs = [
        tlv(0x00, bytes([1 if controller else 0])),           # DEVICE_TYPE
        tlv(0x11, bytes([1 if controller else 0])),           # DEVICE_ROLE
        tlv(0x01, bytes([2])),                                # RANGING_ROUND_USAGE: DS-TWR deferred
        tlv(0x03, bytes([0])),                                # MULTI_NODE_MODE: unicast
        tlv(0x22, bytes([1])),                                # SCHEDULE_MODE: time-scheduled
        tlv(0x04, bytes([shareable['channel']])),             # CHANNEL_NUMBER
        tlv(0x14, bytes([shareable['preamble']])),            # PREAMBLE_CODE_INDEX
        tlv(0x15, bytes([2])),                                # SFD_ID
        tlv(0x12, bytes([3])),                                # RFRAME_CONFIG: SP3
        tlv(0x17, bytes([1])),                                # PREAMBLE_DURATION: 64 symbols
        tlv(0x02, bytes([0])),                                # STS_CONFIG: static
        tlv(0x27, struct.pack('<H', 0x004C)),                 # VENDOR_ID (AOSP order)
        tlv(0x28, shareable['sts_iv']),                       # STATIC_STS_IV
        tlv(0x29, bytes([1])),                                # NUMBER_OF_STS_SEGMENTS
        tlv(0x26, bytes([0])),                                # MAC_ADDRESS_MODE: short
        tlv(0x06, struct.pack('<H', own_mac)),                # DEVICE_MAC_ADDRESS
        tlv(0x05, bytes([1])),                                # NUMBER_OF_CONTROLEES
        tlv(0x07, struct.pack('<H', shareable['phone_mac'])), # DST_MAC_ADDRESS
        tlv(0x08, struct.pack('<H', shareable['slot_duration'])),
        tlv(0x09, struct.pack('<I', shareable['interval'])),  # RANGING_DURATION
        tlv(0x1B, bytes([min(255, shareable['slots'] + 1)])), # SLOTS_PER_RR: Qorvo's 1 + round / slot
        tlv(0x0C, bytes([shareable['round_control']])),       # RANGING_ROUND_CONTROL
        tlv(0x2C, bytes([0])),                                # HOPPING_MODE
        tlv(0x2A, struct.pack('<H', 0)),                      # MAX_RR_RETRY
        tlv(0x2E, bytes([1 if shareable['round_control'] == 3 else 0])),  # RESULT_REPORT_CONFIG: ToF
        tlv(0x0D, bytes([1])),                                # AOA_RESULT_REQ
        tlv(0x0E, bytes([1])),                                # SESSION_INFO_NTF_CONFIG
    ]
    return bytes([len(configs)]) + b''.join(configs)


def nxp_app_configs(phone: dict, own_mac: bytes, slots: int) -> bytes:
    """The FiRa app configuration NXP's UwbApi_ConfigureData_Android sets (its list, then
    UwbApi_SetRangingParams): the MACs are copied as bytes, never reordered."""
    config_id = phone['config_id']
    controller = phone['role'] == 1
    configs = [
        tlv(0x09, struct.pack('<I', 200 if config_id == 2 else 240)),   # RANGING_DURATION
        tlv(0x0D, bytes([0 if config_id == 3 else 1])),                  # AOA_RESULT_REQ
        tlv(0x1B, bytes([slots])),                                       # SLOTS_PER_RR
        tlv(0x08, struct.pack('<H', 2400)),                              # SLOT_DURATION
        tlv(0x28, bytes([1, 2, 3, 4, 5, 6])),                            # STATIC_STS_IV
        tlv(0x27, bytes([0x08, 0x07])),                                  # VENDOR_ID
        tlv(0x14, bytes([phone['preamble']])),                           # PREAMBLE_CODE_INDEX
        tlv(0x04, bytes([phone['channel']])),                            # CHANNEL_NUMBER
        tlv(0x05, bytes([1])),                                           # NUMBER_OF_CONTROLEES
        tlv(0x07, phone['phone_mac']),                                   # DST_MAC_ADDRESS, as received
        tlv(0x11, bytes([1 if controller else 0])),                      # DEVICE_ROLE
        tlv(0x03, bytes([1 if config_id == 2 else 0])),                  # MULTI_NODE_MODE
        tlv(0x26, bytes([0])),                                           # MAC_ADDRESS_MODE: short
        tlv(0x22, bytes([1])),                                           # SCHEDULE_MODE
        tlv(0x06, own_mac),                                              # DEVICE_MAC_ADDRESS, as sent
        tlv(0x01, bytes([2])),                                           # RANGING_ROUND_USAGE: DS-TWR
        tlv(0x00, bytes([1 if controller else 0])),                      # DEVICE_TYPE
    ]
    return bytes([len(configs)]) + b''.join(configs)


def parse_phone_config(payload: bytes) -> dict:
    """NXP's serializeUwbPhoneConfigData: exactly 14 bytes, big-endian session ID, the MAC kept
    as its two bytes; raises ValueError like NXP's checks (length, config ID, role)."""
    if len(payload) != 14:
        raise ValueError(f'Phone Config Data length is invalid : {len(payload)}')
    session_id, preamble, channel, config_id, role = struct.unpack_from('>IBBBB', payload, 4)
    if config_id not in (1, 2, 3):
        raise ValueError(f'Config ID {config_id} not supported')
    if role not in (1, 2):
        raise ValueError('Role not supported')
    return {'session_id': session_id, 'preamble': preamble, 'channel': channel, 'config_id': config_id,
            'role': role, 'phone_mac': payload[12:14]}


def parse_shareable(payload: bytes) -> dict:
    """Shareable configuration data (v1.0 / 1.1 / 2.0, little-endian); raises ValueError."""
    if len(payload) < 5 or payload[4] not in (23, 25, 30) or len(payload) != 5 + payload[4]:
        raise ValueError(f'shareable configuration data of {len(payload)} bytes is malformed')
    session_id, preamble, channel = struct.unpack_from('<IBB', payload, 7)
    slots, slot_duration, interval, round_control = struct.unpack_from('<HHHB', payload, 13)
    return {
        'session_id': session_id, 'preamble': preamble, 'channel': channel, 'slots': slots,
        'slot_duration': slot_duration, 'interval': interval, 'round_control': round_control,
        'sts_iv': payload[20:26], 'phone_mac': struct.unpack_from('<H', payload, 26)[0],
    }


# ------------------------------------------------------------------------------------------------

class NIAccessoryBehaviour(Behaviour):
    """The accessory side of the NI protocol (see the module's documentation)."""

    def __init__(self) -> None:
        address = os.environ.get('NEARBY_NI_UWBS', '127.0.0.1:7000')
        host, _, port = address.rpartition(':')
        self.uwbs_host = host.strip('[]') or '127.0.0.1'
        self.uwbs_port = int(port)
        mac = os.environ.get('NEARBY_NI_MAC', '0A01')
        self.mac = int(mac, 16)
        self.mac_bytes = bytes.fromhex(mac)
        self.initiator = os.environ.get('NEARBY_NI_ROLE', 'responder') == 'initiator'
        self.config_length = int(os.environ.get('NEARBY_NI_UWB_CONFIG_LENGTH', '21'))
        self.trailing = int(os.environ.get('NEARBY_NI_TRAILING', '0'))
        self.slots = int(os.environ.get('NEARBY_NI_SLOTS', '10'))
        self.device: UCIDevice | None = None
        self.session: int | None = None       # the token (UCI 2.0 handle or the session ID)
        self.initialized = True               # Qorvo: niq_init() runs niq_reinit() once
        self.channel: Channel | None = None   # where the last message came from
        self.lock = asyncio.Lock()

    def acd(self) -> bytes:
        uwb = struct.pack('<HHIIIBHH', 1, 1, 0x0003F53F, 0x00000BB8, 0x01010000,
                          1 if self.initiator else 0, self.mac, 25)
        uwb += bytes((0xE0 + i) & 0xFF for i in range(max(0, self.config_length - len(uwb))))
        trailing = bytes((0xF0 + i) & 0xFF for i in range(self.trailing))
        return bytes([0x01]) + struct.pack('<HHB', 1, 0, 0) + bytes(10) + bytes([len(uwb)]) + uwb + trailing

    def android_device_config(self) -> bytes:
        """NXP's serializeUwbDeviceConfigData: spec 1.0 / 0.0, chip ID, firmware, middleware
        4.6.0, config IDs 1-3 (0x0E), both roles, the MAC as its two bytes."""
        return (bytes([0x01]) + struct.pack('>HH', 0x0100, 0x0000) + bytes([0x00, 0xFF]) + bytes([0x02, 0x05])
                + bytes([0x04, 0x06, 0x00]) + struct.pack('>I', 0x0E) + bytes([0x03]) + self.mac_bytes)

    def for_accessory(self, index: int) -> 'NIAccessoryBehaviour':
        """Accessory `index` of a multi-accessory peer: its own UWBS connection and session, UWB
        address NEARBY_NI_MAC + index."""
        if index == 0:
            return self
        other = NIAccessoryBehaviour()
        other.mac = (self.mac + index) & 0xFFFF
        return other

    async def uwbs(self) -> UCIDevice:
        if self.device is None:
            device = UCIDevice(self.uwbs_host, self.uwbs_port)
            await device.open()
            self.device = device
        return self.device

    async def on_message(self, channel: Channel, message: bytes) -> None:
        if not message:
            return
        self.channel = channel
        async with self.lock:
            identifier = message[0]
            try:
                if identifier == 0x0A:
                    await self.stop_session()
                    self.initialized = True
                    await channel.send(self.acd())
                    report(f'NI-ACD length={len(self.acd()) - 1}')
                elif identifier == 0xA5:
                    await self.stop_session()
                    self.initialized = True
                    await channel.send(self.android_device_config())
                    report(f'NI-ANDROID-CONFIG mac={self.mac_bytes.hex()}')
                elif identifier == 0x0B and len(message) - 1 != 14:
                    await self.start_apple(channel, parse_shareable(message[1:]))
                elif identifier == 0x0B:
                    await self.start_android(channel, parse_phone_config(message[1:]))
                elif identifier == 0x0C:
                    await self.stop_session()
                    await channel.send(bytes([0x03]))
                    report('NI-STOP')
            except (UCIError, ValueError, OSError, asyncio.TimeoutError) as error:
                # Qorvo and NXP send nothing when they refuse a configuration.
                report(f'NI-ERROR {error}')
                await self.stop_session()

    async def start_apple(self, channel: Channel, shareable: dict) -> None:
        await self.stop_session()
        await channel.send(bytes([0x02]))                  # Qorvo: at once, for any accepted 0x0B
        if not self.initialized:
            report(f'NI-STALE-START session=0x{shareable["session_id"]:08X}')
            return
        configs = accessory_app_configs(shareable, self.mac, self.initiator)
        await self.open_session(shareable['session_id'], configs)
        report(f'NI-START session=0x{shareable["session_id"]:08X} channel={shareable["channel"]} preamble={shareable["preamble"]}')

    async def start_android(self, channel: Channel, phone: dict) -> None:
        await self.stop_session()
        configs = nxp_app_configs(phone, self.mac_bytes, self.slots)
        await self.open_session(phone['session_id'], configs)
        await channel.send(bytes([0x02]))
        report(f'NI-ANDROID-START session=0x{phone["session_id"]:08X} config={phone["config_id"]} '
               f'device_mac={self.mac_bytes.hex()} dst_mac={phone["phone_mac"].hex()} slots={self.slots}')

    async def open_session(self, session_id: int, configs: bytes) -> None:
        device = await self.uwbs()
        response = await device.command(1, 0x00, struct.pack('<IB', session_id, 0))      # SESSION_INIT
        token = struct.unpack_from('<I', response, 1)[0] if len(response) >= 5 else session_id
        self.session = token
        await device.command(1, 0x03, struct.pack('<I', token) + configs)                 # SET_APP_CONFIG
        await device.command(2, 0x00, struct.pack('<I', token))                           # SESSION_START

    async def stop_session(self) -> None:
        if self.session is None or self.device is None:
            return
        token, self.session = self.session, None
        self.initialized = False                          # Qorvo: niq_reinit() needed again
        try:
            await self.device.command(1, 0x01, struct.pack('<I', token))                  # SESSION_DEINIT
        except (UCIError, asyncio.TimeoutError) as error:
            report(f'NI-ERROR deinit: {error}')

    async def on_control(self, payload: bytes) -> None:
        if payload[:1] == bytes([0x03]) and self.channel is not None:
            async with self.lock:
                await self.stop_session()
                await self.channel.send(bytes([0x03]))
                report('NI-STOPPED-BY-ACCESSORY')

    async def on_disconnected(self, connection_handle: int, reason: int) -> None:
        async with self.lock:
            await self.stop_session()
            report('NI-LINK-LOST')
