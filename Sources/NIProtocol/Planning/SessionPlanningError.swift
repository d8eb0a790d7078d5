/// Why no session could be planned for an accessory: the accessory's configuration and the
/// local kit (or the options) have nothing in common. The message says which and what to do.
public struct SessionPlanningError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was missing or wrong.
    public enum Reason: Sendable, Hashable {
        /// No channel of the options (NI: 5, 9) is supported by the local kit.
        case noCommonChannel(wanted: [UInt8], supported: [UInt8])
        /// The options list no preamble code index NI accepts (9-12).
        case noPreamble([UInt8])
        /// An option value is out of range (`field`, `value`, what is allowed).
        case invalidOption(field: String, value: String, allowed: String)
        /// Android dialect: the accessory supports none of the host's FiRa config IDs.
        case noCommonProfile(accessory: UInt32, host: [UInt8])
        /// The codec refused a value while building the configuration.
        case encoding(NIProtocolError)
        /// The accessory announces a role NI sessions cannot use (not responder or initiator).
        case unusableRole(NIRangingRole)
    }

    /// What went wrong.
    public var reason: Reason

    /// Creates an error.
    public init(_ reason: Reason) { self.reason = reason }

    /// A sentence naming the problem and the fix.
    public var description: String {
        switch reason {
        case .noCommonChannel(let wanted, let supported):
            "no common UWB channel: NI needs one of \(list(wanted)), the dev kit supports \(list(supported)); use a kit with channel 5 or 9"
        case .noPreamble(let codes):
            "no usable preamble code index in \(list(codes)): NI accepts 9-12"
        case .invalidOption(let field, let value, let allowed):
            "planning option \(field) = \(value) is out of range, expected \(allowed)"
        case .noCommonProfile(let accessory, let host):
            "the accessory supports FiRa config IDs \(Self.bits(accessory)) and the host runs \(list(host)): no common profile (Android dialect)"
        case .encoding(let error):
            "cannot build the configuration: \(error)"
        case .unusableRole(let role):
            "uwbConfigData: rangingRole \(role) cannot range in an NI session, expected \(NIRangingRole.usableText); the accessory's firmware announces another kind of UWB session"
        }
    }

    private func list(_ values: [UInt8]) -> String {
        values.isEmpty ? "none" : values.map(String.init).joined(separator: ", ")
    }

    private static func bits(_ mask: UInt32) -> String {
        let ids = (0..<32).filter { mask & (1 << UInt32($0)) != 0 }
        return ids.isEmpty ? "none" : ids.map(String.init).joined(separator: ", ")
    }
}
