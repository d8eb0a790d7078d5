public import UCI

/// What session planning needs to know about the local dev kit: its UCI version and the
/// channels it supports.
public struct LocalUWBDevice: Sendable, Hashable {
    /// The UCI version the kit speaks (decides 1.1 vs 2.0 parameter encodings).
    public var uciVersion: UCIVersion
    /// The channels the kit reports (CORE_GET_CAPS_INFO), `nil` when it did not report them:
    /// planning then assumes channels 5 and 9, which every NI-capable kit supports.
    public var channels: [UInt8]?
    /// Whether the kit measures angles: `false` when CORE_GET_CAPS_INFO reports SUPPORTED_AOA
    /// without any azimuth or elevation bit (a one-antenna DWM3001CDK), `true` when it reports
    /// one, `nil` when it did not say. Planning sends AOA_RESULT_REQ only to a kit that does
    /// not say `false`, and asks such a kit for no angles.
    public var measuresAngles: Bool?

    /// Creates a description.
    public init(uciVersion: UCIVersion, channels: [UInt8]? = nil, measuresAngles: Bool? = nil) {
        self.uciVersion = uciVersion
        self.channels = channels
        self.measuresAngles = measuresAngles
    }

    /// From what `UCIClient.open()` read: the device info and, if the kit answered, its
    /// capabilities (a malformed capability counts as not reported).
    public init(deviceInfo: UCIDeviceInfo, capabilities: UCICapabilities?) {
        self.uciVersion = deviceInfo.uciVersion
        self.channels = (try? capabilities?.channels()) ?? nil
        let angles: UCIAoACapability = [.azimuth90, .azimuth180, .elevation]
        self.measuresAngles = ((try? capabilities?.aoa()) ?? nil).map { !$0.intersection(angles).isEmpty }
    }

    /// Adapts host parameters to the kit: for a kit that measures no angles, AOA_RESULT_REQ is
    /// neither requested nor sent (the UWBS keeps its own value), and samples carry no angles.
    public func adapt(_ parameters: FiRaSessionParameters) -> FiRaSessionParameters {
        guard measuresAngles == false else { return parameters }
        var adapted = parameters
        adapted.aoaResultRequest = .disabled
        adapted.omittedConfigs.insert(.aoaResultRequest)
        return adapted
    }
}
