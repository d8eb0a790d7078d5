"""Remote devices: Device1 objects from advertising, connections, GATT client objects
(GattService1 / GattCharacteristic1 / GattDescriptor1 with Read/WriteValue, Start/StopNotify,
AcquireWrite / AcquireNotify), pairing with the agent, bonds (src/device.c, src/gatt-client.c)."""

from __future__ import annotations

import asyncio
import socket
import typing

import dbus
from dbusmock import mockobject

from bumble import hci
from bumble.att import ATT_Error
from bumble.core import UUID
from bumble.device import Peer
from bumble.pairing import PairingConfig, PairingDelegate

from . import eir as eir_module
from .bridge import BlueZError, install

if typing.TYPE_CHECKING:
    from .daemon import Bluetoothd

DEVICE_IFACE = 'org.bluez.Device1'
SERVICE_IFACE = 'org.bluez.GattService1'
CHAR_IFACE = 'org.bluez.GattCharacteristic1'
DESC_IFACE = 'org.bluez.GattDescriptor1'
AGENT_IFACE = 'org.bluez.Agent1'

IO_CAPABILITY = {
    'DisplayOnly': PairingDelegate.IoCapability.DISPLAY_OUTPUT_ONLY,
    'DisplayYesNo': PairingDelegate.IoCapability.DISPLAY_OUTPUT_AND_YES_NO_INPUT,
    'KeyboardOnly': PairingDelegate.IoCapability.KEYBOARD_INPUT_ONLY,
    'NoInputNoOutput': PairingDelegate.IoCapability.NO_OUTPUT_NO_INPUT,
    'KeyboardDisplay': PairingDelegate.IoCapability.DISPLAY_OUTPUT_AND_KEYBOARD_INPUT,
}

# Characteristic properties -> BlueZ's Flags (src/gatt-client.c chrc_props).
FLAGS = [(0x01, 'broadcast'), (0x02, 'read'), (0x04, 'write-without-response'), (0x08, 'write'), (0x10, 'notify'),
         (0x20, 'indicate'), (0x40, 'authenticated-signed-writes'), (0x80, 'extended-properties')]


def report(line: str) -> None:
    print(line, flush=True)


def att_error(error: ATT_Error) -> BlueZError:
    """src/gatt-client.c create_gatt_dbus_error (5.66)."""
    code = error.error_code
    if code == 0x02:
        return BlueZError('NotPermitted', 'Read not permitted')
    if code == 0x03:
        return BlueZError('NotPermitted', 'Write not permitted')
    if code in (0x05, 0x0F, 0x0C):
        return BlueZError('NotPermitted', 'Not paired')
    if code == 0x07:
        return BlueZError('InvalidArguments', 'Invalid offset')
    if code == 0x0D:
        return BlueZError('InvalidArguments', 'Invalid Length')
    if code == 0x08:
        return BlueZError('NotAuthorized', 'Not Authorized')
    if code == 0x06:
        return BlueZError('NotSupported', 'Not Supported')
    return BlueZError('Failed', f'Operation failed with ATT error: 0x{code:02x}')


class RemoteCharacteristic:
    def __init__(self, device: 'RemoteDevice', path: str, proxy) -> None:
        self.device = device
        self.path = path
        self.proxy = proxy
        self.props = int(proxy.properties)
        self.notify_socket: socket.socket | None = None   # our end of AcquireNotify
        self.write_socket: socket.socket | None = None    # our end of AcquireWrite
        self.notify_clients: set[str] = set()             # StartNotify callers
        self.subscribed = False
        self.writing = False

    @property
    def flags(self) -> list[str]:
        return [name for bit, name in FLAGS if self.props & bit]


class RemoteDevice:
    def __init__(self, path: str, address: str, address_type: str) -> None:
        self.path = path
        self.address = address
        self.address_type = address_type
        self.connection = None
        self.peer: Peer | None = None
        self.connecting: asyncio.Future | None = None
        self.characteristics: dict[str, RemoteCharacteristic] = {}
        self.gatt_paths: list[str] = []
        self.paired = False
        self.adv: bytes = b''
        self.scan_response: bytes = b''
        self.uuids: list[str] = []
        self.removal: asyncio.TimerHandle | None = None
        self.pairing_method: str | None = None

    @property
    def hci_address(self) -> hci.Address:
        return hci.Address(self.address + ('' if self.address_type == 'random' else '/P'))


