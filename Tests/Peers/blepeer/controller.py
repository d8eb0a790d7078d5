"""C0: the virtual controller our host drives, with fixes and a strict "hardware-like" mode.

Bumble's virtual controller is more lenient than real controllers (see
specs/ble-host.md §5, "Controller quirks handled"). A host that only meets the stock behaviour can
pass its tests and still fail on hardware, so :class:`TestController` can be made strict:

==========================================  ==================================================
stock (lenient)                             strict (``strict=True``)
==========================================  ==================================================
ignores Set Event Mask / LE Set Event Mask  events filtered by both masks (defaults after Reset)
extended reports even after legacy scans    legacy scan commands -> LE Advertising Report
                                            (0x02); extended -> 0x0D with legacy event types
                                            0x13 / 0x1B
"scan response" repeats advertising data    scan response carries the advertiser's scan
                                            response data, only for active scans
duplicates never filtered                   Filter_Duplicates honoured
LE Connection Complete only                 Enhanced Connection Complete when unmasked
ACL to the host never fragmented            fragmented to the LE buffer size (PB 0x02, 0x01)
NOCP sent at once, unlimited buffers        3 LE buffers, NOCP a little later, overflow ->
                                            Data Buffer Overflow event (printed)
some commands never answered                unknown commands -> 0x01 Unknown HCI Command
HCI Reset clears little                     Reset drops links, random address, scan, pending
                                            connection, advertising, masks, command set
own address random without an address       0x12 Invalid HCI Command Parameters
local Disconnect reports the sent reason    local side reports 0x16
legacy and extended commands can be mixed   mixing -> 0x0C Command Disallowed until Reset
==========================================  ==================================================

Always available (both modes): an RSSI override, "legacy reports only" (clears the
LE Extended Advertising feature bit), opcodes that are never answered (timeout tests) and the
LE Create Connection Cancel fix (quirk 5: the stock controller neither clears the pending
connection nor reports it; ``stock_cancel=True`` keeps the stock behaviour).

Supported commands are reported as the controller really handles them (the stock list omits
the extended scan / connect commands it implements). Two more old-controller quirks:
``bt40=True`` is a Bluetooth 4.0 controller (HCI version 6, no extended advertising, LE Set
Event Mask bits above 4.0 refused with 0x12, like a CSR8510); ``refuse_extended_connect=True``
claims extended advertising but answers LE Extended Create Connection with 0x01;
``no_connect_while_scanning=True`` refuses to initiate while scanning (0x0C), like controllers
that cannot do both.

:class:`FailingEncryption` (used by C0 and by the accessories' controllers): ``fail_encryption=
(status, n)`` makes the controller, as the peripheral of a link, fail the n-th encryption it is
asked for after its host gave the key: the central gets LL_REJECT_EXT_IND (its host an
Encryption Change with ``status``) and so does its own host. Prints ``ENCRYPTION-FAILED-BY-
CONTROLLER controller=NAME status=0xNN``.
"""

from __future__ import annotations

import asyncio
import logging
import struct

from bumble import hci, ll
from bumble.controller import Controller

logger = logging.getLogger(__name__)

DEFAULT_EVENT_MASK = 0x00001FFFFFFFFFFF
DEFAULT_LE_EVENT_MASK = 0x000000000000001F
LE_META_EVENT = 0x3E
UNMASKABLE_EVENTS = {
    hci.HCI_COMMAND_COMPLETE_EVENT,
    hci.HCI_COMMAND_STATUS_EVENT,
    hci.HCI_NUMBER_OF_COMPLETED_PACKETS_EVENT,
}
LE_CONNECTION_COMPLETE_BIT = 0  # subevent 0x01
LE_ENHANCED_CONNECTION_COMPLETE_BIT = 9  # subevent 0x0A

