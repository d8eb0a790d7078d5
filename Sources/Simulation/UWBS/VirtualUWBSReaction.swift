public import UCI

/// What a virtual UWBS did in answer to one input (a packet from the host, a ranging round, a
/// fault): the packets it sends to the host and the state changes behind them.
public struct VirtualUWBSReaction: Sendable, Hashable {
    /// Whole UCI packets for the host, in order (long messages already segmented), typed: the
    /// in-process transport hands them to the host as they are, the TCP server writes their bytes.
    public var packets: [UCIPacket] = []
    /// Session state changes, in order (also those the host is not told about, such as the
    /// sessions a reset dropped).
    public var sessionChanges: [VirtualSessionChange] = []
    /// Device state changes, in order.
    public var deviceStates: [UCIDeviceState] = []
    /// Input the UWBS could not use, in words (malformed packets, responses or notifications
    /// sent by the host, data it does not support), for the log.
    public var problems: [String] = []

    /// An empty reaction.
    public init() {}

    mutating func append(_ other: VirtualUWBSReaction) {
        packets += other.packets
        sessionChanges += other.sessionChanges
        deviceStates += other.deviceStates
        problems += other.problems
    }
}

/// A session of a virtual UWBS changed state.
public struct VirtualSessionChange: Sendable, Hashable, CustomStringConvertible {
    /// The session ID the host chose in SESSION_INIT.
    public var sessionID: UInt32
    /// The token the host uses for it: the ID in UCI 1.1, the handle in 2.0.
    public var token: UInt32
    /// The new state (DEINIT when the session is gone).
    public var state: UCISessionState
    /// Why (as SESSION_STATUS_NTF reports it).
    public var reason: UCIReasonCode

    /// Creates a change.
    public init(sessionID: UInt32, token: UInt32, state: UCISessionState, reason: UCIReasonCode) {
        self.sessionID = sessionID
        self.token = token
        self.state = state
        self.reason = reason
    }

    /// `"session 42 ACTIVE"`, with the reason when it is not a host command.
    public var description: String {
        let name = state.name.map { $0.hasPrefix("SESSION_STATE_") ? String($0.dropFirst(14)) : $0 } ?? state.description
        let base = "session \(sessionID) \(name)"
        return reason == .stateChangeWithSessionManagementCommands ? base : "\(base) (\(reason))"
    }
}

/// A snapshot of one session of a virtual UWBS.
public struct VirtualSessionSnapshot: Sendable, Hashable {
    /// The session ID the host chose.
    public var sessionID: UInt32
    /// The token the host uses (ID in UCI 1.1, handle in 2.0).
    public var token: UInt32
    /// The session type.
    public var type: UCISessionType
    /// The state.
    public var state: UCISessionState
    /// The app configuration.
    public var configuration: VirtualSessionConfiguration
    /// Ranging rounds since the last SESSION_START (SESSION_GET_RANGING_COUNT).
    public var rangingCount: UInt32
}

/// One peer's result in a ranging round, as the world hands it to a device.
struct RoundResult: Sendable {
    /// The peer's MAC address as this session knows it.
    var address: UCIMACAddress
    /// What this device measured; `nil` when no peer answered (RX timeout).
    var measurement: SimulatedMeasurement?
    /// What the peer measured of this device, for the destination angles.
    var peerMeasurement: SimulatedMeasurement?
}
