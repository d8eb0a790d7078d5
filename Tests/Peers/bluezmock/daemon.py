"""The mock bluetoothd: dbusmock's bluez5 template, extended, on Bumble's host (see __init__.py)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys

from . import debian

debian.add()

import dbus  # noqa: E402
import dbus.mainloop.glib  # noqa: E402
import dbus.service  # noqa: E402
import dbusmock  # noqa: E402
from dbusmock import mockobject  # noqa: E402
from gi.repository import GLib  # noqa: E402

from bumble import hci  # noqa: E402
from bumble.device import Device, DeviceConfiguration  # noqa: E402
from bumble.host import Host  # noqa: E402
from bumble.keys import MemoryKeyStore  # noqa: E402
from bumble.transport import open_transport  # noqa: E402

from . import eir as eir_module  # noqa: E402
from .bridge import BlueZError, Bridge, install  # noqa: E402
from .central import Central  # noqa: E402
from .server import Server  # noqa: E402

ADAPTER_IFACE = 'org.bluez.Adapter1'
DEVICE_IFACE = 'org.bluez.Device1'
AGENT_MANAGER_IFACE = 'org.bluez.AgentManager1'
GATT_MANAGER_IFACE = 'org.bluez.GattManager1'
ADVERTISING_MANAGER_IFACE = 'org.bluez.LEAdvertisingManager1'
OBJECT_MANAGER_IFACE = 'org.freedesktop.DBus.ObjectManager'
PROPERTIES_IFACE = dbus.PROPERTIES_IFACE
DISTANCE_VAL_INVALID = 0x7FFF
CAPABILITIES = ('DisplayOnly', 'DisplayYesNo', 'KeyboardOnly', 'NoInputNoOutput', 'KeyboardDisplay')


def report(line: str) -> None:
    print(line, flush=True)


def version_tuple(text: str) -> tuple[int, int]:
    major, _, minor = text.partition('.')
    return int(major), int(minor)


class Bluetoothd:
    """The adapter, its discovery, agents; devices and GATT in ``central``; the peripheral role
    in ``server``."""

    def __init__(self, options, bus: dbus.Bus, main: mockobject.DBusMockObject, bridge: Bridge) -> None:
        self.options = options
        self.bus = bus
        self.main = main
        self.bridge = bridge
        self.version = version_tuple(options.version)
        self.adapter_name = options.adapter
        self.adapter_path = f'/org/bluez/{options.adapter}'
        self.adapter = None
        self.device: Device | None = None
        # Discovery: one session per client (bus name), filters per client.
        self.discovery_sessions: set[str] = set()
        self.filters: dict[str, dict] = {}
        self.scanning = False
        # Agents: per client (bus name) its path and capability; the default one.
        self.agents: dict[str, tuple[str, str]] = {}
        self.default_agent: str | None = None
        self.central = Central(self)
        self.server = Server(self)

    # Properties and signals --------------------------------------------------------------------
    def emit_changed(self, path: str, interface: str, changed: dict, invalidated: list[str] | None = None) -> None:
        obj = mockobject.objects.get(path)
        if obj is None:
            return
        for key, value in changed.items():
            obj.props.setdefault(interface, {})[key] = value
        for key in invalidated or []:
            obj.props.get(interface, {}).pop(key, None)
        obj.EmitSignal(PROPERTIES_IFACE, 'PropertiesChanged', 'sa{sv}as',
                       [interface, dbus.Dictionary(changed, signature='sv'), dbus.Array(invalidated or [], signature='s')])

    def interfaces_added(self, path: str, interfaces: dict) -> None:
        self.main.EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesAdded', 'oa{sa{sv}}',
                             [dbus.ObjectPath(path), dbus.Dictionary(interfaces, signature='sa{sv}')])

    def interfaces_removed(self, path: str, interfaces: list[str]) -> None:
        self.main.EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesRemoved', 'oas',
                             [dbus.ObjectPath(path), dbus.Array(interfaces, signature='s')])

    def add_object(self, path: str, interfaces: dict) -> mockobject.DBusMockObject:
        """Adds an object with interfaces and properties (announced with InterfacesAdded)."""
        first = next(iter(interfaces))
        self.main.AddObject(path, first, dbus.Dictionary(interfaces[first], signature='sv'), [])
        obj = mockobject.objects[path]
        for interface, properties in list(interfaces.items())[1:]:
            obj.props[interface] = dbus.Dictionary(properties, signature='sv')
        self.interfaces_added(path, {i: obj.props[i] for i in interfaces})
        return obj

    def remove_object(self, path: str) -> None:
        obj = mockobject.objects.get(path)
        if obj is None:
            return
        interfaces = list(obj.props.keys())
        self.main.RemoveObject(path)
        self.interfaces_removed(path, interfaces)

    # The adapter -------------------------------------------------------------------------------
    def create_adapter(self, address: str) -> None:
        major, minor = self.version
        props = {
            'Address': dbus.String(address),
            'AddressType': dbus.String('random'),
            'Name': dbus.String('nearby-test'),
            'Alias': dbus.String('nearby-test'),
            'Class': dbus.UInt32(0),
            'Powered': dbus.Boolean(not self.options.powered_off),
            'Discoverable': dbus.Boolean(False),
            'DiscoverableTimeout': dbus.UInt32(180),
            'Pairable': dbus.Boolean(True),
            'PairableTimeout': dbus.UInt32(0),
            'Discovering': dbus.Boolean(False),
            'UUIDs': dbus.Array(['00001800-0000-1000-8000-00805f9b34fb', '00001801-0000-1000-8000-00805f9b34fb'], signature='s'),
            # BlueZ's default Device ID: Linux Foundation, BlueZ, version major.minor (src/main.c).
            'Modalias': dbus.String(f'usb:v1D6Bp0246d{(major << 8) | minor:04X}'),
            'Roles': dbus.Array(['central', 'peripheral'], signature='s'),
        }
        interfaces = {ADAPTER_IFACE: props}
        if self.version >= (5, 43):
            interfaces[GATT_MANAGER_IFACE] = {}
            interfaces[ADVERTISING_MANAGER_IFACE] = {
                'ActiveInstances': dbus.Byte(0), 'SupportedInstances': dbus.Byte(5),
                'SupportedIncludes': dbus.Array(['tx-power', 'appearance', 'local-name'], signature='s'),
            }
        self.adapter = self.add_object(self.adapter_path, interfaces)
        b = self.bridge
        install(self.adapter, ADAPTER_IFACE, 'SetDiscoveryFilter', 'a{sv}', '',
                b.method(ADAPTER_IFACE, 'a{sv}', '', self.set_discovery_filter))
        install(self.adapter, ADAPTER_IFACE, 'StartDiscovery', '', '', b.method(ADAPTER_IFACE, '', '', self.start_discovery))
        install(self.adapter, ADAPTER_IFACE, 'StopDiscovery', '', '', b.method(ADAPTER_IFACE, '', '', self.stop_discovery))
        install(self.adapter, ADAPTER_IFACE, 'RemoveDevice', 'o', '', b.method(ADAPTER_IFACE, 'o', '', self.central.remove_device))
        install(self.adapter, ADAPTER_IFACE, 'GetDiscoveryFilters', '', 'as',
                b.method(ADAPTER_IFACE, '', 'as', self.get_discovery_filters))
        if self.version >= (5, 43):
            self.server.install(self.adapter)

    @property
    def powered(self) -> bool:
        return bool(self.adapter.props[ADAPTER_IFACE]['Powered'])

    def require_powered(self) -> None:
        if not self.powered:
            raise BlueZError('NotReady', 'Resource Not Ready')

    # Discovery (doc/org.bluez.Adapter.rst, src/adapter.c) --------------------------------------
    async def get_discovery_filters(self, obj, sender=None):
        return dbus.Array(['UUIDs', 'RSSI', 'Pathloss', 'Transport', 'DuplicateData', 'Discoverable', 'Pattern'], signature='s')

    async def set_discovery_filter(self, obj, properties, sender=None):
        self.require_powered()
        known = {'UUIDs', 'RSSI', 'Pathloss', 'Transport', 'DuplicateData', 'Discoverable', 'Pattern'}
        if any(key not in known for key in properties):
            raise BlueZError('InvalidArguments', 'Invalid arguments in method call')
        if 'RSSI' in properties and 'Pathloss' in properties:
            raise BlueZError('InvalidArguments', 'Invalid arguments in method call')
        transport = str(properties.get('Transport', 'auto'))
        if transport not in ('auto', 'le', 'bredr'):
            raise BlueZError('InvalidArguments', 'Invalid arguments in method call')
        if not properties:
            self.filters.pop(sender, None)
            return
        self.filters[sender] = {
            'uuids': [str(u).lower() for u in properties.get('UUIDs', [])],
            'rssi': int(properties['RSSI']) if 'RSSI' in properties else DISTANCE_VAL_INVALID,
            'pathloss': int(properties['Pathloss']) if 'Pathloss' in properties else DISTANCE_VAL_INVALID,
            'duplicate': bool(properties.get('DuplicateData', False)),
        }
        report(f'BLUEZ-FILTER client={sender} uuids={",".join(self.filters[sender]["uuids"]) or "-"} '
               f'duplicate={int(self.filters[sender]["duplicate"])}')

    async def start_discovery(self, obj, sender=None):
        self.require_powered()
        if sender in self.discovery_sessions:
            raise BlueZError('InProgress', 'Operation already in progress')
        self.discovery_sessions.add(sender)
        await self.update_scanning()
        report(f'BLUEZ-DISCOVERY state=on client={sender} sessions={len(self.discovery_sessions)}')

    async def stop_discovery(self, obj, sender=None):
        self.require_powered()
        if sender not in self.discovery_sessions:
            raise BlueZError('Failed', 'No discovery started')
        self.discovery_sessions.discard(sender)
        await self.update_scanning()
        report(f'BLUEZ-DISCOVERY state=off client={sender} sessions={len(self.discovery_sessions)}')

    async def update_scanning(self) -> None:
        want = bool(self.discovery_sessions)
        if want == self.scanning:
            return
        self.scanning = want
        if want:
            await self.device.start_scanning(active=True, filter_duplicates=False)
        else:
            await self.device.stop_scanning()
            self.central.discovery_ended()
        await self.bridge.on_glib(lambda: self.emit_changed(self.adapter_path, ADAPTER_IFACE, {'Discovering': dbus.Boolean(want)}))

    @property
    def filtered_discovery(self) -> bool:
        return any(client in self.filters for client in self.discovery_sessions)

    def filter_match(self, eir: eir_module.EIR, rssi: int) -> bool:
        """src/adapter.c is_filter_match (5.66), quirks included: with RSSI set and Pathloss not,
        the last clause (`pathloss == DISTANCE_VAL_INVALID`) makes every UUID match pass."""
        got_match = False
        for client in self.discovery_sessions:
            item = self.filters.get(client)
            if item is None:
                got_match = True
                continue
            if not item['uuids']:
                got_match = True
            else:
                got_match = any(uuid in eir.services for uuid in item['uuids'])
            if got_match:
                if (item['rssi'] == DISTANCE_VAL_INVALID or item['rssi'] <= rssi or item['pathloss'] == DISTANCE_VAL_INVALID
                        or (eir.tx_power != 127 and eir.tx_power - rssi <= item['pathloss'])):
                    return True
                got_match = False
        return got_match

    @property
    def duplicate_data(self) -> bool:
        return any(self.filters.get(client, {}).get('duplicate') for client in self.discovery_sessions)

    # Agents (doc/org.bluez.AgentManager.rst) ---------------------------------------------------
    def install_agent_manager(self) -> None:
        manager = mockobject.objects['/org/bluez']
        b = self.bridge
        install(manager, AGENT_MANAGER_IFACE, 'RegisterAgent', 'os', '', b.method(AGENT_MANAGER_IFACE, 'os', '', self.register_agent))
        install(manager, AGENT_MANAGER_IFACE, 'UnregisterAgent', 'o', '', b.method(AGENT_MANAGER_IFACE, 'o', '', self.unregister_agent))
        install(manager, AGENT_MANAGER_IFACE, 'RequestDefaultAgent', 'o', '',
                b.method(AGENT_MANAGER_IFACE, 'o', '', self.request_default_agent))

    async def register_agent(self, obj, path, capability, sender=None):
        capability = str(capability) or 'KeyboardDisplay'
        if capability not in CAPABILITIES:
            raise BlueZError('InvalidArguments', 'Invalid arguments in method call')
        if sender in self.agents:
            raise BlueZError('AlreadyExists', 'Already Exists')
        self.agents[sender] = (str(path), capability)
        report(f'BLUEZ-AGENT registered client={sender} path={path} capability={capability}')

    async def unregister_agent(self, obj, path, sender=None):
        if self.agents.get(sender, ('',))[0] != str(path):
            raise BlueZError('DoesNotExist', 'Does Not Exist')
        del self.agents[sender]
        if self.default_agent == sender:
            self.default_agent = None

    async def request_default_agent(self, obj, path, sender=None):
        if self.agents.get(sender, ('',))[0] != str(path):
            raise BlueZError('DoesNotExist', 'Does Not Exist')
        self.default_agent = sender

    def agent_for(self, sender: str | None) -> tuple[str, str, str] | None:
        """The agent for a client's action: its own, else the default one (bus name, path, capability)."""
        for name in (sender, self.default_agent):
            if name and name in self.agents:
                path, capability = self.agents[name]
                return name, path, capability
        return None

    # Clients leaving the bus -------------------------------------------------------------------
    def client_gone(self, name: str) -> None:
        self.filters.pop(name, None)
        self.agents.pop(name, None)
        if self.default_agent == name:
            self.default_agent = None
        self.server.client_gone(name)
        self.central.client_gone(name)
        if name in self.discovery_sessions:
            self.discovery_sessions.discard(name)
            self.bridge.bumble(self.update_scanning())
            report(f'BLUEZ-DISCOVERY state=off client={name} sessions={len(self.discovery_sessions)} (left the bus)')

    # Bumble --------------------------------------------------------------------------------------
    async def start_radio(self) -> str:
        transport = await open_transport(self.options.hci)
        host = Host(transport.source, transport.sink)
        config = DeviceConfiguration(name='nearby-test', address=hci.Address(self.options.address))
        self.device = Device(config=config, host=host)
        self.device.keystore = MemoryKeyStore()
        self.device.on('advertisement', self.central.advertisement)
        self.device.on('connection', self.server.connection)
        await self.device.power_on()
        return str(self.device.random_address.to_string(False))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog='bluez_mock.py', description='a bluetoothd for tests: BlueZ\'s D-Bus API on Bumble')
    parser.add_argument('--hci', required=True, help='Bumble transport of the controller, e.g. tcp-client:127.0.0.1:5000')
    parser.add_argument('--adapter', default='hci0', help='the adapter\'s name')
    parser.add_argument('--address', default='CB:1E:00:00:00:01', help='the adapter\'s (random static) address')
    parser.add_argument('--version', default='5.66', help='the BlueZ version to behave like: below 5.48 no AcquireWrite / '
                        'AcquireNotify, below 5.62 no MTU property, below 5.43 no GattManager1 / LEAdvertisingManager1')
    parser.add_argument('--powered-off', action='store_true', help='the adapter is powered off')
    parser.add_argument('--no-adapter', action='store_true', help='bluetoothd without any adapter')
    parser.add_argument('--held-elsewhere', action='store_true',
                        help='another client already acquired every notifying characteristic (NotifyAcquired true)')
    parser.add_argument('--temporary-timeout', type=float, default=30.0,
                        help='seconds before a disconnected, unpaired device is removed while nobody discovers (main.conf TemporaryTimeout)')
    parser.add_argument('--disconnect-timer', type=float, default=2.0,
                        help='seconds between Device1.Disconnect and the link\'s end (src/device.c DISCONNECT_TIMER): '
                        'what a client wrote before the call is sent first')
    parser.add_argument('--log-level', default='WARNING')
    options = parser.parse_args(argv)
    logging.basicConfig(level=options.log_level.upper(), stream=sys.stderr,
                        format='%(asctime)s %(name)s %(levelname)s %(message)s')
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})

    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbusmock.testcase.DBusTestCase.get_dbus(system_bus=True)
    bus_name = dbus.service.BusName('org.bluez', bus, allow_replacement=True, replace_existing=True, do_not_queue=True)
    main_object = mockobject.DBusMockObject(bus_name, '/', OBJECT_MANAGER_IFACE, {}, '/dev/null', True)
    main_object.AddTemplate('bluez5', None)
    mockobject.objects['/'] = main_object

    bridge = Bridge()
    bridge.start()
    daemon = Bluetoothd(options, bus, main_object, bridge)
    daemon.install_agent_manager()
    bus.add_signal_receiver(lambda name, old, new: daemon.client_gone(str(name)) if name.startswith(':') and not new else None,
                            signal_name='NameOwnerChanged', dbus_interface='org.freedesktop.DBus', path='/org/freedesktop/DBus')
    address = bridge.bumble(daemon.start_radio()).result(timeout=60)
    if not options.no_adapter:
        daemon.create_adapter(address)
    report(f'BLUEZ-READY adapter={"-" if options.no_adapter else options.adapter} address={address} version={options.version}')

    loop = GLib.MainLoop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, sig, lambda *_: (loop.quit(), False)[1])
    loop.run()
    return 0
