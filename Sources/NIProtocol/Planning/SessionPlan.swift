public import UCI
import NearbyBase

/// One planned NI session: what the accessory said, what the host sends back, and the host's
/// own FiRa parameters. Made by ``SessionPlanner``; cached by `AccessorySession` (NearbyInteraction) so a timeout
/// can restart ranging with exactly the same configuration.
public struct SessionPlan: Sendable, Hashable {
    /// The accessory's configuration, in the dialect it arrived in.
    public enum AccessoryConfiguration: Sendable, Hashable {
        /// Apple dialect: accessory configuration data (message 0x01).
        case apple(AccessoryConfigurationData)
        /// Android dialect: UwbDeviceConfigData (message 0x01 after 0xA5).
        case android(UWBDeviceConfigData)
    }

    /// What the host sends in configureAndStart (0x0B).
    public enum SharedConfiguration: Sendable, Hashable {
        /// Apple dialect: shareable configuration data, in the accessory's layout version.
        case apple(ShareableConfigurationData)
        /// Android dialect: UwbPhoneConfigData.
        case android(UWBPhoneConfigData)
    }

    /// The accessory's configuration the plan answers.
    public let accessory: AccessoryConfiguration
    /// The configuration sent to the accessory.
    public let shared: SharedConfiguration
    /// The host's FiRa parameters (the role opposite to the accessory's, addresses swapped).
    public let hostParameters: FiRaSessionParameters

    /// Creates a plan (``SessionPlanner`` does this; public for tests and tools).
    public init(accessory: AccessoryConfiguration, shared: SharedConfiguration, hostParameters: FiRaSessionParameters) {
        self.accessory = accessory
        self.shared = shared
        self.hostParameters = hostParameters
    }

    /// The FiRa session ID both sides use.
    public var sessionID: UInt32 {
        switch shared {
        case .apple(let data): data.sessionID
        case .android(let data): data.sessionID
        }
    }

    /// The dialect of the exchange.
    public var dialect: NIDialect {
        switch shared {
        case .apple: .apple
        case .android: .android
        }
    }

    /// The configureAndStart message (0x0B) carrying ``shared``.
    public var configureMessage: NIMessage {
        switch shared {
        case .apple(let data): .configureAndStart(data)
        case .android(let data): .androidConfigureAndStart(data)
        }
    }

    /// The accessory's UWB short address.
    public var accessoryAddress: UInt16 {
        switch accessory {
        case .apple(let data): data.uwbConfiguration.deviceAddress
        case .android(let data): data.deviceAddress
        }
    }

    /// The host's UWB short address.
    public var hostAddress: UInt16 {
        switch shared {
        case .apple(let data): data.phoneAddress
        case .android(let data): data.phoneAddress
        }
    }

    /// One line for logs and the CLI: `session 0x00005FA8, channel 9, preamble 11, 198 ms, host
    /// 0xB487 controller/initiator -> accessory 0x0012, shareable v1.1 (30 B)`.
    public var summary: String {
        let p = hostParameters
        var text = "session \(Hex.prefixed(sessionID)), channel \(p.channel), preamble \(p.preambleCodeIndex), "
        text += "\(p.rangingInterval) ms, host \(Hex.prefixed(hostAddress)) \(p.deviceType == .controller ? "controller" : "controlee")/\(p.deviceRole == .initiator ? "initiator" : "responder") -> accessory \(Hex.prefixed(accessoryAddress))"
        switch shared {
        case .apple(let data): text += ", shareable v\(data.version) (\(data.byteCount) B)"
        case .android(let data): text += ", Android config ID \(data.profileID)"
        }
        return text
    }
}
