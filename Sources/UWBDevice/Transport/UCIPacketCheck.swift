import UCI

/// Checks that bytes handed to a transport are exactly one UCI packet, so that a firmware that
/// parses lengths from the header never waits for bytes that do not come (and drops them).
enum UCIPacketCheck {
    /// - Throws: ``UWBDeviceError`` code `invalidPacket` naming the expected length.
    static func validate(_ packet: [UInt8], device: String) throws(UWBDeviceError) {
        guard packet.count >= 4 else {
            throw UWBDeviceError(
                .invalidPacket, device: device,
                reason: "a UCI packet needs a 4-byte header; got \(packet.count) byte(s)",
                remedy: "Pass one whole packet: header (MT/PBF/GID, OID, RFU, length) followed by the payload.")
        }
        let payload = UCIPacketFramer.payloadLength(packet[0], packet[1], packet[2], packet[3])
        guard packet.count == 4 + payload else {
            throw UWBDeviceError(
                .invalidPacket, device: device,
                reason: "the header announces \(payload) payload byte(s) but \(packet.count - 4) follow",
                remedy: "Send exactly one packet per call (\(4 + payload) bytes for this header); segment longer messages with PBF.")
        }
    }
}