LEGACY_COMMANDS = {
    hci.HCI_LE_SET_ADVERTISING_PARAMETERS_COMMAND,
    hci.HCI_LE_SET_ADVERTISING_DATA_COMMAND,
    hci.HCI_LE_SET_SCAN_RESPONSE_DATA_COMMAND,
    hci.HCI_LE_SET_ADVERTISING_ENABLE_COMMAND,
    hci.HCI_LE_SET_SCAN_PARAMETERS_COMMAND,
    hci.HCI_LE_SET_SCAN_ENABLE_COMMAND,
    hci.HCI_LE_CREATE_CONNECTION_COMMAND,
}
EXTENDED_COMMANDS = {
    hci.HCI_LE_SET_EXTENDED_ADVERTISING_PARAMETERS_COMMAND,
    hci.HCI_LE_SET_EXTENDED_ADVERTISING_DATA_COMMAND,
    hci.HCI_LE_SET_EXTENDED_SCAN_RESPONSE_DATA_COMMAND,
    hci.HCI_LE_SET_EXTENDED_ADVERTISING_ENABLE_COMMAND,
    hci.HCI_LE_SET_EXTENDED_SCAN_PARAMETERS_COMMAND,
    hci.HCI_LE_SET_EXTENDED_SCAN_ENABLE_COMMAND,
    hci.HCI_LE_EXTENDED_CREATE_CONNECTION_COMMAND,
}
OWN_ADDRESS_COMMANDS = {
    hci.HCI_LE_SET_SCAN_PARAMETERS_COMMAND,
    hci.HCI_LE_SET_EXTENDED_SCAN_PARAMETERS_COMMAND,
    hci.HCI_LE_CREATE_CONNECTION_COMMAND,
    hci.HCI_LE_EXTENDED_CREATE_CONNECTION_COMMAND,
}
NO_ADDRESS = hci.Address('00:00:00:00:00:00')


class FailingEncryption:
    """A controller mixin: as a link's peripheral, fail the n-th encryption (see the module
    documentation). Set ``fail_encryption`` and ``report`` before the link encrypts."""

    fail_encryption: tuple[int, int] | None = None
    encryptions_answered = 0

    def on_le_long_term_key_reply(self, connection, request, long_term_key) -> None:
        self.encryptions_answered += 1
        failure = self.fail_encryption
        if failure is not None and long_term_key is not None and self.encryptions_answered == failure[1]:
            status = failure[0]
            self.report(f'ENCRYPTION-FAILED-BY-CONTROLLER controller={self.name} status=0x{status:02x}')
            connection.send_ll_control_pdu(
                ll.RejectExtInd(reject_opcode=ll.ControlPdu.Opcode.LL_ENC_REQ, error_code=status))
            self.on_le_encryption_change(connection, status)
            return
        super().on_le_long_term_key_reply(connection, request, long_term_key)


def parse_failure(text: str) -> tuple[int, int]:
    """``STATUS[@N]`` (hex status, 1-based encryption number) for ``--fail-encryption``."""
    status, _, nth = text.partition('@')
    return int(status, 16), int(nth or '1')

# Extended advertising report event types (Core 5.x Vol 4 Part E 7.7.65.13)
EXT_LEGACY_ADV_IND = 0x13
EXT_LEGACY_SCAN_RSP_TO_ADV_IND = 0x1B
EXT_STOCK_CONNECTABLE = 0x0001
EXT_STOCK_SCAN_RESPONSE = 0x0008


