public import UCI

/// Something that happened in a ``VirtualUWBSWorld``: for logs (`nearby sim uwbs` prints
/// them), tests and the demo (the ground truth of every round).
public enum VirtualUWBSEvent: Sendable {
    /// Which way a traced packet went.
    public enum Direction: Sendable, Hashable {
        /// Host to UWBS.
        case toDevice
        /// UWBS to host.
        case toHost
    }

    /// A device was attached (a transport opened, a TCP host connected, a peer was added).
    case deviceAttached(VirtualUWBSDeviceID, name: String, isPeer: Bool)
    /// A device went away; `reason` says why.
    case deviceDetached(VirtualUWBSDeviceID, reason: String)
    /// A device got its place in the scene.
    case devicePlaced(VirtualUWBSDeviceID, SceneDeviceID)
    /// A device changed state (READY, ACTIVE, ERROR).
    case deviceState(VirtualUWBSDeviceID, UCIDeviceState)
    /// A session changed state.
    case session(VirtualUWBSDeviceID, VirtualSessionChange)
    /// A device's session measured (or failed to measure) a peer in a ranging round.
    case round(VirtualRangingRound)
    /// A session has a DST address that a device in the world holds, with the same session ID,
    /// but the two cannot range; `reason` says why (reported once until a session changes).
    case cannotRange(VirtualUWBSDeviceID, sessionID: UInt32, peer: UCIMACAddress, peerDevice: VirtualUWBSDeviceID, reason: String)
    /// A round of session `sessionID` found device's one radio busy with a round of session
    /// `busyWith`: its own round waits until the radio is free (`deferred`), or, as the
    /// controlee of a remote controller's round, it misses the round (both sides report it
    /// failed).
    case radioBusy(VirtualUWBSDeviceID, sessionID: UInt32, busyWith: UInt32, deferred: Bool)
    /// A fault was injected.
    case fault(VirtualUWBSDeviceID, VirtualUWBSFault)
    /// The device could not use something the host sent (see ``VirtualUWBSReaction/problems``).
    case problem(VirtualUWBSDeviceID, String)
    /// A UCI packet, when tracing is on (``VirtualUWBSWorld/setTracing(_:)``).
    case packet(VirtualUWBSDeviceID, Direction, UCIPacket)
}

/// One measurement of one ranging round, with its ground truth.
public struct VirtualRangingRound: Sendable, Hashable {
    /// The device whose session measured.
    public var device: VirtualUWBSDeviceID
    /// The session ID.
    public var sessionID: UInt32
    /// The peer's address as the session knows it (a DST address).
    public var peerAddress: UCIMACAddress
    /// The peer device, `nil` when no device answered.
    public var peerDevice: VirtualUWBSDeviceID?
    /// World time of the round, seconds.
    public var worldTime: Double
    /// Scenario time of the round, seconds (`nil` when no peer answered).
    public var sceneTime: Double?
    /// What the device measured, with the true geometry; `nil` when no peer answered (the
    /// notification reports RX_TIMEOUT). A measurement with status 0x21 is a dropout.
    public var measurement: SimulatedMeasurement?

    /// Creates a round record.
    public init(
        device: VirtualUWBSDeviceID, sessionID: UInt32, peerAddress: UCIMACAddress, peerDevice: VirtualUWBSDeviceID?,
        worldTime: Double, sceneTime: Double?, measurement: SimulatedMeasurement?
    ) {
        self.device = device
        self.sessionID = sessionID
        self.peerAddress = peerAddress
        self.peerDevice = peerDevice
        self.worldTime = worldTime
        self.sceneTime = sceneTime
        self.measurement = measurement
    }
}

/// A snapshot of one device of a world.
public struct VirtualUWBSDeviceSnapshot: Sendable {
    /// The device.
    public var id: VirtualUWBSDeviceID
    /// Its name ("tcp 127.0.0.1:51234", "sim", "peer 0x0002").
    public var name: String
    /// `true` for a built-in virtual peer.
    public var isPeer: Bool
    /// The device state.
    public var deviceState: UCIDeviceState
    /// The UCI version it speaks.
    public var uciVersion: UCIVersion
    /// Its sessions, in creation order.
    public var sessions: [VirtualSessionSnapshot]
    /// The placement asked for.
    public var placement: VirtualUWBSPlacement
    /// Its device in the scene, once placed.
    public var sceneDevice: SceneDeviceID?
    /// `true` while a ``VirtualUWBSFault/radioSilence(_:)`` fault holds.
    public var isSilent: Bool
}
