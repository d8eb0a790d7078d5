"""What the accessory does with data-channel messages: a pluggable behaviour.

The accessory calls the behaviour; the behaviour answers through a :class:`Channel`. A later
peer (an NI accessory driving a virtual UWBS over TCP) subclasses :class:`Behaviour` and is
selected with ``--behaviour package.module:ClassName`` or passed to ``BLEPeer(behaviour=...)``.
"""

from __future__ import annotations

import importlib
from typing import Protocol


class Channel(Protocol):
    """The accessory side of one data channel on one connection."""

    name: str  # 'nus' or 'qorvo'
    connection_handle: int

    @property
    def maximum_message_length(self) -> int:
        """ATT_MTU - 3 of the connection: the longest notification that is not truncated."""

    async def send(self, message: bytes) -> None:
        """Notifies `message` on the TX characteristic (if the central subscribed)."""


class Behaviour:
    """Base behaviour: ignores everything. Override the hooks you need."""

    async def on_connected(self, connection_handle: int) -> None:
        pass

    async def on_subscribed(self, channel: Channel) -> None:
        """The central enabled notifications on this channel's TX characteristic."""

    async def on_message(self, channel: Channel, message: bytes) -> None:
        """The central wrote `message` (one ATT write) to this channel's RX characteristic."""

    async def on_disconnected(self, connection_handle: int, reason: int) -> None:
        pass

    def for_accessory(self, index: int) -> 'Behaviour':
        """The behaviour of accessory `index` (0-based) of a multi-accessory peer: index 0 uses
        this instance; stateless behaviours share it, stateful ones return a fresh instance."""
        return self

    async def on_control(self, payload: bytes) -> None:
        """A test wrote ``0x20 + payload`` to the test-control characteristic."""


class EchoBehaviour(Behaviour):
    """Notifies every message back unchanged, on the channel it arrived on."""

    async def on_message(self, channel: Channel, message: bytes) -> None:
        await channel.send(message)


BUILTIN = {'echo': EchoBehaviour, 'silent': Behaviour}


def load(spec: str) -> Behaviour:
    """A behaviour from a built-in name (``echo``, ``silent``) or ``package.module:ClassName``."""
    if spec in BUILTIN:
        return BUILTIN[spec]()
    module_name, _, class_name = spec.partition(':')
    if not class_name:
        raise ValueError(f'unknown behaviour {spec!r}: use one of {sorted(BUILTIN)} or module:Class')
    module = importlib.import_module(module_name)
    return getattr(module, class_name)()
