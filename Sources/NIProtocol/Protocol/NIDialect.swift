/// Which variant of the NI accessory protocol an exchange speaks.
///
/// Both dialects use message `0x01` (accessory configuration) and `0x0B` (configure and start)
/// but with different payloads:
///
/// | | Apple (iOS) | Android |
/// |---|---|---|
/// | app asks with | `0x0A` initialize | `0xA5` initialize |
/// | `0x01` payload | ``AccessoryConfigurationData``, 35 / 37 / 48 bytes, little-endian | ``UWBDeviceConfigData``, 18 bytes, big-endian |
/// | `0x0B` payload | ``ShareableConfigurationData``, 28 / 30 / 35 bytes, little-endian | ``UWBPhoneConfigData``, 14 bytes, big-endian |
///
/// The payload lengths of the two dialects never coincide, so a decoder can tell them apart by
/// length (see ``NIMessage/init(decoding:dialect:)``); the side that sent the initialize message
/// knows the dialect anyway and should say so.
public enum NIDialect: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Apple Nearby Interaction (`NINearbyAccessoryConfiguration`), specs/reference/ni-accessory-protocol.md §3.1-§3.3.
    case apple
    /// The Android variant of NXP / Truesense accessories (androidx.core.uwb), specs/reference/ni-accessory-protocol.md §3.4.
    case android

    /// The message the app sends to start this dialect's exchange: `0x0A` or `0xA5`.
    public var initializeMessageID: NIMessageID {
        switch self {
        case .apple: .initialize
        case .android: .androidInitialize
        }
    }

    /// `apple` or `android`.
    public var description: String {
        switch self {
        case .apple: "apple"
        case .android: "android"
        }
    }
}
