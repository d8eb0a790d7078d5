import NearbyBase
public import UCI

/// A session of `nearby uwb range` given as text (its flags) that cannot be used: the message
/// names the flag and says what it accepts.
public struct UWBRangeSessionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and what to give instead.
    public var description: String
}

extension UWBRangeRun {
    /// The session ID and the FiRa parameters given as text (`nearby uwb range`'s flags),
    /// checked (`FiRaSessionParameters.validate(for:)`); more than one peer makes a one-to-many
    /// session.
    /// - Parameters:
    ///   - id: the session ID, decimal or `0x` hex (`--session-id`).
    ///   - mac: this device's address (`--mac`), see ``address(_:option:)``.
    ///   - peers: the peers' addresses (`--peer`).
    ///   - deviceType: controller or controlee.
    ///   - deviceRole: initiator or responder.
    ///   - channel: the UWB channel.
    ///   - preamble: the preamble code index.
    ///   - intervalMS: milliseconds between ranging rounds.
    /// - Throws: ``UWBRangeSessionError`` naming the flag, or what the parameters' check found.
    public static func session(
        id: String, mac: String, peers: [String], deviceType: UCIDeviceType, deviceRole: UCIDeviceRole, channel: UInt8, preamble: UInt8,
        intervalMS: UInt32
    ) throws(UWBRangeSessionError) -> (id: UInt32, parameters: FiRaSessionParameters) {
        guard let sessionID = IntegerText.parse(id, as: UInt32.self) else {
            throw UWBRangeSessionError(description: "--session-id \"\(id)\" is not a number 0-4294967295 (decimal or 0x hex)")
        }
        var parameters = FiRaSessionParameters(
            deviceMACAddress: try address(mac, option: "--mac"), destinationMACAddresses: try peers.map { (peer) throws(UWBRangeSessionError) in
                try address(peer, option: "--peer")
            },
            deviceType: deviceType, deviceRole: deviceRole, channel: channel, preambleCodeIndex: preamble, rangingInterval: intervalMS)
        if peers.count > 1 { parameters.multiNodeMode = .oneToMany }
        do {
            try parameters.validate()
        } catch {
            throw UWBRangeSessionError(description: error.description)
        }
        return (sessionID, parameters)
    }

    /// `0x0001` / `0001` (short, up to 4 hex digits) or 16 hex digits (extended).
    /// - Parameters:
    ///   - text: the address as given.
    ///   - option: the flag the address came from, for the message.
    /// - Throws: ``UWBRangeSessionError`` saying both forms.
    public static func address(_ text: String, option: String) throws(UWBRangeSessionError) -> UCIMACAddress {
        guard let address = UCIMACAddress(parsing: text) else {
            throw UWBRangeSessionError(
                description:
                    "\(option) \"\(text)\" is not a MAC address: give a short address (1-4 hex digits, e.g. 0x0002) or an extended one (16 hex digits)")
        }
        return address
    }
}
