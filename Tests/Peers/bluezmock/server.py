"""The peripheral role: GATT applications (GattManager1.RegisterApplication) served by Bumble's
GATT server, LE advertisements (LEAdvertisingManager1.RegisterAdvertisement), Device1 objects for
the centrals (phones) that connect (src/gatt-database.c, src/advertising.c, BlueZ 5.66)."""

from __future__ import annotations

import asyncio
import socket
import typing

import dbus
from dbusmock import mockobject

from bumble import att, hci
from bumble.core import UUID
from bumble.gatt import Characteristic, CharacteristicValue, Service

from . import eir as eir_module
from .bridge import BlueZError, install

if typing.TYPE_CHECKING:
    from .daemon import Bluetoothd

GATT_MANAGER_IFACE = 'org.bluez.GattManager1'
ADVERTISING_MANAGER_IFACE = 'org.bluez.LEAdvertisingManager1'
ADVERTISEMENT_IFACE = 'org.bluez.LEAdvertisement1'
SERVICE_IFACE = 'org.bluez.GattService1'
CHAR_IFACE = 'org.bluez.GattCharacteristic1'
DEVICE_IFACE = 'org.bluez.Device1'
OBJECT_MANAGER_IFACE = 'org.freedesktop.DBus.ObjectManager'

PROPERTY_BITS = {'broadcast': 0x01, 'read': 0x02, 'write-without-response': 0x04, 'write': 0x08, 'notify': 0x10,
                 'indicate': 0x20, 'encrypt-read': 0x02, 'encrypt-write': 0x08, 'encrypt-authenticated-read': 0x02,
                 'encrypt-authenticated-write': 0x08, 'secure-read': 0x02, 'secure-write': 0x08}


def report(line: str) -> None:
    print(line, flush=True)


def att_code(error: dbus.exceptions.DBusException, permission_error: int) -> int:
    """src/gatt-database.c dbus_error_to_att_ecode (5.66): an application's error reply as the
    ATT error the phone gets (ImproperlyConfigured is not known to 5.66: Unlikely Error)."""
    name = error.get_dbus_name()
    if name == 'org.bluez.Error.Failed':
        try:
            code = int(error.get_dbus_message(), 0)
        except (TypeError, ValueError):
            return 0x80
        return code if 0x80 <= code <= 0x9F else 0x0E
    return {
        'org.bluez.Error.NotSupported': 0x06,
        'org.bluez.Error.NotAuthorized': 0x08,
        'org.bluez.Error.InvalidValueLength': 0x0D,
        'org.bluez.Error.InvalidOffset': 0x07,
        'org.bluez.Error.InProgress': 0xFE,
        'org.bluez.Error.NotPermitted': permission_error,
    }.get(name, 0x0E)


class Application:
    def __init__(self, owner: str, path: str) -> None:
        self.owner = owner
        self.path = path
        self.services: list[Service] = []
        self.characteristics: dict[str, Characteristic] = {}   # object path -> served characteristic
        self.notify_socket: socket.socket | None = None
        self.notify_count = 0
        self.started = False   # StartNotify called


