public import UCI

/// Checks that bytes handed to a transport's `send` are exactly one UCI packet, so that a
/// firmware that parses lengths from the header never waits for bytes that do not come (and
/// drops them). Every transport's `send` runs it, the Simulation's in-process one included.
public enum UCIPacketCheck {
    /// The bytes as a typed packet (the header decoded once; the payload is a slice of `bytes`).
    /// - Throws: ``UWBDeviceError`` code `invalidPacket` naming the expected length.
    public static func packet(_ bytes: [UInt8], device: String) throws(UWBDeviceError) -> UCIPacket {
        do {
            return try UCIPacket(bytes: bytes)
        } catch {
            guard let header = try? UCIPacketHeader(decoding: bytes) else {
                throw UWBDeviceError(
                    .invalidPacket, device: device,
                    reason: "a UCI packet needs a 4-byte header; got \(bytes.count) byte(s)",
                    remedy: "Pass one whole packet: header (MT/PBF/GID, OID, RFU, length) followed by the payload.")
            }
            let expected = UCIPacketHeader.size + header.payloadLength
            throw UWBDeviceError(
                .invalidPacket, device: device,
                reason: "the header announces \(header.payloadLength) payload byte(s) but \(bytes.count - UCIPacketHeader.size) follow",
                remedy: "Send exactly one packet per call (\(expected) bytes for this header); segment longer messages with PBF.")
        }
    }

    /// Checks `packet` without keeping the typed value.
    /// - Throws: ``UWBDeviceError`` code `invalidPacket` naming the expected length.
    public static func validate(_ packet: [UInt8], device: String) throws(UWBDeviceError) {
        _ = try self.packet(packet, device: device)
    }
}
