public import UCI

/// What the IN pump does with the bytes of one completed bulk IN transfer, on the libusb event
/// thread: FT230X modem-status bytes removed (when the kit has them), the rest cut into typed
/// packets by a `UCIPacketFramer` (a packet may span transfers; several may share one).
///
/// Allocation-free in the steady state: the scratch buffer and the framer's buffer keep their
/// capacity, and the framer reuses its buffer in place once the previous packets were released.
/// A value type of its own so that the benchmarks run exactly this code without a dev kit
/// (`@_spi(Benchmarks)`).
@_spi(Benchmarks)
public struct USBInFraming: Sendable {
    private var framer = UCIPacketFramer()
    private var scratch: [UInt8] = []
    private let stripsFTDIStatus: Bool
    private let maxPacketSize: Int

    /// - Parameters:
    ///   - stripsFTDIStatus: remove the 2 status bytes at the start of every `maxPacketSize`
    ///     chunk (FT230X).
    ///   - maxPacketSize: the bulk IN endpoint's max packet size.
    public init(stripsFTDIStatus: Bool, maxPacketSize: Int) {
        self.stripsFTDIStatus = stripsFTDIStatus
        self.maxPacketSize = maxPacketSize
    }

    /// Bytes received but not yet part of a whole packet.
    public var bufferedByteCount: Int { framer.bufferedByteCount }

    /// Frames the bytes of one transfer and hands every whole packet to `deliver`, in order.
    public mutating func receive(_ transfer: UnsafeRawBufferPointer, deliver: (UCIPacket) -> Void) {
        if stripsFTDIStatus {
            scratch.removeAll(keepingCapacity: true)
            FTDI.appendPayload(of: transfer, maxPacketSize: maxPacketSize, to: &scratch)
            framer.append(scratch)
        } else {
            framer.append(transfer)
        }
        while let packet = framer.nextPacket() { deliver(packet) }
    }
}
