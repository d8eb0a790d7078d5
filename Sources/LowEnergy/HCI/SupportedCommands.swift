/// The controller's Supported_Commands bitmap (Read Local Supported Commands, Core Vol 4 Part E
/// 6.27): 64 octets, one bit per command.
public struct SupportedCommands: Sendable, Hashable {
    /// The 64 octets as the controller reported them.
    public let octets: [UInt8]

    /// Creates the bitmap (shorter input is padded with zeros).
    public init(octets: [UInt8]) {
        self.octets = Array((octets + [UInt8](repeating: 0, count: 64)).prefix(64))
    }

    /// The (octet, bit) of the commands this host asks about.
    static let positions: [HCIOpcode: (octet: Int, bit: Int)] = [
        .readEncryptionKeySize: (20, 4),
        .leEnableEncryption: (28, 0),
        .leLongTermKeyRequestReply: (28, 1),
        .leLongTermKeyRequestNegativeReply: (28, 2),
        .leAddDeviceToResolvingList: (34, 3),
        .leClearResolvingList: (34, 5),
        .leSetAddressResolutionEnable: (35, 1),
        .leSetExtendedScanParameters: (37, 5),
        .leSetExtendedScanEnable: (37, 6),
        .leExtendedCreateConnection: (37, 7),
    ]

    /// Whether the bitmap lists `opcode`; `nil` for commands this type does not know the bit of.
    public func contains(_ opcode: HCIOpcode) -> Bool? {
        guard let position = Self.positions[opcode] else { return nil }
        return octets[position.octet] & (1 << position.bit) != 0
    }

    /// `true` if the extended scan and connect commands are all listed.
    public var hasExtendedScanAndConnect: Bool {
        [HCIOpcode.leSetExtendedScanParameters, .leSetExtendedScanEnable, .leExtendedCreateConnection].allSatisfy { contains($0) == true }
    }

    /// `true` if the controller keeps a resolving list (LE privacy).
    public var hasResolvingList: Bool {
        [HCIOpcode.leAddDeviceToResolvingList, .leClearResolvingList, .leSetAddressResolutionEnable].allSatisfy { contains($0) == true }
    }
}
