public import UCI

/// How one virtual UWB subsystem presents itself and what it accepts.
///
/// The defaults describe a FiRa UCI 2.0 UWBS with a DW3000-class radio (channels 5 and 9, SP0,
/// SP1 and SP3 frames, azimuth and elevation with figures of merit) that needs a
/// CORE_DEVICE_RESET after power-up, as pica does.
public struct VirtualUWBSConfiguration: Sendable, Hashable {
    /// The UCI version the device reports and speaks: 1.1 (session ID as token, 1-byte
    /// SESSION_INIT_RSP, UCI 1.1 capability numbering, 4-byte UWB_INITIATION_TIME) or 2.0
    /// (session handles, 2.0 numbering, 8-byte UWB_INITIATION_TIME, CORE_QUERY_UWBS_TIMESTAMP).
    public var uciVersion: UCIVersion
    /// How many sessions may exist at once; SESSION_INIT beyond it answers MAX_SESSIONS (0x14).
    public var maximumSessions: Int
    /// `true`: after power-up (connect) and after a device error, every command but
    /// CORE_DEVICE_RESET is answered with CORE_DEVICE_STATUS_NTF(ERROR) and no response, as pica
    /// does. `false`: the device accepts commands right after its power-up READY.
    public var requiresReset: Bool
    /// The channels the radio supports (any of 5, 6, 8, 9, 10, 12, 13, 14); CHANNEL_NUMBER
    /// outside them is INVALID_RANGE.
    public var supportedChannels: [UInt8]
    /// The largest payload of one control packet the device sends (1 ... 255); longer messages
    /// are segmented. Lower it to exercise a host's reassembly.
    public var maximumPacketPayload: Int
    /// The first session handle UCI 2.0 hands out; later ones count up from it. Handles differ
    /// from session IDs, so a host that confuses the two gets SESSION_NOT_EXIST.
    public var firstSessionHandle: UInt32
    /// The vendor bytes of CORE_GET_DEVICE_INFO_RSP.
    public var vendorInfo: [UInt8]
    /// A delay before every command is processed (its response and the notifications it causes
    /// come that much later), to exercise a host's response timeouts. Zero by default.
    public var responseDelay: Duration
    /// `false`: a one-antenna kit (a DWM3001CDK without the PDoA antenna pair): CORE_GET_CAPS_INFO
    /// reports SUPPORTED_AOA without azimuth or elevation. Default `true`.
    public var measuresAngles: Bool
    /// `true`: an NXP SR1xx after power-up (NXP's UWB HAL, `phNxpUciHal_init_hw`): it reports
    /// DEVICE_STATUS_NTF with NXP's state 0x00 and answers every command with REJECTED until it
    /// gets its board configuration (GID 0xE, OID 0x00, `<variant> <version>`), which it answers
    /// OK and with READY. Default `false`.
    public var needsBoardConfiguration: Bool

    /// Creates a configuration; every parameter has the default described on the type.
    public init(
        uciVersion: UCIVersion = .v2_0, maximumSessions: Int = 5, requiresReset: Bool = true,
        supportedChannels: [UInt8] = [5, 9], maximumPacketPayload: Int = 255,
        firstSessionHandle: UInt32 = 0x0001_0001, vendorInfo: [UInt8] = Array("nearby virtual UWBS".utf8),
        responseDelay: Duration = .zero, measuresAngles: Bool = true, needsBoardConfiguration: Bool = false
    ) {
        self.uciVersion = uciVersion
        self.maximumSessions = maximumSessions
        self.requiresReset = requiresReset
        self.supportedChannels = supportedChannels
        self.maximumPacketPayload = maximumPacketPayload
        self.firstSessionHandle = firstSessionHandle
        self.vendorInfo = vendorInfo
        self.responseDelay = responseDelay
        self.measuresAngles = measuresAngles
        self.needsBoardConfiguration = needsBoardConfiguration
    }

    /// The defaults: UCI 2.0, 5 sessions, reset required, channels 5 and 9, 255-byte packets.
    public static let `default` = VirtualUWBSConfiguration()

    /// The UWB channel numbers FiRa defines.
    public static let firaChannels: [UInt8] = [5, 6, 8, 9, 10, 12, 13, 14]

    /// Checks the values.
    /// - Throws: ``VirtualUWBSError`` (`invalidParameter`) naming the value and the accepted range.
    public func validate() throws(VirtualUWBSError) {
        guard uciVersion == .v1_1 || uciVersion == .v2_0 else {
            throw VirtualUWBSError(.invalidParameter, "UCI version \(uciVersion) is not supported; use 1.1 or 2.0")
        }
        guard (1...255).contains(maximumSessions) else {
            throw VirtualUWBSError(.invalidParameter, "maximum sessions \(maximumSessions) is out of range, expected 1 ... 255")
        }
        guard !supportedChannels.isEmpty, supportedChannels.allSatisfy(Self.firaChannels.contains) else {
            throw VirtualUWBSError(
                .invalidParameter,
                "supported channels \(supportedChannels.map(String.init).joined(separator: ", ")) must be a non-empty "
                    + "subset of the FiRa channels 5, 6, 8, 9, 10, 12, 13, 14")
        }
        guard (1...255).contains(maximumPacketPayload) else {
            throw VirtualUWBSError(
                .invalidParameter, "maximum packet payload \(maximumPacketPayload) is out of range, expected 1 ... 255 bytes")
        }
        guard vendorInfo.count <= 255 else {
            throw VirtualUWBSError(.invalidParameter, "vendor information has \(vendorInfo.count) bytes, at most 255 fit")
        }
        guard responseDelay >= .zero, responseDelay <= .seconds(60) else {
            throw VirtualUWBSError(.invalidParameter, "response delay \(responseDelay) is out of range, expected 0 ... 60 s")
        }
    }
}