class Server:
    def __init__(self, daemon: 'Bluetoothd') -> None:
        self.daemon = daemon
        self.applications: dict[tuple[str, str], Application] = {}
        self.advertisements: dict[tuple[str, str], dict] = {}
        self.phones: dict[str, object] = {}   # device path -> connection

    @property
    def bridge(self):
        return self.daemon.bridge

    def install(self, adapter) -> None:
        b = self.bridge
        install(adapter, GATT_MANAGER_IFACE, 'RegisterApplication', 'oa{sv}', '',
                b.method(GATT_MANAGER_IFACE, 'oa{sv}', '', self.register_application))
        install(adapter, GATT_MANAGER_IFACE, 'UnregisterApplication', 'o', '',
                b.method(GATT_MANAGER_IFACE, 'o', '', self.unregister_application))
        install(adapter, ADVERTISING_MANAGER_IFACE, 'RegisterAdvertisement', 'oa{sv}', '',
                b.method(ADVERTISING_MANAGER_IFACE, 'oa{sv}', '', self.register_advertisement))
        install(adapter, ADVERTISING_MANAGER_IFACE, 'UnregisterAdvertisement', 'o', '',
                b.method(ADVERTISING_MANAGER_IFACE, 'o', '', self.unregister_advertisement))

    def client_gone(self, name: str) -> None:
        for key in [key for key in self.applications if key[0] == name]:
            self.bridge.bumble(self.remove_application(self.applications.pop(key)))
        for key in [key for key in self.advertisements if key[0] == name]:
            del self.advertisements[key]
            self.bridge.bumble(self.update_advertising())

    # GATT applications -------------------------------------------------------------------------
    async def register_application(self, obj, path, options, sender=None):
        self.daemon.require_powered()
        key = (sender, str(path))
        if key in self.applications:
            raise BlueZError('AlreadyExists', 'Already Exists')
        try:
            (objects,) = await self.bridge.call(self.daemon.bus, sender, str(path), OBJECT_MANAGER_IFACE, 'GetManagedObjects', timeout=10)
        except dbus.exceptions.DBusException as error:
            raise BlueZError('Failed', f'Failed to read the application: {error.get_dbus_name()}')
        application = Application(sender, str(path))
        services = {str(p): i[SERVICE_IFACE] for p, i in objects.items() if SERVICE_IFACE in i}
        chars = {str(p): i[CHAR_IFACE] for p, i in objects.items() if CHAR_IFACE in i}
        if not services:
            raise BlueZError('InvalidArguments', 'No object received')
        for service_path in sorted(services):
            served = []
            for char_path in sorted(p for p, c in chars.items() if str(c.get('Service')) == service_path):
                served.append(self.make_characteristic(application, char_path, chars[char_path]))
            service = Service(UUID(str(services[service_path]['UUID'])), served, primary=bool(services[service_path].get('Primary', True)))
            application.services.append(service)
        for service in application.services:
            self.daemon.device.add_service(service)
        self.applications[key] = application
        uuids = ','.join(str(services[p]['UUID']).upper() for p in sorted(services))
        report(f'BLUEZ-REGISTER-APPLICATION client={sender} path={path} services={uuids}')

    def make_characteristic(self, application: Application, path: str, props) -> Characteristic:
        flags = [str(f) for f in props.get('Flags', [])]
        properties = 0
        for flag in flags:
            properties |= PROPERTY_BITS.get(flag, 0)
        permissions = 0
        if properties & 0x02:
            permissions |= (Characteristic.Permissions.READ_REQUIRES_ENCRYPTION
                            if any(f.startswith(('encrypt', 'secure')) and f.endswith('read') for f in flags)
                            else Characteristic.Permissions.READABLE)
        if properties & 0x0C:
            permissions |= (Characteristic.Permissions.WRITE_REQUIRES_ENCRYPTION
                            if any(f.startswith(('encrypt', 'secure')) and f.endswith('write') for f in flags)
                            else Characteristic.Permissions.WRITEABLE)
        acquire_notify = 'NotifyAcquired' in props
        server = self

        async def read(connection):
            try:
                (value,) = await server.bridge.call(server.daemon.bus, application.owner, path, CHAR_IFACE, 'ReadValue',
                                                    server.options(connection), signature='a{sv}', timeout=10)
            except dbus.exceptions.DBusException as error:
                raise att.ATT_Error(error_code=att_code(error, 0x02))
            return bytes(value)

        async def write(connection, value):
            value = bytes(value)
            report(f'BLUEZ-SERVER-WRITE length={len(value)} device={server.device_path(connection)}')
            try:
                await server.bridge.call(server.daemon.bus, application.owner, path, CHAR_IFACE, 'WriteValue',
                                         dbus.Array(value, signature='y'), server.options(connection),
                                         signature='aya{sv}', timeout=10)
            except dbus.exceptions.DBusException as error:
                raise att.ATT_Error(error_code=att_code(error, 0x03))

        characteristic = Characteristic(UUID(str(props['UUID'])), properties, permissions, CharacteristicValue(read=read, write=write))
        characteristic.nearby_path = path
        characteristic.nearby_acquire_notify = acquire_notify
        application.characteristics[path] = characteristic
        return characteristic

    def options(self, connection) -> dbus.Dictionary:
        """The options bluetoothd sends with ReadValue / WriteValue / AcquireNotify (append_options)."""
        return dbus.Dictionary({
            'device': dbus.ObjectPath(self.device_path(connection)), 'link': dbus.String('LE'),
            'mtu': dbus.UInt16(connection.att_mtu)}, signature='sv')

    def device_path(self, connection) -> str:
        return f'{self.daemon.adapter_path}/dev_{connection.peer_address.to_string(False).replace(":", "_")}'

    async def unregister_application(self, obj, path, sender=None):
        application = self.applications.pop((sender, str(path)), None)
        if application is None:
            raise BlueZError('DoesNotExist', 'Does Not Exist')
        await self.remove_application(application)

    async def remove_application(self, application: Application) -> None:
        if application.notify_socket is not None:
            self.close_notify(application)
        server = self.daemon.device.gatt_server
        for service in application.services:
            try:
                server.attributes = [a for a in server.attributes if a not in [service, *service.characteristics]
                                     and getattr(a, 'characteristic', None) not in service.characteristics]
            except Exception:
                pass
        report(f'BLUEZ-UNREGISTER-APPLICATION path={application.path}')

    # Subscriptions: src/gatt-database.c ccc_write_cb ---------------------------------------------
    def subscription(self, connection, characteristic, notify_enabled: bool, indicate_enabled: bool) -> None:
        for application in self.applications.values():
            if characteristic in application.characteristics.values():
                asyncio.get_running_loop().create_task(self.ccc_written(application, connection, characteristic, notify_enabled or indicate_enabled))

    async def ccc_written(self, application: Application, connection, characteristic, enabled: bool) -> None:
        path = characteristic.nearby_path
        if not enabled:
            if application.notify_count == 0:
                return
            application.notify_count -= 1
            if application.notify_count:
                return
            if application.notify_socket is not None:
                self.close_notify(application)
                return
            try:
                await self.bridge.call(self.daemon.bus, application.owner, path, CHAR_IFACE, 'StopNotify', timeout=10)
            except dbus.exceptions.DBusException:
                pass
            return
        if application.notify_socket is not None:
            application.notify_count += 1
            return
        if characteristic.nearby_acquire_notify:
            try:
                fd, mtu = await self.bridge.call(self.daemon.bus, application.owner, path, CHAR_IFACE, 'AcquireNotify',
                                                 self.options(connection), signature='a{sv}', timeout=10)
                end = socket.socket(fileno=fd.take())
                end.setblocking(False)
                application.notify_socket = end
                application.notify_count += 1
                report(f'BLUEZ-SERVER-ACQUIRE-NOTIFY mtu={int(mtu)} device={self.device_path(connection)}')
                loop = asyncio.get_running_loop()

                def readable() -> None:
                    try:
                        data = end.recv(512)
                    except BlockingIOError:
                        return
                    except OSError:
                        data = b''
                    if not data:
                        self.close_notify(application)
                        return
                    # BlueZ 5.66 sends it to every subscribed device (send_notification_to_devices).
                    report(f'BLUEZ-SERVER-NOTIFY length={len(data)}')
                    loop.create_task(self.daemon.device.notify_subscribers(characteristic, data))
                loop.add_reader(end.fileno(), readable)
                return
            except dbus.exceptions.DBusException:
                pass
        try:
            await self.bridge.call(self.daemon.bus, application.owner, path, CHAR_IFACE, 'StartNotify', timeout=10)
        except dbus.exceptions.DBusException:
            pass
        application.started = True
        application.notify_count += 1
        report(f'BLUEZ-SERVER-START-NOTIFY device={self.device_path(connection)}')
        self.watch_values(application, characteristic)

    def watch_values(self, application: Application, characteristic) -> None:
        """Value changes of a StartNotify'd characteristic are notifications (property_changed_cb)."""
        if getattr(characteristic, 'nearby_watching', False):
            return
        characteristic.nearby_watching = True
        loop = asyncio.get_running_loop()

        def changed(interface, properties, invalidated, path=None):
            if str(interface) != CHAR_IFACE or 'Value' not in properties:
                return
            value = bytes(properties['Value'])
            report(f'BLUEZ-SERVER-NOTIFY length={len(value)}')
            asyncio.run_coroutine_threadsafe(self.daemon.device.notify_subscribers(characteristic, value), loop)
        self.bridge.glib(lambda: self.daemon.bus.add_signal_receiver(
            changed, signal_name='PropertiesChanged', dbus_interface='org.freedesktop.DBus.Properties',
            bus_name=application.owner, path=characteristic.nearby_path, byte_arrays=True))

    def close_notify(self, application: Application) -> None:
        end, application.notify_socket = application.notify_socket, None
        application.notify_count = 0
        if end is None:
            return
        try:
            asyncio.get_running_loop().remove_reader(end.fileno())
        except Exception:
            pass
        end.close()

    # Advertising (src/advertising.c) -------------------------------------------------------------
    async def register_advertisement(self, obj, path, options, sender=None):
        self.daemon.require_powered()
        key = (sender, str(path))
        if key in self.advertisements:
            raise BlueZError('AlreadyExists', 'Already Exists')
        try:
            (props,) = await self.bridge.call(self.daemon.bus, sender, str(path), 'org.freedesktop.DBus.Properties', 'GetAll',
                                              ADVERTISEMENT_IFACE, signature='s', timeout=10)
        except dbus.exceptions.DBusException as error:
            raise BlueZError('Failed', f'Failed to parse advertisement: {error.get_dbus_name()}')
        kind = str(props.get('Type', ''))
        if kind not in ('broadcast', 'peripheral'):
            raise BlueZError('InvalidArguments', 'Invalid arguments in method call')
        uuids = [str(u).lower() for u in props.get('ServiceUUIDs', [])]
        discoverable = bool(props.get('Discoverable', False))
        # The kernel adds the Flags (LE General Discoverable when discoverable, BR/EDR not supported).
        flags = (0x02 if discoverable else 0) | 0x04
        data = eir_module.build(flags=flags, uuids=uuids)
        name = str(props['LocalName']) if 'LocalName' in props else None
        scan_response = eir_module.build(flags=None, name=name) if name else b''
        if len(data) > 31 or len(scan_response) > 31:
            raise BlueZError('InvalidLength', 'Advertising data too long')
        interval = int(props.get('MinInterval', 100)) if 'MinInterval' in props else None
        self.advertisements[key] = {'data': data, 'scan_response': scan_response, 'interval': interval,
                                    'connectable': kind == 'peripheral'}
        report(f'BLUEZ-REGISTER-ADVERTISEMENT client={sender} uuids={",".join(u.upper() for u in uuids)} name={name} '
               f'adv={data.hex()} scan_response={scan_response.hex()}')
        await self.update_advertising()

    async def unregister_advertisement(self, obj, path, sender=None):
        if self.advertisements.pop((sender, str(path)), None) is None:
            raise BlueZError('DoesNotExist', 'Does Not Exist')
        report(f'BLUEZ-UNREGISTER-ADVERTISEMENT client={sender}')
        await self.update_advertising()

    async def update_advertising(self) -> None:
        device = self.daemon.device
        if device.is_advertising:
            await device.stop_advertising()
        if not self.advertisements:
            await self.bridge.on_glib(lambda: self.daemon.emit_changed(
                self.daemon.adapter_path, ADVERTISING_MANAGER_IFACE, {'ActiveInstances': dbus.Byte(0)}))
            return
        # One instance at a time here (the mock has no multi-advertising rotation).
        advertisement = list(self.advertisements.values())[-1]
        interval = advertisement['interval']
        await device.start_advertising(
            own_address_type=hci.OwnAddressType.RANDOM, auto_restart=False,
            advertising_data=advertisement['data'], scan_response_data=advertisement['scan_response'],
            advertising_interval_min=interval, advertising_interval_max=interval)
        count = len(self.advertisements)
        await self.bridge.on_glib(lambda: self.daemon.emit_changed(
            self.daemon.adapter_path, ADVERTISING_MANAGER_IFACE, {'ActiveInstances': dbus.Byte(count)}))

    # Centrals connecting to this adapter ---------------------------------------------------------
    def connection(self, connection) -> None:
        if connection.role != hci.Role.PERIPHERAL:
            return
        path = self.device_path(connection)
        address = connection.peer_address.to_string(False)
        self.phones[path] = connection
        report(f'BLUEZ-PHONE-CONNECTED address={address}')
        gatt = self.daemon.device.gatt_server
        if not getattr(self, 'subscribed_events', False):
            gatt.on('characteristic_subscription', self.subscription)
            self.subscribed_events = True
        connection.on('disconnection', lambda reason: self.phone_left(path, connection, reason))
        connection.on('pairing', lambda keys: self.bridge.glib(lambda: self.daemon.emit_changed(
            path, DEVICE_IFACE, {'Paired': dbus.Boolean(True), 'Bonded': dbus.Boolean(True)})))
        self.bridge.glib(self.phone_object, path, address, True)

    def phone_object(self, path: str, address: str, connected: bool) -> None:
        if path in mockobject.objects:
            self.daemon.emit_changed(path, DEVICE_IFACE, {'Connected': dbus.Boolean(connected)})
            return
        self.daemon.add_object(path, {DEVICE_IFACE: {
            'Address': dbus.String(address), 'AddressType': dbus.String('random'), 'Alias': dbus.String(address.replace(':', '-')),
            'Paired': dbus.Boolean(False), 'Bonded': dbus.Boolean(False), 'Trusted': dbus.Boolean(False),
            'Blocked': dbus.Boolean(False), 'LegacyPairing': dbus.Boolean(False), 'Connected': dbus.Boolean(connected),
            'UUIDs': dbus.Array([], signature='s'), 'Adapter': dbus.ObjectPath(self.daemon.adapter_path),
            'ServicesResolved': dbus.Boolean(False)}})
        obj = mockobject.objects[path]
        install(obj, DEVICE_IFACE, 'Disconnect', '', '', self.bridge.method(DEVICE_IFACE, '', '', self.disconnect_phone))

    async def disconnect_phone(self, obj, sender=None):
        connection = self.phones.get(obj.path)
        if connection is None:
            raise BlueZError('NotConnected', 'Not Connected')
        await connection.disconnect()

    def phone_left(self, path: str, connection, reason: int) -> None:
        if self.phones.get(path) is connection:
            del self.phones[path]
        report(f'BLUEZ-PHONE-DISCONNECTED device={path} reason=0x{reason:02x}')
        for application in self.applications.values():
            if application.notify_socket is not None and application.notify_count:
                application.notify_count -= 1
                if application.notify_count == 0:
                    self.close_notify(application)
        self.bridge.glib(self.phone_object, path, connection.peer_address.to_string(False), False)