class TestController(FailingEncryption, Controller):
    """The controller exposed to the host under test. See the module documentation."""

    def __init__(
        self,
        name: str,
        *,
        strict: bool = False,
        legacy_only: bool = False,
        rssi: int | None = None,
        never_answer: set[int] | None = None,
        stock_cancel: bool = False,
        bt40: bool = False,
        refuse_extended_connect: bool = False,
        no_connect_while_scanning: bool = False,
        fail_encryption: tuple[int, int] | None = None,
        scan_responses: bool = False,
        report=print,
        **kwargs,
    ) -> None:
        super().__init__(name, **kwargs)
        self.fail_encryption = fail_encryption
        # Report the advertiser's real scan response data even in stock mode (phones: iOS
        # matches a service UUID in the scan response too).
        self.scan_responses = scan_responses
        self.bt40 = bt40
        self.refuse_extended_connect = refuse_extended_connect
        self.no_connect_while_scanning = no_connect_while_scanning
        # The stock list omits extended commands this controller handles.
        self.supported_commands = set(Controller.supported_commands) | EXTENDED_COMMANDS
        if bt40:
            legacy_only = True
            self.hci_version = 6
            self.lmp_version = 6
        self.strict = strict
        self.rssi_override = rssi
        self.never_answer = set(never_answer or ())
        self.stock_cancel = stock_cancel
        self.report = report
        if legacy_only:
            self.le_features = self.le_features & ~hci.LeFeatureMask.LE_EXTENDED_ADVERTISING
            self.supported_commands = self.supported_commands - EXTENDED_COMMANDS
        self.command_set: str | None = None
        self.scan_is_extended = False
        self.seen_reports: set[tuple[bytes, int, bytes]] = set()
        self.acl_outstanding = 0
        if strict:
            self.event_mask = DEFAULT_EVENT_MASK
            self.le_event_mask = DEFAULT_LE_EVENT_MASK
            self.total_num_le_acl_data_packets = 3
            self.total_num_acl_data_packets = 3

    # ------------------------------------------------------------------------------------------
    # Commands
    # ------------------------------------------------------------------------------------------
    def on_packet(self, packet: bytes) -> None:
        try:
            parsed = hci.HCI_Packet.from_bytes(packet)
        except Exception:  # Bumble cannot parse it (e.g. a vendor opcode without parameters)
            if not (self.strict and len(packet) >= 4 and packet[0] == hci.HCI_COMMAND_PACKET):
                raise
            op_code = struct.unpack_from('<H', packet, 1)[0]
            status = (
                hci.HCI_ErrorCode.INVALID_COMMAND_PARAMETERS_ERROR
                if op_code in hci.HCI_Command.command_classes
                else hci.HCI_ErrorCode.UNKNOWN_HCI_COMMAND_ERROR
            )
            self._send_raw_event(hci.HCI_COMMAND_COMPLETE_EVENT, struct.pack('<BHB', 1, op_code, status))
            return
        self.on_hci_packet(parsed)

    def on_hci_command_packet(self, command: hci.HCI_Command) -> None:
        op_code = command.op_code
        if op_code in self.never_answer:
            self.report(f'NEVER-ANSWERED opcode=0x{op_code:04x}')
            return
        if self.refuse_extended_connect and op_code == hci.HCI_LE_EXTENDED_CREATE_CONNECTION_COMMAND:
            self.report('EXTENDED-CONNECT-REFUSED')
            self._send_status(command, hci.HCI_ErrorCode.UNKNOWN_HCI_COMMAND_ERROR)
            return
        if (self.no_connect_while_scanning and self.le_scan_enable
                and op_code in (hci.HCI_LE_CREATE_CONNECTION_COMMAND, hci.HCI_LE_EXTENDED_CREATE_CONNECTION_COMMAND)):
            self.report('CONNECT-WHILE-SCANNING-REFUSED')
            self._send_status(command, hci.HCI_ErrorCode.COMMAND_DISALLOWED_ERROR)
            return
        if self.bt40:
            if op_code in EXTENDED_COMMANDS or op_code not in self.supported_commands:
                self._send_status(command, hci.HCI_ErrorCode.UNKNOWN_HCI_COMMAND_ERROR)
                return
            if op_code == hci.HCI_LE_SET_EVENT_MASK_COMMAND and int.from_bytes(command.le_event_mask, 'little') & ~0x1F:
                # A 4.0 controller knows LE events 1-5 only.
                self.report('LE-EVENT-MASK-REFUSED')
                self._send_status(command, hci.HCI_ErrorCode.INVALID_COMMAND_PARAMETERS_ERROR)
                return
        if self.strict:
            status = self._strict_precheck(command)
            if status is not None:
                self._send_status(command, status)
                return
            if type(command) is hci.HCI_Command or (
                not hasattr(self, f'on_{command.name.lower()}')
            ):
                # Real controllers answer every command; unknown ones with 0x01.
                self._send_status(command, hci.HCI_ErrorCode.UNKNOWN_HCI_COMMAND_ERROR)
                return
        super().on_hci_command_packet(command)

    def _strict_precheck(self, command: hci.HCI_Command) -> int | None:
        op_code = command.op_code
        if op_code in LEGACY_COMMANDS:
            if self.command_set == 'extended':
                return hci.HCI_ErrorCode.COMMAND_DISALLOWED_ERROR
            self.command_set = 'legacy'
        elif op_code in EXTENDED_COMMANDS:
            if self.command_set == 'legacy':
                return hci.HCI_ErrorCode.COMMAND_DISALLOWED_ERROR
            self.command_set = 'extended'
        if op_code in OWN_ADDRESS_COMMANDS:
            own_address_type = getattr(command, 'own_address_type', 0)
            if own_address_type in (1, 3) and self.random_address == NO_ADDRESS:
                return hci.HCI_ErrorCode.INVALID_COMMAND_PARAMETERS_ERROR
        return None

    def _send_status(self, command: hci.HCI_Command, status: int) -> None:
        """Answers `command` with `status`: Command Status for asynchronous commands,
        Command Complete (status only) otherwise."""
        if isinstance(command, hci.HCI_AsyncCommand):
            self._send_hci_command_status(status, command.op_code)
        else:
            self._send_raw_event(
                hci.HCI_COMMAND_COMPLETE_EVENT,
                struct.pack('<BHB', 1, command.op_code, status),
            )

    def _send_raw_event(self, event_code: int, parameters: bytes) -> None:
        if self.host:
            packet = bytes([hci.HCI_EVENT_PACKET, event_code, len(parameters)]) + parameters
            asyncio.get_running_loop().call_soon(self.host.on_packet, packet)

    def on_hci_reset_command(self, command):
        # Both modes: the pending connection and scanning never survive a Reset (quirk 5).
        self.pending_le_connection = None
        self.le_scan_enable = False
        self.seen_reports.clear()
        if self.strict:
            for connection in list(self.le_connections.values()):
                # The link vanishes; the peer sees a supervision timeout.
                connection.send_ll_control_pdu(
                    ll.TerminateInd(hci.HCI_ErrorCode.CONNECTION_TIMEOUT_ERROR)
                )
            self.le_connections.clear()
            self.random_address = NO_ADDRESS
            self.event_mask = DEFAULT_EVENT_MASK
            self.le_event_mask = DEFAULT_LE_EVENT_MASK
            self.command_set = None
            self.le_legacy_advertiser.stop()
            for advertising_set in self.advertising_sets.values():
                advertising_set.stop()
            self.acl_outstanding = 0
        return super().on_hci_reset_command(command)

    # What the host under test advertises (accessory-role tests check the exact bytes).
    def on_hci_le_set_advertising_data_command(self, command):
        self.report(f'ADV-DATA legacy data={bytes(command.advertising_data).hex()}')
        return super().on_hci_le_set_advertising_data_command(command)

    def on_hci_le_set_scan_response_data_command(self, command):
        self.report(f'SCAN-RESPONSE-DATA legacy data={bytes(command.scan_response_data).hex()}')
        return super().on_hci_le_set_scan_response_data_command(command)

    def on_hci_le_set_extended_advertising_data_command(self, command):
        self.report(f'ADV-DATA extended data={bytes(command.advertising_data).hex()}')
        return super().on_hci_le_set_extended_advertising_data_command(command)

    def on_hci_le_set_extended_scan_response_data_command(self, command):
        self.report(f'SCAN-RESPONSE-DATA extended data={bytes(command.scan_response_data).hex()}')
        return super().on_hci_le_set_extended_scan_response_data_command(command)

    def on_hci_le_set_advertising_enable_command(self, command):
        self.report(f'ADV-ENABLE legacy enable={command.advertising_enable}')
        return super().on_hci_le_set_advertising_enable_command(command)

    def on_hci_le_set_extended_advertising_enable_command(self, command):
        self.report(f'ADV-ENABLE extended enable={command.enable}')
        return super().on_hci_le_set_extended_advertising_enable_command(command)

    def on_hci_le_set_scan_enable_command(self, command):
        self.scan_is_extended = False
        if command.le_scan_enable:
            self.seen_reports.clear()
        return super().on_hci_le_set_scan_enable_command(command)

    def on_hci_le_set_extended_scan_parameters_command(self, command):
        if self.le_scan_enable:
            return hci.HCI_StatusReturnParameters(hci.HCI_ErrorCode.COMMAND_DISALLOWED_ERROR)
        if command.scan_types:
            self.le_scan_type = command.scan_types[0]
        return super().on_hci_le_set_extended_scan_parameters_command(command)

    def on_hci_le_set_extended_scan_enable_command(self, command):
        self.scan_is_extended = True
        if command.enable:
            self.seen_reports.clear()
        return super().on_hci_le_set_extended_scan_enable_command(command)

    def on_hci_le_create_connection_cancel_command(self, command):
        if self.stock_cancel:
            return super().on_hci_le_create_connection_cancel_command(command)
        pending = self.pending_le_connection
        if pending is None:
            return hci.HCI_StatusReturnParameters(hci.HCI_ErrorCode.COMMAND_DISALLOWED_ERROR)
        self.pending_le_connection = None
        # After the Command Complete (queued once this handler returns), report the cancelled
        # attempt with status 0x02 Unknown Connection Identifier.
        asyncio.get_running_loop().call_soon(self._report_cancelled_connection, pending)
        return hci.HCI_StatusReturnParameters(hci.HCI_ErrorCode.SUCCESS)

    def _report_cancelled_connection(self, pending) -> None:
        self.report('CONNECT-CANCELLED')
        self.send_hci_packet(
            hci.HCI_LE_Connection_Complete_Event(
                status=hci.HCI_ErrorCode.UNKNOWN_CONNECTION_IDENTIFIER_ERROR,
                connection_handle=0,
                role=hci.Role.CENTRAL,
                peer_address_type=pending.peer_address_type,
                peer_address=pending.peer_address,
                connection_interval=0,
                peripheral_latency=0,
                supervision_timeout=0,
                central_clock_accuracy=0,
            )
        )

    def on_hci_disconnect_command(self, command):
        if not self.strict:
            return super().on_hci_disconnect_command(command)
        connection = self.find_le_connection_by_handle(command.connection_handle)
        if connection is None:
            self._send_hci_command_status(
                hci.HCI_ErrorCode.UNKNOWN_CONNECTION_IDENTIFIER_ERROR, command.op_code
            )
            return None
        self._send_hci_command_status(hci.HCI_COMMAND_STATUS_PENDING, command.op_code)
        connection.send_ll_control_pdu(ll.TerminateInd(command.reason))
        # A real controller reports "terminated by local host" on the initiating side.
        self.on_le_disconnected(
            connection, hci.HCI_ErrorCode.CONNECTION_TERMINATED_BY_LOCAL_HOST_ERROR
        )
        return None

    # ------------------------------------------------------------------------------------------
    # ACL data
    # ------------------------------------------------------------------------------------------
    def on_hci_acl_data_packet(self, packet: hci.HCI_AclDataPacket) -> None:
        if not self.strict:
            super().on_hci_acl_data_packet(packet)
            return
        connection = self.find_connection_by_handle(packet.connection_handle)
        if connection is None:
            logger.warning('no connection for handle 0x%04X', packet.connection_handle)
            return
        if self.acl_outstanding >= self.total_num_le_acl_data_packets:
            # The host ignored our buffer count: a real controller drops the packet.
            self.report(f'ACL-OVERFLOW handle=0x{packet.connection_handle:04x}')
            self._send_raw_event(hci.HCI_DATA_BUFFER_OVERFLOW_EVENT, bytes([0x01]))
            return
        if len(packet.data) > self.le_acl_data_packet_length:
            self.report(f'ACL-TOO-LONG length={len(packet.data)}')
            return
        self.acl_outstanding += 1
        connection.assembler.feed_packet(packet)
        # A real controller frees the buffer once the packet went over the air.
        asyncio.get_running_loop().call_later(0.003, self._complete_acl_packet, connection.handle)

    def _complete_acl_packet(self, handle: int) -> None:
        self.acl_outstanding = max(0, self.acl_outstanding - 1)
        if self.find_connection_by_handle(handle) is None:
            return
        self.send_hci_packet(
            hci.HCI_Number_Of_Completed_Packets_Event(
                connection_handles=[handle], num_completed_packets=[1]
            )
        )

    def on_link_acl_data(self, sender_address, transport, data: bytes) -> None:
        if not self.strict:
            super().on_link_acl_data(sender_address, transport, data)
            return
        connection = self.le_connections.get(sender_address)
        if connection is None:
            logger.warning('no connection for %s', sender_address)
            return
        size = self.le_acl_data_packet_length
        for index, offset in enumerate(range(0, len(data), size)):
            chunk = data[offset : offset + size]
            pb_flag = hci.HCI_ACL_PB_FIRST_FLUSHABLE if index == 0 else hci.HCI_ACL_PB_CONTINUATION
            self.send_hci_packet(hci.HCI_AclDataPacket(connection.handle, pb_flag, 0, len(chunk), chunk))

    # ------------------------------------------------------------------------------------------
    # Events to the host
    # ------------------------------------------------------------------------------------------
    def send_hci_packet(self, packet: hci.HCI_Packet) -> None:
        if self.strict and isinstance(packet, hci.HCI_Event):
            packet = self._masked(packet)
            if packet is None:
                return
        super().send_hci_packet(packet)

    def _masked(self, event: hci.HCI_Event) -> hci.HCI_Event | None:
        code = event.event_code
        if code in UNMASKABLE_EVENTS:
            return event
        if 1 <= code <= 0x40 and not self.event_mask & (1 << (code - 1)):
            return None
        if code != LE_META_EVENT:
            return event
        subevent = event.subevent_code
        if isinstance(event, hci.HCI_LE_Connection_Complete_Event) and (
            self.le_event_mask & (1 << LE_ENHANCED_CONNECTION_COMPLETE_BIT)
        ):
            return hci.HCI_LE_Enhanced_Connection_Complete_Event(
                status=event.status,
                connection_handle=event.connection_handle,
                role=event.role,
                peer_address_type=event.peer_address_type,
                peer_address=event.peer_address,
                local_resolvable_private_address=hci.Address.ANY_RANDOM,
                peer_resolvable_private_address=hci.Address.ANY_RANDOM,
                connection_interval=event.connection_interval,
                peripheral_latency=event.peripheral_latency,
                supervision_timeout=event.supervision_timeout,
                central_clock_accuracy=event.central_clock_accuracy,
            )
        if not self.le_event_mask & (1 << (subevent - 1)):
            return None
        return event

    # ------------------------------------------------------------------------------------------
    # Advertising reports
    # ------------------------------------------------------------------------------------------
    def on_advertising_pdu(self, pdu) -> None:
        if self.le_scan_enable:
            self._send_scan_reports(pdu)
        # Let the stock code handle periodic syncs and pending connections, without its reports.
        scanning = self.le_scan_enable
        self.le_scan_enable = False
        try:
            super().on_advertising_pdu(pdu)
        finally:
            self.le_scan_enable = scanning

    def _rssi(self) -> int:
        return -50 if self.rssi_override is None else self.rssi_override

    def _advertiser_scan_response(self, address: hci.Address) -> bytes:
        for controller in self.link.controllers:
            if controller is self:
                continue
            legacy = controller.le_legacy_advertiser
            if legacy.enabled and legacy.address == address:
                return bytes(legacy.scan_response_data)
            for advertising_set in controller.advertising_sets.values():
                if advertising_set.enabled and advertising_set.address == address:
                    return bytes(advertising_set.scan_response_data)
        return b''

    def _send_scan_reports(self, pdu) -> None:
        address = pdu.advertiser_address
        if not self.strict:
            # Stock behaviour (quirks 2 and 3), only the RSSI may be overridden.
            response = self._advertiser_scan_response(address) if self.scan_responses else pdu.data
            if self.le_features & hci.LeFeatureMask.LE_EXTENDED_ADVERTISING:
                self._send_extended_report(EXT_STOCK_CONNECTABLE, address, pdu.data)
                self._send_extended_report(EXT_STOCK_SCAN_RESPONSE, address, response)
            else:
                self._send_legacy_report(
                    hci.HCI_LE_Advertising_Report_Event.EventType.ADV_IND, address, pdu.data
                )
                self._send_legacy_report(
                    hci.HCI_LE_Advertising_Report_Event.EventType.SCAN_RSP, address, response
                )
            return

        active = self.le_scan_type == 1
        reports = [('adv', pdu.data)]
        if active:
            reports.append(('rsp', self._advertiser_scan_response(address)))
        for kind, data in reports:
            if self.filter_duplicates:
                key = (bytes(address), 0 if kind == 'adv' else 1, bytes(data))
                if key in self.seen_reports:
                    continue
                self.seen_reports.add(key)
            if self.scan_is_extended:
                event_type = EXT_LEGACY_ADV_IND if kind == 'adv' else EXT_LEGACY_SCAN_RSP_TO_ADV_IND
                self._send_extended_report(event_type, address, data)
            else:
                event_type = (
                    hci.HCI_LE_Advertising_Report_Event.EventType.ADV_IND
                    if kind == 'adv'
                    else hci.HCI_LE_Advertising_Report_Event.EventType.SCAN_RSP
                )
                self._send_legacy_report(event_type, address, data)

    def _send_legacy_report(self, event_type, address: hci.Address, data: bytes) -> None:
        report = hci.HCI_LE_Advertising_Report_Event.Report(
            event_type=event_type,
            address_type=address.address_type,
            address=address,
            data=data,
            rssi=self._rssi(),
        )
        self.send_hci_packet(hci.HCI_LE_Advertising_Report_Event([report]))

    def _send_extended_report(self, event_type: int, address: hci.Address, data: bytes) -> None:
        report = hci.HCI_LE_Extended_Advertising_Report_Event.Report(
            event_type=event_type,
            address_type=address.address_type,
            address=address,
            primary_phy=hci.Phy.LE_1M,
            secondary_phy=0 if event_type & 0x10 else hci.Phy.LE_1M,
            advertising_sid=0xFF if event_type & 0x10 else 0,
            tx_power=0x7F if event_type & 0x10 else 0,
            rssi=self._rssi(),
            periodic_advertising_interval=0,
            direct_address_type=0,
            direct_address=hci.Address.ANY,
            data=data,
        )
        self.send_hci_packet(hci.HCI_LE_Extended_Advertising_Report_Event([report]))

    # ------------------------------------------------------------------------------------------
    # Test hooks
    # ------------------------------------------------------------------------------------------
    def drop_links(self, reason: int, peer_address: hci.Address | None = None) -> int:
        """Simulates link loss: the LE links of this controller (to `peer_address`, or all) end
        with `reason` on both sides (no LL_TERMINATE_IND exchange, as when the radio link is
        lost). Returns the number of links dropped."""
        dropped = 0
        for connection in list(self.le_connections.values()):
            if peer_address is not None and connection.peer_address != peer_address:
                continue
            remote = self.link.find_le_controller(connection.peer_address)
            if remote is not None:
                counterpart = remote.le_connections.get(connection.self_address)
                if counterpart is not None:
                    remote.on_le_disconnected(counterpart, reason)
            self.on_le_disconnected(connection, reason)
            dropped += 1
        return dropped
