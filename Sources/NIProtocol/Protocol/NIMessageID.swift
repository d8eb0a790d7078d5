import NearbyBase

/// The 1-byte ID that starts every NI accessory protocol message.
///
/// The IDs are the convention of Apple's sample ("an example messaging protocol") that every
/// known accessory firmware and app uses; any other byte is kept as an unknown ID, never
/// rejected.
public struct NIMessageID: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The byte on the wire.
    public var rawValue: UInt8

    /// Wraps a byte.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// `0x01` accessory → app: accessory configuration data (Apple) or UwbDeviceConfigData (Android).
    public static let accessoryConfigurationData = NIMessageID(rawValue: 0x01)
    /// `0x02` accessory → app: the accessory started ranging.
    public static let accessoryUWBDidStart = NIMessageID(rawValue: 0x02)
    /// `0x03` accessory → app: the accessory stopped ranging.
    public static let accessoryUWBDidStop = NIMessageID(rawValue: 0x03)
    /// `0x0A` app → accessory: send your configuration data (Apple dialect).
    public static let initialize = NIMessageID(rawValue: 0x0A)
    /// `0x0B` app → accessory: shareable configuration data (Apple) or UwbPhoneConfigData (Android).
    public static let configureAndStart = NIMessageID(rawValue: 0x0B)
    /// `0x0C` app → accessory: stop ranging.
    public static let stop = NIMessageID(rawValue: 0x0C)
    /// `0x20` Qorvo getDeviceStruct: the app asks for the device parameters; the accessory
    /// answers with the same ID and ``QorvoDeviceParameters`` (Qorvo's 2024-25 `ble_niq.c`;
    /// a stub in older firmware).
    public static let getDeviceStruct = NIMessageID(rawValue: 0x20)
    /// `0x21` Qorvo setDeviceStruct: the app sets the device parameters; answered `0x22`.
    public static let setDeviceStruct = NIMessageID(rawValue: 0x21)
    /// `0x22` Qorvo setDeviceStructAck: the accessory's status for a `0x21`.
    public static let setDeviceStructAck = NIMessageID(rawValue: 0x22)
    /// `0x2F` accessory → app: Qorvo iOSNotify (distance and a short text).
    public static let iOSNotify = NIMessageID(rawValue: 0x2F)
    /// `0xA5` app → accessory: send your configuration data (Android dialect).
    public static let androidInitialize = NIMessageID(rawValue: 0xA5)

    /// Every ID this codec knows.
    public static let known: [NIMessageID] = [
        .accessoryConfigurationData, .accessoryUWBDidStart, .accessoryUWBDidStop, .initialize,
        .configureAndStart, .stop, .getDeviceStruct, .setDeviceStruct, .setDeviceStructAck, .iOSNotify, .androidInitialize,
    ]

    /// The name the Apple sample / Qorvo firmware give the ID, `nil` for an unknown ID.
    public var name: String? {
        switch rawValue {
        case 0x01: "accessoryConfigurationData"
        case 0x02: "accessoryUwbDidStart"
        case 0x03: "accessoryUwbDidStop"
        case 0x0A: "initialize"
        case 0x0B: "configureAndStart"
        case 0x0C: "stop"
        case 0x20: "getDeviceStruct"
        case 0x21: "setDeviceStruct"
        case 0x22: "setDeviceStructAck"
        case 0x2F: "iOSNotify"
        case 0xA5: "initialize (Android)"
        default: nil
        }
    }

    /// `0x01 accessoryConfigurationData`, or `0x42 (unknown)`.
    public var description: String {
        "\(Hex.prefixed(rawValue)) \(name ?? "(unknown)")"
    }
}
