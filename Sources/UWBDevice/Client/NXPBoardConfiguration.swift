import NearbyBase

/// The board configuration an NXP SR1xx needs after power-up before it becomes READY: NXP's UWB
/// HAL for Android (`phNxpUciHal_init_hw`, `phNxpUciHal_set_board_config`) waits for the first
/// CORE_DEVICE_STATUS_NTF (state 0x00 or READY), sends `2E 00 00 02 <variant> <version>` (GID
/// 0xE, OID 0x00), waits for READY, resets the UWBS and waits for READY again. ``UCIClient``
/// does the same when the UWBS reports state 0x00.
public struct NXPBoardConfiguration: Sendable, Hashable, CustomStringConvertible {
    /// The board variant (`UWB_BOARD_VARIANT_CONFIG`; NXP's reference board 0x01, customer
    /// reference 1 0x2A).
    public var variant: UInt8
    /// The board version (`UWB_BOARD_VARIANT_VERSION`).
    public var version: UInt8

    /// Creates a configuration.
    public init(variant: UInt8, version: UInt8) {
        self.variant = variant
        self.version = version
    }

    /// NXP's reference board, variant 0x01 version 0x01 (NXP's example `libuwb-nxp.conf`).
    public static let nxpReference = NXPBoardConfiguration(variant: 0x01, version: 0x01)

    /// `variant 0x01, version 0x01`.
    public var description: String { "variant \(Hex.prefixed(variant)), version \(Hex.prefixed(version))" }
}
