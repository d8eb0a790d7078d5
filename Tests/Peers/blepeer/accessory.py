"""C1 + a Bumble Device: the accessory that advertises and serves the GATT services."""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Callable

from bumble import hci
from bumble.controller import Controller
from bumble.device import Device, DeviceConfiguration
from bumble.gatt import (
    GATT_CHARACTERISTIC_USER_DESCRIPTION_DESCRIPTOR,
    Characteristic,
    CharacteristicValue,
    Descriptor,
    Service,
)
from bumble.host import Host

from . import security as smp_security
from . import services
from .behaviour import Behaviour
from .controller import FailingEncryption

logger = logging.getLogger(__name__)

READ = Characteristic.Properties.READ
WRITE = Characteristic.Properties.WRITE
WRITE_NO_RESPONSE = Characteristic.Properties.WRITE_WITHOUT_RESPONSE
NOTIFY = Characteristic.Properties.NOTIFY
INDICATE = Characteristic.Properties.INDICATE
READABLE = Characteristic.Permissions.READABLE
WRITEABLE = Characteristic.Permissions.WRITEABLE
READ_NEEDS_AUTHENTICATION = Characteristic.Permissions.READ_REQUIRES_AUTHENTICATION


class _Channel:
    """The accessory side of one data channel on one connection (see behaviour.Channel)."""

    def __init__(self, accessory: Accessory, definition: services.DataChannelDefinition,
                 connection) -> None:
        self.accessory = accessory
        self.definition = definition
        self.connection = connection
        self.name = definition.name
        self.connection_handle = connection.handle

    @property
    def maximum_message_length(self) -> int:
        return self.connection.att_mtu - 3

    async def send(self, message: bytes) -> None:
        characteristic = self.accessory.tx_characteristics[self.name]
        await self.accessory.device.notify_subscriber(self.connection, characteristic, message)
        self.accessory.report(f'NOTIFIED channel={self.name} length={len(message)}')


class AccessoryController(FailingEncryption, Controller):
    """The accessory's controller: Bumble's, able to fail an encryption (``--fail-encryption``)."""