class Central:
    def __init__(self, daemon: 'Bluetoothd') -> None:
        self.daemon = daemon
        self.devices: dict[str, RemoteDevice] = {}

    @property
    def bridge(self):
        return self.daemon.bridge

    def device_path(self, address: str) -> str:
        return f'{self.daemon.adapter_path}/dev_{address.replace(":", "_")}'

    # Advertising reports (src/adapter.c btd_adapter_update_found_device) -----------------------
    def advertisement(self, advertisement) -> None:
        daemon = self.daemon
        if not daemon.scanning or daemon.adapter is None:
            return
        address = advertisement.address.to_string(False)
        address_type = 'random' if advertisement.address.is_random else 'public'
        path = self.device_path(address)
        device = self.devices.get(path)
        # The kernel merges advertising data and the scan response of a device.
        if device is None:
            device = RemoteDevice(path, address, address_type)
        if advertisement.is_scan_response:
            device.scan_response = bytes(advertisement.data_bytes)
        else:
            device.adv = bytes(advertisement.data_bytes)
        merged = eir_module.parse(device.adv + device.scan_response)
        rssi = advertisement.rssi
        if daemon.filtered_discovery and not daemon.filter_match(merged, rssi):
            return
        if path not in self.devices:
            self.devices[path] = device
        duplicate = daemon.duplicate_data
        self.bridge.glib(self.update_found, device, merged, rssi, duplicate)

    def update_found(self, device: RemoteDevice, eir: eir_module.EIR, rssi: int, duplicate: bool) -> None:
        daemon = self.daemon
        props: dict = {'RSSI': dbus.Int16(rssi)}
        if eir.tx_power != 127:
            props['TxPower'] = dbus.Int16(eir.tx_power)
        if eir.name:
            props['Name'] = dbus.String(eir.name)
            props['Alias'] = dbus.String(eir.name)
        new_uuids = [u for u in eir.services if u not in device.uuids]
        if new_uuids:
            device.uuids += new_uuids
            props['UUIDs'] = dbus.Array(device.uuids, signature='s')
        if eir.msd:
            props['ManufacturerData'] = dbus.Dictionary({dbus.UInt16(k): dbus.Array(v, signature='y') for k, v in eir.msd.items()},
                                                         signature='qv')
        if eir.sd:
            props['ServiceData'] = dbus.Dictionary({dbus.String(k): dbus.Array(v, signature='y') for k, v in eir.sd.items()},
                                                    signature='sv')
        if eir.flags:
            props['AdvertisingFlags'] = dbus.Array([eir.flags], signature='y')
        obj = mockobject.objects.get(device.path)
        if obj is None:
            base = {
                'Address': dbus.String(device.address), 'AddressType': dbus.String(device.address_type),
                'Alias': dbus.String(device.address.replace(':', '-')), 'Paired': dbus.Boolean(False),
                'Bonded': dbus.Boolean(False), 'Trusted': dbus.Boolean(False), 'Blocked': dbus.Boolean(False),
                'LegacyPairing': dbus.Boolean(False), 'Connected': dbus.Boolean(False),
                'UUIDs': dbus.Array([], signature='s'), 'Adapter': dbus.ObjectPath(daemon.adapter_path),
                'ServicesResolved': dbus.Boolean(False),
            }
            base.update(props)
            self.create_device_object(device, base)
            return
        current = obj.props[DEVICE_IFACE]
        changed = {}
        for key, value in props.items():
            # RSSI on every report while a filter is set (no delta threshold); advertising data on
            # every report with DuplicateData, else when it changed (src/device.c).
            if key == 'RSSI' or (key in ('ManufacturerData', 'ServiceData') and duplicate) or current.get(key) != value:
                changed[key] = value
        if changed:
            daemon.emit_changed(device.path, DEVICE_IFACE, changed)

    def create_device_object(self, device: RemoteDevice, properties: dict) -> None:
        obj = self.daemon.add_object(device.path, {DEVICE_IFACE: properties})
        b = self.bridge
        install(obj, DEVICE_IFACE, 'Connect', '', '', b.method(DEVICE_IFACE, '', '', self.connect_method))
        install(obj, DEVICE_IFACE, 'Disconnect', '', '', b.method(DEVICE_IFACE, '', '', self.disconnect_method))
        install(obj, DEVICE_IFACE, 'Pair', '', '', b.method(DEVICE_IFACE, '', '', self.pair_method))
        install(obj, DEVICE_IFACE, 'CancelPairing', '', '', b.method(DEVICE_IFACE, '', '', self.cancel_pairing_method))

    def discovery_ended(self) -> None:
        """Temporary devices that are not connected are removed after TemporaryTimeout."""
        for device in list(self.devices.values()):
            if device.connection is None and not device.paired:
                self.schedule_removal(device)

    def schedule_removal(self, device: RemoteDevice) -> None:
        if device.removal is not None:
            device.removal.cancel()

        def remove() -> None:
            device.removal = None
            if device.connection is None and not device.paired and not self.daemon.scanning and device.path in self.devices:
                del self.devices[device.path]
                self.bridge.glib(self.daemon.remove_object, device.path)
                report(f'BLUEZ-REMOVED address={device.address} reason=temporary')
        device.removal = asyncio.get_running_loop().call_later(self.daemon.options.temporary_timeout, remove)

    def client_gone(self, name: str) -> None:
        for device in self.devices.values():
            for characteristic in device.characteristics.values():
                if name in characteristic.notify_clients:
                    characteristic.notify_clients.discard(name)
                    if not characteristic.notify_clients and characteristic.notify_socket is None:
                        self.bridge.bumble(self.unsubscribe(characteristic))

    def device_of(self, obj) -> RemoteDevice:
        device = self.devices.get(obj.path)
        if device is None:
            raise BlueZError('DoesNotExist', 'Does Not Exist')
        return device

    # Connecting --------------------------------------------------------------------------------
    async def connect_method(self, obj, sender=None):
        self.daemon.require_powered()
        device = self.device_of(obj)
        if device.connection is not None and device.peer is not None:
            raise BlueZError('AlreadyConnected', 'Already Connected')
        if device.connecting is not None:
            raise BlueZError('InProgress', 'In Progress')
        await self.connect(device)

    async def connect(self, device: RemoteDevice) -> None:
        if device.connection is not None and device.peer is not None:
            return
        device.connecting = asyncio.get_running_loop().create_future()
        if device.removal is not None:
            device.removal.cancel()
            device.removal = None
        try:
            try:
                # The kernel's LE connection attempt: HCI_LE_CONN_TIMEOUT, 20 s.
                connection = await self.daemon.device.connect(
                    device.hci_address, own_address_type=hci.OwnAddressType.RANDOM, timeout=20)
            except Exception as error:
                report(f'BLUEZ-CONNECT-FAILED address={device.address} error={type(error).__name__}')
                raise BlueZError('Failed', 'le-connection-abort-by-local')
            device.connection = connection
            connection.on('disconnection', lambda reason: self.disconnected(device, connection, reason))
            await self.bridge.on_glib(lambda: self.daemon.emit_changed(device.path, DEVICE_IFACE, {'Connected': dbus.Boolean(True)}))
            report(f'BLUEZ-CONNECTED address={device.address}')
            if device.paired:
                # A bonded LE device: the kernel raises security with the stored key.
                try:
                    await connection.encrypt()
                    report(f'BLUEZ-ENCRYPTED address={device.address}')
                except Exception as error:
                    report(f'BLUEZ-ENCRYPTION-FAILED address={device.address} error={type(error).__name__}')
            peer = Peer(connection)
            # BlueZ asks for ATT_MTU 517 (btd_opts.gatt_mtu, BT_ATT_MAX_LE_MTU) and discovers everything.
            mtu = await peer.request_mtu(517)
            await peer.discover_services()
            for service in peer.services:
                await service.discover_characteristics()
                for characteristic in service.characteristics:
                    await characteristic.discover_descriptors()
            device.peer = peer
            await self.bridge.on_glib(lambda: self.export_gatt(device, peer, mtu))
            report(f'BLUEZ-SERVICES-RESOLVED address={device.address} mtu={mtu} services={len(peer.services)}')
        finally:
            future, device.connecting = device.connecting, None
            if future is not None and not future.done():
                future.set_result(None)

    def export_gatt(self, device: RemoteDevice, peer: Peer, mtu: int) -> None:
        daemon = self.daemon
        uuids = list(device.uuids)
        for service in peer.services:
            service_path = f'{device.path}/service{service.handle:04x}'
            uuid = normalize(service.uuid)
            if uuid not in uuids:
                uuids.append(uuid)
            daemon.add_object(service_path, {SERVICE_IFACE: {
                'UUID': dbus.String(uuid), 'Device': dbus.ObjectPath(device.path), 'Primary': dbus.Boolean(True),
                'Includes': dbus.Array([], signature='o')}})
            device.gatt_paths.append(service_path)
            for proxy in service.characteristics:
                path = f'{service_path}/char{proxy.handle:04x}'
                characteristic = RemoteCharacteristic(device, path, proxy)
                device.characteristics[path] = characteristic
                props = {
                    'UUID': dbus.String(normalize(proxy.uuid)), 'Service': dbus.ObjectPath(service_path),
                    'Value': dbus.Array([], signature='y'), 'Flags': dbus.Array(characteristic.flags, signature='s'),
                }
                if characteristic.props & 0x30:
                    props['Notifying'] = dbus.Boolean(False)
                acquire = daemon.version >= (5, 48)
                if acquire and characteristic.props & 0x04:
                    props['WriteAcquired'] = dbus.Boolean(False)
                if acquire and characteristic.props & 0x10:
                    props['NotifyAcquired'] = dbus.Boolean(daemon.options.held_elsewhere)
                if daemon.version >= (5, 62):
                    props['MTU'] = dbus.UInt16(mtu)
                obj = daemon.add_object(path, {CHAR_IFACE: props})
                self.install_characteristic(obj, acquire)
                device.gatt_paths.append(path)
                for descriptor in proxy.descriptors:
                    descriptor_path = f'{path}/desc{descriptor.handle:04x}'
                    daemon.add_object(descriptor_path, {DESC_IFACE: {
                        'UUID': dbus.String(normalize(descriptor.type)), 'Characteristic': dbus.ObjectPath(path),
                        'Value': dbus.Array([], signature='y')}})
                    device.gatt_paths.append(descriptor_path)
        changed = {'ServicesResolved': dbus.Boolean(True)}
        if uuids != device.uuids:
            device.uuids = uuids
            changed['UUIDs'] = dbus.Array(uuids, signature='s')
        daemon.emit_changed(device.path, DEVICE_IFACE, changed)

    def install_characteristic(self, obj, acquire: bool) -> None:
        b = self.bridge
        install(obj, CHAR_IFACE, 'ReadValue', 'a{sv}', 'ay', b.method(CHAR_IFACE, 'a{sv}', 'ay', self.read_value))
        install(obj, CHAR_IFACE, 'WriteValue', 'aya{sv}', '', b.method(CHAR_IFACE, 'aya{sv}', '', self.write_value))
        install(obj, CHAR_IFACE, 'StartNotify', '', '', b.method(CHAR_IFACE, '', '', self.start_notify))
        install(obj, CHAR_IFACE, 'StopNotify', '', '', b.method(CHAR_IFACE, '', '', self.stop_notify))
        if acquire:
            install(obj, CHAR_IFACE, 'AcquireWrite', 'a{sv}', 'hq', b.method(CHAR_IFACE, 'a{sv}', 'hq', self.acquire_write))
            install(obj, CHAR_IFACE, 'AcquireNotify', 'a{sv}', 'hq', b.method(CHAR_IFACE, 'a{sv}', 'hq', self.acquire_notify))

    def disconnected(self, device: RemoteDevice, connection, reason: int) -> None:
        if device.connection is not connection:
            return
        device.connection = None
        device.peer = None
        report(f'BLUEZ-DISCONNECTED address={device.address} reason=0x{reason:02x}')
        for characteristic in device.characteristics.values():
            for end in (characteristic.notify_socket, characteristic.write_socket):
                if end is not None:
                    self.close_socket(end)
            characteristic.notify_socket = characteristic.write_socket = None
            characteristic.notify_clients.clear()
        characteristics = list(device.characteristics)
        device.characteristics.clear()
        paths, device.gatt_paths = device.gatt_paths, []

        def update() -> None:
            # BlueZ unregisters the GATT objects when the link goes (btd_gatt_client_disconnected).
            for path in reversed(paths):
                self.daemon.remove_object(path)
            self.daemon.emit_changed(device.path, DEVICE_IFACE, {'Connected': dbus.Boolean(False), 'ServicesResolved': dbus.Boolean(False)})
        self.bridge.glib(update)
        del characteristics
        if not device.paired and not self.daemon.scanning:
            self.schedule_removal(device)

    def close_socket(self, end: socket.socket) -> None:
        try:
            asyncio.get_running_loop().remove_reader(end.fileno())
        except Exception:
            pass
        try:
            end.close()
        except OSError:
            pass

    async def disconnect_method(self, obj, sender=None):
        device = self.device_of(obj)
        if device.connecting is not None and device.connection is None:
            # "This method can be also used to cancel a preceding Connect call".
            await self.daemon.device.cancel_connection(device.hci_address)
            return
        if device.connection is None:
            raise BlueZError('NotConnected', 'Not Connected')
        report(f'BLUEZ-DISCONNECT-REQUESTED address={device.address}')
        await self.request_disconnect(device)

    async def request_disconnect(self, device: RemoteDevice) -> None:
        """src/device.c device_request_disconnect: the link ends DISCONNECT_TIMER (2 s) after the
        call (disconnect_all), and the caller is answered once it ended, so what the client wrote
        before (a Write Command through the AcquireWrite socket, e.g. NI's 0x0C stop) is on the
        air first. Disconnect and RemoveDevice of a connected device both go through it."""
        connection = device.connection
        if connection is None:
            return
        await asyncio.sleep(self.daemon.options.disconnect_timer)
        if device.connection is not connection:
            return
        await connection.disconnect()
        for _ in range(100):
            if device.connection is not connection:
                break
            await asyncio.sleep(0.02)

    async def remove_device(self, obj, path, sender=None):
        # src/adapter.c remove_device: a connected device goes through device_request_disconnect
        # before it is removed.
        device = self.devices.get(str(path))
        if device is None:
            raise BlueZError('DoesNotExist', 'Does Not Exist')
        self.daemon.require_powered()
        await self.request_disconnect(device)
        if self.devices.get(str(path)) is not device:
            return
        del self.devices[str(path)]
        if device.removal is not None:
            device.removal.cancel()
        if self.daemon.device.keystore is not None:
            try:
                await self.daemon.device.keystore.delete(str(device.hci_address))
            except Exception:
                pass

        def remove() -> None:
            for gatt in reversed(device.gatt_paths):
                self.daemon.remove_object(gatt)
            self.daemon.remove_object(device.path)
        await self.bridge.on_glib(remove)
        report(f'BLUEZ-REMOVED address={device.address} reason=RemoveDevice')

    # GATT client (src/gatt-client.c) ------------------------------------------------------------
    def characteristic_of(self, obj) -> RemoteCharacteristic:
        for device in self.devices.values():
            characteristic = device.characteristics.get(obj.path)
            if characteristic is not None:
                return characteristic
        raise BlueZError('Failed', 'Not connected')

    def connected_peer(self, characteristic: RemoteCharacteristic) -> Peer:
        peer = characteristic.device.peer
        if peer is None:
            raise BlueZError('Failed', 'Not connected')
        return peer

    async def read_value(self, obj, options, sender=None):
        characteristic = self.characteristic_of(obj)
        peer = self.connected_peer(characteristic)
        try:
            value = bytes(await peer.read_value(characteristic.proxy))
        except ATT_Error as error:
            raise att_error(error)
        offset = int(options.get('offset', 0))
        await self.bridge.on_glib(lambda: self.daemon.emit_changed(obj.path, CHAR_IFACE, {'Value': dbus.Array(value, signature='y')}))
        return dbus.Array(value[offset:], signature='y')

    async def write_value(self, obj, value, options, sender=None):
        characteristic = self.characteristic_of(obj)
        peer = self.connected_peer(characteristic)
        if characteristic.write_socket is not None:
            raise BlueZError('NotPermitted', 'Write acquired')
        if characteristic.writing:
            raise BlueZError('InProgress', 'In Progress')
        kind = str(options.get('type', '')) or None
        if kind not in (None, 'request', 'command', 'reliable'):
            raise BlueZError('InvalidArguments', 'Invalid arguments in method call')
        if (kind is None and characteristic.props & 0x08) or kind == 'request':
            with_response = True
        elif (kind is None and characteristic.props & 0x04) or kind == 'command':
            with_response = False
        else:
            raise BlueZError('NotSupported', 'Not Supported')
        report(f'BLUEZ-WRITE-VALUE address={characteristic.device.address} length={len(value)} '
               f'type={"request" if with_response else "command"}')
        characteristic.writing = True
        try:
            await peer.write_value(characteristic.proxy, bytes(value), with_response=with_response)
        except ATT_Error as error:
            raise att_error(error)
        finally:
            characteristic.writing = False

    async def subscribe(self, characteristic: RemoteCharacteristic) -> None:
        if characteristic.subscribed:
            return
        peer = self.connected_peer(characteristic)

        def notified(value) -> None:
            value = bytes(value)
            if characteristic.notify_socket is not None:
                try:
                    characteristic.notify_socket.send(value)
                except OSError:
                    pass
                return
            self.bridge.glib(lambda: self.daemon.emit_changed(characteristic.path, CHAR_IFACE, {'Value': dbus.Array(value, signature='y')}))
        try:
            await peer.subscribe(characteristic.proxy, notified, prefer_notify=True)
        except ATT_Error as error:
            raise att_error(error)
        characteristic.subscribed = True

    async def unsubscribe(self, characteristic: RemoteCharacteristic) -> None:
        if not characteristic.subscribed:
            return
        characteristic.subscribed = False
        peer = characteristic.device.peer
        if peer is not None:
            try:
                await peer.unsubscribe(characteristic.proxy)
            except Exception:
                pass

    async def start_notify(self, obj, sender=None):
        characteristic = self.characteristic_of(obj)
        if characteristic.notify_socket is not None or self.daemon.options.held_elsewhere:
            raise BlueZError('NotPermitted', 'Notify acquired')
        if not characteristic.props & 0x30:
            raise BlueZError('NotSupported', 'Not Supported')
        if sender in characteristic.notify_clients:
            return
        await self.subscribe(characteristic)
        characteristic.notify_clients.add(sender)
        report(f'BLUEZ-START-NOTIFY address={characteristic.device.address}')
        await self.bridge.on_glib(lambda: self.daemon.emit_changed(obj.path, CHAR_IFACE, {'Notifying': dbus.Boolean(True)}))

    async def stop_notify(self, obj, sender=None):
        characteristic = self.characteristic_of(obj)
        if characteristic.notify_socket is not None:
            await self.release_notify(characteristic)
            return
        if sender not in characteristic.notify_clients:
            raise BlueZError('Failed', 'No notify session started')
        characteristic.notify_clients.discard(sender)
        if not characteristic.notify_clients:
            await self.unsubscribe(characteristic)
            await self.bridge.on_glib(lambda: self.daemon.emit_changed(obj.path, CHAR_IFACE, {'Notifying': dbus.Boolean(False)}))

    def socket_pair(self) -> tuple[socket.socket, socket.socket]:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        ours.setblocking(False)
        return ours, theirs

    async def acquire_write(self, obj, options, sender=None):
        characteristic = self.characteristic_of(obj)
        peer = self.connected_peer(characteristic)
        if characteristic.write_socket is not None:
            raise BlueZError('NotPermitted', 'Write acquired')
        if not characteristic.props & 0x04:
            raise BlueZError('NotSupported', 'Not Supported')
        ours, theirs = self.socket_pair()
        characteristic.write_socket = ours
        loop = asyncio.get_running_loop()

        def readable() -> None:
            try:
                data = ours.recv(512)
            except BlockingIOError:
                return
            except OSError:
                data = b''
            if not data:
                self.close_socket(ours)
                if characteristic.write_socket is ours:
                    characteristic.write_socket = None
                    self.bridge.glib(lambda: self.daemon.emit_changed(obj.path, CHAR_IFACE, {'WriteAcquired': dbus.Boolean(False)}))
                return
            # Each packet is one Write Command (src/gatt-client.c sock_read).
            loop.create_task(peer.write_value(characteristic.proxy, data, with_response=False))
        loop.add_reader(ours.fileno(), readable)
        mtu = characteristic.device.connection.att_mtu
        report(f'BLUEZ-ACQUIRE-WRITE address={characteristic.device.address} mtu={mtu}')
        await self.bridge.on_glib(lambda: self.daemon.emit_changed(obj.path, CHAR_IFACE, {'WriteAcquired': dbus.Boolean(True)}))
        return (dbus.types.UnixFd(theirs), dbus.UInt16(mtu))

    async def acquire_notify(self, obj, options, sender=None):
        characteristic = self.characteristic_of(obj)
        self.connected_peer(characteristic)
        if characteristic.notify_socket is not None or self.daemon.options.held_elsewhere:
            raise BlueZError('NotPermitted', 'Notify acquired')
        if characteristic.notify_clients:
            raise BlueZError('InProgress', 'In Progress')
        if not characteristic.props & 0x10:
            raise BlueZError('NotSupported', 'Not Supported')
        ours, theirs = self.socket_pair()
        characteristic.notify_socket = ours
        try:
            await self.subscribe(characteristic)
        except BlueZError:
            characteristic.notify_socket = None
            ours.close()
            theirs.close()
            raise

        def readable() -> None:
            try:
                data = ours.recv(512)
            except BlockingIOError:
                return
            except OSError:
                data = b''
            if not data:
                # The client closed its end: the acquisition ends (sock_hup).
                asyncio.get_running_loop().create_task(self.release_notify(characteristic, ours))
        asyncio.get_running_loop().add_reader(ours.fileno(), readable)
        mtu = characteristic.device.connection.att_mtu
        report(f'BLUEZ-ACQUIRE-NOTIFY address={characteristic.device.address} mtu={mtu}')
        await self.bridge.on_glib(lambda: self.daemon.emit_changed(obj.path, CHAR_IFACE, {
            'NotifyAcquired': dbus.Boolean(True), 'Notifying': dbus.Boolean(True)}))
        return (dbus.types.UnixFd(theirs), dbus.UInt16(mtu))

    async def release_notify(self, characteristic: RemoteCharacteristic, end: socket.socket | None = None) -> None:
        current = characteristic.notify_socket
        if current is None or (end is not None and current is not end):
            return
        characteristic.notify_socket = None
        self.close_socket(current)
        await self.unsubscribe(characteristic)
        path = characteristic.path
        self.bridge.glib(lambda: self.daemon.emit_changed(path, CHAR_IFACE, {
            'NotifyAcquired': dbus.Boolean(False), 'Notifying': dbus.Boolean(False)}))

    # Pairing (src/device.c, the agent) ---------------------------------------------------------
    async def pair_method(self, obj, sender=None):
        self.daemon.require_powered()
        device = self.device_of(obj)
        if device.paired:
            raise BlueZError('AlreadyExists', 'Already Paired')
        agent = self.daemon.agent_for(sender)
        await self.connect(device)
        connection = device.connection
        capability = agent[2] if agent else 'NoInputNoOutput'
        delegate = AgentDelegate(self, device, agent, capability)
        self.daemon.device.pairing_config_factory = lambda _connection: PairingConfig(
            sc=True, mitm=False, bonding=True, delegate=delegate)
        failure: list[int] = []
        connection.on('pairing_failure', lambda reason: failure.append(int(reason)))
        try:
            await asyncio.wait_for(connection.pair(), 60)
        except asyncio.TimeoutError:
            report(f'BLUEZ-PAIRING-FAILED address={device.address} error=timeout')
            raise BlueZError('AuthenticationTimeout', 'Authentication Timeout')
        except Exception as error:
            report(f'BLUEZ-PAIRING-FAILED address={device.address} error={type(error).__name__} reason={failure}')
            if device.connection is None:
                raise BlueZError('AuthenticationCanceled', 'Authentication Canceled')
            # Every SMP failure is MGMT_STATUS_AUTH_FAILED: "Authentication Failed" (src/device.c).
            raise BlueZError('AuthenticationFailed', 'Authentication Failed')
        device.paired = True
        report(f'BLUEZ-PAIRED address={device.address} method={delegate.method or "just-works"} capability={capability}')
        await self.bridge.on_glib(lambda: self.daemon.emit_changed(device.path, DEVICE_IFACE, {
            'Paired': dbus.Boolean(True), 'Bonded': dbus.Boolean(True)}))

    async def cancel_pairing_method(self, obj, sender=None):
        raise BlueZError('DoesNotExist', 'Does Not Exist')


