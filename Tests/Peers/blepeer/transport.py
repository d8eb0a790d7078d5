"""H4 transports for C0.

``tcp-server:HOST:PORT`` is our own small server instead of Bumble's: Bumble's tcp-server
shares one sink between clients, and the previous client's late ``connection_lost`` clears it
after the next client connected, so a host that reconnects at once gets no events (seen as a
Read Local Version Information timeout right after a successful Reset). Here each client has
its own parser, the newest client wins, and a stale client cannot detach the current one.
Any other spec (``pty:PATH``, ...) goes to Bumble's ``open_transport``.
"""

from __future__ import annotations

import asyncio
import logging

from bumble.transport import open_transport
from bumble.transport.common import StreamPacketSource, Transport

logger = logging.getLogger(__name__)


class _ControllerSource:
    """The source C0 reads from; remembers C0 so each client's parser can feed it."""

    def __init__(self) -> None:
        self.sink = None

    def set_packet_sink(self, sink) -> None:
        self.sink = sink


class _ClientSink:
    """What C0 writes to: the current client, if any."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None

    def on_packet(self, packet: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(packet)


class _ClientProtocol(asyncio.Protocol):
    def __init__(self, source: _ControllerSource, sink: _ClientSink) -> None:
        self.source = source
        self.sink = sink
        self.transport: asyncio.Transport | None = None
        self.parser = StreamPacketSource()

    def connection_made(self, transport) -> None:
        self.transport = transport
        previous = self.sink.transport
        if previous is not None and previous is not transport:
            previous.close()
        self.sink.transport = transport
        self.parser.set_packet_sink(self.source.sink)
        logger.debug('H4 client connected: %s', transport.get_extra_info('peername'))

    def data_received(self, data: bytes) -> None:
        if self.sink.transport is self.transport:
            self.parser.data_received(data)

    def connection_lost(self, error) -> None:
        if self.sink.transport is self.transport:
            self.sink.transport = None


class TcpServerTransport(Transport):
    def __init__(self, source, sink, server) -> None:
        super().__init__(source, sink)
        self.server = server

    async def close(self) -> None:
        self.server.close()
        if self.sink.transport is not None:
            self.sink.transport.close()


async def open_h4_transport(spec: str) -> Transport:
    if spec.startswith('tcp-server:'):
        host, _, port = spec[len('tcp-server:'):].rpartition(':')
        source, sink = _ControllerSource(), _ClientSink()
        server = await asyncio.get_running_loop().create_server(
            lambda: _ClientProtocol(source, sink), host=host or '127.0.0.1', port=int(port))
        return TcpServerTransport(source, sink, server)
    return await open_transport(spec)
