"""GATT services the test accessory can offer (UUIDs from
specs/ni-protocol.md, Qorvo's QNIS service and Nordic UART) and the test-control service.

Each data-channel service has an RX characteristic the central writes (with and without
response) and a TX characteristic the accessory notifies.
"""

from __future__ import annotations

import dataclasses

# Nordic UART (used by Apple's NI sample and most accessories).
NUS_SERVICE = '6E400001-B5A3-F393-E0A9-E50E24DCCA9E'
NUS_RX = '6E400002-B5A3-F393-E0A9-E50E24DCCA9E'
NUS_TX = '6E400003-B5A3-F393-E0A9-E50E24DCCA9E'

# Qorvo QANI "QNIS".
QORVO_SERVICE = '2E938FD0-6A61-11ED-A1EB-0242AC120002'
QORVO_SEC = '2E93941C-6A61-11ED-A1EB-0242AC120002'
QORVO_RX = '2E93998A-6A61-11ED-A1EB-0242AC120002'
QORVO_TX = '2E939AF2-6A61-11ED-A1EB-0242AC120002'

# Apple's Nearby Interaction service (read-only accessory configuration data).
APPLE_NI_SERVICE = '48FE3E40-0817-4BB2-8633-3073689C2DBA'
APPLE_NI_SINGLE_CONFIG = '95E8D9D5-D8EF-4721-9A4E-807375F53328'
APPLE_NI_MULTIPLE_CONFIG = '1176CF7B-BED2-4690-BD69-5F34001E820C'

# Our test-control service (a private UUID base, not a Bluetooth SIG one).
TEST_SERVICE = '6E62746B-0001-4A50-9D3F-6E6561726279'
TEST_CONTROL = '6E62746B-0002-4A50-9D3F-6E6561726279'
TEST_READABLE = '6E62746B-0003-4A50-9D3F-6E6561726279'
TEST_INDICATE = '6E62746B-0004-4A50-9D3F-6E6561726279'

# What the test characteristics hold.
TEST_READABLE_VALUE = bytes(i % 256 for i in range(300))  # longer than one Read Response
TEST_READABLE_DESCRIPTION = 'nearby test readable'

# Test-control commands (first byte written to TEST_CONTROL).
CONTROL_INDICATE = 0x01  # + payload: indicate payload on TEST_INDICATE
CONTROL_NOTIFY = 0x02  # + payload: notify payload on TEST_INDICATE
CONTROL_LINK_LOSS = 0x08  # both sides lose the link with reason 0x08 (after the response)
CONTROL_VANISH = 0x09  # + [seconds]: link loss and no advertising (out of range), back after seconds (0: never)
CONTROL_DISCONNECT = 0x13  # the accessory disconnects (HCI Disconnect, reason 0x13)
CONTROL_L2CAP_PARAMETER_UPDATE = 0x0E  # L2CAP Connection Parameter Update Request
CONTROL_FORGET_BONDS = 0x0F  # the accessory forgets every bond (reset / paired elsewhere)
CONTROL_ATT_SILENCE = 0x10  # the accessory stops answering ATT requests (after this response)
CONTROL_BEHAVIOUR = 0x20  # + payload: passed to the behaviour's on_control (e.g. the NI accessory's 0x03)


@dataclasses.dataclass(frozen=True)
class DataChannelDefinition:
    """A write + notify data-channel service."""

    name: str
    service: str
    rx: str
    tx: str


NUS = DataChannelDefinition('nus', NUS_SERVICE, NUS_RX, NUS_TX)
QORVO = DataChannelDefinition('qorvo', QORVO_SERVICE, QORVO_RX, QORVO_TX)
DATA_CHANNELS = {definition.name: definition for definition in (NUS, QORVO)}
SERVICE_NAMES = ('nus', 'qorvo', 'apple-ni', 'test')