class AgentDelegate(PairingDelegate):
    """Bumble's pairing questions, answered by the client's Agent1 (doc/org.bluez.Agent.rst)."""

    def __init__(self, central: Central, device: RemoteDevice, agent, capability: str) -> None:
        super().__init__(io_capability=IO_CAPABILITY[capability])
        self.central = central
        self.device = device
        self.agent = agent
        self.method: str | None = None

    async def call(self, method: str, *args, signature: str):
        name, path, _ = self.agent
        report(f'BLUEZ-AGENT call={method} device={self.device.address}' + (f' value={int(args[1]):06d}' if len(args) > 1 else ''))
        return await self.central.bridge.call(self.central.daemon.bus, name, path, AGENT_IFACE, method, *args,
                                              signature=signature, timeout=60)

    async def accept(self) -> bool:
        return True

    async def confirm(self, auto: bool = False) -> bool:
        return True

    async def compare_numbers(self, number: int, digits: int) -> bool:
        self.method = 'numeric-comparison'
        if self.agent is None:
            return False
        try:
            await self.call('RequestConfirmation', dbus.ObjectPath(self.device.path), dbus.UInt32(number), signature='ou')
            return True
        except dbus.exceptions.DBusException:
            return False

    async def get_number(self) -> int | None:
        self.method = 'passkey-entry'
        if self.agent is None:
            return None
        try:
            (value,) = await self.call('RequestPasskey', dbus.ObjectPath(self.device.path), signature='o')
            return int(value)
        except dbus.exceptions.DBusException:
            return None

    async def display_number(self, number: int, digits: int) -> None:
        self.method = 'passkey-display'
        if self.agent is None:
            return
        try:
            await self.call('DisplayPasskey', dbus.ObjectPath(self.device.path), dbus.UInt32(number), dbus.UInt16(0), signature='ouq')
        except dbus.exceptions.DBusException:
            pass


def normalize(uuid: UUID) -> str:
    """A Bumble UUID as BlueZ writes it: 128 bits, lower case."""
    text = uuid.to_hex_str().lower() if hasattr(uuid, 'to_hex_str') else str(uuid).lower()
    text = text.replace('-', '')
    if len(text) == 4:
        text = f'0000{text}00001000800000805f9b34fb'
    elif len(text) == 8:
        text = f'{text}00001000800000805f9b34fb'
    return f'{text[0:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:32]}'