class Accessory:
    """The accessory: Bumble Device on controller C1, on the same LocalLink as C0."""

    def __init__(
        self,
        link,
        *,
        address: str,
        name: str,
        offered: list[str],
        advertising_data: bytes,
        scan_response_data: bytes,
        apple_ni_configuration: bytes,
        behaviour: Behaviour,
        link_loss: Callable[[int, hci.Address], int],
        security: smp_security.SecurityOptions | None = None,
        rpa_irk: bytes | None = None,
        claim_identity: str | None = None,
        report=print,
    ) -> None:
        self.address = hci.Address(address)
        # Every line names the accessory (the peer may run several).
        self.report = lambda line: report(f'{line} accessory={address}')
        self.behaviour = behaviour
        self.link_loss = link_loss
        self.advertising_data = advertising_data
        self.scan_response_data = scan_response_data
        self.controller = AccessoryController('C1', link=link)
        self.controller.report = self.report
        self.controller.fail_encryption = security.fail_encryption if security else None
        host = Host()
        host.controller = self.controller
        config = DeviceConfiguration(name=name, address=hci.Address(address))
        config.advertising_data = advertising_data
        config.scan_response_data = scan_response_data
        self.device = Device(config=config, host=host)
        # Privacy: advertise from resolvable private addresses (a new one after every
        # connection) and distribute this IRK with the identity address when pairing.
        self.rpa_irk = rpa_irk
        if rpa_irk is not None:
            self.device.irk = rpa_irk
        # Pairing with Bumble's own Security Manager, as the test configures it.
        self.security = security or smp_security.SecurityOptions()
        # An impostor: distributes another device's identity address (with its own IRK).
        self.claim_identity = claim_identity
        self.device.pairing_config_factory = lambda connection: smp_security.pairing_config(
            self.security, self.report, claims_identity=claim_identity is not None)
        self.flooded: set[int] = set()
        self.att_silent = False
        server = self.device.gatt_server
        answer = server.on_gatt_pdu

        def maybe_answer(connection, att_pdu) -> None:
            if self.att_silent:
                self.report(f'ATT-IGNORED op=0x{att_pdu.op_code:02x}')
                return
            answer(connection, att_pdu)

        server.on_gatt_pdu = maybe_answer
        self.tx_characteristics: dict[str, Characteristic] = {}
        self.indicate_characteristic: Characteristic | None = None
        self.device.on('connection', self._on_connection)
        for name_ in offered:
            self.device.add_service(self._make_service(name_, apple_ni_configuration))
        self.device.gatt_server.on('characteristic_subscription', self._on_subscription)

    # ------------------------------------------------------------------------------------------
    def _make_service(self, name: str, apple_ni_configuration: bytes) -> Service:
        if name in services.DATA_CHANNELS:
            definition = services.DATA_CHANNELS[name]
            rx = Characteristic(
                definition.rx, WRITE | WRITE_NO_RESPONSE, WRITEABLE,
                CharacteristicValue(write=lambda connection, value, d=definition:
                                    self._on_rx(d, connection, value)),
            )
            tx = Characteristic(definition.tx, NOTIFY, READABLE, b'')
            self.tx_characteristics[name] = tx
            characteristics = [rx, tx]
            if name == 'qorvo':
                # Read to trigger pairing: needs an authenticated link.
                characteristics.insert(0, Characteristic(
                    services.QORVO_SEC, READ, READ_NEEDS_AUTHENTICATION, b'Qorvo'))
            return Service(definition.service, characteristics)
        if name == 'apple-ni':
            return Service(services.APPLE_NI_SERVICE, [
                Characteristic(services.APPLE_NI_SINGLE_CONFIG, READ, READABLE, apple_ni_configuration),
                Characteristic(services.APPLE_NI_MULTIPLE_CONFIG, READ, READABLE, b''),
            ])
        if name == 'test':
            self.indicate_characteristic = Characteristic(
                services.TEST_INDICATE, NOTIFY | INDICATE, READABLE, b'')
            return Service(services.TEST_SERVICE, [
                Characteristic(
                    services.TEST_CONTROL, WRITE | WRITE_NO_RESPONSE, WRITEABLE,
                    CharacteristicValue(write=self._on_control)),
                Characteristic(
                    services.TEST_READABLE, READ, READABLE, services.TEST_READABLE_VALUE,
                    descriptors=[Descriptor(
                        GATT_CHARACTERISTIC_USER_DESCRIPTION_DESCRIPTOR, READABLE,
                        services.TEST_READABLE_DESCRIPTION.encode())]),
                self.indicate_characteristic,
            ])
        raise ValueError(f'unknown service {name!r}: use {", ".join(services.SERVICE_NAMES)}')

    # ------------------------------------------------------------------------------------------
    async def start(self) -> None:
        await self.device.power_on()
        self._report_pairing_failed_received()
        if not self.security.bonding:
            # A real No Bonding accessory keeps no keys (Bumble keeps them without a keystore
            # only for the connection's session).
            self.device.keystore = None
        if self.security.debug_key:
            self.device.smp_manager.debug_mode = True
        if self.claim_identity is not None:
            self.device.static_address = hci.Address(self.claim_identity)
            # An impostor cannot know the real accessory's IRK (Bumble's default IRK is all
            # zeros for every device, so it must make its own).
            if self.rpa_irk is None:
                self.device.irk = secrets.token_bytes(16)
        await self._advertise()

    def _report_pairing_failed_received(self) -> None:
        """Reports every Pairing Failed the central sends (``PAIRING-FAILED-RECEIVED reason=0xNN``):
        Bumble reports no failure for one that answers its Security Request."""
        manager = self.device.smp_manager
        handle = manager.on_smp_pdu

        def on_smp_pdu(connection, pdu: bytes) -> None:
            if len(pdu) >= 2 and pdu[0] == 0x05:
                self.report(f'PAIRING-FAILED-RECEIVED reason=0x{pdu[1]:02x}')
                connection.emit('pairing_failed_received', pdu[1])
            handle(connection, pdu)

        manager.on_smp_pdu = on_smp_pdu

    async def _advertise(self) -> None:
        if self.rpa_irk is not None:
            rpa = hci.Address.generate_private_address(self.rpa_irk)
            # The controller's own random address too: the virtual link tags ACL data with it.
            await self.device.send_sync_command(hci.HCI_LE_Set_Random_Address_Command(random_address=rpa))
            self.device.random_address = rpa
            self.report(f'RPA address={rpa}')
        await self.device.start_advertising(
            auto_restart=self.rpa_irk is None,
            advertising_data=self.advertising_data,
            scan_response_data=self.scan_response_data,
            advertising_interval_min=20,
            advertising_interval_max=20,
        )

    def _on_connection(self, connection) -> None:
        self.report(f'CONNECTED handle=0x{connection.handle:04x} peer={connection.peer_address}')
        self.att_silent = False
        smp_security.watch(connection, self.report)
        if self.security.security_request and connection.role == hci.Role.PERIPHERAL:
            asyncio.get_running_loop().call_later(0.05, self.device.request_pairing, connection)
            self.report('SECURITY-REQUEST-SENT')
        connection.on('disconnection', lambda reason, c=connection: self._on_disconnection(c, reason))
        asyncio.get_running_loop().create_task(self.behaviour.on_connected(connection.handle))

    def _on_disconnection(self, connection, reason: int) -> None:
        self.report(f'DISCONNECTED handle=0x{connection.handle:04x} reason=0x{reason:02x}')
        if self.rpa_irk is not None:
            # Back to advertising under a new private address.
            asyncio.get_running_loop().create_task(self._readvertise())
        asyncio.get_running_loop().create_task(
            self.behaviour.on_disconnected(connection.handle, reason))

    def _on_subscription(self, bearer, characteristic, notify: bool, indicate: bool) -> None:
        self.report(
            f'SUBSCRIBED uuid={str(characteristic.uuid).upper()} notify={int(notify)} indicate={int(indicate)}')
        for name, tx in self.tx_characteristics.items():
            if tx is characteristic and notify:
                connection = getattr(bearer, 'connection', bearer)
                channel = _Channel(self, services.DATA_CHANNELS[name], connection)
                asyncio.get_running_loop().create_task(self.behaviour.on_subscribed(channel))
                if self.security.security_request_flood and connection.handle not in self.flooded:
                    self.flooded.add(connection.handle)
                    asyncio.get_running_loop().create_task(smp_security.flood_security_requests(
                        self.device, connection, self.security.security_request_flood, self.report))

    def _on_rx(self, definition, connection, value: bytes) -> None:
        self.report(f'RECEIVED channel={definition.name} length={len(value)} data={bytes(value).hex()}')
        channel = _Channel(self, definition, connection)
        asyncio.get_running_loop().create_task(self.behaviour.on_message(channel, bytes(value)))

    # ------------------------------------------------------------------------------------------
    def _on_control(self, connection, value: bytes) -> None:
        if not value:
            return
        command, payload = value[0], bytes(value[1:])
        loop = asyncio.get_running_loop()
        if command == services.CONTROL_INDICATE:
            loop.create_task(self._indicate(connection, payload))
        elif command == services.CONTROL_NOTIFY:
            loop.create_task(self.device.notify_subscriber(
                connection, self.indicate_characteristic, payload))
        elif command == services.CONTROL_LINK_LOSS:
            # After the write response has gone out.
            loop.call_later(0.1, self._lose_link)
        elif command == services.CONTROL_VANISH:
            back_after = payload[0] if payload else 0
            loop.call_later(0.1, lambda: loop.create_task(self._vanish(connection, back_after)))
        elif command == services.CONTROL_DISCONNECT:
            loop.call_later(0.1, lambda: loop.create_task(
                connection.disconnect(hci.HCI_ErrorCode.REMOTE_USER_TERMINATED_CONNECTION_ERROR)))
        elif command == services.CONTROL_L2CAP_PARAMETER_UPDATE:
            loop.create_task(self._request_parameter_update(connection))
        elif command == services.CONTROL_FORGET_BONDS:
            loop.create_task(self._forget_bonds())
        elif command == services.CONTROL_ATT_SILENCE:
            # After this write's response: every later ATT request goes unanswered.
            loop.call_later(0.05, self._silence)
        elif command == services.CONTROL_BEHAVIOUR:
            loop.create_task(self.behaviour.on_control(payload))
        else:
            self.report(f'UNKNOWN-CONTROL command=0x{command:02x}')

    async def _readvertise(self) -> None:
        if self.device.is_advertising:
            await self.device.stop_advertising()
        await self._advertise()

    async def _forget_bonds(self) -> None:
        """The accessory is reset: it forgets every bond (the host's next encryption attempt
        gets PIN or Key Missing)."""
        keystore = self.device.keystore
        names = [name for name, _ in await keystore.get_all()] if keystore else []
        for name in names:
            await keystore.delete(name)
        self.report(f'BONDS-FORGOTTEN count={len(names)}')

    def _silence(self) -> None:
        self.att_silent = True
        self.report('ATT-SILENT')

    async def connect_to(self, address: str, pair: bool, encrypt: bool, reencrypt: bool = False) -> None:
        """Acts as a central: connects to `address` (the host under test advertising), retrying
        until it answers, then pairs or encrypts if asked; with `reencrypt`, after pairing it
        disconnects, connects again and encrypts with the new bond."""
        connection = await self._connect_as_central(address)
        try:
            if encrypt:
                await connection.encrypt()
            elif pair:
                await connection.pair()
        except Exception as error:
            self.report(f'CENTRAL-SECURITY-FAILED error={error}')
            return
        if not (pair and reencrypt):
            return
        await asyncio.sleep(0.3)
        await connection.disconnect()
        self.report('CENTRAL-DISCONNECTED')
        again = await self._connect_as_central(address)
        try:
            await again.encrypt()
        except Exception as error:
            self.report(f'CENTRAL-SECURITY-FAILED error={error}')

    async def _connect_as_central(self, address: str):
        target = hci.Address(address)
        while True:
            try:
                connection = await self.device.connect(
                    target, own_address_type=hci.OwnAddressType.RANDOM, timeout=2.0)
                break
            except Exception as error:  # not advertising yet
                self.report(f'CONNECT-RETRY error={type(error).__name__}')
                await asyncio.sleep(0.3)
        self.report(f'CENTRAL-CONNECTED peer={connection.peer_address}')
        return connection

    async def _vanish(self, connection, back_after: int) -> None:
        """Out of range: the link is lost and the accessory is not heard advertising until
        `back_after` seconds have passed (0: never)."""
        # Bumble restarts advertising when the link ends (auto_restart): only our report stays.
        connection.remove_all_listeners('disconnection')
        connection.on('disconnection', lambda reason, c=connection: self._on_disconnection(c, reason))
        await self.device.stop_advertising()
        self._lose_link()
        self.report(f'VANISHED back_after={back_after}')
        if back_after:
            await asyncio.sleep(back_after)
            await self._advertise()
            self.report('ADVERTISING-AGAIN')

    def _lose_link(self) -> None:
        dropped = self.link_loss(hci.HCI_ErrorCode.CONNECTION_TIMEOUT_ERROR, self.address)
        self.report(f'LINK-LOSS links={dropped}')

    async def _indicate(self, connection, payload: bytes) -> None:
        await self.device.indicate_subscriber(connection, self.indicate_characteristic, payload)
        self.report(f'INDICATION-CONFIRMED length={len(payload)}')

    async def _request_parameter_update(self, connection) -> None:
        try:
            await connection.update_parameters(30, 50, 2, 4000, use_l2cap=True)
            self.report('L2CAP-PARAMETER-UPDATE result=accepted')
        except Exception as error:  # the central rejected it or did not answer
            self.report(f'L2CAP-PARAMETER-UPDATE result=failed error={error}')
