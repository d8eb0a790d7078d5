public import UCI

/// What session planning needs to know about the local dev kit: its UCI version and the
/// channels it supports.
public struct LocalUWBDevice: Sendable, Hashable {
    /// The UCI version the kit speaks (decides 1.1 vs 2.0 parameter encodings).
    public var uciVersion: UCIVersion
    /// The channels the kit reports (CORE_GET_CAPS_INFO), `nil` when it did not report them:
    /// planning then assumes channels 5 and 9, which every NI-capable kit supports.
    public var channels: [UInt8]?

    /// Creates a description.
    public init(uciVersion: UCIVersion, channels: [UInt8]? = nil) {
        self.uciVersion = uciVersion
        self.channels = channels
    }

    /// From what `UCIClient.open()` read: the device info and, if the kit answered, its
    /// capabilities (a malformed channel capability counts as not reported).
    public init(deviceInfo: UCIDeviceInfo, capabilities: UCICapabilities?) {
        self.uciVersion = deviceInfo.uciVersion
        self.channels = (try? capabilities?.channels()) ?? nil
    }
}
