/// The seam between the BLE host and a controller: something that carries HCI packets.
///
/// Implementations are blind to the layers above: they move whole packets. An opened transport
/// delivers every packet from the controller on ``packets`` (in order, single consumer) and
/// sends packets with ``send(_:)``. ``packets`` finishes when the transport is closed (without
/// error) or breaks (with a ``BluetoothError``, e.g. the TCP peer closed the connection).
///
/// Implementations: ``HCIUserChannelTransport`` (`hci:N`), ``H4SocketTransport``
/// (`tcp:HOST:PORT`), ``H4SerialTransport`` (`serial:PATH[@BAUD]`); open one from a spec with
/// ``HCITransportSpec/open()``. Tests use an in-memory transport.
public protocol HCITransport: AnyObject, Sendable {
    /// A short name for messages: `"hci:0"`, `"tcp:127.0.0.1:5000"`.
    var name: String { get }

    /// Packets from the controller, in arrival order. Single consumer.
    var packets: AsyncThrowingStream<HCIPacket, any Error> { get }

    /// Sends one packet to the controller.
    /// - Throws: ``BluetoothError/transportClosed(transport:reason:)`` if the transport is
    ///   closed or the write fails.
    func send(_ packet: HCIPacket) async throws(BluetoothError)

    /// Closes the transport; ``packets`` finishes. Safe to call more than once.
    func close() async
}
