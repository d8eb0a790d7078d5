import UCI

/// Whether two sessions of the virtual UWBS can range with each other, and if not, why.
///
/// Two ACTIVE sessions on two devices range when they have the same session ID (checked by the
/// world), the same CHANNEL_NUMBER, PREAMBLE_CODE_INDEX and MAC_ADDRESS_MODE, opposite
/// DEVICE_TYPE (controller / controlee) and DEVICE_ROLE (initiator / responder), and each one's
/// DEVICE_MAC_ADDRESS is in the other's DST_MAC_ADDRESS list (pica's rule plus the radio
/// parameters a real link needs).
public enum RangingCompatibility {
    /// `nil` if `a` and `b` can range, else why not, naming the parameter and both values.
    public static func mismatch(_ a: VirtualSessionConfiguration, _ b: VirtualSessionConfiguration) -> String? {
        if a.channel != b.channel { return "CHANNEL_NUMBER \(a.channel) vs \(b.channel)" }
        if a.preambleCodeIndex != b.preambleCodeIndex {
            return "PREAMBLE_CODE_INDEX \(a.preambleCodeIndex) vs \(b.preambleCodeIndex)"
        }
        if a.macAddressMode != b.macAddressMode {
            return "MAC_ADDRESS_MODE \(a.macAddressMode) vs \(b.macAddressMode)"
        }
        guard let typeA = a.deviceType, let typeB = b.deviceType, typeA != typeB else {
            return "both are DEVICE_TYPE \(a.deviceType.map { "\($0)" } ?? "unset"): one must be the controller, the other the controlee"
        }
        guard let roleA = a.deviceRole, let roleB = b.deviceRole, roleA != roleB else {
            return "both are DEVICE_ROLE \(a.deviceRole.map { "\($0)" } ?? "unset"): one must be the initiator, the other the responder"
        }
        guard let addressA = a.deviceMACAddress, b.destinationAddresses.contains(addressA) else {
            return "\(a.deviceMACAddress.map { "\($0)" } ?? "an unset DEVICE_MAC_ADDRESS") is not in the peer's DST_MAC_ADDRESS list"
                + " \(list(b.destinationAddresses))"
        }
        guard let addressB = b.deviceMACAddress, a.destinationAddresses.contains(addressB) else {
            return "the peer's \(b.deviceMACAddress.map { "\($0)" } ?? "unset DEVICE_MAC_ADDRESS") is not in the DST_MAC_ADDRESS list"
                + " \(list(a.destinationAddresses))"
        }
        return nil
    }

    private static func list(_ addresses: [UCIMACAddress]) -> String {
        "[" + addresses.map(\.description).joined(separator: ", ") + "]"
    }
}
