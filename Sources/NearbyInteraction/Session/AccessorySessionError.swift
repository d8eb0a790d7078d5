public import LowEnergy
public import UWBDevice
public import NIProtocol

/// Why an ``AccessorySession`` could not do something: one error type with a code to switch
/// on, a sentence saying what went wrong, a remedy, and the underlying error (protocol, UWB,
/// Bluetooth, planning) when there is one. Reported in ``NearbySessionEvent/Kind/error(_:)``;
/// a fatal one also ends the session (``AccessorySessionState/failed(_:)``).
///
/// ```
/// Keys (F0:F1:F2:F3:F4:F5): invalid accessory configuration data: accessoryConfigurationData: uwbConfigDataLength 20 is not one of 19 (v1.0), 21 (v1.1), 32 (v2.0)
///   the accessory's firmware sends malformed configuration data; update it or report it to its maker
/// ```
public struct AccessorySessionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; switch with a `default`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code's name.
        public let name: String
        private init(_ name: String) { self.name = name }

        /// The accessory's configuration data (0x01) does not parse or validate:
        /// ``AccessorySessionError/protocolError`` names the field, its value and what is allowed.
        public static let invalidConfigurationData = Code("invalidConfigurationData")
        /// The accessory did not answer in time (initialize → 0x01, configureAndStart → 0x02).
        public static let accessoryTimeout = Code("accessoryTimeout")
        /// The accessory sent something the host cannot use at this point (an undecodable
        /// message, accessoryUwbDidStop instead of accessoryUwbDidStart).
        public static let protocolViolation = Code("protocolViolation")
        /// No session could be planned (``AccessorySessionError/planningError``).
        public static let planningFailed = Code("planningFailed")
        /// The dev kit's session limit is reached: this accessory cannot range now; the others
        /// go on.
        public static let sessionLimit = Code("sessionLimit")
        /// The local UWB session failed (``AccessorySessionError/uwbError``).
        public static let uwb = Code("uwb")
        /// The data channel failed (``AccessorySessionError/bluetoothError``).
        public static let dataChannel = Code("dataChannel")
        /// Every try of a recovery failed (``RetryPolicy/maxAttempts``); the reason of the last.
        public static let gaveUp = Code("gaveUp")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of failure this is.
    public var code: Code
    /// The accessory, in words (`AccessoryIdentity.description`).
    public var accessory: String
    /// What went wrong, one sentence.
    public var reason: String
    /// What to do about it, if there is something to do.
    public var remedy: String?
    /// The NI codec's error (which structure, field, value, allowed range).
    public var protocolError: NIProtocolError?
    /// The UCI client's error.
    public var uwbError: UCIClientError?
    /// The BLE error.
    public var bluetoothError: BluetoothError?
    /// The planner's error.
    public var planningError: SessionPlanningError?

    /// Creates an error.
    public init(
        _ code: Code, accessory: String, reason: String, remedy: String? = nil, protocolError: NIProtocolError? = nil,
        uwbError: UCIClientError? = nil, bluetoothError: BluetoothError? = nil, planningError: SessionPlanningError? = nil
    ) {
        self.code = code
        self.accessory = accessory
        self.reason = reason
        self.remedy = remedy
        self.protocolError = protocolError
        self.uwbError = uwbError
        self.bluetoothError = bluetoothError
        self.planningError = planningError
    }

    /// "ACCESSORY: reason" and, indented on the next line, the remedy.
    public var description: String {
        var text = accessory.isEmpty ? reason : "\(accessory): \(reason)"
        if let remedy { text += "\n  " + remedy }
        return text
    }
}
